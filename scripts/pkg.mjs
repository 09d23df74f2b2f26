// Completes the npm package in OUT after wasm-bindgen and wasm-opt (run by
// scripts/pkg.sh): the wasm-bindgen glue becomes patchlab_glue.js (with a
// reset for the wrapper's restart after a trap), the wrapper js/patchlab.js
// becomes the entry point, the declarations end with the wrapper's init,
// and package.json, README.md (its sizes measured here) and LICENSE come
// from js/ and the repository. Fails when the wrapper, the glue and the
// declarations disagree on the exports.
// Usage: node scripts/pkg.mjs OUT
import { readFileSync, writeFileSync, renameSync, rmSync, copyFileSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/pkg.mjs OUT');

function fail(message) {
  console.error(`pkg: ${message}`);
  process.exit(1);
}

/** One `key = "value"` of Cargo.toml's [package] table. */
function cargo(key) {
  const text = readFileSync(join(root, 'Cargo.toml'), 'utf8');
  const match = new RegExp(`^${key} = "(.*)"$`, 'm').exec(text);
  if (!match) fail(`Cargo.toml has no ${key}`);
  return match[1];
}

// ---------------------------------------------------------------- the glue
let glue = readFileSync(join(out, 'patchlab.js'), 'utf8');
glue = glue.replace(/^\/\* @ts-self-types=.*\*\/\n/, '');
for (const name of ['let wasmModule, wasmInstance, wasm;', 'let __wbg_init_promise;', 'let cachedDataViewMemory0', 'let cachedUint8ArrayMemory0']) {
  if (!glue.includes(name)) fail(`the wasm-bindgen glue no longer declares "${name}": update the reset in scripts/pkg.mjs`);
}
glue += `
/** patchlab: forgets the instance (after a trap) so that initSync starts a fresh one. */
export function __patchlab_reset() {
    wasm = undefined;
    wasmInstance = undefined;
    wasmModule = undefined;
    __wbg_init_promise = undefined;
    cachedDataViewMemory0 = null;
    cachedUint8ArrayMemory0 = null;
}
`;
writeFileSync(join(out, 'patchlab_glue.js'), glue);
rmSync(join(out, 'patchlab.js'));
rmSync(join(out, 'patchlab_bg.wasm.d.ts'), { force: true });

// ------------------------------------------------------------- the wrapper
const wrapper = readFileSync(join(root, 'js', 'patchlab.js'), 'utf8');
writeFileSync(join(out, 'patchlab.js'), wrapper);
const glueExports = [...glue.matchAll(/^export function (\w+)\(/gm)]
  .map((m) => m[1])
  .filter((name) => name !== 'initSync' && name !== '__patchlab_reset')
  .sort();
const wrapped = [...wrapper.matchAll(/^export const (\w+) = .*wrap\(glue\.(\w+)\);$/gm)];
for (const [, name, inner] of wrapped) {
  if (name !== inner) fail(`js/patchlab.js exports ${name} as glue.${inner}`);
}
const wrapperExports = wrapped.map((m) => m[1]).sort();
if (glueExports.join() !== wrapperExports.join()) {
  fail(`js/patchlab.js wraps [${wrapperExports}] but the module exports [${glueExports}]`);
}

// ------------------------------------------------------- the declarations
let types = readFileSync(join(out, 'patchlab.d.ts'), 'utf8');
// Options arguments may be left out (the Rust side takes Option<JsValue>);
// wasm-bindgen's typed override drops the `?`.
types = types.replace(/\boptions: ([A-Za-z]*Options)\)/g, 'options?: $1)');
if (!types.includes('options?: ApplyOptions')) fail('could not mark options optional in patchlab.d.ts');
const cut = types.indexOf('export type InitInput');
if (cut < 0) fail('patchlab.d.ts has no InitInput: update scripts/pkg.mjs');
types = `${types.slice(0, cut)}/** Where the WebAssembly module comes from (see \`init\`). */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads and starts the module; calls after the first return at once.
 * With no argument it finds \`patchlab_bg.wasm\` next to \`patchlab.js\`
 * (fetched in a browser or a bundled app, read from disk in Node); else
 * give its URL, a fetch \`Response\`, its bytes or a compiled module.
 */
export default function init(input?: InitInput | Promise<InitInput> | { module_or_path: InitInput | Promise<InitInput> }): Promise<void>;

/**
 * Starts the module synchronously from its bytes or a compiled module; in
 * Node, with no argument, from \`patchlab_bg.wasm\` next to this file (Node
 * also starts it by itself on first use).
 */
export function initSync(input?: BufferSource | WebAssembly.Module | { module: BufferSource | WebAssembly.Module }): void;
`;
const declared = [...types.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1]).filter((n) => n !== 'initSync').sort();
if (declared.join() !== glueExports.join()) fail(`patchlab.d.ts declares [${declared}], the module exports [${glueExports}]`);
writeFileSync(join(out, 'patchlab.d.ts'), types);

// ------------------------------------------- package.json, README, LICENSE
const version = cargo('version');
const license = cargo('license');
const repository = cargo('repository');
const manifest = JSON.parse(readFileSync(join(root, 'js', 'package.json'), 'utf8'));
manifest.version = version;
if (manifest.license !== license) fail(`js/package.json says license ${manifest.license}, Cargo.toml ${license}`);
manifest.repository = { type: 'git', url: `git+${repository}.git` };
manifest.homepage = repository;
manifest.bugs = { url: `${repository}/issues` };
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
for (const file of manifest.files) {
  if (file === 'snippets/' || file === 'README.md' || file === 'LICENSE') continue;
  statSync(join(out, file));
}
copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));

const wasm = readFileSync(join(out, 'patchlab_bg.wasm'));
const gzip = gzipSync(wasm, { level: 9 }).length;
const kb = (bytes) => `${Math.round(bytes / 1000)} KB`;
const sizes = {
  '@VERSION@': version,
  '@REPOSITORY@': repository,
  '@WASM_SIZE@': kb(wasm.length),
  '@WASM_GZIP@': kb(gzip),
};
let readme = readFileSync(join(root, 'js', 'README.md'), 'utf8');
for (const [key, value] of Object.entries(sizes)) readme = readme.replaceAll(key, value);
const left = /@[A-Z_]+@/.exec(readme);
if (left) fail(`js/README.md has an unknown placeholder ${left[0]}`);
writeFileSync(join(out, 'README.md'), readme);
console.log(`pkg: ${out}/ (patchlab ${version}; wasm ${wasm.length} bytes, ${gzip} gzip)`);
