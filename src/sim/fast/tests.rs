//! The differential test of the fast path: the same counts, statuses
//! and final objects as the general path.

use crate::limits::{MIGRATE_CHURN, MIGRATE_VMS};
use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::*;
use crate::sim::migrate::{
    migrate, migrate_reference, reference_run, schedule, vmi_scenario, MigrateOptions,
};
use crate::sim::rng::SplitMix64;
use crate::strategy::Preset;

/// The strings that differ between two scenarios of the same shape
/// (`from`'s on the left): the renaming that turns one into the other.
fn renaming(from: &Scenario, to: &Scenario) -> BTreeMap<String, String> {
    fn walk(a: &Value, b: &Value, out: &mut BTreeMap<String, String>) {
        match (a, b) {
            (Value::String(a), Value::String(b)) if a != b => {
                out.insert(a.clone(), b.clone());
            }
            (Value::Array(a), Value::Array(b)) => {
                for (a, b) in a.iter().zip(b) {
                    walk(a, b, out);
                }
            }
            (Value::Object(a), Value::Object(b)) => {
                for ((ka, va), (kb, vb)) in a.iter().zip(b) {
                    if ka != kb {
                        out.insert(ka.clone(), kb.clone());
                    }
                    walk(va, vb, out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk(
        &serde_json::to_value(from).unwrap(),
        &serde_json::to_value(to).unwrap(),
        &mut out,
    );
    out
}

/// `value` with every string (member names too) renamed by `names`.
fn rename(value: &Value, names: &BTreeMap<String, String>) -> Value {
    let name = |s: &String| names.get(s).cloned().unwrap_or_else(|| s.clone());
    match value {
        Value::String(s) => Value::String(name(s)),
        Value::Array(items) => Value::Array(items.iter().map(|v| rename(v, names)).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (name(k), rename(v, names)))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

fn options_for(template: &Scenario, preset: Preset) -> Vec<Options> {
    template
        .writers
        .iter()
        .map(|w| {
            let mut o = w.options(Some(preset)).unwrap();
            o.explain = false;
            o
        })
        .collect()
}

fn presets() -> impl Strategy<Value = Vec<Preset>> {
    proptest::sample::subsequence(Preset::ALL.to_vec(), 0..=Preset::ALL.len())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Whole runs: the same result (per preset and per writer) on both paths.
    #[test]
    fn the_fast_path_gives_the_reference_totals(
        seed in any::<u64>(),
        vms in 1usize..40,
        presets in presets(),
        churn in 0..=3usize,
        retries in 0..=4u32,
    ) {
        let options = MigrateOptions { vms, seed, presets, churn, retries, ..MigrateOptions::default() };
        prop_assert_eq!(migrate(&options).unwrap(), migrate_reference(&options).unwrap());
    }

    /// Single VMIs anywhere in the range, random schedules: the same
    /// counts, the same end of every writer, the same final object.
    #[test]
    fn the_fast_path_gives_each_vmis_outcomes_and_object(
        seed in any::<u64>(),
        vmis in proptest::collection::vec(0..MIGRATE_VMS, 1..6),
        preset in proptest::sample::select(Preset::ALL.to_vec()),
        churn in 0..=MIGRATE_CHURN,
        retries in 0..=3u32,
    ) {
        let options = MigrateOptions { vms: 1, seed, presets: vec![preset], churn, retries, ..MigrateOptions::default() };
        let template = vmi_scenario(0, &options);
        let writer_options = options_for(&template, preset);
        let mut machine = Machine::new(template.clone(), writer_options.clone()).unwrap();
        let mut tally = Tally::new(template.writers.len());
        let mut rng = SplitMix64::new(seed);
        let mut slots = Vec::new();
        for i in vmis {
            schedule(&mut rng, options.writers(), retries, &mut slots);
            let (reference, object) = reference_run(&options, preset, &writer_options, i, &slots);
            machine.run(&slots, &mut tally);
            for (want, got) in reference.writers.iter().zip(&tally.writers) {
                prop_assert_eq!(&want.counts, &got.counts, "VMI {} writer {}", i, want.name);
                prop_assert_eq!(want.intent_holds, got.intent_holds, "VMI {} writer {}", i, want.name);
                prop_assert_eq!(want.end, got.end, "VMI {} writer {}", i, want.name);
            }
            prop_assert_eq!(reference.intents_hold, tally.intents_hold);
            let names = renaming(&template, &vmi_scenario(i, &options));
            let fast = rename(machine.object(tally.state).unwrap(), &names);
            prop_assert_eq!(fast, object, "VMI {}", i);
        }
    }
}

/// The renaming is what makes VMI 0 stand for VMI `i`: it must be one to
/// one and keep the order of the strings it renames, for every VMI.
#[test]
fn vmi_zero_stands_for_every_vmi() {
    let options = MigrateOptions {
        churn: MIGRATE_CHURN,
        ..MigrateOptions::default()
    };
    let template = vmi_scenario(0, &options);
    let base = renaming(&template, &vmi_scenario(1, &options));
    assert_eq!(
        base.keys().collect::<Vec<_>>(),
        [
            "10.244.2.2",
            "mig-00000",
            "vmi-00000",
            "vmi-00000-source",
            "vmi-00000-target"
        ]
    );
    for i in (0..MIGRATE_VMS).step_by(997).chain([MIGRATE_VMS - 1]) {
        let names = renaming(&template, &vmi_scenario(i, &options));
        let renamed: Vec<&String> = base.keys().map(|k| names.get(k).unwrap_or(k)).collect();
        let mut sorted = renamed.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, renamed, "VMI {i}: order and distinctness kept");
        // No renamed string equals a string the template keeps.
        let text = serde_json::to_string(&template).unwrap();
        for new in names.values() {
            assert!(
                base.contains_key(new) || !text.contains(&format!("\"{new}\"")),
                "VMI {i}: {new} collides"
            );
        }
    }
}

/// The table of transitions stays small: the run computes a few hundred
/// writes with the general engine and looks the rest up.
#[test]
fn most_writes_are_looked_up() {
    let mut migration = crate::sim::migrate::Migration::new(&MigrateOptions {
        vms: 3000,
        ..MigrateOptions::default()
    })
    .unwrap();
    while !migration.advance(1000) {}
    let stats = migration.stats();
    let writes: u64 = migration
        .result()
        .presets
        .iter()
        .map(|p| p.total.writes)
        .sum();
    assert!(stats.transitions < 2000, "{stats:?}");
    assert!(stats.lookups > writes / 2, "{stats:?} {writes}");
}

/// A run with the writers of an earlier one starts with its tables (and
/// still gives the general path's numbers).
#[test]
fn a_second_run_with_the_same_writers_starts_warm() {
    let options = |seed| MigrateOptions {
        vms: 300,
        seed,
        churn: 2,
        retries: 3,
        ..MigrateOptions::default()
    };
    let mut warm = crate::sim::migrate::WarmTables::default();
    let mut first = crate::sim::migrate::Migration::warm(&options(21), &mut warm).unwrap();
    while !first.advance(usize::MAX) {}
    let learned = first.stats().transitions;
    first.keep(&mut warm);
    assert!(!warm.is_empty());
    let mut second = crate::sim::migrate::Migration::warm(&options(22), &mut warm).unwrap();
    assert!(second.stats().transitions >= learned, "warm from the start");
    while !second.advance(usize::MAX) {}
    assert_eq!(second.result(), migrate_reference(&options(22)).unwrap());
    // Other writers, other tables.
    let other = crate::sim::migrate::Migration::warm(
        &MigrateOptions {
            churn: 1,
            ..options(22)
        },
        &mut warm,
    )
    .unwrap();
    assert!(other.stats().transitions < learned);
    // A run that was not kept leaves nothing behind.
    let mut cold = crate::sim::migrate::WarmTables::default();
    drop(crate::sim::migrate::Migration::warm(&options(22), &mut cold).unwrap());
    assert!(cold.is_empty());
}
