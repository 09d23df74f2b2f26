//! explain's answer beside lint's findings: the class (or the candidates
//! and what would decide), the cause, whether a retry helps, what to do,
//! and where Kubernetes writes the message.

use yew::prelude::*;

use super::explained::{helps_text, retry_on_conflict_text, Explained};
use crate::app::components::with_code;
use crate::explain::{Candidate, Explanation};

#[derive(PartialEq, Properties)]
pub struct ExplainPanelProps {
    /// explain's answer for the pasted error text.
    pub explained: Explained,
}

/// The explanation of the pasted error.
pub fn explain_panel(props: &ExplainPanelProps) -> Html {
    let explained = &props.explained;
    let body = match &explained.answer {
        Err(err) => html! {
            <p class="bad">{ format!("The error text could not be read: {err}.") }</p>
        },
        Ok(e) if !e.recognised => html! {
            <>
                <p class="verdict muted">{ "Not recognised: this text is none of the answers patchlab knows a Kubernetes server or client to give." }</p>
                <p class="muted">{ "Paste the whole message as your tool printed it (kubectl's line, the log line, or the Status JSON)." }</p>
            </>
        },
        Ok(e) => explanation(e),
    };
    let used: Vec<&str> = [
        explained.with_patch.then_some("the patch"),
        explained.with_object.then_some("the current object"),
    ]
    .into_iter()
    .flatten()
    .collect();
    html! {
        <section class="explain-panel" aria-labelledby="explain-title">
            <h3 id="explain-title">{ "The error you got" }</h3>
            { body }
            if !explained.unused.is_empty() {
                <p class="note">{ format!(
                    "{} could not be read (its editor says where), so explain went without it.",
                    capitalised(&explained.unused.iter().map(|u| u.what()).collect::<Vec<_>>().join(" and ")),
                ) }</p>
            }
            if explained.answer.is_ok() {
                <p class="muted explain-with">{ if used.is_empty() {
                    "From the error text alone: paste the patch (and the object) above to replay them.".to_owned()
                } else {
                    format!("From the error text with {} of this view.", used.join(" and "))
                } }</p>
            }
        </section>
    }
}

/// The text with its first letter capitalised (the texts are this
/// playground's own, which begin with an ASCII letter).
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect(),
        None => String::new(),
    }
}

fn explanation(e: &Explanation) -> Html {
    let verdict = match (e.class, e.candidates.as_slice()) {
        (Some(class), _) => html! {
            <p class="verdict"><strong>{ class.label() }</strong>{ " " }<code>{ class.id() }</code></p>
        },
        (None, candidates) => html! {
            <p class="verdict"><strong>{ format!("Undecided: one of {}", crate::app::components::counted(candidates.len(), "class", "classes")) }</strong></p>
        },
    };
    html! {
        <>
            { verdict }
            <p class="muted read-as">{ format!("Read as {}{}", e.shape.as_str(), e.seen.answer().map(|a| format!(", {a}")).unwrap_or_default()) }
                if let Some(by) = &e.decided_by { { format!("; decided by {by}") } }
                { "." }
            </p>
            <p class="cause">{ with_code(&e.summary) }</p>
            if let Some(would) = &e.would_decide {
                <p class="would-decide"><strong>{ "What would decide: " }</strong>{ with_code(would) }</p>
            }
            if let Some(retry) = &e.retry {
                <p class="retry"><strong>{ helps_text(retry.helps) }</strong>{ ". " }{ retry_on_conflict_text(retry.retry_on_conflict) }{ " " }{ with_code(retry.advice) }</p>
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

fn candidate(c: &Candidate) -> Html {
    html! {
        <li>
            <strong>{ c.label }</strong>{ " " }<code>{ c.class.id() }</code>{ ": " }{ with_code(c.definition) }
            <span class="retry">{ " " }{ helps_text(c.retry.helps) }{ ". " }{ retry_on_conflict_text(c.retry.retry_on_conflict) }</span>
        </li>
    }
}

fn sources(e: &Explanation) -> Html {
    let mut seen: Vec<(String, String)> = Vec::new();
    for c in &e.candidates {
        for src in &c.sources {
            let url = src.url();
            if !seen.iter().any(|(u, _)| *u == url) {
                seen.push((url, format!("{} {} ({})", src.repo, src.path, src.symbol)));
            }
        }
    }
    if seen.is_empty() {
        return html! {};
    }
    html! {
        <details class="explain-sources">
            <summary>{ format!("Where the message is written ({})", crate::app::components::counted(seen.len(), "place", "places")) }</summary>
            <ul>
                { for seen.into_iter().map(|(url, name)| html! {
                    <li><a href={url} rel="noopener noreferrer" target="_blank">{ name }</a></li>
                }) }
            </ul>
        </details>
    }
}
