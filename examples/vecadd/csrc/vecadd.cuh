// Public interface of the vecadd library.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

#define VECADD_CHECK(call)                                                   \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,     \
                   #call, cudaGetErrorString(err_));                         \
      return err_;                                                           \
    }                                                                        \
  } while (0)

// c[i] = a[i] + b[i] for i < n, on device pointers.
cudaError_t vecadd(const float* a, const float* b, float* c, int n,
                   cudaStream_t stream = 0);

// *sum = a[0] + ... + a[n-1], on device pointers; *sum is on the device.
cudaError_t vecsum(const float* a, float* sum, int n, cudaStream_t stream = 0);

// Number of usable GPUs, 0 when there is none (no driver, no device).
int vecadd_device_count();
