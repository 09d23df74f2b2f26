// CPU time per call of the JavaScript API's `diff` against fast-json-patch's
// `compare`, in Node (the V8 of Chromium), on the inputs of bench-js.mjs (bench-inputs.mjs): the
// minimum over interleaved rounds of process CPU time (user + system),
// which repeats within a few per cent on a shared machine where wall-clock
// medians swing by 30 %. Needs `make dist` (dist/pkg). Run:
//   node tests/e2e/bench-diff-cpu.mjs [rounds]
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { vmi, patch } from './bench-inputs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fjp = createRequire(import.meta.url)('fast-json-patch');
const api = await import(join(here, '..', '..', 'dist', 'pkg', 'patchlab.js'));
await api.default?.();
const rounds = Number(process.argv[2] ?? 150);

function cpuMicros() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const table = [];
for (const size of [10_000, 100_000, 1_000_000]) {
  const doc = vmi(size);
  const next = fjp.applyPatch(fjp.deepClone(doc), patch, false, true).newDocument;
  const cases = {
    'diff kubevirt-per-key': () => api.diff(doc, next, { preset: 'kubevirt-per-key' }),
    'diff explain: false': () => api.diff(doc, next, { preset: 'kubevirt-per-key', explain: false }),
    'diff naive': () => api.diff(doc, next, { preset: 'naive' }),
    'fast-json-patch compare': () => fjp.compare(doc, next),
  };
  // Calls per sample: enough for about 20 ms of CPU (the clock ticks in µs).
  const calls = {};
  for (const [name, f] of Object.entries(cases)) {
    for (let i = 0; i < 200; i++) f();
    let n = 1;
    for (;;) {
      const t0 = cpuMicros();
      for (let i = 0; i < n; i++) f();
      if (cpuMicros() - t0 >= 20_000) break;
      n *= 2;
    }
    calls[name] = n;
  }
  const best = Object.fromEntries(Object.keys(cases).map((name) => [name, Infinity]));
  for (let r = 0; r < Math.max(3, Math.round(rounds / (size / 10_000) ** 0.5)); r++) {
    for (const [name, f] of Object.entries(cases)) {
      const n = calls[name];
      const t0 = cpuMicros();
      for (let i = 0; i < n; i++) f();
      best[name] = Math.min(best[name], (cpuMicros() - t0) / n);
    }
  }
  table.push([size, best]);
}
const names = Object.keys(table[0][1]);
const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
console.log(`| case (CPU per call, minimum) | ${table.map(([s]) => `${s / 1000} KB`).join(' | ')} |`);
console.log(`|---|${table.map(() => '---:').join('|')}|`);
for (const name of names) console.log(`| ${name} | ${table.map(([, b]) => fmt(b[name])).join(' | ')} |`);
const ratio = (s) => table.find(([size]) => size === s)[1];
for (const [size] of table) {
  const b = ratio(size);
  console.log(`BENCH-JSON ${JSON.stringify({ case: 'js-diff-cpu', size, diff: b['diff kubevirt-per-key'], compare: b['fast-json-patch compare'], ratio: b['diff kubevirt-per-key'] / b['fast-json-patch compare'] })}`);
}
