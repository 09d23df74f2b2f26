//! JSON patches judged: each group of related ops, each combination of
//! its branches, through lint with stand-ins; findings the scanner cannot
//! back are dropped.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::messages::message;
use super::show::{show_nodes, show_op_json};
use super::standins::{union, variants, Item, Standins, MAX_VARIANTS};
use super::Found;
use crate::lint::{self, Options, Rule};
use crate::patch::{OpKind, Operation};
use crate::scan::eval::{Emit, How};
use crate::scan::fix;
use crate::scan::value::{all_ops, has_branches, Node, OpT};

/// Rules about guards: unknown ops before the op may hold its `test`.
fn needs_guard_knowledge(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::WholeCollectionWrite
            | Rule::WholeObjectTest
            | Rule::IndexWithoutTest
            | Rule::AddWithoutTest
            | Rule::RemoveWithoutTest
            | Rule::WholeListTest
            | Rule::WholeMapTest
    )
}

/// Rules about what other writers do between the read and the write.
fn about_concurrency(rule: Rule) -> bool {
    needs_guard_knowledge(rule) || matches!(rule, Rule::RvTest | Rule::RvPinnedBody)
}

/// Rules that say two ops hit the same path: only believed on known paths.
fn needs_equal_paths(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::DuplicatePath | Rule::TestAfterWrite | Rule::UnknownField
    )
}

/// False for a finding the scanner cannot back: a rule about guards with
/// ops it cannot see before the op, a rule about concurrent writers on a
/// webhook's patch, a rule about equal paths on a path with holes.
fn believed(rule: Rule, op: &OpT, unseen_before: bool, admitted: &HashSet<u32>) -> bool {
    !(needs_guard_knowledge(rule) && unseen_before
        || about_concurrency(rule) && admitted.contains(&op.id)
        || needs_equal_paths(rule) && op.path.has_holes())
}

/// True when the stand-in path `outer` is `inner` or encloses it.
fn encloses(outer: &str, inner: &str) -> bool {
    inner == outer || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
}

/// The ops of `nodes` whose id is in `keep` (and what the scanner cannot
/// see), with their branches.
fn project(nodes: &[Node], keep: &HashSet<u32>) -> Vec<Node> {
    let mut out = Vec::new();
    for node in nodes {
        match node {
            Node::Op(op) if keep.contains(&op.id) => out.push(node.clone()),
            Node::Op(_) => {}
            Node::Opaque(_) => out.push(node.clone()),
            Node::Choice(arms) => {
                let arms: Vec<Vec<Node>> = arms.iter().map(|a| project(a, keep)).collect();
                if arms.iter().any(|a| !a.is_empty()) {
                    out.push(Node::Choice(arms));
                }
            }
        }
    }
    out
}

/// The ops of a payload as lint sees them: stand-in paths and values
/// (`None`: the op cannot be linted, it counts as unseen).
struct Prepared {
    ops: HashMap<u32, Option<(Operation, bool)>>,
}

impl Prepared {
    fn new(nodes: &[Node], kind: Option<&str>) -> Prepared {
        let mut standins = Standins {
            kind: kind.map(str::to_owned),
            ..Standins::default()
        };
        let mut ops = HashMap::new();
        for op in all_ops(nodes) {
            standins.placeholders = false;
            let prepared = match (op.kind, standins.path(&op.path)) {
                (Some(kind), Some(path)) => {
                    let value = op
                        .value
                        .as_ref()
                        .map(|v| standins.value(v, &path))
                        .unwrap_or(Value::Null);
                    match kind {
                        OpKind::Remove => Some(Operation::remove(path)),
                        OpKind::Test => Some(Operation::test(path, value)),
                        OpKind::Add => Some(Operation::add(path, value)),
                        OpKind::Replace => Some(Operation::replace(path, value)),
                        OpKind::Move | OpKind::Copy => None,
                    }
                }
                _ => None,
            };
            ops.insert(op.id, prepared.map(|o| (o, standins.placeholders)));
        }
        Prepared { ops }
    }

    /// Groups of ops whose paths are related (one encloses the other):
    /// only ops of one group can make a finding together.
    fn groups(&self, nodes: &[Node]) -> Vec<HashSet<u32>> {
        let ops: Vec<(u32, &str)> = all_ops(nodes)
            .iter()
            .filter_map(|op| {
                self.ops
                    .get(&op.id)
                    .and_then(|p| p.as_ref())
                    .map(|(o, _)| (op.id, o.path.as_str()))
            })
            .collect();
        let n = ops.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        if n > 500 {
            // Too many to pair up: one group (its branches then fall
            // back to the union).
            return vec![ops.iter().map(|(id, _)| *id).collect()];
        }
        for i in 0..n {
            for j in i + 1..n {
                if encloses(ops[i].1, ops[j].1) || encloses(ops[j].1, ops[i].1) {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                    parent[a] = b;
                }
            }
        }
        let mut groups: HashMap<usize, HashSet<u32>> = HashMap::new();
        for (i, (id, _)) in ops.iter().enumerate() {
            let r = find(&mut parent, i);
            groups.entry(r).or_default().insert(*id);
        }
        let mut out: Vec<HashSet<u32>> = groups.into_values().collect();
        out.sort_by_key(|g| g.iter().min().copied());
        out
    }
}

pub(super) fn json_patch(
    emit: &Emit,
    nodes: &[Node],
    admitted: &HashSet<u32>,
    found: &mut Vec<Found>,
    seen: &mut HashSet<(Rule, u32)>,
) {
    let branches = has_branches(nodes);
    let payload_text = show_nodes(nodes);
    let prepared = Prepared::new(nodes, emit.target.as_ref().map(|t| t.kind.as_str()));
    for group in prepared.groups(nodes) {
        let projected = project(nodes, &group);
        let combos = match variants(&projected, MAX_VARIANTS) {
            Some(v) => v,
            None => vec![union(&projected)],
        };
        for combo in &combos {
            let judging = Judging {
                emit,
                prepared: &prepared,
                payload_text: &payload_text,
                branches,
                admitted,
            };
            judging.lint_combo(combo, found, seen);
        }
    }
    // A test in a payload retried on 409 only.
    if let (Some(retry), How::Sent(_)) = (emit.retry, &emit.how) {
        let tests: Vec<&OpT> = all_ops(nodes)
            .into_iter()
            .filter(|op| op.kind == Some(OpKind::Test))
            .collect();
        if let Some(first) = tests.first() {
            if seen.insert((Rule::TestRetriedOnConflict, first.id)) {
                let paths: Vec<String> = tests
                    .iter()
                    .map(|op| format!("`{}`", op.path.display()))
                    .collect();
                found.push(Found {
                    rule: Rule::TestRetriedOnConflict,
                    at: retry,
                    function: emit.function.clone(),
                    kind: emit.target.as_ref().map(|t| t.kind.clone()),
                    message: format!(
                        "the JSON patch sent inside this `retry.RetryOnConflict` (line {}) tests {}: a failed `test` is answered 422 Invalid, which RetryOnConflict never retries (it retries 409 Conflict only), and a JSON patch with no resourceVersion never gets a 409, so the loop never runs a second time",
                        emit.at.line,
                        paths.join(", ")
                    ),
                    ops: tests.iter().map(|op| show_op_json(op)).collect(),
                    payload: payload_text.clone(),
                    branches,
                    fix: fix::retry_on_invalid(),
                    fix_payload: None,
                });
            }
        }
    }
}

/// What one payload's combinations are judged with.
struct Judging<'j> {
    emit: &'j Emit,
    prepared: &'j Prepared,
    payload_text: &'j str,
    branches: bool,
    admitted: &'j HashSet<u32>,
}

impl Judging<'_> {
    fn lint_combo(&self, combo: &[Item], found: &mut Vec<Found>, seen: &mut HashSet<(Rule, u32)>) {
        let emit = self.emit;
        let mut ops: Vec<Operation> = Vec::new();
        let mut origin: Vec<&OpT> = Vec::new();
        let mut unseen_before: Vec<bool> = Vec::new();
        let mut unseen = false;
        let mut placeholders = false;
        for item in combo {
            let Item::Op(op) = item else {
                unseen = true;
                continue;
            };
            let Some(Some((operation, placeholder))) = self.prepared.ops.get(&op.id) else {
                unseen = true;
                continue;
            };
            placeholders |= *placeholder;
            ops.push(operation.clone());
            origin.push(op);
            unseen_before.push(unseen);
        }
        if ops.is_empty() {
            return;
        }
        let options = Options {
            kind: emit.target.as_ref().map(|t| t.kind.clone()),
            ..Options::default()
        };
        let report = lint::lint_ops(&ops, &options);
        for finding in &report.findings {
            let Some(index) = finding.index else { continue };
            let Some(op) = origin.get(index).copied() else {
                continue;
            };
            let stood_in = matches!(self.prepared.ops.get(&op.id), Some(Some((_, true))));
            if !believed(finding.rule, op, unseen_before[index], self.admitted)
                || (finding.rule == Rule::UnknownField && stood_in)
                || !seen.insert((finding.rule, op.id))
            {
                continue;
            }
            // The same op written once but built twice (a closure called
            // for labels, then for annotations): one finding per place.
            if found
                .iter()
                .any(|f| f.rule == finding.rule && f.at == op.at && f.function == emit.function)
            {
                continue;
            }
            let partner = partner(finding.rule, &origin, &ops, index);
            if finding.rule == Rule::DuplicatePath && partner.is_some_and(|p| same_object(p, op)) {
                continue;
            }
            let fix_payload = (!placeholders)
                .then(|| finding.fix.as_ref().map(lint::Fix::payload))
                .flatten();
            found.push(Found {
                rule: finding.rule,
                at: op.at,
                function: emit.function.clone(),
                kind: emit.target.as_ref().map(|t| t.kind.clone()),
                message: message(finding.rule, op, partner, &finding.message, placeholders),
                ops: std::iter::once(op)
                    .chain(partner)
                    .map(show_op_json)
                    .collect(),
                payload: self.payload_text.to_owned(),
                branches: self.branches,
                fix: fix::for_op(finding.rule, op, partner),
                fix_payload,
            });
        }
    }
}

/// Two writes of the same Go variable (a map or slice: the op holds a
/// reference, so both are written with what it holds when the payload is
/// generated): writing it twice changes nothing.
fn same_object(a: &OpT, b: &OpT) -> bool {
    let writes = |op: &OpT| matches!(op.kind, Some(OpKind::Add | OpKind::Replace));
    let named =
        |e: &str| !e.is_empty() && e.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    writes(a) && writes(b) && named(&a.value_expr) && a.value_expr == b.value_expr
}

/// The other op a finding is about: the write a whole-collection test
/// guards, the earlier write of a duplicate, the write a late test
/// follows.
fn partner<'n>(rule: Rule, origin: &[&'n OpT], ops: &[Operation], index: usize) -> Option<&'n OpT> {
    let op = &ops[index];
    let found = match rule {
        Rule::WholeMapTest | Rule::WholeListTest => {
            (index + 1..ops.len()).find(|&j| ops[j].op != OpKind::Test && ops[j].path == op.path)
        }
        Rule::DuplicatePath => (0..index)
            .rev()
            .find(|&j| ops[j].op != OpKind::Test && ops[j].path == op.path),
        Rule::TestAfterWrite => {
            (0..index).find(|&j| ops[j].op != OpKind::Test && encloses(&ops[j].path, &op.path))
        }
        _ => None,
    };
    found.map(|j| origin[j])
}
