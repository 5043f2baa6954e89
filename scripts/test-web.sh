#!/usr/bin/env bash
# The web tests: builds the site (wasm module + page), installs playwright-core and axe-core (npm, locked),
# then runs tests/web with node's test runner: the wasm module against the native CLI, and
# end-to-end tests in Debian's headless Chromium against the bundle (dist/) served on loopback.
# Screenshots land in test-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh  # quick when everything is there
bash scripts/build-site.sh
# The numbers test compares with the native CLI.
bash scripts/build-native.sh  # incremental; a stale CLI would fail the numbers test
# The locked npm packages (esbuild, playwright-core, axe-core) come with scripts/setup.sh.
mkdir -p test-artifacts
# The static bundle and its size report (docs/size.md): every file's raw, gzip and brotli size,
# and what each page loads before its first frame, which fails the tests over its budget.
node scripts/build-dist.mjs
node scripts/size-report.mjs dist --check | tee test-artifacts/size-report.md
# The browser tests serve dist/, what ships (tests/web/helpers.mjs; STEPWISE_SITE=build/site serves
# the unbundled site instead); the tests that run the modules in node read build/site.
node --test --test-concurrency=1 tests/web/
