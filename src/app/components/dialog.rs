//! A modal dialog on the browser's own `<dialog>`: focus moves into it, is
//! kept in it, Esc closes it, and focus returns to where it was.

use std::sync::atomic::{AtomicUsize, Ordering};

use web_sys::wasm_bindgen::JsCast;
use web_sys::{HtmlDialogElement, HtmlElement};
use yew::prelude::*;

#[derive(PartialEq, Properties)]
pub struct DialogProps {
    /// The heading, also the dialog's accessible name.
    pub title: AttrValue,
    /// Called when it closes (Esc, the Close button).
    pub onclose: Callback<()>,
    /// The content.
    #[prop_or_default]
    pub children: Html,
}

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// A modal dialog; mounted means open.
#[component]
pub fn Dialog(props: &DialogProps) -> Html {
    let node = use_node_ref();
    let title_id = use_state(|| format!("dialog-{}", NEXT_ID.fetch_add(1, Ordering::Relaxed)));
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            let previous = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .and_then(|el| el.dyn_into::<HtmlElement>().ok());
            if let Some(dialog) = node.cast::<HtmlDialogElement>() {
                let _ = dialog.show_modal();
            }
            move || {
                if let Some(dialog) = node.cast::<HtmlDialogElement>() {
                    dialog.close();
                }
                if let Some(previous) = previous {
                    let _ = previous.focus();
                }
            }
        });
    }
    // Esc fires `cancel`: close through the owner, so its state follows.
    let oncancel = {
        let onclose = props.onclose.clone();
        Callback::from(move |event: Event| {
            event.prevent_default();
            onclose.emit(());
        })
    };
    let close = props.onclose.reform(|_: MouseEvent| ());
    html! {
        <dialog ref={node} class="dialog" aria-labelledby={(*title_id).clone()} {oncancel}>
            <div class="dialog-head">
                <h2 id={(*title_id).clone()}>{ props.title.clone() }</h2>
                <button type="button" class="link" onclick={close.clone()} aria-label="Close">{ "Close" }</button>
            </div>
            { props.children.clone() }
            <div class="dialog-foot">
                <button type="button" class="primary" onclick={close}>{ "Close" }</button>
            </div>
        </dialog>
    }
}
