// cg_tile_vote: cooperative groups' votes and matches on tiles:
// thread_block_tile<N>::ballot, any, all, match_any and match_all for tiles
// of 32, 16 and 8 threads, each checked against the same computation on the
// host. ROCm before 6.3 has none of these members.
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

constexpr int kBlock = 192;
constexpr int kBlocks = 4;
constexpr int kN = kBlock * kBlocks;
constexpr int kOut = 8;  // results per thread

__global__ void votes(const int *in, const int *key, unsigned *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  unsigned *o = out + tid * kOut;
  o[0] = t32.ballot(v > 0);
  o[1] = t16.ballot(v & 1);
  o[2] = (unsigned)t32.any(v == 7) | (unsigned)t8.any(v > 450) << 1;
  o[3] = (unsigned)t16.all(v > -480) | (unsigned)t8.all(v % 5 != 0) << 1;
  o[4] = t32.match_any(v % 4);
  o[5] = t8.match_any((float)(v % 3));
  int pred = -1;
  o[6] = t16.match_all(key[tid], pred);
  o[7] = (unsigned)pred;
}

// ballotOf is bit i for each thread i of the n-thread tile of thread t
// whose input satisfies pred.
template <class Pred>
static unsigned ballotOf(const std::vector<int> &in, int t, int n, Pred pred) {
  unsigned m = 0;
  for (int i = 0; i < n; i++) m |= (unsigned)(pred(in[t / n * n + i]) ? 1 : 0) << i;
  return m;
}

static unsigned full(int n) { return n == 32 ? 0xffffffffu : (1u << n) - 1; }

// want computes thread t's results from the inputs, as CUDA defines them
// (blocks hold whole tiles, so a tile is n consecutive threads).
static void want(const std::vector<int> &in, const std::vector<int> &key, int t, unsigned *w) {
  int v = in[t];
  w[0] = ballotOf(in, t, 32, [](int x) { return x > 0; });
  w[1] = ballotOf(in, t, 16, [](int x) { return (x & 1) != 0; });
  w[2] = (unsigned)(ballotOf(in, t, 32, [](int x) { return x == 7; }) != 0) |
         (unsigned)(ballotOf(in, t, 8, [](int x) { return x > 450; }) != 0) << 1;
  w[3] = (unsigned)(ballotOf(in, t, 16, [](int x) { return x > -480; }) == full(16)) |
         (unsigned)(ballotOf(in, t, 8, [](int x) { return x % 5 != 0; }) == full(8)) << 1;
  w[4] = ballotOf(in, t, 32, [v](int x) { return x % 4 == v % 4; });
  w[5] = ballotOf(in, t, 8, [v](int x) { return (float)(x % 3) == (float)(v % 3); });
  bool same = true;
  for (int i = 0; i < 16; i++) same = same && key[t / 16 * 16 + i] == key[t];
  w[6] = same ? full(16) : 0u;
  w[7] = same ? 1u : 0u;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN), key(kN);
  unsigned seed = 7;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 1000) - 500;
    if (i % 97 == 0) in[i] = 7;
    // Every third 16-thread tile agrees on its key; the others mostly not.
    key[i] = (i / 16) % 3 == 0 ? 1000 + i / 16 : (i % 16 == 5 ? 42 : i / 16);
  }
  int *d_in, *d_key;
  unsigned *d_out;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_key, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kN * kOut * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_key, key.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xff, kN * kOut * sizeof(unsigned)));
  votes<<<kBlocks, kBlock>>>(d_in, d_key, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(kN * kOut);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

  static const char *what[kOut] = {"t32.ballot", "t16.ballot", "any", "all", "t32.match_any", "t8.match_any(float)", "t16.match_all", "match_all pred"};
  int bad = 0;
  for (int t = 0; t < kN; t++) {
    unsigned w[kOut];
    want(in, key, t, w);
    for (int r = 0; r < kOut; r++) {
      if (out[t * kOut + r] != w[r] && bad++ < 8)
        std::printf("thread %d: %s = %#x, want %#x\n", t, what[r], out[t * kOut + r], w[r]);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_key));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
