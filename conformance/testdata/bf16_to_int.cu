// bf16_to_int: CUDA's conversions of a bfloat16 to each integer type in
// each rounding mode (__bfloat162int_rn, __bfloat162ull_rz, ... 24 of them),
// which HIP lacks in every release (CUDA 12's char and uchar ones are left
// out: nvcc 11.8 lacks them), on halves, ties, the bounds of every
// type, infinities, NaN and every 97th bit pattern, against the definition
// on the host: the value rounded in the mode, clamped to the type's range;
// NaN gives 0, and 0x8000000000000000 for the 64-bit types. HeCBench's
// mxfp4 calls __bfloat162int_rn.
#include <cfloat>
#include <climits>
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

constexpr int kFuncs = 24;

__global__ void convert(const unsigned short *bits, int n, unsigned long long *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  __nv_bfloat16 b = __ushort_as_bfloat16(bits[t]);
  unsigned long long *o = out + (size_t)t * kFuncs;
  o[0] = (unsigned long long)(int)__bfloat162int_rd(b);
  o[1] = (unsigned long long)(int)__bfloat162int_rn(b);
  o[2] = (unsigned long long)(int)__bfloat162int_ru(b);
  o[3] = (unsigned long long)(int)__bfloat162int_rz(b);
  o[4] = (unsigned long long)(unsigned int)__bfloat162uint_rd(b);
  o[5] = (unsigned long long)(unsigned int)__bfloat162uint_rn(b);
  o[6] = (unsigned long long)(unsigned int)__bfloat162uint_ru(b);
  o[7] = (unsigned long long)(unsigned int)__bfloat162uint_rz(b);
  o[8] = (unsigned long long)(short)__bfloat162short_rd(b);
  o[9] = (unsigned long long)(short)__bfloat162short_rn(b);
  o[10] = (unsigned long long)(short)__bfloat162short_ru(b);
  o[11] = (unsigned long long)(short)__bfloat162short_rz(b);
  o[12] = (unsigned long long)(unsigned short)__bfloat162ushort_rd(b);
  o[13] = (unsigned long long)(unsigned short)__bfloat162ushort_rn(b);
  o[14] = (unsigned long long)(unsigned short)__bfloat162ushort_ru(b);
  o[15] = (unsigned long long)(unsigned short)__bfloat162ushort_rz(b);
  o[16] = (unsigned long long)(long long)__bfloat162ll_rd(b);
  o[17] = (unsigned long long)(long long)__bfloat162ll_rn(b);
  o[18] = (unsigned long long)(long long)__bfloat162ll_ru(b);
  o[19] = (unsigned long long)(long long)__bfloat162ll_rz(b);
  o[20] = (unsigned long long)(unsigned long long)__bfloat162ull_rd(b);
  o[21] = (unsigned long long)(unsigned long long)__bfloat162ull_rn(b);
  o[22] = (unsigned long long)(unsigned long long)__bfloat162ull_ru(b);
  o[23] = (unsigned long long)(unsigned long long)__bfloat162ull_rz(b);
}

static double rounded(float f, char mode) {
  double d = f;
  switch (mode) {
  case 'n': return std::nearbyint(d);
  case 'd': return std::floor(d);
  case 'u': return std::ceil(d);
  default: return std::trunc(d);
  }
}

// want returns conversion k of the bfloat16 with bits u, as the kernel
// stores it.
static unsigned long long want(int k, unsigned short u) {
  unsigned int w = (unsigned int)u << 16;
  float f;
  std::memcpy(&f, &w, sizeof f);
  if (std::isnan(f)) return k >= 16 ? 0x8000000000000000ull : 0;  // 64-bit: the pattern NVIDIA GPUs give
  switch (k) {
  case 0: { double r = rounded(f, 'd'); return (unsigned long long)(int)(r <= -2147483648.0 ? INT_MIN : r >= 2147483647.0 ? INT_MAX : (int)r); } // int_rd
  case 1: { double r = rounded(f, 'n'); return (unsigned long long)(int)(r <= -2147483648.0 ? INT_MIN : r >= 2147483647.0 ? INT_MAX : (int)r); } // int_rn
  case 2: { double r = rounded(f, 'u'); return (unsigned long long)(int)(r <= -2147483648.0 ? INT_MIN : r >= 2147483647.0 ? INT_MAX : (int)r); } // int_ru
  case 3: { double r = rounded(f, 'z'); return (unsigned long long)(int)(r <= -2147483648.0 ? INT_MIN : r >= 2147483647.0 ? INT_MAX : (int)r); } // int_rz
  case 4: { double r = rounded(f, 'd'); return (unsigned long long)(unsigned int)(r <= 0.0 ? 0 : r >= 4294967295.0 ? UINT_MAX : (unsigned int)r); } // uint_rd
  case 5: { double r = rounded(f, 'n'); return (unsigned long long)(unsigned int)(r <= 0.0 ? 0 : r >= 4294967295.0 ? UINT_MAX : (unsigned int)r); } // uint_rn
  case 6: { double r = rounded(f, 'u'); return (unsigned long long)(unsigned int)(r <= 0.0 ? 0 : r >= 4294967295.0 ? UINT_MAX : (unsigned int)r); } // uint_ru
  case 7: { double r = rounded(f, 'z'); return (unsigned long long)(unsigned int)(r <= 0.0 ? 0 : r >= 4294967295.0 ? UINT_MAX : (unsigned int)r); } // uint_rz
  case 8: { double r = rounded(f, 'd'); return (unsigned long long)(short)(r <= -32768.0 ? SHRT_MIN : r >= 32767.0 ? SHRT_MAX : (short)r); } // short_rd
  case 9: { double r = rounded(f, 'n'); return (unsigned long long)(short)(r <= -32768.0 ? SHRT_MIN : r >= 32767.0 ? SHRT_MAX : (short)r); } // short_rn
  case 10: { double r = rounded(f, 'u'); return (unsigned long long)(short)(r <= -32768.0 ? SHRT_MIN : r >= 32767.0 ? SHRT_MAX : (short)r); } // short_ru
  case 11: { double r = rounded(f, 'z'); return (unsigned long long)(short)(r <= -32768.0 ? SHRT_MIN : r >= 32767.0 ? SHRT_MAX : (short)r); } // short_rz
  case 12: { double r = rounded(f, 'd'); return (unsigned long long)(unsigned short)(r <= 0.0 ? 0 : r >= 65535.0 ? USHRT_MAX : (unsigned short)r); } // ushort_rd
  case 13: { double r = rounded(f, 'n'); return (unsigned long long)(unsigned short)(r <= 0.0 ? 0 : r >= 65535.0 ? USHRT_MAX : (unsigned short)r); } // ushort_rn
  case 14: { double r = rounded(f, 'u'); return (unsigned long long)(unsigned short)(r <= 0.0 ? 0 : r >= 65535.0 ? USHRT_MAX : (unsigned short)r); } // ushort_ru
  case 15: { double r = rounded(f, 'z'); return (unsigned long long)(unsigned short)(r <= 0.0 ? 0 : r >= 65535.0 ? USHRT_MAX : (unsigned short)r); } // ushort_rz
  case 16: { double r = rounded(f, 'd'); return (unsigned long long)(long long)(r <= -9223372036854775808.0 ? LLONG_MIN : r >= 9223372036854775807.0 ? LLONG_MAX : (long long)r); } // ll_rd
  case 17: { double r = rounded(f, 'n'); return (unsigned long long)(long long)(r <= -9223372036854775808.0 ? LLONG_MIN : r >= 9223372036854775807.0 ? LLONG_MAX : (long long)r); } // ll_rn
  case 18: { double r = rounded(f, 'u'); return (unsigned long long)(long long)(r <= -9223372036854775808.0 ? LLONG_MIN : r >= 9223372036854775807.0 ? LLONG_MAX : (long long)r); } // ll_ru
  case 19: { double r = rounded(f, 'z'); return (unsigned long long)(long long)(r <= -9223372036854775808.0 ? LLONG_MIN : r >= 9223372036854775807.0 ? LLONG_MAX : (long long)r); } // ll_rz
  case 20: { double r = rounded(f, 'd'); return (unsigned long long)(unsigned long long)(r <= 0.0 ? 0 : r >= 18446744073709551615.0 ? ULLONG_MAX : (unsigned long long)r); } // ull_rd
  case 21: { double r = rounded(f, 'n'); return (unsigned long long)(unsigned long long)(r <= 0.0 ? 0 : r >= 18446744073709551615.0 ? ULLONG_MAX : (unsigned long long)r); } // ull_rn
  case 22: { double r = rounded(f, 'u'); return (unsigned long long)(unsigned long long)(r <= 0.0 ? 0 : r >= 18446744073709551615.0 ? ULLONG_MAX : (unsigned long long)r); } // ull_ru
  case 23: { double r = rounded(f, 'z'); return (unsigned long long)(unsigned long long)(r <= 0.0 ? 0 : r >= 18446744073709551615.0 ? ULLONG_MAX : (unsigned long long)r); } // ull_rz
  }
  return 0;
}

static const char *names[kFuncs] = {"__bfloat162int_rd", "__bfloat162int_rn", "__bfloat162int_ru", "__bfloat162int_rz", "__bfloat162uint_rd", "__bfloat162uint_rn", "__bfloat162uint_ru", "__bfloat162uint_rz", "__bfloat162short_rd", "__bfloat162short_rn", "__bfloat162short_ru", "__bfloat162short_rz", "__bfloat162ushort_rd", "__bfloat162ushort_rn", "__bfloat162ushort_ru", "__bfloat162ushort_rz", "__bfloat162ll_rd", "__bfloat162ll_rn", "__bfloat162ll_ru", "__bfloat162ll_rz", "__bfloat162ull_rd", "__bfloat162ull_rn", "__bfloat162ull_ru", "__bfloat162ull_rz"};

static unsigned short bf16_bits(float f) {  // f is a bfloat16 value
  unsigned int w;
  std::memcpy(&w, &f, sizeof w);
  return (unsigned short)(w >> 16);
}

int main() {
  std::vector<unsigned short> bits;
  const float values[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 3.5f, 126.5f, 127.0f, 127.5f, 128.0f, -128.0f,
                          -129.0f, 254.0f, 255.0f, 256.0f, -1.0f, 32512.0f, 32768.0f, -32768.0f, -32896.0f, 65280.0f,
                          65536.0f, 2147483648.0f, -2147483648.0f, 4294967296.0f, 9223372036854775808.0f,
                          -9223372036854775808.0f, 18446744073709551616.0f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN,
                          1.17549435e-38f, -1.17549435e-38f};
  for (float v : values) bits.push_back(bf16_bits(v));
  bits.push_back(0x0001);  // the smallest subnormal
  bits.push_back(0x7f7f);  // the largest finite value
  bits.push_back(0xffc1);  // a negative NaN
  for (unsigned int u = 0; u < 65536; u += 97) bits.push_back((unsigned short)u);
  const int n = (int)bits.size();
  unsigned short *d_bits;
  unsigned long long *d_out;
  CHECK(cudaMalloc(&d_bits, n * sizeof(unsigned short)));
  CHECK(cudaMalloc(&d_out, (size_t)n * kFuncs * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_bits, bits.data(), n * sizeof(unsigned short), cudaMemcpyHostToDevice));
  convert<<<(n + 63) / 64, 64>>>(d_bits, n, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> out((size_t)n * kFuncs);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  std::vector<int> shown(kFuncs, 0);
  for (int t = 0; t < n; t++) {
    for (int k = 0; k < kFuncs; k++) {
      unsigned long long w = want(k, bits[t]), g = out[(size_t)t * kFuncs + k];
      if (g != w) {
        bad++;
        if (shown[k]++ < 3) std::printf("%s(0x%04x): got 0x%llx, want 0x%llx\n", names[k], bits[t], g, w);
      }
    }
  }
  CHECK(cudaFree(d_bits));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
