// ptx_ordered_atomics: inline PTX atomics with a memory order. Thread 0 of
// each of 64 blocks takes a lock with an acquiring compare-and-swap
// (atom.acquire.gpu.global.cas.b32), adds to a plain counter under it,
// swaps its block number into a 64-bit word (atom.acq_rel...exch.b64) and
// gives the lock back with a releasing exchange; every thread counts
// itself with a releasing add written operation first
// (atom.add.release.gpu.global.u32, as ptxas takes it) and a releasing
// reduction (red.release.sys.global.add.u32). hipgen makes them the
// __atomic builtins; only one thread a block spins, so that no lane waits
// on another of its own wavefront.
#include <cstdio>
#include <cstdlib>
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

constexpr int kBlocks = 64, kThreads = 128;

// w: [0] the lock, [1] the counter under it, [2] the adds, [3] the
// reductions; last: the block numbers swapped in, each one more than it.
__global__ void count(unsigned *w, unsigned long long *last, unsigned *olds) {
  unsigned old;
  asm volatile("atom.add.release.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(w + 2), "r"(1u) : "memory");
  olds[blockIdx.x * blockDim.x + threadIdx.x] = old;
  asm volatile("red.release.sys.global.add.u32 [%0], %1;" ::"l"(w + 3), "r"(2u) : "memory");
  if (threadIdx.x != 0) return;
  unsigned prev;
  do {
    asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], %2, %3;" : "=r"(prev) : "l"(w), "r"(0u), "r"(1u) : "memory");
  } while (prev != 0u);
  volatile unsigned *plain = w + 1;
  *plain = *plain + 1;
  unsigned long long swapped;
  asm volatile("atom.acq_rel.gpu.global.exch.b64 %0, [%1], %2;" : "=l"(swapped) : "l"(last), "l"((unsigned long long)blockIdx.x + 1) : "memory");
  asm volatile("atom.release.gpu.global.exch.b32 %0, [%1], %2;" : "=r"(prev) : "l"(w), "r"(0u) : "memory");
  if (prev != 1u || swapped > kBlocks) w[1] = 0x7fffffff;  // the lock or the word was wrong
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  unsigned *w, *olds;
  unsigned long long *last;
  CHECK(cudaMalloc(&w, 4 * sizeof(unsigned)));
  CHECK(cudaMalloc(&last, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&olds, kBlocks * kThreads * sizeof(unsigned)));
  CHECK(cudaMemset(w, 0, 4 * sizeof(unsigned)));
  CHECK(cudaMemset(last, 0, sizeof(unsigned long long)));
  count<<<kBlocks, kThreads>>>(w, last, olds);
  CHECK(cudaGetLastError());
  unsigned got[4];
  unsigned long long gotLast;
  static unsigned gotOlds[kBlocks * kThreads];
  CHECK(cudaMemcpy(got, w, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gotLast, last, sizeof gotLast, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotOlds, olds, sizeof gotOlds, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(w));
  CHECK(cudaFree(last));
  CHECK(cudaFree(olds));

  int bad = 0;
  const unsigned n = kBlocks * kThreads;
  const unsigned want[4] = {0u, (unsigned)kBlocks, n, 2u * n};
  const char *names[4] = {"lock", "counter under the lock", "adds", "reductions"};
  for (int k = 0; k < 4; k++) {
    if (got[k] != want[k]) {
      std::printf("%s: %u, want %u\n", names[k], got[k], want[k]);
      bad++;
    }
  }
  if (gotLast < 1 || gotLast > (unsigned long long)kBlocks) {
    std::printf("swapped word: %llu, want a block number from 1 to %d\n", gotLast, kBlocks);
    bad++;
  }
  // Each add returned a different old value: together, 0 to n-1.
  static bool seen[kBlocks * kThreads];
  for (unsigned i = 0; i < n; i++) {
    if (gotOlds[i] >= n || seen[gotOlds[i]]) {
      std::printf("add %u returned %u twice or out of range\n", i, gotOlds[i]);
      bad++;
      break;
    }
    seen[gotOlds[i]] = true;
  }
  if (bad) {
    std::printf("FAIL: %d checks\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
