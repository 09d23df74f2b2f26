//! The Scale view's charts: one per term, one bar per preset, split by
//! writer so every count says whose it is.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::{writer_class, TermHelp};
use crate::sim::migrate::{MigrateResult, PresetResult};
use crate::vocabulary::Term;

/// The terms charted, in order.
const TERMS: [Term; 9] = [
    Term::NeedlessFailureOnMap,
    Term::NeedlessFailure,
    Term::FalseConflict,
    Term::TrueConflict,
    Term::Invalid,
    Term::Conflict,
    Term::Retries,
    Term::LostUpdate,
    Term::IntentNotHeld,
];

#[derive(PartialEq, Properties)]
pub struct ChartsProps {
    pub result: Rc<MigrateResult>,
    /// What the charts show, in a line.
    pub summary: AttrValue,
}

/// A preset's count of a term, split by writer.
fn split(preset: &PresetResult, term: Term) -> Vec<(String, u64)> {
    preset
        .writers
        .iter()
        .map(|w| {
            let n = match term {
                Term::IntentNotHeld => w.intent_not_held,
                term => w.counts.get(term).unwrap_or_default(),
            };
            (w.name.clone(), n)
        })
        .collect()
}

#[component]
pub fn Charts(props: &ChartsProps) -> Html {
    let result = &props.result;
    let writers: Vec<String> = result
        .presets
        .first()
        .map(|p| p.writers.iter().map(|w| w.name.clone()).collect())
        .unwrap_or_default();
    html! {
        <>
            <p class="run-summary" role="status">
                { props.summary.clone() }
            </p>
            <p class="legend chart-legend">
                { "Bars are split by writer: " }
                { for writers.iter().enumerate().map(|(i, name)| html! {
                    <span class="legend-item"><span class={format!("swatch {}", writer_class(i))} aria-hidden="true"></span>{ name.clone() }</span>
                }) }
            </p>
            <div class="charts">
                { for TERMS.into_iter().map(|term| html! { <Chart {term} result={Rc::clone(result)} /> }) }
            </div>
            <details class="payload">
                <summary>{ "All numbers (JSON, as patchlab migrate --format json prints them)" }</summary>
                <pre tabindex="0" role="region" aria-label="All numbers"><code>{ serde_json::to_string_pretty(&**result).unwrap_or_default() }</code></pre>
            </details>
        </>
    }
}

#[derive(PartialEq, Properties)]
struct ChartProps {
    term: Term,
    result: Rc<MigrateResult>,
}

/// Horizontal bars: one per preset, in segments per writer, the total
/// written next to it; the accessible name lists every number.
#[component]
fn Chart(props: &ChartProps) -> Html {
    let term = props.term;
    let rows: Vec<(String, Vec<(String, u64)>)> = props
        .result
        .presets
        .iter()
        .map(|p| (p.preset.to_string(), split(p, term)))
        .collect();
    let total = |parts: &[(String, u64)]| parts.iter().map(|(_, n)| n).sum::<u64>();
    let max = rows.iter().map(|(_, p)| total(p)).max().unwrap_or(0).max(1);
    let row = 26;
    let height = rows.len() * row + 8;
    let (label_width, width) = (130.0, 420.0);
    let bar_space = width - label_width - 60.0;
    let described = rows
        .iter()
        .map(|(preset, parts)| {
            let whose: Vec<String> = parts
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(w, n)| format!("{w} {n}"))
                .collect();
            if whose.is_empty() {
                format!("{preset} 0")
            } else {
                format!("{preset} {} ({})", total(parts), whose.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    html! {
        <figure class="chart">
            <figcaption><strong>{ term.label() }</strong><TermHelp {term} /><span class="muted">{ format!(" {}", term.definition()) }</span></figcaption>
            <svg viewBox={format!("0 0 {width} {height}")} role="img" aria-label={format!("{}: {described}", term.label())}>
                { for rows.iter().enumerate().map(|(i, (preset, parts))| {
                    let y = i * row + 4;
                    let sum = total(parts);
                    let mut x = label_width;
                    html! {
                        <g>
                            <text x={(label_width - 6.0).to_string()} y={(y + 16).to_string()} text-anchor="end" class="chart-label">{ preset.clone() }</text>
                            if sum == 0 {
                                <rect x={label_width.to_string()} y={y.to_string()} width="1" height="18" class="bar zero" />
                            }
                            { for parts.iter().enumerate().filter(|(_, (_, n))| *n > 0).map(|(w, (_, n))| {
                                let width = (*n as f64 / max as f64) * bar_space;
                                let rect = html! { <rect x={x.to_string()} y={y.to_string()} width={width.max(1.0).to_string()} height="18" class={format!("bar {}", writer_class(w))} /> };
                                x += width;
                                rect
                            }) }
                            <text x={(x + 6.0).to_string()} y={(y + 16).to_string()} class="chart-value">{ sum }</text>
                        </g>
                    }
                }) }
            </svg>
        </figure>
    }
}
