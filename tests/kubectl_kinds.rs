//! patchlab's strategic merge patch of every built-in kind against the
//! real kubectl of each release found, object for object and error for
//! error: `kubectl patch --local -f LIST --type=strategic -p BODY -o json`
//! runs kubectl's own `strategicpatch` with the Go types compiled into it,
//! and patchlab runs [`strategic::apply_local`] with the release's tables
//! (`schema::for_release`).
//!
//! Objects and patches are generated from the schemas themselves (seeded,
//! so a failure replays): for every kind the release's table holds, objects
//! with random fields of the newest release's schema (so that a field the
//! release does not have shows up, and kubectl of that release must refuse
//! it where Go looks it up), and patches that use every directive: keyed
//! lists merged, added to and deleted from, `$patch` replace, delete and
//! merge on maps and elements, `$retainKeys`, `$setElementOrder` (valid and
//! not), `$deleteFromPrimitiveList`, nulls, unknown fields, missing merge
//! keys. At most one failing feature goes into a patch (Go visits a map's
//! keys in random order: with two, kubectl reports either).
//!
//! The kubectls: the one on PATH (or /usr/bin/kubectl), every case; and
//! `kubectl.1.X` beside it or on PATH (the Google Cloud SDK ships
//! 1.27 to 1.33), one group per kind. `PATCHLAB_KUBECTL_RELEASES=1.32,1.27`
//! picks releases. Skipped, with a NOTICE on stderr, where none is
//! installed.
//!
//! Named differences, counted and not failed: kinds at group versions the
//! release does not serve that kubectl's scheme still has (`extensions/
//! v1beta1` Deployments): kubectl patches them with its compiled-in types,
//! patchlab has no schema for them (a server answers 404: docs/fidelity.md).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{json, Map, Value};

use patchlab::apply::strategic;
use patchlab::gojson;
use patchlab::kube::KubeVersion;
use patchlab::schema::{self, Kind, Node, PatchMeta, Scalar, Struct, Table, Target, Ty};
use patchlab::sim::rng::SplitMix64;

// ---------------------------------------------------------------- kubectl

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

/// The release of a kubectl (`kubectl version --client -o json`).
fn client_minor(kubectl: &Path) -> Option<u16> {
    let out = Command::new(kubectl)
        .args(["version", "--client", "-o", "json"])
        .env("KUBECONFIG", "/dev/null")
        .output()
        .ok()?;
    let version: Value = serde_json::from_slice(&out.stdout).ok()?;
    let minor = version.pointer("/clientVersion/minor")?.as_str()?;
    minor.trim_end_matches('+').parse().ok()
}

/// The kubectls found, by release: `kubectl.1.X` beside the kubectl on
/// PATH (its real directory too) or on PATH, and the kubectl on PATH for
/// its own release.
fn kubectls() -> BTreeMap<u16, PathBuf> {
    let fixed = PathBuf::from("/usr/bin/kubectl");
    let main = on_path("kubectl").or_else(|| fixed.exists().then_some(fixed));
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(real) = main.as_ref().and_then(|m| m.canonicalize().ok()) {
        dirs.extend(real.parent().map(Path::to_path_buf));
    }
    let mut found = BTreeMap::new();
    for minor in KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR {
        let name = format!("kubectl.1.{minor}");
        if let Some(path) = dirs.iter().map(|d| d.join(&name)).find(|p| p.is_file()) {
            found.insert(minor, path);
        }
    }
    if let Some(main) = main {
        if let Some(minor) = client_minor(&main) {
            found.insert(minor, main);
        }
    }
    if let Ok(wanted) = std::env::var("PATCHLAB_KUBECTL_RELEASES") {
        let wanted: Vec<u16> = wanted
            .split(',')
            .filter_map(|v| v.trim().trim_start_matches("1.").parse().ok())
            .collect();
        found.retain(|minor, _| wanted.contains(minor));
    }
    found
}

/// What kubectl printed for one `List`: each patched object by name, and
/// its stderr.
struct KubectlRun {
    objects: HashMap<String, Value>,
    stderr: String,
}

fn run_kubectl(kubectl: &Path, file: &Path, docs: &[Value], patch: &str) -> KubectlRun {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": docs});
    std::fs::write(file, serde_json::to_vec(&list).unwrap()).unwrap();
    let out = Command::new(kubectl)
        .args(["patch", "--local", "-f"])
        .arg(file)
        .args(["--type=strategic", "-p", patch, "-o", "json"])
        .env("KUBECONFIG", "/dev/null")
        .output()
        .expect("kubectl runs");
    let _ = std::fs::remove_file(file);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 stdout");
    let mut objects = HashMap::new();
    for value in serde_json::Deserializer::from_str(&stdout).into_iter::<Value>() {
        let value = value.unwrap_or_else(|e| panic!("kubectl printed no JSON: {e}\n{stdout}"));
        let name = value.pointer("/metadata/name").and_then(Value::as_str);
        let name = name.unwrap_or_else(|| panic!("an object without a name: {value}"));
        objects.insert(name.to_owned(), value);
    }
    KubectlRun {
        objects,
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

/// The stderr kubectl writes for these error messages, in order
/// (`cmdutil.CheckErr`: one error `error: <msg>`, several one per line).
fn expected_stderr(messages: &[String]) -> String {
    match messages {
        [] => String::new(),
        [one] => format!("error: {}\n", one.trim_end_matches('\n')),
        many => many.iter().map(|m| format!("{m}\n")).collect(),
    }
}

/// Runs groups in parallel threads (at most twice the cores).
fn run_groups<T: Sync, R: Send>(groups: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get() * 2)
        .clamp(2, 8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(group) = groups.get(i) else { break };
                let r = f(i, group);
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

// -------------------------------------------------------------- generator

/// A seeded generator; `bad` is set once a patch holds its one failing
/// feature.
struct Gen {
    rng: SplitMix64,
    bad: bool,
}

/// How deep generated objects go.
const MAX_DEPTH: usize = 6;
const WORDS: &[&str] = &["a", "b", "x", "v1", "nginx:1.25", "<b>&", "é", ""];
const MAP_KEYS: &[&str] = &["app", "tier", "a~b/c", "env"];
const KEY_STRINGS: &[&str] = &["k1", "k2", "k3", "k4"];
const KEY_NUMBERS: &[i64] = &[80, 443, 8080, 9090];
const UNKNOWN: &str = "zzUnknown";
/// What patches leave alone in the root's metadata: the name kubectl's
/// output is matched by, and what its printer leaves out.
const METADATA_FIXED: &[&str] = &["name", "namespace", "managedFields"];

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n as u64) as usize
    }
    fn chance(&mut self, p: u64, q: u64) -> bool {
        self.rng.chance(p, q)
    }
    /// True with probability p/q, once per patch: a failing feature.
    fn bad(&mut self, p: u64, q: u64) -> bool {
        if !self.bad && self.rng.chance(p, q) {
            self.bad = true;
            return true;
        }
        false
    }
    fn word(&mut self) -> Value {
        json!(WORDS[self.below(WORDS.len())])
    }
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
    /// Up to `most` distinct items of `pool`, in random order.
    fn some<T: Clone>(&mut self, pool: &[T], most: usize) -> Vec<T> {
        let mut items = pool.to_vec();
        self.shuffle(&mut items);
        items.truncate(self.below(most.min(pool.len()) + 1));
        items
    }
}

fn scalar(g: &mut Gen, scalar: Scalar) -> Value {
    match scalar {
        Scalar::String | Scalar::Any => g.word(),
        Scalar::Bytes => json!(["YQ==", "eHl6"][g.below(2)]),
        Scalar::Bool => json!(g.chance(1, 2)),
        Scalar::Int32 | Scalar::Int64 | Scalar::Byte => json!(g.below(5)),
        Scalar::Number => json!([1.5, 2.0, 0.25][g.below(3)]),
        Scalar::IntOrString => [json!(8080), json!("25%")][g.below(2)].clone(),
        Scalar::Quantity => json!(["100m", "1Gi", "2"][g.below(3)]),
        Scalar::Time => json!("2024-01-02T03:04:05Z"),
        Scalar::MicroTime => json!("2024-01-02T03:04:05.000006Z"),
    }
}

/// Whether a field's patch strategy merges its list.
fn merges(meta: &PatchMeta<'_>) -> bool {
    meta.strategies.split(',').any(|s| s == "merge")
}

/// The values a list element's merge key takes: numbers for a numeric key
/// (`containerPort`), else strings.
fn key_pool(element: Node<'_>, key: &str) -> Vec<Value> {
    let numeric = element
        .lookup_struct(key)
        .is_ok_and(|(n, _)| matches!(n.ty(), Ty::Scalar(Scalar::Int32 | Scalar::Int64)));
    if numeric {
        KEY_NUMBERS.iter().map(|n| json!(n)).collect()
    } else {
        KEY_STRINGS.iter().map(|s| json!(s)).collect()
    }
}

/// The values a list of scalars takes (distinct: Go and the server differ
/// on duplicates, docs/fidelity.md).
fn scalar_pool(element: Node<'_>) -> Vec<Value> {
    match element.ty() {
        Ty::Scalar(Scalar::Int32 | Scalar::Int64) => (1..=4).map(|n| json!(n)).collect(),
        _ => ["p", "q", "r", "s"].iter().map(|s| json!(s)).collect(),
    }
}

fn value(g: &mut Gen, node: Node<'_>, depth: usize) -> Value {
    match node.ty() {
        Ty::Scalar(s) => scalar(g, *s),
        Ty::Struct(_) => Value::Object(object(g, node, depth)),
        Ty::Map(_) => {
            let element = node.element().unwrap();
            let mut map = Map::new();
            for key in g.some(MAP_KEYS, 3) {
                let v = if depth >= MAX_DEPTH {
                    g.word()
                } else {
                    value(g, element, depth + 1)
                };
                map.insert(key.to_owned(), v);
            }
            Value::Object(map)
        }
        Ty::List(_) => list(g, node, &PatchMeta::default(), depth),
    }
}

/// An object of a struct type: a few of its fields.
fn object(g: &mut Gen, node: Node<'_>, depth: usize) -> Map<String, Value> {
    let s = node.as_struct().unwrap();
    let mut map = Map::new();
    if s.opaque {
        map.insert("raw".into(), json!({"x": g.word()}));
        return map;
    }
    if depth >= MAX_DEPTH || s.fields.is_empty() {
        return map;
    }
    // Lists, maps and structs first: that is where patches merge.
    let (compound, scalars): (Vec<&str>, Vec<&str>) =
        s.fields.iter().map(|f| &*f.name).partition(|name| {
            !matches!(
                node.lookup_struct(name).map(|(n, _)| n.ty().clone()),
                Ok(Ty::Scalar(_))
            )
        });
    let mut names = g.some(&compound, 3);
    names.extend(g.some(&scalars, 2));
    for name in names {
        let (child, meta) = node.lookup_struct(name).unwrap();
        map.insert(name.to_owned(), field_value(g, child, &meta, depth + 1));
    }
    map
}

fn field_value(g: &mut Gen, child: Node<'_>, meta: &PatchMeta<'_>, depth: usize) -> Value {
    match child.ty() {
        Ty::List(_) => list(g, child, meta, depth),
        _ => value(g, child, depth),
    }
}

/// A list: keyed elements with distinct keys, distinct scalars, or any.
fn list(g: &mut Gen, node: Node<'_>, meta: &PatchMeta<'_>, depth: usize) -> Value {
    let element = node.element().unwrap();
    let keyed = merges(meta) && !meta.merge_key.is_empty();
    if keyed && matches!(element.ty(), Ty::Struct(_)) {
        let keys = g.some(&key_pool(element, meta.merge_key), 3);
        let items = keys.into_iter().map(|key| {
            let mut item = object(g, element, depth);
            item.insert(meta.merge_key.to_owned(), key);
            Value::Object(item)
        });
        return Value::Array(items.collect());
    }
    if matches!(element.ty(), Ty::Scalar(_)) {
        return Value::Array(g.some(&scalar_pool(element), 3));
    }
    let n = if depth >= MAX_DEPTH { 0 } else { g.below(3) };
    Value::Array((0..n).map(|_| value(g, element, depth + 1)).collect())
}

/// An object of `kind` named `name`, with the fields of `schema` (the
/// newest release's type of the kind).
fn doc(g: &mut Gen, kind: &Kind<'_>, schema: Node<'_>, name: &str) -> Value {
    let mut map = object(g, schema, 0);
    let s = schema.as_struct().unwrap();
    for field in &s.fields {
        if !map.contains_key(&*field.name) && g.chance(2, 3) {
            let (child, meta) = schema.lookup_struct(&field.name).unwrap();
            map.insert(field.name.to_string(), field_value(g, child, &meta, 1));
        }
    }
    map.insert("apiVersion".into(), json!(kind.api_version()));
    map.insert("kind".into(), json!(kind.kind()));
    let metadata = map.entry("metadata").or_insert_with(|| json!({}));
    if let (Value::Object(metadata), Ok((node, _))) = (metadata, schema.lookup_struct("metadata")) {
        // The lists every kind has: finalizers (a set), ownerReferences
        // (keyed by uid).
        for field in ["finalizers", "ownerReferences", "labels"] {
            if g.chance(2, 3) {
                let (child, meta) = node.lookup_struct(field).unwrap();
                metadata.insert(field.into(), field_value(g, child, &meta, 2));
            }
        }
        // kubectl's printer leaves managedFields out.
        metadata.remove("managedFields");
        metadata.remove("namespace");
        metadata.insert("name".into(), json!(name));
    }
    Value::Object(map)
}

// ------------------------------------------------------------- patches

/// Where a patch is written: the type in the newest release's schema, and
/// the same place in the release's (`None`: the release lacks the field).
#[derive(Clone, Copy)]
struct At {
    node: Node<'static>,
    release: Option<Node<'static>>,
}

impl At {
    /// The field `name` here.
    fn field(self, name: &str) -> Option<(At, PatchMeta<'static>)> {
        let (node, meta) = self.node.lookup_struct(name).ok()?;
        let release = (self.release)
            .and_then(|r| r.lookup_struct(name).ok())
            .map(|(n, _)| n);
        Some((At { node, release }, meta))
    }

    /// A list's element, or a map's value.
    fn element(self) -> At {
        At {
            node: self.node.element().unwrap(),
            release: self.release.and_then(|r| r.element()),
        }
    }
}

/// A patch for an object of a struct type (`original`, which it may give
/// an unknown field to match), touching a few of its fields; `fixed` are
/// fields left alone (`apiVersion`, `kind`, `metadata.name`).
fn patch_struct(
    g: &mut Gen,
    at: At,
    original: &mut Map<String, Value>,
    fixed: &[&str],
    depth: usize,
) -> Map<String, Value> {
    let s = at.node.as_struct().unwrap();
    if s.opaque {
        return patch_opaque(g, original);
    }
    let mut patch = Map::new();
    for name in fields_to_patch(g, s, original, fixed, depth) {
        let Some((child, meta)) = at.field(&name) else {
            continue;
        };
        let inner: &[&str] = if depth == 0 && name == "metadata" {
            METADATA_FIXED
        } else {
            &[]
        };
        if let Some(value) = patch_field(
            g,
            &name,
            child,
            &meta,
            original.get_mut(&name),
            &mut patch,
            inner,
            depth,
        ) {
            patch.insert(name, value);
        }
    }
    if g.bad(1, 40) {
        // A field no release has, an object on both sides: Go looks it up.
        original.insert(UNKNOWN.into(), json!({"a": "1"}));
        patch.insert(UNKNOWN.into(), json!({"a": "2"}));
    }
    patch
}

/// The fields a patch of a struct touches: up to three of the original's
/// lists, maps and structs, one of its scalars, now and then a field it
/// lacks; at the root, its metadata one time in two at least.
fn fields_to_patch(
    g: &mut Gen,
    s: &Struct,
    original: &Map<String, Value>,
    fixed: &[&str],
    depth: usize,
) -> Vec<String> {
    let free = |compound: bool| -> Vec<String> {
        let original = original
            .iter()
            .filter(|(k, _)| !fixed.contains(&k.as_str()));
        original
            .filter(|(_, v)| (v.is_object() || v.is_array()) == compound)
            .map(|(k, _)| k.clone())
            .collect()
    };
    let mut names: Vec<String> = g.some(&free(true), 3);
    names.extend(g.some(&free(false), 1));
    if g.chance(1, 3) && !s.fields.is_empty() {
        let field = s.fields[g.below(s.fields.len())].name.to_string();
        if !fixed.contains(&field.as_str()) && !names.contains(&field) {
            names.push(field);
        }
    }
    let metadata = "metadata".to_owned();
    if depth == 0
        && original.contains_key(&metadata)
        && !names.contains(&metadata)
        && g.chance(1, 2)
    {
        names.push(metadata);
    }
    names
}

/// A Go struct whose JSON is any value (`RawExtension`): scalars merge, an
/// object on both sides is looked up and found nowhere.
fn patch_opaque(g: &mut Gen, original: &Map<String, Value>) -> Map<String, Value> {
    let mut patch = Map::new();
    for key in original.keys() {
        let value = match g.below(3) {
            0 if original[key].is_object() && g.bad(1, 2) => json!({"x": "y"}),
            0 => Value::Null,
            _ => g.word(),
        };
        patch.insert(key.clone(), value);
    }
    patch.insert("other".into(), g.word());
    patch
}

/// The patch value of one field (`original` its value in the object), if
/// any; list directives go into `parent`.
#[allow(clippy::too_many_arguments)]
fn patch_field(
    g: &mut Gen,
    name: &str,
    at: At,
    meta: &PatchMeta<'static>,
    original: Option<&mut Value>,
    parent: &mut Map<String, Value>,
    fixed: &[&str],
    depth: usize,
) -> Option<Value> {
    let compound = matches!(original, Some(Value::Object(_) | Value::Array(_)));
    if at.release.is_none() {
        // A field the release lacks: looked up (and refused) only when
        // both sides hold an object or a list.
        return Some(match original {
            Some(Value::Object(_)) if g.bad(1, 2) => json!({}),
            Some(Value::Array(_)) if g.bad(1, 2) => json!([]),
            _ if compound => Value::Null,
            _ => field_value(g, at.node, meta, depth + 1),
        });
    }
    Some(match (original, at.node.ty()) {
        (Some(Value::Object(orig)), Ty::Struct(_)) if depth < MAX_DEPTH => {
            patch_object_field(g, at, meta, orig, fixed, depth)
        }
        (Some(Value::Object(orig)), Ty::Map(_)) if depth < MAX_DEPTH => {
            patch_map(g, at, orig, depth)
        }
        (Some(Value::Array(orig)), Ty::List(_)) if depth < MAX_DEPTH => {
            return patch_list(g, name, at, meta, orig, parent, depth);
        }
        (Some(_), _) if g.chance(1, 5) => Value::Null,
        _ => field_value(g, at.node, meta, depth + 1),
    })
}

/// A struct field on both sides: merged, with now and then a `$patch`
/// directive or `$retainKeys`.
fn patch_object_field(
    g: &mut Gen,
    at: At,
    meta: &PatchMeta<'static>,
    original: &mut Map<String, Value>,
    fixed: &[&str],
    depth: usize,
) -> Value {
    let mut patch = patch_struct(g, at, original, fixed, depth + 1);
    if !fixed.is_empty() {
        // The root's metadata: its name stays.
        return Value::Object(patch);
    }
    match g.below(12) {
        0 => {
            patch.insert("$patch".into(), json!("replace"));
        }
        1 => return json!({"$patch": "delete"}),
        2 if g.bad(1, 3) => {
            patch.insert("$patch".into(), json!("bogus"));
        }
        _ => {}
    }
    let retains = meta.strategies.split(',').any(|s| s == "retainKeys");
    if (retains && g.chance(1, 2)) || g.chance(1, 15) {
        retain_keys(g, &mut patch, original);
    }
    Value::Object(patch)
}

/// `$retainKeys`: the patch's keys and some of the original's (once in a
/// while one of the patch's left out: refused).
fn retain_keys(g: &mut Gen, patch: &mut Map<String, Value>, original: &Map<String, Value>) {
    let mut keys: Vec<String> = patch
        .keys()
        .filter(|k| !k.starts_with('$'))
        .cloned()
        .collect();
    let others: Vec<String> = original
        .keys()
        .filter(|k| !keys.contains(k))
        .cloned()
        .collect();
    keys.extend(g.some(&others, 2));
    if !keys.is_empty() && g.bad(1, 8) {
        keys.remove(0);
    }
    patch.insert("$retainKeys".into(), json!(keys));
}

/// A map on both sides: keys set, deleted (null) or added; a value that
/// is an object or list on both sides is looked up in a map (refused).
fn patch_map(g: &mut Gen, at: At, original: &Map<String, Value>, depth: usize) -> Value {
    let element = at.element();
    let mut keys: Vec<String> = original.keys().cloned().collect();
    for key in g.some(MAP_KEYS, 2) {
        if !keys.iter().any(|k| k == key) {
            keys.push(key.to_owned());
        }
    }
    let mut patch = Map::new();
    for key in g.some(&keys, 3) {
        let compound = matches!(original.get(&key), Some(Value::Object(_) | Value::Array(_)));
        let value = if compound && g.bad(1, 3) {
            original[&key].clone()
        } else if compound || g.chance(1, 4) {
            if g.chance(1, 2) {
                Value::Null
            } else {
                g.word()
            }
        } else {
            value(g, element.node, depth + 1)
        };
        patch.insert(key, value);
    }
    match g.below(16) {
        0 => {
            patch.insert("$patch".into(), json!("replace"));
        }
        1 => return json!({"$patch": "delete"}),
        _ => {}
    }
    Value::Object(patch)
}

/// A list on both sides: merged by key, merged as a set, or replaced
/// (`None`: the patch holds a directive for it, not the list).
fn patch_list(
    g: &mut Gen,
    name: &str,
    at: At,
    meta: &PatchMeta<'static>,
    original: &mut [Value],
    parent: &mut Map<String, Value>,
    depth: usize,
) -> Option<Value> {
    let element = at.element();
    let keyed = merges(meta) && !meta.merge_key.is_empty();
    Some(match element.node.ty() {
        Ty::Struct(_) if keyed => {
            patch_keyed(g, name, element, meta.merge_key, original, parent, depth)
        }
        Ty::Scalar(_) if merges(meta) => patch_scalars(g, name, element.node, original, parent),
        Ty::Scalar(_) if g.chance(1, 6) => {
            // A delete list where the field does not merge (1.25 to 1.27
            // replace the list with it), without the list itself (Go's
            // map order would decide which goes first).
            let present = original.to_vec();
            parent.insert(
                format!("$deleteFromPrimitiveList/{name}"),
                json!(g.some(&present, 2)),
            );
            return None;
        }
        _ => list(g, at.node, meta, depth + 1),
    })
}

/// A keyed list: elements merged (by their key), added, deleted; now and
/// then the whole list replaced, an element without its key, a
/// `$setElementOrder`.
#[allow(clippy::too_many_arguments)]
fn patch_keyed(
    g: &mut Gen,
    name: &str,
    element: At,
    key: &str,
    original: &mut [Value],
    parent: &mut Map<String, Value>,
    depth: usize,
) -> Value {
    let pool = key_pool(element.node, key);
    let mut items = Vec::new();
    for k in g.some(&pool, 3) {
        let found = original.iter_mut().find(|item| item.get(key) == Some(&k));
        let mut item = match found {
            Some(_) if g.chance(1, 4) => {
                items.push(json!({key: k, "$patch": "delete"}));
                continue;
            }
            Some(Value::Object(orig)) => patch_struct(g, element, orig, &[key], depth + 1),
            _ => object(g, element.node, depth + 1),
        };
        // An element that replaces the list: with an order beside it Go
        // may refuse the order (a failing feature).
        if g.chance(1, 10) && g.bad(1, 1) {
            item.insert("$patch".into(), json!("replace"));
        }
        item.insert(key.to_owned(), k);
        items.push(Value::Object(item));
    }
    if g.bad(1, 30) {
        let mut item = object(g, element.node, depth + 1);
        item.remove(key);
        item.insert("zz".into(), json!("no key"));
        items.push(Value::Object(item));
    }
    if g.bad(1, 5) {
        items.push(json!({key: pool[0], "$patch": "merge"}));
    }
    // An order for an empty list may fail (`no elements in any of the
    // given slices`), and so does one beside a `$patch: replace` element:
    // failing features.
    let ordered = g.chance(1, 2) && (!items.is_empty() || g.bad(1, 3));
    if g.chance(1, 10) && (!ordered || g.bad(1, 2)) {
        items.push(json!({"$patch": "replace"}));
    }
    if ordered {
        let named: Vec<Value> = items
            .iter()
            .filter(|item| item.get("$patch").is_none())
            .filter_map(|item| item.get(key).cloned())
            .collect();
        let present: Vec<Value> = original
            .iter()
            .filter_map(|i| i.get(key).cloned())
            .collect();
        let mut order: Vec<Value> = order(g, named, &present)
            .into_iter()
            .map(|k| json!({key: k}))
            .collect();
        if g.bad(1, 12) {
            order.push(json!({"zz": "no key"}));
        }
        parent.insert(format!("$setElementOrder/{name}"), Value::Array(order));
    }
    Value::Array(items)
}

/// A `$setElementOrder` list: the patch's elements in their order, others
/// in between (now and then shuffled: refused).
fn order(g: &mut Gen, named: Vec<Value>, others: &[Value]) -> Vec<Value> {
    let mut order = named;
    for extra in g.some(others, others.len()) {
        if !order.contains(&extra) {
            let at = g.below(order.len() + 1);
            order.insert(at, extra);
        }
    }
    if g.bad(1, 10) {
        g.shuffle(&mut order);
    }
    order
}

/// A list of scalars that merges: values added, others deleted
/// (`$deleteFromPrimitiveList`, never one also added), an order.
fn patch_scalars(
    g: &mut Gen,
    name: &str,
    element: Node<'static>,
    original: &[Value],
    parent: &mut Map<String, Value>,
) -> Value {
    let pool = scalar_pool(element);
    let new: Vec<Value> = pool
        .iter()
        .filter(|v| !original.contains(v))
        .cloned()
        .collect();
    let mut items = g.some(&new, 2);
    let deleted = g.some(original, 2);
    let kept: Vec<Value> = original
        .iter()
        .filter(|v| !deleted.contains(v))
        .cloned()
        .collect();
    items.extend(g.some(&kept, 1));
    if !deleted.is_empty() && g.chance(1, 2) {
        parent.insert(format!("$deleteFromPrimitiveList/{name}"), json!(deleted));
    } else if g.bad(1, 40) {
        parent.insert(
            format!("$deleteFromPrimitiveList/{name}"),
            json!("not-a-list"),
        );
    }
    if g.chance(1, 3) && (!items.is_empty() || g.bad(1, 3)) {
        let order = order(g, items.clone(), &kept);
        parent.insert(format!("$setElementOrder/{name}"), json!(order));
    }
    json!(items)
}

/// A copy of `base` with random members and elements left out (never a
/// list element's own members: its merge key stays).
fn variant(g: &mut Gen, base: &Value, name: &str) -> Value {
    fn prune(g: &mut Gen, value: &mut Value, depth: usize, element: bool) {
        match value {
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                for key in keys {
                    let kept = element
                        || depth == 0 && ["apiVersion", "kind", "metadata"].contains(&key.as_str());
                    if !kept && g.chance(1, 10) {
                        map.remove(&key);
                    } else if let Some(child) = map.get_mut(&key) {
                        prune(g, child, depth + 1, false);
                    }
                }
            }
            Value::Array(items) => {
                if !items.is_empty() && g.chance(1, 8) {
                    let at = g.below(items.len());
                    items.remove(at);
                }
                for item in items {
                    prune(g, item, depth + 1, true);
                }
            }
            _ => {}
        }
    }
    let mut doc = base.clone();
    prune(g, &mut doc, 0, false);
    doc["metadata"]["name"] = json!(name);
    doc
}

// ------------------------------------------------------------------ cases

/// One patch and the objects it is applied to, all of one kind.
struct Group {
    /// `apiVersion Kind`.
    label: String,
    patch: Value,
    docs: Vec<Value>,
    /// A kind kubectl has Go types for that the release does not serve:
    /// patchlab has no schema (a named difference).
    unserved: bool,
    /// A built-in kind of the release's table.
    builtin: bool,
}

/// How many objects share a patch.
const PER_GROUP: usize = 8;

/// Groups of cases for a kind of `table`, its objects typed by the newest
/// release's schema of the kind (the release's own where the newest
/// lacks it).
fn kind_groups(g: &mut Gen, kind: Kind<'static>, count: usize, tag: &str) -> Vec<Group> {
    let newest = schema::builtin()
        .kind(kind.api_version(), kind.kind())
        .unwrap_or(kind);
    let at = At {
        node: newest.root(),
        release: Some(kind.root()),
    };
    (0..count)
        .map(|i| {
            let name = |j: usize| format!("{tag}-{i}-{j}");
            let mut base = doc(g, &kind, at.node, &name(0));
            g.bad = false;
            let patch = patch_struct(
                g,
                at,
                base.as_object_mut().unwrap(),
                &["apiVersion", "kind"],
                0,
            );
            let docs = (0..PER_GROUP)
                .map(|j| {
                    if j == 0 {
                        base.clone()
                    } else {
                        variant(g, &base, &name(j))
                    }
                })
                .collect();
            Group {
                label: format!("{} {}", kind.api_version(), kind.kind()),
                patch: Value::Object(patch),
                docs,
                unserved: false,
                builtin: kind.is_builtin(),
            }
        })
        .collect()
}

/// The groups of one release: every kind of its table (`per_kind` groups
/// each; one for a kind kubectl has no local strategic merge patch for),
/// and one per built-in kind it does not serve.
fn release_groups(seed: u64, table: &'static Table, per_kind: usize) -> Vec<Group> {
    let mut g = Gen {
        rng: SplitMix64::new(seed),
        bad: false,
    };
    let mut groups = Vec::new();
    for (n, info) in table.kinds().iter().enumerate() {
        let kind = table.kind(&info.api_version, &info.kind).unwrap();
        let count = if kind.is_builtin() && kind.local() {
            per_kind
        } else {
            1
        };
        groups.extend(kind_groups(&mut g, kind, count, &format!("k{n}")));
    }
    for (n, (api_version, kind)) in unserved(table).into_iter().enumerate() {
        let docs = (0..2)
            .map(|j| json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": format!("u{n}-{j}"), "labels": {"a": "1"}}}))
            .collect();
        groups.push(Group {
            label: format!("{api_version} {kind}"),
            patch: json!({"metadata": {"labels": {"a": "2", "b": "1"}}}),
            docs,
            unserved: true,
            builtin: true,
        });
    }
    groups
}

/// The built-in kinds kubectl's scheme has at group versions the
/// release does not serve (the tables' `!` lines).
fn unserved(table: &Table) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (api_version, kind) in KNOWN_OLD {
        if let Target::Unserved(u) = table.target(api_version, kind) {
            if u.known {
                found.push((u.api_version, u.kind));
            }
        }
    }
    found
}

/// Group versions kubectl's scheme kept after the servers stopped serving
/// them (the ones tried; the tables list every one).
const KNOWN_OLD: &[(&str, &str)] = &[
    ("extensions/v1beta1", "Deployment"),
    ("extensions/v1beta1", "Ingress"),
    ("apps/v1beta1", "StatefulSet"),
    ("apps/v1beta2", "DaemonSet"),
    ("batch/v1beta1", "CronJob"),
    ("policy/v1beta1", "PodDisruptionBudget"),
    ("autoscaling/v2beta1", "HorizontalPodAutoscaler"),
    ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
    ("rbac.authorization.k8s.io/v1beta1", "Role"),
    ("networking.k8s.io/v1beta1", "Ingress"),
];

/// patchlab's answer for one case, as `kubectl patch --local` of the
/// table's release: the object, or kubectl's error text.
fn patchlab(table: &'static Table, doc: &Value, patch: &Value) -> Result<Value, String> {
    let target = table.target_of(doc);
    let mut out = doc.clone();
    strategic::apply_local(&mut out, patch, &target)
        .map(|()| out)
        .map_err(|e| e.to_string())
}

/// What one group came to.
#[derive(Default)]
struct Outcome {
    cases: usize,
    refused: usize,
    named: usize,
    failures: Vec<String>,
}

fn go(value: &Value) -> String {
    gojson::to_string(value)
}

fn check_group(kubectl: &Path, file: &Path, table: &'static Table, group: &Group) -> Outcome {
    let patch = serde_json::to_string(&group.patch).unwrap();
    let run = run_kubectl(kubectl, file, &group.docs, &patch);
    let mut outcome = Outcome::default();
    let mut messages = Vec::new();
    for doc in &group.docs {
        outcome.cases += 1;
        let name = doc["metadata"]["name"].as_str().unwrap();
        let ours = patchlab(table, doc, &group.patch);
        match (&ours, run.objects.get(name)) {
            (Ok(ours), Some(theirs)) if go(ours) == go(theirs) => {}
            (Err(message), None) => {
                messages.push(message.clone());
                outcome.refused += 1;
            }
            (Err(message), Some(_)) if group.unserved && message.contains("no schema") => {
                outcome.named += 1;
            }
            (_, theirs) => outcome.failures.push(format!(
                "{}: {name}\n  doc:      {}\n  patch:    {patch}\n  patchlab: {}\n  kubectl:  {}\n  stderr: {}",
                group.label,
                go(doc),
                ours.as_ref().map_or_else(|e| format!("error: {e}"), go),
                theirs.map_or("(no object)".to_owned(), go),
                run.stderr.trim_end(),
            )),
        }
    }
    if outcome.failures.is_empty() && expected_stderr(&messages) != run.stderr {
        outcome.failures.push(format!(
            "{} errors differ\n  patch: {patch}\n  patchlab: {:?}\n  kubectl:  {:?}\n  docs: {}",
            group.label,
            expected_stderr(&messages),
            run.stderr,
            group
                .docs
                .iter()
                .map(go)
                .collect::<Vec<_>>()
                .join("\n        ")
        ));
    }
    outcome
}

/// Counts patches using each directive.
fn coverage(groups: &[Group]) -> BTreeMap<&'static str, usize> {
    let texts: Vec<String> = groups.iter().map(|g| g.patch.to_string()).collect();
    let mut counts = BTreeMap::new();
    for needle in [
        "\"$patch\":\"delete\"",
        "\"$patch\":\"replace\"",
        "\"$patch\":\"merge\"",
        "$retainKeys",
        "$setElementOrder/",
        "$deleteFromPrimitiveList/",
        ":null",
        UNKNOWN,
    ] {
        counts.insert(needle, texts.iter().filter(|t| t.contains(needle)).count());
    }
    counts
}

/// The line a release's run prints: cases, kinds, agreement, named
/// differences, time, directives used.
fn summary(minor: u16, groups: &[Group], outcomes: &[Outcome], started: Instant) -> String {
    let kinds = |builtin: bool| {
        let labels = groups
            .iter()
            .filter(|g| !g.unserved && g.builtin == builtin);
        labels
            .map(|g| &g.label)
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    let cases: usize = outcomes.iter().map(|o| o.cases).sum();
    let refused: usize = outcomes.iter().map(|o| o.refused).sum();
    let named: usize = outcomes.iter().map(|o| o.named).sum();
    let failed: usize = outcomes.iter().map(|o| o.failures.len()).sum();
    let agreeing = cases - named - failed;
    format!(
        "kubectl 1.{minor} vs patchlab --kube-version 1.{minor}: {cases} cases over {} built-in kinds (and {} custom), {} patches; {agreeing} agree ({refused} refused by both, {:.2} %), {failed} disagree; {named} named differences (group versions 1.{minor} does not serve: kubectl patches them with its compiled-in types); {:.1} s\n  coverage: {:?}",
        kinds(true),
        kinds(false),
        groups.len(),
        100.0 * agreeing as f64 / (cases - named) as f64,
        started.elapsed().as_secs_f64(),
        coverage(groups),
    )
}

/// What one release's run came to.
struct Run {
    line: String,
    coverage: BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

fn run_release(minor: u16, kubectl: &Path, per_kind: usize) -> Run {
    let started = Instant::now();
    let version = KubeVersion::new(minor, None).unwrap();
    let table = schema::for_release(version);
    let seed = std::env::var("PATCHLAB_KINDS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6b69_6e64_0000 + u64::from(minor));
    let groups = release_groups(seed, table, per_kind);
    let dir = std::env::temp_dir().join(format!("patchlab-kinds-{minor}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let outcomes = run_groups(&groups, |i, group| {
        check_group(kubectl, &dir.join(format!("g{i}.json")), table, group)
    });
    let _ = std::fs::remove_dir_all(&dir);
    let line = summary(minor, &groups, &outcomes, started);
    let failures: Vec<String> = outcomes.into_iter().flat_map(|o| o.failures).collect();
    Run {
        line,
        coverage: coverage(&groups),
        failures,
    }
}

#[test]
fn every_kind_agrees_with_kubectl_of_each_release() {
    let found = kubectls();
    if found.is_empty() {
        eprintln!("\n*** NOTICE: no kubectl at /usr/bin/kubectl or on PATH: every_kind_agrees_with_kubectl_of_each_release is SKIPPED (install kubectl to run the differential test over every kind) ***\n");
        return;
    }
    let main = on_path("kubectl").and_then(|k| client_minor(&k));
    let mut failures = Vec::new();
    for (minor, kubectl) in &found {
        let per_kind = if Some(*minor) == main { 5 } else { 1 };
        let run = run_release(*minor, kubectl, per_kind);
        eprintln!("{}", run.line);
        failures.extend(run.failures);
        if per_kind > 1 {
            for (needle, n) in run.coverage {
                assert!(n >= 10, "1.{minor}: only {n} patches use {needle}");
            }
        }
    }
    if let Some(path) = std::env::var_os("PATCHLAB_KINDS_DUMP") {
        std::fs::write(path, failures.join("\n\n")).unwrap();
    }
    if !failures.is_empty() {
        panic!(
            "{} cases disagree with kubectl; the first ones:\n{}",
            failures.len(),
            failures
                .iter()
                .take(6)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n\n")
        );
    }
}
