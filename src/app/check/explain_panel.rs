//! explain's answer beside lint's findings: the class (or the candidates
//! and what would decide), the cause, whether a retry helps, what to do,
//! and where Kubernetes writes the message. The texts come worked out
//! ([`ExplainView`]) from the engines' module.

use yew::prelude::*;

use crate::app::components::with_code;
use crate::engines::explain::{CandidateView, ExplainView, PanelAnswer};

#[derive(PartialEq, Properties)]
pub struct ExplainPanelProps {
    /// The latest answer taken (of these texts or of earlier ones), or
    /// why the engines could not explain these texts.
    pub answer: Option<PanelAnswer>,
    /// True while the answer is not that of the current texts.
    pub waiting: bool,
}

/// The explanation of the pasted error. While the answer to the current
/// texts is on its way, a status line says so above the last answer, which
/// stays, dimmed (`stale`); a failure of earlier texts is not shown again.
pub fn explain_panel(props: &ExplainPanelProps) -> Html {
    let view = props
        .answer
        .as_ref()
        .map(|a| a.as_ref().map(|v| v.as_ref().as_ref()));
    let shown = matches!(view, Some(Ok(Some(_))));
    let status = props.waiting.then(|| {
        let text = if shown {
            "Explaining the changed texts…"
        } else {
            "Explaining… (the first time, this loads patchlab's engines)"
        };
        html! { <p class="muted explaining" role="status">{ text }</p> }
    });
    let body = match view {
        Some(Ok(Some(view))) => panel_body(view),
        Some(Err(why)) if !props.waiting => html! {
            <p class="bad" role="alert">{ format!("explain could not run: {why}.") }</p>
        },
        _ => html! {},
    };
    html! {
        <section class={classes!("explain-panel", (props.waiting && shown).then_some("stale"))} aria-labelledby="explain-title" aria-busy={props.waiting.to_string()}>
            <h3 id="explain-title">{ "The error you got" }</h3>
            { for status }
            { body }
        </section>
    }
}

fn panel_body(view: &ExplainView) -> Html {
    let body = match &view.unreadable {
        Some(why) => html! { <p class="bad">{ why.clone() }</p> },
        None if !view.recognised => html! {
            <>
                <p class="verdict muted">{ "Not recognised: this text is none of the answers patchlab knows a Kubernetes server or client to give." }</p>
                <p class="muted">{ "Paste the whole message as your tool printed it (kubectl's line, the log line, or the Status JSON)." }</p>
            </>
        },
        None => explanation(view),
    };
    html! {
        <>
            { body }
            if !view.others.is_empty() {
                <div class="explain-others">
                    <h4>{ "Also in the pasted text" }</h4>
                    <ul>{ for view.others.iter().map(|o| html! { <li>{ o.clone() }</li> }) }</ul>
                </div>
            }
            if let Some(unused) = &view.unused {
                <p class="note">{ unused.clone() }</p>
            }
            if let Some(made_from) = &view.made_from {
                <p class="muted explain-with">{ made_from.clone() }</p>
            }
        </>
    }
}

fn explanation(e: &ExplainView) -> Html {
    let verdict = match &e.class {
        Some((label, id)) => html! {
            <p class="verdict"><strong>{ label.clone() }</strong>{ " " }<code>{ id.clone() }</code></p>
        },
        // Recognised, and no failure of the write itself (a webhook's
        // certificate that does not verify).
        None if e.candidates.is_empty() => html! {
            <p class="verdict"><strong>{ "Not a failure of the patch itself" }</strong></p>
        },
        None => html! {
            <p class="verdict"><strong>{ format!("Undecided: one of {}", crate::app::components::counted(e.candidates.len(), "class", "classes")) }</strong></p>
        },
    };
    html! {
        <>
            { verdict }
            <p class="muted read-as">{ e.read_as.clone() }</p>
            <p class="cause">{ with_code(&e.summary) }</p>
            if let Some(would) = &e.would_decide {
                <p class="would-decide"><strong>{ "What would decide: " }</strong>{ with_code(would) }</p>
            }
            if let Some(retry) = &e.retry {
                <p class="retry"><strong>{ retry.helps.clone() }</strong>{ ". " }{ retry.retry_on_conflict.clone() }{ " " }{ with_code(&retry.advice) }</p>
            }
            if e.class.is_none() && !e.candidates.is_empty() {
                <ul class="candidates">
                    { for e.candidates.iter().map(candidate) }
                </ul>
            }
            if !e.fix.is_empty() {
                <h4>{ "What to do" }</h4>
                <ul class="explain-fix">
                    { for e.fix.iter().map(|f| html! { <li>{ with_code(f) }</li> }) }
                </ul>
            }
            { sources(e) }
        </>
    }
}

fn candidate(c: &CandidateView) -> Html {
    html! {
        <li>
            <strong>{ c.label.clone() }</strong>{ " " }<code>{ c.id.clone() }</code>{ ": " }{ with_code(&c.definition) }
            <span class="retry">{ " " }{ c.helps.clone() }{ ". " }{ c.retry_on_conflict.clone() }</span>
        </li>
    }
}

fn sources(e: &ExplainView) -> Html {
    if e.sources.is_empty() {
        return html! {};
    }
    html! {
        <details class="explain-sources">
            <summary>{ format!("Where the message is written ({})", crate::app::components::counted(e.sources.len(), "place", "places")) }</summary>
            <ul>
                { for e.sources.iter().map(|(url, name)| html! {
                    <li><a href={url.clone()} rel="noopener noreferrer" target="_blank">{ name.clone() }</a></li>
                }) }
            </ul>
        </details>
    }
}
