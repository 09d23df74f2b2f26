//! The JSON patch rules, op by op.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{outcome, surface, Finding, Options, Report, Rule};
use crate::apply::{self, Semantics};
use crate::gojson;
use crate::patch::{self, Decoded, OpKind, OpProblem, Operation, PayloadError};
use crate::pointer::{escape, Pointer, PointerBuf};
use crate::strategy::{self, FieldKind, Policy, Preset, Strategy};

/// The most ops all fixes of one report copy together.
const FIX_OPS: usize = 200_000;

/// Lints a decoded JSON patch. `payload` (the text as sent) lets a
/// malformed op's fix re-read the ops after it.
pub(super) fn json_patch(decoded: &Decoded, payload: Option<&str>, options: &Options) -> Report {
    let ops = &decoded.ops;
    let mut ctx = Ctx {
        ops,
        options,
        findings: Vec::new(),
        state: options.object.clone(),
        fix_budget: std::cell::Cell::new(FIX_OPS),
        tests: (0..ops.len())
            .filter(|&i| ops[i].op == OpKind::Test)
            .collect(),
    };
    if decoded.count > crate::limits::MAX_OPS {
        ctx.findings.push(Finding::new(
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
        let outcome = outcome(object, decoded, options.semantics);
        if !outcome.applies {
            let what = match (&outcome.response, outcome.index) {
                (Some(response), _) => format!("; the server answers {response}"),
                (None, _) => String::new(),
            };
            let at = match (outcome.index, &outcome.path) {
                (Some(i), Some(path)) => format!("op {i} ({path}) fails"),
                (Some(i), None) => format!("op {i} fails"),
                _ => "the patch is refused".to_owned(),
            };
            ctx.findings.push(Finding::new(
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
    Report {
        kind: super::BodyKind::JsonPatch,
        semantics: options.semantics,
        ops: ops.clone(),
        op_count: decoded.count,
        findings: ctx.findings,
        outcome,
        conflicts,
        overwrites,
    }
}

struct Ctx<'a> {
    ops: &'a [Operation],
    options: &'a Options,
    findings: Vec<Finding>,
    /// The object as it is when the op being checked runs (the ops before
    /// it applied, one at a time); `None` without an object or once an op
    /// failed on it.
    state: Option<Value>,
    /// The indices of the `test` ops, in order.
    tests: Vec<usize>,
    /// How many more ops fixes may copy (see [`Ctx::copy_ops`]).
    fix_budget: std::cell::Cell<usize>,
}

/// Writes of an op: the paths whose value it changes.
fn writes(op: &Operation) -> Vec<&str> {
    match op.op {
        OpKind::Test => Vec::new(),
        OpKind::Move => [Some(op.path.as_str()), op.from.as_deref()]
            .into_iter()
            .flatten()
            .collect(),
        _ => vec![op.path.as_str()],
    }
}

/// True when `outer` is `inner` or encloses it (both valid pointers).
fn encloses(outer: &str, inner: &str) -> bool {
    match (Pointer::parse(outer), Pointer::parse(inner)) {
        (Ok(outer), Ok(inner)) => inner.starts_with(outer),
        _ => outer == inner,
    }
}

fn tokens(pointer: &Pointer) -> Vec<String> {
    pointer.tokens().map(|t| t.decoded().into_owned()).collect()
}

/// `/metadata/labels` and `/metadata/annotations` anywhere (pod templates
/// too), and every map the policy declares.
fn is_string_map(policy: &Policy, pointer: &Pointer) -> bool {
    if policy.declared_kind(pointer) == Some(FieldKind::Map) {
        return true;
    }
    let tokens = tokens(pointer);
    matches!(
        tokens.as_slice(),
        [.., meta, last] if meta == "metadata" && (last == "labels" || last == "annotations")
    )
}

fn is_list_field(policy: &Policy, pointer: &Pointer) -> bool {
    matches!(
        policy.declared_kind(pointer),
        Some(FieldKind::SetList | FieldKind::AtomicList)
    )
}

/// Renders a value for a message, cut short.
fn short(value: &Value) -> String {
    crate::text::elide(&gojson::to_string(value), 60)
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

impl Ctx<'_> {
    fn push(&mut self, finding: Finding) {
        self.findings.push(finding);
    }

    fn policy(&self) -> &Policy {
        &self.options.policy
    }

    /// The ops with `op` inserted before `index`.
    /// A copy of the ops for a fix, while the fix budget lasts (a fix is
    /// the whole patch: without a budget, a finding on each of 10,000 ops
    /// would hold 10,000 copies of it).
    fn copy_ops(&self) -> Option<Vec<Operation>> {
        let left = self.fix_budget.get();
        if left < self.ops.len() {
            return None;
        }
        self.fix_budget.set(left - self.ops.len());
        Some(self.ops.to_vec())
    }

    fn insert_before(&self, index: usize, op: Operation) -> Option<Vec<Operation>> {
        let mut ops = self.copy_ops()?;
        ops.insert(index, op);
        Some(ops)
    }

    /// The ops with op `index` replaced by `op`.
    fn replace_op(&self, index: usize, op: Operation) -> Option<Vec<Operation>> {
        let mut ops = self.copy_ops()?;
        ops[index] = op;
        Some(ops)
    }

    /// True when a `test` before op `index` covers `path` (tests it or an
    /// enclosing path).
    fn guarded(&self, index: usize, path: &str) -> bool {
        self.tests
            .iter()
            .take_while(|&&i| i < index)
            .any(|&i| encloses(&self.ops[i].path, path))
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
        let mut message = format!("op {index}: {err}");
        if let PayloadError::Op { .. } = err {
            message = err.to_string();
        }
        message.push_str(": the server fails the whole patch at this op (422) and writes nothing");
        self.push(Finding::new(Rule::MalformedOp, Some(*index), None, message).with_fix(fix));
    }

    fn op(&mut self, index: usize) {
        let state = self.state.take();
        self.check(index, state.as_ref());
        self.state = state.and_then(|mut doc| {
            apply::apply(&mut doc, &self.ops[index..=index], self.options.semantics)
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
            let mut fixed = op.clone();
            fixed.value = Some(Value::Null);
            let fix = self.replace_op(index, fixed);
            self.push(
                Finding::new(
                    Rule::EngineDependent,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} ({} {}) has no value: kube-apiserver uses null, a strict RFC 6902 engine refuses the patch",
                        op.op, op.path
                    ),
                )
                .with_fix(fix),
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
        self.unescaped_slash(index, state);
        if op.op == OpKind::Test {
            self.test_never_matches(index);
            self.test_after_write(index);
            self.test_null(index, state);
            if op.path == "/metadata/resourceVersion" {
                self.push(Finding::new(
                    Rule::RvTest,
                    Some(index),
                    Some(&op.path),
                    format!("op {index} tests /metadata/resourceVersion: any write to the object since your read (by anyone, to any field) fails this patch (422)"),
                ));
            }
            self.whole_tests(index);
        } else {
            self.duplicate_path(index);
            self.index_without_test(index, state);
            self.map_key_without_test(index, state);
            self.replace_missing(index, state);
        }
        self.negative_index(index, state);
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
        let fix = valid.then(|| {
            let mut new = op.clone();
            if field == "path" {
                new.path = fixed.clone();
            } else {
                new.from = Some(fixed.clone());
            }
            self.replace_op(index, new)
        });
        let fix = fix.flatten();
        let hint = if valid {
            format!("; did you mean {fixed:?}?")
        } else {
            String::new()
        };
        self.push(
            Finding::new(
                Rule::InvalidPointer,
                Some(index),
                Some(path),
                format!(
                    "op {index} ({}): {field} {path:?} is not a JSON Pointer: {why}{hint}",
                    op.op
                ),
            )
            .with_fix(fix),
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

    /// A path that walks through a key holding `/` of a string map.
    fn unescaped_slash(&mut self, index: usize, state: Option<&Value>) {
        let op = &self.ops[index];
        let Ok(pointer) = Pointer::parse(&op.path) else {
            return;
        };
        let tokens = tokens(pointer);
        for split in 1..tokens.len().saturating_sub(1) {
            let prefix = PointerBuf::from_tokens(&tokens[..split]);
            let key = tokens[split..].join("/");
            let known_map = is_string_map(self.policy(), &prefix);
            let in_object = state.as_ref().is_some_and(|doc| {
                prefix
                    .resolve(doc)
                    .and_then(Value::as_object)
                    .is_some_and(|map| map.contains_key(&key) && !map.contains_key(&tokens[split]))
            });
            if !(known_map || in_object) {
                continue;
            }
            let fixed = format!("{}/{}", prefix.as_str(), escape(&key));
            let mut new = op.clone();
            new.path = fixed.clone();
            let fix = self.replace_op(index, new);
            let why = if known_map {
                format!("{} holds strings", prefix.as_str())
            } else {
                format!("the object holds the key {key:?} in {}", prefix.as_str())
            };
            self.push(
                Finding::new(
                    Rule::UnescapedSlash,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} ({} {}) walks into {:?} as if it were an object, but {why}: the key {key:?} is written {fixed:?} (`/` as ~1)",
                        op.op, op.path, tokens[split]
                    ),
                )
                .with_fix(fix),
            );
            return;
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
                op.path,
                if at == op.path { "the value".to_owned() } else { at.clone() },
            ),
            Mismatch::NullElement => format!(
                "op {index} (test {}): {at} is null inside an array: kube-apiserver's engine dereferences it and panics (HTTP 500 on every release: v5.6.0, v4.12.0 and v4.13.0)",
                op.path
            ),
        };
        let fix = match mismatch {
            Mismatch::Bytes { .. } => op
                .value
                .clone()
                .and_then(|value| self.replace_op(index, Operation::test(op.path.clone(), value))),
            Mismatch::NullElement => None,
        };
        self.push(
            Finding::new(Rule::TestNeverMatches, Some(index), Some(&op.path), message)
                .with_fix(fix),
        );
    }

    fn test_after_write(&mut self, index: usize) {
        let op = &self.ops[index];
        let Some(first) = self.ops[..index]
            .iter()
            .position(|w| writes(w).iter().any(|p| encloses(p, &op.path)))
        else {
            return;
        };
        let writer = &self.ops[first];
        let last_same = self.ops[..index]
            .iter()
            .rposition(|w| w.op != OpKind::Test && w.path == op.path && w.op.takes_value());
        let repeats = last_same.is_some_and(|j| self.ops[j].value == op.value);
        let fix = self.copy_ops().map(|mut ops| {
            let test = ops.remove(index);
            if !repeats {
                ops.insert(first, test);
            }
            ops
        });
        let effect = if repeats {
            "it repeats the value just written, so it always passes and guards nothing"
        } else {
            "it compares against what this patch just wrote, not what is stored: it never guards anything and fails whenever its value is the old one"
        };
        self.push(
            Finding::new(
                Rule::TestAfterWrite,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} (test {}) runs after op {first} ({} {}) wrote {}: {effect}",
                    op.path,
                    writer.op,
                    writer.path,
                    if writer.path == op.path {
                        "the same path"
                    } else {
                        "an enclosing path"
                    }
                ),
            )
            .with_fix(fix),
        );
    }

    /// `test` of null: passes on a missing member only on kube-apiserver.
    fn test_null(&mut self, index: usize, state: Option<&Value>) {
        let op = &self.ops[index];
        if !op.value.as_ref().is_some_and(Value::is_null) || op.path.is_empty() {
            return;
        }
        if let Some(doc) = &state {
            let Ok(pointer) = Pointer::parse(&op.path) else {
                return;
            };
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
                op.path
            ),
        ));
    }

    /// `test` of a whole map or list with writes inside it.
    fn whole_tests(&mut self, index: usize) {
        let op = &self.ops[index];
        let Ok(pointer) = Pointer::parse(&op.path) else {
            return;
        };
        let Some(value) = &op.value else { return };
        let later: Vec<usize> = (index + 1..self.ops.len())
            .filter(|&j| {
                let w = &self.ops[j];
                w.op != OpKind::Test && writes(w).iter().any(|p| encloses(&op.path, p))
            })
            .collect();
        if later.is_empty() {
            return;
        }
        let mut group = vec![index];
        group.extend(&later);
        match value {
            Value::Object(map) if !map.is_empty() && is_string_map(self.policy(), pointer) => {
                let fix = self.respell(&group, pointer, Some(value), Strategy::PerKey);
                self.push(
                    Finding::new(
                        Rule::WholeMapTest,
                        Some(index),
                        Some(&op.path),
                        format!(
                            "op {index} tests the whole map {} ({} {}) to change it in op {}: a concurrent change to any key of it, even one this patch leaves alone, fails the whole patch (422)",
                            op.path,
                            map.len(),
                            if map.len() == 1 { "key" } else { "keys" },
                            later.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
                        ),
                    )
                    .with_fix(fix),
                );
            }
            Value::Array(items)
                if !items.is_empty()
                    && (is_list_field(self.policy(), pointer)
                        || later.iter().all(|&j| self.ops[j].path == op.path)) =>
            {
                let fix = self.respell(&group, pointer, Some(value), Strategy::Element);
                self.push(
                    Finding::new(
                        Rule::WholeListTest,
                        Some(index),
                        Some(&op.path),
                        format!(
                            "op {index} tests the whole list {} ({} {}) to change it: any concurrent change to the list (another controller's finalizer, say) fails the patch (422); safe to retry, but {}",
                            op.path,
                            items.len(),
                            if items.len() == 1 { "element" } else { "elements" },
                            if fix.is_some() { "per-element ops narrow it to the elements you touch" } else { "JSON Patch has no narrower way for this change" }
                        ),
                    )
                    .with_fix(fix),
                );
            }
            _ => {}
        }
    }

    /// The ops with those of `group` (a test at `at` and the writes under
    /// it) replaced by what `strategy` sends for the same change.
    fn respell(
        &self,
        group: &[usize],
        at: &Pointer,
        old: Option<&Value>,
        strategy: Strategy,
    ) -> Option<Vec<Operation>> {
        let tokens = tokens(at);
        let old_doc = doc_with(&tokens, old);
        let mut new_doc = old_doc.clone();
        let writes: Vec<Operation> = group[1..].iter().map(|&j| self.ops[j].clone()).collect();
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
        self.copy_ops()?;
        let mut out = Vec::with_capacity(self.ops.len());
        for (i, op) in self.ops.iter().enumerate() {
            if i == group[0] {
                out.extend(planned.iter().map(|p| p.op.clone()));
            }
            if !group.contains(&i) {
                out.push(op.clone());
            }
        }
        Some(out)
    }

    fn duplicate_path(&mut self, index: usize) {
        let op = &self.ops[index];
        let appends = |o: &Operation| {
            o.op == OpKind::Add
                && Pointer::parse(&o.path)
                    .ok()
                    .and_then(Pointer::last)
                    .is_some_and(|t| t.encoded() == "-" || t.to_index().is_ok())
        };
        if appends(op) {
            return;
        }
        let Some(earlier) = self.ops[..index]
            .iter()
            .rposition(|w| w.op != OpKind::Test && w.path == op.path && !appends(w))
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
        let fix = self.copy_ops().map(|mut ops| {
            ops.remove(drop);
            ops
        });
        self.push(
            Finding::new(
                Rule::DuplicatePath,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) writes the same path as op {earlier} ({}): {why}",
                    op.op, op.path, first.op
                ),
            )
            .with_fix(fix),
        );
    }

    fn index_without_test(&mut self, index: usize, state: Option<&Value>) {
        let op = &self.ops[index];
        let Ok(pointer) = Pointer::parse(&op.path) else {
            return;
        };
        let Some((parent, last)) = pointer.split_back() else {
            return;
        };
        if last.encoded() == "-" || !last.encoded().bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        let is_array = match &state {
            Some(doc) => parent.resolve(doc).is_some_and(Value::is_array),
            None => is_list_field(self.policy(), parent) || !is_string_map(self.policy(), parent),
        };
        if !is_array || self.guarded(index, &op.path) {
            return;
        }
        let current = state.as_ref().and_then(|doc| pointer.resolve(doc).cloned());
        let fix = match (op.op, current) {
            (OpKind::Add, _) => None,
            (_, Some(value)) => self.insert_before(index, Operation::test(op.path.clone(), value)),
            _ => None,
        };
        let effect = match op.op {
            OpKind::Add => "inserts at a position that moves when another writer adds or removes an element",
            OpKind::Remove => "removes whatever element is at that index when the patch runs, which is another writer's element if the list changed since your read",
            _ => "writes whatever element is at that index when the patch runs, which is another writer's element if the list changed since your read",
        };
        self.push(
            Finding::new(
                Rule::IndexWithoutTest,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) addresses an array element by index with no test of it first: it {effect}",
                    op.op, op.path
                ),
            )
            .with_fix(fix),
        );
    }

    fn map_key_without_test(&mut self, index: usize, state: Option<&Value>) {
        let op = &self.ops[index];
        if !matches!(op.op, OpKind::Add | OpKind::Remove) {
            return;
        }
        let Ok(pointer) = Pointer::parse(&op.path) else {
            return;
        };
        let Some(parent) = pointer.parent() else {
            return;
        };
        if !is_string_map(self.policy(), parent) || self.guarded(index, &op.path) {
            return;
        }
        let current = state.as_ref().map(|doc| pointer.resolve(doc).cloned());
        if op.op == OpKind::Remove {
            let fix = match current {
                Some(Some(value)) => {
                    self.insert_before(index, Operation::test(op.path.clone(), value))
                }
                _ => None,
            };
            self.push(
                Finding::new(
                    Rule::RemoveWithoutTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} removes {} with no test: it fails (422) if another writer removed the key first, and erases any value another writer set meanwhile",
                        op.path
                    ),
                )
                .with_fix(fix),
            );
        } else {
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
            self.push(
                Finding::new(
                    Rule::AddWithoutTest,
                    Some(index),
                    Some(&op.path),
                    format!(
                        "op {index} sets {} to {value} with no test: if another writer sets this key at the same time, the last write wins",
                        op.path
                    ),
                )
                .with_fix(fix),
            );
        }
    }

    /// `replace` of a member missing on the current object.
    fn replace_missing(&mut self, index: usize, state: Option<&Value>) {
        let op = &self.ops[index];
        if op.op != OpKind::Replace || op.path.is_empty() {
            return;
        }
        let Some(doc) = state else {
            return;
        };
        let Ok(pointer) = Pointer::parse(&op.path) else {
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
        self.push(
            Finding::new(
                Rule::EngineDependent,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} replaces {}, which is missing on the current object: kube-apiserver adds it, a strict RFC 6902 engine fails (and so would evanphx v5); `add` means the same on both",
                    op.path
                ),
            )
            .with_fix(fix),
        );
    }

    fn negative_index(&mut self, index: usize, state: Option<&Value>) {
        let op = &self.ops[index];
        let Ok(pointer) = Pointer::parse(&op.path) else {
            return;
        };
        let tokens: Vec<String> = tokens(pointer);
        let Some(at) = tokens.iter().position(|t| {
            t.len() > 1 && t.starts_with('-') && t[1..].bytes().all(|b| b.is_ascii_digit())
        }) else {
            return;
        };
        let fix = state.as_ref().and_then(|doc| {
            let parent = PointerBuf::from_tokens(&tokens[..at]);
            let len = parent.resolve(doc)?.as_array()?.len() as i64;
            let n: i64 = tokens[at].parse().ok()?;
            let resolved = len + n;
            if resolved < 0 {
                return None;
            }
            let mut fixed = tokens.clone();
            fixed[at] = resolved.to_string();
            let path = PointerBuf::from_tokens(&fixed).into_string();
            let mut ops = self.copy_ops()?;
            for op in ops.iter_mut().skip(index) {
                if op.path == self.ops[index].path {
                    op.path = path.clone();
                }
            }
            Some(ops)
        });
        self.push(
            Finding::new(
                Rule::EngineDependent,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) uses the negative index {}: kube-apiserver counts it from the end of the array, a strict RFC 6902 engine refuses it",
                    op.op, op.path, tokens[at]
                ),
            )
            .with_fix(fix),
        );
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
