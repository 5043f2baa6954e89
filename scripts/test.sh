#!/usr/bin/env bash
# The README's test command: installs everything, builds, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-native.sh
(cd build/native && ctest --output-on-failure -j2)
# The libFuzzer targets (docs/fuzzing.md) for a short fixed time each, from the committed seeds:
# any finding fails the run.
FUZZ_FRESH=1 bash scripts/fuzz.sh 20
if [ -f scripts/test-web.sh ]; then bash scripts/test-web.sh; fi
