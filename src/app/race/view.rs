//! The Race view: toolbar, player, swimlanes, the step card, outcomes,
//! compare mode, the explorer and the timeline editor.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use super::lanes::{lanes, LanesProps};
use super::player::{player, PlayerProps};
use super::scenarios::library;
use super::state::{RaceAction, RaceState, Source};
use super::step_card::{step_card, StepCardProps};
use super::story_card::{story_card, StoryCardProps};
use super::tables::{
    compare_table, explorer_table, outcomes_table, CompareProps, ExplorerProps, OutcomesProps,
};
use super::timeline_editor::{timeline_editor, TimelineEditorProps};
use crate::app::browser;
use crate::app::components::{
    copy_fallback, kubernetes_select, notice_bar, select, share_button, undo_button, Choice,
    CopyFallbackProps, KubernetesSelectProps, NoticeBarProps, ReformSome, SelectProps,
    ShareButtonProps, UndoButtonProps, UseCopy,
};
use crate::app::hooks::{use_copy, use_share, use_shortcuts, use_view, ViewHandle};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::app::view_state::ViewState;
use crate::engines::client::{use_ask, warm};
use crate::engines::read_yaml::ReadYaml;
use crate::engines::{Failure, Never};
use crate::sim::explore::{EXPLORE_EVENTS, EXPLORE_WRITERS};
use crate::strategy::Preset;

#[derive(PartialEq, Properties)]
pub struct RaceViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

/// The Race view.
#[component]
pub fn RaceView(props: &RaceViewProps) -> Html {
    let (state, send) = use_view::<RaceState>(props.packed.clone());
    let copy = use_copy();
    use_play_timer(&state, &send);
    use_reveal_step(state.step, state.raced.latest.is_some());
    let share = use_share(state.link(), &copy, send.reform(RaceAction::Notify));
    use_race_shortcuts(&state, &send, &share);
    use_engines(&state, &send);
    let on = |action: RaceAction| send.reform(move |()| action.clone());
    html! {
        <section class="view race" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Race" }</h1>
                <p class="summary">{ View::Race.summary() }</p>
            </div>
            <Toolbar state={state.clone()} copy={copy.clone()} send={send.clone()} onshare={share} />
            { notice_bar(&yew::props!(NoticeBarProps { notice: state.notice.clone(), ondismiss: on(RaceAction::DismissNotice), onundo: on(RaceAction::Undo) })) }
            if let Some((story, number, of)) = state.interleaving_story() {
                { story_card(&yew::props!(StoryCardProps { story, number, of, never_retried: state.never_retried() })) }
            } else {
                { super::story_card::subject_note(&state) }
            }
            { player(&yew::props!(PlayerProps { step: state.step, len: state.scenario.schedule.len(), playing: state.playing, speed: state.speed, send: send.clone() })) }
            { replay_part(&state, &send) }
            if state.explore {
                { explorer_part(&state, &send) }
            }
            { editor_part(&state, &send) }
            { copy_fallback(&yew::props!(CopyFallbackProps { copy })) }
        </section>
    }
}

/// The replay on screen (the engines' latest answer, dimmed while they
/// replay a change): the lanes, the step card, the outcomes and compare
/// mode's table; or why the engines could not replay it.
fn replay_part(state: &RaceState, send: &Callback<RaceAction>) -> Html {
    let note = waiting_note(
        state.race_failed(),
        state.replayed(),
        "Replaying…",
        "replay this race",
    );
    let Some((_, raced)) = state.raced.latest.clone() else {
        return note;
    };
    let stale = !state.replayed();
    let shown = match &raced.replay {
        Ok(replay) => html! {
            <>
                { lanes(&yew::props!(LanesProps {
                    raced: Rc::clone(&raced),
                    step: state.step,
                    writers: state.scenario.writers.iter().map(|w| w.name.clone()).collect::<Vec<_>>(),
                    ongoto: send.reform(RaceAction::Goto),
                })) }
                { step_card(&yew::props!(StepCardProps { step: state.current().cloned(), previous: state.previous_object().cloned() })) }
                { outcomes_table(&yew::props!(OutcomesProps { outcomes: replay.outcomes.clone() })) }
            </>
        },
        Err(err) => html! { <p class="parse-error" role="alert">{ err.to_string() }</p> },
    };
    html! {
        <>
            { note }
            <div class={classes!("race-results", stale.then_some("stale"))} aria-busy={(stale && state.race_failed().is_none()).to_string()}>
                { shown }
                if state.compare {
                    { compare_table(&yew::props!(CompareProps { raced })) }
                }
            </div>
        </>
    }
}

/// The explorer's table (the engines' latest, inert while it is of
/// another scenario or release: its rows would open another race).
fn explorer_part(state: &RaceState, send: &Callback<RaceAction>) -> Html {
    let here = state.explored_here();
    html! {
        <>
            { waiting_note(state.explore_failed(), here, "Exploring every interleaving…", "explore this race") }
            if let Some((_, explored)) = state.explored.latest.clone() {
                <div class={classes!("race-results", (!here).then_some("stale"))}
                    aria-busy={(!here && state.explore_failed().is_none()).to_string()}
                    inert={!here}>
                    { explorer_table(&yew::props!(ExplorerProps {
                        explored,
                        onopen: send.reform(|(index, preset, step)| RaceAction::OpenInterleaving { index, preset, step }),
                    })) }
                </div>
            }
        </>
    }
}

/// The timeline editor (opening it warms the engines, which read its
/// YAML).
fn editor_part(state: &RaceState, send: &Callback<RaceAction>) -> Html {
    timeline_editor(&yew::props!(TimelineEditorProps {
        writers: state.scenario.writers.clone(),
        intents: state.intents.clone(),
        overrides: state.overrides.clone(),
        objects: state
            .scenario
            .objects
            .iter()
            .map(crate::sim::server::key_of)
            .collect::<Vec<_>>(),
        onwriter: send.reform(|(w, e)| RaceAction::EditWriter(w, e)),
        schedule: state.scenario.schedule.clone(),
        open: state.editing,
        ontoggle: send.reform(|open| {
            if open {
                warm();
            }
            RaceAction::SetEditing(open)
        }),
        onpreset: send.reform(|(w, p)| RaceAction::SetWriterPreset(w, p)),
        onintents: send.reform(|(w, t)| RaceAction::EditIntents(w, t)),
        onadd: send.reform(RaceAction::AddEvent),
        onremove: send.reform(RaceAction::RemoveEvent),
        onup: send.reform(RaceAction::MoveUp),
        ondown: send.reform(RaceAction::MoveDown),
    }))
}

/// Asks the engines for what the state wants of them: the replay of what
/// runs, the exploration (when the explorer is on), and the editors' texts
/// that wait to be read (YAML: the Race module has no YAML reader). Their
/// answers come back as actions; a shipped race comes with its replay, and
/// nothing is asked again for a revision they failed on.
#[hook]
fn use_engines(state: &ViewHandle<RaceState>, send: &Callback<RaceAction>) {
    let asked = state.clone();
    use_ask(
        state.wants_race().map(|rev| (rev, move || asked.race())),
        false,
        send.reform(RaceAction::Raced),
    );
    let asked = state.clone();
    use_ask(
        state
            .wants_explore()
            .map(|rev| (rev, move || asked.exploration_asked())),
        false,
        send.reform(RaceAction::Explored),
    );
    let unread = state.unread();
    let texts = unread.clone();
    use_ask(
        (!unread.is_empty()).then(|| (state.typed, move || ReadYaml { texts: unread })),
        false,
        send.reform(move |said| RaceAction::YamlRead {
            texts: texts.clone(),
            said,
        }),
    );
}

/// What the engines are doing for a part of the view: nothing when it is
/// answered, a polite note while they work, why when they failed (the
/// race itself is never lost).
fn waiting_note(
    failed: Option<&Failure<Never>>,
    answered: bool,
    working: &'static str,
    what: &str,
) -> Html {
    match failed {
        Some(why) => html! {
            <p class="parse-error" role="alert">{ format!("patchlab's engines could not {what}: {why}. Your race is kept.") }</p>
        },
        None if !answered => html! { <p class="muted waiting" role="status">{ working }</p> },
        None => html! {},
    }
}

/// Race's keys: the player, compare, explore, undo, share.
#[hook]
fn use_race_shortcuts(
    state: &ViewHandle<RaceState>,
    send: &Callback<RaceAction>,
    share: &Callback<()>,
) {
    let (state, send, share) = (state.clone(), send.clone(), share.clone());
    use_shortcuts(
        Some(View::Race),
        Callback::from(move |shortcut| match shortcut {
            Shortcut::Back => send.emit(RaceAction::Prev),
            Shortcut::Forward => send.emit(RaceAction::Next),
            Shortcut::First => send.emit(RaceAction::Goto(0)),
            Shortcut::Last => send.emit(RaceAction::End),
            Shortcut::PlayPause => send.emit(if state.playing {
                RaceAction::Pause
            } else {
                RaceAction::Play
            }),
            Shortcut::Compare => send.emit(RaceAction::ToggleCompare),
            Shortcut::Explore => send.emit(RaceAction::ToggleExplore),
            Shortcut::Undo => send.emit(RaceAction::Undo),
            Shortcut::Share => share.emit(()),
            _ => {}
        }),
    );
}

/// One step per tick while playing.
#[hook]
fn use_play_timer(state: &RaceState, send: &Callback<RaceAction>) {
    let timer = use_mut_ref(|| None::<Timeout>);
    let send = send.clone();
    use_effect_with(
        (state.playing, state.step, state.speed),
        move |(playing, _, speed)| {
            *timer.borrow_mut() =
                playing.then(|| Timeout::new(*speed, move || send.emit(RaceAction::Tick)));
        },
    );
}

/// Brings the step card into view when the step changes and the card is
/// off screen (a phone, after tapping Forward). A link that opens at a
/// step opens there: once the replay is first on screen (the engines
/// answer after the first render), the page scrolls to the player, with
/// the lanes (the current event in the middle) and the step card below it.
#[hook]
fn use_reveal_step(step: usize, ready: bool) {
    let shown = use_mut_ref(|| None::<usize>);
    use_effect_with((step, ready), move |&(step, ready)| {
        if !ready {
            return;
        }
        follow_in_lanes();
        match shown.replace(Some(step)) {
            None if step > 0 => browser::scroll_to("race-player"),
            Some(before) if before != step => browser::reveal("step-card"),
            _ => {}
        }
    });
}

/// Scrolls the lanes sideways so that the current step's event is in the
/// middle (on a narrow screen they are wider than the page).
fn follow_in_lanes() {
    let document = gloo::utils::document();
    let Some(lanes) = document.get_element_by_id("lanes") else {
        return;
    };
    let Some(current) = lanes.query_selector(".ev.current").ok().flatten() else {
        return;
    };
    let (outer, inner) = (
        lanes.get_bounding_client_rect(),
        current.get_bounding_client_rect(),
    );
    let off_centre = inner.left() + inner.width() / 2.0 - (outer.left() + outer.width() / 2.0);
    if off_centre.abs() >= 1.0 {
        // Whole pixels: the offset of a box, well within i32.
        lanes.set_scroll_left(lanes.scroll_left() + off_centre.round() as i32);
    }
}

#[derive(PartialEq, Properties)]
struct ToolbarProps {
    state: ViewHandle<RaceState>,
    copy: UseCopy,
    send: Callback<RaceAction>,
    onshare: Callback<()>,
}

#[component]
fn Toolbar(props: &ToolbarProps) -> Html {
    let (state, send) = (&props.state, &props.send);
    let click = |action: RaceAction| send.reform(move |_: MouseEvent| action.clone());
    let shipped = match &state.source {
        Source::Shipped(id) => AttrValue::from(id.clone()),
        _ => AttrValue::default(),
    };
    let scenarios: Vec<Choice> = library()
        .iter()
        .map(|(id, s)| Choice::new(*id, s.name.clone()))
        .collect();
    let presets: Vec<Choice> = Preset::ALL
        .into_iter()
        .map(|p| Choice::plain(p.as_str()))
        .collect();
    let explorable = state.explorable();
    // Which releases run this race differently (the engines replay it on
    // each with the replay).
    let differs = state.release_differences();
    html! {
        <div class="toolbar" role="toolbar" aria-label="Race actions">
            { select(&yew::props!(SelectProps { label: "Scenario", choices: scenarios, selected: shipped.clone(), placeholder: shipped.is_empty().then(|| AttrValue::from(state.label())), onchange: send.reform_some(|id: String| (!id.is_empty()).then_some(RaceAction::Load(id))) })) }
            // Choosing a preset or a release asks the engines for a replay:
            // their download starts when either takes the focus.
            <span class="warms" onfocusin={Callback::from(|_: FocusEvent| warm())}>
                { select(&yew::props!(SelectProps { label: "Preset for writers", choices: presets, placeholder: "each writer's own", selected: state.preset.map_or("", Preset::as_str), onchange: send.reform(|v: String| RaceAction::SetPreset(v.parse::<Preset>().ok())) })) }
                { kubernetes_select(&yew::props!(KubernetesSelectProps { value: state.cluster(), onchange: send.reform(RaceAction::SetKubernetes), differs })) }
            </span>
            <button type="button" aria-pressed={state.compare.to_string()} onclick={click(RaceAction::ToggleCompare)}>
                { "Compare presets" }<kbd class="shortcut-hint" aria-hidden="true">{ "c" }</kbd>
            </button>
            <button type="button" aria-pressed={state.explore.to_string()} disabled={!explorable} onclick={click(RaceAction::ToggleExplore)}>
                { "Explore interleavings" }<kbd class="shortcut-hint" aria-hidden="true">{ "e" }</kbd>
            </button>
            if !explorable {
                <span class="muted small">{ format!("The explorer takes at most {EXPLORE_WRITERS} writers and {EXPLORE_EVENTS} events.") }</span>
            }
            { undo_button(&yew::props!(UndoButtonProps { shown: state.undo.is_some(), onundo: send.reform(|()| RaceAction::Undo) })) }
            { share_button(&yew::props!(ShareButtonProps { class: "primary", copy: props.copy.clone(), onshare: props.onshare.clone() })) }
        </div>
    }
}
