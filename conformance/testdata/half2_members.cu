// half2_members: the members x and y of a __half2 in device code, read
// (__half2float(v.x)), stored (w.x = h), through their address (&w.y),
// an array, a pointer (p->x) and a struct member (s[i].h.y). ROCm before
// 6.0 declares them unsigned short, the raw bits of each half, so that a
// translation that leaves them computes with the bits as integers and
// stores a value truncated to an integer (HeCBench's quant3MatMul sums
// its results so). Every value here is a small multiple of 1/4, which half
// and float hold exactly, so the results must match the host's exactly.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_fp16.h>
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

constexpr int kN = 1024;

struct scaled {
  half2 h;
  float s;
};

__global__ void members(const half2 *in, const scaled *sc, half2 *out, float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half2 v = in[i];
  float lo = __half2float(v.x), hi = __half2float(v.y);
  half2 w;
  w.x = __float2half(hi);  // the halves swapped
  w.y = __float2half(lo);
  __half *py = &w.y;
  *py = __hadd(*py, __float2half(1.0f));
  const half2 *p = &in[i];
  sums[i] = __half2float(p->x) * sc[i].s + __half2float(sc[i].h.y);
  out[i] = w;
}

static float lowf(int i) { return (float)(i % 64) * 0.5f; }
static float highf(int i) { return -(float)(i % 32) * 0.25f; }

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<half2> in(kN);
  std::vector<scaled> sc(kN);
  for (int i = 0; i < kN; i++) {
    in[i] = __floats2half2_rn(lowf(i), highf(i));
    sc[i].h = __floats2half2_rn(0.0f, (float)(i % 16));
    sc[i].s = 2.0f;
  }
  half2 *d_in, *d_out;
  scaled *d_sc;
  float *d_sums;
  CHECK(cudaMalloc(&d_in, kN * sizeof(half2)));
  CHECK(cudaMalloc(&d_out, kN * sizeof(half2)));
  CHECK(cudaMalloc(&d_sc, kN * sizeof(scaled)));
  CHECK(cudaMalloc(&d_sums, kN * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(half2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_sc, sc.data(), kN * sizeof(scaled), cudaMemcpyHostToDevice));
  members<<<kN / 64, 64>>>(d_in, d_sc, d_out, d_sums, kN);
  CHECK(cudaGetLastError());
  std::vector<half2> out(kN);
  std::vector<float> sums(kN);
  CHECK(cudaMemcpy(out.data(), d_out, kN * sizeof(half2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), d_sums, kN * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kN; i++) {
    float olo = __low2float(out[i]), ohi = __high2float(out[i]);
    float want = lowf(i) * 2.0f + (float)(i % 16);
    if ((olo != highf(i) || ohi != lowf(i) + 1.0f || sums[i] != want) && bad++ < 8) {
      std::printf("element %d: out (%g, %g), sum %g; want (%g, %g), %g\n", i, olo, ohi, sums[i], highf(i),
                  lowf(i) + 1.0f, want);
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sc));
  CHECK(cudaFree(d_sums));
  if (bad) {
    std::printf("FAIL: %d of %d elements\n", bad, kN);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
