#!/usr/bin/env bash
# Installs the Debian 12 packages hipgen's example and test suite need.
# As root it runs apt-get; otherwise it prints what to install and fails.
# Usage: scripts/install-deps.sh [--check]
set -euo pipefail

# hipRAND and hipSPARSE are the ROCm libraries Debian packages beyond HIP's
# runtime: translations of cuRAND and cuSPARSE code compile against them
# (libhiprand-dev includes rocRAND's headers without depending on
# librocrand-dev, so that is named too).
pkgs=(hipcc libamdhip64-dev rocm-device-libs cmake nvidia-cuda-toolkit python3 python3-setuptools g++ libtbb-dev
  libhiprand-dev librocrand-dev libhipsparse-dev)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ! command -v go >/dev/null 2>&1 && [ ! -x /usr/local/go/bin/go ]; then
  echo "install-deps: Go 1.26 or newer is required and was not found on PATH." >&2
  echo "install-deps: install it from the Go distribution (https://go.dev/dl/) into /usr/local/go." >&2
  exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "install-deps: missing Debian packages: ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing Debian packages: ${missing[*]}" >&2
  echo "install-deps: run as root, or install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  echo "  (nvidia-cuda-toolkit needs the non-free component in /etc/apt/sources.list.d/debian.sources)" >&2
  exit 1
fi

# nvidia-cuda-toolkit lives in Debian's non-free component.
enable_nonfree() {
  local f=/etc/apt/sources.list.d/debian.sources
  if [ -f "$f" ]; then
    if ! grep -Eq '^Components:.*non-free( |$)' "$f"; then
      sed -i -E 's/^Components: main$/Components: main contrib non-free non-free-firmware/' "$f"
    fi
  elif [ -f /etc/apt/sources.list ]; then
    if ! grep -Eq '^deb .* non-free( |$)' /etc/apt/sources.list; then
      sed -i -E 's/^(deb .* main)$/\1 contrib non-free non-free-firmware/' /etc/apt/sources.list
    fi
  fi
}
enable_nonfree
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
