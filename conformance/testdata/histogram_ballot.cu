// histogram_ballot: warp-aggregated histogram without __match_any_sync. The
// warp repeatedly elects the lowest pending lane as leader (__ffs of a
// ballot), broadcasts its bin with __shfl_sync, and the lanes that share the
// bin vote; the leader adds their count with one atomicAdd. A warp holds at
// most 32 distinct bins, so 32 rounds always suffice; the fixed bound keeps
// every thread of the block executing the same collectives, which HIP-CPU
// (the oracle, which pairs barriers by count) needs.
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

#define FULL_MASK 0xffffffff

constexpr int kBins = 32;
constexpr int kBlock = 128;
constexpr int kBlocks = 8;
constexpr int kN = kBlock * kBlocks;

__global__ void histogram(const int *in, unsigned int *hist) {
  int lane = threadIdx.x % 32;
  int bin = in[blockIdx.x * blockDim.x + threadIdx.x];
  bool done = false;
  unsigned int pending = __ballot_sync(FULL_MASK, 1);
  for (int round = 0; round < 32; round++) {
    int leader = __ffs(pending) - 1;  // -1 once every lane is counted
    int leader_bin = __shfl_sync(FULL_MASK, bin, leader < 0 ? 0 : leader);
    unsigned int same = __ballot_sync(FULL_MASK, leader >= 0 && !done && bin == leader_bin);
    if (lane == leader) atomicAdd(&hist[leader_bin], __popc(same));
    if (leader >= 0 && bin == leader_bin) done = true;
    pending &= ~same;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 77;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    unsigned r = seed >> 8;
    in[i] = (r % 3 == 0) ? (int)(r / 3 % kBins) : (int)(r / 3 % 3);
  }
  int *d_in;
  unsigned int *d_hist;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));
  histogram<<<kBlocks, kBlock>>>(d_in, d_hist);
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
