// cg_binary_partition: cooperative groups' binary_partition of a
// thread_block_tile<32> (and of a tile of 16) into the threads whose
// predicate is true and those whose is false: each thread's rank and the
// size of its part, cg::reduce over the part, and shuffles by rank within
// it. ROCm before 6.3 has no binary_partition.
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

constexpr int kBlock = 128;
constexpr int kBlocks = 3;
constexpr int kN = kBlock * kBlocks;
constexpr int kOut = 8;

__global__ void partition(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  auto odd = cg::binary_partition(t32, v & 1);
  int *o = out + tid * kOut;
  o[0] = odd.size();
  o[1] = odd.thread_rank();
  o[2] = cg::reduce(odd, v, cg::plus<int>());
  o[3] = odd.shfl(v, 0);  // the part's first thread's value
  auto big = cg::binary_partition(t16, v > 250);
  o[4] = big.size() * 100 + big.thread_rank();
  o[5] = cg::reduce(big, v, cg::greater<int>());
  // A partition of a partition, and which part each is.
  auto oddBig = cg::binary_partition(odd, v > 250);
  o[6] = oddBig.size() * 100 + oddBig.thread_rank();
  o[7] = odd.meta_group_rank() * 10 + odd.meta_group_size();
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 3;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 500);
  }
  for (int i = 64; i < 96; i++) in[i] = 2 * i;  // a tile with no odd values
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kN * kOut * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  partition<<<kBlocks, kBlock>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kN * kOut);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));

  static const char *what[kOut] = {"size", "thread_rank", "reduce plus", "shfl 0", "t16 size*100+rank", "t16 reduce greater",
                                   "partition of a partition: size*100+rank", "meta_group_rank*10+meta_group_size"};
  int bad = 0;
  for (int t = 0; t < kN; t++) {
    int w[kOut] = {0, 0, 0, -1, 0, 0, 0, 0};
    int b32 = t / 32 * 32, b16 = t / 16 * 16;
    bool p = in[t] & 1;
    for (int i = b32; i < b32 + 32; i++) {
      if ((bool)(in[i] & 1) != p) continue;
      if (i < t) w[1]++;
      w[0]++;
      w[2] += in[i];
      if (w[3] < 0) w[3] = in[i];
    }
    bool q = in[t] > 250;
    int size = 0, rank = 0, max = -1;
    for (int i = b16; i < b16 + 16; i++) {
      if ((in[i] > 250) != q) continue;
      if (i < t) rank++;
      size++;
      if (in[i] > max) max = in[i];
    }
    w[4] = size * 100 + rank;
    w[5] = max;
    // Within t's part of its tile of 32, the threads whose value is on
    // the same side of 250; and whether the tile split at all: then the
    // part with the predicate true is rank 1 of 2, else 0 of 1.
    int size2 = 0, rank2 = 0, odds = 0;
    for (int i = b32; i < b32 + 32; i++) {
      odds += in[i] & 1;
      if ((bool)(in[i] & 1) != p || (in[i] > 250) != q) continue;
      if (i < t) rank2++;
      size2++;
    }
    w[6] = size2 * 100 + rank2;
    bool split = odds > 0 && odds < 32;
    w[7] = split ? (p ? 1 : 0) * 10 + 2 : 1;
    for (int r = 0; r < kOut; r++) {
      if (out[t * kOut + r] != w[r] && bad++ < 8)
        std::printf("thread %d (value %d): %s = %d, want %d\n", t, in[t], what[r], out[t * kOut + r], w[r]);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
