// warp_size_macro: code built around "#define WARP_SIZE 32": lane and warp
// from WARP_SIZE, a max-reduction loop from WARP_SIZE / 2, and a shared array
// of per-warp partials sized BLOCK / WARP_SIZE.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                   \
  do {                                                                \
    cudaError_t err_ = (call);                                        \
    if (err_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,         \
                   cudaGetErrorString(err_));                         \
      std::exit(1);                                                   \
    }                                                                 \
  } while (0)

#define WARP_SIZE 32
#define BLOCK 256

constexpr int kBlocks = 8;
constexpr int kN = BLOCK * kBlocks;

__device__ float warp_max(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, offset));
  return v;
}

__global__ void row_max(const float *in, float *warp_out, float *block_out) {
  __shared__ float partial[BLOCK / WARP_SIZE];
  int tid = blockIdx.x * BLOCK + threadIdx.x;
  int lane = threadIdx.x % WARP_SIZE;
  int warp = threadIdx.x / WARP_SIZE;
  float v = warp_max(in[tid]);
  if (lane == 0) {
    partial[warp] = v;
    warp_out[blockIdx.x * (BLOCK / WARP_SIZE) + warp] = v;
  }
  __syncthreads();
  float m = lane < BLOCK / WARP_SIZE ? partial[lane] : -1e30f;
  m = warp_max(m);
  if (threadIdx.x == 0) block_out[blockIdx.x] = m;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<float> in(kN);
  unsigned seed = 31;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (float)((seed >> 8) % 100000) / 7.0f - 5000.0f;
  }
  const int warps = kN / WARP_SIZE;
  float *d_in, *d_warp, *d_block;
  CHECK(cudaMalloc(&d_in, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_warp, warps * sizeof(float)));
  CHECK(cudaMalloc(&d_block, kBlocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  row_max<<<kBlocks, BLOCK>>>(d_in, d_warp, d_block);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> warp(warps), block(kBlocks);
  CHECK(cudaMemcpy(warp.data(), d_warp, warps * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(block.data(), d_block, kBlocks * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < warps; w++) {
    float want = in[w * WARP_SIZE];
    for (int i = 1; i < WARP_SIZE; i++)
      if (in[w * WARP_SIZE + i] > want) want = in[w * WARP_SIZE + i];
    if (warp[w] != want) {
      if (bad++ < 5) std::printf("warp %d: got %g, want %g\n", w, warp[w], want);
    }
  }
  for (int b = 0; b < kBlocks; b++) {
    float want = in[b * BLOCK];
    for (int i = 1; i < BLOCK; i++)
      if (in[b * BLOCK + i] > want) want = in[b * BLOCK + i];
    if (block[b] != want) {
      if (bad++ < 10) std::printf("block %d: got %g, want %g\n", b, block[b], want);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_warp));
  CHECK(cudaFree(d_block));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
