#!/usr/bin/env python3
"""Regenerate hipmap's CUB -> hipCUB and Thrust -> rocThrust tables:

  sources/hipmap/data/cub.names.tsv      cub::X -> hipcub::X
  sources/hipmap/data/cub.headers.tsv    cub/<path>.cuh -> hipcub/<path>.hpp
  sources/hipmap/data/thrust.headers.tsv thrust/system/cuda/<h> -> thrust/system/hip/<h>,
                                         and the thrust headers rocThrust keeps as they are

A name or header is listed only when it is public on both sides: declared at
namespace scope (outside nested namespaces such as detail) in the CUB or
Thrust headers that the CUDA toolkit installs, and in hipCUB's or rocThrust's
headers at some ROCm release tag. The first tag that has it becomes the
entry's lower ROCm bound. Nothing from either project is copied: both are
read from local git directories and only the names are recorded.

    python3 bench/tables/gen_cub_thrust_tables.py --cuda-include /usr/include \
        --hipcub-git /path/to/hipCUB/.git --rocthrust-git /path/to/rocThrust/.git \
        [--out sources/hipmap/data]
"""

import argparse
import os
import re
import subprocess

# ROCm release tags to scan, oldest first; "HEAD" stands for the release
# after the last tag.
TAGS = ["rocm-5.0.0", "rocm-5.1.0", "rocm-5.2.0", "rocm-5.3.0", "rocm-5.4.0", "rocm-5.5.0",
        "rocm-5.6.0", "rocm-5.7.0", "rocm-6.0.0", "rocm-6.1.0", "rocm-6.2.0", "HEAD"]
HEAD_RELEASE = "6.3"

KEYWORDS = set("""alignas alignof and asm auto bool break case catch char class const constexpr
const_cast continue decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not
nullptr operator or private protected public register reinterpret_cast return short signed
sizeof static static_assert static_cast struct switch template this throw true try typedef
typeid typename union unsigned using virtual void volatile while""".split())

TOKEN = re.compile(r"[A-Za-z_]\w*|::|[{}();,=<>*&\[\]]|\S")


def strip(text):
    text = re.sub(r"\\\n", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\])*'", "''", text)
    return "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("#"))


def top_level_names(text):
    """Names declared at the file's outermost namespace scope: the library
    namespace is opened by a macro (CUB_NAMESPACE_BEGIN,
    BEGIN_HIPCUB_NAMESPACE) or by `namespace cub {` / `namespace hipcub {`."""
    toks = TOKEN.findall(strip(text))
    names = set()
    stack = []  # "lib" for the library namespace, "ns" for nested ones, "{" otherwise
    paren = 0
    i = 0
    while i < len(toks):
        t = toks[i]
        top = all(s == "lib" for s in stack) and paren == 0
        if t == "namespace" and i + 2 < len(toks) and toks[i + 2] == "{":
            stack.append("lib" if toks[i + 1] in ("cub", "hipcub", "thrust") else "ns")
            i += 3
            continue
        if t == "{":
            stack.append("{")
        elif t == "}":
            if stack:
                stack.pop()
        elif t == "(":
            paren += 1
        elif t == ")":
            paren = max(0, paren - 1)
        elif top and t in ("struct", "class", "union") and i + 1 < len(toks):
            n = toks[i + 1]
            if re.match(r"^[A-Za-z]\w*$", n) and n not in KEYWORDS:
                names.add(n)
        elif top and t == "enum":
            j = i + 1
            if j < len(toks) and toks[j] in ("class", "struct"):
                j += 1
            if j < len(toks) and re.match(r"^[A-Za-z]\w*$", toks[j]):
                names.add(toks[j])
            while j < len(toks) and toks[j] not in ("{", ";"):
                j += 1
            if j < len(toks) and toks[j] == "{":
                depth, k, expect = 0, j, True
                while k < len(toks):
                    if toks[k] in ("{", "("):
                        depth += 1
                        expect = toks[k] == "{" and depth == 1
                    elif toks[k] in ("}", ")"):
                        depth -= 1
                        if depth == 0:
                            break
                    elif toks[k] == "," and depth == 1:
                        expect = True
                    elif expect and depth == 1 and re.match(r"^[A-Za-z]\w*$", toks[k]):
                        names.add(toks[k])
                        expect = False
                    else:
                        expect = False if depth == 1 else expect
                    k += 1
                i = k + 1
                continue
        elif top and t == "using" and i + 2 < len(toks) and toks[i + 2] == "=":
            names.add(toks[i + 1])
        elif top and re.match(r"^[A-Za-z]\w*$", t) and t not in KEYWORDS \
                and i + 1 < len(toks) and toks[i + 1] == "(" and i > 0 \
                and (re.match(r"^\w+$", toks[i - 1]) and toks[i - 1] not in ("return", "sizeof", "new", "case")
                     or toks[i - 1] in ("*", "&", ">")):
            names.add(t)
        i += 1
    return {n for n in names if not n.startswith("_") and len(n) > 1}


def git(gitdir, *args):
    return subprocess.check_output(["git", "--git-dir", gitdir] + list(args), text=True, errors="replace")


def tag_files(gitdir, tag, root):
    try:
        out = git(gitdir, "ls-tree", "-r", "--name-only", tag, root)
    except subprocess.CalledProcessError:
        return []
    return out.split()


def release(tag):
    return HEAD_RELEASE if tag == "HEAD" else tag[len("rocm-"):].rsplit(".", 1)[0]


def first_range(present):
    """present: tag -> bool, in TAGS order. Returns the ROCm range string of
    the first run of releases that have it."""
    first = next((t for t in TAGS if present.get(t)), None)
    if first is None:
        return None
    idx = TAGS.index(first)
    gone = next((t for t in TAGS[idx:] if not present.get(t)), None)
    lo = "" if idx == 0 else release(first)
    hi = release(gone) if gone else ""
    if not lo and not hi:
        return ""
    return lo + ".." + hi


def public(path):
    parts = path.split("/")
    return not any(p in ("detail", "agent", "backend_cub", "cub") for p in parts[:-1])


def cuda_cub(include):
    names, headers = set(), set()
    root = os.path.join(include, "cub")
    for d, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), include)
            if not f.endswith(".cuh") or "/detail/" in rel or "/agent/" in rel or "/host/" in rel:
                continue
            headers.add(rel)
            with open(os.path.join(d, f), errors="replace") as fh:
                names |= top_level_names(fh.read())
    return names, headers


def hipcub_at(gitdir, tag):
    names, headers = set(), set()
    for p in tag_files(gitdir, tag, "hipcub/include/hipcub"):
        if not p.endswith(".hpp"):
            continue
        rel = p[len("hipcub/include/"):]
        parts = rel.split("/")
        if "cub" in parts[1:-1] or "detail" in parts[1:-1]:
            continue  # the NVIDIA backend wraps CUB itself
        if not any(x in ("backend", "rocprim") for x in parts[1:-1]):
            headers.add(rel)
        names |= top_level_names(git(gitdir, "show", "%s:%s" % (tag, p)))
    return names, headers


def write(path, title, rows):
    with open(path, "w") as f:
        f.write(title)
        for r in sorted(rows):
            f.write("\t".join(r).rstrip("\t") + "\n")
    print("%s: %d entries" % (path, len(rows)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-include", default="/usr/include")
    ap.add_argument("--hipcub-git", required=True)
    ap.add_argument("--rocthrust-git", required=True)
    ap.add_argument("--out", default="sources/hipmap/data")
    args = ap.parse_args()

    cub_names, cub_headers = cuda_cub(args.cuda_include)
    per_tag = {t: hipcub_at(args.hipcub_git, t) for t in TAGS}
    rows = []
    for n in sorted(cub_names):
        rng = first_range({t: n in per_tag[t][0] for t in TAGS})
        if rng is not None:
            rows.append(("cub::" + n, "hipcub::" + n, "ok", rng))
    rows.append(("cub", "hipcub", "ok", "", "the namespace, in qualified names and using-directives"))
    head = "# %s. Generated by bench/tables/gen_cub_thrust_tables.py from the CUDA toolkit's\n" \
           "# headers and hipCUB's release tags (first tag with the name = lower bound).\n"
    write(os.path.join(args.out, "cub.names.tsv"), head % "cub::X -> hipcub::X", rows)
    rows = []
    for h in sorted(cub_headers):
        if h == "cub/cub.cuh":
            continue  # headers.tsv
        target = "hipcub/" + h[len("cub/"):-len(".cuh")] + ".hpp"
        rng = first_range({t: target in per_tag[t][1] for t in TAGS})
        if rng is not None:
            rows.append((h, target, "ok", rng))
    write(os.path.join(args.out, "cub.headers.tsv"), head % "CUB headers -> hipCUB headers", rows)

    # Thrust: rocThrust keeps thrust's include paths except for the CUDA system.
    cuda_thrust = set()
    for d, _, files in os.walk(os.path.join(args.cuda_include, "thrust")):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), args.cuda_include)
            if "/detail/" not in rel and f.endswith((".h", ".inl")) and not f.endswith(".inl"):
                cuda_thrust.add(rel)
    roc = {t: set(p for p in tag_files(args.rocthrust_git, t, "thrust") if "/detail/" not in p) for t in TAGS}
    rows = []
    for h in sorted(cuda_thrust):
        if h.startswith("thrust/system/cuda/"):
            target = "thrust/system/hip/" + h[len("thrust/system/cuda/"):]
            rng = first_range({t: target in roc[t] for t in TAGS})
            if rng is not None:
                rows.append((h, target, "ok", rng))
            else:
                rows.append((h, "-", "unsupported", "", "rocThrust has no HIP counterpart"))
            continue
        if h.startswith("thrust/system/") and not h.startswith(("thrust/system/cpp/", "thrust/system/omp/", "thrust/system/tbb/")) \
                and h.count("/") > 2:
            continue
        rng = first_range({t: h in roc[t] for t in TAGS})
        if rng is not None:
            rows.append((h, "=", "ok", rng))
        else:
            rows.append((h, "-", "unsupported", "", "not in rocThrust"))
    write(os.path.join(args.out, "thrust.headers.tsv"),
          "# Thrust headers under rocThrust. Generated by bench/tables/gen_cub_thrust_tables.py from\n"
          "# the CUDA toolkit's headers and rocThrust's release tags (\"=\": same path).\n", rows)


if __name__ == "__main__":
    main()
