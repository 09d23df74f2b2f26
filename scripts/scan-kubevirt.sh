#!/usr/bin/env bash
# Runs `patchlab scan` on a KubeVirt checkout's pkg/ and prints the findings (notes
# included), the findings by rule, the payload count and the run time. Not part of
# `make test`: it needs a KubeVirt source tree, which this repository never holds.
#
#   scripts/scan-kubevirt.sh /path/to/kubevirt          # a checkout (git or not)
#   scripts/scan-kubevirt.sh /path/to/kubevirt --include-tests --include-vendor
#
# Results for the commit scanned last are in docs/scan.md.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1/pkg" ]; then
  echo "usage: $0 KUBEVIRT_DIR [scan flags...]   (KUBEVIRT_DIR must hold pkg/)" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --bin patchlab --manifest-path "$here/Cargo.toml"
bin="$here/target/release/patchlab"
if git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
  echo "kubevirt commit: $(git -C "$src" rev-parse HEAD)"
fi
echo "machine: $(nproc) cores"
cd "$src"
start=$(date +%s.%N)
set +e
"$bin" scan pkg --min-severity note "$@"
code=$?
set -e
end=$(date +%s.%N)
echo
echo "findings by rule:"
"$bin" scan pkg --min-severity note --format json "$@" | python3 -c '
import json, sys, collections
r = json.load(sys.stdin)
by = collections.Counter((f["severity"], f["rule"]) for f in r["findings"])
for (sev, rule), n in sorted(by.items()):
    print("  %-8s %-26s %d" % (sev, rule, n))
print("  %d findings, %d payloads, %d files, %.1f MB" % (len(r["findings"]), len(r["payloads"]), r["files"], r["bytes"] / 1e6))
'
printf 'wall time: %.2f s (exit %d)\n' "$(echo "$end - $start" | bc)" "$code"
