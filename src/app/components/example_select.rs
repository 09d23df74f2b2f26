//! The "Example" menu of Build and Check.

use yew::prelude::*;

use super::{select, Choice, ReformSome, SelectProps};

/// What [`example_select`] offers.
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
pub fn example_select(props: &ExampleSelectProps) -> Html {
    let choices: Vec<Choice> = props
        .choices
        .iter()
        .map(|(id, title)| Choice::new(*id, title.clone()))
        .collect();
    html! {
        { select(&yew::props!(SelectProps { label: "Example", placeholder: "Choose an example…", choices, selected: props.current.clone().unwrap_or_default(), onchange: props.onchoose.reform_some(|id: String| (!id.is_empty()).then_some(id)) })) }
    }
}
