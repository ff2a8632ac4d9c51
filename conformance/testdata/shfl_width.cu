// shfl_width: shuffles on sub-warp segments (the width argument): broadcast
// within 16-lane segments, shift down and xor within 8-lane segments, shift
// up within 16-lane segments. Lanes whose source falls outside their segment
// keep their own value.
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

constexpr int kBlock = 128;
constexpr int kBlocks = 2;
constexpr int kN = kBlock * kBlocks;

__global__ void segments(int *bcast, int *down, int *up, int *xored) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = tid * 10;
  bcast[tid] = __shfl_sync(0xffffffff, v, 3, 16);
  down[tid] = __shfl_down_sync(0xffffffff, v, 3, 8);
  up[tid] = __shfl_up_sync(0xffffffff, v, 2, 16);
  xored[tid] = __shfl_xor_sync(0xffffffff, v, 5, 8);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  int *d[4];
  for (auto &p : d) CHECK(cudaMalloc(&p, kN * sizeof(int)));
  segments<<<kBlocks, kBlock>>>(d[0], d[1], d[2], d[3]);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> got[4];
  for (int i = 0; i < 4; i++) {
    got[i].resize(kN);
    CHECK(cudaMemcpy(got[i].data(), d[i], kN * sizeof(int), cudaMemcpyDeviceToHost));
  }
  int bad = 0;
  for (int t = 0; t < kN; t++) {
    int want[4];
    want[0] = (t / 16 * 16 + 3) * 10;
    want[1] = (t % 8 + 3 < 8 ? t + 3 : t) * 10;
    want[2] = (t % 16 >= 2 ? t - 2 : t) * 10;
    want[3] = (t / 8 * 8 + ((t % 8) ^ 5)) * 10;
    for (int i = 0; i < 4; i++) {
      if (got[i][t] != want[i]) {
        if (bad++ < 5)
          std::printf("thread %d, op %d: got %d, want %d\n", t, i, got[i][t], want[i]);
      }
    }
  }
  for (auto p : d) CHECK(cudaFree(p));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
