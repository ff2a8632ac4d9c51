// vecadd_demo: adds two vectors on the GPU and prints a few results.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "vecadd.cuh"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  if (vecadd_device_count() == 0) {
    std::printf("vecadd_demo: no GPU found\n");
    return 77;
  }
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 2.0f;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (vecadd(da, db, dc, n) != cudaSuccess) {
    std::fprintf(stderr, "vecadd_demo: kernel launch failed\n");
    return 1;
  }
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4 && i < n; ++i) {
    std::printf("c[%d] = %g\n", i, c[i]);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
