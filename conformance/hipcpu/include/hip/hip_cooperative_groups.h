// A minimal cooperative groups implementation for ROCm's HIP-CPU, which has
// none. It covers what the conformance programs use (this_thread_block,
// tiled_partition<N> and thread_block_tile<N> with shuffles and votes) and is
// written on top of HIP-CPU's wavefront primitives, whose sub-warp shuffles
// bench/hip-cpu/patch.sh corrects. It is part of the oracle, not of
// hipgen's output.
#pragma once

#include <hip/hip_runtime.h>

#include "../../compat.h" // __lane_id

#include <cstdint>

namespace cooperative_groups {

class thread_block {
public:
    void sync() const noexcept { __syncthreads(); }
    std::uint32_t thread_rank() const noexcept
    {
        return threadIdx.x + threadIdx.y * blockDim.x +
               threadIdx.z * blockDim.x * blockDim.y;
    }
    std::uint32_t size() const noexcept { return blockDim.x * blockDim.y * blockDim.z; }
    std::uint32_t num_threads() const noexcept { return size(); }
    dim3 group_index() const noexcept { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const noexcept { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const noexcept { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};

inline thread_block this_thread_block() noexcept { return thread_block{}; }

// thread_block_tile is a static partition of a block into groups of N
// consecutive threads; N divides the 64-wide wavefront.
template<unsigned int N>
class thread_block_tile {
    static_assert(N > 0 && N <= 64 && (N & (N - 1)) == 0,
                  "tile size must be a power of two no larger than the wavefront");

    static std::uint64_t lanes() noexcept
    {
        return N == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << N) - 1;
    }
    std::uint32_t block_rank() const noexcept { return this_thread_block().thread_rank(); }

public:
    void sync() const noexcept { __syncthreads(); }
    std::uint32_t thread_rank() const noexcept { return block_rank() % N; }
    std::uint32_t size() const noexcept { return N; }
    std::uint32_t num_threads() const noexcept { return N; }
    std::uint32_t meta_group_rank() const noexcept { return block_rank() / N; }
    std::uint32_t meta_group_size() const noexcept
    {
        return (this_thread_block().size() + N - 1) / N;
    }

    template<typename T> T shfl(T v, int src) const noexcept { return __shfl(v, src, N); }
    template<typename T> T shfl_down(T v, unsigned int d) const noexcept { return __shfl_down(v, d, N); }
    template<typename T> T shfl_up(T v, unsigned int d) const noexcept { return __shfl_up(v, d, N); }
    template<typename T> T shfl_xor(T v, int m) const noexcept { return __shfl_xor(v, m, N); }

    std::uint64_t ballot(int pred) const noexcept
    {
        const std::uint32_t shift = __lane_id() / N * N;
        return (__ballot(pred) >> shift) & lanes();
    }
    int any(int pred) const noexcept { return ballot(pred) != 0; }
    int all(int pred) const noexcept { return ballot(pred) == lanes(); }
};

template<unsigned int N, typename Parent>
thread_block_tile<N> tiled_partition(const Parent&) noexcept
{
    return thread_block_tile<N>{};
}

} // namespace cooperative_groups
