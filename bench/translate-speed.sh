#!/usr/bin/env bash
# Times hipgen, ROCm's hipify-perl (default options and -quiet-warnings) and
# PyTorch's hipify (ROCm/hipify_torch, its hipify_torch/v2 package) over the
# same corpus of about 40,000 lines of real CUDA, in one run, end to end
# (process start included), and prints the ratios to hipgen.
#
# Every run is timed by bench/timer, which creates the tool's process
# directly and waits for it: the span covers the process's start, its work
# and its exit, and nothing of the shell (whose own fork the time keyword
# would charge to each tool).
#
# Corpus: candle-kernels/src (every .cu and .cuh) plus cuda-samples' .cu and
# .cuh files in path order until the total reaches CORPUS_LINES (default
# 40000). It is extracted into a scratch directory outside the repository.
#
# Usage: bench/translate-speed.sh CANDLE_GIT SAMPLES_GIT HIPIFY_GIT HIPIFY_TORCH_GIT [SCRATCH]
#   SCRATCH defaults to /tmp/hipgen-speed (wiped first); a tmpfs such as
#   /dev/shm/hipgen-speed takes the disk's file-creation cost out of every
#   tool's figure (the "cp -r" row shows that cost).
#        bench/translate-speed.sh --measure SCRATCH
#   times the tools again on a SCRATCH prepared by a full run (for example
#   copied to a quieter machine); needs only perl, python3 and the files there.
# hipify-perl with default options is slow (minutes for this corpus); that is
# the point of the comparison. SKIP_DEFAULT_PERL=1 leaves it out (its row
# then reads nan). ROUNDS (default 20) is how many turns each fast tool
# takes; the tools alternate, and each row gives the fastest and the median
# run, and their ratios to hipgen's. Each timed run follows WARMUP (default
# 1) untimed runs of the same command (see sample); WARMUP=0 times each
# tool right after the one before it.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

usage="usage: bench/translate-speed.sh CANDLE_GIT SAMPLES_GIT HIPIFY_GIT HIPIFY_TORCH_GIT [SCRATCH]"
# prepare CANDLE_GIT SAMPLES_GIT HIPIFY_GIT HIPIFY_TORCH_GIT [SCRATCH] builds
# the corpus and the tools in SCRATCH.
prepare() {
  candle_git=${1:?$usage}
  samples_git=${2:?$usage}
  hipify_git=${3:?$usage}
  torch_git=${4:?$usage}
  scratch=${5:-/tmp/hipgen-speed}
  want_lines=${CORPUS_LINES:-40000}
  command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH

  candle_git=$(gitdir "$candle_git"); samples_git=$(gitdir "$samples_git")
  hipify_git=$(gitdir "$hipify_git"); torch_git=$(gitdir "$torch_git")

  rm -rf "$scratch"
  mkdir -p "$scratch"/{full,corpus,tools/hipify_torch}
  extract_sources "$candle_git" "$scratch/full" '\.(cu|cuh)$' candle-kernels/src
  extract_sources "$samples_git" "$scratch/full" '\.(cu|cuh)$' Samples
  git --git-dir="$hipify_git" show HEAD:bin/hipify-perl >"$scratch/tools/hipify-perl"
  git --git-dir="$torch_git" archive HEAD hipify_torch | tar -x -C "$scratch/tools/hipify_torch"

  # Pick the corpus: all of candle-kernels first, then cuda-samples in order.
  lines=0
  files=()
  while read -r f; do
    [ "$lines" -ge "$want_lines" ] && break
    n=$(wc -l <"$scratch/full/$f")
    lines=$((lines + n))
    files+=("$f")
    mkdir -p "$(dirname "$scratch/corpus/$f")"
    cp "$scratch/full/$f" "$scratch/corpus/$f"
  done < <(cd "$scratch/full" && { find candle-kernels -type f | LC_ALL=C sort; find Samples -type f | LC_ALL=C sort; })
  printf '%s\n' "${files[@]}" >"$scratch/corpus.list"
  go build -o "$scratch/tools/" ./cmd/hipgen ./cmd/hipgen-jsonnet ./bench/timer
}

if [ "${1:-}" = --measure ]; then
  scratch=$(cd "${2:?$usage}" && pwd)
else
  prepare "$@"
fi
timer=$(scratch_timer "$scratch")
mapfile -t files <"$scratch/corpus.list"
lines=$(cd "$scratch/corpus" && cat "${files[@]}" | wc -l)
bytes=$(cd "$scratch/corpus" && cat "${files[@]}" | wc -c)
echo "corpus: ${#files[@]} files, $lines lines, $bytes bytes"

# sample NAME SETUP TIMER_ARGS... runs SETUP (untimed) and then bench/timer
# with TIMER_ARGS (options, --, the command), once, and appends its "wall
# cpu" seconds to the samples of NAME. cpu is the user and system time of
# the command and its children, which other load on the machine hardly
# changes.
declare -A samples
# Before it, the same run is made WARMUP times (default 1) untimed, each
# after SETUP too, as hyperfine's --warmup does: the timed run then finds
# the tool's own files cached and the machine as its own last run left it,
# not as the previous tool did (hipify_torch's half second of Python leaves
# a few-millisecond run 15 to 20% slower on the 16-core machine).
sample() {
  local name=$1 setup=$2 w
  shift 2
  for ((w = 0; w < ${warmup:-0}; w++)); do
    "$setup"
    "$timer" "$@" >/dev/null
  done
  "$setup"
  samples[$name]+="$("$timer" "$@")"$'\n'
}

# Each tool starts from a clean output tree (removed before the clock
# starts), so nothing is cached between runs; "hipgen rerun" is hipgen
# again over its own unchanged tree, its incremental case.
none() { :; }
clean_hipgen() { rm -rf "$scratch/out-hipgen"; }
hipgen=("$scratch/tools/hipgen" -C "$scratch/corpus" translate -o "$scratch/out-hipgen" .)
hipgen_j1=("$scratch/tools/hipgen" -C "$scratch/corpus" translate -j 1 -o "$scratch/out-hipgen" .)
perl_in_corpus=(-C "$scratch/corpus" -o "$scratch/out-hipify-perl.txt" -- perl "$scratch/tools/hipify-perl")
clean_torch() { rm -rf "$scratch/out-torch" "$scratch/torch-project" && cp -r "$scratch/corpus" "$scratch/torch-project"; }
torch=(-env "PYTHONPATH=$scratch/tools/hipify_torch" -- python3 -c '
import sys
from hipify_torch.v2.hipify_python import hipify
hipify(project_directory=sys.argv[1], output_directory=sys.argv[2], show_progress=False)
' "$scratch/torch-project" "$scratch/out-torch")
# The floor any translator writing this tree pays here: creating the same
# files and directories, with the same sizes, by cp.
clean_copy() { rm -rf "$scratch/out-copy"; }
copy=(-- cp -r "$scratch/corpus" "$scratch/out-copy")

# The tools take turns, round after round (ROUNDS, default 20), so that a
# burst of other load on a shared machine falls on all of them alike, not
# on every run of one tool. Each tool's figure is its fastest run (the
# least disturbed), with the median beside it. hipify-perl -quiet-warnings
# takes seconds a run and joins the first 3 rounds; default hipify-perl
# takes minutes and runs once, at the end.
rounds=${ROUNDS:-20}
warmup=${WARMUP:-1}
for ((r = 0; r < rounds; r++)); do
  sample "cp -r (file creation)" clean_copy "${copy[@]}"
  sample hipgen clean_hipgen -- "${hipgen[@]}"
  sample "hipgen -j1" clean_hipgen -- "${hipgen_j1[@]}"
  sample "hipgen rerun" none -- "${hipgen[@]}"
  sample "hipify_torch v2" clean_torch "${torch[@]}"
  if [ "$r" -lt 3 ]; then sample "hipify-perl -quiet-warnings" none "${perl_in_corpus[@]}" -quiet-warnings "${files[@]}"; fi
done
if [ "${SKIP_DEFAULT_PERL:-0}" = 1 ]; then
  samples[hipify-perl]="nan nan" # skipped on request: it takes many minutes
else
  warmup=0 # minutes a run: once, cold
  sample hipify-perl none "${perl_in_corpus[@]}" "${files[@]}"
fi

# summary NAME prints "best_wall cpu_of_that_run median_wall runs" of NAME.
summary() {
  echo "${samples[$1]}" | sort -g | awk 'NF { w[++n] = $1; c[n] = $2 }
    END { printf "%s %s %s %d\n", w[1], c[1], (n % 2 ? w[(n + 1) / 2] : (w[n / 2] + w[n / 2 + 1]) / 2), n }'
}

# Sanity: each tool must have produced output for the corpus.
hg_out=$(find "$scratch/out-hipgen" -type f \( -name '*.hip' -o -name '*.cuh' \) | wc -l)
torch_out=$(find "$scratch/out-torch" -type f | wc -l)
echo "outputs: hipgen $hg_out files, hipify_torch $torch_out files, hipify-perl $(wc -l <"$scratch/out-hipify-perl.txt") lines"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $rounds rounds, ${WARMUP:-1} warm-up run(s) before each timed run"
hg=$(summary hipgen)
printf '\n%-28s %9s %9s %9s %5s %11s %10s %10s %10s\n' tool best_s cpu_s median_s runs lines/s "best/hipgen" "med/hipgen" "cpu/hipgen"
for t in "cp -r (file creation)" "hipgen" "hipgen -j1" "hipgen rerun" "hipify_torch v2" "hipify-perl -quiet-warnings" "hipify-perl"; do
  echo "$(summary "$t") $hg" | awk -v t="$t" -v l="$lines" \
    '$1 == "nan" { printf "%-28s %9s %9s %9s %5d %11s %10s %9s %9s\n", t, "nan", "nan", "nan", $4, "nan", "nanx", "nanx", "nanx"; next }
     { printf "%-28s %9.4f %9.3f %9.4f %5d %11.0f %10.1fx %9.1fx %9.1fx\n", t, $1, $2, $3, $4, l / $1, $1 / $5, $3 / $7, $2 / $6 }'
done
