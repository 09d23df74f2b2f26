//! The round-trip check: does what a plan sends turn the old object into
//! the new one on a real server?

use serde_json::Value;

use super::{Body, Plan, Policy};
use crate::apply::{apply, ApplyError, Semantics};
use crate::gojson::stored_eq;
use crate::patch::Operation;
use crate::pointer::PointerBuf;

/// Does applying a plan to the old object (kube-apiserver's semantics)
/// give the new one?
#[derive(Clone, Debug, PartialEq)]
pub enum RoundTrip {
    /// It does (fields only the server writes aside).
    Exact,
    /// The server would refuse the patch.
    Refused(ApplyError),
    /// It applies, but the result differs from the new object at these
    /// pointers (the first few; `more` others).
    Differs {
        /// Where, in document order (`""`: the whole object).
        at: Vec<PointerBuf>,
        /// How many more differences there are.
        more: usize,
    },
    /// Not a body that can be checked this way: a server-side apply's
    /// result depends on who owns which field; a strategic merge patch has
    /// no RFC to check it against.
    NotApplicable,
}

impl std::fmt::Display for RoundTrip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoundTrip::Exact => f.write_str("old + patch = new"),
            RoundTrip::Refused(err) => write!(f, "the server would refuse it: {err}"),
            RoundTrip::Differs { at, more } => {
                let at: Vec<String> = at
                    .iter()
                    .map(|p| {
                        if p.is_root() {
                            "the root".to_owned()
                        } else {
                            p.to_string()
                        }
                    })
                    .collect();
                write!(f, "the result differs from new at {}", at.join(", "))?;
                if *more > 0 {
                    write!(f, " and {more} more")?;
                }
                Ok(())
            }
            RoundTrip::NotApplicable => {
                f.write_str("a server-side apply result depends on who owns which field")
            }
        }
    }
}

/// How many differing pointers [`RoundTrip::Differs`] names.
const SHOWN: usize = 3;

/// Applies `plan` to `old` as kube-apiserver would and compares the result
/// with `new`, leaving out the fields `policy` says only the server writes
/// (`resourceVersion`, `uid`, ...).
///
/// ```
/// use patchlab::strategy::{diff, round_trip, Options, Preset, RoundTrip};
/// use serde_json::json;
///
/// let old = json!({"metadata": {"labels": {"a": "1"}}});
/// let new = json!({"metadata": {}});
/// let options = Options::preset(Preset::KubevirtPerKey);
/// let plan = diff(&old, &new, &options).unwrap();
/// // Per-key ops never remove the map itself: `labels: {}` stays.
/// assert!(matches!(round_trip(&old, &new, &plan, &options.policy), RoundTrip::Differs { .. }));
/// ```
pub fn round_trip(old: &Value, new: &Value, plan: &Plan, policy: &Policy) -> RoundTrip {
    round_trip_on(old, new, plan, policy, Semantics::Kube)
}

/// [`round_trip`] on a given engine: a [`Semantics`], an
/// [`crate::kube::Evanphx`] release or a [`crate::kube::KubeVersion`]. A
/// merge patch runs as kube-apiserver runs it (evanphx's `MergePatch`, behind
/// the handler's checks), or as RFC 7386 says under `Semantics::Rfc`.
///
/// ```
/// use patchlab::kube::KubeVersion;
/// use patchlab::patch::Operation;
/// use patchlab::strategy::{diff, round_trip_on, Options, RoundTrip};
/// use serde_json::json;
///
/// let old = json!({"metadata": {"labels": {"a": "1"}}});
/// let new = json!({"metadata": {"labels": {"a": "2"}}});
/// let options = Options::default();
/// let plan = diff(&old, &new, &options).unwrap();
/// let v128: KubeVersion = "1.28.0".parse().unwrap();
/// assert_eq!(round_trip_on(&old, &new, &plan, &options.policy, v128), RoundTrip::Exact);
/// ```
pub fn round_trip_on(
    old: &Value,
    new: &Value,
    plan: &Plan,
    policy: &Policy,
    engine: impl Into<crate::apply::Engine>,
) -> RoundTrip {
    let engine = engine.into();
    let mut doc = old.clone();
    match &plan.body {
        Body::JsonPatch(ops) => {
            let ops: Vec<Operation> = ops.iter().map(|p| p.op.clone()).collect();
            if let Err(err) = apply(&mut doc, &ops, engine) {
                return RoundTrip::Refused(err);
            }
        }
        Body::MergePatch(body) => {
            if let Err(err) =
                crate::apply::apply_merge(&mut doc, &crate::gojson::to_string(body), engine)
            {
                return RoundTrip::Refused(err);
            }
        }
        Body::Update(body) => doc = body.clone(),
        Body::Apply { .. } => return RoundTrip::NotApplicable,
        Body::StrategicMergePatch(_) if !engine.is_kube() => return RoundTrip::NotApplicable,
        Body::StrategicMergePatch(body) => {
            // On the server of the release whose schemas wrote the body;
            // a custom resource answers 415.
            let target = super::strategic::target(old, new, plan.kubernetes);
            if let Err(err) = crate::apply::strategic::apply_body(
                &mut doc,
                &crate::gojson::to_string(body),
                &target,
                plan.kubernetes,
            ) {
                return RoundTrip::Refused(err);
            }
        }
    }
    let strip = |v: &Value| {
        let mut v = v.clone();
        for path in policy.server_written() {
            path.delete(&mut v);
        }
        v
    };
    // Numbers as the server stores them: `1` and `1.0` are one value.
    let (got, want) = (strip(&doc), strip(new));
    if stored_eq(&got, &want) {
        return RoundTrip::Exact;
    }
    let mut at = Vec::new();
    walk(&got, &want, &mut PointerBuf::new(), &mut at);
    let more = at.len().saturating_sub(SHOWN);
    at.truncate(SHOWN);
    RoundTrip::Differs { at, more }
}

/// Collects (up to a few more than shown) the pointers where two values
/// differ.
fn walk(got: &Value, want: &Value, path: &mut PointerBuf, out: &mut Vec<PointerBuf>) {
    if out.len() > 10 || stored_eq(got, want) {
        return;
    }
    match (got, want) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                path.push_back(key);
                match (a.get(key.as_str()), b.get(key.as_str())) {
                    (Some(x), Some(y)) => walk(x, y, path, out),
                    _ => out.push(path.clone()),
                }
                path.pop_back();
            }
        }
        _ => out.push(path.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{diff, Options, Preset};
    use serde_json::json;

    #[test]
    fn server_written_fields_are_left_out_and_differences_named() {
        let old = json!({"metadata": {"name": "x", "resourceVersion": "7", "labels": {"a": "1"}}});
        let new = json!({"metadata": {"name": "x", "resourceVersion": "9", "labels": {"a": "2"}}});
        for preset in [Preset::KubevirtMain, Preset::KubevirtPerKey, Preset::Merge] {
            let options = Options::preset(preset);
            let plan = diff(&old, &new, &options).unwrap();
            assert_eq!(
                round_trip(&old, &new, &plan, &options.policy),
                RoundTrip::Exact,
                "{preset}"
            );
        }
        let options = Options::preset(Preset::KubevirtPerKey);
        let emptied = json!({"metadata": {"name": "x"}});
        let plan = diff(&old, &emptied, &options).unwrap();
        let result = round_trip(&old, &emptied, &plan, &options.policy);
        assert_eq!(
            result.to_string(),
            "the result differs from new at /metadata/labels"
        );
        // Numbers compare as the server stores them.
        let float = json!({"metadata": {"name": "x"}, "spec": {"cpu": 1.0, "z": -0.0}});
        let int = json!({"metadata": {"name": "x"}, "spec": {"cpu": 1, "z": 0}});
        for preset in [Preset::KubevirtMain, Preset::Naive, Preset::Merge] {
            let options = Options::preset(preset);
            let plan = diff(&int, &float, &options).unwrap();
            assert!(plan.is_empty(), "{preset}: {:?}", plan.body);
            assert_eq!(
                round_trip(&int, &float, &plan, &options.policy),
                RoundTrip::Exact
            );
        }
        let ssa = Options::preset(Preset::Ssa);
        let plan = diff(&old, &new, &ssa).unwrap();
        assert_eq!(
            round_trip(&old, &new, &plan, &ssa.policy),
            RoundTrip::NotApplicable
        );
    }
}
