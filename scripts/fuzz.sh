#!/usr/bin/env bash
# Builds the scenario-file and nccl-tests-log fuzzers with clang + libFuzzer + ASan and runs each
# for a bounded time. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DTRAINSCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-fuzz fuzz_scenario fuzz_nccllog
export ASAN_OPTIONS=detect_leaks=0   # Qt's global caches are not leaks of ours
for target in scenario nccllog; do
  corpus=build-fuzz/corpus-$target
  mkdir -p "$corpus"
  if [ "$target" = scenario ]; then cp resources/scenarios/*.json "$corpus"/; else cp tests/model/data/*.log "$corpus"/; fi
  artifacts=build-fuzz/artifacts-$target/
  mkdir -p "$artifacts"
  echo "fuzz_$target: ${seconds}s"
  # The fuzzer's own status decides (a crash or a timeout is a failure); the grep only trims output.
  set +e
  ./build-fuzz/tests/fuzz/fuzz_$target -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$artifacts" "$corpus" 2>&1 | grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written"
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "fuzz_$target found a failure (exit $status); the input is in $artifacts"; exit 1; }
done
echo "fuzzers passed"
