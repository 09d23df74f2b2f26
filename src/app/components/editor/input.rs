//! What the editor does with keys and edits: its own undo history, Tab
//! that indents (and Esc then Tab that leaves), Ctrl+M, texts set from
//! code as undo steps, and the coloured copy scrolled with the text.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

use super::TabMode;
use crate::app::browser;
use crate::app::edit_history::{first_difference, Change, EditHistory, Snapshot};

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

/// The textarea's text and selection.
fn snapshot_of(area: &HtmlTextAreaElement) -> Snapshot {
    let start = area.selection_start().ok().flatten().unwrap_or(0);
    let end = area.selection_end().ok().flatten().unwrap_or(start);
    Snapshot {
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

/// The textarea's `input` and `keydown` handlers. The textarea is
/// uncontrolled: its text is written only when `text` differs from what it
/// last reported (an example, a format, an undo), never read back on
/// render.
#[hook]
pub fn use_editor_input(
    textarea: NodeRef,
    text: AttrValue,
    tab_mode: TabMode,
    ontabmode: Callback<TabMode>,
    onchange: Callback<String>,
) -> (Callback<InputEvent>, Callback<KeyboardEvent>) {
    let shown = use_mut_ref(|| None::<AttrValue>);
    let history = use_mut_ref(EditHistory::default);
    // Esc was pressed: the next Tab leaves the editor.
    let escaped = use_mut_ref(|| false);
    {
        let (textarea, shown, history) = (textarea.clone(), shown.clone(), history.clone());
        use_effect_with(text, move |text| {
            if shown.borrow().as_ref() != Some(text) {
                if let Some(area) = textarea.cast::<HtmlTextAreaElement>() {
                    // A text from code (a format, an example, a swap) is an
                    // undo step like any other change.
                    if shown.borrow().is_some() && area.value() != **text {
                        let before = snapshot_of(&area);
                        history
                            .borrow_mut()
                            .record(before, Change::Other, 0, now(), false);
                    }
                    area.set_value(text);
                    let _ = area.set_selection_range(0, 0);
                    area.set_scroll_top(0);
                }
                *shown.borrow_mut() = Some(text.clone());
            }
        });
    }
    // Puts a snapshot in place, as an edit.
    let apply = {
        let (onchange, shown) = (onchange.clone(), shown.clone());
        move |area: &HtmlTextAreaElement, snapshot: Snapshot| {
            area.set_value(&snapshot.text);
            let _ = area.set_selection_range(snapshot.selection.0, snapshot.selection.1);
            *shown.borrow_mut() = Some(AttrValue::from(snapshot.text.to_string()));
            onchange.emit(snapshot.text.to_string());
        }
    };
    let oninput = {
        let (shown, history) = (shown.clone(), history.clone());
        Callback::from(move |event: InputEvent| {
            let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let text = area.value();
            let before = shown.borrow().clone().unwrap_or_default();
            let at = first_difference(&before, &text);
            // Scripts may send a plain `Event("input")`, without inputType.
            let kind = js_sys::Reflect::get(&event, &"inputType".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let snapshot = Snapshot {
                text: Rc::from(before.as_str()),
                selection: (at, at),
            };
            history.borrow_mut().record(
                snapshot,
                change_of(&kind),
                at,
                now(),
                kind == "insertLineBreak",
            );
            *shown.borrow_mut() = Some(AttrValue::from(text.clone()));
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
    apply: &impl Fn(&HtmlTextAreaElement, Snapshot),
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
        let current = snapshot_of(&area);
        let target = if code == "KeyY" || event.shift_key() {
            history.borrow_mut().redo(current)
        } else {
            history.borrow_mut().undo(current)
        };
        if let Some(snapshot) = target {
            apply(&area, snapshot);
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
    let before = snapshot_of(&area);
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
        Snapshot {
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
