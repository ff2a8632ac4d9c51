// Device functions that ROCm's HIP-CPU lacks and that HIP code for AMD GPUs
// (ROCm 5.2) may call. The conformance test force-includes this header after
// <hip/hip_runtime.h> when it runs translated programs on HIP-CPU; it is
// part of the oracle, not of hipgen's output.
//
// HIP-CPU runs the threads of a block as fibers that switch only at
// barriers, so a wavefront's lanes are not in lockstep. The functions below
// assume what HIP-CPU's own collectives assume: every lane of the wavefront
// present in the block reaches them (converged control flow).
#pragma once

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdint>

// HIP's hip_fp16.h names the half-precision types half and half2 as well;
// HIP-CPU's only __half and __half2.
using half = __half;
using half2 = __half2;

namespace hipgen_conformance {
// linear_thread returns the calling thread's index within its block.
inline std::uint32_t linear_thread() noexcept
{
    return threadIdx.x + threadIdx.y * blockDim.x +
           threadIdx.z * blockDim.x * blockDim.y;
}
} // namespace hipgen_conformance

// __lane_id is the lane within the 64-wide wavefront.
inline unsigned int __lane_id() noexcept
{
    return hipgen_conformance::linear_thread() % warpSize;
}

// __activemask is every lane of the wavefront that exists in the block: the
// last wavefront of a block whose size is not a multiple of 64 is partial.
// Converged code is all the oracle can model, so the mask is exact there.
inline std::uint64_t __activemask() noexcept
{
    const std::uint32_t threads = blockDim.x * blockDim.y * blockDim.z;
    const std::uint32_t first = hipgen_conformance::linear_thread() / warpSize * warpSize;
    const std::uint32_t lanes = threads - first < warpSize ? threads - first : warpSize;
    return lanes >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lanes) - 1;
}

// min and max for integers, which HIP (amd_math_functions.h) and CUDA
// provide to device code and HIP-CPU does not, and for float and double,
// which clang's HIP headers define as fminf/fmaxf and fmin/fmax (without
// them, max(float, float) is ambiguous among the integer ones here).
#define HIPGEN_CONFORMANCE_MINMAX(T)                                       \
    inline T min(T a, T b) noexcept { return b < a ? b : a; }              \
    inline T max(T a, T b) noexcept { return a < b ? b : a; }
HIPGEN_CONFORMANCE_MINMAX(int)
HIPGEN_CONFORMANCE_MINMAX(unsigned int)
HIPGEN_CONFORMANCE_MINMAX(long long)
HIPGEN_CONFORMANCE_MINMAX(unsigned long long)
#undef HIPGEN_CONFORMANCE_MINMAX
inline float min(float a, float b) noexcept { return std::fmin(a, b); }
inline float max(float a, float b) noexcept { return std::fmax(a, b); }
inline double min(double a, double b) noexcept { return std::fmin(a, b); }
inline double max(double a, double b) noexcept { return std::fmax(a, b); }

// HIP-CPU overloads __ffsll and __clzll for std::int64_t and std::uint64_t,
// which are long on Linux, so a call with unsigned long long (the type of
// HIP's 64-bit ballots) is ambiguous there. HIP declares these overloads.
inline unsigned int __ffsll(unsigned long long x) noexcept { return __builtin_ffsll(static_cast<long long>(x)); }
inline unsigned int __ffsll(long long x) noexcept { return __builtin_ffsll(x); }
inline unsigned int __clzll(unsigned long long x) noexcept { return x ? __builtin_clzll(x) : 64; }
inline unsigned int __clzll(long long x) noexcept { return __clzll(static_cast<unsigned long long>(x)); }
