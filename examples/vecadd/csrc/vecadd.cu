#include "vecadd.cuh"

__global__ void vecadd_kernel(const float* __restrict__ a,
                              const float* __restrict__ b,
                              float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

cudaError_t vecadd(const float* a, const float* b, float* c, int n,
                   cudaStream_t stream) {
  const int block = 256;
  const int grid = (n + block - 1) / block;
  vecadd_kernel<<<grid, block, 0, stream>>>(a, b, c, n);
  return cudaGetLastError();
}

int vecadd_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    return 0;
  }
  return count;
}
