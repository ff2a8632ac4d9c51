// histogram_match: a histogram with warp-aggregated atomics. Lanes holding
// the same bin find each other with __match_any_sync, the lowest of them is
// elected leader with __ffs and adds the group's __popc in one atomicAdd.
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

constexpr int kBins = 64;
constexpr int kBlock = 256;
constexpr int kBlocks = 16;
constexpr int kPerThread = 4;
constexpr int kN = kBlock * kBlocks * kPerThread;

__global__ void histogram(const int *in, int n, unsigned int *hist) {
  int lane = threadIdx.x & 31;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int bin = in[i];
    unsigned int peers = __match_any_sync(__activemask(), bin);
    int leader = __ffs(peers) - 1;
    if (lane == leader) atomicAdd(&hist[bin], __popc(peers));
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 2024;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    unsigned r = seed >> 8;
    // Skewed: most values fall in a few bins, so warps hold many duplicates.
    in[i] = (r % 4 != 0) ? (int)(r / 4 % 5) : (int)(r / 4 % kBins);
  }
  int *d_in;
  unsigned int *d_hist;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));
  histogram<<<kBlocks, kBlock>>>(d_in, kN, d_hist);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned int> hist(kBins);
  CHECK(cudaMemcpy(hist.data(), d_hist, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));

  std::vector<unsigned int> want(kBins, 0);
  for (int v : in) want[v]++;
  int bad = 0;
  for (int b = 0; b < kBins; b++) {
    if (hist[b] != want[b]) {
      if (bad++ < 5) std::printf("bin %d: got %u, want %u\n", b, hist[b], want[b]);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_hist));
  if (bad) {
    std::printf("FAIL: %d bins wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
