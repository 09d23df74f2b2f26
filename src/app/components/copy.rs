//! Copy to the clipboard with feedback: the button says "Copied" for two
//! seconds; when the browser refuses, a dialog shows the text selected so
//! Ctrl+C copies it. The hook that copies is `hooks::use_copy`.

use std::rc::Rc;

use yew::prelude::*;

use super::Dialog;

/// What the last copy did.
#[derive(Clone, Debug, PartialEq)]
pub struct Copied {
    /// Which button.
    pub key: AttrValue,
    /// It worked.
    pub ok: bool,
    /// The text, kept for the fallback dialog when it did not.
    pub text: Rc<str>,
}

/// A view's copy function and what it last did.
#[derive(Clone, PartialEq)]
pub struct UseCopy {
    /// Copies `(key, text)`; `key` names the button for its feedback.
    pub copy: Callback<(AttrValue, String)>,
    /// The last copy, for two seconds (a failure until dismissed).
    pub last: Option<Copied>,
    /// Hides the fallback dialog.
    pub dismiss: Callback<()>,
}

impl UseCopy {
    /// The label of the button `key`: `idle`, or "Copied" just after.
    pub fn label(&self, key: &str, idle: &str) -> String {
        match &self.last {
            Some(c) if c.key == key && c.ok => "Copied".to_owned(),
            Some(c) if c.key == key => "Copy failed".to_owned(),
            _ => idle.to_owned(),
        }
    }
}

#[derive(PartialEq, Properties)]
pub struct CopyButtonProps {
    /// Names the button for its feedback.
    pub id: AttrValue,
    /// The label when idle.
    pub label: AttrValue,
    /// What it copies.
    pub text: AttrValue,
    /// The view's copy helper.
    pub copy: UseCopy,
    /// A shortcut hint shown after the label.
    #[prop_or_default]
    pub shortcut: Option<AttrValue>,
    /// Extra classes.
    #[prop_or_default]
    pub class: Classes,
    /// Off (with why, shown as text).
    #[prop_or_default]
    pub disabled: bool,
}

/// A button that copies its text and says so.
pub fn copy_button(props: &CopyButtonProps) -> Html {
    let onclick = {
        let (copy, id, text) = (
            props.copy.copy.clone(),
            props.id.clone(),
            props.text.clone(),
        );
        Callback::from(move |_: MouseEvent| copy.emit((id.clone(), text.to_string())))
    };
    let label = props.copy.label(&props.id, &props.label);
    html! {
        <button type="button" class={props.class.clone()} {onclick} disabled={props.disabled}>
            <span aria-live="polite">{ label }</span>
            if let Some(keys) = &props.shortcut {
                <kbd class="shortcut-hint" aria-hidden="true">{ keys.clone() }</kbd>
            }
        </button>
    }
}

#[derive(PartialEq, Properties)]
pub struct CopyFallbackProps {
    /// The view's copy helper.
    pub copy: UseCopy,
}

/// When the browser refused to copy: the text, selected, to copy by hand.
pub fn copy_fallback(props: &CopyFallbackProps) -> Html {
    let Some(failed) = props.copy.last.as_ref().filter(|c| !c.ok) else {
        return html! {};
    };
    html! {
        <Dialog title="Copy by hand" onclose={props.copy.dismiss.clone()}>
            <p>{ "The browser did not allow copying. The text is selected below: press Ctrl+C (⌘C on a Mac), then close this." }</p>
            <textarea class="copy-fallback" readonly=true rows="6" aria-label="Text to copy" autofocus=true
                onfocus={Callback::from(|e: FocusEvent| {
                    if let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() { area.select(); }
                })}
                value={failed.text.to_string()} />
        </Dialog>
    }
}
