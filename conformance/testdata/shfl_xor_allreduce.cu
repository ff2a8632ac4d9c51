// shfl_xor_allreduce: butterfly all-reduce of the maximum and the sum over a
// 32-lane warp with __shfl_xor_sync, so every lane ends with its warp's
// result. The full mask is spelled uint32_t(-1) and the width is a constexpr.
#include <cstdint>
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

constexpr int kWarp = 32;
constexpr int kBlock = 128;
constexpr int kBlocks = 12;
constexpr int kN = kBlock * kBlocks;
constexpr uint32_t kFullMask = uint32_t(-1);

__global__ void warp_allreduce(const int *in, int *max_out, int *sum_out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int m = in[tid];
  int s = in[tid];
  for (int mask = kWarp / 2; mask >= 1; mask >>= 1) {
    m = max(m, __shfl_xor_sync(kFullMask, m, mask));
    s += __shfl_xor_sync(kFullMask, s, mask);
  }
  max_out[tid] = m;
  sum_out[tid] = s;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 99;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 100000);
  }
  int *d_in, *d_max, *d_sum;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_max, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, kN * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  warp_allreduce<<<kBlocks, kBlock>>>(d_in, d_max, d_sum);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> mx(kN), sm(kN);
  CHECK(cudaMemcpy(mx.data(), d_max, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), d_sum, kN * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < kN; i++) {
    int base = i / kWarp * kWarp, want_max = in[base], want_sum = 0;
    for (int j = base; j < base + kWarp; j++) {
      want_max = in[j] > want_max ? in[j] : want_max;
      want_sum += in[j];
    }
    if (mx[i] != want_max || sm[i] != want_sum) {
      if (bad++ < 5)
        std::printf("thread %d: got max %d sum %d, want %d %d\n", i, mx[i], sm[i],
                    want_max, want_sum);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_sum));
  if (bad) {
    std::printf("FAIL: %d threads wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
