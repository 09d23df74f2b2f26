//! Bringing the Build view's results up to date: parse what changed, then
//! diff each column. A [`RecomputeJob`] does it in pieces, so a view can
//! keep the page responsive between them with big objects; the reducer
//! only takes in the [`Computed`] result, so it stays a pure function.

use std::rc::Rc;

use serde_json::Value;

use super::state::{BuildState, Column, ColumnResult, Revs};
use crate::input::{self, Budget, InputError, ParseJob};
use crate::kube::KubeVersion;
use crate::strategy;

/// Characters parsed per piece of a big text (about 40 ms of YAML in a
/// browser).
pub const PIECE_CHARS: usize = 512 * 1024;

/// A parse result, tagged with the revision of the text it parsed.
pub type ParsedText = (u64, Result<Rc<Value>, InputError>);

/// What a recomputation found.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// The revisions it started from.
    pub revs: Revs,
    /// The old editor's new parse, if it parsed the old text.
    pub old: Option<ParsedText>,
    /// The new editor's new parse, if it parsed the new text.
    pub new: Option<ParsedText>,
    /// Every column's result, when both texts parse.
    pub results: Option<Rc<Vec<ColumnResult>>>,
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
    Done(ParsedText),
}

impl Side {
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

    fn into_parsed(self) -> Option<ParsedText> {
        match self {
            Side::Done(parsed) => Some(parsed),
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
    /// The work that brings `state` up to date; `None` when there is none
    /// (up to date, or stopped by a parse error of unchanged text).
    pub fn new(state: &BuildState) -> Option<RecomputeJob> {
        if !state.busy() {
            return None;
        }
        let side = |editor: &super::state::Editor| match (&editor.value, editor.dirty()) {
            (Some(value), false) => Side::Ready(Rc::clone(value)),
            _ => Side::Pending {
                rev: editor.rev,
                text: Rc::clone(&editor.text),
                job: None,
            },
        };
        Some(RecomputeJob {
            revs: state.revs(),
            old: side(&state.old),
            new: side(&state.new),
            columns: state.columns.clone(),
            kubernetes: state.kubernetes.unwrap_or_default(),
            results: Vec::with_capacity(state.columns.len()),
        })
    }

    /// Does one piece of work: a piece of a text's parse, or one column.
    /// Returns true while work remains.
    pub fn step(&mut self, piece: usize) -> bool {
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
        while self.step(usize::MAX) {}
        self.finish()
    }

    /// What the work found so far (results only once every column is done).
    pub fn finish(self) -> Computed {
        let done = !self.old.failed()
            && !self.new.failed()
            && self.results.len() == self.columns.len()
            && self.old.value().is_some()
            && self.new.value().is_some();
        let mut results = self.results;
        let results = done.then(|| {
            mark_unique(&mut results);
            Rc::new(results)
        });
        Computed {
            revs: self.revs,
            old: self.old.into_parsed(),
            new: self.new.into_parsed(),
            results,
        }
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
    let (payload_bytes, round_trip) = match &plan {
        Ok(plan) => (
            plan.body_text().len(),
            strategy::round_trip_on(old, new, plan, &options.policy, kubernetes),
        ),
        Err(_) => (0, strategy::RoundTrip::NotApplicable),
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
