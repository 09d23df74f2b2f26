//! What each step's live card shows: computed by the real engines
//! ([`compute`]: Build's columns, a Race replay) and shipped computed, in
//! `www/learn/live.json`, which the test
//! `the_shipped_live_cards_are_what_the_engines_compute` keeps equal to
//! [`compute`] (`PATCHLAB_BLESS=1 cargo test --lib learn::` rewrites it
//! after a change to a lesson, an example, a scenario or an engine).
//!
//! A step's content never changes at run time (a lesson cannot be edited),
//! so the Learn view needs none of the engines: its module (`learn` binary,
//! docs/performance.md) carries the texts and these cards only, and a
//! lesson link shows its step without downloading the engines.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One step's live card and the route its button opens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepLive {
    /// The fragment of "Open in Build/Race/Scale" (none if the step opens
    /// nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// The card.
    pub live: Live,
}

/// A live card.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Live {
    /// Build's result columns.
    Columns {
        /// Each column, in order.
        columns: Vec<LiveColumn>,
    },
    /// A Race step.
    Race(LiveRace),
    /// The Scale view, run on open.
    Scale {
        /// With this many VMIs.
        vms: usize,
    },
    /// The state could not be computed.
    Unavailable {
        /// Why, as the card says it.
        why: String,
    },
    /// The step shows nothing live.
    #[default]
    Nothing,
}

/// One op, as a line: `add /metadata/labels/a`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveOp {
    /// `add`, `test`, ...
    pub op: String,
    /// Its path.
    pub path: String,
}

/// One Build column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveColumn {
    /// The preset, with " + overrides" when the column has some.
    pub title: String,
    /// The preset's summary.
    pub summary: String,
    /// The ops (JSON Patch columns).
    pub ops: Vec<LiveOp>,
    /// What is sent, when the column sends no ops (a merge patch, an
    /// apply configuration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<String>,
}

/// One Race step, with what the lesson shows of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveRace {
    /// "Migration race at step 4 of 6".
    pub title: String,
    /// The step on screen (none before the first event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<RaceMoment>,
    /// Every writer's outcome at the end, one line each (if shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<String>>,
}

/// What one Race step shows (each part only if the lesson shows it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceMoment {
    /// What happened.
    pub summary: String,
    /// The ops sent (if shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<Vec<LiveOp>>,
    /// What was sent, when it has no ops (a merge patch, an update).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub describe: Option<String>,
    /// The status line, and whether it is a success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<(bool, String)>,
    /// Why it failed (patchlab's explanation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// The object after the step, as YAML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

const SHIPPED: &str = include_str!("../../../www/learn/live.json");

/// The shipped cards, by walkthrough id and step (from 0); read once. A
/// file that does not read gives no cards (the test checks it reads).
pub fn shipped() -> &'static BTreeMap<String, Vec<StepLive>> {
    static ALL: std::sync::OnceLock<BTreeMap<String, Vec<StepLive>>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| serde_json::from_str(SHIPPED).unwrap_or_default())
}

/// The shipped card of step `n` (from 1) of a walkthrough.
pub fn card(walkthrough: &str, n: usize) -> Option<&'static StepLive> {
    shipped().get(walkthrough)?.get(n.checked_sub(1)?)
}

/// A step's card, computed by the engines (what `www/learn/live.json`
/// holds). In the tests only: the playground reads the shipped cards.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub fn compute(step: &super::LessonStep) -> StepLive {
    use crate::app::build::BuildState;
    use crate::app::race::RaceState;

    let open = &step.open;
    let href = open.route().map(|route| route.to_fragment());
    let live = if let Some(state) = open.build_link().map(BuildState::computed) {
        Live::Columns {
            columns: state
                .results
                .columns
                .iter()
                .zip(&state.columns)
                .map(|(result, column)| LiveColumn {
                    title: column.label(),
                    summary: column.label_summary(),
                    ops: result
                        .ops
                        .iter()
                        .map(|op| LiveOp {
                            op: op.op.clone(),
                            path: op.path.clone(),
                        })
                        .collect(),
                    payload: result.ops.is_empty().then(|| {
                        result
                            .texts
                            .as_ref()
                            .map(|t| t.payload.to_string())
                            .unwrap_or_default()
                    }),
                })
                .collect(),
        }
    } else if let Some(link) = open.race_link() {
        match RaceState::open(link) {
            Ok(state) => Live::Race(race(&state.replayed_here(), &open.show)),
            Err(why) => Live::Unavailable {
                why: format!("This step's race cannot be shown: {why}."),
            },
        }
    } else if let Some(link) = open.scale_link() {
        Live::Scale { vms: link.vms }
    } else {
        Live::Nothing
    };
    StepLive { href, live }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
fn race(state: &crate::app::race::RaceState, show: &[super::Aspect]) -> LiveRace {
    use super::Aspect;

    let shows = |a: Aspect| show.contains(&a);
    let current = state.current().map(|current| {
        let sent = current.request.as_ref().filter(|_| shows(Aspect::Request));
        RaceMoment {
            summary: current.summary.clone(),
            sent: sent.map(|sent| {
                sent.ops
                    .iter()
                    .map(|op| LiveOp {
                        op: op.op.clone(),
                        path: op.path.clone(),
                    })
                    .collect()
            }),
            describe: sent
                .filter(|sent| sent.ops.is_empty())
                .map(|sent| format!("{} ({})", sent.kind.describe(0), sent.content_type)),
            response: current
                .response
                .as_ref()
                .filter(|_| shows(Aspect::Response))
                .map(|response| {
                    let text = if response.is_success() {
                        format!("{} OK", response.code)
                    } else {
                        format!(
                            "{} {}: {}",
                            response.code, response.reason, response.message
                        )
                    };
                    (response.is_success(), text)
                }),
            cause: current
                .response
                .as_ref()
                .and_then(|r| r.cause.as_ref())
                .filter(|_| shows(Aspect::Cause))
                .map(|cause| cause.message.clone()),
            object: shows(Aspect::Object).then(|| crate::input::to_yaml(&current.object)),
        }
    });
    let outcomes = state
        .replay()
        .and_then(|replay| replay.as_ref().ok())
        .filter(|_| shows(Aspect::Outcomes))
        .map(|replay| {
            replay
                .outcomes
                .writers
                .iter()
                .map(|w| {
                    format!(
                        "{} ({}): {}, {} OK; intent {}",
                        w.name,
                        w.label,
                        crate::app::components::counted(
                            usize::try_from(w.counts.writes).unwrap_or(usize::MAX),
                            "write",
                            "writes"
                        ),
                        w.counts.ok,
                        if w.intent_holds {
                            "holds"
                        } else {
                            "does not hold"
                        }
                    )
                })
                .collect()
        });
    LiveRace {
        title: format!(
            "{} at step {} of {}",
            state.scenario.name,
            state.step,
            state.scenario.schedule.len()
        ),
        current,
        outcomes,
    }
}

/// Every walkthrough's cards, computed, as `www/learn/live.json` holds them.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub fn compute_all() -> BTreeMap<String, Vec<StepLive>> {
    super::walkthroughs()
        .iter()
        .map(|w| (w.id.to_owned(), w.steps.iter().map(compute).collect()))
        .collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_live_cards_are_what_the_engines_compute() {
        let computed = compute_all();
        crate::app::bundled::shipped_json_is(
            "www/learn/live.json",
            SHIPPED,
            &computed,
            "what the engines compute",
            "learn::",
        );
        assert_eq!(shipped(), &computed, "the shipped file reads back whole");
    }

    #[test]
    fn every_step_has_a_card_and_every_card_a_step() {
        for w in super::super::walkthroughs() {
            assert_eq!(shipped()[w.id].len(), w.steps.len(), "{}", w.id);
            for n in 1..=w.steps.len() {
                let card = card(w.id, n).unwrap();
                assert_ne!(card.live, Live::Nothing, "{} step {n}", w.id);
                assert!(
                    !matches!(card.live, Live::Unavailable { .. }),
                    "{} step {n}: {:?}",
                    w.id,
                    card.live
                );
                assert!(card.href.is_some(), "{} step {n} opens a view", w.id);
            }
            assert_eq!(card(w.id, 0), None);
            assert_eq!(card(w.id, w.steps.len() + 1), None);
        }
    }
}
