#!/usr/bin/env bash
# Runs hipgen's main job on the bundled example on a fresh Debian 12
# machine: installs what it needs (as root), builds hipgen, then in
# examples/vecadd shows the architectures, translates the CUDA sources to
# HIP, builds every target for every installed backend and runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export PATH="/usr/local/go/bin:$PATH"

# hipgen-jsonnet, beside hipgen, evaluates the manifest.
go build -o build/bin/ ./cmd/hipgen ./cmd/hipgen-jsonnet
hipgen="$PWD/build/bin/hipgen"
example="${1:-examples/vecadd}"
cd "$example"
set -x
"$hipgen" arch --explain
"$hipgen" translate --stats
"$hipgen" build
"$hipgen" test
