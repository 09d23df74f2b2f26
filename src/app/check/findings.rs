//! Findings shown like a code editor's diagnostics: on each op, the
//! severity, the rule, the message, why it matters (for a newcomer) and a
//! button that shows the fix. [`Diagnostics`] is shared with the Build
//! view's result columns.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{Checked, FixKey, OpRow};
use crate::lint::{Finding, Severity};
use crate::patch::OpKind;

/// The CSS class of a severity.
pub(super) fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "sev-error",
        Severity::Warning => "sev-warning",
        Severity::Note => "sev-note",
    }
}

fn severity_icon(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "✖",
        Severity::Warning => "▲",
        Severity::Note => "●",
    }
}

/// Text with `code` spans (the rule table, the messages and the examples
/// write them in backticks).
pub(crate) fn with_code(text: &str) -> Html {
    html! {
        { for text.split('`').enumerate().map(|(i, piece)| if i % 2 == 1 {
            html! { <code>{ piece.to_owned() }</code> }
        } else {
            html! { { piece.to_owned() } }
        }) }
    }
}

/// The id of the "Use the fix" button of the `n`th finding (focus goes
/// back to it when the fix is closed).
pub(super) fn fix_button_id(n: usize) -> String {
    format!("use-fix-{n}")
}

/// A finding as shown: without its fix (a whole rewritten op list, which
/// props would copy and compare on every render), with its position in
/// the report (for the ids of its buttons).
#[derive(Clone, Debug, PartialEq)]
pub struct Diag {
    /// Its position in the report.
    pub n: usize,
    /// The finding, its fix left out.
    pub finding: Finding,
    /// It has a fix.
    pub has_fix: bool,
}

impl Diag {
    /// The `n`th finding of a report, as shown.
    pub fn of(n: usize, finding: &Finding) -> Diag {
        Diag {
            n,
            finding: Finding {
                fix: None,
                ..finding.clone()
            },
            has_fix: finding.fix.is_some(),
        }
    }
}

#[derive(PartialEq, Properties)]
pub struct DiagnosticsProps {
    /// The findings, worst first.
    pub findings: Vec<Diag>,
    /// Shows a finding's fix; `None`: no fix buttons (the Build view).
    #[prop_or_default]
    pub onfix: Option<Callback<FixKey>>,
    /// The finding whose fix is shown.
    #[prop_or_default]
    pub shown: Option<FixKey>,
    /// The path of the op they are about (a finding's own path is shown
    /// when it is another).
    #[prop_or_default]
    pub at: Option<AttrValue>,
    /// One line each (severity and rule), the message and why inside a
    /// disclosure: the Build view's columns, where the op comes first.
    #[prop_or_default]
    pub compact: bool,
}

/// The findings about one op (or about the whole body).
#[component]
pub fn Diagnostics(props: &DiagnosticsProps) -> Html {
    if props.findings.is_empty() {
        return html! {};
    }
    html! {
        <ul class="diagnostics" aria-label="Findings">
            { for props.findings.iter().map(|diag| {
                let shown = props.shown.as_ref().is_some_and(|k| k.names(&diag.finding));
                let path = diag.finding.path.clone().filter(|p| Some(p.as_str()) != props.at.as_deref());
                html! { <Diagnostic diag={diag.clone()} {shown} {path} onfix={props.onfix.clone()} compact={props.compact} /> }
            }) }
        </ul>
    }
}

#[derive(PartialEq, Properties)]
struct DiagnosticProps {
    diag: Diag,
    shown: bool,
    path: Option<String>,
    compact: bool,
    onfix: Option<Callback<FixKey>>,
}

#[component]
fn Diagnostic(props: &DiagnosticProps) -> Html {
    let finding = &props.diag.finding;
    let info = finding.rule.info();
    let fix = match &props.onfix {
        Some(onfix) if props.diag.has_fix => {
            let key = FixKey::of(finding);
            let onclick = onfix.reform(move |_: MouseEvent| key.clone());
            html! {
                <button type="button" id={fix_button_id(props.diag.n)} class="use-fix" aria-pressed={props.shown.to_string()} {onclick}>
                    { if props.shown { "Fix shown" } else { "Use the fix" } }
                </button>
            }
        }
        _ => html! {},
    };
    let head = html! {
        <>
            <span class="severity">
                <span aria-hidden="true">{ severity_icon(finding.severity) }</span>{ " " }{ finding.severity.as_str() }
            </span>
            { " " }<code class="rule">{ finding.rule.as_str() }</code>
            if let Some(path) = &props.path {
                { " " }<span class="finding-path">{ "at " }<code>{ path.clone() }</code></span>
            }
        </>
    };
    let message = html! { <p class="diagnostic-message">{ with_code(&finding.message) }</p> };
    let why = html! {
        <>
            <p>{ with_code(info.explanation) }</p>
            <p class="muted">{ "The fix: " }{ with_code(info.fix) }</p>
        </>
    };
    if props.compact {
        return html! {
            <li class={classes!("diagnostic", "compact", severity_class(finding.severity))}>
                <details class="why">
                    <summary>{ head }</summary>
                    { message }
                    { why }
                </details>
            </li>
        };
    }
    html! {
        <li class={classes!("diagnostic", severity_class(finding.severity))}>
            <div class="diagnostic-head">{ head }</div>
            { message }
            <details class="why">
                <summary>{ "Why it matters" }</summary>
                { why }
            </details>
            { fix }
        </li>
    }
}

fn op_class(op: Option<OpKind>) -> &'static str {
    match op {
        Some(OpKind::Add) => "op-add",
        Some(OpKind::Remove) => "op-remove",
        Some(OpKind::Replace) => "op-replace",
        Some(OpKind::Test) => "op-test",
        Some(OpKind::Move | OpKind::Copy) => "op-move",
        None => "op-malformed",
    }
}

#[derive(PartialEq, Properties)]
pub struct OpListProps {
    /// What lint found.
    pub checked: Rc<Checked>,
    /// The finding whose fix is shown.
    pub shown: Option<FixKey>,
    /// Shows a finding's fix.
    pub onfix: Callback<FixKey>,
}

/// Every op with its findings (a long patch: the ops with findings), the
/// findings about the whole body first.
#[component]
pub fn OpList(props: &OpListProps) -> Html {
    let Some(patch) = props.checked.ok() else {
        return html! {};
    };
    let numbered = |finding: &Finding| -> Diag {
        let n = patch
            .report
            .findings
            .iter()
            .position(|f| std::ptr::eq(f, finding))
            .unwrap_or_default();
        Diag::of(n, finding)
    };
    let body: Vec<Diag> = patch.body_findings().map(numbered).collect();
    let (rows, left_out) = patch.rows();
    let body_label = match patch.input.kind {
        crate::lint::BodyKind::JsonPatch => "The whole patch",
        crate::lint::BodyKind::StrategicMergePatch => "The strategic merge patch body",
        _ => "The merge patch body",
    };
    html! {
        <>
            if !body.is_empty() {
                <section class="body-findings" aria-label={body_label}>
                    <h3>{ body_label }</h3>
                    <Diagnostics findings={body} onfix={props.onfix.clone()} shown={props.shown.clone()} />
                </section>
            }
            if !rows.is_empty() {
                <ol class="ops check-ops" aria-label="Operations and their findings">
                    { for rows.iter().map(|row| op_row(row, &numbered, &props.onfix, &props.shown)) }
                </ol>
            }
            if left_out > 0 {
                <p class="muted">{ format!("{left_out} more ops are not listed: a patch this long lists only its ops with findings (at most {}).", super::MAX_SHOWN_OPS) }</p>
            }
        </>
    }
}

fn op_row(
    row: &OpRow<'_>,
    numbered: &dyn Fn(&Finding) -> Diag,
    onfix: &Callback<FixKey>,
    shown: &Option<FixKey>,
) -> Html {
    let worst = row.findings.iter().map(|f| f.severity).max();
    let value = row.op.and_then(|op| {
        op.raw_value()
            .map(|raw| crate::text::elide(raw, 160))
            .or_else(|| op.value.as_ref().map(|v| crate::text::elide_value(v, 160)))
    });
    html! {
        <li class={classes!("op", op_class(row.op.map(|o| o.op)), worst.map(severity_class))}>
            <div class="op-line">
                <span class="op-index">{ format!("op {}", row.index) }</span>
                if let Some(op) = row.op {
                    <span class="op-kind">{ op.op.as_str() }</span>
                    <code class="op-path">{ if op.path.is_empty() { "\"\" (the whole document)".to_owned() } else { op.path.clone() } }</code>
                    if let Some(from) = &op.from {
                        <span class="muted">{ "from " }<code class="op-path">{ from.clone() }</code></span>
                    }
                } else {
                    <span class="op-kind">{ "?" }</span>
                }
                if let Some(line) = row.line {
                    <span class="op-where">{ format!("line {line}") }</span>
                }
            </div>
            if let Some(value) = value {
                <code class="op-value">{ value }</code>
            } else if row.op.is_none() {
                <code class="op-value">{ row.written.map(|w| crate::text::elide(w, 160)).unwrap_or_default() }</code>
            }
            <Diagnostics findings={row.findings.iter().map(|f| numbered(f)).collect::<Vec<_>>()} onfix={onfix.clone()} shown={shown.clone()}
                at={row.op.map(|op| AttrValue::from(op.path.clone()))} />
        </li>
    }
}
