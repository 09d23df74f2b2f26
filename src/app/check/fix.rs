//! The fix beside the patch: the patch as sent and the rewritten one, one
//! op per line with the changed lines marked, a copy button, and a button
//! that puts the fix in the editor.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::link::FixKey;
use super::state::Comparison;
use crate::app::components::{copy_button, with_code, CopyButtonProps, UseCopy};
use crate::app::text_diff::LineTag;

#[derive(PartialEq, Properties)]
pub struct FixPanelProps {
    /// The fix and the patch it rewrites.
    pub comparison: Rc<Comparison>,
    /// The id of the button that opened it (focus returns there on close).
    pub opener: Option<AttrValue>,
    /// The view's copy helper.
    pub copy: UseCopy,
    /// Put the fix in the patch editor.
    pub onadopt: Callback<()>,
    /// Hide it.
    pub onclose: Callback<()>,
}

fn focus(id: &str) {
    if let Some(el) = gloo::utils::document().get_element_by_id(id) {
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// The patch and its fix, side by side.
#[component]
pub fn FixPanel(props: &FixPanelProps) -> Html {
    let finding = &props.comparison.finding;
    // Shown (or another fix shown): focus moves to the panel, which says
    // what it is.
    use_effect_with(FixKey::of(finding), |_| {
        focus("fix-title");
        crate::app::browser::reveal("fix-panel");
    });
    let close = {
        let (onclose, opener) = (props.onclose.clone(), props.opener.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(opener) = &opener {
                focus(opener);
            }
            onclose.emit(());
        })
    };
    let at = match (finding.index, &finding.path) {
        (Some(i), _) => format!(" (op {i})"),
        (None, Some(path)) => format!(" ({path})"),
        (None, None) => String::new(),
    };
    html! {
        <section id="fix-panel" class="fix-panel" aria-labelledby="fix-title">
            <div class="fix-head">
                <h3 id="fix-title" tabindex="-1">{ "The fix for " }<code>{ finding.rule.as_str() }</code>{ at }</h3>
                <button type="button" class="link" onclick={close}>{ "Close" }</button>
            </div>
            <p class="muted">{ with_code(&props.comparison.fix_text) }</p>
            <div class="side-by-side">
                { side(&yew::props!(SideProps { title: "Your patch, as sent", lines: props.comparison.original.clone() })) }
                { side(&yew::props!(SideProps { title: "With the fix", lines: props.comparison.fixed.clone() })) }
            </div>
            <div class="fix-actions">
                { copy_button(&yew::props!(CopyButtonProps { id: "fix", label: "Copy the fixed payload", text: props.comparison.payload.clone(), copy: props.copy.clone(), class: "primary" })) }
                <button type="button" onclick={props.onadopt.reform(|_: MouseEvent| ())}>{ "Put it in the editor" }</button>
            </div>
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct SideProps {
    title: AttrValue,
    lines: Vec<(LineTag, String)>,
}

fn side(props: &SideProps) -> Html {
    html! {
        <figure class="side">
            <figcaption>{ props.title.clone() }</figcaption>
            <pre class="diff" tabindex="0" role="region" aria-label={props.title.clone()}><code>
                if props.lines.is_empty() {
                    <span class="diff-same">{ "[] (nothing to send)\n" }</span>
                }
                { for props.lines.iter().map(|(tag, line)| html! {
                    <span class={tag.class()}><span class="sr-only">{ tag.spoken() }</span>{ format!("{} {line}\n", tag.mark()) }</span>
                }) }
            </code></pre>
        </figure>
    }
}
