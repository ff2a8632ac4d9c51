#!/usr/bin/env python3
"""Check the math-library tables against the libraries' own release tags.

For each family (cublas -> hipBLAS, cublaslt -> hipBLASLt, cusolver ->
hipSOLVER, cusparse -> hipSPARSE, curand -> hipRAND, cufft -> hipFFT) every
supported entry's HIP name must appear in the library's public headers
(library/include) at some rocm-X.Y.0 tag or at the pinned HEAD, and no entry
may claim a release earlier than the first tag that has the name. The
hipDataType type and values (HIP_R_*, HIP_C_*) are exempt from the second rule: the
HIP runtime declares them (hip/library_types.h), the libraries only use them.
Read-only: reports and exits 1 on a violation.

    python3 bench/tables/check_library_tags.py --repos DIR [--data sources/hipmap/data]

DIR holds bare clones named hipBLAS.git, hipBLASLt.git, hipSOLVER.git,
hipSPARSE.git, hipRAND.git and hipFFT.git (git clone --bare
https://github.com/ROCm/<name> DIR/<name>.git).
"""

import argparse
import os
import re
import subprocess
import sys

TAGS = ["rocm-5.0.0", "rocm-5.1.0", "rocm-5.2.0", "rocm-5.3.0", "rocm-5.4.0", "rocm-5.5.0",
        "rocm-5.6.0", "rocm-5.7.0", "rocm-6.0.0", "rocm-6.1.0", "rocm-6.2.0", "HEAD"]
REPOS = {"cublas": "hipBLAS", "cublaslt": "hipBLASLt", "cusolver": "hipSOLVER",
         "cusparse": "hipSPARSE", "curand": "hipRAND", "cufft": "hipFFT"}
RUNTIME_TYPES = re.compile(r"^(HIP_[RC]_\w+|hipDataType)$")


def idents(git, tag):
    try:
        files = subprocess.check_output(["git", "--git-dir", git, "ls-tree", "-r", "--name-only", tag,
                                         "library/include"], text=True, stderr=subprocess.DEVNULL).split()
    except subprocess.CalledProcessError:
        return None
    out = set()
    for f in files:
        if not f.endswith((".h", ".hpp", ".h.in")) or re.search(r"nvcc|nvidia|cuda", f, re.I):
            continue
        text = subprocess.check_output(["git", "--git-dir", git, "show", tag + ":" + f], text=True, errors="replace")
        out.update(re.findall(r"[A-Za-z_]\w*", re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)))
    return out or None


def version(s):
    m = re.match(r"^(\d+)\.(\d+)", s)
    return (int(m.group(1)), int(m.group(2))) if m else None


def release(tag):
    return (6, 3) if tag == "HEAD" else version(tag[len("rocm-"):])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repos", required=True)
    ap.add_argument("--data", default="sources/hipmap/data")
    args = ap.parse_args()
    bad = 0
    for fam, repo in REPOS.items():
        git = os.path.join(args.repos, repo + ".git")
        per = {t: idents(git, t) for t in TAGS}
        tags = [t for t in TAGS if per[t] is not None]
        checked, never, early = 0, [], []
        for name in sorted(os.listdir(args.data)):
            if not name.endswith(".tsv") or name.split(".")[0] != fam:
                continue
            for line in open(os.path.join(args.data, name)):
                if line.startswith("#") or not line.strip():
                    continue
                cuda, hip, status, rng, _ = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
                if hip in ("-", "=") or status == "unsupported":
                    continue
                checked += 1
                first = next((t for t in tags if hip in per[t]), None)
                if first is None:
                    never.append("%s -> %s" % (cuda, hip))
                    continue
                lo = version(rng.partition("..")[0]) if rng.partition("..")[0] else None
                if first != tags[0] and (lo is None or lo < release(first)) and not RUNTIME_TYPES.match(hip):
                    early.append("%s -> %s claims %s, first in %s" % (cuda, hip, rng or "all releases", first))
        for m in never:
            print("%s: %s is in no %s release" % (fam, m, repo))
        for m in early:
            print("%s: %s" % (fam, m))
        print("%-9s %4d entries checked against %s %s..%s: %d unknown, %d too early"
              % (fam, checked, repo, tags[0], tags[-1], len(never), len(early)))
        bad += len(never) + len(early)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
