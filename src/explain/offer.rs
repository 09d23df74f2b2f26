//! What explain offers to send instead, proven first: every rewrite (lint's
//! fixes, and explain's own: the same body under the content type the
//! resource takes, a patch without the resourceVersion pin) is linted and
//! replayed on the object given with the release's engine; one that lint
//! flags or that fails there is not offered, and the explanation says why.

use serde::Serialize;
use serde_json::Value;

use super::replay;
use crate::kube::{Cluster, KubeVersion};
use crate::lint::{self, BodyKind, Options, Severity};
use crate::patch;
use crate::vocabulary::ErrorClass;

/// A rewrite explain considered, and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Offer {
    /// Where it comes from: `lint RULE`, or explain's own advice.
    pub from: String,
    /// The body to send.
    pub payload: String,
    /// Its content type.
    pub content_type: &'static str,
    /// The replay on the object given: `Some(true)` applies, `Some(false)`
    /// fails, `None` not replayed (no object given).
    pub replayed: Option<bool>,
    /// Why it is not offered (lint flags it, or it fails on the object);
    /// `None`: offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<String>,
}

impl Offer {
    /// True when it is offered.
    pub fn offered(&self) -> bool {
        self.dropped.is_none()
    }
}

/// A rewrite before it is proven.
pub(super) struct Rewrite {
    pub from: String,
    pub payload: String,
    pub kind: BodyKind,
}

/// Lints and replays each rewrite on `object` (when given) with the
/// engine of `release`: each one's fate, in order.
pub(super) fn prove(
    rewrites: Vec<Rewrite>,
    object: Option<&Value>,
    release: KubeVersion,
) -> Vec<Offer> {
    let mut out: Vec<Offer> = Vec::new();
    for r in rewrites {
        if out.iter().any(|o| o.payload == r.payload) {
            continue;
        }
        let mut dropped = flagged(&r, object, release);
        let replayed = object.map(|object| {
            let rerun = replay::replay(r.kind, &r.payload, object, release);
            if !rerun.applies && dropped.is_none() {
                dropped = Some(format!(
                    "replayed on the object given with the engine of Kubernetes {release}, it fails too{}",
                    rerun
                        .cause
                        .as_deref()
                        .map(|c| format!(" ({c})"))
                        .unwrap_or_default()
                ));
            }
            rerun.applies
        });
        out.push(Offer {
            from: r.from,
            payload: r.payload,
            content_type: r.kind.content_type(),
            replayed,
            dropped,
        });
    }
    out
}

/// Lint's finding on the rewrite at warning or above, if any.
fn flagged(r: &Rewrite, object: Option<&Value>, release: KubeVersion) -> Option<String> {
    let mut input = match lint::read(&r.payload, &lint::budget()) {
        Ok(input) => input,
        Err(err) => return Some(format!("lint cannot read it: {err}")),
    };
    if input.kind != r.kind && input.set_kind(r.kind).is_err() {
        return Some(format!("it is no {} body", r.kind.as_str()));
    }
    let options = Options {
        object: object.cloned(),
        cluster: Cluster::new(release),
        ..Options::default()
    };
    let report = lint::lint_input(&input, &options).ok()?;
    report
        .findings
        .iter()
        .find(|f| f.severity >= Severity::Warning)
        .map(|f| format!("lint flags it: {}: {}", f.rule.as_str(), f.message))
}

/// True when a merge patch body carries strategic merge patch directives
/// (`$patch`, `$setElementOrder/...`, `$retainKeys`,
/// `$deleteFromPrimitiveList/...`): as a merge patch they would be
/// stored as members.
fn has_directives(value: &Value) -> bool {
    match value {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| k.starts_with('$') || has_directives(v)),
        Value::Array(items) => items.iter().any(has_directives),
        _ => false,
    }
}

/// explain's own rewrites for `class`: `body` is the JSON the patch sends
/// and `kind` how it was sent.
pub(super) fn own(class: Option<ErrorClass>, body: &str, kind: BodyKind) -> Vec<Rewrite> {
    let Some(class) = class else {
        return Vec::new();
    };
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let smp = kind == BodyKind::StrategicMergePatch;
    match (class, &value) {
        (ErrorClass::SmpCustomResource | ErrorClass::ContentType, Value::Object(_))
            if smp && !has_directives(&value) =>
        {
            out.push(Rewrite {
                from: "explain: the same body as a merge patch (kubectl patch --type=merge)"
                    .to_owned(),
                payload: value.to_string(),
                kind: BodyKind::MergePatch,
            });
        }
        (ErrorClass::ContentType, Value::Array(_)) if kind != BodyKind::JsonPatch => {
            out.push(Rewrite {
                from: "explain: the same list as a JSON patch (kubectl patch --type=json)"
                    .to_owned(),
                payload: value.to_string(),
                kind: BodyKind::JsonPatch,
            });
        }
        (ErrorClass::RvPrecondition, _) => out.extend(without_rv_pin(&value, kind)),
        _ => {}
    }
    out
}

/// The patch without its `metadata.resourceVersion` pin.
fn without_rv_pin(value: &Value, kind: BodyKind) -> Option<Rewrite> {
    let mut value = value.clone();
    match kind {
        BodyKind::JsonPatch => {
            let ops = value.as_array_mut()?;
            let before = ops.len();
            ops.retain(|op| {
                op.get("path").and_then(Value::as_str) != Some("/metadata/resourceVersion")
            });
            if ops.len() == before || ops.is_empty() {
                return None;
            }
            patch::decode(&value.to_string()).ok()?;
        }
        BodyKind::MergePatch => {
            let meta = value.get_mut("metadata")?.as_object_mut()?;
            meta.remove("resourceVersion")?;
        }
        _ => return None,
    }
    Some(Rewrite {
        from: "explain: the same patch without the metadata.resourceVersion pin".to_owned(),
        payload: value.to_string(),
        kind,
    })
}
