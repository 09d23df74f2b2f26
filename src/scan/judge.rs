//! From what the code builds to findings: every combination of branches
//! of a payload is run through the real lint (unknown values replaced by
//! stand-ins of the right shape), then the rules only code shows.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::eval::{Change, Coll, Emit, EmitKind, How};
use super::fix;
use super::value::{
    all_ops, collection_at, has_branches, HoleKind, Node, OpT, Piece, Shape, Text, Val,
};
use super::{HazardSite, Payload, PayloadOp};
use crate::lint::{self, BodyKind, Input, Options, Origin, Rule};
use crate::patch::{OpKind, Operation};

/// Most combinations of branches linted one by one; above, the union of
/// all branches is linted once.
const MAX_VARIANTS: usize = 64;

/// One op of a combination, or ops the scanner cannot see.
#[derive(Clone, Copy)]
enum Item<'n> {
    Op(&'n OpT),
    Opaque,
}

/// Every combination of branches of `nodes`, or `None` above `cap`.
fn variants(nodes: &[Node], cap: usize) -> Option<Vec<Vec<Item<'_>>>> {
    let mut out: Vec<Vec<Item>> = vec![Vec::new()];
    for node in nodes {
        match node {
            Node::Op(op) => out.iter_mut().for_each(|v| v.push(Item::Op(op))),
            Node::Opaque(_) => out.iter_mut().for_each(|v| v.push(Item::Opaque)),
            Node::Choice(arms) => {
                let mut arm_variants = Vec::new();
                for arm in arms {
                    arm_variants.extend(variants(arm, cap)?);
                }
                if out.len().saturating_mul(arm_variants.len()) > cap {
                    return None;
                }
                let mut next = Vec::with_capacity(out.len() * arm_variants.len());
                for prefix in &out {
                    for arm in &arm_variants {
                        let mut v = prefix.clone();
                        v.extend(arm.iter().copied());
                        next.push(v);
                    }
                }
                out = next;
            }
        }
    }
    Some(out)
}

/// The union of all branches, in source order.
fn union(nodes: &[Node]) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    fn walk<'n>(nodes: &'n [Node], out: &mut Vec<Item<'n>>) {
        for node in nodes {
            match node {
                Node::Op(op) => out.push(Item::Op(op)),
                Node::Opaque(_) => out.push(Item::Opaque),
                Node::Choice(arms) => arms.iter().for_each(|a| walk(a, out)),
            }
        }
    }
    walk(nodes, &mut out);
    out
}

/// Stand-ins for the unknown parts of one payload: the same expression
/// gets the same stand-in, so a `test` still guards the op after it.
#[derive(Default)]
struct Standins {
    ids: HashMap<String, usize>,
    placeholders: bool,
}

impl Standins {
    fn id(&mut self, expr: &str) -> usize {
        let next = self.ids.len();
        *self.ids.entry(expr.to_owned()).or_insert(next)
    }

    /// The path with its holes filled, `None` when it does not start
    /// with known text.
    fn path(&mut self, text: &Text) -> Option<String> {
        let mut out = String::new();
        for piece in &text.pieces {
            match piece {
                Piece::Lit(s) => out.push_str(s),
                Piece::Hole(hole) => {
                    if out.is_empty() {
                        return None;
                    }
                    self.placeholders = true;
                    let n = self.id(&hole.expr);
                    let key_of_names = out.ends_with("/metadata/labels/")
                        || out.ends_with("/metadata/annotations/");
                    match hole.kind {
                        HoleKind::Index => out.push_str(&n.to_string()),
                        HoleKind::Text if key_of_names => {
                            // A label or annotation key may be qualified
                            // (`example.com/name`): unescaped, it splits.
                            out.push_str(&format!("example.com/k{n}"));
                        }
                        _ => out.push_str(&format!("k{n}")),
                    }
                }
            }
        }
        out.starts_with('/').then_some(out)
    }

    /// A JSON value standing for `val` written at `path`.
    fn value(&mut self, val: &Val, path: &str) -> Value {
        if let Some(known) = val.known_json() {
            return known;
        }
        self.placeholders = true;
        match val {
            Val::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), self.value(v, "")))
                    .collect(),
            ),
            Val::List(items) => Value::Array(items.iter().map(|v| self.value(v, "")).collect()),
            Val::Str(_) => Value::String("value".to_owned()),
            other => {
                let shape = match other.shape() {
                    Shape::Unknown => collection_at(path).unwrap_or(Shape::Unknown),
                    s => s,
                };
                stand_in(shape)
            }
        }
    }
}

fn stand_in(shape: Shape) -> Value {
    match shape {
        Shape::Map => json!({"example.com/key": "value"}),
        Shape::List => json!(["element"]),
        _ => Value::String("value".to_owned()),
    }
}

/// How an op's value is shown: JSON when known, else `<expression>`.
pub fn show_value(op: &OpT) -> Option<String> {
    let val = op.value.as_ref()?;
    Some(match val.known_json() {
        Some(v) => crate::gojson::to_string(&v),
        None => show_unknown(val, &op.value_expr),
    })
}

fn show_unknown(val: &Val, expr: &str) -> String {
    match val {
        Val::Opaque { expr: inner, .. }
            if inner != expr
                && !expr.is_empty()
                && expr.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
        {
            format!("<{expr} = {inner}>")
        }
        Val::Str(t) => format!("\"{}\"", t.display()),
        Val::Object(members) => {
            let inner: Vec<String> = members
                .iter()
                .map(|(k, v)| format!("\"{k}\":{}", show_val(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        _ if !expr.is_empty() => format!("<{expr}>"),
        Val::Opaque { expr, .. } | Val::Unknown(expr) => format!("<{expr}>"),
        _ => "<?>".to_owned(),
    }
}

fn show_val(val: &Val) -> String {
    match val.known_json() {
        Some(v) => crate::gojson::to_string(&v),
        None => match val {
            Val::Opaque { expr, .. } | Val::Unknown(expr) => format!("<{expr}>"),
            Val::Str(t) => format!("\"{}\"", t.display()),
            Val::List(items) => format!(
                "[{}]",
                items.iter().map(show_val).collect::<Vec<_>>().join(",")
            ),
            other => show_unknown(other, ""),
        },
    }
}

/// `test /metadata/labels`.
pub fn show_op(op: &OpT) -> String {
    let kind = op.kind.map_or("<op>", |k| k.as_str());
    format!("{kind} {}", op.path.display())
}

/// One op as JSON-like text with placeholders.
fn show_op_json(op: &OpT) -> String {
    let kind = op.kind.map_or("<op>", |k| k.as_str());
    let path = serde_json::to_string(&op.path.display()).unwrap_or_default();
    match show_value(op) {
        Some(v) => format!(r#"{{"op":"{kind}","path":{path},"value":{v}}}"#),
        None => format!(r#"{{"op":"{kind}","path":{path}}}"#),
    }
}

fn show_nodes(nodes: &[Node]) -> String {
    let mut parts = Vec::new();
    for op_or_opaque in union(nodes) {
        match op_or_opaque {
            Item::Op(op) => parts.push(show_op_json(op)),
            Item::Opaque => parts.push("<ops from elsewhere>".to_owned()),
        }
    }
    format!("[{}]", parts.join(","))
}

fn conditional_ids(nodes: &[Node]) -> HashSet<u32> {
    let mut out = HashSet::new();
    for node in nodes {
        if let Node::Choice(arms) = node {
            for arm in arms {
                out.extend(all_ops(arm).iter().map(|op| op.id));
            }
        }
    }
    out
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
    at: super::go::Pos,
    function: String,
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

/// Judges a file's payloads.
pub fn judge(file: &str, emits: &[Emit]) -> (Vec<HazardSite>, Vec<Payload>) {
    let admitted = admitted(emits);
    let mut found: Vec<Found> = Vec::new();
    let mut seen: HashSet<(Rule, u32)> = HashSet::new();
    let mut seen_at: HashSet<(Rule, super::go::Pos)> = HashSet::new();
    let mut payloads: Vec<(Vec<u32>, Payload, u8)> = Vec::new();
    for emit in emits {
        match &emit.kind {
            EmitKind::JsonPatch(nodes) => {
                let mut ids: Vec<u32> = all_ops(nodes).iter().map(|op| op.id).collect();
                ids.sort_unstable();
                let payload = json_payload(file, emit, nodes);
                match payloads.iter_mut().find(|(k, _, _)| *k == ids) {
                    Some(existing) if existing.2 <= rank(&emit.how) => {}
                    Some(existing) => *existing = (ids, payload, rank(&emit.how)),
                    None => payloads.push((ids, payload, rank(&emit.how))),
                }
                json_patch(emit, nodes, &admitted, &mut found, &mut seen);
            }
            EmitKind::Body { ty, body } => {
                let text = show_val(body);
                payloads.push((
                    Vec::new(),
                    body_payload(file, emit, ty.as_str(), text),
                    rank(&emit.how),
                ));
                if *ty == super::value::PatchType::Merge {
                    merge_body(emit, body, &mut found, &mut seen_at);
                }
            }
            EmitKind::MergeFrom {
                object,
                base,
                lock,
                strategic,
                changes,
            } => {
                let text = merge_from_body(object, *lock, changes);
                let kind = if *strategic {
                    "strategic-merge-patch"
                } else {
                    "merge-patch"
                };
                payloads.push((
                    Vec::new(),
                    body_payload(file, emit, kind, text.clone()),
                    rank(&emit.how),
                ));
                let lists: Vec<&Change> = changes.iter().filter(|c| c.coll.is_list()).collect();
                if !*lock
                    && !*strategic
                    && !lists.is_empty()
                    && seen_at.insert((Rule::MergeFromReplacesList, emit.at))
                {
                    found.push(merge_from(emit, object, base, &lists, text));
                }
            }
        }
    }
    let findings = found.into_iter().map(|f| f.placed(file)).collect();
    (findings, payloads.into_iter().map(|(_, p, _)| p).collect())
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
    matches!(rule, Rule::DuplicatePath | Rule::TestAfterWrite)
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
    fn new(nodes: &[Node]) -> Prepared {
        let mut standins = Standins::default();
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

fn json_patch(
    emit: &Emit,
    nodes: &[Node],
    admitted: &HashSet<u32>,
    found: &mut Vec<Found>,
    seen: &mut HashSet<(Rule, u32)>,
) {
    let branches = has_branches(nodes);
    let payload_text = show_nodes(nodes);
    let prepared = Prepared::new(nodes);
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
        let report = lint::lint_ops(&ops, &Options::default());
        for finding in &report.findings {
            let Some(index) = finding.index else { continue };
            let Some(op) = origin.get(index).copied() else {
                continue;
            };
            if !believed(finding.rule, op, unseen_before[index], self.admitted)
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
            let fix_payload = (!placeholders)
                .then(|| finding.fix.as_ref().map(lint::Fix::payload))
                .flatten();
            found.push(Found {
                rule: finding.rule,
                at: op.at,
                function: emit.function.clone(),
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

fn what_shape(op: &OpT) -> &'static str {
    match op.path.literal().as_deref() {
        Some(p) if p.ends_with("/labels") => "a label",
        Some(p) if p.ends_with("/annotations") => "an annotation",
        Some(p) if p.ends_with("/finalizers") => "a finalizer",
        Some(p) if p.ends_with("/ownerReferences") => "an owner reference",
        Some(p) if p.ends_with("/conditions") => "a condition",
        _ => "an element",
    }
}

fn message(
    rule: Rule,
    op: &OpT,
    partner: Option<&OpT>,
    lint_message: &str,
    placeholders: bool,
) -> String {
    let path = op.path.display();
    let value = show_value(op).unwrap_or_default();
    match rule {
        Rule::WholeMapTest => format!(
            "`test {path}` compares the whole map {value}{}: a concurrent change to any key of it, even one this patch leaves alone ({} another writer sets), fails the whole patch (422) and drops every other op in it",
            partner.map(|p| format!(" to `{}` it", p.kind.map_or("write", |k| k.as_str()))).unwrap_or_default(),
            what_shape(op)
        ),
        Rule::WholeListTest => format!(
            "`test {path}` compares the whole list {value} to change it: any concurrent change to the list ({} another controller adds) fails the patch (422); safe to retry after a re-read, only slower",
            what_shape(op)
        ),
        Rule::WholeCollectionWrite => {
            let shape = match (collection_at(&path), op.value.as_ref().map(Val::shape)) {
                (Some(Shape::List), _) | (None, Some(Shape::List)) => "list",
                (Some(Shape::Map), _) | (None, Some(Shape::Map)) => "map",
                _ => "collection",
            };
            format!(
                "`{}` writes the whole {shape} {value} with no `test` before it: whatever another writer put there since your read ({}) is erased",
                show_op(op),
                what_shape(op)
            )
        }
        Rule::UnescapedSlash if op.path.has_holes() => {
            let key = op
                .path
                .pieces
                .iter()
                .find_map(|p| match p {
                    Piece::Hole(h) if h.kind == HoleKind::Text => Some(h.expr.clone()),
                    _ => None,
                })
                .unwrap_or_default();
            format!(
                "`{}` puts the key `{key}` into the path unescaped: a key holding `/` (any qualified name such as `kubevirt.io/nodeName`) is read as two steps, so the op fails (422) or writes somewhere else",
                show_op(op)
            )
        }
        Rule::IndexWithoutTest => format!(
            "`{}` addresses a list element by index with no `test` of it first: if another writer changed the list since your read, it hits their element",
            show_op(op)
        ),
        Rule::EngineDependent if op.kind == Some(OpKind::Test) && op.value == Some(Val::Nil) => format!(
            "`test {path}` with null: kube-apiserver passes it when the member is missing (or null), a strict RFC 6902 engine (and most libraries unit tests use) fails it"
        ),
        Rule::AddWithoutTest => format!(
            "`add {path}` sets one key to {value} with no `test`: if another writer sets the same key at the same time, the last write wins"
        ),
        Rule::RemoveWithoutTest => format!(
            "`remove {path}` with no `test`: it fails (422) if another writer removed the key first, and erases any value set meanwhile"
        ),
        Rule::DuplicatePath => match partner {
            Some(p) => format!(
                "`{}` writes the same path as `{}` (line {}) in the same patch: {}",
                show_op(op),
                show_op(p),
                p.at.line,
                if op.kind == Some(OpKind::Remove) && p.kind == Some(OpKind::Remove) {
                    "the second remove always fails (422)"
                } else {
                    "the later write replaces what the earlier one wrote"
                }
            ),
            None => format!("{} (`{}`)", rule.info().summary, show_op(op)),
        },
        Rule::TestAfterWrite => match partner {
            Some(p) => format!(
                "`{}` runs after `{}` (line {}) wrote that path in the same patch: it compares against what the patch just wrote, not what is stored, so it guards nothing",
                show_op(op),
                show_op(p),
                p.at.line
            ),
            None => format!("{} (`{}`)", rule.info().summary, show_op(op)),
        },
        _ if !placeholders => lint_message.to_owned(),
        _ => format!("{} (`{}`)", rule.info().summary, show_op(op)),
    }
}

/// A merge body with its unknown values stood in for, and lint's merge
/// rules on it.
fn merge_body(
    emit: &Emit,
    body: &Val,
    found: &mut Vec<Found>,
    seen_at: &mut HashSet<(Rule, super::go::Pos)>,
) {
    let mut standins = Standins::default();
    let json = stand_in_body(body, "", &mut standins);
    let Ok(text) = serde_json::to_string(&json) else {
        return;
    };
    let input = Input {
        kind: BodyKind::MergePatch,
        payload: text,
        origin: Origin::Json,
        resource: None,
        hints: Vec::new(),
    };
    let Ok(report) = lint::lint_input(&input, &Options::default()) else {
        return;
    };
    let shown = show_val(body);
    for finding in &report.findings {
        if !seen_at.insert((finding.rule, emit.at)) {
            continue;
        }
        let path = finding.path.clone().unwrap_or_default();
        let message = match finding.rule {
            Rule::MergeReplacesList => format!(
                "the merge body sets {path} to a whole list: a merge patch replaces the stored list whole, so an element another writer added or removed since your read (a {}) is silently lost",
                match path.rsplit('/').next() {
                    Some("finalizers") => "finalizer",
                    Some("conditions") => "condition",
                    Some("ownerReferences") => "owner reference",
                    _ => "list element",
                }
            ),
            _ => finding.message.clone(),
        };
        found.push(Found {
            rule: finding.rule,
            at: emit.at,
            function: emit.function.clone(),
            message,
            ops: vec![shown.clone()],
            payload: shown.clone(),
            branches: false,
            fix: fix::for_merge_body(finding.rule, &path),
            fix_payload: None,
        });
    }
}

fn stand_in_body(val: &Val, path: &str, standins: &mut Standins) -> Value {
    match val {
        Val::Object(members) => {
            let mut map = Map::new();
            for (k, v) in members {
                let child = format!("{path}/{}", crate::pointer::escape(k));
                map.insert(k.clone(), stand_in_body(v, &child, standins));
            }
            Value::Object(map)
        }
        other => standins.value(other, path),
    }
}

/// The merge body a `MergeFrom` patch sends, from the changes seen.
fn merge_from_body(object: &str, lock: bool, changes: &[Change]) -> String {
    let mut metadata = Vec::new();
    let mut status = Vec::new();
    let mut colls: Vec<Coll> = changes.iter().map(|c| c.coll).collect();
    colls.sort();
    colls.dedup();
    for coll in colls {
        let name = coll.path().rsplit('/').next().unwrap_or("");
        let value = match coll {
            Coll::Labels | Coll::Annotations => format!("{{<changed keys of {object}.{name}>}}"),
            _ => format!("<{object}'s whole {name} list>"),
        };
        if coll == Coll::Conditions {
            status.push(format!("\"{name}\":{value}"));
        } else {
            metadata.push(format!("\"{name}\":{value}"));
        }
    }
    if lock {
        metadata.push("\"resourceVersion\":<as read>".to_owned());
    }
    let mut parts = Vec::new();
    if !metadata.is_empty() {
        parts.push(format!("\"metadata\":{{{}}}", metadata.join(",")));
    }
    if !status.is_empty() {
        parts.push(format!("\"status\":{{{}}}", status.join(",")));
    }
    parts.push("<other fields changed since the base>".to_owned());
    format!("{{{}}}", parts.join(","))
}

fn merge_from(emit: &Emit, object: &str, base: &str, lists: &[&Change], payload: String) -> Found {
    let mut names: Vec<&str> = lists
        .iter()
        .map(|c| c.coll.path().rsplit('/').next().unwrap_or(""))
        .collect();
    names.dedup();
    let where_: Vec<String> = lists
        .iter()
        .map(|c| format!("`{}` (line {})", c.code, c.at.line))
        .collect();
    Found {
        rule: Rule::MergeFromReplacesList,
        at: emit.at,
        function: emit.function.clone(),
        message: format!(
            "`client.MergeFrom({base})` with no optimistic lock: {object}'s {} changed after the base was copied ({}), and a merge patch sends a changed list whole, so what another writer added to it since your read is silently lost",
            names.join(" and "),
            where_.join(", ")
        ),
        ops: lists.iter().map(|c| c.coll.path().to_owned()).collect(),
        payload,
        branches: false,
        fix: fix::merge_from(base),
        fix_payload: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::go::Pos;
    use crate::scan::value::Via;

    fn op(id: u32, kind: OpKind) -> OpT {
        OpT {
            id,
            kind: Some(kind),
            path: Text::lit("/metadata/labels"),
            value: Some(Val::Nil),
            value_expr: String::new(),
            at: Pos::default(),
            via: Via::Literal,
        }
    }

    #[test]
    fn branches_make_combinations_until_the_cap() {
        let nodes = vec![
            Node::Op(op(1, OpKind::Test)),
            Node::Choice(vec![
                vec![Node::Op(op(2, OpKind::Add))],
                vec![Node::Op(op(3, OpKind::Replace))],
            ]),
            Node::Choice(vec![vec![Node::Op(op(4, OpKind::Add))], vec![]]),
        ];
        let v = variants(&nodes, 64).unwrap();
        assert_eq!(v.len(), 4);
        assert!(variants(&nodes, 3).is_none());
        assert_eq!(union(&nodes).len(), 4);
    }

    #[test]
    fn stand_ins_keep_keys_apart_and_slashes_possible() {
        let mut s = Standins::default();
        let mut t = Text::lit("/metadata/labels/");
        t.append(&Text::hole("key", HoleKind::Text));
        assert_eq!(
            s.path(&t).as_deref(),
            Some("/metadata/labels/example.com/k0")
        );
        let mut e = Text::lit("/metadata/labels/");
        e.append(&Text::hole("EscapeJSONPointer(key)", HoleKind::Escaped));
        assert_eq!(s.path(&e).as_deref(), Some("/metadata/labels/k1"));
        let mut i = Text::lit("/metadata/finalizers/");
        i.append(&Text::hole("i", HoleKind::Index));
        assert_eq!(s.path(&i).as_deref(), Some("/metadata/finalizers/2"));
        assert_eq!(s.path(&Text::hole("p", HoleKind::Text)), None);
        let whole = Val::Opaque {
            expr: "vmi.Labels".into(),
            shape: Shape::Map,
        };
        assert!(s.value(&whole, "/metadata/labels").is_object());
        let unknown = Val::Unknown("newFinalizers".into());
        assert!(s.value(&unknown, "/metadata/finalizers").is_array());
        assert!(s.placeholders);
    }
}
