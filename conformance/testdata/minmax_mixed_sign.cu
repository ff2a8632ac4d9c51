// minmax_mixed_sign: CUDA's min and max of a signed and an unsigned
// integer of one size compare in the unsigned type (min(-1, 5u) is 5u),
// as llm.c's softmax indexes with min(C - 1, i + blockDim.x). Checked for
// int, long and long long against the host, with negative values.
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

constexpr int kN = 256;
constexpr int kOut = 6;

__global__ void mixed(const int *s, unsigned long long *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = s[t];
  unsigned int u = threadIdx.x * 3u;
  long la = a;
  unsigned long lu = u;
  long long lla = a;
  unsigned long long llu = u;
  out[t * kOut + 0] = min(a, u);
  out[t * kOut + 1] = max(u, a);
  out[t * kOut + 2] = min(la, lu);
  out[t * kOut + 3] = max(lu, la);
  out[t * kOut + 4] = min(llu, lla);
  out[t * kOut + 5] = max(lla, llu);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> s(kN);
  unsigned seed = 5;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    s[i] = (int)(seed >> 8) % 2000 - 1000;  // half of them negative
  }
  int *d_s;
  unsigned long long *d_out;
  CHECK(cudaMalloc(&d_s, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kN * kOut * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_s, s.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  mixed<<<kN / 64, 64>>>(d_s, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> out(kN * kOut);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int t = 0; t < kN; t++) {
    unsigned int u = (t % 64) * 3u, a = (unsigned int)s[t];
    unsigned long lu = u, la = (unsigned long)(long)s[t];
    unsigned long long llu = u, lla = (unsigned long long)(long long)s[t];
    unsigned long long want[kOut] = {a < u ? a : u, a > u ? a : u, la < lu ? la : lu,
                                     la > lu ? la : lu, lla < llu ? lla : llu, lla > llu ? lla : llu};
    for (int j = 0; j < kOut; j++) {
      if (out[t * kOut + j] != want[j] && bad++ < 5)
        std::printf("thread %d, result %d: got %llu, want %llu\n", t, j, out[t * kOut + j], want[j]);
    }
  }
  CHECK(cudaFree(d_s));
  CHECK(cudaFree(d_out));
  if (bad) {
    std::printf("FAIL: %d results wrong\n", bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
