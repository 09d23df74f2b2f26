#!/usr/bin/env bash
# Prints the raw and gzip size of each wasm, js and css file of the playground
# in a build (the embed package in pkg/ is reported by scripts/pkg.sh).
set -euo pipefail
dir=${1:-dist}
printf '%-48s %10s %10s\n' file raw gzip
total_raw=0
total_gz=0
while IFS= read -r -d '' file; do
  raw=$(wc -c <"$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  printf '%-48s %10d %10d\n' "${file#"$dir"/}" "$raw" "$gz"
done < <(find "$dir" -type f -not -path "$dir/pkg/*" \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) -print0 | sort -z)
printf '%-48s %10d %10d\n' total "$total_raw" "$total_gz"
