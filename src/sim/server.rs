//! A model of kube-apiserver's write path for one resource type: objects
//! by kind and name with a monotonically increasing `resourceVersion`,
//! Update, JSON patch (the handler's checks and the engine of the modelled
//! release), merge patch (evanphx's `MergePatch`), strategic merge patch
//! (`strategicpatch` with the kind's schema; a custom resource answers
//! 415) and server-side apply with field ownership as
//! structured-merge-diff keeps it.
//!
//! Every answer comes from [`crate::status`]; where patchlab explains more
//! than the server says (the hidden cause of a 422), it is in
//! [`Response::cause`], never in the message.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::apply::{self, ApplyError, Cause, ErrorReport};
use crate::gojson;
use crate::kube::Cluster;
use crate::status::{ApplyConflict, Reason, Resource, Status};
use crate::strategy::{FieldKind, Policy};

/// A request to the server.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Request {
    /// GET.
    Get {
        /// `Kind/name`.
        key: String,
    },
    /// PUT with the whole object.
    Update {
        /// `Kind/name`.
        key: String,
        /// The object, with `metadata.resourceVersion` as read.
        object: Value,
    },
    /// PATCH `application/json-patch+json`.
    JsonPatch {
        /// `Kind/name`.
        key: String,
        /// The payload bytes.
        payload: String,
    },
    /// PATCH `application/json-patch+json` built with the patch builder:
    /// the ops as KubeVirt's builder would encode them (Go's encoding), without
    /// the round trip through text.
    Ops {
        /// `Kind/name`.
        key: String,
        /// The ops.
        ops: Vec<crate::patch::Operation>,
    },
    /// PATCH `application/merge-patch+json`.
    MergePatch {
        /// `Kind/name`.
        key: String,
        /// The body.
        body: Value,
    },
    /// PATCH `application/strategic-merge-patch+json` (what `kubectl
    /// patch` sends by default; built-in kinds only).
    StrategicMergePatch {
        /// `Kind/name`.
        key: String,
        /// The body.
        body: Value,
    },
    /// PATCH `application/apply-patch+yaml` (server-side apply).
    Apply {
        /// `Kind/name`.
        key: String,
        /// The configuration.
        config: Value,
        /// `fieldManager`.
        manager: String,
        /// `force`.
        force: bool,
    },
}

/// Why a JSON patch failed, as the server never tells (it discards the
/// engine's error): patchlab's explanation, in the shape every part of
/// patchlab shares ([`ErrorReport`]).
pub type HiddenCause = ErrorReport;

/// What the server answered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Response {
    /// HTTP status.
    pub code: u16,
    /// The Status reason (`Invalid`, `Conflict`, ...); empty on success.
    pub reason: String,
    /// The Status message; empty on success.
    pub message: String,
    /// The object's resourceVersion after the request (success only).
    pub resource_version: Option<String>,
    /// True when the write changed the stored object (a new resourceVersion).
    pub changed: bool,
    /// For a failed JSON patch: the engine's own reason (patchlab's
    /// explanation; the server discards it).
    pub cause: Option<HiddenCause>,
    /// For an apply conflict: the conflicting fields.
    pub conflicts: Vec<String>,
    /// `Warning` headers of an accepted request (unknown or duplicate
    /// fields of the body), as kubectl prints them after `Warning: `.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Response {
    fn ok(resource_version: &str, changed: bool) -> Response {
        Response {
            code: 200,
            reason: String::new(),
            message: String::new(),
            resource_version: Some(resource_version.to_owned()),
            changed,
            cause: None,
            conflicts: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The response carrying a Status.
    pub fn from_status(status: Status) -> Response {
        Response {
            code: status.code,
            reason: status.reason.as_str().to_owned(),
            message: status.message,
            resource_version: None,
            changed: false,
            cause: None,
            conflicts: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// A refusal that is patchlab's, not the server's: a case patchlab does
    /// not model exactly. The message says so.
    fn patchlab(code: u16, reason: Reason, why: &str) -> Response {
        Response::from_status(Status {
            code,
            reason,
            message: format!("patchlab: {why}"),
            causes: Vec::new(),
        })
    }

    /// True for 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.code)
    }
}

/// How a manager last wrote (the `operation` of a managedFields entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum ManagedOperation {
    /// Server-side apply.
    Apply,
    /// Create, Update or any patch but apply.
    Update,
}

/// A field manager as structured-merge-diff tells them apart: the name,
/// the operation and, for updaters, the API version they wrote.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Manager {
    /// `fieldManager` (or the writer's name).
    pub name: String,
    /// Apply or Update.
    pub operation: ManagedOperation,
    /// The API version written (updaters only; appliers keep none, as in
    /// `BuildManagerIdentifier`).
    pub api_version: String,
}

impl Manager {
    fn applier(name: &str) -> Manager {
        Manager {
            name: name.to_owned(),
            operation: ManagedOperation::Apply,
            api_version: String::new(),
        }
    }

    fn updater(name: &str, object: &Value) -> Manager {
        Manager {
            name: name.to_owned(),
            operation: ManagedOperation::Update,
            api_version: object
                .get("apiVersion")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        }
    }
}

impl fmt::Display for Manager {
    /// As conflict messages print it (`printManager` of
    /// managedfields/internal/conflict.go): `"name"` for an applier,
    /// `"name" using apiVersion` for an updater.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&gojson::quote(&self.name))?;
        if self.operation == ManagedOperation::Update {
            write!(f, " using {}", self.api_version)?;
        }
        Ok(())
    }
}

/// The manager kube-apiserver gives the fields of an object that has no
/// managed fields when it is first applied (`skipnonapplied.go`).
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

/// One stored object and who owns which of its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The object, with `metadata.resourceVersion`; shared with the
    /// informer caches that read it (a write stores a new value).
    pub object: Rc<Value>,
    /// Field manager -> the fields it owns (as field paths like
    /// `.metadata.labels.app`). Empty: nobody's fields are tracked (an
    /// object with no managed fields; updates do not start tracking, the
    /// first apply does).
    pub managers: BTreeMap<Manager, BTreeSet<String>>,
}

impl Stored {
    /// The fields `name` owns, whatever its operation.
    pub fn owned_by(&self, name: &str) -> BTreeSet<String> {
        self.managers
            .iter()
            .filter(|(m, _)| m.name == name)
            .flat_map(|(_, fields)| fields.iter().cloned())
            .collect()
    }
}

/// The server: stored objects and the resourceVersion counter.
#[derive(Clone, Debug, PartialEq)]
pub struct Server {
    objects: BTreeMap<String, Stored>,
    revision: u64,
    track: bool,
    cluster: Cluster,
}

/// The field kinds server-side apply uses (KubeVirt's defaults), built once.
fn policy() -> &'static Policy {
    static POLICY: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();
    POLICY.get_or_init(Policy::default)
}

/// `Kind/name` for an object.
pub fn key_of(object: &Value) -> String {
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("Object");
    let name = object
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("unnamed");
    format!("{kind}/{name}")
}

fn resource_version(object: &Value) -> Option<&str> {
    object.get("metadata")?.get("resourceVersion")?.as_str()
}

fn set_resource_version(object: &mut Value, rv: &str) {
    if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
        metadata.insert("resourceVersion".to_owned(), Value::String(rv.to_owned()));
    } else if let Value::Object(root) = object {
        let mut metadata = Map::new();
        metadata.insert("resourceVersion".to_owned(), Value::String(rv.to_owned()));
        root.insert("metadata".to_owned(), Value::Object(metadata));
    }
}

/// True when two objects are equal but for `metadata.resourceVersion`.
fn same_content(a: &Value, b: &Value) -> bool {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return a == b;
    };
    if a.len() != b.len() {
        return false;
    }
    a.iter().all(|(key, x)| match (key.as_str(), b.get(key)) {
        ("metadata", Some(y)) => match (x, y) {
            (Value::Object(x), Value::Object(y)) => {
                let rv = |m: &Map<String, Value>| usize::from(m.contains_key("resourceVersion"));
                x.len() - rv(x) == y.len() - rv(y)
                    && x.iter()
                        .filter(|(k, _)| k.as_str() != "resourceVersion")
                        .all(|(k, v)| y.get(k) == Some(v))
            }
            _ => x == y,
        },
        (_, Some(y)) => x == y,
        (_, None) => false,
    })
}

fn name_of(key: &str) -> &str {
    key.split_once('/').map_or(key, |(_, name)| name)
}

impl Server {
    /// A server holding `objects` (created by nobody: no managed fields),
    /// running the newest release modelled; KubeVirt's defaults describe
    /// the fields (for server-side apply's per-key and per-element
    /// ownership).
    pub fn new(objects: impl IntoIterator<Item = Value>) -> Server {
        let mut server = Server {
            objects: BTreeMap::new(),
            revision: 1000,
            track: true,
            cluster: Cluster::default(),
        };
        for object in objects {
            server.create(object, None);
        }
        server
    }

    /// The same server running `cluster`'s release and engine.
    pub fn with_cluster(mut self, cluster: Cluster) -> Server {
        self.cluster = cluster;
        self
    }

    /// The release and engine modelled.
    pub fn cluster(&self) -> Cluster {
        self.cluster
    }

    /// Stops recording which manager owns which field. Server-side apply
    /// needs the records; a run with no apply does not (the mass migration
    /// turns them off for speed).
    pub fn without_ownership(mut self) -> Server {
        self.track = false;
        self
    }

    /// Stores `object` as created by `owner` (an updater that then owns its
    /// fields); with no owner, the object has no managed fields.
    pub fn create(&mut self, mut object: Value, owner: Option<&str>) {
        let rv = match resource_version(&object).and_then(|rv| rv.parse::<u64>().ok()) {
            Some(rv) => {
                self.revision = self.revision.max(rv);
                rv.to_string()
            }
            None => self.next_revision(),
        };
        set_resource_version(&mut object, &rv);
        let mut managers = BTreeMap::new();
        if let Some(owner) = owner {
            let fields = self.fields(&object);
            if !fields.is_empty() {
                managers.insert(Manager::updater(owner, &object), fields);
            }
        }
        self.objects.insert(
            key_of(&object),
            Stored {
                object: Rc::new(object),
                managers,
            },
        );
    }

    fn next_revision(&mut self) -> String {
        self.revision += 1;
        self.revision.to_string()
    }

    /// The stored object at `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.objects.get(key).map(|s| &*s.object)
    }

    /// The stored object at `key`, shared (what an informer cache holds).
    pub fn snapshot(&self, key: &str) -> Option<Rc<Value>> {
        self.objects.get(key).map(|s| Rc::clone(&s.object))
    }

    /// The stored object and its field managers.
    pub fn stored(&self, key: &str) -> Option<&Stored> {
        self.objects.get(key)
    }

    /// Every stored object, by key.
    pub fn objects(&self) -> impl Iterator<Item = (&str, &Stored)> {
        self.objects.iter().map(|(k, s)| (k.as_str(), s))
    }

    /// The resource of `key`: from a stored object of that kind (its
    /// apiVersion gives the group), else from the kind alone.
    fn resource(&self, key: &str) -> Resource {
        let kind = key.split_once('/').map_or("Object", |(kind, _)| kind);
        let api_version = self
            .objects
            .values()
            .map(|s| &*s.object)
            .find(|o| o.get("kind").and_then(Value::as_str) == Some(kind))
            .and_then(|o| o.get("apiVersion").cloned())
            .unwrap_or(Value::Null);
        Resource::of(&serde_json::json!({"kind": kind, "apiVersion": api_version}))
    }

    fn not_found(&self, key: &str) -> Response {
        Response::from_status(Status::not_found(&self.resource(key), name_of(key)))
    }

    /// Handles one request from `manager`.
    pub fn handle(&mut self, request: &Request, manager: &str) -> Response {
        match request {
            Request::Get { key } => match self.objects.get(key) {
                Some(stored) => Response::ok(resource_version(&stored.object).unwrap_or(""), false),
                None => self.not_found(key),
            },
            Request::Update { key, object } => self.update(key, object, manager),
            Request::JsonPatch { key, payload } => self.json_patch(key, payload, manager),
            Request::Ops { key, ops } => self.ops(key, ops, manager),
            Request::MergePatch { key, body } => self.merge_patch(key, body, manager),
            Request::StrategicMergePatch { key, body } => {
                self.strategic_merge_patch(key, body, manager)
            }
            Request::Apply {
                key,
                config,
                manager,
                force,
            } => self.apply(key, config, manager, *force),
        }
    }

    /// The object `request` would have made of what is stored at its key
    /// had its preconditions been set aside: a JSON patch without its
    /// tests and without the ops that cannot apply (a remove of a missing
    /// member changes nothing), an Update or a merge patch at the current
    /// resourceVersion, a server-side apply with force. The yardstick of
    /// [`Term::TrueConflict`](crate::vocabulary::Term::TrueConflict): what
    /// the request, as sent, would have done. `None` when the object is
    /// absent or the request is refused whatever its preconditions (a
    /// malformed body, another object's name).
    pub fn forced(&self, request: &Request, manager: &str) -> Option<Value> {
        let key = match request {
            Request::Get { .. } => return None,
            Request::Update { key, .. }
            | Request::JsonPatch { key, .. }
            | Request::Ops { key, .. }
            | Request::MergePatch { key, .. }
            | Request::StrategicMergePatch { key, .. }
            | Request::Apply { key, .. } => key,
        };
        let stored = self.objects.get(key)?;
        let engine = apply::Engine::from(self.cluster);
        let lenient = |ops: &[crate::patch::Operation]| {
            let mut object = (*stored.object).clone();
            for op in ops {
                let precondition =
                    op.op == crate::patch::OpKind::Test || op.path == "/metadata/resourceVersion";
                if !precondition {
                    // The engine leaves the object as it was when an op fails.
                    let _ = apply::apply(&mut object, std::slice::from_ref(op), engine);
                }
            }
            Some(object)
        };
        let unpinned = |body: &Value| {
            let mut body = body.clone();
            if let Some(Value::Object(metadata)) = body.get_mut("metadata") {
                metadata.remove("resourceVersion");
            }
            body
        };
        let forced = match request {
            Request::Get { .. } => return None,
            Request::JsonPatch { payload, .. } => {
                return lenient(&apply::decode(payload, engine).ok()?.ops)
            }
            Request::Ops { ops, .. } => return lenient(ops),
            Request::Update { key, object } => {
                let mut object = object.clone();
                set_resource_version(&mut object, resource_version(&stored.object).unwrap_or(""));
                Request::Update {
                    key: key.clone(),
                    object,
                }
            }
            Request::MergePatch { key, body } => Request::MergePatch {
                key: key.clone(),
                body: unpinned(body),
            },
            Request::StrategicMergePatch { key, body } => Request::StrategicMergePatch {
                key: key.clone(),
                body: unpinned(body),
            },
            Request::Apply {
                key,
                config,
                manager,
                ..
            } => Request::Apply {
                key: key.clone(),
                config: config.clone(),
                manager: manager.clone(),
                force: true,
            },
        };
        let mut scratch = Server {
            objects: BTreeMap::new(),
            revision: self.revision,
            track: self.track,
            cluster: self.cluster,
        };
        scratch.objects.insert(key.clone(), stored.clone());
        scratch
            .handle(&forced, manager)
            .is_success()
            .then(|| scratch.get(key).cloned())
            .flatten()
    }

    fn update(&mut self, key: &str, object: &Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        let resource = self.resource(key);
        let name = name_of(key);
        let (object_name, _) = apply::identity(object);
        let object_name = object_name.unwrap_or_default();
        if object_name != name {
            return Response::from_status(Status::name_mismatch(&object_name, name));
        }
        let Some(rv) = resource_version(object) else {
            // The core group's built-in types allow unconditional updates;
            // custom resources do not.
            if resource.group.is_empty() {
                return self.commit(key, object.clone(), manager);
            }
            return Response::from_status(Status::missing_resource_version(
                &resource,
                name,
                self.cluster.version.json_field_values(),
            ));
        };
        if Some(rv) != resource_version(&stored.object) {
            return Response::from_status(Status::stale(&resource, name));
        }
        self.commit(key, object.clone(), manager)
    }

    fn json_patch(&mut self, key: &str, payload: &str, manager: &str) -> Response {
        let engine = apply::Engine::from(self.cluster);
        if !self.objects.contains_key(key) {
            return self.not_found(key);
        }
        let decoded = match apply::decode(payload, engine) {
            Ok(decoded) => decoded,
            Err(err) => return self.refused(key, &err),
        };
        let mut response = self.patch_with(key, manager, |object| {
            apply::apply_decoded(object, &decoded, engine)
        });
        if response.is_success() {
            response.warnings = decoded.warnings;
        }
        response
    }

    fn ops(&mut self, key: &str, ops: &[crate::patch::Operation], manager: &str) -> Response {
        let engine = apply::Engine::from(self.cluster);
        self.patch_with(key, manager, |object| apply::apply(object, ops, engine))
    }

    /// The answer to a JSON patch the engine (or the handler) refused, with
    /// patchlab's explanation as the hidden cause.
    fn refused(&self, key: &str, err: &ApplyError) -> Response {
        let mut response = match (&err.cause, err.response()) {
            (Cause::EnginePanic { .. }, _) => Response::from_status(Status::panicked(Some((
                "PATCH",
                &self.resource(key),
                name_of(key),
            )))),
            (_, Some(status)) => Response::from_status(status),
            (_, None) => Response::patchlab(400, Reason::BadRequest, &err.to_string()),
        };
        response.cause = Some(err.report());
        response
    }

    /// A JSON patch (as a payload or as ops) run by `apply` on a copy of the
    /// stored object: an engine error is the server's answer with its
    /// hidden cause recorded.
    fn patch_with(
        &mut self,
        key: &str,
        manager: &str,
        apply: impl FnOnce(&mut Value) -> Result<(), ApplyError>,
    ) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        let mut object = (*stored.object).clone();
        if let Err(err) = apply(&mut object) {
            return self.refused(key, &err);
        }
        self.finish_patch(key, object, manager)
    }

    fn merge_patch(&mut self, key: &str, body: &Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        // The body as a Go client encodes it, through the handler's path.
        let mut object = (*stored.object).clone();
        let engine = apply::Engine::from(self.cluster);
        let warnings = match apply::apply_merge(&mut object, &gojson::to_string(body), engine) {
            Ok(warnings) => warnings,
            Err(err) => return self.refused(key, &err),
        };
        let mut response = self.finish_patch(key, object, manager);
        if response.is_success() {
            response.warnings = warnings;
        }
        response
    }

    /// A strategic merge patch: the server's path of the modelled release
    /// ([`apply::strategic::apply_body`]) with the stored object's kind in
    /// that release's tables: a group version it does not serve answers
    /// 404, a custom resource is refused (415) before the body is read, a
    /// built-in kind merges by its schema.
    fn strategic_merge_patch(&mut self, key: &str, body: &Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        let target = crate::schema::for_release(self.cluster.version).target_of(&stored.object);
        let mut object = (*stored.object).clone();
        let warnings = match apply::strategic::apply_body(
            &mut object,
            &gojson::to_string(body),
            &target,
            self.cluster.version,
        ) {
            Ok(warnings) => warnings,
            Err(err) => return self.refused(key, &err),
        };
        let mut response = self.finish_patch(key, object, manager);
        if response.is_success() {
            response.warnings = warnings;
        }
        response
    }

    /// After a patch: the object must stay an object of the same kind; a
    /// resourceVersion the patch set must be current (409).
    fn finish_patch(&mut self, key: &str, object: Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        if !object.is_object() {
            return Response::patchlab(
                422,
                Reason::Invalid,
                "the patched object is not a JSON object (the server cannot decode it into the resource's type)",
            );
        }
        if key_of(&object) != key || object.get("apiVersion") != stored.object.get("apiVersion") {
            return Response::patchlab(
                422,
                Reason::Invalid,
                "the patch changes the object's kind or apiVersion (the server's answer depends on the resource's definition)",
            );
        }
        match resource_version(&object) {
            Some(rv) if Some(rv) != resource_version(&stored.object) => {
                Response::from_status(Status::stale(&self.resource(key), name_of(key)))
            }
            _ => self.commit(key, object, manager),
        }
    }

    /// Writes `object` unless it equals what is stored. The updater owns
    /// what it added or changed (taking it from other managers), and
    /// removed fields leave every manager, as structured-merge-diff's
    /// `Update` does; an object with no managed fields stays untracked.
    fn commit(&mut self, key: &str, mut object: Value, manager: &str) -> Response {
        let policy = policy();
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        let current_rv = resource_version(&stored.object).unwrap_or("").to_owned();
        set_resource_version(&mut object, &current_rv);
        if same_content(&object, &stored.object) {
            return Response::ok(&current_rv, false);
        }
        let tracked = self.track && !stored.managers.is_empty();
        let (before, after) = if tracked {
            (
                leaf_fields(policy, &stored.object),
                leaf_fields(policy, &object),
            )
        } else {
            (BTreeMap::new(), BTreeMap::new())
        };
        let rv = self.next_revision();
        set_resource_version(&mut object, &rv);
        let updater = Manager::updater(manager, &object);
        let Some(stored) = self.objects.get_mut(key) else {
            return Response::ok(&rv, true);
        };
        for (field, value) in &after {
            if before.get(field) != Some(value) {
                for fields in stored.managers.values_mut() {
                    fields.remove(field);
                }
                stored
                    .managers
                    .entry(updater.clone())
                    .or_default()
                    .insert(field.clone());
            }
        }
        for field in before.keys() {
            if !after.contains_key(field) {
                for fields in stored.managers.values_mut() {
                    fields.remove(field);
                }
            }
        }
        stored.managers.retain(|_, fields| !fields.is_empty());
        stored.object = Rc::new(object);
        Response::ok(&rv, true)
    }

    /// Server-side apply as structured-merge-diff's `Apply`: merge the
    /// configuration, prune what this applier applied last time and no
    /// longer does (unless another manager owns it, removing parents left
    /// empty), refuse changes to fields other managers own unless forced.
    fn apply(&mut self, key: &str, config: &Value, manager: &str, force: bool) -> Response {
        let policy = policy();
        let Some(stored) = self.objects.get(key) else {
            return self.not_found(key);
        };
        if let Some(refused) = refuse_apply_configuration(key, config) {
            return refused;
        }
        let mut stored = stored.clone();
        if stored.managers.is_empty() {
            // No managed fields yet: every field belongs to
            // before-first-apply (an updater) from now on.
            let fields = self.fields(&stored.object);
            if !fields.is_empty() {
                stored
                    .managers
                    .insert(Manager::updater(BEFORE_FIRST_APPLY, &stored.object), fields);
            }
        }
        let applier = Manager::applier(manager);
        let current = leaf_fields(policy, &stored.object);
        let wanted = leaf_fields(policy, config);
        let conflicts = apply_conflicts(&stored, &applier, &current, &wanted);
        if !conflicts.is_empty() && !force {
            let list: Vec<ApplyConflict> = conflicts
                .iter()
                .map(|(field, owner)| ApplyConflict {
                    field: field.clone(),
                    manager: owner.to_string(),
                })
                .collect();
            let mut response = Response::from_status(Status::apply_conflicts(&list));
            response.conflicts = conflicts.iter().map(|(f, _)| f.clone()).collect();
            return response;
        }
        // Force moves the conflicting fields to this manager.
        for (field, _) in &conflicts {
            for (owner, fields) in stored.managers.iter_mut() {
                if *owner != applier {
                    fields.remove(field);
                }
            }
        }
        let mut object = (*stored.object).clone();
        release_omitted(&mut stored, &mut object, &applier, &current, &wanted);
        for leaf in wanted.values() {
            set_leaf(&mut object, leaf);
        }
        let mut fields = BTreeSet::new();
        fields.extend(wanted.keys().cloned());
        stored.managers.insert(applier, fields);
        stored.managers.retain(|_, fields| !fields.is_empty());
        let current_rv = resource_version(&stored.object).unwrap_or("").to_owned();
        set_resource_version(&mut object, &current_rv);
        let managers_changed = self.objects.get(key).map(|s| &s.managers) != Some(&stored.managers);
        let changed = !same_content(&object, &stored.object) || managers_changed;
        if !changed {
            return Response::ok(&current_rv, false);
        }
        let rv = self.next_revision();
        set_resource_version(&mut object, &rv);
        stored.object = Rc::new(object);
        self.objects.insert(key.to_owned(), stored);
        Response::ok(&rv, true)
    }

    fn fields(&self, object: &Value) -> BTreeSet<String> {
        // Inserted one by one, not collected (see `crate::sort`).
        let mut fields = BTreeSet::new();
        fields.extend(leaf_fields(policy(), object).into_keys());
        fields
    }
}

/// The checks of an apply configuration before any merge: an object,
/// naming the object of the URL (name and kind). The answer when it is
/// refused.
fn refuse_apply_configuration(key: &str, config: &Value) -> Option<Response> {
    if !config.is_object() {
        return Some(Response::from_status(Status::bad_apply_configuration(
            "the configuration is not an object",
        )));
    }
    let name = name_of(key);
    let config_name = apply::identity(config).0.unwrap_or_default();
    if config_name != name {
        return Some(Response::from_status(Status::name_mismatch(
            &config_name,
            name,
        )));
    }
    (key_of(config) != key).then(|| {
        Response::patchlab(
            400,
            Reason::BadRequest,
            "the apply configuration names another kind",
        )
    })
}

/// The fields `applier` would change that other managers own, with each
/// owner.
fn apply_conflicts(
    stored: &Stored,
    applier: &Manager,
    current: &BTreeMap<String, Leaf>,
    wanted: &BTreeMap<String, Leaf>,
) -> Vec<(String, Manager)> {
    let mut conflicts = Vec::new();
    for (field, value) in wanted {
        if current.get(field) == Some(value) {
            continue;
        }
        for (owner, fields) in &stored.managers {
            if owner != applier && fields.contains(field) {
                conflicts.push((field.clone(), owner.clone()));
            }
        }
    }
    conflicts
}

/// Fields `applier` applied before and now omits are released, and
/// deleted from `object` when nobody else owns them (parents left empty
/// go too).
fn release_omitted(
    stored: &mut Stored,
    object: &mut Value,
    applier: &Manager,
    current: &BTreeMap<String, Leaf>,
    wanted: &BTreeMap<String, Leaf>,
) {
    let previous = stored.managers.get(applier).cloned().unwrap_or_default();
    for field in previous.iter().filter(|f| !wanted.contains_key(*f)) {
        let owned_elsewhere = stored
            .managers
            .iter()
            .any(|(owner, fields)| owner != applier && fields.contains(field));
        if !owned_elsewhere {
            if let Some(leaf) = current.get(field) {
                remove_leaf(object, leaf);
            }
            for fields in stored.managers.values_mut() {
                fields.remove(field);
            }
        }
    }
}

/// One owned field: where it is and what it holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Leaf {
    /// A value at a path (tokens).
    Value(Vec<String>, Value),
    /// Membership of an element in a set-like list at a path.
    Element(Vec<String>, Value),
}

/// The fields of `object` as server-side apply tracks them: map keys,
/// set-list elements, atomic lists and scalars; identity and server-written
/// metadata excluded. An empty map (labels, annotations, a status map) is
/// no field: Go clients omit it and ObjectMeta drops it, so nobody owns it.
pub fn leaf_fields(policy: &Policy, object: &Value) -> BTreeMap<String, Leaf> {
    let mut out = BTreeMap::new();
    let mut tokens = Vec::new();
    collect(policy, object, &mut tokens, &mut out);
    out
}

/// A path element as structured-merge-diff prints it (`PathElement.String`):
/// `.name` for a field or map key, `[=value]` for a set element
/// (`value.ToString`: strings quoted as Go's `%q`).
fn field_path(tokens: &[String]) -> String {
    let mut out = String::new();
    for token in tokens {
        out.push('.');
        out.push_str(token);
    }
    out
}

/// `value.ToString` of structured-merge-diff.
fn element_string(value: &Value) -> String {
    match value {
        Value::String(s) => gojson::quote(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(element_string).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k}={}", element_string(v)))
            .collect(),
        other => other.to_string(),
    }
}

fn collect(
    policy: &Policy,
    value: &Value,
    tokens: &mut Vec<String>,
    out: &mut BTreeMap<String, Leaf>,
) {
    let pointer = crate::pointer::PointerBuf::from_tokens(tokens.iter());
    let skip = matches!(
        pointer.as_str(),
        "/apiVersion" | "/kind" | "/metadata/name" | "/metadata/namespace"
    );
    if skip {
        return;
    }
    let kind = if tokens.is_empty() {
        FieldKind::Object
    } else {
        policy.kind_at(&pointer, Some(value), Some(value))
    };
    match (kind, value) {
        (FieldKind::Ignored, _) => {}
        (FieldKind::SetList, Value::Array(items)) => {
            for item in items {
                let name = format!("{}[={}]", field_path(tokens), element_string(item));
                out.insert(name, Leaf::Element(tokens.clone(), item.clone()));
            }
        }
        (FieldKind::Map, Value::Object(map)) if map.is_empty() => {}
        (FieldKind::Object | FieldKind::Map | FieldKind::Struct, Value::Object(map))
            if !map.is_empty() =>
        {
            for (key, child) in map {
                tokens.push(key.clone());
                collect(policy, child, tokens, out);
                tokens.pop();
            }
        }
        _ => {
            out.insert(
                field_path(tokens),
                Leaf::Value(tokens.clone(), value.clone()),
            );
        }
    }
}

fn container<'a>(object: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    let mut current = object;
    for token in tokens {
        if !current.is_object() {
            *current = Value::Object(Map::new());
        }
        current = current
            .as_object_mut()?
            .entry(token.clone())
            .or_insert(Value::Null);
    }
    Some(current)
}

fn set_leaf(object: &mut Value, leaf: &Leaf) {
    match leaf {
        Leaf::Value(tokens, value) => {
            if let Some(slot) = container(object, tokens) {
                *slot = value.clone();
            }
        }
        Leaf::Element(tokens, item) => {
            if let Some(slot) = container(object, tokens) {
                if !slot.is_array() {
                    *slot = Value::Array(Vec::new());
                }
                if let Some(items) = slot.as_array_mut() {
                    if !items.contains(item) {
                        items.push(item.clone());
                    }
                }
            }
        }
    }
}

/// Removes a released field, and then every parent the removal left empty:
/// structured-merge-diff's `RemoveItems` turns a map or set list emptied by
/// the removal into null, which the stored object does not keep (ObjectMeta
/// drops empty labels, annotations and finalizers; a custom resource's
/// structural schema drops nulls of non-nullable fields).
fn remove_leaf(object: &mut Value, leaf: &Leaf) {
    let tokens = match leaf {
        Leaf::Value(tokens, _) | Leaf::Element(tokens, _) => tokens,
    };
    let removed = match leaf {
        Leaf::Value(tokens, _) => {
            let Some((last, parents)) = tokens.split_last() else {
                return;
            };
            let Some(map) = walk(object, parents).and_then(Value::as_object_mut) else {
                return;
            };
            map.remove(last.as_str()).is_some()
        }
        Leaf::Element(tokens, item) => {
            let Some(items) = walk(object, tokens).and_then(Value::as_array_mut) else {
                return;
            };
            let before = items.len();
            items.retain(|v| v != item);
            items.len() != before
        }
    };
    if !removed {
        return;
    }
    // Containers emptied by this removal go, up to the first one that
    // still holds something: for a set element, the list itself first.
    let deepest = match leaf {
        Leaf::Value(..) => tokens.len() - 1,
        Leaf::Element(..) => tokens.len(),
    };
    for depth in (1..=deepest).rev() {
        let (parents, last) = tokens[..depth].split_at(depth - 1);
        let Some(parent) = walk(object, parents).and_then(Value::as_object_mut) else {
            return;
        };
        let emptied = parent.get(last[0].as_str()).is_some_and(|v| match v {
            Value::Object(map) => map.is_empty(),
            Value::Array(items) => items.is_empty(),
            _ => false,
        });
        if !emptied {
            return;
        }
        parent.remove(last[0].as_str());
    }
}

fn walk<'a>(object: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    let mut current = object;
    for token in tokens {
        current = current.get_mut(token.as_str())?;
    }
    Some(current)
}

#[cfg(test)]
mod tests;
