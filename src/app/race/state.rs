//! The Race view's state: a scenario, its replay, the current step, an
//! editable timeline, compare mode and the explorer, with the engines'
//! answers. A pure reducer (`action`); every part worth showing is in the
//! link (`link`); the timeline editor's changes are in `editing`, the
//! player's in `player`.
//!
//! Revisions: what runs and what is explored each have one (`rev`,
//! `explore_rev`), taken from the state's own counter (`last_rev`) by a
//! change that needs a new answer. A request carries it, the answer echoes
//! it, and only an answer to the revision asked now is taken. A state put
//! in place of another (a load, a link, Undo) is renumbered past it.

mod action;
mod editing;
mod link;
mod player;

use std::borrow::Cow;
use std::rc::Rc;

pub use action::RaceAction;
pub use link::{OpenError, RaceLink};

use super::answers;
use super::scenarios::{library, scenario, FIRST_SCENARIO};
use super::writer_edit::overrides_text;
pub use super::writer_edit::{IntentsError, IntentsText};
use crate::app::notice::Notice;
use crate::app::view_state::Undo;
use crate::engines::explore::Explore;
pub use crate::engines::race::CompareRow;
use crate::engines::race::{Race, ReplayView, StepView};
use crate::engines::{Asked, Failure, Never};
use crate::input;
use crate::kube::KubeVersion;
use crate::sim::explore::{self, Exploration};
use crate::sim::story::Story;
use crate::sim::timeline::{EventKind, Replay, Scenario, ScenarioError};
use crate::sim::writer::WriterSpec;
use crate::strategy::Preset;

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

/// The Race view state. States are equal when what they are made of is
/// (answers by their revision: [`Asked`]); the cheap fields compare first.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceState {
    /// How many events have happened: 0 (the start) to the schedule length.
    pub step: usize,
    /// Playing forward on a timer.
    pub playing: bool,
    /// Milliseconds per step when playing.
    pub speed: u32,
    /// The preset replacing the writers' own (fixed writers excepted).
    pub preset: Option<Preset>,
    /// The Kubernetes release replacing the scenario's.
    pub kubernetes: Option<KubeVersion>,
    /// The revision of what is replayed (the scenario as it runs and the
    /// preset): a new one with every change of either.
    pub rev: u64,
    /// The engines' replays: the latest (an earlier revision's is shown
    /// dimmed while the engines replay this one) and a failure.
    pub raced: Asked<Race>,
    /// Compare mode: the timeline under every preset (the replay's
    /// answer carries the rows).
    pub compare: bool,
    /// The explorer's table is shown.
    pub explore: bool,
    /// The revision of what is explored.
    pub explore_rev: u64,
    /// The engines' explorations, as `raced`.
    pub explored: Asked<Explore>,
    /// The last revision given out, here or by a state before: never
    /// given again, Undo included.
    pub(super) last_rev: u64,
    /// The timeline editor is open.
    pub editing: bool,
    /// Counts the texts typed that wait to be read: the view asks the
    /// engines for [`RaceState::unread`] when it changes.
    pub typed: usize,
    /// The intents editors' texts, per writer.
    pub intents: Vec<IntentsText>,
    /// The field overrides editors' texts (`set`, YAML), per writer.
    pub overrides: Vec<IntentsText>,
    /// Where the scenario comes from.
    pub source: Source,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// The scenario as edited.
    pub scenario: Scenario,
    /// The race before a load replaced an edited one.
    pub undo: Option<Undo<RaceState>>,
}

impl Default for RaceState {
    fn default() -> Self {
        RaceState::load(FIRST_SCENARIO)
    }
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

    /// `scenario` from `source` at `step`, its revisions counted from 1.
    fn with(scenario: Scenario, source: Source, preset: Option<Preset>, step: usize) -> RaceState {
        let texts = |text: fn(&WriterSpec) -> String| {
            let taken = scenario.writers.iter().map(|w| IntentsText::taken(text(w)));
            taken.collect()
        };
        let (intents, overrides) = (texts(intents_text), texts(overrides_text));
        let mut state = RaceState {
            step,
            playing: false,
            speed: 900,
            preset,
            kubernetes: None,
            rev: 0,
            raced: Asked::default(),
            compare: false,
            explore: false,
            explore_rev: 0,
            explored: Asked::default(),
            last_rev: 0,
            editing: false,
            typed: 0,
            intents,
            overrides,
            source,
            notice: None,
            scenario,
            undo: None,
        };
        state.reexplore();
        state.rerun();
        state
    }

    /// A revision never given out before.
    fn bump(&mut self) -> u64 {
        self.last_rev += 1;
        self.last_rev
    }

    /// What runs changed: a new revision, answered at once from the
    /// bundled answers for a shipped scenario as shipped, otherwise asked
    /// of the engines (the view does, by [`RaceState::wants_race`]).
    fn rerun(&mut self) {
        self.rev = self.bump();
        self.step = self.step.min(self.scenario.schedule.len());
        if let (Source::Shipped(id), None, None) = (&self.source, self.preset, self.kubernetes) {
            if let Some(raced) = answers::bundled(id) {
                self.raced.latest = Some((self.rev, raced));
            }
        }
    }

    /// What is explored changed.
    fn reexplore(&mut self) {
        self.explore_rev = self.bump();
    }

    /// This state numbered past `last` (the state it replaces'): its
    /// revisions and its answers' move up together, so it shows what it
    /// had, and takes no answer to a request made before.
    pub(super) fn renumbered(mut self, last: u64) -> RaceState {
        let by = last + 1;
        self.rev += by;
        self.explore_rev += by;
        self.last_rev += by;
        self.raced.renumber(|rev| rev + by);
        self.explored.renumber(|rev| rev + by);
        self
    }

    /// Replaces the preset of every writer but the fixed ones.
    fn set_preset(&mut self, preset: Option<Preset>) {
        if preset != self.preset {
            self.preset = preset;
            self.rerun();
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

    /// The explorer's table shown or hidden (refused, and said, when the
    /// scenario is too big to explore).
    fn toggle_explore(&mut self) {
        let on = !self.explore && self.explorable();
        if !self.explore && !on {
            self.notice = Some(Notice::warning(format!(
                "The explorer takes at most {} writers and {} events.",
                explore::EXPLORE_WRITERS,
                explore::EXPLORE_EVENTS
            )));
        }
        self.explore = on;
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
    pub fn race_failed(&self) -> Option<&Failure<Never>> {
        self.raced.failed_on(self.rev)
    }

    /// What to ask the engines, at which revision, when the replay shown
    /// is not of what runs now and they have not failed on it (the
    /// question is made when asked).
    pub fn wants_race(&self) -> Option<u64> {
        self.raced.wanted(self.rev).then_some(self.rev)
    }

    /// The replay to ask the engines for.
    pub fn race(&self) -> Race {
        Race {
            scenario: self.running().into_owned(),
            preset: self.preset,
        }
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
    pub fn explore_failed(&self) -> Option<&Failure<Never>> {
        self.explored.failed_on(self.explore_rev)
    }

    /// At which revision to ask the engines to explore, when the explorer
    /// is on and its table is not of what is explored now.
    pub fn wants_explore(&self) -> Option<u64> {
        let wanted = self.explore && self.explorable() && self.explored.wanted(self.explore_rev);
        wanted.then_some(self.explore_rev)
    }

    /// The exploration to ask the engines for.
    pub fn exploration_asked(&self) -> Explore {
        Explore {
            scenario: self.explore_base(),
        }
    }

    /// This state with the engines' answers computed here, as the engines
    /// would send them (through the wire), for tests and the lessons'
    /// cards.
    pub fn replayed_here(mut self) -> RaceState {
        use crate::engines::worker::Worker;
        let mut worker = Worker::new(crate::engines::TABLE);
        if let Some(rev) = self.wants_race() {
            let said = worker.answer_through_the_wire(rev, self.race());
            self.raced.take(self.rev, said);
        }
        if let Some(rev) = self.wants_explore() {
            let said = worker.answer_through_the_wire(rev, self.exploration_asked());
            self.explored.take(self.explore_rev, said);
        }
        self
    }

    /// The replay of what runs, computed here (tests, and the lessons'
    /// facts: the page asks the engines).
    pub fn replay_here(&self) -> Result<Replay, ScenarioError> {
        crate::sim::timeline::replay(&self.running(), self.preset)
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

    /// The story of the interleaving on screen, its number and how many
    /// there are (an interleaving opened from the explorer, replayed).
    pub fn interleaving_story(&self) -> Option<(Story, usize, usize)> {
        let Source::Interleaving { index, of, .. } = &self.source else {
            return None;
        };
        let raced = self.raced.shown().filter(|_| self.replayed())?;
        Some((raced.story.clone()?, index + 1, *of))
    }

    /// The releases that run this race differently (the release menu's
    /// marks): `None` until the engines replayed what runs now, or past
    /// their budget for other runs.
    pub fn release_differences(&self) -> Option<Rc<Vec<KubeVersion>>> {
        let raced = self.raced.shown().filter(|_| self.replayed())?;
        raced.differences.clone().map(Rc::new)
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
    pub fn running(&self) -> Cow<'_, Scenario> {
        match self.kubernetes {
            Some(version) if self.scenario.kubernetes != Some(version) => Cow::Owned(Scenario {
                kubernetes: Some(version),
                ..self.scenario.clone()
            }),
            _ => Cow::Borrowed(&self.scenario),
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

    /// The writers that have no retry in the schedule.
    pub fn never_retried(&self) -> Vec<String> {
        let retried = |w: &&WriterSpec| {
            let mut events = self.scenario.schedule.iter();
            events.any(|e| e.kind() == EventKind::Retry && e.writer() == w.name)
        };
        let writers = self.scenario.writers.iter().filter(|w| !retried(w));
        writers.map(|w| w.name.clone()).collect()
    }
}

fn intents_text(writer: &WriterSpec) -> String {
    let value = serde_json::to_value(&writer.intents).unwrap_or_default();
    input::to_yaml(&value)
}
