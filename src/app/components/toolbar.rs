//! The buttons every view's toolbar ends with: Undo (while there is
//! something to bring back) and Share link.

use yew::prelude::*;

use super::UseCopy;

#[derive(PartialEq, Properties)]
pub struct UndoButtonProps {
    /// There is something to bring back (otherwise nothing is shown).
    pub shown: bool,
    /// Bring it back.
    pub onundo: Callback<()>,
}

/// "Undo", with its key.
pub fn undo_button(props: &UndoButtonProps) -> Html {
    if !props.shown {
        return html! {};
    }
    html! {
        <button type="button" class="undo" onclick={props.onundo.reform(|_: MouseEvent| ())}>
            { "Undo" }<kbd class="shortcut-hint" aria-hidden="true">{ "z" }</kbd>
        </button>
    }
}

#[derive(PartialEq, Properties)]
pub struct ShareButtonProps {
    /// The view's copy helper (the label says "Copied").
    pub copy: UseCopy,
    /// Copy the link.
    pub onshare: Callback<()>,
    /// Classes (`primary` in views where sharing is the main action).
    #[prop_or_default]
    pub class: Classes,
}

/// "Share link", with its key; "Copied" just after.
pub fn share_button(props: &ShareButtonProps) -> Html {
    html! {
        <button type="button" class={props.class.clone()} onclick={props.onshare.reform(|_: MouseEvent| ())}>
            <span aria-live="polite">{ props.copy.label("share", "Share link") }</span><kbd class="shortcut-hint" aria-hidden="true">{ "l" }</kbd>
        </button>
    }
}
