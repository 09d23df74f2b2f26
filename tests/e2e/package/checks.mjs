// What the package test (../package.test.mjs) asks of the installed npm
// package in every place it runs: Node, the Vite dev server, a Vite build
// and a plain page. `api` is the module namespace of `import * as api from
// 'patchlab'`; `glue`, where given, imports the package's wasm-bindgen glue
// (the same module instance the package uses) so that the instance can be
// pushed into a real out-of-memory trap. Returns plain data to compare.

const old = { metadata: { labels: { 'kubevirt.io/nodeName': 'node01' } } };
const next = {
  metadata: { labels: { 'kubevirt.io/nodeName': 'node01', 'kubevirt.io/migrationTargetNodeName': 'node02' } },
};

function caught(f) {
  const started = performance.now();
  try {
    f();
    return { threw: false };
  } catch (e) {
    return { threw: true, name: e.name, kind: e.kind, message: e.message, ms: performance.now() - started };
  }
}

async function caughtAsync(f) {
  try {
    await f();
    return { threw: false };
  } catch (e) {
    return { threw: true, name: e.name, kind: e.kind, message: e.message };
  }
}

export async function checks(api, glue) {
  const out = {};
  // init with anything but the module, its URL or its bytes: the caller's
  // mistake, named (before the first init: a started module ignores init).
  out.initBad = await caughtAsync(() => api.default(42));
  out.initSyncBad = caught(() => api.initSync(new Uint8Array([0, 0x61, 0x73, 0x6d, 9, 9, 9, 9])));
  await api.default();
  await api.default(); // a second init returns at once
  out.version = api.version();
  out.body = api.diff(old, next, { preset: 'kubevirt-per-key' }).body;
  out.head = api.diff(old, next, { preset: 'kubevirt-main' }).ops.map((op) => op.op);

  // Exact data: an own __proto__ key, no NaN turned into null.
  const evil = api.diff({ metadata: {} }, JSON.parse('{"metadata":{"x":{"__proto__":{"isAdmin":true}}}}'), { preset: 'naive' });
  const value = evil.ops[0].value;
  out.protoOwn = Object.hasOwn(value, '__proto__') && value.isAdmin === undefined && Object.getPrototypeOf(value) === Object.prototype;
  out.nan = caught(() => api.applyPatch({ a: null }, [{ op: 'test', path: '/a', value: NaN }]));
  out.nullPatch = caught(() => api.applyPatch({ a: 1 }, null));

  // Bounded options, read from own properties only.
  out.presets = caught(() => api.migrate({ vms: 10, presets: Array.from({ length: 70000 }, (_, i) => `p${i}`) }));
  out.repeated = api.migrate({ vms: 10, presets: Array(70000).fill('naive') }).presets.length;
  // A getter that throws inside a document: the caller's mistake, with its place.
  const doc = { spec: {} };
  Object.defineProperty(doc.spec, 'x', { enumerable: true, get() { throw new Error('no access'); } });
  out.getter = caught(() => api.applyPatch(doc, [{ op: 'add', path: '/spec/y', value: 1 }]));
  Object.prototype.preset = 'naive';
  try {
    out.polluted = api.diff(old, next, {}).preset;
  } finally {
    delete Object.prototype.preset;
  }

  if (glue) {
    // Grow the running instance's memory to the wasm32 limit (4 GiB,
    // reserved, not touched), then ask for more: a real out-of-memory trap.
    const wasm = (await glue()).initSync();
    wasm.memory.grow(65536 - wasm.memory.buffer.byteLength / 65536);
    const big = { spec: { items: Array.from({ length: 20000 }, (_, i) => ({ name: `n${i}`, v: 'x'.repeat(50) })) } };
    out.trap = caught(() => api.diff(big, { spec: {} }, { preset: 'update' }));
    out.memoryAfter = (await glue()).initSync().memory.buffer.byteLength;
  }
  out.after = api.applyPatch({ a: 1 }, [{ op: 'add', path: '/b', value: 2 }]);
  return out;
}
