// lane_warp_index: lane and warp indices computed the ways CUDA code does
// (threadIdx.x & 31, % 32, >> 5, / 32), plus shuffles that depend on them:
// broadcast from lane 0 and lane 31, and a rotation by one lane.
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

constexpr int kBlock = 320;
constexpr int kBlocks = 3;
constexpr int kN = kBlock * kBlocks;

__global__ void indices(int *ids, int *first, int *last, int *rotated) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int lane2 = threadIdx.x % 32;
  int warp = threadIdx.x >> 5;
  int warp2 = threadIdx.x / 32;
  ids[tid] = (lane == lane2 && warp == warp2) ? warp * 100 + lane : -1;
  int x = tid * 3 + 1;
  first[tid] = __shfl_sync(0xffffffff, x, 0);
  last[tid] = __shfl_sync(0xffffffff, x, 31);
  rotated[tid] = __shfl_sync(0xffffffff, x, (lane + 1) & 31);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  int *d_ids, *d_first, *d_last, *d_rot;
  CHECK(cudaMalloc(&d_ids, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_first, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_last, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_rot, kN * sizeof(int)));
  indices<<<kBlocks, kBlock>>>(d_ids, d_first, d_last, d_rot);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> ids(kN), first(kN), last(kN), rot(kN);
  CHECK(cudaMemcpy(ids.data(), d_ids, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(first.data(), d_first, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(last.data(), d_last, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rot.data(), d_rot, kN * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int t = 0; t < kN; t++) {
    int local = t % kBlock, lane = local % 32, warp = local / 32;
    int base = t - lane;
    int want_id = warp * 100 + lane;
    int want_first = base * 3 + 1;
    int want_last = (base + 31) * 3 + 1;
    int want_rot = (base + (lane + 1) % 32) * 3 + 1;
    if (ids[t] != want_id || first[t] != want_first || last[t] != want_last ||
        rot[t] != want_rot) {
      if (bad++ < 5)
        std::printf("thread %d: got %d %d %d %d, want %d %d %d %d\n", t, ids[t], first[t],
                    last[t], rot[t], want_id, want_first, want_last, want_rot);
    }
  }
  CHECK(cudaFree(d_ids));
  CHECK(cudaFree(d_first));
  CHECK(cudaFree(d_last));
  CHECK(cudaFree(d_rot));
  if (bad) {
    std::printf("FAIL: %d threads wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
