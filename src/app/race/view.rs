//! The Race view: toolbar, player, swimlanes, the step card, outcomes,
//! compare mode, the explorer and the timeline editor.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::lanes::Lanes;
use super::scenarios::library;
use super::state::{RaceAction, RaceState};
use super::step_card::StepCard;
use super::tables::{CompareTable, ExplorerTable, OutcomesTable};
use super::timeline_editor::TimelineEditor;
use crate::app::browser;
use crate::app::components::{use_copy, CopyFallback, KubernetesSelect, NoticeBar, UseCopy};
use crate::app::hooks::{use_share, use_shortcuts, use_view_state};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::sim::timeline::Replay;
use crate::strategy::Preset;

impl Reducible for RaceState {
    type Action = RaceAction;
    fn reduce(self: Rc<Self>, action: RaceAction) -> Rc<Self> {
        Rc::new(RaceState::reduce(&self, action))
    }
}

#[derive(PartialEq, Properties)]
pub struct RaceViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

fn select_value(event: &Event) -> Option<String> {
    event
        .target_dyn_into::<HtmlSelectElement>()
        .map(|s| s.value())
}

/// The Race view.
#[component]
pub fn RaceView(props: &RaceViewProps) -> Html {
    let state = use_view_state::<RaceState>(props.packed.clone());
    let copy = use_copy();
    let send = {
        let dispatcher = state.dispatcher();
        move |action: RaceAction| dispatcher.dispatch(action)
    };
    let notify = {
        let send = send.clone();
        Callback::from(move |notice| send(RaceAction::Notify(notice)))
    };
    use_play_timer(&state);
    use_reveal_step(state.step);
    let share = use_share(state.link(), &copy, notify);
    {
        let (state, send, share) = (state.clone(), send.clone(), share.clone());
        use_shortcuts(
            Some(View::Race),
            Callback::from(move |shortcut| match shortcut {
                Shortcut::Back => send(RaceAction::Prev),
                Shortcut::Forward => send(RaceAction::Next),
                Shortcut::First => send(RaceAction::Goto(0)),
                Shortcut::Last => send(RaceAction::End),
                Shortcut::PlayPause => send(if state.playing {
                    RaceAction::Pause
                } else {
                    RaceAction::Play
                }),
                Shortcut::Compare => send(RaceAction::ToggleCompare),
                Shortcut::Explore => send(RaceAction::ToggleExplore),
                Shortcut::Undo => send(RaceAction::Undo),
                Shortcut::Share => share.emit(()),
                _ => {}
            }),
        );
    }
    let on = |action: RaceAction| {
        let send = send.clone();
        Callback::from(move |()| send(action.clone()))
    };
    let replay = state.replay.as_ref();
    html! {
        <section class="view race" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Race" }</h1>
                <p class="summary">{ View::Race.summary() }</p>
            </div>
            <Toolbar state={Rc::new((*state).clone())} copy={copy.clone()}
                onscenario={{ let send = send.clone(); Callback::from(move |id| send(RaceAction::Load(id))) }}
                onpreset={{ let send = send.clone(); Callback::from(move |p| send(RaceAction::SetPreset(p))) }}
                onkubernetes={{ let send = send.clone(); Callback::from(move |v| send(RaceAction::SetKubernetes(v))) }}
                oncompare={on(RaceAction::ToggleCompare)} onexplore={on(RaceAction::ToggleExplore)}
                onundo={on(RaceAction::Undo)} onshare={share} />
            <NoticeBar notice={state.notice.clone()} ondismiss={on(RaceAction::DismissNotice)} onundo={on(RaceAction::Undo)} />
            if !state.scenario.description.is_empty() {
                <p class="subject-note">{ state.scenario.description.clone() }</p>
            }
            <Player step={state.step} len={state.scenario.schedule.len()} playing={state.playing} speed={state.speed}
                ongoto={{ let send = send.clone(); Callback::from(move |i| send(RaceAction::Goto(i))) }}
                onback={on(RaceAction::Prev)} onforward={on(RaceAction::Next)}
                onplay={on(RaceAction::Play)} onpause={on(RaceAction::Pause)}
                onspeed={{ let send = send.clone(); Callback::from(move |ms| send(RaceAction::SetSpeed(ms))) }} />
            { match replay {
                Ok(replay) => html! {
                    <>
                        <Lanes replay={Rc::clone(&state.replay)} step={state.step}
                            writers={state.scenario.writers.iter().map(|w| w.name.clone()).collect::<Vec<_>>()}
                            ongoto={{ let send = send.clone(); Callback::from(move |i| send(RaceAction::Goto(i))) }} />
                        <StepCard step={state.current().cloned()} previous={previous_object(replay, state.step)} />
                        <OutcomesTable outcomes={replay.outcomes.clone()} />
                    </>
                },
                Err(err) => html! { <p class="parse-error" role="alert">{ err.to_string() }</p> },
            } }
            if let Some(rows) = &state.compare {
                <CompareTable rows={Rc::clone(rows)} />
            }
            if let Some(exploration) = &state.exploration {
                <ExplorerTable exploration={Rc::clone(exploration)}
                    onopen={{ let send = send.clone(); Callback::from(move |(index, preset, step)| send(RaceAction::OpenInterleaving { index, preset, step })) }} />
            }
            <TimelineEditor writers={state.scenario.writers.clone()} intents={state.intents.clone()}
                schedule={state.scenario.schedule.clone()} open={state.editing}
                ontoggle={{ let send = send.clone(); Callback::from(move |open| send(RaceAction::SetEditing(open))) }}
                onpreset={{ let send = send.clone(); Callback::from(move |(w, p)| send(RaceAction::SetWriterPreset(w, p))) }}
                onintents={{ let send = send.clone(); Callback::from(move |(w, t)| send(RaceAction::EditIntents(w, t))) }}
                onadd={{ let send = send.clone(); Callback::from(move |e| send(RaceAction::AddEvent(e))) }}
                onremove={{ let send = send.clone(); Callback::from(move |i| send(RaceAction::RemoveEvent(i))) }}
                onup={{ let send = send.clone(); Callback::from(move |i| send(RaceAction::MoveUp(i))) }}
                ondown={{ let send = send.clone(); Callback::from(move |i| send(RaceAction::MoveDown(i))) }} />
            <CopyFallback copy={copy} />
        </section>
    }
}

/// One step per tick while playing.
#[hook]
fn use_play_timer(state: &UseReducerHandle<RaceState>) {
    let timer = use_mut_ref(|| None::<Timeout>);
    let dispatcher = state.dispatcher();
    use_effect_with(
        (state.playing, state.step, state.speed),
        move |(playing, _, speed)| {
            *timer.borrow_mut() = playing
                .then(|| Timeout::new(*speed, move || dispatcher.dispatch(RaceAction::Tick)));
        },
    );
}

/// Brings the step card into view when the step changes and the card is
/// off screen (a phone, after tapping Forward).
#[hook]
fn use_reveal_step(step: usize) {
    let first = use_mut_ref(|| true);
    use_effect_with(step, move |_| {
        if !std::mem::replace(&mut *first.borrow_mut(), false) {
            browser::reveal("step-card");
        }
    });
}

fn previous_object(replay: &Replay, step: usize) -> Option<serde_json::Value> {
    match step {
        0 | 1 => replay.initial.first().cloned(),
        n => replay.steps.get(n - 2).map(|s| s.object.clone()),
    }
}

#[derive(PartialEq, Properties)]
struct ToolbarProps {
    state: Rc<RaceState>,
    copy: UseCopy,
    onscenario: Callback<String>,
    onpreset: Callback<Option<Preset>>,
    onkubernetes: Callback<crate::kube::KubeVersion>,
    oncompare: Callback<()>,
    onexplore: Callback<()>,
    onundo: Callback<()>,
    onshare: Callback<()>,
}

#[component]
fn Toolbar(props: &ToolbarProps) -> Html {
    let state = &props.state;
    let onscenario = {
        let onscenario = props.onscenario.clone();
        Callback::from(move |event: Event| {
            if let Some(id) = select_value(&event).filter(|v| !v.is_empty()) {
                onscenario.emit(id);
            }
        })
    };
    let onpreset = {
        let onpreset = props.onpreset.clone();
        Callback::from(move |event: Event| {
            if let Some(value) = select_value(&event) {
                onpreset.emit(value.parse::<Preset>().ok());
            }
        })
    };
    let click = |cb: &Callback<()>| cb.reform(|_: MouseEvent| ());
    let shipped = state.source.id();
    let explorable = state.explorable();
    html! {
        <div class="toolbar" role="toolbar" aria-label="Race actions">
            <label class="field">
                <span>{ "Scenario" }</span>
                <select onchange={onscenario}>
                    if !matches!(state.source, super::state::Source::Shipped(_)) {
                        <option value="" selected=true>{ state.label() }</option>
                    }
                    { for library().iter().map(|(id, s)| html! {
                        <option value={*id} selected={matches!(state.source, super::state::Source::Shipped(_)) && shipped == Some(*id)}>{ s.name.clone() }</option>
                    }) }
                </select>
            </label>
            <label class="field">
                <span>{ "Preset for writers" }</span>
                <select onchange={onpreset}>
                    <option value="" selected={state.preset.is_none()}>{ "each writer's own" }</option>
                    { for Preset::ALL.into_iter().map(|p| html! {
                        <option value={p.as_str()} selected={state.preset == Some(p)}>{ p.as_str() }</option>
                    }) }
                </select>
            </label>
            <KubernetesSelect value={state.cluster()} onchange={props.onkubernetes.clone()} />
            <button type="button" aria-pressed={state.compare.is_some().to_string()} onclick={click(&props.oncompare)}>
                { "Compare presets" }<kbd class="shortcut-hint" aria-hidden="true">{ "c" }</kbd>
            </button>
            <button type="button" aria-pressed={state.exploration.is_some().to_string()} disabled={!explorable} onclick={click(&props.onexplore)}>
                { "Explore interleavings" }<kbd class="shortcut-hint" aria-hidden="true">{ "e" }</kbd>
            </button>
            if !explorable {
                <span class="muted small">{ format!("The explorer takes at most {} writers and {} events.", crate::sim::explore::EXPLORE_WRITERS, crate::sim::explore::EXPLORE_EVENTS) }</span>
            }
            if state.undo.is_some() {
                <button type="button" class="undo" onclick={click(&props.onundo)}>{ "Undo" }<kbd class="shortcut-hint" aria-hidden="true">{ "z" }</kbd></button>
            }
            <button type="button" class="primary" onclick={click(&props.onshare)}>
                <span aria-live="polite">{ props.copy.label("share", "Share link") }</span><kbd class="shortcut-hint" aria-hidden="true">{ "l" }</kbd>
            </button>
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct PlayerProps {
    step: usize,
    len: usize,
    playing: bool,
    speed: u32,
    ongoto: Callback<usize>,
    onback: Callback<()>,
    onforward: Callback<()>,
    onplay: Callback<()>,
    onpause: Callback<()>,
    onspeed: Callback<u32>,
}

#[component]
fn Player(props: &PlayerProps) -> Html {
    let click = |cb: &Callback<()>| cb.reform(|_: MouseEvent| ());
    let onscrub = {
        let ongoto = props.ongoto.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(step) = event
                .target_dyn_into::<HtmlInputElement>()
                .and_then(|i| i.value().parse::<usize>().ok())
            {
                ongoto.emit(step);
            }
        })
    };
    let onspeed = {
        let onspeed = props.onspeed.clone();
        Callback::from(move |event: Event| {
            if let Some(ms) = select_value(&event).and_then(|v| v.parse::<u32>().ok()) {
                onspeed.emit(ms);
            }
        })
    };
    let (step, len) = (props.step, props.len);
    html! {
        <div class="player" role="group" aria-label="Playback">
            <button type="button" onclick={props.ongoto.reform(|_: MouseEvent| 0)} disabled={step == 0}>{ "Start" }</button>
            <button type="button" onclick={click(&props.onback)} disabled={step == 0}>
                <span aria-hidden="true">{ "◀ " }</span>{ "Back" }<kbd class="shortcut-hint" aria-hidden="true">{ "←" }</kbd>
            </button>
            if props.playing {
                <button type="button" class="primary" onclick={click(&props.onpause)}>{ "Pause" }<kbd class="shortcut-hint" aria-hidden="true">{ "p" }</kbd></button>
            } else {
                <button type="button" class="primary" onclick={click(&props.onplay)}>{ "Play" }<kbd class="shortcut-hint" aria-hidden="true">{ "p" }</kbd></button>
            }
            <button type="button" onclick={click(&props.onforward)} disabled={step >= len}>
                { "Forward" }<span aria-hidden="true">{ " ▶" }</span><kbd class="shortcut-hint" aria-hidden="true">{ "→" }</kbd>
            </button>
            <input type="range" min="0" max={len.to_string()} value={step.to_string()} aria-label="Timeline position" oninput={onscrub} />
            <span class="step-count" aria-live="polite">{ format!("step {step} of {len}") }</span>
            <label class="field">
                <span>{ "Speed" }</span>
                <select onchange={onspeed}>
                    { for [(2000, "slow"), (900, "normal"), (350, "fast")].into_iter().map(|(ms, label)| html! {
                        <option value={ms.to_string()} selected={props.speed == ms}>{ label }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}
