#!/bin/sh
# Batch apply against the json-patch crate on the same lines: asserts the
# same answers (every line: the same `ok` document byte for byte, or an
# error on both sides), then times both with hyperfine.
#
#   scripts/batch-bench.sh [runs]     (after the release build below)
#
# Two sets (examples/batch_cases.rs): 100,000 VMI-sized cases (about 2 KB a
# line) and 300,000 small cases (about 450 bytes a line). On a busy machine
# single runs vary a lot: docs/performance.md also gives instruction counts.
set -eu
command -v hyperfine >/dev/null || {
    echo "batch-bench: hyperfine is missing (apt-get install hyperfine)" >&2
    exit 1
}
runs=${1:-5}
dir=${BATCH_BENCH_DIR:-target/batch-bench}
mkdir -p "$dir"
cargo build --release --bin patchlab --example json_patch_batch --example batch_cases
bin=target/release
[ -s "$dir/cases.jsonl" ] || "$bin/examples/batch_cases" 100000 > "$dir/cases.jsonl"
[ -s "$dir/small.jsonl" ] || "$bin/examples/batch_cases" 300000 small > "$dir/small.jsonl"
# An answer reduced to what both sides promise: the document, or "error".
answers() {
    awk '{ if (substr($0, 1, 6) == "{\"ok\":") print; else print "error" }'
}
for set in cases small; do
    "$bin/patchlab" apply --batch --semantics rfc < "$dir/$set.jsonl" | answers > "$dir/$set.patchlab"
    "$bin/examples/json_patch_batch" < "$dir/$set.jsonl" | answers > "$dir/$set.json-patch"
    if ! cmp -s "$dir/$set.patchlab" "$dir/$set.json-patch"; then
        echo "DIFFERENT ANSWERS on $set.jsonl:" >&2
        cmp "$dir/$set.patchlab" "$dir/$set.json-patch" >&2 || true
        exit 1
    fi
    echo "$set.jsonl: $(wc -l < "$dir/$set.patchlab") answers, the same on both sides ($(grep -c '^error$' "$dir/$set.patchlab") errors)"
    rm -f "$dir/$set.patchlab" "$dir/$set.json-patch"
    hyperfine --warmup 1 --runs "$runs" \
        -n patchlab "$bin/patchlab apply --batch --semantics rfc < $dir/$set.jsonl > /dev/null" \
        -n json-patch "$bin/examples/json_patch_batch < $dir/$set.jsonl > /dev/null"
done
