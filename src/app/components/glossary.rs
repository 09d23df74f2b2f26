//! The glossary: every term of patchlab's vocabulary with its definition,
//! reachable from every view through a "?" next to each metric.

use yew::prelude::*;

use super::Dialog;
use crate::vocabulary::Term;

/// Opens the glossary at a term (provided by the page frame).
#[derive(Clone, PartialEq)]
pub struct GlossaryContext {
    /// Opens the glossary dialog at a term (`None`: at the top).
    pub open: Callback<Option<Term>>,
}

#[derive(PartialEq, Properties)]
pub struct TermHelpProps {
    /// The term.
    pub term: Term,
}

/// A small "?" button that opens the glossary at a term.
#[component]
pub fn TermHelp(props: &TermHelpProps) -> Html {
    let context = use_context::<GlossaryContext>();
    let term = props.term;
    let onclick = Callback::from(move |_: MouseEvent| {
        if let Some(context) = &context {
            context.open.emit(Some(term));
        }
    });
    html! {
        <button type="button" class="term-help" {onclick}
            aria-label={format!("What is “{}”?", term.label())} title={term.definition()}>{ "?" }</button>
    }
}

#[derive(PartialEq, Properties)]
pub struct GlossaryDialogProps {
    /// The term to show first.
    pub term: Option<Term>,
    /// Close it.
    pub onclose: Callback<()>,
}

/// Every term with its definition; the asked-for term first and marked.
pub fn glossary_dialog(props: &GlossaryDialogProps) -> Html {
    let asked = props.term;
    let terms: Vec<Term> = asked
        .into_iter()
        .chain(Term::ALL.into_iter().filter(|t| Some(*t) != asked))
        .collect();
    html! {
        <Dialog title="Glossary" onclose={props.onclose.clone()}>
            <dl class="glossary">
                { for terms.into_iter().map(|term| html! {
                    <div class={classes!("glossary-entry", (Some(term) == asked).then_some("asked"))} id={format!("term-{}", term.id())}>
                        <dt>{ term.label() }</dt>
                        <dd>{ term.definition() }</dd>
                    </div>
                }) }
            </dl>
        </Dialog>
    }
}
