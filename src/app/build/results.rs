//! The result columns: per preset, the ops with their reasons and lint's
//! findings, the conflict surface, what is sent and the exports. Render
//! only: everything shown was derived once, by the recomputation.

use std::rc::Rc;

use yew::prelude::*;

use super::link::{Column, MAX_COLUMNS};
use super::recompute::{
    ColumnResult, FindingResult, OpResult, Results, RoundTripResult, RuleText, Texts,
};
use crate::app::components::{
    conflict_surface, copy_button, diagnostics, op_class, select, Choice, ConflictSurfaceProps,
    CopyButtonProps, Diag, DiagnosticsProps, ReformSome, SelectProps, UseCopy,
};
use crate::strategy::{BodyKind, Preset};

#[derive(PartialEq, Properties)]
pub struct ResultColumnsProps {
    pub columns: Vec<Column>,
    pub results: Rc<Results>,
    /// The results are from earlier text.
    pub stale: bool,
    /// A parse error keeps them so.
    pub blocked: bool,
    /// Big texts are computed in pieces (say so while it runs).
    pub big: bool,
    pub copy: UseCopy,
    pub onpreset: Callback<(usize, Preset)>,
    pub onremove: Callback<usize>,
    pub onadd: Callback<()>,
}

#[component]
pub fn ResultColumns(props: &ResultColumnsProps) -> Html {
    let results = &props.results.columns;
    let any_unique = results.iter().any(|r| r.ops.iter().any(|o| o.unique));
    html! {
        <div class={classes!("results", props.stale.then_some("stale"))} aria-busy={(props.stale && !props.blocked).to_string()}>
            if props.stale && props.blocked {
                <p class="stale-note" role="status">{ "Showing the last result that parsed: fix the error in the editor to update." }</p>
            } else if props.stale && props.big {
                <p class="stale-note" role="status">{ "Computing: large objects are parsed and compared in the background." }</p>
            }
            if any_unique {
                <p class="legend"><span class="only-badge">{ "only here" }</span>{ " marks an op no other column sends." }</p>
            }
            <div class="columns">
                { for results.iter().enumerate().map(|(i, result)| {
                    let preset = props.columns.get(i).map(|c| c.preset).unwrap_or_default();
                    html! {
                        <ResultColumn index={i} count={props.columns.len()} {preset} result={result.clone()}
                            presets={props.results.presets.clone()}
                            copy={props.copy.clone()} onpreset={props.onpreset.reform(move |p| (i, p))}
                            onremove={props.onremove.reform(move |()| i)} />
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
pub struct ResultColumnProps {
    pub index: usize,
    pub count: usize,
    pub preset: Preset,
    /// The presets the object takes (empty: [`Preset::ALL`]).
    #[prop_or_default]
    pub presets: Vec<Preset>,
    pub result: ColumnResult,
    pub copy: UseCopy,
    pub onpreset: Callback<Preset>,
    pub onremove: Callback<()>,
}

/// One column: its preset, what it sends and risks, the exports.
#[component]
pub fn ResultColumn(props: &ResultColumnProps) -> Html {
    let n = props.index + 1;
    let header = column_head(&ColumnHeadProps {
        index: props.index,
        count: props.count,
        preset: props.preset,
        presets: props.presets.clone(),
        onpreset: props.onpreset.clone(),
        onremove: props.onremove.clone(),
    });
    let result = &props.result;
    let (None, Some(texts)) = (&result.error, &result.texts) else {
        let why = result.error.clone();
        return html! {
            <article class="column" aria-label={format!("Column {n}: {}", props.result.label)}>
                { header }
                <p class="parse-error">{ why.unwrap_or_default() }</p>
            </article>
        };
    };
    html! {
        <article class="column" aria-label={format!("Column {n}: {}", props.result.label)}>
            { header }
            if props.result.label != props.preset.as_str() {
                <p class="preset-label"><code>{ props.result.label.clone() }</code></p>
            }
            <p class="preset-summary muted">{ props.result.label_summary.clone() }</p>
            <div class="chips">
                <span class="chip">{ result.summary.clone() }</span>
                { round_trip(&result.round_trip) }
            </div>
            if result.empty {
                <p class="muted">{ "Nothing to send: the objects are equal under this policy." }</p>
            } else {
                { body_view(result, texts) }
                if !result.findings.is_empty() {
                    <div class="body-findings" role="group" aria-label="Lint on the whole body">
                        { diagnostics(&yew::props!(DiagnosticsProps { findings: diags(&result.findings, &result.rules), compact: true })) }
                    </div>
                }
                { conflict_surface(&yew::props!(ConflictSurfaceProps { conflicts: result.conflicts.clone(), overwrites: result.overwrites.clone() })) }
            }
            if !result.notes.is_empty() {
                <ul class="notes" aria-label="Notes">
                    { for result.notes.iter().map(|note| html! { <li>{ note.clone() }</li> }) }
                </ul>
            }
            if !result.empty {
                { exports(&ExportsProps {
                    index: props.index,
                    texts: Rc::clone(texts),
                    content_type: AttrValue::from(result.content_type.clone()),
                    patch: result.kind == BodyKind::JsonPatch,
                    copy: props.copy.clone(),
                }) }
            }
        </article>
    }
}

struct ColumnHeadProps {
    index: usize,
    count: usize,
    preset: Preset,
    presets: Vec<Preset>,
    onpreset: Callback<Preset>,
    onremove: Callback<()>,
}

fn column_head(props: &ColumnHeadProps) -> Html {
    let n = props.index + 1;
    let label = if props.index == 0 {
        "Preset".to_owned()
    } else {
        format!("Preset for column {n}")
    };
    // The presets the engine found the object takes (`strategic` only for
    // a built-in kind), and the column's own even if it does not.
    let mut offered = if props.presets.is_empty() {
        Preset::ALL.to_vec()
    } else {
        props.presets.clone()
    };
    if !offered.contains(&props.preset) {
        offered.push(props.preset);
    }
    let choices: Vec<Choice> = offered
        .into_iter()
        .map(|p| Choice::plain(p.as_str()))
        .collect();
    html! {
        <header class="column-head">
            <span class="column-number" aria-hidden="true">{ n }</span>
            { select(&yew::props!(SelectProps { class: "preset", aria_label: label, choices, selected: props.preset.as_str(), onchange: props.onpreset.reform_some(|v: String| v.parse::<Preset>().ok()) })) }
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
    texts: Rc<Texts>,
    content_type: AttrValue,
    /// A JSON patch (a payload), not a body.
    patch: bool,
    copy: UseCopy,
}

fn exports(props: &ExportsProps) -> Html {
    let i = props.index;
    let texts = &props.texts;
    let id = |key: &str| AttrValue::from(format!("{key}-{i}"));
    let copy = |key: &str, label: &'static str, text: &Rc<str>| {
        html! { { copy_button(&yew::props!(CopyButtonProps { id: id(key), label, text: Rc::clone(text), copy: props.copy.clone() })) } }
    };
    html! {
        <>
            <details class="payload">
                <summary>{ format!("What is sent ({})", props.content_type) }</summary>
                <pre tabindex="0" role="region" aria-label="What is sent"><code>{ AttrValue::from(Rc::clone(&texts.payload)) }</code></pre>
            </details>
            <div class="exports" role="group" aria-label={format!("Copy from column {}", i + 1)}>
                { copy_button(&yew::props!(CopyButtonProps { id: id("payload"), label: if props.patch { "Copy payload" } else { "Copy body" }, text: Rc::clone(&texts.payload), copy: props.copy.clone(), shortcut: (i < 6).then(|| AttrValue::from((i + 1).to_string())) })) }
                { copy("kubectl", "Copy kubectl", &texts.kubectl) }
                if let Some(go) = &texts.go {
                    { copy("go", "Copy Go", go) }
                }
                if let Some(rust) = &texts.rust {
                    { copy("rust", "Copy Rust", rust) }
                }
            </div>
        </>
    }
}

fn round_trip(round_trip: &RoundTripResult) -> Html {
    match round_trip {
        RoundTripResult::Exact => html! {
            <span class="chip ok">{ "✓ old + patch = new" }</span>
        },
        RoundTripResult::NotApplicable => html! {
            <span class="chip">{ "round trip: depends on who owns which field" }</span>
        },
        RoundTripResult::Refused(why) | RoundTripResult::Differs(why) => html! {
            <>
                <span class="chip bad">{ "✗ old + patch ≠ new" }</span>
                <p class="chip-note">{ why.clone() }</p>
            </>
        },
    }
}

fn body_view(result: &ColumnResult, texts: &Texts) -> Html {
    match result.kind {
        BodyKind::JsonPatch => html! {
            <ol class="ops" aria-label="Operations">
                { for result.ops.iter().map(|op| op_item(op, &result.rules)) }
            </ol>
        },
        _ => match &result.field_manager {
            Some(field_manager) => html! {
                <>
                    <p class="muted">{ format!("fieldManager: {field_manager}") }</p>
                    <pre class="body" tabindex="0" role="region" aria-label="The apply configuration"><code>{ texts.body.clone().map(AttrValue::from) }</code></pre>
                </>
            },
            None => html! {
                <pre class="body" tabindex="0" role="region" aria-label="The body"><code>{ texts.body.clone().map(AttrValue::from) }</code></pre>
            },
        },
    }
}

/// Findings as the shared diagnostics component takes them, with their
/// rules' texts from the column's answer.
fn diags(findings: &[FindingResult], rules: &[RuleText]) -> Vec<Diag> {
    findings
        .iter()
        .filter_map(|f| {
            let texts = rules.iter().find(|r| r.rule == f.rule);
            let text = |pick: fn(&RuleText) -> &Rc<str>| {
                texts.map_or(AttrValue::Static(""), |t| AttrValue::Rc(Rc::clone(pick(t))))
            };
            f.finding().map(|finding| Diag {
                n: f.n,
                finding,
                has_fix: f.has_fix,
                explanation: text(|t| &t.explanation),
                fix_text: text(|t| &t.fix),
            })
        })
        .collect()
}

/// One op sent: kind, path, value, why, and lint's findings on it.
fn op_item(op: &OpResult, rules: &[RuleText]) -> Html {
    let findings = diags(&op.findings, rules);
    html! {
        <li class={classes!("op", op_class(op.kind()), op.unique.then_some("only-here"))}>
            <div class="op-line">
                <span class="op-kind">{ op.op.clone() }</span>
                <code class="op-path">{ op.path.clone() }</code>
                if op.unique {
                    <span class="only-badge">{ "only here" }</span>
                }
            </div>
            if let Some(value) = &op.value {
                <code class="op-value">{ value.clone() }</code>
            }
            <p class="op-reason">{ op.reason.clone() }</p>
            if !findings.is_empty() {
                { diagnostics(&yew::props!(DiagnosticsProps { findings, at: AttrValue::from(op.path.clone()), compact: true })) }
            }
        </li>
    }
}
