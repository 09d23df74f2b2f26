//! The Build view's state: two editors, result columns, per-field
//! overrides, a notice and an undo. A pure reducer, tested natively; the
//! components render it, the hooks do the work that takes time
//! ([`super::recompute`]) and talk to the browser.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::examples::{example, examples, FIRST_EXAMPLE};
use super::recompute::{Computed, RecomputeJob};
use crate::app::link::{LinkError, Shareable, Start};
use crate::app::notice::Notice;
use crate::app::route::View;
use crate::input::{self, Format, InputError};
use crate::kube::KubeVersion;
use crate::pointer::{Pointer, PointerBuf};
use crate::strategy::{Change, DiffError, FieldKind, Options, Plan, Preset, RoundTrip, Strategy};

/// The most result columns.
pub const MAX_COLUMNS: usize = 6;
/// The most per-field overrides in all columns.
pub const MAX_OVERRIDES: usize = 200;

/// One result column: a preset and its per-field overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// The preset.
    pub preset: Preset,
    /// Strategy overrides by pointer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<PointerBuf, Strategy>,
}

impl Column {
    /// A column of `preset` without overrides.
    pub fn of(preset: Preset) -> Column {
        Column {
            preset,
            overrides: BTreeMap::new(),
        }
    }

    /// The diff options of this column.
    pub fn options(&self) -> Options {
        let mut options = Options::preset(self.preset);
        for (path, strategy) in &self.overrides {
            options.policy.set_strategy(path.clone(), *strategy);
        }
        options
    }
}

/// What a Build view link holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildLink {
    /// The old object's text.
    pub old: Rc<str>,
    /// The new object's text.
    pub new: Rc<str>,
    /// The editors' format.
    pub format: Format,
    /// The result columns.
    pub columns: Vec<Column>,
    /// The example it started from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The Kubernetes release the round trips run on (the newest when
    /// not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<KubeVersion>,
}

impl BuildLink {
    /// The link of a bundled example, with `presets` as its columns when
    /// given.
    pub fn example(id: &str, presets: Option<&[Preset]>) -> Option<BuildLink> {
        let example = example(id)?;
        Some(BuildLink {
            old: Rc::from(example.old.as_str()),
            new: Rc::from(example.new.as_str()),
            format: Format::Yaml,
            columns: match presets {
                Some(presets) => presets.iter().copied().map(Column::of).collect(),
                None => example.columns.clone(),
            },
            example: Some(example.id.to_owned()),
            kubernetes: None,
        })
    }
}

impl Shareable for BuildLink {
    const VIEW: View = View::Build;
    const STORAGE_KEY: &'static str = "patchlab.build";

    fn check(&self) -> Result<(), LinkError> {
        if self.columns.is_empty() || self.columns.len() > MAX_COLUMNS {
            return Err(LinkError::OverBudget(format!(
                "{} result columns (1 to {MAX_COLUMNS})",
                self.columns.len()
            )));
        }
        let overrides: usize = self.columns.iter().map(|c| c.overrides.len()).sum();
        if overrides > MAX_OVERRIDES {
            return Err(LinkError::OverBudget(format!(
                "{overrides} field overrides (at most {MAX_OVERRIDES})"
            )));
        }
        Ok(())
    }
}

/// One editor: its text and what the text parses to.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    /// The text (shared: states are cloned on every action, texts can be
    /// megabytes).
    pub text: Rc<str>,
    /// Bumped on every change of the text.
    pub rev: u64,
    /// The last text that parsed, as a value.
    pub value: Option<Rc<Value>>,
    /// The error of the text of revision `parsed`, if it did not parse.
    pub error: Option<InputError>,
    /// The revision `value` or `error` belong to.
    pub parsed: u64,
}

impl Editor {
    fn new(text: Rc<str>, rev: u64) -> Editor {
        Editor {
            text,
            rev,
            value: None,
            error: None,
            parsed: 0,
        }
    }

    /// True when the text changed since it was parsed.
    pub fn dirty(&self) -> bool {
        self.parsed != self.rev
    }

    /// The current text's parse error (none while it is being parsed).
    pub fn current_error(&self) -> Option<&InputError> {
        self.error.as_ref().filter(|_| !self.dirty())
    }
}

/// One column's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnResult {
    /// The plan, or why there is none.
    pub plan: Result<Plan, DiffError>,
    /// The bytes sent.
    pub payload_bytes: usize,
    /// The round-trip check.
    pub round_trip: RoundTrip,
    /// Per op: true when no other column sends the same op.
    pub unique: Vec<bool>,
}

/// The revisions a result was computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Revs {
    /// The old editor's.
    pub old: u64,
    /// The new editor's.
    pub new: u64,
    /// The columns'.
    pub columns: u64,
}

/// What an undo restores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    link: BuildLink,
}

/// The whole Build view state.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildState {
    /// The old object's editor.
    pub old: Editor,
    /// The new object's editor.
    pub new: Editor,
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
    /// Per column (shared, like the parsed values).
    pub results: Rc<Vec<ColumnResult>>,
    /// The revisions `results` come from.
    pub results_for: Option<Revs>,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// What the last replacement replaced (shown as the notice's Undo).
    pub undo: Option<Rc<Snapshot>>,
    /// The last revision handed out.
    last_rev: u64,
}

/// What can happen in the Build view.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildAction {
    /// The old editor's text changed.
    EditOld(String),
    /// The new editor's text changed.
    EditNew(String),
    /// Parse and diff what changed, at once.
    Recompute,
    /// What a recomputation in pieces found.
    Computed(Rc<Computed>),
    /// Convert both editors to a format.
    SetFormat(Format),
    /// Pretty-print both editors.
    FormatText,
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
    /// The state of a link (or of anything a link can hold), computed.
    pub fn from_link(link: BuildLink) -> BuildState {
        let mut state = BuildState {
            old: Editor::new(Rc::clone(&link.old), 1),
            new: Editor::new(Rc::clone(&link.new), 2),
            format: link.format,
            columns: link.columns,
            columns_rev: 3,
            example: link.example,
            kubernetes: link.kubernetes,
            results: Rc::new(Vec::new()),
            results_for: None,
            notice: None,
            undo: None,
            last_rev: 3,
        };
        state.recompute();
        state
    }

    /// The state a visit starts with (see [`Start`]).
    pub fn start(start: Start<BuildLink>) -> BuildState {
        match start {
            Start::Fresh => BuildState::default(),
            Start::Saved(link) => BuildState::from_link(link),
            Start::Link { link, saved } => {
                let mut state = BuildState::from_link(link);
                if let Some(saved) = saved.filter(BuildState::is_work) {
                    state.keep_for_undo(saved, "Opened the link");
                }
                state
            }
            Start::BrokenLink { error, saved } => {
                let mut state = saved.map(BuildState::from_link).unwrap_or_default();
                state.notice = Some(Notice::from(&error));
                state
            }
            Start::BrokenSaved(error) => BuildState {
                notice: Some(
                    Notice::warning(
                        "Your saved work could not be read, so this is the first example.",
                    )
                    .with_detail(Some(&error.to_string())),
                ),
                ..BuildState::default()
            },
        }
    }

    /// The link of this state.
    pub fn link(&self) -> BuildLink {
        BuildLink {
            old: Rc::clone(&self.old.text),
            new: Rc::clone(&self.new.text),
            format: self.format,
            columns: self.columns.clone(),
            example: self.example.clone(),
            kubernetes: self.kubernetes,
        }
    }

    /// True when a link holds work that replacing it loses: anything but
    /// a bundled example as bundled.
    fn is_work(link: &BuildLink) -> bool {
        match link.example.as_deref().and_then(example) {
            Some(e) => *e.old != *link.old || *e.new != *link.new || e.columns != link.columns,
            None => true,
        }
    }

    /// True when replacing the objects loses work.
    pub fn edited(&self) -> bool {
        BuildState::is_work(&self.link())
    }

    /// The title and description of what the editors hold: the example's
    /// while they hold it as bundled, "Your objects" otherwise.
    pub fn title(&self) -> (String, Option<String>) {
        match self.example.as_deref().and_then(example) {
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

    fn bump(&mut self) -> u64 {
        self.last_rev += 1;
        self.last_rev
    }

    /// Replaces the content with a link's, keeping revisions increasing so
    /// no earlier computation is mistaken for this content's.
    fn replace_with(&mut self, link: BuildLink) {
        let (old, new, columns) = (self.bump(), self.bump(), self.bump());
        self.old = Editor::new(Rc::clone(&link.old), old);
        self.new = Editor::new(Rc::clone(&link.new), new);
        self.format = link.format;
        self.columns = link.columns;
        self.columns_rev = columns;
        self.example = link.example;
        self.kubernetes = link.kubernetes;
        self.recompute();
    }

    /// Keeps `link` as what Undo brings back, and says so.
    fn keep_for_undo(&mut self, link: BuildLink, what: &str) {
        self.undo = Some(Rc::new(Snapshot { link }));
        self.notice = Some(
            Notice::info(format!(
                "{what}. What the editors held before is kept: Undo brings it back."
            ))
            .with_undo("Undo"),
        );
    }

    /// Replaces the content with `link`, keeping the current one for an
    /// undo when it is work.
    fn load(&mut self, link: BuildLink, what: &str) {
        let previous = self.link();
        let keep = BuildState::is_work(&previous) && previous != link;
        self.notice = None;
        self.undo = None;
        self.replace_with(link);
        if keep {
            self.keep_for_undo(previous, what);
        }
    }

    /// The next state; a pure function of the state and the action.
    pub fn reduce(&self, action: BuildAction) -> BuildState {
        let mut next = self.clone();
        match action {
            BuildAction::EditOld(text) => {
                next.old.text = Rc::from(text);
                next.old.rev = next.bump();
            }
            BuildAction::EditNew(text) => {
                next.new.text = Rc::from(text);
                next.new.rev = next.bump();
            }
            BuildAction::Recompute => next.recompute(),
            BuildAction::Computed(computed) => next.accept(&computed),
            BuildAction::SetFormat(format) => next.convert(format),
            BuildAction::FormatText => next.convert(next.format),
            BuildAction::Swap => {
                let (old, new) = (next.bump(), next.bump());
                std::mem::swap(&mut next.old, &mut next.new);
                next.old.rev = old;
                next.new.rev = new;
                // The parsed values moved with the texts.
                next.old.parsed = if self.new.dirty() { 0 } else { old };
                next.new.parsed = if self.old.dirty() { 0 } else { new };
                next.recompute();
            }
            BuildAction::Reset => {
                let id = next
                    .example
                    .clone()
                    .unwrap_or_else(|| FIRST_EXAMPLE.to_owned());
                if let Some(link) = BuildLink::example(&id, None) {
                    next.load(link, "Reset to the example");
                }
            }
            BuildAction::LoadExample(id) => match BuildLink::example(&id, None) {
                Some(link) => {
                    let title = example(&id).map(|e| e.title.as_str()).unwrap_or_default();
                    next.load(link, &format!("Loaded the example “{title}”"));
                }
                None => next.notice = Some(Notice::error(format!("There is no example {id:?}."))),
            },
            BuildAction::OpenLink(link) => next.load(link, "Opened the link"),
            BuildAction::Undo => {
                if let Some(snapshot) = next.undo.take() {
                    next.load(snapshot.link.clone(), "Brought back your previous objects");
                }
            }
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
            BuildAction::AddColumn => {
                if next.columns.len() < MAX_COLUMNS {
                    let preset = Preset::ALL
                        .into_iter()
                        .find(|p| !next.columns.iter().any(|c| c.preset == *p))
                        .unwrap_or_default();
                    next.columns.push(Column::of(preset));
                    next.columns_changed();
                }
            }
            BuildAction::RemoveColumn(i) => {
                if next.columns.len() > 1 && i < next.columns.len() {
                    next.columns.remove(i);
                    next.columns_changed();
                }
            }
            BuildAction::SetOverride(i, path, strategy) => {
                let overrides: usize = next.columns.iter().map(|c| c.overrides.len()).sum();
                if let Some(column) = next.columns.get_mut(i) {
                    match strategy {
                        Some(_)
                            if overrides >= MAX_OVERRIDES
                                && !column.overrides.contains_key(&path) =>
                        {
                            next.notice = Some(Notice::warning(format!(
                                "At most {MAX_OVERRIDES} field overrides: clear one first."
                            )));
                            return next;
                        }
                        Some(strategy) => column.overrides.insert(path, strategy),
                        None => column.overrides.remove(&path),
                    };
                    next.columns_changed();
                }
            }
            BuildAction::Notify(notice) => next.notice = Some(notice),
            BuildAction::DismissNotice => next.notice = None,
        }
        next
    }

    fn columns_changed(&mut self) {
        self.columns_rev = self.bump();
    }

    /// Brings everything up to date at once (the hook calls this for small
    /// texts; big ones go through a [`RecomputeJob`] in pieces).
    pub fn recompute(&mut self) {
        if let Some(job) = RecomputeJob::new(self) {
            let computed = job.run();
            self.accept(&computed);
        }
    }

    /// Takes in what a recomputation found, where it still applies.
    fn accept(&mut self, computed: &Computed) {
        for (editor, parsed) in [
            (&mut self.old, &computed.old),
            (&mut self.new, &computed.new),
        ] {
            if let Some((rev, result)) = parsed {
                if *rev == editor.rev {
                    editor.parsed = *rev;
                    match result {
                        Ok(value) => {
                            editor.value = Some(Rc::clone(value));
                            editor.error = None;
                        }
                        Err(error) => editor.error = Some(error.clone()),
                    }
                }
            }
        }
        if let Some(results) = &computed.results {
            if computed.revs == self.revs() {
                self.results = Rc::clone(results);
                self.results_for = Some(computed.revs);
            }
        }
    }

    /// Re-writes both editors in `format` (pretty), when both parse.
    fn convert(&mut self, format: Format) {
        self.recompute();
        match (&self.old.value, &self.new.value, self.blocked()) {
            (Some(old), Some(new), false) => {
                let (old, new) = (input::write(old, format), input::write(new, format));
                let (old_rev, new_rev) = (self.bump(), self.bump());
                // Same values, new text: the parse is still good.
                self.old.text = Rc::from(old);
                self.old.rev = old_rev;
                self.old.parsed = old_rev;
                self.new.text = Rc::from(new);
                self.new.rev = new_rev;
                self.new.parsed = new_rev;
                if let Some(revs) = self.results_for.as_mut() {
                    revs.old = old_rev;
                    revs.new = new_rev;
                }
                self.format = format;
            }
            _ => {
                self.notice = Some(Notice::error(
                    "Fix the parse error first: only text that parses can be converted or formatted.",
                ));
            }
        }
    }

    /// Rows of the Fields table: every changed path (in any column), with
    /// its kind and each column's strategy.
    pub fn fields(&self) -> Vec<FieldRow> {
        let mut rows: BTreeMap<PointerBuf, FieldRow> = BTreeMap::new();
        for (i, result) in self.results.iter().enumerate() {
            let Ok(plan) = &result.plan else {
                continue;
            };
            for field in &plan.fields {
                let row = rows.entry(field.path.clone()).or_insert_with(|| FieldRow {
                    path: field.path.clone(),
                    kind: field.kind,
                    change: field.change,
                    strategies: vec![None; self.columns.len()],
                });
                if let Some(slot) = row.strategies.get_mut(i) {
                    *slot = Some(field.strategy);
                }
            }
        }
        rows.into_values().collect()
    }

    /// The examples, for the menu.
    pub fn examples(&self) -> &'static [super::examples::Example] {
        examples()
    }

    /// The value at `path` of the new object (for exports that name the
    /// object).
    pub fn new_at(&self, path: &Pointer) -> Option<&Value> {
        self.new.value.as_deref().and_then(|v| path.resolve(v))
    }
}

/// A row of the Fields table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRow {
    /// The field's pointer.
    pub path: PointerBuf,
    /// Its kind.
    pub kind: FieldKind,
    /// How it changed.
    pub change: Change,
    /// The strategy per column (`None` where the column sends a
    /// whole-object body).
    pub strategies: Vec<Option<Strategy>>,
}

impl crate::app::link::ViewState for BuildState {
    type Link = BuildLink;
    type Action = BuildAction;

    fn start(start: Start<BuildLink>) -> Self {
        BuildState::start(start)
    }

    fn link(&self) -> BuildLink {
        BuildState::link(self)
    }

    fn open(link: BuildLink) -> BuildAction {
        BuildAction::OpenLink(link)
    }

    fn notify(notice: Notice) -> BuildAction {
        BuildAction::Notify(notice)
    }
}
