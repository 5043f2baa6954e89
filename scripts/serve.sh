#!/usr/bin/env bash
# Builds the site and serves it on http://127.0.0.1:8080 (loopback only); Ctrl-C stops it.
# PORT=9000 bash scripts/serve.sh serves on another port.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-site.sh
exec node scripts/serve.mjs build/site "${PORT:-8080}"
