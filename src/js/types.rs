//! The TypeScript declarations of the module (`patchlab.d.ts`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One RFC 6902 operation. */
export interface Operation {
  op: "add" | "remove" | "replace" | "test" | "move" | "copy";
  path: string;
  from?: string;
  value?: Json;
}

/** `kube` (default): what kube-apiserver does; `rfc`: strict RFC 6902. */
export type Semantics = "kube" | "rfc";

/**
 * The strategy presets, as in the CLI and the playground: `kubevirt-main`
 * is KubeVirt's code today, `kubevirt-per-key` adds PR #18139's per-key map
 * ops. The old names `kubevirt-head` and `kubevirt-pr18139` are still read
 * (as `kubevirt-main` and `kubevirt-per-key`); results carry the new names.
 */
export type Preset =
  | "kubevirt-main" | "kubevirt-per-key" | "naive" | "optimistic"
  | "merge" | "ssa" | "update"
  /** A strategic merge patch, as kubectl computes it: built-in kinds only (a custom resource answers 415). */
  | "strategic"
  | "kubevirt-head" | "kubevirt-pr18139";

/** Per-field strategies (see `presets()` for what each does). */
export type Strategy =
  | "whole-map" | "per-key" | "add-only"
  | "whole-slice" | "test-add" | "element"
  | "test-replace" | "add-if-absent" | "guarded-add" | "per-field" | "blind"
  | "strategic-merge"
  | string;

export interface BuildOptions {
  /** `go` (default): bytes as KubeVirt's Go builder sends them; `plain`: serde_json. */
  encoding?: "go" | "plain";
}

/** A Kubernetes release modelled: "1.25" to "1.36", or "1.X.Y" ("1.28.0" and "1.28.1" ran another engine than later 1.28 releases). */
export type KubeVersion = string;

/** A release of evanphx/json-patch that kube-apiserver has shipped. */
export type Engine = "evanphx-v5.6.0" | "evanphx-v4.12.0" | "evanphx-v4.13.0";

/** Which kube-apiserver answers: its release (default "1.36") and, to compare, another engine. */
export interface ClusterOptions {
  kubeVersion?: KubeVersion;
  engine?: Engine;
}

export interface ApplyOptions extends ClusterOptions {
  semantics?: Semantics;
}

export interface KubeVersionInfo {
  version: KubeVersion;
  engine: Engine;
  /** For a picker: `1.36 (evanphx/json-patch v4.13.0)`. */
  label: string;
}

export interface DiffOptions {
  /** Default `kubevirt-per-key`. */
  preset?: Preset;
  /** Strategy per path (`/json/pointer` or `dotted.path`). */
  overrides?: Record<string, Strategy>;
  /** Field manager of a server-side-apply configuration (preset `ssa`). */
  fieldManager?: string;
  /** Pin `metadata.resourceVersion` in a merge patch (preset `merge`). */
  mergeResourceVersion?: boolean;
  /** Reasons, conflict surface, overwrites and notes (default true; false is faster). */
  explain?: boolean;
  /** The release whose schemas the `strategic` preset reads: its kinds, group versions and fields (default "1.36"). */
  kubeVersion?: KubeVersion;
}

export interface PlannedOperation extends Operation {
  /** Why this op is there. */
  reason: string;
  /** The field (unit) it belongs to. */
  field: string;
  /** The strategy that produced it. */
  strategy: Strategy;
}

export interface ChangedField {
  path: string;
  kind: "map" | "set" | "atomic-list" | "struct" | "scalar" | string;
  strategy: Strategy;
  change: "added" | "removed" | "modified";
}

export interface DiffResult {
  preset: Preset;
  /** `application/json-patch+json`, `application/merge-patch+json`, ... */
  contentType: string;
  /** True when nothing needs to be sent. */
  empty: boolean;
  /** The bytes on the wire (JSON Patch payload, merge or update body, or apply YAML). */
  body: string;
  /** The ops with their reasons (JSON Patch presets only). */
  ops: PlannedOperation[] | null;
  fields: ChangedField[];
  /** Concurrent changes that make this patch fail. */
  conflicts: { path: string; reason: string }[];
  /** Concurrent changes this patch would silently overwrite. */
  overwrites: { path: string; reason: string }[];
  notes: string[];
}

export interface SimulateOptions extends ClusterOptions {
  /** Replace every writer's preset (fixed writers excepted). */
  preset?: Preset;
}

export interface ServerResponse {
  code: number;
  reason: string;
  message: string;
  /** `Warning` headers of an accepted body (unknown or duplicate fields). */
  warnings?: string[];
}

/** A scenario, as in `www/scenarios/*.yaml` (YAML or JSON text also accepted). */
export interface Scenario {
  name: string;
  description?: string;
  objects: Json[];
  owner?: string;
  writers: Json[];
  schedule: Json[];
}

/** A replay: every step's request, response and object after, then outcomes. */
export interface Replay {
  scenario: string;
  preset: Preset | null;
  cluster: { version: KubeVersion; engine: Engine };
  initial: Json[];
  steps: ({ index: number; writer: string; event: string; response: ServerResponse | null } & { [key: string]: Json })[];
  /**
   * Per writer (`writers`): the counts, `intent_holds`, `end`, and
   * `not_held` (null, or why its intent does not hold: `{ reason: "gave-up" |
   * "not-retried" | "never-wrote" | "lost" | "overwritten" | "nothing-sent" |
   * "unmet", code?, by?, intent?, step? }`); `lost_updates`; `intents_hold`.
   */
  outcomes: { [key: string]: Json };
}

export interface MigrateOptions extends ClusterOptions {
  /** VMIs per preset, 1 to 100,000 (default 2000). */
  vms?: number;
  /** Seed of every random choice (default 1). */
  seed?: number;
  /** Presets to compare (default all). */
  presets?: Preset[];
  /**
   * Churn: extra writers per VMI, 0 to 8 (default 0). Extra writer K
   * (`churn-K`) sets its own label `example.com/churn-K` with the preset,
   * reading, writing and retrying like the others; it changes nothing
   * another writer means to change.
   */
  churn?: number;
  /**
   * Retry budget: how many times each writer may re-read and write again
   * after a failed write, 0 to 8 (default 2).
   */
  retries?: number;
}

/** Counts; each field is a term of patchlab's vocabulary (see `patchlab explain` / the glossary). */
export interface Counts {
  writes: number;
  ok: number;
  /** 422 answers: a JSON patch op failed (a failed test), the whole patch dropped. */
  invalid: number;
  /** 409 answers: a stale resourceVersion, or an apply conflict. */
  conflict: number;
  other_errors: number;
  retries: number;
  /** Judged on the request: failed writes (422 or 409) whose request, forced (tests, resourceVersion, ownership set aside), would have undone no change another writer made since the read. */
  false_conflicts: number;
  /** Needless failures whose failing test was on a map (labels, annotations, activePods). */
  needless_failures_on_maps: number;
  /** Judged on the request: failed writes whose request, forced, would have undone a change another writer made since the read: the failure kept it. */
  true_conflicts: number;
  /** Judged on the intent: failed writes whose writer's intent, done afresh on the object as it stood, would have undone no change another writer made since the read. */
  needless_failures: number;
  /** Changes of this writer that a later write erased, its writer not having read them. */
  lost_updates: number;
  gave_up: number;
}

export interface WriterTotals extends Counts {
  name: string;
  preset: Preset;
  /** VMIs where this writer's intent does not hold at the end. */
  intent_not_held: number;
}

export interface PresetResult {
  preset: Preset;
  /** Every writer's counts added up. */
  total: Counts;
  /** VMIs where some writer's intent does not hold at the end. */
  vmis_intent_not_held: number;
  /** virt-controller, migration-controller, virt-handler. */
  writers: WriterTotals[];
}

export interface MigrateResult {
  vms: number;
  seed: number;
  presets: PresetResult[];
}

export interface PresetInfo {
  name: Preset;
  summary: string;
  /** True for `strategic`: only built-in kinds take it (a custom resource answers 415). */
  builtinOnly: boolean;
}

/** What went wrong; thrown by every function of this module. */
export type ErrorKind =
  | "bad-argument"   // an argument of the wrong type or an unknown option value
  | "too-large"      // over the size budget (4 MiB of JSON text) or a count limit
  | "syntax"         // text that is not JSON (or YAML, where accepted): see line, column
  | "invalid-patch"  // a patch that is not a list of well-formed ops: see index
  | "invalid-pointer"// a path that is not an RFC 6901 JSON Pointer: see index, path
  | "empty-patch"    // buildPatch of no ops (KubeVirt: "list of patches is empty")
  | "test-failed"    // a test op found another value: see index, path, expected, actual
  | "unsupported-media-type" // a strategic merge patch to a custom resource (415)
  | "not-found"      // a group version or kind the release does not serve (404, the server's routing)
  | "method-not-allowed" // a resource that takes no PATCH (405: reviews' subresources, componentstatuses)
  | "no-schema"      // a built-in kind patchlab has no schema for: it cannot merge
  | "missing-merge-key" // a strategic merge patch list element without its merge key (500)
  | "name-mismatch"  // the patched object names another object or namespace (400)
  | "engine-panic"   // the server's engine panics here (500; evanphx v4.12.0 and v5.6.0)
  | "apply-failed"   // any other op failure: see index, path, cause
  | "invalid-scenario"
  | "diff-failed"
  | "not-initialised"// a call before init() in a browser
  | "init-failed"    // the wasm could not be fetched, or is not wasm
  | "internal";      // the module stopped (out of memory, a bug): a fresh instance answers the next call

export interface PatchlabError extends Error {
  name: "PatchlabError";
  kind: ErrorKind;
  /** Zero-based op index, for errors about one op. */
  index?: number;
  /** The failing op's name. */
  op?: string;
  /** The failing op's path. */
  path?: string;
  /** Why, in words: patchlab's explanation (for a failed op the server discards it). */
  cause?: string;
  /** What kube-apiserver answers (kube semantics only): 400, 413, 415, 422 or 500. */
  status?: number;
  /** That answer's reason (`BadRequest`, `Invalid`, ...) and message, in the server's words. */
  reason?: string;
  response?: string;
  /** The engine that ran (kube semantics only). */
  engine?: Engine;
  /** 1-based line and column of a syntax error. */
  line?: number;
  column?: number;
  /** A failed test's expected value and the value found (undefined: absent). */
  expected?: Json;
  actual?: Json;
}
"#;
