// cg_block_dims: a thread_block's group_dim(), dim_threads() and
// num_threads(), on a three-dimensional block, also through a const
// reference, checked against the launch configuration on the host. ROCm
// 5.2 has none of these members, and later ROCm only a group_dim() that a
// const group cannot call.
#include <cooperative_groups.h>
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

namespace cg = cooperative_groups;

constexpr int kOut = 7;  // results per thread

__device__ unsigned volume(const cg::thread_block &b) {
  dim3 d = b.group_dim();
  return d.x * d.y * d.z;
}

__global__ void dims(unsigned *out) {
  cg::thread_block block = cg::this_thread_block();
  dim3 g = block.group_dim();
  dim3 t = block.dim_threads();
  unsigned *o = out + (blockIdx.x + gridDim.x * blockIdx.y) * block.size() * kOut + block.thread_rank() * kOut;
  o[0] = g.x;
  o[1] = g.y;
  o[2] = g.z;
  o[3] = t.x * 100 + t.y * 10 + t.z;
  o[4] = block.num_threads();
  o[5] = volume(block);
  o[6] = block.num_threads() - block.thread_rank();  // unsigned arithmetic, as in CUDA
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  const dim3 block(8, 4, 3), grid(3, 2);
  const int threads = block.x * block.y * block.z, blocks = grid.x * grid.y, n = threads * blocks;
  unsigned *d_out;
  CHECK(cudaMalloc(&d_out, n * kOut * sizeof(unsigned)));
  CHECK(cudaMemset(d_out, 0xff, n * kOut * sizeof(unsigned)));
  dims<<<grid, block>>>(d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(n * kOut);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_out));

  static const char *what[kOut] = {"group_dim().x", "group_dim().y", "group_dim().z", "dim_threads()", "num_threads()", "group_dim() of a const block", "num_threads() - thread_rank()"};
  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    for (int r = 0; r < threads; r++) {
      const unsigned want[kOut] = {block.x, block.y, block.z, block.x * 100 + block.y * 10 + block.z,
                                   (unsigned)threads, (unsigned)threads, (unsigned)(threads - r)};
      for (int k = 0; k < kOut; k++) {
        unsigned got = out[(b * threads + r) * kOut + k];
        if (got != want[k] && bad++ < 8)
          std::printf("block %d thread %d: %s = %u, want %u\n", b, r, what[k], got, want[k]);
      }
    }
  }
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
