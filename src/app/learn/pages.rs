//! The Learn view's pages: the list of walkthroughs, and one step with its
//! live card (computed by the real engines when the playground was built:
//! [`super::live`]) and a link that opens it.

use yew::prelude::*;

use super::live::{card, Live as LiveCard, LiveColumn, LiveOp, LiveRace, StepLive};
use super::walkthroughs::{walkthrough, walkthroughs, Walkthrough};

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
    let live = card(w.id, n);
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
                <Live card={live} />
                <div class="lesson-nav">
                    if n > 1 {
                        <a class="button" href={w.route(n - 1).to_fragment()}>{ "← Previous" }</a>
                    }
                    if let Some(href) = live.and_then(|c| c.href.clone()) {
                        <a class="button" href={href}>{ current.open.label() }</a>
                    }
                    if n < count {
                        <a class="button primary" href={w.route(n + 1).to_fragment()}>{ "Next →" }</a>
                    } else {
                        { next_walkthrough(w) }
                    }
                </div>
                <p class="muted small key-hint">{ "Keys: ← and → move between steps." }</p>
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
    card: Option<&'static StepLive>,
}

/// The step's live card: computed by the real engines when the playground
/// was built (`super::live`, checked by a test), so this view needs none.
#[component]
fn Live(props: &LiveProps) -> Html {
    let Some(card) = props.card else {
        return html! { <p class="bad">{ "This step's live example is missing from this build." }</p> };
    };
    match &card.live {
        LiveCard::Columns { columns } => html! {
            <div class="live" aria-label="Live example">
                { for columns.iter().map(live_column) }
            </div>
        },
        LiveCard::Race(race) => live_race(race),
        LiveCard::Scale { vms } => html! {
            <div class="live" aria-label="Live example">
                <p>{ format!("Opens the Scale view with {} and runs it.", crate::app::components::counted(*vms, "VMI", "VMIs")) }</p>
            </div>
        },
        LiveCard::Unavailable { why } => html! { <p class="bad">{ why.clone() }</p> },
        LiveCard::Nothing => html! {},
    }
}

fn ops(ops: &[LiveOp]) -> Html {
    html! {
        { for ops.iter().map(|op| html! {
            <li class="op"><span class="op-kind">{ op.op.clone() }</span>{ " " }<code class="op-path">{ op.path.clone() }</code></li>
        }) }
    }
}

/// A Race step, showing what the lesson points at.
fn live_race(race: &LiveRace) -> Html {
    html! {
        <div class="live" aria-label="Live example">
            <div class="live-column">
                <h3>{ race.title.clone() }</h3>
                if let Some(current) = &race.current {
                    <p>{ current.summary.clone() }</p>
                    if let Some(sent) = &current.sent {
                        <ol class="ops compact" aria-label="Sent">
                            { ops(sent) }
                            if let Some(describe) = &current.describe {
                                <li class="op">{ describe.clone() }</li>
                            }
                        </ol>
                    }
                    if let Some((ok, line)) = &current.response {
                        <p class={if *ok { "ok" } else { "bad" }}>{ line.clone() }</p>
                    }
                    if let Some(cause) = &current.cause {
                        <p class="muted">{ format!("Why it failed (patchlab's explanation; the server discards it): {cause}") }</p>
                    }
                    if let Some(object) = &current.object {
                        <pre class="body live-object" tabindex="0" role="region" aria-label="The object after this step"><code>{ object.clone() }</code></pre>
                    }
                } else {
                    <p class="muted">{ "Before the first event." }</p>
                }
                if let Some(outcomes) = &race.outcomes {
                    <ul class="live-outcomes">
                        { for outcomes.iter().map(|line| html! { <li>{ line.clone() }</li> }) }
                    </ul>
                }
            </div>
        </div>
    }
}

fn live_column(column: &LiveColumn) -> Html {
    html! {
        <div class="live-column">
            <h3>{ column.title.clone() }</h3>
            <p class="muted small">{ column.summary.clone() }</p>
            if let Some(payload) = &column.payload {
                <pre class="body" tabindex="0" role="region" aria-label="What is sent"><code>{ payload.clone() }</code></pre>
            } else {
                <ol class="ops compact">{ ops(&column.ops) }</ol>
            }
        </div>
    }
}
