// Sum reduction written the way most CUDA code is: 32-wide warps, full-warp
// masks and a shuffle loop that starts at 16.
#include "vecadd.cuh"

#define WARP_SIZE 32

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  return v;
}

__global__ void vecsum_kernel(const float* __restrict__ a, float* sum, int n) {
  __shared__ float partial[1024 / WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;

  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    v += a[i];
  }
  v = warp_sum(v);
  if (lane == 0) {
    partial[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / WARP_SIZE;
    v = lane < warps ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) {
      atomicAdd(sum, v);
    }
  }
}

cudaError_t vecsum(const float* a, float* sum, int n, cudaStream_t stream) {
  VECADD_CHECK(cudaMemsetAsync(sum, 0, sizeof(float), stream));
  const int block = 256;
  int grid = (n + block - 1) / block;
  if (grid > 64) {
    grid = 64;
  }
  vecsum_kernel<<<grid, block, 0, stream>>>(a, sum, n);
  return cudaGetLastError();
}
