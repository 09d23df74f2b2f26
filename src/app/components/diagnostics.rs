//! Findings shown like a code editor's diagnostics: the severity, the
//! rule, the message, why it matters (for a newcomer) and, in Check, a
//! button that shows the fix. Check lists them on each op of a pasted
//! patch; Build on each op a strategy sends (compact).

use yew::prelude::*;

use crate::lint::{Finding, Severity};

/// The CSS class of a severity.
pub fn severity_class(severity: Severity) -> &'static str {
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
pub fn with_code(text: &str) -> Html {
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
pub fn fix_button_id(n: usize) -> String {
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
    /// Why its rule matters ([`crate::lint::RuleInfo::explanation`]).
    pub explanation: AttrValue,
    /// What its rule's fix does ([`crate::lint::RuleInfo::fix`]).
    pub fix_text: AttrValue,
}

#[derive(PartialEq, Properties)]
pub struct DiagnosticsProps {
    /// The findings, worst first.
    pub findings: Vec<Diag>,
    /// Shows the fix of the finding at this position of the report;
    /// `None`: no fix buttons (the Build view).
    #[prop_or_default]
    pub onfix: Option<Callback<usize>>,
    /// The position of the finding whose fix is shown.
    #[prop_or_default]
    pub shown: Option<usize>,
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
pub fn diagnostics(props: &DiagnosticsProps) -> Html {
    if props.findings.is_empty() {
        return html! {};
    }
    html! {
        <ul class="diagnostics" aria-label="Findings">
            { for props.findings.iter().map(|diag| {
                let shown = props.shown == Some(diag.n);
                let path = diag.finding.path.clone().filter(|p| Some(p.as_str()) != props.at.as_deref());
                html! { { diagnostic(&yew::props!(DiagnosticProps { diag: diag.clone(), shown, path, onfix: props.onfix.clone(), compact: props.compact })) } }
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
    onfix: Option<Callback<usize>>,
}

fn diagnostic(props: &DiagnosticProps) -> Html {
    let finding = &props.diag.finding;
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
            <p>{ with_code(&props.diag.explanation) }</p>
            <p class="muted">{ "The fix: " }{ with_code(&props.diag.fix_text) }</p>
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
            { fix_button(props) }
        </li>
    }
}

/// "Use the fix" (or "Fix shown"), when the finding has one and the view
/// shows fixes.
fn fix_button(props: &DiagnosticProps) -> Html {
    match &props.onfix {
        Some(onfix) if props.diag.has_fix => {
            let n = props.diag.n;
            html! {
                <button type="button" id={fix_button_id(n)} class="use-fix" aria-pressed={props.shown.to_string()}
                    onclick={onfix.reform(move |_: MouseEvent| n)}>
                    { if props.shown { "Fix shown" } else { "Use the fix" } }
                </button>
            }
        }
        _ => html! {},
    }
}
