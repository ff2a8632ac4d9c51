package sources

// warpHelpers is inserted once into a translated file that uses 32-lane
// logical warps. A 64-wide wavefront (CDNA) runs two logical warps, lanes
// 0-31 and 32-63; on 32-wide RDNA the helpers reduce to the plain builtins.
// The helpers use only what ROCm 5.2 and later and HIP-CPU all provide
// (__ballot, __shfl with a width), never the *_sync forms: ROCm 6.2+ wants
// 64-bit masks there and ROCm 5.2 lacks them. The guard lets a source and
// the headers it includes carry the same block.
const warpHelpers = helperBegin + `
#ifndef HIPGEN_WARP_HELPERS_V1
#define HIPGEN_WARP_HELPERS_V1
static constexpr int hipgen_warp_size = 32; // lanes in a logical warp
__device__ static inline unsigned hipgen_lane64() {
#if defined(__HIP_CPU_RT__)
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % warpSize;
#else
  return __lane_id();
#endif
}
// The lane's 32-bit half of a wavefront-wide ballot.
__device__ static inline unsigned hipgen_half32(unsigned long long b) {
  return (unsigned)(b >> (hipgen_lane64() & 32u));
}
template <class P>
__device__ static inline unsigned hipgen_ballot32(unsigned mask, P pred) {
  return hipgen_half32(__ballot(pred ? 1 : 0)) & mask;
}
__device__ static inline unsigned hipgen_activemask32() { return hipgen_half32(__ballot(1)); }
template <class P>
__device__ static inline int hipgen_any32(unsigned mask, P pred) { return hipgen_ballot32(mask, pred) != 0u; }
template <class P>
__device__ static inline int hipgen_all32(unsigned mask, P pred) { return hipgen_ballot32(mask, !pred) == 0u; }
template <class P>
__device__ static inline int hipgen_uni32(unsigned mask, P pred) {
  unsigned b = hipgen_ballot32(mask, pred);
  return b == 0u || b == (mask & hipgen_activemask32());
}
template <class T>
__device__ static inline unsigned hipgen_match_any32(unsigned mask, T v) {
  unsigned r = 0u;
  for (int i = 0; i < 32; ++i) {
    T u = __shfl(v, i, 32);
    if (u == v) r |= 1u << i;
  }
  return r & mask & hipgen_activemask32();
}
template <class T>
__device__ static inline unsigned hipgen_match_all32(unsigned mask, T v, int* pred) {
  unsigned m = mask & hipgen_activemask32();
  int all = (hipgen_match_any32(mask, v) & m) == m;
  *pred = all;
  return all ? m : 0u;
}
template <class T, class Op>
__device__ static inline T hipgen_reduce32(unsigned mask, T v, Op op) {
  unsigned m = mask & hipgen_activemask32();
  T r = v;
  bool first = true;
  for (int i = 0; i < 32; ++i) {
    T u = __shfl(v, i, 32);
    if ((m >> i) & 1u) { r = first ? u : op(r, u); first = false; }
  }
  return r;
}
template <class T> __device__ static inline T hipgen_reduce_add32(unsigned m, T v) { return hipgen_reduce32(m, v, [](T a, T b) { return a + b; }); }
template <class T> __device__ static inline T hipgen_reduce_min32(unsigned m, T v) { return hipgen_reduce32(m, v, [](T a, T b) { return b < a ? b : a; }); }
template <class T> __device__ static inline T hipgen_reduce_max32(unsigned m, T v) { return hipgen_reduce32(m, v, [](T a, T b) { return a < b ? b : a; }); }
template <class T> __device__ static inline T hipgen_reduce_and32(unsigned m, T v) { return hipgen_reduce32(m, v, [](T a, T b) { return a & b; }); }
template <class T> __device__ static inline T hipgen_reduce_or32(unsigned m, T v) { return hipgen_reduce32(m, v, [](T a, T b) { return a | b; }); }
template <class T> __device__ static inline T hipgen_reduce_xor32(unsigned m, T v) { return hipgen_reduce32(m, v, [](T a, T b) { return a ^ b; }); }
// A wavefront executes in lockstep; __syncwarp only has to order memory.
__device__ static inline void hipgen_syncwarp(unsigned = 0xffffffffu) {
#if defined(__HIP_CPU_RT__)
  (void)__ballot(1);
#else
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#endif
}
#endif // HIPGEN_WARP_HELPERS_V1
` + helperEnd + "\n"
