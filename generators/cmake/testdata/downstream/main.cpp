// Calls the installed library: exits 0 with a GPU, 77 without one.
#include <cstdio>

#include "vecadd.cuh"

int main() {
  int n = vecadd_device_count();
  std::printf("use_vecadd: %d GPU(s)\n", n);
  return n > 0 ? 0 : 77;
}
