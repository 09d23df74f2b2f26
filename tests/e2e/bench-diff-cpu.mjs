// CPU time per call of the JavaScript API's `diff` against fast-json-patch's
// `compare`, in Node (the V8 of Chromium), on bench-js.mjs's inputs: the
// minimum over interleaved rounds of process CPU time (user + system),
// which repeats within a few per cent on a shared machine where wall-clock
// medians swing by 30 %. Needs `make dist` (dist/pkg). Run:
//   node tests/e2e/bench-diff-cpu.mjs [rounds]
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const fjp = createRequire(import.meta.url)('fast-json-patch');
const api = await import(join(here, '..', '..', 'dist', 'pkg', 'patchlab.js'));
await api.default?.();
const rounds = Number(process.argv[2] ?? 150);

/** A VMI padded with interfaces, volumes and annotations to about `bytes` (as bench-js.mjs). */
function vmi(bytes) {
  const doc = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: {
      name: 'testvmi', namespace: 'default', resourceVersion: '1041',
      labels: { 'kubevirt.io/nodeName': 'node01', 'kubevirt.io/size': 'small' },
      annotations: {},
      finalizers: ['kubevirt.io/virtualMachineControllerFinalize'],
    },
    spec: { domain: { cpu: { cores: 2 }, memory: { guest: '2Gi' } }, volumes: [] },
    status: { phase: 'Running', nodeName: 'node01', interfaces: [], volumeStatus: [], activePods: {} },
  };
  for (let i = 0; JSON.stringify(doc).length < bytes; i++) {
    doc.metadata.annotations[`example.com/note-${i}`] = `value ${i} `.repeat(4);
    doc.spec.volumes.push({ name: `disk${i}`, persistentVolumeClaim: { claimName: `pvc-${i}` } });
    doc.status.interfaces.push({ name: `net${i}`, ipAddress: `10.244.${i % 250}.${i % 200}`, mac: '52:54:00:00:00:01' });
    doc.status.volumeStatus.push({ name: `disk${i}`, target: `vd${i}`, phase: 'Ready' });
  }
  return doc;
}
const patch = [
  { op: 'test', path: '/metadata/labels/kubevirt.io~1nodeName', value: 'node01' },
  { op: 'add', path: '/metadata/labels/kubevirt.io~1migrationTargetNodeName', value: 'node02' },
  { op: 'replace', path: '/status/phase', value: 'Running' },
  { op: 'add', path: '/status/activePods/pod-b', value: 'node02' },
  { op: 'add', path: '/status/migrationState', value: { targetNode: 'node02', completed: false } },
];

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
