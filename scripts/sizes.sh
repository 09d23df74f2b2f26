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
# What a first visit to Build fetches before the editors take input: the
# page, its boot script, the page module (glue and wasm), the style sheet and
# the icon (not the other modules, the engines, the Scale worker, the
# service worker or the embed).
first_raw=0
first_gz=0
while IFS= read -r -d '' file; do
  first_raw=$((first_raw + $(wc -c <"$file")))
  first_gz=$((first_gz + $(gzip -9 -c "$file" | wc -c)))
done < <(find "$dir" -maxdepth 1 -type f \( -name 'index.html' -o -name 'boot-*.js' -o -name 'route-*.js' -o -name 'page-*' -o -name 'style-*.css' -o -name 'favicon-*' \) -print0)
printf '%-48s %10d %10d  (%d KiB gzip before the editors are live; goal 250 KiB)\n' "first load" "$first_raw" "$first_gz" $(((first_gz + 1023) / 1024))
engine_gz=0
while IFS= read -r -d '' file; do
  engine_gz=$((engine_gz + $(gzip -9 -c "$file" | wc -c)))
done < <(find "$dir" -maxdepth 1 -type f \( -name 'engine-worker*' -o -name 'engine-page.js' \) -print0)
printf '%-48s %10s %10d  (fetched once the page module runs and the page is idle; one module for the worker and the page)\n' "engines (engine-worker*, engine-page.js)" "" "$engine_gz"
# A first visit to another view fetches the page, the boot and route
# scripts, the style sheet and the icon, and that view's module in place of
# the page module.
shell_gz=$((first_gz - $(gzip -9 -c "$dir"/page-*_bg.wasm | wc -c) - $(gzip -9 -c "$dir"/page-*[0-9a-f].js | wc -c)))
for module in learn scale race check; do
  module_gz=0
  while IFS= read -r -d '' file; do
    module_gz=$((module_gz + $(gzip -9 -c "$file" | wc -c)))
  done < <(find "$dir" -maxdepth 1 -type f \( -name "$module.js" -o -name "${module}_*" \) -print0)
  printf '%-48s %10s %10d  (a first visit to %s: %d KiB gzip with the page and style; goal 400 KiB)\n' "$module module ($module.js, ${module}_*)" "" "$module_gz" "$module" $(((module_gz + shell_gz + 1023) / 1024))
done
