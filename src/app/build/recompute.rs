//! Bringing the Build view's results up to date: parse what changed, then
//! diff and lint each column, then the Fields table. A [`RecomputeJob`]
//! does it in pieces, so big objects keep the page responsive between
//! them; the reducer only takes in the [`Computed`] result. Everything the
//! view shows that takes time to derive is derived here, once: render
//! only reads.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::Value;

use super::link::Column;
use crate::app::deferred::Job;
use crate::input::{self, Budget, InputError, ParseJob};
use crate::kube::KubeVersion;
use crate::lint::{self, Report};
use crate::pointer::PointerBuf;
use crate::strategy::{self, Body, Change, DiffError, FieldKind, Plan, RoundTrip, Strategy};

/// Characters parsed per piece of a big text (about 40 ms of YAML in a
/// browser).
pub const PIECE_CHARS: usize = 512 * 1024;

/// A parse result, tagged with the revision of the text it parsed.
pub type Parse = (u64, Result<Rc<Value>, InputError>);

/// One side of the Build view (the old or the new object): its text and
/// what the text parses to.
#[derive(Clone, Debug, PartialEq)]
pub struct TextSide {
    /// The text (shared: states are cloned on every action, texts can be
    /// megabytes).
    pub text: Rc<str>,
    /// Bumped on every change of the text.
    pub rev: u64,
    /// The last text that parsed, as a value.
    pub value: Option<Rc<Value>>,
    /// The error of the text of revision `parsed`, if it did not parse.
    pub error: Option<InputError>,
    /// The revision `value` or `error` belong to (0: none).
    pub parsed: u64,
}

impl TextSide {
    /// A text not parsed yet, at revision `rev`.
    pub fn new(text: Rc<str>, rev: u64) -> TextSide {
        TextSide {
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

    /// Takes in a parse, when it is of the current text.
    fn take(&mut self, parse: &Parse) {
        let (rev, result) = parse;
        if *rev != self.rev {
            return;
        }
        self.parsed = *rev;
        match result {
            Ok(value) => {
                self.value = Some(Rc::clone(value));
                self.error = None;
            }
            Err(error) => self.error = Some(error.clone()),
        }
    }
}

/// One column's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnResult {
    /// The plan, or why there is none.
    pub plan: Result<Plan, DiffError>,
    /// The round-trip check.
    pub round_trip: RoundTrip,
    /// Per op: true when no other column sends the same op.
    pub unique: Vec<bool>,
    /// What lint finds in the ops sent (the Check view's rules; `None`
    /// for bodies other than a JSON patch).
    pub findings: Option<Rc<Report>>,
    /// What is sent and the exports (`None` without a plan).
    pub texts: Option<Rc<Texts>>,
}

/// A column's texts, written once per result (shared: the view passes
/// them to its buttons on every render).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texts {
    /// What is sent, byte for byte.
    pub payload: Rc<str>,
    /// The body as shown when it is not a list of ops: pretty JSON (a
    /// merge patch, an update) or YAML (an apply configuration).
    pub body: Option<Rc<str>>,
    /// The `kubectl` command that sends it (naming the new object).
    pub kubectl: Rc<str>,
    /// KubeVirt's patch builder in Go (JSON patches).
    pub go: Option<Rc<str>>,
    /// The same in Rust, with patchlab's builder (JSON patches).
    pub rust: Option<Rc<str>>,
}

impl Texts {
    fn of(plan: &Plan, new: &Value) -> Texts {
        let body = match &plan.body {
            Body::JsonPatch(_) => None,
            Body::MergePatch(body) | Body::Update(body) | Body::StrategicMergePatch(body) => {
                Some(input::to_json_pretty(body))
            }
            Body::Apply { config, .. } => Some(input::to_yaml(config)),
        };
        Texts {
            payload: Rc::from(plan.body_text()),
            body: body.map(Rc::from),
            kubectl: Rc::from(strategy::kubectl(plan, new)),
            go: strategy::go_code(plan).map(Rc::from),
            rust: strategy::rust_code(plan).map(Rc::from),
        }
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

/// Everything derived from both objects and the columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// Per column.
    pub columns: Vec<ColumnResult>,
    /// Every changed path (in any column), with its kind and each column's
    /// strategy: the Fields table.
    pub fields: Vec<FieldRow>,
}

/// The revisions a result was computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Revs {
    /// The old side's.
    pub old: u64,
    /// The new side's.
    pub new: u64,
    /// The columns'.
    pub columns: u64,
}

/// What a recomputation found.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// The revisions it started from.
    pub revs: Revs,
    /// The old side's new parse, if it parsed the old text.
    pub old: Option<Parse>,
    /// The new side's new parse, if it parsed the new text.
    pub new: Option<Parse>,
    /// Every result, when both texts parse.
    pub results: Option<Rc<Results>>,
}

impl Computed {
    /// Takes in the parses of `old` and `new` where they still apply.
    pub fn parses_into(&self, old: &mut TextSide, new: &mut TextSide) {
        for (side, parse) in [(old, &self.old), (new, &self.new)] {
            if let Some(parse) = parse {
                side.take(parse);
            }
        }
    }
}

enum Side {
    /// Parsed before: the value.
    Ready(Rc<Value>),
    /// Not parsed yet (or being parsed in pieces).
    Pending {
        rev: u64,
        text: Rc<str>,
        job: Option<ParseJob>,
    },
    /// Parsed by this job.
    Done(Parse),
}

impl Side {
    fn of(side: &TextSide) -> Side {
        match (&side.value, side.dirty()) {
            (Some(value), false) => Side::Ready(Rc::clone(value)),
            _ => Side::Pending {
                rev: side.rev,
                text: Rc::clone(&side.text),
                job: None,
            },
        }
    }

    fn value(&self) -> Option<&Rc<Value>> {
        match self {
            Side::Ready(value) | Side::Done((_, Ok(value))) => Some(value),
            _ => None,
        }
    }

    fn failed(&self) -> bool {
        matches!(self, Side::Done((_, Err(_))))
    }

    /// Parses one piece; true when it did some work.
    fn step(&mut self, piece: usize) -> bool {
        let Side::Pending { rev, text, job } = self else {
            return false;
        };
        let outcome = if text.len() <= piece {
            Some(input::parse(text, &Budget::default()))
        } else {
            job.get_or_insert_with(|| ParseJob::new(Rc::clone(text), Budget::default()))
                .step(piece)
        };
        if let Some(outcome) = outcome {
            *self = Side::Done((*rev, outcome.map(|(value, _)| Rc::new(value))));
        }
        true
    }

    fn into_parse(self) -> Option<Parse> {
        match self {
            Side::Done(parse) => Some(parse),
            _ => None,
        }
    }
}

/// A recomputation under way.
pub struct RecomputeJob {
    revs: Revs,
    old: Side,
    new: Side,
    columns: Vec<Column>,
    kubernetes: KubeVersion,
    results: Vec<ColumnResult>,
}

impl RecomputeJob {
    /// The work that brings results for `columns` up to date with the two
    /// sides (parsing the sides whose text changed).
    pub fn new(
        revs: Revs,
        old: &TextSide,
        new: &TextSide,
        columns: &[Column],
        kubernetes: KubeVersion,
    ) -> RecomputeJob {
        RecomputeJob {
            revs,
            old: Side::of(old),
            new: Side::of(new),
            columns: columns.to_vec(),
            kubernetes,
            results: Vec::with_capacity(columns.len()),
        }
    }

    /// Does one piece of work: a piece of a text's parse, or one column.
    /// Returns true while work remains.
    pub fn step_by(&mut self, piece: usize) -> bool {
        if self.old.step(piece) || self.new.step(piece) {
            return true;
        }
        if self.old.failed() || self.new.failed() {
            return false;
        }
        let (Some(old), Some(new)) = (self.old.value(), self.new.value()) else {
            return false;
        };
        if let Some(column) = self.columns.get(self.results.len()) {
            self.results
                .push(column_result(old, new, column, self.kubernetes));
        }
        self.results.len() < self.columns.len()
    }

    /// Does all the work at once.
    pub fn run(mut self) -> Computed {
        while self.step_by(usize::MAX) {}
        self.finish_now()
    }

    /// What the work found so far (results only once every column is done).
    pub fn finish_now(self) -> Computed {
        let done = !self.old.failed()
            && !self.new.failed()
            && self.results.len() == self.columns.len()
            && self.old.value().is_some()
            && self.new.value().is_some();
        let mut columns = self.results;
        let results = done.then(|| {
            mark_unique(&mut columns);
            let fields = field_rows(&columns);
            Rc::new(Results { columns, fields })
        });
        Computed {
            revs: self.revs,
            old: self.old.into_parse(),
            new: self.new.into_parse(),
            results,
        }
    }
}

impl Job for RecomputeJob {
    type Done = Computed;

    fn step(&mut self) -> bool {
        self.step_by(PIECE_CHARS)
    }

    fn finish(self) -> Computed {
        self.finish_now()
    }
}

fn column_result(
    old: &Value,
    new: &Value,
    column: &Column,
    kubernetes: KubeVersion,
) -> ColumnResult {
    let options = column.options();
    let plan = strategy::diff(old, new, &options);
    let (round_trip, findings, texts) = match &plan {
        Ok(plan) => (
            strategy::round_trip_on(old, new, plan, &options.policy, kubernetes),
            lint::lint_plan(plan).map(Rc::new),
            Some(Rc::new(Texts::of(plan, new))),
        ),
        Err(_) => (RoundTrip::NotApplicable, None, None),
    };
    ColumnResult {
        plan,
        round_trip,
        unique: Vec::new(),
        findings,
        texts,
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

/// Rows of the Fields table: every changed path (in any column), with its
/// kind and each column's strategy, in path order.
fn field_rows(results: &[ColumnResult]) -> Vec<FieldRow> {
    let mut rows: BTreeMap<PointerBuf, FieldRow> = BTreeMap::new();
    for (i, result) in results.iter().enumerate() {
        let Ok(plan) = &result.plan else {
            continue;
        };
        for field in &plan.fields {
            let row = rows.entry(field.path.clone()).or_insert_with(|| FieldRow {
                path: field.path.clone(),
                kind: field.kind,
                change: field.change,
                strategies: vec![None; results.len()],
            });
            if let Some(slot) = row.strategies.get_mut(i) {
                *slot = Some(field.strategy);
            }
        }
    }
    rows.into_values().collect()
}
