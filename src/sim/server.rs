//! A model of kube-apiserver's write path for one resource type: objects
//! by kind and name with a monotonically increasing `resourceVersion`,
//! Update, JSON patch (the real engine, kube semantics), merge patch and
//! server-side apply with field ownership.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::apply::{apply_payload, ApplyError, Cause, ServerResponse};
use crate::strategy::merge;
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

/// Why a JSON patch failed, as only the server's logs would tell: the
/// response itself carries the generic 422 message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HiddenCause {
    /// The failing op's index.
    pub index: Option<usize>,
    /// The failing op's name.
    pub op: Option<String>,
    /// The failing op's path.
    pub path: Option<String>,
    /// For a failed `test`: the value it expected.
    pub expected: Option<Value>,
    /// For a failed `test`: what the object held (`None`: absent).
    pub actual: Option<Value>,
    /// The engine's explanation.
    pub message: String,
}

impl HiddenCause {
    fn from_error(err: &ApplyError) -> HiddenCause {
        let (expected, actual) = match &err.cause {
            Cause::TestFailed { expected, actual } => (
                Some((**expected).clone()),
                actual.as_ref().map(|a| (**a).clone()),
            ),
            _ => (None, None),
        };
        HiddenCause {
            index: err.index,
            op: err.op.map(|op| op.as_str().to_owned()),
            path: err.path.clone(),
            expected,
            actual,
            message: err.cause.to_string(),
        }
    }
}

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
    /// For a failed JSON patch: the engine's own reason.
    pub cause: Option<HiddenCause>,
    /// For an apply conflict: the conflicting fields and their managers.
    pub conflicts: Vec<String>,
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
        }
    }

    fn error(code: u16, reason: &str, message: impl Into<String>) -> Response {
        Response {
            code,
            reason: reason.to_owned(),
            message: message.into(),
            resource_version: None,
            changed: false,
            cause: None,
            conflicts: Vec::new(),
        }
    }

    fn from_server(response: ServerResponse) -> Response {
        Response::error(response.code, response.reason, response.message)
    }

    /// True for 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.code)
    }
}

/// One stored object and who owns which of its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The object, with `metadata.resourceVersion`; shared with the
    /// informer caches that read it (a write stores a new value).
    pub object: Rc<Value>,
    /// Field manager -> the fields it owns (as field paths like
    /// `.metadata.labels.app`).
    pub managers: BTreeMap<String, BTreeSet<String>>,
}

/// The server: stored objects and the resourceVersion counter.
#[derive(Clone, Debug, PartialEq)]
pub struct Server {
    objects: BTreeMap<String, Stored>,
    revision: u64,
    track: bool,
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

/// `virtualmachineinstances.kubevirt.io` for kind VirtualMachineInstance in
/// group kubevirt.io; `pods` for a core Pod.
fn resource_name(object: &Value) -> String {
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("object");
    let plural = format!("{}s", kind.to_lowercase());
    match object
        .get("apiVersion")
        .and_then(Value::as_str)
        .and_then(|v| v.split_once('/'))
    {
        Some((group, _)) => format!("{plural}.{group}"),
        None => plural,
    }
}

/// The 409 an Update (or a patch setting a stale resourceVersion) gets.
fn conflict(object: &Value) -> Response {
    let name = object
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    Response::error(
        409,
        "Conflict",
        format!(
            "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again",
            resource_name(object)
        ),
    )
}

impl Server {
    /// A server holding `objects`, whose fields KubeVirt's defaults describe
    /// (for server-side apply's per-key and per-element ownership).
    pub fn new(objects: impl IntoIterator<Item = Value>) -> Server {
        let mut server = Server {
            objects: BTreeMap::new(),
            revision: 1000,
            track: true,
        };
        for object in objects {
            server.create(object, None);
        }
        server
    }

    /// Stops recording which manager owns which field. Server-side apply
    /// needs the records; a run with no apply does not (the mass migration
    /// turns them off for speed).
    pub fn without_ownership(mut self) -> Server {
        self.track = false;
        self
    }

    /// Stores `object` as created by `owner` (who then owns its fields).
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
            managers.insert(owner.to_owned(), self.fields(&object));
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

    /// Handles one request from `manager`.
    pub fn handle(&mut self, request: &Request, manager: &str) -> Response {
        match request {
            Request::Get { key } => match self.objects.get(key) {
                Some(stored) => Response::ok(resource_version(&stored.object).unwrap_or(""), false),
                None => not_found(key),
            },
            Request::Update { key, object } => self.update(key, object, manager),
            Request::JsonPatch { key, payload } => self.json_patch(key, payload, manager),
            Request::Ops { key, ops } => self.ops(key, ops, manager),
            Request::MergePatch { key, body } => self.merge_patch(key, body, manager),
            Request::Apply {
                key,
                config,
                manager,
                force,
            } => self.apply(key, config, manager, *force),
        }
    }

    fn update(&mut self, key: &str, object: &Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return not_found(key);
        };
        let Some(rv) = resource_version(object) else {
            return Response::error(
                422,
                "Invalid",
                format!(
                    "{} \"{}\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update",
                    stored.object.get("kind").and_then(Value::as_str).unwrap_or("Object"),
                    key.split_once('/').map_or(key, |(_, n)| n)
                ),
            );
        };
        if Some(rv) != resource_version(&stored.object) {
            return conflict(&stored.object);
        }
        self.commit(key, object.clone(), manager)
    }

    fn json_patch(&mut self, key: &str, payload: &str, manager: &str) -> Response {
        self.patch_with(key, manager, |object| {
            apply_payload(object, payload, crate::apply::Semantics::Kube)
        })
    }

    fn ops(&mut self, key: &str, ops: &[crate::patch::Operation], manager: &str) -> Response {
        self.patch_with(key, manager, |object| {
            crate::apply::apply(object, ops, crate::apply::Semantics::Kube)
        })
    }

    /// A JSON patch (as a payload or as ops) run by `apply` on a copy of the
    /// stored object: an engine error is the server's answer with its
    /// hidden cause recorded.
    fn patch_with(
        &mut self,
        key: &str,
        manager: &str,
        apply: impl FnOnce(&mut Value) -> Result<(), crate::apply::ApplyError>,
    ) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return not_found(key);
        };
        let mut object = (*stored.object).clone();
        if let Err(err) = apply(&mut object) {
            let mut response = err
                .response()
                .map(Response::from_server)
                .unwrap_or_else(|| Response::error(422, "Invalid", crate::apply::GENERIC_422));
            response.cause = Some(HiddenCause::from_error(&err));
            return response;
        }
        self.finish_patch(key, object, manager)
    }

    fn merge_patch(&mut self, key: &str, body: &Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return not_found(key);
        };
        if !body.is_object() {
            return Response::error(
                400,
                "BadRequest",
                "a merge patch body must be a JSON object",
            );
        }
        let mut object = (*stored.object).clone();
        merge::apply(&mut object, body);
        self.finish_patch(key, object, manager)
    }

    /// After a patch: the object must stay an object of the same kind and
    /// name; a resourceVersion the patch set must be current (409).
    fn finish_patch(&mut self, key: &str, object: Value, manager: &str) -> Response {
        let Some(stored) = self.objects.get(key) else {
            return not_found(key);
        };
        if !object.is_object() || key_of(&object) != key {
            return Response::error(
                422,
                "Invalid",
                "the patched object changes its kind or name, or is not an object",
            );
        }
        match resource_version(&object) {
            Some(rv) if Some(rv) != resource_version(&stored.object) => conflict(&stored.object),
            _ => self.commit(key, object, manager),
        }
    }

    /// Writes `object` unless it equals what is stored; `manager` takes
    /// ownership of the fields it changed.
    fn commit(&mut self, key: &str, mut object: Value, manager: &str) -> Response {
        let policy = policy();
        let Some(stored) = self.objects.get(key) else {
            return not_found(key);
        };
        let current_rv = resource_version(&stored.object).unwrap_or("").to_owned();
        set_resource_version(&mut object, &current_rv);
        if same_content(&object, &stored.object) {
            return Response::ok(&current_rv, false);
        }
        let (before, after) = if self.track {
            (
                leaf_fields(policy, &stored.object),
                leaf_fields(policy, &object),
            )
        } else {
            (BTreeMap::new(), BTreeMap::new())
        };
        let rv = self.next_revision();
        set_resource_version(&mut object, &rv);
        let Some(stored) = self.objects.get_mut(key) else {
            return not_found(key);
        };
        for (field, value) in &after {
            if before.get(field) != Some(value) {
                for fields in stored.managers.values_mut() {
                    fields.remove(field);
                }
                stored
                    .managers
                    .entry(manager.to_owned())
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

    fn apply(&mut self, key: &str, config: &Value, manager: &str, force: bool) -> Response {
        let policy = policy();
        let Some(stored) = self.objects.get(key) else {
            return not_found(key);
        };
        if !config.is_object() || key_of(config) != key {
            return Response::error(
                400,
                "BadRequest",
                "an apply configuration must name the object's kind and metadata.name",
            );
        }
        let current = leaf_fields(policy, &stored.object);
        let wanted = leaf_fields(policy, config);
        let mut conflicts = Vec::new();
        for (field, value) in &wanted {
            if current.get(field) == Some(value) {
                continue;
            }
            for (owner, fields) in &stored.managers {
                if owner != manager && fields.contains(field) {
                    conflicts.push((field.clone(), owner.clone()));
                }
            }
        }
        if !conflicts.is_empty() && !force {
            let mut response = Response::error(
                409,
                "Conflict",
                format!(
                    "Apply failed with {} conflict{}: {}",
                    conflicts.len(),
                    if conflicts.len() == 1 { "" } else { "s" },
                    conflicts
                        .iter()
                        .map(|(field, owner)| format!("conflict with \"{owner}\": {field}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            response.conflicts = conflicts.iter().map(|(f, _)| f.clone()).collect();
            return response;
        }
        let mut stored = stored.clone();
        // Force moves the conflicting fields to this manager.
        for (field, _) in &conflicts {
            for (owner, fields) in stored.managers.iter_mut() {
                if owner != manager {
                    fields.remove(field);
                }
            }
        }
        // Fields this manager applied before and now omits are released,
        // and deleted when nobody else owns them.
        let previous = stored.managers.get(manager).cloned().unwrap_or_default();
        let mut object = (*stored.object).clone();
        for field in previous.iter().filter(|f| !wanted.contains_key(*f)) {
            let owned_elsewhere = stored
                .managers
                .iter()
                .any(|(owner, fields)| owner != manager && fields.contains(field));
            if !owned_elsewhere {
                if let Some(leaf) = current.get(field) {
                    remove_leaf(&mut object, leaf);
                }
            }
        }
        for leaf in wanted.values() {
            set_leaf(&mut object, leaf);
        }
        let fields: BTreeSet<String> = wanted.keys().cloned().collect();
        stored.managers.insert(manager.to_owned(), fields);
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
        leaf_fields(policy(), object).into_keys().collect()
    }
}

fn not_found(key: &str) -> Response {
    let (kind, name) = key.split_once('/').unwrap_or(("object", key));
    Response::error(
        404,
        "NotFound",
        format!("{} \"{name}\" not found", kind.to_lowercase()),
    )
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
/// metadata excluded.
pub fn leaf_fields(policy: &Policy, object: &Value) -> BTreeMap<String, Leaf> {
    let mut out = BTreeMap::new();
    let mut tokens = Vec::new();
    collect(policy, object, &mut tokens, &mut out);
    out
}

fn field_path(tokens: &[String]) -> String {
    let mut out = String::new();
    for token in tokens {
        out.push('.');
        out.push_str(token);
    }
    out
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
                let name = format!("{}[={}]", field_path(tokens), item);
                out.insert(name, Leaf::Element(tokens.clone(), item.clone()));
            }
        }
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

fn remove_leaf(object: &mut Value, leaf: &Leaf) {
    match leaf {
        Leaf::Value(tokens, _) => {
            let Some((last, parents)) = tokens.split_last() else {
                return;
            };
            let mut current = &mut *object;
            for token in parents {
                match current.get_mut(token.as_str()) {
                    Some(next) => current = next,
                    None => return,
                }
            }
            if let Some(map) = current.as_object_mut() {
                map.remove(last.as_str());
            }
        }
        Leaf::Element(tokens, item) => {
            let mut current = &mut *object;
            for token in tokens {
                match current.get_mut(token.as_str()) {
                    Some(next) => current = next,
                    None => return,
                }
            }
            if let Some(items) = current.as_array_mut() {
                items.retain(|v| v != item);
            }
        }
    }
}

#[cfg(test)]
mod tests;
