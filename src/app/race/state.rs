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
pub use crate::app::engine::raced::CompareRow;
use crate::app::engine::raced::{
    ExploreRequest, Explored, RaceRequest, Raced, ReplayView, StepView,
};
use crate::app::engine::EngineFailed;
use crate::app::notice::Notice;
use crate::app::view_state::Undo;
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

/// The engines' latest answer to one question (maybe to an earlier
/// revision: shown dimmed while they answer this one) and why they could
/// not answer a revision.
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

/// Equal when they answer and failed on the same revisions (the same
/// revision, the same answer), so comparing states compares no replays.
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
        matches!(&self.latest, Some((answered, _)) if *answered == rev)
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
    /// answer to it (`answered`: the revision it echoes; another's is late,
    /// dropped), or why they could not answer (the latest request's: the
    /// client drops answers to replaced requests).
    fn take(&mut self, rev: u64, said: Result<Rc<T>, EngineFailed>, answered: fn(&T) -> u64) {
        match said {
            Ok(answer) if answered(&answer) == rev => {
                self.latest = Some((rev, answer));
                self.failed = None;
            }
            Ok(_) => {}
            Err(why) => self.failed = Some((rev, why)),
        }
    }

    /// Every revision held moved up by `by`.
    fn shift(&mut self, by: u64) {
        let revs = self.latest.iter_mut().map(|(rev, _)| rev);
        for rev in revs.chain(self.failed.iter_mut().map(|(rev, _)| rev)) {
            *rev += by;
        }
    }
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
    pub raced: Asked<Raced>,
    /// Compare mode: the timeline under every preset (the replay's
    /// answer carries the rows).
    pub compare: bool,
    /// The explorer's table is shown.
    pub explore: bool,
    /// The revision of what is explored.
    pub explore_rev: u64,
    /// The engines' explorations, as `raced`.
    pub explored: Asked<Explored>,
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
    /// of the engines (the view does, by [`RaceState::race_request`]).
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
        self.raced.shift(by);
        self.explored.shift(by);
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

    /// This state with the engines' answers computed here, as the engines
    /// would send them (through the wire), for tests and the lessons'
    /// cards.
    pub fn replayed_here(mut self) -> RaceState {
        use crate::app::engine::{Engine, FromEngine, ToEngine};
        let ask = |to| FromEngine::from_json(&Engine::default().answer(to).to_json()).ok();
        let race = self
            .race_request()
            .map(|request| ToEngine::Race { id: 1, request });
        if let Some(FromEngine::Raced { raced, .. }) = race.and_then(ask) {
            self.raced.take(self.rev, Ok(raced), |r| r.rev);
        }
        let explore = self
            .explore_request()
            .map(|request| ToEngine::Explore { id: 1, request });
        if let Some(FromEngine::Explored { explored, .. }) = explore.and_then(ask) {
            self.explored
                .take(self.explore_rev, Ok(explored), |e| e.rev);
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
