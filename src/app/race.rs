//! The Race view's state: a scenario, its replay, the current step, an
//! editable timeline, compare mode and the explorer. A pure reducer.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::build::Notice;
use crate::input::{self, Budget, Format};
use crate::sim::explore::{explore, Exploration};
use crate::sim::timeline::{replay, Event, Outcomes, Replay, Scenario};
use crate::sim::writer::Intent;
use crate::strategy::Preset;

const SCENARIO_FILES: [(&str, &str); 7] = [
    (
        "migration-race",
        include_str!("../../www/scenarios/migration-race.yaml"),
    ),
    (
        "finalizer-race",
        include_str!("../../www/scenarios/finalizer-race.yaml"),
    ),
    (
        "migration-state-first-write",
        include_str!("../../www/scenarios/migration-state-first-write.yaml"),
    ),
    (
        "annotation-keys",
        include_str!("../../www/scenarios/annotation-keys.yaml"),
    ),
    (
        "merge-patch-loses-finalizer",
        include_str!("../../www/scenarios/merge-patch-loses-finalizer.yaml"),
    ),
    (
        "ssa-conflict",
        include_str!("../../www/scenarios/ssa-conflict.yaml"),
    ),
    (
        "per-key-limits",
        include_str!("../../www/scenarios/per-key-limits.yaml"),
    ),
];

/// The scenario a first visit opens.
pub const FIRST_SCENARIO: &str = "migration-race";

/// The shipped scenarios, by id, in menu order (parsed once).
pub fn library() -> &'static [(&'static str, Scenario)] {
    static LIBRARY: std::sync::OnceLock<Vec<(&'static str, Scenario)>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(|| {
        SCENARIO_FILES
            .iter()
            .filter_map(|(id, text)| Scenario::parse(text).ok().map(|s| (*id, s)))
            .collect()
    })
}

/// One shipped scenario.
pub fn scenario(id: &str) -> Option<&'static Scenario> {
    library().iter().find(|(i, _)| *i == id).map(|(_, s)| s)
}

/// What a Race link holds: a shipped scenario by id, or a whole edited
/// scenario; the preset; the step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceLink {
    /// A shipped scenario's id (when unedited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The scenario itself (when edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    /// The preset replacing the writers' own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// The step shown.
    #[serde(default)]
    pub step: usize,
}

/// One row of compare mode: the same timeline under a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    /// The preset.
    pub preset: Preset,
    /// Its outcomes (or why it could not run).
    pub outcomes: Result<Outcomes, String>,
}

/// The Race view state.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceState {
    /// The scenario as edited.
    pub scenario: Scenario,
    /// The shipped scenario it came from, while unedited.
    pub id: Option<String>,
    /// The preset replacing the writers' own (fixed writers excepted).
    pub preset: Option<Preset>,
    /// The replay of the scenario.
    pub replay: Rc<Result<Replay, String>>,
    /// How many events have happened: 0 (the start) to the schedule length.
    pub step: usize,
    /// Playing forward on a timer.
    pub playing: bool,
    /// Milliseconds per step when playing.
    pub speed: u32,
    /// Compare mode: the timeline under every preset.
    pub compare: Option<Vec<CompareRow>>,
    /// The explorer's counts, when asked.
    pub exploration: Option<Rc<Result<Exploration, String>>>,
    /// The intents editor's text per writer, and its error.
    pub intents: Vec<(String, Option<String>)>,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// The race before a scenario or link replaced an edited one.
    pub undo: Option<Rc<RaceState>>,
}

/// What can happen in the Race view.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceAction {
    /// Load a shipped scenario.
    Load(String),
    /// Open a link.
    Open(RaceLink),
    /// Replace the preset of every writer but the fixed ones (`None`: their own).
    SetPreset(Option<Preset>),
    /// Set one writer's own preset.
    SetWriterPreset(usize, Preset),
    /// Go to a step (clamped).
    Goto(usize),
    /// One step forward.
    Next,
    /// One step back.
    Prev,
    /// Play from here (from the start when at the end).
    Play,
    /// Stop playing.
    Pause,
    /// A timer tick while playing.
    Tick,
    /// Milliseconds per step.
    SetSpeed(u32),
    /// Toggle compare mode.
    ToggleCompare,
    /// Run the interleaving explorer.
    Explore,
    /// Replace the schedule (an interleaving from the explorer).
    SetSchedule(Vec<Event>),
    /// Add an event at the end.
    AddEvent(Event),
    /// Remove an event.
    RemoveEvent(usize),
    /// Move an event one place earlier.
    MoveUp(usize),
    /// Move an event one place later.
    MoveDown(usize),
    /// Edit a writer's intents (YAML text).
    EditIntents(usize, String),
    /// Hide the message.
    DismissNotice,
    /// Show a message.
    Notify(Notice),
    /// Bring back the race a load replaced.
    Undo,
}

fn intents_text(intents: &[Intent]) -> String {
    let value = serde_json::to_value(intents).unwrap_or_default();
    input::to_yaml(&value)
}

impl Default for RaceState {
    fn default() -> Self {
        RaceState::load(FIRST_SCENARIO)
    }
}

impl RaceState {
    /// A shipped scenario (the first one when the id is unknown).
    pub fn load(id: &str) -> RaceState {
        let (id, scenario) = library()
            .iter()
            .find(|(i, _)| *i == id)
            .or_else(|| library().first())
            .map(|(i, s)| (Some((*i).to_owned()), s.clone()))
            .unwrap_or_else(|| (None, empty()));
        RaceState::with(scenario, id, None, 0)
    }

    fn with(
        scenario: Scenario,
        id: Option<String>,
        preset: Option<Preset>,
        step: usize,
    ) -> RaceState {
        let mut state = RaceState {
            intents: scenario
                .writers
                .iter()
                .map(|w| (intents_text(&w.intents), None))
                .collect(),
            scenario,
            id,
            preset,
            replay: Rc::new(Err(String::new())),
            step,
            playing: false,
            speed: 900,
            compare: None,
            exploration: None,
            notice: None,
            undo: None,
        };
        state.rerun();
        state.step = step.min(state.scenario.schedule.len());
        state
    }

    /// A state from a link, or why it cannot be opened (an unknown id, an
    /// invalid scenario).
    pub fn open(link: RaceLink) -> Result<RaceState, String> {
        let (scenario, id) = match (&link.scenario, &link.id) {
            (Some(s), _) => s
                .validate()
                .map(|()| (s.clone(), None))
                .map_err(|e| e.to_string()),
            (None, Some(id)) => scenario(id)
                .map(|s| (s.clone(), Some(id.clone())))
                .ok_or_else(|| format!("there is no scenario {id:?}")),
            (None, None) => Err("the link names no scenario".to_owned()),
        }?;
        Ok(RaceState::with(scenario, id, link.preset, link.step))
    }

    /// `self` with an error message.
    pub fn with_error(self, text: String) -> RaceState {
        RaceState {
            notice: Some(Notice { error: true, text }),
            ..self
        }
    }

    /// True when loading something else would lose work: the scenario is
    /// not a shipped one as shipped, or an intents editor holds text that
    /// did not parse.
    pub fn edited(&self) -> bool {
        self.id.is_none() || self.intents.iter().any(|(_, error)| error.is_some())
    }

    /// `next` replacing `self`, keeping `self` for an undo when it was edited.
    fn replaced_by(&self, next: RaceState, what: &str) -> RaceState {
        if !self.edited() {
            return next;
        }
        let mut kept = self.clone();
        kept.undo = None;
        kept.notice = None;
        kept.playing = false;
        RaceState {
            notice: Some(Notice {
                error: false,
                text: format!("{what} replaced your edited race; \"Undo loading\" brings it back."),
            }),
            undo: Some(Rc::new(kept)),
            ..next
        }
    }

    /// The link of this state.
    pub fn link(&self) -> RaceLink {
        RaceLink {
            id: self.id.clone(),
            scenario: if self.id.is_some() {
                None
            } else {
                Some(self.scenario.clone())
            },
            preset: self.preset,
            step: self.step,
        }
    }

    /// The last step that happened (`None` at the start).
    pub fn current(&self) -> Option<&crate::sim::timeline::Step> {
        let replay = self.replay.as_ref().as_ref().ok()?;
        self.step.checked_sub(1).and_then(|i| replay.steps.get(i))
    }

    fn rerun(&mut self) {
        self.replay = Rc::new(replay(&self.scenario, self.preset).map_err(|e| e.to_string()));
        self.step = self.step.min(self.scenario.schedule.len());
        if self.compare.is_some() {
            self.compare = Some(self.compare_rows());
        }
        self.exploration = None;
    }

    fn compare_rows(&self) -> Vec<CompareRow> {
        Preset::ALL
            .into_iter()
            .map(|preset| CompareRow {
                preset,
                outcomes: replay(&self.scenario, Some(preset))
                    .map(|r| r.outcomes)
                    .map_err(|e| e.to_string()),
            })
            .collect()
    }

    fn edit(&mut self) {
        self.id = None;
        self.undo = None;
        self.rerun();
    }

    /// The next state.
    pub fn reduce(&self, action: RaceAction) -> RaceState {
        let mut next = self.clone();
        let len = next.scenario.schedule.len();
        match action {
            RaceAction::Load(id) => {
                let mut loaded = RaceState {
                    preset: self.preset,
                    ..RaceState::load(&id)
                };
                loaded.rerun();
                let name = loaded.scenario.name.clone();
                next = self.replaced_by(loaded, &format!("Loading {name:?}"));
            }
            RaceAction::Open(link) => {
                next = match RaceState::open(link) {
                    Ok(opened) => self.replaced_by(opened, "Opening the link"),
                    Err(why) => next.with_error(format!(
                        "This link could not be opened: {why}. Nothing was changed."
                    )),
                }
            }
            RaceAction::SetPreset(preset) => {
                next.preset = preset;
                next.rerun();
            }
            RaceAction::SetWriterPreset(w, preset) => {
                if let Some(writer) = next.scenario.writers.get_mut(w) {
                    writer.preset = preset;
                    next.edit();
                }
            }
            RaceAction::Goto(step) => {
                next.step = step.min(len);
                next.playing = false;
            }
            RaceAction::Next => next.step = (next.step + 1).min(len),
            RaceAction::Prev => {
                next.step = next.step.saturating_sub(1);
                next.playing = false;
            }
            RaceAction::Play => {
                if next.step >= len {
                    next.step = 0;
                }
                next.playing = len > 0;
            }
            RaceAction::Pause => next.playing = false,
            RaceAction::Tick => {
                if next.playing {
                    next.step = (next.step + 1).min(len);
                    next.playing = next.step < len;
                }
            }
            RaceAction::SetSpeed(ms) => next.speed = ms.clamp(100, 5000),
            RaceAction::ToggleCompare => {
                next.compare = match next.compare {
                    Some(_) => None,
                    None => Some(next.compare_rows()),
                };
            }
            RaceAction::Explore => {
                next.exploration = Some(Rc::new(
                    explore(&next.scenario, &[]).map_err(|e| e.to_string()),
                ));
            }
            RaceAction::SetSchedule(schedule) => {
                next.scenario.schedule = schedule;
                next.step = 0;
                let exploration = next.exploration.clone();
                next.edit();
                next.exploration = exploration;
            }
            RaceAction::AddEvent(event) => {
                next.scenario.schedule.push(event);
                next.edit();
            }
            RaceAction::RemoveEvent(i) => {
                if i < len {
                    next.scenario.schedule.remove(i);
                    next.edit();
                }
            }
            RaceAction::MoveUp(i) => {
                if i > 0 && i < len {
                    next.scenario.schedule.swap(i - 1, i);
                    next.edit();
                }
            }
            RaceAction::MoveDown(i) => {
                if i + 1 < len {
                    next.scenario.schedule.swap(i, i + 1);
                    next.edit();
                }
            }
            RaceAction::EditIntents(w, text) => {
                if w < next.intents.len() {
                    let parsed = input::parse_as(&text, Format::Yaml, &Budget::default())
                        .map_err(|e| e.to_string())
                        .and_then(|v| {
                            serde_json::from_value::<Vec<Intent>>(v).map_err(|e| e.to_string())
                        });
                    match parsed {
                        Ok(intents) if intents.len() <= crate::sim::timeline::MAX_INTENTS => {
                            next.intents[w] = (text, None);
                            if let Some(writer) = next.scenario.writers.get_mut(w) {
                                writer.intents = intents;
                            }
                            next.edit();
                        }
                        Ok(_) => next.intents[w] = (text, Some("too many intents".to_owned())),
                        Err(err) => next.intents[w] = (text, Some(err)),
                    }
                }
            }
            RaceAction::DismissNotice => next.notice = None,
            RaceAction::Notify(notice) => next.notice = Some(notice),
            RaceAction::Undo => {
                if let Some(undo) = &self.undo {
                    next = RaceState::clone(undo);
                }
            }
        }
        next
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
    }
}

/// A line-by-line comparison of two YAML texts: each line of `after`
/// tagged as kept or added, and the removed lines of `before` where they
/// were.
pub fn line_diff(before: &str, after: &str) -> Vec<(char, String)> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    // Longest common subsequence, fine for object-sized texts; large ones
    // get a plain listing.
    if a.len() * b.len() > 4_000_000 {
        return b.iter().map(|l| (' ', (*l).to_owned())).collect();
    }
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push((' ', a[i].to_owned()));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push(('+', b[j].to_owned()));
            j += 1;
        } else {
            out.push(('-', a[i].to_owned()));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_loads_and_the_race_replays() {
        assert_eq!(library().len(), 7);
        let state = RaceState::default();
        assert_eq!(state.id.as_deref(), Some("migration-race"));
        assert_eq!(state.step, 0);
        assert!(state.current().is_none());
        let at = state.reduce(RaceAction::Goto(4));
        let step = at.current().unwrap();
        assert_eq!(step.writer, "virt-controller");
        assert_eq!(
            step.response.as_ref().unwrap().code,
            422,
            "the file's own preset is head"
        );
        let fixed = at.reduce(RaceAction::SetPreset(Some(Preset::KubevirtPr18139)));
        assert_eq!(fixed.step, 4, "the step stays");
        assert_eq!(
            fixed.current().unwrap().response.as_ref().unwrap().code,
            200
        );
    }

    #[test]
    fn stepping_and_playing() {
        let state = RaceState::default();
        let len = state.scenario.schedule.len();
        assert_eq!(state.reduce(RaceAction::Prev).step, 0);
        let mut s = state.reduce(RaceAction::Play);
        assert!(s.playing);
        for _ in 0..len + 3 {
            s = s.reduce(RaceAction::Tick);
        }
        assert_eq!(s.step, len);
        assert!(!s.playing, "stops at the end");
        let again = s.reduce(RaceAction::Play);
        assert_eq!(again.step, 0, "play at the end starts over");
        assert_eq!(state.reduce(RaceAction::Goto(99)).step, len);
        assert_eq!(state.reduce(RaceAction::SetSpeed(1)).speed, 100);
    }

    #[test]
    fn editing_the_timeline_and_intents() {
        let state = RaceState::default();
        let swapped = state.reduce(RaceAction::MoveUp(3));
        assert_eq!(
            swapped.scenario.schedule[2],
            Event::Write("virt-controller".into())
        );
        assert!(
            swapped.id.is_none(),
            "an edited scenario is carried whole in links"
        );
        assert!(swapped.link().scenario.is_some());
        let removed = state.reduce(RaceAction::RemoveEvent(0));
        assert_eq!(removed.scenario.schedule.len(), 4);
        let added = state.reduce(RaceAction::AddEvent(Event::Retry("virt-handler".into())));
        assert_eq!(added.scenario.schedule.len(), 6);
        let bad = state.reduce(RaceAction::EditIntents(0, "- paint: {}\n".into()));
        assert!(bad.intents[0].1.is_some());
        assert_eq!(bad.scenario, state.scenario, "a bad edit changes nothing");
        let good = state.reduce(RaceAction::EditIntents(
            0,
            "- set-label: {key: a, value: b}\n".into(),
        ));
        assert!(good.intents[0].1.is_none());
        assert_eq!(good.scenario.writers[0].intents.len(), 1);
        let preset = state.reduce(RaceAction::SetWriterPreset(0, Preset::Naive));
        assert_eq!(preset.scenario.writers[0].preset, Preset::Naive);
    }

    #[test]
    fn compare_and_explore() {
        let state = RaceState::default().reduce(RaceAction::ToggleCompare);
        let rows = state.compare.as_ref().unwrap();
        assert_eq!(rows.len(), Preset::ALL.len());
        let naive = rows.iter().find(|r| r.preset == Preset::Naive).unwrap();
        assert!(!naive.outcomes.as_ref().unwrap().lost_updates.is_empty());
        let explored = state.reduce(RaceAction::Explore);
        let exploration = explored
            .exploration
            .as_ref()
            .unwrap()
            .as_ref()
            .as_ref()
            .unwrap();
        assert_eq!(exploration.interleavings.len(), 10);
        let pick = exploration.interleavings[3].clone();
        let opened = explored.reduce(RaceAction::SetSchedule(pick.clone()));
        assert_eq!(opened.scenario.schedule, pick);
        assert!(opened.exploration.is_some(), "the explorer's table stays");
    }

    #[test]
    fn links_round_trip() {
        let state = RaceState::default()
            .reduce(RaceAction::SetPreset(Some(Preset::Naive)))
            .reduce(RaceAction::Goto(4));
        let link = state.link();
        assert_eq!(link.id.as_deref(), Some("migration-race"));
        assert_eq!(RaceState::open(link).unwrap().current(), state.current());
        let bad = RaceLink {
            id: Some("nope".into()),
            scenario: None,
            preset: None,
            step: 0,
        };
        assert_eq!(
            RaceState::open(bad.clone()).unwrap_err(),
            "there is no scenario \"nope\""
        );
        // A bad link opened over a race leaves it as it was.
        let edited = state.reduce(RaceAction::MoveDown(0));
        let after = edited.reduce(RaceAction::Open(bad));
        assert_eq!(after.scenario, edited.scenario);
        assert_eq!(after.step, edited.step);
        let notice = after.notice.unwrap();
        assert!(notice.error);
        assert_eq!(
            notice.text,
            "This link could not be opened: there is no scenario \"nope\". Nothing was changed."
        );
    }

    #[test]
    fn loading_over_an_edited_race_can_be_undone() {
        let shipped = RaceState::default();
        // A shipped scenario as shipped: nothing to lose, no undo.
        let other = library()[1].0;
        let loaded = shipped.reduce(RaceAction::Load(other.to_owned()));
        assert_eq!(loaded.id.as_deref(), Some(other));
        assert!(loaded.undo.is_none() && loaded.notice.is_none());
        // An edited schedule is kept for an undo.
        let edited = shipped
            .reduce(RaceAction::MoveDown(0))
            .reduce(RaceAction::Goto(3));
        assert!(edited.edited());
        let loaded = edited.reduce(RaceAction::Load(other.to_owned()));
        assert_eq!(loaded.id.as_deref(), Some(other));
        let notice = loaded.notice.clone().unwrap();
        assert!(!notice.error);
        assert!(
            notice
                .text
                .ends_with("replaced your edited race; \"Undo loading\" brings it back."),
            "{}",
            notice.text
        );
        let undone = loaded.reduce(RaceAction::Undo);
        assert_eq!(undone.scenario, edited.scenario);
        assert_eq!(undone.step, 3);
        assert_eq!(undone.replay, edited.replay);
        assert!(undone.undo.is_none() && undone.notice.is_none());
        // Intents text that did not parse counts as work too.
        let typing = shipped.reduce(RaceAction::EditIntents(0, "- set-label: [".to_owned()));
        assert!(typing.id.is_some() && typing.edited());
        let loaded = typing.reduce(RaceAction::Load(other.to_owned()));
        let undone = loaded.reduce(RaceAction::Undo);
        assert_eq!(undone.intents[0].0, "- set-label: [");
        // An edit after the load drops the undo.
        let later = edited
            .reduce(RaceAction::Load(other.to_owned()))
            .reduce(RaceAction::MoveDown(0));
        assert!(later.undo.is_none());
        // Opening a link over edits is undoable the same way.
        let opened = edited.reduce(RaceAction::Open(shipped.link()));
        assert_eq!(opened.reduce(RaceAction::Undo).scenario, edited.scenario);
    }

    #[test]
    fn line_diff_marks_added_and_removed() {
        let diff = line_diff("a: 1\nb: 2\n", "a: 1\nb: 3\nc: 4\n");
        assert_eq!(diff.len(), 4);
        assert_eq!(diff[0], (' ', "a: 1".to_owned()));
        assert!(diff.contains(&('-', "b: 2".to_owned())));
        assert!(diff.contains(&('+', "b: 3".to_owned())));
        assert!(diff.contains(&('+', "c: 4".to_owned())));
        assert!(diff.contains(&(' ', "a: 1".to_owned())));
    }
}
