//! Swimlanes: one lane per writer, one button per event, coloured by what
//! happened once it has.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::writer_class;
use crate::engines::race::{Raced, StepView};

#[derive(PartialEq, Properties)]
pub struct LanesProps {
    /// The engines' replay shown.
    pub raced: Rc<Raced>,
    /// Events that have happened.
    pub step: usize,
    pub writers: Vec<String>,
    /// Go to the step after event `n - 1`.
    pub ongoto: Callback<usize>,
}

fn status_class(step: &StepView) -> &'static str {
    match (&step.response, step.lost.is_empty()) {
        (Some(r), true) if r.is_success() => "ev-ok",
        (Some(r), false) if r.is_success() => "ev-lost",
        (Some(_), _) => "ev-bad",
        (None, _) => "ev-none",
    }
}

/// The swimlanes: a lane per writer, a button per event (nothing when the
/// scenario does not replay).
pub fn lanes(props: &LanesProps) -> Html {
    let Ok(replay) = &props.raced.replay else {
        return html! {};
    };
    html! {
        <div class="lanes" id="lanes" role="group" aria-label="Writers' timelines">
            { for props.writers.iter().enumerate().map(|(w, writer)| html! {
                <div class={classes!("lane", writer_class(w))}>
                    <div class="lane-name" title={writer.clone()}><span class="lane-name-text">{ writer.clone() }</span></div>
                    <ol class="lane-events">
                        { for replay.steps.iter().map(|s| {
                            if &s.writer != writer {
                                return html! { <li class="ev-gap" aria-hidden="true"></li> };
                            }
                            let index = s.index;
                            let happened = index < props.step;
                            let current = index + 1 == props.step;
                            let code = s.response.as_ref().filter(|_| happened).map(|r| r.code.to_string());
                            // The accessible name holds the visible text ("write 422").
                            let label = format!(
                                "Step {}: {} {}{}",
                                index + 1,
                                writer,
                                s.event,
                                code.as_deref().map(|c| format!(" {c}")).unwrap_or_default()
                            );
                            let ongoto = props.ongoto.clone();
                            html! {
                                <li>
                                    <button type="button"
                                        class={classes!("ev", status_class(s), happened.then_some("done"), current.then_some("current"))}
                                        aria-label={label}
                                        aria-current={current.then_some("step")}
                                        onclick={Callback::from(move |_: MouseEvent| ongoto.emit(index + 1))}>
                                        <span class="ev-kind">{ s.event.as_str() }</span>
                                        if let Some(code) = code {
                                            { " " }
                                            <span class="ev-code">{ code }</span>
                                        }
                                    </button>
                                </li>
                            }
                        }) }
                    </ol>
                </div>
            }) }
        </div>
    }
}
