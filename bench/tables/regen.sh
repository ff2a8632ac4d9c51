#!/bin/sh
# Regenerate the generated data files of sources/hipmap/data from pinned
# commits of ROCm's public repositories and this machine's CUDA and HIP
# headers. The repositories are cloned into a scratch directory (or taken
# from HIPIFY_GIT, HIPCUB_GIT, ROCTHRUST_GIT, CLR_GIT, HIP_GIT, HIPAMD_GIT: existing git
# directories) and never copied into this repository: only the facts they
# state (which HIP name replaces which CUDA name, and since which ROCm
# release) end up in the tables.
#
# Hand-maintained files (headers.tsv, *.hand.tsv) are left alone; they take
# precedence over generated entries for the same CUDA name.
#
#   bench/tables/regen.sh            # from the repository root
#   git diff --stat sources/hipmap/data
set -eu

HIPIFY_REV=014177bc2e434ce3e834aa4f3d0e2abb1efa9796     # docs/tables, Oct 2024
HIPIFY_OLD_REV=8ed6d8ab2429720e2f6187c19432a27416b752e7 # before the ROCm 6.0 hipBLAS changes
HIPCUB_REV=84d9c1c6a96d5f03cd82a6f3348ae59a21eddb5e     # with rocm-5.0.0 ... rocm-6.2.0 tags
ROCTHRUST_REV=8e71e3d26b11cb5e86ee33c714f97953d2ca5364
CLR_REV=f9f995c6d0aecec28debd3db0f41df0c15ec003d        # with rocm-5.6.0 ... rocm-6.2.0 tags
HIP_REV=c5e11fcac8249ce4f7e70157588ff9661a870b59     # include/hip, rocm-5.0.0 ... rocm-6.2.0 tags
HIPAMD_REV=ffb1b364a265321d9fe3d69788dab83cc9557c08  # AMD implementation up to rocm-5.6.0

out=sources/hipmap/data
[ -d "$out" ] || { echo "run from the repository root" >&2; exit 2; }
[ -f /usr/include/hip/hip_runtime.h ] || { echo "needs the HIP headers (libamdhip64-dev) in /usr/include/hip" >&2; exit 2; }
[ -f /usr/include/cub/cub.cuh ] || { echo "needs the CUDA toolkit headers (nvidia-cuda-toolkit) in /usr/include" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# clone NAME REV: print a git directory holding REV and its release tags.
clone() {
	dir=$scratch/$1.git
	git clone --quiet --bare "https://github.com/ROCm/$1" "$dir"
	git --git-dir "$dir" cat-file -e "$2^{commit}"
	echo "$dir"
}

hipify=${HIPIFY_GIT:-$(clone HIPIFY $HIPIFY_REV)}
hipcub=${HIPCUB_GIT:-$(clone hipCUB $HIPCUB_REV)}
rocthrust=${ROCTHRUST_GIT:-$(clone rocThrust $ROCTHRUST_REV)}
clr=${CLR_GIT:-$(clone clr $CLR_REV)}
hip=${HIP_GIT:-$(clone HIP $HIP_REV)}
hipamd=${HIPAMD_GIT:-$(clone hipamd $HIPAMD_REV)}

here=$(dirname "$0")
# The other generators first: gen_hipify_tables.py skips the names they own.
python3 "$here/gen_cub_thrust_tables.py" --hipcub-git "$hipcub" --rocthrust-git "$rocthrust" --out "$out"
python3 "$here/gen_fp_tables.py" --clr-git "$clr" --out "$out"
python3 "$here/gen_cg_tables.py" --clr-git "$clr" --out "$out"
python3 "$here/gen_hipify_tables.py" --git-dir "$hipify" --rev "$HIPIFY_REV" \
	--old-rev "$HIPIFY_OLD_REV" --hip-include /usr/include/hip \
	--hip-git "$hip" --hipamd-git "$hipamd" --clr-git "$clr" --out "$out"
