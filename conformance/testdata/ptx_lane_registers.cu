// ptx_lane_registers: stream compaction with warp-aggregated atomics, the
// lane and the lane masks read from PTX's special registers with inline
// asm (%laneid, %lanemask_lt/le/gt/ge into 32-bit outputs), as faiss,
// DeepSpeed and cuda-samples' quicksort do. Each kept element's slot is
// its warp's base (one atomicAdd by the warp's first kept lane, broadcast
// with a shuffle) plus the kept lanes below it (__popc of the ballot and
// %lanemask_lt). The masks must agree with the lane: le is lt with the
// lane's own bit, gt and ge their complements.
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

constexpr int kBlock = 256;
constexpr int kBlocks = 8;
constexpr int kN = kBlock * kBlocks;

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__global__ void compact(const int *in, int *out, int *pos, int *lanes, int *bad, int *counter) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[tid];
  bool keep = v % 3 == 0;
  unsigned lane = lane_id();
  unsigned lt = lanemask_lt(), le, gt, ge;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  lanes[tid] = (int)lane;
  bad[tid] = (le != (lt | (1u << lane))) + (gt != ~le) + (ge != ~lt);

  unsigned ballot = __ballot_sync(0xffffffff, keep);
  int leader = __ffs(ballot) - 1;
  int base = 0;
  if (keep && (ballot & lt) == 0) {
    base = atomicAdd(counter, __popc(ballot));
  }
  base = __shfl_sync(0xffffffff, base, leader < 0 ? 0 : leader);
  if (keep) {
    int slot = base + __popc(ballot & lt);
    out[slot] = v;
    pos[tid] = slot;
    // The kept lanes from this one up, by the other mask.
    if (__popc(ballot & ge) != __popc(ballot) - __popc(ballot & lt)) bad[tid]++;
  } else {
    pos[tid] = -1;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  std::vector<int> in(kN);
  unsigned seed = 2024;
  for (int i = 0; i < kN; i++) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (int)(seed >> 9);
  }
  // Warp 3 keeps nobody, warp 4 everybody, warp 11 only lane 31.
  for (int l = 0; l < 32; l++) {
    in[3 * 32 + l] = 1;
    in[4 * 32 + l] = 3 * (l + 1);
    in[11 * 32 + l] = l == 31 ? 6 : 2;
  }

  int *d_in, *d_out, *d_pos, *d_lanes, *d_bad, *d_counter;
  CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_pos, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_lanes, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_bad, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_counter, sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_counter, 0, sizeof(int)));
  compact<<<kBlocks, kBlock>>>(d_in, d_out, d_pos, d_lanes, d_bad, d_counter);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kN), pos(kN), lanes(kN), badv(kN);
  int counter = 0;
  CHECK(cudaMemcpy(out.data(), d_out, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pos.data(), d_pos, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(lanes.data(), d_lanes, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(badv.data(), d_bad, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost));

  int bad = 0, kept = 0;
  std::vector<int> used(kN, 0);
  for (int w = 0; w < kN / 32; w++) {
    int prev = -1;
    for (int l = 0; l < 32; l++) {
      int i = w * 32 + l;
      bool keep = in[i] % 3 == 0;
      bool ok = lanes[i] == l && badv[i] == 0;
      if (keep) {
        kept++;
        int p = pos[i];
        // Slots of a warp are consecutive, in lane order.
        ok = ok && p >= 0 && p < kN && !used[p]++ && out[p] == in[i] && (prev < 0 || p == prev + 1);
        prev = p;
      } else {
        ok = ok && pos[i] == -1;
      }
      if (!ok) {
        if (bad < 5)
          std::printf("thread %d: lane %d (want %d), mask errors %d, slot %d\n", i, lanes[i], l, badv[i], pos[i]);
        bad++;
      }
    }
  }
  if (counter != kept) {
    std::printf("counter %d, want %d\n", counter, kept);
    bad++;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_pos));
  CHECK(cudaFree(d_lanes));
  CHECK(cudaFree(d_bad));
  CHECK(cudaFree(d_counter));
  if (bad) {
    std::printf("FAIL: %d of %d threads wrong\n", bad, kN);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
