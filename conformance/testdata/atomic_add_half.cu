// atomic_add_half: atomicAdd of __half and __half2, as BBuf's
// fast_atomic_add kernels and PyTorch's index_add use it: eight __half
// counters side by side (two to each 32-bit word, so neighbours race for
// one word), four __half2 counters, and a template called with __half*
// (the type known only where it is instantiated). Each counter's final value and the old values the calls
// returned are checked on the host: every old value from 0 to the count
// appears exactly once when each add was atomic. ROCm has no atomicAdd of
// a __half or a __half2.
#include <cuda_fp16.h>
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

constexpr int kThreads = 1024;
constexpr int kHalves = 8;  // each gets kThreads / kHalves adds of 1
constexpr int kPairs = 4;   // each gets kThreads / kPairs adds of (1, 2)

// add is called with T = __half: which atomicAdd it reaches is decided at
// instantiation.
template <typename T>
__device__ T add(T *p, T v) {
  return atomicAdd(p, v);
}

// count adds 1 to halves[i % kHalves] (directly, or through the template,
// on alternate threads) and (1, 2) to
// pairs[i % kPairs], and keeps each old value.
__global__ void count(__half *halves, half2 *pairs, float *oldHalf, float *oldLow, float *oldHigh) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kThreads) return;
  __half old;
  if (i & 1) {
    old = atomicAdd(&halves[i % kHalves], __float2half(1.0f));
  } else {
    old = add(halves + i % kHalves, __float2half(1.0f));
  }
  oldHalf[i] = __half2float(old);
  half2 o = atomicAdd(reinterpret_cast<half2 *>(pairs) + i % kPairs, __floats2half2_rn(1.0f, 2.0f));
  oldLow[i] = __low2float(o);
  oldHigh[i] = __high2float(o);
}

// permutation reports whether the olds of the threads t with t % n == c,
// divided by step, are 0, 1, ..., count-1 in some order.
static bool permutation(const std::vector<float> &olds, int n, int c, float step) {
  int count = kThreads / n;
  std::vector<int> seen(count, 0);
  for (int t = c; t < kThreads; t += n) {
    float q = olds[t] / step;
    int k = (int)q;
    if ((float)k != q || k < 0 || k >= count || seen[k]++) return false;
  }
  return true;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  __half *dh;
  half2 *dp;
  float *d0, *d1, *d2;
  CHECK(cudaMalloc(&dh, kHalves * sizeof(__half)));
  CHECK(cudaMalloc(&dp, kPairs * sizeof(half2)));
  CHECK(cudaMalloc(&d0, kThreads * sizeof(float)));
  CHECK(cudaMalloc(&d1, kThreads * sizeof(float)));
  CHECK(cudaMalloc(&d2, kThreads * sizeof(float)));
  CHECK(cudaMemset(dh, 0, kHalves * sizeof(__half)));
  CHECK(cudaMemset(dp, 0, kPairs * sizeof(half2)));
  count<<<kThreads / 128, 128>>>(dh, dp, d0, d1, d2);
  CHECK(cudaGetLastError());
  std::vector<__half> h(kHalves);
  std::vector<half2> p(kPairs);
  std::vector<float> o0(kThreads), o1(kThreads), o2(kThreads);
  CHECK(cudaMemcpy(h.data(), dh, kHalves * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(p.data(), dp, kPairs * sizeof(half2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o0.data(), d0, kThreads * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o1.data(), d1, kThreads * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o2.data(), d2, kThreads * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  // Every sum is an integer below 2048, which __half holds exactly.
  for (int c = 0; c < kHalves; c++) {
    float got = __half2float(h[c]);
    if ((got != (float)(kThreads / kHalves) || !permutation(o0, kHalves, c, 1.0f)) && bad++ < 8) {
      std::printf("__half counter %d: %g, want %d (or its old values repeat)\n", c, got, kThreads / kHalves);
    }
  }
  for (int c = 0; c < kPairs; c++) {
    float lo = __low2float(p[c]), hi = __high2float(p[c]);
    int n = kThreads / kPairs;
    if ((lo != (float)n || hi != (float)(2 * n) || !permutation(o1, kPairs, c, 1.0f) ||
         !permutation(o2, kPairs, c, 2.0f)) &&
        bad++ < 8) {
      std::printf("half2 counter %d: (%g, %g), want (%d, %d) (or its old values repeat)\n", c, lo, hi, n, 2 * n);
    }
  }
  CHECK(cudaFree(dh));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(d0));
  CHECK(cudaFree(d1));
  CHECK(cudaFree(d2));
  if (bad) {
    std::printf("FAIL: %d of %d counters\n", bad, kHalves + kPairs);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
