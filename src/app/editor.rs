//! A code editor: a textarea over a coloured copy of its text, with line
//! numbers and the parse error's line marked. Plain text only: no HTML is
//! ever built from what the user types.

use wasm_bindgen::JsCast;
use web_sys::{ClipboardEvent, DataTransfer, DragEvent, Element, HtmlTextAreaElement};
use yew::prelude::*;

use super::build::refuse_insert;
use super::highlight::{highlight, Kind, MAX_HIGHLIGHT};
use crate::input::{Budget, Format, InputError};

#[derive(PartialEq, Properties)]
pub struct EditorProps {
    /// The accessible name ("Old object").
    pub label: AttrValue,
    /// Element id prefix.
    pub id: AttrValue,
    /// The text.
    pub text: AttrValue,
    /// How to colour it.
    pub format: Format,
    /// The parse error, if any.
    pub error: Option<InputError>,
    /// Called with the new text on every edit.
    pub onchange: Callback<String>,
}

#[component]
pub fn Editor(props: &EditorProps) -> Html {
    let textarea = use_node_ref();
    let backdrop = use_node_ref();
    let gutter = use_node_ref();
    // The textarea is uncontrolled: its text is written only when the
    // prop differs from what it last reported (an example, a format
    // conversion, an undo), never read back on render. Reading a big
    // textarea costs a copy into wasm on every render.
    let shown = use_mut_ref(|| None::<AttrValue>);

    {
        let (textarea, shown) = (textarea.clone(), shown.clone());
        use_effect_with(props.text.clone(), move |text| {
            if shown.borrow().as_ref() != Some(text) {
                if let Some(area) = textarea.cast::<HtmlTextAreaElement>() {
                    area.set_value(text);
                }
                *shown.borrow_mut() = Some(text.clone());
            }
        });
    }

    // A paste or drop that would take the text over the input budget is
    // stopped: the browser would freeze for seconds laying it out only for
    // the parser to refuse it.
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
        let onchange = props.onchange.clone();
        let shown = shown.clone();
        let refused = refused.clone();
        Callback::from(move |event: InputEvent| {
            if refused.is_some() {
                refused.set(None);
            }
            if let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() {
                let text = area.value();
                *shown.borrow_mut() = Some(AttrValue::from(text.clone()));
                onchange.emit(text);
            }
        })
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
    // Tab inserts two spaces instead of leaving the editor; Escape then Tab
    // still moves focus for keyboard users (the browser default after Escape).
    let onkeydown = {
        let onchange = props.onchange.clone();
        let shown = shown.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Tab"
                && !event.shift_key()
                && !event.alt_key()
                && !event.ctrl_key()
                && !event.meta_key()
            {
                let Some(area) = event
                    .target()
                    .and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok())
                else {
                    return;
                };
                event.prevent_default();
                let value = area.value();
                let start = area.selection_start().ok().flatten().unwrap_or(0) as usize;
                let end = area.selection_end().ok().flatten().unwrap_or(0) as usize;
                // Selection offsets are UTF-16 code units.
                let (start, end) = (utf16_to_byte(&value, start), utf16_to_byte(&value, end));
                let text = format!("{}  {}", &value[..start], &value[end..]);
                area.set_value(&text);
                let caret = (value[..start].encode_utf16().count() + 2) as u32;
                let _ = area.set_selection_range(caret, caret);
                *shown.borrow_mut() = Some(AttrValue::from(text.clone()));
                onchange.emit(text);
            }
        })
    };

    let text = props.text.as_str();
    let lines = text.split('\n').count().max(1);
    let error_line = props.error.as_ref().and_then(|e| e.line);
    let plain = text.len() > MAX_HIGHLIGHT;
    let error_id = format!("{}-error", props.id);
    let described = props
        .error
        .is_some()
        .then(|| AttrValue::from(error_id.clone()));

    html! {
        <div class={classes!("editor", props.error.is_some().then_some("has-error"), plain.then_some("plain"))}>
            // Line numbers as (at most) three text nodes, whatever the length:
            // the lines before the error, the error's line, the lines after.
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

fn utf16_to_byte(text: &str, units: usize) -> usize {
    let mut count = 0;
    for (byte, c) in text.char_indices() {
        if count >= units {
            return byte;
        }
        count += c.len_utf16();
    }
    text.len()
}
