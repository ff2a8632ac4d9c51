// warp_scan: inclusive and exclusive prefix sums inside each 32-lane warp with
// __shfl_up_sync, and the warp total broadcast from lane 31 with __shfl_sync.
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

constexpr int kBlock = 192;
constexpr int kBlocks = 10;
constexpr int kN = kBlock * kBlocks;

__global__ void warp_scan(const int *in, int *incl, int *excl, int *total) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[tid];
  for (int d = 1; d < 32; d <<= 1) {
    int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += n;
  }
  incl[tid] = v;
  int e = __shfl_up_sync(0xffffffff, v, 1);
  excl[tid] = lane == 0 ? 0 : e;
  total[tid] = __shfl_sync(0xffffffff, v, 31);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 3;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)((seed >> 8) % 21) - 10;
  }
  int *d_in, *d_incl, *d_excl, *d_total;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_incl, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_excl, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_total, kN * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  warp_scan<<<kBlocks, kBlock>>>(d_in, d_incl, d_excl, d_total);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> incl(kN), excl(kN), total(kN);
  CHECK(cudaMemcpy(incl.data(), d_incl, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(excl.data(), d_excl, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(total.data(), d_total, kN * sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < kN / 32; w++) {
    int run = 0, sum = 0;
    for (int i = 0; i < 32; i++) sum += in[w * 32 + i];
    for (int i = 0; i < 32; i++) {
      int t = w * 32 + i;
      int want_excl = run;
      run += in[t];
      if (incl[t] != run || excl[t] != want_excl || total[t] != sum) {
        if (bad++ < 5)
          std::printf("thread %d: got %d/%d/%d, want %d/%d/%d\n", t, incl[t], excl[t],
                      total[t], run, want_excl, sum);
      }
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_incl));
  CHECK(cudaFree(d_excl));
  CHECK(cudaFree(d_total));
  if (bad) {
    std::printf("FAIL: %d threads wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
