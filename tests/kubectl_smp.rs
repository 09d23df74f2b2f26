//! patchlab's strategic merge patch, merge patch and JSON patch against
//! the real kubectl: `kubectl patch --local -f LIST --type=T -p BODY -o
//! json` runs kubectl's own patch code (k8s.io/apimachinery
//! `strategicpatch`, evanphx/json-patch) with no cluster.
//!
//! Cases are generated (seeded, so a failure replays): objects of the
//! built-in kinds shaped after what controllers and users write (the
//! kubernetes.io task pages for patching Deployments and Pods, kubelet's
//! status patches of Pods and Nodes, `kubectl apply`'s directives), and
//! patches that use every directive. One kubectl process runs every
//! object of a `List` against one patch, and groups run in parallel
//! threads, so thousands of cases take seconds.
//!
//! Skipped, with a NOTICE on stderr, where no kubectl is installed.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{json, Map, Value};

use patchlab::apply::{self, strategic};
use patchlab::gojson;
use patchlab::schema;
use patchlab::sim::rng::SplitMix64;

// ---------------------------------------------------------------- kubectl

fn kubectl() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/kubectl");
    if fixed.exists() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("kubectl"))
            .find(|p| p.exists())
    })
}

fn notice(test: &str) {
    eprintln!(
        "\n*** NOTICE: no kubectl at /usr/bin/kubectl or on PATH: {test} is SKIPPED (install kubectl 1.32 to run the differential tests) ***\n"
    );
}

/// What kubectl printed for one `List`: each patched object by name, and
/// its stderr.
struct KubectlRun {
    objects: HashMap<String, Value>,
    stderr: String,
}

fn run_kubectl(
    kubectl: &Path,
    dir: &Path,
    tag: &str,
    kind: &str,
    docs: &[Value],
    patch: &str,
) -> KubectlRun {
    let file = dir.join(format!("{tag}.json"));
    let list = json!({"apiVersion": "v1", "kind": "List", "items": docs});
    std::fs::write(&file, serde_json::to_vec(&list).unwrap()).unwrap();
    let out = Command::new(kubectl)
        .args(["patch", "--local", "-f"])
        .arg(&file)
        .args([&format!("--type={kind}"), "-p", patch, "-o", "json"])
        .env("KUBECONFIG", "/dev/null")
        .output()
        .expect("kubectl runs");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 stdout");
    let mut objects = HashMap::new();
    for value in serde_json::Deserializer::from_str(&stdout).into_iter::<Value>() {
        let value = value.unwrap_or_else(|e| panic!("kubectl printed no JSON: {e}\n{stdout}"));
        let name = value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("an object without a name: {value}"))
            .to_owned();
        objects.insert(name, value);
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
        [one] => {
            let mut text = format!("error: {one}");
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        many => many.iter().map(|m| format!("{m}\n")).collect(),
    }
}

/// A value as Go's encoder writes it: keys sorted, numbers as `int64` or
/// `float64` print.
fn go(value: &Value) -> String {
    gojson::to_string(value)
}

/// Runs groups of (docs, patch) in parallel threads.
fn run_groups<T: Sync, R: Send>(groups: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 6);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= groups.len() {
                    break;
                }
                let r = f(i, &groups[i]);
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("patchlab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// -------------------------------------------------------------- generator

/// A seeded generator. At most one erroneous feature goes into a patch:
/// Go visits a map's keys in random order, so with two errors in two
/// fields kubectl reports either (docs/fidelity.md).
struct Gen(SplitMix64, bool);

impl Gen {
    /// True with probability p/q, once per patch: an erroneous feature.
    fn bad(&mut self, p: u64, q: u64) -> bool {
        if !self.1 && self.0.chance(p, q) {
            self.1 = true;
            return true;
        }
        false
    }
    /// A valid `$setElementOrder` for patch elements `named` (in their
    /// order) among others of `pool`; now and then an invalid one.
    fn order(&mut self, named: &[String], pool: &[&str]) -> Vec<String> {
        let mut order = named.to_vec();
        for extra in self.subset(pool, 0) {
            if !order.contains(&extra) {
                let at = self.below(order.len() + 1);
                order.insert(at, extra);
            }
        }
        if self.bad(1, 10) {
            self.shuffle(&mut order);
        }
        order
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    fn chance(&mut self, p: u64, q: u64) -> bool {
        self.0.chance(p, q)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
    /// A random subset of `pool`, in random order.
    fn subset(&mut self, pool: &[&str], min: usize) -> Vec<String> {
        let mut items: Vec<String> = pool.iter().map(|s| (*s).to_owned()).collect();
        self.shuffle(&mut items);
        let n = min + self.below(pool.len() + 1 - min);
        items.truncate(n);
        items
    }
    fn word(&mut self) -> String {
        self.pick(&[
            "v1",
            "v2",
            "x",
            "nginx:1.25",
            "busybox",
            "<b>&",
            "é",
            "",
            "a b",
        ])
        .to_string()
    }
}

const LABELS: &[&str] = &[
    "app",
    "tier",
    "env",
    "kubevirt.io/nodeName",
    "a~b/c",
    "team",
];
const FINALIZERS: &[&str] = &[
    "f1",
    "f2",
    "kubernetes.io/pvc-protection",
    "foregroundDeletion",
    "z",
];
const CONTAINERS: &[&str] = &["app", "sidecar", "proxy", "init"];
const PORTS: &[i64] = &[80, 443, 8080, 9090];
const ENV: &[&str] = &["A", "B", "C"];
const VOLUMES: &[&str] = &["data", "config", "cache"];
const UIDS: &[&str] = &["u1", "u2", "u3"];
const CONDITIONS: &[&str] = &["Ready", "Initialized", "PodScheduled"];
const ADDRESSES: &[&str] = &["InternalIP", "Hostname", "ExternalIP"];

fn string_map(g: &mut Gen, pool: &[&str], min: usize) -> Value {
    let mut map = Map::new();
    for key in g.subset(pool, min) {
        map.insert(key, Value::String(g.word()));
    }
    Value::Object(map)
}

fn strings(list: Vec<String>) -> Value {
    Value::Array(list.into_iter().map(Value::String).collect())
}

fn container(g: &mut Gen, name: &str) -> Value {
    let mut c = json!({"name": name, "image": g.word()});
    if g.chance(2, 3) {
        let ports: Vec<Value> = {
            let mut ports = PORTS.to_vec();
            g.shuffle(&mut ports);
            ports.truncate(g.below(3));
            ports
                .into_iter()
                .map(|p| {
                    let mut port = json!({"containerPort": p});
                    if g.chance(1, 2) {
                        port["protocol"] = json!(g.pick(&["TCP", "UDP"]));
                    }
                    port
                })
                .collect()
        };
        c["ports"] = Value::Array(ports);
    }
    if g.chance(1, 2) {
        c["env"] = Value::Array(
            g.subset(ENV, 0)
                .into_iter()
                .map(|n| json!({"name": n, "value": g.word()}))
                .collect(),
        );
    }
    if g.chance(1, 3) {
        c["args"] = strings(g.subset(&["--a", "--b", "-v"], 0));
    }
    if g.chance(1, 3) {
        c["resources"] = json!({"limits": {"cpu": g.pick(&["100m", "1"]), "memory": "64Mi"}});
    }
    if g.chance(1, 3) {
        c["volumeMounts"] = Value::Array(
            g.subset(VOLUMES, 0)
                .into_iter()
                .map(|v| json!({"name": v, "mountPath": format!("/mnt/{v}")}))
                .collect(),
        );
    }
    c
}

fn volume(g: &mut Gen, name: &str) -> Value {
    match g.below(3) {
        0 => json!({"name": name, "configMap": {"name": g.word()}}),
        1 => json!({"name": name, "emptyDir": {}}),
        _ => json!({"name": name, "secret": {"secretName": g.word()}}),
    }
}

fn metadata(g: &mut Gen, name: &str) -> Value {
    let mut m = json!({"name": name});
    if g.chance(3, 4) {
        m["labels"] = string_map(g, LABELS, 0);
    }
    if g.chance(1, 2) {
        m["annotations"] = string_map(g, LABELS, 0);
    }
    if g.chance(2, 3) {
        m["finalizers"] = strings(g.subset(FINALIZERS, 0));
    }
    if g.chance(1, 3) {
        m["ownerReferences"] = Value::Array(
            g.subset(UIDS, 0)
                .into_iter()
                .map(|uid| json!({"apiVersion": "v1", "kind": "ReplicaSet", "name": format!("rs-{uid}"), "uid": uid}))
                .collect(),
        );
    }
    m
}

fn pod_spec(g: &mut Gen) -> Value {
    let names = g.subset(CONTAINERS, 1);
    let containers: Vec<Value> = names.iter().map(|n| container(g, n)).collect();
    let mut spec = json!({"containers": containers});
    if g.chance(1, 2) {
        spec["tolerations"] = Value::Array(
            (0..g.below(3))
                .map(|i| json!({"key": format!("k{i}"), "operator": "Exists", "effect": "NoSchedule"}))
                .collect(),
        );
    }
    if g.chance(1, 2) {
        let vols = g.subset(VOLUMES, 0);
        spec["volumes"] = Value::Array(vols.iter().map(|v| volume(g, v)).collect());
    }
    if g.chance(1, 3) {
        spec["nodeSelector"] = string_map(g, LABELS, 0);
    }
    if g.chance(1, 3) {
        spec["imagePullSecrets"] = Value::Array(
            g.subset(&["reg1", "reg2"], 0)
                .into_iter()
                .map(|n| json!({"name": n}))
                .collect(),
        );
    }
    if g.chance(1, 3) {
        spec["securityContext"] = json!({"runAsUser": 1000, "fsGroup": 2000});
    }
    if g.chance(1, 4) {
        spec["restartPolicy"] = json!("Always");
    }
    spec
}

fn conditions(g: &mut Gen, pool: &[&str]) -> Value {
    Value::Array(
        g.subset(pool, 0)
            .into_iter()
            .map(|t| json!({"type": t, "status": g.pick(&["True", "False"])}))
            .collect(),
    )
}

/// The kinds the generated objects are of.
const KINDS: &[(&str, &str)] = &[
    ("v1", "Pod"),
    ("v1", "Node"),
    ("apps/v1", "Deployment"),
    ("v1", "Service"),
    ("v1", "ConfigMap"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
    ("batch/v1", "Job"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "Namespace"),
];

/// An object of a kind (shapes after kubernetes.io examples and what
/// kubelet and controllers write).
fn object(g: &mut Gen, api_version: &str, kind: &str, name: &str) -> Value {
    let mut o = json!({"apiVersion": api_version, "kind": kind, "metadata": metadata(g, name)});
    match kind {
        "Pod" => {
            o["spec"] = pod_spec(g);
            if g.chance(1, 2) {
                o["status"] = json!({"conditions": conditions(g, CONDITIONS), "phase": "Running"});
            }
        }
        "Node" => {
            let mut spec = json!({});
            if g.chance(2, 3) {
                spec["taints"] = Value::Array(
                    g.subset(&["t1", "t2", "node.kubernetes.io/unschedulable"], 0)
                        .into_iter()
                        .map(|k| json!({"key": k, "effect": "NoSchedule"}))
                        .collect(),
                );
            }
            if g.chance(1, 2) {
                spec["podCIDRs"] =
                    strings(g.subset(&["10.0.0.0/24", "fd00::/64", "10.1.0.0/24"], 0));
            }
            if g.chance(1, 3) {
                spec["unschedulable"] = json!(g.chance(1, 2));
            }
            o["spec"] = spec;
            o["status"] = json!({
                "addresses": Value::Array(g.subset(ADDRESSES, 0).into_iter().map(|t| json!({"type": t, "address": g.word()})).collect()),
                "conditions": conditions(g, &["Ready", "MemoryPressure", "DiskPressure"]),
                "capacity": {"cpu": "4", "memory": "8Gi"},
            });
        }
        "Deployment" | "StatefulSet" | "DaemonSet" => {
            let mut spec = json!({
                "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod_spec(g)},
            });
            if kind != "DaemonSet" {
                spec["replicas"] = json!(1 + g.below(3));
            }
            if kind == "Deployment" && g.chance(2, 3) {
                spec["strategy"] = if g.chance(1, 2) {
                    json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": "25%"}})
                } else {
                    json!({"type": "Recreate"})
                };
            }
            o["spec"] = spec;
            if g.chance(1, 2) {
                o["status"] = json!({"conditions": conditions(g, &["Available", "Progressing"]), "replicas": 1});
            }
        }
        "Job" => {
            o["spec"] = json!({"backoffLimit": 3, "template": {"spec": pod_spec(g)}});
        }
        "Service" => {
            let mut ports = PORTS.to_vec();
            g.shuffle(&mut ports);
            ports.truncate(g.below(4));
            o["spec"] = json!({
                "selector": string_map(g, LABELS, 0),
                "ports": ports.into_iter().map(|p| json!({"port": p, "targetPort": p + 1, "name": format!("p{p}")})).collect::<Vec<_>>(),
                "type": "ClusterIP",
            });
        }
        "ConfigMap" => {
            o["data"] = string_map(g, &["a.conf", "b", "c"], 0);
        }
        "PersistentVolumeClaim" => {
            o["spec"] = json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}});
        }
        "Namespace" => {
            o["spec"] = json!({"finalizers": ["kubernetes"]});
        }
        _ => {}
    }
    o
}

/// A random value of a patch for a map of strings: set, delete (null),
/// sometimes a directive.
fn map_patch(g: &mut Gen, pool: &[&str]) -> Value {
    let mut m = Map::new();
    for key in g.subset(pool, 1) {
        let v = if g.chance(1, 4) {
            Value::Null
        } else {
            Value::String(g.word())
        };
        m.insert(key, v);
    }
    match g.below(12) {
        0 => {
            m.insert("$patch".into(), json!("replace"));
        }
        1 => {
            m = Map::new();
            m.insert("$patch".into(), json!("delete"));
        }
        _ => {}
    }
    Value::Object(m)
}

/// Finalizers: additions, `$deleteFromPrimitiveList`, `$setElementOrder`
/// (a valid order most of the time). Go visits a patch's keys in random
/// order, so a value both added and deleted would make kubectl's answer
/// random: the two sets stay disjoint (docs/fidelity.md).
fn primitive_list_patch(g: &mut Gen, m: &mut Map<String, Value>, field: &str, pool: &[&str]) {
    let adds = g.subset(pool, 0);
    let dels: Vec<String> = g
        .subset(pool, 0)
        .into_iter()
        .filter(|d| !adds.contains(d))
        .collect();
    let mode = g.below(8);
    if mode != 0 && (!adds.is_empty() || g.chance(1, 4)) {
        m.insert(field.to_owned(), strings(adds.clone()));
    }
    if mode <= 2 && !dels.is_empty() {
        m.insert(format!("$deleteFromPrimitiveList/{field}"), strings(dels));
    }
    if g.chance(1, 3) {
        let order = g.order(&adds, pool);
        m.insert(format!("$setElementOrder/{field}"), strings(order));
    }
    if g.chance(1, 40) {
        m.insert(format!("$deleteFromPrimitiveList/{field}"), json!("f1"));
    }
}

fn metadata_patch(g: &mut Gen) -> Value {
    let mut m = Map::new();
    if g.chance(1, 2) {
        m.insert("labels".into(), map_patch(g, LABELS));
    }
    if g.chance(1, 3) {
        m.insert("annotations".into(), map_patch(g, LABELS));
    }
    if g.chance(1, 2) {
        primitive_list_patch(g, &mut m, "finalizers", FINALIZERS);
    }
    if g.chance(1, 4) {
        let mut refs = Vec::new();
        let mut named = Vec::new();
        for uid in g.subset(UIDS, 1) {
            refs.push(if g.chance(1, 5) {
                json!({"uid": uid, "$patch": "delete"})
            } else if g.bad(1, 8) {
                json!({"name": "no-uid"})
            } else {
                named.push(uid.clone());
                json!({"uid": uid, "name": format!("rs-{uid}"), "controller": true})
            });
        }
        m.insert("ownerReferences".into(), Value::Array(refs));
        if g.chance(1, 3) {
            let order: Vec<Value> = g
                .order(&named, UIDS)
                .into_iter()
                .map(|u| json!({"uid": u}))
                .collect();
            m.insert(
                "$setElementOrder/ownerReferences".into(),
                Value::Array(order),
            );
        }
    }
    if g.bad(1, 30) {
        m.insert("$retainKeys".into(), json!(["labels", "name"]));
    }
    Value::Object(m)
}

/// A patch element for a container: fields set or nulled, nested keyed
/// lists with directives.
fn container_patch(g: &mut Gen, name: &str) -> Value {
    let mut c = Map::new();
    if !g.bad(1, 25) {
        c.insert("name".into(), json!(name));
    }
    match g.below(10) {
        0 => {
            c.insert("$patch".into(), json!("delete"));
            return Value::Object(c);
        }
        1 => {
            c.insert("$patch".into(), json!("replace"));
        }
        _ => {}
    }
    if g.chance(1, 2) {
        c.insert(
            "image".into(),
            if g.chance(1, 6) {
                Value::Null
            } else {
                json!(g.word())
            },
        );
    }
    if g.chance(1, 3) {
        let mut ports = Vec::new();
        for p in PORTS.iter().take(1 + g.below(3)) {
            ports.push(if g.chance(1, 6) {
                json!({"containerPort": p, "$patch": "delete"})
            } else if g.bad(1, 6) {
                json!({"protocol": "UDP"})
            } else {
                json!({"containerPort": p, "name": format!("p{p}"), "hostPort": null})
            });
        }
        c.insert("ports".into(), Value::Array(ports));
    }
    if g.chance(1, 3) {
        let mut named = Vec::new();
        let env: Vec<Value> = g
            .subset(ENV, 1)
            .into_iter()
            .map(|n| match g.below(5) {
                0 => json!({"name": n, "$patch": "delete"}),
                1 => {
                    named.push(n.clone());
                    json!({"name": n, "value": null})
                }
                _ => {
                    named.push(n.clone());
                    json!({"name": n, "value": g.word()})
                }
            })
            .collect();
        c.insert("env".into(), Value::Array(env));
        if g.chance(1, 3) {
            let order: Vec<Value> = g
                .order(&named, ENV)
                .into_iter()
                .map(|n| json!({"name": n}))
                .collect();
            c.insert("$setElementOrder/env".into(), Value::Array(order));
        }
    }
    if g.chance(1, 4) {
        c.insert("args".into(), strings(g.subset(&["--x", "--a"], 0)));
    }
    if g.chance(1, 5) {
        c.insert(
            "resources".into(),
            json!({"limits": {"cpu": null, "memory": "128Mi"}, "requests": {"cpu": "50m"}}),
        );
    }
    if g.chance(1, 20) {
        c.insert("env".into(), json!("not-a-list"));
    }
    Value::Object(c)
}

fn pod_spec_patch(g: &mut Gen) -> Value {
    let mut s = Map::new();
    if g.chance(3, 4) {
        let names = g.subset(CONTAINERS, 1);
        let mut list: Vec<Value> = names.iter().map(|n| container_patch(g, n)).collect();
        if g.chance(1, 15) {
            list.push(json!({"$patch": "replace"}));
        }
        if g.bad(1, 40) {
            list.push(json!({"name": "x", "$patch": "merge"}));
        }
        if g.bad(1, 40) {
            list.push(json!({"name": "y", "$patch": "bogus"}));
        }
        if g.chance(1, 3) {
            // kubectl apply lists every element's key, in the new order.
            let named: Vec<String> = list
                .iter()
                .filter(|c| c.get("$patch").is_none())
                .filter_map(|c| c.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect();
            let mut order: Vec<Value> = g
                .order(&named, CONTAINERS)
                .into_iter()
                .map(|n| json!({"name": n}))
                .collect();
            if g.bad(1, 10) {
                order.push(json!({"image": "no-name"}));
            }
            s.insert("$setElementOrder/containers".into(), Value::Array(order));
        }
        s.insert("containers".into(), Value::Array(list));
    }
    if g.chance(1, 4) {
        s.insert(
            "tolerations".into(),
            json!([{"key": "k9", "operator": "Exists", "effect": g.pick(&["NoSchedule", "NoExecute"])}]),
        );
    }
    if g.chance(1, 3) {
        let mut vols = Vec::new();
        for v in g.subset(VOLUMES, 1) {
            let mut vol = volume(g, &v);
            match g.below(6) {
                0 => {
                    // kubectl apply's retainKeys for a volume's source.
                    let source = vol
                        .as_object()
                        .unwrap()
                        .keys()
                        .find(|k| *k != "name")
                        .cloned()
                        .unwrap();
                    vol["$retainKeys"] = json!(["name", source]);
                }
                1 if g.bad(1, 2) => vol["$retainKeys"] = json!(["name"]),
                2 => vol = json!({"name": v, "$patch": "delete"}),
                _ => {}
            }
            vols.push(vol);
        }
        s.insert("volumes".into(), Value::Array(vols));
    }
    if g.chance(1, 4) {
        s.insert("nodeSelector".into(), map_patch(g, LABELS));
    }
    if g.chance(1, 5) {
        s.insert(
            "securityContext".into(),
            match g.below(3) {
                0 => json!({"$patch": "replace", "runAsNonRoot": true}),
                1 => json!({"$patch": "delete"}),
                _ => json!({"runAsUser": null, "runAsGroup": 3000}),
            },
        );
    }
    if g.chance(1, 5) {
        s.insert(
            "imagePullSecrets".into(),
            json!([{"name": g.pick(&["reg1", "reg2", "reg3"])}]),
        );
    }
    if g.chance(1, 8) {
        s.insert(
            "restartPolicy".into(),
            if g.chance(1, 2) {
                Value::Null
            } else {
                json!("Never")
            },
        );
    }
    if g.chance(1, 25) {
        // A field no schema has: taken as it is when absent.
        s.insert("extra".into(), json!({"a": 1, "b": null}));
    }
    if g.bad(1, 30) {
        s.insert("containers".into(), json!([[1]]));
    }
    Value::Object(s)
}

/// A strategic merge patch for an object of `kind`.
fn smp_patch(g: &mut Gen, kind: &str) -> Value {
    let mut p = Map::new();
    if g.chance(2, 3) {
        p.insert("metadata".into(), metadata_patch(g));
    }
    match kind {
        "Pod" => {
            if g.chance(3, 4) {
                p.insert("spec".into(), pod_spec_patch(g));
            }
            if g.chance(1, 3) {
                let types = g.subset(CONDITIONS, 1);
                let conds: Vec<Value> = types
                    .iter()
                    .map(|t| json!({"type": t, "status": "True", "lastTransitionTime": null}))
                    .collect();
                let order: Vec<Value> = g
                    .order(&types, CONDITIONS)
                    .into_iter()
                    .map(|t| json!({"type": t}))
                    .collect();
                p.insert(
                    "status".into(),
                    json!({"conditions": conds, "$setElementOrder/conditions": order}),
                );
            }
        }
        "Node" => {
            let mut spec = Map::new();
            if g.chance(1, 2) {
                spec.insert(
                    "taints".into(),
                    Value::Array(
                        g.subset(&["t1", "t3"], 0)
                            .into_iter()
                            .map(|k| json!({"key": k, "effect": "NoExecute"}))
                            .collect(),
                    ),
                );
            }
            if g.chance(1, 2) {
                primitive_list_patch(
                    g,
                    &mut spec,
                    "podCIDRs",
                    &["10.0.0.0/24", "fd00::/64", "10.2.0.0/24"],
                );
            }
            if g.chance(1, 3) {
                spec.insert("unschedulable".into(), json!(true));
            }
            p.insert("spec".into(), Value::Object(spec));
            if g.chance(1, 2) {
                let addrs: Vec<Value> = g
                    .subset(ADDRESSES, 1)
                    .into_iter()
                    .map(|t| {
                        if g.chance(1, 5) {
                            json!({"type": t, "$patch": "delete"})
                        } else {
                            json!({"type": t, "address": g.word()})
                        }
                    })
                    .collect();
                p.insert(
                    "status".into(),
                    json!({"addresses": addrs, "capacity": {"pods": "110", "cpu": null}}),
                );
            }
        }
        "Deployment" | "StatefulSet" | "DaemonSet" | "Job" => {
            let mut spec = Map::new();
            if g.chance(3, 4) {
                spec.insert("template".into(), json!({"spec": pod_spec_patch(g)}));
            }
            if kind == "Deployment" && g.chance(1, 3) {
                spec.insert(
                    "strategy".into(),
                    match g.below(4) {
                        // What kubectl apply sends to switch strategies.
                        0 => json!({"$retainKeys": ["type"], "type": "Recreate"}),
                        1 => json!({"$retainKeys": ["rollingUpdate", "type"], "type": "RollingUpdate", "rollingUpdate": {"maxSurge": 2}}),
                        2 if g.bad(1, 2) => json!({"$retainKeys": ["type"], "rollingUpdate": {"maxSurge": 2}}),
                        _ => json!({"rollingUpdate": {"maxUnavailable": null}}),
                    },
                );
            }
            if g.chance(1, 3) {
                spec.insert("replicas".into(), json!(g.below(5)));
            }
            p.insert("spec".into(), Value::Object(spec));
        }
        "Service" => {
            let mut ports = Vec::new();
            for port in PORTS {
                if g.chance(1, 2) {
                    ports.push(if g.chance(1, 4) {
                        json!({"port": port, "$patch": "delete"})
                    } else {
                        json!({"port": port, "targetPort": "http"})
                    });
                }
            }
            p.insert(
                "spec".into(),
                json!({"ports": ports, "selector": map_patch(g, LABELS)}),
            );
        }
        "ConfigMap" => {
            p.insert("data".into(), map_patch(g, &["a.conf", "b", "c"]));
        }
        "PersistentVolumeClaim" => {
            p.insert("spec".into(), json!({"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "2Gi"}}}));
        }
        "Namespace" => {
            p.insert("spec".into(), json!({"finalizers": []}));
        }
        _ => {}
    }
    if g.bad(1, 40) {
        p.insert("$deleteFromPrimitiveListX/finalizers".into(), json!(["a"]));
    }
    Value::Object(p)
}

/// Groups of cases: one patch, several objects of one kind.
struct Group {
    kind: &'static str,
    patch: Value,
    docs: Vec<Value>,
}

fn smp_groups(seed: u64, groups: usize, per_group: usize) -> Vec<Group> {
    let mut g = Gen(SplitMix64::new(seed), false);
    (0..groups)
        .map(|i| {
            g.1 = false;
            let (api_version, kind) = *g.pick(KINDS);
            let docs = (0..per_group)
                .map(|j| object(&mut g, api_version, kind, &format!("o{i}-{j}")))
                .collect();
            Group {
                kind,
                patch: smp_patch(&mut g, kind),
                docs,
            }
        })
        .collect()
}

// ------------------------------------------------------------------ tests

/// patchlab's answer for one case: the object, or kubectl's error text.
fn patchlab_smp(doc: &Value, patch: &Value) -> Result<Value, String> {
    let target = schema::target_of(doc);
    let mut out = doc.clone();
    strategic::apply_local(&mut out, patch, &target)
        .map(|()| out)
        .map_err(|e| e.to_string())
}

/// Compares one group with kubectl (see [`Outcome`]).
fn check_group(
    kubectl: &Path,
    dir: &Path,
    tag: &str,
    patch_type: &str,
    group: &Group,
    ours: impl Fn(&Value) -> Result<Value, String>,
) -> Outcome {
    let patch_text = serde_json::to_string(&group.patch).unwrap();
    let run = run_kubectl(kubectl, dir, tag, patch_type, &group.docs, &patch_text);
    let mut failures = Vec::new();
    let mut messages = Vec::new();
    let mut both_fail = 0;
    for doc in &group.docs {
        let name = doc["metadata"]["name"].as_str().unwrap();
        let expected = ours(doc);
        match (&expected, run.objects.get(name)) {
            (Ok(ours), Some(theirs)) if go(ours) == go(theirs) => {}
            (Err(message), None) => {
                messages.push(message.clone());
                both_fail += 1;
            }
            _ => failures.push(format!(
                "{patch_type} {} {name}\n  doc:     {}\n  patch:   {patch_text}\n  patchlab: {}\n  kubectl:  {}\n  stderr: {}",
                group.kind,
                go(doc),
                match &expected { Ok(v) => go(v), Err(e) => format!("error: {e}") },
                run.objects.get(name).map_or("(no object)".to_owned(), go),
                run.stderr.trim_end(),
            )),
        }
    }
    if failures.is_empty() && expected_stderr(&messages) != run.stderr {
        failures.push(format!(
            "{patch_type} {} errors differ\n  patch: {patch_text}\n  patchlab: {:?}\n  kubectl:  {:?}",
            group.kind,
            expected_stderr(&messages),
            run.stderr
        ));
    }
    (group.docs.len(), both_fail, failures)
}

/// Cases run, cases that failed on both sides (same error), disagreements.
type Outcome = (usize, usize, Vec<String>);

fn report(name: &str, started: Instant, results: Vec<Outcome>) {
    let cases: usize = results.iter().map(|r| r.0).sum();
    let errors: usize = results.iter().map(|r| r.1).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.2).collect();
    eprintln!(
        "{name}: {cases} cases ({errors} refused by both), {} disagreements, {:.1} s",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(8).collect();
        panic!(
            "{} of {cases} cases disagree with kubectl; first ones:\n{}",
            failures.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n\n")
        );
    }
}

#[test]
fn strategic_merge_patch_agrees_with_kubectl() {
    let Some(kubectl) = kubectl() else {
        return notice("strategic_merge_patch_agrees_with_kubectl");
    };
    let started = Instant::now();
    let dir = scratch_dir("smp");
    // PATCHLAB_SMP_SEED replays another suite (for exploring; the default
    // seed is the one `cargo test` runs).
    let seed = std::env::var("PATCHLAB_SMP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5a17_2026);
    let groups = smp_groups(seed, 300, 8);
    coverage(&groups);
    let results = run_groups(&groups, |i, group| {
        check_group(
            &kubectl,
            &dir,
            &format!("g{i}"),
            "strategic",
            group,
            |doc| patchlab_smp(doc, &group.patch),
        )
    });
    let _ = std::fs::remove_dir_all(&dir);
    report("strategic merge patch vs kubectl", started, results);
}

/// Prints how many patches use each directive, and how many cases fail,
/// and asserts the suite covers each.
fn coverage(groups: &[Group]) {
    let text: Vec<String> = groups
        .iter()
        .map(|g| serde_json::to_string(&g.patch).unwrap())
        .collect();
    let count = |needle: &str| text.iter().filter(|t| t.contains(needle)).count();
    let errors: usize = groups
        .iter()
        .map(|g| {
            g.docs
                .iter()
                .filter(|d| patchlab_smp(d, &g.patch).is_err())
                .count()
        })
        .sum();
    let mut line = String::new();
    for needle in [
        "\"$patch\":\"delete\"",
        "\"$patch\":\"replace\"",
        "$retainKeys",
        "$setElementOrder/",
        "$deleteFromPrimitiveList/",
        ":null",
        "\"containers\"",
        "\"finalizers\"",
        "\"tolerations\"",
        "\"taints\"",
    ] {
        let n = count(needle);
        assert!(n >= 10, "only {n} patches use {needle}");
        line.push_str(&format!(" {needle} {n};"));
    }
    let cases: usize = groups.iter().map(|g| g.docs.len()).sum();
    eprintln!(
        "coverage of {} patches:{line} {errors} of {cases} cases fail",
        groups.len()
    );
    assert!(
        errors > cases / 50 && errors < cases / 2,
        "{errors} of {cases} cases fail"
    );
}

// -------------------------------------------- two-way diff round trip

/// A changed copy of an object: what a user or controller edits
/// (labels, finalizers, containers added, removed, reordered, images,
/// tolerations, a volume's source), never a `null` (a strategic merge
/// patch cannot set one) nor duplicates in a list.
fn edited(g: &mut Gen, old: &Value) -> Value {
    let mut new = old.clone();
    let meta = new["metadata"].as_object_mut().unwrap();
    if g.chance(1, 2) {
        meta.insert("labels".into(), string_map(g, LABELS, 0));
    }
    if g.chance(1, 2) {
        if g.chance(1, 4) {
            meta.remove("finalizers");
        } else {
            meta.insert("finalizers".into(), strings(g.subset(FINALIZERS, 0)));
        }
    }
    if g.chance(1, 4) {
        meta.insert(
            "ownerReferences".into(),
            Value::Array(
                g.subset(UIDS, 0)
                    .into_iter()
                    .map(|uid| json!({"apiVersion": "v1", "kind": "ReplicaSet", "name": format!("rs-{uid}"), "uid": uid, "controller": g.chance(1, 2)}))
                    .collect(),
            ),
        );
    }
    let path = if new["kind"] == "Pod" {
        "/spec"
    } else {
        "/spec/template/spec"
    };
    let spec = new.pointer_mut(path);
    if let Some(Value::Object(spec)) = spec {
        if g.chance(2, 3) {
            // Containers: some kept (maybe changed), some new, reordered.
            let old_list = spec
                .get("containers")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut list: Vec<Value> = Vec::new();
            for mut c in old_list {
                if !g.chance(3, 4) {
                    continue;
                }
                if g.chance(1, 2) {
                    c["image"] = json!(g.word());
                }
                if g.chance(1, 4) {
                    c.as_object_mut().unwrap().remove("ports");
                }
                if g.chance(1, 4) {
                    c["env"] = Value::Array(
                        g.subset(ENV, 0)
                            .into_iter()
                            .map(|n| json!({"name": n, "value": g.word()}))
                            .collect(),
                    );
                }
                list.push(c);
            }
            for name in g.subset(CONTAINERS, 0) {
                if !list.iter().any(|c| c["name"] == name.as_str()) && g.chance(1, 2) {
                    list.push(container(g, &name));
                }
            }
            if g.chance(1, 3) {
                g.shuffle(&mut list);
            }
            if list.is_empty() {
                list.push(container(g, "app"));
            }
            spec.insert("containers".into(), Value::Array(list));
        }
        if g.chance(1, 3) {
            spec.insert(
                "tolerations".into(),
                json!([{"key": "k7", "operator": "Exists", "effect": "NoExecute"}]),
            );
        }
        if g.chance(1, 3) {
            let vols = g.subset(VOLUMES, 0);
            spec.insert(
                "volumes".into(),
                Value::Array(vols.iter().map(|v| volume(g, v)).collect()),
            );
        }
        if g.chance(1, 4) {
            spec.remove("securityContext");
        }
    }
    if new["kind"] == "Node" && g.chance(1, 2) {
        new["spec"]["podCIDRs"] =
            strings(g.subset(&["10.0.0.0/24", "fd00::/64", "10.1.0.0/24"], 0));
    }
    if new["kind"] == "Deployment" && g.chance(1, 2) {
        new["spec"]["strategy"] = if g.chance(1, 2) {
            json!({"type": "Recreate"})
        } else {
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "50%"}})
        };
    }
    new
}

#[test]
fn two_way_diff_round_trips_through_kubectl() {
    let Some(kubectl) = kubectl() else {
        return notice("two_way_diff_round_trips_through_kubectl");
    };
    let started = Instant::now();
    let dir = scratch_dir("diff");
    let mut g = Gen(SplitMix64::new(0xd1ff_2026), false);
    let pairs: Vec<(Value, Value)> = (0..240)
        .map(|i| {
            let (api_version, kind) = *g.pick(KINDS);
            let old = object(&mut g, api_version, kind, &format!("d{i}"));
            let new = edited(&mut g, &old);
            (old, new)
        })
        .collect();
    let results = run_groups(&pairs, |i, (old, new)| {
        let kind = schema::target_of(old).schema().unwrap();
        let patch = match strategic::diff(old, new, kind.root()) {
            Ok(patch) => patch,
            Err(e) => {
                return (
                    1,
                    0,
                    vec![format!(
                        "diff failed: {e}\n  old: {}\n  new: {}",
                        go(old),
                        go(new)
                    )],
                )
            }
        };
        let mut failures = Vec::new();
        let mut ours = old.clone();
        match strategic::apply(&mut ours, &patch, kind.root(), Default::default()) {
            Ok(()) if go(&ours) == go(new) => {}
            other => failures.push(format!(
                "patchlab's round trip: {other:?}\n  old: {}\n  new: {}\n  patch: {}\n  got: {}",
                go(old),
                go(new),
                go(&patch),
                go(&ours)
            )),
        }
        let patch_text = serde_json::to_string(&patch).unwrap();
        let run = run_kubectl(
            &kubectl,
            &dir,
            &format!("d{i}"),
            "strategic",
            std::slice::from_ref(old),
            &patch_text,
        );
        let name = old["metadata"]["name"].as_str().unwrap();
        match run.objects.get(name) {
            Some(theirs) if go(theirs) == go(new) => {}
            other => failures.push(format!(
                "kubectl applying patchlab's diff\n  old: {}\n  new: {}\n  patch: {patch_text}\n  kubectl: {}\n  stderr: {}",
                go(old),
                go(new),
                other.map_or("(no object)".to_owned(), go),
                run.stderr.trim_end()
            )),
        }
        (1, 0, failures)
    });
    let _ = std::fs::remove_dir_all(&dir);
    report("two-way diff through kubectl", started, results);
}

// ------------------------------------------- merge and JSON patches

/// A JSON merge patch (RFC 7386) for an object: maps merged, `null`
/// deletes, lists replaced whole, nested nulls in lists of objects.
fn merge_patch(g: &mut Gen) -> Value {
    let mut p = json!({});
    if g.chance(2, 3) {
        p["metadata"] = json!({"labels": map_patch(g, LABELS)});
        p["metadata"]["labels"]
            .as_object_mut()
            .unwrap()
            .remove("$patch");
    }
    if g.chance(1, 2) {
        p["metadata"]["finalizers"] = if g.chance(1, 4) {
            Value::Null
        } else {
            strings(g.subset(FINALIZERS, 0))
        };
    }
    if g.chance(1, 2) {
        p["spec"] = match g.below(4) {
            0 => {
                json!({"containers": [{"name": "app", "image": g.word(), "env": [{"name": "A", "value": null}]}]})
            }
            1 => {
                json!({"replicas": g.below(4), "template": {"spec": {"nodeSelector": {"a": null, "b": "1"}}}})
            }
            2 => json!({"taints": null, "unschedulable": true}),
            _ => Value::Null,
        };
    }
    if g.chance(1, 6) {
        p["status"] = json!({"conditions": [{"type": "Ready", "status": "True", "reason": null}]});
    }
    p
}

/// A JSON patch: ops on paths that exist, may exist, or do not.
fn json_patch(g: &mut Gen) -> Value {
    const PATHS: &[&str] = &[
        "/metadata/labels/app",
        "/metadata/labels/kubevirt.io~1nodeName",
        "/metadata/labels/a~0b~1c",
        "/metadata/labels",
        "/metadata/finalizers",
        "/metadata/finalizers/0",
        "/metadata/finalizers/-",
        "/metadata/finalizers/9",
        "/metadata/annotations/x",
        "/spec/containers/0/image",
        "/spec/containers/1",
        "/spec/replicas",
        "/spec/nope/deeper",
        "/status",
    ];
    let values = [
        json!("v"),
        json!(3),
        json!(null),
        json!(["f1"]),
        json!({"app": "web"}),
        json!([]),
        json!("<b>"),
    ];
    let ops: Vec<Value> = (0..1 + g.below(4))
        .map(|_| {
            let path = *g.pick(PATHS);
            match g.below(6) {
                0 => json!({"op": "add", "path": path, "value": g.pick(&values)}),
                1 => json!({"op": "remove", "path": path}),
                2 => json!({"op": "replace", "path": path, "value": g.pick(&values)}),
                3 => json!({"op": "test", "path": path, "value": g.pick(&values)}),
                4 => json!({"op": "copy", "from": g.pick(PATHS), "path": path}),
                _ => json!({"op": "move", "from": g.pick(PATHS), "path": path}),
            }
        })
        .collect();
    Value::Array(ops)
}

#[test]
fn merge_and_json_patches_agree_with_kubectl() {
    let Some(kubectl) = kubectl() else {
        return notice("merge_and_json_patches_agree_with_kubectl");
    };
    let started = Instant::now();
    let dir = scratch_dir("json");
    let mut g = Gen(SplitMix64::new(0x7e57_2026), false);
    let mut groups = Vec::new();
    for i in 0..80 {
        let (api_version, kind) = *g.pick(KINDS);
        let docs = (0..6)
            .map(|j| object(&mut g, api_version, kind, &format!("j{i}-{j}")))
            .collect();
        let patch = if i % 2 == 0 {
            merge_patch(&mut g)
        } else {
            json_patch(&mut g)
        };
        groups.push(Group { kind, patch, docs });
    }
    // kubectl 1.32 runs evanphx/json-patch v4.12.0 (its go.mod), on the
    // body `yaml.ToJSON` re-encoded: what Go's encoder writes.
    let engine = apply::Engine::Kube(patchlab::kube::Evanphx::V4_12_0);
    let results = run_groups(&groups, |i, group| {
        let merge = group.patch.is_object();
        let body = go(&group.patch);
        let patch_type = if merge { "merge" } else { "json" };
        let ours = |doc: &Value| {
            let mut out = doc.clone();
            let result = if merge {
                apply::apply_merge(&mut out, &body, engine).map(|_| ())
            } else {
                apply::apply_payload(&mut out, &body, engine)
            };
            result.map(|()| out).map_err(|e| e.to_string())
        };
        let (cases, errors, failures) =
            check_group(&kubectl, &dir, &format!("j{i}"), patch_type, group, ours);
        // The engine's error texts are patchlab's (the server hides them
        // behind a generic 422): only where it fails is compared.
        let failures = failures
            .into_iter()
            .filter(|f| !f.contains("errors differ"))
            .collect();
        (cases, errors, failures)
    });
    let _ = std::fs::remove_dir_all(&dir);
    report("merge and JSON patches vs kubectl", started, results);
}
