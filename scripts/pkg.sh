#!/usr/bin/env bash
# Builds the JavaScript package into pkg/ (or $1): the core compiled with the
# `js` feature as a cdylib, wasm-bindgen --target web (an ES module), wasm-opt,
# plus package.json and README.md from js/. Run by `make pkg` after set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-pkg}
wasm=target/wasm32-unknown-unknown/pkg/patchlab.wasm

# Profile `pkg` (release settings) keeps its output apart from the
# playground's patchlab.wasm.
cargo rustc --quiet --lib --crate-type cdylib --profile pkg --features js --target wasm32-unknown-unknown
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --out-dir "$out" --out-name patchlab "$wasm"
wasm-opt -Oz "$out/patchlab_bg.wasm" -o "$out/patchlab_bg.wasm"
# Options arguments may be left out (the Rust side takes Option<JsValue>);
# wasm-bindgen's typed override drops the `?`.
sed -i 's/\boptions: \([A-Za-z]*Options\))/options?: \1)/' "$out/patchlab.d.ts"
grep -q 'options?: ApplyOptions' "$out/patchlab.d.ts" || { echo "pkg: could not mark options optional in patchlab.d.ts" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
sed "s/@VERSION@/$version/" js/package.json > "$out/package.json"
cp js/README.md "$out/README.md"
raw=$(wc -c < "$out/patchlab_bg.wasm")
gz=$(gzip -9c "$out/patchlab_bg.wasm" | wc -c)
echo "pkg: $out/ (patchlab $version; wasm $raw bytes, $gz gzip)"
