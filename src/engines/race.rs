//! Race's replay of a timeline, run by the engines and sent back as the
//! Race view reads it ([`Raced`]): the simulator writes with the apply and
//! strategy engines, which the engines' module holds anyway, so the Race
//! module holds none of them.
//!
//! A replay's answer carries what the view shows of it: each step's
//! request, response and object ([`ReplayView`]), the outcomes, the story
//! of the replay, and, within [`OTHER_RUNS_BYTES`], the same timeline
//! under every preset (compare mode) and the releases that run it
//! differently (the release menu's marks), so that turning compare mode
//! on asks nothing more.
//!
//! ```
//! use patchlab::engines::race::Race;
//! use patchlab::sim::timeline::Scenario;
//!
//! let scenario = Scenario::parse(include_str!("../../www/scenarios/migration-race.yaml")).unwrap();
//! let question = Race { scenario, preset: None };
//! let raced = question.replay();
//! let replay = raced.replay.as_ref().unwrap();
//! assert_eq!(replay.steps.len(), question.scenario.schedule.len());
//! assert_eq!(raced.compare.as_ref().map(Vec::len), Some(patchlab::strategy::Preset::ALL.len()));
//! ```

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::{Caches, Never, Question};
use crate::kube::KubeVersion;
use crate::sim::outcome::{ConflictKind, IntentVerdict, Kept, LostUpdate, Outcomes};
use crate::sim::story::Story;
use crate::sim::timeline::{self, EventKind, Replay, Scenario, ScenarioError, Sent, Step};
use crate::strategy::{BodyKind, Preset};

/// The bytes a replay may keep (its objects at every step, estimated by
/// [`kept_bytes`]) for the engines to also run the timeline under every
/// preset and every release: past it, a replay answers alone (its 21
/// other runs would keep the worker busy for no table a user reads).
pub const OTHER_RUNS_BYTES: usize = 2 << 20;

/// What a replay of `scenario` keeps, as the simulator counts it for its
/// own limit ([`crate::limits::REPLAY_BYTES`]): the objects' JSON once per
/// event and once more (each step keeps the object it wrote).
pub fn kept_bytes(scenario: &Scenario) -> usize {
    let text = serde_json::to_string(&scenario.objects).map_or(usize::MAX, |t| t.len());
    text.saturating_mul(scenario.schedule.len().saturating_add(1))
}

/// Replay a scenario (as it runs: its release set) under a preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    /// The scenario, with the release it runs on.
    pub scenario: Scenario,
    /// The preset replacing the writers' own.
    pub preset: Option<Preset>,
}

/// One row of compare mode: the same timeline under a preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    /// The preset.
    pub preset: Preset,
    /// Its outcomes, or why it could not run.
    pub outcomes: Result<Outcomes, ScenarioError>,
}

/// The answer to a [`Race`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Raced {
    /// The replay, or why the scenario cannot run.
    pub replay: Result<ReplayView, ScenarioError>,
    /// The timeline under every preset (`None`: the replay failed, or it
    /// keeps more than [`OTHER_RUNS_BYTES`]).
    pub compare: Option<Vec<CompareRow>>,
    /// What happened, told from the replay (for an interleaving's card).
    pub story: Option<Story>,
    /// The releases that answer this timeline otherwise (`None` as for
    /// `compare`).
    pub differences: Option<Vec<KubeVersion>>,
}

/// A replay as the Race view shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayView {
    /// The first object before the first step.
    pub initial: Option<Value>,
    /// One per event.
    pub steps: Vec<StepView>,
    /// Counts and classes.
    pub outcomes: Outcomes,
}

/// One replayed event, as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepView {
    /// Zero-based position in the schedule.
    pub index: usize,
    /// The writer.
    pub writer: String,
    /// The kind of event.
    pub event: EventKind,
    /// What happened, in one line.
    pub summary: String,
    /// The request, when one was sent.
    pub request: Option<SentView>,
    /// The response, when a request was sent.
    pub response: Option<ResponseView>,
    /// For a failed write: false or true conflict, judged on the request.
    pub conflict: Option<ConflictKind>,
    /// For a true conflict: the changes the request, forced, would have
    /// undone.
    #[serde(default)]
    pub kept: Vec<Kept>,
    /// For a failed write: needless failure or clashing intent, judged on
    /// the intent.
    #[serde(default)]
    pub intent: Option<IntentVerdict>,
    /// For a clashing intent: the changes the intent would undo.
    #[serde(default)]
    pub clashes: Vec<Kept>,
    /// Changes of other writers this step erased.
    pub lost: Vec<LostUpdate>,
    /// The object after the step.
    pub object: Value,
}

/// The request a write sent, as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentView {
    /// Which kind of request.
    pub kind: BodyKind,
    /// The HTTP content type.
    pub content_type: String,
    /// The body as sent.
    pub body: String,
    /// The preset the writer used.
    pub preset: Preset,
    /// What the writer used, named: the preset and its overrides.
    #[serde(default)]
    pub label: String,
    /// For a JSON patch: its ops.
    pub ops: Vec<SentOp>,
}

/// An op sent, as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentOp {
    /// Its name (`test`, `add`, ...).
    pub op: String,
    /// Its path, as sent.
    pub path: String,
    /// Its value, for the ops that take one (`null` is a value).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "some"
    )]
    pub value: Option<Value>,
}

/// What the server answered, as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResponseView {
    /// HTTP status.
    pub code: u16,
    /// The Status reason; empty on success.
    pub reason: String,
    /// The Status message; empty on success.
    pub message: String,
    /// The resourceVersion after the request (success only).
    pub resource_version: Option<String>,
    /// True when the write changed the stored object.
    pub changed: bool,
    /// For a failed JSON patch: why (patchlab's words; the server
    /// discards the engine's error).
    pub cause: Option<CauseView>,
    /// For an apply conflict: the conflicting fields.
    pub conflicts: Vec<String>,
}

impl ResponseView {
    /// True for 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.code)
    }
}

/// Why a JSON patch failed, as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CauseView {
    /// The failing op's index.
    pub index: Option<usize>,
    /// The failing op's name.
    pub op: Option<String>,
    /// The failing op's path.
    pub path: Option<String>,
    /// patchlab's explanation.
    pub message: String,
    /// For a failed `test`: the value it expected.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "some"
    )]
    pub expected: Option<Value>,
    /// For a failed `test`: what the object held (`None`: absent; `null`
    /// is a value).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "some"
    )]
    pub actual: Option<Value>,
}

/// A member present is a value, `null` included (absent is `None`).
fn some<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl ReplayView {
    /// What the view shows of `replay`.
    pub fn of(replay: &Replay) -> ReplayView {
        ReplayView {
            initial: replay.initial.first().cloned(),
            steps: replay.steps.iter().map(StepView::of).collect(),
            outcomes: as_sent(&replay.outcomes),
        }
    }
}

/// `outcomes` as the wire carries them: a lost update's victim by name
/// only (its index among the writers is the simulator's own, not sent),
/// so what is read back equals what was sent.
fn as_sent(outcomes: &Outcomes) -> Outcomes {
    Outcomes {
        lost_updates: lost_as_sent(&outcomes.lost_updates),
        ..outcomes.clone()
    }
}

fn lost_as_sent(lost: &[LostUpdate]) -> Vec<LostUpdate> {
    lost.iter()
        .map(|l| LostUpdate {
            victim_index: 0,
            ..l.clone()
        })
        .collect()
}

fn kept_as_sent(kept: &[Kept]) -> Vec<Kept> {
    kept.iter()
        .map(|k| Kept {
            writer_index: 0,
            ..k.clone()
        })
        .collect()
}

impl StepView {
    fn of(step: &Step) -> StepView {
        StepView {
            index: step.index,
            writer: step.writer.clone(),
            event: step.event,
            summary: step.summary.clone(),
            request: step.request.as_ref().map(SentView::of),
            response: step.response.as_ref().map(|r| ResponseView {
                code: r.code,
                reason: r.reason.clone(),
                message: r.message.clone(),
                resource_version: r.resource_version.clone(),
                changed: r.changed,
                cause: r.cause.as_ref().map(|c| CauseView {
                    index: c.index,
                    op: c.op.clone(),
                    path: c.path.clone(),
                    message: c.message.clone(),
                    expected: c.expected.clone(),
                    actual: c.actual.clone(),
                }),
                conflicts: r.conflicts.clone(),
            }),
            conflict: step.conflict,
            kept: kept_as_sent(&step.kept),
            intent: step.intent,
            clashes: kept_as_sent(&step.clashes),
            lost: lost_as_sent(&step.lost),
            object: step.object.clone(),
        }
    }
}

impl SentView {
    fn of(sent: &Sent) -> SentView {
        SentView {
            kind: sent.kind,
            content_type: sent.content_type.to_owned(),
            body: sent.body.clone(),
            preset: sent.preset,
            label: sent.label.clone(),
            ops: sent
                .ops
                .iter()
                .map(|planned| SentOp {
                    op: planned.op.op.as_str().to_owned(),
                    path: planned.op.path.clone(),
                    value: planned
                        .op
                        .value
                        .clone()
                        .filter(|_| planned.op.op.takes_value()),
                })
                .collect(),
        }
    }
}

impl Question for Race {
    const NAME: &'static str = "race";
    const READ_THROUGH_VALUE: bool = true;
    type Rev = u64;
    type Answer = Raced;
    type Refusal = Never;

    fn bytes(&self) -> usize {
        kept_bytes(&self.scenario)
    }

    fn answer(self, _: &mut Caches) -> Result<Raced, Never> {
        Ok(self.replay())
    }
}

impl Race {
    /// Replays the scenario, and within [`OTHER_RUNS_BYTES`] under every
    /// preset and every other release.
    pub fn replay(&self) -> Raced {
        let replay = timeline::replay(&self.scenario, self.preset);
        let others = replay.is_ok() && kept_bytes(&self.scenario) <= OTHER_RUNS_BYTES;
        let compare = others.then(|| {
            Preset::ALL
                .into_iter()
                .map(|preset| CompareRow {
                    preset,
                    outcomes: timeline::replay(&self.scenario, Some(preset))
                        .map(|r| as_sent(&r.outcomes)),
                })
                .collect()
        });
        let differences = others.then(|| differences(&self.scenario, self.preset, &replay));
        Raced {
            story: replay.as_ref().ok().map(Story::of_replay),
            replay: replay.as_ref().map(ReplayView::of).map_err(Clone::clone),
            compare,
            differences,
        }
    }
}

/// The releases (menu choices) other than the scenario's own that answer
/// its timeline otherwise: another status line or another object at
/// some step.
fn differences(
    scenario: &Scenario,
    preset: Option<Preset>,
    replay: &Result<Replay, ScenarioError>,
) -> Vec<KubeVersion> {
    let now = scenario.kubernetes.unwrap_or_default().choice();
    let same = |a: &Result<Replay, ScenarioError>| match (a, replay) {
        (Ok(a), Ok(b)) => {
            a.steps.len() == b.steps.len()
                && a.steps.iter().zip(&b.steps).all(|(x, y)| {
                    x.object == y.object
                        && x.response.as_ref().map(|r| (r.code, &r.reason, &r.message))
                            == y.response.as_ref().map(|r| (r.code, &r.reason, &r.message))
                })
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    KubeVersion::choices()
        .into_iter()
        .filter(|v| *v != now)
        .filter(|v| {
            let other = Scenario {
                kubernetes: Some(*v),
                ..scenario.clone()
            };
            !same(&timeline::replay(&other, preset))
        })
        .collect()
}
