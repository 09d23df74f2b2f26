#!/usr/bin/env bash
# Builds the JavaScript package into pkg/ (or $1): the core compiled with the
# `js` feature as a cdylib, wasm-bindgen --target web (an ES module), wasm-opt,
# then scripts/pkg.mjs: the wrapper js/patchlab.js as the entry point over the
# glue, the declarations, package.json, README.md (with the sizes of this
# build) and LICENSE. Run by `make pkg` after set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-pkg}
wasm=target/wasm32-unknown-unknown/pkg/patchlab.wasm

# Profile `pkg` (release settings) keeps its output apart from the
# playground's release builds.
cargo rustc --quiet --lib --crate-type cdylib --profile pkg --features js --target wasm32-unknown-unknown
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --out-dir "$out" --out-name patchlab "$wasm"
wasm-opt -Oz "$out/patchlab_bg.wasm" -o "$out/patchlab_bg.wasm"
node scripts/pkg.mjs "$out"
