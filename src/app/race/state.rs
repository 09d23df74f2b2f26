//! The Race view's state: a scenario, its replay, the current step, an
//! editable timeline, compare mode and the explorer. A pure reducer; every
//! part worth showing is in the link.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::answers;
use super::scenarios::{library, scenario, FIRST_SCENARIO};
use super::writer_edit::{answers, intents_of, overrides_of, overrides_text, WriterEdit};
pub use super::writer_edit::{IntentsError, IntentsText};
pub use crate::app::engine::raced::CompareRow;
use crate::app::engine::raced::{
    ExploreRequest, Explored, RaceRequest, Raced, ReplayView, StepView,
};
use crate::app::engine::{EngineFailed, ReadText};
use crate::app::link::{LinkError, Shareable};
use crate::app::notice::Notice;
use crate::app::route::View;
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::input;
use crate::kube::KubeVersion;
use crate::sim::explore::{self, Exploration};
use crate::sim::story::Story;
use crate::sim::timeline::{Event, Replay, Scenario, ScenarioError};
use crate::sim::writer::{Intent, WriterSpec};
use crate::strategy::{Preset, Strategy};

/// What a Race link holds: a shipped scenario by id (possibly replayed in
/// one of its interleavings), or a whole edited scenario; the preset, the
/// step, and which panels are open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceLink {
    /// A shipped scenario's id (when not edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The scenario itself (when edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    /// One of the shipped scenario's interleavings, by its index in the
    /// explorer's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interleaving: Option<usize>,
    /// The preset replacing the writers' own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// The Kubernetes release replacing the scenario's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<KubeVersion>,
    /// The step shown.
    #[serde(default)]
    pub step: usize,
    /// Compare mode is on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub compare: bool,
    /// The explorer's table is shown.
    #[serde(default, skip_serializing_if = "is_false")]
    pub explore: bool,
    /// The timeline editor is open.
    #[serde(default, skip_serializing_if = "is_false")]
    pub editing: bool,
}

fn is_false(b: &bool) -> bool {
    !b
}

impl RaceLink {
    /// A shipped scenario at a step, under a preset.
    pub fn shipped(id: &str, preset: Option<Preset>, step: usize) -> RaceLink {
        RaceLink {
            id: Some(id.to_owned()),
            scenario: None,
            interleaving: None,
            preset,
            kubernetes: None,
            step,
            compare: false,
            explore: false,
            editing: false,
        }
    }
}

impl Shareable for RaceLink {
    const VIEW: View = View::Race;
    const STORAGE_KEY: &'static str = "patchlab.race";

    fn check(&self) -> Result<(), LinkError> {
        if let Some(scenario) = &self.scenario {
            scenario
                .validate()
                .map_err(|e| LinkError::OverBudget(e.to_string()))?;
        }
        Ok(())
    }
}

/// Where the scenario on screen comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A shipped scenario as shipped.
    Shipped(String),
    /// A shipped scenario in another of its interleavings.
    Interleaving {
        /// The scenario's id.
        id: String,
        /// The interleaving's index in the explorer's list.
        index: usize,
        /// How many interleavings there are.
        of: usize,
    },
    /// Edited here.
    Edited,
}

impl Source {
    /// The shipped scenario's id, unless edited.
    pub fn id(&self) -> Option<&str> {
        match self {
            Source::Shipped(id) | Source::Interleaving { id, .. } => Some(id),
            Source::Edited => None,
        }
    }
}

/// Why a Race link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// It names a scenario this page does not ship.
    UnknownScenario(String),
    /// It names no scenario.
    NoScenario,
    /// It names an interleaving the scenario does not have.
    UnknownInterleaving(usize),
    /// The scenario cannot run.
    Invalid(ScenarioError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::UnknownScenario(id) => write!(f, "there is no scenario {id:?}"),
            OpenError::NoScenario => f.write_str("the link names no scenario"),
            OpenError::UnknownInterleaving(i) => {
                // Shown from 1; a link's index may be usize::MAX (no wrap).
                let shown = u128::try_from(*i).map_or(u128::MAX, |i| i + 1);
                write!(f, "the scenario has no interleaving {shown}")
            }
            OpenError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

/// What the view asks the engines for, by revision: their latest answer
/// (maybe to an earlier revision: shown dimmed while they answer this one)
/// and why they could not answer a revision.
#[derive(Clone, Debug)]
pub struct Asked<T> {
    /// The latest answer, with the revision it answers.
    pub latest: Option<(u64, Rc<T>)>,
    /// Why the engines could not answer a revision.
    pub failed: Option<(u64, EngineFailed)>,
}

impl<T> Default for Asked<T> {
    fn default() -> Self {
        Asked {
            latest: None,
            failed: None,
        }
    }
}

/// Equal when they answer and failed on the same revisions (an answer is
/// the engines' for its revision: the same revision, the same answer).
impl<T> PartialEq for Asked<T> {
    fn eq(&self, other: &Self) -> bool {
        self.latest.as_ref().map(|(rev, _)| rev) == other.latest.as_ref().map(|(rev, _)| rev)
            && self.failed == other.failed
    }
}

impl<T> Asked<T> {
    /// The latest answer, whichever revision it answers.
    pub fn shown(&self) -> Option<&T> {
        self.latest.as_ref().map(|(_, answer)| &**answer)
    }

    /// True when the latest answer is to revision `rev`.
    pub fn answers(&self, rev: u64) -> bool {
        self.latest
            .as_ref()
            .is_some_and(|(answered, _)| *answered == rev)
    }

    /// Why the engines could not answer revision `rev`.
    pub fn failed_on(&self, rev: u64) -> Option<&EngineFailed> {
        self.failed
            .as_ref()
            .filter(|(failed, _)| *failed == rev)
            .map(|(_, why)| why)
    }

    /// True when revision `rev` is to be asked: not answered, not failed.
    pub fn wanted(&self, rev: u64) -> bool {
        !self.answers(rev) && self.failed_on(rev).is_none()
    }

    /// Takes what the engines said while revision `rev` is wanted: an
    /// answer to it (with the revision it answers), or why they could not
    /// answer (the client drops answers to replaced requests: a failure
    /// is the latest request's). An answer to another revision is late:
    /// dropped.
    fn take(&mut self, rev: u64, said: Result<(u64, Rc<T>), EngineFailed>) {
        match said {
            Ok((answered, answer)) if answered == rev => {
                self.latest = Some((rev, answer));
                self.failed = None;
            }
            Ok(_) => {}
            Err(why) => self.failed = Some((rev, why)),
        }
    }
}

/// A new revision, unique in the page: a state's replay and exploration
/// are asked of the engines by revision, and a state brought back (Undo,
/// a link) never takes an answer computed for another.
pub fn next_rev() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The Race view state.
#[derive(Clone, Debug)]
pub struct RaceState {
    /// The scenario as edited.
    pub scenario: Scenario,
    /// Where it comes from.
    pub source: Source,
    /// The preset replacing the writers' own (fixed writers excepted).
    pub preset: Option<Preset>,
    /// The Kubernetes release replacing the scenario's.
    pub kubernetes: Option<KubeVersion>,
    /// The revision of what is replayed (the scenario as it runs and the
    /// preset): a new one with every change of either.
    pub rev: u64,
    /// The engines' replays: the latest (an earlier revision's is shown
    /// dimmed while the engines replay this one) and a failure.
    pub raced: Asked<Raced>,
    /// How many events have happened: 0 (the start) to the schedule length.
    pub step: usize,
    /// Playing forward on a timer.
    pub playing: bool,
    /// Milliseconds per step when playing.
    pub speed: u32,
    /// Compare mode: the timeline under every preset (the replay's
    /// answer carries the rows).
    pub compare: bool,
    /// The explorer's table is shown.
    pub explore: bool,
    /// The revision of what is explored.
    pub explore_rev: u64,
    /// The engines' explorations, as `raced`.
    pub explored: Asked<Explored>,
    /// The timeline editor is open.
    pub editing: bool,
    /// The intents editors' texts, per writer.
    pub intents: Vec<IntentsText>,
    /// The field overrides editors' texts (`set`, YAML), per writer.
    pub overrides: Vec<IntentsText>,
    /// Counts the texts typed that wait to be read: the view asks the
    /// engines for [`RaceState::unread`] when it changes.
    pub typed: usize,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// The race before a load replaced an edited one.
    pub undo: Option<Undo<RaceState>>,
}

/// States are equal when what they are made of is: the replay, the
/// compare rows and the exploration are computed from the scenario, the
/// preset and the release (`rerun`, `edit`), so only whether the rows and
/// the exploration are shown is compared. The reducer compares states on
/// every action (a tick while playing), and comparing replays was most of
/// that time, and 4 KB of the Race module.
impl PartialEq for RaceState {
    fn eq(&self, other: &Self) -> bool {
        let RaceState {
            scenario,
            source,
            preset,
            kubernetes,
            rev,
            raced,
            step,
            playing,
            speed,
            compare,
            explore,
            explore_rev,
            explored,
            editing,
            intents,
            overrides,
            typed,
            notice,
            undo,
        } = self;
        *step == other.step
            && *playing == other.playing
            && *speed == other.speed
            && *editing == other.editing
            && *typed == other.typed
            && *preset == other.preset
            && *kubernetes == other.kubernetes
            && *rev == other.rev
            && *raced == other.raced
            && *compare == other.compare
            && *explore == other.explore
            && *explore_rev == other.explore_rev
            && *explored == other.explored
            && *source == other.source
            && *notice == other.notice
            && *intents == other.intents
            && *overrides == other.overrides
            && *scenario == other.scenario
            && *undo == other.undo
    }
}

/// What can happen in the Race view.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceAction {
    /// Load a shipped scenario.
    Load(String),
    /// Open a link.
    Open(RaceLink),
    /// Replay one of the explored interleavings at a step, every writer
    /// (but the fixed ones) on `preset`.
    OpenInterleaving {
        /// Its index in the explorer's list.
        index: usize,
        /// The explorer row's preset.
        preset: Preset,
        /// The step where the outcome shows.
        step: usize,
    },
    /// Replace the preset of every writer but the fixed ones (`None`: their own).
    SetPreset(Option<Preset>),
    /// Run the server as a Kubernetes release.
    SetKubernetes(KubeVersion),
    /// Set one writer's own preset.
    SetWriterPreset(usize, Preset),
    /// Go to a step (clamped).
    Goto(usize),
    /// One step forward.
    Next,
    /// One step back.
    Prev,
    /// To the end.
    End,
    /// Play from here (from the start when at the end).
    Play,
    /// Stop playing.
    Pause,
    /// A timer tick while playing.
    Tick,
    /// Milliseconds per step.
    SetSpeed(u32),
    /// Compare mode on or off.
    ToggleCompare,
    /// The explorer's table shown or hidden.
    ToggleExplore,
    /// The timeline editor opened or closed.
    SetEditing(bool),
    /// Add an event at the end.
    AddEvent(Event),
    /// Remove an event.
    RemoveEvent(usize),
    /// Move an event one place earlier.
    MoveUp(usize),
    /// Move an event one place later.
    MoveDown(usize),
    /// Edit a writer's intents (YAML text, read by the engines: see
    /// [`RaceState::unread`]).
    EditIntents(usize, String),
    /// What the engines read the texts of [`RaceState::unread`] as (each
    /// value, or why not), or why they could not read them: taken by the
    /// editors still holding those texts.
    YamlRead {
        /// The texts asked.
        texts: Vec<Rc<str>>,
        /// The engines' answer, in the order of `texts`.
        answer: Result<Vec<ReadText>, EngineFailed>,
    },
    /// The engines' replay (or why there is none).
    Raced(Result<Rc<Raced>, EngineFailed>),
    /// The engines' exploration (or why there is none).
    Explored(Result<Rc<Explored>, EngineFailed>),
    /// Edit a writer's other settings (overrides, attempts, force ...).
    EditWriter(usize, WriterEdit),
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
    /// Bring back the race a load replaced.
    Undo,
}

fn intents_text(intents: &[Intent]) -> String {
    let value = serde_json::to_value(intents).unwrap_or_default();
    input::to_yaml(&value)
}

fn empty() -> Scenario {
    Scenario {
        name: "empty".into(),
        description: String::new(),
        objects: Vec::new(),
        owner: None,
        kubernetes: None,
        engine: None,
        writers: Vec::new(),
        schedule: Vec::new(),
        claims: Default::default(),
    }
}

impl Default for RaceState {
    fn default() -> Self {
        RaceState::load(FIRST_SCENARIO)
    }
}

impl RaceState {
    /// A shipped scenario (the first one when the id is unknown).
    pub fn load(id: &str) -> RaceState {
        let (source, scenario) = library()
            .iter()
            .find(|(i, _)| *i == id)
            .or_else(|| library().first())
            .map(|(i, s)| (Source::Shipped((*i).to_owned()), s.clone()))
            .unwrap_or_else(|| (Source::Edited, empty()));
        RaceState::with(scenario, source, None, 0)
    }

    fn with(scenario: Scenario, source: Source, preset: Option<Preset>, step: usize) -> RaceState {
        let mut state = RaceState {
            intents: scenario
                .writers
                .iter()
                .map(|w| IntentsText::taken(intents_text(&w.intents)))
                .collect(),
            overrides: scenario
                .writers
                .iter()
                .map(|w| IntentsText::taken(overrides_text(w)))
                .collect(),
            scenario,
            source,
            preset,
            kubernetes: None,
            rev: 0,
            raced: Asked::default(),
            step,
            playing: false,
            speed: 900,
            compare: false,
            explore: false,
            explore_rev: next_rev(),
            explored: Asked::default(),
            editing: false,
            typed: 0,
            notice: None,
            undo: None,
        };
        state.rerun();
        state
    }

    /// A state from a link.
    ///
    /// # Errors
    ///
    /// [`OpenError`]: an unknown scenario or interleaving, an invalid one.
    pub fn open(link: RaceLink) -> Result<RaceState, OpenError> {
        let (scenario, source) = match (&link.scenario, &link.id) {
            (Some(s), _) => {
                s.validate().map_err(OpenError::Invalid)?;
                (s.clone(), Source::Edited)
            }
            (None, Some(id)) => {
                let shipped = scenario(id).ok_or_else(|| OpenError::UnknownScenario(id.clone()))?;
                match link.interleaving {
                    None => (shipped.clone(), Source::Shipped(id.clone())),
                    Some(index) => {
                        let all = explore::interleavings(shipped);
                        let schedule = all
                            .get(index)
                            .cloned()
                            .ok_or(OpenError::UnknownInterleaving(index))?;
                        (
                            Scenario {
                                schedule,
                                ..shipped.clone()
                            },
                            Source::Interleaving {
                                id: id.clone(),
                                index,
                                of: all.len(),
                            },
                        )
                    }
                }
            }
            (None, None) => return Err(OpenError::NoScenario),
        };
        let mut state = RaceState::with(scenario, source, link.preset, link.step);
        if link.kubernetes.is_some() && link.kubernetes != state.scenario.kubernetes {
            state.kubernetes = link.kubernetes;
            state.rerun();
        }
        state.editing = link.editing;
        state.compare = link.compare;
        state.explore = link.explore && state.explorable();
        Ok(state)
    }

    /// True when loading something else would lose work: the scenario was
    /// edited here, or an intents editor holds text that was not taken.
    pub fn edited(&self) -> bool {
        self.source == Source::Edited
            || self
                .intents
                .iter()
                .chain(&self.overrides)
                .any(|i| i.error.is_some() || i.reading)
    }

    /// The editors' texts waiting to be read as YAML (intents, then field
    /// overrides): the view asks the engines, and hands their answer back
    /// as [`RaceAction::YamlRead`].
    pub fn unread(&self) -> Vec<Rc<str>> {
        self.intents
            .iter()
            .chain(&self.overrides)
            .filter(|i| i.reading)
            .map(|i| Rc::from(i.text.as_str()))
            .collect()
    }

    /// Takes what `texts` read as into the editors still waiting with one
    /// of them (an editor typed in since waits for its new text).
    fn take_read(&mut self, texts: &[Rc<str>], answer: &Result<Vec<ReadText>, EngineFailed>) {
        let answered = answers(texts, answer);
        let find = |slot: &IntentsText| {
            slot.reading
                .then(|| answered.iter().find(|(t, _)| **t == *slot.text))
                .flatten()
                .map(|(_, read)| read.clone())
        };
        for w in 0..self.intents.len() {
            if let Some(read) = find(&self.intents[w]) {
                let text = self.intents[w].text.clone();
                self.take_intents(w, text, read.and_then(intents_of));
            }
        }
        for w in 0..self.overrides.len() {
            if let Some(read) = find(&self.overrides[w]) {
                let text = self.overrides[w].text.clone();
                self.take_overrides(w, text, read.and_then(overrides_of));
            }
        }
    }

    /// The scenario's name as the menu shows it.
    pub fn label(&self) -> String {
        match &self.source {
            Source::Shipped(_) => self.scenario.name.clone(),
            Source::Interleaving { index, of, .. } => {
                format!("{}: interleaving {} of {of}", self.scenario.name, index + 1)
            }
            Source::Edited => format!("{} (edited)", self.scenario.name),
        }
    }

    /// The replay shown: the engines' answer for what runs, or, while
    /// they replay a change, their answer before it (see
    /// [`RaceState::replayed`]); `None` before any.
    pub fn replay(&self) -> Option<&Result<ReplayView, ScenarioError>> {
        self.raced.shown().map(|raced| &raced.replay)
    }

    /// True when the replay shown is of what runs now.
    pub fn replayed(&self) -> bool {
        self.raced.answers(self.rev)
    }

    /// Why the engines could not replay what runs now.
    pub fn race_failed(&self) -> Option<&EngineFailed> {
        self.raced.failed_on(self.rev)
    }

    /// What to ask the engines, when the replay shown is not of what runs
    /// now and they have not failed on it.
    pub fn race_request(&self) -> Option<RaceRequest> {
        self.raced.wanted(self.rev).then(|| RaceRequest {
            rev: self.rev,
            scenario: self.running().into_owned(),
            preset: self.preset,
        })
    }

    /// The exploration shown (when the explorer is on): the engines'
    /// answer, possibly of an earlier revision while they explore anew.
    pub fn exploration(&self) -> Option<&Result<Exploration, ScenarioError>> {
        self.explored
            .shown()
            .filter(|_| self.explore)
            .map(|explored| &explored.exploration)
    }

    /// True when the exploration shown is of what is explored now.
    pub fn explored_here(&self) -> bool {
        self.explored.answers(self.explore_rev)
    }

    /// Why the engines could not explore what is explored now.
    pub fn explore_failed(&self) -> Option<&EngineFailed> {
        self.explored.failed_on(self.explore_rev)
    }

    /// What to ask the engines to explore, when the explorer is on and
    /// its table is not of what is explored now.
    pub fn explore_request(&self) -> Option<ExploreRequest> {
        (self.explore && self.explorable() && self.explored.wanted(self.explore_rev)).then(|| {
            ExploreRequest {
                rev: self.explore_rev,
                scenario: self.explore_base(),
            }
        })
    }

    /// The last step that happened (`None` at the start).
    pub fn current(&self) -> Option<&StepView> {
        let replay = self.replay()?.as_ref().ok()?;
        self.step.checked_sub(1).and_then(|i| replay.steps.get(i))
    }

    /// The object before the current step.
    pub fn previous_object(&self) -> Option<&serde_json::Value> {
        let replay = self.replay()?.as_ref().ok()?;
        match self.step {
            0 | 1 => replay.initial.as_ref(),
            n => replay.steps.get(n - 2).map(|s| &s.object),
        }
    }

    /// Compare mode's rows, when it is on and the replay carries them.
    pub fn compare_rows(&self) -> Option<&[CompareRow]> {
        self.raced
            .shown()
            .filter(|_| self.compare)
            .and_then(|raced| raced.compare.as_deref())
    }

    /// True when the explorer can run this scenario (few enough writers
    /// and events).
    pub fn explorable(&self) -> bool {
        self.scenario.writers.len() <= explore::EXPLORE_WRITERS
            && self.scenario.schedule.len() <= explore::EXPLORE_EVENTS
    }

    /// The release the race runs on.
    pub fn cluster(&self) -> KubeVersion {
        self.kubernetes
            .or(self.scenario.kubernetes)
            .unwrap_or_default()
    }

    /// The scenario as it runs (with the release chosen).
    pub fn running(&self) -> std::borrow::Cow<'_, Scenario> {
        match self.kubernetes {
            Some(version) if self.scenario.kubernetes != Some(version) => {
                std::borrow::Cow::Owned(Scenario {
                    kubernetes: Some(version),
                    ..self.scenario.clone()
                })
            }
            _ => std::borrow::Cow::Borrowed(&self.scenario),
        }
    }

    /// What runs changed: a new revision, answered at once from the
    /// bundled answers for a shipped scenario as shipped, otherwise asked
    /// of the engines (the view does, by [`RaceState::race_request`]).
    fn rerun(&mut self) {
        self.rev = next_rev();
        self.step = self.step.min(self.scenario.schedule.len());
        let shipped = match &self.source {
            Source::Shipped(id) if self.preset.is_none() && self.kubernetes.is_none() => {
                answers::bundled(id)
            }
            _ => None,
        };
        if let Some(raced) = shipped {
            self.raced.latest = Some((self.rev, raced));
        }
    }

    /// The scenario the explorer explores: an interleaving's is its
    /// scenario's (the list numbers the orders from the shipped schedule:
    /// a reordered one would number them otherwise, and "open #N" would
    /// open another).
    fn explore_base(&self) -> Scenario {
        if let Source::Interleaving { id, .. } = &self.source {
            if let Some(shipped) = scenario(id) {
                return Scenario {
                    kubernetes: self.kubernetes.or(shipped.kubernetes),
                    ..shipped.clone()
                };
            }
        }
        self.running().into_owned()
    }

    /// What is explored changed.
    fn reexplore(&mut self) {
        self.explore_rev = next_rev();
    }

    /// The story of the interleaving on screen, its number and how many
    /// there are (an interleaving opened from the explorer, replayed).
    pub fn interleaving_story(&self) -> Option<(Story, usize, usize)> {
        let Source::Interleaving { index, of, .. } = &self.source else {
            return None;
        };
        let story = self
            .raced
            .shown()
            .filter(|_| self.replayed())?
            .story
            .clone()?;
        Some((story, index + 1, *of))
    }

    /// The writers that have no retry in the schedule.
    pub fn never_retried(&self) -> Vec<String> {
        self.scenario
            .writers
            .iter()
            .filter(|w| {
                !self.scenario.schedule.iter().any(|e| {
                    e.kind() == crate::sim::timeline::EventKind::Retry && e.writer() == w.name
                })
            })
            .map(|w| w.name.clone())
            .collect()
    }

    /// The releases that run this race differently (the release menu's
    /// marks): `None` until the engines replayed what runs now, or past
    /// their budget for other runs.
    pub fn release_differences(&self) -> Option<Rc<Vec<KubeVersion>>> {
        let raced = self.raced.shown().filter(|_| self.replayed())?;
        raced.differences.clone().map(Rc::new)
    }

    /// The replay of what runs, computed here (tests, and the lessons'
    /// facts: the page asks the engines).
    pub fn replay_here(&self) -> Result<Replay, ScenarioError> {
        crate::sim::timeline::replay(&self.running(), self.preset)
    }

    /// This state with the engines' answers computed here, as the engines
    /// would send them (through the wire), for tests and the lessons'
    /// cards.
    pub fn replayed_here(mut self) -> RaceState {
        use crate::app::engine::{FromEngine, ToEngine};
        if let Some(request) = self.race_request() {
            let text = crate::app::engine::Engine::default()
                .answer(ToEngine::Race { id: 1, request })
                .to_json();
            if let Ok(FromEngine::Raced { raced, .. }) = FromEngine::from_json(&text) {
                self = self.reduce(RaceAction::Raced(Ok(raced)));
            }
        }
        if let Some(request) = self.explore_request() {
            let text = crate::app::engine::Engine::default()
                .answer(ToEngine::Explore { id: 1, request })
                .to_json();
            if let Ok(FromEngine::Explored { explored, .. }) = FromEngine::from_json(&text) {
                self = self.reduce(RaceAction::Explored(Ok(explored)));
            }
        }
        self
    }

    /// A scenario edited: it runs anew, and is explored anew.
    pub(super) fn edit(&mut self) {
        self.source = Source::Edited;
        self.rerun();
        self.reexplore();
    }

    /// The player's actions: where on the timeline, playing or not.
    fn play(&mut self, action: RaceAction) {
        let len = self.scenario.schedule.len();
        match action {
            RaceAction::Goto(step) => {
                self.step = step.min(len);
                self.playing = false;
            }
            RaceAction::Next => self.step = (self.step + 1).min(len),
            RaceAction::Prev => {
                self.step = self.step.saturating_sub(1);
                self.playing = false;
            }
            RaceAction::End => {
                self.step = len;
                self.playing = false;
            }
            RaceAction::Play => {
                if self.step >= len {
                    self.step = 0;
                }
                self.playing = len > 0;
            }
            RaceAction::Pause => self.playing = false,
            RaceAction::Tick if self.playing => {
                self.step = (self.step + 1).min(len);
                self.playing = self.step < len;
            }
            RaceAction::SetSpeed(ms) => self.speed = ms.clamp(100, 5000),
            _ => {}
        }
    }

    /// A shipped scenario in place of this one; the preset and a release
    /// chosen here stay chosen.
    fn load_shipped(&self, id: &str) -> RaceState {
        let mut loaded = RaceState {
            preset: self.preset,
            ..RaceState::load(id)
        };
        loaded.kubernetes = self
            .kubernetes
            .filter(|v| Some(*v) != loaded.scenario.kubernetes);
        loaded.rerun();
        let name = loaded.scenario.name.clone();
        view_state::replace(self, loaded, &format!("Loaded “{name}”"))
    }

    /// Replays one of the explored interleavings at a step, every writer
    /// (but the fixed ones) on `preset`.
    fn open_interleaving(&self, index: usize, preset: Preset, step: usize) -> RaceState {
        let mut next = self.clone();
        let Some(id) = self.source.id() else {
            // An edited scenario: replay the interleaving of it (of this
            // scenario: never of an exploration from before an edit).
            if let Some(Ok(exploration)) = self.exploration().filter(|_| self.explored_here()) {
                if let Some(schedule) = exploration.interleavings.get(index) {
                    next.scenario.schedule = schedule.clone();
                    next.preset = Some(preset);
                    next.rerun();
                    next.step = step.min(next.scenario.schedule.len());
                    next.playing = false;
                }
            }
            return next;
        };
        let link = RaceLink {
            interleaving: Some(index),
            explore: true,
            compare: self.compare,
            editing: self.editing,
            kubernetes: self.kubernetes,
            ..RaceLink::shipped(id, Some(preset), step)
        };
        match RaceState::open(link) {
            // The explorer's table is the scenario's, as before; the
            // replay before stays shown (dimmed) until the engines replay
            // the interleaving.
            Ok(opened) => RaceState {
                raced: self.raced.clone(),
                explore_rev: self.explore_rev,
                explored: self.explored.clone(),
                ..opened
            },
            Err(why) => next.with_notice(Notice::error(why.to_string())),
        }
    }

    /// Runs the server as `version` (`None` in the link when it is the
    /// scenario's own).
    fn set_kubernetes(&mut self, version: KubeVersion) {
        let own = self.scenario.kubernetes.unwrap_or_default();
        let version = (version != own).then_some(version);
        if self.kubernetes != version {
            self.kubernetes = version;
            self.rerun();
            self.reexplore();
        }
    }

    /// A writer's intents edited: kept as typed until the engines have
    /// read them ([`RaceState::unread`]).
    fn edit_intents(&mut self, w: usize, text: String) {
        if let Some(slot) = self.intents.get_mut(w) {
            *slot = IntentsText::reading(text);
            self.typed += 1;
        }
    }

    /// A writer's intents read: taken when they are intents, kept as typed
    /// (with why) when they are not.
    fn take_intents(&mut self, w: usize, text: String, read: Result<Vec<Intent>, IntentsError>) {
        match read {
            Ok(intents) => {
                self.intents[w] = IntentsText::taken(text);
                if let Some(writer) = self.scenario.writers.get_mut(w) {
                    writer.intents = intents;
                }
                self.edit();
            }
            Err(error) => self.intents[w] = IntentsText::refused(text, error),
        }
    }

    /// Changes the schedule with `change` (which says whether it did).
    fn edit_schedule(&mut self, change: impl FnOnce(&mut Vec<Event>) -> Option<()>) {
        if change(&mut self.scenario.schedule).is_some() {
            self.edit();
        }
    }

    fn toggle_explore(&mut self) {
        self.explore = match self.explore {
            true => false,
            false if self.explorable() => true,
            false => {
                self.notice = Some(Notice::warning(format!(
                    "The explorer takes at most {} writers and {} events.",
                    explore::EXPLORE_WRITERS,
                    explore::EXPLORE_EVENTS
                )));
                false
            }
        };
    }
}

impl ViewState for RaceState {
    type Link = RaceLink;
    type Action = RaceAction;
    type OpenError = OpenError;
    const WORDS: Words = Words {
        saved: "race",
        fresh: "this is the first scenario",
        kept: "Your edited race is kept",
        back: "Brought back your edited race",
    };

    fn from_link(link: RaceLink) -> Result<Self, OpenError> {
        RaceState::open(link)
    }

    /// The link of this state.
    fn link(&self) -> RaceLink {
        let (id, scenario, interleaving) = match &self.source {
            Source::Shipped(id) => (Some(id.clone()), None, None),
            Source::Interleaving { id, index, .. } => (Some(id.clone()), None, Some(*index)),
            Source::Edited => (None, Some(self.scenario.clone()), None),
        };
        RaceLink {
            id,
            scenario,
            interleaving,
            preset: self.preset,
            kubernetes: self.kubernetes,
            step: self.step,
            compare: self.compare,
            explore: self.explore,
            editing: self.editing,
        }
    }

    fn is_work(&self) -> bool {
        self.edited()
    }

    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
        (&mut self.notice, &mut self.undo)
    }

    /// The next state.
    fn reduce(&self, action: RaceAction) -> Self {
        let mut next = self.clone();
        match action {
            RaceAction::Load(id) => return self.load_shipped(&id),
            RaceAction::Open(link) => return view_state::open(self, link),
            RaceAction::OpenInterleaving {
                index,
                preset,
                step,
            } => return self.open_interleaving(index, preset, step),
            RaceAction::Undo => return view_state::undo(self),
            RaceAction::SetPreset(preset) if preset != next.preset => {
                next.preset = preset;
                next.rerun();
            }
            RaceAction::SetPreset(_) => {}
            RaceAction::SetKubernetes(version) => next.set_kubernetes(version),
            RaceAction::SetWriterPreset(w, preset) => {
                if let Some(writer) = next.scenario.writers.get_mut(w) {
                    writer.preset = preset;
                    next.edit();
                }
            }
            RaceAction::EditIntents(w, text) => next.edit_intents(w, text),
            RaceAction::YamlRead { texts, answer } => next.take_read(&texts, &answer),
            RaceAction::EditWriter(w, edit) => next.edit_writer(w, edit),
            RaceAction::AddEvent(event) => {
                next.scenario.schedule.push(event);
                next.edit();
            }
            RaceAction::RemoveEvent(i) => {
                next.edit_schedule(|s| (i < s.len()).then(|| drop(s.remove(i))))
            }
            RaceAction::MoveUp(i) => {
                next.edit_schedule(|s| (i > 0 && i < s.len()).then(|| s.swap(i - 1, i)))
            }
            RaceAction::MoveDown(i) => {
                next.edit_schedule(|s| (i + 1 < s.len()).then(|| s.swap(i, i + 1)))
            }
            RaceAction::ToggleCompare => next.compare = !next.compare,
            RaceAction::Raced(answer) => {
                let rev = next.rev;
                next.raced.take(rev, answer.map(|raced| (raced.rev, raced)));
            }
            RaceAction::Explored(answer) => {
                let rev = next.explore_rev;
                next.explored
                    .take(rev, answer.map(|explored| (explored.rev, explored)));
            }
            RaceAction::ToggleExplore => next.toggle_explore(),
            RaceAction::SetEditing(open) => next.editing = open,
            RaceAction::Notify(notice) => next.notice = Some(notice),
            RaceAction::DismissNotice => next.notice = None,
            player @ (RaceAction::Goto(_)
            | RaceAction::Next
            | RaceAction::Prev
            | RaceAction::End
            | RaceAction::Play
            | RaceAction::Pause
            | RaceAction::Tick
            | RaceAction::SetSpeed(_)) => next.play(player),
        }
        next
    }

    /// A race brought back does not play on by itself, and its texts
    /// still waiting to be read are asked for again (`typed` counts on
    /// from the state it replaces: the view asks when it changes).
    fn after(self, previous: &Self) -> Self {
        RaceState {
            playing: false,
            typed: previous.typed.max(self.typed) + 1,
            ..self
        }
    }

    fn open_action(link: RaceLink) -> RaceAction {
        RaceAction::Open(link)
    }

    fn notify_action(notice: Notice) -> RaceAction {
        RaceAction::Notify(notice)
    }
}

impl RaceState {
    /// Applies `edit` to writer `w`: taken when the scenario still runs,
    /// otherwise kept out with the reason (the overrides text as typed,
    /// which waits to be read first unless it is blank). (see
    /// [`WriterEdit`])
    pub(super) fn edit_writer(&mut self, w: usize, edit: WriterEdit) {
        let Some(before) = self.scenario.writers.get(w).cloned() else {
            return;
        };
        let mut writer = before.clone();
        let mut typed = None;
        match edit {
            WriterEdit::Overrides(text) if text.trim().is_empty() => {
                writer.set.clear();
                typed = Some(text);
            }
            WriterEdit::Overrides(text) => {
                self.set_overrides_text(w, IntentsText::reading(text));
                self.typed += 1;
                return;
            }
            WriterEdit::Attempts(n) => writer.attempts = n.max(1),
            WriterEdit::Fixed(on) => writer.fixed = on,
            WriterEdit::Force(on) => writer.force = on,
            WriterEdit::ForceOnRetry(on) => writer.force_on_retry = on,
            WriterEdit::Target(target) => writer.target = target,
        }
        self.change_writer(w, before, writer, typed);
    }

    /// A writer's field overrides read: taken like any edit when they are
    /// overrides, kept as typed (with why) when they are not.
    fn take_overrides(
        &mut self,
        w: usize,
        text: String,
        read: Result<BTreeMap<String, Strategy>, IntentsError>,
    ) {
        let Some(before) = self.scenario.writers.get(w).cloned() else {
            return;
        };
        match read {
            Ok(set) => {
                let writer = WriterSpec {
                    set,
                    ..before.clone()
                };
                self.change_writer(w, before, writer, Some(text));
            }
            Err(error) => self.set_overrides_text(w, IntentsText::refused(text, error)),
        }
    }

    /// Writer `w` becomes `writer` when the scenario still runs with it
    /// (`typed`: the overrides text as typed, when that was the change).
    fn change_writer(
        &mut self,
        w: usize,
        before: WriterSpec,
        writer: WriterSpec,
        typed: Option<String>,
    ) {
        if writer == before {
            if let Some(text) = typed {
                self.set_overrides_text(w, IntentsText::taken(text));
            }
            return;
        }
        self.scenario.writers[w] = writer;
        // Another setting changed: an overrides text typed and not taken
        // (waiting to be read, or refused) stays as typed.
        let untaken = typed.is_none()
            && self
                .overrides
                .get(w)
                .is_some_and(|t| t.reading || t.error.is_some());
        match self.scenario.validate() {
            Ok(()) => {
                if !untaken {
                    let text = typed.unwrap_or_else(|| overrides_text(&self.scenario.writers[w]));
                    self.set_overrides_text(w, IntentsText::taken(text));
                }
                self.edit();
            }
            Err(error) => {
                self.scenario.writers[w] = before;
                let error = IntentsError::Shape(error.to_string());
                match typed {
                    Some(text) => self.set_overrides_text(w, IntentsText::refused(text, error)),
                    None if untaken => {
                        self.notice = Some(Notice::warning(format!(
                            "{} was not changed: {error}",
                            self.scenario.writers[w].name
                        )))
                    }
                    None => {
                        let text = overrides_text(&self.scenario.writers[w]);
                        self.set_overrides_text(w, IntentsText::refused(text, error));
                    }
                }
            }
        }
    }

    fn set_overrides_text(&mut self, w: usize, slot_text: IntentsText) {
        if self.overrides.len() < self.scenario.writers.len() {
            self.overrides
                .resize(self.scenario.writers.len(), IntentsText::default());
        }
        if let Some(slot) = self.overrides.get_mut(w) {
            *slot = slot_text;
        }
    }
}
