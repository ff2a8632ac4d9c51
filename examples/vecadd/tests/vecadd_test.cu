// vecadd_test: checks vecadd and vecsum against results computed on the
// host. Exit codes: 0 pass, 1 fail, 77 no GPU (reported as skipped).
#include <cmath>
#include <cstdio>
#include <vector>

#include "vecadd.cuh"

static int failures = 0;

static void expect_near(const char* what, double got, double want, double tol) {
  if (std::fabs(got - want) > tol) {
    std::printf("FAIL %s: got %.6f, want %.6f\n", what, got, want);
    ++failures;
  }
}

static int check_sizes(int n) {
  std::vector<float> a(n), b(n), c(n);
  double want_sum = 0;
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>((i % 7) - 3);
    b[i] = static_cast<float>(i % 5);
    want_sum += a[i];
  }
  float *da, *db, *dc, *dsum;
  if (cudaMalloc(&da, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&db, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dc, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dsum, sizeof(float)) != cudaSuccess) {
    std::printf("FAIL cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (vecadd(da, db, dc, n) != cudaSuccess || vecsum(da, dsum, n) != cudaSuccess) {
    std::printf("FAIL launch\n");
    return 1;
  }
  float sum = 0;
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&sum, dsum, sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) {
      std::printf("FAIL vecadd n=%d: c[%d] = %g, want %g\n", n, i, c[i], a[i] + b[i]);
      ++failures;
      break;
    }
  }
  char what[64];
  std::snprintf(what, sizeof what, "vecsum n=%d", n);
  expect_near(what, sum, want_sum, 1e-3 * (1 + std::fabs(want_sum)));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dsum);
  return 0;
}

int main() {
  if (vecadd_device_count() == 0) {
    std::printf("SKIP vecadd_test: no GPU found\n");
    return 77;
  }
  const int sizes[] = {1, 31, 32, 33, 63, 64, 65, 1000, 1 << 16, 1 << 20};
  for (int n : sizes) {
    if (check_sizes(n) != 0) {
      return 1;
    }
  }
  if (failures != 0) {
    std::printf("FAIL vecadd_test: %d failures\n", failures);
    return 1;
  }
  std::printf("PASS vecadd_test\n");
  return 0;
}
