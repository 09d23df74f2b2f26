//! What to do about each class: whether a retry helps, the fix, and the
//! Kubernetes code that writes the message (read at the branches named;
//! docs/explain.md has the same table).

use serde::Serialize;

use crate::vocabulary::ErrorClass;

/// Whether sending again helps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Helps {
    /// Sending the same request again later can succeed.
    Later,
    /// Only after re-reading the object and rebuilding the request.
    AfterReread,
    /// Never: the request itself must change.
    No,
}

/// The retry verdict of a class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Retry {
    /// Whether client-go's `retry.RetryOnConflict` retries it (it retries
    /// what `errors.IsConflict` says is a 409 Conflict, and nothing else).
    pub retry_on_conflict: bool,
    /// Whether retrying can help.
    pub helps: Helps,
    /// What to do, in a sentence or two.
    pub advice: String,
}

/// A place in Kubernetes (or a client) that writes the message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceRef {
    /// `owner/repository`.
    pub repo: &'static str,
    /// The file.
    pub path: &'static str,
    /// The function, type or constant.
    pub symbol: &'static str,
    /// The branch or tag read.
    pub at: &'static str,
    /// The line at that branch, where one line says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl SourceRef {
    /// A link to the line on GitHub.
    pub fn url(&self) -> String {
        let mut url = format!(
            "https://github.com/{}/blob/{}/{}",
            self.repo, self.at, self.path
        );
        if let Some(line) = self.line {
            url.push_str(&format!("#L{line}"));
        }
        url
    }
}

const fn src(
    repo: &'static str,
    path: &'static str,
    symbol: &'static str,
    at: &'static str,
    line: u32,
) -> SourceRef {
    SourceRef {
        repo,
        path,
        symbol,
        at,
        line: if line == 0 { None } else { Some(line) },
    }
}

const APISERVER: &str = "kubernetes/apiserver";
const APIMACHINERY: &str = "kubernetes/apimachinery";
const R136: &str = "release-1.36";

const PATCH_GO: &str = "pkg/endpoints/handlers/patch.go";
const ERRORS_GO: &str = "pkg/api/errors/errors.go";
const EVANPHX_422: SourceRef = src(
    APISERVER,
    PATCH_GO,
    "jsonPatcher.applyJSPatch: NewGenericServerResponse(422, ..., err.Error(), ...) drops the engine's error",
    R136,
    414,
);
const GENERIC: SourceRef = src(
    APIMACHINERY,
    ERRORS_GO,
    "NewGenericServerResponse: 422 is \"the server rejected our request due to an error in our request\"",
    R136,
    437,
);
const EVANPHX_V4: &str = "evanphx/json-patch";
const STORE_CONFLICT: SourceRef = src(
    APISERVER,
    "pkg/registry/generic/registry/store.go",
    "Store.Update: NewConflict(..., OptimisticLockErrorMsg)",
    R136,
    744,
);
const NEW_CONFLICT: SourceRef = src(APIMACHINERY, ERRORS_GO, "NewConflict", R136, 232);
const IS_CONFLICT: SourceRef = src(
    "kubernetes/client-go",
    "util/retry/util.go",
    "RetryOnConflict: OnError(backoff, errors.IsConflict, fn)",
    R136,
    103,
);
const NEW_INVALID: SourceRef = src(APIMACHINERY, ERRORS_GO, "NewInvalid", R136, 284);
const NEW_BAD_REQUEST: SourceRef = src(APIMACHINERY, ERRORS_GO, "NewBadRequest", R136, 315);

/// The sources of an engine error: the server drops it for its generic
/// 422, and the evanphx/json-patch v4.12.0 code that writes it.
fn evanphx(symbol: &'static str, line: u32) -> Vec<SourceRef> {
    let engine = src(EVANPHX_V4, "patch.go", symbol, "v4.12.0", line);
    vec![EVANPHX_422, GENERIC, engine]
}

/// The sources of a class's message.
pub fn sources(class: ErrorClass) -> Vec<SourceRef> {
    // A table: each class's sources in the Kubernetes and json-patch code.
    match class {
        ErrorClass::TestFailed => evanphx("Patch.test: \"testing value %s failed\" (ErrTestFailed)", 676),
        ErrorClass::MissingPath => evanphx("Patch.add/remove/replace/move/copy: \"... doc is missing path\" (ErrMissing)", 534),
        ErrorClass::BadIndex => evanphx("partialArray.add/get/set/remove: \"Unable to access invalid index\" (ErrInvalidIndex)", 418),
        ErrorClass::MalformedOp => evanphx("Patch.ApplyIndent: \"Unexpected kind: %s\"", 823),
        ErrorClass::RvPrecondition | ErrorClass::UpdateConflict => vec![
            STORE_CONFLICT,
            src(APISERVER, "pkg/registry/generic/registry/store.go", "OptimisticLockErrorMsg", R136, 263),
            NEW_CONFLICT,
            IS_CONFLICT,
        ],
        ErrorClass::SsaConflict => vec![
            src(APIMACHINERY, "pkg/util/managedfields/internal/conflict.go", "NewConflictError, getConflictMessage", R136, 33),
            src(APIMACHINERY, ERRORS_GO, "NewApplyConflict", R136, 247),
        ],
        ErrorClass::SmpCustomResource => vec![
            src(APISERVER, PATCH_GO, "PatchResource: NewUnsupportedMediaTypeError(patchTypes)", R136, 87),
            src(APISERVER, "pkg/endpoints/handlers/negotiation/errors.go", "errUnsupportedMediaType.Error", R136, 89),
            src("kubernetes/apiextensions-apiserver", "pkg/apiserver/customresource_handler.go", "crdHandler.ServeHTTP: supportedTypes (no strategic merge patch)", R136, 327),
            src("kubernetes/kubectl", "pkg/cmd/patch/patch.go", "RunPatch: \"%s is not supported by %s: %w\"", R136, 262),
        ],
        ErrorClass::SmpMergeKey => vec![
            src(APIMACHINERY, "pkg/util/mergepatch/errors.go", "ErrNoMergeKey: \"map: %v does not contain declared merge key: %s\"", R136, 35),
            src(APIMACHINERY, "pkg/util/strategicpatch/patch.go", "mergeSlice, sliceOfMapsToMapOfMaps", R136, 1495),
            src(APISERVER, PATCH_GO, "interpretStrategicMergePatchError (400, 422, or the error as is: 500)", R136, 798),
        ],
        ErrorClass::ContentType => vec![
            src(APISERVER, PATCH_GO, "jsonPatcher.applyJSPatch: \"error decoding patch: %v\"", R136, 396),
            src(APISERVER, PATCH_GO, "strategicPatchObject: NewBadRequest(err.Error())", R136, 545),
            src(APISERVER, "pkg/endpoints/handlers/negotiation/errors.go", "errUnsupportedMediaType.Error", R136, 89),
        ],
        ErrorClass::DecodeError => vec![
            src(APISERVER, PATCH_GO, "jsonPatcher.applyJSPatch: \"error decoding patch: %v\"", R136, 396),
            src(APISERVER, PATCH_GO, "jsonPatcher.applyJSPatch: ErrBadJSONPatch (merge patch of null)", R136, 428),
            NEW_BAD_REQUEST,
        ],
        ErrorClass::EnginePanic => vec![
            src(APISERVER, "pkg/server/filters/wrap.go", "WithPanicRecovery", R136, 56),
            src("kubernetes/client-go", "rest/request.go", "newUnstructuredResponseError", R136, 1337),
            src(EVANPHX_V4, "patch.go", "Patch.test: op.value().raw on a nil value", "v4.12.0", 691),
        ],
        ErrorClass::TooLarge => vec![
            src(APISERVER, "pkg/endpoints/handlers/rest.go", "limitedReadBody", R136, 386),
            src(APISERVER, "pkg/server/config.go", "MaxRequestBodyBytes: 3 MiB", R136, 474),
            src(APIMACHINERY, ERRORS_GO, "NewRequestEntityTooLargeError", R136, 427),
        ],
        ErrorClass::TooManyOps => vec![
            src(APISERVER, PATCH_GO, "jsonPatcher.applyJSPatch: maxJSONPatchOperations", R136, 410),
            src(APIMACHINERY, ERRORS_GO, "NewRequestEntityTooLargeError", R136, 427),
        ],
        ErrorClass::Invalid => vec![
            NEW_INVALID,
            src(APIMACHINERY, "pkg/util/validation/field/errors.go", "Error.ErrorBody", R136, 109),
            src("kubernetes/kubectl", "pkg/cmd/util/helpers.go", "checkErr: \"The %s %q is invalid\"", R136, 152),
        ],
        ErrorClass::Immutable => vec![
            src(APIMACHINERY, "pkg/api/validation/objectmeta.go", "ValidateImmutableField: FieldImmutableErrorMsg", R136, 131),
            src("kubernetes/kubernetes", "pkg/apis/core/validation/validation.go", "validateUpgradeDowngradeClusterIPs, validateLoadBalancerClassField: \"may not change once set\"", "master", 0),
            src("kubernetes/kubernetes", "pkg/apis/apps/validation/validation.go", "ValidateStatefulSetUpdate: \"updates to statefulset spec for fields other than ...\"", "master", 0),
            NEW_INVALID,
        ],
        ErrorClass::MissingResourceVersion => vec![
            src(APISERVER, "pkg/registry/generic/registry/store.go", "Store.Update: \"must be specified for an update\"", R136, 740),
            NEW_INVALID,
        ],
        ErrorClass::NameMismatch => vec![
            src(APISERVER, "pkg/endpoints/handlers/rest.go", "checkName", R136, 273),
            src(APISERVER, "pkg/registry/rest/meta.go", "EnsureObjectNamespaceMatchesRequestNamespace", R136, 47),
        ],
        ErrorClass::NotFound => vec![
            src(APIMACHINERY, ERRORS_GO, "NewNotFound", R136, 145),
            src(APISERVER, PATCH_GO, "jsonPatcher.createNewObject", R136, 376),
        ],
        ErrorClass::Forbidden => vec![
            src(APISERVER, "pkg/endpoints/handlers/responsewriters/errors.go", "ForbiddenStatusError, forbiddenMessage", R136, 45),
            src(APIMACHINERY, ERRORS_GO, "NewForbidden", R136, 209),
        ],
        ErrorClass::AdmissionDenied => vec![
            src(APISERVER, "pkg/admission/plugin/webhook/errors/statuserror.go", "ToStatusErr: \"admission webhook %q denied the request\"", R136, 28),
        ],
        ErrorClass::Transient => vec![
            src(APIMACHINERY, ERRORS_GO, "NewGenericServerResponse (429, 503, 504), NewServerTimeout, NewTimeoutError", R136, 437),
        ],
    }
}

/// The retry verdict of a class.
pub fn retry(class: ErrorClass) -> Retry {
    use ErrorClass as C;
    let (retry_on_conflict, helps, advice) = match class {
        C::TestFailed => (false, Helps::AfterReread, "Re-read the object, rebuild the patch from what it holds now (the test values included) and send it again; if what the test guarded changed, decide first whether your write still makes sense."),
        C::MissingPath => (false, Helps::AfterReread, "If another writer removed the member, re-read and rebuild; if the path never existed, fix the patch (add instead of replace, create the parent first)."),
        C::BadIndex => (false, Helps::AfterReread, "Array indices move when others add or remove elements: re-read, rebuild, and test the element before writing it."),
        C::MalformedOp => (false, Helps::No, "Sending it again fails again: the patch itself must change."),
        C::RvPrecondition => (true, Helps::AfterReread, "Only a retry that re-reads the object and pins the new resourceVersion can succeed."),
        C::UpdateConflict => (true, Helps::AfterReread, "Re-read (GET, not the informer cache if it lags), apply your change to the fresh object, Update again. Or send a patch that touches only your fields."),
        C::SsaConflict => (true, Helps::No, "It is a 409 Conflict, but the same apply conflicts again: stop setting those fields, set them to the values their owners hold, or apply with force if taking them over is intended."),
        C::SmpCustomResource => (false, Helps::No, "Never: custom resources do not take strategic merge patches. Send a JSON patch or a merge patch instead (kubectl patch --type=json or --type=merge)."),
        C::SmpMergeKey => (false, Helps::No, "Sending it again fails again: give every element of a merge-keyed list its merge key, or fix the directive."),
        C::ContentType => (false, Helps::No, "Sending it again fails again: send the body with the content type of its kind."),
        C::DecodeError => (false, Helps::No, "Sending it again fails again: the body must be fixed."),
        C::EnginePanic => (false, Helps::No, "The same patch panics the same release every time: rewrite the op (give the test a value) or run a release whose engine does not panic."),
        C::TooLarge => (false, Helps::No, "Sending it again fails again: send less (only the fields that change)."),
        C::TooManyOps => (false, Helps::No, "Sending it again fails again: split the patch, or send a merge patch or an Update instead."),
        C::Invalid => (false, Helps::No, "Sending it again fails again unless what the validation reads changes: fix the values it names."),
        C::Immutable => (false, Helps::No, "Never: the field cannot change. Leave it as it is, or delete and re-create the object."),
        C::MissingResourceVersion => (false, Helps::No, "Sending it again fails again: read the object and send its metadata.resourceVersion with the Update (or send a patch)."),
        C::NameMismatch => (false, Helps::No, "Never: a patch cannot rename or move an object. Remove the op on metadata.name or metadata.namespace."),
        C::NotFound => (false, Helps::No, "Not unless someone creates it: check the name, namespace and resource; a controller usually drops the work item."),
        C::Forbidden => (false, Helps::No, "Not until the permissions change: grant the verb on the resource (RBAC) to this identity."),
        C::AdmissionDenied => (false, Helps::No, "Not until the request satisfies the webhook's policy (its message says what it wants)."),
        C::Transient => (false, Helps::Later, "Yes, later, with backoff: the request was not at fault (client-go already retries 429 with Retry-After)."),
    };
    Retry {
        retry_on_conflict,
        helps,
        advice: advice.to_owned(),
    }
}

/// The fix of a class, in general (the explanation adds specifics from
/// the patch and object when given).
pub fn fix(class: ErrorClass) -> &'static str {
    use ErrorClass as C;
    match class {
        C::TestFailed => "Test only what your write depends on: per key for maps (PR #18139's per-key ops), the element for lists. A test of a whole map fails whenever anyone changes any key of it. Make the test value the bytes the server stores (Go's encoding: integers without .0, <, >, & as \\u003c...).",
        C::MissingPath => "Use add (it creates the member) instead of replace or remove for a member that may be absent; add the parent object first when it may be missing; test for null before a first write.",
        C::BadIndex => "Address list elements you have just tested, append with \"-\", or replace the whole list behind a test of it.",
        C::MalformedOp => "Use only add, remove, replace, test, move, copy, each with its path (and value or from); do not target \"\" with add.",
        C::RvPrecondition => "Drop metadata.resourceVersion from the patch unless you mean optimistic locking; if you do, re-read and pin the current version on each retry.",
        C::UpdateConflict => "Wrap the read-modify-write in RetryOnConflict with a fresh read inside, or send a JSON patch (with tests on what you depend on) or a merge patch that touches only your fields.",
        C::SsaConflict => "Apply only the fields you manage; if you mean to take the fields over, apply with force (kubectl apply --server-side --force-conflicts, client-go ApplyOptions{Force: true}).",
        C::SmpCustomResource => "Send a JSON patch (application/json-patch+json) or a merge patch (application/merge-patch+json): kubectl patch --type=json or --type=merge.",
        C::SmpMergeKey => "Give each element of a list with a merge key (containers by name, conditions by type, ...) that key, or send a JSON patch addressing the element.",
        C::ContentType => "Send a list of ops as application/json-patch+json and an object as application/merge-patch+json (kubectl patch --type=json for a list, --type=merge for an object).",
        C::DecodeError => "Send valid JSON of the right shape: a JSON patch is an array of op objects; a merge patch an object.",
        C::EnginePanic => "Give every test op a value (\"value\": null to test for absence) and do not walk through a null the same patch added; kube-apiserver 1.35 and later (evanphx/json-patch v4.13.0) answer such patches with a 422 instead.",
        C::TooLarge => "Send only the fields that change (a JSON patch of them, or a merge patch); the limit is 3 MiB per request.",
        C::TooManyOps => "Split the patch into patches of at most 10,000 ops, or replace whole maps or lists behind one test.",
        C::Invalid => "Fix the values the causes name; the patch applied, the result is what the server refused.",
        C::Immutable => "Do not change the field; to change it anyway, delete and re-create the object.",
        C::MissingResourceVersion => "Send metadata.resourceVersion with every Update of a custom resource (from the object you read).",
        C::NameMismatch => "Remove the ops on metadata.name and metadata.namespace; to rename, create a copy and delete the original.",
        C::NotFound => "Check the name, namespace, API group and version; treat 404 as done (the object is gone) where that is the intent.",
        C::Forbidden => "Grant this identity the verb on the resource (a Role or ClusterRole and its binding), or use another identity.",
        C::AdmissionDenied => "Change the request so the webhook's policy accepts it, or ask its owner.",
        C::Transient => "Retry with backoff; check the API server's health and load.",
    }
}
