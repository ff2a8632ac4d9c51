// shfl_down_reduce: the classic block sum. Each 32-lane warp reduces with a
// __shfl_down_sync loop starting at 16, warp sums go through shared memory
// sized by warps per block, and the first warp reduces them again.
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

constexpr int kBlock = 256;
constexpr int kBlocks = 16;
constexpr int kN = kBlock * kBlocks;

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const int *in, int *warp_out, int *block_out) {
  __shared__ int sums[kBlock / 32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int v = warp_sum(in[tid]);
  if (lane == 0) {
    sums[warp] = v;
    warp_out[tid / 32] = v;
  }
  __syncthreads();
  // Every warp runs the second stage so that the shuffles stay converged.
  int t = threadIdx.x < blockDim.x / 32 ? sums[lane] : 0;
  t = warp_sum(t);
  if (threadIdx.x == 0) block_out[blockIdx.x] = t;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 7;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 1000) - 500;
  }
  int *d_in, *d_warp, *d_block;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_warp, kN / 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_block, kBlocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  block_sum<<<kBlocks, kBlock>>>(d_in, d_warp, d_block);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> warp(kN / 32), block(kBlocks);
  CHECK(cudaMemcpy(warp.data(), d_warp, warp.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(block.data(), d_block, block.size() * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < kN / 32; w++) {
    int want = 0;
    for (int i = 0; i < 32; i++) want += in[w * 32 + i];
    if (warp[w] != want) {
      if (bad++ < 5) std::printf("warp %d: got %d, want %d\n", w, warp[w], want);
    }
  }
  for (int b = 0; b < kBlocks; b++) {
    int want = 0;
    for (int i = 0; i < kBlock; i++) want += in[b * kBlock + i];
    if (block[b] != want) {
      if (bad++ < 10) std::printf("block %d: got %d, want %d\n", b, block[b], want);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_warp));
  CHECK(cudaFree(d_block));
  if (bad) {
    std::printf("FAIL: %d wrong sums\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
