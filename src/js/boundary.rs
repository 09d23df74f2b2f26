//! The walks that run on the JavaScript side of the boundary
//! (`src/js/boundary.js`): whether a value crosses as JSON exactly, and
//! the two objects of a diff without their equal members.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, JsString, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::error::{bad_argument, thrown, ErrorBuilder};
use crate::limits::{DEPTH, OBJECT_BYTES};
use crate::pointer::Pointer;
use crate::strategy::Options;
use crate::text::{cut, elide};

#[wasm_bindgen(module = "/src/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = inexact)]
    fn js_inexact(value: &JsValue, depth: u32, budget: u32) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = ownOptions)]
    fn js_own_options(options: &JsValue, known: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = describe)]
    fn js_describe(value: &JsValue) -> String;

    #[wasm_bindgen(js_name = isRecord)]
    fn js_is_record(value: &JsValue) -> JsValue;

    #[wasm_bindgen(catch, js_name = copyOwn)]
    fn js_copy_own(record: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = readOwn)]
    fn js_read_own(record: &JsValue, key: &str) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = stringList)]
    fn js_string_list(list: &JsValue, max: u32, max_text: u32) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = stringMap)]
    fn js_string_map(map: &JsValue, max: u32, max_text: u32) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = simpleDiffOptions)]
    fn js_simple_diff_options(options: &JsValue, presets: &JsValue) -> i32;

    #[wasm_bindgen(catch, js_name = diffResult)]
    fn js_diff_result(text: &str) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = pruneText)]
    fn js_prune_text(
        old: &JsValue,
        new: &JsValue,
        declared: &Function,
        depth: u32,
        budget: u32,
        id: u32,
    ) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The options of the diff being pruned, for [`DECLARED`].
    static PRUNING: RefCell<Option<Rc<Options>>> = const { RefCell::new(None) };
    /// Whether the diff patches the field at a JSON Pointer as one unit
    /// (a declared map, list or struct, or an override): then its members
    /// stay whole. Made once (a closure costs a small diff real time).
    static DECLARED: Closure<dyn FnMut(String) -> bool> = Closure::new(|path: String| {
        PRUNING.with(|options| {
            options.borrow().as_ref().is_none_or(|options| {
                Pointer::parse(&path).map_or(true, |p| options.policy.declared_kind(p).is_some())
            })
        })
    });
}

/// The walks' depth and size budget, as the JSON text's own.
fn budgets() -> (u32, u32) {
    let depth = u32::try_from(DEPTH).unwrap_or(u32::MAX);
    let budget = u32::try_from(OBJECT_BYTES).unwrap_or(u32::MAX);
    (depth, budget)
}

/// The size error of a value whose JSON would exceed the input budget.
pub(super) fn too_large(what: &str) -> JsValue {
    ErrorBuilder::new(
        "too-large",
        &format!(
            "{what} is more than {OBJECT_BYTES} characters of JSON, more than the limit of {OBJECT_BYTES} (4 MiB)"
        ),
    )
    .set("status", 413)
    .build()
}

/// Refuses what `JSON.stringify` would not carry exactly: `NaN`,
/// `Infinity`, `undefined`, functions and symbols (written as `null` or
/// left out), nesting deeper than [`DEPTH`] (or a cycle), and a value
/// whose JSON would exceed [`OBJECT_BYTES`] (checked before the text is
/// built).
///
/// # Errors
///
/// `bad-argument` naming the place (a JSON Pointer into the value) and
/// what is there; `too-large` (413) over the size budget.
pub(super) fn exact(value: &JsValue, what: &str) -> Result<(), JsValue> {
    let (depth, budget) = budgets();
    let found = js_inexact(value, depth, budget).map_err(|err| {
        bad_argument(format!(
            "{what} cannot be written as JSON: {}",
            thrown(&err)
        ))
    })?;
    if found.is_null() {
        return Ok(());
    }
    if let Some(verdict) = found.as_string() {
        return Err(verdict_error(&verdict, what));
    }
    Err(finding_error(what, found.unchecked_ref()))
}

/// The error of a walk's finding `[pointer, what, words]` in the argument
/// `what` (see `inexact` in src/js/boundary.js).
fn finding_error(what: &str, found: &Array) -> JsValue {
    let item = |i: u32| found.get(i).as_string().unwrap_or_default();
    let (at, kind, words) = (item(0), item(1), item(2));
    let place = |verb: &str| {
        if at.is_empty() {
            format!("{what} is {words}")
        } else {
            format!("{what} {verb} {words} at {}", cut(&at, PLACE_CHARS))
        }
    };
    let message = match kind.as_str() {
        "unreadable" if at.is_empty() => format!("{what} cannot be read: {words}"),
        "unreadable" => format!(
            "{what} cannot be read at {}: {words}",
            cut(&at, PLACE_CHARS)
        ),
        "cycle" => format!(
            "{what} holds a cycle: {} refers back to {}, which JSON cannot carry",
            shown(&at),
            shown(&words)
        ),
        "object" => format!(
            "{}, which JSON cannot carry (JSON.stringify would not write what it holds)",
            place("holds")
        ),
        _ if words == "a BigInt" => format!(
            "{}, which JSON cannot carry (JSON.stringify would throw)",
            place("holds")
        ),
        _ => format!(
            "{}, which JSON cannot carry (JSON.stringify would write null or leave it out)",
            place("holds")
        ),
    };
    bad_argument(message)
}

/// How many characters of a place (a JSON Pointer into an argument) a
/// message shows; a longer one is cut, with its length.
const PLACE_CHARS: usize = 200;

/// A pointer in a message: `the value itself` for the root.
fn shown(at: &str) -> String {
    if at.is_empty() {
        "the value itself".to_owned()
    } else {
        cut(at, PLACE_CHARS).into_owned()
    }
}

/// What a value is, in words (`null`, `an array`, `a Map`, `a number`,
/// `an object`): never throws, even for a revoked Proxy.
pub(super) fn describe(value: &JsValue) -> String {
    js_describe(value)
}

/// Whether `value` is an object JSON writes member by member (not null,
/// an array, a Map, a typed array...); else what it is, in words.
pub(super) fn record(value: &JsValue) -> Result<(), String> {
    let verdict = js_is_record(value);
    match verdict.as_string() {
        Some(found) => Err(found),
        None => Ok(()),
    }
}

/// A shallow copy of a record's own enumerable members (each getter read
/// once), for a result that shares the rest.
///
/// # Errors
///
/// `bad-argument` naming `at` when reading a member threw.
pub(super) fn copy_own(record: &JsValue, what: &str, at: &str) -> Result<js_sys::Object, JsValue> {
    let copy = js_copy_own(record).map_err(|err| unreadable(what, at, &err))?;
    if !Array::is_array(&copy) {
        return Ok(copy.unchecked_into());
    }
    let failed: &Array = copy.unchecked_ref();
    let place = match failed.get(0).as_string() {
        Some(key) => format!("{at}/{}", crate::pointer::escape(&key)),
        None => at.to_owned(),
    };
    Err(unreadable(what, &place, &failed.get(1)))
}

/// The own member `key` of `record` (`undefined` when it has none).
///
/// # Errors
///
/// `bad-argument` naming `at` (the member's pointer) when reading it threw.
pub(super) fn read_own(
    record: &JsValue,
    key: &str,
    what: &str,
    at: &str,
) -> Result<JsValue, JsValue> {
    js_read_own(record, key).map_err(|err| unreadable(what, at, &err))
}

fn unreadable(what: &str, at: &str, err: &JsValue) -> JsValue {
    let err = thrown_described(err);
    if at.is_empty() {
        bad_argument(format!("{what} cannot be read: {err}"))
    } else {
        bad_argument(format!(
            "{what} cannot be read at {}: {err}",
            cut(at, PLACE_CHARS).into_owned()
        ))
    }
}

/// `Name: message` of a thrown error (its message alone for a string).
pub(super) fn thrown_described(err: &JsValue) -> String {
    match err.dyn_ref::<js_sys::Error>() {
        Some(e) => format!("{}: {}", String::from(e.name()), String::from(e.message())),
        None => thrown(err),
    }
}

/// A list option read by `stringList` (src/js/boundary.js): its strings,
/// duplicates removed, at most `max` of them, each at most `max_text`
/// long.
pub(super) fn string_list(
    list: &JsValue,
    what: &str,
    max: usize,
    max_text: usize,
) -> Result<Vec<String>, JsValue> {
    let read = js_string_list(list, clamp(max), clamp(max_text))
        .map_err(|err| unreadable(what, "", &err))?;
    if Array::is_array(&read) {
        let read: &Array = read.unchecked_ref();
        return Ok(read.iter().filter_map(|s| s.as_string()).collect());
    }
    let field = |key: &str| Reflect::get(&read, &JsValue::from_str(key)).unwrap_or_default();
    let index = field("index").as_f64().map(|i| i as i64);
    let item = match index {
        Some(i) if i >= 0 => format!("{what}[{i}]"),
        _ => what.to_owned(),
    };
    Err(bad_argument(list_problem(
        &field, &item, what, max, max_text, "values",
    )))
}

/// A map option read by `stringMap` (src/js/boundary.js): its entries, at
/// most `max`, each text at most `max_text` long.
pub(super) fn string_map(
    map: &JsValue,
    what: &str,
    max: usize,
    max_text: usize,
) -> Result<Vec<(String, String)>, JsValue> {
    let read = js_string_map(map, clamp(max), clamp(max_text))
        .map_err(|err| unreadable(what, "", &err))?;
    if Array::is_array(&read) {
        let read: &Array = read.unchecked_ref();
        let texts: Vec<String> = read.iter().filter_map(|s| s.as_string()).collect();
        return Ok(texts
            .chunks_exact(2)
            .map(|pair| (pair[0].clone(), pair[1].clone()))
            .collect());
    }
    let field = |key: &str| Reflect::get(&read, &JsValue::from_str(key)).unwrap_or_default();
    let item = match field("key").as_string() {
        Some(key) => format!("{what}[{:?}]", elide(&key, 64)),
        None => what.to_owned(),
    };
    Err(bad_argument(list_problem(
        &field, &item, what, max, max_text, "entries",
    )))
}

/// The message of a list or map option `stringList` or `stringMap`
/// refused (`field` reads its answer).
fn list_problem(
    field: &dyn Fn(&str) -> JsValue,
    item: &str,
    what: &str,
    max: usize,
    max_text: usize,
    things: &str,
) -> String {
    if let Some(error) = field("error").as_string() {
        return format!("{item} cannot be read: {error}");
    }
    if let Some(length) = field("length").as_f64() {
        return format!("{item} is {length} characters long, more than the limit of {max_text}");
    }
    if let Some(distinct) = field("distinct").as_f64() {
        return format!(
            "{what} has {distinct} or more different values, more than the limit of {max}"
        );
    }
    if let Some(count) = field("count").as_f64() {
        return format!("{what} has {count} {things}, more than the limit of {max}");
    }
    let found = field("found").as_string().unwrap_or_default();
    if item == what {
        let expected = if things == "values" {
            "an array of strings"
        } else {
            "an object"
        };
        format!("{what} must be {expected}, found {found}")
    } else {
        format!("{item} must be a string, found {found}")
    }
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The own values of an options object for the names `known`, in one
/// crossing (see `ownOptions` in `src/js/boundary.js`): an array of the
/// values, the first unknown key (a string), or `{ key, error }` when a
/// getter threw.
pub(super) fn own_options(options: &JsValue, known: &[&str]) -> Result<JsValue, JsValue> {
    thread_local! {
        /// The lists of known names met so far, joined by commas as JS
        /// strings (each caller passes a constant list: made once, not
        /// decoded again on every call).
        static JOINED: RefCell<Vec<(String, JsValue)>> = const { RefCell::new(Vec::new()) };
    }
    JOINED.with(|joined| {
        let mut joined = joined.borrow_mut();
        let at = match joined
            .iter()
            .position(|(j, _)| j.split(',').eq(known.iter().copied()))
        {
            Some(at) => at,
            None => {
                let text = known.join(",");
                let js = JsValue::from_str(&text);
                joined.push((text, js));
                joined.len() - 1
            }
        };
        js_own_options(options, &joined[at].1)
    })
}

fn verdict_error(verdict: &str, what: &str) -> JsValue {
    match verdict {
        "too-large" => too_large(what),
        _ => bad_argument(format!(
            "{what} cannot be written as JSON: it nests deeper than the limit of {DEPTH} levels"
        )),
    }
}

/// The JSON texts of a diff's two objects, old and new, in one string.
pub(super) struct Pruned {
    texts: String,
    /// Where the old object's text ends (a newline follows).
    at: usize,
}

impl Pruned {
    pub(super) fn old_text(&self) -> &str {
        &self.texts[..self.at]
    }

    pub(super) fn new_text(&self) -> &str {
        &self.texts[self.at + 1..]
    }
}

/// The JSON text of the two objects of a diff without the members equal
/// on both sides, wherever the diff under `options` walks member by
/// member (it skips equal members there, so the plan is the same);
/// members of a declared field (a map, a list, a struct: one unit) stay
/// whole. `id` names options kept for reuse (the JS side remembers what
/// is declared for them), 0 options used once. `None` when either object
/// is not a plain object (then the caller reads them whole).
///
/// # Errors
///
/// As [`exact`], for what is kept.
pub(super) fn prune(
    old: &JsValue,
    new: &JsValue,
    options: &Rc<Options>,
    id: u32,
) -> Result<Option<Pruned>, JsValue> {
    let (depth, budget) = budgets();
    PRUNING.with(|slot| *slot.borrow_mut() = Some(Rc::clone(options)));
    let out = DECLARED.with(|declared| {
        js_prune_text(
            old,
            new,
            declared.as_ref().unchecked_ref(),
            depth,
            budget,
            id,
        )
    });
    PRUNING.with(|slot| *slot.borrow_mut() = None);
    let out =
        out.map_err(|err| bad_argument(format!("old or new cannot be read: {}", thrown(&err))))?;
    if out.is_null() {
        return Ok(None);
    }
    if let Some(texts) = out.dyn_ref::<JsString>() {
        let texts = String::from(texts);
        let Some((old, new)) = texts.split_once('\n') else {
            return Err(verdict_error(&texts, "old or new"));
        };
        for (text, what) in [(old, "old"), (new, "new")] {
            if text.len() > OBJECT_BYTES {
                return Err(too_large(what));
            }
        }
        let at = old.len();
        return Ok(Some(Pruned { texts, at }));
    }
    let out: &Array = out.unchecked_ref();
    let side = out.get(3).as_string().unwrap_or_default();
    Err(finding_error(&side, out))
}

/// The result object of `diff` from the text `answer` (src/js/diff.rs)
/// writes, built by `diffResult` in src/js/boundary.js.
///
/// # Errors
///
/// Only if the text is not what `answer` writes (a bug): `internal`.
pub(super) fn diff_result(text: &str) -> Result<JsValue, JsValue> {
    js_diff_result(text).map_err(|err| {
        ErrorBuilder::new(
            "internal",
            &format!(
                "patchlab: the diff's answer could not be read: {}",
                thrown(&err)
            ),
        )
        .build()
    })
}

/// A diff's options when they hold no more than a preset named exactly as
/// in `presets` and a boolean `explain` (see `simpleDiffOptions` in
/// src/js/boundary.js): the preset's index in `presets` (`None`: absent)
/// and `explain`. `None` for anything else, which the general reader
/// ([`super::convert::OptionsReader`]) reads and checks. One crossing and
/// no text: reading options the general way costs a small diff about 3 µs.
pub(super) fn simple_diff_options(
    options: &JsValue,
    presets: &[&str],
) -> Option<(Option<usize>, bool)> {
    thread_local! {
        /// The preset names joined by commas, made once.
        static NAMES: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    }
    let code = NAMES.with(|names| {
        let mut names = names.borrow_mut();
        let names = names.get_or_insert_with(|| JsValue::from_str(&presets.join(",")));
        js_simple_diff_options(options, names)
    });
    let code = usize::try_from(code).ok()?;
    Some(((code / 2).checked_sub(1), code % 2 == 1))
}
