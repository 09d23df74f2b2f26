//! Criterion benchmarks of strategic merge patch: apply and diff on lists
//! of 1,000 and 10,000 elements, to show they grow near linearly (Go's
//! strategicpatch scans lists per element: quadratic).
//!
//! Run: `cargo bench --bench strategic`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde_json::{json, Value};

use patchlab::apply::strategic;
use patchlab::schema;

/// A Pod with `n` containers (each with ports and env), `n` finalizers and
/// `n` labels.
fn pod(n: usize, image: &str) -> Value {
    let containers: Vec<Value> = (0..n)
        .map(|i| {
            json!({"name": format!("c{i}"), "image": image,
                   "ports": [{"containerPort": 80}, {"containerPort": 443}],
                   "env": [{"name": "A", "value": "1"}]})
        })
        .collect();
    let finalizers: Vec<Value> = (0..n).map(|i| json!(format!("example.com/f{i}"))).collect();
    let labels: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("l{i}"), json!("v"))).collect();
    json!({"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "p", "labels": labels, "finalizers": finalizers},
           "spec": {"containers": containers}})
}

/// A patch touching every element: new images for all containers, in
/// reversed order with `$setElementOrder`, half the finalizers deleted and
/// re-added ones merged, every label changed.
fn patch(n: usize) -> Value {
    let containers: Vec<Value> = (0..n)
        .rev()
        .map(|i| json!({"name": format!("c{i}"), "image": "new"}))
        .collect();
    let order: Vec<Value> = (0..n)
        .rev()
        .map(|i| json!({"name": format!("c{i}")}))
        .collect();
    let deleted: Vec<Value> = (0..n / 2)
        .map(|i| json!(format!("example.com/f{i}")))
        .collect();
    let kept: Vec<Value> = (n / 2..n)
        .map(|i| json!(format!("example.com/f{i}")))
        .collect();
    let labels: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("l{i}"), json!("w"))).collect();
    json!({"metadata": {"labels": labels, "finalizers": kept, "$deleteFromPrimitiveList/finalizers": deleted},
           "spec": {"containers": containers, "$setElementOrder/containers": order}})
}

fn benches(c: &mut Criterion) {
    let kind = schema::resource("pod").expect("the Pod table");
    for n in [1_000, 10_000] {
        let doc = pod(n, "old");
        let body = patch(n);
        c.bench_function(
            &format!("strategic apply, {n} containers/finalizers/labels"),
            |b| {
                b.iter_batched(
                    || doc.clone(),
                    |mut d| strategic::apply(&mut d, &body, kind.root(), Default::default()),
                    BatchSize::LargeInput,
                )
            },
        );
        let new = pod(n, "new");
        c.bench_function(
            &format!("strategic diff, {n} containers/finalizers/labels"),
            |b| b.iter(|| strategic::diff(&doc, &new, kind.root())),
        );
    }
}

criterion_group! {
    name = strategic_benches;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(strategic_benches);
