#!/usr/bin/env bash
# Installs what Trainscope needs on Debian 12 (run as root), skipping packages already present.
# Package list and pitfalls: shared/TOOLCHAIN.md.
set -euo pipefail
packages=(
  cmake ninja-build g++ make file dpkg-dev
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
  qt6-tools-dev qt6-l10n-tools libeigen3-dev
  xvfb xauth poppler-utils
  clang libclang-rt-14-dev desktop-file-utils appstream
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages: ${missing[*]} (run as root to install them)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
fi
