//! The step card: what one event did, the request and the response, why a
//! test failed (patchlab's words: the server discards the engine's error),
//! the outcome class, and how the object changed.

use yew::prelude::*;

use crate::app::components::{op_class, op_line, TermHelp};
use crate::app::text_diff::{line_diff, LineTag};
use crate::engines::race::{SentView, StepView};
use crate::input;
use crate::patch::OpKind;
use crate::strategy::BodyKind;
use crate::vocabulary::Term;

#[derive(PartialEq, Properties)]
pub struct StepCardProps {
    pub step: Option<StepView>,
    /// The object before the step.
    pub previous: Option<serde_json::Value>,
}

/// The card of the current step (or of the start, before the first event).
pub fn step_card(props: &StepCardProps) -> Html {
    let Some(step) = &props.step else {
        return html! {
            <article class="step-detail" id="step-card" aria-label="Current step">
                <div class="step-main">
                    <h2>{ "Before the first event" }</h2>
                    <p class="muted">{ "Step forward to replay the writers' events one by one." }</p>
                </div>
                if let Some(object) = &props.previous {
                    { object_view(&yew::props!(ObjectViewProps { before: object.clone(), after: object.clone() })) }
                }
            </article>
        };
    };
    let failing = step
        .response
        .as_ref()
        .and_then(|r| r.cause.as_ref())
        .and_then(|c| c.index);
    html! {
        <article class="step-detail" id="step-card" aria-label="Current step">
            <div class="step-main">
                <h2>{ format!("Step {}: {} {}", step.index + 1, step.writer, step.event) }</h2>
                <p class="step-summary">{ step.summary.clone() }</p>
                if let Some(sent) = &step.request {
                    { request(&yew::props!(RequestProps { sent: sent.clone(), failing })) }
                }
                if let Some(response) = &step.response {
                    <div class={classes!("response", if response.is_success() { "response-ok" } else { "response-bad" })} role="status">
                        <h3>{ format!("Response: {} {}", response.code, if response.is_success() { "OK" } else { response.reason.as_str() }) }</h3>
                        if response.is_success() {
                            <p>{ match (&response.resource_version, response.changed) {
                                (Some(rv), true) => format!("Stored with resourceVersion {rv}."),
                                _ => "Nothing changed: no new resourceVersion, no watch event.".to_owned(),
                            } }</p>
                        } else {
                            <p><q>{ response.message.clone() }</q></p>
                        }
                        if let Some(cause) = &response.cause {
                            <div class="hidden-cause">
                                <p><strong>{ "Why it failed: " }</strong>{ cause.message.clone() }</p>
                                <p class="muted small">{ "patchlab's explanation: the server discards the engine's error and answers only the message above." }</p>
                                if let Some(path) = &cause.path {
                                    <dl>
                                        <dt>{ "op" }</dt><dd>{ format!("{} {}", cause.index.map_or("-".into(), |i| i.to_string()), cause.op.clone().unwrap_or_default()) }</dd>
                                        <dt>{ "path" }</dt><dd><code>{ path.clone() }</code></dd>
                                        if let Some(expected) = &cause.expected {
                                            <dt>{ "expected" }</dt><dd><code class="wrap">{ crate::text::elide_value(expected, 400) }</code></dd>
                                            <dt>{ "actual" }</dt><dd><code class="wrap">{ cause.actual.as_ref().map_or("(absent)".to_owned(), |a| crate::text::elide_value(a, 400)) }</code></dd>
                                        }
                                    </dl>
                                }
                            </div>
                        }
                        if !response.conflicts.is_empty() {
                            <p>{ format!("Conflicting fields: {}", response.conflicts.join(", ")) }</p>
                        }
                    </div>
                }
                { verdicts(step) }
                { for step.lost.iter().map(|lost| html! {
                    <p class="class-note bad">
                        <strong>{ "Lost update: " }</strong>
                        { format!("{}'s “{}” ({}) erased.", lost.victim, lost.intent, lost.path) }<TermHelp term={Term::LostUpdate} />
                    </p>
                }) }
            </div>
            if let Some(before) = &props.previous {
                { object_view(&yew::props!(ObjectViewProps { before: before.clone(), after: step.object.clone() })) }
            }
        </article>
    }
}

/// The verdicts on a failed write: its class judged on the request, and
/// judged on the intent where the two disagree (both words, each with its
/// definition).
fn verdicts(step: &StepView) -> Html {
    use crate::sim::outcome::{intent_reason, request_reason, ConflictKind};
    let (Some(kind), Some(intent)) = (step.conflict, step.intent) else {
        return Html::default();
    };
    let agrees = intent.agrees(kind);
    html! {
        <>
            <p class={classes!("class-note", (kind == ConflictKind::False).then_some("warn"))}>
                <strong>{ format!("{} (judged on the request): ", kind.word()) }</strong>
                { format!("{}{}.", request_reason(kind, &step.kept), if agrees { format!("; judged on its intent too, a {}", intent.word().to_lowercase()) } else { String::new() }) }
                <TermHelp term={kind.term()} />
            </p>
            if !agrees {
                <p class="class-note warn">
                    <strong>{ format!("{} (judged on the intent): ", intent.word()) }</strong>
                    { format!("{}.", intent_reason(intent, &step.clashes)) }
                    <TermHelp term={intent.term()} />
                </p>
            }
        </>
    }
}

#[derive(PartialEq, Properties)]
struct RequestProps {
    sent: SentView,
    failing: Option<usize>,
}

/// The request sent: its operations (the one that failed marked) or its
/// body.
fn request(props: &RequestProps) -> Html {
    let sent = &props.sent;
    let body = match sent.kind {
        // The wire text is compact JSON: pretty-print it to read it.
        BodyKind::Update | BodyKind::MergePatch => {
            serde_json::from_str::<serde_json::Value>(&sent.body)
                .map(|v| input::to_json_pretty(&v))
                .unwrap_or_else(|_| sent.body.clone())
        }
        _ => sent.body.clone(),
    };
    html! {
        <>
            <h3>{ format!("Request: {} ({})", sent.content_type, sent.label) }</h3>
            if sent.ops.is_empty() {
                <pre class="body" tabindex="0" role="region" aria-label="The request body"><code>{ body }</code></pre>
            } else {
                <ol class="ops" aria-label="Operations sent">
                    { for sent.ops.iter().enumerate().map(|(i, op)| {
                        let kind = OpKind::parse(&op.op);
                        let failed = Some(i) == props.failing;
                        html! {
                            <li class={classes!("op", op_class(kind), failed.then_some("failing"))}>
                                { op_line(&op.op, &op.path, op.value.as_ref(), failed.then_some(("fail-badge", "failed here")), 200) }
                            </li>
                        }
                    }) }
                </ol>
            }
        </>
    }
}

#[derive(PartialEq, Properties)]
struct ObjectViewProps {
    before: serde_json::Value,
    after: serde_json::Value,
}

/// The object, line by line, with what changed from `before` marked.
fn object_view(props: &ObjectViewProps) -> Html {
    let before = input::to_yaml(&props.before);
    let after = input::to_yaml(&props.after);
    let lines = line_diff(&before, &after);
    let changed = lines.iter().any(|(tag, _)| *tag != LineTag::Same);
    html! {
        <section class="object" aria-label="The object after this step">
            <h3>{ if changed { "The object after this step (changes marked)" } else { "The object (unchanged)" } }</h3>
            <pre class="diff" tabindex="0" role="region" aria-label="The object, line by line"><code>
                { for lines.into_iter().map(|(tag, line)| html! {
                    <span class={tag.class()}><span class="sr-only">{ tag.spoken() }</span>{ format!("{} {line}\n", tag.mark()) }</span>
                }) }
            </code></pre>
        </section>
    }
}
