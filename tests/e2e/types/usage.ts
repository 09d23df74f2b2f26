// Type check of the package's declarations (run by embed.test.mjs with tsc
// --strict against dist/pkg/patchlab.d.ts): every export used as documented,
// and wrong uses that must not compile.
import init, {
  initSync,
  applyPatch,
  applyPatchJson,
  applyStrategicMergePatch,
  buildPatch,
  diff,
  escapeJsonPointer,
  explain,
  lint,
  lintRules,
  migrate,
  presets,
  simulate,
  version,
  type DiffResult,
  type Explanation,
  type Json,
  type LintResult,
  type MigrateResult,
  type Operation,
  type PatchlabError,
  type Replay,
} from '../../../dist/pkg/patchlab.js';

await init();
await init(new URL('./patchlab_bg.wasm', import.meta.url));
await init({ module_or_path: fetch('/patchlab_bg.wasm') });
initSync(new Uint8Array(8));
initSync();

const ops: Operation[] = [
  { op: 'test', path: '/metadata/labels', value: { a: '1' } },
  { op: 'add', path: `/metadata/labels/${escapeJsonPointer('kubevirt.io/size')}`, value: 'small' },
  { op: 'move', from: '/a', path: '/b' },
];
const payload: string = buildPatch(ops);
const plain: string = buildPatch(ops, { encoding: 'plain' });
const doc: Json = applyPatch({ metadata: { labels: { a: '1' } } }, payload, { semantics: 'kube' });
const text: string = applyPatchJson('{}', '[]');
const merged: Json = applyStrategicMergePatch({ kind: 'Node', apiVersion: 'v1' }, '{"metadata":{"labels":{"a":"b"}}}', {
  kind: 'nodes',
  kubeVersion: '1.30',
});
const builtinOnly: boolean = presets()[7]!.builtinOnly;
const result: DiffResult = diff({ metadata: {} }, 'metadata: {labels: {a: b}}', {
  preset: 'kubevirt-main',
  overrides: { 'metadata.labels': 'per-key' },
  explain: false,
});
const firstReason: string | undefined = result.ops?.[0]?.reason;
const surface: string[] = result.conflicts.map((c) => `${c.path}: ${c.reason}`);
const replay: Replay = simulate('name: x', { preset: 'naive' });
const code: number | undefined = replay.steps[0]?.response?.code;
const run: MigrateResult = migrate({ vms: 10, seed: 2, presets: ['kubevirt-main'] });
const falseConflicts: number = run.presets[0]!.total.false_conflicts;
const handler: string = run.presets[0]!.writers[2]!.name;
const names: string[] = presets().map((p) => `${p.name}: ${p.summary}`);
const v: string = version();
const checked: LintResult = lint(ops, { object: { metadata: {} }, semantics: 'rfc' });
const firstRule: string | undefined = checked.findings[0]?.rule;
const fixOps: Operation[] | null | undefined = checked.findings[0]?.fix;
const applies: boolean | undefined = checked.outcome?.applies;
const ruleNames: string[] = lintRules().map((r) => `${r.name} (${r.severity}): ${r.summary}`);
lint("kubectl patch vmi a --type=json -p '[]'");

try {
  applyPatch({}, [{ op: 'remove', path: '/x' }]);
} catch (e) {
  const err = e as PatchlabError;
  const where: string = `${err.kind} at op ${err.index ?? '-'} (${err.path ?? ''}), HTTP ${err.status ?? '-'}`;
  const restarted: boolean = err.kind === 'internal' || err.kind === 'not-initialised' || err.kind === 'init-failed';
  console.log(where, restarted);
}

// Wrong uses the declarations must refuse:
const why: Explanation = explain('Error from server (Conflict): Apply failed with 1 conflict: conflict with "a": .spec.x', {
  patch: [{ op: 'test', path: '/a', value: 1 }],
  object: { a: 2 },
  kubeVersion: '1.30',
  contentType: 'json',
});
const klass: string | null = why.class;
const retries: boolean = why.candidates[0]!.retry.retryOnConflict;
const link: string | null = why.checkLink;

// @ts-expect-error an unknown op name
buildPatch([{ op: 'upsert', path: '/a' }]);
// @ts-expect-error an unknown preset
diff({}, {}, { preset: 'fastest' });
// @ts-expect-error semantics is kube or rfc
applyPatch({}, [], { semantics: 'strict' });
// @ts-expect-error a strategic merge patch has no engine option (no RFC, no evanphx)
applyStrategicMergePatch({}, {}, { engine: 'evanphx-v4.12.0' });
// @ts-expect-error escapeJsonPointer takes a string
escapeJsonPointer(5);
// @ts-expect-error lint severities are error, warning or note
const sev: 'fatal' = lint('[]').findings[0]!.severity;
// @ts-expect-error init resolves to nothing to use
const exports: WebAssembly.Exports = await init();
// @ts-expect-error diff results are not strings
const wrong: string = diff({}, {});

console.log(exports, payload, plain, doc, text, merged, builtinOnly, firstReason, surface, code, falseConflicts, handler, names, v, wrong, firstRule, fixOps, applies, ruleNames, sev);

// @ts-expect-error explain classes are a closed set
const notAClass: Explanation['class'] = 'flaky';
