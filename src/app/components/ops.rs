//! How an op looks wherever ops are listed (Build's columns, Check's
//! patch, Race's requests): one class per kind, one line of kind and path.

use yew::prelude::*;

use crate::patch::OpKind;

/// The CSS class of an op of kind `op` (`None`: an element the server
/// cannot read as an op).
pub fn op_class(op: Option<OpKind>) -> &'static str {
    match op {
        Some(OpKind::Add) => "op-add",
        Some(OpKind::Remove) => "op-remove",
        Some(OpKind::Replace) => "op-replace",
        Some(OpKind::Test) => "op-test",
        Some(OpKind::Move | OpKind::Copy) => "op-move",
        None => "op-malformed",
    }
}

/// An op's kind and path, a badge after them (`only here`, `failed
/// here`: its class and text), and its value cut to `value_chars`.
pub fn op_line(
    op: &str,
    path: &str,
    value: Option<&serde_json::Value>,
    badge: Option<(&'static str, &'static str)>,
    value_chars: usize,
) -> Html {
    html! {
        <>
            <div class="op-line">
                <span class="op-kind">{ op.to_owned() }</span>
                <code class="op-path">{ path.to_owned() }</code>
                if let Some((class, text)) = badge {
                    <span {class}>{ text }</span>
                }
            </div>
            if let Some(value) = value {
                <code class="op-value">{ crate::text::elide_value(value, value_chars) }</code>
            }
        </>
    }
}
