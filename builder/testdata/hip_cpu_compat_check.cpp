// Checks hipgen's HIP-CPU compatibility header: __lane_id and __activemask
// for a block of 100 threads (one full 64-wide wavefront, one of 36 lanes).
#include <cstdio>
__global__ void k(unsigned long long* m, unsigned* l) { m[threadIdx.x] = __activemask(); l[threadIdx.x] = __lane_id(); }
int main() {
  unsigned long long* m; unsigned* l;
  hipMallocManaged(&m, 100*8); hipMallocManaged(&l, 100*4);
  hipLaunchKernelGGL(k, dim3(1), dim3(100), 0, 0, m, l); hipDeviceSynchronize();
  printf("%llx %llx %u %u\n", m[0], m[70], l[63], l[70]);
  return !(m[0] == ~0ull && m[70] == (1ull<<36)-1 && l[63] == 63 && l[70] == 6);
}
