// bf16_convert: __nv_bfloat16's implicit conversions (from float, double
// and int; to float), its operators and the arithmetic and comparison
// intrinsics, against a host reference that rounds the exact result to
// bf16 once, to nearest even. ROCm before 5.7 has only hip_bfloat16, whose
// constructor from float is explicit and which has no bf16 intrinsics.
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

constexpr int kN = 256;
constexpr int kOut = 12;

// bits returns the 16 bits of a bf16 value.
__host__ __device__ inline unsigned bits(__nv_bfloat16 b) {
  unsigned short s;
  memcpy(&s, &b, sizeof s);
  return s;
}

__global__ void ops(const float *x, const float *y, const float *z, const int *n, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  __nv_bfloat16 a = x[i];          // implicit from float
  __nv_bfloat16 b = y[i];
  __nv_bfloat16 c = (double)z[i];  // from double
  __nv_bfloat16 m = n[i];          // from int
  unsigned *o = out + i * kOut;
  o[0] = bits(a);
  o[1] = bits(m);
  o[2] = bits(__hadd(a, b));
  o[3] = bits(__hsub(a, b));
  o[4] = bits(__hmul(a, b));
  o[5] = bits(__hdiv(a, b));
  o[6] = bits(__hfma(a, b, c));
  // Operators, each result rounded (no multiply followed by an add, which
  // nvcc may contract into one fma).
  __nv_bfloat16 d = a - b;
  d *= c;
  __nv_bfloat16 e = a;
  e += b;
  e -= c;
  o[7] = bits(d) | bits(e) << 16;
  o[8] = (unsigned)__heq(a, b) | (unsigned)__hlt(a, b) << 1 | (unsigned)__hge(a, c) << 2 |
         (unsigned)(a < b) << 3 | (unsigned)(a != c) << 4;
  o[9] = bits(__hmax(a, b)) | bits(__hmin(a, c)) << 16;
  float back = a;                   // implicit to float
  o[10] = back == (float)x[i] ? 1u : 0u;
  __nv_bfloat16 f = -c;
  o[11] = bits(__habs(f)) | bits(__hneg(a)) << 16;
}

// The host reference: the exact result (in double, where these inputs
// are exact) rounded to bf16 once.
static unsigned bf(double v) {
  float f = (float)v;  // exact for the values below: at most 24 significant bits
  if (f != f) return 0x7fc0;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return u >> 16;
}
static double val(unsigned b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  // Inputs: bf16-representable values (8 significant bits) whose exponents
  // differ little, so sums, products and a*b+c are exact in float; ints
  // below 2^20; and a few values that round (x is any float).
  std::vector<float> x(kN), y(kN), z(kN);
  std::vector<int> n(kN);
  unsigned seed = 5;
  auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
  for (int i = 0; i < kN; i++) {
    auto mk = [&]() { return (float)val(bf(std::ldexp((double)(128 + rnd() % 128) * ((rnd() & 1) ? -1 : 1), (int)(rnd() % 7) - 10))); };
    x[i] = mk();
    y[i] = mk();
    z[i] = mk();
    n[i] = (int)(rnd() % (1u << 20)) - (1 << 19);
  }
  y[3] = x[3];     // equal operands
  x[7] = 1.00390625f; // rounds: 1 + 2^-8 is a tie, to even (1.0)
  x[8] = 1.01171875f; // 1 + 3*2^-8: a tie, to even (1.015625)
  float *d_x, *d_y, *d_z;
  int *d_n;
  unsigned *d_out;
  CHECK(cudaMalloc(&d_x, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_y, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_z, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_n, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kN * kOut * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_x, x.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_z, z.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_n, n.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  ops<<<kN / 64, 64>>>(d_x, d_y, d_z, d_n, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(kN * kOut);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

  static const char *what[kOut] = {"from float", "from int", "__hadd", "__hsub", "__hmul", "__hdiv",
                                   "__hfma", "operators", "comparisons", "__hmax|__hmin", "to float", "__habs|__hneg"};
  int bad = 0;
  for (int i = 0; i < kN; i++) {
    double a = val(bf(x[i])), b = val(bf(y[i])), c = val(bf(z[i]));
    unsigned w[kOut];
    w[0] = bf(x[i]);
    w[1] = bf(n[i]);
    w[2] = bf(a + b);
    w[3] = bf(a - b);
    w[4] = bf(a * b);
    w[5] = bf((double)((float)a / (float)b));  // CUDA divides in float
    w[6] = bf(a * b + c);
    w[7] = bf(val(bf(a - b)) * c) | bf(val(bf(a + b)) - c) << 16;
    w[8] = (unsigned)(a == b) | (unsigned)(a < b) << 1 | (unsigned)(a >= c) << 2 | (unsigned)(a < b) << 3 | (unsigned)(a != c) << 4;
    w[9] = bf(a > b ? a : b) | bf(a < c ? a : c) << 16;
    w[10] = val(bf(x[i])) == (double)x[i] ? 1u : 0u;
    w[11] = bf(std::fabs(c)) | bf(-a) << 16;
    for (int r = 0; r < kOut; r++) {
      if (out[i * kOut + r] != w[r] && bad++ < 8)
        std::printf("input %d (%g, %g, %g, %d): %s = %#x, want %#x\n", i, x[i], y[i], z[i], n[i], what[r], out[i * kOut + r], w[r]);
    }
  }
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_z));
  CHECK(cudaFree(d_n));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
