//! The one `<select>` of the playground: a labelled (or aria-labelled)
//! choice among values, which says the value chosen. Every menu (examples,
//! Kubernetes releases, presets, strategies, scenarios, speeds) is one.

use yew::prelude::*;

use super::ReformSome;

/// One choice of a [`select`]: the value sent, the text shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The `value` attribute (what `onchange` sends).
    pub value: AttrValue,
    /// The text shown.
    pub label: AttrValue,
}

impl Choice {
    /// A choice of `value`, shown as `label`.
    pub fn new(value: impl Into<AttrValue>, label: impl Into<AttrValue>) -> Choice {
        Choice {
            value: value.into(),
            label: label.into(),
        }
    }

    /// A choice shown as its value.
    pub fn plain(value: impl Into<AttrValue>) -> Choice {
        let value = value.into();
        Choice {
            label: value.clone(),
            value,
        }
    }
}

#[derive(PartialEq, Properties)]
pub struct SelectProps {
    /// The choices, in order.
    pub choices: Vec<Choice>,
    /// The value chosen (`""`: the placeholder).
    pub selected: AttrValue,
    /// A value was chosen (the placeholder's is `""`).
    pub onchange: Callback<String>,
    /// A first entry of value `""`, chosen when `selected` is `""`.
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
    /// The visible label: the select goes inside `<label class="field">`
    /// after a `<span>` of this text.
    #[prop_or_default]
    pub label: Option<AttrValue>,
    /// More classes of that label.
    #[prop_or_default]
    pub field_class: Classes,
    /// The title of that label (a tooltip).
    #[prop_or_default]
    pub title: Option<AttrValue>,
    /// The accessible name, for a select without a visible label.
    #[prop_or_default]
    pub aria_label: Option<AttrValue>,
    /// Classes of the select.
    #[prop_or_default]
    pub class: Classes,
}

/// A select of [`Choice`]s.
pub fn select(props: &SelectProps) -> Html {
    let onchange = props.onchange.reform_some(|event: Event| {
        event
            .target_dyn_into::<web_sys::HtmlSelectElement>()
            .map(|select| select.value())
    });
    let select = html! {
        <select class={props.class.clone()} aria-label={props.aria_label.clone()} {onchange}>
            if let Some(placeholder) = &props.placeholder {
                <option value="" selected={props.selected.is_empty()}>{ placeholder.clone() }</option>
            }
            { for props.choices.iter().map(|c| html! {
                <option value={c.value.clone()} selected={c.value == props.selected}>{ c.label.clone() }</option>
            }) }
        </select>
    };
    match &props.label {
        Some(label) => html! {
            <label class={classes!("field", props.field_class.clone())} title={props.title.clone()}>
                <span>{ label.clone() }</span>
                { select }
            </label>
        },
        None => select,
    }
}
