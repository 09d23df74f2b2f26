//! `explain(text, { patch, object, kubeVersion, contentType })`: an error
//! text in, its cause, whether a retry helps and the fix out
//! ([`crate::explain`]); the shape `patchlab explain --format json` prints.

use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{
    bad_argument, checked_string, json_text, to_js, type_name, ErrorBuilder, OptionsReader,
};
use crate::explain::{self, ExplainError, Release, Request, MAX_TEXT_BYTES};

/// The TypeScript declarations of this module's export.
pub const EXPLAIN_TYPES: &str = r#"
/** The classes of failed writes (see docs/explain.md). */
export type ErrorClass =
  | "test-failed" | "missing-path" | "bad-index" | "malformed-op"
  | "rv-precondition" | "update-conflict" | "ssa-conflict"
  | "smp-custom-resource" | "smp-merge-key" | "content-type" | "decode-error"
  | "engine-panic" | "too-large" | "too-many-ops"
  | "invalid" | "immutable" | "missing-resource-version" | "name-mismatch"
  | "not-found" | "forbidden" | "admission-denied" | "transient";

export interface ExplainOptions {
  /** The patch that was sent: ops, a merge patch object, payload text, or a whole `kubectl patch` line. */
  patch?: Operation[] | Json | string;
  /** The object as the server held it (or its JSON or YAML text): the patch is replayed on it. */
  object?: Json | string;
  /** The cluster's release: any "1.X" or "1.X.Y" (default "1.36"); one before 1.25 or after 1.36 is explained with the nearest modelled engine, and `releaseNote` says what differs. */
  kubeVersion?: string;
  /** The content type sent: "json", "merge", "strategic", "apply" or a media type. */
  contentType?: string;
}

export interface ExplainRetry {
  /** Whether client-go's RetryOnConflict retries it (409 Conflict only). */
  retryOnConflict: boolean;
  helps: "later" | "after-reread" | "no";
  advice: string;
}

export interface ExplainSource {
  repo: string;
  path: string;
  symbol: string;
  /** The branch or tag read. */
  at: string;
  line?: number;
}

export interface ExplainCandidate {
  class: ErrorClass;
  label: string;
  definition: string;
  retry: ExplainRetry;
  fix: string;
  sources: ExplainSource[];
}

export interface ExplainReplay {
  release: KubeVersion;
  engine: Engine;
  applies: boolean;
  index: number | null;
  op: string | null;
  path: string | null;
  class: ErrorClass | null;
  /** The engine's own cause, which the server drops. */
  cause: string | null;
  expected?: Json;
  actual?: Json;
  /** True when the member the test looked at is absent. */
  absent?: boolean;
  response: ServerResponse | null;
}

export interface Explanation {
  recognised: boolean;
  /** The class, when decided; null when the text (and what was given) cannot decide. */
  class: ErrorClass | null;
  /** Every class consistent with what is known, likeliest first. */
  candidates: ExplainCandidate[];
  decidedBy: string | null;
  /** When undecided: what would decide. */
  wouldDecide: string | null;
  shape: "kubectl" | "kubectl-client" | "status-json" | "audit-event" | "verbose-trace"
    | "log-line" | "python" | "java" | "javascript" | "go-panic" | "plain";
  seen: { code: number | null; reason: string | null; message: string | null; verb: string | null; contentType: string | null };
  target: { group: string | null; resource: string | null; namespace: string | null; name: string | null };
  /** The Kubernetes (or client) text that matched. */
  matched: string | null;
  details: {
    path?: string; index?: number;
    managers?: { manager: string; name: string; operation: "Apply" | "Update"; fields: string[] }[];
    fields?: { field: string; message: string }[];
    accepted?: string[]; webhook?: string; user?: string; opCount?: number;
    decodeError?: string; releases?: string;
    /** Recognised as no failure of the write itself: what it is, and what helps. */
    outside?: string;
  };
  summary: string;
  retry: ExplainRetry | null;
  fix: string[];
  findings: LintFinding[];
  /** The first rewrite offered ("send instead"), linted and replayed on the object first. */
  rewrite: string | null;
  /** Every rewrite considered: its replay on the object (null: no object given) and, when not offered, why. */
  offers: { from: string; payload: string; contentType: string; replayed: boolean | null; dropped?: string }[];
  /** For a decode error: where the patch stops being readable. */
  decodeAt?: { what: string; line: number; column: number; character: string | null; message: string };
  replay: ExplainReplay | null;
  /** Releases whose engine panics on this patch and object. */
  panicsOn: KubeVersion[];
  /** The release whose engine explains it. */
  release: KubeVersion;
  /** The release asked, when it is not one patchlab models. */
  askedRelease?: string;
  /** For a release patchlab does not model: what its own code answers otherwise. */
  releaseNote?: string;
  /** The options that could not be read: explained without them. */
  unread: { input: "patch" | "object" | "content-type"; message: string; line?: number; column?: number }[];
  /** What the Check view opens (with a patch). */
  check: { patch: string; object?: string } | null;
  /** `#/check?s=...`: append to the playground's address. */
  checkLink: string | null;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = EXPLAIN_TYPES;

fn explain_error(err: &ExplainError) -> JsValue {
    let kind = match err {
        ExplainError::TextTooLarge { .. } => "too-large",
        ExplainError::Empty => "bad-argument",
    };
    ErrorBuilder::new(kind, &err.to_string()).build()
}

/// The text of an option that may be JSON data or text.
fn data_or_text(options: &OptionsReader, key: &str) -> Result<Option<String>, JsValue> {
    let value = options.get(key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let what = format!("options.{key}");
    match value.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, &what).map(Some),
        None if value.is_object() => json_text(&value, &what).map(Some),
        None => Err(bad_argument(format!(
            "{what} must be JSON data or text, found {}",
            type_name(&value)
        ))),
    }
}

/// Explains an error a Kubernetes write got: kubectl's message, a log
/// line, a Status JSON, an audit event, a client's exception. With
/// `options.patch` (and `options.object`) the patch is replayed on the
/// engine of the release to name the failing op. Returns what `patchlab
/// explain --format json` prints; `recognised` is false for a text it
/// does not know.
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ExplainOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let Some(text) = text.dyn_ref::<JsString>() else {
        return Err(bad_argument(format!(
            "text must be a string, found {}",
            type_name(&text)
        )));
    };
    if text.length() as usize > MAX_TEXT_BYTES {
        return Err(explain_error(&ExplainError::TextTooLarge {
            size: text.length() as usize,
        }));
    }
    let text = String::from(text);
    let opts = OptionsReader::new(
        options,
        "options",
        &["patch", "object", "kubeVersion", "contentType"],
    )?;
    let kube_version = opts
        .string("kubeVersion")?
        .map(|v| {
            v.parse::<Release>()
                .map_err(|e| bad_argument(format!("options.kubeVersion: {e}")))
        })
        .transpose()?;
    let content_type = opts.string("contentType")?;
    let patch = data_or_text(&opts, "patch")?;
    let object = data_or_text(&opts, "object")?;
    let request = Request {
        text: &text,
        patch: patch.as_deref(),
        object: object.as_deref(),
        kube_version,
        content_type: content_type.as_deref(),
    };
    let explanation = explain::explain(&request).map_err(|e| explain_error(&e))?;
    to_js(&explanation)
}
