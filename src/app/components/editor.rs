//! A code editor: a textarea over a coloured copy of its text, with line
//! numbers and the parse error's line marked. Plain text only: no HTML is
//! ever built from what the user types.
//!
//! It never traps the keyboard: Tab indents, but Esc then Tab leaves, and
//! Ctrl+M (or the button above the editor) makes Tab move focus. It keeps
//! its own undo history ([`EditHistory`](crate::app::edit_history)), so
//! Ctrl+Z undoes typing in steps, and indenting, formatting and loads from
//! code too.

mod input;
mod lines;
mod paste;

use std::rc::Rc;

use yew::prelude::*;

use crate::app::highlight::MAX_HIGHLIGHT;
use crate::input::{Format, InputError};
use input::{use_editor_input, use_scroll_sync};
use lines::{Backdrop, Gutter};
use paste::use_paste_guard;

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
    pub onchange: Callback<Rc<str>>,
}

#[component]
pub fn Editor(props: &EditorProps) -> Html {
    let textarea = use_node_ref();
    let backdrop = use_node_ref();
    let gutter = use_node_ref();
    let (oninput, onkeydown) = use_editor_input(
        textarea.clone(),
        props.text.clone(),
        props.tab_mode,
        props.ontabmode.clone(),
        props.onchange.clone(),
    );
    let (onpaste, ondrop, refused) = use_paste_guard(props.text.clone());
    let onscroll = use_scroll_sync(textarea.clone(), backdrop.clone(), gutter.clone());
    let text = props.text.as_str();
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
                <Gutter node={gutter} text={props.text.clone()} error_line={props.error.as_ref().and_then(|e| e.line)} />
                <div class="code">
                    <Backdrop node={backdrop} text={props.text.clone()} format={props.format} plain={plain} />
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
            if let Some(why) = refused {
                <p class="parse-error refused" role="alert">{ why }</p>
            }
            if let Some(error) = &props.error {
                <p class="parse-error" id={error_id} role="alert">{ error.to_string() }</p>
            }
        </div>
    }
}
