// warp_rows_2d: warp code in two-dimensional blocks, as GEMV and softmax
// kernels write it: blockDim (32, 4), each row of 32 threads one warp. CUDA
// and HIP number a block's threads x fastest, so a 64-wide wavefront holds
// two rows: lanes 0-31 are row y and lanes 32-63 row y + 1. Each row sums
// its values with a butterfly (every lane gets the sum), takes its lane 0's
// value by broadcast, counts the lanes above the row's mean with a ballot,
// and sums 16-lane segments (two matrix rows per warp, as a GEMV for short
// rows does). Kept as 32-lane logical warps on CDNA, each row stays apart;
// a shuffle or ballot over the whole wavefront would mix two rows.
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

constexpr int kRowsPerBlock = 4;
constexpr int kBlocks = 8;
constexpr int kRows = kRowsPerBlock * kBlocks;
constexpr int kCols = 32;

struct RowResult {
  int sum;      // the row's sum, as lane 31 sees it after the butterfly
  int first;    // lane 0's value, broadcast, as lane 17 sees it
  int above;    // lanes whose value is above the row's mean
  int half[2];  // the sums of lanes 0-15 and 16-31
};

__global__ void rows(const int *in, RowResult *out) {
  const int lane = threadIdx.x;  // 0-31: blockDim.x is 32
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  const int v = in[row * kCols + lane];

  int sum = v;
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffff, sum, o);
  const int first = __shfl_sync(0xffffffff, v, 0);
  const unsigned above = __ballot_sync(0xffffffff, v * kCols > sum);

  int seg = v;
  for (int o = 8; o > 0; o >>= 1) seg += __shfl_down_sync(0xffffffff, seg, o);

  if (lane == 31) out[row].sum = sum;
  if (lane == 17) out[row].first = first;
  if (lane == 0) out[row].above = __popc(above);
  if (lane % 16 == 0) out[row].half[lane / 16] = seg;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kRows * kCols);
  unsigned seed = 11;
  for (auto &x : in) {
    seed = seed * 1664525u + 1013904223u;
    x = (int)((seed >> 8) % 1000);
  }
  int *d_in;
  RowResult *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kRows * sizeof(RowResult)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
  rows<<<kBlocks, dim3(kCols, kRowsPerBlock)>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<RowResult> out(kRows);
  CHECK(cudaMemcpy(out.data(), d_out, kRows * sizeof(RowResult), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < kRows; r++) {
    const int *x = &in[r * kCols];
    RowResult want{0, x[0], 0, {0, 0}};
    for (int i = 0; i < kCols; i++) {
      want.sum += x[i];
      want.half[i / 16] += x[i];
    }
    for (int i = 0; i < kCols; i++) want.above += x[i] * kCols > want.sum;
    const RowResult &got = out[r];
    if ((got.sum != want.sum || got.first != want.first || got.above != want.above ||
         got.half[0] != want.half[0] || got.half[1] != want.half[1]) && bad++ < 5)
      std::printf("row %d: got sum %d first %d above %d halves %d %d, want %d %d %d %d %d\n", r,
                  got.sum, got.first, got.above, got.half[0], got.half[1],
                  want.sum, want.first, want.above, want.half[0], want.half[1]);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d rows wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
