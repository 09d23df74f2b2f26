//! `diff`.

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::boundary::prune;
use super::convert::{bad_argument, document, parse_json, to_js, ErrorBuilder, OptionsReader};
use crate::strategy::{self, parse_path, Body, Options, Plan, Preset, Strategy};

pub(super) fn preset(name: &str, what: &str) -> Result<Preset, JsValue> {
    name.parse()
        .map_err(|e: crate::strategy::UnknownName| bad_argument(format!("{what}: {e}")))
}

thread_local! {
    /// Options per preset and `explain`, built once: a policy holds a dozen
    /// parsed paths, which would cost a small diff a good part of its time.
    static PRESETS: RefCell<Vec<(Preset, bool, Rc<Options>)>> = const { RefCell::new(Vec::new()) };
}

/// The kept options of `preset` with `explain`, and their number (from 1,
/// the same for the same preset and `explain` in every instance; see
/// [`prune`]).
fn cached(preset: Preset, explain: bool) -> (Rc<Options>, u32) {
    let rank = Preset::EVERY.iter().position(|p| *p == preset).unwrap_or(0);
    let id = u32::try_from(rank * 2 + usize::from(explain) + 1).unwrap_or(0);
    PRESETS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, _, options)) = cache.iter().find(|(p, e, _)| *p == preset && *e == explain)
        {
            return (Rc::clone(options), id);
        }
        let mut options = Options::preset(preset);
        options.explain = explain;
        let options = Rc::new(options);
        cache.push((preset, explain, Rc::clone(&options)));
        (options, id)
    })
}

/// The options of a diff, and their number when kept (0 when built for
/// this call only).
fn diff_options(value: Option<JsValue>) -> Result<(Rc<Options>, u32), JsValue> {
    let opts = OptionsReader::new(
        value,
        "options",
        &[
            "preset",
            "overrides",
            "fieldManager",
            "mergeResourceVersion",
            "explain",
        ],
    )?;
    let preset = match opts.string("preset")? {
        Some(name) => preset(&name, "options.preset")?,
        None => Preset::default(),
    };
    let field_manager = opts.string("fieldManager")?;
    let merge_resource_version = opts.boolean("mergeResourceVersion")?.unwrap_or(false);
    let explain = opts.boolean("explain")?.unwrap_or(true);
    let overrides = opts.string_map("overrides")?.unwrap_or_default();
    if overrides.is_empty() && field_manager.is_none() && !merge_resource_version {
        return Ok(cached(preset, explain));
    }
    let mut options = Options::preset(preset);
    if let Some(manager) = field_manager {
        options.field_manager = manager;
    }
    options.merge_resource_version = merge_resource_version;
    options.explain = explain;
    for (path, strategy) in overrides {
        let what = format!("options.overrides[{path:?}]");
        let strategy: Strategy = strategy
            .parse()
            .map_err(|e: crate::strategy::UnknownName| bad_argument(format!("{what}: {e}")))?;
        if strategy.is_whole_object() {
            return Err(bad_argument(format!(
                "{what}: {strategy} applies to the whole object: use options.preset"
            )));
        }
        let pointer = parse_path(&path).map_err(|e| {
            ErrorBuilder::new("invalid-pointer", &format!("{what}: {e}"))
                .set("path", path.as_str())
                .build()
        })?;
        options.policy.set_strategy(pointer, strategy);
    }
    Ok((Rc::new(options), 0))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiffOut<'a> {
    preset: &'a str,
    content_type: &'a str,
    empty: bool,
    /// Set after the conversion (see [`diff`]): JSON text inside JSON
    /// would be escaped and unescaped for nothing.
    body: (),
    ops: Option<Vec<OpOut<'a>>>,
    fields: Vec<FieldOut<'a>>,
    conflicts: Vec<PathReason<'a>>,
    overwrites: Vec<PathReason<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct OpOut<'a> {
    op: &'a str,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a Value>,
    reason: &'a str,
    field: &'a str,
    strategy: &'a str,
}

#[derive(Serialize)]
struct FieldOut<'a> {
    path: &'a str,
    kind: &'a str,
    strategy: &'a str,
    change: &'a str,
}

#[derive(Serialize)]
struct PathReason<'a> {
    path: &'a str,
    reason: &'a str,
}

fn diff_out(plan: &Plan) -> DiffOut<'_> {
    let ops = match &plan.body {
        Body::JsonPatch(ops) => Some(
            ops.iter()
                .map(|planned| OpOut {
                    op: planned.op.op.as_str(),
                    path: &planned.op.path,
                    from: planned.op.from.as_deref(),
                    value: planned
                        .op
                        .value
                        .as_ref()
                        .filter(|_| planned.op.op.takes_value()),
                    reason: &planned.reason,
                    field: planned.field.as_str(),
                    strategy: planned.strategy.as_str(),
                })
                .collect(),
        ),
        _ => None,
    };
    DiffOut {
        preset: plan.preset.as_str(),
        content_type: plan.body.content_type(),
        empty: plan.is_empty(),
        body: (),
        ops,
        fields: plan
            .fields
            .iter()
            .map(|f| FieldOut {
                path: f.path.as_str(),
                kind: f.kind.as_str(),
                strategy: f.strategy.as_str(),
                change: f.change.as_str(),
            })
            .collect(),
        conflicts: plan
            .conflicts
            .iter()
            .map(|c| PathReason {
                path: &c.path,
                reason: &c.reason,
            })
            .collect(),
        overwrites: plan
            .overwrites
            .iter()
            .map(|o| PathReason {
                path: &o.path,
                reason: &o.reason,
            })
            .collect(),
        notes: &plan.notes,
    }
}

/// What a writer sends to turn `old` into `new` under a preset (and
/// per-path overrides): the ops with their reasons, the changed fields,
/// the conflict surface and what it would overwrite. `old` and `new` are
/// objects, or JSON or YAML text.
#[wasm_bindgen(unchecked_return_type = "DiffResult")]
pub fn diff(
    #[wasm_bindgen(js_name = oldObject, unchecked_param_type = "Json | string")] old: JsValue,
    #[wasm_bindgen(js_name = newObject, unchecked_param_type = "Json | string")] new: JsValue,
    #[wasm_bindgen(unchecked_param_type = "DiffOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let (options, id) = diff_options(options)?;
    // Field by field, the diff skips members equal on both sides: leave
    // them in JS (a walk there costs less than their trip into wasm).
    // Whole-object presets need the whole objects.
    let pruned = match options.policy.preset.whole_object() {
        None => prune(&old, &new, &options, id)?,
        Some(_) => None,
    };
    let (old, new) = match pruned {
        Some((old, new)) => (parse_json(&old, "old")?, parse_json(&new, "new")?),
        None => (document(&old, "old", true)?, document(&new, "new", true)?),
    };
    let plan = strategy::diff(&old, &new, &options)
        .map_err(|e| ErrorBuilder::new("diff-failed", &e.to_string()).build())?;
    let out = to_js(&diff_out(&plan))?;
    js_sys::Reflect::set(
        &out,
        &JsValue::from_str("body"),
        &JsValue::from_str(&plan.body_text()),
    )?;
    Ok(out)
}
