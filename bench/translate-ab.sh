#!/usr/bin/env bash
# Compares two or more hipgen binaries on the same corpus, end to end, by
# interleaving their runs: on a machine whose speed drifts from minute to
# minute (a shared VM), runs taken one binary after the other measure the
# drift as much as the binaries.
#
# Usage: bench/translate-ab.sh SCRATCH N HIPGEN...
#   SCRATCH is a directory prepared by bench/translate-speed.sh (its
#   corpus/ is translated; a tmpfs copy takes the disk out of the figure);
#   N rounds, each running every HIPGEN once, in turn, on an empty output
#   tree. Prints, per binary, the best, first-quartile and median wall
#   time in microseconds, as bench/timer measures it (built into
#   SCRATCH/tools when missing). Differences of a few percent need N of 200
#   or more.
set -euo pipefail
usage="usage: bench/translate-ab.sh SCRATCH N HIPGEN..."
[ -d "${1:?$usage}" ] || { echo "bench/translate-ab.sh: $1: not a directory" >&2; exit 2; }
scratch=$(cd "$1" && pwd)
n=${2:?$usage}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bench/translate-ab.sh: N must be a positive number, not $n" >&2; exit 2; }
shift 2
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
[ -d "$scratch/corpus" ] || { echo "bench/translate-ab.sh: $scratch/corpus: not a directory (run bench/translate-speed.sh first)" >&2; exit 2; }
for b in "$@"; do
  [ -x "$b" ] || { echo "bench/translate-ab.sh: $b: not an executable" >&2; exit 2; }
done

times=$(mktemp -d)
trap 'rm -rf "$times" "$scratch/out-ab"' EXIT
# Each run is timed by bench/timer (see bench/translate-speed.sh).
. "$(dirname "$0")/lib.sh"
timer=$(scratch_timer "$scratch")
for ((r = 0; r < n; r++)); do
  i=0
  for b in "$@"; do
    rm -rf "$scratch/out-ab"
    "$timer" -- "$b" -C "$scratch/corpus" translate -o "$scratch/out-ab" . | awk '{printf "%d\n", $1 * 1e6}' >>"$times/$i"
    i=$((i + 1))
  done
done
i=0
for b in "$@"; do
  sort -n "$times/$i" | awk -v b="$b" '{t[NR] = $1}
    END {printf "%-40s best %7d  p25 %7d  median %7d us (n=%d)\n", b, t[1], t[int(NR / 4) + 1], t[int(NR / 2) + 1], NR}'
  i=$((i + 1))
done
