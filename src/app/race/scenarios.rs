//! The shipped scenarios of the Race view (`www/scenarios/*.yaml`),
//! compiled in as JSON (`www/scenarios/scenarios.json`, written from the
//! YAML files by a test: `PATCHLAB_BLESS=1 cargo test --lib
//! race::scenarios`), so the Race module reads them without a YAML reader,
//! and without their claims, which only tests read (from the YAML files:
//! `tests/lessons.rs`).

use serde_json::Value;

use crate::sim::timeline::Scenario;

/// The scenarios as JSON: `[id, scenario]` pairs in menu order, without
/// their claims.
const COMPILED: &str = include_str!("../../../www/scenarios/scenarios.json");

/// The ids, in menu order (as in [`FILES`]).
const IDS: [&str; 10] = [
    "migration-race",
    "finalizer-race",
    "migration-state-first-write",
    "migration-state-guarded",
    "annotation-keys",
    "merge-patch-loses-finalizer",
    "ssa-conflict",
    "per-key-last-writer",
    "per-key-limits",
    "node-labeller",
];

/// The sources of [`COMPILED`].
#[cfg(test)]
const FILES: [(&str, &str); 10] = [
    (
        "migration-race",
        include_str!("../../../www/scenarios/migration-race.yaml"),
    ),
    (
        "finalizer-race",
        include_str!("../../../www/scenarios/finalizer-race.yaml"),
    ),
    (
        "migration-state-first-write",
        include_str!("../../../www/scenarios/migration-state-first-write.yaml"),
    ),
    (
        "migration-state-guarded",
        include_str!("../../../www/scenarios/migration-state-guarded.yaml"),
    ),
    (
        "annotation-keys",
        include_str!("../../../www/scenarios/annotation-keys.yaml"),
    ),
    (
        "merge-patch-loses-finalizer",
        include_str!("../../../www/scenarios/merge-patch-loses-finalizer.yaml"),
    ),
    (
        "ssa-conflict",
        include_str!("../../../www/scenarios/ssa-conflict.yaml"),
    ),
    (
        "per-key-last-writer",
        include_str!("../../../www/scenarios/per-key-last-writer.yaml"),
    ),
    (
        "per-key-limits",
        include_str!("../../../www/scenarios/per-key-limits.yaml"),
    ),
    (
        "node-labeller",
        include_str!("../../../www/scenarios/node-labeller.yaml"),
    ),
];

/// The scenario a first visit opens.
pub const FIRST_SCENARIO: &str = "migration-race";

/// The shipped scenarios, by id, in menu order (read and checked once; a
/// pair that does not read is left out, which the tests forbid).
pub fn library() -> &'static [(&'static str, Scenario)] {
    static LIBRARY: std::sync::OnceLock<Vec<(&'static str, Scenario)>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(|| {
        let pairs = match serde_json::from_str::<Value>(COMPILED) {
            Ok(Value::Array(pairs)) => pairs,
            _ => Vec::new(),
        };
        pairs
            .into_iter()
            .zip(IDS)
            .filter_map(|(pair, id)| {
                let Value::Array(mut pair) = pair else {
                    return None;
                };
                let scenario = pair.pop()?;
                (pair.first()?.as_str()? == id).then_some(())?;
                let scenario: Scenario = serde_json::from_value(scenario).ok()?;
                scenario.validate().ok()?;
                Some((id, scenario))
            })
            .collect()
    })
}

/// One shipped scenario.
pub fn scenario(id: &str) -> Option<&'static Scenario> {
    library().iter().find(|(i, _)| *i == id).map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_scenarios_are_the_yaml_files() {
        let scenarios: Vec<(&str, Value)> =
            crate::app::bundled::yaml_files("scenarios", &FILES, &IDS)
                .into_iter()
                .map(|(id, mut value)| {
                    value
                        .as_object_mut()
                        .map(|scenario| scenario.remove("claims"));
                    (id, value)
                })
                .collect();
        crate::app::bundled::shipped_compact_json_is(
            "www/scenarios/scenarios.json",
            COMPILED,
            &scenarios,
            "the YAML files without their claims",
            "race::scenarios",
        );
    }

    /// Every file reads as a scenario, the same one through the compiled
    /// JSON as through its YAML text (`Scenario::parse`, what the CLI
    /// reads), but for the claims.
    #[test]
    fn every_file_is_a_scenario() {
        assert_eq!(library().len(), FILES.len());
        for ((id, text), (compiled_id, compiled)) in FILES.iter().zip(library()) {
            assert_eq!(id, compiled_id);
            let parsed = Scenario::parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(!parsed.claims.is_empty(), "{id} claims what it shows");
            assert!(compiled.claims.is_empty());
            let parsed = Scenario {
                claims: Default::default(),
                ..parsed
            };
            assert_eq!(&parsed, compiled, "{id}");
        }
    }
}
