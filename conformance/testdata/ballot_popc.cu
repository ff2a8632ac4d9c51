// ballot_popc: per 32-lane warp, count, first and last lane whose element
// passes a predicate. The ballot result is kept in an unsigned int and read
// with __popc, __ffs and __clz, as code written for 32-wide warps does.
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
constexpr int kBlocks = 8;
constexpr int kN = kBlock * kBlocks;
constexpr int kWarps = kN / 32;

__global__ void warp_vote(const int *in, int *count, int *first, int *last) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int warp = tid >> 5;
  unsigned int mask = __ballot_sync(0xffffffff, in[tid] % 3 == 0);
  if (lane == 0) {
    count[warp] = __popc(mask);
    first[warp] = __ffs(mask) - 1;  // -1 when no lane voted
    last[warp] = mask ? 31 - __clz(mask) : -1;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 12345;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)(seed >> 8);
  }
  // Warp 5 votes for nobody, warp 6 for everybody, warp 9 only for lane 17.
  for (int l = 0; l < 32; l++) {
    in[5 * 32 + l] = 1;
    in[6 * 32 + l] = 3;
    in[9 * 32 + l] = l == 17 ? 0 : 2;
  }

  int *d_in, *d_count, *d_first, *d_last;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_count, kWarps * sizeof(int)));
  CHECK(cudaMalloc(&d_first, kWarps * sizeof(int)));
  CHECK(cudaMalloc(&d_last, kWarps * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  warp_vote<<<kBlocks, kBlock>>>(d_in, d_count, d_first, d_last);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> count(kWarps), first(kWarps), last(kWarps);
  CHECK(cudaMemcpy(count.data(), d_count, kWarps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(first.data(), d_first, kWarps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(last.data(), d_last, kWarps * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < kWarps; w++) {
    int c = 0, f = -1, l = -1;
    for (int i = 0; i < 32; i++) {
      if (in[w * 32 + i] % 3 == 0) {
        c++;
        if (f < 0) f = i;
        l = i;
      }
    }
    if (count[w] != c || first[w] != f || last[w] != l) {
      if (bad < 5)
        std::printf("warp %d: got count %d first %d last %d, want %d %d %d\n", w,
                    count[w], first[w], last[w], c, f, l);
      bad++;
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_count));
  CHECK(cudaFree(d_first));
  CHECK(cudaFree(d_last));
  if (bad) {
    std::printf("FAIL: %d of %d warps wrong\n", bad, kWarps);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
