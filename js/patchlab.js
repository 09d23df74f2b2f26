/* @ts-self-types="./patchlab.d.ts" */
// patchlab's JavaScript API: the entry point of the npm package. It loads
// the WebAssembly module (`patchlab_bg.wasm`, next to this file) wherever
// the package runs (a browser page, Node, a bundler such as Vite), and
// wraps each function of the wasm-bindgen glue (`patchlab_glue.js`) so
// that an instance that stops mid-call (out of memory, or a bug) is
// replaced by a fresh one: the call throws a PatchlabError of kind
// `internal`, and later calls work. Built into pkg/ by scripts/pkg.sh.

import * as glue from './patchlab_glue.js';

/** The compiled module: a fresh instance is started from it after a trap. */
let compiled;
/** True while an instance is ready to answer. */
let ready = false;
/** The running init(), so that concurrent calls share it. */
let loading;

/** A PatchlabError, the shape every function of this module throws. */
function patchlabError(kind, message, extra) {
  const error = new Error(message, extra && 'cause' in extra ? { cause: extra.cause } : undefined);
  error.name = 'PatchlabError';
  error.kind = kind;
  return error;
}

/** Node's `fs` when running in Node (no import: bundlers see nothing). */
function nodeFs() {
  const process = globalThis.process;
  if (!process?.versions?.node) return undefined;
  return process.getBuiltinModule?.('node:fs');
}

/** True for a string that names a file on disk in Node (no URL scheme). */
function isPath(source) {
  return typeof source === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(source) && nodeFs() !== undefined;
}

async function readFile(location) {
  let fs = nodeFs();
  if (fs === undefined && globalThis.process?.versions?.node) {
    // Node before 20.16 has no getBuiltinModule.
    const name = 'node:fs';
    fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ name);
  }
  if (fs === undefined) return undefined;
  return fs.promises.readFile(location);
}

/** The wasm bytes of a fetch response, with a clear error when they are not. */
async function fromResponse(response) {
  const url = response.url || 'the response';
  if (!response.ok) {
    throw patchlabError('init-failed', `patchlab: fetching ${url} failed: ${response.status} ${response.statusText}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/wasm') && typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (error) {
      throw notWasm(error, url);
    }
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!(bytes[0] === 0 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d)) {
    throw patchlabError(
      'init-failed',
      `patchlab: ${url} is not a WebAssembly module (${type || 'no content type'}): serve patchlab_bg.wasm next to patchlab.js, or pass its URL or bytes to init()`,
    );
  }
  return compileBytes(bytes, url);
}

/** What a value is, in words, for a message (never throws). */
function describe(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
  try {
    if (Array.isArray(value)) return 'an array';
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    return tag === 'Object' ? 'an object' : `a ${tag}`;
  } catch {
    return 'a revoked Proxy';
  }
}

/** True for bytes WebAssembly can compile: an ArrayBuffer or a view of one. */
function isBytes(value) {
  try {
    return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
  } catch {
    return false;
  }
}

/**
 * The compiled module of `bytes`: a PatchlabError `init-failed` when they
 * are not a WebAssembly module (a CompileError is the caller's bytes, not
 * the module's failure).
 */
async function compileBytes(bytes, where) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    throw notWasm(error, where);
  }
}

function notWasm(error, where) {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return patchlabError('init-failed', `patchlab: ${where}: not patchlab's WebAssembly module (${what})`, { cause: error });
}

/** The error of an `init` or `initSync` argument of the wrong kind. */
function badInput(name, value, accepted) {
  return patchlabError('bad-argument', `patchlab: ${name}() takes ${accepted}, found ${describe(value)}`);
}

/** Compiles the module from whatever `init` was given. */
async function compile(source) {
  source = await source;
  if (source instanceof WebAssembly.Module) return source;
  if (source === undefined) return compileDefault();
  if (isPath(source)) return compileBytes(await readFile(source), source);
  if (typeof source === 'string' || source instanceof URL) {
    let url;
    try {
      url = new URL(source, globalThis.location?.href ?? import.meta.url);
    } catch (error) {
      throw patchlabError('bad-argument', `patchlab: init() was given ${JSON.stringify(String(source).slice(0, 200))}, which is not a URL`, { cause: error });
    }
    if (url.protocol === 'file:') {
      const bytes = await readFile(url);
      if (bytes !== undefined) return compileBytes(bytes, url.href);
    }
    return fromResponse(await fetch(url));
  }
  if (typeof Request === 'function' && source instanceof Request) return fromResponse(await fetch(source));
  if (typeof Response === 'function' && source instanceof Response) return fromResponse(source);
  if (isBytes(source)) return compileBytes(source, 'the bytes given to init()');
  throw badInput('init', source, "the module's URL, a fetch Response, its bytes or a WebAssembly.Module");
}

/**
 * `patchlab_bg.wasm` next to this file: read from disk in Node, fetched
 * elsewhere. The `new URL(..., import.meta.url)` form is what bundlers
 * (Vite, webpack, Parcel) look for to ship the file with a build.
 */
async function compileDefault() {
  const url = new URL('./patchlab_bg.wasm', import.meta.url);
  if (url.protocol === 'file:') {
    const bytes = await readFile(url);
    if (bytes !== undefined) return WebAssembly.compile(bytes);
  }
  try {
    return await fromResponse(await fetch(url));
  } catch (error) {
    // Vite before 8 serves its pre-bundled copy of this file from
    // node_modules/.vite/deps/ without the wasm: look where npm put it.
    const vite = /^(.*\/node_modules\/)\.vite\/deps[^/]*\//.exec(import.meta.url);
    if (vite === null) throw error;
    return fromResponse(await fetch(new URL('patchlab/patchlab_bg.wasm', vite[1])));
  }
}

function start(module) {
  try {
    glue.initSync({ module });
  } catch (error) {
    // A module of another build (its imports differ) cannot start.
    glue.__patchlab_reset();
    throw patchlabError('init-failed', `patchlab: the module could not be started (${error?.name}: ${error?.message}): give init() this package's patchlab_bg.wasm`, { cause: error });
  }
  compiled = module;
  ready = true;
}

/**
 * `input[key]` when `input` is a plain object holding it (wasm-bindgen's
 * `{ module_or_path }` and `{ module }` forms), else `input`.
 */
function unwrapped(input, key) {
  try {
    if (input !== null && typeof input === 'object' && Object.getPrototypeOf(input) === Object.prototype && key in input) {
      return input[key];
    }
  } catch (error) {
    throw patchlabError('bad-argument', `patchlab: the argument cannot be read (${error?.name}: ${error?.message})`, { cause: error });
  }
  return input;
}

/**
 * Loads and starts the module. With no argument it finds
 * `patchlab_bg.wasm` next to `patchlab.js` (fetched in a browser, read from
 * disk in Node); else give its URL, a fetch `Response`, its bytes or a
 * compiled `WebAssembly.Module`. Calls after the first return at once.
 */
export default async function init(input) {
  if (ready) return;
  input = unwrapped(input, 'module_or_path');
  if (compiled !== undefined) {
    start(compiled);
    return;
  }
  loading ??= compile(input).then(start).finally(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * Starts the module synchronously from its bytes or a compiled module; in
 * Node, with no argument, from `patchlab_bg.wasm` next to this file.
 */
export function initSync(input) {
  if (ready) return;
  input = unwrapped(input, 'module');
  if (input === undefined && compiled !== undefined) {
    start(compiled);
    return;
  }
  if (input === undefined) {
    const fs = nodeFs();
    if (fs === undefined) {
      throw patchlabError('not-initialised', 'patchlab: initSync() needs the module bytes here; or use await init()');
    }
    input = fs.readFileSync(new URL('./patchlab_bg.wasm', import.meta.url));
  }
  if (input instanceof WebAssembly.Module) {
    start(input);
    return;
  }
  if (!isBytes(input)) throw badInput('initSync', input, 'the module\'s bytes or a WebAssembly.Module');
  let module;
  try {
    module = new WebAssembly.Module(input);
  } catch (error) {
    throw notWasm(error, 'the bytes given to initSync()');
  }
  start(module);
}

/** Makes sure an instance is ready (Node starts one on first use). */
function ensure() {
  if (ready) return;
  if (compiled !== undefined || nodeFs() !== undefined) {
    try {
      initSync();
      return;
    } catch (error) {
      throw patchlabError('not-initialised', `patchlab: the module could not be started (${error?.message ?? error}): call \`await init(wasm)\` with its URL or bytes first`, { cause: error });
    }
  }
  throw patchlabError('not-initialised', 'patchlab: call `await init()` once before using the module');
}

/**
 * The error a call throws. A PatchlabError came back from the module as
 * an answer (a caller's mistake among them: every read of an argument
 * happens inside the module's own try/catch, src/js/boundary.js); anything
 * else escaped the instance mid-call (a trap: out of memory or
 * `unreachable`, or a stack overflow), so its state is unknown: it is
 * dropped and a fresh instance starts from the compiled module.
 */
function failure(error) {
  if (error instanceof Error && error.name === 'PatchlabError') return error;
  ready = false;
  let restarted = false;
  try {
    glue.__patchlab_reset();
    start(compiled);
    restarted = true;
  } catch {
    // Left not ready: the next call (or init()) tries again.
  }
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const then = restarted
    ? 'a fresh instance answers later calls'
    : 'call `await init()` again before the next call';
  // A trap is most likely memory running out (the module's own limit);
  // anything else thrown through it is a bug of patchlab's.
  const likely = error instanceof WebAssembly.RuntimeError || error instanceof RangeError
    ? 'most likely out of memory, else a bug'
    : 'a bug in patchlab: please report it';
  return patchlabError('internal', `patchlab stopped during this call (${what}; ${likely}): ${then}`, { cause: error });
}

function wrap(f) {
  return function (...args) {
    ensure();
    try {
      return f(...args);
    } catch (error) {
      throw failure(error);
    }
  };
}

export const applyMergePatch = /* @__PURE__ */ wrap(glue.applyMergePatch);
export const applyPatch = /* @__PURE__ */ wrap(glue.applyPatch);
export const applyPatchJson = /* @__PURE__ */ wrap(glue.applyPatchJson);
export const applyStrategicMergePatch = /* @__PURE__ */ wrap(glue.applyStrategicMergePatch);
export const buildPatch = /* @__PURE__ */ wrap(glue.buildPatch);
export const diff = /* @__PURE__ */ wrap(glue.diff);
export const escapeJsonPointer = /* @__PURE__ */ wrap(glue.escapeJsonPointer);
export const explain = /* @__PURE__ */ wrap(glue.explain);
export const kubeVersions = /* @__PURE__ */ wrap(glue.kubeVersions);
export const lint = /* @__PURE__ */ wrap(glue.lint);
export const lintRules = /* @__PURE__ */ wrap(glue.lintRules);
export const migrate = /* @__PURE__ */ wrap(glue.migrate);
export const presets = /* @__PURE__ */ wrap(glue.presets);
export const simulate = /* @__PURE__ */ wrap(glue.simulate);
export const version = /* @__PURE__ */ wrap(glue.version);
