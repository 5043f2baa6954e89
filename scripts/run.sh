#!/usr/bin/env bash
# The README's main command: installs everything, builds the native CLI and the site, shows
# the CLI on the article's damped spring, then serves the playground on http://127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-native.sh
echo "== stepwise run 'preset=damped_spring' --every 100 (t = 0, 1, ..., 10 s)"
build/native/stepwise run 'preset=damped_spring' --every 100
exec bash scripts/serve.sh
