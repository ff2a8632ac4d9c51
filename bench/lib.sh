# Shell helpers shared by the bench scripts; source it, do not run it.

# gitdir DIR prints the git directory of DIR, which may be a bare snapshot
# (what the fetch tool brings) or a checkout.
gitdir() {
  if git --git-dir="$1" rev-parse --git-dir >/dev/null 2>&1; then echo "$1"; else echo "$1/.git"; fi
}

# extract_sources GIT DEST REGEX PATH... copies the files under PATH at HEAD
# whose names match REGEX into DEST, file by file: some snapshots lack
# binary files, which makes git archive fail.
extract_sources() {
  local git=$1 dest=$2 re=$3 f
  shift 3
  git --git-dir="$git" ls-tree -r --name-only HEAD -- "$@" | grep -E "$re" |
    while read -r f; do
      mkdir -p "$dest/$(dirname "$f")"
      git --git-dir="$git" cat-file blob "HEAD:$f" >"$dest/$f"
    done
}

# scratch_timer SCRATCH prints the path of bench/timer in SCRATCH/tools,
# building it there first when it is missing (a scratch directory prepared
# before the timer existed, or copied without it).
scratch_timer() {
  local timer=$1/tools/timer
  if [ ! -x "$timer" ]; then
    command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH
    (cd "$(dirname "${BASH_SOURCE[0]}")/.." && go build -o "$timer" ./bench/timer) >&2
  fi
  echo "$timer"
}

# hipcc_unit LOG SRC ARG... compiles the translation unit SRC with hipcc for
# gfx90a and gfx1030 (-c, nothing kept), with $scratch/shadow first on the
# include path (bench/shadowcuda's stand-ins for every CUDA header, each an
# #error, so that a CUDA header left in a translation fails the unit rather
# than compile against NVIDIA's copy in /usr/include) and the further hipcc
# arguments ARG (include directories); hipcc's output goes to LOG. A SRC
# that does not exist fails, with "no translation produced" in LOG. A .c
# unit (host code calling a library, as NVIDIA's library samples are
# written) compiles as C against HIP's headers, as a C compiler with the
# HIP platform defined would; any other as HIP C++. TMPDIR is
# $scratch/tmp: ROCm 5.2's hipcc leaves two empty directories in TMPDIR
# on every compile, thousands a run, which belong in the scratch tree and
# not in /tmp. ARCH_DEFINES, when set, holds macros that differ by
# architecture, ARCH:NAME=VALUE separated by blanks (the per-architecture
# -D of a build such as microsoft/DeepSpeed's, "gfx90a:ROCM_WAVEFRONT_SIZE=64
# gfx1030:ROCM_WAVEFRONT_SIZE=32"): each architecture is then compiled in
# a call of its own, with its macros.
hipcc_unit() {
  local log=$1 src=$2 lang=(-x hip -std=c++17) arch d defs
  shift 2
  if [ ! -f "$src" ]; then
    echo "no translation produced" >"$log"
    return 1
  fi
  case $src in *.c) lang=(-x c -std=gnu11 -D__HIP_PLATFORM_AMD__=1) ;; esac
  mkdir -p "$scratch/tmp"
  if [ -z "${ARCH_DEFINES:-}" ]; then
    TMPDIR=$scratch/tmp HIP_PLATFORM=amd timeout "$hipcc_limit" hipcc "${lang[@]}" -w -I "$scratch/shadow" "$@" \
      --offload-arch=gfx90a --offload-arch=gfx1030 -c "$src" -o /dev/null >"$log" 2>&1 || timed_out $? "$log"
    return
  fi
  : >"$log"
  for arch in gfx90a gfx1030; do
    defs=()
    for d in $ARCH_DEFINES; do
      [ "${d%%:*}" = "$arch" ] && defs+=(-D "${d#*:}")
    done
    TMPDIR=$scratch/tmp HIP_PLATFORM=amd timeout "$hipcc_limit" hipcc "${lang[@]}" -w -I "$scratch/shadow" "$@" "${defs[@]}" \
      --offload-arch="$arch" -c "$src" -o /dev/null >>"$log" 2>&1 || { timed_out $? "$log"; return 1; }
  done
}

# hipcc_limit is how long one hipcc run may take, in seconds (HIPCC_LIMIT,
# default 600): a unit of heavy templates (cudpp's scan) can take longer on
# two cores.
hipcc_limit=${HIPCC_LIMIT:-600}

# timed_out RC LOG returns RC, first saying in LOG that hipcc ran out of
# time when RC is timeout's 124 (a killed hipcc leaves no error to show).
timed_out() {
  [ "$1" = 124 ] && echo "error: hipcc timed out after $hipcc_limit s" >>"$2"
  return "$1"
}

# first_error LOG prints the first error in LOG, the paths in $scratch made
# relative to their tool's tree, cut to 160 characters.
first_error() {
  grep -m1 -E 'error:|no translation' "$1" | sed -E "s|$scratch/[a-z-]+/||g" | cut -c1-160
}
