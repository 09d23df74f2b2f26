//! From what the code builds to findings: every combination of branches
//! of a payload is run through the real lint (unknown values replaced by
//! stand-ins of the right shape, the object's kind when the code says it),
//! then the rules only code shows.
//!
//! An op a helper builds is judged wherever its ops go: in the helper
//! (where the kind is not known) and in each caller that sends them (where
//! it may be). A judgement with the kind wins: a finding the kind rules
//! out (a VMI's `status.activePods` has one writer) is dropped at that
//! place.

mod bodies;
mod messages;
mod ops;
mod show;
mod standins;

use std::collections::{HashMap, HashSet};

use super::eval::{Change, Emit, EmitKind, How};
use super::go::Pos;
use super::value::{all_ops, has_branches, Node};
use super::{HazardSite, Payload, PayloadOp};
use crate::lint::Rule;
use show::{conditional_ids, show_nodes, show_val, show_value};

/// The findings and payloads of one package's emits, and the places
/// judged knowing the object's kind.
#[derive(Debug, Default)]
pub struct Judged {
    /// Hazard sites.
    pub findings: Vec<HazardSite>,
    /// Payloads.
    pub payloads: Vec<Payload>,
    /// (file, line, column) of ops and sends judged with the kind known:
    /// a finding there judged without it is not believed.
    pub kinded: HashSet<(String, usize, usize)>,
}

fn how_text(how: &How) -> String {
    match how {
        How::Generated => "generated here".to_owned(),
        How::Sent(ty) => format!("sent here as {}", ty.as_str()),
        How::Returned => "returned to the caller".to_owned(),
        How::Passed(name) => format!("passed to {name}"),
        How::Unsent => "built here, sent by the caller".to_owned(),
        How::Admission => "returned by an admission webhook".to_owned(),
    }
}

fn rank(how: &How) -> u8 {
    match how {
        How::Sent(_) => 0,
        How::Generated => 1,
        How::Returned => 2,
        How::Passed(_) => 3,
        How::Unsent => 4,
        How::Admission => 0,
    }
}

/// A hazard site before it is placed in a file.
struct Found {
    rule: Rule,
    at: Pos,
    function: String,
    /// The object's kind, when known.
    kind: Option<String>,
    message: String,
    ops: Vec<String>,
    payload: String,
    branches: bool,
    fix: String,
    fix_payload: Option<String>,
}

/// Ops an admission webhook returns: applied to the object being
/// admitted, so the rules about concurrent writers do not apply.
fn admitted(emits: &[Emit]) -> HashSet<u32> {
    emits
        .iter()
        .filter(|e| e.how == How::Admission)
        .flat_map(|e| match &e.kind {
            EmitKind::JsonPatch(nodes) => all_ops(nodes).iter().map(|op| op.id).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The places an emit is judged at: its ops, and where it is sent.
fn places(emit: &Emit) -> Vec<Pos> {
    let mut out = vec![emit.at];
    if let EmitKind::JsonPatch(nodes) = &emit.kind {
        out.extend(all_ops(nodes).iter().map(|op| op.at));
    }
    out
}

/// Judges a package's payloads; `names` are the files by id.
pub fn judge(names: &[&str], emits: &[Emit]) -> Judged {
    let admitted = admitted(emits);
    let mut found: Vec<Found> = Vec::new();
    let mut seen: HashSet<(Rule, u32)> = HashSet::new();
    let mut seen_at: HashSet<(Rule, Pos)> = HashSet::new();
    let mut payloads: Vec<(Vec<u32>, Payload, u8)> = Vec::new();
    // The first payload of each set of op ids (a search of `payloads` per
    // emit is quadratic on a generated file's thousands of functions).
    let mut by_ids: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut kinded: HashSet<Pos> = HashSet::new();
    let name = |pos: Pos| names.get(pos.file as usize).copied().unwrap_or("");
    // Judged with the kind first: an op judged there is not judged again
    // where the kind is unknown (the same op generated, then sent).
    let mut ordered: Vec<&Emit> = emits.iter().collect();
    ordered.sort_by_key(|e| e.target.is_none());
    for emit in ordered {
        if emit.target.is_some() {
            kinded.extend(places(emit));
        }
        let file = name(emit.at);
        match &emit.kind {
            EmitKind::JsonPatch(nodes) => {
                let mut ids: Vec<u32> = all_ops(nodes).iter().map(|op| op.id).collect();
                ids.sort_unstable();
                let payload = json_payload(file, emit, nodes);
                match by_ids.get(&ids).map(|&i| &mut payloads[i]) {
                    Some(existing) if existing.2 <= rank(&emit.how) => {}
                    Some(existing) => *existing = (ids, payload, rank(&emit.how)),
                    None => {
                        by_ids.insert(ids.clone(), payloads.len());
                        payloads.push((ids, payload, rank(&emit.how)));
                    }
                }
                ops::json_patch(emit, nodes, &admitted, &mut found, &mut seen);
            }
            EmitKind::Body { ty, body } => {
                let text = show_val(body);
                let payload = body_payload(file, emit, ty.as_str(), text);
                by_ids.entry(Vec::new()).or_insert(payloads.len());
                payloads.push((Vec::new(), payload, rank(&emit.how)));
                bodies::body(emit, *ty, body, &mut found, &mut seen_at);
            }
            EmitKind::MergeFrom {
                object,
                base,
                lock,
                strategic,
                helper,
                changes,
            } => {
                let mut changes = changes.clone();
                if *helper && emit.deferred {
                    changes.extend(dangling_of(emits, emit, object, &changes));
                }
                let m = bodies::MergeFrom {
                    object,
                    base,
                    lock: *lock,
                    strategic: *strategic,
                    helper: *helper,
                    changes: &changes,
                };
                let text = bodies::merge_from(emit, &m, &mut found, &mut seen_at);
                let kind = if *strategic {
                    "strategic-merge-patch"
                } else {
                    "merge-patch"
                };
                by_ids.entry(Vec::new()).or_insert(payloads.len());
                payloads.push((
                    Vec::new(),
                    body_payload(file, emit, kind, text),
                    rank(&emit.how),
                ));
            }
            EmitKind::GoFormatted { exprs } => {
                bodies::go_formatted(emit, exprs, &mut found, &mut seen_at);
            }
            EmitKind::Dangling(_) => {}
        }
    }
    let found = believed(found, &kinded);
    Judged {
        findings: found
            .into_iter()
            .map(|f| {
                let file = name(f.at);
                f.placed(file)
            })
            .collect(),
        payloads: payloads.into_iter().map(|(_, p, _)| p).collect(),
        kinded: kinded
            .into_iter()
            .map(|p| (name(p).to_owned(), p.line, p.column))
            .collect(),
    }
}

/// The changes other functions of the package make to the object a patch
/// helper sends and do not send themselves (`reconcileDelete` removes the
/// finalizer, `Reconcile`'s deferred helper sends it): the same kind, or
/// the same name (`s.cluster`, `cluster`).
fn dangling_of(emits: &[Emit], sent: &Emit, object: &str, known: &[Change]) -> Vec<Change> {
    let last = |e: &str| {
        let e = e.rsplit('.').next().unwrap_or(e);
        e.to_ascii_lowercase()
    };
    let name = last(object);
    let kind = sent.target.as_ref().map(|t| t.kind.as_str());
    emits
        .iter()
        .filter(|e| e.function != sent.function)
        .filter_map(|e| match &e.kind {
            EmitKind::Dangling(changes) => Some(changes),
            _ => None,
        })
        .flatten()
        .filter(|c| {
            let same_kind = kind.is_some() && c.kind.as_deref() == kind;
            let other_kind = kind.is_some() && c.kind.is_some() && !same_kind;
            (same_kind || (!other_kind && last(&c.object) == name))
                && !known.iter().any(|k| k.at == c.at)
        })
        .cloned()
        .collect()
}

/// One finding per rule and place: the one judged with the object's kind
/// when there is one; none where the kind was known and said nothing.
fn believed(found: Vec<Found>, kinded: &HashSet<Pos>) -> Vec<Found> {
    let mut best: HashMap<(Rule, Pos), Found> = HashMap::new();
    let mut order = Vec::new();
    for f in found {
        if f.kind.is_none() && kinded.contains(&f.at) {
            continue;
        }
        let key = (f.rule, f.at);
        match best.get(&key) {
            Some(kept) if kept.kind.is_some() || f.kind.is_none() => {}
            _ => {
                if !best.contains_key(&key) {
                    order.push(key);
                }
                best.insert(key, f);
            }
        }
    }
    order.into_iter().filter_map(|k| best.remove(&k)).collect()
}

impl Found {
    /// The hazard site, placed in `file`.
    fn placed(self, file: &str) -> HazardSite {
        HazardSite {
            severity: self.rule.severity(),
            rule: self.rule,
            file: file.to_owned(),
            line: self.at.line,
            column: self.at.column,
            function: self.function,
            object_kind: self.kind,
            message: self.message,
            ops: self.ops,
            payload: self.payload,
            branches: self.branches,
            fix: self.fix,
            fix_payload: self.fix_payload,
        }
    }
}

/// The payload of a body sent whole (a merge or strategic merge patch):
/// its text, no ops.
fn body_payload(file: &str, emit: &Emit, kind: &'static str, text: String) -> Payload {
    Payload {
        file: file.to_owned(),
        line: emit.at.line,
        column: emit.at.column,
        function: emit.function.clone(),
        object_kind: emit.target.as_ref().map(|t| t.kind.clone()),
        kind,
        how: how_text(&emit.how),
        text,
        ops: Vec::new(),
        branches: false,
    }
}

/// The payload of a JSON patch: its text and its ops.
fn json_payload(file: &str, emit: &Emit, nodes: &[Node]) -> Payload {
    let conditional = conditional_ids(nodes);
    let ops = all_ops(nodes).into_iter().map(|op| PayloadOp {
        op: op.kind.map_or("<op>", |k| k.as_str()),
        path: op.path.display(),
        value: show_value(op),
        line: op.at.line,
        column: op.at.column,
        conditional: conditional.contains(&op.id),
    });
    Payload {
        ops: ops.collect(),
        branches: has_branches(nodes),
        ..body_payload(file, emit, "json-patch", show_nodes(nodes))
    }
}
