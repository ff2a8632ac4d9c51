// Plain C++: built by the user's own rules, with or without vecadd.
#include <cstdio>
#ifdef WITH_VECADD
#include "vecadd.cuh"
#endif

int main() {
#ifdef WITH_VECADD
  std::printf("hello_gpu: %d GPU(s)\n", vecadd_device_count());
#else
  std::printf("hello\n");
#endif
  return 0;
}
