//! The Scale view: sliders for the inputs, the charts following them. Every
//! move asks the engines' worker for a new run ([`crate::engines::scale`]),
//! which replaces the one going on; its counts stream in as actions on
//! [`ScaleState`], so the page never waits for a simulation.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::charts::Charts;
use super::progress::{estimate, summary, Progress};
use super::state::{ScaleAction, ScaleState, VMI_STEPS};
use crate::app::components::{
    copy_fallback, notice_bar, share_button, undo_button, CopyFallbackProps, NoticeBarProps,
    ReformSome, ShareButtonProps, UndoButtonProps,
};
use crate::app::hooks::{use_copy, use_share, use_shortcuts, use_view, ViewHandle};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::app::view_state::ViewState;
use crate::engines::client::use_ask;
use crate::limits::{MIGRATE_CHURN, MIGRATE_RETRIES, MIGRATE_VMS};

#[derive(PartialEq, Properties)]
pub struct ScaleViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

fn number(event: &InputEvent) -> Option<u64> {
    event
        .target_dyn_into::<HtmlInputElement>()
        .and_then(|i| i.value().trim().parse::<u64>().ok())
}

/// The slider stop nearest to `vms`.
fn step_of(vms: usize) -> usize {
    VMI_STEPS
        .iter()
        .enumerate()
        .min_by_key(|(_, &step)| step.abs_diff(vms))
        .map_or(0, |(i, _)| i)
}

/// The Scale view.
#[component]
pub fn ScaleView(props: &ScaleViewProps) -> Html {
    let (state, send) = use_view::<ScaleState>(props.packed.clone());
    let copy = use_copy();
    use_runner(&state, &send);
    let share = use_share(state.link(), &copy, send.reform(ScaleAction::Notify));
    {
        let (send, share) = (send.clone(), share.clone());
        use_shortcuts(
            Some(View::Scale),
            Callback::from(move |shortcut| match shortcut {
                Shortcut::Run => send.emit(ScaleAction::RequestRun),
                Shortcut::Undo => send.emit(ScaleAction::Undo),
                Shortcut::Share => share.emit(()),
                _ => {}
            }),
        );
    }
    let onsubmit = send.reform(|event: SubmitEvent| {
        event.prevent_default();
        ScaleAction::RequestRun
    });
    let on =
        |make: fn(u64) -> ScaleAction| send.reform_some(move |e: InputEvent| number(&e).map(make));
    let inputs = state.inputs;
    let running = state.running();
    html! {
        <section class="view scale" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Scale" }</h1>
                <p class="summary">{ "Many VMIs migrating at once. Per VMI, the VMI controller and the migration controller patch with the preset while virt-handler calls Update(); churn adds writers that each change a label of their own. Interleavings are seeded: the same inputs give the same numbers here and in patchlab migrate. Move a slider and the charts follow." }</p>
            </div>
            <form class="toolbar scale-inputs" {onsubmit} aria-label="Mass migration">
                <label class="field slider">
                    <span>{ "VMIs" }</span>
                    <input type="range" min="0" max={(VMI_STEPS.len() - 1).to_string()} value={step_of(inputs.vms).to_string()}
                        aria-label="VMIs (slider)" aria-valuetext={inputs.vms.to_string()}
                        oninput={on(|i| ScaleAction::SetVms(VMI_STEPS[(i as usize).min(VMI_STEPS.len() - 1)]))} />
                    <input type="number" min="1" max={MIGRATE_VMS.to_string()} value={inputs.vms.to_string()}
                        aria-label="VMIs" oninput={on(|n| ScaleAction::SetVms(n as usize))} />
                </label>
                <label class="field slider">
                    <span>{ format!("Churn: {}", inputs.churn) }</span>
                    <input type="range" min="0" max={MIGRATE_CHURN.to_string()} value={inputs.churn.to_string()}
                        aria-label="Churn (extra writers per VMI)" oninput={on(|n| ScaleAction::SetChurn(n as usize))} />
                </label>
                <label class="field slider">
                    <span>{ format!("Retries: {}", inputs.retries) }</span>
                    <input type="range" min="0" max={MIGRATE_RETRIES.to_string()} value={inputs.retries.to_string()}
                        aria-label="Retries per writer" oninput={on(|n| ScaleAction::SetRetries(n as u32))} />
                </label>
                <label class="field">
                    <span>{ "Seed" }</span>
                    <input type="number" min="0" value={inputs.seed.to_string()} oninput={on(ScaleAction::SetSeed)} />
                </label>
                <button type="submit" class="primary">{ "Run again" }<kbd class="shortcut-hint" aria-hidden="true">{ "r" }</kbd></button>
                if running {
                    <button type="button" onclick={send.reform(|_: MouseEvent| ScaleAction::Cancel)}>{ "Stop" }</button>
                }
                { undo_button(&yew::props!(UndoButtonProps { shown: state.undo.is_some(), onundo: send.reform(|()| ScaleAction::Undo) })) }
                { share_button(&yew::props!(ShareButtonProps { copy: copy.clone(), onshare: share })) }
            </form>
            { notice_bar(&yew::props!(NoticeBarProps { notice: state.notice.clone(), ondismiss: send.reform(|()| ScaleAction::DismissNotice), onundo: send.reform(|()| ScaleAction::Undo) })) }
            if state.held {
                <div class="held-run" role="status">
                    <p>{ estimate(&state).unwrap_or_default() }</p>
                    <button type="button" class="primary" onclick={send.reform(|_: MouseEvent| ScaleAction::RequestRun)}>{ "Run it" }</button>
                </div>
            }
            <Progress run={state.run.clone()} vms={state.inputs.vms} estimate={state.running().then(|| estimate(&state)).flatten()} />
            if let Some(result) = state.shown() {
                <Charts result={Rc::clone(result)} summary={summary(&state)} />
            }
            { copy_fallback(&yew::props!(CopyFallbackProps { copy: copy })) }
        </section>
    }
}

/// Asks the engines for the run under way whenever a new one starts (the
/// simulator runs in the engines' worker, in parts, never on the page's
/// thread), and turns their answers into actions. A run stopped, or
/// replaced, is cancelled there.
#[hook]
fn use_runner(state: &ViewHandle<ScaleState>, send: &Callback<ScaleAction>) {
    use_ask(
        state.wants_run().map(|(rev, scale)| (rev, move || scale)),
        false,
        send.reform(ScaleAction::Answered),
    );
}
