//! The notice bar: one message above a view, with Undo and Dismiss.

use yew::prelude::*;

use crate::app::notice::Notice;

#[derive(PartialEq, Properties)]
pub struct NoticeBarProps {
    /// The message, if any.
    pub notice: Option<Notice>,
    /// Hide it.
    pub ondismiss: Callback<()>,
    /// Bring back what was replaced (the notice's Undo button).
    #[prop_or_default]
    pub onundo: Option<Callback<()>>,
}

/// One message above a view, or nothing.
pub fn notice_bar(props: &NoticeBarProps) -> Html {
    let Some(notice) = &props.notice else {
        return html! {};
    };
    let dismiss = props.ondismiss.reform(|_: MouseEvent| ());
    html! {
        <div class={classes!("notice", notice.level.class())} role={notice.level.role()}>
            <p class="notice-text">{ notice.text.clone() }</p>
            if let Some(detail) = &notice.detail {
                <details class="notice-detail">
                    <summary>{ "Details" }</summary>
                    <code>{ detail.clone() }</code>
                </details>
            }
            <div class="notice-actions">
                if let (Some(label), Some(onundo)) = (&notice.undo, &props.onundo) {
                    <button type="button" class="primary" onclick={onundo.reform(|_: MouseEvent| ())}>{ label.clone() }</button>
                }
                <button type="button" class="link" onclick={dismiss}>{ "Dismiss" }</button>
            </div>
        </div>
    }
}
