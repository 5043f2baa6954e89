#!/usr/bin/env bash
# The main job: installs what is missing (scripts/setup.sh), builds the site and its static bundle
# (dist/: hashed names, precompressed copies, the offline service worker; docs/hosting.md) and
# serves the bundle as a static host would on http://127.0.0.1:8080 (loopback only), printing
# the URL; Ctrl-C stops it.
# PORT=9000 serves on another port; SKIP_SETUP=1 skips the install check.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh
bash scripts/build-site.sh
node scripts/build-dist.mjs
exec node scripts/serve.mjs dist "${PORT:-8080}"
