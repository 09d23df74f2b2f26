//! The shipped scenarios of the Race view (`www/scenarios/*.yaml`).

use crate::sim::timeline::Scenario;

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

/// The shipped scenarios, by id, in menu order (parsed once).
pub fn library() -> &'static [(&'static str, Scenario)] {
    static LIBRARY: std::sync::OnceLock<Vec<(&'static str, Scenario)>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|(id, text)| Scenario::parse(text).ok().map(|s| (*id, s)))
            .collect()
    })
}

/// One shipped scenario.
pub fn scenario(id: &str) -> Option<&'static Scenario> {
    library().iter().find(|(i, _)| *i == id).map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_file_is_a_scenario() {
        assert_eq!(super::library().len(), super::FILES.len());
    }
}
