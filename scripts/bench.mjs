#!/usr/bin/env node
// `make bench`: every speed number of docs/performance.md in one table.
// Runs (each section can be skipped: BENCH_SKIP=firstload,keystroke,scale,
// core,batch,js,smp):
//
//   firstload  tests/e2e/firstload.test.mjs, BENCH_RUNS times (default 5):
//              medians of bytes, first contentful paint, editors live and
//              first result, for Build and a lesson link; cold visits
//   keystroke  tests/e2e/keystroke.test.mjs: a keystroke in the 184-line VMI
//   scale      tests/e2e/worker.test.mjs: the Scale worker at 2,000,
//              10,000 and 100,000 VMIs
//   core       criterion (benches/core.rs, benches/strategy.rs, short
//              runs): apply and diff against the json-patch crate
//   batch      `patchlab apply --batch --semantics rfc` against
//              examples/json_patch_batch.rs on BENCH_BATCH seeded cases
//              (default 100,000), hyperfine
//   js         tests/e2e/bench-js.mjs: the JS API against fast-json-patch
//              (wall time in Chromium), and tests/e2e/bench-diff-cpu.mjs:
//              diff against compare in CPU time (Node)
//   smp        `patchlab apply --type strategic` against `kubectl patch
//              --local --type=strategic` (whole processes, hyperfine) on
//              the shapes of benches/strategic.rs; skipped with a NOTICE
//              without kubectl
//
// Needs dist/ (with dist/pkg/) from `make dist`, Chromium, hyperfine.
// Prints the table and writes it to target/bench/table.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'target', 'bench');
mkdirSync(out, { recursive: true });
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH = Number(process.env.BENCH_BATCH ?? 100_000);
const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));

function run(command, args, options = {}) {
  console.error(`bench: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'], ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}\n${result.stdout?.slice(-2000)}`);
  return result.stdout;
}
const benchJson = (text) => text.split('\n').filter((l) => l.startsWith('BENCH-JSON ')).map((l) => JSON.parse(l.slice(11)));
const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x).toLocaleString('en')} ms` : 'n/a');
const kib = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} KiB` : 'n/a');
const time = (s) => (s >= 1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(2)} ms` : `${(s * 1e6).toFixed(2)} µs`);
const rows = [];
const row = (area, what, value, goal = '') => rows.push(`| ${area} | ${what} | ${value} | ${goal} |`);
const section = (name, f) => {
  if (skip.has(name)) return;
  try {
    f();
  } catch (error) {
    console.error(`bench: ${name} failed: ${error.message}`);
    row(name, 'failed', error.message.split('\n')[0]);
  }
};

section('firstload', () => {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(...benchJson(run('node', ['firstload.test.mjs'], { cwd: join(root, 'tests', 'e2e') })));
  const of = (c, k) => median(runs.filter((r) => r.case === c).map((r) => r[k]));
  row('first load, Build', `bytes (gzip): all / before the editors are live (median of ${RUNS})`, `${kib(of('build', 'kib'))} / ${kib(of('build', 'kibBeforeLive'))}`, '<= 250 KiB before live');
  row('first load, Build', 'first contentful paint', ms(of('build', 'fcp')));
  row('first load, Build', 'the page module asked for / its last byte in', `${ms(of('build', 'moduleAsked'))} / ${ms(of('build', 'moduleArrived'))}`);
  row('first load, Build', 'editors live', ms(of('build', 'live')), '<= 2,000 ms');
  row('first load, Build', 'first result (build-time answer on a fresh visit)', ms(of('build', 'result')), '<= 2,500 ms');
  row('first load, Build', "the engine worker's first answer (a keystroke once live)", ms(of('build', 'engine')));
  row('first load, Build', 'engines ready / offline cache installed, on one shared 1.6 Mbit/s link (the service worker counted)', `${ms(of('offline-cache-shared-link', 'engines'))} / ${ms(of('offline-cache-shared-link', 'cached'))}`);
  row('first load, lesson link', 'bytes (gzip)', kib(of('lesson', 'kib')));
  row('first load, lesson link', 'first contentful paint', ms(of('lesson', 'fcp')));
  row('first load, lesson link', 'its step shown (live)', ms(of('lesson', 'live')), '<= 3,000 ms');
  for (const view of ['race', 'check', 'learn', 'scale']) {
    row('cold visit', `${view}: bytes (gzip), by the page + by its workers`, `${kib(of(`cold-${view}`, 'kib'))} + ${kib(of(`cold-${view}`, 'workerKib'))}`, '<= 400 KiB');
    row('cold visit', `${view}: the view shown`, ms(of(`cold-${view}`, 'shown')));
  }
  row('cold visit', 'check: a first patch pasted, its findings (the engines fetched on the click, no offline cache)', `${ms(of('check-first-paste', 'ms'))} (${kib(of('check-first-paste', 'engineKib'))})`);
});

section('keystroke', () => {
  const [k] = benchJson(run('node', ['keystroke.test.mjs'], { cwd: join(root, 'tests', 'e2e') }));
  row('keystroke, 184-line VMI', 'to new results: p50 / p95 / max', `${k.p50.toFixed(1)} / ${k.p95.toFixed(1)} / ${k.max.toFixed(1)} ms`, 'p95 <= 16 ms');
  row('keystroke, 184-line VMI', 'long tasks while typing (longest)', `${k.longTasks} (${k.longest.toFixed(0)} ms)`, 'none');
});

section('scale', () => {
  const text = run('node', ['--test', '--test-reporter=tap', 'worker.test.mjs'], { cwd: join(root, 'tests', 'e2e') });
  for (const m of text.matchAll(/BENCH worker (\d+) VMIs x 7 presets: (\d+) ms simulating \((\d+) ms from new Worker to done\), (\d+) requests/g)) {
    row('Scale (worker, dist)', `${Number(m[1]).toLocaleString('en')} VMIs x 7 presets`, `${m[2]} ms simulating (${m[3]} ms from new Worker), ${Number(m[4]).toLocaleString('en')} requests`);
  }
});

/** criterion's median per benchmark id, in seconds. */
function criterion(bench, filter) {
  const text = run('cargo', ['bench', '--bench', bench, '--', '--warm-up-time', '1', '--measurement-time', '3', filter].filter(Boolean));
  const unit = { ns: 1e-9, µs: 1e-6, us: 1e-6, ms: 1e-3, s: 1 };
  const found = new Map();
  for (const m of text.matchAll(/^(\S[^\n]*?)\s*(?:\n\s*)?time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]/gm)) found.set(m[1].trim(), Number(m[2]) * unit[m[3]]);
  return found;
}

section('core', () => {
  const apply = criterion('core', 'apply/');
  // The ids benches/core.rs gives its apply cases.
  for (const name of ['vmi-8-ops', '10k-ops', '10k-ops-then-fail', '1mb-doc-patch-and-inverse']) {
    const ours = apply.get(`apply/${name}/patchlab-rfc`);
    const theirs = apply.get(`apply/${name}/json-patch`);
    if (!ours || !theirs) throw new Error(`benches/core.rs has no case apply/${name}/${ours ? 'json-patch' : 'patchlab-rfc'}`);
    row('apply vs json-patch crate', name, `${time(ours)} vs ${time(theirs)}: ${(ours / theirs).toFixed(2)}x`);
  }
  const diff = criterion('strategy', '');
  for (const [id, t] of diff) {
    const m = id.match(/^(.*)\/json-patch$/);
    if (!m) continue;
    for (const [other, ours] of diff) {
      if (other.startsWith(`${m[1]}/`) && other !== id) row('diff vs json-patch `diff`', other, `${time(ours)} vs ${time(t)}: ${(ours / t).toFixed(2)}x`);
    }
  }
});

section('batch', () => {
  const cases = join(out, `cases-${BATCH}.jsonl`);
  run('cargo', ['build', '--release', '--bin', 'patchlab', '--example', 'json_patch_batch', '--example', 'batch_cases']);
  if (!existsSync(cases)) writeFileSync(cases, run(join(root, 'target/release/examples/batch_cases'), [String(BATCH)]));
  const report = join(out, 'batch.json');
  run('hyperfine', ['--warmup', '1', '--runs', '3', '--export-json', report,
    `${root}/target/release/patchlab apply --batch --semantics rfc < ${cases} > /dev/null`,
    `${root}/target/release/examples/json_patch_batch < ${cases} > /dev/null`]);
  const [ours, theirs] = JSON.parse(readFileSync(report, 'utf8')).results.map((r) => r.median);
  row('batch apply vs json-patch crate', `${BATCH.toLocaleString('en')} cases, release build`, `${time(ours)} vs ${time(theirs)}: ${(ours / theirs).toFixed(2)}x`, '<= 0.8x');
});

section('js', () => {
  const text = run('node', ['tests/e2e/bench-js.mjs']);
  const line = text.split('\n').find((l) => l.startsWith('BENCH '));
  for (const r of JSON.parse(line.slice(6))) {
    const kb = `${Math.round(r.size / 1000)} KB`;
    for (const [ours, theirs, what] of [
      // The names bench-js.mjs gives its cases.
      ['apply patchlab (objects)', 'apply fjp (copy)', 'apply (objects)'],
      ['diff patchlab', 'diff fjp compare', 'diff'],
      ['diff patchlab (explain: false)', 'diff fjp compare', 'diff (explain: false)'],
    ]) {
      const a = r[ours];
      const b = r[theirs];
      if (a === undefined || b === undefined) throw new Error(`bench-js.mjs has no case "${a === undefined ? ours : theirs}"`);
      row('JS API vs fast-json-patch', `${what}, ${kb}, wall time in Chromium (median)`, `${time(a / 1e3)} vs ${time(b / 1e3)}: ${(a / b).toFixed(2)}x`, what.startsWith('diff') ? '<= 1x' : '');
    }
  }
});

section('js', () => {
  // CPU time in Node, the steadier measure on a shared machine.
  const text = run('node', ['tests/e2e/bench-diff-cpu.mjs']);
  for (const r of benchJson(text)) {
    row('JS API vs fast-json-patch', `diff, ${Math.round(r.size / 1000)} KB, CPU time per call (Node, minimum)`, `${time(r.diff / 1e6)} vs ${time(r.compare / 1e6)}: ${r.ratio.toFixed(2)}x`, '<= 1x');
  }
});

section('smp', () => {
  const kubectl = ['/usr/bin/kubectl'].find(existsSync);
  if (!kubectl) {
    console.error('*** NOTICE: no kubectl at /usr/bin/kubectl: SMP against kubectl SKIPPED ***');
    row('SMP apply vs kubectl', 'skipped', 'no kubectl');
    return;
  }
  run('cargo', ['build', '--release', '--bin', 'patchlab']);
  // The shapes of benches/strategic.rs: a Pod with n containers, finalizers
  // and labels; a patch touching every element.
  for (const n of [100, 1000]) {
    const containers = [...Array(n).keys()].map((i) => ({ name: `c${i}`, image: 'old', ports: [{ containerPort: 80 }, { containerPort: 443 }], env: [{ name: 'A', value: '1' }] }));
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: Object.fromEntries([...Array(n).keys()].map((i) => [`l${i}`, 'v'])), finalizers: [...Array(n).keys()].map((i) => `example.com/f${i}`) }, spec: { containers } };
    const patch = {
      metadata: {
        labels: Object.fromEntries([...Array(n).keys()].map((i) => [`l${i}`, 'w'])),
        finalizers: [...Array(n).keys()].slice(n / 2).map((i) => `example.com/f${i}`),
        '$deleteFromPrimitiveList/finalizers': [...Array(n).keys()].slice(0, n / 2).map((i) => `example.com/f${i}`),
      },
      spec: { containers: [...Array(n).keys()].reverse().map((i) => ({ name: `c${i}`, image: 'new' })), '$setElementOrder/containers': [...Array(n).keys()].reverse().map((i) => ({ name: `c${i}` })) },
    };
    const podFile = join(out, `pod-${n}.json`);
    const patchFile = join(out, `smp-${n}.json`);
    writeFileSync(podFile, JSON.stringify(pod));
    writeFileSync(patchFile, JSON.stringify(patch));
    const ours = JSON.parse(run(`${root}/target/release/patchlab`, ['apply', '--type', 'strategic', podFile, patchFile]));
    const theirs = JSON.parse(run(kubectl, ['patch', '--local', '-f', podFile, '--type=strategic', '-p', JSON.stringify(patch), '-o', 'json']));
    const same = JSON.stringify(ours.spec) === JSON.stringify(theirs.spec) && JSON.stringify(ours.metadata.finalizers) === JSON.stringify(theirs.metadata.finalizers);
    const report = join(out, `smp-${n}.hyperfine.json`);
    run('hyperfine', ['--warmup', '1', '--runs', '5', '--export-json', report,
      `${root}/target/release/patchlab apply --type strategic ${podFile} ${patchFile} > /dev/null`,
      `${kubectl} patch --local -f ${podFile} --type=strategic --patch-file ${patchFile} -o json > /dev/null`]);
    const [a, b] = JSON.parse(readFileSync(report, 'utf8')).results.map((r) => r.median);
    row('SMP apply vs kubectl (whole process)', `Pod with ${n} containers, finalizers, labels${same ? '' : ' (RESULTS DIFFER)'}`, `${time(a)} vs ${time(b)}: ${(a / b).toFixed(2)}x`);
  }
});

const table = ['| area | case | measured | goal |', '|---|---|---|---|', ...rows].join('\n');
writeFileSync(join(out, 'table.md'), table + '\n');
console.log(`\n${table}\n\n(written to target/bench/table.md)`);
