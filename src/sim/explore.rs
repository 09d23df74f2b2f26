//! The interleaving explorer: every order of a small scenario's events that
//! keeps each writer's own order, replayed under each preset.

use serde::Serialize;

use super::timeline::{Engine, Event, Scenario, ScenarioError};
use crate::strategy::Preset;

/// The explorer handles at most this many writers...
pub const MAX_WRITERS: usize = 3;
/// ...and this many events.
pub const MAX_EVENTS: usize = 8;

/// Counts for one preset over every interleaving.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ExploreRow {
    /// The preset (fixed writers keep their own).
    pub preset: String,
    /// Interleavings replayed.
    pub interleavings: usize,
    /// Interleavings where some write got a 422 or 409.
    pub failed: usize,
    /// Interleavings with at least one false conflict.
    pub false_conflicts: usize,
    /// Interleavings with at least one lost update.
    pub lost_updates: usize,
    /// Interleavings that end with some writer's intent not holding.
    pub unconverged: usize,
    /// The first interleaving (index into [`Exploration::interleavings`])
    /// of each kind, to open in the Race view.
    pub first_failed: Option<usize>,
    /// See `first_failed`.
    pub first_false_conflict: Option<usize>,
    /// See `first_failed`.
    pub first_lost_update: Option<usize>,
    /// See `first_failed`.
    pub first_unconverged: Option<usize>,
}

/// The explorer's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exploration {
    /// The scenario's name.
    pub scenario: String,
    /// Every interleaving, as a schedule.
    pub interleavings: Vec<Vec<Event>>,
    /// One row per preset.
    pub presets: Vec<ExploreRow>,
}

/// Every interleaving of per-writer event sequences that keeps each
/// writer's order (a multiset permutation), in lexicographic order of the
/// writers chosen.
pub fn interleavings(scenario: &Scenario) -> Vec<Vec<Event>> {
    let writers: Vec<&str> = {
        let mut seen = Vec::new();
        for event in &scenario.schedule {
            if !seen.contains(&event.writer()) {
                seen.push(event.writer());
            }
        }
        seen
    };
    let queues: Vec<Vec<&Event>> = writers
        .iter()
        .map(|w| {
            scenario
                .schedule
                .iter()
                .filter(|e| e.writer() == *w)
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    let mut positions = vec![0usize; queues.len()];
    let mut current = Vec::with_capacity(scenario.schedule.len());
    fill(&queues, &mut positions, &mut current, &mut out);
    out
}

fn fill(
    queues: &[Vec<&Event>],
    positions: &mut [usize],
    current: &mut Vec<Event>,
    out: &mut Vec<Vec<Event>>,
) {
    let mut any = false;
    for w in 0..queues.len() {
        if positions[w] < queues[w].len() {
            any = true;
            current.push(queues[w][positions[w]].clone());
            positions[w] += 1;
            fill(queues, positions, current, out);
            positions[w] -= 1;
            current.pop();
        }
    }
    if !any {
        out.push(current.clone());
    }
}

/// Replays every interleaving of `scenario` under each preset (all when
/// `presets` is empty).
///
/// # Errors
///
/// [`ScenarioError`] when the scenario is invalid or larger than
/// [`MAX_WRITERS`] writers or [`MAX_EVENTS`] events.
pub fn explore(scenario: &Scenario, presets: &[Preset]) -> Result<Exploration, ScenarioError> {
    scenario.validate()?;
    let writers = scenario.writers.len();
    if writers > MAX_WRITERS || scenario.schedule.len() > MAX_EVENTS {
        return Err(ScenarioError(format!(
            "the explorer takes at most {MAX_WRITERS} writers and {MAX_EVENTS} events; this scenario has {writers} and {}",
            scenario.schedule.len()
        )));
    }
    let orders = interleavings(scenario);
    let presets = if presets.is_empty() {
        Preset::ALL.to_vec()
    } else {
        presets.to_vec()
    };
    let mut rows = Vec::with_capacity(presets.len());
    for preset in presets {
        let mut row = ExploreRow {
            preset: preset.to_string(),
            interleavings: orders.len(),
            ..ExploreRow::default()
        };
        let options = scenario
            .writers
            .iter()
            .map(|w| {
                w.options(Some(preset)).map(|mut o| {
                    o.explain = false;
                    o
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(ScenarioError)?;
        for (i, order) in orders.iter().enumerate() {
            let mut engine = Engine::prepared(
                scenario,
                Some(preset),
                std::borrow::Cow::Borrowed(&options),
                false,
            );
            for (index, event) in order.iter().enumerate() {
                engine.step(index, event);
            }
            engine.finish();
            let o = &engine.outcomes;
            let mark = |count: &mut usize, first: &mut Option<usize>, hit: bool| {
                if hit {
                    *count += 1;
                    first.get_or_insert(i);
                }
            };
            mark(
                &mut row.failed,
                &mut row.first_failed,
                o.writers.iter().any(|w| w.status_422 + w.status_409 > 0),
            );
            mark(
                &mut row.false_conflicts,
                &mut row.first_false_conflict,
                o.writers.iter().any(|w| w.false_conflicts > 0),
            );
            mark(
                &mut row.lost_updates,
                &mut row.first_lost_update,
                !o.lost_updates.is_empty(),
            );
            mark(
                &mut row.unconverged,
                &mut row.first_unconverged,
                !o.converged,
            );
        }
        rows.push(row);
    }
    Ok(Exploration {
        scenario: scenario.name.clone(),
        interleavings: orders,
        presets: rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race() -> Scenario {
        let text = include_str!("../../www/scenarios/migration-race.yaml");
        Scenario::parse(text).unwrap()
    }

    #[test]
    fn counts_every_order_that_keeps_each_writers_own() {
        let scenario = race();
        // virt-controller: read, write, retry; virt-handler: read, write.
        let orders = interleavings(&scenario);
        assert_eq!(orders.len(), 10, "5! / (3! 2!)");
        for order in &orders {
            let kinds: Vec<&str> = order
                .iter()
                .filter(|e| e.writer() == "virt-controller")
                .map(Event::kind)
                .collect();
            assert_eq!(kinds, ["read", "write", "retry"]);
        }
        let mut unique = orders.clone();
        unique.dedup();
        assert_eq!(unique.len(), 10);
    }

    #[test]
    fn per_key_never_fails_for_nothing_whole_map_does() {
        let result = explore(
            &race(),
            &[Preset::KubevirtHead, Preset::KubevirtPr18139, Preset::Naive],
        )
        .unwrap();
        let [head, per_key, naive] = &result.presets[..] else {
            panic!("three rows");
        };
        assert!(
            head.false_conflicts > per_key.false_conflicts,
            "{head:?} {per_key:?}"
        );
        assert!(naive.lost_updates > 0, "{naive:?}");
        // Under per-key, the only false conflicts left are virt-handler's
        // Update() getting 409 when the controller wrote first.
        let first = per_key.first_false_conflict.unwrap();
        let replayed = super::super::timeline::replay(
            &Scenario {
                schedule: result.interleavings[first].clone(),
                ..race()
            },
            Some(Preset::KubevirtPr18139),
        )
        .unwrap();
        let controller = &replayed.outcomes.writers[0];
        assert_eq!(
            (controller.name.as_str(), controller.false_conflicts),
            ("virt-controller", 0)
        );
        assert_eq!(replayed.outcomes.writers[1].status_409, 1);
        let first = head.first_false_conflict.unwrap();
        let replayed = super::super::timeline::replay(
            &Scenario {
                schedule: result.interleavings[first].clone(),
                ..race()
            },
            Some(Preset::KubevirtHead),
        )
        .unwrap();
        assert!(replayed
            .outcomes
            .writers
            .iter()
            .any(|w| w.false_conflicts > 0));
    }

    #[test]
    fn refuses_large_scenarios() {
        let mut scenario = race();
        for _ in 0..4 {
            scenario
                .schedule
                .push(Event::Retry("virt-controller".into()));
        }
        assert!(explore(&scenario, &[])
            .unwrap_err()
            .to_string()
            .contains("at most 3 writers and 8 events"));
    }
}
