#!/usr/bin/env bash
# Measures hipgen build's incremental behaviour and parallelism with the real
# compilers (hipcc, nvcc):
#   1. no-op rebuild of the largest example: compiler invocations and wall time
#      (with architecture detection, and with the archs set in the environment);
#   2. editing one .cu of a generated 20-file project: which steps rebuild;
#   3. -j 1 against -j 2 on the 20-file project, cold cache each time;
#   4. warm-cache rebuild after rm -rf build/: compiler invocations.
# Everything runs in a temporary directory with its own cache; figures go to
# stdout and bench/out/build.txt (or $BENCH_OUT). Usage: bench/build.sh [--backend rocm|cuda|all]
# (default: every backend whose compiler is installed). The -j comparison is
# only meaningful on an otherwise idle machine: say so when quoting it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
backend_flag=()
if [ "${1:-}" = "--backend" ]; then backend_flag=(--backend "$2"); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HIP_PLATFORM=amd
export HIPGEN_CACHE_DIR=$work/cache
report=${BENCH_OUT:-$repo/bench/out/build.txt}
mkdir -p "$(dirname "$report")"
: >"$report"
say() { echo "$*" | tee -a "$report"; }

# HIPGEN_BIN names a prebuilt hipgen (for machines without Go), with
# hipgen-jsonnet beside it or on PATH.
hipgen=${HIPGEN_BIN:-$work/hipgen}
[ -n "${HIPGEN_BIN:-}" ] || (cd "$repo" && go build -o "$work/" ./cmd/hipgen ./cmd/hipgen-jsonnet)

# summary FIELD: reads hipgen's --json summary (last line) on stdin.
summary() { tail -n 1 | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['$1'])"; }
# built_steps: the steps that ran a tool, from the --json event stream.
built_steps() {
  python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if e.get("event") == "done" and not e.get("cached"):
        print("   ", e["step"], e["platform"], e["file"])'
}
# wall MS...: runs the command 10 times, prints min and median milliseconds.
wall() {
  python3 - "$@" <<'PY'
import subprocess, sys, time
ts = []
for _ in range(10):
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ts.append((time.perf_counter() - t) * 1000)
ts.sort()
print(f"min {ts[0]:.0f} ms, median {ts[len(ts)//2]:.0f} ms")
PY
}

say "# hipgen build benchmarks, $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. No-op rebuild of the largest example (most sources).
largest=$(cd "$repo/examples" && for d in */; do echo "$(find "$d" -name '*.cu' -o -name '*.cuh' | wc -l) ${d%/}"; done | sort -rn | head -1 | cut -d' ' -f2)
cp -r "$repo/examples/$largest" "$work/$largest"
cd "$work/$largest"
"$hipgen" build "${backend_flag[@]}" --json >/dev/null
inv=$("$hipgen" build "${backend_flag[@]}" --json | summary invocations)
steps=$("$hipgen" build "${backend_flag[@]}" --json | summary steps)
say "1. no-op rebuild of examples/$largest ($steps steps): $inv compiler invocations"
say "   wall, archs detected on this host:  $(wall "$hipgen" build "${backend_flag[@]}")"
say "   wall, archs from HIPGEN_*_ARCHS:    $(HIPGEN_ROCM_ARCHS=gfx90a,gfx1030 HIPGEN_CUDA_ARCHS=sm_80,sm_90 wall "$hipgen" build "${backend_flag[@]}")"

# A 20-file project: one library of 19 kernels files plus a binary.
gen() {
  local dir=$1
  mkdir -p "$dir/csrc" "$dir/apps"
  cat >"$dir/hipgen.jsonnet" <<'EOF'
{
  name: 'twenty',
  cuda: { archs: ['sm_80', 'sm_90'] },
  rocm: { archs: ['gfx90a', 'gfx1030'] },
  targets: [
    { name: 'twenty', kind: 'library', srcs: ['csrc/*.cu'], hdrs: ['csrc/*.cuh'], includes: ['csrc'] },
    { name: 'app', kind: 'binary', srcs: ['apps/main.cu'], deps: ['twenty'] },
  ],
}
EOF
  printf '#pragma once\n#include <cuda_runtime.h>\n' >"$dir/csrc/twenty.cuh"
  for i in $(seq -w 1 19); do
    cat >"$dir/csrc/k$i.cu" <<EOF
#include "twenty.cuh"
template <int N>
__global__ void saxpy$i(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  #pragma unroll
  for (int k = 0; k < N; ++k) {
    if (i + k * 32 < n) y[i + k * 32] = a * x[i + k * 32] + y[i + k * 32] * $((10#$i));
  }
}
cudaError_t run$i(float a, const float* x, float* y, int n) {
  saxpy$i<1><<<(n + 255) / 256, 256>>>(a, x, y, n);
  saxpy$i<4><<<(n + 255) / 256, 256>>>(a, x, y, n);
  saxpy$i<8><<<(n + 255) / 256, 256>>>(a, x, y, n);
  return cudaGetLastError();
}
EOF
  done
  printf 'int main() { return 0; }\n' >"$dir/apps/main.cu"
}

# 2. Editing one .cu rebuilds that unit (one compiler run covers every arch
#    of a backend), the archive and the link; nothing else.
gen "$work/twenty"
cd "$work/twenty"
"$hipgen" build "${backend_flag[@]}" >"$work/first.log" 2>&1 || { cat "$work/first.log"; exit 1; }
sed -i 's/\* 7;/* 77;/' csrc/k07.cu
say "2. 20-file project, csrc/k07.cu edited; steps that ran a tool:"
"$hipgen" build "${backend_flag[@]}" --json | tee "$work/edit.jsonl" | built_steps | tee -a "$report"
say "   compiler invocations: $(summary invocations <"$work/edit.jsonl")"

# 4. Warm cache after rm -rf build/.
rm -rf build
say "4. rm -rf build/, cache kept: $("$hipgen" build "${backend_flag[@]}" --json | summary invocations) compiler invocations"

# 3. -j 1 against -j 2, cold cache and clean tree each time. Runs alternate
#    (BENCH_REPEAT pairs, default 3) and the fastest of each is compared, so
#    that load from other processes distorts the ratio less.
declare -A times=([1]="" [2]="")
for r in $(seq 1 "${BENCH_REPEAT:-3}"); do
  for j in 1 2; do
    rm -rf build "$HIPGEN_CACHE_DIR"
    t0=$(date +%s.%N)
    "$hipgen" build "${backend_flag[@]}" -j $j >/dev/null
    t1=$(date +%s.%N)
    times[$j]+="$(python3 -c "print(f'{$t1 - $t0:.1f}')") "
  done
done
best() { python3 -c "print(min(float(x) for x in '$1'.split()))"; }
b1=$(best "${times[1]}"); b2=$(best "${times[2]}")
say "3. 20-file project from cold cache, fastest of ${BENCH_REPEAT:-3}: -j 1 $b1 s, -j 2 $b2 s, speed-up $(python3 -c "print(f'{$b1 / $b2:.2f}')")x"
say "   all runs: -j 1: ${times[1]}s; -j 2: ${times[2]}s (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
