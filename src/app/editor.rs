//! A code editor: a textarea over a coloured copy of its text, with line
//! numbers and the parse error's line marked. Plain text only: no HTML is
//! ever built from what the user types.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

use super::highlight::{highlight, Kind, MAX_HIGHLIGHT};
use crate::input::{Format, InputError};

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

    let oninput = {
        let onchange = props.onchange.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() {
                onchange.emit(area.value());
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
            <div class="gutter" ref={gutter} aria-hidden="true">
                { for (1..=lines).map(|n| html! {
                    <div class={classes!("ln", (Some(n) == error_line).then_some("ln-error"))}>{ n }</div>
                }) }
            </div>
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
                    value={props.text.clone()}
                    {oninput}
                    {onscroll}
                    {onkeydown}
                />
            </div>
            if let Some(error) = &props.error {
                <p class="parse-error" id={error_id} role="alert">{ error.to_string() }</p>
            }
        </div>
    }
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
