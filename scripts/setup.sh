#!/usr/bin/env bash
# Installs everything Stepwise needs on a fresh Debian bookworm machine (idempotent).
set -euo pipefail
need=()
# libboost-dev: Boost.Odeint for the ensemble comparison benchmark only (bench/ensemble_compare.cpp);
# the core never includes Boost.
# clang + libclang-rt-14-dev: the libFuzzer targets (fuzz/, scripts/fuzz.sh) with ASan and UBSan.
# locales: a comma-decimal locale (de_DE.UTF-8) for the test that numbers never depend on it.
# mono-mcs + mono-runtime: the C# step snippets (snippets/cs/) are compiled and run against the
# core (tests/snippets/); without them that test is skipped, saying so.
for pkg in cmake g++ make emscripten catch2 libglm-dev libbenchmark-dev libboost-dev chromium nodejs python3 \
    clang libclang-rt-14-dev locales mono-mcs mono-runtime; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
# nodejs/npm may come from elsewhere (the machine's node 20): only ask apt for them when missing.
if command -v node >/dev/null 2>&1; then need=("${need[@]/nodejs}"); fi
if command -v python3 >/dev/null 2>&1; then need=("${need[@]/python3}"); fi
if command -v cmake >/dev/null 2>&1; then need=("${need[@]/cmake}"); fi
if command -v g++ >/dev/null 2>&1; then need=("${need[@]/g++}"); fi
pkgs=()
for p in "${need[@]}"; do [ -n "$p" ] && pkgs+=("$p"); done
if [ ${#pkgs[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${pkgs[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${pkgs[@]}"
fi
if ! command -v npm >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q npm
fi
# The comma-decimal locale the locale test switches to (generated once).
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO sed -i 's/^# *\(de_DE.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' | $SUDO tee -a /etc/locale.gen >/dev/null
  $SUDO locale-gen >/dev/null
fi
# The locked npm packages (package-lock.json): esbuild bundles dist/ (scripts/build-dist.mjs, the
# main job and the tests), playwright-core and axe-core drive the web tests. Installed when one is
# missing.
cd "$(dirname "$0")/.."
for dep in $(node -e "console.log(Object.keys(require('./package.json').devDependencies).join(' '))"); do
  if [ ! -f "node_modules/$dep/package.json" ]; then
    npm ci --no-audit --no-fund
    break
  fi
done
