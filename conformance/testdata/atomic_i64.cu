// atomic_i64: atomicMax, atomicMin, atomicAnd, atomicOr and atomicXor of
// long long, through a typed pointer, a template instantiated with long
// long, and an int argument that converts (CUDA's are plain functions).
// Every thread of 512 applies its own value, negative for half of them, so
// that a signed max or min differs from an unsigned one, and bit i % 64 for
// the bitwise ones; the host computes what the results must be. HIP has no
// atomicAnd, atomicOr or atomicXor of a long long, nor, before ROCm 5.7,
// atomicMax or atomicMin of one.
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

constexpr int kThreads = 512;

// value is thread i's number: large magnitudes of both signs, distinct.
__host__ __device__ long long value(int i) {
  long long m = (long long)(i + 1) * 1000000007LL * 4099LL;
  return (i & 1) ? -m : m;
}

template <typename T>
__device__ T maxOf(T *p, T v) {
  return atomicMax(p, v);
}

// r: [0] max, [1] min, [2] and, [3] or, [4] xor, [5] max from an int.
__global__ void reduce(long long *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kThreads) return;
  long long v = value(i);
  if (i & 2) {
    maxOf(&r[0], v);
  } else {
    atomicMax(&r[0], v);
  }
  atomicMin(r + 1, v);
  long long bit = 1LL << (i % 64);
  atomicAnd(&r[2], ~bit);
  atomicOr(&r[3], bit);
  atomicXor(&r[4], bit);
  atomicMax(&r[5], -i);  // an int: converts to long long
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  long long init[6] = {-(1LL << 62), 1LL << 62, -1LL, 0LL, 0LL, -(1LL << 40)};
  long long *d;
  CHECK(cudaMalloc(&d, sizeof init));
  CHECK(cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice));
  reduce<<<kThreads / 128, 128>>>(d);
  CHECK(cudaGetLastError());
  long long got[6];
  CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));

  long long want[6] = {init[0], init[1], init[2], init[3], init[4], init[5]};
  for (int i = 0; i < kThreads; i++) {
    long long v = value(i), bit = 1LL << (i % 64);
    if (v > want[0]) want[0] = v;
    if (v < want[1]) want[1] = v;
    want[2] &= ~bit;
    want[3] |= bit;
    want[4] ^= bit;
    if (-i > want[5]) want[5] = -i;
  }
  const char *names[6] = {"max", "min", "and", "or", "xor", "max of an int"};
  int bad = 0;
  for (int k = 0; k < 6; k++) {
    if (got[k] != want[k]) {
      std::printf("%s: %lld, want %lld\n", names[k], got[k], want[k]);
      bad++;
    }
  }
  if (bad) {
    std::printf("FAIL: %d of 6 results\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
