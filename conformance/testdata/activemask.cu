// activemask: __activemask() in a block whose last warp is only partly
// populated (80 threads: warps of 32, 32 and 16 lanes). Each warp records
// how many lanes are active and its lowest lane; __syncwarp() orders the
// per-lane writes before lane 0 sums them.
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

constexpr int kBlock = 80;
constexpr int kBlocks = 4;
constexpr int kWarpsPerBlock = (kBlock + 31) / 32;

__global__ void census(int *active, int *lowest, int *lane_sum) {
  __shared__ int lanes[kWarpsPerBlock * 32];
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  unsigned int mask = __activemask();
  lanes[threadIdx.x] = lane;
  __syncwarp(mask);
  if (lane == 0) {
    int w = blockIdx.x * kWarpsPerBlock + warp;
    active[w] = __popc(mask);
    lowest[w] = __ffs(mask) - 1;
    int s = 0;
    for (int i = 0; i < __popc(mask); i++) s += lanes[warp * 32 + i];
    lane_sum[w] = s;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  const int warps = kBlocks * kWarpsPerBlock;
  int *d_active, *d_lowest, *d_sum;
  CHECK(cudaMalloc(&d_active, warps * sizeof(int)));
  CHECK(cudaMalloc(&d_lowest, warps * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, warps * sizeof(int)));
  census<<<kBlocks, kBlock>>>(d_active, d_lowest, d_sum);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> active(warps), lowest(warps), sum(warps);
  CHECK(cudaMemcpy(active.data(), d_active, warps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(lowest.data(), d_lowest, warps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sum.data(), d_sum, warps * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < warps; w++) {
    int in_block = w % kWarpsPerBlock;
    int n = kBlock - in_block * 32 < 32 ? kBlock - in_block * 32 : 32;
    int want_sum = n * (n - 1) / 2;
    if (active[w] != n || lowest[w] != 0 || sum[w] != want_sum) {
      if (bad++ < 5)
        std::printf("warp %d: got active %d lowest %d sum %d, want %d 0 %d\n", w,
                    active[w], lowest[w], sum[w], n, want_sum);
    }
  }
  CHECK(cudaFree(d_active));
  CHECK(cudaFree(d_lowest));
  CHECK(cudaFree(d_sum));
  if (bad) {
    std::printf("FAIL: %d warps wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
