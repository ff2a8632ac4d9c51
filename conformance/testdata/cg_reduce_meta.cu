// cg_reduce_meta: cooperative groups' own reduction: cg::reduce with
// cg::plus and cg::greater over thread_block_tile<32>, results stored at the
// tile's meta_group_rank() in a block of meta_group_size() tiles.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
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

constexpr int kBlock = 192;
constexpr int kBlocks = 5;
constexpr int kTiles = kBlock / 32;
constexpr int kN = kBlock * kBlocks;

__global__ void tile_reduce(const int *in, int *tile_sum, int *tile_max, int *broadcast, int *tiles) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  int max = cg::reduce(tile, v, cg::greater<int>());
  broadcast[tid] = sum;
  int slot = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (tile.thread_rank() == 0) {
    tile_sum[slot] = sum;
    tile_max[slot] = max;
  }
  if (threadIdx.x == 0) tiles[blockIdx.x] = tile.meta_group_size();
  block.sync();
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 11;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 1000) - 500;
  }
  int *d_in, *d_sum, *d_max, *d_bcast, *d_tiles;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, kN / 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_max, kN / 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_bcast, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_tiles, kBlocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sum, 0, kN / 32 * sizeof(int)));
  CHECK(cudaMemset(d_max, 0, kN / 32 * sizeof(int)));
  tile_reduce<<<kBlocks, kBlock>>>(d_in, d_sum, d_max, d_bcast, d_tiles);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> sum(kN / 32), max(kN / 32), bcast(kN), tiles(kBlocks);
  CHECK(cudaMemcpy(sum.data(), d_sum, sum.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(max.data(), d_max, max.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bcast.data(), d_bcast, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(tiles.data(), d_tiles, kBlocks * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int b = 0; b < kBlocks; b++) {
    if (tiles[b] != kTiles) {
      if (bad++ < 5) std::printf("block %d: meta_group_size %d, want %d\n", b, tiles[b], kTiles);
    }
  }
  for (int t = 0; t < kN / 32; t++) {
    int want_sum = 0, want_max = in[t * 32];
    for (int i = 0; i < 32; i++) {
      want_sum += in[t * 32 + i];
      if (in[t * 32 + i] > want_max) want_max = in[t * 32 + i];
    }
    if (sum[t] != want_sum || max[t] != want_max) {
      if (bad++ < 5)
        std::printf("tile %d: sum %d max %d, want %d %d\n", t, sum[t], max[t], want_sum, want_max);
    }
    for (int i = 0; i < 32; i++) {
      if (bcast[t * 32 + i] != want_sum) {
        if (bad++ < 5)
          std::printf("thread %d: sum %d, want %d\n", t * 32 + i, bcast[t * 32 + i], want_sum);
      }
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_bcast));
  CHECK(cudaFree(d_tiles));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
