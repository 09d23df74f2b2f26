//! The verdict words tied to their definitions (`src/vocabulary.rs`), over
//! random scenarios: each replayed step is judged again by `audit` from the
//! recorded objects and requests alone, and every class, word and count
//! the replay, its story, the mass migration (Scale's rows) and the
//! explorer report must agree.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Value};

mod audit;

use patchlab::sim::story::{Happening, Story};
use patchlab::sim::timeline::{replay, ConflictKind, IntentVerdict, Replay, Scenario};
use patchlab::strategy::Preset;

use audit::check;

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

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Under each writer's own preset and under every preset for all.
    #[test]
    fn every_verdict_matches_its_definition(scenario in scenario_strategy(), preset in proptest::option::of(0..Preset::ALL.len())) {
        let preset = preset.map(|p| Preset::ALL[p]);
        let replayed = replay(&scenario, preset).expect("replays");
        check(&scenario, &replayed)?;
        check_story(&replayed)?;
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
        step.summary.contains("would have undone team-red's change"),
        "{}",
        step.summary
    );
}

/// The story of a replay tells each failed step with the step's classes,
/// in the words of the vocabulary.
fn check_story(replayed: &Replay) -> Result<(), TestCaseError> {
    let story = Story::of_replay(replayed);
    let sentences = story.describe();
    for (happening, sentence) in story.happenings.iter().zip(&sentences) {
        let Happening::Failed {
            step,
            conflict,
            intent,
            ..
        } = happening
        else {
            continue;
        };
        let recorded = &replayed.steps[*step];
        prop_assert_eq!(*conflict, recorded.conflict);
        prop_assert_eq!(*intent, recorded.intent);
        if let (Some(kind), Some(intent)) = (conflict, intent) {
            prop_assert!(
                sentence.contains(&format!("a {} conflict", kind.as_str())),
                "{}",
                sentence
            );
            let word = match intent {
                IntentVerdict::Needless => "a needless failure",
                IntentVerdict::Clash => "a clashing intent",
            };
            prop_assert_eq!(
                sentence.contains(word),
                !intent.agrees(*kind),
                "{}",
                sentence
            );
        }
    }
    Ok(())
}

/// A stale Update whose writer meant to change other fields: its request,
/// forced, would have put back what it had read (a true conflict), its
/// intent undoes nothing of the other writer's (a needless failure), and
/// the step says both.
#[test]
fn a_stale_update_is_a_true_conflict_and_a_needless_failure() {
    let scenario = Scenario::parse(include_str!("../www/scenarios/migration-race.yaml")).unwrap();
    let replayed = replay(&scenario, Some(Preset::Update)).unwrap();
    let step = &replayed.steps[3];
    assert_eq!(step.response.as_ref().unwrap().code, 409);
    assert_eq!(step.conflict, Some(ConflictKind::True));
    assert_eq!(step.intent, Some(IntentVerdict::Needless));
    assert!(step.summary.contains("a true conflict"), "{}", step.summary);
    assert!(
        step.summary.contains("a needless failure"),
        "{}",
        step.summary
    );
    check(&scenario, &replayed).unwrap();
}

/// Scale's rows: every VMI of a mass migration, replayed and judged again,
/// adds up to the counts the run reports, under every preset, with churn.
#[test]
fn every_scale_row_counts_verdicts_that_match_their_definitions() {
    use patchlab::sim::migrate::{migrate, vmi_scenarios, MigrateOptions};
    for churn in [0, 2] {
        let options = MigrateOptions {
            vms: 12,
            seed: 5,
            churn,
            ..MigrateOptions::default()
        };
        let result = migrate(&options).unwrap();
        for row in &result.presets {
            let mut total = patchlab::sim::timeline::Counts::default();
            for scenario in vmi_scenarios(&options) {
                let replayed = replay(&scenario, Some(row.preset)).unwrap();
                check(&scenario, &replayed)
                    .unwrap_or_else(|e| panic!("{} {}: {e}", row.preset, scenario.name));
                total += &replayed.outcomes.total();
            }
            assert_eq!(total, row.total, "{} churn {churn}", row.preset);
        }
    }
}

/// The explorer: each interleaving, replayed and judged again, is counted
/// in the cells its verdicts name, and told by the same story.
#[test]
fn every_explorer_cell_counts_verdicts_that_match_their_definitions() {
    use patchlab::sim::explore::explore;
    for text in [
        include_str!("../www/scenarios/migration-race.yaml"),
        include_str!("../www/scenarios/finalizer-race.yaml"),
        include_str!("../www/scenarios/migration-state-guarded.yaml"),
    ] {
        let scenario = Scenario::parse(text).unwrap();
        let exploration = explore(&scenario, &Preset::ALL).unwrap();
        for row in &exploration.presets {
            let (mut false_conflicts, mut needless) = (0, 0);
            for (i, order) in exploration.interleavings.iter().enumerate() {
                let scenario = Scenario {
                    schedule: order.clone(),
                    ..scenario.clone()
                };
                let replayed = replay(&scenario, Some(row.preset)).unwrap();
                check(&scenario, &replayed).unwrap();
                let steps = || replayed.steps.iter();
                false_conflicts +=
                    usize::from(steps().any(|s| s.conflict == Some(ConflictKind::False)));
                needless += usize::from(steps().any(|s| s.intent == Some(IntentVerdict::Needless)));
                assert_eq!(
                    row.stories[i].describe(),
                    Story::of_replay(&replayed).describe()
                );
            }
            assert_eq!(row.false_conflicts.count, false_conflicts, "{}", row.preset);
            assert_eq!(row.needless_failures.count, needless, "{}", row.preset);
        }
    }
}
