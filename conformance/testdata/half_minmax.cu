// half_minmax: __hmax, __hmin, __hmax2 and __hmin2 on half values, NaNs,
// infinities and signed zeros included, against a host reference of
// CUDA's rules: a NaN loses to a number (two NaNs give a NaN) and +0.0 is
// greater than -0.0. ROCm has no __hmax2 or __hmin2, and no __hmax or
// __hmin before 5.5.
#include <cuda_fp16.h>
#include <cmath>
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

constexpr int kN = 64;

// minmax writes, for pair i, the bits of max and min of (a[i], b[i]), and
// of the high halves of the same operations on (a[i], b[i]) and
// (b[i], a[i]) as half2 vectors.
__global__ void minmax(const float *a, const float *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  __half x = __float2half(a[i]);
  __half y = __float2half(b[i]);
  __half2 p = __halves2half2(x, y);
  __half2 q = __halves2half2(y, x);
  __half2 hi = __hmax2(p, q);
  __half2 lo = __hmin2(p, q);
  unsigned *o = out + 4 * i;
  o[0] = __half_as_ushort(__hmax(x, y));
  o[1] = __half_as_ushort(__hmin(x, y));
  o[2] = __half_as_ushort(__low2half(hi)) | (unsigned)__half_as_ushort(__high2half(hi)) << 16;
  o[3] = __half_as_ushort(__low2half(lo)) | (unsigned)__half_as_ushort(__high2half(lo)) << 16;
}

// half bits of a float that half represents exactly (or an infinity, or a
// NaN, which becomes 0x7e00 only for the comparison below).
static unsigned hbits(float f) {
  if (f != f) return 0x7e00;
  if (std::isinf(f)) return f > 0 ? 0x7c00 : 0xfc00;
  unsigned sign = std::signbit(f) ? 0x8000 : 0;
  f = std::fabs(f);
  if (f == 0) return sign;
  int e;
  float m = std::frexp(f, &e);  // f = m * 2^e, m in [0.5, 1)
  if (e - 1 >= -14) {          // normal: 1.mmmmmmmmmm * 2^(e-1)
    unsigned mant = (unsigned)std::ldexp(m * 2 - 1, 10);
    return sign | (unsigned)(e - 1 + 15) << 10 | mant;
  }
  return sign | (unsigned)std::ldexp(f, 24);  // subnormal: f / 2^-24
}

static bool isnanBits(unsigned h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }

// wantMax and wantMin are CUDA's results.
static unsigned wantMax(float a, float b) {
  if (a != a) return b != b ? 0x7e00 : hbits(b);
  if (b != b) return hbits(a);
  if (a > b) return hbits(a);
  if (b > a) return hbits(b);
  return std::signbit(a) ? hbits(b) : hbits(a);  // equal: +0 over -0
}
static unsigned wantMin(float a, float b) {
  if (a != a) return b != b ? 0x7e00 : hbits(b);
  if (b != b) return hbits(a);
  if (a < b) return hbits(a);
  if (b < a) return hbits(b);
  return std::signbit(a) ? hbits(a) : hbits(b);  // equal: -0 under +0
}

static bool same(unsigned got, unsigned want) {
  return isnanBits(want) ? isnanBits(got) : got == want;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  const float nan = std::nanf(""), inf = INFINITY;
  // Pairs of special values first, then values half represents exactly.
  std::vector<float> a = {nan, 1.5f, nan, 0.0f, -0.0f, 0.0f, -0.0f, inf, -inf, inf, 2.0f, -3.25f, 65504.0f, -65504.0f, 0.000061035156f, 5.9604645e-08f};
  std::vector<float> b = {2.0f, nan, nan, -0.0f, 0.0f, 0.0f, -0.0f, 7.0f, -7.0f, nan, 2.0f, -3.5f, inf, 1.0f, -0.000061035156f, -5.9604645e-08f};
  unsigned seed = 7;
  auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
  while ((int)a.size() < kN) {
    auto mk = [&]() { return std::ldexp((float)(1024 + rnd() % 1024) * ((rnd() & 1) ? -1 : 1), (int)(rnd() % 20) - 20); };
    a.push_back(mk());
    b.push_back(rnd() % 4 == 0 ? a.back() : mk());
  }
  float *d_a, *d_b;
  unsigned *d_out;
  CHECK(cudaMalloc(&d_a, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_b, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_out, 4 * kN * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_a, a.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  minmax<<<kN / 32, 32>>>(d_a, d_b, d_out);
  CHECK(cudaGetLastError());
  std::vector<unsigned> out(4 * kN);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kN; i++) {
    unsigned mx = wantMax(a[i], b[i]), mn = wantMin(a[i], b[i]);
    const unsigned *o = &out[4 * i];
    bool ok = same(o[0], mx) && same(o[1], mn) && same(o[2] & 0xffff, mx) && same(o[2] >> 16, mx) &&
              same(o[3] & 0xffff, mn) && same(o[3] >> 16, mn);
    if (!ok && bad++ < 8) {
      std::printf("pair %d (%g, %g): max %04x min %04x max2 %08x min2 %08x, want max %04x min %04x\n",
                  i, a[i], b[i], o[0], o[1], o[2], o[3], mx, mn);
    }
  }
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d of %d pairs\n", bad, kN);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
