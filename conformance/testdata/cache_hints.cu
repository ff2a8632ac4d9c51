// cache_hints: loads and stores with a cache hint (__ldcs, __ldcg, __ldca,
// __ldlu, __ldcv, __stcs, __stcg, __stwb, __stwt), as llm.c's kernels use
// them, on float, float4, double, int and __half, each value checked on
// the host. The hints decide how lines are cached, never the values. HIP
// has these loads for __half and __half2 only and none of the stores.
#include <cuda_fp16.h>
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

constexpr int kN = 256;

struct Buffers {
  const float *f;
  const float4 *v;
  const double *d;
  const int *k;
  const __half *h;
  float *fo;
  float4 *vo;
  double *dO;
  int *ko;
  __half *ho;
};

// hinted reads every input with each load and writes, with each store,
// values the host can recompute: fo[4i..4i+3] from the four float loads,
// vo[i] a float4 scaled by 2, dO[i] a double plus one, ko[i] an int times
// three (read through __ldcv), ho[i] the half negated.
__global__ void hinted(Buffers b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  float x = __ldcs(b.f + i);
  float y = __ldcg(&b.f[i]);
  float z = __ldca(b.f + i);
  float w = __ldlu(b.f + i);
  __stcs(b.fo + 4 * i, x + 1.0f);
  __stcg(b.fo + 4 * i + 1, y * 2.0f);
  __stwb(b.fo + 4 * i + 2, z - 3.0f);
  __stwt(b.fo + 4 * i + 3, w * w);
  float4 v = __ldcs(b.v + i);
  v.x *= 2.0f; v.y *= 2.0f; v.z *= 2.0f; v.w *= 2.0f;
  __stcs(b.vo + i, v);
  double d = __ldcg(b.d + i);
  __stcg(b.dO + i, d + 1.0);
  int k = __ldcv(b.k + i);
  __stwt(b.ko + i, k * 3);
  __half h = __ldcs(b.h + i);
  __stcs(b.ho + i, __hneg(h));
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<float> f(kN);
  std::vector<float4> v(kN);
  std::vector<double> d(kN);
  std::vector<int> k(kN);
  std::vector<__half> h(kN);
  for (int i = 0; i < kN; i++) {
    f[i] = 0.25f * (float)(i - 100);
    v[i] = make_float4((float)i, -(float)i, 0.5f * (float)i, 1.0f);
    d[i] = 1e10 + 0.5 * (double)i;
    k[i] = 7 * i - 900;
    h[i] = __float2half((float)(i % 64) - 32.0f);
  }
  float *df, *dfo;
  float4 *dv, *dvo;
  double *dd, *ddo;
  int *dk, *dko;
  __half *dh, *dho;
  CHECK(cudaMalloc(&df, kN * sizeof(float)));
  CHECK(cudaMalloc(&dfo, 4 * kN * sizeof(float)));
  CHECK(cudaMalloc(&dv, kN * sizeof(float4)));
  CHECK(cudaMalloc(&dvo, kN * sizeof(float4)));
  CHECK(cudaMalloc(&dd, kN * sizeof(double)));
  CHECK(cudaMalloc(&ddo, kN * sizeof(double)));
  CHECK(cudaMalloc(&dk, kN * sizeof(int)));
  CHECK(cudaMalloc(&dko, kN * sizeof(int)));
  CHECK(cudaMalloc(&dh, kN * sizeof(__half)));
  CHECK(cudaMalloc(&dho, kN * sizeof(__half)));
  CHECK(cudaMemcpy(df, f.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), kN * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, d.data(), kN * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dk, k.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dh, h.data(), kN * sizeof(__half), cudaMemcpyHostToDevice));
  Buffers b{df, dv, dd, dk, dh, dfo, dvo, ddo, dko, dho};
  hinted<<<kN / 64, 64>>>(b);
  CHECK(cudaGetLastError());
  std::vector<float> fo(4 * kN);
  std::vector<float4> vo(kN);
  std::vector<double> dO(kN);
  std::vector<int> ko(kN);
  std::vector<__half> ho(kN);
  CHECK(cudaMemcpy(fo.data(), dfo, fo.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(vo.data(), dvo, kN * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dO.data(), ddo, kN * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ko.data(), dko, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ho.data(), dho, kN * sizeof(__half), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kN; i++) {
    // Every operation below is exact in its type, so == is the test.
    bool ok = fo[4 * i] == f[i] + 1.0f && fo[4 * i + 1] == f[i] * 2.0f && fo[4 * i + 2] == f[i] - 3.0f &&
              fo[4 * i + 3] == f[i] * f[i] && vo[i].x == 2.0f * v[i].x && vo[i].y == 2.0f * v[i].y &&
              vo[i].z == 2.0f * v[i].z && vo[i].w == 2.0f * v[i].w && dO[i] == d[i] + 1.0 && ko[i] == 3 * k[i] &&
              __half2float(ho[i]) == -__half2float(h[i]);
    if (!ok && bad++ < 8) {
      std::printf("element %d: floats %g %g %g %g, float4 %g %g %g %g, double %g, int %d, half %g\n", i, fo[4 * i],
                  fo[4 * i + 1], fo[4 * i + 2], fo[4 * i + 3], vo[i].x, vo[i].y, vo[i].z, vo[i].w, dO[i], ko[i],
                  __half2float(ho[i]));
    }
  }
  CHECK(cudaFree(df));
  CHECK(cudaFree(dfo));
  CHECK(cudaFree(dv));
  CHECK(cudaFree(dvo));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(ddo));
  CHECK(cudaFree(dk));
  CHECK(cudaFree(dko));
  CHECK(cudaFree(dh));
  CHECK(cudaFree(dho));
  if (bad) {
    std::printf("FAIL: %d of %d elements\n", bad, kN);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
