//! The result columns: per preset, the ops with their reasons, the
//! conflict surface, what is sent and the exports.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::state::{Column, ColumnResult, MAX_COLUMNS};
use crate::app::check::{plan_findings, Diag, Diagnostics};
use crate::app::components::{CopyButton, TermHelp, UseCopy};
use crate::input;
use crate::lint::Report;
use crate::patch::OpKind;
use crate::strategy::{self, Body, Overwrite, Plan, Precondition, Preset, RoundTrip};
use crate::vocabulary::Term;

#[derive(PartialEq, Properties)]
pub struct ResultColumnsProps {
    pub columns: Vec<Column>,
    pub results: Rc<Vec<ColumnResult>>,
    /// The results are from earlier text.
    pub stale: bool,
    /// A parse error keeps them so.
    pub blocked: bool,
    /// Big texts are computed in pieces (say so while it runs).
    pub big: bool,
    /// Kind, name and namespace of the new object (for kubectl).
    pub target: serde_json::Value,
    pub copy: UseCopy,
    pub onpreset: Callback<(usize, Preset)>,
    pub onremove: Callback<usize>,
    pub onadd: Callback<()>,
}

#[component]
pub fn ResultColumns(props: &ResultColumnsProps) -> Html {
    let any_unique = props.results.iter().any(|r| r.unique.iter().any(|u| *u));
    html! {
        <div class={classes!("results", props.stale.then_some("stale"))} aria-busy={(props.stale && !props.blocked).to_string()}>
            if props.stale && props.blocked {
                <p class="stale-note" role="status">{ "Showing the last result that parsed: fix the error in the editor to update." }</p>
            } else if props.stale && props.big {
                <p class="stale-note" role="status">{ "Computing: large objects are parsed and compared piece by piece." }</p>
            }
            if any_unique {
                <p class="legend"><span class="only-badge">{ "only here" }</span>{ " marks an op no other column sends." }</p>
            }
            <div class="columns">
                { for props.results.iter().enumerate().map(|(i, result)| {
                    let preset = props.columns.get(i).map(|c| c.preset).unwrap_or_default();
                    let onpreset = props.onpreset.reform(move |p| (i, p));
                    let onremove = props.onremove.reform(move |()| i);
                    html! {
                        <ResultColumn index={i} count={props.columns.len()} {preset} result={result.clone()}
                            target={props.target.clone()} copy={props.copy.clone()} {onpreset} {onremove} />
                    }
                }) }
            </div>
            if props.columns.len() < MAX_COLUMNS {
                <button type="button" class="add-column" onclick={props.onadd.reform(|_: MouseEvent| ())}>{ "+ Add a column" }</button>
            }
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct ResultColumnProps {
    index: usize,
    count: usize,
    preset: Preset,
    result: ColumnResult,
    target: serde_json::Value,
    copy: UseCopy,
    onpreset: Callback<Preset>,
    onremove: Callback<()>,
}

#[component]
fn ResultColumn(props: &ResultColumnProps) -> Html {
    let n = props.index + 1;
    // What lint finds in the ops sent (the Check view's rules).
    let findings = use_memo(props.result.plan.clone(), |plan| {
        plan.as_ref().ok().and_then(plan_findings)
    });
    let header = html! {
        <ColumnHead index={props.index} count={props.count} preset={props.preset}
            onpreset={props.onpreset.clone()} onremove={props.onremove.clone()} />
    };
    let plan = match &props.result.plan {
        Ok(plan) => plan,
        Err(err) => {
            return html! {
                <article class="column" aria-label={format!("Column {n}: {}", props.preset)}>
                    { header }
                    <p class="parse-error">{ err.to_string() }</p>
                </article>
            };
        }
    };
    let summary = match &plan.body {
        Body::JsonPatch(ops) => format!(
            "{} op{} · {} bytes",
            ops.len(),
            if ops.len() == 1 { "" } else { "s" },
            props.result.payload_bytes
        ),
        _ => format!(
            "{} · {} bytes",
            plan.body.content_type(),
            props.result.payload_bytes
        ),
    };
    html! {
        <article class="column" aria-label={format!("Column {n}: {}", props.preset)}>
            { header }
            <p class="preset-summary muted">{ props.preset.summary() }</p>
            <div class="chips">
                <span class="chip">{ summary }</span>
                { round_trip(&props.result.round_trip) }
            </div>
            if plan.is_empty() {
                <p class="muted">{ "Nothing to send: the objects are equal under this policy." }</p>
            } else {
                { body_view(plan, &props.result.unique, (*findings).as_ref()) }
                { surface(&plan.conflicts, &plan.overwrites) }
            }
            if !plan.notes.is_empty() {
                <ul class="notes" aria-label="Notes">
                    { for plan.notes.iter().map(|note| html! { <li>{ note.clone() }</li> }) }
                </ul>
            }
            if !plan.is_empty() {
                <Exports index={props.index} plan={Rc::new(plan.clone())} target={props.target.clone()} copy={props.copy.clone()} />
            }
        </article>
    }
}

#[derive(PartialEq, Properties)]
struct ColumnHeadProps {
    index: usize,
    count: usize,
    preset: Preset,
    onpreset: Callback<Preset>,
    onremove: Callback<()>,
}

#[component]
fn ColumnHead(props: &ColumnHeadProps) -> Html {
    let n = props.index + 1;
    let label = if props.index == 0 {
        "Preset".to_owned()
    } else {
        format!("Preset for column {n}")
    };
    let onchange = {
        let onpreset = props.onpreset.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<HtmlSelectElement>() {
                if let Ok(preset) = select.value().parse::<Preset>() {
                    onpreset.emit(preset);
                }
            }
        })
    };
    html! {
        <header class="column-head">
            <span class="column-number" aria-hidden="true">{ n }</span>
            <select class="preset" aria-label={label} {onchange}>
                { for Preset::ALL.into_iter().map(|p| html! {
                    <option value={p.as_str()} selected={p == props.preset}>{ p.as_str() }</option>
                }) }
            </select>
            if props.count > 1 {
                <button type="button" class="link remove" aria-label={format!("Remove column {n}")}
                    onclick={props.onremove.reform(|_: MouseEvent| ())}>{ "Remove" }</button>
            }
        </header>
    }
}

#[derive(PartialEq, Properties)]
struct ExportsProps {
    index: usize,
    plan: Rc<Plan>,
    target: serde_json::Value,
    copy: UseCopy,
}

#[component]
fn Exports(props: &ExportsProps) -> Html {
    let i = props.index;
    let plan = &props.plan;
    let body = plan.body_text();
    let id = |key: &str| AttrValue::from(format!("{key}-{i}"));
    html! {
        <>
            <details class="payload">
                <summary>{ format!("What is sent ({})", plan.body.content_type()) }</summary>
                <pre tabindex="0" role="region" aria-label="What is sent"><code>{ body.clone() }</code></pre>
            </details>
            <div class="exports" role="group" aria-label={format!("Copy from column {}", i + 1)}>
                <CopyButton id={id("payload")} label={if plan.ops().is_some() { "Copy payload" } else { "Copy body" }}
                    text={body} copy={props.copy.clone()} shortcut={(i < 6).then(|| AttrValue::from((i + 1).to_string()))} />
                <CopyButton id={id("kubectl")} label="Copy kubectl" text={strategy::kubectl(plan, &props.target)} copy={props.copy.clone()} />
                if let Some(go) = strategy::go_code(plan) {
                    <CopyButton id={id("go")} label="Copy Go" text={go} copy={props.copy.clone()} />
                }
                if let Some(rust) = strategy::rust_code(plan) {
                    <CopyButton id={id("rust")} label="Copy Rust" text={rust} copy={props.copy.clone()} />
                }
            </div>
        </>
    }
}

fn op_class(op: OpKind) -> &'static str {
    match op {
        OpKind::Add => "op-add",
        OpKind::Remove => "op-remove",
        OpKind::Replace => "op-replace",
        OpKind::Test => "op-test",
        OpKind::Move | OpKind::Copy => "op-move",
    }
}

fn round_trip(round_trip: &RoundTrip) -> Html {
    match round_trip {
        RoundTrip::Exact => html! {
            <span class="chip ok">{ "✓ old + patch = new" }</span>
        },
        RoundTrip::NotApplicable => html! {
            <span class="chip">{ "round trip: depends on who owns which field" }</span>
        },
        other => html! {
            <>
                <span class="chip bad">{ "✗ old + patch ≠ new" }</span>
                <p class="chip-note">{ other.to_string() }</p>
            </>
        },
    }
}

fn body_view(plan: &Plan, unique: &[bool], findings: Option<&Report>) -> Html {
    match &plan.body {
        Body::JsonPatch(ops) => html! {
            <ol class="ops" aria-label="Operations">
                { for ops.iter().enumerate().map(|(k, planned)| {
                    let op = &planned.op;
                    let only = unique.get(k).copied().unwrap_or(false);
                    html! {
                        <li class={classes!("op", op_class(op.op), only.then_some("only-here"))}>
                            <div class="op-line">
                                <span class="op-kind">{ op.op.as_str() }</span>
                                <code class="op-path">{ op.path.clone() }</code>
                                if only {
                                    <span class="only-badge">{ "only here" }</span>
                                }
                            </div>
                            if let Some(value) = op.value.as_ref().filter(|_| op.op.takes_value()) {
                                <code class="op-value">{ crate::text::elide_value(value, 120) }</code>
                            }
                            <p class="op-reason">{ planned.reason.to_string() }</p>
                            if let Some(report) = findings {
                                <Diagnostics findings={report.on_op(k).enumerate().map(|(n, f)| Diag::of(n, f)).collect::<Vec<_>>()} at={AttrValue::from(op.path.clone())} compact=true />
                            }
                        </li>
                    }
                }) }
            </ol>
        },
        Body::MergePatch(body) | Body::Update(body) | Body::StrategicMergePatch(body) => html! {
            <pre class="body" tabindex="0" role="region" aria-label="The body"><code>{ input::to_json_pretty(body) }</code></pre>
        },
        Body::Apply {
            config,
            field_manager,
        } => html! {
            <>
                <p class="muted">{ format!("fieldManager: {field_manager}") }</p>
                <pre class="body" tabindex="0" role="region" aria-label="The apply configuration"><code>{ input::to_yaml(config) }</code></pre>
            </>
        },
    }
}

/// The conflict surface and the silent overwrites of a patch (shared with
/// the Check view).
pub(crate) fn surface(conflicts: &[Precondition], overwrites: &[Overwrite]) -> Html {
    html! {
        <div class="surface">
            <h4>{ Term::ConflictSurface.label() }<TermHelp term={Term::ConflictSurface} /></h4>
            if conflicts.is_empty() {
                <p class="muted">{ "Nothing: it tests nothing, so no concurrent change makes it fail." }</p>
            } else {
                <ul>
                    { for conflicts.iter().map(|c| html! {
                        <li><code>{ if c.path.is_empty() { "(the whole object)".to_owned() } else { c.path.clone() } }</code>{ " " }<span class="muted">{ c.reason.clone() }</span></li>
                    }) }
                </ul>
            }
            <h4>{ Term::SilentOverwrite.label() }<TermHelp term={Term::SilentOverwrite} /></h4>
            if overwrites.is_empty() {
                <p class="muted">{ "Nothing it writes goes unchecked." }</p>
            } else {
                <ul>
                    { for overwrites.iter().map(|o| html! {
                        <li><code>{ o.path.clone() }</code>{ " " }<span class="muted">{ o.reason.clone() }</span></li>
                    }) }
                </ul>
            }
        </div>
    }
}
