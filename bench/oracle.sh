#!/usr/bin/env bash
# Runs the conformance programs (conformance/testdata/*.cu) through hipgen
# and through ROCm's hipify-perl, compiles each translation with hipcc
# (gfx90a, gfx940, gfx1030) and runs it on ROCm's HIP-CPU (64-wide
# wavefronts), and prints how many pass with each translator.
#
# Both translators are judged by the same Go test (conformance.TestPrograms):
# same compilers, same flags, same shadowed CUDA headers, same PASS check.
#
# Usage: HIP_CPU_ROOT=/path/to/hip-cpu bench/oracle.sh /path/to/HIPIFY
#   HIP_CPU_ROOT  a copy of ROCm/HIP-CPU patched with bench/hip-cpu/patch.sh
#   HIPIFY        a checkout of ROCm/HIPIFY (bin/hipify-perl is used)
# Logs go to bench/out/oracle/.
set -euo pipefail
cd "$(dirname "$0")/.."

hipify_root=${1:?usage: HIP_CPU_ROOT=DIR bench/oracle.sh HIPIFY_DIR}
hipify=$(cd "$hipify_root" && pwd)/bin/hipify-perl
[ -f "$hipify" ] || { echo "oracle.sh: $hipify not found" >&2; exit 2; }
: "${HIP_CPU_ROOT:?set HIP_CPU_ROOT to a patched HIP-CPU copy (bench/hip-cpu/patch.sh)}"
export HIP_CPU_ROOT HIP_PLATFORM=amd
command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH

out=bench/out/oracle
mkdir -p "$out"
pattern='TestPrograms/.*/(hipcc|hip-cpu)$'
echo "oracle.sh: hipgen ..." >&2
go test -count=1 -v -timeout 30m -run "$pattern" ./conformance >"$out/hipgen.log" 2>&1 || true
echo "oracle.sh: hipify-perl ..." >&2
HIPGEN_CONFORMANCE_HIPIFY_PERL=$hipify \
  go test -count=1 -v -timeout 30m -run "$pattern" ./conformance >"$out/hipify-perl.log" 2>&1 || true

# result LOG PROGRAM STAGE prints PASS, FAIL or SKIP for one subtest.
result() {
  local r
  r=$(grep -E -- "--- (PASS|FAIL|SKIP): TestPrograms/$2/$3 " "$1" | awk '{print $2}' | tr -d :)
  echo "${r:-none}"
}

progs=$(cd conformance/testdata && ls *.cu | sed 's/\.cu$//')
printf '%-22s %-14s %-14s %-14s %-14s\n' program "hipgen hipcc" "hipgen HIP-CPU" "hipify hipcc" "hipify HIP-CPU"
declare -A pass
total=0
for p in $progs; do
  total=$((total + 1))
  row=()
  for log in hipgen hipify-perl; do
    for stage in hipcc hip-cpu; do
      r=$(result "$out/$log.log" "$p" "$stage")
      row+=("$r")
      [ "$r" = PASS ] && pass[$log/$stage]=$((${pass[$log/$stage]:-0} + 1))
    done
  done
  printf '%-22s %-14s %-14s %-14s %-14s\n' "$p" "${row[@]}"
done
printf '%-22s %-14s %-14s %-14s %-14s\n' "passed (of $total)" \
  "${pass[hipgen/hipcc]:-0}" "${pass[hipgen/hip-cpu]:-0}" \
  "${pass[hipify-perl/hipcc]:-0}" "${pass[hipify-perl/hip-cpu]:-0}"
echo "logs: $out/hipgen.log $out/hipify-perl.log"
