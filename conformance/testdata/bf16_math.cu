// bf16_math: CUDA's bfloat16 math functions (hfloor, hceil, htrunc, hrint,
// hsqrt, hrsqrt, hrcp, hexp, hexp2, hexp10, hlog, hlog2, hlog10, hsin,
// hcos) and their pair forms (h2floor, ...), which ROCm before 5.7 lacks
// for bfloat16, on every one of the 65,536 bit patterns, against the
// definition on the host: the function in double, rounded to bfloat16. The
// rounding functions must match it bit for bit; the others within one
// unit in the last place, since CUDA computes them with its approximate
// float instructions before rounding. Each pair result must equal the
// scalar results of its halves. HeCBench's mxfp4 calls hfloor(hlog2(x)).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_bf16.h>
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

constexpr int kFuncs = 15;
constexpr int kExact = 4;  // the first four round exactly
constexpr int kPatterns = 65536;

__global__ void math(int n, unsigned short *scalar, unsigned short *pair) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  __nv_bfloat16 b = __ushort_as_bfloat16((unsigned short)t);
  __nv_bfloat16 r[kFuncs] = {hfloor(b), hceil(b), htrunc(b), hrint(b), hsqrt(b), hrsqrt(b), hrcp(b), hexp(b),
                             hexp2(b), hexp10(b), hlog(b), hlog2(b), hlog10(b), hsin(b), hcos(b)};
  // The pair holds the value and its negation.
  __nv_bfloat162 p = __halves2bfloat162(b, __hneg(b));
  __nv_bfloat162 q[kFuncs] = {h2floor(p), h2ceil(p), h2trunc(p), h2rint(p), h2sqrt(p), h2rsqrt(p), h2rcp(p), h2exp(p),
                              h2exp2(p), h2exp10(p), h2log(p), h2log2(p), h2log10(p), h2sin(p), h2cos(p)};
  for (int k = 0; k < kFuncs; k++) {
    scalar[(size_t)t * kFuncs + k] = __bfloat16_as_ushort(r[k]);
    pair[((size_t)t * kFuncs + k) * 2] = __bfloat16_as_ushort(__low2bfloat16(q[k]));
    pair[((size_t)t * kFuncs + k) * 2 + 1] = __bfloat16_as_ushort(__high2bfloat16(q[k]));
  }
}

static const char *names[kFuncs] = {"hfloor", "hceil", "htrunc", "hrint", "hsqrt", "hrsqrt", "hrcp", "hexp",
                                    "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos"};

static float value(unsigned short u) {
  unsigned int w = (unsigned int)u << 16;
  float f;
  std::memcpy(&f, &w, sizeof f);
  return f;
}

// to_bf16 rounds a double to the nearest bfloat16, ties to even; NaN
// becomes the canonical 0x7fff.
static unsigned short to_bf16(double d) {
  float f = (float)d;
  if (std::isnan(f)) return 0x7fff;
  unsigned int w;
  std::memcpy(&w, &f, sizeof w);
  // Round the float, itself rounded from d, to bf16; where the float lies
  // exactly halfway, d decides which way (the float's rounding lost it).
  unsigned int low = w & 0xffffu, up = (w >> 16) & 1u;
  if (low == 0x8000u && (double)f != d) {
    bool away = (d > (double)f) == (f > 0);
    w = away ? w + 0x8000u : w - 0x8000u;
  } else {
    w += 0x7fffu + up;
  }
  return (unsigned short)(w >> 16);
}

static double want(int k, double x) {
  switch (k) {
  case 0: return std::floor(x);
  case 1: return std::ceil(x);
  case 2: return std::trunc(x);
  case 3: return std::nearbyint(x);
  case 4: return std::sqrt(x);
  case 5: return 1.0 / std::sqrt(x);
  case 6: return 1.0 / x;
  case 7: return std::exp(x);
  case 8: return std::exp2(x);
  case 9: return std::pow(10.0, x);
  case 10: return std::log(x);
  case 11: return std::log2(x);
  case 12: return std::log10(x);
  case 13: return std::sin(x);
  default: return std::cos(x);
  }
}

// distance is how many bfloat16 values lie between a and b (0 when equal,
// or both NaN; 1 for neighbours, +0 and -0 being one value).
static int distance(unsigned short a, unsigned short b) {
  bool na = (a & 0x7fff) > 0x7f80, nb = (b & 0x7fff) > 0x7f80;
  if (na || nb) return na && nb ? 0 : 1 << 20;
  auto ordered = [](unsigned short u) { return (u & 0x8000) ? -(int)(u & 0x7fff) : (int)u; };
  int d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

int main() {
  unsigned short *d_scalar, *d_pair;
  CHECK(cudaMalloc(&d_scalar, (size_t)kPatterns * kFuncs * sizeof(unsigned short)));
  CHECK(cudaMalloc(&d_pair, (size_t)kPatterns * kFuncs * 2 * sizeof(unsigned short)));
  math<<<kPatterns / 256, 256>>>(kPatterns, d_scalar, d_pair);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned short> scalar((size_t)kPatterns * kFuncs), pair((size_t)kPatterns * kFuncs * 2);
  CHECK(cudaMemcpy(scalar.data(), d_scalar, scalar.size() * sizeof(unsigned short), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pair.data(), d_pair, pair.size() * sizeof(unsigned short), cudaMemcpyDeviceToHost));
  int bad = 0, off_by_one = 0;
  std::vector<int> shown(kFuncs, 0);
  for (int t = 0; t < kPatterns; t++) {
    double x = value((unsigned short)t);
    for (int k = 0; k < kFuncs; k++) {
      unsigned short g = scalar[(size_t)t * kFuncs + k], w = to_bf16(want(k, x));
      int d = distance(g, w);
      if (d == 1 && k >= kExact) off_by_one++;
      if (d > (k < kExact ? 0 : 1)) {
        bad++;
        if (shown[k]++ < 3) std::printf("%s(0x%04x = %g): got 0x%04x, want 0x%04x\n", names[k], t, x, g, w);
      }
      // The pair's halves: the value, and its negation (pattern t ^ 0x8000).
      unsigned short lo = pair[((size_t)t * kFuncs + k) * 2], hi = pair[((size_t)t * kFuncs + k) * 2 + 1];
      unsigned short neg = scalar[(size_t)(t ^ 0x8000) * kFuncs + k];
      if (distance(lo, g) != 0 || distance(hi, neg) != 0) {
        bad++;
        if (shown[k]++ < 3) std::printf("h2%s(0x%04x): got 0x%04x 0x%04x, want 0x%04x 0x%04x\n", names[k] + 1, t, lo, hi, g, neg);
      }
    }
  }
  CHECK(cudaFree(d_scalar));
  CHECK(cudaFree(d_pair));
  std::printf("%d results one unit off the rounded double\n", off_by_one);
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
