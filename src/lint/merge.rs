//! The merge patch rules.

use serde_json::Value;

use super::{BodyKind, Finding, Options, Outcome, Report, Rule};
use crate::apply;
use crate::pointer::{escape, Pointer};
use crate::strategy::{self, merge, Overwrite, Precondition, Preset};

pub(super) fn merge_patch(body: &Value, options: &Options) -> Report {
    let mut findings = Vec::new();
    // What PR #18139's strategies would send instead, from the object.
    let rewrite = options.object.as_ref().and_then(|object| {
        let mut new = object.clone();
        apply::merge::apply(&mut new, body);
        let plan = strategy::diff(
            object,
            &new,
            &strategy::Options {
                policy: {
                    let mut policy = options.policy.clone();
                    policy.preset = Preset::KubevirtPerKey;
                    policy
                },
                ..strategy::Options::preset(Preset::KubevirtPerKey)
            },
        )
        .ok()?;
        Some(plan.patch_set().ops().to_vec())
    });
    walk(body, &mut String::new(), &mut |path, value| {
        match value {
        Value::Array(items) => findings.push(
            Finding::new(
                Rule::MergeReplacesList,
                None,
                Some(path),
                format!(
                    "{path} is a list ({} elements): a merge patch replaces the stored list whole, so an element another writer added or removed since your read is silently lost",
                    items.len()
                ),
            )
            .with_fix(rewrite.clone()),
        ),
        Value::Null => findings.push(
            Finding::new(
                Rule::MergeNullDeletes,
                None,
                Some(path),
                format!("{path} is null: a merge patch deletes the member, whatever value another writer put there meanwhile"),
            )
            .with_fix(rewrite.clone()),
        ),
        _ => {}
    }
    });
    let outcome = options.object.as_ref().map(|object| {
        let mut new = object.clone();
        apply::merge::apply(&mut new, body);
        let stale = body
            .pointer("/metadata/resourceVersion")
            .filter(|rv| object.pointer("/metadata/resourceVersion") != Some(*rv));
        match stale {
            Some(rv) => Outcome {
                applies: false,
                index: None,
                path: Some("/metadata/resourceVersion".to_owned()),
                cause: Some(format!(
                    "the body pins metadata.resourceVersion {} but the object is at {}",
                    crate::gojson::to_string(rv),
                    object
                        .pointer("/metadata/resourceVersion")
                        .map(crate::gojson::to_string)
                        .unwrap_or_else(|| "none".to_owned())
                )),
                response: Some(crate::status::Status::stale(
                    &crate::status::Resource::of(object),
                    object
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                )),
                unchanged: true,
            },
            None => Outcome {
                applies: true,
                index: None,
                path: None,
                cause: None,
                response: None,
                unchanged: &new == object,
            },
        }
    });
    if let Some(outcome) = outcome.as_ref().filter(|o| !o.applies) {
        findings.push(Finding::new(
            Rule::FailsNow,
            None,
            outcome.path.as_deref(),
            format!(
                "on the current object: {}; the server answers 409 Conflict",
                outcome.cause.as_deref().unwrap_or("")
            ),
        ));
    }
    let mut conflicts = Vec::new();
    if body.pointer("/metadata/resourceVersion").is_some() {
        conflicts.push(Precondition {
            path: String::new(),
            reason: "the body pins metadata.resourceVersion: any write to the object since your read fails it (409)".to_owned(),
        });
    }
    let overwrites = merge::overwrites(body)
        .into_iter()
        .map(|(path, reason)| Overwrite { path, reason })
        .collect();
    Report {
        kind: BodyKind::MergePatch,
        semantics: options.semantics,
        ops: Vec::new(),
        op_count: 0,
        findings,
        outcome,
        conflicts,
        overwrites,
    }
}

/// Visits every member below the top-level object with its pointer
/// (objects are walked into, arrays and scalars are leaves).
fn walk(value: &Value, path: &mut String, visit: &mut dyn FnMut(&str, &Value)) {
    let Value::Object(map) = value else { return };
    for (key, child) in map {
        let len = path.len();
        path.push('/');
        path.push_str(&escape(key));
        if child.is_object() {
            walk(child, path, visit);
        } else {
            visit(path, child);
        }
        path.truncate(len);
    }
    debug_assert!(path.is_empty() || Pointer::parse(path).is_ok());
}
