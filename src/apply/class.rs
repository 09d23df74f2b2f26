//! Which [`ErrorClass`] each failure of the engine belongs to: the bridge
//! between what patchlab knows of a failed patch and the names `explain`,
//! lint and the simulator use for it.

use crate::gojson::DecodeError;
use crate::vocabulary::ErrorClass;

use super::strategic::ErrorKind as StrategicKind;
use super::Cause;

/// Go's texts of a decode that failed because the body is the other kind
/// of patch: a merge patch object sent as a JSON patch, a list of ops sent
/// as a merge patch (sigs.k8s.io/json, as `gojson` reproduces them).
pub(crate) fn is_content_type_mismatch(text: &str) -> bool {
    text.contains("cannot unmarshal object into Go value of type []handlers.jsonPatchOp")
        || text.contains("cannot unmarshal array into Go value of type map[string]interface {}")
}

/// The class of a failed strategic merge patch.
fn strategic_class(kind: &StrategicKind) -> ErrorClass {
    match kind {
        StrategicKind::UnsupportedMediaType { .. } => ErrorClass::SmpCustomResource,
        // The routing: the release serves no such group version or kind
        // (404), or the resource takes no PATCH (405).
        StrategicKind::Routing(_) => ErrorClass::NotFound,
        StrategicKind::BodyTooLarge { .. } => ErrorClass::TooLarge,
        StrategicKind::Decode(DecodeError::Type(text)) if is_content_type_mismatch(text) => {
            ErrorClass::ContentType
        }
        StrategicKind::Decode(_) | StrategicKind::Unsupported(_) | StrategicKind::BadJsonDoc => {
            ErrorClass::DecodeError
        }
        StrategicKind::Panic(_) => ErrorClass::EnginePanic,
        // The merge itself refused the patch: a missing merge key, a
        // malformed directive, an unknown field, a list of lists; and
        // patchlab's own refusal of a kind it has no schema for, which is
        // about the same lists.
        StrategicKind::NoMergeKey { .. }
        | StrategicKind::BadPatchFormatForPrimitiveList
        | StrategicKind::BadPatchFormatForRetainKeys
        | StrategicKind::BadPatchFormatForSetElementOrderList
        | StrategicKind::NoListOfLists
        | StrategicKind::Lookup(_)
        | StrategicKind::Other(_)
        | StrategicKind::NoSchema { .. } => ErrorClass::SmpMergeKey,
    }
}

impl Cause {
    /// The class of this failure (see [`ErrorClass`]).
    ///
    /// ```
    /// use patchlab::apply::{apply_payload, Semantics};
    /// use patchlab::vocabulary::ErrorClass;
    /// use serde_json::json;
    ///
    /// let err = apply_payload(&mut json!({"a": 1}), r#"[{"op":"test","path":"/a","value":2}]"#, Semantics::Kube)
    ///     .unwrap_err();
    /// assert_eq!(err.cause.class(), ErrorClass::TestFailed);
    /// let err = apply_payload(&mut json!({}), r#"{"a":1}"#, Semantics::Kube).unwrap_err();
    /// assert_eq!(err.cause.class(), ErrorClass::ContentType);
    /// ```
    pub fn class(&self) -> ErrorClass {
        match self {
            Cause::Payload(err) if err.is_body_error() => ErrorClass::DecodeError,
            Cause::Payload(_) | Cause::MissingValue | Cause::DocumentNotContainer => {
                ErrorClass::MalformedOp
            }
            Cause::Decode(DecodeError::Type(text)) if is_content_type_mismatch(text) => {
                ErrorClass::ContentType
            }
            Cause::Decode(_) | Cause::Unsupported(_) | Cause::NullMergePatch => {
                ErrorClass::DecodeError
            }
            Cause::BodyTooLarge { .. } => ErrorClass::TooLarge,
            Cause::TooManyOps { .. } => ErrorClass::TooManyOps,
            Cause::TestFailed { .. } => ErrorClass::TestFailed,
            Cause::PathWithoutSlash { .. }
            | Cause::MissingPath { .. }
            | Cause::MissingMember { .. }
            | Cause::InvalidPointer { .. } => ErrorClass::MissingPath,
            Cause::IndexOutOfBounds { .. } | Cause::BadIndex { .. } => ErrorClass::BadIndex,
            Cause::WholeDocument
            | Cause::ScalarRoot
            | Cause::MoveIntoChild
            | Cause::CopyLimit { .. }
            | Cause::CopyBudget { .. } => ErrorClass::MalformedOp,
            Cause::EnginePanic { .. } => ErrorClass::EnginePanic,
            Cause::NameMismatch { .. } | Cause::NamespaceMismatch { .. } => {
                ErrorClass::NameMismatch
            }
            Cause::Strategic(err) => strategic_class(&err.kind),
        }
    }
}
