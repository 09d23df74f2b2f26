#!/usr/bin/env bash
# Validates `patchlab scan` SARIF with Microsoft's SARIF multitool (npm package
# @microsoft/sarif-multitool, a self-contained Linux build; it ships the SARIF 2.1.0
# schema and the SARIF validation rules). Installs it into .tools/ once, then validates
# the scan of tests/scan (or the SARIF files given). `cargo test --test scan` also runs
# it when it is installed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/.tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ ! -x "$tool" ]; then
  mkdir -p "$here/.tools"
  (cd "$here/.tools" && npm install --no-audit --no-fund --silent @microsoft/sarif-multitool@5.7.0)
  chmod u+x "$tool"
fi
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  cargo build --release --quiet --bin patchlab --manifest-path "$here/Cargo.toml"
  out=$(mktemp --suffix=.sarif)
  (cd "$here" && target/release/patchlab scan tests/scan --min-severity note --format sarif >"$out" || true)
  files=("$out")
fi
status=0
for f in "${files[@]}"; do
  report=$(DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$tool" validate "$f")
  echo "$report"
  if grep -qE ': (error|warning) ' <<<"$report"; then
    status=1
  fi
done
exit $status
