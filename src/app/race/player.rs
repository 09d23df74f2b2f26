//! The player: to the start, back, play or pause, forward, the timeline
//! slider, the step count and the speed.

use yew::prelude::*;

use super::state::RaceAction;
use crate::app::components::{select, Choice, ReformSome, SelectProps};

#[derive(PartialEq, Properties)]
pub struct PlayerProps {
    /// Events that have happened.
    pub step: usize,
    /// Events in all.
    pub len: usize,
    pub playing: bool,
    /// Milliseconds per step.
    pub speed: u32,
    pub send: Callback<RaceAction>,
}

/// The speeds offered: milliseconds per step and their names.
const SPEEDS: [(u32, &str); 3] = [(2000, "slow"), (900, "normal"), (350, "fast")];

/// The player's controls.
pub fn player(props: &PlayerProps) -> Html {
    let send = &props.send;
    let click = |action: RaceAction| send.reform(move |_: MouseEvent| action.clone());
    let onscrub = send.reform_some(|event: InputEvent| {
        event
            .target_dyn_into::<web_sys::HtmlInputElement>()
            .and_then(|i| i.value().parse::<usize>().ok())
            .map(RaceAction::Goto)
    });
    let speeds: Vec<Choice> = SPEEDS
        .into_iter()
        .map(|(ms, label)| Choice::new(ms.to_string(), label))
        .collect();
    let (step, len) = (props.step, props.len);
    html! {
        <div class="player" id="race-player" role="group" aria-label="Playback">
            <button type="button" onclick={click(RaceAction::Goto(0))} disabled={step == 0}>{ "Start" }</button>
            <button type="button" onclick={click(RaceAction::Prev)} disabled={step == 0}>
                <span aria-hidden="true">{ "◀ " }</span>{ "Back" }<kbd class="shortcut-hint" aria-hidden="true">{ "←" }</kbd>
            </button>
            if props.playing {
                <button type="button" class="primary" onclick={click(RaceAction::Pause)}>{ "Pause" }<kbd class="shortcut-hint" aria-hidden="true">{ "p" }</kbd></button>
            } else {
                <button type="button" class="primary" onclick={click(RaceAction::Play)}>{ "Play" }<kbd class="shortcut-hint" aria-hidden="true">{ "p" }</kbd></button>
            }
            <button type="button" onclick={click(RaceAction::Next)} disabled={step >= len}>
                { "Forward" }<span aria-hidden="true">{ " ▶" }</span><kbd class="shortcut-hint" aria-hidden="true">{ "→" }</kbd>
            </button>
            <input type="range" min="0" max={len.to_string()} value={step.to_string()} aria-label="Timeline position" oninput={onscrub} />
            <span class="step-count" aria-live="polite">{ format!("step {step} of {len}") }</span>
            { select(&yew::props!(SelectProps { label: "Speed", choices: speeds, selected: props.speed.to_string(), onchange: send.reform_some(|v: String| v.parse::<u32>().ok().map(RaceAction::SetSpeed)) })) }
        </div>
    }
}
