//! Criterion rows for the worst shapes of issue #26, one per shape and
//! size: ops in one patch (lint), changed keys in one map (diff, lint of
//! the diff), and the length of a `kubectl patch` line (read + lint). A
//! linear analysis shows times growing with the size, not its square.
//!
//! Run: `cargo bench --bench worst` (numbers in docs/performance.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::{json, Map, Value};

use patchlab::lint::{self, Options};
use patchlab::strategy::{self, Preset};

fn patch(ops: impl IntoIterator<Item = Value>) -> String {
    serde_json::to_string(&ops.into_iter().collect::<Vec<_>>()).unwrap()
}

/// Test + replace pairs on distinct label keys: every op's guard is looked
/// up among all the tests before it.
fn pairs(n: usize) -> String {
    patch((0..n / 2).flat_map(|i| {
        [
            json!({"op": "test", "path": format!("/metadata/labels/k{i}"), "value": "a"}),
            json!({"op": "replace", "path": format!("/metadata/labels/k{i}"), "value": "b"}),
        ]
    }))
}

fn labels(n: usize, value: &str) -> Value {
    let map: Map<String, Value> = (0..n).map(|i| (format!("k{i}"), json!(value))).collect();
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "labels": map}})
}

fn kubectl_line(bytes: usize) -> String {
    let op = |i: usize| json!({"op": "add", "path": format!("/metadata/annotations/k{i}"), "value": "v".repeat(100)});
    let per_op = op(0).to_string().len() + 1;
    let body = patch((0..bytes / per_op).map(op));
    format!("kubectl patch vmi testvmi --type=json -p '{body}'")
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("lint/ops-in-one-patch");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let text = pairs(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("{n}"), |b| {
            b.iter(|| lint::lint(&text, &Options::default()).unwrap())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("diff/changed-keys-in-one-map");
    group.sample_size(10);
    for n in [1_000, 16_000] {
        let (old, new) = (labels(n, "a"), labels(n, "b"));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("{n}/kubevirt-per-key"), |b| {
            b.iter(|| {
                strategy::diff(
                    &old,
                    &new,
                    &strategy::Options::preset(Preset::KubevirtPerKey),
                )
                .unwrap()
            })
        });
        let plan = strategy::diff(
            &old,
            &new,
            &strategy::Options::preset(Preset::KubevirtPerKey),
        )
        .unwrap();
        let ops: Vec<_> = plan.patch_set().ops().to_vec();
        group.bench_function(format!("{n}/lint-of-the-diff"), |b| {
            b.iter(|| lint::lint_ops(&ops, &Options::default()))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("lint/kubectl-line");
    group.sample_size(10);
    for mb in [1, 12] {
        let line = kubectl_line(mb * 1_000_000);
        group.throughput(Throughput::Bytes(line.len() as u64));
        group.bench_function(format!("{mb}MB"), |b| {
            b.iter(|| lint::lint(&line, &Options::default()).unwrap())
        });
    }
    group.finish();

    // A strategic merge patch of a Node's taints against the Node: the
    // schema walk, the engine, and the elements the replacement deletes.
    let mut group = c.benchmark_group("lint/strategic-taints-with-object");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let taints = |prefix: &str| -> Vec<Value> {
            (0..n)
                .map(|i| json!({"key": format!("{prefix}{i}"), "effect": "NoSchedule"}))
                .collect()
        };
        let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node01"}, "spec": {"taints": taints("a")}});
        let line = format!(
            "kubectl patch node node01 -p '{}'",
            json!({"spec": {"taints": taints("b")}})
        );
        let options = Options {
            object: Some(node),
            ..Options::default()
        };
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("{n}"), |b| {
            b.iter(|| lint::lint(&line, &options).unwrap())
        });
    }
    group.finish();
}

criterion_group!(worst_benches, benches);
criterion_main!(worst_benches);
