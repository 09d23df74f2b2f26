//! The names of what went wrong with a write: one class per cause a user
//! can be told about, shared by `explain` (from an error text back to its
//! cause), the apply engine ([`crate::apply::Cause::class`]), lint and the
//! simulator.
//!
//! A class names a *cause*, not an answer: several classes share one
//! answer (a failed `test`, a missing path and a bad index all come back
//! as the same bare 422), which is why the enum lives here and not in
//! [`crate::status`] (the answers). It sits in the foundation layer so
//! every layer above can name a class without depending on another.
//!
//! ```
//! use patchlab::vocabulary::ErrorClass;
//!
//! assert_eq!(ErrorClass::TestFailed.id(), "test-failed");
//! assert_eq!(ErrorClass::parse("smp-custom-resource"), Some(ErrorClass::SmpCustomResource));
//! assert_eq!(ErrorClass::SmpCustomResource.codes(), &[415]);
//! ```

use serde::{Serialize, Serializer};

/// One class of failed write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorClass {
    /// A JSON patch `test` op found another value (422, bare).
    TestFailed,
    /// A JSON patch op's path (or a parent, or the `from`) does not exist
    /// (422, bare).
    MissingPath,
    /// A JSON patch op's array index is out of range or no index (422, bare).
    BadIndex,
    /// A JSON patch op the engine refuses whatever the object: an unknown
    /// op, a missing `value` or `from`, a whole-document op the release
    /// refuses, copies beyond the growth limit (422, bare).
    MalformedOp,
    /// A patch that sets `metadata.resourceVersion` to a stale value (409).
    RvPrecondition,
    /// An Update (PUT) with a stale `resourceVersion` (409).
    UpdateConflict,
    /// A server-side apply changed fields another manager owns (409).
    SsaConflict,
    /// A strategic merge patch sent to a custom resource (415).
    SmpCustomResource,
    /// A strategic merge patch whose list element lacks its merge key, or
    /// whose `$patch`/`$setElementOrder`/`$retainKeys` directive is malformed.
    SmpMergeKey,
    /// A body sent with the wrong content type: a merge patch object as a
    /// JSON patch, a list as a merge patch, a type the resource does not
    /// take (400 or 415).
    ContentType,
    /// The body is not JSON, or not the shape the handler decodes (400).
    DecodeError,
    /// The server's JSON patch engine panicked (500).
    EnginePanic,
    /// The request body is over the server's limit (413).
    TooLarge,
    /// More than 10,000 JSON patch ops (413).
    TooManyOps,
    /// The patched object fails validation (422 Invalid, with causes).
    Invalid,
    /// The patch changes a field that cannot change after creation (422).
    Immutable,
    /// An Update of a custom resource without `metadata.resourceVersion` (422).
    MissingResourceVersion,
    /// The patch changes `metadata.name` or `metadata.namespace` (400).
    NameMismatch,
    /// The object (or the resource type) does not exist (404).
    NotFound,
    /// The caller may not do this (403).
    Forbidden,
    /// An admission webhook refused the write.
    AdmissionDenied,
    /// The server was overloaded, timed out or unreachable: nothing was
    /// wrong with the request (429, 500, 503, 504).
    Transient,
}

impl ErrorClass {
    /// Every class, in the order docs/explain.md lists them.
    pub const ALL: [ErrorClass; 22] = [
        ErrorClass::TestFailed,
        ErrorClass::MissingPath,
        ErrorClass::BadIndex,
        ErrorClass::MalformedOp,
        ErrorClass::RvPrecondition,
        ErrorClass::UpdateConflict,
        ErrorClass::SsaConflict,
        ErrorClass::SmpCustomResource,
        ErrorClass::SmpMergeKey,
        ErrorClass::ContentType,
        ErrorClass::DecodeError,
        ErrorClass::EnginePanic,
        ErrorClass::TooLarge,
        ErrorClass::TooManyOps,
        ErrorClass::Invalid,
        ErrorClass::Immutable,
        ErrorClass::MissingResourceVersion,
        ErrorClass::NameMismatch,
        ErrorClass::NotFound,
        ErrorClass::Forbidden,
        ErrorClass::AdmissionDenied,
        ErrorClass::Transient,
    ];

    /// The classes a JSON patch op failure can be: the server answers each
    /// with the same bare 422 (`the server rejected our request due to an
    /// error in our request`), so the text alone cannot tell them apart.
    pub const BARE_422: [ErrorClass; 4] = [
        ErrorClass::TestFailed,
        ErrorClass::MissingPath,
        ErrorClass::BadIndex,
        ErrorClass::MalformedOp,
    ];

    /// The stable kebab-case id, for JSON, the CLI and links.
    pub fn id(self) -> &'static str {
        match self {
            ErrorClass::TestFailed => "test-failed",
            ErrorClass::MissingPath => "missing-path",
            ErrorClass::BadIndex => "bad-index",
            ErrorClass::MalformedOp => "malformed-op",
            ErrorClass::RvPrecondition => "rv-precondition",
            ErrorClass::UpdateConflict => "update-conflict",
            ErrorClass::SsaConflict => "ssa-conflict",
            ErrorClass::SmpCustomResource => "smp-custom-resource",
            ErrorClass::SmpMergeKey => "smp-merge-key",
            ErrorClass::ContentType => "content-type",
            ErrorClass::DecodeError => "decode-error",
            ErrorClass::EnginePanic => "engine-panic",
            ErrorClass::TooLarge => "too-large",
            ErrorClass::TooManyOps => "too-many-ops",
            ErrorClass::Invalid => "invalid",
            ErrorClass::Immutable => "immutable",
            ErrorClass::MissingResourceVersion => "missing-resource-version",
            ErrorClass::NameMismatch => "name-mismatch",
            ErrorClass::NotFound => "not-found",
            ErrorClass::Forbidden => "forbidden",
            ErrorClass::AdmissionDenied => "admission-denied",
            ErrorClass::Transient => "transient",
        }
    }

    /// The class by its id.
    pub fn parse(id: &str) -> Option<ErrorClass> {
        ErrorClass::ALL.into_iter().find(|c| c.id() == id)
    }

    /// A short name for a heading.
    pub fn label(self) -> &'static str {
        match self {
            ErrorClass::TestFailed => "A test op failed",
            ErrorClass::MissingPath => "A path does not exist",
            ErrorClass::BadIndex => "An array index is out of range",
            ErrorClass::MalformedOp => "An op the engine refuses",
            ErrorClass::RvPrecondition => "Stale resourceVersion in a patch",
            ErrorClass::UpdateConflict => "Update with a stale resourceVersion",
            ErrorClass::SsaConflict => "Server-side apply conflict",
            ErrorClass::SmpCustomResource => "Strategic merge patch on a custom resource",
            ErrorClass::SmpMergeKey => "Strategic merge patch merge-key error",
            ErrorClass::ContentType => "Wrong content type",
            ErrorClass::DecodeError => "The body cannot be decoded",
            ErrorClass::EnginePanic => "The JSON patch engine panicked",
            ErrorClass::TooLarge => "The body is too large",
            ErrorClass::TooManyOps => "Too many ops",
            ErrorClass::Invalid => "The patched object is invalid",
            ErrorClass::Immutable => "An immutable field changed",
            ErrorClass::MissingResourceVersion => "Update without resourceVersion",
            ErrorClass::NameMismatch => "Name or namespace changed",
            ErrorClass::NotFound => "Not found",
            ErrorClass::Forbidden => "Forbidden",
            ErrorClass::AdmissionDenied => "Denied by an admission webhook",
            ErrorClass::Transient => "Server busy or unreachable",
        }
    }

    /// The HTTP status codes the class comes back with.
    pub fn codes(self) -> &'static [u16] {
        match self {
            ErrorClass::TestFailed
            | ErrorClass::MissingPath
            | ErrorClass::BadIndex
            | ErrorClass::MalformedOp
            | ErrorClass::Invalid
            | ErrorClass::Immutable
            | ErrorClass::MissingResourceVersion => &[422],
            ErrorClass::RvPrecondition | ErrorClass::UpdateConflict | ErrorClass::SsaConflict => {
                &[409]
            }
            ErrorClass::SmpCustomResource => &[415],
            ErrorClass::SmpMergeKey => &[400, 422, 500],
            ErrorClass::ContentType => &[400, 415],
            ErrorClass::DecodeError | ErrorClass::NameMismatch => &[400],
            ErrorClass::EnginePanic => &[500],
            ErrorClass::TooLarge | ErrorClass::TooManyOps => &[413],
            ErrorClass::NotFound => &[404],
            ErrorClass::Forbidden => &[403],
            ErrorClass::AdmissionDenied => &[400, 403, 422],
            ErrorClass::Transient => &[429, 500, 503, 504],
        }
    }

    /// One sentence a newcomer understands.
    pub fn definition(self) -> &'static str {
        match self {
            ErrorClass::TestFailed => "A test op of the JSON patch compared its value with the stored object and found something else, so the whole patch was dropped.",
            ErrorClass::MissingPath => "An op of the JSON patch addressed a member that does not exist (or a parent of it that does not), so the whole patch was dropped.",
            ErrorClass::BadIndex => "An op of the JSON patch addressed an array element past the end of the array, or with a token that is no index, so the whole patch was dropped.",
            ErrorClass::MalformedOp => "An op of the JSON patch is one the server's engine refuses whatever the object holds: an unknown op, a missing value or from, a whole-document op this release does not take, copies that grow the object too much.",
            ErrorClass::RvPrecondition => "The patch pins metadata.resourceVersion and the object has changed since that version was read: the server refuses it with 409 Conflict.",
            ErrorClass::UpdateConflict => "An Update (PUT) carried the resourceVersion of an older read: someone else wrote the object in between, and the server refuses it with 409 Conflict.",
            ErrorClass::SsaConflict => "A server-side apply set fields that another field manager owns, to other values, without force.",
            ErrorClass::SmpCustomResource => "A strategic merge patch (kubectl's default --type) was sent to a custom resource, which only takes JSON patches, merge patches and server-side applies.",
            ErrorClass::SmpMergeKey => "A strategic merge patch holds a list element without the list's merge key, or a malformed $patch, $setElementOrder, $deleteFromPrimitiveList or $retainKeys directive.",
            ErrorClass::ContentType => "The body does not match the content type it was sent with: a merge patch object sent as a JSON patch, a list of ops sent as a merge patch, or a content type this resource does not take.",
            ErrorClass::DecodeError => "The server could not decode the body: not JSON (or YAML for an apply), or not the shape the handler reads.",
            ErrorClass::EnginePanic => "The server's JSON patch engine (evanphx/json-patch) dereferenced a nil value on this patch and panicked; the server answers 500 and logs the panic.",
            ErrorClass::TooLarge => "The request body is over the server's limit (3 MiB by default).",
            ErrorClass::TooManyOps => "The JSON patch holds more than 10,000 ops, the server's limit.",
            ErrorClass::Invalid => "The patch applied, but the patched object fails validation (the resource's schema, its type, or a validating rule); the answer names the fields.",
            ErrorClass::Immutable => "The patch changes a field that cannot change once the object exists.",
            ErrorClass::MissingResourceVersion => "An Update of a custom resource left out metadata.resourceVersion, which such resources require.",
            ErrorClass::NameMismatch => "The patch changes metadata.name or metadata.namespace: an object cannot be renamed or moved by a patch.",
            ErrorClass::NotFound => "The object does not exist (deleted, another namespace or name), or the server does not serve the resource type.",
            ErrorClass::Forbidden => "The caller's identity is not allowed to do this (RBAC), or a policy forbids it.",
            ErrorClass::AdmissionDenied => "An admission webhook looked at the request and refused it; its message says why.",
            ErrorClass::Transient => "The server was overloaded, timed out or could not be reached; nothing was wrong with the request itself.",
        }
    }
}

impl std::fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for ErrorClass {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_parse_back_and_every_class_has_a_code() {
        for (i, a) in ErrorClass::ALL.iter().enumerate() {
            assert_eq!(ErrorClass::parse(a.id()), Some(*a));
            assert!(a.definition().ends_with('.'), "{a:?}");
            assert!(!a.codes().is_empty());
            for b in &ErrorClass::ALL[i + 1..] {
                assert_ne!(a.id(), b.id());
                assert_ne!(a.label(), b.label());
            }
        }
        for class in ErrorClass::BARE_422 {
            assert_eq!(class.codes(), &[422]);
        }
        assert_eq!(ErrorClass::parse("nope"), None);
    }
}
