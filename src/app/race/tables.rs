//! The Race view's tables: the outcomes of the timeline per writer, the
//! same timeline under every preset, and every interleaving per preset.
//! Every count is a term of the vocabulary and says whose it is.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::TermHelp;
use crate::engines::explore::Explored;
use crate::engines::race::{Raced, OTHER_RUNS_BYTES};
use crate::sim::explore::{ExploreCell, ExploreRow};
use crate::sim::timeline::{Outcomes, WriterEnd};
use crate::strategy::Preset;
use crate::vocabulary::{Term, COMPARE_COLUMNS, REPLAY_COLUMNS};

/// A column header naming a term, with its "?".
fn th(term: Term) -> Html {
    html! { <th scope="col">{ term.label() }<TermHelp {term} /></th> }
}

#[derive(PartialEq, Properties)]
pub struct OutcomesProps {
    pub outcomes: Outcomes,
}

/// The outcomes of the timeline, per writer, and whose intent holds.
pub fn outcomes_table(props: &OutcomesProps) -> Html {
    let o = &props.outcomes;
    html! {
        <section class="outcomes-box" aria-labelledby="outcomes-title">
            <h2 id="outcomes-title">{ "Outcomes of the whole timeline" }</h2>
            <div class="table-scroll">
                <table class="outcomes">
                    <thead><tr>
                        <th scope="col">{ "Writer" }</th><th scope="col">{ "Preset" }</th>
                        { for REPLAY_COLUMNS.into_iter().map(th) }
                        { th(Term::IntentHolds) }
                    </tr></thead>
                    <tbody>
                        { for o.writers.iter().map(|w| html! {
                            <tr>
                                <th scope="row">{ w.name.clone() }</th>
                                <td>{ w.label.clone() }</td>
                                { for REPLAY_COLUMNS.into_iter().map(|term| {
                                    let n = w.counts.get(term).unwrap_or_default();
                                    html! { <td class={classes!((term == Term::LostUpdate && n > 0).then_some("bad"))}>{ n }</td> }
                                }) }
                                <td class={if w.intent_holds { "ok" } else { "bad" }}>{ if w.intent_holds { "yes" } else { "no" } }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <ul class="ends">
                { for o.writers.iter().filter(|w| !matches!(w.end, WriterEnd::Succeeded)).map(|w| html! {
                    <li class={classes!(matches!(w.end, WriterEnd::NotRetried { .. } | WriterEnd::GaveUp).then_some("bad"))}>
                        { w.end.describe(&w.name) }{ "." }
                        if matches!(w.end, WriterEnd::NotRetried { .. }) { <TermHelp term={Term::NotRetried} /> }
                    </li>
                }) }
            </ul>
            <p class={if o.intents_hold { "ok" } else { "bad" }}>
                { if o.intents_hold {
                    "Every writer's intent holds at the end.".to_owned()
                } else {
                    let names: Vec<&str> = o.intent_not_held().map(|w| w.name.as_str()).collect();
                    format!("At the end, the intent of {} does not hold.", names.join(" and "))
                } }
            </p>
        </section>
    }
}

#[derive(PartialEq, Properties)]
pub struct CompareProps {
    /// The engines' replay, which carries the rows.
    pub raced: Rc<Raced>,
}

/// Names and counts of the writers a count belongs to: "virt-handler 1".
fn whose(o: &Outcomes, term: Term) -> String {
    o.writers
        .iter()
        .filter_map(|w| {
            let n = w.counts.get(term).unwrap_or_default();
            (n > 0).then(|| format!("{} {n}", w.name))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The same timeline under every preset: each count and whose it is.
pub fn compare_table(props: &CompareProps) -> Html {
    let Some(rows) = &props.raced.compare else {
        return html! {
            <section class="compare" aria-labelledby="compare-title">
                <h2 id="compare-title">{ "The same timeline under each preset" }</h2>
                <p class="muted">{ if props.raced.replay.is_err() {
                    "Not run: the scenario does not replay.".to_owned()
                } else {
                    format!("Not run: this race keeps more than {} MB of objects, and compare mode would replay it under every preset.", OTHER_RUNS_BYTES >> 20)
                } }</p>
            </section>
        };
    };
    let cell = |o: &Outcomes, term: Term| {
        let total = o.total().get(term).unwrap_or_default();
        let whose = whose(o, term);
        html! {
            <td class={classes!((term == Term::LostUpdate && total > 0).then_some("bad"))}>
                { total }
                if total > 0 { <span class="whose">{ whose }</span> }
            </td>
        }
    };
    html! {
        <section class="compare" aria-labelledby="compare-title">
            <h2 id="compare-title">{ "The same timeline under each preset" }</h2>
            <p class="muted">{ format!("{} Next to each count, whose it is.", row_note(rows.iter().filter_map(|r| r.outcomes.as_ref().ok().map(|o| (r.preset, o))))) }</p>
            <div class="table-scroll">
                <table class="outcomes">
                    <thead><tr>
                        <th scope="col">{ "Preset" }</th>
                        { for COMPARE_COLUMNS.into_iter().map(th) }{ th(Term::IntentNotHeld) }
                    </tr></thead>
                    <tbody>
                        { for rows.iter().map(|row| match &row.outcomes {
                            Ok(o) => {
                                let not_held: Vec<&str> = o.intent_not_held().map(|w| w.name.as_str()).collect();
                                html! {
                                    <tr>
                                        <th scope="row">{ row.preset.as_str() }</th>
                                        { for COMPARE_COLUMNS.into_iter().map(|term| cell(o, term)) }
                                        <td class={if not_held.is_empty() { "ok" } else { "bad" }}>
                                            { if not_held.is_empty() { "none".to_owned() } else { not_held.join(", ") } }
                                        </td>
                                    </tr>
                                }
                            }
                            Err(e) => html! { <tr><th scope="row">{ row.preset.as_str() }</th><td colspan={(COMPARE_COLUMNS.len() + 1).to_string()}>{ e.to_string() }</td></tr> },
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// What a row's preset means for the writers, from the rows run: every
/// writer uses it, but those that keep their own preset (fixed) or their
/// own per-field overrides, each named with what it runs.
pub(crate) fn row_note<'a>(rows: impl IntoIterator<Item = (Preset, &'a Outcomes)>) -> String {
    let mut own: Vec<String> = Vec::new();
    let mut overrides: Vec<String> = Vec::new();
    for (preset, outcomes) in rows {
        for w in &outcomes.writers {
            let keeps = if w.preset != preset {
                format!("{} keeps its own preset ({})", w.name, w.label)
            } else if w.label != preset.as_str() {
                let extra = w.label.strip_prefix(preset.as_str()).unwrap_or(&w.label);
                format!("{} keeps its overrides (the row's preset{extra})", w.name)
            } else {
                continue;
            };
            let list = if w.preset != preset {
                &mut own
            } else {
                &mut overrides
            };
            if !list.contains(&keeps) {
                list.push(keeps);
            }
        }
    }
    own.extend(overrides);
    if own.is_empty() {
        return "Every writer uses the row's preset.".to_owned();
    }
    format!(
        "Every writer uses the row's preset, except: {}.",
        own.join("; ")
    )
}

#[derive(PartialEq, Properties)]
pub struct ExplorerProps {
    /// The engines' exploration shown.
    pub explored: Rc<Explored>,
    /// Open interleaving `index` under `preset` at `step`.
    pub onopen: Callback<(usize, Preset, usize)>,
}

/// Every interleaving per preset: how many show each outcome, and a way to
/// open the first that does.
pub fn explorer_table(props: &ExplorerProps) -> Html {
    let result = match &props.explored.exploration {
        Ok(result) => result,
        Err(e) => return html! { <p class="parse-error" role="alert">{ e.to_string() }</p> },
    };
    let n = result.interleavings.len();
    let cell = |row: &ExploreRow, cell: &ExploreCell, what: &str| {
        let open = match (cell.first, cell.first_step) {
            (Some(index), Some(step)) => {
                let (onopen, preset) = (props.onopen.clone(), row.preset);
                html! {
                    <button type="button" class="link" aria-label={format!("Open the first interleaving with {what} under {preset}")}
                        onclick={Callback::from(move |_: MouseEvent| onopen.emit((index, preset, step)))}>
                        { format!("open the first (#{})", index + 1) }
                    </button>
                }
            }
            _ => html! {},
        };
        let whose = cell.whose();
        html! {
            <td>
                { format!("{} of {n}", cell.count) }
                if !whose.is_empty() { <span class="whose">{ whose }</span> }
                { open }
            </td>
        }
    };
    html! {
        <section class="explorer" aria-labelledby="explorer-title">
            <h2 id="explorer-title">{ format!("Every interleaving ({n}), per preset") }</h2>
            <p class="muted">{ "How many of the interleavings (every order that keeps each writer's own) show it at least once, and to whom. A writer never retried is not counted again under Intent does not hold. Open one to replay it here, under that row's preset, at the step where it shows." }</p>
            { super::story_card::never_retried(&result.without_retry, " Counted apart, under Never retried.") }
            <div class="table-scroll">
                <table class="outcomes">
                    <thead><tr>
                        <th scope="col">{ "Preset" }</th>
                        <th scope="col">{ "A 422 or 409" }</th>
                        { th(Term::FalseConflict) }{ th(Term::LostUpdate) }{ th(Term::NotRetried) }{ th(Term::IntentNotHeld) }
                    </tr></thead>
                    <tbody>
                        { for result.presets.iter().map(|row| html! {
                            <tr>
                                <th scope="row">{ row.preset.as_str() }</th>
                                { cell(row, &row.failed, "a 422 or 409") }
                                { cell(row, &row.false_conflicts, "a false conflict") }
                                { cell(row, &row.lost_updates, "a lost update") }
                                { cell(row, &row.never_retried, "a write never retried") }
                                { cell(row, &row.intent_not_held, "an intent that does not hold") }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
