//! The parts of an editor drawn behind and beside the textarea: the
//! coloured copy of the text and the line numbers.

use yew::prelude::*;

use crate::app::highlight::{highlight, Kind};
use crate::input::Format;

#[derive(PartialEq, Properties)]
pub struct GutterProps {
    pub node: NodeRef,
    pub text: AttrValue,
    /// The parse error's line, marked.
    pub error_line: Option<usize>,
}

/// Line numbers as (at most) three text nodes, whatever the length: the
/// lines before the error, the error's line, the lines after.
#[component]
pub fn Gutter(props: &GutterProps) -> Html {
    let lines = props.text.split('\n').count().max(1);
    let error_line = props.error_line;
    html! {
        <pre class="gutter" ref={props.node.clone()} aria-hidden="true">
            { numbers(1, error_line.map_or(lines, |l| l.saturating_sub(1).min(lines))) }
            if let Some(line) = error_line.filter(|l| *l <= lines) {
                <span class="ln-error">{ format!("{line}\n") }</span>
                { numbers(line + 1, lines) }
            }
        </pre>
    }
}

#[derive(PartialEq, Properties)]
pub struct BackdropProps {
    pub node: NodeRef,
    pub text: AttrValue,
    pub format: Format,
    /// Too big to colour: the textarea shows its own text.
    pub plain: bool,
}

/// The text again, coloured, under the transparent textarea. It scrolls
/// (with the textarea), so Chromium would make it a Tab stop: `tabindex=-1`
/// keeps it out of the Tab order, and `aria-hidden` out of the reading.
#[component]
pub fn Backdrop(props: &BackdropProps) -> Html {
    let text = props.text.as_str();
    html! {
        <pre class="backdrop" ref={props.node.clone()} aria-hidden="true" tabindex="-1">
            if !props.plain {
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
    }
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
