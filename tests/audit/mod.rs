//! The verdicts of a replay judged again by their written definitions
//! (`src/vocabulary.rs`), from the recorded steps alone (objects, requests
//! as sent), not from the simulator's own bookkeeping:
//!
//! - false conflict (on the request): a write failed (409 or 422) and its
//!   request as sent, forced onto the object as it was (tests, the
//!   resourceVersion and field ownership set aside), would have undone no
//!   change another writer made since its read; true conflict: it would
//!   have undone one (the step names whose: the failure kept it);
//! - needless failure (on the intent): what the writer meant, done afresh
//!   on the object as it was, would have undone none; clashing intent: it
//!   would have undone one (the step names whose);
//! - the step's words say the request's class, and the intent's where the
//!   two disagree;
//! - lost update: a successful write undid a change another writer made
//!   since the eraser's read (a change it had read and undid is a
//!   deliberate overwrite);
//! - intent holds, and why not, as `Term::IntentNotHeld` says;
//! - each count column counts exactly the steps its word names.
//!
//! A change another writer made since the read: one of its intents that
//! one of its own successful writes made hold, holding since, that the
//! read did not show.

#![allow(dead_code)]

use proptest::prelude::*;
use serde_json::Value;

use patchlab::sim::timeline::{
    ConflictKind, Counts, EventKind, IntentVerdict, NotHeld, Replay, Scenario, Step, WriterEnd,
};
use patchlab::sim::writer::Intent;
use patchlab::strategy::BodyKind;

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

/// Judges every step of `replay` again by the written definitions and
/// checks every class, word and count the replay reports.
pub fn check(scenario: &Scenario, replay: &Replay) -> Result<(), TestCaseError> {
    let mut counts = vec![Counts::default(); scenario.writers.len()];
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
            // Judged on the request: what it would have made of the object
            // as it was, its preconditions set aside.
            let forced = forced(replay, step, before(replay, i));
            let kept = undone(scenario, &changes, forced.as_ref());
            let mut found: Vec<String> = step.kept.iter().map(|k| k.writer.clone()).collect();
            found.sort();
            prop_assert_eq!(&found, &kept, "kept changes at step {}", i);
            let kind = if kept.is_empty() {
                counts[w].false_conflicts += 1;
                ConflictKind::False
            } else {
                counts[w].true_conflicts += 1;
                ConflictKind::True
            };
            prop_assert_eq!(step.conflict, Some(kind), "class at step {}", i);
            // Judged on the intent: what the writer meant, done afresh.
            let meant = scenario.writers[w].desired(before(replay, i)).ok();
            let clashes = undone(scenario, &changes, meant.as_ref());
            let mut found: Vec<String> = step.clashes.iter().map(|k| k.writer.clone()).collect();
            found.sort();
            prop_assert_eq!(&found, &clashes, "clashes at step {}", i);
            let intent = if clashes.is_empty() {
                counts[w].needless_failures += 1;
                IntentVerdict::Needless
            } else {
                IntentVerdict::Clash
            };
            prop_assert_eq!(step.intent, Some(intent), "intent verdict at step {}", i);
            check_words(step, kind, intent)?;
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
        prop_assert_eq!(outcome.counts.false_conflicts, counts[w].false_conflicts);
        prop_assert_eq!(outcome.counts.true_conflicts, counts[w].true_conflicts);
        prop_assert_eq!(
            outcome.counts.needless_failures,
            counts[w].needless_failures
        );
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

/// The writers (sorted names) whose `changes` do not hold on `object` (an
/// object that cannot be built undoes nothing).
fn undone(
    scenario: &Scenario,
    changes: &[(usize, &Intent)],
    object: Option<&Value>,
) -> Vec<String> {
    let Some(object) = object else {
        return Vec::new();
    };
    let mut names: Vec<String> = changes
        .iter()
        .filter(|(_, intent)| !intent.holds(object))
        .map(|(v, _)| scenario.writers[*v].name.clone())
        .collect();
    names.sort();
    names
}

/// The object `step`'s request, as sent, would have made of `before` with
/// its preconditions set aside: a JSON patch without its tests (and
/// without ops that cannot apply), an Update or merge patch without its
/// resourceVersion, a server-side apply forced (its configuration merged
/// in: maps per key, finalizers per element, the rest replaced).
fn forced(replay: &Replay, step: &Step, before: &Value) -> Option<Value> {
    let sent = step.request.as_ref()?;
    let engine = patchlab::apply::Engine::from(replay.cluster);
    let mut object = before.clone();
    match sent.kind {
        BodyKind::JsonPatch => {
            let decoded = patchlab::apply::decode(&sent.body, engine).ok()?;
            for op in &decoded.ops {
                if op.op == patchlab::patch::OpKind::Test || op.path == "/metadata/resourceVersion"
                {
                    continue;
                }
                let _ = patchlab::apply::apply(&mut object, std::slice::from_ref(op), engine);
            }
        }
        BodyKind::Update => object = serde_json::from_str(&sent.body).ok()?,
        BodyKind::MergePatch => {
            let mut body: Value = serde_json::from_str(&sent.body).ok()?;
            if let Some(Value::Object(m)) = body.get_mut("metadata") {
                m.remove("resourceVersion");
            }
            patchlab::apply::apply_merge(&mut object, &body.to_string(), engine).ok()?;
        }
        BodyKind::Apply => {
            let (config, _) = patchlab::input::parse(&sent.body, &Default::default()).ok()?;
            merge_applied(&mut object, &config, "");
        }
        _ => return None,
    }
    Some(object)
}

fn merge_applied(into: &mut Value, config: &Value, at: &str) {
    match (into, config) {
        (Value::Object(into), Value::Object(config)) => {
            for (key, value) in config {
                let path = format!("{at}/{key}");
                let slot = into.entry(key.clone()).or_insert(Value::Null);
                merge_applied(slot, value, &path);
            }
        }
        (Value::Array(into), Value::Array(items)) if at == "/metadata/finalizers" => {
            for item in items {
                if !into.contains(item) {
                    into.push(item.clone());
                }
            }
        }
        (slot, value) => *slot = value.clone(),
    }
}

/// The step's words name its class on the request, and on the intent
/// where the two disagree.
fn check_words(
    step: &Step,
    kind: ConflictKind,
    intent: IntentVerdict,
) -> Result<(), TestCaseError> {
    let request = match kind {
        ConflictKind::False => "a false conflict",
        ConflictKind::True => "a true conflict",
    };
    prop_assert!(step.summary.contains(request), "{}", step.summary);
    let other = match kind {
        ConflictKind::False => "a true conflict",
        ConflictKind::True => "a false conflict",
    };
    prop_assert!(!step.summary.contains(other), "{}", step.summary);
    let on_intent = match intent {
        IntentVerdict::Needless => "a needless failure",
        IntentVerdict::Clash => "a clashing intent",
    };
    prop_assert_eq!(
        step.summary.contains(on_intent),
        !intent.agrees(kind),
        "{}",
        step.summary
    );
    Ok(())
}
