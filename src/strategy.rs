//! The strategy engine: from an old and a new object to what a writer
//! sends, under each strategy KubeVirt uses and the alternatives, with a
//! reason for every op and the patch's conflict surface.
//!
//! ```
//! use patchlab::strategy::{diff, Options, Preset};
//! use serde_json::json;
//!
//! // The seed's race: the migration controller adds the target node label.
//! let old = json!({"metadata": {"labels": {"kubevirt.io/nodeName": "node01"}}});
//! let new = json!({"metadata": {"labels": {"kubevirt.io/nodeName": "node01",
//!                                          "kubevirt.io/migrationTargetNodeName": "node02"}}});
//!
//! let head = diff(&old, &new, &Options::preset(Preset::KubevirtMain)).unwrap();
//! assert_eq!(
//!     head.payload().unwrap(),
//!     r#"[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},{"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/migrationTargetNodeName":"node02","kubevirt.io/nodeName":"node01"}}]"#
//! );
//! let per_key = diff(&old, &new, &Options::preset(Preset::KubevirtPerKey)).unwrap();
//! assert_eq!(
//!     per_key.payload().unwrap(),
//!     r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#
//! );
//! // Head's test makes any concurrent label change fail the patch; the
//! // per-key add tests nothing.
//! assert_eq!(head.conflicts[0].path, "/metadata/labels");
//! assert!(per_key.conflicts.is_empty());
//! ```

mod diff;
mod export;
mod label;
pub mod merge;
mod policy;
mod round_trip;
mod strategic;

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

use crate::kube::KubeVersion;
use crate::patch::{Encoding, OpKind, Operation, PatchSet};
use crate::pointer::{PathTrie, Pointer, PointerBuf};

pub use export::{go_code, kubectl, kubectl_safe, rust_code, shell_arg, shell_quote};
pub use label::{label, label_summary};
pub use policy::{
    dotted_path_problem, parse_path, FieldKind, PathError, Policy, Preset, Strategy, UnknownName,
    KUBEVIRT_COMMIT,
};
pub use round_trip::{round_trip, round_trip_on, RoundTrip};
pub use strategic::strategic_overwrites;

/// What the diff needs besides the two objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Kinds and strategies per path.
    pub policy: Policy,
    /// The field manager named by a server-side-apply configuration.
    pub field_manager: String,
    /// Put the old `metadata.resourceVersion` into a merge patch body, so
    /// the server refuses it (409) if anyone wrote since.
    pub merge_resource_version: bool,
    /// Compute reasons, the conflict surface, overwrites and notes (on by
    /// default; the mass-migration simulator turns it off for speed).
    pub explain: bool,
    /// The Kubernetes release whose schemas the strategic preset reads:
    /// which kinds and group versions it serves, which fields they have
    /// (default: the newest modelled).
    pub kubernetes: KubeVersion,
}

impl Default for Options {
    fn default() -> Self {
        Options::preset(Preset::default())
    }
}

impl Options {
    /// The default policy with `preset`.
    pub fn preset(preset: Preset) -> Options {
        Options {
            policy: Policy::new(preset),
            field_manager: "patchlab".to_owned(),
            merge_resource_version: false,
            explain: true,
            kubernetes: KubeVersion::default(),
        }
    }
}

/// One op of a generated patch, with why it is there.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlannedOp {
    /// The op.
    pub op: Operation,
    /// Why this op, in words a learner understands (empty when the options
    /// turn explanations off).
    pub reason: Cow<'static, str>,
    /// The field (unit) this op belongs to.
    pub field: PointerBuf,
    /// The strategy that produced it.
    pub strategy: Strategy,
}

/// What a writer sends.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A JSON Patch (`application/json-patch+json`).
    JsonPatch(Vec<PlannedOp>),
    /// A JSON merge patch (`application/merge-patch+json`).
    MergePatch(Value),
    /// A server-side-apply configuration (`application/apply-patch+yaml`).
    Apply {
        /// The configuration: identity plus the fields this manager sets.
        config: Value,
        /// The `fieldManager` query parameter.
        field_manager: String,
    },
    /// A full-object `Update()` (PUT) carrying `metadata.resourceVersion`.
    Update(Value),
    /// A strategic merge patch (`application/strategic-merge-patch+json`),
    /// directives (`$setElementOrder/...`, `$patch`, ...) included.
    StrategicMergePatch(Value),
}

impl Body {
    /// Which kind of request carries the body.
    pub fn kind(&self) -> BodyKind {
        match self {
            Body::JsonPatch(_) => BodyKind::JsonPatch,
            Body::MergePatch(_) => BodyKind::MergePatch,
            Body::Apply { .. } => BodyKind::Apply,
            Body::Update(_) => BodyKind::Update,
            Body::StrategicMergePatch(_) => BodyKind::StrategicMergePatch,
        }
    }

    /// The HTTP content type of the body.
    pub fn content_type(&self) -> &'static str {
        self.kind().content_type()
    }
}

/// The kind of request a [`Body`] is sent as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyKind {
    /// PATCH with `application/json-patch+json`.
    JsonPatch,
    /// PATCH with `application/merge-patch+json`.
    MergePatch,
    /// PATCH with `application/strategic-merge-patch+json` (what `kubectl
    /// patch` sends without `--type`; built-in kinds only).
    StrategicMergePatch,
    /// PATCH with `application/apply-patch+yaml` (server-side apply).
    Apply,
    /// PUT of the whole object (`Update()`).
    Update,
}

impl BodyKind {
    /// `json-patch`, `merge-patch`, `strategic-merge-patch`, `apply` or
    /// `update`.
    pub fn as_str(self) -> &'static str {
        match self {
            BodyKind::JsonPatch => "json-patch",
            BodyKind::MergePatch => "merge-patch",
            BodyKind::StrategicMergePatch => "strategic-merge-patch",
            BodyKind::Apply => "apply",
            BodyKind::Update => "update",
        }
    }

    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            BodyKind::JsonPatch => "application/json-patch+json",
            BodyKind::MergePatch => "application/merge-patch+json",
            BodyKind::StrategicMergePatch => "application/strategic-merge-patch+json",
            BodyKind::Apply => "application/apply-patch+yaml",
            BodyKind::Update => "application/json",
        }
    }

    /// The request in words: "a JSON patch (3 ops)", "an Update".
    pub fn describe(self, ops: usize) -> String {
        match self {
            BodyKind::JsonPatch => {
                format!("a JSON patch ({ops} op{})", if ops == 1 { "" } else { "s" })
            }
            BodyKind::MergePatch => "a merge patch".to_owned(),
            BodyKind::StrategicMergePatch => "a strategic merge patch".to_owned(),
            BodyKind::Apply => "a server-side apply".to_owned(),
            BodyKind::Update => "an Update".to_owned(),
        }
    }
}

impl fmt::Display for BodyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a changed field changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Absent (or null) in the old object.
    Added,
    /// Absent in the new object.
    Removed,
    /// Present in both, different.
    Modified,
}

impl Change {
    /// `added`, `removed` or `modified`.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Modified => "modified",
        }
    }
}

/// A changed field and how it is patched: a row of the playground's
/// "Fields" table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Where the field is.
    pub path: PointerBuf,
    /// What kind of field it is.
    pub kind: FieldKind,
    /// How it is patched.
    pub strategy: Strategy,
    /// How it changed.
    pub change: Change,
}

/// A concurrent change that makes the patch fail: one entry of the
/// patch's conflict surface (a `test`, a `remove` that needs its member,
/// a pinned `resourceVersion`, a field another manager owns).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Precondition {
    /// The path another writer must not touch (`""`: the whole object).
    pub path: String,
    /// What happens, in words.
    pub reason: String,
}

/// A concurrent change the patch would silently overwrite or erase.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Overwrite {
    /// The path written without a guard.
    pub path: String,
    /// What would be lost, in words.
    pub reason: String,
}

/// The result of a diff under one policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The preset the policy started from.
    pub preset: Preset,
    /// What is sent.
    pub body: Body,
    /// The changed fields with their kind and strategy.
    pub fields: Vec<Field>,
    /// Concurrent changes that make the patch fail (its conflict surface).
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes the patch would silently overwrite.
    pub overwrites: Vec<Overwrite>,
    /// Caveats: fallbacks, ignored fields, where KubeVirt and a clean round
    /// trip disagree.
    pub notes: Vec<String>,
    /// The release whose schemas a strategic merge patch body was written
    /// with (its round trip runs on that release's server).
    pub kubernetes: KubeVersion,
}

impl Plan {
    /// True when nothing needs to be sent.
    pub fn is_empty(&self) -> bool {
        match &self.body {
            Body::JsonPatch(ops) => ops.is_empty(),
            Body::MergePatch(body) | Body::StrategicMergePatch(body) => {
                body.as_object().is_some_and(|m| m.is_empty())
            }
            Body::Apply { .. } | Body::Update(_) => self.fields.is_empty(),
        }
    }

    /// The JSON Patch ops, for JSON Patch bodies.
    pub fn ops(&self) -> Option<&[PlannedOp]> {
        match &self.body {
            Body::JsonPatch(ops) => Some(ops),
            _ => None,
        }
    }

    /// The ops as a patch set (empty for other bodies).
    pub fn patch_set(&self) -> PatchSet {
        self.ops()
            .unwrap_or_default()
            .iter()
            .map(|planned| planned.op.clone())
            .collect()
    }

    /// The JSON Patch payload as KubeVirt's builder writes it; `None` for
    /// other bodies or an empty patch.
    pub fn payload(&self) -> Option<String> {
        crate::patch::payload_of(self.ops()?.iter().map(|planned| &planned.op), Encoding::Go).ok()
    }

    /// The bytes on the wire: the JSON Patch payload, the merge patch or
    /// update body as JSON, or the apply configuration as YAML.
    pub fn body_text(&self) -> String {
        match &self.body {
            Body::JsonPatch(_) => self.payload().unwrap_or_else(|| "[]".to_owned()),
            Body::MergePatch(body) | Body::Update(body) | Body::StrategicMergePatch(body) => {
                crate::gojson::to_string(body)
            }
            Body::Apply { config, .. } => crate::input::to_yaml(config),
        }
    }
}

/// Which of the two objects of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The object as the writer read it.
    Old,
    /// The object the writer wants.
    New,
}

impl Side {
    /// `old` or `new`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Old => "old",
            Side::New => "new",
        }
    }
}

/// Why a diff could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffError {
    /// One of the objects is not a JSON object.
    NotAnObject {
        /// Which one.
        side: Side,
        /// What it is instead (`an array`, `a string`, ...).
        found: &'static str,
    },
    /// The strategic merge patch cannot be computed: the kind is built in
    /// but patchlab has no schema for it, or kubectl's own diff refuses the
    /// objects (a merged list's element without its merge key, ...).
    Strategic(Box<crate::apply::strategic::Error>),
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffError::NotAnObject { side, found } => write!(
                f,
                "the {} object must be a JSON object (a Kubernetes object), not {found}",
                side.as_str()
            ),
            DiffError::Strategic(err) => write!(
                f,
                "no strategic merge patch: {}{err}",
                if err.path.is_empty() {
                    String::new()
                } else {
                    format!("at {}: ", err.path)
                }
            ),
        }
    }
}

impl std::error::Error for DiffError {}

/// Computes what a writer sends to turn `old` into `new` under `options`.
///
/// Numbers are compared and sent as the server stores them
/// ([`crate::gojson::stored_number`]): `1` and `1.0` are one value (no
/// op), and `-0` is `0`.
///
/// # Errors
///
/// [`DiffError`] when either object is not a JSON object, or (preset
/// [`Preset::Strategic`]) when no strategic merge patch can be computed.
///
/// ```
/// use patchlab::strategy::{diff, Options};
/// use serde_json::json;
///
/// let plan = diff(&json!({"spec": {"cpu": 1}}), &json!({"spec": {"cpu": 1.0}}), &Options::default()).unwrap();
/// assert!(plan.is_empty());
/// ```
pub fn diff(old: &Value, new: &Value, options: &Options) -> Result<Plan, DiffError> {
    for (side, value) in [(Side::Old, old), (Side::New, new)] {
        if !value.is_object() {
            return Err(DiffError::NotAnObject {
                side,
                found: crate::text::kind(value),
            });
        }
    }
    let (old, new) = (crate::gojson::stored(old), crate::gojson::stored(new));
    diff::plan(&old, &new, options)
}

/// Derives the conflict surface and the overwrites of a JSON patch: every
/// `test` guards its path and what lies under it; a write outside every
/// earlier guard overwrites concurrent changes.
fn surface(ops: &[PlannedOp]) -> (Vec<Precondition>, Vec<Overwrite>) {
    surface_with(
        ops.iter()
            .map(|planned| (&planned.op, planned.strategy == Strategy::PerKey)),
    )
}

/// The conflict surface and the overwrites of any list of ops (a patch
/// read from a log line, say): every `test` guards its path and what lies
/// under it; a write outside every earlier guard overwrites concurrent
/// changes.
///
/// ```
/// use patchlab::patch::Operation;
/// use patchlab::strategy::surface_of;
///
/// let ops = [
///     Operation::test("/metadata/labels", serde_json::json!({"a": "1"})),
///     Operation::replace("/metadata/labels", serde_json::json!({"a": "1", "b": "2"})),
///     Operation::add("/status/phase", "Running"),
/// ];
/// let (conflicts, overwrites) = surface_of(&ops);
/// assert_eq!(conflicts[0].path, "/metadata/labels");
/// assert_eq!(overwrites[0].path, "/status/phase");
/// ```
pub fn surface_of(ops: &[Operation]) -> (Vec<Precondition>, Vec<Overwrite>) {
    surface_with(ops.iter().map(|op| (op, false)))
}

/// [`surface_of`] over ops paired with "a per-key add" (for the wording).
/// Linear in the total length of the paths: the tests seen so far are
/// kept in a [`PathTrie`], and a write is guarded when a node on its path
/// holds one.
fn surface_with<'a>(
    ops: impl Iterator<Item = (&'a Operation, bool)>,
) -> (Vec<Precondition>, Vec<Overwrite>) {
    let mut conflicts = Vec::new();
    let mut overwrites = Vec::new();
    let mut trie = PathTrie::new();
    let mut guard: Vec<bool> = vec![false];
    // Paths that are not JSON Pointers guard only themselves.
    let mut odd_guards: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (op, per_key) in ops {
        let path = op.path.as_str();
        if op.op == OpKind::Test {
            let reason = if path == "/metadata/resourceVersion" {
                "any write to the object since your read changes resourceVersion: the patch fails (422)".to_owned()
            } else {
                format!("a concurrent change to {path} (anything under it) fails the test: the whole patch is dropped (422)")
            };
            let path = if path == "/metadata/resourceVersion" {
                ""
            } else {
                path
            };
            conflicts.push(Precondition {
                path: path.to_owned(),
                reason,
            });
            match Pointer::parse(path) {
                Ok(pointer) => {
                    let node = trie.insert(pointer);
                    if guard.len() < trie.len() {
                        guard.resize(trie.len(), false);
                    }
                    guard[node] = true;
                }
                Err(_) => {
                    odd_guards.insert(path);
                }
            }
            continue;
        }
        let guarded = match Pointer::parse(path) {
            Ok(pointer) => {
                let mut hit = false;
                trie.walk(pointer, |node| hit |= guard[node]);
                hit
            }
            Err(_) => odd_guards.contains(path),
        };
        if op.op == OpKind::Remove && !guarded {
            conflicts.push(Precondition {
                path: path.to_owned(),
                reason: format!(
                    "fails (422) if another writer removed {path} first: remove needs the member"
                ),
            });
        }
        if !guarded {
            let reason = match op.op {
                OpKind::Remove => {
                    format!("erases whatever another writer put at {path} since your read")
                }
                _ if per_key => {
                    format!("a new key: if another writer sets {path} too, the last write wins")
                }
                _ => format!("overwrites any concurrent change to {path} (last write wins)"),
            };
            overwrites.push(Overwrite {
                path: path.to_owned(),
                reason,
            });
        }
    }
    (conflicts, overwrites)
}

#[cfg(test)]
mod tests;
