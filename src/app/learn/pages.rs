//! The Learn view's pages: the list of walkthroughs, and one step with its
//! live state (computed here by the real engine) and a link that opens it.

use std::rc::Rc;

use yew::prelude::*;

use super::walkthroughs::{walkthrough, walkthroughs, Aspect, LessonStep, Walkthrough};
use crate::app::build::{BuildState, Column, ColumnResult};
use crate::app::race::RaceState;

/// Every walkthrough, with its summary, goal and length.
#[component]
pub fn List() -> Html {
    html! {
        <ol class="walkthroughs">
            { for walkthroughs().iter().enumerate().map(|(i, w)| html! {
                <li class="walkthrough-card">
                    <a href={w.route(1).to_fragment()}><span class="number">{ i + 1 }</span>{ w.title.clone() }</a>
                    <p class="muted">{ w.summary.clone() }</p>
                    <p class="goal small">{ w.goal.clone() }</p>
                    <p class="muted small">{ crate::app::components::counted(w.steps.len(), "step", "steps") }</p>
                </li>
            }) }
        </ol>
    }
}

#[derive(PartialEq, Properties)]
pub struct StepPageProps {
    pub walkthrough: &'static str,
    /// From 1.
    pub step: usize,
}

/// One step of a walkthrough: its text, its live state, the way on.
#[component]
pub fn StepPage(props: &StepPageProps) -> Html {
    let Some(w) = walkthrough(props.walkthrough) else {
        return html! {};
    };
    let (n, Some(current)) = w.step(props.step) else {
        return html! {};
    };
    let count = w.steps.len();
    html! {
        <section class="view learn" aria-labelledby="view-title">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="#/learn">{ "Learn" }</a>{ " / " }<span>{ w.title.clone() }</span></nav>
            <h1 id="view-title">{ w.title.clone() }</h1>
            <p class="goal"><strong>{ "What you will learn: " }</strong>{ w.goal.trim_start_matches("You will ").to_owned() }</p>
            <ol class="step-tabs" aria-label="Steps">
                { for w.steps.iter().enumerate().map(|(i, s)| html! {
                    <li>
                        <a href={w.route(i + 1).to_fragment()} aria-current={(i + 1 == n).then_some("step")}
                            aria-label={format!("Step {}: {}", i + 1, s.title)}>{ i + 1 }</a>
                    </li>
                }) }
            </ol>
            <article class="lesson" aria-labelledby="step-title">
                <p class="muted small">{ format!("Step {n} of {count}") }</p>
                <h2 id="step-title">{ current.title.clone() }</h2>
                <p class="lesson-text">{ current.text.clone() }</p>
                <Live step={Rc::new(current.clone())} />
                <div class="lesson-nav">
                    if n > 1 {
                        <a class="button" href={w.route(n - 1).to_fragment()}>{ "← Previous" }</a>
                    }
                    if let Some(route) = current.open.route() {
                        <a class="button" href={route.to_fragment()}>{ current.open.label() }</a>
                    }
                    if n < count {
                        <a class="button primary" href={w.route(n + 1).to_fragment()}>{ "Next →" }</a>
                    } else {
                        { next_walkthrough(w) }
                    }
                </div>
                <p class="muted small">{ "Keys: ← and → move between steps." }</p>
            </article>
        </section>
    }
}

fn next_walkthrough(current: &Walkthrough) -> Html {
    match current.next() {
        Some(next) => html! {
            <a class="button primary" href={next.route(1).to_fragment()}>{ format!("Next: {} →", next.title) }</a>
        },
        None => html! { <a class="button primary" href="#/learn">{ "All walkthroughs" }</a> },
    }
}

#[derive(PartialEq, Properties)]
struct LiveProps {
    step: Rc<LessonStep>,
}

/// The step's live state, computed here with the real engine (once per
/// step).
#[component]
fn Live(props: &LiveProps) -> Html {
    let open = &props.step.open;
    let build = use_memo(props.step.clone(), |step| {
        step.open.build_link().map(BuildState::computed)
    });
    if let Some(state) = build.as_ref() {
        return html! {
            <div class="live" aria-label="Live example">
                { for state.results.columns.iter().zip(&state.columns).map(|(result, column)| live_column(result, column)) }
            </div>
        };
    }
    if let Some(link) = open.race_link() {
        let state = match RaceState::open(link) {
            Ok(state) => state,
            Err(why) => {
                return html! { <p class="bad">{ format!("This step's race cannot be shown: {why}.") }</p> }
            }
        };
        return html! { <LiveRace state={Rc::new(state)} show={open.show.clone()} /> };
    }
    if let Some(link) = open.scale_link() {
        return html! {
            <div class="live" aria-label="Live example">
                <p>{ format!("Opens the Scale view with {} and runs it.", crate::app::components::counted(link.vms, "VMI", "VMIs")) }</p>
            </div>
        };
    }
    html! {}
}

#[derive(PartialEq, Properties)]
struct LiveRaceProps {
    state: Rc<RaceState>,
    show: Vec<Aspect>,
}

/// A Race step, showing what the lesson points at.
#[component]
fn LiveRace(props: &LiveRaceProps) -> Html {
    let state = &props.state;
    let shows = |a: Aspect| props.show.contains(&a);
    let current = state.current();
    let outcomes = state
        .replay
        .as_ref()
        .as_ref()
        .ok()
        .map(|r| r.outcomes.clone());
    html! {
        <div class="live" aria-label="Live example">
            <div class="live-column">
                <h3>{ format!("{} at step {} of {}", state.scenario.name, state.step, state.scenario.schedule.len()) }</h3>
                if let Some(current) = current {
                    <p>{ current.summary.clone() }</p>
                    if shows(Aspect::Request) {
                        if let Some(sent) = &current.request {
                            <ol class="ops compact" aria-label="Sent">
                                { for sent.ops.iter().map(|p| html! {
                                    <li class="op"><span class="op-kind">{ p.op.op.as_str() }</span>{ " " }<code class="op-path">{ p.op.path.clone() }</code></li>
                                }) }
                                if sent.ops.is_empty() {
                                    <li class="op">{ format!("{} ({})", sent.kind.describe(0), sent.content_type) }</li>
                                }
                            </ol>
                        }
                    }
                    if let Some(response) = current.response.as_ref().filter(|_| shows(Aspect::Response)) {
                        <p class={if response.is_success() { "ok" } else { "bad" }}>
                            { format!("{} {}", response.code, if response.is_success() { "OK".to_owned() } else { format!("{}: {}", response.reason, response.message) }) }
                        </p>
                    }
                    if let Some(cause) = current.response.as_ref().and_then(|r| r.cause.as_ref()).filter(|_| shows(Aspect::Cause)) {
                        <p class="muted">{ format!("Why it failed (patchlab's explanation; the server discards it): {}", cause.message) }</p>
                    }
                    if shows(Aspect::Object) {
                        <pre class="body live-object" tabindex="0" role="region" aria-label="The object after this step"><code>{ crate::input::to_yaml(&current.object) }</code></pre>
                    }
                } else {
                    <p class="muted">{ "Before the first event." }</p>
                }
                if let Some(outcomes) = outcomes.filter(|_| shows(Aspect::Outcomes)) {
                    <ul class="live-outcomes">
                        { for outcomes.writers.iter().map(|w| html! {
                            <li>{ format!("{} ({}): {}, {} OK; intent {}", w.name, w.preset,
                                crate::app::components::counted(usize::try_from(w.counts.writes).unwrap_or(usize::MAX), "write", "writes"), w.counts.ok,
                                if w.intent_holds { "holds" } else { "does not hold" }) }</li>
                        }) }
                    </ul>
                }
            </div>
        </div>
    }
}

fn live_column(result: &ColumnResult, column: &Column) -> Html {
    html! {
        <div class="live-column">
            <h3>{ column.preset.as_str() }{ if column.overrides.is_empty() { "" } else { " + overrides" } }</h3>
            <p class="muted small">{ column.preset.summary() }</p>
            if result.ops.is_empty() {
                <pre class="body" tabindex="0" role="region" aria-label="What is sent"><code>{ result.texts.as_ref().map(|t| t.payload.to_string()).unwrap_or_default() }</code></pre>
            } else {
                <ol class="ops compact">
                    { for result.ops.iter().map(|op| html! {
                        <li class="op"><span class="op-kind">{ op.op.clone() }</span>{ " " }<code class="op-path">{ op.path.clone() }</code></li>
                    }) }
                </ol>
            }
        </div>
    }
}
