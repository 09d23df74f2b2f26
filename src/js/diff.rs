//! `diff`.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::boundary::{diff_result, prune, simple_diff_options};
use super::convert::{bad_argument, cluster_of, document, parse_json, ErrorBuilder, OptionsReader};
use crate::strategy::{
    self, dotted_path_problem, parse_path, Body, Options, Plan, Preset, Strategy,
};

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
    if let Some(options) = &value {
        let names = Preset::EVERY.map(Preset::as_str);
        if let Some((index, explain)) = simple_diff_options(options, &names) {
            let preset = match index {
                Some(index) => Preset::EVERY.get(index).copied(),
                None => Some(Preset::default()),
            };
            if let Some(preset) = preset {
                return Ok(cached(preset, explain));
            }
        }
    }
    let opts = OptionsReader::new(
        value,
        "options",
        &[
            "preset",
            "overrides",
            "fieldManager",
            "mergeResourceVersion",
            "explain",
            "kubeVersion",
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
    let kube_version = opts.string("kubeVersion")?;
    let plain = overrides.is_empty() && field_manager.is_none() && !merge_resource_version;
    if plain && kube_version.is_none() {
        return Ok(cached(preset, explain));
    }
    let mut options = Options::preset(preset);
    options.kubernetes = cluster_of(kube_version.as_deref(), None)?.version;
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
        if let Some(problem) = dotted_path_problem(&path) {
            return Err(ErrorBuilder::new(
                "invalid-pointer",
                &format!("options.overrides: {problem}"),
            )
            .set("path", path.as_str())
            .build());
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

/// The items of [`answer`]: strings joined by U+0001 (no string holds
/// it), else one JSON array of them; the op values go last as one JSON
/// array (text after the separator, an array in the JSON form).
struct Items {
    out: String,
    json: bool,
    /// A string held U+0001: the separated form cannot carry it.
    clash: bool,
}

impl Items {
    const SEPARATOR: u8 = 1;

    fn item(&mut self, s: &str) {
        if self.json {
            // A &str always serializes.
            self.out
                .push_str(&serde_json::to_string(s).unwrap_or_default());
            self.out.push(',');
        } else {
            self.clash |= s.bytes().any(|b| b == Self::SEPARATOR);
            self.out.push_str(s);
            self.out.push(char::from(Self::SEPARATOR));
        }
    }

    fn count(&mut self, n: usize) {
        self.item(&n.to_string());
    }
}

/// The items of a plan in the order `diffResult` (src/js/boundary.js)
/// reads them: preset, content type, empty (`1`/`0`), body, the number of
/// ops (empty: not a JSON Patch), 7 per op (op, path, from: empty when
/// absent else `=` and the pointer, `1` when a value follows, reason,
/// field, strategy), the number of fields and 4 per field (path, kind,
/// strategy, change), the conflicts and the overwrites (a number, then
/// path and reason each), the notes (a number, then each).
fn write_items<'a>(plan: &'a Plan, body: &str, items: &mut Items) -> Vec<&'a Value> {
    items.item(plan.preset.as_str());
    items.item(plan.body.content_type());
    items.item(if plan.is_empty() { "1" } else { "0" });
    items.item(body);
    let mut values = Vec::new();
    match &plan.body {
        Body::JsonPatch(ops) => {
            items.count(ops.len());
            for planned in ops {
                let op = &planned.op;
                items.item(op.op.as_str());
                items.item(&op.path);
                match &op.from {
                    Some(from) => items.item(&format!("={from}")),
                    None => items.item(""),
                }
                match op.value.as_ref().filter(|_| op.op.takes_value()) {
                    Some(value) => {
                        items.item("1");
                        values.push(value);
                    }
                    None => items.item(""),
                }
                items.item(&planned.reason);
                items.item(planned.field.as_str());
                items.item(planned.strategy.as_str());
            }
        }
        _ => items.item(""),
    }
    items.count(plan.fields.len());
    for field in &plan.fields {
        items.item(field.path.as_str());
        items.item(field.kind.as_str());
        items.item(field.strategy.as_str());
        items.item(field.change.as_str());
    }
    items.count(plan.conflicts.len());
    for c in &plan.conflicts {
        items.item(&c.path);
        items.item(&c.reason);
    }
    items.count(plan.overwrites.len());
    for o in &plan.overwrites {
        items.item(&o.path);
        items.item(&o.reason);
    }
    items.count(plan.notes.len());
    for note in &plan.notes {
        items.item(note);
    }
    values
}

/// The answer of [`diff`] as one text for `diffResult`, which builds the
/// result objects in JavaScript: object literals of a known shape cost
/// far less there than `JSON.parse` of the same members with their keys
/// (half the time at 10 KB; see docs/performance.md), and the text is a
/// third shorter.
fn answer(plan: &Plan) -> Result<String, JsValue> {
    let body = plan.body_text();
    let mut items = Items {
        out: String::with_capacity(1024 + body.len()),
        json: false,
        clash: false,
    };
    let values = write_items(plan, &body, &mut items);
    if items.clash {
        items = Items {
            out: String::from("["),
            json: true,
            clash: false,
        };
        write_items(plan, &body, &mut items);
    }
    let values = serde_json::to_string(&values).map_err(|e| {
        JsValue::from(js_sys::Error::new(&format!(
            "patchlab: result conversion: {e}"
        )))
    })?;
    items.out.push_str(&values);
    if items.json {
        items.out.push(']');
    }
    Ok(items.out)
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
        Some(texts) => (
            parse_json(texts.old_text(), "old")?,
            parse_json(texts.new_text(), "new")?,
        ),
        None => (document(&old, "old", true)?, document(&new, "new", true)?),
    };
    let plan = strategy::diff(&old, &new, &options)
        .map_err(|e| ErrorBuilder::new("diff-failed", &e.to_string()).build())?;
    diff_result(&answer(&plan)?)
}
