//! The interleaving explorer: every order of a small scenario's events that
//! keeps each writer's own order, replayed under each preset.

use serde::{Deserialize, Serialize};

use super::outcome::NotHeld;
use super::story::Story;
use super::timeline::{
    ConflictKind, Event, EventKind, IntentVerdict, Scenario, ScenarioError, World,
};
use crate::strategy::Preset;

/// The explorer handles at most this many writers (the number of orders
/// grows as a multinomial of the events per writer)...
pub const EXPLORE_WRITERS: usize = 3;
/// ...and this many events.
pub const EXPLORE_EVENTS: usize = 8;

/// One outcome over every interleaving: in how many it happens, whose it
/// is, and where it first shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreCell {
    /// Interleavings where it happens at least once.
    pub count: usize,
    /// Per writer: interleavings where it happens to that writer (the
    /// writer that failed, whose change was lost, that was never retried,
    /// whose intent does not hold), in scenario order; writers it never
    /// happens to are left out.
    pub writers: Vec<(String, usize)>,
    /// The first interleaving where it happens (an index into
    /// [`Exploration::interleavings`]) ...
    pub first: Option<usize>,
    /// ... and how many events of it have happened when it shows (the
    /// step to open the Race view at: the failing or erasing write, or the
    /// end for an intent that does not hold).
    pub first_step: Option<usize>,
}

impl ExploreCell {
    /// Whose it is, in words: `virt-handler 3, migration-controller 1`.
    pub fn whose(&self) -> String {
        self.writers
            .iter()
            .map(|(name, k)| format!("{name} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn mark(&mut self, interleaving: usize, step: usize, writers: &[bool], names: &[String]) {
        if !writers.iter().any(|w| *w) {
            return;
        }
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(interleaving);
            self.first_step = Some(step);
        }
        for (w, hit) in writers.iter().enumerate() {
            if !*hit {
                continue;
            }
            match self.writers.iter_mut().find(|(name, _)| *name == names[w]) {
                Some((_, n)) => *n += 1,
                None => self.writers.push((names[w].clone(), 1)),
            }
        }
        crate::sort::sort_by_key(&mut self.writers, |(name, _)| {
            names.iter().position(|n| n == name)
        });
    }
}

/// Counts for one preset over every interleaving.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreRow {
    /// The preset every writer uses (fixed writers keep their own).
    pub preset: Preset,
    /// Interleavings replayed.
    pub interleavings: usize,
    /// Some write got a 422 or a 409.
    pub failed: ExploreCell,
    /// Some write failed although its request, forced, would have undone
    /// no change another writer made since its read
    /// ([`Term::FalseConflict`](crate::vocabulary::Term::FalseConflict)).
    pub false_conflicts: ExploreCell,
    /// Some write failed although its writer's intent, done afresh on the
    /// object as it stood, would have undone no change another writer made
    /// since its read
    /// ([`Term::NeedlessFailure`](crate::vocabulary::Term::NeedlessFailure)).
    #[serde(default)]
    pub needless_failures: ExploreCell,
    /// A write erased a change another writer made after its read
    /// ([`Term::LostUpdate`](crate::vocabulary::Term::LostUpdate)).
    pub lost_updates: ExploreCell,
    /// At the end, some writer's last write had failed and no retry was
    /// scheduled after it, so its intent does not hold
    /// ([`Term::NotRetried`](crate::vocabulary::Term::NotRetried)): the
    /// scenario stops before the writer would requeue.
    pub never_retried: ExploreCell,
    /// At the end, some writer's intent does not hold for another reason
    /// than [`ExploreRow::never_retried`]: it gave up, never wrote, its
    /// change was erased or overwritten, or its write did not make it.
    pub intent_not_held: ExploreCell,
    /// What happened in each interleaving (in the order of
    /// [`Exploration::interleavings`]), told from its own facts.
    pub stories: Vec<Story>,
}

/// The explorer's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploration {
    /// The scenario's name.
    pub scenario: String,
    /// The writers with no retry in the schedule: in every interleaving, a
    /// failed write of theirs stays failed.
    pub without_retry: Vec<String>,
    /// Every interleaving, as a schedule.
    pub interleavings: Vec<Vec<Event>>,
    /// One row per preset.
    pub presets: Vec<ExploreRow>,
}

impl Exploration {
    /// What happened in interleaving `index` under `preset`: the story a
    /// replayed interleaving is told by (`None` for a preset not explored or
    /// an index past the end).
    pub fn story(&self, preset: Preset, index: usize) -> Option<&Story> {
        self.presets
            .iter()
            .find(|row| row.preset == preset)?
            .stories
            .get(index)
    }
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
/// [`EXPLORE_WRITERS`] writers or [`EXPLORE_EVENTS`] events.
pub fn explore(scenario: &Scenario, presets: &[Preset]) -> Result<Exploration, ScenarioError> {
    scenario.validate()?;
    let writers = scenario.writers.len();
    if writers > EXPLORE_WRITERS || scenario.schedule.len() > EXPLORE_EVENTS {
        return Err(ScenarioError::TooBigToExplore {
            writers,
            events: scenario.schedule.len(),
            max_writers: EXPLORE_WRITERS,
            max_events: EXPLORE_EVENTS,
        });
    }
    let orders = interleavings(scenario);
    let presets = if presets.is_empty() {
        Preset::ALL.to_vec()
    } else {
        presets.to_vec()
    };
    let names: Vec<String> = scenario.writers.iter().map(|w| w.name.clone()).collect();
    let mut rows = Vec::with_capacity(presets.len());
    for preset in presets {
        rows.push(explore_preset(scenario, preset, &orders, &names)?);
    }
    let without_retry = scenario
        .writers
        .iter()
        .filter(|w| {
            !scenario
                .schedule
                .iter()
                .any(|e| e.kind() == EventKind::Retry && e.writer() == w.name)
        })
        .map(|w| w.name.clone())
        .collect();
    Ok(Exploration {
        scenario: scenario.name.clone(),
        without_retry,
        interleavings: orders,
        presets: rows,
    })
}

/// The row of one preset: every interleaving replayed in a fresh world.
fn explore_preset(
    scenario: &Scenario,
    preset: Preset,
    orders: &[Vec<Event>],
    names: &[String],
) -> Result<ExploreRow, ScenarioError> {
    let mut row = ExploreRow {
        preset,
        interleavings: orders.len(),
        failed: ExploreCell::default(),
        false_conflicts: ExploreCell::default(),
        needless_failures: ExploreCell::default(),
        lost_updates: ExploreCell::default(),
        never_retried: ExploreCell::default(),
        intent_not_held: ExploreCell::default(),
        stories: Vec::with_capacity(orders.len()),
    };
    let options = scenario.quiet_writer_options(Some(preset))?;
    for (i, order) in orders.iter().enumerate() {
        let world = World::prepared(
            scenario,
            Some(preset),
            std::borrow::Cow::Borrowed(&options),
            false,
        );
        row.replay(i, order, world, names);
    }
    Ok(row)
}

impl ExploreRow {
    /// Replays interleaving `i` in `world`, marks in each cell the writers
    /// it happened to (and after how many events first), and keeps its
    /// story.
    fn replay(&mut self, i: usize, order: &[Event], mut world: World<'_>, names: &[String]) {
        // Per writer: did it happen, and after how many events first.
        let writers = names.len();
        let mut failed = vec![false; writers];
        let mut false_conflict = vec![false; writers];
        let mut needless = vec![false; writers];
        let mut lost = vec![false; writers];
        let (mut failed_at, mut false_at, mut needless_at, mut lost_at) = (None, None, None, None);
        let mut story = Story::default();
        for (index, event) in order.iter().enumerate() {
            let outcome = world.step_outcome(index, event);
            story.record(
                index,
                &names[outcome.writer],
                outcome.code.map(|code| (code, outcome.ok)),
                (outcome.conflict, outcome.intent),
                outcome.kept.iter().map(|k| names[*k].clone()).collect(),
                outcome.lost.iter().map(|v| names[*v].clone()).collect(),
            );
            if matches!(outcome.code, Some(409 | 422)) {
                failed[outcome.writer] = true;
                failed_at.get_or_insert(index + 1);
            }
            if outcome.conflict == Some(ConflictKind::False) {
                false_conflict[outcome.writer] = true;
                false_at.get_or_insert(index + 1);
            }
            if outcome.intent == Some(IntentVerdict::Needless) {
                needless[outcome.writer] = true;
                needless_at.get_or_insert(index + 1);
            }
            for victim in outcome.lost {
                lost[victim] = true;
                lost_at.get_or_insert(index + 1);
            }
        }
        world.finish();
        story.end(&world.outcomes);
        let never_retried: Vec<bool> = world
            .outcomes
            .writers
            .iter()
            .map(|w| matches!(w.not_held, Some(NotHeld::NotRetried { .. })))
            .collect();
        let not_held: Vec<bool> = world
            .outcomes
            .writers
            .iter()
            .map(|w| w.not_held.is_some())
            .zip(&never_retried)
            .map(|(not_held, never)| not_held && !never)
            .collect();
        let end = order.len();
        self.failed
            .mark(i, failed_at.unwrap_or(end), &failed, names);
        self.false_conflicts
            .mark(i, false_at.unwrap_or(end), &false_conflict, names);
        self.needless_failures
            .mark(i, needless_at.unwrap_or(end), &needless, names);
        self.lost_updates
            .mark(i, lost_at.unwrap_or(end), &lost, names);
        self.never_retried.mark(i, end, &never_retried, names);
        self.intent_not_held.mark(i, end, &not_held, names);
        self.stories.push(story);
    }
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
        // virt-controller and virt-handler: read, write, retry each.
        let orders = interleavings(&scenario);
        assert_eq!(orders.len(), 20, "6! / (3! 3!)");
        for order in &orders {
            let kinds: Vec<EventKind> = order
                .iter()
                .filter(|e| e.writer() == "virt-controller")
                .map(Event::kind)
                .collect();
            assert_eq!(kinds, EventKind::ALL);
        }
        let mut unique = orders.clone();
        unique.dedup();
        assert_eq!(unique.len(), 20);
    }

    #[test]
    fn per_key_never_fails_for_nothing_whole_map_does() {
        let result = explore(
            &race(),
            &[Preset::KubevirtMain, Preset::KubevirtPerKey, Preset::Naive],
        )
        .unwrap();
        let [head, per_key, naive] = &result.presets[..] else {
            panic!("three rows");
        };
        // The controller's whole-map test fails for nothing its intent
        // touches in some orders (a needless failure, though its request,
        // forced, would have erased virt-handler's labels: a true
        // conflict); per-key ops never fail so.
        let whose = |cell: &ExploreCell| -> Vec<String> {
            cell.writers.iter().map(|(w, _)| w.clone()).collect()
        };
        assert!(whose(&head.needless_failures).contains(&"virt-controller".to_owned()));
        assert!(!whose(&per_key.needless_failures).contains(&"virt-controller".to_owned()));
        assert_eq!(head.false_conflicts.count, 0, "{head:?}");
        assert!(naive.lost_updates.count > 0, "{naive:?}");
        // Every writer retries once: with a test (head) or per-key ops, every
        // interleaving ends with every intent holding; without tests, some
        // end with virt-handler's changes erased, and the cell says whose.
        assert_eq!(head.intent_not_held.count, 0, "{head:?}");
        assert_eq!(per_key.intent_not_held.count, 0, "{per_key:?}");
        assert!(naive.intent_not_held.count > 0);
        assert_eq!(whose(&naive.lost_updates), ["virt-handler"]);
        // Under per-key, the only needless failures left are virt-handler's
        // Update() getting 409 when the controller wrote first: true
        // conflicts of the request (the stale object would undo the
        // controller's changes).
        let first = per_key.needless_failures.first.unwrap();
        let replayed = super::super::timeline::replay(
            &Scenario {
                schedule: result.interleavings[first].clone(),
                ..race()
            },
            Some(Preset::KubevirtPerKey),
        )
        .unwrap();
        let handler = &replayed.outcomes.writers[1].counts;
        assert_eq!(
            (
                handler.conflict,
                handler.true_conflicts,
                handler.needless_failures
            ),
            (1, 1, 1)
        );
        assert_eq!(replayed.outcomes.writers[0].counts.needless_failures, 0);
    }

    /// The finalizer race with the backup controller's retry taken out.
    fn finalizer_race_without_backup_retry() -> Scenario {
        let mut scenario =
            Scenario::parse(include_str!("../../www/scenarios/finalizer-race.yaml")).unwrap();
        scenario
            .schedule
            .retain(|e| !(e.kind() == EventKind::Retry && e.writer() == "backup-controller"));
        scenario
    }

    #[test]
    fn a_writer_never_retried_is_counted_apart_and_named() {
        let scenario = finalizer_race_without_backup_retry();
        let result = explore(&scenario, &[Preset::KubevirtMain]).unwrap();
        assert_eq!(result.without_retry, ["backup-controller"]);
        let row = &result.presets[0];
        // Where the VM controller writes first, the backup controller's
        // test of the whole list fails and nothing retries it: never
        // retried, not an intent that "does not hold" for another reason.
        assert!(row.never_retried.count > 0, "{row:?}");
        assert_eq!(
            row.never_retried
                .writers
                .iter()
                .map(|(w, _)| w.as_str())
                .collect::<Vec<_>>(),
            ["backup-controller"]
        );
        assert_eq!(row.intent_not_held.count, 0, "{row:?}");
        let first = row.never_retried.first.unwrap();
        let story = result
            .story(Preset::KubevirtMain, first)
            .unwrap()
            .describe();
        assert!(result.story(Preset::Naive, first).is_none());
        assert!(
            story.last().unwrap().contains(
                "backup-controller's intent does not hold: its last write got 422 and no retry was scheduled"
            ),
            "{story:?}"
        );
        // With its retry scheduled, every order ends with both intents.
        let scenario =
            Scenario::parse(include_str!("../../www/scenarios/finalizer-race.yaml")).unwrap();
        let result = explore(&scenario, &[Preset::KubevirtMain]).unwrap();
        assert!(result.without_retry.is_empty());
        let row = &result.presets[0];
        assert_eq!((row.never_retried.count, row.intent_not_held.count), (0, 0));
    }

    #[test]
    fn each_interleaving_is_told_by_its_own_replay() {
        for scenario in [race(), finalizer_race_without_backup_retry()] {
            let presets = [Preset::KubevirtMain, Preset::Naive, Preset::Ssa];
            let result = explore(&scenario, &presets).unwrap();
            for row in &result.presets {
                assert_eq!(row.stories.len(), result.interleavings.len());
                for (order, story) in result.interleavings.iter().zip(&row.stories) {
                    let replayed = super::super::timeline::replay(
                        &Scenario {
                            schedule: order.clone(),
                            ..scenario.clone()
                        },
                        Some(row.preset),
                    )
                    .unwrap();
                    assert_eq!(*story, Story::of_replay(&replayed), "{order:?}");
                }
            }
        }
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
