// Browser benchmark of the JavaScript API against fast-json-patch (npm,
// dev-only) in the same headless Chromium, on the same inputs: apply and
// diff of VMI-shaped documents of 10 KB, 100 KB and 1 MB. Prints a table
// (median time per call); the numbers go into docs/performance.md.
// Run: make bench-js (needs `make dist` first).
import { createRequire } from 'node:module';
import { serveDist, launch, openPage } from './harness.mjs';
import { vmi, patch } from './bench-inputs.mjs';

const fjpPath = createRequire(import.meta.url).resolve('fast-json-patch/dist/fast-json-patch.min.js');
const server = await serveDist();
const browser = await launch();
const page = await openPage(browser, { bypassCSP: true });
await page.goto(`${server.url}embed.html`);
await page.getByRole('region', { name: 'kubevirt-main' }).waitFor();
await page.addScriptTag({ path: fjpPath });

const rows = await page.evaluate(async ({ vmiSource, patch }) => {
  const api = await import('./pkg/patchlab.js');
  const fjp = window.jsonpatch;

  // The shared inputs (bench-inputs.mjs), passed in as the function's text.
  const vmi = new Function(`return (${vmiSource})`)();
  const patchText = JSON.stringify(patch);

  /**
   * Median milliseconds per call of each case. Samples of enough calls to
   * last about 5 ms each (the page's clock ticks in 0.1 ms) are taken in
   * turn, case after case, for at least 0.5 s per case: a machine busy
   * with other work slows every case alike instead of whichever ran then.
   */
  function timeAll(cases) {
    const names = Object.keys(cases);
    const batch = {};
    for (const name of names) {
      const f = cases[name];
      let n = 1;
      for (;;) {
        const t0 = performance.now();
        for (let i = 0; i < n; i++) f();
        if (performance.now() - t0 >= 5) break;
        n *= 2;
      }
      batch[name] = n;
    }
    const samples = Object.fromEntries(names.map((name) => [name, []]));
    const start = performance.now();
    while (samples[names[0]].length < 11 || performance.now() - start < 500 * names.length) {
      for (const name of names) {
        const f = cases[name];
        const n = batch[name];
        const t0 = performance.now();
        for (let i = 0; i < n; i++) f();
        samples[name].push((performance.now() - t0) / n);
      }
    }
    return Object.fromEntries(names.map((name) => {
      const sorted = samples[name].sort((a, b) => a - b);
      return [name, sorted[sorted.length >> 1]];
    }));
  }

  // Warm-up: let V8 tier up both engines' code before anything is timed.
  {
    const doc = vmi(10_000);
    const text = JSON.stringify(doc);
    const next = fjp.applyPatch(fjp.deepClone(doc), patch, false, true).newDocument;
    const start = performance.now();
    while (performance.now() - start < 2000) {
      api.applyPatch(doc, patch);
      api.applyPatchJson(text, patchText);
      api.diff(doc, next);
      fjp.applyPatch(doc, patch, false, false);
      fjp.compare(doc, next);
    }
  }

  const out = [];
  for (const size of [10_000, 100_000, 1_000_000]) {
    const doc = vmi(size);
    const text = JSON.stringify(doc);
    const next = fjp.applyPatch(fjp.deepClone(doc), patch, false, true).newDocument;
    // Same results first: both engines agree on the patched document.
    const ours = api.applyPatch(doc, patch);
    // (patchlab returns object keys sorted, as Go's encoding/json writes them)
    const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
    if (canonical(ours) !== canonical(next)) throw new Error('apply results differ');
    const inPlace = fjp.deepClone(doc);
    // Objects and their text take different routes into the engine (objects
    // leave their equal members in JS); the ops must be the same.
    for (const preset of ['kubevirt-per-key', 'naive']) {
      const fromObjects = api.diff(doc, next, { preset }).body;
      if (fromObjects !== api.diff(text, JSON.stringify(next), { preset }).body) throw new Error(`diff routes differ (${preset})`);
    }
    const row = {
      size: text.length,
      ...timeAll({
        'apply patchlab (objects)': () => api.applyPatch(doc, patch),
        'apply patchlab (JSON text)': () => api.applyPatchJson(text, patchText),
        'apply fjp (copy)': () => fjp.applyPatch(doc, patch, false, false),
        'apply fjp (JSON text: parse, apply, stringify)': () => JSON.stringify(fjp.applyPatch(JSON.parse(text), patch, false, true).newDocument),
        'apply fjp (in place)': () => fjp.applyPatch(inPlace, patch, false, true),
      }),
      ...timeAll({
        'diff patchlab': () => api.diff(doc, next, { preset: 'kubevirt-per-key' }),
        'diff patchlab (explain: false)': () => api.diff(doc, next, { preset: 'kubevirt-per-key', explain: false }),
        'diff patchlab (naive)': () => api.diff(doc, next, { preset: 'naive' }),
        'diff fjp compare': () => fjp.compare(doc, next),
      }),
    };
    out.push(row);
  }
  return out;
}, { vmiSource: vmi.toString(), patch });

const columns = Object.keys(rows[0]).filter((k) => k !== 'size');
console.log(`| case | ${rows.map((r) => `${Math.round(r.size / 1000)} KB`).join(' | ')} |`);
console.log(`|---|${rows.map(() => '---:').join('|')}|`);
for (const c of columns) {
  console.log(`| ${c} | ${rows.map((r) => (r[c] >= 1 ? `${r[c].toFixed(2)} ms` : r[c] >= 0.001 ? `${(r[c] * 1000).toFixed(1)} µs` : `${(r[c] * 1e6).toFixed(0)} ns`)).join(' | ')} |`);
}
console.log(`BENCH ${JSON.stringify(rows)}`);
await browser.close();
await server.close();
