#!/usr/bin/env python3
"""Regenerate sources/hipmap/data/<family>.tsv from ROCm/HIPIFY's published
API support tables (docs/tables/*.md).

The mappings are facts (which HIP name replaces which CUDA name, and in which
ROCm release it appeared); this script only reshapes them into hipmap's own
format. HIPIFY itself is never copied into this repository: point the script at
a local clone (or a bare git directory) and it reads the tables from there.

    python3 bench/tables/gen_hipify_tables.py --git-dir /path/to/HIPIFY/.git \
        [--rev HEAD] [--out sources/hipmap/data]

Every other data file (headers.tsv, <family>.hand.tsv, and the outputs of
the other generators, <family>.<part>.tsv) takes precedence: a name already
present there is skipped here so that each CUDA name has one owner.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

# docs/tables file -> default family. Device and BLAS entries are split
# further by family_of().
DOCS = [
    ("CUDA_Runtime_API_functions_supported_by_HIP.md", "runtime"),
    ("CUDA_Driver_API_functions_supported_by_HIP.md", "driver"),
    ("CUDA_Device_API_supported_by_HIP.md", "device"),
    ("cuComplex_API_supported_by_HIP.md", "complex"),
    ("CUBLAS_API_supported_by_HIP.md", "cublas"),
    ("CURAND_API_supported_by_HIP.md", "curand"),
    ("CUFFT_API_supported_by_HIP.md", "cufft"),
    ("CUSPARSE_API_supported_by_HIP.md", "cusparse"),
    ("CUSOLVER_API_supported_by_HIP.md", "cusolver"),
    ("CUDA_RTC_API_supported_by_HIP.md", "nvrtc"),
    ("CUB_API_supported_by_HIP.md", "cub"),
]

# HIPIFY records the HIP release that introduced each name; releases before
# 4.0 predate HIP and ROCm sharing version numbers, and every supported
# target is newer, so only later releases become a lower bound.
MIN_USEFUL = (4, 0)

HALF_MATH = re.compile(r"^h2?(ceil|cos|exp|exp10|exp2|floor|log|log10|log2|rcp|rint|rsqrt|sin|sqrt|trunc|tanh|abs)$")
MATH_INTRINSIC = re.compile(
    r"^__(f|d)(add|sub|mul|div|rcp|sqrt|rsqrt|fma|sqrt)_r[nzud]$|^__fmaf?_r[nzud]$|"
    r"^__(sinf|cosf|tanf|expf|exp10f|logf|log2f|log10f|powf|sincosf|fdividef|saturatef|fdiv_r[nzud]|frcp_r[nzud]|fsqrt_r[nzud])$|"
    r"^__(float|double|int|uint|ll|ull|half|short|ushort)2|_as_|^__(hiloint2double|double2hiint|double2loint)$")
DEVICE_PLAIN = re.compile(r"^(atomic|clock|printf|malloc|free|mem(cpy|set)|assert)")


def family_of(default, section, name):
    low = name.lower()
    if default == "device":
        if "bfloat16" in low or "bf16" in low:
            return "bf16"
        if "fp8" in low or "e4m3" in low or "e5m2" in low:
            return "fp8"
        if "half" in low or HALF_MATH.match(name) or re.match(r"^__h(?!iloint)", name) \
                or re.match(r"^__(low|high|lows|highs)2", name):
            return "fp16"
        if MATH_INTRINSIC.search(name):
            return "math"
        if not name.startswith("_") and not DEVICE_PLAIN.match(name):
            return "math"
        return "device"
    if default == "cublas" and (low.startswith("cublaslt") or "blaslt" in section.lower()):
        return "cublaslt"
    return default


def version(s):
    m = re.match(r"^(\d+)\.(\d+)", s.strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def rows(text):
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line.strip("# *")
            continue
        if not line.startswith("|`"):
            continue
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) != 11:
            raise SystemExit("unexpected row shape: %r" % line)
        yield section, cells


def entry(cells):
    cuda, c_add, c_dep, c_chg, c_rem, hip, h_add, h_dep, h_chg, h_rem, h_exp = cells
    notes = []
    if not hip:
        return cuda, "-", "unsupported", "", ""
    status = "ok"
    if c_dep:
        status, _ = "deprecated", notes.append("deprecated in CUDA %s" % c_dep)
    if c_rem:
        status, _ = "deprecated", notes.append("removed in CUDA %s" % c_rem)
    if h_dep:
        status, _ = "deprecated", notes.append("deprecated in HIP %s" % h_dep)
    if h_exp:
        notes.append("experimental in HIP %s" % h_exp)
    lo, hi = version(h_add), version(h_rem)
    rng = ""
    if lo and lo >= MIN_USEFUL:
        rng = "%d.%d.." % lo
    if hi:
        rng = (rng or "..") + ("%d.%d" % hi if rng else "%d.%d" % hi)
        if rng.startswith("...."):
            rng = rng[2:]
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", hip):
        # A type expression such as "void*" is not a drop-in name.
        return cuda, "-", "unsupported", "", "HIPIFY rewrites it to the expression %s" % hip
    name = "=" if hip == cuda else hip
    return cuda, name, status, rng, "; ".join(notes)


# Families whose HIP names are declared by the HIP runtime headers, which
# --hip-include can check.
RUNTIME_HEADER_FAMILIES = {"runtime", "driver", "device", "math", "fp16", "complex", "nvrtc"}


def header_identifiers(include_dir):
    idents = set()
    for root, dirs, files in os.walk(include_dir):
        rel = os.path.relpath(root, include_dir)
        if rel.split(os.sep)[0] in ("nvidia_detail", "nvcc_detail"):
            continue
        for name in files:
            with open(os.path.join(root, name), errors="replace") as f:
                idents.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read()))
    return idents


def check_installed(entry, idents, release):
    """Give a lower bound to an entry whose HIP name the installed HIP
    headers (ROCm `release`) lack although the docs imply it is there."""
    cuda, hip, status, rng, note = entry
    if status == "unsupported" or hip == "=":
        return entry
    lo = version(rng) if rng and not rng.startswith("..") else None
    if lo and lo > release:
        return entry
    if hip in idents:
        return entry
    after = "%d.%d.." % (release[0], release[1] + 1)
    rng = after + rng.split("..", 1)[1] if rng else after
    extra = "absent from ROCm %d.%d headers; first release not recorded" % release
    return cuda, hip, status, rng, (note + "; " + extra) if note else extra


GENERATED = {"runtime", "driver", "device", "math", "fp16", "bf16", "fp8", "complex", "cublas",
             "cublaslt", "curand", "cufft", "cusparse", "cusolver", "nvrtc", "cub"}


def hand_names(out):
    """CUDA names owned by the other data files: hand-maintained ones
    (headers.tsv, <family>.hand.tsv) and those of the other generators
    (<family>.<part>.tsv)."""
    names = set()
    for path in glob.glob(os.path.join(out, "*.tsv")):
        fam = os.path.basename(path)[:-len(".tsv")]
        if fam in GENERATED:
            continue
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    names.add(line.split("\t")[0])
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--out", default="sources/hipmap/data")
    ap.add_argument("--doc", action="append", default=[], metavar="FILE=FAMILY",
                    help="also read a support table saved as a local file (for example a "
                         "CUTENSOR_API_supported_by_HIP.md newer than --rev)")
    ap.add_argument("--hip-include", metavar="DIR",
                    help="installed HIP runtime headers (e.g. /usr/include/hip) to check the "
                         "runtime, driver and device names against")
    ap.add_argument("--hip-release", default="5.2", help="ROCm release of --hip-include")
    args = ap.parse_args()
    commit = subprocess.check_output(
        ["git", "--git-dir", args.git_dir, "rev-parse", args.rev], text=True).strip()
    skip = hand_names(args.out)
    families = {}
    owner = {}
    sources = []
    for doc, default in DOCS:
        text = subprocess.check_output(
            ["git", "--git-dir", args.git_dir, "show", "%s:docs/tables/%s" % (commit, doc)], text=True)
        sources.append((text, default, "docs/tables at commit %s" % commit[:12]))
    for spec in args.doc:
        path, _, default = spec.partition("=")
        with open(path) as f:
            sources.append((f.read(), default, os.path.basename(path)))
    origin = {}
    idents = header_identifiers(args.hip_include) if args.hip_include else None
    release = version(args.hip_release)
    for text, default, where in sources:
        for section, cells in rows(text):
            fam = family_of(default, section, cells[0])
            e = entry(cells)
            if idents is not None and fam in RUNTIME_HEADER_FAMILIES:
                e = check_installed(e, idents, release)
            if e[0] in skip:
                continue
            if e[0] in owner:
                # The same CUDA name appears in two documents (for example
                # cudaDataType in runtime and cuBLAS): keep the first owner.
                continue
            owner[e[0]] = fam
            origin[fam] = where
            families.setdefault(fam, []).append(e)
    for fam in sorted(GENERATED - set(families)):
        # Every name of the family now has another owner.
        path = os.path.join(args.out, fam + ".tsv")
        if os.path.exists(path):
            os.remove(path)
    for fam, entries in sorted(families.items()):
        entries.sort()
        path = os.path.join(args.out, fam + ".tsv")
        with open(path, "w") as f:
            f.write("# Family %s. Generated by bench/tables/gen_hipify_tables.py from the API\n" % fam)
            f.write("# support tables of ROCm/HIPIFY (%s).\n" % origin[fam])
            f.write("# Do not edit: override an entry in %s.hand.tsv instead.\n" % fam)
            for e in entries:
                f.write("\t".join(e).rstrip("\t") + "\n")
        ok = sum(1 for e in entries if e[2] != "unsupported" and e[1] != "=")
        same = sum(1 for e in entries if e[1] == "=")
        print("%-10s %5d entries, %5d renames, %4d same name" % (fam, len(entries), ok, same), file=sys.stderr)


if __name__ == "__main__":
    main()
