#!/usr/bin/env bash
# The ensemble comparison in WebAssembly (docs/benchmarks.md, "Ensembles"): builds the portable
# native benchmark (build/bench/stepwise_compare) and a wasm driver of the same physics
# (bench/ensemble_compare_wasm.cpp with the core, em++ -O3 -msimd128 -ffp-contract=off), then runs
# them back to back SESSIONS times (default 3): the native benchmark, then node timing the wasm
# Ensemble, the wasm limit loops and plain JavaScript loops in one process. Prints the summary
# (wasm against the native run made just before it, per integrator; wasm against JavaScript);
# every run's own table is kept in build/bench-wasm/runs/.
#   SESSIONS=5 ROUNDS=9 bash scripts/bench-wasm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${SESSIONS:-3}
rounds=${ROUNDS:-7}
# Debian's Emscripten 3.1.6 needs Debian's acorn (see scripts/build-site.sh).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/bench -j2 --target stepwise_compare

# The core through the project's own CMake (Release: -O3; -ffp-contract=off; glm exposed through a
# folder holding only a glm link, never /usr/include), with wasm SIMD.
emcmake cmake -S . -B build/bench-wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-msimd128 \
  "-DCMAKE_CROSSCOMPILING_EMULATOR=node;--no-experimental-fetch" >/dev/null
cmake --build build/bench-wasm -j2 --target stepwise_core
em++ -std=c++20 -O3 -msimd128 -ffp-contract=off -fno-fast-math -fno-math-errno -DNDEBUG \
  -Icore -isystem build/bench-wasm/glm-include \
  bench/ensemble_compare_wasm.cpp build/bench-wasm/libstepwise_core.a \
  -o build/bench-wasm/ensemble_compare.js \
  -sMODULARIZE=1 -sENVIRONMENT=node -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1 \
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString

runs=build/bench-wasm/runs
rm -rf "$runs"
mkdir -p "$runs"
files=()
for s in $(seq 1 "$sessions"); do
  echo "session $s of $sessions: native (portable), then wasm"
  build/bench/stepwise_compare --rounds="$rounds" --json="$runs/native-$s.json" >"$runs/native-$s.txt"
  node --no-experimental-fetch --no-liftoff bench/ensemble_compare_wasm.mjs build/bench-wasm/ensemble_compare.js \
    --rounds="$rounds" --json="$runs/wasm-$s.json" >"$runs/wasm-$s.txt"
  files+=("$runs/native-$s.json" "$runs/wasm-$s.json")
done
echo
node bench/ensemble_compare_wasm.mjs --summary "${files[@]}"
echo
echo "each run's table and correctness check: $runs/{native,wasm}-N.txt"
