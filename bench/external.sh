#!/usr/bin/env bash
# Translates real CUDA code from outside the project with hipgen and with
# ROCm's hipify-perl, compiles every translation unit with hipcc for gfx90a
# and gfx1030, and prints per-unit results side by side with the first
# error of each failure.
#
# Projects: candle's candle-kernels (all 26 .cu units) and 37 units of
# NVIDIA's cuda-samples (listed below). Their code is extracted into a scratch
# directory outside the repository and never committed.
#
# Usage: bench/external.sh CANDLE_GIT SAMPLES_GIT HIPIFY_GIT [SCRATCH]
#   *_GIT    git directories of huggingface/candle, NVIDIA/cuda-samples and
#            ROCm/HIPIFY (bare or not), already fetched
#   SCRATCH  work directory, default /tmp/hipgen-external (wiped first)
# Compiles run with HIP_PLATFORM=amd and a shadowed copy of every CUDA header
# first on the include path, so a CUDA header left in a translation fails
# the unit instead of compiling against NVIDIA's declarations.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

candle_git=${1:?usage: bench/external.sh CANDLE_GIT SAMPLES_GIT HIPIFY_GIT [SCRATCH]}
samples_git=${2:?usage: bench/external.sh CANDLE_GIT SAMPLES_GIT HIPIFY_GIT [SCRATCH]}
hipify_git=${3:?usage: bench/external.sh CANDLE_GIT SAMPLES_GIT HIPIFY_GIT [SCRATCH]}
scratch=${4:-/tmp/hipgen-external}
jobs=${JOBS:-2}
command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH
export HIP_PLATFORM=amd

# The cuda-samples units: plain runtime samples, warp intrinsics, cooperative
# groups, fp16, samples that use helper_cuda.h from Common/, and the cuRAND
# samples (Debian packages hipRAND).
sample_units=(
  0_Introduction/asyncAPI/asyncAPI.cu
  0_Introduction/clock/clock.cu
  0_Introduction/fp16ScalarProduct/fp16ScalarProduct.cu
  0_Introduction/matrixMul/matrixMul.cu
  0_Introduction/mergeSort/bitonic.cu
  0_Introduction/mergeSort/mergeSort.cu
  0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics.cu
  0_Introduction/simpleCooperativeGroups/simpleCooperativeGroups.cu
  0_Introduction/simpleOccupancy/simpleOccupancy.cu
  0_Introduction/simplePrintf/simplePrintf.cu
  0_Introduction/simpleStreams/simpleStreams.cu
  0_Introduction/simpleTemplates/simpleTemplates.cu
  0_Introduction/simpleVoteIntrinsics/simpleVoteIntrinsics.cu
  0_Introduction/simpleZeroCopy/simpleZeroCopy.cu
  0_Introduction/vectorAdd/vectorAdd.cu
  2_Concepts_and_Techniques/MC_EstimatePiInlineP/src/piestimator.cu
  2_Concepts_and_Techniques/MC_EstimatePiInlineQ/src/piestimator.cu
  2_Concepts_and_Techniques/MC_EstimatePiP/src/piestimator.cu
  2_Concepts_and_Techniques/MC_EstimatePiQ/src/piestimator.cu
  2_Concepts_and_Techniques/MC_SingleAsianOptionP/src/pricingengine.cu
  2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu
  2_Concepts_and_Techniques/histogram/histogram256.cu
  2_Concepts_and_Techniques/histogram/histogram64.cu
  2_Concepts_and_Techniques/reduction/reduction_kernel.cu
  2_Concepts_and_Techniques/reductionMultiBlockCG/reductionMultiBlockCG.cu
  2_Concepts_and_Techniques/scalarProd/scalarProd.cu
  2_Concepts_and_Techniques/scan/scan.cu
  2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu
  2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu
  2_Concepts_and_Techniques/sortingNetworks/oddEvenMergeSort.cu
  2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction.cu
  3_CUDA_Features/binaryPartitionCG/binaryPartitionCG.cu
  3_CUDA_Features/warpAggregatedAtomicsCG/warpAggregatedAtomicsCG.cu
  5_Domain_Specific/BlackScholes/BlackScholes.cu
  5_Domain_Specific/fastWalshTransform/fastWalshTransform.cu
  6_Performance/alignedTypes/alignedTypes.cu
  6_Performance/transpose/transpose.cu
)

rm -rf "$scratch"
mkdir -p "$scratch"/{src,hipgen,hipify,logs}

# --- extract sources and headers
candle_git=$(gitdir "$candle_git"); samples_git=$(gitdir "$samples_git"); hipify_git=$(gitdir "$hipify_git")
src_re='\.(cu|cuh|h|hpp|inl)$'
extract_sources "$candle_git" "$scratch/src/candle" "$src_re" candle-kernels/src
sample_dirs=$(printf 'Samples/%s\n' "${sample_units[@]}" | cut -d/ -f1-3 | sort -u) # whole samples: src/ units include ../inc/
# shellcheck disable=SC2086
extract_sources "$samples_git" "$scratch/src/cuda-samples" "$src_re" Common $sample_dirs
git --git-dir="$hipify_git" show HEAD:bin/hipify-perl >"$scratch/hipify-perl"

# --- units
mapfile -t candle_units < <(cd "$scratch/src/candle" && find candle-kernels/src -name '*.cu' | LC_ALL=C sort)
samples_rel=$(printf 'Samples/%s\n' "${sample_units[@]}")

# --- translate
go build -o "$scratch/hipgen-bin" ./cmd/hipgen
go build -o "$scratch/hipgen-jsonnet" ./cmd/hipgen-jsonnet # beside hipgen-bin: evaluates manifests
translate_hipgen() { # PROJECT PATHS...
  local p=$1
  shift
  "$scratch/hipgen-bin" -C "$scratch/src/$p" translate -o "$scratch/hipgen/$p" "$@" \
    >"$scratch/logs/hipgen-translate-$p.txt" 2>&1 || true
}
translate_hipgen candle candle-kernels/src
# A directory argument selects the sources in it; the samples reach Common's
# helpers through -I (angle includes), so those headers are named.
mapfile -t common_headers < <(cd "$scratch/src/cuda-samples" && ls Common/*.h)
# shellcheck disable=SC2086
translate_hipgen cuda-samples "${common_headers[@]}" $sample_dirs

(cd "$scratch/src" && find . -type f | LC_ALL=C sort) | while read -r f; do
  mkdir -p "$(dirname "$scratch/hipify/$f")"
  perl "$scratch/hipify-perl" -quiet-warnings "$scratch/src/$f" -o="$scratch/hipify/$f" \
    >>"$scratch/logs/hipify-translate.txt" 2>&1 || true
done

# --- compile
go run ./bench/shadowcuda "$scratch/shadow" >/dev/null
compile() { # TOOL PROJECT UNIT -> prints "TOOL PROJECT UNIT PASS|FAIL first-error"
  local tool=$1 proj=$2 unit=$3 src inc=()
  if [ "$tool" = hipgen ]; then src=${unit%.cu}.hip; else src=$unit; fi
  local root=$scratch/$tool/$proj
  [ "$proj" = cuda-samples ] && inc=(-I "$root/Common")
  [ "$proj" = candle ] && inc=(-I "$root/candle-kernels/src")
  local log=$scratch/logs/$tool-$proj-$(echo "$unit" | tr / _).log
  if hipcc_unit "$log" "$root/$src" "${inc[@]}"; then
    printf '%s\t%s\t%s\tPASS\t\n' "$tool" "$proj" "$unit"
    return
  fi
  local why
  why=$(first_error "$log")
  printf '%s\t%s\t%s\tFAIL\t%s\n' "$tool" "$proj" "$unit" "${why:-see $log}"
}
export -f compile hipcc_unit timed_out first_error
export scratch hipcc_limit
{
  for t in hipgen hipify; do
    printf "$t\tcandle\t%s\n" "${candle_units[@]}"
    printf "$t\tcuda-samples\t%s\n" $samples_rel
  done
} | xargs -P "$jobs" -L1 bash -c 'compile "$0" "$1" "$2"' \
  | LC_ALL=C sort >"$scratch/results.tsv"

# --- report
awk -F'\t' '
  { key = $2 "\t" $3; if (!(key in units)) { units[key] = 1; keys[++n] = key }
    res[$1, key] = $4; why[$1, key] = $5 }
  END {
    printf "%-13s %-62s %-7s %-7s\n", "project", "unit", "hipgen", "hipify"
    for (i = 1; i <= n; i++) {
      split(keys[i], k, "\t")
      printf "%-13s %-62s %-7s %-7s\n", k[1], k[2], res["hipgen", keys[i]], res["hipify", keys[i]]
      total[k[1]]++
      if (res["hipgen", keys[i]] == "PASS") hg[k[1]]++
      if (res["hipify", keys[i]] == "PASS") hp[k[1]]++
    }
    print ""
    printf "%-13s %-10s %-10s\n", "project", "hipgen", "hipify-perl"
    split("candle cuda-samples", projects, " ")
    for (j = 1; j <= 2; j++) {
      p = projects[j]
      printf "%-13s %2d/%-7d %2d/%-7d\n", p, hg[p], total[p], hp[p], total[p]
    }
    print ""
    print "hipgen failures (first error):"
    for (i = 1; i <= n; i++) if (res["hipgen", keys[i]] != "PASS") {
      split(keys[i], k, "\t"); printf "  %s %s: %s\n", k[1], k[2], why["hipgen", keys[i]]
    }
    print ""
    print "hipify-perl failures (first error):"
    for (i = 1; i <= n; i++) if (res["hipify", keys[i]] != "PASS") {
      split(keys[i], k, "\t"); printf "  %s %s: %s\n", k[1], k[2], why["hipify", keys[i]]
    }
  }' "$scratch/results.tsv"
echo
echo "logs and translations: $scratch"
