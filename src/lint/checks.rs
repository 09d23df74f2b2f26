//! The JSON patch rules, op by op. Every relation between ops ("is there
//! an earlier `test` of this path or an enclosing one?", "which writes
//! follow under this tested path?") is answered from an index built once
//! ([`Index`]: a trie of the ops' paths), so the rules run in time linear
//! in the size of the patch, whatever its number of ops.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::fix::{Draft, Edit, Pending};
use super::writers::{self, Shape, Sharing};
use super::{outcome, paths, surface, Finding, Options, Report, Rule};
use crate::apply::{self, Semantics};
use crate::gojson;
use crate::patch::{self, Decoded, OpKind, OpProblem, Operation, PayloadError};
use crate::pointer::{escape, NodeId, PathTrie, Pointer, PointerBuf};
use crate::strategy::{self, Preset, Strategy};

/// Paths with more tokens than this are left out of the index (no object
/// nests that deep; a hostile path of a million tokens would otherwise
/// cost a node per token in every relation).
const MAX_TOKENS: usize = crate::limits::LINT_PATH_TOKENS;

/// What a JSON patch analysis produces: the report without findings, and
/// the findings with their fixes still to write out.
pub(super) struct Analysis {
    pub report: Report,
    pub pending: Vec<Pending>,
}

/// Lints a decoded JSON patch. `payload` (the text as sent) lets a
/// malformed op's fix re-read the ops after it; `kind` is the object's
/// kind when known (it decides who else writes a field).
pub(super) fn json_patch(
    decoded: &Decoded,
    payload: Option<&str>,
    options: &Options,
    kind: Option<&str>,
) -> Analysis {
    let ops = &decoded.ops;
    let mut ctx = Ctx {
        ops,
        options,
        kind,
        pending: Vec::new(),
        state: options.object.clone(),
        index: Index::build(ops),
        edits_left: ops
            .len()
            .saturating_mul(super::fix::FIX_OPS_PER_OP)
            .saturating_add(super::fix::FIX_OPS_BASE),
    };
    if decoded.count > crate::limits::MAX_OPS {
        ctx.push(Finding::new(
            Rule::TooManyOps,
            None,
            None,
            format!(
                "the patch holds {} ops, more than the server's limit of {}: {}",
                decoded.count,
                crate::limits::MAX_OPS,
                crate::status::Status::too_many_ops(decoded.count)
            ),
        ));
    }
    if let Some(err) = &decoded.malformed {
        ctx.malformed(err, payload);
    }
    for index in 0..ops.len() {
        ctx.op(index);
    }
    let outcome = options.object.as_ref().map(|object| {
        let outcome = outcome(object, decoded, options.engine());
        if !outcome.applies {
            let what = match &outcome.response {
                Some(response) => format!("; the server answers {response}"),
                None => String::new(),
            };
            let at = match (outcome.index, &outcome.path) {
                (Some(i), Some(path)) => format!("op {i} ({}) fails", shown(path)),
                (Some(i), None) => format!("op {i} fails"),
                _ => "the patch is refused".to_owned(),
            };
            ctx.push(Finding::new(
                Rule::FailsNow,
                outcome.index,
                outcome.path.as_deref(),
                format!(
                    "on the current object ({} semantics), {at}: {}{what}",
                    options.semantics,
                    outcome.cause.as_deref().unwrap_or("")
                ),
            ));
        }
        outcome
    });
    let (conflicts, overwrites) = surface(ops);
    Analysis {
        report: Report {
            kind: super::BodyKind::JsonPatch,
            semantics: options.semantics,
            ops: ops.clone(),
            op_count: decoded.count,
            findings: Vec::new(),
            outcome,
            conflicts,
            overwrites,
            types: None,
        },
        pending: ctx.pending,
    }
}

/// A path for a message: cut in the middle past 200 characters (a
/// finding names its path whole in [`Finding::path`]).
pub(super) fn shown(path: &str) -> Cow<'_, str> {
    if path.len() <= 200 {
        return Cow::Borrowed(path);
    }
    let mut head = 100;
    while !path.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = path.len() - 80;
    while !path.is_char_boundary(tail) {
        tail += 1;
    }
    Cow::Owned(format!("{}...{}", &path[..head], &path[tail..]))
}

/// What the index knows about one path.
#[derive(Clone, Debug, Default)]
struct Node {
    /// `test` ops at exactly this path, in order.
    tests: Vec<usize>,
    /// `test` ops at this path or below it.
    sub_tests: Vec<usize>,
    /// Writes at exactly this path (a `move`'s `from` too).
    writes: Vec<usize>,
    /// Writes at this path that are not appends (`/-` or an index).
    plain: Vec<usize>,
    /// `add` and `replace` at this path.
    valued: Vec<usize>,
    /// Writes at this path or below it.
    sub_writes: Vec<usize>,
}

/// Pushes `i` unless it is already last.
fn push_once(list: &mut Vec<usize>, i: usize) {
    if list.last() != Some(&i) {
        list.push(i);
    }
}

/// The first index in the sorted `list` that is below `before`.
fn first_before(list: &[usize], before: usize) -> Option<usize> {
    list.first().copied().filter(|&i| i < before)
}

/// The last index in the sorted `list` that is below `before`.
fn last_before(list: &[usize], before: usize) -> Option<usize> {
    let at = list.partition_point(|&i| i < before);
    at.checked_sub(1).map(|k| list[k])
}

/// True for an `add` that appends or inserts into a list (`/-`, `/3`).
fn appends(op: &Operation) -> bool {
    op.op == OpKind::Add
        && Pointer::parse(&op.path)
            .ok()
            .and_then(Pointer::last)
            .is_some_and(|t| t.encoded() == "-" || t.to_index().is_ok())
}

/// The ops' paths in a trie, with the ops at and under each.
struct Index<'a> {
    trie: PathTrie<'a>,
    nodes: Vec<Node>,
    /// Each op's node (`None`: not a valid pointer, or too deep).
    at: Vec<Option<NodeId>>,
    /// The first `test` of `/metadata/resourceVersion`: it guards every
    /// write after it.
    rv_test: Option<usize>,
}

impl<'a> Index<'a> {
    fn build(ops: &'a [Operation]) -> Index<'a> {
        let mut trie = PathTrie::new();
        let mut nodes: Vec<Node> = vec![Node::default()];
        let mut at = Vec::with_capacity(ops.len());
        let mut rv_test = None;
        let pointer = |path: &'a str| {
            Pointer::parse(path)
                .ok()
                .filter(|p| p.as_str().len() < MAX_TOKENS * 2 || p.count() <= MAX_TOKENS)
        };
        for (j, op) in ops.iter().enumerate() {
            let Some(path) = pointer(&op.path) else {
                at.push(None);
                continue;
            };
            let test = op.op == OpKind::Test;
            if test && op.path == "/metadata/resourceVersion" && rv_test.is_none() {
                rv_test = Some(j);
            }
            let node = trie.insert_visiting(path, |n| {
                if nodes.len() <= n {
                    nodes.resize_with(n + 1, Node::default);
                }
                if test {
                    push_once(&mut nodes[n].sub_tests, j);
                } else {
                    push_once(&mut nodes[n].sub_writes, j);
                }
            });
            let info = &mut nodes[node];
            if test {
                info.tests.push(j);
            } else {
                info.writes.push(j);
                if !appends(op) {
                    info.plain.push(j);
                }
                if matches!(op.op, OpKind::Add | OpKind::Replace) {
                    info.valued.push(j);
                }
            }
            at.push(Some(node));
            if op.op == OpKind::Move {
                if let Some(from) = op.from.as_deref().and_then(pointer) {
                    let node = trie.insert_visiting(from, |n| {
                        if nodes.len() <= n {
                            nodes.resize_with(n + 1, Node::default);
                        }
                        push_once(&mut nodes[n].sub_writes, j);
                    });
                    push_once(&mut nodes[node].writes, j);
                }
            }
        }
        Index {
            trie,
            nodes,
            at,
            rv_test,
        }
    }

    /// True when a `test` before op `before` covers `pointer` (tests it or
    /// an enclosing path, or tests the resourceVersion).
    fn guarded(&self, before: usize, pointer: &Pointer) -> bool {
        if self.rv_test.is_some_and(|i| i < before) {
            return true;
        }
        let mut hit = false;
        self.trie.walk(pointer, |n| {
            hit |= first_before(&self.nodes[n].tests, before).is_some();
        });
        hit
    }

    /// True when a `test` before op `before` covers the element at
    /// `element` or identifies it (tests something inside it, such as its
    /// `name`).
    fn element_guarded(&self, before: usize, element: &Pointer) -> bool {
        if self.guarded(before, element) {
            return true;
        }
        self.trie
            .get(element)
            .is_some_and(|n| first_before(&self.nodes[n].sub_tests, before).is_some())
    }

    /// The first write before op `before` at `pointer` or an enclosing path.
    fn first_enclosing_write(&self, before: usize, pointer: &Pointer) -> Option<usize> {
        let mut first: Option<usize> = None;
        self.trie.walk(pointer, |n| {
            if let Some(i) = first_before(&self.nodes[n].writes, before) {
                first = Some(first.map_or(i, |f| f.min(i)));
            }
        });
        first
    }

    fn node(&self, op: usize) -> Option<&Node> {
        self.at.get(op).copied().flatten().map(|n| &self.nodes[n])
    }
}

struct Ctx<'a> {
    ops: &'a [Operation],
    options: &'a Options,
    kind: Option<&'a str>,
    pending: Vec<Pending>,
    /// The object as it is when the op being checked runs (the ops before
    /// it applied, one at a time); `None` without an object or once an op
    /// failed on it.
    state: Option<Value>,
    index: Index<'a>,
    /// How many more edits the fixes may hold (building one costs its
    /// edits; see [`super::fix`]).
    edits_left: usize,
}

/// Writes `value` at `tokens` in a fresh object, creating parents.
fn doc_with(tokens: &[String], value: Option<&Value>) -> Value {
    let mut root = Value::Object(Map::new());
    let mut current = &mut root;
    for (i, token) in tokens.iter().enumerate() {
        let Value::Object(map) = current else {
            break;
        };
        if i + 1 == tokens.len() {
            if let Some(value) = value {
                map.insert(token.clone(), value.clone());
            }
            break;
        }
        current = map
            .entry(token.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    root
}

fn tokens(pointer: &Pointer) -> Vec<String> {
    pointer.tokens().map(|t| t.decoded().into_owned()).collect()
}

/// Renders a value for a message, cut short.
fn short(value: &Value) -> String {
    crate::text::elide(&gojson::to_string(value), 60)
}

/// `op 3, 4, 5 and 997 more`.
fn list_ops(ops: &[usize]) -> String {
    let shown: Vec<String> = ops.iter().take(5).map(usize::to_string).collect();
    let mut out = format!(
        "op{} {}",
        if ops.len() == 1 { "" } else { "s" },
        shown.join(", ")
    );
    if ops.len() > 5 {
        out.push_str(&format!(" and {} more", ops.len() - 5));
    }
    out
}

/// The child of `value` at one decoded token.
fn child<'v>(value: &'v Value, token: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map.get(token),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

/// The on-a-kind phrase: ` on a Node`, or nothing.
fn on_kind(kind: Option<&str>) -> String {
    kind.map(|k| format!(" on a {k}")).unwrap_or_default()
}

/// The field that identifies an element of a list: `name` (containers,
/// volumes), `type` (conditions), `uid` (ownerReferences), `key` (taints).
fn identity(element: &Value) -> Option<(&'static str, &Value)> {
    let map = element.as_object()?;
    ["name", "type", "uid", "key"]
        .into_iter()
        .find_map(|k| map.get(k).filter(|v| v.is_string()).map(|v| (k, v)))
}

impl<'a> Ctx<'a> {
    fn push(&mut self, finding: Finding) {
        self.pending.push(Pending::new(finding));
    }

    fn push_with(&mut self, finding: Finding, draft: Option<Draft>) {
        self.pending.push(Pending::new(finding).with(draft));
    }

    fn policy(&self) -> &strategy::Policy {
        &self.options.policy
    }

    /// Spends `n` edits of the budget; false when it is gone.
    fn spend(&mut self, n: usize) -> bool {
        if n > self.edits_left {
            return false;
        }
        self.edits_left -= n;
        true
    }

    /// A draft of `edits`, while the budget lasts.
    fn edits(&mut self, edits: Vec<Edit>) -> Option<Draft> {
        self.spend(edits.len()).then_some(Draft::Edits(edits))
    }

    fn replace_op(&mut self, index: usize, op: Operation) -> Option<Draft> {
        self.edits(vec![Edit::Replace(index, op)])
    }

    fn insert_before(&mut self, index: usize, op: Operation) -> Option<Draft> {
        self.edits(vec![Edit::Insert(index, op)])
    }

    fn malformed(&mut self, err: &PayloadError, payload: Option<&str>) {
        let PayloadError::Op { index, problem, .. } = err else {
            return;
        };
        let fix = match problem {
            OpProblem::UnknownOp(name) => {
                alias(name).and_then(|kind| payload.and_then(|p| respell_op_name(p, *index, kind)))
            }
            _ => None,
        };
        let mut message = err.to_string();
        message.push_str(": the server fails the whole patch at this op (422) and writes nothing");
        let draft = fix.map(|ops| Draft::Whole(Rc::new(ops)));
        self.push_with(
            Finding::new(Rule::MalformedOp, Some(*index), None, message),
            draft,
        );
    }

    fn op(&mut self, index: usize) {
        let state = self.state.take();
        self.check(index, state.as_ref());
        self.state = state.and_then(|mut doc| {
            apply::apply(&mut doc, &self.ops[index..=index], self.options.engine())
                .ok()
                .map(|()| doc)
        });
    }

    fn check(&mut self, index: usize, state: Option<&Value>) {
        let ops = self.ops;
        let op = &ops[index];
        let mut valid = true;
        for (field, path) in [("path", Some(&op.path)), ("from", op.from.as_ref())] {
            let Some(path) = path else { continue };
            if let Err(err) = Pointer::parse(path) {
                valid = false;
                self.invalid_pointer(index, field, path, &err.to_string());
            }
        }
        if op.op.takes_value() && op.value.is_none() {
            let mut fixed = op.clone();
            fixed.value = Some(Value::Null);
            let fix = self.replace_op(index, fixed);
            self.push_with(
                Finding::new(
                    Rule::EngineDependent,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} ({} {}) has no value: kube-apiserver uses null, a strict RFC 6902 engine refuses the patch",
                        op.op,
                        shown(&op.path)
                    ),
                ),
                fix,
            );
        }
        for path in [Some(op.path.as_str()), op.from.as_deref()]
            .into_iter()
            .flatten()
        {
            if path.is_empty() {
                self.whole_document(index);
                break;
            }
        }
        if !valid {
            return;
        }
        let Ok(pointer) = Pointer::parse(&op.path) else {
            return;
        };
        self.unescaped_slash(index, pointer, state);
        if op.op == OpKind::Test {
            self.test_never_matches(index);
            self.test_after_write(index, pointer);
            self.test_null(index, pointer, state);
            if op.path == "/metadata/resourceVersion" {
                self.push(Finding::new(
                    Rule::RvTest,
                    Some(index),
                    Some(&op.path),
                    format!("op {index} tests /metadata/resourceVersion: any write to the object since your read (by anyone, to any field) fails this patch (422)"),
                ));
            }
            self.whole_tests(index, pointer);
        } else {
            self.duplicate_path(index);
            self.index_without_test(index, pointer, state);
            self.map_key_without_test(index, pointer, state);
            self.replace_missing(index, pointer, state);
            self.whole_collection_write(index, pointer, state);
            self.non_string_value(index, pointer);
        }
        self.negative_index(index, pointer, state);
    }

    fn invalid_pointer(&mut self, index: usize, field: &str, path: &str, why: &str) {
        let op = &self.ops[index];
        let mut fixed = if path.starts_with('/') {
            path.to_owned()
        } else {
            format!("/{path}")
        };
        fixed = fix_tildes(&fixed);
        let valid = Pointer::parse(&fixed).is_ok();
        let fix = if valid {
            let mut new = op.clone();
            if field == "path" {
                new.path = fixed.clone();
            } else {
                new.from = Some(fixed.clone());
            }
            self.replace_op(index, new)
        } else {
            None
        };
        let hint = if valid {
            format!("; did you mean {:?}?", shown(&fixed))
        } else {
            String::new()
        };
        self.push_with(
            Finding::new(
                Rule::InvalidPointer,
                Some(index),
                Some(path),
                format!(
                    "op {index} ({}): {field} {:?} is not a JSON Pointer: {why}{hint}",
                    op.op,
                    shown(path)
                ),
            ),
            fix,
        );
    }

    fn whole_document(&mut self, index: usize) {
        let op = &self.ops[index];
        let what = match op.op {
            OpKind::Test => "`test \"\"` fails on the engine of Kubernetes 1.28.0 and 1.28.1 (evanphx v5.6.0: doc is missing path) and compares the whole document on the others (v4.12.0, v4.13.0)",
            OpKind::Replace => "`replace \"\"` fails on the engine of Kubernetes 1.28.0 and 1.28.1 (evanphx v5.6.0), replaces the document on the others, and with a scalar value does nothing on v4.12.0 (1.25 to 1.34) but fails on v4.13.0 (1.35 and later)",
            _ => "ops on the whole document (path \"\") behave differently across the engines Kubernetes has shipped (and `add`/`remove` of \"\" fail on all of them)",
        };
        self.push(Finding::new(
            Rule::ReleaseDependent,
            Some(index),
            Some(&op.path),
            format!("op {index} ({} of the whole document): {what}", op.op),
        ));
    }

    /// A path that walks through a key holding `/` of a map: a known map
    /// of strings, a map of the current object holding the key, or a token
    /// that reads as the DNS prefix of a qualified key followed by its
    /// name (`/spec/nodeSelector/kubernetes.io/hostname`). The path is
    /// walked once, with the object beside it.
    fn unescaped_slash(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if pointer.count() > MAX_TOKENS {
            return;
        }
        let tokens = tokens(pointer);
        let mut prefix = PointerBuf::new();
        let mut node = state;
        for split in 0..tokens.len().saturating_sub(1) {
            if split > 0 {
                let token = &tokens[split];
                let at_prefix = node.and_then(Value::as_object);
                let known_map = paths::is_string_map(self.policy(), self.kind, &prefix);
                let holds_token = at_prefix.is_some_and(|m| m.contains_key(token));
                let rest = tokens.len() - split;
                let in_object = !holds_token
                    && rest <= 16
                    && at_prefix.is_some_and(|m| m.contains_key(&tokens[split..].join("/")));
                let dotted = !holds_token
                    && rest == 2
                    && paths::is_dns_prefix(token)
                    && paths::is_key_name(&tokens[split + 1]);
                if known_map || in_object || dotted {
                    let key = tokens[split..].join("/");
                    let fixed = format!("{}/{}", prefix.as_str(), escape(&key));
                    let mut new = op.clone();
                    new.path = fixed.clone();
                    let fix = self.replace_op(index, new);
                    let why = if known_map {
                        format!("{} holds strings", prefix.as_str())
                    } else if in_object {
                        format!("the object holds the key {key:?} in {}", prefix.as_str())
                    } else {
                        format!(
                            "{token:?} reads as the prefix of the qualified key {key:?} (no Kubernetes field name holds a dot)"
                        )
                    };
                    self.push_with(
                        Finding::new(
                            Rule::UnescapedSlash,
                            Some(index),
                            Some(&op.path),
                            format!(
                                "op {index} ({} {}) walks into {:?} as if it were an object, but {why}: the key {key:?} is written {:?} (`/` as ~1)",
                                op.op,
                                shown(&op.path),
                                token,
                                shown(&fixed)
                            ),
                        ),
                        fix,
                    );
                    return;
                }
            }
            prefix.push_back(&tokens[split]);
            node = node.and_then(|v| child(v, &tokens[split]));
        }
    }

    fn test_never_matches(&mut self, index: usize) {
        let op = &self.ops[index];
        let Some(raw) = op.raw_value() else { return };
        let mut at = op.path.clone();
        let Some(mismatch) = mismatch(raw, &mut at, 0) else {
            return;
        };
        let message = match &mismatch {
            Mismatch::Bytes { written, stored } => format!(
                "op {index} (test {}): {} is written {written}, but the server stores that value as {stored} and compares bytes: this test never passes on kube-apiserver (422), although a strict RFC 6902 engine passes it",
                shown(&op.path),
                if at == op.path { "the value".to_owned() } else { shown(&at).into_owned() },
            ),
            Mismatch::NullElement => format!(
                "op {index} (test {}): {} is null inside an array: kube-apiserver's engine dereferences it and panics (HTTP 500 on every release: v5.6.0, v4.12.0 and v4.13.0)",
                shown(&op.path),
                shown(&at)
            ),
        };
        let fix = match mismatch {
            Mismatch::Bytes { .. } => op
                .value
                .clone()
                .and_then(|value| self.replace_op(index, Operation::test(op.path.clone(), value))),
            Mismatch::NullElement => None,
        };
        self.push_with(
            Finding::new(Rule::TestNeverMatches, Some(index), Some(&op.path), message),
            fix,
        );
    }

    fn test_after_write(&mut self, index: usize, pointer: &Pointer) {
        let op = &self.ops[index];
        let Some(first) = self.index.first_enclosing_write(index, pointer) else {
            return;
        };
        let writer = &self.ops[first];
        let last_same = self
            .index
            .node(index)
            .and_then(|node| last_before(&node.valued, index));
        let repeats = last_same.is_some_and(|j| self.ops[j].value == op.value);
        let mut edits = vec![Edit::Remove(index)];
        if !repeats {
            edits.push(Edit::Insert(first, op.clone()));
        }
        let fix = self.edits(edits);
        let effect = if repeats {
            "it repeats the value just written, so it always passes and guards nothing"
        } else {
            "it compares against what this patch just wrote, not what is stored: it never guards anything and fails whenever its value is the old one"
        };
        self.push_with(
            Finding::new(
                Rule::TestAfterWrite,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} (test {}) runs after op {first} ({} {}) wrote {}: {effect}",
                    shown(&op.path),
                    writer.op,
                    shown(&writer.path),
                    if writer.path == op.path {
                        "the same path"
                    } else {
                        "an enclosing path"
                    }
                ),
            ),
            fix,
        );
    }

    /// `test` of null: passes on a missing member only on kube-apiserver.
    fn test_null(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if !op.value.as_ref().is_some_and(Value::is_null) || op.path.is_empty() {
            return;
        }
        if let Some(doc) = state {
            if pointer.resolve(doc).is_some() {
                // Present (holding null or not): both engines agree.
                return;
            }
        }
        let certain = if state.is_some() {
            "it is missing on the current object"
        } else {
            "when it is missing"
        };
        self.push(Finding::new(
            Rule::EngineDependent,
            Some(index),
            Some(&op.path),
            format!(
                "op {index} (test {} null): {certain}, kube-apiserver passes this test but a strict RFC 6902 engine fails it (KubeVirt relies on the server's behaviour for absent fields)",
                shown(&op.path)
            ),
        ));
    }

    /// Who else writes `pointer`, for a message: `; kubelet, ... also
    /// write /metadata/labels on a Node`.
    fn writers_clause(&self, pointer: &Pointer, sharing: &Sharing) -> String {
        match sharing {
            Sharing::Shared(_) => format!(
                "; {} write {}{}",
                sharing.list(),
                pointer.as_str(),
                on_kind(self.kind)
            ),
            _ => String::new(),
        }
    }

    /// `test` of a whole map, object or list: a hazard when others write
    /// it (the writers table), and worth per-key or per-element ops when
    /// writes under it follow.
    fn whole_tests(&mut self, index: usize, pointer: &Pointer) {
        let op = &self.ops[index];
        let Some(value) = &op.value else { return };
        let node = self.index.at.get(index).copied().flatten();
        let later = self.later(node, index);
        let count = later.len();
        let changes = if later.is_empty() {
            String::new()
        } else {
            format!(" to change it in {}", list_ops(later))
        };
        let same_path = count <= 1000 && later.iter().all(|&j| self.ops[j].path == op.path);
        let sharing = writers::sharing(self.kind, pointer);
        let clause = self.writers_clause(pointer, &sharing);
        let names: Vec<&'static str> = sharing.names();
        match value {
            Value::Object(map)
                if !map.is_empty() && paths::is_string_map(self.policy(), self.kind, pointer) =>
            {
                if matches!(sharing, Sharing::Sole(_)) {
                    return;
                }
                let fix = self.respell(index, node, pointer, Some(value), Strategy::PerKey);
                let mut finding = Finding::new(
                    Rule::WholeMapTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} tests the whole map {} ({} {}){changes}: a concurrent change to any key of it, even one this patch leaves alone, fails the whole patch (422){clause}{}",
                        shown(&op.path),
                        map.len(),
                        if map.len() == 1 { "key" } else { "keys" },
                        if count == 0 { "; test only the keys the patch depends on" } else { "" },
                    ),
                );
                finding.writers = names;
                self.push_with(finding, fix);
            }
            Value::Object(map) if !map.is_empty() && sharing.is_shared() => {
                let fix = self.respell(index, node, pointer, Some(value), Strategy::PerField);
                let mut finding = Finding::new(
                    Rule::WholeObjectTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} tests the whole object {} ({} {}){changes}: a change by another writer to any field of it fails the whole patch (422){clause}{}",
                        shown(&op.path),
                        map.len(),
                        if map.len() == 1 { "field" } else { "fields" },
                        if count == 0 { "; test only the fields the patch depends on" } else { "" },
                    ),
                );
                finding.writers = names;
                self.push_with(finding, fix);
            }
            Value::Array(items)
                if !items.is_empty()
                    && count > 0
                    && (paths::is_list(self.policy(), self.kind, pointer) || same_path) =>
            {
                let fix = self.respell(index, node, pointer, Some(value), Strategy::Element);
                let item = paths::item_name(self.kind, pointer);
                let who = match &sharing {
                    Sharing::Shared(_) => format!(
                        "another writer's {item}: {} write {}",
                        sharing.list(),
                        pointer.as_str()
                    ),
                    _ => format!("another writer's {item}"),
                };
                let mut finding = Finding::new(
                    Rule::WholeListTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} tests the whole list {} ({} {}) to change it: any concurrent change to the list ({who}) fails the patch (422); safe to retry, but {}",
                        shown(&op.path),
                        items.len(),
                        if items.len() == 1 { item.clone() } else { format!("{item}s") },
                        if fix.is_some() { "per-element ops narrow it to the elements you touch" } else { "JSON Patch has no narrower way for this change" }
                    ),
                );
                finding.writers = names;
                self.push_with(finding, fix);
            }
            _ => {}
        }
    }

    /// The writes after op `index` at or under `node`.
    fn later(&self, node: Option<NodeId>, index: usize) -> &[usize] {
        let Some(node) = node else { return &[] };
        let list = &self.index.nodes[node].sub_writes;
        let from = list.partition_point(|&j| j <= index);
        &list[from..]
    }

    /// The op at `first` (a test of `at`, or a write of it) and the writes
    /// after it under `node` replaced by what `strategy` sends for the
    /// same change, from `old` (the value at `at` before them). `None`
    /// when the strategy cannot say it (or says something broader: an
    /// element update that would become a remove and an append), or the
    /// budget is gone.
    fn respell(
        &mut self,
        first: usize,
        node: Option<NodeId>,
        at: &Pointer,
        old: Option<&Value>,
        strategy: Strategy,
    ) -> Option<Draft> {
        let is_test = self.ops[first].op == OpKind::Test;
        let count = if is_test {
            self.later(node, first).len()
        } else {
            0
        };
        if is_test && count == 0 {
            return None;
        }
        // Building the plan costs about as much as the ops it replaces.
        if !self.spend(count + 1) {
            return None;
        }
        let later: Vec<usize> = if is_test {
            self.later(node, first).to_vec()
        } else {
            Vec::new()
        };
        let tokens = tokens(at);
        let old_doc = doc_with(&tokens, old);
        let mut new_doc = old_doc.clone();
        let mut writes: Vec<Operation> = later.iter().map(|&j| self.ops[j].clone()).collect();
        if !is_test {
            writes.insert(0, self.ops[first].clone());
        }
        apply::apply(&mut new_doc, &writes, Semantics::Kube).ok()?;
        let mut options = strategy::Options::preset(Preset::KubevirtPerKey);
        options.policy = self.options.policy.clone();
        options.policy.preset = Preset::KubevirtPerKey;
        options.policy.set_strategy(at.to_buf(), strategy);
        options.explain = false;
        let plan = strategy::diff(&old_doc, &new_doc, &options).ok()?;
        let planned = plan.ops()?;
        if planned.iter().any(|p| p.strategy != strategy) || !plan.notes.is_empty() {
            return None;
        }
        if strategy == Strategy::Element {
            let removes = planned.iter().any(|p| p.op.op == OpKind::Remove);
            let adds = planned.iter().any(|p| p.op.op == OpKind::Add);
            if removes && adds {
                return None;
            }
        }
        let mut edits: Vec<Edit> = Vec::with_capacity(later.len() + planned.len() + 1);
        edits.push(Edit::Remove(first));
        edits.extend(later.iter().map(|&j| Edit::Remove(j)));
        edits.extend(planned.iter().map(|p| Edit::Insert(first, p.op.clone())));
        self.edits(edits)
    }

    fn duplicate_path(&mut self, index: usize) {
        let op = &self.ops[index];
        if appends(op) {
            return;
        }
        let Some(earlier) = self
            .index
            .node(index)
            .and_then(|n| last_before(&n.plain, index))
        else {
            return;
        };
        let first = &self.ops[earlier];
        let (drop, why) = match (first.op, op.op) {
            (OpKind::Remove, OpKind::Remove) => (
                index,
                "the second remove always fails (the member is already gone): 422",
            ),
            (OpKind::Remove, _) | (OpKind::Move, _) | (OpKind::Copy, _) => return,
            _ => (earlier, "the later write replaces what the earlier one wrote, so the earlier one only costs"),
        };
        let fix = self.edits(vec![Edit::Remove(drop)]);
        self.push_with(
            Finding::new(
                Rule::DuplicatePath,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) writes the same path as op {earlier} ({}): {why}",
                    op.op,
                    shown(&op.path),
                    first.op
                ),
            ),
            fix,
        );
    }

    /// An index anywhere along the path (`/spec/containers/0/image`, not
    /// only `/metadata/finalizers/1`) with no `test` of that element (or
    /// of something inside it, such as its `name`) first.
    fn index_without_test(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if pointer.count() > MAX_TOKENS {
            return;
        }
        let count = pointer.count();
        let mut parent = PointerBuf::new();
        let mut node = state;
        for (t, token) in pointer.tokens().enumerate() {
            let encoded = token.encoded();
            let decoded = token.decoded();
            let numeric = !encoded.is_empty() && encoded.bytes().all(|b| b.is_ascii_digit());
            if numeric {
                let is_array = match state {
                    Some(_) => node.is_some_and(Value::is_array),
                    None => {
                        paths::is_list(self.policy(), self.kind, &parent)
                            || !paths::is_string_map(self.policy(), self.kind, &parent)
                    }
                };
                let mut element = parent.clone();
                element.push_back(&decoded);
                if is_array && !self.index.element_guarded(index, &element) {
                    let last = t + 1 == count;
                    let current = node.and_then(|v| child(v, &decoded)).cloned();
                    let fix = match (op.op, current) {
                        (OpKind::Add, _) if last => None,
                        (_, Some(value)) => {
                            let test = match identity(&value) {
                                Some((field, id)) if !last || op.op != OpKind::Remove => {
                                    let mut at = element.clone();
                                    at.push_back(field);
                                    Operation::test(at.into_string(), id.clone())
                                }
                                _ => Operation::test(element.as_str().to_owned(), value),
                            };
                            self.insert_before(index, test)
                        }
                        _ => None,
                    };
                    let item = paths::item_name(self.kind, &parent);
                    let effect = match (op.op, last) {
                        (OpKind::Add, true) => "inserts at a position that moves when another writer adds or removes an element".to_owned(),
                        (OpKind::Remove, true) => format!("removes whatever {item} is at that index when the patch runs, which is another writer's {item} if the list changed since your read"),
                        (_, true) => format!("writes whatever {item} is at that index when the patch runs, which is another writer's {item} if the list changed since your read"),
                        (_, false) => format!("reaches into whatever {item} is at index {encoded} of {} when the patch runs, which is another {item} if the list changed since your read", parent.as_str()),
                    };
                    let advice = if fix.is_none() && !(op.op == OpKind::Add && last) {
                        format!(
                            "; test the {item} first (its name, or the whole {item}) at {}",
                            element.as_str()
                        )
                    } else {
                        String::new()
                    };
                    self.push_with(
                        Finding::new(
                            Rule::IndexWithoutTest,
                            Some(index),
                            Some(&op.path),
                            format!(
                                "op {index} ({} {}) addresses {item} {encoded} of {} by index with no test of it first: it {effect}{advice}",
                                op.op,
                                shown(&op.path),
                                parent.as_str()
                            ),
                        ),
                        fix,
                    );
                    return;
                }
            }
            parent.push_back(&decoded);
            node = node.and_then(|v| child(v, &decoded));
        }
    }

    fn map_key_without_test(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if !matches!(op.op, OpKind::Add | OpKind::Remove) {
            return;
        }
        let Some(parent) = pointer.parent() else {
            return;
        };
        if !paths::is_string_map(self.policy(), self.kind, parent)
            || self.index.guarded(index, pointer)
        {
            return;
        }
        let current = state.map(|doc| pointer.resolve(doc).cloned());
        if op.op == OpKind::Remove {
            let fix = match current {
                Some(Some(value)) => {
                    self.insert_before(index, Operation::test(op.path.clone(), value))
                }
                _ => None,
            };
            self.push_with(
                Finding::new(
                    Rule::RemoveWithoutTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} removes {} with no test: it fails (422) if another writer removed the key first, and erases any value another writer set meanwhile",
                        shown(&op.path)
                    ),
                ),
                fix,
            );
        } else {
            let rfc_absent =
                matches!(current, Some(None)) && self.options.semantics == Semantics::Rfc;
            let fix = match current {
                Some(Some(value)) => {
                    self.insert_before(index, Operation::test(op.path.clone(), value))
                }
                Some(None) if self.options.semantics == Semantics::Kube => {
                    self.insert_before(index, Operation::test(op.path.clone(), Value::Null))
                }
                _ => None,
            };
            let value = op.value.as_ref().map(short).unwrap_or_default();
            let advice = if rfc_absent {
                "; RFC 6902 cannot say \"must be absent\" (a test of null fails on a missing member there), so no test guards a new key: on kube-apiserver, test it null"
            } else {
                ""
            };
            self.push_with(
                Finding::new(
                    Rule::AddWithoutTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} sets {} to {value} with no test: if another writer sets this key at the same time, the last write wins{advice}",
                        shown(&op.path)
                    ),
                ),
                fix,
            );
        }
    }

    /// `replace` of a member missing on the current object.
    fn replace_missing(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if op.op != OpKind::Replace || op.path.is_empty() {
            return;
        }
        let Some(doc) = state else {
            return;
        };
        let Some(parent) = pointer.parent() else {
            return;
        };
        if pointer.resolve(doc).is_some() || !parent.resolve(doc).is_some_and(Value::is_object) {
            return;
        }
        let mut add = op.clone();
        add.op = OpKind::Add;
        let fix = self.replace_op(index, add);
        self.push_with(
            Finding::new(
                Rule::EngineDependent,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} replaces {}, which is missing on the current object: kube-apiserver adds it, a strict RFC 6902 engine fails (and so would evanphx v5); `add` means the same on both",
                    shown(&op.path)
                ),
            ),
            fix,
        );
    }

    /// `add`, `replace` or `remove` of a whole collection others write,
    /// with no `test` of it first.
    fn whole_collection_write(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if !matches!(op.op, OpKind::Add | OpKind::Replace | OpKind::Remove) {
            return;
        }
        let sharing = writers::sharing(self.kind, pointer);
        if !sharing.is_shared() || self.index.guarded(index, pointer) {
            return;
        }
        // Lists and maps: a struct others fill is written field by field
        // by its writers' protocols (KubeVirt's migrationState).
        let Some((shape @ (Shape::Map | Shape::List), item)) = writers::shape(self.kind, pointer)
        else {
            return;
        };
        let current: Option<Option<Value>> =
            state.map(|doc| pointer.resolve(doc).filter(|v| !v.is_null()).cloned());
        let kube = self.options.semantics == Semantics::Kube;
        let path = op.path.clone();
        let mut advice = String::new();
        let fix = match (op.op, shape, current) {
            // With the object: the collection as it is now, tested.
            (OpKind::Remove, _, Some(Some(value))) => {
                self.insert_before(index, Operation::test(path.clone(), value))
            }
            (OpKind::Remove, _, _) => {
                advice = format!("; no rewrite without the current object: test {} with the value you read right before removing it", pointer.as_str());
                None
            }
            (_, Shape::Map, Some(Some(current))) => {
                self.respell(index, None, pointer, Some(&current), Strategy::PerKey)
            }
            (_, Shape::List, Some(Some(current))) => self
                .respell(index, None, pointer, Some(&current), Strategy::Element)
                .or_else(|| self.insert_before(index, Operation::test(path.clone(), current))),
            (_, Shape::Object, Some(Some(_))) => None,
            // Absent now: it must still be absent.
            (_, _, Some(None)) if kube => {
                let add = Operation::add(path.clone(), op.value.clone().unwrap_or(Value::Null));
                self.edits(vec![
                    Edit::Insert(index, Operation::test(path.clone(), Value::Null)),
                    Edit::Replace(index, add),
                ])
            }
            (_, _, Some(None)) => {
                advice = "; RFC 6902 cannot say \"must be absent\" (a test of null fails on a missing member there): on kube-apiserver, test it null first".to_owned();
                None
            }
            // No object: per key for a map; for an added list, the
            // writer's cache had none (KubeVirt's `WithAdd` when the old
            // list is nil): test that it still has none.
            (_, Shape::Map, None) => match op.value.as_ref().and_then(Value::as_object) {
                Some(map) if !map.is_empty() => {
                    let mut edits = vec![Edit::Remove(index)];
                    for (key, value) in map {
                        edits.push(Edit::Insert(
                            index,
                            Operation::add(format!("{path}/{}", escape(key)), value.clone()),
                        ));
                    }
                    advice = format!("; the fix sets each key on its own (if {} may be absent, per-key adds fail with 422: then test it null and add the whole map, as PR #18139 does)", pointer.as_str());
                    self.edits(edits)
                }
                _ => None,
            },
            (OpKind::Add, _, None) if kube => {
                self.insert_before(index, Operation::test(path.clone(), Value::Null))
            }
            (_, _, None) => {
                advice = format!("; no rewrite without the current object: test {} with the value you read right before the write ({})", pointer.as_str(), if shape == Shape::List { "or per-element ops" } else { "or write its fields one by one" });
                None
            }
        };
        let what = match (op.op, shape) {
            (OpKind::Remove, _) => format!("removes the whole {}", shape.as_str()),
            (OpKind::Add, Shape::Map) => {
                "adds the whole map (an add of a map replaces it, it does not add to it)".to_owned()
            }
            (_, _) => format!("writes the whole {}", shape.as_str()),
        };
        let mut finding = Finding::new(
            Rule::WholeCollectionWrite,
            Some(index),
            Some(&op.path),
            format!(
                "op {index} ({} {}) {what} with no test: {} another writer added or changed since your read is erased; {} also write {}{}{advice}",
                op.op,
                shown(&op.path),
                paths::with_article(item),
                sharing.list(),
                pointer.as_str(),
                on_kind(self.kind)
            ),
        );
        finding.writers = sharing.names();
        self.push_with(finding, fix);
    }

    /// A number, boolean, list or object where Kubernetes keeps strings:
    /// a key of a string map, or a whole string map holding one.
    fn non_string_value(&mut self, index: usize, pointer: &Pointer) {
        let op = &self.ops[index];
        if !matches!(op.op, OpKind::Add | OpKind::Replace) {
            return;
        }
        let Some(value) = &op.value else { return };
        let policy_map = |p: &Pointer| {
            self.options.policy.declared_kind(p) == Some(strategy::FieldKind::Map)
                && !matches!(p.as_str(), "/metadata/labels" | "/metadata/annotations")
        };
        let (at, bad, fixed) = if pointer
            .parent()
            .is_some_and(|p| paths::is_string_map(self.policy(), self.kind, p) && !policy_map(p))
        {
            if value.is_string() || value.is_null() {
                return;
            }
            (
                op.path.clone(),
                value.clone(),
                stringify(value).map(Value::String),
            )
        } else if value.is_object()
            && paths::is_string_map(self.policy(), self.kind, pointer)
            && !policy_map(pointer)
        {
            let Some(map) = value.as_object() else { return };
            let Some((key, bad)) = map.iter().find(|(_, v)| !v.is_string()) else {
                return;
            };
            let fixed = stringified(map);
            (
                format!("{}/{}", op.path, escape(key)),
                bad.clone(),
                fixed.map(Value::Object),
            )
        } else {
            return;
        };
        let fix = fixed.and_then(|value| {
            let mut new = op.clone();
            new.value = Some(value);
            self.replace_op(index, new)
        });
        let what = match &bad {
            Value::Number(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::Array(_) => "a list",
            Value::Object(_) => "an object",
            _ => "not a string",
        };
        self.push_with(
            Finding::new(
                Rule::NonStringValue,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) writes {} at {}, {what}: the map holds strings only (map[string]string), so for a built-in kind the server cannot decode the patched object (422 Invalid); write it as the string {}",
                    op.op,
                    shown(&op.path),
                    short(&bad),
                    shown(&at),
                    stringify(&bad).map(|s| format!("{s:?}")).unwrap_or_else(|| "it means".to_owned())
                ),
            ),
            fix,
        );
    }

    fn negative_index(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if pointer.count() > MAX_TOKENS {
            return;
        }
        let tokens: Vec<String> = tokens(pointer);
        let Some(at) = tokens.iter().position(|t| {
            t.len() > 1 && t.starts_with('-') && t[1..].bytes().all(|b| b.is_ascii_digit())
        }) else {
            return;
        };
        let resolved = state.and_then(|doc| {
            let parent = PointerBuf::from_tokens(&tokens[..at]);
            let len = parent.resolve(doc)?.as_array()?.len() as i64;
            let n: i64 = tokens[at].parse().ok()?;
            let resolved = len + n;
            (resolved >= 0).then_some(resolved)
        });
        let fix = resolved.and_then(|resolved| {
            let mut fixed = tokens.clone();
            fixed[at] = resolved.to_string();
            let path = PointerBuf::from_tokens(&fixed).into_string();
            // Every op on the same path (a `test` before a `remove` at
            // `-1` included), resolved as this one is.
            let node = self.index.node(index)?;
            let mut same: Vec<usize> = node
                .tests
                .iter()
                .chain(&node.writes)
                .copied()
                .filter(|&j| self.ops[j].path == op.path)
                .collect();
            crate::sort::sort(&mut same);
            same.dedup();
            let edits = same
                .into_iter()
                .map(|j| {
                    let mut new = self.ops[j].clone();
                    new.path = path.clone();
                    Edit::Replace(j, new)
                })
                .collect();
            self.edits(edits)
        });
        self.push_with(
            Finding::new(
                Rule::EngineDependent,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) uses the negative index {}: kube-apiserver counts it from the end of the array, a strict RFC 6902 engine refuses it",
                    op.op,
                    shown(&op.path),
                    tokens[at]
                ),
            ),
            fix,
        );
    }
}

/// The map with every value written as a string (`stringify`), or `None`
/// when one cannot be. Filled by insertion, not `collect` (see
/// `crate::sort`).
fn stringified(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = Map::new();
    for (key, value) in map {
        let value = match value {
            Value::String(_) => value.clone(),
            other => Value::String(stringify(other)?),
        };
        out.insert(key.clone(), value);
    }
    Some(out)
}

/// A scalar as the string a person meant (`3` -> `"3"`, `true` ->
/// `"true"`); `None` for lists, objects and null.
fn stringify(value: &Value) -> Option<String> {
    match value {
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// `~` not followed by `0` or `1` written `~0`.
fn fix_tildes(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    for (i, c) in path.char_indices() {
        out.push(c);
        if c == '~' && !matches!(bytes.get(i + 1), Some(b'0' | b'1')) {
            out.push('0');
        }
    }
    out
}

/// Op names people write for the real ones.
fn alias(name: &str) -> Option<OpKind> {
    Some(match name.to_ascii_lowercase().as_str() {
        "upsert" | "insert" | "create" | "append" | "set" | "put" => OpKind::Add,
        "delete" | "del" | "unset" | "rm" => OpKind::Remove,
        "update" | "modify" | "change" => OpKind::Replace,
        "check" | "assert" | "expect" => OpKind::Test,
        "mv" | "rename" => OpKind::Move,
        "cp" | "clone" | "duplicate" => OpKind::Copy,
        other => return OpKind::ALL.into_iter().find(|k| k.as_str() == other),
    })
}

/// The payload's ops with op `index` renamed to `kind`, decoded again.
fn respell_op_name(payload: &str, index: usize, kind: OpKind) -> Option<Vec<Operation>> {
    let mut elements: Vec<Value> = serde_json::from_str(payload).ok()?;
    let element = elements.get_mut(index)?.as_object_mut()?;
    element.insert("op".to_owned(), Value::String(kind.as_str().to_owned()));
    let text = serde_json::to_string(&elements).ok()?;
    let decoded = patch::decode(&text).ok()?;
    decoded.malformed.is_none().then_some(decoded.ops)
}

enum Mismatch {
    Bytes { written: String, stored: String },
    NullElement,
}

/// The first scalar of a `test` value whose bytes differ from how the
/// server writes it (the path extended to it in `at`).
fn mismatch(raw: &str, at: &mut String, depth: usize) -> Option<Mismatch> {
    let raw = raw.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    if depth > 128 {
        return None;
    }
    match raw.as_bytes().first() {
        Some(b'{') => {
            let members: BTreeMap<String, &RawValue> = serde_json::from_str(raw).ok()?;
            for (key, value) in members {
                let len = at.len();
                at.push('/');
                at.push_str(&escape(&key));
                if let Some(found) = mismatch(value.get(), at, depth + 1) {
                    return Some(found);
                }
                at.truncate(len);
            }
            None
        }
        Some(b'[') => {
            let elements: Vec<&RawValue> = serde_json::from_str(raw).ok()?;
            for (i, element) in elements.iter().enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                if element.get().trim() == "null" {
                    return Some(Mismatch::NullElement);
                }
                if let Some(found) = mismatch(element.get(), at, depth + 1) {
                    return Some(found);
                }
                at.truncate(len);
            }
            None
        }
        _ => {
            let value: Value = serde_json::from_str(raw).ok()?;
            let stored = gojson::stored_scalar(&value);
            (stored != raw).then(|| Mismatch::Bytes {
                written: raw.to_owned(),
                stored,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tildes_are_escaped_and_aliases_known() {
        assert_eq!(fix_tildes("/a~b/c~1d/e~"), "/a~0b/c~1d/e~0");
        assert_eq!(alias("upsert"), Some(OpKind::Add));
        assert_eq!(alias("test"), Some(OpKind::Test));
        assert_eq!(alias("frobnicate"), None);
    }

    #[test]
    fn mismatch_finds_the_first_odd_scalar() {
        let mut at = "/x".to_owned();
        assert!(mismatch(r#"{"a": 1, "b": [true, "ok"]}"#, &mut at, 0).is_none());
        let mut at = "/x".to_owned();
        let Some(Mismatch::Bytes { written, stored }) =
            mismatch(r#"{"a": 1, "b": {"c": "<b>"}}"#, &mut at, 0)
        else {
            panic!("a raw < is a mismatch");
        };
        assert_eq!(
            (at.as_str(), written.as_str(), stored.as_str()),
            ("/x/b/c", r#""<b>""#, r#""\u003cb\u003e""#)
        );
        for raw in ["1.0", "1e2", r#""\u00e9""#, "1E2", r#""\/""#] {
            assert!(mismatch(raw, &mut String::new(), 0).is_some(), "{raw}");
        }
        for raw in [
            "1",
            "100",
            r#""é""#,
            "1.5",
            "true",
            "null",
            r#""\u003c""#,
            r#""\n""#,
        ] {
            assert!(mismatch(raw, &mut String::new(), 0).is_none(), "{raw}");
        }
        assert!(matches!(
            mismatch("[1, null]", &mut String::new(), 0),
            Some(Mismatch::NullElement)
        ));
    }
}
