//! Writes `N` (default 100,000) Kubernetes-shaped `apply --batch` cases
//! to stdout, one JSON line each, seeded: a VMI of about 2-3 KB (labels,
//! annotations, volumes, interfaces, status) and a controller's patch of
//! 2 to 8 ops (tests, adds, replaces, removes, an array insert); one case
//! in ten fails a test (the whole patch is dropped).
//!
//! `cargo run --release --example batch_cases -- 100000 > cases.jsonl`
//! (the input of the batch comparison in docs/performance.md).
//!
//! `batch_cases -- 100000 small`: many small cases instead, about 400
//! bytes a line, where the cost of each line (not of each byte) shows: a
//! random small object (a ConfigMap, a Deployment, a Service or a Pod,
//! few fields each) and a random patch of 1 to 4 ops on it.

use std::io::{self, BufWriter, Write};

use patchlab::sim::rng::SplitMix64;
use serde_json::{json, Value};

fn vmi(rng: &mut SplitMix64, i: usize) -> Value {
    let name = format!("vmi-{i:06}");
    let labels: serde_json::Map<String, Value> = (0..4 + rng.below(6))
        .map(|k| {
            (
                format!("example.com/label-{k}"),
                json!(format!("value-{}", rng.below(100))),
            )
        })
        .chain([("kubevirt.io/nodeName".to_owned(), json!("node01"))])
        .collect();
    let annotations: serde_json::Map<String, Value> = (0..2 + rng.below(6))
        .map(|k| {
            (
                format!("example.com/annotation-{k}"),
                json!("x".repeat(20 + rng.below(40) as usize)),
            )
        })
        .collect();
    let volumes: Vec<Value> = (0..1 + rng.below(4))
        .map(|k| json!({"name": format!("disk{k}"), "persistentVolumeClaim": {"claimName": format!("{name}-pvc-{k}")}}))
        .collect();
    json!({
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachineInstance",
        "metadata": {
            "name": name, "namespace": "default", "resourceVersion": format!("{}", 1000 + i),
            "uid": format!("6a2c{:028x}", rng.next_u64()),
            "generation": 1 + rng.below(5),
            "labels": labels, "annotations": annotations,
            "finalizers": ["kubevirt.io/virtualMachineControllerFinalize"]
        },
        "spec": {
            "domain": {"cpu": {"cores": 1 + rng.below(8)}, "memory": {"guest": "2Gi"},
                       "devices": {"disks": volumes.iter().map(|v| json!({"name": v["name"], "disk": {"bus": "virtio"}})).collect::<Vec<_>>()}},
            "volumes": volumes
        },
        "status": {
            "phase": "Running",
            "nodeName": "node01",
            "activePods": {format!("{name}-source"): "node01"},
            "interfaces": [{"name": "default", "ipAddress": format!("10.244.{}.{}", rng.below(250), rng.below(250))}],
            "conditions": [{"type": "Ready", "status": "True"}, {"type": "LiveMigratable", "status": "True"}]
        }
    })
}

fn patch(rng: &mut SplitMix64, doc: &Value) -> Value {
    let name = doc["metadata"]["name"].as_str().unwrap_or("x");
    let stale = rng.below(10) == 0;
    let mut ops = vec![json!({"op": "test", "path": "/metadata/resourceVersion",
        "value": if stale { "1".to_owned() } else { doc["metadata"]["resourceVersion"].as_str().unwrap_or("").to_owned() }})];
    let extra = [
        json!({"op": "test", "path": "/metadata/labels/kubevirt.io~1nodeName", "value": "node01"}),
        json!({"op": "add", "path": "/metadata/labels/kubevirt.io~1migrationTargetNodeName", "value": "node02"}),
        json!({"op": "replace", "path": "/status/phase", "value": "Migrating"}),
        json!({"op": "add", "path": format!("/status/activePods/{name}-target"), "value": "node02"}),
        json!({"op": "add", "path": "/status/migrationState", "value": {"sourceNode": "node01", "targetNode": "node02", "migrationUid": format!("mig-{name}")}}),
        json!({"op": "remove", "path": "/metadata/annotations/example.com~1annotation-0"}),
        json!({"op": "add", "path": "/status/conditions/1", "value": {"type": "Migrating", "status": "True"}}),
    ];
    let n = 1 + rng.below(extra.len() as u64) as usize;
    let start = rng.below((extra.len() - n + 1) as u64) as usize;
    ops.extend(extra[start..start + n].iter().cloned());
    Value::Array(ops)
}

/// A small object of a random kind. Shapes after the Kubernetes API types
/// (k8s.io/api): core/v1 `ConfigMap` (`data`), apps/v1 `Deployment`
/// (`spec.replicas`, `spec.selector.matchLabels`), core/v1 `Service`
/// (`spec.ports`: name, port, protocol) and core/v1 `Pod` (`spec.containers`:
/// name, image; `status.phase`), cut down to a few fields.
fn small(rng: &mut SplitMix64, i: usize) -> Value {
    let name = format!("obj-{i:06}");
    let labels: serde_json::Map<String, Value> = (0..1 + rng.below(3))
        .map(|k| {
            (
                format!("app.kubernetes.io/l{k}"),
                json!(format!("v{}", rng.below(20))),
            )
        })
        .collect();
    let metadata = json!({
        "name": name, "namespace": "default",
        "resourceVersion": format!("{}", 100 + rng.below(100_000)),
        "labels": labels,
    });
    match rng.below(4) {
        0 => json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata,
            "data": {"mode": "on", "level": format!("{}", rng.below(9))}}),
        1 => json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": metadata,
            "spec": {"replicas": 1 + rng.below(5), "selector": {"matchLabels": {"app": name}}}}),
        2 => json!({"apiVersion": "v1", "kind": "Service", "metadata": metadata,
            "spec": {"ports": [{"name": "http", "port": 80, "protocol": "TCP"}]}}),
        _ => json!({"apiVersion": "v1", "kind": "Pod", "metadata": metadata,
            "spec": {"containers": [{"name": "main", "image": format!("registry.example/app:1.{}", rng.below(30))}]},
            "status": {"phase": "Running"}}),
    }
}

/// A patch of 1 to 4 ops on a small object: a resourceVersion test (stale
/// in one case in ten), then label and field writes.
fn small_patch(rng: &mut SplitMix64, doc: &Value) -> Value {
    let version = doc["metadata"]["resourceVersion"].as_str().unwrap_or("");
    let stale = rng.below(10) == 0;
    let mut ops = Vec::new();
    if rng.below(2) == 0 {
        ops.push(json!({"op": "test", "path": "/metadata/resourceVersion",
            "value": if stale { "1" } else { version }}));
    }
    let field = match doc["kind"].as_str().unwrap_or("") {
        "ConfigMap" => json!({"op": "replace", "path": "/data/mode", "value": "off"}),
        "Deployment" => json!({"op": "replace", "path": "/spec/replicas", "value": rng.below(10)}),
        "Service" => json!({"op": "add", "path": "/spec/ports/-",
            "value": {"name": "https", "port": 443, "protocol": "TCP"}}),
        _ => json!({"op": "replace", "path": "/status/phase", "value": "Succeeded"}),
    };
    let writes = [
        json!({"op": "add", "path": "/metadata/labels/app.kubernetes.io~1version", "value": "v2"}),
        field,
        json!({"op": "remove", "path": "/metadata/labels/app.kubernetes.io~1l0"}),
    ];
    let n = 1 + rng.below(3) as usize;
    ops.extend(writes[..n].iter().cloned());
    Value::Array(ops)
}

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let small_cases = args.next().as_deref() == Some("small");
    let mut rng = SplitMix64::new(15);
    let mut out = BufWriter::new(io::stdout().lock());
    for i in 0..n {
        let (doc, patch) = if small_cases {
            let doc = small(&mut rng, i);
            let patch = small_patch(&mut rng, &doc);
            (doc, patch)
        } else {
            let doc = vmi(&mut rng, i);
            let patch = patch(&mut rng, &doc);
            (doc, patch)
        };
        serde_json::to_writer(&mut out, &json!({"doc": doc, "patch": patch}))?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
