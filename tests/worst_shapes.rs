//! The worst shapes found by trying to freeze lint and diff (issue #26):
//! 10,000 ops in one patch, 16,000 changed keys in one map, a 12 MB
//! `kubectl patch` line, 500 unescaped paths. Each finishes well within a
//! generous time box even in a debug build (the analyses are linear: the
//! quadratic versions took minutes), and the output stays bounded by the
//! input. Speed itself is measured by `benches/worst.rs`.
#![cfg(not(target_arch = "wasm32"))]

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use patchlab::lint::{self, report, Options, Rule, FIX_OPS_BASE, FIX_OPS_PER_OP, SHOWN_PER_RULE};
use patchlab::strategy::{self, Preset};

/// Far above what the linear code needs in a debug build on a loaded
/// machine, far below what the quadratic code took.
const BOX: Duration = Duration::from_secs(30);

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    println!("{what}: {took:?}");
    assert!(took < BOX, "{what} took {took:?}, more than {BOX:?}");
    out
}

/// The report is bounded: a few findings per rule, fixes within budget,
/// text output within a small multiple of the input.
fn assert_bounded(what: &str, input: &str, report: &lint::Report) {
    let mut per_rule = std::collections::BTreeMap::<Rule, usize>::new();
    for f in &report.findings {
        *per_rule.entry(f.rule).or_default() += 1;
    }
    for (rule, n) in per_rule {
        assert!(n <= SHOWN_PER_RULE + 1, "{what}: {n} findings of {rule}");
    }
    let held: usize = report
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .map(|f| f.ops.len())
        .sum();
    let budget = report.ops.len() * FIX_OPS_PER_OP + FIX_OPS_BASE;
    assert!(
        held <= budget,
        "{what}: fixes hold {held} ops, budget {budget}"
    );
    let text = report::text(report, &report::Source::new("<stdin>", None));
    assert!(
        text.len() <= 2 * input.len() + 200_000,
        "{what}: {} bytes of text for {} bytes in",
        text.len(),
        input.len()
    );
}

fn patch(ops: impl IntoIterator<Item = Value>) -> String {
    serde_json::to_string(&ops.into_iter().collect::<Vec<_>>()).unwrap()
}

/// Shapes of 10,000 ops that each hit a relation between ops: tests and
/// writes under them, repeated paths, indices, unescaped keys.
fn ten_thousand_op_shapes() -> Vec<(&'static str, String)> {
    let n = 10_000;
    vec![
        (
            "test+replace pairs",
            patch((0..n / 2).flat_map(|i| {
                [
                    json!({"op": "test", "path": format!("/metadata/labels/k{i}"), "value": "a"}),
                    json!({"op": "replace", "path": format!("/metadata/labels/k{i}"), "value": "b"}),
                ]
            })),
        ),
        (
            "adds",
            patch((0..n).map(|i| json!({"op": "add", "path": format!("/metadata/labels/k{i}"), "value": "v"}))),
        ),
        (
            "indices",
            patch((0..n).map(|i| json!({"op": "replace", "path": format!("/spec/containers/{i}/image"), "value": "x"}))),
        ),
        (
            "whole-map tests, each followed by every write",
            patch(
                (0..n / 2)
                    .map(|_| json!({"op": "test", "path": "/metadata/labels", "value": {"a": "1"}}))
                    .chain((0..n / 2).map(|i| json!({"op": "add", "path": format!("/metadata/labels/k{i}"), "value": "v"}))),
            ),
        ),
        (
            "one path written again and again",
            patch((0..n).map(|i| json!({"op": "replace", "path": "/spec/replicas", "value": i}))),
        ),
        (
            "tests after writes",
            patch((0..n).map(|i| {
                if i % 2 == 0 {
                    json!({"op": "replace", "path": "/status", "value": {}})
                } else {
                    json!({"op": "test", "path": format!("/status/f{i}"), "value": 1})
                }
            })),
        ),
        (
            "negative indices on one path",
            patch((0..n).map(|_| json!({"op": "remove", "path": "/metadata/finalizers/-1"}))),
        ),
        (
            "whole collections rewritten",
            patch((0..n).map(|i| json!({"op": "replace", "path": "/metadata/finalizers", "value": [format!("f{i}")]}))),
        ),
    ]
}

#[test]
fn ten_thousand_ops_in_one_patch() {
    for (shape, text) in ten_thousand_op_shapes() {
        let report = timed(&format!("lint 10,000 ops: {shape}"), || {
            lint::lint(&text, &Options::default()).unwrap()
        });
        assert_eq!(report.op_count, 10_000, "{shape}");
        assert_bounded(shape, &text, &report);
        // With an object (a Pod: its schema is read too): every op applied
        // one by one to it as lint goes.
        let object = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {}, "finalizers": ["a", "b"]}, "spec": {"containers": []}, "status": {}});
        let report = timed(&format!("lint 10,000 ops with the object: {shape}"), || {
            lint::lint(
                &text,
                &Options {
                    object: Some(object.clone()),
                    ..Options::default()
                },
            )
            .unwrap()
        });
        assert_bounded(shape, &text, &report);
    }
}

fn map_of(n: usize, value: &str) -> Value {
    let labels: Map<String, Value> = (0..n).map(|i| (format!("k{i}"), json!(value))).collect();
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "labels": labels}})
}

#[test]
fn sixteen_thousand_changed_keys_in_one_map() {
    let (old, new) = (map_of(16_000, "a"), map_of(16_000, "b"));
    for preset in Preset::ALL {
        let plan = timed(&format!("diff of 16,000 changed keys, {preset}"), || {
            strategy::diff(&old, &new, &strategy::Options::preset(preset)).unwrap()
        });
        let options = strategy::Options::preset(preset);
        // (Per-key ops for 16,000 keys are 32,000 ops: the server refuses
        // them, 413; the check says so, quickly.)
        timed(&format!("round trip, {preset}"), || {
            strategy::round_trip(&old, &new, &plan, &options.policy)
        });
        if let Some(ops) = plan.ops() {
            let ops: Vec<_> = ops.iter().map(|p| p.op.clone()).collect();
            let report = timed(&format!("lint of the diff, {preset}"), || {
                lint::lint_ops(&ops, &Options::default())
            });
            assert_bounded(preset.as_str(), &plan.body_text(), &report);
        } else {
            let report = timed(&format!("lint of the body, {preset}"), || {
                lint::lint(&plan.body_text(), &Options::default())
            });
            if let Ok(report) = report {
                assert_bounded(preset.as_str(), &plan.body_text(), &report);
            }
        }
    }
    // The merge patch of the same change, and a whole-map test of it.
    let body = json!({"metadata": {"labels": new["metadata"]["labels"].clone()}}).to_string();
    let report = timed("lint of a merge patch of 16,000 keys to a Pod", || {
        lint::lint(
            &body,
            &Options {
                kind: Some("Pod".to_owned()),
                ..Options::default()
            },
        )
        .unwrap()
    });
    assert_bounded("merge", &body, &report);
    let whole = patch([
        json!({"op": "test", "path": "/metadata/labels", "value": old["metadata"]["labels"].clone()}),
        json!({"op": "replace", "path": "/metadata/labels", "value": new["metadata"]["labels"].clone()}),
    ]);
    let report = timed("lint of a whole-map test of 16,000 keys", || {
        lint::lint(
            &whole,
            &Options {
                object: Some(old.clone()),
                ..Options::default()
            },
        )
        .unwrap()
    });
    assert_eq!(report.findings[0].rule, Rule::WholeMapTest);
    assert_bounded("whole map", &whole, &report);
}

#[test]
fn a_twelve_megabyte_kubectl_line() {
    let ops: Vec<Value> = (0..75_000)
        .map(|i| json!({"op": "add", "path": format!("/metadata/annotations/k{i}"), "value": "v".repeat(100)}))
        .collect();
    let line = format!("kubectl patch vmi testvmi --type=json -p '{}'", patch(ops));
    assert!(line.len() > 12_000_000, "{}", line.len());
    let report = timed("lint of a 12 MB kubectl line", || {
        lint::lint(&line, &Options::default()).unwrap()
    });
    assert!(report.findings.iter().any(|f| f.rule == Rule::TooManyOps));
    assert!(report.findings.iter().any(|f| f.rule == Rule::BodyTooLarge));
    assert_bounded("12 MB line", &line, &report);
}

#[test]
fn five_hundred_unescaped_paths_print_a_bounded_report() {
    let text = patch((0..500).map(
        |i| json!({"op": "add", "path": format!("/metadata/labels/example.io/k{i}"), "value": "v"}),
    ));
    let report = timed("lint of 500 unescaped paths", || {
        lint::lint(&text, &Options::default()).unwrap()
    });
    let unescaped: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == Rule::UnescapedSlash)
        .collect();
    assert_eq!(unescaped.len(), SHOWN_PER_RULE + 1);
    let folded = unescaped.last().unwrap().folded.as_ref().unwrap();
    assert_eq!(folded.count, 500 - SHOWN_PER_RULE);
    // One fix for the 495 folded ops: each path escaped.
    let fix = unescaped.last().unwrap().fix.as_ref().unwrap();
    assert_eq!(
        fix.ops
            .iter()
            .filter(|o| o.path.contains("example.io~1k"))
            .count(),
        495
    );
    let out = report::text(&report, &report::Source::new("p.json", Some(&text)));
    println!(
        "500 unescaped paths: {} bytes in, {} bytes of text out",
        text.len(),
        out.len()
    );
    assert!(
        out.len() < text.len(),
        "{} bytes out for {} in",
        out.len(),
        text.len()
    );
    let json = serde_json::to_string(&report::json(&report)).unwrap();
    println!("500 unescaped paths: {} bytes of JSON out", json.len());
    assert!(
        json.len() < 16 * text.len(),
        "{} bytes of JSON for {} in",
        json.len(),
        text.len()
    );
}

/// One op of a random worst-shape mix.
fn op() -> impl Strategy<Value = Value> {
    let key = (0..50usize).prop_map(|k| format!("k{k}"));
    prop_oneof![
        key.clone().prop_map(|k| json!({"op": "test", "path": "/metadata/labels", "value": {k: "a"}})),
        key.clone().prop_map(|k| json!({"op": "add", "path": format!("/metadata/labels/{k}"), "value": "v"})),
        key.clone().prop_map(|k| json!({"op": "remove", "path": format!("/metadata/labels/a.io/{k}")})),
        (0..20usize).prop_map(|i| json!({"op": "replace", "path": format!("/spec/containers/{i}/image"), "value": "x"})),
        Just(json!({"op": "replace", "path": "/metadata/finalizers", "value": ["a"]})),
        Just(json!({"op": "test", "path": "/metadata/finalizers", "value": ["a", "b"]})),
        Just(json!({"op": "remove", "path": "/metadata/finalizers/-1"})),
        Just(json!({"op": "test", "path": "/status/migrationState", "value": {"a": 1}})),
        Just(json!({"op": "replace", "path": "/status/migrationState/a", "value": 2})),
        Just(json!({"op": "test", "path": "", "value": {}})),
        Just(json!({"op": "upsert", "path": "/a", "value": 1})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Any mix of the worst shapes, thousands of ops long: bounded time and
    /// output, with and without the object.
    #[test]
    fn mixes_of_worst_shapes_stay_bounded(ops in proptest::collection::vec(op(), 1000..4000), with_object in any::<bool>()) {
        let text = patch(ops);
        let options = Options {
            object: with_object.then(|| json!({"kind": "VirtualMachineInstance", "metadata": {"labels": {"a.io/k1": "x"}, "finalizers": ["a", "b"]}, "spec": {"containers": [{"name": "c"}]}, "status": {"migrationState": {"a": 1}}})),
            ..Options::default()
        };
        let start = Instant::now();
        let report = lint::lint(&text, &options).unwrap();
        prop_assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
        assert_bounded("mix", &text, &report);
    }
}

/// Strategic merge patches at their worst, each against a matching object
/// (so the engine runs too): 10,000 containers without their merge key,
/// 16,000 Node labels replaced by `$patch: replace`, a Node's 10,000
/// taints replaced whole, 10,000 lists the schema has to place, and keys
/// of a megabyte over 100,000 members (which lint's walks leave out past
/// `limits::MEMBER_PATH_BYTES`).
#[test]
fn strategic_merge_patch_worst_shapes() {
    let n = 10_000;
    let containers = |named: bool| -> Vec<Value> {
        (0..n)
            .map(|i| {
                if named {
                    json!({"name": format!("c{i}"), "image": "a"})
                } else {
                    json!({"image": format!("b{i}")})
                }
            })
            .collect()
    };
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"template": {"spec": {"containers": containers(true)}}}});
    let body =
        json!({"spec": {"template": {"spec": {"containers": containers(false)}}}}).to_string();
    let line = format!("kubectl patch deployment web -p '{body}'");
    let report = timed("SMP: 10,000 containers without their name", || {
        lint::lint(
            &line,
            &Options {
                object: Some(deployment.clone()),
                ..Options::default()
            },
        )
        .unwrap()
    });
    let missing: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == Rule::SmpMissingMergeKey)
        .collect();
    assert_eq!(
        missing.len(),
        1,
        "one finding per list, counting the others"
    );
    assert!(
        missing[0].message.contains("(and 9999 more)"),
        "{}",
        missing[0].message
    );
    assert!(report.findings.iter().any(|f| f.rule == Rule::FailsNow));
    assert_bounded("SMP containers", &line, &report);

    let labels: Map<String, Value> = (0..16_000)
        .map(|i| (format!("example.com/k{i}"), json!("v")))
        .collect();
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node01", "labels": labels},
        "spec": {"taints": (0..n).map(|i| json!({"key": format!("t{i}"), "effect": "NoSchedule"})).collect::<Vec<_>>()}});
    let mut replaced = labels.clone();
    replaced.insert("$patch".into(), json!("replace"));
    let body = json!({"metadata": {"labels": replaced}}).to_string();
    let report = timed("SMP: $patch: replace of 16,000 Node labels", || {
        lint::lint(
            &format!("kubectl patch node node01 -p '{body}'"),
            &Options {
                object: Some(node.clone()),
                ..Options::default()
            },
        )
        .unwrap()
    });
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == Rule::SmpPatchReplace));
    assert_bounded("SMP labels", &body, &report);

    let taints: Vec<Value> = (0..n)
        .map(|i| json!({"key": format!("u{i}"), "effect": "NoSchedule"}))
        .collect();
    let body = json!({"spec": {"taints": taints}}).to_string();
    let report = timed("SMP: 10,000 taints replacing 10,000 others", || {
        lint::lint(
            &format!("kubectl patch node node01 -p '{body}'"),
            &Options {
                object: Some(node.clone()),
                ..Options::default()
            },
        )
        .unwrap()
    });
    let replaces = report
        .findings
        .iter()
        .find(|f| f.rule == Rule::SmpReplacesList)
        .unwrap();
    assert!(
        replaces.message.contains("and 9995 more"),
        "{}",
        replaces.message
    );
    assert_bounded("SMP taints", &body, &report);

    // 10,000 lists the schema places (a Pod's spec has no such fields: the
    // walk looks each up), as a strategic and as a merge patch.
    let lists: Map<String, Value> = (0..n).map(|i| (format!("l{i}"), json!([i]))).collect();
    let body = json!({"spec": lists}).to_string();
    for how in ["", " --type=merge"] {
        let line = format!("kubectl patch pod web{how} -p '{body}'");
        let report = timed(&format!("10,000 lists{how}"), || {
            lint::lint(&line, &Options::default()).unwrap()
        });
        assert_bounded("lists", &line, &report);
        let report = timed(&format!("10,000 lists{how}, no kind"), || {
            lint::lint(&body, &Options::default()).unwrap()
        });
        assert_eq!(report.overwrites.len(), n);
    }

    // A key of a megabyte above 100,000 members: nothing below it is walked.
    let members: Map<String, Value> = (0..100_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let mut top = Map::new();
    top.insert("x".repeat(1 << 20), Value::Object(members));
    let body = json!({"metadata": {"annotations": {"a": "b"}}, "spec": top}).to_string();
    for how in ["", " --type=merge"] {
        let line = format!("kubectl patch pod web{how} -p '{body}'");
        let report = timed(&format!("a megabyte key over 100,000 members{how}"), || {
            lint::lint(&line, &Options::default()).unwrap()
        });
        assert!(report.overwrites.len() < 10, "{}", report.overwrites.len());
    }
}

/// `question` asked as the page asks it and answered as the engines'
/// worker answers it: the reply's text (timed as `what`).
fn reply_to<Q: patchlab::engines::Question>(what: &str, rev: Q::Rev, question: &Q) -> String {
    use patchlab::engines::{wire::Asking, worker::Worker, TABLE};
    let mut worker = Worker::new(TABLE);
    assert_eq!(
        worker.take(&Asking::new(&rev, question, Some(1)).text()),
        None
    );
    timed(what, || worker.work(&|| 0.0).expect("a reply"))
}

/// The answer in `reply`, read as the page reads it (timed as `what`).
fn read_as_the_page<Q: patchlab::engines::Question>(what: &str, reply: &str) -> Q::Answer
where
    Q::Refusal: std::fmt::Debug,
{
    timed(what, || {
        patchlab::engines::wire::read::<Q>(reply)
            .unwrap()
            .1
            .unwrap()
    })
}

/// Build's whole answer (diff, round trip, lint, the rule texts once per
/// rule per column) for 16,000 changed keys, four columns at a time.
#[test]
fn build_answers_sixteen_thousand_changed_keys_with_bounded_rule_texts() {
    use patchlab::engines::build::{Build, Column, Revs};
    let (old, new) = (map_of(16_000, "a"), map_of(16_000, "b"));
    for presets in Preset::ALL.chunks(4) {
        let question = Build {
            old: old.to_string().into(),
            new: new.to_string().into(),
            columns: presets.iter().copied().map(Column::of).collect(),
            kubernetes: Default::default(),
        };
        let names: Vec<&str> = presets.iter().map(|p| p.as_str()).collect();
        let what = format!("Build's answer, {}", names.join(", "));
        let reply = reply_to(&what, Revs::default(), &question);
        let built =
            read_as_the_page::<Build>(&format!("{what}, read as the page reads it"), &reply);
        for column in &built.results.as_ref().unwrap().columns {
            let findings = column.findings.len()
                + column.ops.iter().map(|op| op.findings.len()).sum::<usize>();
            assert!(column.rules.len() <= Rule::ALL.len(), "{:?}", column.preset);
            // Each rule's texts come once, whatever the number of findings.
            let rules: std::collections::BTreeSet<&str> =
                column.rules.iter().map(|r| r.rule.as_str()).collect();
            assert_eq!(
                rules.len(),
                column.rules.len(),
                "{:?}: {findings} findings",
                column.preset
            );
        }
    }
}

/// Check's answer (lint, then the view's data: every op as sent, the ops
/// listed, each fix's ops and payload, sent as JSON) for the same worst
/// shapes: timed, and bounded by the input.
#[test]
fn check_answers_the_worst_shapes_within_bounds() {
    use patchlab::apply::Semantics;
    use patchlab::engines::check::{Check, MAX_SHOWN_OPS};
    let object = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {}, "finalizers": ["a", "b"]}, "spec": {"containers": []}, "status": {}});
    let labels: Map<String, Value> = (0..16_000).map(|i| (format!("k{i}"), json!("b"))).collect();
    let merge = json!({"metadata": {"labels": labels}}).to_string();
    let ops: Vec<Value> = (0..75_000)
        .map(|i| json!({"op": "add", "path": format!("/metadata/annotations/k{i}"), "value": "v".repeat(100)}))
        .collect();
    let line = format!("kubectl patch vmi testvmi --type=json -p '{}'", patch(ops));
    let mut shapes: Vec<(String, String, String)> = ten_thousand_op_shapes()
        .into_iter()
        .map(|(shape, text)| (format!("10,000 ops: {shape}"), text, object.to_string()))
        .collect();
    shapes.push((
        "a merge patch of 16,000 keys, with the object".to_owned(),
        merge,
        map_of(16_000, "a").to_string(),
    ));
    shapes.push(("a 12 MB kubectl line".to_owned(), line, String::new()));
    for (shape, patch, object) in shapes {
        let question = Check {
            patch: patch.as_str().into(),
            object: object.as_str().into(),
            semantics: Semantics::Kube,
        };
        let sent = reply_to(&format!("Check's answer, {shape}"), 1, &question);
        let checked = read_as_the_page::<Check>(
            &format!("Check's answer read as the page reads it, {shape}"),
            &sent,
        );
        let listed = checked.ok().expect("the patch reads");
        assert!(listed.rows.len() <= MAX_SHOWN_OPS, "{shape}");
        // Linear in the patch: every op as sent once, the new ops of the
        // fixes within lint's budget for them, the rest bounded.
        println!(
            "Check's answer, {shape}: {} bytes for {} bytes of patch",
            sent.len(),
            patch.len()
        );
        assert!(
            sent.len() <= (2 + FIX_OPS_PER_OP) * patch.len() + 200_000,
            "{shape}: {} bytes of answer for {} bytes of patch",
            sent.len(),
            patch.len()
        );
    }
}

/// The biggest race a scenario may hold (16 writers, 400 events, objects
/// the replay keeps just under its 32 MB limit) is answered by the
/// engines within the box, read back as the Race module reads it, and
/// past the budget for other runs answers alone (no compare rows, no
/// release marks: 21 more replays of it).
#[test]
fn race_answers_the_biggest_scenario_within_the_replay_budget() {
    use patchlab::engines::race::{kept_bytes, Race, OTHER_RUNS_BYTES};
    use patchlab::limits::{REPLAY_BYTES, SCENARIO_EVENTS, SCENARIO_WRITERS};
    use patchlab::sim::timeline::Scenario;
    let events = SCENARIO_EVENTS;
    // One object whose JSON, kept once per event and once more, stays
    // under the limit.
    let budget = REPLAY_BYTES / (events + 1);
    let annotations: Map<String, Value> = (0..budget / 120)
        .map(|i| (format!("example.com/a{i:06}"), json!("v".repeat(80))))
        .collect();
    let object = json!({
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": "big", "namespace": "default", "resourceVersion": "1", "annotations": annotations, "labels": {}},
    });
    let writers: Vec<Value> = (0..SCENARIO_WRITERS)
        .map(|w| json!({"name": format!("w{w}"), "preset": "kubevirt-per-key", "intents": [{"set-label": {"key": format!("example.com/w{w}"), "value": "x"}}]}))
        .collect();
    let schedule: Vec<Value> = (0..events)
        .map(|e| {
            let writer = format!("w{}", (e / 2) % SCENARIO_WRITERS);
            if e % 2 == 0 {
                json!({"read": writer})
            } else {
                json!({"write": writer})
            }
        })
        .collect();
    let text =
        json!({"name": "biggest", "objects": [object], "writers": writers, "schedule": schedule})
            .to_string();
    let scenario = Scenario::parse(&text).expect("a scenario within its limits");
    let kept = kept_bytes(&scenario);
    println!("the biggest race keeps {kept} bytes (limit {REPLAY_BYTES})");
    assert!(kept <= REPLAY_BYTES && kept > OTHER_RUNS_BYTES, "{kept}");
    let question = Race {
        scenario,
        preset: None,
    };
    let sent = reply_to("Race's answer, the biggest scenario", 1, &question);
    println!("Race's answer, the biggest scenario: {} bytes", sent.len());
    let raced = read_as_the_page::<Race>(
        "Race's answer read as the page reads it, the biggest scenario",
        &sent,
    );
    let replay = raced.replay.as_ref().expect("it replays");
    assert_eq!(replay.steps.len(), events);
    assert!(
        raced.compare.is_none() && raced.differences.is_none(),
        "past the budget: the replay alone"
    );
    assert!(
        sent.len() <= 2 * REPLAY_BYTES,
        "{} bytes of answer for a replay the simulator bounds at {REPLAY_BYTES}",
        sent.len()
    );
}
