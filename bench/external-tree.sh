#!/usr/bin/env bash
# Translates a whole CUDA project from outside with hipgen and with ROCm's
# hipify-perl, compiles every .cu unit of each translation with hipcc for
# gfx90a and gfx1030, and prints per-unit results side by side with the
# first error of each failure, then the pass counts.
#
# bench/external.sh does this for a chosen list of units of candle and
# cuda-samples; this script takes every unit of any project, for example a
# CUDA textbook's code (PacktPublishing/Learn-CUDA-Programming), whose
# programs expect cuda-samples' Common/ helpers on the include path.
#
# Usage: bench/external-tree.sh PROJECT_GIT HIPIFY_GIT [SAMPLES_GIT] [SCRATCH]
#   PROJECT_GIT  git directory of the project (bare or not), already fetched
#   HIPIFY_GIT   git directory of ROCm/HIPIFY (bin/hipify-perl is used)
#   SAMPLES_GIT  git directory of NVIDIA/cuda-samples: its Common/ headers
#                join the tree as Common/ and the include path ("" for none)
#   SCRATCH      work directory, default /tmp/hipgen-external-tree (wiped)
# Environment:
#   DIRS      the project's directories to take, separated by blanks or
#             newlines (default: all of it), for
#             example "cuSPARSE cuRAND" of NVIDIA/CUDALibrarySamples
#   UNITS     what a translation unit's name ends with, a regex (default
#             '\.cu$'); '\.(cu|c|cpp)$' adds host files that call CUDA's
#             libraries, which hipgen translates when named (a directory
#             contributes its .cu and .cuh files)
#   INCLUDES  include directories, relative to the project (the -I that
#             the project's build gives), for both translators and hipcc
#   DEFINES   macros for hipcc, NAME or NAME=VALUE separated by blanks (the
#             -D that the project's build gives its ROCm compiles)
#   ARCH_DEFINES  macros that differ by architecture, ARCH:NAME=VALUE
#             separated by blanks, for example microsoft/DeepSpeed's
#             "gfx90a:ROCM_WAVEFRONT_SIZE=64 gfx1030:ROCM_WAVEFRONT_SIZE=32":
#             each architecture is then compiled on its own
#   HIPCC_LIMIT  seconds one hipcc run may take (default 600); a unit that
#             runs out fails with "hipcc timed out" (both tools' translations
#             of cudpp's scan_app.cu do on two cores)
#   CONFIG_FILES  files, relative to the project, created empty before
#             translating, where a project's configure step would write them
#             (tpruvot/ccminer's ccminer-config.h, which its miner.h includes)
#   STANDALONE=1  leave out the units that a file of their own directory
#             or of the directory above #includes (Rodinia's kernels,
#             which its main units include and which do not compile on
#             their own, with either translator); they are listed
# The project's code is extracted into SCRATCH and never committed. Compiles
# run with HIP_PLATFORM=amd, with a shadowed copy of every CUDA header first
# on the include path (so a CUDA header left in a translation fails the
# unit), with the unit's own directory and Common/ as include directories
# (for hipgen's translation the translated one, then the original, as hipgen
# build searches them: plain C and C++ headers are not copied), JOBS
# (default 2) at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

usage="usage: bench/external-tree.sh PROJECT_GIT HIPIFY_GIT [SAMPLES_GIT] [SCRATCH]"
project_git=${1:?$usage}
hipify_git=${2:?$usage}
samples_git=${3:-}
scratch=${4:-/tmp/hipgen-external-tree}
jobs=${JOBS:-2}
command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH
command -v hipcc >/dev/null || { echo "bench/external-tree.sh: hipcc not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
export HIP_PLATFORM=amd

rm -rf "$scratch"
mkdir -p "$scratch"/{src,hipgen,hipify,logs}

# --- extract sources and headers
unit_re=${UNITS:-'\.cu$'}
src_re='\.(cu|cuh|h|hpp|hh|inl|inc|c|cpp)$'
read -r -d "" -a dirs <<<"${DIRS:-.}" || true # words on any number of lines
extract_sources "$(gitdir "$project_git")" "$scratch/src" "$src_re" "${dirs[@]}"
for f in ${CONFIG_FILES:-}; do
  mkdir -p "$(dirname "$scratch/src/$f")" && : >"$scratch/src/$f"
done
includes=()
for d in ${INCLUDES:-}; do includes+=(-I "$d"); done
if [ -n "$samples_git" ]; then
  extract_sources "$(gitdir "$samples_git")" "$scratch/samples" '\.h$' Common
  rm -rf "$scratch/src/Common"
  mv "$scratch/samples/Common" "$scratch/src/Common"
  includes=(-I Common)
fi
git --git-dir="$(gitdir "$hipify_git")" show HEAD:bin/hipify-perl >"$scratch/hipify-perl"
mapfile -t units < <(cd "$scratch/src" && find . -type f | sed 's|^\./||' | grep -E "$unit_re" | LC_ALL=C sort)
if [ "${STANDALONE:-}" = 1 ]; then
  # An #include naming the unit's file, in a file of its directory or the
  # one above: a kernel file that its program includes.
  included() {
    local d b
    d=$(dirname "$1") b=$(basename "$1")
    grep -qsE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]([^\">]*/)?${b//./\\.}[\">]" \
      "$scratch/src/$d"/* "$scratch/src/$(dirname "$d")"/* 2>/dev/null
  }
  kept=()
  for u in "${units[@]}"; do
    if included "$u"; then echo "left out (included by another file): $u"; else kept+=("$u"); fi
  done
  units=("${kept[@]}")
fi
# Units other than .cu files are named to hipgen, which takes a
# directory's .cu and .cuh files and only those of its C and C++ sources
# that use CUDA.
mapfile -t named < <(printf '%s\n' "${units[@]}" | grep -v '\.cu$' || true)

# --- translate
go build -o "$scratch/hipgen-bin" ./cmd/hipgen
"$scratch/hipgen-bin" -C "$scratch/src" translate "${includes[@]}" -o "$scratch/hipgen" . "${named[@]}" \
  >"$scratch/logs/hipgen-translate.txt" 2>&1 || true
(cd "$scratch/src" && find . -type f | LC_ALL=C sort) | while read -r f; do
  mkdir -p "$(dirname "$scratch/hipify/$f")"
  perl "$scratch/hipify-perl" -quiet-warnings "$scratch/src/$f" -o="$scratch/hipify/$f" \
    >>"$scratch/logs/hipify-translate.txt" 2>&1 || cp "$scratch/src/$f" "$scratch/hipify/$f"
done

# --- compile
go run ./bench/shadowcuda "$scratch/shadow" >/dev/null
compile() { # TOOL UNIT -> prints "TOOL UNIT PASS|FAIL first-error"
  local tool=$1 unit=$2 src=$2
  [ "$tool" = hipgen ] && [[ $unit == *.cu ]] && src=${unit%.cu}.hip
  local root=$scratch/$tool
  local log=$scratch/logs/$tool-$(echo "$unit" | tr / _).log
  local inc=(-I "$root/Common" -I "$root/$(dirname "$unit")") d
  for d in $INCLUDES; do inc+=(-I "$root/$d"); done
  if [ "$tool" = hipgen ]; then
    # As hipgen build and the generated build files search them: the
    # translated mirror first, then the original, where the headers that
    # hipgen leaves alone (plain C and C++ ones) are.
    inc+=(-I "$scratch/src/$(dirname "$unit")")
    for d in $INCLUDES; do inc+=(-I "$scratch/src/$d"); done
  fi
  for d in $DEFINES; do inc+=(-D "$d"); done
  if hipcc_unit "$log" "$root/$src" "${inc[@]}"; then
    printf '%s\t%s\tPASS\t\n' "$tool" "$unit"
    return
  fi
  local why
  why=$(first_error "$log")
  printf '%s\t%s\tFAIL\t%s\n' "$tool" "$unit" "${why:-see $log}"
}
export -f compile hipcc_unit timed_out first_error
DEFINES=${DEFINES:-}
ARCH_DEFINES=${ARCH_DEFINES:-}
export scratch hipcc_limit INCLUDES DEFINES ARCH_DEFINES
# NUL-separated pairs: a unit's path may hold blanks (a course's
# "05_Writing_your_First_Kernels/02 Kernels/02 matmul.cu").
for t in hipgen hipify; do printf "$t\0%s\0" "${units[@]}"; done |
  xargs -0 -n 2 -P "$jobs" bash -c 'compile "$0" "$1"' | LC_ALL=C sort >"$scratch/results.tsv"

# --- report
awk -F'\t' '
  { if (!($2 in seen)) { seen[$2] = 1; keys[++n] = $2 }
    res[$1, $2] = $3; why[$1, $2] = $4 }
  END {
    printf "%-72s %-7s %-7s\n", "unit", "hipgen", "hipify"
    for (i = 1; i <= n; i++) {
      printf "%-72s %-7s %-7s\n", keys[i], res["hipgen", keys[i]], res["hipify", keys[i]]
      if (res["hipgen", keys[i]] == "PASS") hg++
      if (res["hipify", keys[i]] == "PASS") hp++
    }
    printf "\nunits that compile for gfx90a and gfx1030: hipgen %d/%d, hipify-perl %d/%d\n", hg, n, hp, n
    print "\nhipgen failures (first error):"
    for (i = 1; i <= n; i++) if (res["hipgen", keys[i]] != "PASS") printf "  %s: %s\n", keys[i], why["hipgen", keys[i]]
  }' "$scratch/results.tsv"
echo
echo "logs and translations: $scratch"
