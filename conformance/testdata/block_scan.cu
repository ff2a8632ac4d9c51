// block_scan: inclusive prefix sum over a whole block. Warps scan with
// shuffles, their totals go to dynamic shared memory sized blockDim.x / 32 at
// launch, and each warp then scans the totals to find its offset.
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

constexpr int kBlocks = 6;

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
  for (int d = 1; d <= 16; d *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += n;
  }
  return v;
}

__global__ void block_scan(const int *in, int *out) {
  extern __shared__ int warp_totals[];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int warps = blockDim.x >> 5;
  int v = warp_inclusive_scan(in[tid], lane);
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  int t = lane < warps ? warp_totals[lane] : 0;
  t = warp_inclusive_scan(t, lane);
  int offset = __shfl_sync(0xffffffff, t, (warp + 31) & 31);
  out[tid] = v + (warp > 0 ? offset : 0);
}

static int run(int block) {
  int n = block * kBlocks;
  std::vector<int> in(n);
  unsigned seed = 11u + block;
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 50);
  }
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_scan<<<kBlocks, block, block / 32 * sizeof(int)>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < kBlocks; b++) {
    int sum = 0;
    for (int i = 0; i < block; i++) {
      int t = b * block + i;
      sum += in[t];
      if (out[t] != sum) {
        if (bad++ < 5)
          std::printf("block size %d, element %d: got %d, want %d\n", block, t, out[t], sum);
      }
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return bad;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  int bad = run(128) + run(512);
  if (bad) {
    std::printf("FAIL: %d elements wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
