//! The Build view's state: two editors, result columns, per-field
//! overrides. A pure reducer, tested natively; the components render it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Deserialize;
use serde_json::Value;

use super::share::BuildLink;
use crate::input::{self, Budget, Format, InputError, ParseJob};
use crate::pointer::PointerBuf;
use crate::strategy::{self, FieldKind, Options, Plan, Preset, Strategy};

pub use super::share::Column;

impl Column {
    /// The diff options of this column.
    pub fn options(&self) -> Options {
        let mut options = Options::preset(self.preset);
        for (path, strategy) in &self.overrides {
            if let Ok(path) = PointerBuf::parse(path.as_str()) {
                options.policy.set_strategy(path, *strategy);
            }
        }
        options
    }
}

/// A bundled example.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// Its id (the file name).
    #[serde(skip)]
    pub id: &'static str,
    /// The menu title.
    pub title: String,
    /// What it shows.
    pub description: String,
    /// The suggested comparison.
    pub columns: Vec<Column>,
    /// The old object (YAML).
    pub old: String,
    /// The new object (YAML).
    pub new: String,
}

const EXAMPLE_FILES: [(&str, &str); 6] = [
    (
        "migration-race",
        include_str!("../../www/examples/migration-race.yaml"),
    ),
    (
        "finalizers",
        include_str!("../../www/examples/finalizers.yaml"),
    ),
    (
        "migration-state",
        include_str!("../../www/examples/migration-state.yaml"),
    ),
    (
        "annotation-keys",
        include_str!("../../www/examples/annotation-keys.yaml"),
    ),
    (
        "active-pods",
        include_str!("../../www/examples/active-pods.yaml"),
    ),
    (
        "pod-annotations",
        include_str!("../../www/examples/pod-annotations.yaml"),
    ),
];

/// The id of the example a first visit opens.
pub const FIRST_EXAMPLE: &str = "migration-race";

/// Every bundled example, in menu order (parsed once).
pub fn examples() -> &'static [Example] {
    static EXAMPLES: std::sync::OnceLock<Vec<Example>> = std::sync::OnceLock::new();
    EXAMPLES.get_or_init(|| {
        EXAMPLE_FILES
            .iter()
            .filter_map(|(id, text)| {
                let value = input::parse_as(text, Format::Yaml, &Budget::default()).ok()?;
                let mut example: Example = serde_json::from_value(value).ok()?;
                example.id = id;
                Some(example)
            })
            .collect()
    })
}

/// One example by id.
pub fn example(id: &str) -> Option<&'static Example> {
    examples().iter().find(|e| e.id == id)
}

/// What an editor's text parses to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// The last text that parsed, as a value (shared: states are cloned on
    /// every action, values can be megabytes).
    pub value: Option<Rc<Value>>,
    /// The current text's error, if it does not parse.
    pub error: Option<InputError>,
    /// The text changed since it was parsed.
    pub dirty: bool,
    /// A parse of a big text, under way.
    job: Option<PendingParse>,
}

impl Parsed {
    /// The text changed: parse it again (from the start).
    fn touch(&mut self) {
        self.dirty = true;
        self.job = None;
    }
}

/// A parse in pieces. Shared by the clones of a state; only the newest
/// state steps it.
#[derive(Clone)]
struct PendingParse(Rc<RefCell<ParseJob>>);

impl PartialEq for PendingParse {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for PendingParse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PendingParse")
    }
}

/// Characters parsed per piece of a big text (about 40 ms of YAML in a
/// browser).
pub const PIECE_CHARS: usize = 512 * 1024;

/// Does applying the ops to old (kube semantics) give new?
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundTrip {
    /// It does.
    Exact,
    /// It does not: why.
    Differs(String),
    /// Not a body that can be checked this way (server-side apply).
    NotApplicable,
}

/// One column's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnResult {
    /// The plan, or why there is none.
    pub plan: Result<Plan, String>,
    /// The bytes sent.
    pub payload_bytes: usize,
    /// The round-trip check.
    pub round_trip: RoundTrip,
    /// Per op: true when no other column sends the same op.
    pub unique: Vec<bool>,
}

/// A message shown above the view until dismissed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// `info` or `error`.
    pub error: bool,
    /// The text.
    pub text: String,
}

/// What an undo restores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    old_text: String,
    new_text: String,
    format: Format,
    columns: Vec<Column>,
    example: Option<String>,
    /// What was done, for the undo button ("Undo reset").
    pub label: String,
}

/// The whole Build view state.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildState {
    /// The old object's text.
    pub old_text: String,
    /// The new object's text.
    pub new_text: String,
    /// The editors' format.
    pub format: Format,
    /// The result columns.
    pub columns: Vec<Column>,
    /// The example loaded last, if any.
    pub example: Option<String>,
    /// The old text parsed.
    pub old: Parsed,
    /// The new text parsed.
    pub new: Parsed,
    /// Per column (shared, like the parsed values).
    pub results: Rc<Vec<ColumnResult>>,
    /// True when the results are from earlier text (the current text has an
    /// error, or has not been recomputed yet).
    pub stale: bool,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// The last destructive action, undoable.
    pub undo: Option<Snapshot>,
    /// Bumped on every text edit (the view debounces recomputation on it).
    pub edits: u64,
    /// Columns computed so far by a recomputation in pieces.
    pending: Option<Vec<ColumnResult>>,
    /// Bumped by every piece of a recomputation (the view schedules the
    /// next piece on it).
    pub pieces: u64,
}

/// What can happen in the Build view.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildAction {
    /// The old editor's text changed.
    EditOld(String),
    /// The new editor's text changed.
    EditNew(String),
    /// Parse and diff the current text.
    Recompute,
    /// Do the next piece of the recomputation (for big inputs).
    RecomputeStep,
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
    /// Restore what the last destructive action replaced.
    Undo,
    /// Set a column's preset.
    SetPreset(usize, Preset),
    /// Add a column (the next preset not shown yet).
    AddColumn,
    /// Remove a column (one always stays).
    RemoveColumn(usize),
    /// Override (or clear, with `None`) a field's strategy in a column.
    SetOverride(usize, String, Option<Strategy>),
    /// Open a decoded link.
    LoadLink(BuildLink),
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
}

/// The most result columns.
pub const MAX_COLUMNS: usize = super::share::MAX_COLUMNS;

impl Default for BuildState {
    fn default() -> Self {
        BuildState::from_example(FIRST_EXAMPLE)
    }
}

impl BuildState {
    /// The state of an example (the first one when the id is unknown).
    pub fn from_example(id: &str) -> BuildState {
        let example = example(id).or_else(|| examples().first());
        let mut state = BuildState {
            old_text: String::new(),
            new_text: String::new(),
            format: Format::Yaml,
            columns: vec![
                Column {
                    preset: Preset::KubevirtHead,
                    overrides: BTreeMap::new(),
                },
                Column::default(),
            ],
            example: None,
            old: Parsed::default(),
            new: Parsed::default(),
            results: Rc::new(Vec::new()),
            stale: true,
            notice: None,
            undo: None,
            edits: 0,
            pending: None,
            pieces: 0,
        };
        if let Some(example) = example {
            state.old_text = example.old.clone();
            state.new_text = example.new.clone();
            state.columns = example.columns.clone();
            state.example = Some(example.id.to_owned());
        }
        state.recompute();
        state
    }

    /// A state from a link (already decoded and checked).
    pub fn from_link(link: BuildLink) -> BuildState {
        let mut state = BuildState {
            old_text: link.old,
            new_text: link.new,
            format: link.format,
            columns: link.columns,
            example: link.example,
            old: Parsed::default(),
            new: Parsed::default(),
            ..BuildState::from_example(FIRST_EXAMPLE)
        };
        state.undo = None;
        state.recompute();
        state
    }

    /// The link of this state (see [`super::share`]).
    pub fn link(&self) -> BuildLink {
        BuildLink {
            old: self.old_text.clone(),
            new: self.new_text.clone(),
            format: self.format,
            columns: self.columns.clone(),
            example: self.example.clone(),
        }
    }

    fn snapshot(&self, label: &str) -> Snapshot {
        Snapshot {
            old_text: self.old_text.clone(),
            new_text: self.new_text.clone(),
            format: self.format,
            columns: self.columns.clone(),
            example: self.example.clone(),
            label: label.to_owned(),
        }
    }

    /// True when the texts differ from the loaded example's (or there is
    /// no example): replacing them loses work.
    pub fn edited(&self) -> bool {
        match self.example.as_deref().and_then(example) {
            Some(example) => example.old != self.old_text || example.new != self.new_text,
            None => true,
        }
    }

    /// The next state; a pure function of the state and the action.
    pub fn reduce(&self, action: BuildAction) -> BuildState {
        let mut next = self.clone();
        match action {
            BuildAction::EditOld(text) => {
                next.old_text = text;
                next.old.touch();
                next.edits += 1;
                next.stale = true;
            }
            BuildAction::EditNew(text) => {
                next.new_text = text;
                next.new.touch();
                next.edits += 1;
                next.stale = true;
            }
            BuildAction::Recompute => next.recompute(),
            BuildAction::RecomputeStep => {
                next.recompute_step();
                next.pieces += 1;
            }
            BuildAction::SetFormat(format) => next.convert(format),
            BuildAction::FormatText => next.convert(next.format),
            BuildAction::Swap => {
                std::mem::swap(&mut next.old_text, &mut next.new_text);
                std::mem::swap(&mut next.old, &mut next.new);
                next.recompute();
            }
            BuildAction::Reset => {
                let id = next
                    .example
                    .clone()
                    .unwrap_or_else(|| FIRST_EXAMPLE.to_owned());
                let undo = self.edited().then(|| self.snapshot("Undo reset"));
                next = BuildState {
                    undo,
                    notice: None,
                    ..BuildState::from_example(&id)
                };
            }
            BuildAction::LoadExample(id) => {
                if example(&id).is_none() {
                    next.notice = Some(Notice {
                        error: true,
                        text: format!("There is no example {id:?}."),
                    });
                } else {
                    let undo = self
                        .edited()
                        .then(|| self.snapshot("Undo loading the example"));
                    next = BuildState {
                        undo,
                        ..BuildState::from_example(&id)
                    };
                }
            }
            BuildAction::Undo => {
                if let Some(snapshot) = next.undo.take() {
                    next.old_text = snapshot.old_text;
                    next.new_text = snapshot.new_text;
                    next.old.touch();
                    next.new.touch();
                    next.format = snapshot.format;
                    next.columns = snapshot.columns;
                    next.example = snapshot.example;
                    next.recompute();
                }
            }
            BuildAction::SetPreset(i, preset) => {
                if let Some(column) = next.columns.get_mut(i) {
                    column.preset = preset;
                    next.recompute();
                }
            }
            BuildAction::AddColumn => {
                if next.columns.len() < MAX_COLUMNS {
                    let preset = Preset::ALL
                        .into_iter()
                        .find(|p| !next.columns.iter().any(|c| c.preset == *p))
                        .unwrap_or_default();
                    next.columns.push(Column {
                        preset,
                        overrides: BTreeMap::new(),
                    });
                    next.recompute();
                }
            }
            BuildAction::RemoveColumn(i) => {
                if next.columns.len() > 1 && i < next.columns.len() {
                    next.columns.remove(i);
                    next.recompute();
                }
            }
            BuildAction::SetOverride(i, path, strategy) => {
                if let Some(column) = next.columns.get_mut(i) {
                    match strategy {
                        Some(strategy) => column.overrides.insert(path, strategy),
                        None => column.overrides.remove(&path),
                    };
                    next.recompute();
                }
            }
            BuildAction::LoadLink(link) => {
                let undo = self
                    .edited()
                    .then(|| self.snapshot("Undo opening the link"));
                next = BuildState {
                    undo,
                    ..BuildState::from_link(link)
                };
            }
            BuildAction::Notify(notice) => next.notice = Some(notice),
            BuildAction::DismissNotice => next.notice = None,
        }
        next
    }

    /// Re-writes both editors in `format` (pretty), when both parse.
    fn convert(&mut self, format: Format) {
        self.recompute();
        let (old, new) = (self.old.value.clone(), self.new.value.clone());
        match (&self.old.error, &self.new.error, old, new) {
            (None, None, Some(old), Some(new)) => {
                self.old_text = input::write(&old, format);
                self.new_text = input::write(&new, format);
                self.format = format;
            }
            _ => {
                self.notice = Some(Notice {
                    error: true,
                    text: "Fix the parse error first: only text that parses can be converted or formatted.".to_owned(),
                });
            }
        }
    }

    /// Parses the texts that changed and recomputes every column, at once.
    pub fn recompute(&mut self) {
        // Columns may have changed since a piecewise recomputation began.
        self.pending = None;
        while self.recompute_step() {}
    }

    /// Does the next piece of a recomputation: parse one editor, or compute
    /// one column. Returns true while work remains. Big inputs are
    /// recomputed piece by piece, the page staying responsive in between.
    pub fn recompute_step(&mut self) -> bool {
        let budget = Budget::default();
        for (text, parsed) in [
            (&self.old_text, &mut self.old),
            (&self.new_text, &mut self.new),
        ] {
            if !parsed.dirty && (parsed.value.is_some() || parsed.error.is_some()) {
                continue;
            }
            self.pending = None;
            let outcome = if text.len() <= PIECE_CHARS {
                Some(input::parse(text, &budget))
            } else {
                let job = parsed.job.get_or_insert_with(|| {
                    PendingParse(Rc::new(RefCell::new(ParseJob::new(
                        Rc::from(text.as_str()),
                        budget,
                    ))))
                });
                let outcome = job.0.borrow_mut().step(PIECE_CHARS);
                outcome
            };
            if let Some(outcome) = outcome {
                parsed.dirty = false;
                parsed.job = None;
                match outcome {
                    Ok((value, _)) => {
                        parsed.value = Some(Rc::new(value));
                        parsed.error = None;
                    }
                    Err(err) => parsed.error = Some(err),
                }
            }
            return true;
        }
        if self.old.error.is_some() || self.new.error.is_some() {
            self.stale = true;
            self.pending = None;
            return false;
        }
        let (Some(old), Some(new)) = (self.old.value.clone(), self.new.value.clone()) else {
            return false;
        };
        let mut pending = self.pending.take().unwrap_or_default();
        if let Some(column) = self.columns.get(pending.len()) {
            pending.push(column_result(&old, &new, column));
        }
        if pending.len() < self.columns.len() {
            self.pending = Some(pending);
            return true;
        }
        mark_unique(&mut pending);
        self.results = Rc::new(pending);
        self.stale = false;
        false
    }

    /// True while the results are behind the text and can be brought up to
    /// date (no parse error stops it).
    pub fn busy(&self) -> bool {
        let dirty = self.old.dirty || self.new.dirty;
        self.stale && (dirty || (self.old.error.is_none() && self.new.error.is_none()))
    }

    /// Rows of the Fields table: every changed path (in any column), with
    /// its kind and each column's strategy.
    pub fn fields(&self) -> Vec<FieldRow> {
        let mut rows: BTreeMap<String, FieldRow> = BTreeMap::new();
        for (i, result) in self.results.iter().enumerate() {
            let Ok(plan) = &result.plan else {
                continue;
            };
            for field in &plan.fields {
                let row = rows
                    .entry(field.path.to_string())
                    .or_insert_with(|| FieldRow {
                        path: field.path.to_string(),
                        kind: field.kind,
                        change: field.change.as_str(),
                        strategies: vec![None; self.columns.len()],
                    });
                if let Some(slot) = row.strategies.get_mut(i) {
                    *slot = Some(field.strategy);
                }
            }
        }
        rows.into_values().collect()
    }
}

/// A row of the Fields table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRow {
    /// The field's pointer.
    pub path: String,
    /// Its kind.
    pub kind: FieldKind,
    /// `added`, `removed` or `modified`.
    pub change: &'static str,
    /// The strategy per column (`None` where the column sends a whole-object body).
    pub strategies: Vec<Option<Strategy>>,
}

/// Why inserting `inserted` bytes over the selection `start..end` (UTF-16
/// offsets, as the browser reports them) of `text` is refused, if it is:
/// an object above the input budget would only be refused after the
/// browser spent seconds laying it out, so the paste is stopped before it
/// happens and the editor keeps its text.
pub fn refuse_insert(text: &str, start: usize, end: usize, inserted: usize) -> Option<String> {
    let limit = Budget::OBJECT_BYTES;
    let selected = utf16_range_bytes(text, start, end);
    let total = text.len() - selected + inserted;
    (total > limit).then(|| {
        format!(
            "Not pasted: the object would be at least {} bytes ({:.1} MiB), more than the limit \
             of {} MiB (kube-apiserver refuses request bodies above 3 MiB). Your text is unchanged.",
            thousands(total),
            total as f64 / MIB,
            limit as f64 / MIB
        )
    })
}

const MIB: f64 = 1024.0 * 1024.0;

/// 1234567 as "1,234,567".
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Bytes of `text` between two UTF-16 offsets (clamped to the text).
fn utf16_range_bytes(text: &str, start: usize, end: usize) -> usize {
    let (mut units, mut from, mut to) = (0, None, None);
    for (byte, c) in text.char_indices() {
        if from.is_none() && units >= start {
            from = Some(byte);
        }
        if units >= end {
            to = Some(byte);
            break;
        }
        units += c.len_utf16();
    }
    let from = from.unwrap_or(text.len());
    to.unwrap_or(text.len()).saturating_sub(from)
}

fn column_result(old: &Value, new: &Value, column: &Column) -> ColumnResult {
    let options = column.options();
    let plan = strategy::diff(old, new, &options).map_err(|e| e.to_string());
    let (payload_bytes, round_trip) = match &plan {
        Ok(plan) => (
            plan.body_text().len(),
            match strategy::round_trip(old, new, plan, &options.policy) {
                strategy::RoundTrip::Exact => RoundTrip::Exact,
                strategy::RoundTrip::NotApplicable => RoundTrip::NotApplicable,
                other => RoundTrip::Differs(other.to_string()),
            },
        ),
        Err(_) => (0, RoundTrip::NotApplicable),
    };
    ColumnResult {
        plan,
        payload_bytes,
        round_trip,
        unique: Vec::new(),
    }
}

/// Marks the ops no other column sends.
fn mark_unique(results: &mut [ColumnResult]) {
    let all: Vec<Vec<String>> = results
        .iter()
        .map(|r| match &r.plan {
            Ok(plan) => plan
                .ops()
                .unwrap_or_default()
                .iter()
                .map(|p| p.op.to_json())
                .collect(),
            Err(_) => Vec::new(),
        })
        .collect();
    for (i, result) in results.iter_mut().enumerate() {
        result.unique = all[i]
            .iter()
            .map(|op| {
                all.len() > 1
                    && all
                        .iter()
                        .enumerate()
                        .all(|(j, other)| j == i || !other.contains(op))
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(state: &BuildState, column: usize) -> Vec<String> {
        state.results[column]
            .plan
            .as_ref()
            .unwrap()
            .ops()
            .unwrap()
            .iter()
            .map(|p| p.op.to_json())
            .collect()
    }

    #[test]
    fn every_example_loads_and_round_trips() {
        let all = examples();
        assert_eq!(all.len(), 6);
        for example in all.iter() {
            let state = BuildState::from_example(example.id);
            assert!(!state.stale, "{}", example.id);
            assert!(
                state.old.error.is_none() && state.new.error.is_none(),
                "{}",
                example.id
            );
            assert_eq!(state.results.len(), example.columns.len());
            for result in state.results.iter() {
                assert!(!result.plan.as_ref().unwrap().is_empty(), "{}", example.id);
            }
        }
    }

    #[test]
    fn first_visit_shows_the_race_head_versus_per_key() {
        let state = BuildState::default();
        assert_eq!(state.example.as_deref(), Some("migration-race"));
        assert_eq!(
            state.columns.iter().map(|c| c.preset).collect::<Vec<_>>(),
            [Preset::KubevirtHead, Preset::KubevirtPr18139]
        );
        let head = ops(&state, 0);
        assert!(head[0].starts_with(r#"{"op":"test","path":"/metadata/labels","value":{"#));
        assert_eq!(
            ops(&state, 1),
            [
                r#"{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}"#
            ]
        );
        assert_eq!(state.results[0].round_trip, RoundTrip::Exact);
        assert_eq!(state.results[1].round_trip, RoundTrip::Exact);
        assert_eq!(state.results[1].unique, [true]);
        let fields = state.fields();
        assert_eq!(fields.len(), 1);
        assert_eq!(fields[0].path, "/metadata/labels");
        assert_eq!(
            fields[0].strategies,
            [Some(Strategy::WholeMap), Some(Strategy::PerKey)]
        );
    }

    #[test]
    fn editing_marks_stale_until_recomputed_and_keeps_the_last_good_result() {
        let state = BuildState::default();
        let edited = state.reduce(BuildAction::EditNew("{\"metadata\": ]}".into()));
        assert!(edited.stale);
        assert_eq!(edited.results, state.results, "nothing recomputed yet");
        let broken = edited.reduce(BuildAction::Recompute);
        assert!(broken.stale);
        let err = broken.new.error.as_ref().unwrap();
        assert_eq!((err.line, err.column), (Some(1), Some(14)));
        assert_eq!(broken.results, state.results, "the last good result stays");
        assert!(broken.new.value.is_some(), "the last good value stays");
        let fixed = broken
            .reduce(BuildAction::EditNew(state.old_text.clone()))
            .reduce(BuildAction::Recompute);
        assert!(!fixed.stale);
        assert!(fixed
            .results
            .iter()
            .all(|r| r.plan.as_ref().unwrap().is_empty()));
    }

    #[test]
    fn convert_format_and_swap() {
        let state = BuildState::default();
        let json = state.reduce(BuildAction::SetFormat(Format::Json));
        assert_eq!(json.format, Format::Json);
        assert!(json.old_text.trim_start().starts_with('{'));
        assert_eq!(json.results, state.results, "same objects, same results");
        let back = json.reduce(BuildAction::SetFormat(Format::Yaml));
        assert_eq!(back.results, state.results);
        let swapped = state.reduce(BuildAction::Swap);
        assert_eq!(swapped.old_text, state.new_text);
        assert!(ops(&swapped, 1)[0].contains(r#""op":"remove""#));
        // A parse error blocks conversion with a notice, and keeps the text.
        let broken = state
            .reduce(BuildAction::EditOld("{".into()))
            .reduce(BuildAction::SetFormat(Format::Json));
        assert_eq!(broken.old_text, "{");
        assert!(broken.notice.as_ref().unwrap().error);
    }

    #[test]
    fn destructive_actions_can_be_undone() {
        let state = BuildState::default().reduce(BuildAction::EditNew("metadata: {}\n".into()));
        let reset = state.reduce(BuildAction::Reset);
        assert_ne!(reset.new_text, "metadata: {}\n");
        assert_eq!(reset.undo.as_ref().unwrap().label, "Undo reset");
        let undone = reset.reduce(BuildAction::Undo);
        assert_eq!(undone.new_text, "metadata: {}\n");
        assert!(undone.undo.is_none());
        let loaded = state.reduce(BuildAction::LoadExample("finalizers".into()));
        assert_eq!(loaded.example.as_deref(), Some("finalizers"));
        assert_eq!(loaded.reduce(BuildAction::Undo).new_text, "metadata: {}\n");
        // Loading over an untouched example needs no undo.
        let clean = BuildState::default().reduce(BuildAction::LoadExample("finalizers".into()));
        assert!(clean.undo.is_none());
        let unknown = state.reduce(BuildAction::LoadExample("nope".into()));
        assert_eq!(unknown.new_text, state.new_text);
        assert!(unknown.notice.is_some());
    }

    #[test]
    fn columns_and_overrides() {
        let state = BuildState::default();
        let three = state.reduce(BuildAction::AddColumn);
        assert_eq!(three.columns.len(), 3);
        assert_eq!(
            three.columns[2].preset,
            Preset::Naive,
            "the next preset not shown"
        );
        assert_eq!(three.results.len(), 3);
        let two = three.reduce(BuildAction::RemoveColumn(0));
        assert_eq!(two.columns[0].preset, Preset::KubevirtPr18139);
        let one = two
            .reduce(BuildAction::RemoveColumn(0))
            .reduce(BuildAction::RemoveColumn(0));
        assert_eq!(one.columns.len(), 1, "one column always stays");
        let mut full = state.clone();
        for _ in 0..10 {
            full = full.reduce(BuildAction::AddColumn);
        }
        assert_eq!(full.columns.len(), MAX_COLUMNS);
        let overridden = state.reduce(BuildAction::SetOverride(
            1,
            "/metadata/labels".into(),
            Some(Strategy::WholeMap),
        ));
        assert_eq!(ops(&overridden, 1), ops(&state, 0));
        assert_eq!(
            overridden.fields()[0].strategies,
            [Some(Strategy::WholeMap), Some(Strategy::WholeMap)]
        );
        let cleared =
            overridden.reduce(BuildAction::SetOverride(1, "/metadata/labels".into(), None));
        assert_eq!(cleared.results, state.results);
        let preset = state.reduce(BuildAction::SetPreset(0, Preset::Merge));
        assert!(matches!(
            preset.results[0].plan.as_ref().unwrap().body,
            strategy::Body::MergePatch(_)
        ));
    }

    #[test]
    fn links_round_trip_through_the_state() {
        let state = BuildState::default()
            .reduce(BuildAction::SetOverride(
                0,
                "/metadata/labels".into(),
                Some(Strategy::AddOnly),
            ))
            .reduce(BuildAction::SetOverride(
                1,
                "/metadata/labels".into(),
                Some(Strategy::Blind),
            ))
            .reduce(BuildAction::AddColumn);
        let link = state.link();
        let encoded = super::super::share::encode(&link);
        let opened = BuildState::default().reduce(BuildAction::LoadLink(
            super::super::share::decode(&encoded).unwrap(),
        ));
        assert_eq!(opened.link(), link);
        assert_eq!(opened.results, state.results);
    }

    #[test]
    fn a_link_shows_its_own_objects_not_the_first_example() {
        let finalizers = BuildState::from_example("finalizers");
        let opened = BuildState::from_link(finalizers.link());
        assert_eq!(opened.results, finalizers.results);
        assert_ne!(opened.results, BuildState::default().results);
    }

    #[test]
    fn oversized_pastes_are_refused_before_they_happen() {
        let limit = Budget::OBJECT_BYTES;
        assert_eq!(refuse_insert("", 0, 0, limit), None);
        let refusal = refuse_insert("", 0, 0, limit + 1).unwrap();
        assert_eq!(
            refusal,
            "Not pasted: the object would be at least 4,194,305 bytes (4.0 MiB), more than the \
             limit of 4 MiB (kube-apiserver refuses request bodies above 3 MiB). Your text is \
             unchanged."
        );
        assert_eq!(
            [0, 12, 123, 1234, 123_456, 1_234_567].map(thousands),
            ["0", "12", "123", "1,234", "123,456", "1,234,567"]
        );
        // The selection is replaced, so it does not count.
        let text = "é".repeat(1000); // 2000 bytes, 1000 UTF-16 units
        assert_eq!(refuse_insert(&text, 0, 1000, limit), None);
        assert!(refuse_insert(&text, 0, 999, limit).is_some());
        assert_eq!(utf16_range_bytes(&text, 10, 20), 20);
        assert_eq!(utf16_range_bytes("a😀b", 1, 3), 4);
        assert_eq!(utf16_range_bytes("ab", 5, 9), 0);
    }

    #[test]
    fn big_yaml_is_parsed_in_pieces() {
        let entries: String = (0..30_000)
            .map(|i| format!("  key-{i}: \"{}\"\n", "v".repeat(40)))
            .collect();
        let old =
            format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n{entries}");
        assert!(old.len() > 3 * PIECE_CHARS);
        let new = old.replace("key-7: \"v", "key-7: \"w");
        let state = BuildState::default();
        let mut piecewise = state
            .reduce(BuildAction::EditOld(old.clone()))
            .reduce(BuildAction::EditNew(new.clone()));
        let mut pieces = 0;
        while piecewise.busy() {
            piecewise = piecewise.reduce(BuildAction::RecomputeStep);
            pieces += 1;
        }
        // Each text in at least 3 pieces, then one piece per column.
        assert!(pieces >= 2 * 3 + state.columns.len(), "{pieces} pieces");
        let at_once = state
            .reduce(BuildAction::EditOld(old))
            .reduce(BuildAction::EditNew(new.clone()))
            .reduce(BuildAction::Recompute);
        assert_eq!(piecewise.results, at_once.results);
        assert_eq!(piecewise.new.value, at_once.new.value);
        // An edit half-way through a parse starts that parse over.
        let mut edited = piecewise.reduce(BuildAction::EditNew(
            new.replace("key-9: \"v", "key-9: \"x"),
        ));
        edited = edited.reduce(BuildAction::RecomputeStep);
        assert!(edited.new.job.is_some());
        edited = edited.reduce(BuildAction::EditNew(
            new.replace("key-8: \"v", "key-8: \"x"),
        ));
        assert!(edited.new.job.is_none());
        while edited.busy() {
            edited = edited.reduce(BuildAction::RecomputeStep);
        }
        let value = edited.new.value.as_deref().unwrap();
        assert_eq!(
            value["data"]["key-8"].as_str().unwrap(),
            format!("x{}", "v".repeat(39))
        );
        assert_eq!(value["data"]["key-9"].as_str().unwrap(), "v".repeat(40));
    }

    #[test]
    fn big_inputs_recompute_piece_by_piece() {
        let state = BuildState::default();
        let mut edited = state.reduce(BuildAction::EditNew(
            state.new_text.replace("node02", "node03"),
        ));
        assert!(edited.busy());
        let mut pieces = 0;
        while edited.busy() {
            edited = edited.reduce(BuildAction::RecomputeStep);
            pieces += 1;
        }
        // The new editor, then one piece per column.
        assert_eq!(pieces, 1 + state.columns.len());
        let at_once = state
            .reduce(BuildAction::EditNew(
                state.new_text.replace("node02", "node03"),
            ))
            .reduce(BuildAction::Recompute);
        assert_eq!(edited.results, at_once.results);
        assert!(!edited.stale);
        // An edit in the middle starts over from the parse.
        let mut interrupted =
            state.reduce(BuildAction::EditNew(state.new_text.replace("node02", "x")));
        interrupted = interrupted
            .reduce(BuildAction::RecomputeStep)
            .reduce(BuildAction::RecomputeStep);
        assert!(interrupted.busy());
        interrupted = interrupted.reduce(BuildAction::EditNew(
            state.new_text.replace("node02", "node03"),
        ));
        while interrupted.busy() {
            interrupted = interrupted.reduce(BuildAction::RecomputeStep);
        }
        assert_eq!(interrupted.results, at_once.results);
    }

    #[test]
    fn round_trip_reports_the_per_key_exception() {
        let state = BuildState::default()
            .reduce(BuildAction::EditOld(
                "metadata:\n  labels: {a: '1'}\n".into(),
            ))
            .reduce(BuildAction::EditNew("metadata: {}\n".into()))
            .reduce(BuildAction::Recompute);
        assert_eq!(state.results[0].round_trip, RoundTrip::Exact);
        match &state.results[1].round_trip {
            RoundTrip::Differs(why) => assert!(why.contains("/metadata/labels"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
