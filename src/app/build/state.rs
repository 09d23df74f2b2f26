//! The Build view's state: two text sides, result columns, per-field
//! overrides, a notice and an undo. A pure reducer, tested natively; the
//! components render it, the hooks do the work that takes time
//! ([`super::recompute`]) and talk to the browser.

use std::convert::Infallible;
use std::rc::Rc;

use super::examples::{example, Example, FIRST_EXAMPLE};
use super::link::{BuildLink, Column, MAX_COLUMNS, MAX_OVERRIDES};
use super::recompute::{Results, Revs, TextSide};
use crate::app::notice::Notice;
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::engines::build::Build;
use crate::engines::convert::{Convert, CANNOT_CONVERT};
use crate::engines::worker::Worker;
use crate::engines::{Answered, Failure, INSTANT_BYTES, TABLE};
use crate::input::Format;
use crate::kube::KubeVersion;
use crate::pointer::PointerBuf;
use crate::strategy::{Preset, Strategy};

/// The whole Build view state.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildState {
    /// The old object's text.
    pub old: TextSide,
    /// The new object's text.
    pub new: TextSide,
    /// The editors' format.
    pub format: Format,
    /// The result columns.
    pub columns: Vec<Column>,
    /// Bumped on every change of the columns.
    pub columns_rev: u64,
    /// The example loaded last, if any.
    pub example: Option<String>,
    /// The Kubernetes release the round trips run on (`None`: the newest).
    pub kubernetes: Option<KubeVersion>,
    /// Per column, and the Fields table (shared, like the parsed values).
    pub results: Rc<Results>,
    /// The revisions `results` come from.
    pub results_for: Option<Revs>,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// What the last replacement replaced (shown as the notice's Undo).
    pub undo: Option<Undo<BuildState>>,
    /// A conversion asked of the engines and not answered yet.
    pub converting: Option<Conversion>,
    /// The last revision handed out.
    last_rev: u64,
}

/// A Convert or Format asked of the engines (the page module carries no
/// YAML reader): the format, and the revisions of the texts it rewrites.
/// Its answer is taken only while the texts are still those.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conversion {
    /// The format to write.
    pub format: Format,
    /// The revisions of the old and the new text.
    pub revs: (u64, u64),
    /// Its own revision (asked again, another conversion).
    pub rev: u64,
}

/// What can happen in the Build view.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildAction {
    /// The old editor's text changed.
    EditOld(Rc<str>),
    /// The new editor's text changed.
    EditNew(Rc<str>),
    /// What the engines found, or why they could not answer.
    Computed(Answered<Build>),
    /// Convert both editors to a format.
    SetFormat(Format),
    /// Pretty-print both editors.
    FormatText,
    /// The engines' answer to a conversion: both texts, or why not.
    Converted(Answered<Convert>),
    /// Swap old and new.
    Swap,
    /// Back to the current example's text (undoable).
    Reset,
    /// Load an example by id (undoable).
    LoadExample(String),
    /// Open a link's state (undoable).
    OpenLink(BuildLink),
    /// Restore what the last replacement replaced.
    Undo,
    /// Set a column's preset.
    SetPreset(usize, Preset),
    /// Add a column (the next preset not shown yet).
    AddColumn,
    /// Remove a column (one always stays).
    RemoveColumn(usize),
    /// Override (or clear, with `None`) a field's strategy in a column.
    SetOverride(usize, PointerBuf, Option<Strategy>),
    /// Run the round trips on a Kubernetes release.
    SetKubernetes(KubeVersion),
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
}

impl Default for BuildState {
    fn default() -> Self {
        BuildState::from_link(BuildLink::example(FIRST_EXAMPLE, None).unwrap_or_else(|| {
            BuildLink {
                old: Rc::from("{}"),
                new: Rc::from("{}"),
                format: Format::Json,
                columns: vec![Column::of(Preset::KubevirtMain), Column::default()],
                example: None,
                kubernetes: None,
            }
        }))
    }
}

impl BuildState {
    /// The state of a link (or of anything a link can hold), its results
    /// to be computed (by the engine worker, or [`BuildState::recompute`]).
    pub fn from_link(link: BuildLink) -> BuildState {
        BuildState {
            old: TextSide::new(Rc::clone(&link.old), 1),
            new: TextSide::new(Rc::clone(&link.new), 2),
            format: link.format,
            columns: link.columns,
            columns_rev: 3,
            example: link.example,
            kubernetes: link.kubernetes,
            results: Rc::default(),
            results_for: None,
            notice: None,
            undo: None,
            converting: None,
            last_rev: 3,
        }
    }

    /// The state of a link with its results computed here, at once (Learn's
    /// live examples, tests).
    pub fn computed(link: BuildLink) -> BuildState {
        let mut state = BuildState::from_link(link);
        state.recompute();
        state
    }

    /// The example the editors started from, if it is bundled.
    fn bundled(&self) -> Option<&'static Example> {
        self.example.as_deref().and_then(example)
    }

    /// True when replacing the objects loses work: anything but a bundled
    /// example as bundled.
    pub fn edited(&self) -> bool {
        self.bundled().is_none_or(|e| !e.is(&self.link()))
    }

    /// The title and description of what the editors hold: the example's
    /// while they hold it as bundled, "Your objects" otherwise.
    pub fn title(&self) -> (String, Option<String>) {
        match self.bundled() {
            Some(e) if *e.old == *self.old.text && *e.new == *self.new.text => {
                (e.title.clone(), Some(e.description.clone()))
            }
            Some(e) => (
                "Your objects".to_owned(),
                Some(format!("Started from the example “{}”.", e.title)),
            ),
            None => ("Your objects".to_owned(), None),
        }
    }

    /// The revisions of what the results should come from.
    pub fn revs(&self) -> Revs {
        Revs {
            old: self.old.rev,
            new: self.new.rev,
            columns: self.columns_rev,
        }
    }

    /// True when the results are not those of the current text and columns.
    pub fn stale(&self) -> bool {
        self.results_for != Some(self.revs())
    }

    /// True when a parse error stops the results from being brought up to
    /// date.
    pub fn blocked(&self) -> bool {
        self.old.current_error().is_some() || self.new.current_error().is_some()
    }

    /// True while the results are behind and can be brought up to date.
    pub fn busy(&self) -> bool {
        self.stale() && !self.blocked()
    }

    /// Total bytes in the editors.
    pub fn text_bytes(&self) -> usize {
        self.old.text.len() + self.new.text.len()
    }

    /// True when the texts are too big to recompute on every keystroke.
    pub fn big(&self) -> bool {
        self.text_bytes() > INSTANT_BYTES
    }

    fn bump(&mut self) -> u64 {
        self.last_rev += 1;
        self.last_rev
    }

    /// The revisions the engines are to bring the results up to; `None`
    /// when nothing (up to date, or stopped by a parse error of unchanged
    /// text).
    pub fn wants(&self) -> Option<Revs> {
        self.busy().then(|| self.revs())
    }

    /// True when the texts (not only the columns) changed since the
    /// results: a big text then waits for a pause in typing.
    pub fn typed(&self) -> bool {
        self.results_for
            .is_none_or(|r| (r.old, r.new) != (self.old.rev, self.new.rev))
    }

    /// The question that brings the results up to date.
    pub fn question(&self) -> Build {
        Build {
            old: Rc::clone(&self.old.text),
            new: Rc::clone(&self.new.text),
            columns: self.columns.clone(),
            kubernetes: self.kubernetes.unwrap_or_default(),
        }
    }

    /// Brings everything up to date at once, with the engines in this
    /// thread (the browser's Build view asks the engines' worker instead).
    pub fn recompute(&mut self) {
        if let Some(revs) = self.wants() {
            let answer = Worker::new(TABLE).answer_now(self.question());
            self.accept(Answered {
                rev: revs,
                answer: answer.map(Rc::new).map_err(Failure::Refused),
                more: false,
            });
        }
    }

    /// The conversion to ask the engines for.
    pub fn conversion(&self) -> Option<(u64, Convert)> {
        self.converting.map(|c| {
            let convert = Convert {
                format: c.format,
                old: Rc::clone(&self.old.text),
                new: Rc::clone(&self.new.text),
            };
            (c.rev, convert)
        })
    }

    /// Carries out a pending conversion at once, with the engines in this
    /// thread (the browser's Build view asks the engines instead).
    pub fn convert_now(&mut self) {
        if let Some((rev, convert)) = self.conversion() {
            let answer = Worker::new(TABLE).answer_now(convert);
            self.converted(Answered {
                rev,
                answer: answer.map(Rc::new).map_err(Failure::Refused),
                more: false,
            });
        }
    }

    /// Takes in what the engines found, where it still applies.
    fn accept(&mut self, said: Answered<Build>) {
        let revs = said.rev;
        let answer = match said.answer {
            Ok(answer) => answer,
            Err(why) => {
                self.notice = Some(Notice::error(format!(
                    "The results cannot be computed: {why}. Your objects are kept."
                )));
                return;
            }
        };
        self.old.take(revs.old, answer.old.as_ref());
        self.new.take(revs.new, answer.new.as_ref());
        if let Some(results) = &answer.results {
            if revs == self.revs() {
                self.results = Rc::clone(results);
                self.results_for = Some(revs);
            }
        }
    }

    /// `self` with new revisions past `base`, so that nothing computed for
    /// an earlier state is mistaken for this one's (what was up to date
    /// stays so, what was behind stays behind).
    fn renumbered(mut self, base: u64) -> BuildState {
        let to = Revs {
            old: base + 1,
            new: base + 2,
            columns: base + 3,
        };
        let from = self.revs();
        let map = |rev: u64, from: u64, to: u64| if rev == from { to } else { 0 };
        if let Some(revs) = self.results_for.as_mut() {
            *revs = Revs {
                old: map(revs.old, from.old, to.old),
                new: map(revs.new, from.new, to.new),
                columns: map(revs.columns, from.columns, to.columns),
            };
        }
        self.old.parsed = map(self.old.parsed, from.old, to.old);
        self.new.parsed = map(self.new.parsed, from.new, to.new);
        self.old.rev = to.old;
        self.new.rev = to.new;
        self.columns_rev = to.columns;
        self.last_rev = to.columns;
        // A state that replaces another (opened, loaded, brought back by
        // Undo) waits for no conversion: an answer would be for the texts
        // under their old numbers.
        self.converting = None;
        self
    }

    /// A text side's text changed.
    fn edit(&mut self, side: fn(&mut BuildState) -> &mut TextSide, text: Rc<str>) {
        let rev = self.bump();
        let side = side(self);
        side.text = text;
        side.rev = rev;
    }

    /// The state of `link` in place of this one (undoable when this is work).
    fn load(&self, link: BuildLink, what: &str) -> BuildState {
        view_state::replace(self, BuildState::from_link(link), what)
    }

    fn swap(&mut self) {
        let (old, new) = (self.bump(), self.bump());
        let (old_dirty, new_dirty) = (self.old.dirty(), self.new.dirty());
        std::mem::swap(&mut self.old, &mut self.new);
        self.old.rev = old;
        self.new.rev = new;
        // The parses moved with the texts.
        self.old.parsed = if new_dirty { 0 } else { old };
        self.new.parsed = if old_dirty { 0 } else { new };
    }

    fn add_column(&mut self) {
        if self.columns.len() < MAX_COLUMNS {
            let preset = Preset::ALL
                .into_iter()
                .find(|p| !self.columns.iter().any(|c| c.preset == *p))
                .unwrap_or_default();
            self.columns.push(Column::of(preset));
            self.columns_changed();
        }
    }

    fn set_override(&mut self, i: usize, path: PointerBuf, strategy: Option<Strategy>) {
        let overrides: usize = self.columns.iter().map(|c| c.overrides.len()).sum();
        let Some(column) = self.columns.get_mut(i) else {
            return;
        };
        match strategy {
            Some(_) if overrides >= MAX_OVERRIDES && !column.overrides.contains_key(&path) => {
                self.notice = Some(Notice::warning(format!(
                    "At most {MAX_OVERRIDES} field overrides: clear one first."
                )));
                return;
            }
            Some(strategy) => column.overrides.insert(path, strategy),
            None => column.overrides.remove(&path),
        };
        self.columns_changed();
    }

    fn columns_changed(&mut self) {
        self.columns_rev = self.bump();
    }

    /// Asks for both editors in `format` (pretty): at once refused when a
    /// side is known not to parse, otherwise a [`Conversion`] for the
    /// engines.
    fn convert(&mut self, format: Format) {
        if self.blocked() {
            self.notice = Some(Notice::error(CANNOT_CONVERT));
            return;
        }
        self.converting = Some(Conversion {
            format,
            revs: (self.old.rev, self.new.rev),
            rev: self.bump(),
        });
    }

    /// Takes in the engines' answer to the conversion asked, if the texts
    /// are still those it rewrote.
    fn converted(&mut self, said: Answered<Convert>) {
        let Some(conversion) = self.converting.filter(|c| c.rev == said.rev) else {
            return;
        };
        self.converting = None;
        if conversion.revs != (self.old.rev, self.new.rev) {
            return;
        }
        match said.answer {
            Ok(texts) => {
                let (old, new) = (Rc::from(texts.0.as_str()), Rc::from(texts.1.as_str()));
                let format = conversion.format;
                let current = !self.stale();
                let (old_rev, new_rev) = (self.bump(), self.bump());
                // Same values, new text: the parse is still good.
                self.old.text = old;
                self.old.rev = old_rev;
                self.old.parsed = old_rev;
                self.old.error = None;
                self.new.text = new;
                self.new.rev = new_rev;
                self.new.parsed = new_rev;
                self.new.error = None;
                // Results of the same values are still the results.
                if let (true, Some(revs)) = (current, self.results_for.as_mut()) {
                    revs.old = old_rev;
                    revs.new = new_rev;
                }
                self.format = format;
            }
            Err(Failure::Refused(why)) => self.notice = Some(Notice::error(why.to_string())),
            Err(Failure::Unavailable(why)) => {
                self.notice = Some(Notice::error(format!(
                    "The objects cannot be converted: {why}. Your objects are kept."
                )));
            }
        }
    }
}

impl ViewState for BuildState {
    type Link = BuildLink;
    type Action = BuildAction;
    type OpenError = Infallible;
    const WORDS: Words = Words {
        saved: "work",
        fresh: "this is the first example",
        kept: "What the editors held before is kept",
        back: "Brought back your previous objects",
    };

    fn from_link(link: BuildLink) -> Result<Self, Infallible> {
        Ok(BuildState::from_link(link))
    }

    /// The link of this state.
    fn link(&self) -> BuildLink {
        BuildLink {
            old: Rc::clone(&self.old.text),
            new: Rc::clone(&self.new.text),
            format: self.format,
            columns: self.columns.clone(),
            example: self.example.clone(),
            kubernetes: self.kubernetes,
        }
    }

    fn is_work(&self) -> bool {
        self.edited()
    }

    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
        (&mut self.notice, &mut self.undo)
    }

    /// The next state; a pure function of the state and the action.
    fn reduce(&self, action: BuildAction) -> Self {
        let mut next = self.clone();
        match action {
            BuildAction::EditOld(text) => next.edit(|s| &mut s.old, text),
            BuildAction::EditNew(text) => next.edit(|s| &mut s.new, text),
            BuildAction::Computed(said) => next.accept(said),
            BuildAction::SetFormat(format) => next.convert(format),
            // In the format asked for last, when a conversion still waits.
            BuildAction::FormatText => {
                next.convert(next.converting.map_or(next.format, |c| c.format))
            }
            BuildAction::Converted(said) => next.converted(said),
            BuildAction::Swap => next.swap(),
            BuildAction::Reset => {
                let id = self.example.as_deref().unwrap_or(FIRST_EXAMPLE);
                if let Some(link) = BuildLink::example(id, None) {
                    next = self.load(link, "Reset to the example");
                }
            }
            BuildAction::LoadExample(id) => match BuildLink::example(&id, None) {
                Some(link) => {
                    let title = example(&id).map(|e| e.title.as_str()).unwrap_or_default();
                    next = self.load(link, &format!("Loaded the example “{title}”"));
                }
                None => next.notice = Some(Notice::error(format!("There is no example {id:?}."))),
            },
            BuildAction::OpenLink(link) => next = view_state::open(self, link),
            BuildAction::Undo => next = view_state::undo(self),
            BuildAction::SetKubernetes(version) => {
                let version = (version != KubeVersion::NEWEST).then_some(version);
                if next.kubernetes != version {
                    next.kubernetes = version;
                    next.columns_changed();
                }
            }
            BuildAction::SetPreset(i, preset) => {
                if let Some(column) = next.columns.get_mut(i) {
                    column.preset = preset;
                    next.columns_changed();
                }
            }
            BuildAction::AddColumn => next.add_column(),
            BuildAction::RemoveColumn(i) => {
                if next.columns.len() > 1 && i < next.columns.len() {
                    next.columns.remove(i);
                    next.columns_changed();
                }
            }
            BuildAction::SetOverride(i, path, strategy) => next.set_override(i, path, strategy),
            BuildAction::Notify(notice) => next.notice = Some(notice),
            BuildAction::DismissNotice => next.notice = None,
        }
        next
    }

    fn after(self, previous: &Self) -> Self {
        self.renumbered(previous.last_rev)
    }

    fn open_action(link: BuildLink) -> BuildAction {
        BuildAction::OpenLink(link)
    }

    fn notify_action(notice: Notice) -> BuildAction {
        BuildAction::Notify(notice)
    }
}
