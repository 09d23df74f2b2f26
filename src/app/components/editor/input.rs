//! What the editor does with keys and edits: its own undo history, Tab
//! that indents (and Esc then Tab that leaves), Ctrl+M, texts set from
//! code as undo steps, and the coloured copy scrolled with the text.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

use super::TabMode;
use crate::app::browser;
use crate::app::edit_history::{first_difference, Change, EditHistory, EditPoint};

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

/// The textarea's text and selection.
fn point_of(area: &HtmlTextAreaElement) -> EditPoint {
    let start = area.selection_start().ok().flatten().unwrap_or(0);
    let end = area.selection_end().ok().flatten().unwrap_or(start);
    EditPoint {
        text: Rc::from(area.value()),
        selection: (start, end),
    }
}

/// The change an `input` event made, for the history.
fn change_of(kind: &str) -> Change {
    match kind {
        "insertText" | "insertLineBreak" | "deleteContentBackward" | "deleteContentForward" => {
            Change::Typing
        }
        _ => Change::Other,
    }
}

/// The text of `text`, shared (a view's text is an `Rc` already).
fn shared(text: &AttrValue) -> Rc<str> {
    match text {
        AttrValue::Rc(text) => Rc::clone(text),
        AttrValue::Static(text) => Rc::from(*text),
    }
}

/// True when `shown` is the text `text` holds (the same `Rc` at once).
fn same(shown: &Option<Rc<str>>, text: &AttrValue) -> bool {
    match (shown, text) {
        (Some(shown), AttrValue::Rc(text)) if Rc::ptr_eq(shown, text) => true,
        (Some(shown), text) => **shown == **text,
        (None, _) => false,
    }
}

/// The textarea's `input` and `keydown` handlers. The textarea is
/// uncontrolled: its text is written only when `text` differs from what it
/// last reported (an example, a format, an undo), never read back on
/// render. A keystroke copies the text once, out of the browser; the
/// history, the view's state and the next render share that copy.
#[hook]
pub fn use_editor_input(
    textarea: NodeRef,
    text: AttrValue,
    tab_mode: TabMode,
    ontabmode: Callback<TabMode>,
    onchange: Callback<Rc<str>>,
) -> (Callback<InputEvent>, Callback<KeyboardEvent>) {
    let shown = use_mut_ref(|| None::<Rc<str>>);
    let history = use_mut_ref(EditHistory::default);
    // Esc was pressed: the next Tab leaves the editor.
    let escaped = use_mut_ref(|| false);
    {
        let (textarea, shown, history) = (textarea.clone(), shown.clone(), history.clone());
        use_effect_with(text, move |text| {
            if !same(&shown.borrow(), text) {
                if let Some(area) = textarea.cast::<HtmlTextAreaElement>() {
                    // A text from code (a format, an example, a swap) is an
                    // undo step like any other change.
                    if let Some(before) = shown.borrow().clone() {
                        let selection = point_of(&area).selection;
                        let before = EditPoint {
                            text: before,
                            selection,
                        };
                        history
                            .borrow_mut()
                            .record(before, Change::Other, 0, now(), false);
                    }
                    area.set_value(text);
                    let _ = area.set_selection_range(0, 0);
                    // A text put in place of another starts at its top. A
                    // new textarea is there already, and setting its
                    // scroll position would lay the page out in the
                    // middle of the first render.
                    if shown.borrow().is_some() {
                        area.set_scroll_top(0);
                    }
                }
                *shown.borrow_mut() = Some(shared(text));
            }
        });
    }
    // Puts a point of the history in place, as an edit.
    let apply = {
        let (onchange, shown) = (onchange.clone(), shown.clone());
        move |area: &HtmlTextAreaElement, point: EditPoint| {
            area.set_value(&point.text);
            let _ = area.set_selection_range(point.selection.0, point.selection.1);
            *shown.borrow_mut() = Some(Rc::clone(&point.text));
            onchange.emit(point.text);
        }
    };
    let oninput = {
        let (shown, history) = (shown.clone(), history.clone());
        Callback::from(move |event: InputEvent| {
            let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let text: Rc<str> = Rc::from(area.value());
            let before = shown.borrow().clone().unwrap_or_else(|| Rc::from(""));
            let at = first_difference(&before, &text);
            // Scripts may send a plain `Event("input")`, without inputType.
            let kind = js_sys::Reflect::get(&event, &"inputType".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let point = EditPoint {
                text: before,
                selection: (at, at),
            };
            history.borrow_mut().record(
                point,
                change_of(&kind),
                at,
                now(),
                kind == "insertLineBreak",
            );
            *shown.borrow_mut() = Some(Rc::clone(&text));
            onchange.emit(text);
        })
    };
    let onkeydown = Callback::from(move |event: KeyboardEvent| {
        keydown(&event, tab_mode, &ontabmode, &escaped, &history, &apply);
    });
    (oninput, onkeydown)
}

fn keydown(
    event: &KeyboardEvent,
    mode: TabMode,
    ontabmode: &Callback<TabMode>,
    escaped: &Rc<RefCell<bool>>,
    history: &Rc<RefCell<EditHistory>>,
    apply: &impl Fn(&HtmlTextAreaElement, EditPoint),
) {
    let key = event.key();
    if key == "Escape" {
        *escaped.borrow_mut() = true;
        return;
    }
    let leave = std::mem::take(&mut *escaped.borrow_mut());
    let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() else {
        return;
    };
    let code = event.code();
    let command = (event.ctrl_key() || event.meta_key()) && !event.alt_key();
    if command && (code == "KeyZ" || code == "KeyY") {
        event.prevent_default();
        let current = point_of(&area);
        let target = if code == "KeyY" || event.shift_key() {
            history.borrow_mut().redo(current)
        } else {
            history.borrow_mut().undo(current)
        };
        if let Some(point) = target {
            apply(&area, point);
        }
        return;
    }
    if event.ctrl_key() && !event.alt_key() && !event.meta_key() && code == "KeyM" {
        event.prevent_default();
        ontabmode.emit(mode.toggled());
        return;
    }
    let plain = !event.alt_key() && !event.ctrl_key() && !event.meta_key() && !event.shift_key();
    if key != "Tab" || !plain || leave || mode == TabMode::MoveFocus {
        return;
    }
    event.prevent_default();
    let before = point_of(&area);
    history.borrow_mut().record(
        before.clone(),
        Change::Other,
        before.selection.0,
        now(),
        false,
    );
    let text = &before.text;
    let start = browser::utf16_to_byte(text, before.selection.0 as usize);
    let end = browser::utf16_to_byte(text, before.selection.1 as usize).max(start);
    let caret = before.selection.0 + 2;
    apply(
        &area,
        EditPoint {
            text: Rc::from(format!("{}  {}", &text[..start], &text[end..])),
            selection: (caret, caret),
        },
    );
}

/// Scrolls the coloured copy and the line numbers with the textarea.
#[hook]
pub fn use_scroll_sync(textarea: NodeRef, backdrop: NodeRef, gutter: NodeRef) -> Callback<Event> {
    Callback::from(move |_: Event| {
        if let Some(area) = textarea.cast::<Element>() {
            for other in [backdrop.cast::<Element>(), gutter.cast::<Element>()]
                .into_iter()
                .flatten()
            {
                other.set_scroll_top(area.scroll_top());
            }
            if let Some(b) = backdrop.cast::<Element>() {
                b.set_scroll_left(area.scroll_left());
            }
        }
    })
}
