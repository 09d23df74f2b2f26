//! Every answer the modelled kube-apiserver gives: status code, reason and
//! message, built here and nowhere else.
//!
//! Each constructor names the Go function it follows (k8s.io/apimachinery
//! `pkg/api/errors/errors.go` unless said otherwise), so "where do I change
//! an HTTP message" has one answer. Messages are the server's words; a
//! client (kubectl, client-go) shows them as `Error from server (<reason>):
//! <message>`.

mod catalogue;

use std::fmt;

use serde::Serialize;

pub use catalogue::{answers, Answer};

use crate::gojson::quote;
use crate::limits::{MAX_BODY_BYTES, MAX_OPS};

/// The message of every 422 a failed JSON patch op gets: the handler
/// passes the engine's error to `NewGenericServerResponse`, which discards
/// it.
pub const GENERIC_422: &str = "the server rejected our request due to an error in our request";

/// What kube-apiserver's panic filter writes (`WithPanicRecovery`,
/// k8s.io/apiserver `pkg/server/filters/wrap.go`), as plain text, not a
/// Status object.
pub const PANIC_TEXT: &str =
    "This request caused apiserver to panic. Look in the logs for details.";

/// `metav1.StatusReason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Reason {
    /// 400.
    BadRequest,
    /// 404.
    NotFound,
    /// 405.
    MethodNotAllowed,
    /// 409.
    Conflict,
    /// 413.
    RequestEntityTooLarge,
    /// 415.
    UnsupportedMediaType,
    /// 422.
    Invalid,
    /// 500.
    InternalError,
    /// No reason (`StatusReasonUnknown`, `""`): an error the server did
    /// not classify; kubectl prints `Error from server: <message>`.
    #[serde(rename = "")]
    Unknown,
}

impl Reason {
    /// The reason as the Status object spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::BadRequest => "BadRequest",
            Reason::NotFound => "NotFound",
            Reason::MethodNotAllowed => "MethodNotAllowed",
            Reason::Conflict => "Conflict",
            Reason::RequestEntityTooLarge => "RequestEntityTooLarge",
            Reason::UnsupportedMediaType => "UnsupportedMediaType",
            Reason::Invalid => "Invalid",
            Reason::InternalError => "InternalError",
            Reason::Unknown => "",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Reason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One `StatusCause` (`details.causes[]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusCause {
    /// `reason`: `FieldManagerConflict`, `FieldValueInvalid`, ...
    pub reason: &'static str,
    /// `message`.
    pub message: String,
    /// `field`.
    pub field: String,
}

/// An error response of kube-apiserver (a `metav1.Status` with
/// `status: Failure`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    /// HTTP status code.
    pub code: u16,
    /// `reason`.
    pub reason: Reason,
    /// `message`.
    pub message: String,
    /// `details.causes`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
}

/// A resource as the API names it: `virtualmachineinstances.kubevirt.io`
/// (a `schema.GroupResource`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resource {
    /// The plural resource name (`virtualmachineinstances`).
    pub plural: String,
    /// The API group (`kubevirt.io`; empty for the core group).
    pub group: String,
}

impl Resource {
    /// The resource of an object, from its `kind` and `apiVersion`, with
    /// Kubernetes' own guess of the plural (`meta.UnsafeGuessKindToResource`,
    /// k8s.io/apimachinery `pkg/api/meta/restmapper.go`: lowercase; kept as
    /// is when ending in `endpoints`; `s` -> `ses`, `y` -> `ies`, else
    /// `+s`). A real custom
    /// resource declares its plural in its definition; KubeVirt's follow
    /// this rule.
    pub fn of(object: &serde_json::Value) -> Resource {
        let text = |key: &str| object.get(key).and_then(serde_json::Value::as_str);
        Resource::guess(
            text("kind").unwrap_or("Object"),
            text("apiVersion").unwrap_or(""),
        )
    }

    /// The resource of a `kind` at an `apiVersion`, the plural guessed as
    /// [`Resource::of`] does.
    pub fn guess(kind: &str, api_version: &str) -> Resource {
        let kind = crate::text::kind_lower(kind);
        let plural = if kind.ends_with("endpoints") || kind.is_empty() {
            kind
        } else if kind.ends_with('s') {
            format!("{kind}es")
        } else if let Some(stem) = kind.strip_suffix('y') {
            format!("{stem}ies")
        } else {
            format!("{kind}s")
        };
        let group = api_version
            .split_once('/')
            .map(|(group, _)| group.to_owned())
            .unwrap_or_default();
        Resource { plural, group }
    }
}

impl fmt::Display for Resource {
    /// `schema.GroupResource.String()`: `plural.group`, or `plural`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.plural)
        } else {
            write!(f, "{}.{}", self.plural, self.group)
        }
    }
}

/// One apply conflict: the field and the manager that owns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyConflict {
    /// The field path (`.metadata.labels.app`).
    pub field: String,
    /// The manager as the server prints it: `"virt-handler"` for an
    /// applier, `"virt-handler" using kubevirt.io/v1` for a manager that
    /// wrote by Update or patch.
    pub manager: String,
}

impl Status {
    fn new(code: u16, reason: Reason, message: impl Into<String>) -> Status {
        Status {
            code,
            reason,
            message: message.into(),
            causes: Vec::new(),
        }
    }

    /// `NewBadRequest(reason)`: 400 with the message as given.
    pub fn bad_request(message: impl Into<String>) -> Status {
        Status::new(400, Reason::BadRequest, message)
    }

    /// The handler's strict decode failed: `error decoding patch: <err>`
    /// (`applyJSPatch`, k8s.io/apiserver `pkg/endpoints/handlers/patch.go`).
    pub fn decoding_patch(err: impl fmt::Display) -> Status {
        Status::bad_request(format!("error decoding patch: {err}"))
    }

    /// `NewRequestEntityTooLargeError(message)`: 413,
    /// `Request entity too large: <message>`.
    pub fn request_entity_too_large(message: impl fmt::Display) -> Status {
        Status::new(
            413,
            Reason::RequestEntityTooLarge,
            format!("Request entity too large: {message}"),
        )
    }

    /// The body is over the limit (`limitedReadBody`, handlers/rest.go).
    pub fn body_too_large() -> Status {
        Status::request_entity_too_large(format!("limit is {MAX_BODY_BYTES}"))
    }

    /// More than 10,000 JSON patch ops (`applyJSPatch`).
    pub fn too_many_ops(count: usize) -> Status {
        Status::request_entity_too_large(format!(
            "The allowed maximum operations in a JSON patch is {}, got {count}",
            MAX_OPS
        ))
    }

    /// An op failed: `NewGenericServerResponse(422, ...)` with the engine's
    /// error as the server message, which it discards: `Invalid` with the
    /// generic message and no causes.
    pub fn json_patch_failed() -> Status {
        Status::new(422, Reason::Invalid, GENERIC_422)
    }

    /// The engine panicked: the panic filter writes [`PANIC_TEXT`] as plain
    /// text with 500; client-go (and so kubectl) turns a non-Status body
    /// into `NewGenericServerResponse(500, verb, resource, name, text, 0,
    /// true)`. `request` is the verb, resource and name when known.
    pub fn panicked(request: Option<(&str, &Resource, &str)>) -> Status {
        let mut message = format!(
            "an error on the server ({}) has prevented the request from succeeding",
            quote(PANIC_TEXT)
        );
        if let Some((verb, resource, name)) = request {
            message.push_str(&format!(
                " ({} {resource} {name})",
                crate::text::kind_lower(verb)
            ));
        }
        let mut status = Status::new(500, Reason::InternalError, message);
        status.causes.push(StatusCause {
            reason: "UnexpectedServerResponse",
            message: PANIC_TEXT.to_owned(),
            field: String::new(),
        });
        status
    }

    /// A request body of a type the endpoint does not take
    /// (`negotiation.NewUnsupportedMediaTypeError(accepted)`, k8s.io/apiserver
    /// `pkg/endpoints/handlers/negotiation/errors.go`): 415, sent by
    /// `PatchResource` (handlers/patch.go) before the body is read, for
    /// example a strategic merge patch to a custom resource.
    pub fn unsupported_media_type(accepted: &[&str]) -> Status {
        Status::new(
            415,
            Reason::UnsupportedMediaType,
            format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                accepted.join(", ")
            ),
        )
    }

    /// An error that is no API status (`ErrorToAPIStatus`,
    /// k8s.io/apiserver `pkg/endpoints/handlers/responsewriters/status.go`):
    /// the code (500), no reason, the error's own text.
    pub fn unknown(code: u16, message: impl Into<String>) -> Status {
        Status::new(code, Reason::Unknown, message)
    }

    /// The patched object names another object (`checkName`,
    /// handlers/rest.go).
    pub fn name_mismatch(object: &str, url: &str) -> Status {
        Status::bad_request(format!(
            "the name of the object ({object}) does not match the name on the URL ({url})"
        ))
    }

    /// The patched object is in another namespace
    /// (`EnsureObjectNamespaceMatchesRequestNamespace`, k8s.io/apiserver
    /// `pkg/registry/rest/meta.go`).
    pub fn namespace_mismatch() -> Status {
        Status::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        )
    }

    /// A merge patch body of `null`: evanphx's `MergePatch` returns
    /// `ErrBadJSONPatch`, which the handler answers with `NewBadRequest`.
    pub fn invalid_merge_patch() -> Status {
        Status::bad_request("Invalid JSON Patch")
    }

    /// A request path no handler serves (a group version the release does
    /// not serve): the last handler of the delegation chain
    /// (`notfoundhandler.Handler`, k8s.io/apiserver
    /// `pkg/util/notfoundhandler/not_found_handler.go`) calls Go's
    /// `http.NotFound`, plain text `404 page not found`; client-go (and so
    /// kubectl) turns a body that is no Status into
    /// `NewGenericServerResponse(404, verb, resource, name, text, 0,
    /// true)`.
    pub fn page_not_found(request: Option<(&str, &Resource, &str)>) -> Status {
        let mut message = "the server could not find the requested resource".to_owned();
        if let Some((verb, resource, name)) = request {
            message.push_str(&format!(
                " ({} {resource} {name})",
                crate::text::kind_lower(verb)
            ));
        }
        let mut status = Status::new(404, Reason::NotFound, message);
        status.causes.push(StatusCause {
            reason: "UnexpectedServerResponse",
            message: "404 page not found".to_owned(),
            field: String::new(),
        });
        status
    }

    /// A path under a served group version that no route takes (a kind the
    /// version does not have, a create-only resource's object): go-restful
    /// answers 404 (`CurlyRouter.SelectRoute`, emicklei/go-restful v3
    /// `curly.go`), which kube-apiserver's `serviceErrorHandler`
    /// (k8s.io/apiserver `pkg/server/handler.go`) writes as
    /// `NewGenericServerResponse(404, "", {}, "", msg, 0, false)`.
    pub fn route_not_found() -> Status {
        Status::new(
            404,
            Reason::NotFound,
            "the server could not find the requested resource",
        )
    }

    /// A route that takes no PATCH (`componentstatuses`, the create-only
    /// subresources): go-restful's 405 (`RouterJSR311.detectRoute`,
    /// `jsr311.go`) through the same `serviceErrorHandler`.
    pub fn method_not_allowed() -> Status {
        Status::new(
            405,
            Reason::MethodNotAllowed,
            "the server does not allow this method on the requested resource",
        )
    }

    /// `NewNotFound(resource, name)`: `<resource> "<name>" not found`.
    pub fn not_found(resource: &Resource, name: &str) -> Status {
        Status::new(
            404,
            Reason::NotFound,
            format!("{resource} {} not found", quote(name)),
        )
    }

    /// `NewConflict(resource, name, err)` for a stale resourceVersion
    /// (`registry.OptimisticLockErrorMsg`, k8s.io/apiserver
    /// `pkg/registry/generic/registry/store.go`).
    pub fn stale(resource: &Resource, name: &str) -> Status {
        Status::new(
            409,
            Reason::Conflict,
            format!(
                "Operation cannot be fulfilled on {resource} {}: the object has been modified; please apply your changes to the latest version and try again",
                quote(name)
            ),
        )
    }

    /// An Update without `metadata.resourceVersion` of a resource that
    /// does not allow unconditional updates (custom resources):
    /// `NewInvalid(GroupKind{group, resource}, name, Invalid(metadata.
    /// resourceVersion, uint64(0), "must be specified for an update"))`
    /// (store.go). The bad value prints as `0x0` up to 1.33 (`%#v`) and as
    /// `0` from 1.34 (`json.Marshal`, field/errors.go `ErrorBody`).
    pub fn missing_resource_version(resource: &Resource, name: &str, json_values: bool) -> Status {
        let value = if json_values { "0" } else { "0x0" };
        let detail = "must be specified for an update";
        let mut status = Status::new(
            422,
            Reason::Invalid,
            format!(
                "{resource} {} is invalid: metadata.resourceVersion: Invalid value: {value}: {detail}",
                quote(name)
            ),
        );
        status.causes.push(StatusCause {
            reason: "FieldValueInvalid",
            message: format!("Invalid value: {value}: {detail}"),
            field: "metadata.resourceVersion".to_owned(),
        });
        status
    }

    /// Server-side apply conflicts (`NewConflictError`, k8s.io/apimachinery
    /// `pkg/util/managedfields/internal/conflict.go`): one conflict on one
    /// line; several grouped per manager (managers sorted), one field per
    /// line.
    pub fn apply_conflicts(conflicts: &[ApplyConflict]) -> Status {
        let message = match conflicts {
            [one] => format!(
                "Apply failed with 1 conflict: conflict with {}: {}",
                one.manager, one.field
            ),
            _ => {
                let mut managers: Vec<&str> =
                    conflicts.iter().map(|c| c.manager.as_str()).collect();
                crate::sort::sort(&mut managers);
                managers.dedup();
                let mut lines = Vec::new();
                for manager in managers {
                    lines.push(format!("conflicts with {manager}:"));
                    for c in conflicts.iter().filter(|c| c.manager == manager) {
                        lines.push(format!("- {}", c.field));
                    }
                }
                format!(
                    "Apply failed with {} conflicts: {}",
                    conflicts.len(),
                    lines.join("\n")
                )
            }
        };
        let mut status = Status::new(409, Reason::Conflict, message);
        status.causes = conflicts
            .iter()
            .map(|c| StatusCause {
                reason: "FieldManagerConflict",
                message: format!("conflict with {}", c.manager),
                field: c.field.clone(),
            })
            .collect();
        status
    }

    /// An apply configuration that cannot be read (the applyPatcher's
    /// `error decoding YAML: ...`).
    pub fn bad_apply_configuration(err: impl fmt::Display) -> Status {
        Status::bad_request(format!("error decoding YAML: {err}"))
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            Reason::Unknown => write!(f, "HTTP {}: {}", self.code, self.message),
            reason => write!(f, "HTTP {} {reason}: {}", self.code, self.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn texts() {
        let vmi = Resource::of(
            &json!({"kind": "VirtualMachineInstance", "apiVersion": "kubevirt.io/v1"}),
        );
        assert_eq!(vmi.to_string(), "virtualmachineinstances.kubevirt.io");
        assert_eq!(
            Resource::of(&json!({"kind": "Pod", "apiVersion": "v1"})).to_string(),
            "pods"
        );
        assert_eq!(
            Resource::of(&json!({"kind": "NetworkPolicy", "apiVersion": "networking.k8s.io/v1"}))
                .to_string(),
            "networkpolicies.networking.k8s.io"
        );
        assert_eq!(
            Resource::of(&json!({"kind": "Ingress", "apiVersion": "networking.k8s.io/v1"})).plural,
            "ingresses"
        );
        assert_eq!(
            Status::not_found(&vmi, "x").message,
            r#"virtualmachineinstances.kubevirt.io "x" not found"#
        );
        assert_eq!(
            Status::body_too_large().message,
            "Request entity too large: limit is 3145728"
        );
        assert_eq!(
            Status::too_many_ops(10_001).message,
            "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
        );
        assert_eq!(
            Status::missing_resource_version(&vmi, "testvmi", false).message,
            r#"virtualmachineinstances.kubevirt.io "testvmi" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"#
        );
        assert!(Status::missing_resource_version(&vmi, "testvmi", true)
            .message
            .contains("Invalid value: 0: must"));
        assert_eq!(
            Status::panicked(Some(("PATCH", &vmi, "testvmi"))).message,
            r#"an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding (patch virtualmachineinstances.kubevirt.io testvmi)"#
        );
    }

    #[test]
    fn unsupported_media_type_lists_what_is_accepted() {
        let status = Status::unsupported_media_type(&[
            "application/json-patch+json",
            "application/merge-patch+json",
        ]);
        assert_eq!(status.code, 415);
        assert_eq!(status.reason, "UnsupportedMediaType");
        assert_eq!(
            status.message,
            "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json"
        );
        let unknown = Status::unknown(500, "map: map[] does not contain declared merge key: name");
        assert_eq!(
            unknown.to_string(),
            "HTTP 500: map: map[] does not contain declared merge key: name"
        );
        assert_eq!(serde_json::to_value(unknown.reason).unwrap(), json!(""));
    }

    #[test]
    fn apply_conflicts_group_per_manager() {
        let handler = r#""virt-handler" using kubevirt.io/v1"#;
        let one = [ApplyConflict {
            field: ".metadata.labels.kubevirt.io/nodeName".into(),
            manager: handler.into(),
        }];
        assert_eq!(
            Status::apply_conflicts(&one).message,
            r#"Apply failed with 1 conflict: conflict with "virt-handler" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName"#
        );
        let three = [
            ApplyConflict {
                field: ".metadata.labels.a".into(),
                manager: handler.into(),
            },
            ApplyConflict {
                field: ".spec.x".into(),
                manager: r#""an-applier""#.into(),
            },
            ApplyConflict {
                field: ".metadata.labels.b".into(),
                manager: handler.into(),
            },
        ];
        let status = Status::apply_conflicts(&three);
        assert_eq!(
            status.message,
            "Apply failed with 3 conflicts: conflicts with \"an-applier\":\n- .spec.x\nconflicts with \"virt-handler\" using kubevirt.io/v1:\n- .metadata.labels.a\n- .metadata.labels.b"
        );
        assert_eq!(status.causes.len(), 3);
        assert_eq!(
            status.causes[0].message,
            r#"conflict with "virt-handler" using kubevirt.io/v1"#
        );
    }
}
