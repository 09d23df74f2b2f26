//! The ops of the pasted patch, each with its findings (shown like a code
//! editor's diagnostics, [`diagnostics()`](crate::app::components::diagnostics())),
//! the findings about the whole body first.

use std::rc::Rc;

use yew::prelude::*;

use super::link::FixKey;
use super::state::{Checked, OpRow, MAX_SHOWN_OPS};
use crate::app::components::{
    diagnostics, op_class, severity_class, Diag, DiagnosticsProps, ReformSome,
};
use crate::patch::OpKind;
use crate::strategy::BodyKind;

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
pub fn op_list(props: &OpListProps) -> Html {
    let Some(patch) = props.checked.ok() else {
        return html! {};
    };
    // The buttons name a finding by its place in the report; the state by
    // its key, which outlives edits.
    let onfix = {
        let checked = Rc::clone(&props.checked);
        props
            .onfix
            .reform_some(move |n: usize| checked.ok()?.report.findings.get(n).map(FixKey::of))
    };
    let shown = props
        .shown
        .as_ref()
        .and_then(|key| patch.report.findings.iter().position(|f| key.names(f)));
    let numbered = |n: usize| -> Option<Diag> {
        let finding = patch.report.findings.get(n)?;
        let (explanation, fix_text) = patch.rule_texts(finding.rule);
        Some(Diag {
            n,
            finding: finding.finding(),
            has_fix: finding.fix.is_some(),
            explanation: AttrValue::Rc(explanation),
            fix_text: AttrValue::Rc(fix_text),
        })
    };
    let body: Vec<Diag> = patch
        .body_findings()
        .filter_map(|(n, _)| numbered(n))
        .collect();
    let body_label = match patch.kind {
        BodyKind::JsonPatch => "The whole patch",
        BodyKind::StrategicMergePatch => "The strategic merge patch body",
        _ => "The merge patch body",
    };
    html! {
        <>
            if !body.is_empty() {
                <section class="body-findings" aria-label={body_label}>
                    <h3>{ body_label }</h3>
                    { diagnostics(&yew::props!(DiagnosticsProps { findings: body, onfix: onfix.clone(), shown })) }
                </section>
            }
            if !patch.rows.is_empty() {
                <ol class="ops check-ops" aria-label="Operations and their findings">
                    { for patch.rows.iter().map(|row| op_row(row, &numbered, &onfix, shown)) }
                </ol>
            }
            if patch.left_out > 0 {
                <p class="muted">{ format!("{} more ops are not listed: a patch this long lists only its ops with findings (at most {}).", patch.left_out, MAX_SHOWN_OPS) }</p>
            }
        </>
    }
}

fn op_row(
    row: &OpRow,
    numbered: &dyn Fn(usize) -> Option<Diag>,
    onfix: &Callback<usize>,
    shown: Option<usize>,
) -> Html {
    let findings: Vec<Diag> = row.findings.iter().filter_map(|n| numbered(*n)).collect();
    let worst = findings.iter().map(|d| d.finding.severity).max();
    let kind = row.op.as_ref().and_then(|listed| OpKind::parse(&listed.op));
    html! {
        <li class={classes!("op", op_class(kind), worst.map(severity_class))}>
            <div class="op-line">
                <span class="op-index">{ format!("op {}", row.index) }</span>
                if let Some(listed) = &row.op {
                    <span class="op-kind">{ listed.op.clone() }</span>
                    <code class="op-path">{ if listed.path.is_empty() { "\"\" (the whole document)".to_owned() } else { listed.path.clone() } }</code>
                    if let Some(from) = &listed.from {
                        <span class="muted">{ "from " }<code class="op-path">{ from.clone() }</code></span>
                    }
                } else {
                    <span class="op-kind">{ "?" }</span>
                }
                if let Some(line) = row.line {
                    <span class="op-where">{ format!("line {line}") }</span>
                }
            </div>
            if let Some(value) = &row.value {
                <code class="op-value">{ value.clone() }</code>
            }
            { diagnostics(&yew::props!(DiagnosticsProps { findings, onfix: onfix.clone(), shown, at: row.op.as_ref().map(|listed| AttrValue::from(listed.path.clone())) })) }
        </li>
    }
}
