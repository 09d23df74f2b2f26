//! What can happen in the Race view, and the reducer: the next state, a
//! pure function of the state and the action.

use std::rc::Rc;

use super::link::{OpenError, RaceLink};
use super::RaceState;
use crate::app::notice::Notice;
use crate::app::race::writer_edit::WriterEdit;
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::engines::explore::Explore;
use crate::engines::race::Race;
use crate::engines::read_yaml::ReadYaml;
use crate::engines::Answered;
use crate::kube::KubeVersion;
use crate::sim::timeline::Event;
use crate::strategy::Preset;

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
        said: Answered<ReadYaml>,
    },
    /// The engines' replay (or why there is none).
    Raced(Answered<Race>),
    /// The engines' exploration (or why there is none).
    Explored(Answered<Explore>),
    /// Edit a writer's other settings (overrides, attempts, force ...).
    EditWriter(usize, WriterEdit),
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
    /// Bring back the race a load replaced.
    Undo,
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

    fn link(&self) -> RaceLink {
        RaceLink::of(self)
    }

    fn is_work(&self) -> bool {
        self.edited()
    }

    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
        (&mut self.notice, &mut self.undo)
    }

    /// The next state (new revisions come from the state's own counter).
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
            RaceAction::SetPreset(preset) => next.set_preset(preset),
            RaceAction::SetKubernetes(version) => next.set_kubernetes(version),
            RaceAction::ToggleCompare => next.compare = !next.compare,
            RaceAction::ToggleExplore => next.toggle_explore(),
            RaceAction::Raced(said) => {
                next.raced.take(next.rev, said);
            }
            RaceAction::Explored(said) => {
                next.explored.take(next.explore_rev, said);
            }
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
            schedule @ (RaceAction::AddEvent(_)
            | RaceAction::RemoveEvent(_)
            | RaceAction::MoveUp(_)
            | RaceAction::MoveDown(_)) => next.edit_schedule(schedule),
            RaceAction::SetEditing(open) => next.editing = open,
            RaceAction::SetWriterPreset(w, preset) => next.set_writer_preset(w, preset),
            RaceAction::EditIntents(w, text) => next.edit_intents(w, text),
            RaceAction::YamlRead { texts, said } => next.take_read(&texts, &said.answer),
            RaceAction::EditWriter(w, edit) => next.edit_writer(w, edit),
        }
        next
    }

    /// A race shown in place of `previous` (loaded, opened, brought back)
    /// is renumbered past it, does not play on by itself, and asks again
    /// for its texts waiting to be read (`typed` counts on from `previous`).
    fn after(self, previous: &Self) -> Self {
        RaceState {
            playing: false,
            typed: previous.typed.max(self.typed) + 1,
            ..self.renumbered(previous.last_rev)
        }
    }

    fn open_action(link: RaceLink) -> RaceAction {
        RaceAction::Open(link)
    }

    fn notify_action(notice: Notice) -> RaceAction {
        RaceAction::Notify(notice)
    }
}
