//! The "Example" menu of Build and Check.

use yew::prelude::*;

/// What [`ExampleSelect`] offers.
#[derive(PartialEq, Properties)]
pub struct ExampleSelectProps {
    /// `(id, title)` of every example, in menu order.
    pub choices: Vec<(&'static str, String)>,
    /// The example shown, if the editors hold one.
    pub current: Option<String>,
    /// An example was chosen (its id).
    pub onchoose: Callback<String>,
}

/// A labelled select of the bundled examples, with a "Choose an example…"
/// entry for work of one's own.
#[component]
pub fn ExampleSelect(props: &ExampleSelectProps) -> Html {
    let onchange = {
        let onchoose = props.onchoose.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
                if !select.value().is_empty() {
                    onchoose.emit(select.value());
                }
            }
        })
    };
    html! {
        <label class="field">
            <span>{ "Example" }</span>
            <select {onchange}>
                <option value="" selected={props.current.is_none()}>{ "Choose an example…" }</option>
                { for props.choices.iter().map(|(id, title)| html! {
                    <option value={*id} selected={props.current.as_deref() == Some(*id)}>{ title.clone() }</option>
                }) }
            </select>
        </label>
    }
}
