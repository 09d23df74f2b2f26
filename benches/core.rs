//! Criterion benchmarks of the patch core, each case run on the same
//! inputs by patchlab and by the `json-patch` crate.
//!
//! Run: `cargo bench --bench core` (numbers in docs/performance.md).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde_json::{json, Value};

use patchlab::apply::{apply, Semantics};
use patchlab::patch::{Encoding, Operation, PatchSet};

/// A VMI as the migration controller sees it (about 3 KB).
fn vmi() -> Value {
    json!({
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachineInstance",
        "metadata": {
            "name": "testvmi", "namespace": "default", "resourceVersion": "1041",
            "uid": "5b0b3b0e-1c35-4c4e-9f43-7e3a3b0a1f11",
            "labels": {"kubevirt.io/nodeName": "node01", "kubevirt.io/size": "small",
                        "app": "web", "tier": "frontend", "kubevirt.io/domain": "testvmi"},
            "annotations": {"kubevirt.io/latest-observed-api-version": "v1",
                             "kubevirt.io/storage-observed-api-version": "v1"},
            "finalizers": ["kubevirt.io/virtualMachineControllerFinalize", "foregroundDeleteVirtualMachine"]
        },
        "spec": {
            "domain": {"cpu": {"cores": 2, "sockets": 1, "threads": 1},
                        "devices": {"disks": [{"name": "containerdisk", "disk": {"bus": "virtio"}},
                                               {"name": "cloudinitdisk", "disk": {"bus": "virtio"}}],
                                     "interfaces": [{"name": "default", "masquerade": {}}]},
                        "resources": {"requests": {"memory": "1Gi"}}},
            "networks": [{"name": "default", "pod": {}}],
            "volumes": [{"name": "containerdisk", "containerDisk": {"image": "quay.io/kubevirt/fedora:latest"}},
                         {"name": "cloudinitdisk", "cloudInitNoCloud": {"userData": "#cloud-config\npassword: fedora\nchpasswd: { expire: False }\n"}}]
        },
        "status": {
            "phase": "Running", "nodeName": "node01",
            "activePods": {"2f6a3c1e-0000-4000-8000-000000000001": "node01"},
            "interfaces": [{"name": "default", "ipAddress": "10.244.1.7", "ipAddresses": ["10.244.1.7"], "mac": "52:54:00:12:34:56"}],
            "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-12-01T10:00:00Z"},
                            {"type": "LiveMigratable", "status": "True"}],
            "migrationState": null
        }
    })
}

/// The migration controller's patch: test + per-key ops + status updates.
fn vmi_patch() -> Vec<Operation> {
    vec![
        Operation::test("/metadata/labels/kubevirt.io~1nodeName", "node01"),
        Operation::replace("/metadata/labels/kubevirt.io~1nodeName", "node02"),
        Operation::add(
            "/metadata/labels/kubevirt.io~1migrationTargetNodeName",
            "node02",
        ),
        Operation::test("/status/interfaces", vmi()["status"]["interfaces"].clone()),
        Operation::replace(
            "/status/interfaces",
            json!([{"name": "default", "ipAddress": "10.244.2.9"}]),
        ),
        Operation::add(
            "/status/activePods/3f6a3c1e-0000-4000-8000-000000000002",
            "node02",
        ),
        Operation::test(
            "/metadata/finalizers",
            vmi()["metadata"]["finalizers"].clone(),
        ),
        Operation::replace(
            "/metadata/finalizers",
            json!(["foregroundDeleteVirtualMachine"]),
        ),
    ]
}

/// 10,000 ops on a small document: adds, tests and replaces of distinct keys.
fn ten_thousand_ops() -> (Value, Vec<Operation>) {
    let mut ops = Vec::with_capacity(10_000);
    for i in 0..2_500 {
        let path = format!("/metadata/annotations/key-{i}");
        ops.push(Operation::add(path.clone(), format!("v{i}")));
        ops.push(Operation::test(path.clone(), format!("v{i}")));
        ops.push(Operation::replace(path.clone(), i));
        ops.push(Operation::add(format!("/items/{}", i), json!({"i": i})));
    }
    (json!({"metadata": {"annotations": {}}, "items": []}), ops)
}

/// A 1 MB document (a big ConfigMap-like object), a small patch deep in it,
/// and the patch that undoes it (so the document need not be cloned per
/// iteration: cloning 1 MB would dwarf what is measured).
fn big_document() -> (Value, Vec<Operation>, Vec<Operation>) {
    let mut data = serde_json::Map::new();
    for i in 0..10_000 {
        data.insert(
            format!("entry-{i:05}"),
            json!({"value": "x".repeat(64), "n": i}),
        );
    }
    let doc = json!({"metadata": {"name": "big", "labels": {"a": "1"}}, "data": data});
    let ops = vec![
        Operation::test("/data/entry-05000/n", 5000),
        Operation::replace("/data/entry-05000/value", "changed"),
        Operation::add("/data/entry-10000", json!({"value": "new", "n": 10000})),
        Operation::remove("/data/entry-00001"),
        Operation::add("/metadata/labels/b", "2"),
    ];
    let inverse = vec![
        Operation::remove("/metadata/labels/b"),
        Operation::add("/data/entry-00001", doc["data"]["entry-00001"].clone()),
        Operation::remove("/data/entry-10000"),
        Operation::replace(
            "/data/entry-05000/value",
            doc["data"]["entry-05000"]["value"].clone(),
        ),
    ];
    (doc, ops, inverse)
}

/// Applies a patch and its inverse to one document, without cloning it.
fn bench_round_trip(
    c: &mut Criterion,
    name: &str,
    doc: &Value,
    ops: &[Operation],
    inverse: &[Operation],
) {
    let (theirs, theirs_inverse) = (to_json_patch(ops), to_json_patch(inverse));
    let mut group = c.benchmark_group(format!("apply/{name}"));
    for semantics in [Semantics::Rfc, Semantics::Kube] {
        let mut d = doc.clone();
        group.bench_function(format!("patchlab-{semantics}"), |bench| {
            bench.iter(|| {
                apply(&mut d, ops, semantics).unwrap();
                apply(&mut d, inverse, semantics).unwrap();
            })
        });
        assert_eq!(&d, doc);
    }
    let mut d = doc.clone();
    group.bench_function("json-patch", |bench| {
        bench.iter(|| {
            json_patch::patch(&mut d, &theirs).unwrap();
            json_patch::patch(&mut d, &theirs_inverse).unwrap();
        })
    });
    assert_eq!(&d, doc);
    group.finish();
}

fn to_json_patch(ops: &[Operation]) -> json_patch::Patch {
    let payload = PatchSet::of(ops.iter().cloned())
        .payload_with(Encoding::Plain)
        .unwrap();
    serde_json::from_str(&payload).unwrap()
}

fn bench_apply(c: &mut Criterion, name: &str, doc: &Value, ops: &[Operation]) {
    let theirs = to_json_patch(ops);
    // Both must succeed and agree before they are timed.
    let mut a = doc.clone();
    apply(&mut a, ops, Semantics::Rfc).unwrap();
    let mut b = doc.clone();
    json_patch::patch(&mut b, &theirs).unwrap();
    assert_eq!(a, b, "{name}: engines disagree");

    let size = if serde_json::to_string(doc).unwrap().len() > 100_000 {
        BatchSize::LargeInput
    } else {
        BatchSize::SmallInput
    };
    let mut group = c.benchmark_group(format!("apply/{name}"));
    group.bench_function("patchlab-rfc", |bench| {
        bench.iter_batched_ref(
            || doc.clone(),
            |d| apply(d, ops, Semantics::Rfc).unwrap(),
            size,
        )
    });
    group.bench_function("patchlab-kube", |bench| {
        bench.iter_batched_ref(
            || doc.clone(),
            |d| apply(d, ops, Semantics::Kube).unwrap(),
            size,
        )
    });
    group.bench_function("json-patch", |bench| {
        bench.iter_batched_ref(
            || doc.clone(),
            |d| json_patch::patch(d, &theirs).unwrap(),
            size,
        )
    });
    group.finish();
}

fn apply_benches(c: &mut Criterion) {
    bench_apply(c, "vmi-8-ops", &vmi(), &vmi_patch());
    let (doc, ops) = ten_thousand_ops();
    bench_apply(c, "10k-ops", &doc, &ops);
    let (doc, ops, inverse) = big_document();
    bench_round_trip(c, "1mb-doc-patch-and-inverse", &doc, &ops, &inverse);
}

/// Failing patches: the last op fails, so everything before is undone.
fn rollback_benches(c: &mut Criterion) {
    let (doc, mut ops) = ten_thousand_ops();
    ops.push(Operation::test("/metadata/annotations/key-0", "nope"));
    let theirs = to_json_patch(&ops);
    let mut group = c.benchmark_group("apply/10k-ops-then-fail");
    group.bench_function("patchlab-rfc", |bench| {
        bench.iter_batched_ref(
            || doc.clone(),
            |d| apply(d, &ops, Semantics::Rfc).unwrap_err(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("json-patch", |bench| {
        bench.iter_batched_ref(
            || doc.clone(),
            |d| json_patch::patch(d, &theirs).unwrap_err(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn payload_benches(c: &mut Criterion) {
    let cases = [
        ("vmi-8-ops", vmi_patch()),
        ("10k-ops", ten_thousand_ops().1),
    ];
    for (name, ops) in cases {
        let set = PatchSet::of(ops.iter().cloned());
        let theirs = to_json_patch(&ops);
        let mut group = c.benchmark_group(format!("payload/{name}"));
        group.bench_function("patchlab-go", |b| b.iter(|| set.payload().unwrap()));
        group.bench_function("patchlab-plain", |b| {
            b.iter(|| set.payload_with(Encoding::Plain).unwrap())
        });
        group.bench_function("json-patch+serde_json", |b| {
            b.iter(|| serde_json::to_string(&theirs).unwrap())
        });
        group.finish();
    }
}

/// JSON text in, JSON text out (what the JavaScript API's applyPatchJson
/// does): the partial-tree route against parse all, apply, write all.
fn text_benches(c: &mut Criterion) {
    use patchlab::apply::text::apply_to_text;
    use patchlab::input::Budget;
    let (doc, ops, _) = big_document();
    let text = serde_json::to_string(&doc).unwrap();
    let payload = PatchSet::of(ops).payload().unwrap();
    let budget = Budget::cli();
    let mut group = c.benchmark_group(format!("apply-text/{}KB", text.len() / 1000));
    group.bench_function("patchlab-partial", |b| {
        b.iter(|| apply_to_text(&text, &payload, Semantics::Kube, &budget).unwrap())
    });
    group.bench_function("patchlab-whole-tree", |b| {
        b.iter(|| {
            let mut value: Value = serde_json::from_str(&text).unwrap();
            patchlab::apply::apply_payload(&mut value, &payload, Semantics::Kube).unwrap();
            serde_json::to_string(&value).unwrap()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    apply_benches,
    rollback_benches,
    payload_benches,
    text_benches
);
criterion_main!(benches);
