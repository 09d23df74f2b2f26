//! Strategic merge patch (`application/strategic-merge-patch+json`), as
//! k8s.io/apimachinery `pkg/util/strategicpatch` applies and writes it,
//! with the kind's schema ([`crate::schema`]) in place of Go's struct tags.
//!
//! - [`apply`]: the merge itself (`StrategicMergeMapPatch`): lists merged
//!   by their merge key or replaced, scalar lists with strategy `merge`
//!   unioned (`finalizers`), `$patch: replace|delete|merge`,
//!   `$retainKeys`, `$setElementOrder/<field>`,
//!   `$deleteFromPrimitiveList/<field>`, `null` deletes;
//! - [`apply_body`]: the server's path around it: the routing's 404 for a
//!   group version the release does not serve (405 for a resource that
//!   takes no PATCH), 415 for a custom resource, the body limit, the
//!   strict decode, the merge, the name check; errors carry the server's
//!   answer;
//! - [`apply_local`]: `kubectl patch --local`'s path: kubectl's scheme
//!   decides which kinds it merges;
//! - [`diff`]: old + new -> the body kubectl sends (`CreateTwoWayMergePatch`,
//!   `$setElementOrder` directives included).
//!
//! ```
//! use patchlab::apply::strategic;
//! use patchlab::schema;
//! use serde_json::json;
//!
//! let pod = schema::resource("pod").unwrap().root();
//! let mut doc = json!({"spec": {"containers": [{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]}});
//! // The kubernetes.io "patch containers" example: a merge by name.
//! let patch = json!({"spec": {"containers": [{"name": "b", "image": "b:2"}]}});
//! strategic::apply(&mut doc, &patch, pod, Default::default()).unwrap();
//! assert_eq!(doc["spec"]["containers"][0]["image"], "a:1");
//! assert_eq!(doc["spec"]["containers"][1]["image"], "b:2");
//!
//! // Without the merge key, the server's own words (HTTP 500).
//! let err = strategic::apply(&mut doc, &json!({"spec": {"containers": [{"image": "c"}]}}), pod, Default::default())
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "map: map[image:c] does not contain declared merge key: name");
//! assert_eq!(err.status().unwrap().code, 500);
//! ```

mod diff;
mod merge;
mod order;

use std::fmt;

use serde_json::{Map, Value};

pub use diff::diff;
pub use merge::Origin;

use super::{ApplyError, Cause, Engine};
use crate::gojson::{self, DecodeError};
use crate::kube::KubeVersion;
use crate::limits::MAX_BODY_BYTES;
use crate::schema::{LookupError, Node, Route, Target, Unserved};
use crate::status::{Resource, Status};

/// Which release's `strategicpatch` runs: the package changed in
/// Kubernetes 1.28 (commits "filter out directives before taking patch
/// value as-is" and "Fix strategic merge patch $deleteFromPrimitiveList
/// bug").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Release {
    /// 1.25 to 1.27: a patch value taken as it is keeps its directives
    /// (`$patch` maps stay in the object), and a
    /// `$deleteFromPrimitiveList/<field>` of a field without strategy
    /// `merge` replaces the list with the values to delete.
    V1_25,
    /// 1.28 and later (kubectl 1.32 included).
    #[default]
    V1_28,
}

impl Release {
    /// Whether `removeDirectives` runs on patch values taken as they are
    /// (and delete lists merge whatever the field's strategy).
    pub fn removes_directives(self) -> bool {
        self == Release::V1_28
    }
}

impl From<KubeVersion> for Release {
    fn from(version: KubeVersion) -> Release {
        if version.minor() >= 28 {
            Release::V1_28
        } else {
            Release::V1_25
        }
    }
}

/// Why a strategic merge patch failed, in the words of the Go code that
/// refuses it (`mergepatch` errors, `fmt.Errorf` texts, lookups).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The server does not take strategic merge patches for custom
    /// resources (HTTP 415).
    UnsupportedMediaType {
        /// `group/version, Kind=X`.
        gvk: String,
    },
    /// A built-in kind patchlab has no schema for: it cannot merge
    /// (kubectl's compiled-in types can: an older group version the
    /// release no longer serves).
    NoSchema {
        /// `group/version, Kind=X`.
        gvk: String,
        /// The release that does not serve it, when known.
        release: Option<KubeVersion>,
    },
    /// The request never reaches the PATCH handler: kube-apiserver's
    /// routing answers (404 for a group version or resource the release
    /// does not serve, 405 for a resource that takes no PATCH).
    Routing(Status),
    /// The body is over the server's limit (413).
    BodyTooLarge {
        /// Its size in bytes.
        size: usize,
    },
    /// The handler's strict decode into `map[string]interface{}` failed
    /// (400, Go's message as it is).
    Decode(DecodeError),
    /// A body patchlab cannot hold (a lone surrogate, nesting beyond
    /// serde_json's limit): no server answer is claimed.
    Unsupported(String),
    /// `mergepatch.ErrBadJSONDoc`: the document is no JSON object (400).
    BadJsonDoc,
    /// `mergepatch.ErrBadPatchFormatForPrimitiveList` (400).
    BadPatchFormatForPrimitiveList,
    /// `mergepatch.ErrBadPatchFormatForRetainKeys` (400).
    BadPatchFormatForRetainKeys,
    /// `mergepatch.ErrBadPatchFormatForSetElementOrderList` (400).
    BadPatchFormatForSetElementOrderList,
    /// `mergepatch.ErrNoListOfLists` (422).
    NoListOfLists,
    /// `mergepatch.ErrNoMergeKey` (500): a list element without the
    /// field's merge key.
    NoMergeKey {
        /// The element as Go's `%v` prints it (`map[image:c]`).
        map: String,
        /// The merge key.
        key: String,
    },
    /// A field's patch metadata cannot be looked up (500).
    Lookup(LookupError),
    /// Any other error of the package, with Go's text (500).
    Other(String),
    /// The Go code panics here (the server answers 500).
    Panic(&'static str),
}

/// A failed strategic merge patch: what and where (a JSON pointer into
/// the document; empty for the whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where in the document, as a JSON pointer.
    pub path: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error {
            kind,
            path: String::new(),
        }
    }

    pub(crate) fn at(kind: ErrorKind, tokens: &[String]) -> Error {
        let mut path = String::new();
        for token in tokens {
            path.push('/');
            path.push_str(&crate::pointer::escape(token));
        }
        Error { kind, path }
    }

    /// A stable name of the kind of failure: `unsupported-media-type`,
    /// `not-found`, `method-not-allowed`, `no-schema`, `too-large`,
    /// `syntax`, `invalid-patch`,
    /// `missing-merge-key`, `engine-panic`, `apply-failed`.
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            ErrorKind::UnsupportedMediaType { .. } => "unsupported-media-type",
            ErrorKind::NoSchema { .. } => "no-schema",
            ErrorKind::Routing(status) if status.code == 405 => "method-not-allowed",
            ErrorKind::Routing(_) => "not-found",
            ErrorKind::BodyTooLarge { .. } => "too-large",
            ErrorKind::Decode(DecodeError::Syntax(_)) => "syntax",
            ErrorKind::Decode(_)
            | ErrorKind::Unsupported(_)
            | ErrorKind::BadJsonDoc
            | ErrorKind::BadPatchFormatForPrimitiveList
            | ErrorKind::BadPatchFormatForRetainKeys
            | ErrorKind::BadPatchFormatForSetElementOrderList => "invalid-patch",
            ErrorKind::NoMergeKey { .. } => "missing-merge-key",
            ErrorKind::Panic(_) => "engine-panic",
            ErrorKind::NoListOfLists | ErrorKind::Lookup(_) | ErrorKind::Other(_) => "apply-failed",
        }
    }

    /// What kube-apiserver answers (`interpretStrategicMergePatchError`,
    /// k8s.io/apiserver `pkg/endpoints/handlers/patch.go`: the
    /// `mergepatch` format errors are 400, lists of lists 422, any other
    /// error a 500 with an empty reason and the error's text); `None` where
    /// patchlab cannot tell.
    pub fn status(&self) -> Option<Status> {
        Some(match &self.kind {
            ErrorKind::UnsupportedMediaType { .. } => {
                Status::unsupported_media_type(&CUSTOM_RESOURCE_PATCH_TYPES)
            }
            ErrorKind::NoSchema { .. } | ErrorKind::Unsupported(_) => return None,
            ErrorKind::Routing(status) => status.clone(),
            ErrorKind::BodyTooLarge { .. } => Status::body_too_large(),
            ErrorKind::Decode(err) => Status::bad_request(err.to_string()),
            ErrorKind::BadJsonDoc
            | ErrorKind::BadPatchFormatForPrimitiveList
            | ErrorKind::BadPatchFormatForRetainKeys
            | ErrorKind::BadPatchFormatForSetElementOrderList => {
                Status::bad_request(self.to_string())
            }
            ErrorKind::NoListOfLists => Status::json_patch_failed(),
            ErrorKind::Panic(_) => Status::panicked(None),
            ErrorKind::NoMergeKey { .. } | ErrorKind::Lookup(_) | ErrorKind::Other(_) => {
                Status::unknown(500, self.to_string())
            }
        })
    }
}

/// The patch types the custom resource handler accepts
/// (`crdHandler.ServeHTTP`, k8s.io/apiextensions-apiserver
/// `pkg/apiserver/customresource_handler.go`; CBOR apply is behind the
/// alpha gate `CBORServingAndStorage`, off in every release modelled).
pub const CUSTOM_RESOURCE_PATCH_TYPES: [&str; 3] = [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
];

impl fmt::Display for Error {
    /// Go's text of the error (patchlab's words where no Go code speaks:
    /// 415, no schema, too large).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::UnsupportedMediaType { gvk } => write!(
                f,
                "{gvk} is a custom resource: the server takes no strategic merge patch for it (send a merge patch or a JSON patch)"
            ),
            ErrorKind::NoSchema { gvk, release: None } => write!(
                f,
                "patchlab has no schema for {gvk}: it cannot tell which lists merge"
            ),
            ErrorKind::NoSchema {
                gvk,
                release: Some(release),
            } => write!(
                f,
                "patchlab has no schema for {gvk}: Kubernetes {release} does not serve it (kubectl's compiled-in Go types still patch it locally)"
            ),
            ErrorKind::Routing(status) => f.write_str(&status.message),
            ErrorKind::BodyTooLarge { size } => write!(
                f,
                "the body is {size} bytes, more than the server reads ({MAX_BODY_BYTES})"
            ),
            ErrorKind::Decode(err) => write!(f, "{err}"),
            ErrorKind::Unsupported(err) => write!(
                f,
                "patchlab cannot read this body (the server might): {err}"
            ),
            ErrorKind::BadJsonDoc => f.write_str("invalid JSON document"),
            ErrorKind::BadPatchFormatForPrimitiveList => {
                f.write_str("invalid patch format of primitive list")
            }
            ErrorKind::BadPatchFormatForRetainKeys => {
                f.write_str("invalid patch format of retainKeys")
            }
            ErrorKind::BadPatchFormatForSetElementOrderList => {
                f.write_str("invalid patch format of setElementOrder list")
            }
            ErrorKind::NoListOfLists => f.write_str("lists of lists are not supported"),
            ErrorKind::NoMergeKey { map, key } => {
                write!(f, "map: {map} does not contain declared merge key: {key}")
            }
            ErrorKind::Lookup(err) => write!(f, "{err}"),
            ErrorKind::Other(text) => f.write_str(text),
            ErrorKind::Panic(what) => write!(f, "the Go code panics here: {what}"),
        }
    }
}

impl std::error::Error for Error {}

/// Applies a strategic merge patch to an object, as `StrategicMergeMapPatch`
/// does with the struct tags of the kind whose schema `root` is.
///
/// # Errors
///
/// [`Error`] with Go's text and the place in the document; `doc` is then
/// unchanged.
pub fn apply(
    doc: &mut Value,
    patch: &Value,
    root: Node<'_>,
    release: Release,
) -> Result<(), Error> {
    apply_from(doc, patch, root, release, Origin::Server)
}

/// [`apply`] to an object whose lists come from `origin`: the server's
/// deep copy, or kubectl's decoded JSON (whose spare capacity changes
/// the order of a merged list of scalars with duplicates).
///
/// # Errors
///
/// As [`apply`].
pub fn apply_from(
    doc: &mut Value,
    patch: &Value,
    root: Node<'_>,
    release: Release,
    origin: Origin,
) -> Result<(), Error> {
    let (Value::Object(original), Value::Object(patch)) = (&*doc, patch) else {
        return match patch {
            // A `null` body decodes to a nil map: nothing to merge.
            Value::Null if doc.is_object() => Ok(()),
            _ => Err(Error::new(ErrorKind::BadJsonDoc)),
        };
    };
    let mut merger = merge::Merger {
        release,
        origin,
        path: Trail::default(),
    };
    let merged = merger.merge_map(original.clone(), patch.clone(), root)?;
    *doc = Value::Object(merged);
    Ok(())
}

/// Applies a strategic merge patch body as kube-apiserver would to an
/// object of `target` (a kind of `version`'s table, [`crate::schema::
/// for_release`]): the routing first (404 for a group version or kind the
/// release does not serve, 405 for a resource that takes no PATCH), then
/// the PATCH handler: a custom resource is refused (415 before anything is
/// read), then the body limit (413), the strict decode into
/// `map[string]interface{}` (400 with Go's message; duplicate fields are
/// warnings), the merge, and the name and namespace checks (400).
///
/// Returns the warnings the server sends back. Not modelled: the server
/// then decodes the result into the kind's Go type, which drops unknown
/// fields (with a warning) and applies defaults.
///
/// # Errors
///
/// [`ApplyError`] whose cause is [`Cause::Strategic`] (or the name
/// checks'); `doc` is then unchanged.
///
/// ```
/// use patchlab::apply::strategic;
/// use patchlab::schema;
/// use serde_json::json;
///
/// let mut vmi = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": {"name": "x"}});
/// let target = schema::target_of(&vmi);
/// let err = strategic::apply_body(&mut vmi, r#"{"metadata":{"labels":{"a":"b"}}}"#, &target, Default::default())
///     .unwrap_err();
/// let status = err.response().unwrap();
/// assert_eq!(status.code, 415);
/// assert_eq!(status.message, "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
///
/// // A group version no release modelled serves: the routing's 404.
/// let mut old = json!({"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "web"}});
/// let target = schema::target_of(&old);
/// let err = strategic::apply_body(&mut old, "{}", &target, Default::default()).unwrap_err();
/// let status = err.response().unwrap();
/// assert_eq!((status.code, status.message.as_str()), (404, "the server could not find the requested resource (patch deployments.extensions web)"));
/// ```
pub fn apply_body(
    doc: &mut Value,
    body: &str,
    target: &Target<'_>,
    version: KubeVersion,
) -> Result<Vec<String>, ApplyError> {
    let engine = Engine::Kube(version.engine());
    let fail =
        |kind: ErrorKind| ApplyError::whole(Cause::Strategic(Box::new(Error::new(kind))), engine);
    if let Some(status) = routing(target, doc) {
        return Err(fail(ErrorKind::Routing(status)));
    }
    if !target.is_builtin() {
        return Err(fail(ErrorKind::UnsupportedMediaType { gvk: target.gvk() }));
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(fail(ErrorKind::BodyTooLarge { size: body.len() }));
    }
    let warnings = gojson::check_merge_patch(body).map_err(|e| fail(ErrorKind::Decode(e)))?;
    let patch: Value = serde_json::from_str(&crate::json::go_strings(body))
        .map_err(|e| fail(ErrorKind::Unsupported(e.to_string())))?;
    let Some(kind) = target.schema() else {
        return Err(fail(ErrorKind::NoSchema {
            gvk: target.gvk(),
            release: None,
        }));
    };
    let (url_name, url_namespace) = super::identity(doc);
    let mut merged = doc.clone();
    apply(&mut merged, &patch, kind.root(), version.into())
        .map_err(|e| ApplyError::whole(Cause::Strategic(Box::new(e)), engine))?;
    super::check_identity(&mut merged, url_name.as_deref(), url_namespace.as_deref())
        .map_err(|cause| ApplyError::whole(cause, engine))?;
    *doc = merged;
    Ok(warnings)
}

/// What kube-apiserver's routing answers a PATCH of `doc` (an object of
/// `target`) before any handler runs, if it does not route it to one: a
/// group version the release does not serve reaches the end of the
/// delegation chain (kube-aggregator, kube-apiserver's director, the
/// apiextensions-apiserver's `crdHandler`, which finds no
/// CustomResourceDefinition and delegates, then `notfoundhandler`); a
/// served group version's routes are go-restful's.
fn routing(target: &Target<'_>, doc: &Value) -> Option<Status> {
    match target {
        Target::Unserved(Unserved {
            version_served: true,
            ..
        }) => Some(Status::route_not_found()),
        Target::Unserved(unserved) => {
            let resource = Resource::guess(&unserved.kind, &unserved.api_version);
            let name = doc.pointer("/metadata/name").and_then(Value::as_str);
            Some(Status::page_not_found(
                name.map(|name| ("PATCH", &resource, name)),
            ))
        }
        Target::Tabled(kind) => match kind.route() {
            Route::Patch => None,
            Route::NoObject => Some(Status::route_not_found()),
            Route::NoPatch => Some(Status::method_not_allowed()),
        },
        Target::Custom { .. } => None,
    }
}

/// Applies a strategic merge patch as `kubectl patch --local` of the
/// target's release does: the merge with the Go type of the kind from
/// kubectl's scheme, no server checks. A kind outside kubectl's scheme
/// (a custom resource; `apiextensions.k8s.io` and `apiregistration.k8s.io`,
/// which client-go's scheme lacks) is refused in kubectl's words (`strategic
/// merge patch is not supported for <gvk> locally, try --type merge`); an
/// older group version kubectl still has the Go type of but the release
/// does not serve has no schema here ([`ErrorKind::NoSchema`]).
///
/// # Errors
///
/// [`Error`] with kubectl's text.
pub fn apply_local(doc: &mut Value, patch: &Value, target: &Target<'_>) -> Result<(), Error> {
    let release =
        |kind: &crate::schema::Kind<'_>| kind.release().map_or(Release::V1_28, Release::from);
    match target {
        Target::Tabled(kind) if kind.local() => {
            apply_from(doc, patch, kind.root(), release(kind), Origin::Decoded)
        }
        Target::Unserved(unserved) if unserved.known => Err(Error::new(ErrorKind::NoSchema {
            gvk: target.gvk(),
            release: unserved.release,
        })),
        _ => Err(Error::new(ErrorKind::Other(format!(
            "strategic merge patch is not supported for {} locally, try --type merge",
            target.gvk()
        )))),
    }
}

/// Where a merge or diff stands in the document: the tokens of a JSON
/// pointer, pushed and popped as it descends; errors are placed there.
#[derive(Debug, Default)]
pub(crate) struct Trail(Vec<String>);

impl Trail {
    pub(crate) fn push(&mut self, token: impl Into<String>) {
        self.0.push(token.into());
    }

    pub(crate) fn pop(&mut self) {
        self.0.pop();
    }

    pub(crate) fn depth(&self) -> usize {
        self.0.len()
    }

    /// An error here.
    pub(crate) fn fail(&self, kind: ErrorKind) -> Error {
        Error::at(kind, &self.0)
    }

    /// An error from below that knows no place: placed here.
    pub(crate) fn wrap(&self, err: Error) -> Error {
        if err.path.is_empty() && !self.0.is_empty() {
            Error::at(err.kind, &self.0)
        } else {
            err
        }
    }
}

/// A JSON object, for the diff and its tests.
pub(crate) type Object = Map<String, Value>;

#[cfg(test)]
mod tests;
