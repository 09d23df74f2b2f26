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
use crate::lint::Finding;

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
                    { diagnostics(&yew::props!(DiagnosticsProps { findings: body, onfix: onfix.clone(), shown })) }
                </section>
            }
            if !rows.is_empty() {
                <ol class="ops check-ops" aria-label="Operations and their findings">
                    { for rows.iter().map(|row| op_row(row, &numbered, &onfix, shown)) }
                </ol>
            }
            if left_out > 0 {
                <p class="muted">{ format!("{left_out} more ops are not listed: a patch this long lists only its ops with findings (at most {}).", MAX_SHOWN_OPS) }</p>
            }
        </>
    }
}

fn op_row(
    row: &OpRow<'_>,
    numbered: &dyn Fn(&Finding) -> Diag,
    onfix: &Callback<usize>,
    shown: Option<usize>,
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
            { diagnostics(&yew::props!(DiagnosticsProps { findings: row.findings.iter().map(|f| numbered(f)).collect::<Vec<_>>(), onfix: onfix.clone(), shown, at: row.op.map(|op| AttrValue::from(op.path.clone())) })) }
        </li>
    }
}
