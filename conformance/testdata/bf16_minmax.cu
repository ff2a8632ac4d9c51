// bf16_minmax: __hmax and __hmin on __nv_bfloat16 values, NaNs,
// infinities and signed zeros included, against a host reference of
// CUDA's rules: a NaN loses to a number (two NaNs give a NaN) and +0.0 is
// greater than -0.0, whichever operand comes first. ROCm before 5.7 has
// no bf16 __hmax or __hmin.
#include <cuda_bf16.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// bits returns the 16 bits of a bf16 value.
__host__ __device__ inline unsigned bits(__nv_bfloat16 b) {
  unsigned short s;
  memcpy(&s, &b, sizeof s);
  return s;
}

// minmax writes, for pair i, the bits of max and min of (a[i], b[i]) in
// its low halves and of (b[i], a[i]) in its high halves.
__global__ void minmax(const float *a, const float *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  __nv_bfloat16 x = __float2bfloat16(a[i]);
  __nv_bfloat16 y = __float2bfloat16(b[i]);
  unsigned *o = out + 2 * i;
  o[0] = bits(__hmax(x, y)) | bits(__hmax(y, x)) << 16;
  o[1] = bits(__hmin(x, y)) | bits(__hmin(y, x)) << 16;
}

// bf16 bits of a float that bf16 represents exactly (the inputs below
// are), a NaN becoming 0x7fc0 only for the comparison below.
static unsigned bbits(float f) {
  if (f != f) return 0x7fc0;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u >> 16;
}

// fb returns the float whose bits are a bf16 value's, b.
static float fb(unsigned b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

static bool isnanBits(unsigned h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0; }

// wantMax and wantMin are CUDA's results.
static unsigned wantMax(float a, float b) {
  if (a != a) return b != b ? 0x7fc0 : bbits(b);
  if (b != b) return bbits(a);
  if (a > b) return bbits(a);
  if (b > a) return bbits(b);
  return std::signbit(a) ? bbits(b) : bbits(a);  // equal: +0 over -0
}
static unsigned wantMin(float a, float b) {
  if (a != a) return b != b ? 0x7fc0 : bbits(b);
  if (b != b) return bbits(a);
  if (a < b) return bbits(a);
  if (b < a) return bbits(b);
  return std::signbit(a) ? bbits(a) : bbits(b);  // equal: -0 under +0
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
  // Pairs of special values first (the largest finite bf16, the smallest
  // normal one and the smallest subnormal one among them), then values
  // bf16 represents exactly.
  std::vector<float> a = {nan, 1.5f, nan, 0.0f, -0.0f, 0.0f, -0.0f, inf, -inf, inf, 2.0f, -3.25f, fb(0x7f7f), -1.0f, fb(0x0080), fb(0x0001)};
  std::vector<float> b = {2.0f, nan, nan, -0.0f, 0.0f, 0.0f, -0.0f, 7.0f, -7.0f, nan, 2.0f, -3.5f, inf, -1.0f, fb(0x8080), fb(0x8001)};
  unsigned seed = 11;
  auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
  while ((int)a.size() < kN) {
    auto mk = [&]() { return std::ldexp((float)(128 + rnd() % 128) * ((rnd() & 1) ? -1 : 1), (int)(rnd() % 40) - 20); };
    a.push_back(mk());
    b.push_back(rnd() % 4 == 0 ? -a.back() : mk());
  }
  float *d_a, *d_b;
  unsigned *d_out;
  CHECK(cudaMalloc(&d_a, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_b, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_out, 2 * kN * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_a, a.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  minmax<<<kN / 32, 32>>>(d_a, d_b, d_out);
  CHECK(cudaGetLastError());
  std::vector<unsigned> out(2 * kN);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kN; i++) {
    unsigned mx = wantMax(a[i], b[i]), mn = wantMin(a[i], b[i]);
    const unsigned *o = &out[2 * i];
    bool ok = same(o[0] & 0xffff, mx) && same(o[0] >> 16, mx) && same(o[1] & 0xffff, mn) && same(o[1] >> 16, mn);
    if (!ok && bad++ < 8) {
      std::printf("pair %d (%g, %g): max %08x min %08x, want max %04x min %04x\n", i, a[i], b[i], o[0], o[1], mx, mn);
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
