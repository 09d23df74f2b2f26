//! A server answer as the tools show it: kubectl's one-liner, client-go's
//! `%v`, a controller-runtime log line and the `Status` JSON. The tests
//! render every answer of [`crate::status::answers`] these ways and check
//! `explain` reads each back to its class; a view can show a user what
//! their tool would have printed.

use serde_json::{json, Value};

use crate::gojson::quote;
use crate::status::{Reason, Status};

/// `details.kind` and `details.name` as the server fills them for this
/// answer: `NewInvalid(GroupKind, name, ...)` writes `kind.group "name"
/// is invalid`, so they come back out of the message; the JSON patch
/// handler's generic 422 and the other 4xx of [`Status`] leave them
/// empty.
fn kind_and_name(status: &Status) -> (String, String) {
    if status.reason != Reason::Invalid {
        return (String::new(), String::new());
    }
    let Some((head, _)) = status.message.split_once("\" is invalid") else {
        return (String::new(), String::new());
    };
    let Some((qualified, name)) = head.split_once(" \"") else {
        return (String::new(), String::new());
    };
    let kind = qualified.split('.').next().unwrap_or("");
    (kind.to_owned(), name.to_owned())
}

/// What kubectl prints for this answer (`checkErr`,
/// kubectl `pkg/cmd/util/helpers.go`): `The request is invalid: msg` or
/// `The kind "name" is invalid: field: msg` for a 422 Invalid, `Error from
/// server (Reason): msg` otherwise.
pub fn kubectl(status: &Status) -> String {
    if status.reason == Reason::Invalid {
        let (kind, name) = kind_and_name(status);
        let mut s = "The request is invalid".to_owned();
        if !kind.is_empty() || !name.is_empty() {
            s = format!("The {kind} {} is invalid", quote(&name));
        } else if !status.message.is_empty() && status.causes.is_empty() {
            s.push_str(": ");
            s.push_str(&status.message);
        }
        let causes: Vec<String> = status
            .causes
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect();
        return match causes.as_slice() {
            [] => s,
            [one] => format!("{s}: {one}"),
            many => {
                let mut out = format!("{s}: \n");
                for c in many {
                    out.push_str(&format!("* {c}\n"));
                }
                out.trim_end().to_owned()
            }
        };
    }
    format!("Error from server ({}): {}", status.reason, status.message)
}

/// What client-go's error prints (`%v` of a `StatusError` is its message).
pub fn client_go(status: &Status) -> String {
    status.message.clone()
}

/// A controller-runtime reconciler's log line around client-go's error
/// (klog text format, controller-runtime `Reconciler error`).
pub fn reconciler_log(status: &Status) -> String {
    format!(
        "E0501 10:00:00.000000       1 controller.go:316] \"Reconciler error\" err={} controller=\"virtualmachineinstance\" namespace=\"default\" name=\"testvmi\" reconcileID=\"7f6c1a2e-0d5b-4c1e-9a43-2b8f5d9e6c10\"",
        quote(&status.message)
    )
}

/// The `Status` object as the server writes it.
pub fn status_json(status: &Status) -> Value {
    let (kind, name) = kind_and_name(status);
    let mut details = serde_json::Map::new();
    if !kind.is_empty() {
        details.insert("kind".into(), Value::String(kind));
    }
    if !name.is_empty() {
        details.insert("name".into(), Value::String(name));
    }
    if !status.causes.is_empty() {
        details.insert(
            "causes".into(),
            Value::Array(
                status
                    .causes
                    .iter()
                    .map(|c| {
                        let mut cause = serde_json::Map::new();
                        if !c.reason.is_empty() {
                            cause.insert("reason".into(), json!(c.reason));
                        }
                        cause.insert("message".into(), json!(c.message));
                        if !c.field.is_empty() {
                            cause.insert("field".into(), json!(c.field));
                        }
                        Value::Object(cause)
                    })
                    .collect(),
            ),
        );
    }
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": status.message,
        "reason": status.reason.as_str(),
        "details": details,
        "code": status.code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Resource;

    #[test]
    fn kubectl_renders_invalid_as_checkerr_does() {
        assert_eq!(
            kubectl(&Status::json_patch_failed()),
            "The request is invalid: the server rejected our request due to an error in our request"
        );
        let vmi = Resource {
            plural: "virtualmachineinstances".into(),
            group: "kubevirt.io".into(),
        };
        assert_eq!(
            kubectl(&Status::missing_resource_version(&vmi, "testvmi", false)),
            "The virtualmachineinstances \"testvmi\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
        );
        assert_eq!(
            kubectl(&Status::stale(&vmi, "x")),
            "Error from server (Conflict): Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"x\": the object has been modified; please apply your changes to the latest version and try again"
        );
    }
}
