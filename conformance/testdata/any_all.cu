// any_all: __any_sync and __all_sync per 32-lane warp, on data arranged so
// that neighbouring warps disagree: one warp all even, the next with a
// single odd lane, one with a single large value, one with none.
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
constexpr int kBlocks = 4;
constexpr int kN = kBlock * kBlocks;
constexpr int kLimit = 1000;

__global__ void vote(const int *in, int *any_big, int *all_even) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  int big = __any_sync(0xffffffff, v > kLimit);
  int even = __all_sync(0xffffffff, v % 2 == 0);
  if ((threadIdx.x & 31) == 0) {
    any_big[tid / 32] = big != 0;
    all_even[tid / 32] = even != 0;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  for (int i = 0; i < kN; i++) {
    int w = i / 32, l = i % 32;
    int v = 2 * ((i * 37) % 400);               // even, at most 798
    if (w % 4 == 1 && l == (w * 7) % 32) v += 1;  // one odd lane
    if (w % 3 == 2 && l == (w * 5) % 32) v = 5000 + 2 * w;  // one big lane
    if (w % 5 == 4) v += l % 2;                 // half the lanes odd
    in[i] = v;
  }
  int *d_in, *d_any, *d_all;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_any, kN / 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_all, kN / 32 * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  vote<<<kBlocks, kBlock>>>(d_in, d_any, d_all);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> any_big(kN / 32), all_even(kN / 32);
  CHECK(cudaMemcpy(any_big.data(), d_any, any_big.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(all_even.data(), d_all, all_even.size() * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < kN / 32; w++) {
    int want_any = 0, want_all = 1;
    for (int l = 0; l < 32; l++) {
      int v = in[w * 32 + l];
      if (v > kLimit) want_any = 1;
      if (v % 2 != 0) want_all = 0;
    }
    if (any_big[w] != want_any || all_even[w] != want_all) {
      if (bad++ < 5)
        std::printf("warp %d: got any %d all %d, want %d %d\n", w, any_big[w],
                    all_even[w], want_any, want_all);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_any));
  CHECK(cudaFree(d_all));
  if (bad) {
    std::printf("FAIL: %d warps wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
