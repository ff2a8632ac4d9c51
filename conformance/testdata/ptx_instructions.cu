// ptx_instructions: inline PTX of the kinds real kernels carry, checked
// against the PTX ISA's definitions written out on the host: bit-field
// extract and insert (bfe, bfi, bfind), byte permute (prmt), three-input
// logic (lop3), popc and clz, min, max and selp, wide and fused
// multiplies; vector, narrow and cache-hinted loads and stores, volatile
// and ordered accesses through generic pointers into shared memory;
// atomics and reductions; bar.sync, fences and the clock; approximate
// exp2 and tanh and the f16 conversions (round to nearest even,
// subnormals, overflow to infinity, ties); registers and predicates of the
// template's own (guarded loads that zero-fill and guarded stores, the
// cvta.to.shared idiom and shared loads and stores through shared-window
// addresses, a loaded register added to an output); shuffles of 32 and 16
// lanes (bfly, up, down, idx with a source lane past the segment);
// asynchronous copies with zero fill. Bit-field positions and lengths
// reach past the register's width and carry bits above the eight PTX
// reads; prmt's selectors use the sign replication bit.
#include <cmath>
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

constexpr int kBlock = 256;
constexpr int kBlocks = 8;
constexpr int kN = kBlock * kBlocks;
constexpr int k32 = 21; // 32-bit results per thread of the bits kernel
constexpr int k64 = 6;  // 64-bit results

template <unsigned Lut>
__device__ __forceinline__ unsigned lop3(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return d;
}

__global__ void bits(const unsigned *va, const unsigned *vb, const unsigned *vc, const unsigned *vd,
                     const unsigned long long *vw, unsigned *out32, unsigned long long *out64) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = va[i], pos = vb[i], len = vc[i], sel = vd[i];
  unsigned long long q = vw[i];
  unsigned *o = out32 + i * k32;
  unsigned long long *o64 = out64 + i * k64;
  unsigned r;
  int s;
  unsigned long long r64;
  long long s64;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  o[0] = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(x), "r"(pos), "r"(len));
  o[1] = (unsigned)s;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r64) : "l"(q), "r"(pos), "r"(len));
  o64[0] = r64;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(s64) : "l"(q), "r"(pos), "r"(len));
  o64[1] = (unsigned long long)s64;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(sel), "r"(pos), "r"(len));
  o[2] = r;
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r64) : "l"(q), "l"(~q * 3ull), "r"(pos), "r"(len));
  o64[2] = r64;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x >> (pos & 31)));
  o[3] = r;
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"((int)x >> (pos & 31)));
  o[4] = r;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(x >> (pos & 31)));
  o[5] = r;
  asm("bfind.u64 %0, %1;" : "=r"(r) : "l"(q >> (pos & 63)));
  o[6] = r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(~x * 2654435761u), "r"(sel));
  o[7] = r;
  o[8] = lop3<0x96>(x, sel, (unsigned)q);
  o[9] = lop3<0xE8>(x, sel, (unsigned)q);
  o[10] = lop3<0xCA>(x, sel, (unsigned)q);
  o[11] = lop3<0x1B>(x, sel, (unsigned)q);
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(x >> (pos & 31)));
  o[12] = r;
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x >> (pos & 31)));
  o[13] = r;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(sel));
  o[14] = r;
  asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(s) : "r"((int)x), "r"((int)sel), "r"((int)pos));
  o[15] = (unsigned)s;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(r64) : "r"(x), "r"(sel));
  o64[3] = r64;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(s64) : "r"((int)x), "r"((int)sel));
  o64[4] = (unsigned long long)s64;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r64) : "r"(x), "r"(sel), "l"(q));
  o64[5] = r64;
  asm("mov.b32 %0, %1;" : "=r"(r) : "r"(x ^ sel));
  o[16] = r;
  asm("mov.u32 %0, 0x1234abcd;" : "=r"(r));
  o[17] = r;
  asm("{\n .reg .pred lt;\n setp.lo.u32 lt, %1, %2;\n selp.b32 %0, %1, %2, lt;\n}" : "=r"(r) : "r"(x), "r"(sel));
  o[18] = r;
  asm("min.s32 %0, %1, %2;" : "=r"(s) : "r"((int)x), "r"((int)sel));
  o[19] = (unsigned)s;
  asm("max.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(sel));
  o[20] = r;
}

__global__ void memory(const uint4 *src, uint4 *dst, const float2 *fsrc, float *fdst, const signed char *bytes,
                       int *ext) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a, b, c, d;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(src + i));
  asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst + i), "r"(d), "r"(c), "r"(b), "r"(a)
               : "memory");
  float x, y;
  asm("ld.global.v2.f32 {%0, %1}, [%2];" : "=f"(x), "=f"(y) : "l"(fsrc + i));
  asm volatile("st.global.wb.f32 [%0], %1;" ::"l"(fdst + i), "f"(x * 2.0f + y) : "memory");
  int e, u;
  asm("ld.global.s8 %0, [%1 + 1];" : "=r"(e) : "l"(bytes + 2 * i));
  asm("ld.global.cs.u8 {%0}, [%1+1];" : "=r"(u) : "l"(bytes + 2 * i));
  ext[2 * i] = e;
  ext[2 * i + 1] = u;
}

__global__ void syncAtomics(unsigned *counter, int *maxv, float *fsum, unsigned long long *usum, unsigned *cas,
                            unsigned *slots, unsigned *out) {
  __shared__ unsigned s[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  unsigned *o = out + 6 * i;
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
  s[t] = (unsigned)i * 7u;
  asm volatile("bar.sync 0;" ::: "memory");
  unsigned v;
  asm volatile("ld.volatile.u32 %0, [%1];" : "=r"(v) : "l"(&s[kBlock - 1 - t]));
  o[0] = v;
  asm volatile("bar.sync 0;\n\tmembar.cta;" ::: "memory");
  asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(&s[t]), "r"(v + 1u) : "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(&s[t]));
  o[1] = v;
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter), "r"(1u) : "memory");
  o[2] = old;
  asm volatile("red.global.max.s32 [%0], %1;" ::"l"(maxv), "r"((int)((unsigned)i * 2654435761u)) : "memory");
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(fsum), "f"(0.5f) : "memory");
  asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(usum), "l"((unsigned long long)i << 20) : "memory");
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(cas), "r"(0u), "r"((unsigned)i + 1u) : "memory");
  o[3] = old;
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(slots + i), "r"((unsigned)i ^ 0x55u) : "memory");
  o[4] = old;
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(slots + kN + i), "r"(old * 5u) : "memory");
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(slots + kN + i) : "memory");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
  o[5] = (v == old * 5u) + 2u * (t1 >= t0);
}

__global__ void math(const float *in, const float *conv, float *ex2, float *th, unsigned short *h, float *back,
                     unsigned *pair, unsigned short *hex2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  ex2[i] = y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  th[i] = y;
  unsigned short hh;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hh) : "f"(conv[i]));
  h[i] = hh;
  asm("cvt.f32.f16 %0, %1;" : "=f"(y) : "h"(hh));
  back[i] = y;
  unsigned p;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(x), "f"(-x * 0.25f));
  pair[i] = p;
  unsigned short in16, e16;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(in16) : "f"(x * 0.5f));
  asm("ex2.approx.f16 %0, %1;" : "=h"(e16) : "h"(in16));
  hex2[i] = e16;
}

// A shared-space address in 64 bits. Real code often cuts it to 32
// (cvt.u32.u64 after the cvta, which AMD's 32-bit LDS addresses take as
// well; the golden tests have it), but HIP-CPU's shared memory lies at
// 64-bit host addresses, which that would cut.
__device__ __forceinline__ unsigned long long sharedAddress(const void *p) {
  unsigned long long addr;
  asm("{.reg .u64 u64addr;\n"
      " cvta.to.shared.u64 u64addr, %1;\n"
      " mov.b64 %0, u64addr;}\n"
      : "=l"(addr)
      : "l"(p));
  return addr;
}

// Float registers moved as bits (mov.b32 of 0 into an "=f" output, shfl of
// an "f" operand, red.add.f32 of an "r" one) need HIP's bit casts, which
// bench/hip-cpu/patch.sh adds to HIP-CPU.
__global__ void registers(const int *in, int n, int *guarded, int *out, const int4 *g, int4 *copied, const float *fin,
                          float *fout, float *fsum) {
  __shared__ int buf[kBlock];
  __shared__ int4 tile[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v;
  asm volatile(
      "{\n"
      " .reg .pred p;\n"
      " setp.lt.s32 p, %2, %3;\n"
      " @!p mov.b32 %0, 0;\n"
      " @p ld.global.b32 %0, [%1];\n"
      "}\n"
      : "=r"(v)
      : "l"(in + i), "r"(i), "r"(n));
  asm volatile("{.reg .pred q;\n setp.ne.s32 q, %2, 0;\n @q st.global.b32 [%0], %1;}\n" ::"l"(guarded + i), "r"(v * 2), "r"(i % 3)
               : "memory");
  unsigned long long mine = sharedAddress(&buf[t]), other = sharedAddress(&buf[kBlock - 1 - t]);
  asm volatile("st.shared.b32 [%0], %1;" ::"l"(mine), "r"(v + 1) : "memory");
  __syncthreads();
  int mirrored;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(mirrored) : "l"(other));
  int x = mirrored, y;
  for (int m = 16; m > 0; m >>= 1) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(y) : "r"(x), "r"(m));
    x += y;
  }
  int lane = t & 31, up, down, idx;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;" : "=r"(up) : "r"(lane * 10), "r"(1), "n"(0x1000), "r"(0xffffffffu));
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x101f, 0xffffffff;" : "=r"(down) : "r"(lane * 10), "r"(3));
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(idx) : "r"(lane * 10), "r"(lane + 35));
  int acc = i;
  asm volatile("{.reg .s32 val;\n ld.global.cg.b32 val, [%1];\n add.s32 %0, val, %0;}\n" : "+r"(acc) : "l"(in + (i % n)));
  float f, fy;
  asm volatile(
      "{\n"
      " .reg .pred p;\n"
      " setp.lt.s32 p, %2, %3;\n"
      " @!p mov.b32 %0, 0;\n"
      " @p ld.global.f32 %0, [%1];\n"
      "}\n"
      : "=f"(f)
      : "l"(fin + i), "r"(i), "r"(n));
  for (int m = 16; m > 0; m >>= 1) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(fy) : "f"(f), "r"(m));
    f += fy;
  }
  fout[i] = f;
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(fsum), "r"(0x3f000000u) : "memory"); // 0.5f
  int *o = out + 6 * i;
  o[0] = mirrored;
  o[1] = x;
  o[2] = up;
  o[3] = down;
  o[4] = idx;
  o[5] = acc;
  unsigned long long s = sharedAddress(&tile[t]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"l"(s), "l"(g + i), "r"(t % 17) : "memory");
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  __syncthreads();
  copied[i] = tile[t];
}

// The PTX ISA's definitions, bit by bit. One difference from the ISA's
// text: it says bfe and bfi take the low eight bits of the position and
// the length, and the 32-bit forms do; the 64-bit forms, which ptxas
// emulates with shifts, take all 32 bits on sm_80 and sm_90 (nvcc 13.0).
static unsigned bit(unsigned long long v, unsigned long long i) { return i < 64 ? (unsigned)(v >> i) & 1u : 0u; }

static unsigned long long refBfe(unsigned long long a, unsigned b, unsigned c, int msb, bool isSigned) {
  unsigned long long pos = msb == 31 ? b & 0xff : b, len = msb == 31 ? c & 0xff : c;
  unsigned long long top = pos + len - 1 < (unsigned long long)msb ? pos + len - 1 : (unsigned long long)msb;
  unsigned sbit = (!isSigned || len == 0) ? 0 : bit(a, top);
  unsigned long long d = 0;
  for (unsigned long long i = 0; i <= (unsigned long long)msb; i++) {
    unsigned v = (i < len && pos + i <= (unsigned long long)msb) ? bit(a, pos + i) : sbit;
    d |= (unsigned long long)v << i;
  }
  return d;
}

static unsigned long long refBfi(unsigned long long a, unsigned long long b, unsigned c, unsigned d, int msb) {
  unsigned long long pos = msb == 31 ? c & 0xff : c, len = msb == 31 ? d & 0xff : d;
  unsigned long long f = b;
  for (unsigned long long i = 0; i < len && pos + i <= (unsigned long long)msb; i++) {
    f = (f & ~(1ull << (pos + i))) | ((unsigned long long)bit(a, i) << (pos + i));
  }
  return f;
}

static unsigned refBfind(unsigned long long a, int msb, bool isSigned, bool shiftamt) {
  unsigned d = 0xffffffffu;
  if (isSigned && bit(a, msb)) a = ~a;
  for (int i = isSigned ? msb - 1 : msb; i >= 0; i--) {
    if (bit(a, i)) {
      d = shiftamt ? (unsigned)(msb - i) : (unsigned)i;
      break;
    }
  }
  return d;
}

static unsigned refPrmt(unsigned a, unsigned b, unsigned c) {
  unsigned char bytes[8];
  for (int n = 0; n < 4; n++) {
    bytes[n] = (unsigned char)(a >> (8 * n));
    bytes[n + 4] = (unsigned char)(b >> (8 * n));
  }
  unsigned d = 0;
  for (int n = 0; n < 4; n++) {
    unsigned s = (c >> (4 * n)) & 0xf;
    unsigned v = bytes[s & 7];
    if (s & 8) v = (v & 0x80) ? 0xff : 0;
    d |= v << (8 * n);
  }
  return d;
}

static unsigned refLop3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned d = 0;
  for (int i = 0; i < 32; i++) {
    unsigned idx = bit(a, i) << 2 | bit(b, i) << 1 | bit(c, i);
    d |= ((lut >> idx) & 1u) << i;
  }
  return d;
}

static unsigned refPopc(unsigned a) {
  unsigned n = 0;
  for (int i = 0; i < 32; i++) n += bit(a, i);
  return n;
}

static unsigned refClz(unsigned a) {
  unsigned n = 0;
  for (int i = 31; i >= 0 && !bit(a, i); i--) n++;
  return n;
}

static float halfToFloat(unsigned short h) {
  unsigned sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v;
  if (e == 0)
    v = std::ldexp((float)m, -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = std::ldexp((float)(m | 0x400), (int)e - 25);
  return sign ? -v : v;
}

// Round to nearest even, by exact comparison with the neighbours.
static unsigned short floatToHalf(float f) {
  unsigned short sign = std::signbit(f) ? 0x8000 : 0;
  float a = std::fabs(f);
  if (a >= 65520.0f) return sign | 0x7c00;
  // The largest half not above a (halves of one sign grow with their bits).
  unsigned lo = 0, hi = 0x7bff;
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (halfToFloat((unsigned short)mid) <= a)
      lo = mid;
    else
      hi = mid - 1;
  }
  unsigned short best = (unsigned short)lo;
  if (best < 0x7bff) {
    double lo = halfToFloat(best), hi = halfToFloat(best + 1);
    double dl = a - lo, dh = hi - a;
    if (dh < dl || (dh == dl && (best & 1))) best++;
  }
  return sign | best;
}

static unsigned seed = 20261127u;
static unsigned next() {
  seed = seed * 1664525u + 1013904223u;
  return seed ^ (seed >> 15);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  int bad = 0;
  auto fail = [&](const char *what, int i, unsigned long long got, unsigned long long want) {
    if (bad < 12) std::printf("%s, thread %d: got %#llx, want %#llx\n", what, i, got, want);
    bad++;
  };

  // Bits.
  std::vector<unsigned> a(kN), b(kN), c(kN), d(kN);
  std::vector<unsigned long long> w(kN);
  for (int i = 0; i < kN; i++) {
    a[i] = next();
    // Positions and lengths from 0 to 69 (past 31 and 63), some with
    // bits above the eight PTX reads.
    b[i] = next() % 70 + (next() % 4 == 0 ? 0x300u : 0u);
    c[i] = next() % 70 + (next() % 4 == 0 ? 0x1100u : 0u);
    d[i] = next();
    w[i] = (unsigned long long)next() << 32 | next();
    if (i % 16 == 0) a[i] = 0, w[i] = 0;
    if (i % 16 == 1) a[i] = 0xffffffffu, w[i] = ~0ull;
    if (i % 16 == 2) a[i] = 0x80000000u, w[i] = 1ull << 63;
  }
  unsigned *da, *db, *dc, *dd, *o32;
  unsigned long long *dw, *o64;
  CHECK(cudaMalloc(&da, kN * 4));
  CHECK(cudaMalloc(&db, kN * 4));
  CHECK(cudaMalloc(&dc, kN * 4));
  CHECK(cudaMalloc(&dd, kN * 4));
  CHECK(cudaMalloc(&dw, kN * 8));
  CHECK(cudaMalloc(&o32, kN * k32 * 4));
  CHECK(cudaMalloc(&o64, kN * k64 * 8));
  CHECK(cudaMemcpy(da, a.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, d.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, w.data(), kN * 8, cudaMemcpyHostToDevice));
  bits<<<kBlocks, kBlock>>>(da, db, dc, dd, dw, o32, o64);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> r32(kN * k32);
  std::vector<unsigned long long> r64(kN * k64);
  CHECK(cudaMemcpy(r32.data(), o32, kN * k32 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r64.data(), o64, kN * k64 * 8, cudaMemcpyDeviceToHost));
  const char *names32[k32] = {"bfe.u32", "bfe.s32", "bfi.b32", "bfind.u32", "bfind.s32", "bfind.shiftamt.u32",
                              "bfind.u64", "prmt.b32", "lop3 0x96", "lop3 0xE8", "lop3 0xCA", "lop3 0x1B",
                              "popc.b32", "clz.b32", "mul.lo.u32", "mad.lo.s32", "mov.b32", "mov.u32 immediate",
                              "setp.lo.u32, selp.b32", "min.s32", "max.u32"};
  const char *names64[k64] = {"bfe.u64", "bfe.s64", "bfi.b64", "mul.wide.u32", "mul.wide.s32", "mad.wide.u32"};
  for (int i = 0; i < kN; i++) {
    unsigned x = a[i], pos = b[i], len = c[i], sel = d[i];
    unsigned long long q = w[i];
    unsigned want32[k32] = {
        (unsigned)refBfe(x, pos, len, 31, false),
        (unsigned)refBfe(x, pos, len, 31, true),
        (unsigned)refBfi(x, sel, pos, len, 31),
        refBfind(x >> (pos & 31), 31, false, false),
        refBfind((unsigned)((int)x >> (pos & 31)), 31, true, false),
        refBfind(x >> (pos & 31), 31, false, true),
        refBfind(q >> (pos & 63), 63, false, false),
        refPrmt(x, ~x * 2654435761u, sel),
        refLop3(x, sel, (unsigned)q, 0x96),
        refLop3(x, sel, (unsigned)q, 0xE8),
        refLop3(x, sel, (unsigned)q, 0xCA),
        refLop3(x, sel, (unsigned)q, 0x1B),
        refPopc(x >> (pos & 31)),
        refClz(x >> (pos & 31)),
        x * sel,
        x * sel + pos,
        x ^ sel,
        0x1234abcdu,
        x < sel ? x : sel,
        (unsigned)((int)x < (int)sel ? (int)x : (int)sel),
        x > sel ? x : sel,
    };
    unsigned long long want64[k64] = {
        refBfe(q, pos, len, 63, false),
        refBfe(q, pos, len, 63, true),
        refBfi(q, ~q * 3ull, pos, len, 63),
        (unsigned long long)x * sel,
        (unsigned long long)((long long)(int)x * (long long)(int)sel),
        (unsigned long long)x * sel + q,
    };
    for (int k = 0; k < k32; k++)
      if (r32[i * k32 + k] != want32[k]) fail(names32[k], i, r32[i * k32 + k], want32[k]);
    for (int k = 0; k < k64; k++)
      if (r64[i * k64 + k] != want64[k]) fail(names64[k], i, r64[i * k64 + k], want64[k]);
  }

  // Memory.
  std::vector<unsigned> src(kN * 4);
  std::vector<float> fsrc(kN * 2);
  std::vector<signed char> bytes(kN * 2);
  for (int i = 0; i < kN * 4; i++) src[i] = next();
  for (int i = 0; i < kN * 2; i++) fsrc[i] = (float)(int)(next() % 2001) - 1000.0f;
  for (int i = 0; i < kN * 2; i++) bytes[i] = (signed char)next();
  uint4 *dsrc, *ddst;
  float2 *dfsrc;
  float *dfdst;
  signed char *dbytes;
  int *dext;
  CHECK(cudaMalloc(&dsrc, kN * 16));
  CHECK(cudaMalloc(&ddst, kN * 16));
  CHECK(cudaMalloc(&dfsrc, kN * 8));
  CHECK(cudaMalloc(&dfdst, kN * 4));
  CHECK(cudaMalloc(&dbytes, kN * 2));
  CHECK(cudaMalloc(&dext, kN * 8));
  CHECK(cudaMemcpy(dsrc, src.data(), kN * 16, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfsrc, fsrc.data(), kN * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dbytes, bytes.data(), kN * 2, cudaMemcpyHostToDevice));
  memory<<<kBlocks, kBlock>>>(dsrc, ddst, dfsrc, dfdst, dbytes, dext);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> dst(kN * 4);
  std::vector<float> fdst(kN);
  std::vector<int> ext(kN * 2);
  CHECK(cudaMemcpy(dst.data(), ddst, kN * 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(fdst.data(), dfdst, kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ext.data(), dext, kN * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; i++) {
    for (int k = 0; k < 4; k++)
      if (dst[i * 4 + k] != src[i * 4 + 3 - k]) fail("ld.global.nc.v4 / st.global.cs.v4", i, dst[i * 4 + k], src[i * 4 + 3 - k]);
    float want = fsrc[2 * i] * 2.0f + fsrc[2 * i + 1];
    if (fdst[i] != want) fail("ld.global.v2.f32 / st.global.wb.f32", i, (unsigned long long)fdst[i], (unsigned long long)want);
    if (ext[2 * i] != bytes[2 * i + 1]) fail("ld.global.s8", i, (unsigned)ext[2 * i], (unsigned)bytes[2 * i + 1]);
    if (ext[2 * i + 1] != (unsigned char)bytes[2 * i + 1]) fail("ld.global.cs.u8", i, (unsigned)ext[2 * i + 1], (unsigned char)bytes[2 * i + 1]);
  }

  // Synchronization and atomics.
  unsigned *dcounter, *dcas, *dslots, *dout;
  int *dmax;
  float *dfsum;
  unsigned long long *dusum;
  std::vector<unsigned> slots(2 * kN);
  for (int i = 0; i < kN; i++) slots[i] = (unsigned)i * 3u;
  int minInt = -2147483647 - 1;
  CHECK(cudaMalloc(&dcounter, 4));
  CHECK(cudaMalloc(&dcas, 4));
  CHECK(cudaMalloc(&dslots, 2 * kN * 4));
  CHECK(cudaMalloc(&dout, 6 * kN * 4));
  CHECK(cudaMalloc(&dmax, 4));
  CHECK(cudaMalloc(&dfsum, 4));
  CHECK(cudaMalloc(&dusum, 8));
  CHECK(cudaMemset(dcounter, 0, 4));
  CHECK(cudaMemset(dcas, 0, 4));
  CHECK(cudaMemset(dfsum, 0, 4));
  CHECK(cudaMemset(dusum, 0, 8));
  CHECK(cudaMemcpy(dmax, &minInt, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dslots, slots.data(), 2 * kN * 4, cudaMemcpyHostToDevice));
  syncAtomics<<<kBlocks, kBlock>>>(dcounter, dmax, dfsum, dusum, dcas, dslots, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(6 * kN);
  unsigned counter = 0, cas = 0;
  int maxv = 0;
  float fsum = 0;
  unsigned long long usum = 0;
  CHECK(cudaMemcpy(out.data(), dout, 6 * kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(slots.data(), dslots, 2 * kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&counter, dcounter, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&cas, dcas, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&maxv, dmax, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&fsum, dfsum, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&usum, dusum, 8, cudaMemcpyDeviceToHost));
  std::vector<int> seen(kN, 0);
  int casZero = 0, wantMax = minInt;
  unsigned long long wantUsum = 0;
  for (int i = 0; i < kN; i++) {
    int t = i % kBlock, blockStart = i - t;
    const unsigned *o = &out[6 * i];
    unsigned mirrored = (unsigned)(blockStart + kBlock - 1 - t) * 7u;
    if (o[0] != mirrored) fail("bar.sync 0 / ld.volatile", i, o[0], mirrored);
    if (o[1] != mirrored + 1u) fail("st.relaxed / ld.relaxed", i, o[1], mirrored + 1u);
    if (o[2] >= (unsigned)kN || seen[o[2]]++) fail("atom.global.add.u32", i, o[2], kN);
    casZero += o[3] == 0;
    if (o[3] != 0 && o[3] != cas) fail("atom.global.cas.b32", i, o[3], cas);
    if (o[4] != (unsigned)i * 3u) fail("atom.global.exch.b32", i, o[4], (unsigned)i * 3u);
    if (slots[i] != ((unsigned)i ^ 0x55u)) fail("atom.global.exch.b32 value", i, slots[i], (unsigned)i ^ 0x55u);
    if (o[5] != 3u) fail("st.release / ld.acquire, clock64", i, o[5], 3u);
    int m = (int)((unsigned)i * 2654435761u);
    if (m > wantMax) wantMax = m;
    wantUsum += (unsigned long long)i << 20;
  }
  if (counter != (unsigned)kN) fail("atom.global.add.u32 total", -1, counter, kN);
  if (casZero != 1 || cas == 0 || cas > (unsigned)kN) fail("atom.global.cas.b32 winners", -1, casZero, 1);
  if (maxv != wantMax) fail("red.global.max.s32", -1, (unsigned)maxv, (unsigned)wantMax);
  if (fsum != 0.5f * kN) fail("red.global.add.f32", -1, (unsigned long long)fsum, kN / 2);
  if (usum != wantUsum) fail("red.global.add.u64", -1, usum, wantUsum);

  // Math and conversions.
  std::vector<float> in(kN), conv(kN);
  for (int i = 0; i < kN; i++) {
    in[i] = ((float)(next() % 20001) - 10000.0f) / 1000.0f;
    // Magnitudes from 2^-26 (below the smallest subnormal half) to 2^17
    // (past the largest half), and ties between two halves.
    float m = 1.0f + (float)(next() % 1024) / 1024.0f;
    conv[i] = std::ldexp(m, (int)(next() % 44) - 26) * (next() % 2 ? -1.0f : 1.0f);
    if (i % 8 == 0) {
      unsigned short h = (unsigned short)(next() % 0x7bff);
      conv[i] = (float)(((double)halfToFloat(h) + (double)halfToFloat(h + 1)) / 2);
    }
  }
  float *din, *dconv, *dex2, *dth, *dback;
  unsigned short *dh, *dhex2;
  unsigned *dpair;
  CHECK(cudaMalloc(&din, kN * 4));
  CHECK(cudaMalloc(&dconv, kN * 4));
  CHECK(cudaMalloc(&dex2, kN * 4));
  CHECK(cudaMalloc(&dth, kN * 4));
  CHECK(cudaMalloc(&dback, kN * 4));
  CHECK(cudaMalloc(&dh, kN * 2));
  CHECK(cudaMalloc(&dhex2, kN * 2));
  CHECK(cudaMalloc(&dpair, kN * 4));
  CHECK(cudaMemcpy(din, in.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dconv, conv.data(), kN * 4, cudaMemcpyHostToDevice));
  math<<<kBlocks, kBlock>>>(din, dconv, dex2, dth, dh, dback, dpair, dhex2);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ex2(kN), th(kN), back(kN);
  std::vector<unsigned short> h(kN), hex2(kN);
  std::vector<unsigned> pair(kN);
  CHECK(cudaMemcpy(ex2.data(), dex2, kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(th.data(), dth, kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(back.data(), dback, kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h.data(), dh, kN * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hex2.data(), dhex2, kN * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pair.data(), dpair, kN * 4, cudaMemcpyDeviceToHost));
  auto near = [](double got, double want, double rel) { return std::fabs(got - want) <= rel * std::fabs(want) + 1e-30; };
  for (int i = 0; i < kN; i++) {
    double x = in[i];
    if (!near(ex2[i], std::exp2(x), 1e-5)) fail("ex2.approx.ftz.f32 (x1e6)", i, (unsigned long long)(ex2[i] * 1e6), (unsigned long long)(std::exp2(x) * 1e6));
    if (std::fabs(th[i] - std::tanh(x)) > 2e-3) fail("tanh.approx.f32 (x1e6)", i, (unsigned long long)(std::fabs(th[i]) * 1e6), (unsigned long long)(std::fabs(std::tanh(x)) * 1e6));
    unsigned short wantH = floatToHalf(conv[i]);
    if (h[i] != wantH) fail("cvt.rn.f16.f32", i, h[i], wantH);
    if (back[i] != halfToFloat(wantH)) fail("cvt.f32.f16", i, (unsigned long long)back[i], (unsigned long long)halfToFloat(wantH));
    unsigned wantPair = (unsigned)floatToHalf(in[i]) << 16 | floatToHalf(-in[i] * 0.25f);
    if (pair[i] != wantPair) fail("cvt.rn.f16x2.f32", i, pair[i], wantPair);
    double e = std::exp2((double)halfToFloat(floatToHalf(in[i] * 0.5f)));
    if (!near(halfToFloat(hex2[i]), e, 2e-3)) fail("ex2.approx.f16 (x1e3)", i, (unsigned long long)(halfToFloat(hex2[i]) * 1e3), (unsigned long long)(e * 1e3));
  }

  // Registers, predicates, shared addresses, shuffles, asynchronous copies.
  {
    const int n = kN - 100;
    std::vector<int> rin(kN), guarded(kN, -1), rout(6 * kN);
    std::vector<int4> gsrc(kN), copied(kN);
    std::vector<float> fin(kN), fout(kN);
    for (int i = 0; i < kN; i++) rin[i] = (int)(next() % 1000);
    for (int i = 0; i < kN; i++) fin[i] = (float)(next() % 64) * 0.25f;
    for (int i = 0; i < kN; i++) gsrc[i] = make_int4((int)next(), (int)next(), (int)next(), (int)next());
    int *drin, *dguarded, *drout;
    int4 *dgsrc, *dcopied;
    float *dfin, *dfout, *drsum;
    float rsum = 0;
    CHECK(cudaMalloc(&dfin, kN * 4));
    CHECK(cudaMalloc(&dfout, kN * 4));
    CHECK(cudaMalloc(&drsum, 4));
    CHECK(cudaMemcpy(dfin, fin.data(), kN * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(drsum, 0, 4));
    CHECK(cudaMalloc(&drin, kN * 4));
    CHECK(cudaMalloc(&dguarded, kN * 4));
    CHECK(cudaMalloc(&drout, 6 * kN * 4));
    CHECK(cudaMalloc(&dgsrc, kN * 16));
    CHECK(cudaMalloc(&dcopied, kN * 16));
    CHECK(cudaMemcpy(drin, rin.data(), kN * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dguarded, guarded.data(), kN * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dgsrc, gsrc.data(), kN * 16, cudaMemcpyHostToDevice));
    registers<<<kBlocks, kBlock>>>(drin, n, dguarded, drout, dgsrc, dcopied, dfin, dfout, drsum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(guarded.data(), dguarded, kN * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rout.data(), drout, 6 * kN * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(copied.data(), dcopied, kN * 16, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fout.data(), dfout, kN * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&rsum, drsum, 4, cudaMemcpyDeviceToHost));
    if (rsum != 0.5f * kN) fail("red.global.add.f32 of bits", -1, (unsigned long long)rsum, kN / 2);
    auto value = [&](int i) { return i < n ? rin[i] : 0; };
    for (int i = 0; i < kN; i++) {
      int t = i % kBlock, base = i - t, lane = t & 31, warp = i - lane;
      int wantGuarded = i % 3 ? value(i) * 2 : -1;
      if (guarded[i] != wantGuarded) fail("guarded ld / st (setp, @p, @!p)", i, (unsigned)guarded[i], (unsigned)wantGuarded);
      const int *o = &rout[6 * i];
      int mirrored = value(base + kBlock - 1 - t) + 1;
      if (o[0] != mirrored) fail("cvta.to.shared, st.shared / ld.shared", i, (unsigned)o[0], (unsigned)mirrored);
      int sum = 0;
      for (int l = 0; l < 32; l++) {
        int w = warp + l, wt = w % kBlock;
        sum += value(w - wt + kBlock - 1 - wt) + 1;
      }
      if (o[1] != sum) fail("shfl.sync.bfly", i, (unsigned)o[1], (unsigned)sum);
      // Sums of quarters below 16: exact in any order.
      float wsum = 0;
      for (int l = 0; l < 32; l++) wsum += warp + l < n ? fin[warp + l] : 0.0f;
      if (fout[i] != wsum) fail("guarded ld.f32 with zero fill, float shfl.sync.bfly (x4)", i, (unsigned)(fout[i] * 4), (unsigned)(wsum * 4));
      int up = lane % 16 == 0 ? lane * 10 : (lane - 1) * 10;
      if (o[2] != up) fail("shfl.sync.up, 16 lanes", i, (unsigned)o[2], (unsigned)up);
      int down = lane % 16 + 3 < 16 ? (lane + 3) * 10 : lane * 10;
      if (o[3] != down) fail("shfl.sync.down, 16 lanes", i, (unsigned)o[3], (unsigned)down);
      int idx = ((lane + 35) & 31) * 10;
      if (o[4] != idx) fail("shfl.sync.idx", i, (unsigned)o[4], (unsigned)idx);
      int acc = i + rin[i % n];
      if (o[5] != acc) fail("ld into a register, add.s32", i, (unsigned)o[5], (unsigned)acc);
      unsigned char want[16], got[16];
      std::memcpy(want, &gsrc[i], 16);
      std::memset(want + t % 17, 0, 16 - t % 17);
      std::memcpy(got, &copied[i], 16);
      if (std::memcmp(got, want, 16) != 0) fail("cp.async with zero fill", i, got[0], want[0]);
    }
    CHECK(cudaFree(drin));
    CHECK(cudaFree(dguarded));
    CHECK(cudaFree(drout));
    CHECK(cudaFree(dgsrc));
    CHECK(cudaFree(dcopied));
    CHECK(cudaFree(dfin));
    CHECK(cudaFree(dfout));
    CHECK(cudaFree(drsum));
  }

  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(dw));
  CHECK(cudaFree(o32));
  CHECK(cudaFree(o64));
  CHECK(cudaFree(dsrc));
  CHECK(cudaFree(ddst));
  CHECK(cudaFree(dfsrc));
  CHECK(cudaFree(dfdst));
  CHECK(cudaFree(dbytes));
  CHECK(cudaFree(dext));
  CHECK(cudaFree(dcounter));
  CHECK(cudaFree(dcas));
  CHECK(cudaFree(dslots));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dmax));
  CHECK(cudaFree(dfsum));
  CHECK(cudaFree(dusum));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dconv));
  CHECK(cudaFree(dex2));
  CHECK(cudaFree(dth));
  CHECK(cudaFree(dback));
  CHECK(cudaFree(dh));
  CHECK(cudaFree(dhex2));
  CHECK(cudaFree(dpair));
  if (bad) {
    std::printf("FAIL: %d wrong results\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
