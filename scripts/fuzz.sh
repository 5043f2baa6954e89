#!/usr/bin/env bash
# The libFuzzer targets (fuzz/, docs/fuzzing.md): builds them with clang into build/fuzz, then
# runs each for SECONDS (default 20) from the seed corpus in fuzz/corpus/. Exits non-zero on any
# finding (crash, sanitizer report, failed check, leak, timeout, out of memory) and prints where
# the reproducer is.
#   scripts/fuzz.sh [SECONDS]               every target, side by side
#   scripts/fuzz.sh SECONDS TARGET          one target: config, simulation or expression
#   scripts/fuzz.sh coverage [TARGET]       line coverage of the core over the corpora (build/fuzz-coverage)
# FUZZ_ARGS adds libFuzzer options (e.g. FUZZ_ARGS=-runs=100000 for a count instead of a time).
# New inputs a run finds stay in build/fuzz/corpus/TARGET for the next run; FUZZ_FRESH=1 starts
# from the committed seeds alone (the test command does: libFuzzer first runs every input of its
# corpus, so a grown corpus would make the run longer than SECONDS).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

CXX_FUZZ=${CXX_FUZZ:-clang++-14}
command -v "$CXX_FUZZ" >/dev/null || CXX_FUZZ=clang++
command -v "$CXX_FUZZ" >/dev/null || { echo "fuzz: clang++ not found (scripts/setup.sh installs it)" >&2; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# The time limit per input (a finding when exceeded). The parser takes microseconds. A simulation
# input ends after 200 steps or 250,000 units of work (lanes and reference; core/work.hpp), well
# under a second under the sanitizers (fuzz/fuzz_simulation.cpp, docs/fuzzing.md); 30 s leaves room
# for a loaded machine, and only work without a bound (a reference that never finishes its step)
# goes past it.
timeout_config=5
timeout_simulation=30
timeout_expression=5

build() {  # build DIR [extra cmake args]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DSTEPWISE_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$CXX_FUZZ" \
    "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j2
}

if [ "${1:-}" = coverage ]; then
  targets=(${2:-config simulation expression})
  llvm_profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata)
  llvm_cov=$(command -v llvm-cov-14 || command -v llvm-cov)
  build build/fuzz-coverage -DSTEPWISE_FUZZ_COVERAGE=ON
  for t in "${targets[@]}"; do
    dirs=("fuzz/corpus/$t")
    [ -d "build/fuzz/corpus/$t" ] && dirs+=("build/fuzz/corpus/$t")
    rm -f build/fuzz-coverage/"$t"-*.profraw
    # -runs=0: run every corpus input once, fuzz nothing.
    LLVM_PROFILE_FILE="build/fuzz-coverage/$t-%p.profraw" build/fuzz-coverage/fuzz/fuzz_"$t" -runs=0 \
      -timeout=60 "${dirs[@]}" >build/fuzz-coverage/"$t".log 2>&1 ||
      echo "fuzz: an input of the corpus fails (build/fuzz-coverage/$t.log): the coverage stops there" >&2
    "$llvm_profdata" merge -sparse build/fuzz-coverage/"$t"-*.profraw -o build/fuzz-coverage/"$t".profdata
    echo "== fuzz_$t over ${dirs[*]}: line coverage"
    "$llvm_cov" report build/fuzz-coverage/fuzz/fuzz_"$t" -instr-profile=build/fuzz-coverage/"$t".profdata \
      -ignore-filename-regex='/(fuzz|tests)/[^/]+$|^/usr/|\.hpp$'
  done
  exit 0
fi

seconds=${1:-20}
targets=(${2:-config simulation expression})
case "$seconds" in '' | *[!0-9]*) echo "fuzz: SECONDS must be a whole number; got '$seconds'" >&2; exit 2 ;; esac
for t in "${targets[@]}"; do
  case "$t" in config | simulation | expression) ;; *) echo "fuzz: unknown target '$t' (config, simulation or expression)" >&2; exit 2 ;; esac
done
build build/fuzz

stamp=$(date +%Y%m%d-%H%M%S)
fuzz_one() {  # fuzz_one TARGET: runs it, leaves its exit status in build/fuzz/TARGET.status
  local t=$1 rc=0
  local timeout_var=timeout_$t
  [ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "build/fuzz/corpus/$t"
  mkdir -p "build/fuzz/corpus/$t" "build/fuzz/findings/$t-$stamp"
  # New inputs go to build/fuzz/corpus/TARGET; the seeds stay as committed.
  # -max_len: a link is at most 64 pairs of 1024-character values, an expression 256 characters;
  # longer inputs only test the length cap, which short ones reach too.
  local dict=fuzz/config.dict max_len=4096
  [ "$t" = expression ] && dict=fuzz/expression.dict max_len=512
  build/fuzz/fuzz/fuzz_"$t" "build/fuzz/corpus/$t" "fuzz/corpus/$t" -dict="$dict" \
    -max_total_time="$seconds" -timeout="${!timeout_var}" -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="build/fuzz/findings/$t-$stamp/" -print_final_stats=1 ${FUZZ_ARGS:-} >"build/fuzz/$t.log" 2>&1 || rc=$?
  echo $rc >"build/fuzz/$t.status"
}

# The targets run side by side (one process each), so the test command's run takes SECONDS, not
# three times that.
echo "== ${targets[*]}: ${seconds} s each (logs: build/fuzz/TARGET.log)"
for t in "${targets[@]}"; do fuzz_one "$t" & done
wait

status=0
for t in "${targets[@]}"; do
  log=build/fuzz/$t.log
  findings=build/fuzz/findings/$t-$stamp
  if [ "$(cat "build/fuzz/$t.status")" = 0 ]; then
    rmdir "$findings" 2>/dev/null || true
    echo "fuzz_$t: nothing found. $(grep -a -E '^#[0-9]+.*DONE' "$log" | tail -1)"
  else
    status=1
    echo "fuzz_$t FOUND SOMETHING (exit status $(cat "build/fuzz/$t.status")). Its report:"
    grep -a -E '^==== |ERROR: |runtime error|SUMMARY|Test unit written to' "$log" | cut -c1-400 | head -20 || true
    for f in "$findings"/*; do
      [ -e "$f" ] || continue
      echo "  reproducer: $f"
      echo "    run it:   build/fuzz/fuzz/fuzz_$t $f"
    done
    echo "  full log: $log"
  fi
done
exit $status
