// warpsize_generic: a block reduction written against warpSize instead of a
// literal 32, so it is correct for any warp width: lane and warp come from
// warpSize, the shuffle loop starts at warpSize / 2, and the shared array has
// room for the largest number of warps a 1024-thread block can have.
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

constexpr int kBlocks = 9;

__device__ long long warp_sum(long long v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const int *in, long long *out) {
  __shared__ long long partial[32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  int warps = (blockDim.x + warpSize - 1) / warpSize;
  long long v = warp_sum(in[tid]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  long long t = lane < warps ? partial[lane] : 0;
  t = warp_sum(t);
  if (threadIdx.x == 0) out[blockIdx.x] = t;
}

static int run(int block) {
  int n = block * kBlocks;
  std::vector<int> in(n);
  unsigned seed = 101u + block;
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)(seed >> 4);
  }
  int *d_in;
  long long *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kBlocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_sum<<<kBlocks, block>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<long long> out(kBlocks);
  CHECK(cudaMemcpy(out.data(), d_out, kBlocks * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < kBlocks; b++) {
    long long want = 0;
    for (int i = 0; i < block; i++) want += in[b * block + i];
    if (out[b] != want) {
      if (bad++ < 5)
        std::printf("block size %d, block %d: got %lld, want %lld\n", block, b, out[b], want);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return bad;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  int bad = run(64) + run(256) + run(1024);
  if (bad) {
    std::printf("FAIL: %d blocks wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
