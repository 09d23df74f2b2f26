//! Above the charts: how far a run is (or why it stopped), and what the
//! charts show, in a line.

use yew::prelude::*;

use super::state::{Run, ScaleState};

/// The line above the charts: what they show.
pub fn summary(state: &ScaleState) -> AttrValue {
    let Some(result) = state.shown() else {
        return AttrValue::default();
    };
    let writes: u64 = result.presets.iter().map(|p| p.total.writes).sum();
    let inputs = format!(
        "seed {}, churn {}, {} retries",
        result.seed, state.inputs.churn, state.inputs.retries
    );
    match &state.run {
        Run::Done { ms, .. } => format!(
            "{} VMIs, {inputs}: {writes} simulated writes in {ms:.0} ms.",
            result.vms
        ),
        _ => format!(
            "So far: the first {} VMIs, {inputs}: {writes} simulated writes.",
            result.vms
        ),
    }
    .into()
}

#[derive(PartialEq, Properties)]
pub struct ProgressProps {
    pub run: Run,
}

/// How far the run is, or why it stopped.
#[component]
pub fn Progress(props: &ProgressProps) -> Html {
    match &props.run {
        Run::Idle | Run::Done { .. } => html! {},
        Run::Running { done, total, .. } => html! {
            <div class="progress-box">
                <label for="scale-progress">{ format!("Simulating: {done} of {total} VMI runs (every preset)") }</label>
                <progress id="scale-progress" max={total.to_string()} value={done.to_string()}></progress>
            </div>
        },
        Run::Stopped { done, total, .. } => html! {
            <p class="muted" role="status">{ format!("Stopped after {done} of {total} VMI runs; the charts show the counts so far. Run again to finish.") }</p>
        },
        Run::Failed(e) => html! { <p class="parse-error" role="alert">{ e.clone() }</p> },
    }
}
