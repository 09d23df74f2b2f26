//! What lint found, in a line; and, with the current object, whether the
//! patch applies now, which op fails with what answer, and what concurrent
//! changes make it fail or get overwritten.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{Checked, ObjectRead};
use crate::app::components::{conflict_surface, severity_class, with_code, ConflictSurfaceProps};
use crate::apply::Semantics;
use crate::engines::check::CheckedOutcome;

/// The engine's name, in a sentence.
pub fn engine(semantics: Semantics) -> &'static str {
    match semantics {
        Semantics::Kube => "kube-apiserver",
        Semantics::Rfc => "strict RFC 6902",
    }
}

#[derive(PartialEq, Properties)]
pub struct SummaryProps {
    /// What lint found.
    pub checked: Rc<Checked>,
}

/// How the patch was read and how many findings of each severity.
pub fn summary(props: &SummaryProps) -> Html {
    match &props.checked.patch {
        None => html! {
            <p class="check-summary muted">{ "Paste a JSON patch (JSON or YAML), a merge patch body or a whole kubectl patch command into the patch editor, or choose an example." }</p>
        },
        Some(Err(_)) => html! {
            <p class="check-summary bad">{ "The patch could not be read: the patch editor says what and where." }</p>
        },
        Some(Ok(patch)) => {
            let counts = patch.counts();
            let worst = patch.worst();
            html! {
                <div class="check-summary">
                    <p class={classes!("counts", worst.map(severity_class))}>
                        <strong>{ counts.summary() }</strong>
                        { if worst.is_none() { " at note level or above: no hazard lint knows of." } else { "" } }
                    </p>
                    <p class="muted read-as">{ with_code(&patch.read_as) }</p>
                </div>
            }
        }
    }
}

#[derive(PartialEq, Properties)]
pub struct ApplyOutcomeProps {
    /// What lint found.
    pub checked: Rc<Checked>,
}

/// Does the patch apply to the current object now; its conflict surface
/// and what it would silently overwrite.
pub fn apply_outcome(props: &ApplyOutcomeProps) -> Html {
    let Some(patch) = props.checked.ok() else {
        return html! {};
    };
    let report = &patch.report;
    let now = match (&props.checked.object, &report.outcome) {
        (_, Some(outcome)) => outcome_text(outcome, report.semantics),
        (ObjectRead::Unreadable(_), _) => html! {
            <p class="bad">{ "The current object could not be read (its editor says why), so the patch was checked without it." }</p>
        },
        _ => html! {
            <p class="muted">{ "Paste the current object to see whether the patch applies to it, which op fails and what the server answers." }</p>
        },
    };
    html! {
        <>
            <section class="apply-outcome" aria-labelledby="outcome-title">
                <h3 id="outcome-title">{ "Does it apply now?" }</h3>
                { now }
            </section>
            <section class="apply-outcome" aria-labelledby="surface-title">
                <h3 id="surface-title">{ "While other writers write" }</h3>
                { conflict_surface(&yew::props!(ConflictSurfaceProps { conflicts: report.conflicts.clone(), overwrites: report.overwrites.clone(), left_out: report.surface_left_out })) }
            </section>
        </>
    }
}

fn outcome_text(outcome: &CheckedOutcome, semantics: Semantics) -> Html {
    let engine = engine(semantics);
    if outcome.applies {
        return html! {
            <p class="ok">
                <strong>{ format!("✓ Applies now ({engine}).") }</strong>
                if outcome.unchanged {
                    { " It changes nothing, so the server writes nothing: no new resourceVersion, no watch event." }
                }
            </p>
        };
    }
    let at = match (outcome.index, &outcome.path) {
        (Some(i), Some(path)) => format!("op {i} ({path})"),
        (Some(i), None) => format!("op {i}"),
        _ => "the whole body".to_owned(),
    };
    html! {
        <>
            <p class="bad"><strong>{ format!("✗ Does not apply now ({engine}): {at} fails.") }</strong></p>
            if let Some(cause) = &outcome.cause {
                <p>{ "Why: " }<code class="wrap">{ cause.clone() }</code></p>
            }
            if let Some(response) = &outcome.response {
                <p>{ "The server answers " }<strong>{ format!("{} {}", response.code, response.reason) }</strong>{ ": " }<q>{ response.message.clone() }</q></p>
            }
        </>
    }
}
