//! `lint(patch, { object, semantics })` and `lintRules()`: the rules engine
//! ([`crate::lint`]) for JavaScript, returning the CLI's `--format json`
//! shape.

use js_sys::JsString;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{
    bad_argument, checked_string, cluster_of, document, json_text, to_js, type_name, value_to_js,
    ErrorBuilder, OptionsReader,
};
use crate::input::Budget;
use crate::lint::{self, report, AppliesTo, LintError, Options, RULES};

/// The TypeScript declarations of this module's exports.
pub const LINT_TYPES: &str = r#"
/** The lint rules' stable names (see `lintRules()` and docs/lint.md). */
export type LintRule =
  | "whole-map-test" | "whole-list-test" | "unescaped-slash" | "invalid-pointer"
  | "test-never-matches" | "index-without-test" | "remove-without-test" | "add-without-test"
  | "test-after-write" | "duplicate-path" | "rv-test" | "redirect-truncates-input" | "rv-pinned-body" | "engine-dependent"
  | "release-dependent"
  | "too-many-ops" | "body-too-large" | "malformed-op" | "fails-now"
  | "merge-replaces-list" | "merge-null-deletes" | "whole-collection-write" | "whole-object-test"
  | "merge-has-directive" | "smp-custom-resource" | "smp-bad-directive" | "smp-replaces-list"
  | "smp-patch-replace" | "smp-missing-merge-key" | "smp-nondeterministic" | "byte-order-mark"
  | "go-formatted-body" | "non-string-value" | "yaml-number"
  | "test-retried-on-conflict" | "merge-from-replaces-list" | "unknown-field" | "yaml-boolean"
  | "command-fails" | "undecodable-body" | "body-unknown" | "read-then-patch" | "write-dropped";

/** `error`: cannot work; `warning`: fails or loses data under concurrency; `note`. */
export type LintSeverity = "error" | "warning" | "note";

export interface LintOptions {
  /** The current object (or its JSON or YAML text): adds whether the patch applies now. */
  object?: Json | string;
  /** The engine the patch is for (default `kube`). */
  semantics?: Semantics;
  /** The object's kind (`Node`, `VirtualMachineInstance`): decides who else writes a field. Default: the object's kind, or the one a kubectl command names. */
  kind?: string;
  /** The cluster's release (default "1.36"): its kinds, group versions and fields, and its engines. */
  kubeVersion?: KubeVersion;
  /** Where the patch is applied (default `live`): off a live object the rules about concurrent writers and the server's limits do not apply. */
  context?: LintContext;
}

/** Where a patch is applied: a live object, kustomize build, a Helm post-renderer, a mutating webhook's response, a Velero restore. */
export type LintContext = "live" | "kustomize" | "helm-post-renderer" | "webhook-response" | "restore-time";

export interface LintFinding {
  rule: LintRule;
  severity: LintSeverity;
  /** The op it is about; null for the whole body (or a member of a merge patch). */
  index: number | null;
  path: string | null;
  /** Names the op index and path. */
  message: string;
  /** The whole patch rewritten, when lint can compute it. */
  fix: Operation[] | null;
  /** The other writers of the field (names from docs/lint.md's writers table), when known. */
  writers?: string[];
  /** The same finding on further ops, folded into this one (a rule lists five findings, then folds). */
  folded?: { count: number; indices: number[]; paths: string[] };
}

export interface LintOutcome {
  applies: boolean;
  index: number | null;
  path: string | null;
  /** The engine's own cause (the server hides it behind a generic 422). */
  cause: string | null;
  response: ServerResponse | null;
  /** True when applying changes nothing. */
  unchanged: boolean;
}

export interface LintResult {
  kind: "json-patch" | "merge-patch" | "strategic-merge-patch";
  semantics: Semantics;
  opCount: number;
  /** By op index, worst first. */
  findings: LintFinding[];
  /** With `object`: does the patch apply now? */
  outcome: LintOutcome | null;
  /** Concurrent changes that make the patch fail. */
  conflicts: { path: string; reason: string }[];
  /** Concurrent changes it would silently overwrite. */
  overwrites: { path: string; reason: string }[];
  /** Where the patch is applied, when `options.context` is not `live`. */
  context?: LintContext;
  /** For a merge or strategic merge body: what each patch type would do with it, list by list. */
  types?: {
    summary: string;
    lists: { path: string; strategic: string; merge: string }[];
  };
}

export interface LintRuleInfo {
  name: LintRule;
  severity: LintSeverity;
  summary: string;
  explanation: string;
  fix: string;
  appliesTo: "json-patch" | "merge-patch" | "both" | "strategic-merge-patch" | "all" | "go-source";
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = LINT_TYPES;

fn lint_error(err: &LintError) -> JsValue {
    let (line, column) = err.location();
    let kind = match err {
        LintError::Syntax(_) | LintError::Object(_) => "syntax",
        LintError::Payload(crate::patch::PayloadError::Syntax { .. }) => "syntax",
        LintError::Payload(_) | LintError::NotAPatch { .. } | LintError::Judged { .. } => {
            "invalid-patch"
        }
        LintError::Command { .. }
        | LintError::ObjectNotAnObject { .. }
        | LintError::Unsupported(_) => "bad-argument",
    };
    let status = match err {
        LintError::Payload(p) if p.is_body_error() => Some(400u16),
        _ => None,
    };
    ErrorBuilder::new(kind, &err.to_string())
        .set_opt("index", err.index().map(|i| i as u32))
        .set_opt("line", line.map(|l| l as u32))
        .set_opt("column", column.map(|c| c as u32))
        .set_opt("status", status)
        .build()
}

/// Checks a patch for hazards: a JSON patch (an array of ops, or payload
/// text as sent: `test` values are compared byte for byte), a merge patch
/// (an object, or its text), JSON or YAML text, or a whole `kubectl patch`
/// command line. With `options.object`, also whether it applies now.
/// Returns what `patchlab lint --format json` prints.
#[wasm_bindgen(unchecked_return_type = "LintResult")]
pub fn lint(
    #[wasm_bindgen(unchecked_param_type = "Operation[] | Json | string")] patch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "LintOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let reader = OptionsReader::new(
        options,
        "options",
        &["object", "semantics", "kind", "kubeVersion", "context"],
    )?;
    let semantics = match reader.string("semantics")?.as_deref() {
        None => crate::apply::Semantics::Kube,
        Some(s) => s.parse().map_err(|_| {
            bad_argument(format!(
                "options.semantics must be \"kube\" or \"rfc\", found {s:?}"
            ))
        })?,
    };
    let object = reader.get("object")?;
    let object = if object.is_undefined() || object.is_null() {
        None
    } else {
        let value = document(&object, "options.object", true)?;
        if !value.is_object() {
            return Err(bad_argument(format!(
                "options.object must be a Kubernetes object, found {}",
                type_name(&object)
            )));
        }
        Some(value)
    };
    let text = match patch.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, "patch")?,
        None if patch.is_object() => json_text(&patch, "patch")?,
        None => {
            return Err(bad_argument(format!(
                "patch must be an array of ops, a merge patch object or text, found {}",
                type_name(&patch)
            )))
        }
    };
    let budget = Budget {
        max_bytes: crate::limits::OBJECT_BYTES,
        ..lint::budget()
    };
    let input = lint::read_for_lint(&text, &budget, None).map_err(|e| lint_error(&e))?;
    let options = Options {
        semantics,
        object,
        kind: reader.string("kind")?,
        cluster: cluster_of(reader.string("kubeVersion")?.as_deref(), None)?,
        context: match reader.string("context")?.as_deref() {
            None => lint::context::Context::Live,
            Some(c) => c.parse().map_err(|e: lint::context::UnknownContext| {
                bad_argument(format!("options.context: {e}"))
            })?,
        },
        ..Options::default()
    };
    let report = lint::lint_input(&input, &options).map_err(|e| lint_error(&e))?;
    value_to_js(&report::json(&report))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleOut {
    name: &'static str,
    severity: &'static str,
    summary: &'static str,
    explanation: &'static str,
    fix: &'static str,
    applies_to: &'static str,
}

/// The rule table: every rule's name, severity, summary, explanation and
/// what its fix does.
#[wasm_bindgen(js_name = lintRules, unchecked_return_type = "LintRuleInfo[]")]
pub fn lint_rules() -> Result<JsValue, JsValue> {
    let rules: Vec<RuleOut> = RULES
        .iter()
        .map(|info| RuleOut {
            name: info.name,
            severity: info.severity.as_str(),
            summary: info.summary,
            explanation: info.explanation,
            fix: info.fix,
            applies_to: match info.applies_to {
                AppliesTo::JsonPatch => "json-patch",
                AppliesTo::MergePatch => "merge-patch",
                AppliesTo::Both => "both",
                AppliesTo::StrategicMergePatch => "strategic-merge-patch",
                AppliesTo::All => "all",
                AppliesTo::GoSource => "go-source",
            },
        })
        .collect();
    to_js(&rules)
}
