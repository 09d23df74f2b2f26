// Minifies the playground's JavaScript and style for a release build (used
// by scripts/postbuild.mjs): terser for the wasm-bindgen glues and the boot
// and route scripts, csso for the style sheet, both installed into .tools/
// by scripts/setup.sh. Trunk's own minifier (minify-js) cannot read the page
// module's glue (an ES module with `export default`), and its HTML minifier
// rewrites the tags the postbuild edits, so the build does it here, after
// those edits. What it saves before the editors are live: about 3.8 KiB
// gzip (docs/performance.md, round 9).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../.tools/package.json', import.meta.url));

function load(name) {
  try {
    return require(name);
  } catch {
    throw new Error(`${name} is not installed in .tools/: run scripts/setup.sh (make setup)`);
  }
}

const terser = load('terser');
const csso = load('csso');

/** Minified JavaScript; `module` for an ES module. Top-level names of a
 * classic script (`patchlab_learn`, `wasm_bindgen`) are kept: other scripts
 * call them. */
export async function minifyJs(code, { module = false } = {}) {
  const out = await terser.minify(code, {
    module,
    ecma: 2020,
    compress: { passes: 2 },
    format: { comments: false },
  });
  if (typeof out.code !== 'string' || out.code.length === 0) throw new Error('terser returned nothing');
  return out.code;
}

/** Minified CSS, rules kept in their order and shape (no restructuring:
 * it merges rules across the sheet, and saves less here). */
export function minifyCss(css) {
  return csso.minify(css, { restructure: false }).css;
}
