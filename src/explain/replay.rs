//! Replaying the patch a user sent on the object they had, on the engine
//! of their Kubernetes release: which op fails, what it expected, what was
//! there; and on which releases the engine panics.

use serde::Serialize;
use serde_json::Value;

use crate::apply::{self, ApplyError, Cause, Engine};
use crate::kube::Evanphx;
use crate::kube::KubeVersion;
use crate::lint::BodyKind;
use crate::status::Status;
use crate::vocabulary::ErrorClass;

/// The patch rerun on the object with one release's engine: whether it
/// applies, and where and why it fails.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rerun {
    /// The release whose engine ran.
    pub release: KubeVersion,
    /// The engine.
    pub engine: Evanphx,
    /// True when the patch applies to the object.
    pub applies: bool,
    /// The failing op's index (`None`: the body was refused whole).
    pub index: Option<usize>,
    /// The failing op's name.
    pub op: Option<String>,
    /// The failing op's path.
    pub path: Option<String>,
    /// The failure's class.
    pub class: Option<ErrorClass>,
    /// patchlab's account of the cause (the server's engine error, which
    /// the server drops).
    pub cause: Option<String>,
    /// For a failed `test`: the value it expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// For a failed `test`: what the object held (`null` when absent,
    /// see `absent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// For a failed `test`: true when the member is absent.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub absent: bool,
    /// What the server answers.
    pub response: Option<Status>,
}

/// Replays a JSON patch (`payload`) or a merge patch on `object` with the
/// engine of `release`.
pub fn replay(kind: BodyKind, payload: &str, object: &Value, release: KubeVersion) -> Rerun {
    let engine = Engine::Kube(release.engine());
    let mut doc = object.clone();
    let result = match kind {
        BodyKind::MergePatch => apply::apply_merge(&mut doc, payload, engine).map(|_| ()),
        _ => apply::apply_payload(&mut doc, payload, engine),
    };
    let mut out = Rerun {
        release,
        engine: release.engine(),
        applies: result.is_ok(),
        index: None,
        op: None,
        path: None,
        class: None,
        cause: None,
        expected: None,
        actual: None,
        absent: false,
        response: None,
    };
    if let Err(err) = result {
        fill(&mut out, &err);
    }
    out
}

fn fill(out: &mut Rerun, err: &ApplyError) {
    out.index = err.index;
    out.op = err.op.map(|op| op.as_str().to_owned());
    out.path = err.path.clone();
    out.class = Some(err.cause.class());
    out.cause = Some(err.cause.to_string());
    out.response = err.response();
    if let Cause::TestFailed {
        expected, actual, ..
    } = &err.cause
    {
        out.expected = Some((**expected).clone());
        out.absent = actual.is_none();
        out.actual = Some(actual.as_ref().map_or(Value::Null, |a| (**a).clone()));
    }
}

/// The releases (picker choices) whose engine panics on this patch and
/// object.
pub fn panics_on(payload: &str, object: &Value) -> Vec<KubeVersion> {
    KubeVersion::choices()
        .into_iter()
        .filter(|release| {
            let mut doc = object.clone();
            matches!(
                apply::apply_payload(&mut doc, payload, Engine::Kube(release.engine())),
                Err(ApplyError {
                    cause: Cause::EnginePanic { .. },
                    ..
                })
            )
        })
        .collect()
}

/// What is known of engine panics without the object (docs/fidelity.md,
/// section 1): which releases panic on which patches.
pub const KNOWN_PANICS: &str = "kube-apiserver 1.25 to 1.34 (evanphx/json-patch v4.12.0, and v5.6.0 in 1.28.0 and 1.28.1) panic on a test op without a value of a missing or null member, and on a path through a null the same patch added; every release to 1.36 panics on test \"\" or replace \"\" without a value (v5.6.0 refuses those with a 422). 1.35 and later (v4.13.0) answer the first two with a 422.";
