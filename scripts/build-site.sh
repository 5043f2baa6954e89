#!/usr/bin/env bash
# Builds the page's two WebAssembly modules (emcmake, build/wasm; wasm_bindings/CMakeLists.txt) and
# assembles the complete static site in build/site: public/ at the root (index.html also as
# embed.html), web/ as web/, the motion module's loader (stepwise.js) and its variants
# (stepwise.wasm, stepwise-links.wasm, …: scripts/motion-variants.mjs) and the full module
# (stepwise-full.js + stepwise-full.wasm, loaded on demand).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's Emscripten 3.1.6 needs Debian's acorn (see docs/toolchain.md).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# STEPWISE_WASM_DIR=dir: take both modules from dir instead of building them (for
# work on the page alone, against a module built from the same core).
wasm_dir=${STEPWISE_WASM_DIR:-build/wasm}
if [ -z "${STEPWISE_WASM_DIR:-}" ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=node;--no-experimental-fetch" >/dev/null
  cmake --build build/wasm -j2 --target stepwise_motion_variants stepwise_wasm_full
fi
rm -rf build/site
mkdir -p build/site
cp -R public/. build/site/
# The embed page is the main page under another name: web/app/mode.js reads the name (and the
# ?ui=/&autoplay= options) and lays it out for an iframe. One page, never two copies to keep in sync.
cp public/index.html build/site/embed.html
cp -R web build/site/web
# The step snippets as a module the Step code dialog loads on demand (generated: snippets/ is the source).
node scripts/snippets-module.mjs build/site/web/panels/snippets-data.js
cp "$wasm_dir/stepwise.js" "$wasm_dir/stepwise-full.js" "$wasm_dir/stepwise-full.wasm" build/site/
# The motion module's variants (one loader starts them all) and the pages' table of them.
node scripts/motion-variants.mjs build/site "$wasm_dir"
echo "site: $(pwd)/build/site"
