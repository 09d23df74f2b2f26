//! Above the charts: how far a run is (or why it stopped, and what it
//! ran), how long a heavy one will take here, and what the charts show,
//! in a line.

use yew::prelude::*;

use super::state::{Measured, Run, ScaleState};
use crate::app::components::counted;

/// The VMIs whose runs are all done after `done` VMI runs: the worker
/// runs each VMI under every preset before the next (sim::scale), so the
/// counts so far cover exactly these.
pub fn vmis_done(done: usize) -> usize {
    done / crate::strategy::Preset::ALL.len()
}

/// The line above the charts: what they show.
pub fn summary(state: &ScaleState) -> AttrValue {
    let Some(result) = state.shown() else {
        return AttrValue::default();
    };
    let writes: u64 = result.presets.iter().map(|p| p.total.writes).sum();
    let writes = counted(
        usize::try_from(writes).unwrap_or(usize::MAX),
        "simulated write",
        "simulated writes",
    );
    let inputs = format!(
        "seed {}, churn {}, {}",
        result.seed,
        state.inputs.churn,
        counted(state.inputs.retries as usize, "retry", "retries")
    );
    match &state.run {
        // A held setting waits for Run: the numbers are the last run's.
        Run::Done { ms, .. } if state.held => format!(
            "{} (the last run, before these inputs): {writes} in {ms:.0} ms.",
            counted(result.vms, "VMI", "VMIs")
        ),
        Run::Done { ms, .. } => format!(
            "{}, {inputs}: {writes} in {ms:.0} ms.",
            counted(result.vms, "VMI", "VMIs")
        ),
        Run::Running { done, .. } | Run::Stopped { done, .. } => format!(
            "So far: the first {} of {}, {inputs}: {writes}.",
            crate::app::paste_guard::thousands(vmis_done(*done)),
            counted(state.inputs.vms, "VMI", "VMIs")
        ),
        _ => format!(
            "{}, {inputs}: {writes}.",
            counted(result.vms, "VMI", "VMIs")
        ),
    }
    .into()
}

/// A duration as read: "0.4 s", "12 s", "3 min 20 s".
pub fn duration(ms: f64) -> String {
    let seconds = ms / 1000.0;
    if seconds < 10.0 {
        format!("{seconds:.1} s")
    } else if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else {
        let whole = seconds.round() as u64;
        format!("{} min {} s", whole / 60, whole % 60)
    }
}

/// How long the current inputs take here, said before the numbers come
/// (`None`: not heavy, or nothing measured yet).
pub fn estimate(state: &ScaleState) -> Option<AttrValue> {
    let ms = state.estimate_ms().filter(|_| state.heavy())?;
    let Measured { inputs, ms: took } = state.measured?;
    Some(
        format!(
            "This setting takes about {} here (the last run, {} at churn {}, took {}).",
            duration(ms),
            counted(inputs.vms, "VMI", "VMIs"),
            inputs.churn,
            duration(took)
        )
        .into(),
    )
}

#[derive(PartialEq, Properties)]
pub struct ProgressProps {
    pub run: Run,
    /// The VMIs asked for.
    pub vms: usize,
    /// How long it takes, when heavy.
    #[prop_or_default]
    pub estimate: Option<AttrValue>,
}

/// How far the run is, or why it stopped and what it ran.
#[component]
pub fn Progress(props: &ProgressProps) -> Html {
    match &props.run {
        Run::Idle | Run::Done { .. } => html! {},
        Run::Running { done, total, .. } => html! {
            <div class="progress-box">
                <label for="scale-progress">{ format!(
                    "Simulating: {} of {} (every preset)",
                    crate::app::paste_guard::thousands(*done),
                    counted(*total, "VMI run", "VMI runs")
                ) }</label>
                <progress id="scale-progress" max={total.to_string()} value={done.to_string()}></progress>
                if let Some(estimate) = &props.estimate {
                    <p class="estimate muted">{ estimate.clone() }</p>
                }
            </div>
        },
        Run::Stopped { done, partial, .. } => {
            let ran = if partial.is_some() {
                vmis_done(*done)
            } else {
                0
            };
            let text = if ran == 0 {
                format!(
                    "Stopped before the first of {} had run under every preset. Run again to finish.",
                    counted(props.vms, "VMI", "VMIs")
                )
            } else {
                format!(
                    "Stopped: it ran the first {} of {} under every preset; the charts show those. Run again to finish.",
                    crate::app::paste_guard::thousands(ran),
                    counted(props.vms, "VMI", "VMIs")
                )
            };
            html! { <p class="muted stopped" role="status">{ text }</p> }
        }
        Run::Failed(e) => html! { <p class="parse-error" role="alert">{ e.clone() }</p> },
    }
}
