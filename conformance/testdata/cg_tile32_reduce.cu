// cg_tile32_reduce: a reduction written with cooperative groups: the block
// is split into thread_block_tile<32>, each tile reduces with shfl_down from
// size()/2 and broadcasts its result from rank 0 with shfl.
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

constexpr int kBlock = 256;
constexpr int kBlocks = 8;
constexpr int kN = kBlock * kBlocks;

__global__ void tile_reduce(const int *in, int *tile_sum, int *broadcast, int *total) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  for (int i = tile.size() / 2; i > 0; i /= 2) v += tile.shfl_down(v, i);
  int all = tile.shfl(v, 0);
  broadcast[tid] = all;
  if (tile.thread_rank() == 0) {
    tile_sum[tid / 32] = v;
    atomicAdd(total, v);
  }
  block.sync();
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 5;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 200) - 100;
  }
  int *d_in, *d_tile, *d_bcast, *d_total;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_tile, kN / 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_bcast, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_total, 0, sizeof(int)));
  tile_reduce<<<kBlocks, kBlock>>>(d_in, d_tile, d_bcast, d_total);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> tile(kN / 32), bcast(kN);
  int total = 0;
  CHECK(cudaMemcpy(tile.data(), d_tile, tile.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bcast.data(), d_bcast, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0, want_total = 0;
  for (int t = 0; t < kN / 32; t++) {
    int want = 0;
    for (int i = 0; i < 32; i++) want += in[t * 32 + i];
    want_total += want;
    if (tile[t] != want) {
      if (bad++ < 5) std::printf("tile %d: got %d, want %d\n", t, tile[t], want);
    }
    for (int i = 0; i < 32; i++) {
      if (bcast[t * 32 + i] != want) {
        if (bad++ < 5)
          std::printf("thread %d: broadcast %d, want %d\n", t * 32 + i, bcast[t * 32 + i], want);
      }
    }
  }
  if (total != want_total) {
    bad++;
    std::printf("total: got %d, want %d\n", total, want_total);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_tile));
  CHECK(cudaFree(d_bcast));
  CHECK(cudaFree(d_total));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
