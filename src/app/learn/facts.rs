//! The facts a lesson's claims are checked against: what the engine
//! computes for an embedded state, as JSON with short, stable names.
//!
//! - Build: `columns.<i>.{preset, ops, tests, guarded, unguarded,
//!   conflicts, overwrites, narrower_than, as_safe_as, round_trip,
//!   payload}`; an op reads `"test /metadata/labels"`; `preset` is the
//!   column's label (its overrides named); `guarded` and `unguarded` are
//!   the paths written with and without an earlier test of the path or of
//!   a parent ([`guards`]); `narrower_than` and `as_safe_as` list the
//!   columns this one compares so with ([`narrower`], [`as_safe`]).
//! - Race: `current` (the step on screen, `null` before the first),
//!   `steps.<i>`, `writers.<name>`, `total`, `lost_updates`,
//!   `intents_hold`; a step has `writer, event, status, conflict (false |
//!   true: judged on the request), failed ("test /metadata/labels"),
//!   message, kept (whose changes a true conflict kept), intent (needless |
//!   clash: judged on the intent), clashes (whose changes the intent would
//!   undo), lost (the victims), sent (the ops), tests, guarded,
//!   unguarded` (of the ops sent, as for a column); a writer has its
//!   counts, `preset`, `intent_holds`, `end` and `not_held` (`null`, or
//!   `{reason: not-retried | gave-up | never-wrote | lost | overwritten |
//!   nothing-sent | unmet, ...}`, with `by` for lost and overwritten).
//! - Scale: `presets.<name>.{total, vmis_intent_not_held, writers.<name>}`.

use serde_json::{json, Map, Value};

use crate::app::build::{BuildState, ColumnResult, RoundTripResult};
use crate::sim::migrate::MigrateResult;
use crate::sim::timeline::{Replay, Step};

fn op_text(op: &crate::patch::Operation) -> String {
    format!("{} {}", op.op.as_str(), op.path)
}

/// True when `parent` is `path` or one of its parents (JSON Pointers).
fn covers(parent: &str, path: &str) -> bool {
    path == parent
        || (path.starts_with(parent) && path[parent.len()..].starts_with('/'))
        || parent.is_empty()
}

/// Of ops `(op, path)` in order: the paths written after a test of the
/// path or of a parent (guarded), and those written with none (unguarded).
pub fn guards<'a>(ops: impl IntoIterator<Item = (&'a str, &'a str)>) -> (Vec<String>, Vec<String>) {
    let mut tested: Vec<&str> = Vec::new();
    let (mut guarded, mut unguarded) = (Vec::new(), Vec::new());
    for (op, path) in ops {
        if op == "test" {
            tested.push(path);
        } else if tested.iter().any(|t| covers(t, path)) {
            guarded.push(path.to_owned());
        } else {
            unguarded.push(path.to_owned());
        }
    }
    (guarded, unguarded)
}

/// True when every path of `some` lies under a path of `all`.
fn within(some: &[&str], all: &[&str]) -> bool {
    some.iter().all(|p| all.iter().any(|q| covers(q, p)))
}

/// Column `a` is narrower than column `b`: every concurrent change that
/// fails `a` fails `b` (its conflict surface lies within `b`'s), and not
/// the other way round.
pub fn narrower(a: &ColumnResult, b: &ColumnResult) -> bool {
    let (a, b) = (surface(a), surface(b));
    within(&a, &b) && !within(&b, &a)
}

fn surface(c: &ColumnResult) -> Vec<&str> {
    c.conflicts.iter().map(|p| p.path.as_str()).collect()
}

fn blind(c: &ColumnResult) -> Vec<&str> {
    c.overwrites.iter().map(|o| o.path.as_str()).collect()
}

/// Column `a` is as safe as column `b`: whatever `a` overwrites without a
/// test first, `b` overwrites too.
pub fn as_safe(a: &ColumnResult, b: &ColumnResult) -> bool {
    within(&blind(a), &blind(b))
}

fn column_facts(result: &ColumnResult) -> Value {
    let ops: Vec<String> = result
        .ops
        .iter()
        .map(|op| format!("{} {}", op.op, op.path))
        .collect();
    let tests: Vec<&str> = result
        .ops
        .iter()
        .filter(|op| op.kind() == Some(crate::patch::OpKind::Test))
        .map(|op| op.path.as_str())
        .collect();
    let (guarded, unguarded) = guards(
        result
            .ops
            .iter()
            .map(|op| (op.op.as_str(), op.path.as_str())),
    );
    json!({
        "preset": result.label,
        "kind": result.kind.as_str(),
        "ops": ops,
        "tests": tests,
        "guarded": guarded,
        "unguarded": unguarded,
        "conflicts": result.conflicts.iter().map(|c| c.path.as_str()).collect::<Vec<_>>(),
        "overwrites": result.overwrites.iter().map(|o| o.path.as_str()).collect::<Vec<_>>(),
        "round_trip": match result.round_trip {
            RoundTripResult::Exact => "exact",
            RoundTripResult::Refused(_) => "refused",
            RoundTripResult::Differs(_) => "differs",
            RoundTripResult::NotApplicable => "not-applicable",
        },
        "payload": result.texts.as_ref().map(|t| t.payload.to_string()).unwrap_or_default(),
    })
}

/// The facts of a Build state: one entry per result column.
pub fn build(state: &BuildState) -> Value {
    let all = &state.results.columns;
    let columns: Vec<Value> = all
        .iter()
        .map(|result| match &result.error {
            None => {
                let mut facts = column_facts(result);
                let others = |compare: fn(&ColumnResult, &ColumnResult) -> bool| -> Vec<usize> {
                    (0..all.len())
                        .filter(|&j| !std::ptr::eq(&all[j], result) && all[j].error.is_none())
                        .filter(|&j| compare(result, &all[j]))
                        .collect()
                };
                facts["narrower_than"] = json!(others(narrower));
                facts["as_safe_as"] = json!(others(as_safe));
                facts
            }
            Some(e) => json!({"error": e}),
        })
        .collect();
    json!({ "columns": columns })
}

fn step_facts(step: &Step) -> Value {
    let response = step.response.as_ref();
    let cause = response.and_then(|r| r.cause.as_ref());
    let failed = cause.map(|c| {
        format!(
            "{} {}",
            c.op.as_deref().unwrap_or("?"),
            c.path.as_deref().unwrap_or("?")
        )
    });
    let sent: Vec<String> = step
        .request
        .as_ref()
        .map(|r| r.ops.iter().map(|p| op_text(&p.op)).collect())
        .unwrap_or_default();
    let ops: Vec<(&str, &str)> = step
        .request
        .as_ref()
        .map(|r| {
            r.ops
                .iter()
                .map(|p| (p.op.op.as_str(), p.op.path.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let tests: Vec<&str> = ops
        .iter()
        .filter(|(op, _)| *op == "test")
        .map(|(_, p)| *p)
        .collect();
    let (guarded, unguarded) = guards(ops.iter().copied());
    json!({
        "writer": step.writer,
        "event": step.event.as_str(),
        "kind": step.request.as_ref().map(|r| r.kind.as_str()),
        "sent": sent,
        "tests": tests,
        "guarded": guarded,
        "unguarded": unguarded,
        "status": response.map(|r| r.code),
        "reason": response.map(|r| r.reason.as_str()),
        "message": response.map(|r| r.message.as_str()),
        "failed": failed,
        "conflict": step.conflict.map(|c| c.as_str()),
        "kept": step.kept.iter().map(|k| k.writer.as_str()).collect::<Vec<_>>(),
        "intent": step.intent.map(|i| i.as_str()),
        "clashes": step.clashes.iter().map(|k| k.writer.as_str()).collect::<Vec<_>>(),
        "lost": step.lost.iter().map(|l| l.victim.as_str()).collect::<Vec<_>>(),
        "object": step.object,
    })
}

/// The facts of a replay with `at` events happened.
pub fn race(replay: &Replay, at: usize) -> Value {
    let steps: Vec<Value> = replay.steps.iter().map(step_facts).collect();
    let mut writers = Map::new();
    for w in &replay.outcomes.writers {
        let mut facts = serde_json::to_value(w.counts).unwrap_or_default();
        if let Value::Object(map) = &mut facts {
            map.insert("preset".into(), json!(w.label));
            map.insert("intent_holds".into(), json!(w.intent_holds));
            map.insert(
                "end".into(),
                serde_json::to_value(w.end).unwrap_or_default(),
            );
            map.insert(
                "not_held".into(),
                serde_json::to_value(&w.not_held).unwrap_or_default(),
            );
        }
        writers.insert(w.name.clone(), facts);
    }
    let current = at
        .checked_sub(1)
        .and_then(|i| steps.get(i).cloned())
        .unwrap_or(Value::Null);
    json!({
        "at": at,
        "current": current,
        "steps": steps,
        "writers": writers,
        "total": replay.outcomes.total(),
        "lost_updates": replay.outcomes.lost_updates.len(),
        "intents_hold": replay.outcomes.intents_hold,
    })
}

/// The facts of a mass migration.
pub fn scale(result: &MigrateResult) -> Value {
    let mut presets = Map::new();
    for p in &result.presets {
        let mut writers = Map::new();
        for w in &p.writers {
            let mut facts = serde_json::to_value(w.counts).unwrap_or_default();
            if let Value::Object(map) = &mut facts {
                map.insert("intent_not_held".into(), json!(w.intent_not_held));
            }
            writers.insert(w.name.clone(), facts);
        }
        presets.insert(
            p.preset.to_string(),
            json!({
                "total": p.total,
                "vmis_intent_not_held": p.vmis_intent_not_held,
                "writers": writers,
            }),
        );
    }
    json!({ "vms": result.vms, "seed": result.seed, "presets": presets })
}
