//! The verdict words tied to their definitions (`src/vocabulary.rs`), over
//! random scenarios: each replayed step is judged here again, from the
//! recorded objects alone (not from the simulator's own bookkeeping), and
//! every class and count the replay reports must agree.
//!
//! - false conflict: a write failed (409 or 422) and doing what its writer
//!   meant, on the object as it was, would have undone no change another
//!   writer made since its read;
//! - true conflict: it would have undone one: the failure kept it (the step
//!   names whose);
//! - lost update: a successful write undid a change another writer made
//!   since the eraser's read (a change it had read and undid is a
//!   deliberate overwrite);
//! - intent holds: at the end, every intent of the writer holds;
//! - intent does not hold, said why: a writer whose last write failed and
//!   was never retried (no later write of its own, attempts left); else the
//!   last write that undid one of its changes still missing at the end,
//!   named, a lost update when the eraser had not read that change and a
//!   deliberate overwrite when it had;
//! - each count column counts exactly the steps its word names.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Value};

use patchlab::sim::timeline::{
    replay, ConflictKind, EventKind, NotHeld, Replay, Scenario, WriterEnd,
};
use patchlab::sim::writer::Intent;
use patchlab::strategy::Preset;

/// The intents writers pick from: labels, annotations, finalizers, a
/// status field, some of them at odds with each other.
fn intent_pool() -> Vec<Value> {
    vec![
        json!({"set-label": {"key": "example.com/team", "value": "red"}}),
        json!({"set-label": {"key": "example.com/team", "value": "blue"}}),
        json!({"set-label": {"key": "kubevirt.io/nodeName", "value": "node02"}}),
        json!({"remove-label": {"key": "example.com/stale"}}),
        json!({"set-annotation": {"key": "example.com/note", "value": "x"}}),
        json!({"remove-annotation": {"key": "example.com/evict"}}),
        json!({"add-finalizer": {"name": "example.com/backup"}}),
        json!({"remove-finalizer": {"name": "kubevirt.io/foreground"}}),
        json!({"set": {"path": "/status/phase", "value": "Migrating"}}),
        json!({"set": {"path": "/status/phase", "value": "Failed"}}),
    ]
}

fn object() -> Value {
    json!({
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachineInstance",
        "metadata": {
            "name": "testvmi",
            "namespace": "default",
            "resourceVersion": "100",
            "labels": {"kubevirt.io/nodeName": "node01", "example.com/stale": "yes"},
            "annotations": {"example.com/evict": "node01"},
            "finalizers": ["kubevirt.io/foreground"]
        },
        "status": {"phase": "Running"}
    })
}

/// A writer: a preset and one to three intents from the pool.
fn writer_strategy() -> impl Strategy<Value = (usize, Vec<usize>)> {
    (
        0..Preset::ALL.len(),
        proptest::collection::vec(0..intent_pool().len(), 1..=3),
    )
}

fn scenario_strategy() -> impl Strategy<Value = Scenario> {
    proptest::collection::vec(writer_strategy(), 2..=3)
        .prop_flat_map(|writers| {
            let n = writers.len();
            let events = proptest::collection::vec((0..n, 0..3usize), 3..=10);
            (Just(writers), events)
        })
        .prop_map(|(writers, events)| {
            let pool = intent_pool();
            let names = ["alpha", "bravo", "charlie"];
            let writers: Vec<Value> = writers
                .iter()
                .enumerate()
                .map(|(i, (preset, intents))| {
                    let mut seen = std::collections::BTreeSet::new();
                    let intents: Vec<Value> = intents
                        .iter()
                        .filter(|k| seen.insert(**k))
                        .map(|k| pool[*k].clone())
                        .collect();
                    json!({
                        "name": names[i],
                        "preset": Preset::ALL[*preset].as_str(),
                        "attempts": 3,
                        "intents": intents,
                    })
                })
                .collect();
            // Every writer reads first, then the random events.
            let mut schedule: Vec<Value> = (0..writers.len())
                .map(|i| json!({"read": names[i]}))
                .collect();
            for (w, kind) in events {
                let kind = ["read", "write", "retry"][kind];
                schedule.push(json!({ kind: names[w] }));
            }
            let text = json!({
                "name": "random",
                "objects": [object()],
                "writers": writers,
                "schedule": schedule,
            });
            Scenario::parse(&text.to_string()).expect("a valid scenario")
        })
}

/// The object as it was just before step `i`.
fn before(replay: &Replay, i: usize) -> &Value {
    if i == 0 {
        &replay.initial[0]
    } else {
        &replay.steps[i - 1].object
    }
}

/// What writer `w` last read before its write at step `i`: a retry that
/// writes reads at its own step; otherwise the object after its last read
/// or retry that wrote (a retry with nothing to retry, or that gives up,
/// reads nothing).
fn read_before(replay: &Replay, scenario: &Scenario, w: usize, i: usize) -> Option<Value> {
    let name = &scenario.writers[w].name;
    if replay.steps[i].event == EventKind::Retry {
        return Some(before(replay, i).clone());
    }
    (0..i).rev().find_map(|j| {
        let step = &replay.steps[j];
        if &step.writer != name {
            return None;
        }
        match step.event {
            EventKind::Read => Some(step.object.clone()),
            EventKind::Retry if step.response.is_some() => Some(before(replay, j).clone()),
            EventKind::Retry | EventKind::Write => None,
        }
    })
}

/// Changes other writers made that hold just before step `i` and that
/// writer `w`'s read did not show: (writer, intent). A change is one of a
/// writer's intents, made to hold by one of its own successful writes and
/// holding since.
fn changes_since_read<'s>(
    replay: &Replay,
    scenario: &'s Scenario,
    w: usize,
    i: usize,
    read: &Value,
) -> Vec<(usize, &'s Intent)> {
    let mut out = Vec::new();
    for (v, spec) in scenario.writers.iter().enumerate() {
        if v == w {
            continue;
        }
        for intent in &spec.intents {
            if !intent.holds(before(replay, i)) || intent.holds(read) {
                continue;
            }
            // Made by v: walking back, the intent holds after every step
            // down to a successful write of v.
            let made = (0..i)
                .rev()
                .take_while(|&k| intent.holds(&replay.steps[k].object))
                .any(|k| {
                    let step = &replay.steps[k];
                    step.writer == spec.name
                        && step.response.as_ref().is_some_and(|r| r.is_success())
                });
            if made {
                out.push((v, intent));
            }
        }
    }
    out
}

fn check(scenario: &Scenario, replay: &Replay) -> Result<(), TestCaseError> {
    let mut false_conflicts = vec![0u64; scenario.writers.len()];
    let mut true_conflicts = vec![0u64; scenario.writers.len()];
    let mut lost = vec![0u64; scenario.writers.len()];
    for (i, step) in replay.steps.iter().enumerate() {
        let w = scenario
            .writers
            .iter()
            .position(|s| s.name == step.writer)
            .expect("a writer");
        let Some(response) = &step.response else {
            prop_assert!(step.conflict.is_none() && step.lost.is_empty());
            continue;
        };
        let read = read_before(replay, scenario, w, i).expect("a write follows a read");
        let changes = changes_since_read(replay, scenario, w, i, &read);
        if response.is_success() {
            prop_assert!(step.conflict.is_none());
            // Lost updates: the changes since the read this write undid.
            let mut expected: Vec<(String, String)> = changes
                .iter()
                .filter(|(_, intent)| !intent.holds(&step.object))
                .map(|(v, intent)| (scenario.writers[*v].name.clone(), intent.describe()))
                .collect();
            let mut found: Vec<(String, String)> = step
                .lost
                .iter()
                .map(|l| (l.victim.clone(), l.intent.clone()))
                .collect();
            expected.sort();
            found.sort();
            prop_assert_eq!(&found, &expected, "lost updates at step {}", i);
            for (victim, _) in &found {
                let v = scenario.writers.iter().position(|s| &s.name == victim);
                lost[v.expect("a victim")] += 1;
            }
        } else if matches!(response.code, 409 | 422) {
            prop_assert!(step.lost.is_empty());
            // What the writer meant, done on the object as it was.
            let meant = scenario.writers[w].desired(before(replay, i)).ok();
            let mut expected: Vec<String> = changes
                .iter()
                .filter(|(_, intent)| meant.as_ref().is_some_and(|m| !intent.holds(m)))
                .map(|(v, _)| scenario.writers[*v].name.clone())
                .collect();
            let mut kept: Vec<String> = step.kept.iter().map(|k| k.writer.clone()).collect();
            expected.sort();
            kept.sort();
            prop_assert_eq!(&kept, &expected, "kept changes at step {}", i);
            let kind = if expected.is_empty() {
                false_conflicts[w] += 1;
                ConflictKind::False
            } else {
                true_conflicts[w] += 1;
                ConflictKind::True
            };
            prop_assert_eq!(step.conflict, Some(kind), "class at step {}", i);
        } else {
            prop_assert!(step.conflict.is_none() && step.lost.is_empty());
        }
    }
    // Each count is exactly the steps its word names.
    let last = replay
        .steps
        .last()
        .map_or(&replay.initial[0], |s| &s.object);
    for (w, outcome) in replay.outcomes.writers.iter().enumerate() {
        prop_assert_eq!(outcome.counts.false_conflicts, false_conflicts[w]);
        prop_assert_eq!(outcome.counts.true_conflicts, true_conflicts[w]);
        prop_assert_eq!(outcome.counts.lost_updates, lost[w]);
        let holds = scenario.writers[w].intents.iter().all(|i| i.holds(last));
        prop_assert_eq!(outcome.intent_holds, holds, "intent holds of {}", w);
    }
    prop_assert_eq!(
        replay.outcomes.lost_updates.len() as u64,
        lost.iter().sum::<u64>()
    );
    for (w, outcome) in replay.outcomes.writers.iter().enumerate() {
        check_not_held(scenario, replay, w, &outcome.not_held, outcome.end)?;
    }
    Ok(())
}

/// Why writer `w`'s intent does not hold, judged again from the steps.
fn check_not_held(
    scenario: &Scenario,
    replay: &Replay,
    w: usize,
    not_held: &Option<NotHeld>,
    end: WriterEnd,
) -> Result<(), TestCaseError> {
    let spec = &scenario.writers[w];
    let last = replay
        .steps
        .last()
        .map_or(&replay.initial[0], |s| &s.object);
    let holds = spec.intents.iter().all(|i| i.holds(last));
    prop_assert_eq!(not_held.is_none(), holds, "not_held of {}", w);
    let Some(not_held) = not_held else {
        return Ok(());
    };
    // Never retried: its last write failed, nothing of its own was sent
    // after it, and it had attempts left, or an earlier write of its own
    // had succeeded (attempts bound only the writes before a success: an
    // applier applies again after one).
    let sent: Vec<&patchlab::sim::timeline::Step> = replay
        .steps
        .iter()
        .filter(|s| s.writer == spec.name && s.response.is_some())
        .collect();
    let last_failed = sent
        .last()
        .and_then(|s| s.response.as_ref())
        .filter(|r| !r.is_success())
        .map(|r| r.code);
    let succeeded_before = sent
        .iter()
        .any(|s| s.response.as_ref().is_some_and(|r| r.is_success()));
    let never_retried =
        last_failed.filter(|_| (sent.len() as u32) < spec.attempts || succeeded_before);
    match not_held {
        NotHeld::NotRetried { code } => {
            prop_assert_eq!(never_retried, Some(*code), "never retried: {}", w);
            return Ok(());
        }
        _ => prop_assert!(never_retried.is_none(), "{} was never retried", w),
    }
    if matches!(not_held, NotHeld::GaveUp | NotHeld::NeverWrote) {
        prop_assert!(!sent
            .iter()
            .any(|s| s.response.as_ref().is_some_and(|r| r.is_success())));
        return Ok(());
    }
    // The last write of another writer that undid a change of w's (made by
    // a success of w's and holding since) still missing at the end.
    let mut undone: Option<(usize, String, bool)> = None;
    for (k, step) in replay.steps.iter().enumerate() {
        if step.writer == spec.name || !step.response.as_ref().is_some_and(|r| r.is_success()) {
            continue;
        }
        for intent in &spec.intents {
            if intent.holds(last) || !intent.holds(before(replay, k)) || intent.holds(&step.object)
            {
                continue;
            }
            let made = (0..k)
                .rev()
                .take_while(|&j| intent.holds(&replay.steps[j].object))
                .any(|j| {
                    let s = &replay.steps[j];
                    s.writer == spec.name && s.response.as_ref().is_some_and(|r| r.is_success())
                });
            if made {
                let v = scenario
                    .writers
                    .iter()
                    .position(|s| s.name == step.writer)
                    .expect("a writer");
                let read = read_before(replay, scenario, v, k).expect("a read");
                undone = Some((k, step.writer.clone(), !intent.holds(&read)));
            }
        }
    }
    match (not_held, undone) {
        (NotHeld::Lost(e), Some((k, by, true)))
        | (NotHeld::Overwritten(e), Some((k, by, false))) => {
            prop_assert_eq!((e.step, &e.by), (k, &by), "who undid {}'s change", w);
        }
        (NotHeld::NothingSent, None) => prop_assert_eq!(end, WriterEnd::NothingToDo),
        (NotHeld::Unmet, None) => prop_assert_eq!(end, WriterEnd::Succeeded),
        (reason, undone) => prop_assert!(false, "{}: {:?} but {:?}", w, reason, undone),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Under each writer's own preset and under every preset for all.
    #[test]
    fn every_verdict_matches_its_definition(scenario in scenario_strategy(), preset in proptest::option::of(0..Preset::ALL.len())) {
        let preset = preset.map(|p| Preset::ALL[p]);
        let replayed = replay(&scenario, preset).expect("replays");
        check(&scenario, &replayed)?;
    }
}

/// The examples the definitions were written for.
#[test]
fn removing_what_another_writer_removed_is_a_false_conflict() {
    // team-blue removes a label team-red already removed: its remove fails
    // (422), but succeeding would have changed nothing of team-red's.
    let scenario = Scenario::parse(
        &json!({
            "name": "remove twice",
            "objects": [object()],
            "writers": [
                {"name": "team-red", "preset": "kubevirt-per-key", "intents": [{"remove-label": {"key": "example.com/stale"}}]},
                {"name": "team-blue", "preset": "kubevirt-per-key", "intents": [{"remove-label": {"key": "example.com/stale"}}]}
            ],
            "schedule": [{"read": "team-red"}, {"read": "team-blue"}, {"write": "team-red"}, {"write": "team-blue"}]
        })
        .to_string(),
    )
    .unwrap();
    let replayed = replay(&scenario, None).unwrap();
    let step = &replayed.steps[3];
    assert_eq!(step.response.as_ref().unwrap().code, 422);
    assert_eq!(step.conflict, Some(ConflictKind::False));
    assert!(step.kept.is_empty());
    assert!(
        step.summary.contains("a false conflict"),
        "{}",
        step.summary
    );
}

#[test]
fn a_true_conflict_names_the_change_it_kept() {
    // Both set the same label; team-blue's test of the old value fails
    // after team-red's write: succeeding would have undone team-red's value.
    let scenario = Scenario::parse(
        &json!({
            "name": "same label",
            "objects": [object()],
            "writers": [
                {"name": "team-red", "preset": "kubevirt-per-key", "intents": [{"set-label": {"key": "kubevirt.io/nodeName", "value": "node02"}}]},
                {"name": "team-blue", "preset": "kubevirt-per-key", "intents": [{"set-label": {"key": "kubevirt.io/nodeName", "value": "node03"}}]}
            ],
            "schedule": [{"read": "team-red"}, {"read": "team-blue"}, {"write": "team-red"}, {"write": "team-blue"}]
        })
        .to_string(),
    )
    .unwrap();
    let replayed = replay(&scenario, None).unwrap();
    let step = &replayed.steps[3];
    assert_eq!(step.conflict, Some(ConflictKind::True));
    assert_eq!(step.kept.len(), 1);
    assert_eq!(step.kept[0].writer, "team-red");
    assert!(
        step.summary.contains("the failure kept team-red's change"),
        "{}",
        step.summary
    );
}
