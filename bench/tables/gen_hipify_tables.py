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
    """Yields (section, cells) with cells normalised to the 11 columns
    CUDA A D C R HIP A D C R E; older tables lack the C columns."""
    section = ""
    header = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line.strip("# *")
            continue
        if line.startswith("|**CUDA**"):
            header = [c.strip("* ") for c in line.strip().strip("|").split("|")]
            continue
        if not line.startswith("|`"):
            continue
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if header is None or len(cells) != len(header):
            raise SystemExit("unexpected row shape: %r" % line)
        hip = header.index("HIP")
        def side(part):
            got = dict(zip(part[1:], cells_of(part)))
            return [got.get(k, "") for k in ("A", "D", "C", "R")]
        def cells_of(part):
            return part_cells[id(part)]
        cuda_part, hip_part = header[:hip], header[hip:]
        part_cells = {id(cuda_part): cells[1:hip], id(hip_part): cells[hip + 1:]}
        hip_cols = dict(zip(hip_part[1:], cells[hip + 1:]))
        yield section, [cells[0]] + side(cuda_part) + [cells[hip]] + side(hip_part) + [hip_cols.get("E", "")]


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


# HIP's public headers live in ROCm/HIP (include/hip) with the AMD
# implementation in ROCm/hipamd up to 5.6 and in ROCm/clr from 5.6 on.
RELEASE_TAGS = ["rocm-5.3.0", "rocm-5.4.0", "rocm-5.5.0", "rocm-5.6.0", "rocm-5.7.0",
                "rocm-6.0.0", "rocm-6.1.0", "rocm-6.2.0", "HEAD"]
HEAD_RELEASE = (6, 3)


def git_identifiers(gitdir, tag, root):
    try:
        files = subprocess.check_output(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", tag, root],
                                        text=True, stderr=subprocess.DEVNULL).split()
    except subprocess.CalledProcessError:
        return set()
    out = set()
    for f in files:
        if not f.endswith(".h") or "nvidia_detail" in f or "nvcc_detail" in f:
            continue
        text = subprocess.check_output(["git", "--git-dir", gitdir, "show", tag + ":" + f], text=True, errors="replace")
        out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)))
    return out


def release_identifiers(args):
    """[(release, identifiers)] for the HIP releases after the installed one."""
    out = []
    for tag in RELEASE_TAGS:
        ids = git_identifiers(args.hip_git, tag, "include/hip")
        if args.hipamd_git:
            ids |= git_identifiers(args.hipamd_git, tag, "include/hip")
        if args.clr_git:
            ids |= git_identifiers(args.clr_git, tag, "hipamd/include/hip")
        rel = HEAD_RELEASE if tag == "HEAD" else version(tag[len("rocm-"):])
        out.append((rel, ids))
    return out


def check_installed(entry, idents, release, later):
    """Corrects the lower bound of an entry whose HIP name the installed HIP
    headers (ROCm `release`) lack, or that the docs date earlier than the
    first release declaring it (later: release_identifiers or None)."""
    cuda, hip, status, rng, note = entry
    if status == "unsupported" or hip == "=":
        return entry
    lo = version(rng) if rng and not rng.startswith("..") else None
    if (not lo or lo <= release) and hip in idents:
        return entry
    if later is None:
        if lo and lo > release:
            return entry
        first, extra = (release[0], release[1] + 1), \
            "absent from ROCm %d.%d headers; first release not recorded" % release
    else:
        first = next((r for r, ids in later if hip in ids), None)
        if first is None:
            extra = "HIPIFY maps it to %s, which neither ROCm 5.3-6.2 nor HIP's sources of Oct 2024 declare" % hip
            return cuda, "-", "unsupported", "", (note + "; " + extra) if note else extra
        if lo and lo >= first:
            return entry
        extra = "first declared in ROCm %d.%d" % first if first != HEAD_RELEASE else \
            "first declared in HIP's sources after ROCm 6.2"
    hi = rng.split("..", 1)[1] if rng else ""
    rng = "%d.%d..%s" % (first[0], first[1], hi)
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


# Libraries whose HIP API changed names between releases (hipBLAS's _v2
# functions and hipDataType in ROCm 6.0, ...). In the runtime and driver
# tables a changed mapping is a correction, not a new release, so older
# mappings are not kept there.
VERSIONED_LIBRARIES = {"cublas", "cublaslt", "cusparse", "cusolver", "curand", "cufft"}


def lower_bound(rng):
    return version(rng) if rng and not rng.startswith("..") else None


def add_older(args, families, owner, skip, idents, release, later):
    """Adds, for names whose current HIP name starts at a later release,
    the mapping an older snapshot of the tables gives, bounded above by that
    release."""
    old_commit = subprocess.check_output(
        ["git", "--git-dir", args.git_dir, "rev-parse", args.old_rev], text=True).strip()
    current = {}
    for fam, entries in families.items():
        for e in entries:
            current[e[0]] = (fam, e)
    added = 0
    for doc, default in DOCS:
        try:
            text = subprocess.check_output(
                ["git", "--git-dir", args.git_dir, "show", "%s:docs/tables/%s" % (old_commit, doc)],
                text=True, stderr=subprocess.DEVNULL)
        except subprocess.CalledProcessError:
            continue
        for section, cells in rows(text):
            cuda = cells[0]
            if cuda in skip or cuda not in current:
                continue
            fam, new = current[cuda]
            if fam not in VERSIONED_LIBRARIES:
                continue
            old = entry(cells)
            if old[2] == "unsupported" or old[1] in ("=", new[1]) or new[2] == "unsupported":
                continue
            lo_new = lower_bound(new[3])
            if not lo_new:
                continue
            lo_old = lower_bound(old[3])
            if lo_old and lo_old >= lo_new:
                continue
            rng = ("%d.%d" % lo_old if lo_old else "") + "..%d.%d" % lo_new
            note = "before ROCm %d.%d; tables of commit %s" % (lo_new + (old_commit[:12],))
            if new[1] == old[1] + "_v2" and "Ex" in old[1]:
                note = "takes hipblasDatatype_t, not hipDataType, for its type arguments; " + note
            elif new[1] == old[1] + "_v2":
                note = "takes hipblasComplex/hipblasDoubleComplex, not hipComplex: cast the pointers; " + note
            if old[4]:
                note = old[4] + "; " + note
            e = (cuda, old[1], old[2], rng, note)
            if idents is not None and fam in RUNTIME_HEADER_FAMILIES:
                e = check_installed(e, idents, release, later)
                if lower_bound(e[3]) and lower_bound(e[3]) >= lo_new:
                    continue
            families[fam].append(e)
            added += 1
    print("older mappings added: %d" % added, file=sys.stderr)


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
    ap.add_argument("--hip-git", metavar="DIR",
                    help="ROCm/HIP git directory: dates the runtime, driver and device names the "
                         "installed headers lack by the first release tag that declares them")
    ap.add_argument("--hipamd-git", metavar="DIR", help="ROCm/hipamd git directory (releases up to 5.6)")
    ap.add_argument("--clr-git", metavar="DIR", help="ROCm/clr git directory (releases from 5.6)")
    ap.add_argument("--old-rev", metavar="REV",
                    help="an older commit of the tables: where a CUDA name now maps to a HIP name that "
                         "first shipped in a later release, the older mapping is kept for the releases "
                         "before it (e.g. hipblasCgemm before hipblasCgemm_v2 in ROCm 6.0)")
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
    later = release_identifiers(args) if args.hip_git and idents is not None else None
    for text, default, where in sources:
        for section, cells in rows(text):
            fam = family_of(default, section, cells[0])
            e = entry(cells)
            if idents is not None and fam in RUNTIME_HEADER_FAMILIES:
                e = check_installed(e, idents, release, later)
            if e[0] in skip:
                continue
            if e[0] in owner:
                # The same CUDA name appears in two documents (for example
                # cudaDataType in runtime and cuBLAS): keep the first owner.
                continue
            owner[e[0]] = fam
            origin[fam] = where
            families.setdefault(fam, []).append(e)
    if args.old_rev:
        add_older(args, families, owner, skip, idents, release, later)
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
