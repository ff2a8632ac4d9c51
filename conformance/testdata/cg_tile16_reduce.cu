// cg_tile16_reduce: tiled_partition<16> of the block; each 16-thread tile
// all-reduces with shfl_xor and records its sum and its rank within the tile.
#include <cooperative_groups.h>
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

namespace cg = cooperative_groups;

constexpr int kTile = 16;
constexpr int kBlock = 128;
constexpr int kBlocks = 6;
constexpr int kN = kBlock * kBlocks;

__global__ void tile16(const int *in, int *sum, int *rank) {
  auto tile = cg::tiled_partition<kTile>(cg::this_thread_block());
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  for (int mask = tile.size() / 2; mask > 0; mask >>= 1) v += tile.shfl_xor(v, mask);
  sum[tid] = v;
  rank[tid] = tile.thread_rank();
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  for (int i = 0; i < kN; i++) in[i] = (i * 7919) % 101;
  int *d_in, *d_sum, *d_rank;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_rank, kN * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  tile16<<<kBlocks, kBlock>>>(d_in, d_sum, d_rank);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> sum(kN), rank(kN);
  CHECK(cudaMemcpy(sum.data(), d_sum, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rank.data(), d_rank, kN * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int t = 0; t < kN; t++) {
    int base = t / kTile * kTile, want = 0;
    for (int i = base; i < base + kTile; i++) want += in[i];
    if (sum[t] != want || rank[t] != t % kTile) {
      if (bad++ < 5)
        std::printf("thread %d: got sum %d rank %d, want %d %d\n", t, sum[t], rank[t], want,
                    t % kTile);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_rank));
  if (bad) {
    std::printf("FAIL: %d threads wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
