//! Patches inside the text that carries them, recognized without a flag:
//! a kustomization's `patches` (kustomize's `kustomization.yaml` and Flux's
//! `Kustomization`), and an admission webhook's `AdmissionReview` response.
//! Each says where its patches go ([`Context`]): kustomize's at build time,
//! the webhook's to the request's own object.
//!
//! Sources: kubernetes-sigs/kustomize `api/types/kustomization.go`
//! (`Patches`, `PatchesJson6902`, `PatchesStrategicMerge`; `api/types/patch.go`:
//! `Patch`, `Path`, `Target`), fluxcd/kustomize-controller
//! `api/v1/kustomization_types.go` (`spec.patches`), kubernetes
//! `staging/src/k8s.io/api/admission/v1/types.go` (`AdmissionResponse.Patch`:
//! base64 of a JSON patch, `PatchType: JSONPatch`).

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde_json::Value;

use super::context::Context;
use super::read::{BodyKind, Hint, Input, LintError, Wrapped};
use super::rules::{message, Rule};
use crate::input::Budget;

/// The most patches read out of one kustomization (a budget).
pub const MOST_PARTS: usize = 64;

/// One patch found in the carrier: its place, the text, the target kind.
struct Found {
    label: String,
    text: Text,
    kind: Option<String>,
}

/// Where a patch's text is.
enum Text {
    /// In the carrier.
    Inline(String),
    /// In a file the carrier names.
    File(String),
    /// Nowhere lint can read: why.
    Bad(String),
}

/// The patches of `value` when it is a kustomization or an AdmissionReview,
/// each read with `read` (a body reader): the first, carrying the others.
/// `None` when `value` is neither.
pub(super) fn unwrap(
    input: Input,
    budget: &Budget,
    read: impl Fn(&str, &Budget) -> Result<Input, LintError>,
) -> Result<Input, LintError> {
    // Only an object that names one of the kinds is parsed again.
    let named = ["\"Kustomization\"", "\"AdmissionReview\""];
    if input.kind == BodyKind::JsonPatch || !named.iter().any(|k| input.payload.contains(k)) {
        return Ok(input);
    }
    let Ok(value) = serde_json::from_str::<Value>(&input.payload) else {
        return Ok(input);
    };
    let Some((context, found)) = carried(&value).filter(|(_, found)| !found.is_empty()) else {
        return Ok(input);
    };
    let mut inputs = Vec::new();
    let mut files = Vec::new();
    for f in found.into_iter().take(MOST_PARTS) {
        let text = match f.text {
            Text::Inline(text) => text,
            Text::File(path) => {
                files.push((f.label, path));
                continue;
            }
            Text::Bad(why) => return Err(unreadable(format!("{}: {why}", f.label))),
        };
        let mut input = match read(&text, budget) {
            Ok(input) => input,
            Err(err) => match Input::judged(&err) {
                Some(input) => input,
                None => return Err(in_part(&f.label, err)),
            },
        };
        // kustomize applies an object as a strategic merge patch, read
        // with kyaml (go-yaml v3: YAML 1.2, where `n` and `on` are words,
        // and its writer quotes them for YAML 1.1 readers); a JSON 6902
        // patch it converts with sigs.k8s.io/yaml (YAML 1.1, as kubectl).
        if context == Context::Kustomize && input.kind != BodyKind::JsonPatch {
            input.kind = BodyKind::StrategicMergePatch;
            input.hints.retain(|h| h.rule != Rule::YamlBoolean);
        }
        let kind = f.kind.or_else(|| own_kind(&input));
        inputs.push((f.label, kind, input));
    }
    let notes: Vec<Hint> = files
        .into_iter()
        .map(|(label, path)| Hint {
            rule: Rule::BodyUnknown,
            message: message!(BodyUnknown "file", label, path),
        })
        .collect();
    let mut parts = inputs.into_iter().map(|(label, kind, mut input)| {
        input.wrapper = Some(Box::new(Wrapped {
            context,
            label,
            kind,
            others: Vec::new(),
            unread: Vec::new(),
        }));
        input
    });
    let Some(mut first) = parts.next() else {
        return Err(LintError::Judged {
            hints: notes,
            line: None,
            column: None,
            kind: BodyKind::StrategicMergePatch,
        });
    };
    if let Some(wrapper) = first.wrapper.as_mut() {
        wrapper.others = parts.collect();
        wrapper.unread = notes;
    }
    Ok(first)
}

/// An error reading one patch, with its place.
fn in_part(label: &str, err: LintError) -> LintError {
    unreadable(format!("{label}: {err}"))
}

/// A patch of the carrier lint cannot read: what and which.
fn unreadable(message: String) -> LintError {
    LintError::Syntax(crate::input::InputError {
        message,
        line: None,
        column: None,
    })
}

/// A strategic merge patch's own `kind` (kustomize finds its target so).
fn own_kind(input: &Input) -> Option<String> {
    let value: Value = serde_json::from_str(&input.payload).ok()?;
    value.get("kind")?.as_str().map(str::to_owned)
}

/// Where the patches of `value` go, and the patches, when it carries any.
fn carried(value: &Value) -> Option<(Context, Vec<Found>)> {
    let kind = value.get("kind")?.as_str()?;
    let api = value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    match kind {
        "AdmissionReview" => Some((Context::WebhookResponse, admission(value)?)),
        "Kustomization" if api.starts_with("kustomize.toolkit.fluxcd.io/") => Some((
            Context::Kustomize,
            kustomization(value.get("spec")?, "spec."),
        )),
        "Kustomization" if api.is_empty() || api.starts_with("kustomize.config.k8s.io/") => {
            Some((Context::Kustomize, kustomization(value, "")))
        }
        _ => None,
    }
}

/// `response.patch` of an AdmissionReview: base64 of a JSON patch.
fn admission(value: &Value) -> Option<Vec<Found>> {
    let patch = value.get("response")?.get("patch")?.as_str()?;
    let text = STANDARD
        .decode(patch.trim())
        .map_err(|e| e.to_string())
        .and_then(|bytes| String::from_utf8(bytes).map_err(|e| e.to_string()))
        .map_err(|e| format!("not base64 of UTF-8 text ({e})"));
    Some(vec![Found {
        label: "response.patch".to_owned(),
        text: match text {
            Ok(text) => Text::Inline(text),
            Err(why) => Text::Bad(why),
        },
        kind: None,
    }])
}

/// A kustomization's patches, in the order kustomize lists its fields.
fn kustomization(k: &Value, at: &str) -> Vec<Found> {
    let mut found = Vec::new();
    for field in ["patches", "patchesJson6902"] {
        let items = k.get(field).and_then(Value::as_array);
        for (i, item) in items.into_iter().flatten().enumerate() {
            let target = item.get("target");
            let kind = target
                .and_then(|t| t.get("kind"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            let name = target.and_then(|t| t.get("name")).and_then(Value::as_str);
            let named = match (&kind, name) {
                (Some(k), Some(n)) => format!(" ({k} {n})"),
                (Some(k), None) => format!(" ({k})"),
                _ => String::new(),
            };
            let label = format!("{at}{field}[{i}]{named}");
            let text = match (item.get("patch"), item.get("path").and_then(Value::as_str)) {
                (Some(Value::String(text)), _) => Text::Inline(text.clone()),
                // Flux writes a JSON 6902 patch as a list of ops.
                (Some(ops @ Value::Array(_)), _) => Text::Inline(ops.to_string()),
                (_, Some(path)) => Text::File(path.to_owned()),
                _ => continue,
            };
            found.push(Found { label, text, kind });
        }
    }
    let items = k.get("patchesStrategicMerge").and_then(Value::as_array);
    for (i, item) in items.into_iter().flatten().enumerate() {
        let label = format!("{at}patchesStrategicMerge[{i}]");
        let text = match item {
            Value::String(s) if s.contains('\n') || s.trim_start().starts_with('{') => {
                Text::Inline(s.clone())
            }
            Value::String(path) => Text::File(path.clone()),
            // Flux writes the patch as an object.
            object @ Value::Object(_) => Text::Inline(object.to_string()),
            _ => continue,
        };
        found.push(Found {
            label,
            text,
            kind: None,
        });
    }
    found
}
