// cg_shuffle_struct: cooperative-groups shuffles of values that are not
// plain scalars (a uint4 and a 12-byte struct) on thread_block_tile<32>:
// the register transpose of cuda-samples' shfl_scan, checked per lane.
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

struct Triple {
  float f;
  int i;
  unsigned short s[2];
};

constexpr int kBlock = 128;
constexpr int kBlocks = 3;
constexpr int kN = kBlock * kBlocks;

__global__ void shuffle(const uint4 *in, uint4 *xor1, uint4 *down3, Triple *from0, Triple *up1) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 v = in[tid];
  xor1[tid] = tile.shfl_xor(v, 1);
  down3[tid] = tile.shfl_down(v, 3);
  Triple t;
  t.f = v.x * 0.5f;
  t.i = -(int)v.y;
  t.s[0] = (unsigned short)v.z;
  t.s[1] = (unsigned short)(v.w ^ 0xbeef);
  from0[tid] = tile.shfl(t, 0);
  up1[tid] = tile.shfl_up(t, 1);
}

static Triple make(const uint4 &v) {
  Triple t;
  t.f = v.x * 0.5f;
  t.i = -(int)v.y;
  t.s[0] = (unsigned short)v.z;
  t.s[1] = (unsigned short)(v.w ^ 0xbeef);
  return t;
}

static bool same(const uint4 &a, const uint4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
static bool same(const Triple &a, const Triple &b) {
  return a.f == b.f && a.i == b.i && a.s[0] == b.s[0] && a.s[1] == b.s[1];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<uint4> in(kN);
  unsigned seed = 7;
  for (int i = 0; i < kN; i++) {
    unsigned w[4];
    for (int j = 0; j < 4; j++) {
      seed = seed * 1664525u + 1013904223u;
      w[j] = seed;
    }
    in[i] = make_uint4(w[0] % 100000, w[1], w[2], w[3]);
  }
  uint4 *d_in, *d_xor, *d_down;
  Triple *d_from0, *d_up;
  CHECK(cudaMalloc(&d_in, kN * sizeof(uint4)));
  CHECK(cudaMalloc(&d_xor, kN * sizeof(uint4)));
  CHECK(cudaMalloc(&d_down, kN * sizeof(uint4)));
  CHECK(cudaMalloc(&d_from0, kN * sizeof(Triple)));
  CHECK(cudaMalloc(&d_up, kN * sizeof(Triple)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(uint4), cudaMemcpyHostToDevice));
  shuffle<<<kBlocks, kBlock>>>(d_in, d_xor, d_down, d_from0, d_up);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<uint4> xor1(kN), down3(kN);
  std::vector<Triple> from0(kN), up1(kN);
  CHECK(cudaMemcpy(xor1.data(), d_xor, kN * sizeof(uint4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(down3.data(), d_down, kN * sizeof(uint4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(from0.data(), d_from0, kN * sizeof(Triple), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(up1.data(), d_up, kN * sizeof(Triple), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < kN; i++) {
    int lane = i % 32, base = i - lane;
    // Out-of-range shfl_down and shfl_up keep the lane's own value.
    int down = lane + 3 < 32 ? i + 3 : i;
    int up = lane >= 1 ? i - 1 : i;
    bool ok = same(xor1[i], in[base + (lane ^ 1)]) && same(down3[i], in[down]) &&
              same(from0[i], make(in[base])) && same(up1[i], make(in[up]));
    if (!ok && bad++ < 5) std::printf("thread %d: wrong shuffle result\n", i);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_xor));
  CHECK(cudaFree(d_down));
  CHECK(cudaFree(d_from0));
  CHECK(cudaFree(d_up));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
