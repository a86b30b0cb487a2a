#!/usr/bin/env bash
# Sets everything up (Debian 12, as root), builds and runs every test.
#   scripts/test.sh             release build in build/
#   scripts/test.sh --sanitize  AddressSanitizer + UBSan build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p -m700 "/tmp/runtime-$(id -u)"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/runtime-$(id -u)}
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  bash scripts/build.sh "$build_dir" -DTRAINSCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build_dir=build
  bash scripts/build.sh "$build_dir"
fi
ctest --test-dir "$build_dir" --output-on-failure -j 2
