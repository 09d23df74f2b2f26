//! The Scale view: a mass live migration under each preset, run in slices
//! so the page stays responsive, with SVG charts.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::sim::migrate::{MigrateOptions, MigrateResult, Migration, PresetResult};

/// The most VMIs the view runs.
pub const MAX_VMS: usize = 5000;

/// A run in progress, or its result.
#[derive(Clone, PartialEq)]
enum Run {
    Idle,
    Running { done: usize, total: usize },
    Done(MigrateResult, f64),
    Failed(String),
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

/// Runs slices of about 12 ms, yielding to the browser between them.
fn pump(migration: Rc<RefCell<Option<Migration>>>, run: UseStateHandle<Run>, started: f64) {
    Timeout::new(0, move || {
        let slice_start = now();
        let mut finished = false;
        if let Some(m) = migration.borrow_mut().as_mut() {
            while now() - slice_start < 12.0 {
                if m.advance(10) {
                    finished = true;
                    break;
                }
            }
            if finished {
                run.set(Run::Done(m.result(), now() - started));
            } else {
                let (done, total) = m.progress();
                run.set(Run::Running { done, total });
            }
        } else {
            return;
        }
        if finished {
            migration.borrow_mut().take();
        } else {
            pump(migration, run, started);
        }
    })
    .forget();
}

fn number(event: &InputEvent) -> Option<u64> {
    event
        .target_dyn_into::<HtmlInputElement>()
        .and_then(|i| i.value().parse::<u64>().ok())
}

#[component]
pub fn ScaleView() -> Html {
    let vms = use_state(|| 2000usize);
    let seed = use_state(|| 1u64);
    let run = use_state(|| Run::Idle);
    let migration = use_mut_ref(|| None::<Migration>);

    let start = {
        let (vms, seed, run, migration) =
            (vms.clone(), seed.clone(), run.clone(), migration.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let options = MigrateOptions {
                vms: (*vms).clamp(1, MAX_VMS),
                seed: *seed,
                presets: Vec::new(),
                ..MigrateOptions::default()
            };
            match Migration::new(&options) {
                Ok(m) => {
                    let total = m.progress().1;
                    *migration.borrow_mut() = Some(m);
                    run.set(Run::Running { done: 0, total });
                    pump(migration.clone(), run.clone(), now());
                }
                Err(e) => run.set(Run::Failed(e.to_string())),
            }
        })
    };
    let cancel = {
        let (run, migration) = (run.clone(), migration.clone());
        Callback::from(move |_: MouseEvent| {
            migration.borrow_mut().take();
            run.set(Run::Idle);
        })
    };
    let running = matches!(*run, Run::Running { .. });

    html! {
        <section class="view scale" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Scale" }</h1>
                <p class="summary">{ "Many VMIs migrating at once: per VMI, the VMI and migration controllers patch with the preset while virt-handler calls Update(), in a seeded random interleaving." }</p>
            </div>
            <form class="toolbar" onsubmit={start} aria-label="Mass migration">
                <label class="field">
                    <span>{ "VMIs" }</span>
                    <input type="number" min="1" max={MAX_VMS.to_string()} value={vms.to_string()} aria-label="VMIs"
                        oninput={{ let vms = vms.clone(); Callback::from(move |e: InputEvent| if let Some(n) = number(&e) { vms.set((n as usize).clamp(1, MAX_VMS)) }) }} />
                </label>
                <label class="field">
                    <span>{ "Seed" }</span>
                    <input type="number" min="0" value={seed.to_string()} aria-label="Seed"
                        oninput={{ let seed = seed.clone(); Callback::from(move |e: InputEvent| if let Some(n) = number(&e) { seed.set(n) }) }} />
                </label>
                <button type="submit" class="primary" disabled={running}>{ "Run" }</button>
                if running {
                    <button type="button" onclick={cancel}>{ "Cancel" }</button>
                }
            </form>
            { match &*run {
                Run::Idle => html! { <p class="muted">{ "Choose how many VMIs migrate and a seed, then run. The same seed gives the same numbers here and in patchlab migrate." }</p> },
                Run::Running { done, total } => html! {
                    <div class="progress-box">
                        <label for="scale-progress">{ format!("Simulating: {done} of {total} VMI runs (7 presets)") }</label>
                        <progress id="scale-progress" max={total.to_string()} value={done.to_string()}></progress>
                    </div>
                },
                Run::Failed(e) => html! { <p class="parse-error" role="alert">{ e.clone() }</p> },
                Run::Done(result, ms) => html! { <Charts result={result.clone()} ms={*ms} /> },
            } }
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct ChartsProps {
    result: MigrateResult,
    ms: f64,
}

/// A chart: title, explanation, and the number it plots.
type Metric = (&'static str, &'static str, fn(&PresetResult) -> u64);

const METRICS: [Metric; 7] = [
    ("False conflicts on maps", "A failed test of labels, annotations or activePods although the writer's own keys were untouched.", |p| p.total.false_conflicts_on_maps),
    ("422 responses", "A failed test: the whole patch was dropped.", |p| p.total.invalid),
    ("False conflicts", "All failures where nothing the writer meant to change had changed (virt-handler's 409s included).", |p| p.total.false_conflicts),
    ("409 responses", "A stale resourceVersion (Update) or an apply conflict.", |p| p.total.conflict),
    ("Retries", "Requeues that re-read and wrote again.", |p| p.total.retries),
    ("Lost updates", "Changes erased by a write that did not mean to change them.", |p| p.total.lost_updates),
    ("Unconverged VMIs", "VMIs where some writer's intent does not hold at the end.", |p| p.vmis_intent_not_held),
];

#[component]
fn Charts(props: &ChartsProps) -> Html {
    let result = &props.result;
    let requests: u64 = result.presets.iter().map(|p| p.total.writes).sum();
    html! {
        <>
            <p class="run-summary" role="status">
                { format!("{} VMIs, seed {}: {} simulated writes in {:.0} ms.", result.vms, result.seed, requests, props.ms) }
            </p>
            <div class="charts">
                { for METRICS.iter().map(|(title, help, metric)| {
                    let values: Vec<(String, u64)> = result.presets.iter().map(|p| (p.preset.to_string(), metric(p))).collect();
                    html! { <Chart title={*title} help={*help} {values} /> }
                }) }
            </div>
            <details class="payload">
                <summary>{ "All numbers" }</summary>
                <pre><code>{ serde_json::to_string_pretty(result).unwrap_or_default() }</code></pre>
            </details>
        </>
    }
}

#[derive(PartialEq, Properties)]
struct ChartProps {
    title: &'static str,
    help: &'static str,
    values: Vec<(String, u64)>,
}

/// A horizontal bar chart: one bar per preset, the value written next to it.
#[component]
fn Chart(props: &ChartProps) -> Html {
    let max = props
        .values
        .iter()
        .map(|(_, v)| *v)
        .max()
        .unwrap_or(0)
        .max(1);
    let row = 26;
    let height = props.values.len() * row + 8;
    let label_width = 130.0;
    let width = 420.0;
    let bar_space = width - label_width - 60.0;
    html! {
        <figure class="chart">
            <figcaption><strong>{ props.title }</strong><span class="muted">{ format!(" {}", props.help) }</span></figcaption>
            <svg viewBox={format!("0 0 {width} {height}")} role="img" aria-label={format!("{}: {}", props.title,
                props.values.iter().map(|(p, v)| format!("{p} {v}")).collect::<Vec<_>>().join(", "))}>
                { for props.values.iter().enumerate().map(|(i, (preset, value))| {
                    let y = i * row + 4;
                    let w = (*value as f64 / max as f64) * bar_space;
                    html! {
                        <g>
                            <text x={(label_width - 6.0).to_string()} y={(y + 16).to_string()} text-anchor="end" class="chart-label">{ preset.clone() }</text>
                            <rect x={label_width.to_string()} y={y.to_string()} width={w.max(1.0).to_string()} height="18" rx="3"
                                class={if *value == 0 { "bar zero" } else { "bar" }} />
                            <text x={(label_width + w + 6.0).to_string()} y={(y + 16).to_string()} class="chart-value">{ value }</text>
                        </g>
                    }
                }) }
            </svg>
        </figure>
    }
}
