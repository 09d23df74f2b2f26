//! Criterion benchmarks of the strategy engine's diff, compared on the same
//! inputs with the `json-patch` crate's `diff`.
//!
//! Run: `cargo bench --bench strategy` (numbers in docs/performance.md).

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Map, Value};

use patchlab::strategy::{diff, Options, Preset};

/// A VMI of about 10 KB, with the fields controllers patch.
fn vmi(node: &str, pods: usize) -> Value {
    let mut labels = Map::new();
    for i in 0..40 {
        labels.insert(
            format!("example.com/label-{i}"),
            json!(format!("value-{i}")),
        );
    }
    labels.insert("kubevirt.io/nodeName".into(), json!(node));
    let mut annotations = Map::new();
    for i in 0..40 {
        annotations.insert(
            format!("example.com/annotation-{i}"),
            json!("x".repeat(100)),
        );
    }
    let mut active = Map::new();
    for i in 0..pods {
        active.insert(
            format!("{i:08}-0000-4000-8000-000000000000"),
            json!(format!("node{i:02}")),
        );
    }
    let volumes: Vec<Value> = (0..30)
        .map(|i| json!({"name": format!("disk{i}"), "persistentVolumeClaim": {"claimName": format!("pvc-{i}")}}))
        .collect();
    json!({
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachineInstance",
        "metadata": {"name": "testvmi", "namespace": "default", "resourceVersion": "1041",
                      "labels": labels, "annotations": annotations,
                      "finalizers": ["kubevirt.io/virtualMachineControllerFinalize"]},
        "spec": {"domain": {"cpu": {"cores": 4}, "memory": {"guest": "8Gi"},
                             "devices": {"disks": volumes.iter().map(|v| json!({"name": v["name"], "disk": {"bus": "virtio"}})).collect::<Vec<_>>()}},
                  "volumes": volumes},
        "status": {"phase": "Running", "nodeName": node, "activePods": active,
                    "interfaces": [{"name": "default", "ipAddress": "10.244.1.7", "mac": "52:54:00:12:34:56"}],
                    "conditions": [{"type": "Ready", "status": "True"}, {"type": "LiveMigratable", "status": "True"}]}
    })
}

/// A 1 MB object: a map of 10,000 keys and a big nested spec.
fn big(changed: bool) -> Value {
    let mut data = Map::new();
    for i in 0..10_000 {
        let value = if changed && i % 1000 == 0 {
            "changed".to_owned()
        } else {
            "x".repeat(64)
        };
        data.insert(format!("entry-{i:05}"), json!({"value": value, "n": i}));
    }
    let mut labels = Map::new();
    for i in 0..1_000 {
        labels.insert(format!("label-{i:04}"), json!("v"));
    }
    if changed {
        labels.insert("label-new".into(), json!("added"));
        labels.remove("label-0001");
    }
    json!({"metadata": {"name": "big", "labels": labels}, "spec": {"data": data}})
}

fn benches(c: &mut Criterion) {
    let old = vmi("node01", 1);
    let mut new = vmi("node01", 2);
    new["metadata"]["labels"]["kubevirt.io/migrationTargetNodeName"] = json!("node02");
    new["status"]["interfaces"][0]["ipAddress"] = json!("10.244.2.9");
    let size = serde_json::to_string(&old).unwrap().len();
    let cases = [
        (format!("vmi-{}kb", size / 1024), old, new),
        ("1mb".to_owned(), big(false), big(true)),
    ];
    for (name, old, new) in cases {
        let mut group = c.benchmark_group(format!("diff/{name}"));
        for preset in [Preset::KubevirtPerKey, Preset::KubevirtMain, Preset::Merge] {
            let options = Options::preset(preset);
            group.bench_function(format!("patchlab-{preset}"), |b| {
                b.iter(|| diff(&old, &new, &options).unwrap())
            });
        }
        group.bench_function("json-patch", |b| b.iter(|| json_patch::diff(&old, &new)));
        group.finish();
    }
}

criterion_group!(strategy_benches, benches);
criterion_main!(strategy_benches);
