// cg_reduce_struct: cooperative_groups::reduce of a struct (a running
// maximum and a sum, as llm.c's online softmax keeps them) over
// thread_block_tile<32> and thread_block_tile<16>: every lane gets its
// tile's maximum and sum, checked against the host.
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

struct MaxSum {
  float max;
  float sum;
};

__device__ MaxSum combine(MaxSum a, MaxSum b) {
  MaxSum r;
  r.max = fmaxf(a.max, b.max);
  r.sum = a.sum + b.sum;
  return r;
}

constexpr int kBlock = 128;
constexpr int kBlocks = 3;
constexpr int kN = kBlock * kBlocks;

__global__ void reduce(const float *in, MaxSum *out32, MaxSum *out16) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  MaxSum v;
  v.max = in[tid];
  v.sum = in[tid];
  out32[tid] = cg::reduce(t32, v, combine);
  out16[tid] = cg::reduce(t16, v, combine);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<float> in(kN);
  unsigned seed = 11;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (float)((int)(seed >> 16) % 1000 - 500);  // small integers: exact sums
  }
  float *d_in;
  MaxSum *d_32, *d_16;
  CHECK(cudaMalloc(&d_in, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_32, kN * sizeof(MaxSum)));
  CHECK(cudaMalloc(&d_16, kN * sizeof(MaxSum)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  reduce<<<kBlocks, kBlock>>>(d_in, d_32, d_16);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<MaxSum> r32(kN), r16(kN);
  CHECK(cudaMemcpy(r32.data(), d_32, kN * sizeof(MaxSum), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r16.data(), d_16, kN * sizeof(MaxSum), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < kN; i++) {
    for (int w : {32, 16}) {
      int base = i - i % w;
      float mx = in[base], sum = 0;
      for (int j = base; j < base + w; j++) {
        mx = in[j] > mx ? in[j] : mx;
        sum += in[j];
      }
      const MaxSum &got = w == 32 ? r32[i] : r16[i];
      if ((got.max != mx || got.sum != sum) && bad++ < 5)
        std::printf("thread %d, tile %d: got max %g sum %g, want %g %g\n", i, w, got.max, got.sum, mx, sum);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_32));
  CHECK(cudaFree(d_16));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
