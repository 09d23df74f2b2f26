//! The Learn view: the walkthroughs, one step at a time, each with a live
//! state that opens in Build, Race or Scale. Every step has its own link.

use yew::prelude::*;

use super::learn::{
    build_state, href, open_href, position, race_link, walkthroughs, Step, Walkthrough,
};
use super::race::RaceState;

#[derive(PartialEq, Properties)]
pub struct LearnViewProps {
    /// The route's query (`w=<id>&step=<n>`).
    pub query: AttrValue,
}

#[component]
pub fn LearnView(props: &LearnViewProps) -> Html {
    let Some((walkthrough, step)) = position(&props.query) else {
        return html! {
            <section class="view learn" aria-labelledby="view-title">
                <div class="view-head">
                    <h1 id="view-title">{ "Learn" }</h1>
                    <p class="summary">{ "Short walkthroughs, each step with a live example you can open and change." }</p>
                </div>
                <ol class="walkthroughs">
                    { for walkthroughs().iter().enumerate().map(|(i, w)| html! {
                        <li class="walkthrough-card">
                            <a href={href(w, 0)}><span class="number">{ i + 1 }</span>{ w.title.clone() }</a>
                            <p class="muted">{ w.summary.clone() }</p>
                            <p class="muted small">{ format!("{} steps", w.steps.len()) }</p>
                        </li>
                    }) }
                </ol>
            </section>
        };
    };
    let current = &walkthrough.steps[step];
    let count = walkthrough.steps.len();
    html! {
        <section class="view learn" aria-labelledby="view-title">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="#/learn">{ "Learn" }</a>{ " / " }<span>{ walkthrough.title.clone() }</span></nav>
            <h1 id="view-title">{ walkthrough.title.clone() }</h1>
            <ol class="step-tabs" aria-label="Steps">
                { for walkthrough.steps.iter().enumerate().map(|(i, s)| html! {
                    <li>
                        <a href={href(walkthrough, i)} aria-current={(i == step).then_some("step")} title={s.title.clone()}>{ i + 1 }</a>
                    </li>
                }) }
            </ol>
            <article class="lesson" aria-labelledby="step-title">
                <p class="muted small">{ format!("Step {} of {count}", step + 1) }</p>
                <h2 id="step-title">{ current.title.clone() }</h2>
                <p class="lesson-text">{ current.text.clone() }</p>
                <Live step={current.clone()} />
                <div class="lesson-nav">
                    if step > 0 {
                        <a class="button" href={href(walkthrough, step - 1)}>{ "← Previous" }</a>
                    }
                    if let Some(target) = open_href(&current.open) {
                        <a class="button" href={target}>{ open_label(current) }</a>
                    }
                    if step + 1 < count {
                        <a class="button primary" href={href(walkthrough, step + 1)}>{ "Next →" }</a>
                    } else {
                        { next_walkthrough(walkthrough) }
                    }
                </div>
            </article>
        </section>
    }
}

fn open_label(step: &Step) -> &'static str {
    if step.open.build.is_some() {
        "Open in Build"
    } else if step.open.race.is_some() {
        "Open in Race"
    } else {
        "Open in Scale"
    }
}

fn next_walkthrough(current: &Walkthrough) -> Html {
    let all = walkthroughs();
    match all
        .iter()
        .position(|w| w.id == current.id)
        .and_then(|i| all.get(i + 1))
    {
        Some(next) => {
            html! { <a class="button primary" href={href(next, 0)}>{ format!("Next: {} →", next.title) }</a> }
        }
        None => html! { <a class="button primary" href="#/learn">{ "All walkthroughs" }</a> },
    }
}

#[derive(PartialEq, Properties)]
struct LiveProps {
    step: Step,
}

/// The step's live state, computed here with the real engine.
#[component]
fn Live(props: &LiveProps) -> Html {
    let open = &props.step.open;
    if let Some(state) = build_state(open) {
        return html! {
            <div class="live" aria-label="Live example">
                { for state.results.iter().zip(&state.columns).map(|(result, column)| {
                    let ops = result.plan.as_ref().ok().and_then(|p| p.ops().map(|o| o.to_vec())).unwrap_or_default();
                    html! {
                        <div class="live-column">
                            <h3>{ column.preset.as_str() }{ if column.overrides.is_empty() { "" } else { " + overrides" } }</h3>
                            if ops.is_empty() {
                                <pre class="body"><code>{ result.plan.as_ref().map(|p| p.body_text()).unwrap_or_default() }</code></pre>
                            } else {
                                <ol class="ops compact">
                                    { for ops.iter().map(|p| html! {
                                        <li class="op"><span class="op-kind">{ p.op.op.as_str() }</span>{ " " }<code>{ p.op.path.clone() }</code></li>
                                    }) }
                                </ol>
                            }
                        </div>
                    }
                }) }
            </div>
        };
    }
    if let Some(link) = race_link(open) {
        let state = match RaceState::open(link) {
            Ok(state) => state,
            Err(why) => {
                return html! { <p class="bad">{ format!("This step's race cannot be shown: {why}.") }</p> }
            }
        };
        return html! {
            <div class="live" aria-label="Live example">
                <div class="live-column">
                    <h3>{ format!("{} at step {}", state.scenario.name, state.step) }</h3>
                    if let Some(current) = state.current() {
                        <p>{ current.summary.clone() }</p>
                        if let Some(response) = &current.response {
                            <p class={if response.is_success() { "ok" } else { "bad" }}>
                                { format!("{} {}", response.code, if response.is_success() { "OK".to_owned() } else { format!("{}: {}", response.reason, response.message) }) }
                            </p>
                            if let Some(cause) = &response.cause {
                                <p class="muted">{ format!("Hidden cause: {}", cause.message) }</p>
                            }
                        }
                    } else {
                        <p class="muted">{ "Before the first event." }</p>
                    }
                </div>
            </div>
        };
    }
    html! {}
}
