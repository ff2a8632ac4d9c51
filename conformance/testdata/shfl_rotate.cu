// shfl_rotate: indexed shuffles whose source lane leaves the warp. Each
// 32-lane warp rotates its values by one lane (lane + 1 and lane - 1, which
// CUDA reads modulo 32), and each group of 8 lanes reverses itself with an
// explicit width (7 - lane, and lane + 8 * k, which CUDA reads modulo 8).
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
constexpr int kBlocks = 4;
constexpr int kN = kBlock * kBlocks;

__global__ void rotate(const int *in, int *next, int *prev, int *rev8, int *far8) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[tid];
  next[tid] = __shfl_sync(0xffffffff, v, lane + 1);
  prev[tid] = __shfl_sync(0xffffffff, v, lane - 1, 32);
  int sub = lane % 8;
  rev8[tid] = __shfl_sync(0xffffffff, v, 7 - sub, 8);
  far8[tid] = __shfl_sync(0xffffffff, v, sub + 8 * (lane / 8) + 3, 8);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  for (int i = 0; i < kN; i++) in[i] = i * 7 + 3;
  int *d_in, *d_next, *d_prev, *d_rev8, *d_far8;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_next, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_prev, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_rev8, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_far8, kN * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  rotate<<<kBlocks, kBlock>>>(d_in, d_next, d_prev, d_rev8, d_far8);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> next(kN), prev(kN), rev8(kN), far8(kN);
  CHECK(cudaMemcpy(next.data(), d_next, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(prev.data(), d_prev, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rev8.data(), d_rev8, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(far8.data(), d_far8, kN * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < kN; i++) {
    int warp0 = i / 32 * 32, lane = i % 32, group0 = i / 8 * 8, sub = i % 8;
    int want[4] = {in[warp0 + (lane + 1) % 32], in[warp0 + (lane + 31) % 32],
                   in[group0 + 7 - sub], in[group0 + (sub + 3) % 8]};
    int got[4] = {next[i], prev[i], rev8[i], far8[i]};
    for (int k = 0; k < 4; k++) {
      if (got[k] != want[k] && bad++ < 10)
        std::printf("thread %d, shuffle %d: got %d, want %d\n", i, k, got[k], want[k]);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_prev));
  CHECK(cudaFree(d_rev8));
  CHECK(cudaFree(d_far8));
  if (bad) {
    std::printf("FAIL: %d wrong values\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
