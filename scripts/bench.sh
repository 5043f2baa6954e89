#!/usr/bin/env bash
# Builds the native targets and runs the benchmark suite; extra arguments go to the benchmark,
# e.g. scripts/bench.sh --benchmark_filter=cloud --benchmark_format=json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-native.sh
if [[ ! -x build/native/stepwise_bench ]]; then
  echo "build/native/stepwise_bench was not built: is Google Benchmark installed (find_package(benchmark))?" >&2
  exit 1
fi
exec build/native/stepwise_bench "$@"
