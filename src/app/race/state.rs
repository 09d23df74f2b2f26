//! The Race view's state: a scenario, its replay, the current step, an
//! editable timeline, compare mode and the explorer. A pure reducer; every
//! part worth showing is in the link.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::scenarios::{library, scenario, FIRST_SCENARIO};
use super::writer_edit::{answers, intents_of, overrides_of, overrides_text, WriterEdit};
pub use super::writer_edit::{IntentsError, IntentsText};
use crate::app::engine::{EngineFailed, ReadText};
use crate::app::link::{LinkError, Shareable};
use crate::app::notice::Notice;
use crate::app::route::View;
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::input;
use crate::kube::KubeVersion;
use crate::sim::explore::{self, explore, Exploration};
use crate::sim::timeline::{replay, Event, Outcomes, Replay, Scenario, ScenarioError, Step};
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

/// One row of compare mode: the same timeline under a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    /// The preset.
    pub preset: Preset,
    /// Its outcomes (or why it could not run).
    pub outcomes: Result<Outcomes, ScenarioError>,
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
    /// The replay of the scenario.
    pub replay: Rc<Result<Replay, ScenarioError>>,
    /// How many events have happened: 0 (the start) to the schedule length.
    pub step: usize,
    /// Playing forward on a timer.
    pub playing: bool,
    /// Milliseconds per step when playing.
    pub speed: u32,
    /// Compare mode: the timeline under every preset.
    pub compare: Option<Rc<Vec<CompareRow>>>,
    /// The explorer's table, when shown.
    pub exploration: Option<Rc<Result<Exploration, ScenarioError>>>,
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
            replay: _,
            step,
            playing,
            speed,
            compare,
            exploration,
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
            && compare.is_some() == other.compare.is_some()
            && exploration.is_some() == other.exploration.is_some()
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
            replay: Rc::new(Err(ScenarioError::NoObjects)),
            step,
            playing: false,
            speed: 900,
            compare: None,
            exploration: None,
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
        if link.compare {
            state.compare = Some(Rc::new(state.compare_rows()));
        }
        if link.explore {
            state.exploration = Some(Rc::new(state.explore()));
        }
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

    /// The last step that happened (`None` at the start).
    pub fn current(&self) -> Option<&Step> {
        let replay = self.replay.as_ref().as_ref().ok()?;
        self.step.checked_sub(1).and_then(|i| replay.steps.get(i))
    }

    /// The object before the step shown (the first object at the start).
    pub fn previous_object(&self) -> Option<&serde_json::Value> {
        let replay = self.replay.as_ref().as_ref().ok()?;
        match self.step {
            0 | 1 => replay.initial.first(),
            n => replay.steps.get(n - 2).map(|s| &s.object),
        }
    }

    /// True when the explorer can take this scenario.
    pub fn explorable(&self) -> bool {
        self.scenario.writers.len() <= explore::EXPLORE_WRITERS
            && self.scenario.schedule.len() <= explore::EXPLORE_EVENTS
    }

    /// The Kubernetes release the server runs.
    pub fn cluster(&self) -> KubeVersion {
        self.kubernetes
            .or(self.scenario.kubernetes)
            .unwrap_or_default()
    }

    /// The scenario as it runs: with the release chosen here.
    fn running(&self) -> std::borrow::Cow<'_, Scenario> {
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

    fn rerun(&mut self) {
        self.replay = Rc::new(replay(&self.running(), self.preset));
        self.step = self.step.min(self.scenario.schedule.len());
        if self.compare.is_some() {
            self.compare = Some(Rc::new(self.compare_rows()));
        }
    }

    /// The story of the replay on screen when it is one of the explored
    /// interleavings (its own, not the scenario's description), with its
    /// number from 1 and how many there are. Told from the replay itself:
    /// the same as the explorer's `Exploration::story(preset, index)` for
    /// it, and right also when the explorer has not run or ran on the
    /// reordered schedule (whose own list numbers orders otherwise).
    pub fn interleaving_story(&self) -> Option<(crate::sim::story::Story, usize, usize)> {
        let Source::Interleaving { index, of, .. } = &self.source else {
            return None;
        };
        let replay = self.replay.as_ref().as_ref().ok()?;
        Some((crate::sim::story::Story::of_replay(replay), index + 1, *of))
    }

    /// The writers the schedule never lets retry: a failed write of theirs
    /// stays failed whatever the order.
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

    /// The release choices on which this race runs differently from the
    /// release it runs on now: another response or another object at some
    /// step (or one runs and the other cannot). Empty: the choice of
    /// release does not matter here.
    pub fn release_differences(&self) -> Vec<KubeVersion> {
        let now = self.cluster().choice();
        // What a user sees answered: the status line and the object.
        let same =
            |a: &Result<Replay, ScenarioError>, b: &Result<Replay, ScenarioError>| match (a, b) {
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
                let scenario = Scenario {
                    kubernetes: Some(*v),
                    ..self.scenario.clone()
                };
                !same(&replay(&scenario, self.preset), &self.replay)
            })
            .collect()
    }

    fn explore(&self) -> Result<Exploration, ScenarioError> {
        // An interleaving's explorer is its scenario's: the list numbers
        // the orders from the shipped schedule (a reordered one would
        // number them otherwise, and "open #N" would open another).
        if let Source::Interleaving { id, .. } = &self.source {
            if let Some(shipped) = scenario(id) {
                let base = Scenario {
                    kubernetes: self.kubernetes.or(shipped.kubernetes),
                    ..shipped.clone()
                };
                return explore(&base, &[]);
            }
        }
        explore(&self.running(), &[])
    }

    fn compare_rows(&self) -> Vec<CompareRow> {
        let scenario = self.running();
        Preset::ALL
            .into_iter()
            .map(|preset| CompareRow {
                preset,
                outcomes: replay(&scenario, Some(preset)).map(|r| r.outcomes),
            })
            .collect()
    }

    /// The scenario changed here: it is now the user's own.
    pub(super) fn edit(&mut self) {
        self.source = Source::Edited;
        self.rerun();
        if self.exploration.is_some() {
            self.exploration = Some(Rc::new(self.explore()));
        }
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
            // An edited scenario: replay the interleaving of it.
            if let Some(Ok(exploration)) = self.exploration.as_deref() {
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
            compare: self.compare.is_some(),
            editing: self.editing,
            kubernetes: self.kubernetes,
            ..RaceLink::shipped(id, Some(preset), step)
        };
        match RaceState::open(link) {
            Ok(opened) => RaceState {
                exploration: self.exploration.clone(),
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
            if self.exploration.is_some() {
                self.exploration = Some(Rc::new(self.explore()));
            }
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
        self.exploration = match self.exploration {
            Some(_) => None,
            None if self.explorable() => Some(Rc::new(self.explore())),
            None => {
                self.notice = Some(Notice::warning(format!(
                    "The explorer takes at most {} writers and {} events.",
                    explore::EXPLORE_WRITERS,
                    explore::EXPLORE_EVENTS
                )));
                None
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
            compare: self.compare.is_some(),
            explore: self.exploration.is_some(),
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
            RaceAction::SetPreset(preset) => {
                next.preset = preset;
                next.rerun();
            }
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
            RaceAction::ToggleCompare => {
                next.compare = match next.compare {
                    Some(_) => None,
                    None => Some(Rc::new(next.compare_rows())),
                };
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
