#!/usr/bin/env bash
# Installs what `make serve` and `make test` need, and nothing that is
# already there. Safe to run again: with everything installed it only checks
# versions (a few seconds).
#
#   scripts/setup.sh            build tools: wasm32 target, wasm-bindgen-cli,
#                               trunk, wasm-opt, the minifiers, crates for
#                               offline builds
#   scripts/setup.sh --browser  the above plus Chromium, chromedriver and the
#                               end-to-end suite's npm packages
#   scripts/setup.sh --bench    --browser plus hyperfine (make bench times
#                               whole commands with it)
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
TERSER_VERSION=5.51.4
CSSO_VERSION=5.0.5
TOOLS=.tools

say() { printf 'setup: %s\n' "$*"; }
fail() { printf 'setup: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "'$1' is not on PATH. $2"; }

need cargo "Install Rust with rustup (https://rustup.rs), then open a new shell."
need rustup "patchlab needs rustup to add the wasm32 target (https://rustup.rs)."
need npm "Install Node.js 20 or newer with npm (Debian: apt-get install nodejs npm)."

# Cargo.lock pins wasm-bindgen; the CLI must be the very same version.
wasm_bindgen_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[[ -n "$wasm_bindgen_version" ]] || fail "could not read the wasm-bindgen version from Cargo.lock"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wasm_bindgen_version"; then
  say "installing wasm-bindgen-cli $wasm_bindgen_version (about 2 minutes)"
  # No --locked: its lock file names a crate version the registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$wasm_bindgen_version"
fi

if ! trunk --version 2>/dev/null | grep -qx "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 5 minutes, 2 GB of RAM)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# Debian's binaryen is too old for Rust 1.95 output; use npm's, kept local.
if ! "$TOOLS/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing wasm-opt (npm binaryen@$BINARYEN_VERSION) into $TOOLS/"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN_VERSION"
fi

# The release build's minifiers (scripts/minify.mjs), kept local too.
version_of() { node -p "require('./$TOOLS/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [[ "$(version_of terser)" != "$TERSER_VERSION" || "$(version_of csso)" != "$CSSO_VERSION" ]]; then
  say "installing the minifiers (npm terser@$TERSER_VERSION, csso@$CSSO_VERSION) into $TOOLS/"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "terser@$TERSER_VERSION" "csso@$CSSO_VERSION"
fi

# Trunk builds offline; make sure every crate is already downloaded.
cargo fetch --quiet

if [[ "${1:-}" == "--browser" || "${1:-}" == "--bench" ]]; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      say "installing Chromium and chromedriver with apt-get"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
    else
      fail "Chromium and chromedriver are needed for the browser and end-to-end tests.
  Debian/Ubuntu: sudo apt-get install chromium chromium-driver
  Elsewhere: install Chromium and a matching chromedriver and put both on PATH
  (or set CHROMIUM=/path/to/chromium and CHROMEDRIVER=/path/to/chromedriver)."
    fi
  fi
  if [[ ! -f tests/e2e/node_modules/.package-lock.json ]] \
    || [[ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]]; then
    say "installing the end-to-end suite's npm packages"
    npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
  fi
fi

# Go, for the differential tests that build Go programs (the Go exports,
# structured-merge-diff): installed where apt-get can, skipped loudly by
# those tests elsewhere.
if [[ "${1:-}" == "--browser" || "${1:-}" == "--bench" ]] && ! command -v go >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing Go with apt-get (for the differential tests)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends golang-go >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends golang-go >/dev/null; } \
      || say "NOTICE: Go could not be installed; the Go differential tests will be skipped"
  else
    say "NOTICE: Go is not installed; the Go differential tests will be skipped (Debian: apt-get install golang-go)"
  fi
fi

if [[ "${1:-}" == "--bench" ]] && ! command -v hyperfine >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing hyperfine with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends hyperfine >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends hyperfine >/dev/null; }
  else
    fail "hyperfine is needed for make bench (batch apply and SMP rows).
  Debian/Ubuntu: sudo apt-get install hyperfine
  Elsewhere: cargo install hyperfine"
  fi
fi
