//! A code editor: a textarea over a coloured copy of its text, with line
//! numbers and the parse error's line marked. Plain text only: no HTML is
//! ever built from what the user types.
//!
//! It never traps the keyboard: Tab indents, but Esc then Tab leaves, and
//! Ctrl+M (or the button above the editor) makes Tab move focus. It keeps
//! its own undo history ([`EditHistory`]), so Ctrl+Z undoes typing in
//! steps, and indenting, formatting and loads from code too.

use wasm_bindgen::JsCast;
use web_sys::{ClipboardEvent, DataTransfer, DragEvent, Element, HtmlTextAreaElement};
use yew::prelude::*;

use crate::app::browser;
use crate::app::edit_history::{first_difference, Change, EditHistory, Snapshot};
use crate::app::highlight::{highlight, Kind, MAX_HIGHLIGHT};
use crate::app::paste_guard::refuse_insert;
use crate::input::{Budget, Format, InputError};

/// What the Tab key does in an editor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TabMode {
    /// Tab inserts two spaces (Esc, then Tab, still leaves).
    #[default]
    Indent,
    /// Tab moves focus, as everywhere else on the page.
    MoveFocus,
}

impl TabMode {
    /// The other mode.
    pub fn toggled(self) -> TabMode {
        match self {
            TabMode::Indent => TabMode::MoveFocus,
            TabMode::MoveFocus => TabMode::Indent,
        }
    }

    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            TabMode::Indent => "indent",
            TabMode::MoveFocus => "focus",
        }
    }

    /// Reads a stored value.
    pub fn parse(s: &str) -> TabMode {
        if s == "focus" {
            TabMode::MoveFocus
        } else {
            TabMode::Indent
        }
    }
}

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
        text: std::rc::Rc::from(area.value()),
        selection: (start, end),
    }
}

/// Shows `snapshot` in the textarea.
fn restore(area: &HtmlTextAreaElement, snapshot: &Snapshot) {
    area.set_value(&snapshot.text);
    let _ = area.set_selection_range(snapshot.selection.0, snapshot.selection.1);
}

#[derive(PartialEq, Properties)]
pub struct EditorProps {
    /// The accessible name ("Old object").
    pub label: AttrValue,
    /// Element id.
    pub id: AttrValue,
    /// The text.
    pub text: AttrValue,
    /// How to colour it.
    pub format: Format,
    /// The parse error, if any.
    pub error: Option<InputError>,
    /// What Tab does.
    pub tab_mode: TabMode,
    /// Switch what Tab does (Ctrl+M).
    pub ontabmode: Callback<TabMode>,
    /// Called with the new text on every edit.
    pub onchange: Callback<String>,
}

#[component]
pub fn Editor(props: &EditorProps) -> Html {
    let textarea = use_node_ref();
    let backdrop = use_node_ref();
    let gutter = use_node_ref();
    // The textarea is uncontrolled: its text is written only when the
    // prop differs from what it last reported (an example, a format, an
    // undo), never read back on render.
    let shown = use_mut_ref(|| None::<AttrValue>);
    // Esc was pressed: the next Tab leaves the editor.
    let escaped = use_mut_ref(|| false);
    let history = use_mut_ref(EditHistory::default);

    {
        let (textarea, shown, history) = (textarea.clone(), shown.clone(), history.clone());
        use_effect_with(props.text.clone(), move |text| {
            if shown.borrow().as_ref() != Some(text) {
                if let Some(area) = textarea.cast::<HtmlTextAreaElement>() {
                    // A text from code (a format, an example, a swap) is
                    // an undo step like any other change.
                    if shown.borrow().is_some() && area.value() != **text {
                        history.borrow_mut().record(
                            snapshot_of(&area),
                            Change::Other,
                            0,
                            now(),
                            false,
                        );
                    }
                    area.set_value(text);
                    let _ = area.set_selection_range(0, 0);
                    area.set_scroll_top(0);
                }
                *shown.borrow_mut() = Some(text.clone());
            }
        });
    }

    let refused = use_state(|| None::<String>);
    let guard = {
        let (text, refused) = (props.text.clone(), refused.clone());
        move |event: &Event, inserted: Option<usize>| {
            let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let Some(inserted) = inserted else { return };
            let start = area.selection_start().ok().flatten().unwrap_or(0) as usize;
            let end = area.selection_end().ok().flatten().unwrap_or(0) as usize;
            match refuse_insert(&text, start, end, inserted) {
                Some(why) => {
                    event.prevent_default();
                    refused.set(Some(why));
                }
                None => refused.set(None),
            }
        }
    };
    let onpaste = {
        let guard = guard.clone();
        Callback::from(move |event: Event| {
            let data = event
                .dyn_ref::<ClipboardEvent>()
                .and_then(ClipboardEvent::clipboard_data);
            guard(&event, data.as_ref().and_then(inserted_bytes));
        })
    };
    let ondrop = Callback::from(move |event: DragEvent| {
        guard(
            &event,
            event.data_transfer().as_ref().and_then(inserted_bytes),
        );
    });

    let oninput = {
        let (onchange, shown, refused, history) = (
            props.onchange.clone(),
            shown.clone(),
            refused.clone(),
            history.clone(),
        );
        Callback::from(move |event: InputEvent| {
            if refused.is_some() {
                refused.set(None);
            }
            if let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() {
                let text = area.value();
                let before = shown.borrow().clone().unwrap_or_default();
                let at = first_difference(&before, &text);
                let kind = event.input_type();
                let change = match kind.as_str() {
                    "insertText"
                    | "insertLineBreak"
                    | "deleteContentBackward"
                    | "deleteContentForward" => Change::Typing,
                    _ => Change::Other,
                };
                history.borrow_mut().record(
                    Snapshot {
                        text: std::rc::Rc::from(before.as_str()),
                        selection: (at, at),
                    },
                    change,
                    at,
                    now(),
                    kind == "insertLineBreak",
                );
                *shown.borrow_mut() = Some(AttrValue::from(text.clone()));
                onchange.emit(text);
            }
        })
    };
    // Puts a snapshot from the history in place, as an edit.
    let apply = {
        let (onchange, shown) = (props.onchange.clone(), shown.clone());
        move |area: &HtmlTextAreaElement, snapshot: Snapshot| {
            restore(area, &snapshot);
            *shown.borrow_mut() = Some(AttrValue::from(snapshot.text.to_string()));
            onchange.emit(snapshot.text.to_string());
        }
    };
    let onscroll = {
        let (textarea, backdrop, gutter) = (textarea.clone(), backdrop.clone(), gutter.clone());
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
    };
    let onkeydown = {
        let (mode, ontabmode, escaped, history) = (
            props.tab_mode,
            props.ontabmode.clone(),
            escaped.clone(),
            history.clone(),
        );
        Callback::from(move |event: KeyboardEvent| {
            let key = event.key();
            let command = (event.ctrl_key() || event.meta_key()) && !event.alt_key();
            let plain = !event.alt_key() && !event.ctrl_key() && !event.meta_key();
            if key == "Escape" {
                *escaped.borrow_mut() = true;
                return;
            }
            let leave = std::mem::take(&mut *escaped.borrow_mut());
            let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let code = event.code();
            if command && (code == "KeyZ" || code == "KeyY") {
                event.prevent_default();
                let redo = code == "KeyY" || event.shift_key();
                let current = snapshot_of(&area);
                let target = if redo {
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
            if key != "Tab" || !plain || event.shift_key() || leave || mode == TabMode::MoveFocus {
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
            let (start, end) = (
                browser::utf16_to_byte(text, before.selection.0 as usize),
                browser::utf16_to_byte(text, before.selection.1 as usize),
            );
            let caret = before.selection.0 + 2;
            apply(
                &area,
                Snapshot {
                    text: std::rc::Rc::from(format!(
                        "{}  {}",
                        &text[..start],
                        &text[end.max(start)..]
                    )),
                    selection: (caret, caret),
                },
            );
        })
    };

    let text = props.text.as_str();
    let lines = text.split('\n').count().max(1);
    let error_line = props.error.as_ref().and_then(|e| e.line);
    let plain = text.len() > MAX_HIGHLIGHT;
    let error_id = format!("{}-error", props.id);
    let hint_id = format!("{}-keys", props.id);
    let described = match &props.error {
        Some(_) => format!("{error_id} {hint_id}"),
        None => hint_id.clone(),
    };
    let toggle = {
        let (mode, ontabmode) = (props.tab_mode, props.ontabmode.clone());
        Callback::from(move |_: MouseEvent| ontabmode.emit(mode.toggled()))
    };

    html! {
        <div class={classes!("editor", props.error.is_some().then_some("has-error"), plain.then_some("plain"))}>
            <div class="editor-keys">
                <span id={hint_id}>{ match props.tab_mode {
                    TabMode::Indent => "Tab indents · Esc then Tab leaves",
                    TabMode::MoveFocus => "Tab moves focus",
                } }</span>
                <button type="button" class="link tab-mode" aria-pressed={(props.tab_mode == TabMode::MoveFocus).to_string()}
                    onclick={toggle}>{ "Tab moves focus" }<kbd aria-hidden="true">{ "Ctrl+M" }</kbd></button>
            </div>
            <div class="editor-body">
                // Line numbers as (at most) three text nodes, whatever the length.
                <pre class="gutter" ref={gutter} aria-hidden="true">
                    { numbers(1, error_line.map_or(lines, |l| l.saturating_sub(1).min(lines))) }
                    if let Some(line) = error_line.filter(|l| *l <= lines) {
                        <span class="ln-error">{ format!("{line}\n") }</span>
                        { numbers(line + 1, lines) }
                    }
                </pre>
                <div class="code">
                    <pre class="backdrop" ref={backdrop} aria-hidden="true">
                        if !plain {
                            { for highlight(text, props.format).into_iter().map(|(kind, range)| {
                                let piece = text[range].to_owned();
                                if kind == Kind::Plain {
                                    html! { { piece } }
                                } else {
                                    html! { <span class={kind.class()}>{ piece }</span> }
                                }
                            }) }
                        }
                        // A trailing newline needs a line to show.
                        { "\n" }
                    </pre>
                    <textarea
                        ref={textarea}
                        id={props.id.clone()}
                        class="input"
                        aria-label={props.label.clone()}
                        aria-invalid={props.error.is_some().then_some("true")}
                        aria-describedby={described}
                        spellcheck="false"
                        autocapitalize="off"
                        autocomplete="off"
                        wrap="off"
                        {oninput}
                        {onscroll}
                        {onkeydown}
                        {onpaste}
                        {ondrop}
                    />
                </div>
            </div>
            if let Some(why) = &*refused {
                <p class="parse-error refused" role="alert">{ why }</p>
            }
            if let Some(error) = &props.error {
                <p class="parse-error" id={error_id} role="alert">{ error.to_string() }</p>
            }
        </div>
    }
}

/// The UTF-8 size of the text a paste or drop carries, copying it into
/// wasm only when its UTF-16 length leaves the answer open.
fn inserted_bytes(data: &DataTransfer) -> Option<usize> {
    let get = js_sys::Reflect::get(data, &"getData".into()).ok()?;
    let text: js_sys::JsString = get
        .dyn_into::<js_sys::Function>()
        .ok()?
        .call1(data, &"text/plain".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let units = text.length() as usize;
    // One UTF-16 unit is 1 to 3 UTF-8 bytes: past the budget in units, the
    // paste is refused whatever its bytes (named as a lower bound).
    if units > Budget::OBJECT_BYTES {
        return Some(units);
    }
    String::from(text).len().into()
}

/// "from\n...\nto\n" (empty when from > to).
fn numbers(from: usize, to: usize) -> String {
    let mut out = String::new();
    for n in from..=to {
        out.push_str(itoa::Buffer::new().format(n));
        out.push('\n');
    }
    out
}
