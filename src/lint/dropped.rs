//! Writes the server drops on the endpoint they are sent to. A built-in
//! kind with a status subresource resets `status` to the stored value on
//! every write to the object itself (its strategy's `PrepareForUpdate`:
//! `newObj.Status = oldObj.Status`), and a Namespace keeps its
//! `spec.finalizers` except through `/finalize`
//! (`namespaceStrategy.PrepareForUpdate`). The request succeeds (200) and
//! that part of it changes nothing. Sources: kubernetes
//! `pkg/registry/<group>/<resource>/strategy.go` (`PrepareForUpdate`), e.g.
//! `pkg/registry/core/pod/strategy.go`, `core/node/strategy.go`,
//! `core/namespace/strategy.go`, `apps/deployment/strategy.go`.

use serde_json::Value;

use super::read::{BodyKind, Hint};
use super::rules::{message, Rule};

/// Built-in kinds whose writes to the object itself keep the stored
/// status (each strategy's `PrepareForUpdate`).
const STATUS_KEPT: [&str; 21] = [
    "Pod",
    "Node",
    "Namespace",
    "Service",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "ReplicationController",
    "ResourceQuota",
    "Deployment",
    "DaemonSet",
    "ReplicaSet",
    "StatefulSet",
    "Job",
    "CronJob",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
    "Ingress",
    "CertificateSigningRequest",
    "APIService",
    "CustomResourceDefinition",
    "VolumeAttachment",
];

/// The findings for the parts of a `kind` body of `body_kind` sent to
/// `subresource` (`None`: the object itself) that the server drops.
pub(super) fn dropped(
    kind: Option<&str>,
    body_kind: BodyKind,
    payload: &str,
    subresource: Option<&str>,
) -> Vec<Hint> {
    let Some(kind) = kind else {
        return Vec::new();
    };
    let Ok(body) = serde_json::from_str::<Value>(payload) else {
        return Vec::new();
    };
    let writes = |top: &str, below: Option<&str>| -> bool {
        match (body_kind, &body) {
            (BodyKind::JsonPatch, Value::Array(ops)) => ops.iter().any(|op| {
                let path = op.get("path").and_then(Value::as_str).unwrap_or("");
                let want = match below {
                    Some(b) => format!("/{top}/{b}"),
                    None => format!("/{top}"),
                };
                path == want || path.starts_with(&format!("{want}/"))
            }),
            (_, Value::Object(map)) => match below {
                None => map.contains_key(top),
                Some(b) => map.get(top).and_then(|v| v.get(b)).is_some(),
            },
            _ => false,
        }
    };
    let mut hints = Vec::new();
    if subresource.is_none() && STATUS_KEPT.contains(&kind) && writes("status", None) {
        let (what, instead) = ("status", "the status subresource (`kubectl patch --subresource=status`, Kubernetes 1.24 and later; PATCH .../status)");
        hints.push(Hint {
            rule: Rule::WriteDropped,
            message: message!(WriteDropped "dropped", kind, what, instead),
        });
    }
    if kind == "Namespace" && subresource != Some("finalize") && writes("spec", Some("finalizers"))
    {
        let (what, instead) = ("spec.finalizers", "the finalize subresource (PUT /api/v1/namespaces/<name>/finalize with the whole Namespace)");
        hints.push(Hint {
            rule: Rule::WriteDropped,
            message: message!(WriteDropped "dropped", kind, what, instead),
        });
    }
    hints
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_namespace_finalizers_are_dropped_off_their_endpoints() {
        let status = r#"{"status":{"capacity":{"example.com/dongle":"4"}}}"#;
        let rules = |kind, body_kind, payload, sub| {
            dropped(Some(kind), body_kind, payload, sub)
                .into_iter()
                .map(|h| h.rule)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            rules("Node", BodyKind::StrategicMergePatch, status, None),
            [Rule::WriteDropped]
        );
        assert!(rules(
            "Node",
            BodyKind::StrategicMergePatch,
            status,
            Some("status")
        )
        .is_empty());
        let op = r#"[{"op":"add","path":"/status/capacity/example.com~1dongle","value":"4"}]"#;
        assert_eq!(
            rules("Node", BodyKind::JsonPatch, op, None),
            [Rule::WriteDropped]
        );
        // A ConfigMap has no status subresource; a custom resource's is its own.
        assert!(rules("ConfigMap", BodyKind::MergePatch, status, None).is_empty());
        assert!(rules("VirtualMachineInstance", BodyKind::MergePatch, status, None).is_empty());
        let finalizers = r#"{"spec":{"finalizers":null}}"#;
        assert_eq!(
            rules("Namespace", BodyKind::StrategicMergePatch, finalizers, None),
            [Rule::WriteDropped]
        );
        assert!(rules(
            "Namespace",
            BodyKind::StrategicMergePatch,
            finalizers,
            Some("finalize")
        )
        .is_empty());
        // metadata.finalizers is the object's own: kept.
        assert!(rules(
            "Namespace",
            BodyKind::MergePatch,
            r#"{"metadata":{"finalizers":null}}"#,
            None
        )
        .is_empty());
    }
}
