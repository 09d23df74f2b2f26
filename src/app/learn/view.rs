//! The Learn view: the list of walkthroughs, or one step ([`super::pages`]),
//! and the keys that move between steps.

use yew::prelude::*;

use super::pages::{List, StepPage};
use super::walkthroughs::walkthrough;
use crate::app::hooks::use_shortcuts;
use crate::app::route::{LearnAt, Route, View};
use crate::app::shortcuts::Shortcut;

#[derive(PartialEq, Properties)]
pub struct LearnViewProps {
    /// Where: a walkthrough and a step; `None` shows the list.
    pub at: Option<LearnAt>,
}

fn go(route: &Route) {
    gloo::utils::window()
        .location()
        .set_hash(&route.to_fragment())
        .ok();
}

/// The Learn view.
#[component]
pub fn LearnView(props: &LearnViewProps) -> Html {
    let current = props
        .at
        .as_ref()
        .and_then(|at| walkthrough(&at.walkthrough).map(|w| (w, w.step(at.step).0)));
    {
        let current = current.map(|(w, n)| (w.id, n, w.steps.len()));
        use_shortcuts(
            Some(View::Learn),
            Callback::from(move |shortcut| {
                let Some((id, n, count)) = current else {
                    return;
                };
                let Some(w) = walkthrough(id) else { return };
                match shortcut {
                    Shortcut::PreviousStep if n > 1 => go(&w.route(n - 1)),
                    Shortcut::NextStep if n < count => go(&w.route(n + 1)),
                    _ => {}
                }
            }),
        );
    }
    match (current, &props.at) {
        (Some((w, n)), _) => html! { <StepPage walkthrough={w.id} step={n} /> },
        (None, Some(at)) => html! {
            <section class="view learn" aria-labelledby="view-title">
                <h1 id="view-title">{ "Learn" }</h1>
                <p class="notice notice-warning" role="alert">{ format!("There is no walkthrough “{}”. Here are the ones there are.", at.walkthrough) }</p>
                <List />
            </section>
        },
        (None, None) => html! {
            <section class="view learn" aria-labelledby="view-title">
                <div class="view-head">
                    <h1 id="view-title">{ "Learn" }</h1>
                    <p class="summary">{ View::Learn.summary() }</p>
                </div>
                <List />
            </section>
        },
    }
}
