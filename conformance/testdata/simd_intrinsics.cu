// simd_intrinsics: CUDA's SIMD intrinsics on the bytes and halfwords of an
// unsigned int (__vadd4, __vmaxs2, __vsadu4, __vcmpgts4, ... 82 of them),
// which HIP lacks in every release, computed on the device for edge values
// (0x80, 0x7f, 0xff, 0x8000, 0x7fff) and pseudo-random words, and checked
// against element-by-element definitions on the host. HeCBench's relu calls
// __vmaxs4.
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

constexpr int kPairs = 512;
constexpr int kOps = 82;

__global__ void simd(const unsigned int *a, const unsigned int *b, unsigned int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= kPairs) return;
  unsigned int x = a[t], y = b[t];
  unsigned int *o = out + t * kOps;
  o[0] = __vabs2(x);
  o[1] = __vabs4(x);
  o[2] = __vabsss2(x);
  o[3] = __vabsss4(x);
  o[4] = __vneg2(x);
  o[5] = __vneg4(x);
  o[6] = __vnegss2(x);
  o[7] = __vnegss4(x);
  o[8] = __vabsdiffs2(x, y);
  o[9] = __vabsdiffs4(x, y);
  o[10] = __vabsdiffu2(x, y);
  o[11] = __vabsdiffu4(x, y);
  o[12] = __vadd2(x, y);
  o[13] = __vadd4(x, y);
  o[14] = __vaddss2(x, y);
  o[15] = __vaddss4(x, y);
  o[16] = __vaddus2(x, y);
  o[17] = __vaddus4(x, y);
  o[18] = __vsub2(x, y);
  o[19] = __vsub4(x, y);
  o[20] = __vsubss2(x, y);
  o[21] = __vsubss4(x, y);
  o[22] = __vsubus2(x, y);
  o[23] = __vsubus4(x, y);
  o[24] = __vavgs2(x, y);
  o[25] = __vavgs4(x, y);
  o[26] = __vavgu2(x, y);
  o[27] = __vavgu4(x, y);
  o[28] = __vhaddu2(x, y);
  o[29] = __vhaddu4(x, y);
  o[30] = __vmaxs2(x, y);
  o[31] = __vmaxs4(x, y);
  o[32] = __vmaxu2(x, y);
  o[33] = __vmaxu4(x, y);
  o[34] = __vmins2(x, y);
  o[35] = __vmins4(x, y);
  o[36] = __vminu2(x, y);
  o[37] = __vminu4(x, y);
  o[38] = __vsads2(x, y);
  o[39] = __vsads4(x, y);
  o[40] = __vsadu2(x, y);
  o[41] = __vsadu4(x, y);
  o[42] = __vcmpeq2(x, y);
  o[43] = __vcmpeq4(x, y);
  o[44] = __vseteq2(x, y);
  o[45] = __vseteq4(x, y);
  o[46] = __vcmpne2(x, y);
  o[47] = __vcmpne4(x, y);
  o[48] = __vsetne2(x, y);
  o[49] = __vsetne4(x, y);
  o[50] = __vcmpges2(x, y);
  o[51] = __vcmpges4(x, y);
  o[52] = __vsetges2(x, y);
  o[53] = __vsetges4(x, y);
  o[54] = __vcmpgeu2(x, y);
  o[55] = __vcmpgeu4(x, y);
  o[56] = __vsetgeu2(x, y);
  o[57] = __vsetgeu4(x, y);
  o[58] = __vcmpgts2(x, y);
  o[59] = __vcmpgts4(x, y);
  o[60] = __vsetgts2(x, y);
  o[61] = __vsetgts4(x, y);
  o[62] = __vcmpgtu2(x, y);
  o[63] = __vcmpgtu4(x, y);
  o[64] = __vsetgtu2(x, y);
  o[65] = __vsetgtu4(x, y);
  o[66] = __vcmples2(x, y);
  o[67] = __vcmples4(x, y);
  o[68] = __vsetles2(x, y);
  o[69] = __vsetles4(x, y);
  o[70] = __vcmpleu2(x, y);
  o[71] = __vcmpleu4(x, y);
  o[72] = __vsetleu2(x, y);
  o[73] = __vsetleu4(x, y);
  o[74] = __vcmplts2(x, y);
  o[75] = __vcmplts4(x, y);
  o[76] = __vsetlts2(x, y);
  o[77] = __vsetlts4(x, y);
  o[78] = __vcmpltu2(x, y);
  o[79] = __vcmpltu4(x, y);
  o[80] = __vsetltu2(x, y);
  o[81] = __vsetltu4(x, y);
}

// The element i, of w bits, of v, signed or not.
static int get(unsigned int v, int i, int w, bool s) {
  unsigned int e = (v >> (i * w)) & ((1u << w) - 1u);
  if (s && (e >> (w - 1))) return (int)e - (1 << w);
  return (int)e;
}
static int sat(int v, int w, bool s) {
  int lo = s ? -(1 << (w - 1)) : 0, hi = s ? (1 << (w - 1)) - 1 : (1 << w) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}

// want returns what intrinsic k gives for a and b by its definition.
static unsigned int want(int k, unsigned int a, unsigned int b) {
  static const char kind[kOps] = {'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 's', 's', 's', 's', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p'};
  static const int width[kOps] = {16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8, 16, 8};
  static const bool sign[kOps] = {true, true, true, true, true, true, true, true, true, true, false, false, false, false, true, true, false, false, false, false, true, true, false, false, true, true, false, false, false, false, true, true, false, false, true, true, false, false, true, true, false, false, false, false, false, false, false, false, false, false, true, true, true, true, false, false, false, false, true, true, true, true, false, false, false, false, true, true, true, true, false, false, false, false, true, true, true, true, false, false, false, false};
  const int w = width[k], n = 32 / w;
  unsigned int r = 0;
  for (int i = 0; i < n; i++) {
    int x = get(a, i, w, sign[k]), y = get(b, i, w, sign[k]), v = 0;
    switch (k / 2) {
    case 0: v = x < 0 ? -x : x; break; // __vabs
    case 1: v = sat(x < 0 ? -x : x, w, true); break; // __vabsss
    case 2: v = -x; break; // __vneg
    case 3: v = sat(-x, w, true); break; // __vnegss
    case 4: v = x > y ? x - y : y - x; break; // __vabsdiffs
    case 5: v = x > y ? x - y : y - x; break; // __vabsdiffu
    case 6: v = x + y; break; // __vadd
    case 7: v = sat(x + y, w, true); break; // __vaddss
    case 8: v = sat(x + y, w, false); break; // __vaddus
    case 9: v = x - y; break; // __vsub
    case 10: v = sat(x - y, w, true); break; // __vsubss
    case 11: v = sat(x - y, w, false); break; // __vsubus
    case 12: v = (x + y + ((x + y) >= 0 ? 1 : 0)) >> 1; break; // __vavgs
    case 13: v = (x + y + 1) >> 1; break; // __vavgu
    case 14: v = (x + y) >> 1; break; // __vhaddu
    case 15: v = x > y ? x : y; break; // __vmaxs
    case 16: v = x > y ? x : y; break; // __vmaxu
    case 17: v = x < y ? x : y; break; // __vmins
    case 18: v = x < y ? x : y; break; // __vminu
    case 19: v = x > y ? x - y : y - x; break; // __vsads
    case 20: v = x > y ? x - y : y - x; break; // __vsadu
    case 21: v = (x == y) ? -1 : 0; break; // __vcmpeq
    case 22: v = (x == y) ? 1 : 0; break; // __vseteq
    case 23: v = (x != y) ? -1 : 0; break; // __vcmpne
    case 24: v = (x != y) ? 1 : 0; break; // __vsetne
    case 25: v = (x >= y) ? -1 : 0; break; // __vcmpges
    case 26: v = (x >= y) ? 1 : 0; break; // __vsetges
    case 27: v = (x >= y) ? -1 : 0; break; // __vcmpgeu
    case 28: v = (x >= y) ? 1 : 0; break; // __vsetgeu
    case 29: v = (x > y) ? -1 : 0; break; // __vcmpgts
    case 30: v = (x > y) ? 1 : 0; break; // __vsetgts
    case 31: v = (x > y) ? -1 : 0; break; // __vcmpgtu
    case 32: v = (x > y) ? 1 : 0; break; // __vsetgtu
    case 33: v = (x <= y) ? -1 : 0; break; // __vcmples
    case 34: v = (x <= y) ? 1 : 0; break; // __vsetles
    case 35: v = (x <= y) ? -1 : 0; break; // __vcmpleu
    case 36: v = (x <= y) ? 1 : 0; break; // __vsetleu
    case 37: v = (x < y) ? -1 : 0; break; // __vcmplts
    case 38: v = (x < y) ? 1 : 0; break; // __vsetlts
    case 39: v = (x < y) ? -1 : 0; break; // __vcmpltu
    case 40: v = (x < y) ? 1 : 0; break; // __vsetltu
    }
    if (kind[k] == 's') r += (unsigned int)v;
    else r |= ((unsigned int)v & ((1u << w) - 1u)) << (i * w);
  }
  return r;
}

static const char *names[kOps] = {"__vabs2", "__vabs4", "__vabsss2", "__vabsss4", "__vneg2", "__vneg4", "__vnegss2", "__vnegss4", "__vabsdiffs2", "__vabsdiffs4", "__vabsdiffu2", "__vabsdiffu4", "__vadd2", "__vadd4", "__vaddss2", "__vaddss4", "__vaddus2", "__vaddus4", "__vsub2", "__vsub4", "__vsubss2", "__vsubss4", "__vsubus2", "__vsubus4", "__vavgs2", "__vavgs4", "__vavgu2", "__vavgu4", "__vhaddu2", "__vhaddu4", "__vmaxs2", "__vmaxs4", "__vmaxu2", "__vmaxu4", "__vmins2", "__vmins4", "__vminu2", "__vminu4", "__vsads2", "__vsads4", "__vsadu2", "__vsadu4", "__vcmpeq2", "__vcmpeq4", "__vseteq2", "__vseteq4", "__vcmpne2", "__vcmpne4", "__vsetne2", "__vsetne4", "__vcmpges2", "__vcmpges4", "__vsetges2", "__vsetges4", "__vcmpgeu2", "__vcmpgeu4", "__vsetgeu2", "__vsetgeu4", "__vcmpgts2", "__vcmpgts4", "__vsetgts2", "__vsetgts4", "__vcmpgtu2", "__vcmpgtu4", "__vsetgtu2", "__vsetgtu4", "__vcmples2", "__vcmples4", "__vsetles2", "__vsetles4", "__vcmpleu2", "__vcmpleu4", "__vsetleu2", "__vsetleu4", "__vcmplts2", "__vcmplts4", "__vsetlts2", "__vsetlts4", "__vcmpltu2", "__vcmpltu4", "__vsetltu2", "__vsetltu4"};

int main() {
  std::vector<unsigned int> a(kPairs), b(kPairs);
  const unsigned int edge[] = {0u, 0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0x80007fffu, 0x7fff8000u,
                               0x01ff80feu, 0xfe0180ffu, 0x00010001u, 0x80000000u, 0x0000ffffu, 0xff00ff00u};
  const int ne = sizeof(edge) / sizeof(edge[0]);
  unsigned int s = 12345u;
  for (int t = 0; t < kPairs; t++) {
    if (t < ne * ne) {
      a[t] = edge[t / ne];
      b[t] = edge[t % ne];
    } else {
      s = s * 1664525u + 1013904223u;
      a[t] = s;
      s = s * 1664525u + 1013904223u;
      b[t] = s;
    }
  }
  unsigned int *d_a, *d_b, *d_out;
  CHECK(cudaMalloc(&d_a, kPairs * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_b, kPairs * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_out, kPairs * kOps * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_a, a.data(), kPairs * sizeof(unsigned int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), kPairs * sizeof(unsigned int), cudaMemcpyHostToDevice));
  simd<<<kPairs / 64, 64>>>(d_a, d_b, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned int> out(kPairs * kOps);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  int bad = 0;
  std::vector<int> shown(kOps, 0);
  for (int t = 0; t < kPairs; t++) {
    for (int k = 0; k < kOps; k++) {
      unsigned int w = want(k, a[t], b[t]);
      if (out[t * kOps + k] != w) {
        bad++;
        if (shown[k]++ < 2)
          std::printf("%s(0x%08x, 0x%08x): got 0x%08x, want 0x%08x\n", names[k], a[t], b[t], out[t * kOps + k], w);
      }
    }
  }
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
