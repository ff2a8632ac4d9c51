// native_hip_branch: a block sum whose per-warp step the project wrote twice:
// for CUDA's 32-lane warps, and under a test of HIP for the 64-lane
// wavefronts of CDNA GPUs (MI-series only, as many ROCm code paths are): a
// butterfly from offset 32 and one leader per 64 lanes. That branch must
// reach hipcc as written: a width of 32 added to its shuffles would keep each
// 32-lane half apart, the step from offset 32 would add every lane to itself,
// and lanes 32-63 would never be counted. HIP-CPU, which runs 64-wide
// wavefronts on the CPU, defines __HIP_CPU_RT__ rather than the platform
// macro, so the test names both.
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

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_CPU_RT__)
__device__ int warp_sum(int v) {
  for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}
__device__ bool warp_leader() { return (threadIdx.x & 63) == 0; }
#else
__device__ int warp_sum(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__device__ bool warp_leader() { return (threadIdx.x & 31) == 0; }
#endif

__global__ void block_sum(const int *in, int *out) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (warp_leader()) atomicAdd(&total, v);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 7;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 1000);
  }
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kBlocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  block_sum<<<kBlocks, kBlock>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kBlocks);
  CHECK(cudaMemcpy(out.data(), d_out, kBlocks * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < kBlocks; b++) {
    int want = 0;
    for (int i = b * kBlock; i < (b + 1) * kBlock; i++) want += in[i];
    if (out[b] != want && bad++ < 5)
      std::printf("block %d: got %d, want %d\n", b, out[b], want);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d blocks wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
