#!/usr/bin/env python3
"""Check the cuRAND and cuSPARSE tables against the hipRAND and hipSPARSE
headers Debian 12 packages (ROCm 5.3.3): every entry whose HIP name the
table says exists in that release must be declared there.

    python3 bench/tables/check_debian_libs.py [--data sources/hipmap/data]

Downloads the -dev packages with `apt-get download` into a scratch
directory (nothing is installed) and exits 1 when a name is missing.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

PACKAGES = ["libhipsparse-dev", "libhiprand-dev", "librocrand-dev"]
FAMILIES = ["curand", "cusparse"]
RELEASE = (5, 3)


def version(s):
    m = re.match(r"^(\d+)\.(\d+)", s)
    return (int(m.group(1)), int(m.group(2))) if m else None


def available(rng):
    if not rng:
        return True
    lo, _, hi = rng.partition("..")
    return (not lo or version(lo) <= RELEASE) and (not hi or RELEASE < version(hi))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="sources/hipmap/data")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.check_call(["apt-get", "download"] + PACKAGES, cwd=tmp)
        root = os.path.join(tmp, "root")
        for deb in sorted(f for f in os.listdir(tmp) if f.endswith(".deb")):
            subprocess.check_call(["dpkg-deb", "-x", os.path.join(tmp, deb), root])
        idents = set()
        for d, _, files in os.walk(os.path.join(root, "usr", "include")):
            for f in files:
                with open(os.path.join(d, f), errors="replace") as fh:
                    idents.update(re.findall(r"[A-Za-z_]\w*", fh.read()))
    missing, checked = [], 0
    for name in sorted(os.listdir(args.data)):
        if not name.endswith(".tsv") or name.split(".")[0] not in FAMILIES:
            continue
        for line in open(os.path.join(args.data, name)):
            if line.startswith("#") or not line.strip():
                continue
            f = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
            if f[1] in ("-", "=") or f[2] == "unsupported" or not available(f[3]):
                continue
            checked += 1
            if f[1] not in idents:
                missing.append("%s: %s -> %s" % (name, f[0], f[1]))
    for m in missing:
        print("missing in ROCm %d.%d headers: %s" % (RELEASE + (m,)))
    print("%d entries available on ROCm %d.%d checked against %s; %d missing"
          % ((checked,) + RELEASE + (", ".join(PACKAGES), len(missing))))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
