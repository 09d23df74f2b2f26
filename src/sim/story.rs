//! The story of one replay in a few facts: which writes failed and how
//! each is classed, which writes erased changes their writer had not read,
//! and where each writer ended and why its intent does not hold. The
//! explorer keeps one per interleaving and preset, so a replayed
//! interleaving is told by what happened in that order, not by the
//! scenario's description (written for the scenario's own schedule).
//!
//! ```
//! use patchlab::sim::story::Story;
//! use patchlab::sim::timeline::{replay, Scenario};
//! use patchlab::strategy::Preset;
//!
//! let scenario = Scenario::parse(include_str!("../../www/scenarios/migration-race.yaml")).unwrap();
//! let story = Story::of_replay(&replay(&scenario, Some(Preset::KubevirtMain)).unwrap());
//! assert_eq!(
//!     story.describe()[0],
//!     "Step 4: virt-controller's write gets 422, a true conflict: the failure kept virt-handler's change; judged on its intent, a needless failure."
//! );
//! ```

use serde::{Deserialize, Serialize};

use super::outcome::{ConflictKind, IntentVerdict, NotHeld, Outcomes, WriterEnd};
use super::timeline::Replay;

/// What happened in one replay, in order, and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Story {
    /// The failed writes and the lost updates, in the order they happened.
    pub happenings: Vec<Happening>,
    /// Per writer, in scenario order: where it ended and, when its intent
    /// does not hold, why.
    pub writers: Vec<WriterStory>,
}

/// A step worth telling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "kebab-case")]
pub enum Happening {
    /// A write failed.
    Failed {
        /// The step (zero-based event index).
        step: usize,
        /// The writer.
        writer: String,
        /// The status.
        code: u16,
        /// For a 422 or 409: false or true conflict (on the request).
        conflict: Option<ConflictKind>,
        /// For a true conflict: whose changes the failure kept.
        kept: Vec<String>,
        /// For a 422 or 409: needless failure or clashing intent (on the
        /// intent).
        #[serde(default)]
        intent: Option<IntentVerdict>,
    },
    /// A successful write erased changes of others that its writer had not
    /// read: lost updates.
    Erased {
        /// The step (zero-based event index).
        step: usize,
        /// The writer whose write erased them.
        writer: String,
        /// Whose changes, one entry per change lost.
        victims: Vec<String>,
    },
}

/// Where one writer ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriterStory {
    /// The writer.
    pub name: String,
    /// Where its writing stood at the end.
    pub end: WriterEnd,
    /// Why its intent does not hold (`None` when it holds).
    pub not_held: Option<NotHeld>,
}

impl Story {
    /// The story of a recorded replay.
    pub fn of_replay(replay: &Replay) -> Story {
        let mut story = Story::default();
        for step in &replay.steps {
            story.record(
                step.index,
                &step.writer,
                step.response.as_ref().map(|r| (r.code, r.is_success())),
                (step.conflict, step.intent),
                step.kept.iter().map(|k| k.writer.clone()).collect(),
                step.lost.iter().map(|l| l.victim.clone()).collect(),
            );
        }
        story.end(&replay.outcomes);
        story
    }

    /// Notes step `step` of `writer`: its answer (status, success), its
    /// classes (on the request, on the intent), whose changes a failure
    /// kept, whose a success erased.
    pub(crate) fn record(
        &mut self,
        step: usize,
        writer: &str,
        answer: Option<(u16, bool)>,
        (conflict, intent): (Option<ConflictKind>, Option<IntentVerdict>),
        kept: Vec<String>,
        victims: Vec<String>,
    ) {
        match answer {
            Some((code, false)) => self.happenings.push(Happening::Failed {
                step,
                writer: writer.to_owned(),
                code,
                conflict,
                kept,
                intent,
            }),
            Some((_, true)) if !victims.is_empty() => self.happenings.push(Happening::Erased {
                step,
                writer: writer.to_owned(),
                victims,
            }),
            _ => {}
        }
    }

    /// Notes where every writer ended.
    pub(crate) fn end(&mut self, outcomes: &Outcomes) {
        self.writers = outcomes
            .writers
            .iter()
            .map(|w| WriterStory {
                name: w.name.clone(),
                end: w.end,
                not_held: w.not_held.clone(),
            })
            .collect();
    }

    /// The story in sentences, the vocabulary's words used as defined
    /// (steps counted from 1, as the Race view's step buttons are).
    pub fn describe(&self) -> Vec<String> {
        let mut out: Vec<String> = self.happenings.iter().map(Happening::describe).collect();
        let not_held: Vec<String> = self
            .writers
            .iter()
            .filter_map(|w| w.not_held.as_ref().map(|why| why.describe(&w.name)))
            .collect();
        if not_held.is_empty() {
            out.push("At the end, every writer's intent holds.".to_owned());
        } else {
            out.extend(not_held.into_iter().map(|s| format!("At the end, {s}.")));
        }
        out
    }
}

impl Happening {
    /// In one sentence.
    pub fn describe(&self) -> String {
        match self {
            Happening::Failed {
                step,
                writer,
                code,
                conflict,
                kept,
                intent,
            } => {
                let mut class = match conflict {
                    Some(ConflictKind::False) => ", a false conflict".to_owned(),
                    Some(ConflictKind::True) => format!(
                        ", a true conflict: the failure kept {}",
                        names(kept, "'s change")
                    ),
                    None => String::new(),
                };
                match (conflict, intent) {
                    (Some(kind), Some(intent)) if !intent.agrees(*kind) => {
                        class.push_str("; judged on its intent, a ");
                        class.push_str(&intent.word().to_lowercase());
                    }
                    _ => {}
                }
                format!("Step {}: {writer}'s write gets {code}{class}.", step + 1)
            }
            Happening::Erased {
                step,
                writer,
                victims,
            } => {
                let n = victims.len();
                let changes = if n == 1 {
                    format!("a change of {}'s", victims[0])
                } else {
                    format!("{n} changes ({})", names(victims, "'s"))
                };
                let verdict = if n == 1 {
                    "a lost update".to_owned()
                } else {
                    format!("{n} lost updates")
                };
                format!(
                    "Step {}: {writer}'s write erases {changes} it had not read: {verdict}.",
                    step + 1
                )
            }
        }
    }
}

/// `a's and b's`: each distinct name once, in order, with `suffix`.
fn names(list: &[String], suffix: &str) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for name in list {
        if !seen.contains(&name.as_str()) {
            seen.push(name);
        }
    }
    seen.iter()
        .map(|n| format!("{n}{suffix}"))
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::timeline::{replay, Scenario};
    use crate::strategy::Preset;

    fn scenario(text: &str) -> Scenario {
        Scenario::parse(text).unwrap()
    }

    #[test]
    fn tells_failures_erasures_and_ends_in_the_vocabulary() {
        let race = scenario(include_str!("../../www/scenarios/migration-race.yaml"));
        let naive = Story::of_replay(&replay(&race, Some(Preset::Naive)).unwrap());
        assert_eq!(
            naive.describe(),
            [
                "Step 4: virt-controller's write erases 2 changes (virt-handler's) it had not read: 2 lost updates.",
                "At the end, virt-handler's intent does not hold: virt-controller's write erased its change (remove label kubevirt.io/outdatedLauncherImage) without having read it: a lost update.",
            ]
        );
        let limits = scenario(include_str!("../../www/scenarios/per-key-limits.yaml"));
        let own = Story::of_replay(&replay(&limits, None).unwrap());
        assert_eq!(
            own.describe()[0],
            "Step 4: team-blue's write gets 422, a true conflict: the failure kept team-red's change."
        );
        assert!(
            own.describe()[1].contains("a deliberate overwrite"),
            "{:?}",
            own.describe()
        );
    }
}
