//! The JSON patch rules, op by op. Every relation between ops is answered
//! from an [`Index`] built once, so the rules run in time linear in the
//! size of the patch, whatever its number of ops.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::fix::{self, Draft, Edit, Pending};
use super::index::{appends, last_before, Index, MAX_TOKENS};
use super::rules::message;
use super::words::{list_ops, not_a_string, on_kind, one_or_many, short, shown};
use super::writers::{self, Shape, Sharing};
use super::{outcome, paths, surface, Analysis, BodyKind, Finding, Options, Outcome, Report, Rule};
use crate::apply::{self, Semantics};
use crate::gojson;
use crate::patch::{self, Decoded, OpKind, OpProblem, Operation, PayloadError};
use crate::pointer::{escape, NodeId, Pointer, PointerBuf};
use crate::strategy::{self, Strategy};

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
    let pins_rv = ops.iter().any(|o| o.path == "/metadata/resourceVersion");
    let mut ctx = Ctx {
        ops,
        pins_rv,
        options,
        kind,
        pending: Vec::new(),
        state: options.object.clone(),
        index: Index::build(ops),
        edits_left: ops
            .len()
            .saturating_mul(fix::FIX_OPS_PER_OP)
            .saturating_add(fix::FIX_OPS_BASE),
    };
    if decoded.count > crate::limits::MAX_OPS {
        let (count, limit) = (decoded.count, crate::limits::MAX_OPS);
        let status = crate::status::Status::too_many_ops(count);
        let message = message!(TooManyOps "patch", count, limit, status);
        ctx.push(Finding::new(Rule::TooManyOps, None, None, message));
    }
    if let Some(err) = &decoded.malformed {
        ctx.malformed(err, payload);
    }
    for index in 0..ops.len() {
        ctx.op(index);
    }
    let outcome = (options.object.as_ref()).map(|o| outcome(o, decoded, options.engine()));
    if let Some(outcome) = outcome.as_ref().filter(|o| !o.applies) {
        ctx.push(fails_now(outcome, options.semantics));
    }
    let (conflicts, overwrites) = surface(ops);
    let report = Report {
        ops: ops.clone(),
        op_count: decoded.count,
        outcome,
        conflicts,
        overwrites,
        ..Report::new(BodyKind::JsonPatch, options.semantics)
    };
    Analysis {
        report,
        pending: ctx.pending,
    }
}

/// The finding for a patch that does not apply to the current object.
fn fails_now(outcome: &Outcome, semantics: Semantics) -> Finding {
    let at = match (outcome.index, &outcome.path) {
        (Some(index), Some(path)) => message!(FailsNow "op-at", index, path = shown(path)),
        (Some(index), None) => message!(FailsNow "op-index", index),
        _ => message!(FailsNow "refused"),
    };
    let answer = match &outcome.response {
        Some(response) => message!(FailsNow "answer", response),
        None => String::new(),
    };
    let cause = outcome.cause.as_deref().unwrap_or("");
    let message = message!(FailsNow "op", semantics, at, cause, answer);
    let (index, path) = (outcome.index, outcome.path.as_deref());
    Finding::new(Rule::FailsNow, index, path, message)
}

struct Ctx<'a> {
    ops: &'a [Operation],
    /// True when an op writes or tests `/metadata/resourceVersion` (the
    /// lock guards every op), found once.
    pins_rv: bool,
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

/// The child of `value` at one decoded token.
fn child<'v>(value: &'v Value, token: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map.get(token),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
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

    /// Records a finding of `rule` about op `index` and its path, with its
    /// fix; returns it (for its writers).
    fn flag(
        &mut self,
        rule: Rule,
        index: usize,
        message: String,
        fix: Option<Draft>,
    ) -> &mut Finding {
        let finding = Finding::new(rule, Some(index), Some(&self.ops[index].path), message);
        self.pending.push(Pending::new(finding).with(fix));
        let last = self.pending.len() - 1;
        &mut self.pending[last].finding
    }

    fn policy(&self) -> &strategy::Policy {
        &self.options.policy
    }

    fn kube(&self) -> bool {
        self.options.semantics == Semantics::Kube
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
            OpProblem::UnknownOp(name) => alias(name)
                .and_then(|kind| payload.and_then(|p| respell_op_name(p, *index, kind)))
                .map(|ops| Draft::Whole(Rc::new(ops))),
            _ => None,
        };
        let message = message!(MalformedOp "op", error = err);
        let finding = Finding::new(Rule::MalformedOp, Some(*index), None, message);
        self.pending.push(Pending::new(finding).with(fix));
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
        let op = &self.ops[index];
        let mut valid = true;
        for (field, path) in [("path", Some(&op.path)), ("from", op.from.as_ref())] {
            let Some(path) = path else { continue };
            if let Err(err) = Pointer::parse(path) {
                valid = false;
                self.invalid_pointer(index, field, path, &err.to_string());
            }
        }
        if op.op.takes_value() && op.value.is_none() {
            self.no_value(index);
        }
        if op.path.is_empty() || op.from.as_deref() == Some("") {
            self.whole_document(index);
        }
        let Some(pointer) = Pointer::parse(&op.path).ok().filter(|_| valid) else {
            return;
        };
        self.unescaped_slash(index, pointer, state);
        if op.op == OpKind::Test {
            self.test_never_matches(index);
            self.test_after_write(index, pointer);
            self.test_null(index, pointer, state);
            if op.path == "/metadata/resourceVersion" {
                self.flag(Rule::RvTest, index, message!(RvTest "op", index), None);
            }
            self.whole_tests(index, pointer);
        } else {
            if op.path == "/metadata/resourceVersion"
                && matches!(op.op, OpKind::Add | OpKind::Replace)
            {
                let text = message!(RvPinnedBody "op", index, op = op.op.as_str());
                self.flag(Rule::RvPinnedBody, index, text, None);
            }
            self.duplicate_path(index);
            self.index_without_test(index, pointer, state);
            self.map_key_without_test(index, pointer, state);
            self.replace_missing(index, pointer, state);
            self.whole_collection_write(index, pointer, state);
            self.unknown_collection_write(index, pointer, state);
            self.non_string_value(index, pointer);
        }
        self.negative_index(index, pointer, state);
    }

    fn invalid_pointer(&mut self, index: usize, field: &str, path: &str, why: &str) {
        let op = &self.ops[index];
        let fixed = fix_tildes(&format!("/{}", path.strip_prefix('/').unwrap_or(path)));
        let valid = Pointer::parse(&fixed).is_ok();
        let mut new = op.clone();
        if field == "path" {
            new.path = fixed.clone();
        } else {
            new.from = Some(fixed.clone());
        }
        let fix = valid.then(|| self.replace_op(index, new)).flatten();
        let hint = match valid {
            true => message!(InvalidPointer "hint", fixed = shown(&fixed)),
            false => String::new(),
        };
        let (op, path_shown) = (op.op, shown(path));
        let message = message!(InvalidPointer "op", index, op, field, path = path_shown, why, hint);
        let finding = Finding::new(Rule::InvalidPointer, Some(index), Some(path), message);
        self.pending.push(Pending::new(finding).with(fix));
    }

    /// An op that takes a value, with none.
    fn no_value(&mut self, index: usize) {
        let op = &self.ops[index];
        let mut fixed = op.clone();
        fixed.value = Some(Value::Null);
        let fix = self.replace_op(index, fixed);
        let path = shown(&op.path);
        let message = message!(EngineDependent "no-value", index, op = op.op, path);
        self.flag(Rule::EngineDependent, index, message, fix);
    }

    fn whole_document(&mut self, index: usize) {
        let op = self.ops[index].op;
        let what = match op {
            OpKind::Test => message!(ReleaseDependent "test"),
            OpKind::Replace => message!(ReleaseDependent "replace"),
            _ => message!(ReleaseDependent "other"),
        };
        let message = message!(ReleaseDependent "op", index, op, what);
        self.flag(Rule::ReleaseDependent, index, message, None);
    }

    /// A path that walks through a key holding `/` of a map: a known map
    /// of strings, a map of the current object holding the key, or a token
    /// that reads as the DNS prefix of a qualified key followed by its
    /// name (`/spec/nodeSelector/kubernetes.io/hostname`). The path is
    /// walked once, with the object beside it.
    fn unescaped_slash(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        if pointer.count() > MAX_TOKENS {
            return;
        }
        let tokens = tokens(pointer);
        let mut prefix = PointerBuf::new();
        let mut node = state;
        for split in 0..tokens.len().saturating_sub(1) {
            if let Some(why) = self.slash_at(&tokens, split, &prefix, node) {
                return self.unescaped(index, &tokens, split, &prefix, why);
            }
            prefix.push_back(&tokens[split]);
            node = node.and_then(|v| child(v, &tokens[split]));
        }
    }

    /// Why `tokens[split..]` reads as one key holding `/` of the map at
    /// `prefix` (`node`: its value on the object), if it does.
    fn slash_at(
        &self,
        tokens: &[String],
        split: usize,
        prefix: &Pointer,
        node: Option<&Value>,
    ) -> Option<String> {
        if split == 0 {
            return None;
        }
        let (token, key, map) = (
            &tokens[split],
            || tokens[split..].join("/"),
            prefix.as_str(),
        );
        if paths::is_string_map(self.policy(), self.kind, prefix) {
            return Some(message!(UnescapedSlash "string-map", map));
        }
        let at_prefix = node.and_then(Value::as_object);
        let holds_token = at_prefix.is_some_and(|m| m.contains_key(token));
        let rest = tokens.len() - split;
        if !holds_token && rest <= 16 && at_prefix.is_some_and(|m| m.contains_key(&key())) {
            return Some(message!(UnescapedSlash "in-object", key = key(), map));
        }
        let dotted = !holds_token
            && rest == 2
            && paths::is_dns_prefix(token)
            && paths::is_key_name(&tokens[split + 1]);
        dotted.then(|| message!(UnescapedSlash "dotted", token, key = key()))
    }

    /// The finding for a key holding `/` at `tokens[split..]`.
    fn unescaped(
        &mut self,
        index: usize,
        tokens: &[String],
        split: usize,
        prefix: &Pointer,
        why: String,
    ) {
        let op = &self.ops[index];
        let key = tokens[split..].join("/");
        let fixed = format!("{}/{}", prefix.as_str(), escape(&key));
        let mut new = op.clone();
        new.path = fixed.clone();
        let fix = self.replace_op(index, new);
        let (path, token, fixed) = (shown(&op.path), &tokens[split], shown(&fixed));
        let message =
            message!(UnescapedSlash "op", index, op = op.op, path, token, why, key, fixed);
        self.flag(Rule::UnescapedSlash, index, message, fix);
    }

    fn test_never_matches(&mut self, index: usize) {
        let op = &self.ops[index];
        let Some(raw) = op.raw_value() else { return };
        let mut at = op.path.clone();
        let Some(mismatch) = mismatch(raw, &mut at, 0) else {
            return;
        };
        let path = shown(&op.path);
        let (message, fix) = match mismatch {
            Mismatch::Bytes { written, stored } => {
                let what = match at == op.path {
                    true => message!(TestNeverMatches "the-value"),
                    false => shown(&at).into_owned(),
                };
                let test = |value| Operation::test(op.path.clone(), value);
                let fix = (op.value.clone()).and_then(|value| self.replace_op(index, test(value)));
                let message =
                    message!(TestNeverMatches "bytes", index, path, what, written, stored);
                (message, fix)
            }
            Mismatch::NullElement => {
                let at = shown(&at);
                (
                    message!(TestNeverMatches "null-element", index, path, at),
                    None,
                )
            }
        };
        self.flag(Rule::TestNeverMatches, index, message, fix);
    }

    fn test_after_write(&mut self, index: usize, pointer: &Pointer) {
        let op = &self.ops[index];
        let Some(first) = self.index.first_enclosing_write(index, pointer) else {
            return;
        };
        let writer = &self.ops[first];
        let last_same = (self.index.node(index)).and_then(|node| last_before(&node.valued, index));
        let repeats = last_same.is_some_and(|j| self.ops[j].value == op.value);
        let mut edits = vec![Edit::Remove(index)];
        if !repeats {
            edits.push(Edit::Insert(first, op.clone()));
        }
        let fix = self.edits(edits);
        let effect = match repeats {
            true => message!(TestAfterWrite "repeats"),
            false => message!(TestAfterWrite "stale"),
        };
        let what = match writer.path == op.path {
            true => message!(TestAfterWrite "same-path"),
            false => message!(TestAfterWrite "enclosing-path"),
        };
        let (path, writer_op, writer_path) = (shown(&op.path), writer.op, shown(&writer.path));
        let message = message!(TestAfterWrite "op", index, path, first, writer_op, writer_path,
            what, effect);
        self.flag(Rule::TestAfterWrite, index, message, fix);
    }

    /// `test` of null: passes on a missing member only on kube-apiserver.
    fn test_null(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        if !op.value.as_ref().is_some_and(Value::is_null) || op.path.is_empty() {
            return;
        }
        // Present (holding null or not): both engines agree.
        if state.is_some_and(|doc| pointer.resolve(doc).is_some()) {
            return;
        }
        let when = match state {
            Some(_) => message!(EngineDependent "missing-now"),
            None => message!(EngineDependent "when-missing"),
        };
        let message = message!(EngineDependent "test-null", index, path = shown(&op.path), when);
        self.flag(Rule::EngineDependent, index, message, None);
    }

    /// `test` of a whole map, object or list: a hazard when others write
    /// it (the writers table), and worth per-key or per-element ops when
    /// writes under it follow.
    fn whole_tests(&mut self, index: usize, pointer: &Pointer) {
        let op = &self.ops[index];
        let Some(value) = &op.value else { return };
        let later = self.index.later(self.index.at(index), index);
        let same_path = later.len() <= 1000 && later.iter().all(|&j| self.ops[j].path == op.path);
        let list = paths::is_list(self.policy(), self.kind, pointer) || same_path;
        let sharing = writers::sharing(self.kind, pointer);
        match value {
            Value::Object(map) if map.is_empty() => {}
            Value::Object(map) if paths::is_string_map(self.policy(), self.kind, pointer) => {
                self.whole_map_test(index, pointer, map.len(), &sharing);
            }
            Value::Object(map) if sharing.is_shared() => {
                self.whole_object_test(index, pointer, map.len(), &sharing);
            }
            Value::Array(items) if !items.is_empty() && !later.is_empty() && list => {
                self.whole_list_test(index, pointer, items.len(), &sharing);
            }
            _ => {}
        }
    }

    /// The writes after op `index` under its path, listed (`None`: none).
    fn later_ops(&self, index: usize) -> Option<String> {
        let later = self.index.later(self.index.at(index), index);
        (!later.is_empty()).then(|| list_ops(later))
    }

    /// Op `index` (a test of `at`) and the writes after it under `at`, as
    /// `strategy` writes the same change.
    fn respell_test(&mut self, index: usize, at: &Pointer, strategy: Strategy) -> Option<Draft> {
        let (node, value) = (self.index.at(index), self.ops[index].value.as_ref());
        self.respell(index, node, at, value, strategy)
    }

    fn whole_map_test(&mut self, index: usize, at: &Pointer, count: usize, sharing: &Sharing) {
        // A map one writer fills alone (a VMI's `status.activePods`) is
        // safe to test whole.
        if matches!(sharing, Sharing::Sole(_)) {
            return;
        }
        let fix = self.respell_test(index, at, Strategy::PerKey);
        let later = self.later_ops(index);
        let changes = later.map_or_else(String::new, |ops| message!(WholeMapTest "changes", ops));
        let (writers, on_kind) = (sharing.list(), on_kind(self.kind));
        let writers = if sharing.is_shared() {
            message!(WholeMapTest "writers", writers, at = at.as_str(), on_kind)
        } else if sharing.none_known(self.kind) {
            message!(WholeMapTest "no-writers", at = at.as_str(), on_kind)
        } else {
            String::new()
        };
        let advice = match changes.is_empty() {
            true => message!(WholeMapTest "advice"),
            false => String::new(),
        };
        let message = message!(WholeMapTest "op", index, path = shown(&self.ops[index].path),
            count, keys = one_or_many(count, "key", "keys"), changes, writers, advice);
        let finding = self.flag(Rule::WholeMapTest, index, message, fix);
        finding.writers = sharing.names();
    }

    fn whole_object_test(&mut self, index: usize, at: &Pointer, count: usize, sharing: &Sharing) {
        let fix = self.respell_test(index, at, Strategy::PerField);
        let later = self.later_ops(index);
        let changes =
            later.map_or_else(String::new, |ops| message!(WholeObjectTest "changes", ops));
        let advice = match changes.is_empty() {
            true => message!(WholeObjectTest "advice"),
            false => String::new(),
        };
        let message = message!(WholeObjectTest "op", index, path = shown(&self.ops[index].path),
            count, fields = one_or_many(count, "field", "fields"), changes,
            writers = sharing.list(), at = at.as_str(), on_kind = on_kind(self.kind), advice);
        let finding = self.flag(Rule::WholeObjectTest, index, message, fix);
        finding.writers = sharing.names();
    }

    fn whole_list_test(&mut self, index: usize, at: &Pointer, count: usize, sharing: &Sharing) {
        let fix = self.respell_test(index, at, Strategy::Element);
        let (item, writers) = (paths::item_name(self.kind, at), sharing.list());
        let who = if sharing.is_shared() {
            message!(WholeListTest "shared", item, writers, at = at.as_str())
        } else if sharing.none_known(self.kind) {
            message!(WholeListTest "no-writers", item, at = at.as_str(), on_kind = on_kind(self.kind))
        } else {
            message!(WholeListTest "unshared", item)
        };
        let narrower = match fix.is_some() {
            true => message!(WholeListTest "per-element"),
            false => message!(WholeListTest "no-narrower"),
        };
        let items = if count == 1 { item } else { format!("{item}s") };
        let path = shown(&self.ops[index].path);
        let message = message!(WholeListTest "op", index, path, count, items, who, narrower);
        let finding = self.flag(Rule::WholeListTest, index, message, fix);
        finding.writers = sharing.names();
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
        let later: Vec<usize> = match is_test {
            true => self.index.later(node, first).to_vec(),
            false => Vec::new(),
        };
        // Building the plan costs about as much as the ops it replaces.
        if is_test && later.is_empty() || !self.spend(later.len() + 1) {
            return None;
        }
        let old_doc = doc_with(&tokens(at), old);
        let mut new_doc = old_doc.clone();
        let mut writes: Vec<Operation> = later.iter().map(|&j| self.ops[j].clone()).collect();
        if !is_test {
            writes.insert(0, self.ops[first].clone());
        }
        apply::apply(&mut new_doc, &writes, Semantics::Kube).ok()?;
        let mut options = fix::per_key(&self.options.policy);
        options.policy.set_strategy(at.to_buf(), strategy);
        let plan = strategy::diff(&old_doc, &new_doc, &options).ok()?;
        let planned = plan.ops()?;
        if planned.iter().any(|p| p.strategy != strategy) || !plan.notes.is_empty() {
            return None;
        }
        let removes = planned.iter().any(|p| p.op.op == OpKind::Remove);
        let adds = planned.iter().any(|p| p.op.op == OpKind::Add);
        if strategy == Strategy::Element && removes && adds {
            return None;
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
        let Some(earlier) = (self.index.node(index)).and_then(|n| last_before(&n.plain, index))
        else {
            return;
        };
        let first = &self.ops[earlier];
        let (drop, why) = match (first.op, op.op) {
            (OpKind::Remove, OpKind::Remove) => (index, message!(DuplicatePath "removed-twice")),
            (OpKind::Remove | OpKind::Move | OpKind::Copy, _) => return,
            _ => (earlier, message!(DuplicatePath "overwritten")),
        };
        let fix = self.edits(vec![Edit::Remove(drop)]);
        let message = message!(DuplicatePath "op", index, op = op.op, path = shown(&op.path),
            earlier, earlier_op = first.op, why);
        self.flag(Rule::DuplicatePath, index, message, fix);
    }

    /// An index anywhere along the path (`/spec/containers/0/image`, not
    /// only `/metadata/finalizers/1`) with no `test` of that element (or
    /// of something inside it, such as its `name`) first.
    fn index_without_test(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        if pointer.count() > MAX_TOKENS {
            return;
        }
        let mut parent = PointerBuf::new();
        let mut node = state;
        for (t, token) in pointer.tokens().enumerate() {
            let (encoded, decoded) = (token.encoded(), token.decoded());
            let numeric = !encoded.is_empty() && encoded.bytes().all(|b| b.is_ascii_digit());
            if numeric
                && !fixed_order(self.kind, &parent)
                && self.is_list_at(state.is_some(), node, &parent)
            {
                let mut element = parent.clone();
                element.push_back(&decoded);
                if !self.index.element_guarded(index, &element) {
                    let at = Element {
                        current: node.and_then(|v| child(v, &decoded)).cloned(),
                        last: t + 1 == pointer.count(),
                        list: &parent,
                        element: &element,
                        index: encoded,
                    };
                    return self.unguarded_index(index, at);
                }
            }
            parent.push_back(&decoded);
            node = node.and_then(|v| child(v, &decoded));
        }
    }

    /// True when `parent` holds a list: on the object (`node`: its value
    /// there) when there is one, else unless it is a map of strings.
    fn is_list_at(&self, object: bool, node: Option<&Value>, parent: &Pointer) -> bool {
        match object {
            true => node.is_some_and(Value::is_array),
            false => {
                paths::is_list(self.policy(), self.kind, parent)
                    || !paths::is_string_map(self.policy(), self.kind, parent)
            }
        }
    }

    /// The finding for op `index` addressing `at` by index, unguarded.
    fn unguarded_index(&mut self, index: usize, at: Element<'_>) {
        let op = &self.ops[index];
        let fix = match (op.op, at.current) {
            (OpKind::Add, _) if at.last => None,
            (_, Some(value)) => {
                let test = match identity(&value) {
                    Some((field, id)) if !at.last || op.op != OpKind::Remove => {
                        let mut path = at.element.to_buf();
                        path.push_back(field);
                        Operation::test(path.into_string(), id.clone())
                    }
                    _ => Operation::test(at.element.as_str().to_owned(), value),
                };
                self.insert_before(index, test)
            }
            _ => None,
        };
        let (item, list) = (paths::item_name(self.kind, at.list), at.list.as_str());
        let effect = match (op.op, at.last) {
            (OpKind::Add, true) => message!(IndexWithoutTest "inserts"),
            (OpKind::Remove, true) => message!(IndexWithoutTest "removes", item),
            (_, true) => message!(IndexWithoutTest "writes", item),
            (_, false) => message!(IndexWithoutTest "reaches", item, at = at.index, list),
        };
        let advice = match fix.is_none() && !(op.op == OpKind::Add && at.last) {
            true => message!(IndexWithoutTest "advice", item, element = at.element.as_str()),
            false => String::new(),
        };
        let message = message!(IndexWithoutTest "op", index, op = op.op, path = shown(&op.path),
            item, at = at.index, list, effect, advice);
        self.flag(Rule::IndexWithoutTest, index, message, fix);
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
        let rfc_absent = matches!(current, Some(None)) && !self.kube();
        let test = |value| Operation::test(op.path.clone(), value);
        let fix = match current {
            Some(Some(value)) => self.insert_before(index, test(value)),
            Some(None) if self.kube() && op.op == OpKind::Add => {
                self.insert_before(index, test(Value::Null))
            }
            _ => None,
        };
        let path = shown(&op.path);
        if op.op == OpKind::Remove {
            let message = message!(RemoveWithoutTest "op", index, path);
            self.flag(Rule::RemoveWithoutTest, index, message, fix);
            return;
        }
        let value = op.value.as_ref().map(short).unwrap_or_default();
        let advice = match rfc_absent {
            true => message!(AddWithoutTest "rfc-absent"),
            false => String::new(),
        };
        let message = message!(AddWithoutTest "op", index, path, value, advice);
        self.flag(Rule::AddWithoutTest, index, message, fix);
    }

    /// `replace` of a member missing on the current object.
    fn replace_missing(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        let (Some(doc), Some(parent)) = (state, pointer.parent()) else {
            return;
        };
        if op.op != OpKind::Replace
            || op.path.is_empty()
            || pointer.resolve(doc).is_some()
            || !parent.resolve(doc).is_some_and(Value::is_object)
        {
            return;
        }
        let mut add = op.clone();
        add.op = OpKind::Add;
        let fix = self.replace_op(index, add);
        let message = message!(EngineDependent "replace-missing", index, path = shown(&op.path));
        self.flag(Rule::EngineDependent, index, message, fix);
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
        let current = state.map(|doc| pointer.resolve(doc).filter(|v| !v.is_null()).cloned());
        let mut advice = String::new();
        let fix = self.collection_fix(index, pointer, shape, current, &mut advice);
        let what = match (op.op, shape) {
            (OpKind::Remove, _) => message!(WholeCollectionWrite "removes", shape = shape.as_str()),
            (OpKind::Add, Shape::Map) => message!(WholeCollectionWrite "adds-map"),
            _ => message!(WholeCollectionWrite "writes", shape = shape.as_str()),
        };
        let message = message!(WholeCollectionWrite "op", index, op = op.op, path = shown(&op.path),
            what, item = paths::with_article(item), writers = sharing.list(), at = pointer.as_str(),
            on_kind = on_kind(self.kind), advice);
        let finding = self.flag(Rule::WholeCollectionWrite, index, message, fix);
        finding.writers = sharing.names();
    }

    /// `add` or `replace` of a whole list or map at a member no writer in
    /// the table is known to share or own (a custom resource's
    /// `spec.overrides`, a Deployment's `spec.template`), with no test: on
    /// a live object, whatever another writer (a user, CI, a GitOps tool,
    /// a controller) put there since the read is replaced. An empty one
    /// `add`ed is meant to create the member, and erases it when it is
    /// there. Left alone: a status subtree (its controller's own), the
    /// managed fields, and a patch that pins the resourceVersion (the
    /// lock guards every op).
    fn unknown_collection_write(&mut self, index: usize, pointer: &Pointer, state: Option<&Value>) {
        let op = &self.ops[index];
        let (shape, empty) = match op.value.as_ref() {
            Some(Value::Array(items)) => ("list", items.is_empty()),
            Some(Value::Object(map)) => ("map", map.is_empty()),
            _ => return,
        };
        let last = pointer.tokens().last();
        let positional = last.is_none_or(|t| {
            let t = t.encoded();
            t == "-" || t.bytes().all(|b| b.is_ascii_digit())
        });
        let writes = match empty {
            true => op.op == OpKind::Add,
            false => matches!(op.op, OpKind::Add | OpKind::Replace),
        };
        let own = op.path.starts_with("/status") || op.path == "/metadata/managedFields";
        let pinned = self.pins_rv;
        if !writes || positional || (!empty && own) || pinned || self.index.guarded(index, pointer)
        {
            return;
        }
        let sharing = writers::sharing(self.kind, pointer);
        if sharing.is_shared() || matches!(sharing, writers::Sharing::Sole(_)) {
            return;
        }
        // With the object: absent or already empty, the write erases nothing.
        let current = state.map(|doc| pointer.resolve(doc));
        let holds = |v: &Value| match v {
            Value::Array(items) => !items.is_empty(),
            Value::Object(map) => !map.is_empty(),
            _ => !v.is_null(),
        };
        if matches!(current, Some(None)) || current.flatten().is_some_and(|v| !holds(v)) {
            return;
        }
        let fix = match (current, op.op) {
            (None, OpKind::Add) if self.kube() => {
                self.insert_before(index, Operation::test(op.path.clone(), Value::Null))
            }
            (Some(Some(now)), _) => {
                let now = now.clone();
                self.insert_before(index, Operation::test(op.path.clone(), now))
            }
            _ => None,
        };
        let path = shown(&op.path);
        let message = match empty {
            true => message!(WholeCollectionWrite "empty", index, path, shape),
            false => {
                message!(WholeCollectionWrite "unknown-writer", index, op = op.op, path, shape)
            }
        };
        self.flag(Rule::WholeCollectionWrite, index, message, fix);
    }

    /// The fix of a write of a whole `shape` at `at` (`current`: its value
    /// now, `None` without an object); `advice` says what to do instead
    /// when there is none, or what to know of it.
    fn collection_fix(
        &mut self,
        index: usize,
        at: &Pointer,
        shape: Shape,
        current: Option<Option<Value>>,
        advice: &mut String,
    ) -> Option<Draft> {
        let op = &self.ops[index];
        let test = |value| Operation::test(op.path.clone(), value);
        let path = at.as_str();
        match (op.op, shape, current) {
            // With the object: the collection as it is now, tested.
            (OpKind::Remove, _, Some(Some(value))) => self.insert_before(index, test(value)),
            (OpKind::Remove, _, _) => {
                *advice = message!(WholeCollectionWrite "remove-no-object", at = path);
                None
            }
            (_, Shape::Map, Some(Some(current))) => {
                self.respell(index, None, at, Some(&current), Strategy::PerKey)
            }
            (_, Shape::List, Some(Some(current))) => {
                let fix = self.respell(index, None, at, Some(&current), Strategy::Element);
                fix.or_else(|| self.insert_before(index, test(current)))
            }
            (_, Shape::Object | Shape::Scalar, Some(Some(_))) => None,
            // Absent now: it must still be absent.
            (_, _, Some(None)) if self.kube() => {
                let add = Operation::add(op.path.clone(), op.value.clone().unwrap_or(Value::Null));
                self.edits(vec![
                    Edit::Insert(index, test(Value::Null)),
                    Edit::Replace(index, add),
                ])
            }
            (_, _, Some(None)) => {
                *advice = message!(WholeCollectionWrite "rfc-absent");
                None
            }
            // No object: per key for a map; for an added list, the
            // writer's cache had none (KubeVirt's `WithAdd` when the old
            // list is nil): test that it still has none.
            (_, Shape::Map, None) => self.per_key_adds(index, path, advice),
            (OpKind::Add, _, None) if self.kube() => self.insert_before(index, test(Value::Null)),
            (_, _, None) => {
                *advice = message!(WholeCollectionWrite "no-object", at = path);
                None
            }
        }
    }

    /// A write of a whole map at `at` as one `add` per key.
    fn per_key_adds(&mut self, index: usize, at: &str, advice: &mut String) -> Option<Draft> {
        let op = &self.ops[index];
        let map = op.value.as_ref().and_then(Value::as_object)?;
        if map.is_empty() {
            return None;
        }
        let mut edits = vec![Edit::Remove(index)];
        for (key, value) in map {
            let path = format!("{}/{}", op.path, escape(key));
            edits.push(Edit::Insert(index, Operation::add(path, value.clone())));
        }
        *advice = message!(WholeCollectionWrite "per-key", at);
        self.edits(edits)
    }

    /// A number, boolean, list or object where Kubernetes keeps strings:
    /// a key of a string map, or a whole string map holding one.
    fn non_string_value(&mut self, index: usize, pointer: &Pointer) {
        let op = &self.ops[index];
        if !matches!(op.op, OpKind::Add | OpKind::Replace) {
            return;
        }
        let Some(value) = &op.value else { return };
        let Some((at, bad, fixed)) = self.non_string_at(pointer, &op.path, value) else {
            return;
        };
        let fix = fixed.and_then(|value| {
            let mut new = op.clone();
            new.value = Some(value);
            self.replace_op(index, new)
        });
        let string = stringify(bad)
            .map_or_else(|| message!(NonStringValue "it-means"), |s| format!("{s:?}"));
        let message = message!(NonStringValue "op", index, op = op.op, path = shown(&op.path),
            value = short(bad), at = shown(&at), what = not_a_string(bad), string);
        self.flag(Rule::NonStringValue, index, message, fix);
    }

    /// Where `value`, written at `pointer` (`path`), holds what a map of
    /// strings cannot: that place, the value there, and `value` with
    /// strings instead (`None` when it cannot say them).
    fn non_string_at<'v>(
        &self,
        pointer: &Pointer,
        path: &str,
        value: &'v Value,
    ) -> Option<(String, &'v Value, Option<Value>)> {
        let strings = |p: &Pointer| paths::holds_strings(self.policy(), self.kind, p);
        if pointer.parent().is_some_and(strings) {
            let bad = !value.is_string() && !value.is_null();
            return bad.then(|| (path.to_owned(), value, stringify(value).map(Value::String)));
        }
        let map = value.as_object().filter(|_| strings(pointer))?;
        let (key, bad) = map.iter().find(|(_, v)| !v.is_string())?;
        let fixed = stringified(map).map(Value::Object);
        Some((format!("{path}/{}", escape(key)), bad, fixed))
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
        let fix = resolved.and_then(|resolved| self.resolved_index(index, &tokens, at, resolved));
        let (path, token) = (shown(&op.path), &tokens[at]);
        let message = message!(EngineDependent "negative-index", index, op = op.op, path, token);
        self.flag(Rule::EngineDependent, index, message, fix);
    }

    /// Every op on op `index`'s path (a `test` before a `remove` at `-1`
    /// included) with its negative index `tokens[at]` resolved.
    fn resolved_index(
        &mut self,
        index: usize,
        tokens: &[String],
        at: usize,
        resolved: i64,
    ) -> Option<Draft> {
        let op = &self.ops[index];
        let mut fixed = tokens.to_vec();
        fixed[at] = resolved.to_string();
        let path = PointerBuf::from_tokens(&fixed).into_string();
        let node = self.index.node(index)?;
        let mut same: Vec<usize> = (node.tests.iter().chain(&node.writes))
            .copied()
            .filter(|&j| self.ops[j].path == op.path)
            .collect();
        crate::sort::sort(&mut same);
        same.dedup();
        let edits = (same.into_iter())
            .map(|j| {
                let mut new = self.ops[j].clone();
                new.path = path.clone();
                Edit::Replace(j, new)
            })
            .collect();
        self.edits(edits)
    }
}

/// Op `index`'s place in a list, as [`Ctx::unguarded_index`] reads it.
struct Element<'p> {
    /// The element's value on the object now.
    current: Option<Value>,
    /// The path ends at the element.
    last: bool,
    list: &'p Pointer,
    element: &'p Pointer,
    /// The index, as written.
    index: &'p str,
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

/// True for a list no writer can reorder, shorten or insert into once the
/// object exists, so that an index names the same element for its whole
/// life: a Pod's containers, init containers and volumes (kubernetes
/// `pkg/apis/core/validation/validation.go`, `ValidatePodUpdate`: "pod
/// updates may not change fields other than `spec.containers[*].image`,
/// ..."), and its ephemeral containers, which are only appended
/// (`ValidatePodEphemeralContainersUpdate`).
fn fixed_order(kind: Option<&str>, list: &Pointer) -> bool {
    kind == Some("Pod")
        && matches!(
            list.to_string().as_str(),
            "/spec/containers"
                | "/spec/initContainers"
                | "/spec/volumes"
                | "/spec/ephemeralContainers"
        )
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
