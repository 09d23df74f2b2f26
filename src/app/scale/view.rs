//! The Scale view: inputs, a run in slices (so the page stays responsive),
//! then the charts. State lives in [`ScaleState`].

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::charts::Charts;
use super::state::{Run, ScaleAction, ScaleState, MAX_VMS};
use crate::app::components::{use_copy, CopyFallback, NoticeBar};
use crate::app::hooks::{use_share, use_shortcuts, use_view_state};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::sim::migrate::Migration;

impl Reducible for ScaleState {
    type Action = ScaleAction;
    fn reduce(self: Rc<Self>, action: ScaleAction) -> Rc<Self> {
        Rc::new(ScaleState::reduce(&self, action))
    }
}

#[derive(PartialEq, Properties)]
pub struct ScaleViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

fn number(event: &InputEvent) -> Option<u64> {
    event
        .target_dyn_into::<HtmlInputElement>()
        .and_then(|i| i.value().parse::<u64>().ok())
}

/// The Scale view.
#[component]
pub fn ScaleView(props: &ScaleViewProps) -> Html {
    let state = use_view_state::<ScaleState>(props.packed.clone());
    let copy = use_copy();
    let send = {
        let dispatcher = state.dispatcher();
        move |action: ScaleAction| dispatcher.dispatch(action)
    };
    let notify = {
        let send = send.clone();
        Callback::from(move |notice| send(ScaleAction::Notify(notice)))
    };
    use_runner(&state);
    let share = use_share(state.link(), &copy, notify);
    {
        let (send, share) = (send.clone(), share.clone());
        use_shortcuts(
            Some(View::Scale),
            Callback::from(move |shortcut| match shortcut {
                Shortcut::Run => send(ScaleAction::RequestRun),
                Shortcut::Share => share.emit(()),
                _ => {}
            }),
        );
    }
    let onsubmit = {
        let send = send.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            send(ScaleAction::RequestRun);
        })
    };
    let running = state.running();
    html! {
        <section class="view scale" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Scale" }</h1>
                <p class="summary">{ "Many VMIs migrating at once: per VMI, the VMI controller and the migration controller patch with the preset while virt-handler calls Update(), in a seeded random interleaving. The same seed gives the same numbers here and in patchlab migrate." }</p>
            </div>
            <form class="toolbar" {onsubmit} aria-label="Mass migration">
                <label class="field">
                    <span>{ "VMIs" }</span>
                    <input type="number" min="1" max={MAX_VMS.to_string()} value={state.inputs.vms.to_string()}
                        oninput={{ let send = send.clone(); Callback::from(move |e: InputEvent| if let Some(n) = number(&e) { send(ScaleAction::SetVms(n as usize)) }) }} />
                </label>
                <label class="field">
                    <span>{ "Seed" }</span>
                    <input type="number" min="0" value={state.inputs.seed.to_string()}
                        oninput={{ let send = send.clone(); Callback::from(move |e: InputEvent| if let Some(n) = number(&e) { send(ScaleAction::SetSeed(n)) }) }} />
                </label>
                <button type="submit" class="primary" disabled={running}>{ "Run" }<kbd class="shortcut-hint" aria-hidden="true">{ "r" }</kbd></button>
                if running {
                    <button type="button" onclick={{ let send = send.clone(); Callback::from(move |_: MouseEvent| send(ScaleAction::Cancel)) }}>{ "Cancel" }</button>
                }
                <button type="button" onclick={share.reform(|_: MouseEvent| ())}>
                    <span aria-live="polite">{ copy.label("share", "Share link") }</span><kbd class="shortcut-hint" aria-hidden="true">{ "l" }</kbd>
                </button>
            </form>
            <NoticeBar notice={state.notice.clone()} ondismiss={{ let send = send.clone(); Callback::from(move |()| send(ScaleAction::DismissNotice)) }} />
            { match &state.run {
                Run::Idle => html! { <p class="muted">{ "Choose how many VMIs migrate and a seed, then run." }</p> },
                Run::Running { done, total, .. } => html! {
                    <div class="progress-box">
                        <label for="scale-progress">{ format!("Simulating: {done} of {total} VMI runs (7 presets)") }</label>
                        <progress id="scale-progress" max={total.to_string()} value={done.to_string()}></progress>
                    </div>
                },
                Run::Failed(e) => html! { <p class="parse-error" role="alert">{ e.to_string() }</p> },
                Run::Done { result, ms } => html! { <Charts result={Rc::clone(result)} ms={*ms} /> },
            } }
            <CopyFallback copy={copy} />
        </section>
    }
}

/// Starts a run when the state asks for one, and pumps it in slices of
/// about 12 ms, yielding to the browser between them.
#[hook]
fn use_runner(state: &UseReducerHandle<ScaleState>) {
    let migration = use_mut_ref(|| None::<(u64, Migration, f64)>);
    let dispatcher = state.dispatcher();
    let requested = state.run_requested;
    let running = state.running();
    let options = state.options();
    let id = state.next_run_id();
    {
        let migration = migration.clone();
        use_effect_with(running, move |running| {
            if !*running {
                migration.borrow_mut().take();
            }
        });
    }
    use_effect_with(requested, move |requested| {
        if !*requested {
            return;
        }
        match Migration::new(&options) {
            Ok(m) => {
                let total = m.progress().1;
                *migration.borrow_mut() = Some((id, m, now()));
                dispatcher.dispatch(ScaleAction::Started { id, total });
                pump(migration, dispatcher);
            }
            Err(e) => dispatcher.dispatch(ScaleAction::Failed(e)),
        }
    });
}

fn pump(
    migration: Rc<RefCell<Option<(u64, Migration, f64)>>>,
    dispatcher: UseReducerDispatcher<ScaleState>,
) {
    Timeout::new(0, move || {
        let slice = now();
        let mut guard = migration.borrow_mut();
        let Some((id, m, started)) = guard.as_mut() else {
            return;
        };
        let mut finished = false;
        while now() - slice < 12.0 {
            if m.advance(10) {
                finished = true;
                break;
            }
        }
        let id = *id;
        if finished {
            let result = Rc::new(m.result());
            let ms = now() - *started;
            guard.take();
            drop(guard);
            dispatcher.dispatch(ScaleAction::Finished { id, result, ms });
        } else {
            let (done, _) = m.progress();
            drop(guard);
            dispatcher.dispatch(ScaleAction::Progress { id, done });
            pump(migration, dispatcher);
        }
    })
    .forget();
}
