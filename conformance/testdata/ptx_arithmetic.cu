// ptx_arithmetic: the inline PTX of hashing and big-number kernels
// (cryptocurrency miners such as ccminer, multi-word arithmetic), checked
// against the PTX ISA's definitions written out on the host: carry chains
// (add.cc, addc, sub.cc, subc, mad.lo.cc, madc.hi) over 32- and 64-bit
// words, a 64x64-bit product built from 32-bit halves, the carry and the
// borrow read back with addc and subc of zeros, and the flag a subtraction
// leaves read by an addition (the carry of a + ~b + 1, not the borrow); shifts by amounts past the
// register's width (shl, shr of .b, .u and .s types) and funnel shifts
// (shf.l and shf.r, wrap and clamp, a rotate among them) and the video
// shifts vshl and vshr of words; mov taking a
// value apart into two or four parts and putting one together; mad.hi;
// templates with comments, inputs the template writes and an output read
// after an instruction wrote it; registers the translation keeps as
// variables (a carry into one, one read after the operand its value read
// was written, one written under a predicate).
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

constexpr int kBlock = 128;
constexpr int kBlocks = 8;
constexpr int kN = kBlock * kBlocks;
constexpr int k32 = 31; // 32-bit results per thread
constexpr int k64 = 20; // 64-bit results

__device__ __forceinline__ unsigned rotl32(unsigned x, unsigned n) {
  unsigned r;
  asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
  return r;
}

// ccminer's swab32 through an input the template writes.
__device__ __forceinline__ unsigned swab32(unsigned x) {
  unsigned r;
  asm("prmt.b32 %1, %1, 0, 0x0123; // swap the bytes\n\t"
      "mov.b32 %0, %1;"
      : "=r"(r) : "r"(x));
  return r;
}

__device__ __forceinline__ unsigned long long swab64(unsigned long long x) {
  unsigned long long r;
  asm("{ .reg .b32 lo, hi; /* halves */\n\t"
      "mov.b64 {lo,hi}, %1;\n\t"
      "prmt.b32 lo, lo, 0, 0x0123;\n\t"
      "prmt.b32 hi, hi, 0, 0x0123;\n\t"
      "mov.b64 %0, {hi,lo};\n\t"
      "}"
      : "=l"(r) : "l"(x));
  return r;
}

// Registers the translation keeps as variables: jh512's swap (the input
// %1 holds %0's old bits after %0 is written), a carry into a register, a
// register written under a predicate, ethminer's products of halves
// added to 64-bit words.
__device__ __forceinline__ void jhSwap(unsigned *x, unsigned y) {
  asm("and.b32 %1, %0, 0xF0F0F0F0;\n\t"
      "xor.b32 %0, %0, %1; shr.b32 %1, %1, 4;\n\t"
      "vshl.u32.u32.u32.clamp.add %0, %0, 4, %1;"
      : "+r"(*x) : "r"(y));
}

__device__ __forceinline__ unsigned carryToRegister(unsigned a, unsigned b) {
  unsigned r;
  asm("{ .reg .u32 t;\n\t"
      "add.cc.u32 t, %1, %2;\n\t"
      "addc.u32 %0, t, 0;\n\t"
      "}" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ unsigned guardedRegister(unsigned s) {
  unsigned r;
  asm("{.reg .pred p;\n .reg .b32 t;\n setp.ne.b32 p, %1, 0;\n mov.b32 t, 1;\n @p mov.b32 t, %1;\n mov.b32 %0, t;}\n"
      : "=r"(r) : "r"(s));
  return r;
}

__device__ __forceinline__ ulonglong2 madd4long(ulonglong2 a, ulonglong2 b) {
  ulonglong2 result;
  asm("{\n\t"
      ".reg .u32 a0,a1,a2,a3,b0,b1,b2,b3;\n\t"
      "mov.b64 {a0,a1}, %2;\n\t"
      "mov.b64 {a2,a3}, %3;\n\t"
      "mov.b64 {b0,b1}, %4;\n\t"
      "mov.b64 {b2,b3}, %5;\n\t"
      "mad.lo.cc.u32        b0,a0,a1,b0;  \n\t"
      "madc.hi.u32          b1,a0,a1,b1;  \n\t"
      "mad.lo.cc.u32        b2,a2,a3,b2;  \n\t"
      "madc.hi.u32          b3,a2,a3,b3;  \n\t"
      "mov.b64 %0, {b0,b1};\n\t"
      "mov.b64 %1, {b2,b3};\n\t"
      "}\n\t"
      : "=l"(result.x), "=l"(result.y)
      : "l"(a.x), "l"(a.y), "l"(b.x), "l"(b.y));
  return result;
}

__global__ void arith(const unsigned *vx, const unsigned *vy, const unsigned *vn, const unsigned long long *vp,
                      const unsigned long long *vq, unsigned *o32, unsigned long long *o64) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = vx[i], y = vy[i], n = vn[i];
  unsigned long long p = vp[i], q = vq[i];
  unsigned *r = o32 + i * k32;
  unsigned long long *w = o64 + i * k64;

  // Shifts past the width.
  asm("shl.b32 %0, %1, %2;" : "=r"(r[0]) : "r"(x), "r"(n));
  asm("shr.u32 %0, %1, %2;" : "=r"(r[1]) : "r"(x), "r"(n));
  asm("shr.s32 %0, %1, %2;" : "=r"(r[2]) : "r"(x), "r"(n));
  asm("shr.b32 %0, %1, %2;" : "=r"(r[3]) : "r"(x), "r"(n));
  asm("shl.b64 %0, %1, %2;" : "=l"(w[0]) : "l"(p), "r"(n));
  asm("shr.u64 %0, %1, %2;" : "=l"(w[1]) : "l"(p), "r"(n));
  asm("shr.s64 %0, %1, %2;" : "=l"(w[2]) : "l"(p), "r"(n));
  asm("shl.b32 %0, %1, 7;" : "=r"(r[4]) : "r"(x));

  // Funnel shifts.
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r[5]) : "r"(x), "r"(y), "r"(n));
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r[6]) : "r"(x), "r"(y), "r"(n));
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r[7]) : "r"(x), "r"(y), "r"(n));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r[8]) : "r"(x), "r"(y), "r"(n));
  r[9] = rotl32(x, n);

  // Video shifts of words.
  asm("vshl.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r[26]) : "r"(x), "r"(n), "r"(y));
  asm("vshr.u32.u32.u32.wrap %0, %1, %2;" : "=r"(r[27]) : "r"(x), "r"(n));

  // mad.hi.
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r[10]) : "r"(x), "r"(y), "r"(n));
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r[11]) : "r"(x), "r"(y), "r"(n));

  // Parts.
  asm("mov.b64 {%0,%1}, %2;" : "=r"(r[12]), "=r"(r[13]) : "l"(p));
  unsigned short h0, h1;
  asm("mov.b32 {%0, %1}, %2;" : "=h"(h0), "=h"(h1) : "r"(x));
  r[14] = (unsigned)h1 << 16 | h0;
  asm("mov.b32 %0, {%1, %2};" : "=r"(r[15]) : "h"((unsigned short)y), "h"((unsigned short)(y >> 16)));
  asm("mov.b64 %0, {%1, %2};" : "=l"(w[3]) : "r"(y), "r"(x));
  unsigned short s0, s1, s2, s3;
  asm("mov.b64 {%0, %1, %2, %3}, %4;" : "=h"(s0), "=h"(s1), "=h"(s2), "=h"(s3) : "l"(q));
  w[4] = (unsigned long long)s3 | (unsigned long long)s2 << 16 | (unsigned long long)s1 << 32 | (unsigned long long)s0 << 48;

  // Templates: comments, inputs written (nvcc lets the write reach the
  // C++ variable, so real code writes only inputs it no longer needs, as
  // these are), an output read after a write.
  r[16] = swab32(x * 0x9e3779b9u);
  asm("add.u32 %1, %1, 1;\n\t"
      "mul.lo.u32 %0, %1, %1;"
      : "=r"(r[17]) : "r"(y ^ 0x5bd1e995u));
  w[5] = swab64(p);
  asm("add.u32 %0, %1, %2; // a comment after the instruction\n\t"
      "/* and one before */ xor.b32 %0, %0, %1;"
      : "=r"(r[18]) : "r"(x), "r"(y));
  asm("mul.lo.u32 %0, %1, %2;\n\t"
      "add.u32 %0, %0, %1;"
      : "=r"(r[19]) : "r"(x), "r"(y));

  // The carry and the borrow, read back.
  asm("add.cc.u32 %0, %2, %3;\n\t"
      "addc.u32 %1, 0, 0;"
      : "=r"(r[20]), "=r"(r[21]) : "r"(x), "r"(y));
  asm("sub.cc.u32 %0, %2, %3;\n\t"
      "subc.u32 %1, 0, 0;"
      : "=r"(r[22]), "=r"(r[23]) : "r"(x), "r"(y));
  asm("sub.cc.u32 %0, %2, %3;\n\t"
      "subc.cc.u32 %1, %3, %2;\n\t"
      "addc.u32 %1, %1, 0;"
      : "=r"(r[24]), "=r"(r[25]) : "r"(x), "r"(n));

  // 128-bit sums and differences, in four 32-bit words and in two 64-bit.
  unsigned a0 = (unsigned)p, a1 = (unsigned)(p >> 32), a2 = x, a3 = y;
  unsigned b0 = (unsigned)q, b1 = (unsigned)(q >> 32), b2 = y, b3 = n;
  unsigned s[4], d[4];
  asm("add.cc.u32 %0, %4, %8;\n\t"
      "addc.cc.u32 %1, %5, %9;\n\t"
      "addc.cc.u32 %2, %6, %10;\n\t"
      "addc.u32 %3, %7, %11;"
      : "=r"(s[0]), "=r"(s[1]), "=r"(s[2]), "=r"(s[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
  asm("sub.cc.u32 %0, %4, %8;\n\t"
      "subc.cc.u32 %1, %5, %9;\n\t"
      "subc.cc.u32 %2, %6, %10;\n\t"
      "subc.u32 %3, %7, %11;"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
  w[6] = (unsigned long long)s[1] << 32 | s[0];
  w[7] = (unsigned long long)s[3] << 32 | s[2];
  w[8] = (unsigned long long)d[1] << 32 | d[0];
  w[9] = (unsigned long long)d[3] << 32 | d[2];
  unsigned long long hi = (unsigned long long)y << 32 | x;
  asm("add.cc.u64 %0, %2, %3;\n\t"
      "addc.u64 %1, %4, %4;"
      : "=l"(w[10]), "=l"(w[11]) : "l"(p), "l"(q), "l"(hi));
  asm("sub.cc.u64 %0, %2, %3;\n\t"
      "subc.u64 %1, %4, 0;"
      : "=l"(w[12]), "=l"(w[13]) : "l"(p), "l"(q), "l"(hi));

  // The 128-bit product of two 64-bit values from 32-bit halves.
  unsigned m[4];
  asm("mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
      "madc.hi.u32 %2, %4, %7, 0;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
      "addc.u32 %3, 0, 0;\n\t"
      "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
      "madc.hi.u32 %3, %5, %7, %3;"
      : "=r"(m[0]), "=r"(m[1]), "=r"(m[2]), "=r"(m[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
  w[14] = (unsigned long long)m[1] << 32 | m[0];
  w[15] = (unsigned long long)m[3] << 32 | m[2];
  // Registers as variables.
  unsigned swapped = x;
  jhSwap(&swapped, 0);
  r[28] = swapped;
  r[29] = carryToRegister(x, y);
  r[30] = guardedRegister(n & 1 ? x : 0);
  ulonglong2 m4 = madd4long(make_ulonglong2(p, q), make_ulonglong2(q, p));
  w[18] = m4.x;
  w[19] = m4.y;

  // p * q + hi in 128 bits with 64-bit words.
  asm("mad.lo.cc.u64 %0, %2, %3, %4;\n\t"
      "madc.hi.u64 %1, %2, %3, 0;"
      : "=l"(w[16]), "=l"(w[17]) : "l"(p), "l"(q), "l"(hi));
}

// The PTX ISA's definitions.
static unsigned refShl32(unsigned a, unsigned n) { return n >= 32 ? 0u : a << n; }
static unsigned refShr32(unsigned a, unsigned n, bool s) {
  if (n >= 32) return s && (a >> 31) ? ~0u : 0u;
  return s ? (unsigned)((int)a >> n) : a >> n;
}
static unsigned long long refShl64(unsigned long long a, unsigned n) { return n >= 64 ? 0ull : a << n; }
static unsigned long long refShr64(unsigned long long a, unsigned n, bool s) {
  if (n >= 64) return s && (a >> 63) ? ~0ull : 0ull;
  return s ? (unsigned long long)((long long)a >> n) : a >> n;
}
static unsigned refShf(unsigned a, unsigned b, unsigned c, bool left, bool clamp) {
  unsigned n = clamp ? (c < 32 ? c : 32) : c & 31;
  unsigned long long v = (unsigned long long)b << 32 | a;
  return left ? (unsigned)((v << n) >> 32) : (unsigned)(v >> n);
}
static unsigned refSwab32(unsigned x) {
  return x >> 24 | (x >> 8 & 0xff00u) | (x << 8 & 0xff0000u) | x << 24;
}

static unsigned seed = 20261128u;
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
  std::vector<unsigned> x(kN), y(kN), n(kN);
  std::vector<unsigned long long> p(kN), q(kN);
  for (int i = 0; i < kN; i++) {
    x[i] = next();
    y[i] = next();
    n[i] = next() % 70; // shift amounts past 31 and 63
    p[i] = (unsigned long long)next() << 32 | next();
    q[i] = (unsigned long long)next() << 32 | next();
    // Carries and borrows at every word: all ones, equal words, zeros.
    if (i % 8 == 0) x[i] = ~0u, p[i] = ~0ull, q[i] = 1;
    if (i % 8 == 1) y[i] = x[i], q[i] = p[i];
    if (i % 8 == 2) x[i] = 0, p[i] = 0;
    if (i % 8 == 3) x[i] = 0x80000000u, p[i] = 1ull << 63, n[i] = 31 + i % 3;
  }
  unsigned *dx, *dy, *dn, *o32;
  unsigned long long *dp, *dq, *o64;
  CHECK(cudaMalloc(&dx, kN * 4));
  CHECK(cudaMalloc(&dy, kN * 4));
  CHECK(cudaMalloc(&dn, kN * 4));
  CHECK(cudaMalloc(&dp, kN * 8));
  CHECK(cudaMalloc(&dq, kN * 8));
  CHECK(cudaMalloc(&o32, kN * k32 * 4));
  CHECK(cudaMalloc(&o64, kN * k64 * 8));
  CHECK(cudaMemcpy(dx, x.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dn, n.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, p.data(), kN * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dq, q.data(), kN * 8, cudaMemcpyHostToDevice));
  arith<<<kBlocks, kBlock>>>(dx, dy, dn, dp, dq, o32, o64);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> r32(kN * k32);
  std::vector<unsigned long long> r64(kN * k64);
  CHECK(cudaMemcpy(r32.data(), o32, kN * k32 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r64.data(), o64, kN * k64 * 8, cudaMemcpyDeviceToHost));

  const char *names32[k32] = {"shl.b32", "shr.u32", "shr.s32", "shr.b32", "shl.b32 immediate",
                              "shf.l.wrap", "shf.l.clamp", "shf.r.wrap", "shf.r.clamp", "shf rotate",
                              "mad.hi.u32", "mad.hi.s32", "mov.b64 part 0", "mov.b64 part 1", "mov.b32 into halves",
                              "mov.b32 of halves", "input written", "input written twice", "comments", "output read",
                              "add.cc sum", "carry read", "sub.cc difference", "borrow read",
                              "sub.cc chain low", "sub.cc chain high", "vshl.clamp.add", "vshr.wrap",
                              "jh512 swap", "carry into a register", "register under a predicate"};
  const char *names64[k64] = {"shl.b64", "shr.u64", "shr.s64", "mov.b64 of halves", "mov.b64 into quarters",
                              "swab64", "add 128 low", "add 128 high", "sub 128 low", "sub 128 high",
                              "add.cc.u64 low", "addc.u64 high", "sub.cc.u64 low", "subc.u64 high",
                              "product low", "product high", "mad.lo.cc.u64", "madc.hi.u64",
                              "madd4long x", "madd4long y"};
  int bad = 0;
  auto fail = [&](const char *what, int i, unsigned long long got, unsigned long long want) {
    if (bad < 12) std::printf("%s, thread %d: got %#llx, want %#llx\n", what, i, got, want);
    bad++;
  };
  for (int i = 0; i < kN; i++) {
    unsigned X = x[i], Y = y[i], N = n[i];
    unsigned long long P = p[i], Q = q[i], H = (unsigned long long)Y << 32 | X;
    unsigned a0 = (unsigned)P, a1 = (unsigned)(P >> 32), a2 = X, a3 = Y;
    unsigned b0 = (unsigned)Q, b1 = (unsigned)(Q >> 32), b2 = Y, b3 = N;
    unsigned __int128 A = (unsigned __int128)a3 << 96 | (unsigned __int128)a2 << 64 | (unsigned __int128)a1 << 32 | a0;
    unsigned __int128 B = (unsigned __int128)b3 << 96 | (unsigned __int128)b2 << 64 | (unsigned __int128)b1 << 32 | b0;
    unsigned __int128 sum = A + B, diff = A - B;
    unsigned __int128 sum64 = ((unsigned __int128)H << 64 | P) + ((unsigned __int128)H << 64 | Q);
    unsigned __int128 diff64 = ((unsigned __int128)H << 64 | P) - Q;
    unsigned __int128 prod = (unsigned __int128)P * Q;
    unsigned __int128 fma = prod + H;
    // sub.cc chain: X - N, then N - X - borrow, then addc of zero, which
    // adds the flag subc.cc left: the carry out of N + ~X + (1 - borrow),
    // which is 1 when nothing was borrowed (the flag is one carry flag,
    // and a subtraction adds the complement).
    unsigned lowDiff = X - N, borrow1 = X < N;
    unsigned long long second = (unsigned long long)N - X - borrow1;
    unsigned borrow2 = (unsigned long long)N < (unsigned long long)X + borrow1;
    unsigned carry2 = 1 - borrow2;
    unsigned want32[k32] = {
        refShl32(X, N), refShr32(X, N, false), refShr32(X, N, true), refShr32(X, N, false), X << 7,
        refShf(X, Y, N, true, false), refShf(X, Y, N, true, true), refShf(X, Y, N, false, false),
        refShf(X, Y, N, false, true), refShf(X, X, N, true, false),
        (unsigned)(((unsigned long long)X * Y) >> 32) + N,
        (unsigned)((unsigned long long)((long long)(int)X * (int)Y) >> 32) + N,
        (unsigned)P, (unsigned)(P >> 32), X, (Y & 0xffffu) | (Y >> 16) << 16,
        refSwab32(X * 0x9e3779b9u), ((Y ^ 0x5bd1e995u) + 1) * ((Y ^ 0x5bd1e995u) + 1), (X + Y) ^ X, X * Y + X,
        X + Y, (unsigned)(((unsigned long long)X + Y) >> 32), X - Y, X < Y ? ~0u : 0u,
        lowDiff, (unsigned)second + carry2, (N >= 32 ? 0u : X << N) + Y, X >> (N & 31),
        ((X ^ (X & 0xF0F0F0F0u)) << 4) + ((X & 0xF0F0F0F0u) >> 4), X + Y + (X + Y < X), N & 1 && X ? X : 1u,
    };
    unsigned long long want64[k64] = {
        refShl64(P, N), refShr64(P, N, false), refShr64(P, N, true), (unsigned long long)X << 32 | Y,
        (Q & 0xffffull) << 48 | (Q >> 16 & 0xffffull) << 32 | (Q >> 32 & 0xffffull) << 16 | Q >> 48,
        (unsigned long long)refSwab32((unsigned)P) << 32 | refSwab32((unsigned)(P >> 32)),
        (unsigned long long)sum, (unsigned long long)(sum >> 64), (unsigned long long)diff,
        (unsigned long long)(diff >> 64), (unsigned long long)sum64, (unsigned long long)(sum64 >> 64),
        (unsigned long long)diff64, (unsigned long long)(diff64 >> 64), (unsigned long long)prod,
        (unsigned long long)(prod >> 64), (unsigned long long)fma, (unsigned long long)(fma >> 64),
        (unsigned long long)(unsigned)P * (unsigned)(P >> 32) + Q, (unsigned long long)(unsigned)Q * (unsigned)(Q >> 32) + P,
    };
    for (int k = 0; k < k32; k++)
      if (r32[i * k32 + k] != want32[k]) fail(names32[k], i, r32[i * k32 + k], want32[k]);
    for (int k = 0; k < k64; k++)
      if (r64[i * k64 + k] != want64[k]) fail(names64[k], i, r64[i * k64 + k], want64[k]);
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dn));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(dq));
  CHECK(cudaFree(o32));
  CHECK(cudaFree(o64));
  if (bad) {
    std::printf("FAIL: %d wrong results\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
