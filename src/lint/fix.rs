//! Fixes and the bounds on a report. A rule describes its fix as edits of
//! the original ops ([`Draft`]); the report keeps the first few findings
//! of each rule and folds the rest into one finding with a count and one
//! fix for all of them; fixes are written out last, worst finding first,
//! while a budget proportional to the patch lasts. So a report on a patch
//! of n ops holds O(n) ops of fixes and a bounded number of findings, and
//! building it takes O(n) time whatever the rules find.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use super::{Finding, Fix, Folded, Rule};
use crate::patch::Operation;
use crate::strategy::{self, Policy, Preset};

/// Findings of one rule listed one by one; the rest are folded into one.
pub const SHOWN_PER_RULE: usize = crate::limits::LINT_SHOWN_PER_RULE;

/// Op indices a folded finding lists (its count says how many in all).
pub const FOLDED_INDICES: usize = 100;

/// Paths a folded finding lists.
pub const FOLDED_PATHS: usize = 20;

/// Ops all the fixes of one report may hold together: this many times
/// the patch's op count, plus [`FIX_OPS_BASE`].
pub const FIX_OPS_PER_OP: usize = crate::limits::LINT_FIX_OPS_PER_OP;

/// See [`FIX_OPS_PER_OP`].
pub const FIX_OPS_BASE: usize = crate::limits::LINT_FIX_OPS_BASE;

/// One change to the original op list.
#[derive(Clone, Debug)]
pub(super) enum Edit {
    /// Op `i` replaced.
    Replace(usize, Operation),
    /// An op inserted before op `i` (`i == len`: at the end).
    Insert(usize, Operation),
    /// Op `i` dropped.
    Remove(usize),
}

/// A fix before it is written out.
#[derive(Clone, Debug)]
pub(super) enum Draft {
    /// Edits of the original ops.
    Edits(Vec<Edit>),
    /// A whole op list computed elsewhere (a merge patch's JSON patch
    /// equivalent, a malformed op re-read); shared between findings.
    Whole(Rc<Vec<Operation>>),
}

/// Diff options for PR #18139's strategies (one op per key, per element),
/// with the kinds of fields `policy` declares.
pub(super) fn per_key(policy: &Policy) -> strategy::Options {
    let mut options = strategy::Options::preset(Preset::KubevirtPerKey);
    options.policy = policy.clone();
    options.policy.preset = Preset::KubevirtPerKey;
    options.explain = false;
    options
}

/// The ops PR #18139's strategies send to change `object` into `new`, as
/// one fix its findings share (`None`: no change, or no diff).
pub(super) fn rewrite(object: &Value, new: &Value, policy: &Policy) -> Option<Draft> {
    let plan = strategy::diff(object, new, &per_key(policy)).ok()?;
    let ops = plan.patch_set().ops().to_vec();
    (!ops.is_empty()).then(|| Draft::Whole(Rc::new(ops)))
}

/// A finding with its fix not yet written out.
#[derive(Clone, Debug)]
pub(super) struct Pending {
    pub finding: Finding,
    pub draft: Option<Draft>,
}

impl Pending {
    pub fn new(finding: Finding) -> Pending {
        Pending {
            finding,
            draft: None,
        }
    }

    pub fn with(mut self, draft: Option<Draft>) -> Pending {
        self.draft = draft;
        self
    }
}

/// The ops as edited, with each op's original index when it is an
/// original op left as it was. `None` when the edits change nothing.
fn apply_edits(ops: &[Operation], edits: &[Edit]) -> Option<(Vec<Operation>, Vec<Option<usize>>)> {
    if edits.is_empty() {
        return None;
    }
    enum Slot<'e> {
        Removed,
        Replaced(&'e Operation),
    }
    let mut slots: HashMap<usize, Slot<'_>> = HashMap::new();
    let mut before: HashMap<usize, Vec<&Operation>> = HashMap::new();
    for edit in edits {
        match edit {
            Edit::Insert(i, op) => before.entry(*i).or_default().push(op),
            Edit::Replace(i, op) => {
                slots.entry(*i).or_insert(Slot::Replaced(op));
            }
            Edit::Remove(i) => {
                slots.entry(*i).or_insert(Slot::Removed);
            }
        }
    }
    let mut out = Vec::with_capacity(ops.len() + before.len());
    let mut origin = Vec::with_capacity(ops.len() + before.len());
    let mut changed = false;
    for i in 0..=ops.len() {
        if let Some(inserted) = before.get(&i) {
            changed = true;
            for op in inserted {
                out.push((*op).clone());
                origin.push(None);
            }
        }
        let Some(op) = ops.get(i) else { break };
        match slots.get(&i) {
            Some(Slot::Removed) => changed = true,
            // A replaced op is written anew even when it equals the old
            // one by value: its bytes change (a `test` value written as
            // the server stores it).
            Some(Slot::Replaced(new)) => {
                changed = true;
                out.push((*new).clone());
                origin.push(None);
            }
            None => {
                out.push(op.clone());
                origin.push(Some(i));
            }
        }
    }
    changed.then_some((out, origin))
}

/// The first findings of each rule, the rest of each rule folded into one
/// finding (with every folded finding's edits, so its fix fixes them all).
/// `pending` is in report order (by op index); so is the result.
pub(super) fn fold(pending: Vec<Pending>) -> Vec<Pending> {
    let mut per_rule: HashMap<Rule, usize> = HashMap::new();
    for p in &pending {
        *per_rule.entry(p.finding.rule).or_default() += 1;
    }
    if per_rule.values().all(|&n| n <= SHOWN_PER_RULE + 1) {
        return pending;
    }
    let mut seen: HashMap<Rule, usize> = HashMap::new();
    // Where each rule's folded finding sits in the output.
    let mut folded_at: HashMap<Rule, usize> = HashMap::new();
    let mut out: Vec<Pending> = Vec::with_capacity(pending.len().min(64));
    for p in pending {
        let rule = p.finding.rule;
        let n = seen.entry(rule).or_default();
        *n += 1;
        if per_rule[&rule] <= SHOWN_PER_RULE + 1 || *n <= SHOWN_PER_RULE {
            out.push(p);
            continue;
        }
        match folded_at.get(&rule) {
            None => {
                folded_at.insert(rule, out.len());
                let mut first = p;
                let index = first.finding.index;
                let path = first.finding.path.clone();
                first.finding.folded = Some(Folded {
                    count: 1,
                    indices: index.into_iter().collect(),
                    paths: path.into_iter().collect(),
                });
                out.push(first);
            }
            Some(&at) => absorb(&mut out[at], p),
        }
    }
    for &at in folded_at.values() {
        let finding = &mut out[at].finding;
        if let Some(folded) = &finding.folded {
            let what = folded_text(folded);
            finding.message = format!("{} [{what}]", finding.message);
        }
    }
    out
}

/// Folds one more finding of a rule into the rule's folded finding
/// `target`: counted, its op index and path listed (up to a limit), and
/// the fix kept only when both share it.
fn absorb(target: &mut Pending, p: Pending) {
    if let Some(folded) = target.finding.folded.as_mut() {
        folded.count += 1;
        if let Some(i) = p.finding.index {
            if folded.indices.len() < FOLDED_INDICES {
                folded.indices.push(i);
            }
        }
        if let Some(path) = p.finding.path {
            if folded.paths.len() < FOLDED_PATHS {
                folded.paths.push(path);
            }
        }
    }
    target.draft = match (target.draft.take(), p.draft) {
        (Some(Draft::Edits(mut a)), Some(Draft::Edits(b))) => {
            a.extend(b);
            Some(Draft::Edits(a))
        }
        (Some(Draft::Whole(a)), Some(Draft::Whole(b))) if Rc::ptr_eq(&a, &b) => {
            Some(Draft::Whole(a))
        }
        // A member without a fix, or fixes of another form: the
        // folded finding fixes only what all share, so none.
        _ => None,
    };
}

/// What a folded finding adds to its message: `the same at 12 ops: 3, 4,
/// ... and 2 more` (or at members, by path).
fn folded_text(folded: &Folded) -> String {
    let (at, listed): (&str, Vec<String>) = match folded.indices.is_empty() {
        true => ("members", folded.paths.iter().take(3).cloned().collect()),
        false => (
            "ops",
            folded
                .indices
                .iter()
                .take(10)
                .map(usize::to_string)
                .collect(),
        ),
    };
    let more = folded.count.saturating_sub(listed.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "the same at {} {at}: {}{more}",
        folded.count,
        listed.join(", ")
    )
}

/// Writes out the fixes of `pending` for a patch of `ops`, worst finding
/// first, while the budget lasts; `written` holds each original op's
/// bytes as sent (minified), so untouched ops keep them in the payload.
pub(super) fn finish(
    pending: Vec<Pending>,
    ops: &[Operation],
    written: Option<Rc<[Box<str>]>>,
) -> Vec<Finding> {
    let mut budget = ops
        .len()
        .saturating_mul(FIX_OPS_PER_OP)
        .saturating_add(FIX_OPS_BASE);
    let mut order: Vec<usize> = (0..pending.len()).collect();
    crate::sort::sort_by_key(&mut order, |&i| {
        (
            std::cmp::Reverse(pending[i].finding.severity),
            pending[i].finding.index,
        )
    });
    let mut fixes: Vec<Option<Fix>> = vec![None; pending.len()];
    for i in order {
        let Some(draft) = &pending[i].draft else {
            continue;
        };
        let cost = match draft {
            Draft::Edits(edits) => ops.len() + edits.len(),
            Draft::Whole(whole) => whole.len(),
        };
        if cost > budget {
            continue;
        }
        budget -= cost;
        fixes[i] = match draft {
            Draft::Edits(edits) => apply_edits(ops, edits).map(|(ops, origin)| Fix {
                ops,
                origin,
                written: written.clone(),
            }),
            Draft::Whole(whole) => Some(Fix {
                origin: vec![None; whole.len()],
                ops: whole.as_ref().clone(),
                written: None,
            })
            .filter(|fix| fix.ops.as_slice() != ops || ops.is_empty() && !fix.ops.is_empty()),
        };
    }
    pending
        .into_iter()
        .zip(fixes)
        .map(|(mut p, fix)| {
            p.finding.fix = fix;
            p.finding
        })
        .collect()
}

/// Each op's element of a JSON array payload, minified (whitespace
/// outside strings dropped); `None` when the payload is not an array.
pub(super) fn written_ops(payload: &str) -> Option<Rc<[Box<str>]>> {
    let elements: Vec<&serde_json::value::RawValue> = serde_json::from_str(payload).ok()?;
    Some(
        elements
            .iter()
            .map(|raw| {
                let mut out = Vec::with_capacity(raw.get().len());
                crate::apply::text::minify(raw.get(), &mut out);
                String::from_utf8(out)
                    .unwrap_or_else(|_| raw.get().to_owned())
                    .into_boxed_str()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::Severity;

    fn op(path: &str) -> Operation {
        Operation::add(path, "v")
    }

    #[test]
    fn edits_apply_in_one_pass_and_no_change_is_no_fix() {
        let ops = [op("/a"), op("/b"), op("/c")];
        let (out, origin) = apply_edits(
            &ops,
            &[
                Edit::Insert(1, Operation::test("/b", "x")),
                Edit::Remove(2),
                Edit::Insert(3, op("/d")),
                Edit::Replace(0, op("/a")),
            ],
        )
        .unwrap();
        let paths: Vec<&str> = out.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(paths, ["/a", "/b", "/b", "/d"]);
        assert_eq!(origin, [None, None, Some(1), None]);
        assert!(apply_edits(&ops, &[]).is_none());
    }

    #[test]
    fn many_findings_of_one_rule_fold_into_one_with_one_fix() {
        let ops: Vec<Operation> = (0..50).map(|i| op(&format!("/k{i}"))).collect();
        let pending: Vec<Pending> = (0..50)
            .map(|i| {
                Pending::new(Finding::new(
                    Rule::DuplicatePath,
                    Some(i),
                    Some(&format!("/k{i}")),
                    format!("op {i}"),
                ))
                .with(Some(Draft::Edits(vec![Edit::Replace(
                    i,
                    op(&format!("/x{i}")),
                )])))
            })
            .collect();
        let folded = fold(pending);
        assert_eq!(folded.len(), SHOWN_PER_RULE + 1);
        let last = &folded[SHOWN_PER_RULE].finding;
        let group = last.folded.as_ref().unwrap();
        assert_eq!(group.count, 50 - SHOWN_PER_RULE);
        assert_eq!(group.indices[..3], [5, 6, 7]);
        assert!(
            last.message
                .starts_with("op 5 [the same at 45 ops: 5, 6, 7,")
                && last.message.ends_with(" and 35 more]"),
            "{}",
            last.message
        );
        let findings = finish(folded, &ops, None);
        let fix = findings[SHOWN_PER_RULE].fix.as_ref().unwrap();
        // One fix for all 45: every folded op rewritten.
        assert_eq!(
            fix.ops.iter().filter(|o| o.path.starts_with("/x")).count(),
            45
        );
        assert!(findings.iter().all(|f| f.severity == Severity::Warning));
    }
}
