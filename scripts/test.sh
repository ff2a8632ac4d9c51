#!/usr/bin/env bash
# Runs hipgen's whole test suite on a fresh Debian 12 machine: installs the
# Debian packages it needs (as root), checks formatting and vet, then runs
# every Go test, testscript and real-toolchain build.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export PATH="/usr/local/go/bin:$PATH"
# Debian's hipcc switches to the NVIDIA platform when nvcc is on PATH.
export HIP_PLATFORM=amd

echo "== gofmt"
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
  echo "gofmt: these files need formatting:" >&2
  echo "$unformatted" >&2
  exit 1
fi
echo "== go vet"
go vet ./...
echo "== go test"
go test -count=1 -timeout 80m ./...
