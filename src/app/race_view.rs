//! The Race view: concurrent writers step by step, in swimlanes, with each
//! request and response, the object as it changes, compare mode, the
//! interleaving explorer and an editable timeline.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::browser;
use super::build::Notice;
use super::race::{library, line_diff, RaceAction, RaceLink, RaceState};
use super::share;
use crate::sim::timeline::{
    ConflictKind as Conflict, Event as TimelineEvent, Outcomes, Replay, Step,
};
use crate::strategy::Preset;

const STORAGE_KEY: &str = "patchlab.race";

impl Reducible for RaceState {
    type Action = RaceAction;
    fn reduce(self: Rc<Self>, action: RaceAction) -> Rc<Self> {
        Rc::new(RaceState::reduce(&self, action))
    }
}

fn initial(query: &str) -> RaceState {
    if let Some(param) = share::state_param(query) {
        return match share::decode_value::<RaceLink>(param).map_err(|e| e.to_string()) {
            Ok(link) => match RaceState::open(link) {
                Ok(state) => state,
                Err(why) => saved().with_error(format!(
                    "This link could not be opened: {why}. Nothing was changed."
                )),
            },
            Err(err) => saved().with_error(format!("{err} Nothing was changed.")),
        };
    }
    saved()
}

fn saved() -> RaceState {
    match browser::load(STORAGE_KEY) {
        Some(text) => match serde_json::from_str::<RaceLink>(&text)
            .map_err(|e| e.to_string())
            .and_then(RaceState::open)
        {
            Ok(state) => state,
            Err(why) => RaceState::default().with_error(format!(
                "Your saved race could not be read ({why}) and was ignored."
            )),
        },
        None => RaceState::default(),
    }
}

#[derive(PartialEq, Properties)]
pub struct RaceViewProps {
    /// The route's query (`s=...` when opened from a link).
    pub query: AttrValue,
}

fn select_value(event: &Event) -> Option<String> {
    event
        .target_dyn_into::<HtmlSelectElement>()
        .map(|s| s.value())
}

#[component]
pub fn RaceView(props: &RaceViewProps) -> Html {
    let query = props.query.clone();
    let state = use_reducer(move || initial(&query));
    let copied = use_state(|| false);
    let play_timer = use_mut_ref(|| None::<Timeout>);
    let save_timer = use_mut_ref(|| None::<Timeout>);
    let storage_failed = use_mut_ref(|| false);

    {
        let state = state.clone();
        use_effect_with(props.query.clone(), move |query| {
            if let Some(param) = share::state_param(query) {
                if share::encode_value(&state.link()) != param {
                    match share::decode_value::<RaceLink>(param) {
                        Ok(link) => state.dispatch(RaceAction::Open(link)),
                        Err(err) => state.dispatch(RaceAction::Notify(Notice {
                            error: true,
                            text: format!("{err} Nothing was changed."),
                        })),
                    }
                }
            }
        });
    }
    // Playing: one step per tick.
    {
        let timer = play_timer.clone();
        let dispatcher = state.dispatcher();
        use_effect_with(
            (state.playing, state.step, state.speed),
            move |(playing, _, speed)| {
                if *playing {
                    let speed = *speed;
                    *timer.borrow_mut() = Some(Timeout::new(speed, move || {
                        dispatcher.dispatch(RaceAction::Tick)
                    }));
                } else {
                    timer.borrow_mut().take();
                }
            },
        );
    }
    // URL and storage follow the state.
    {
        let link = state.link();
        let timer = save_timer.clone();
        let failed = storage_failed.clone();
        let dispatcher = state.dispatcher();
        use_effect_with(link, move |link| {
            let link = link.clone();
            *timer.borrow_mut() = Some(Timeout::new(250, move || {
                browser::replace_fragment(&format!("#/race?s={}", share::encode_value(&link)));
                let json = serde_json::to_string(&link).unwrap_or_default();
                if let Err(why) = browser::save(STORAGE_KEY, &json) {
                    if !failed.replace(true) {
                        dispatcher.dispatch(RaceAction::Notify(Notice {
                            error: false,
                            text: format!("Your race is not saved in this browser ({why}); it stays in this tab and in the page's link."),
                        }));
                    }
                }
            }));
        });
    }

    let send = |action: RaceAction| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(action.clone()))
    };
    let on_scenario = {
        let state = state.clone();
        Callback::from(move |event: Event| {
            if let Some(id) = select_value(&event) {
                state.dispatch(RaceAction::Load(id));
            }
        })
    };
    let on_preset = {
        let state = state.clone();
        Callback::from(move |event: Event| {
            if let Some(value) = select_value(&event) {
                state.dispatch(RaceAction::SetPreset(value.parse::<Preset>().ok()));
            }
        })
    };
    let on_scrub = {
        let state = state.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target_dyn_into::<HtmlInputElement>() {
                if let Ok(step) = input.value().parse::<usize>() {
                    state.dispatch(RaceAction::Goto(step));
                }
            }
        })
    };
    let on_speed = {
        let state = state.clone();
        Callback::from(move |event: Event| {
            if let Some(ms) = select_value(&event).and_then(|v| v.parse::<u32>().ok()) {
                state.dispatch(RaceAction::SetSpeed(ms));
            }
        })
    };
    let share_link = {
        let state = state.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            let url =
                browser::url_with(&format!("#/race?s={}", share::encode_value(&state.link())));
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if browser::copy(url).await.is_ok() {
                    copied.set(true);
                    let copied = copied.clone();
                    Timeout::new(2000, move || copied.set(false)).forget();
                }
            });
        })
    };

    let len = state.scenario.schedule.len();
    let step = state.step;
    let replay = state.replay.as_ref();
    let explorable = state.scenario.writers.len() <= crate::sim::explore::MAX_WRITERS
        && len <= crate::sim::explore::MAX_EVENTS;

    html! {
        <section class="view race" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Race" }</h1>
                <p class="summary">{ "Replay concurrent writers step by step: which test fails, which write erases another." }</p>
            </div>
            <div class="toolbar" role="toolbar" aria-label="Race actions">
                <label class="field">
                    <span>{ "Scenario" }</span>
                    <select aria-label="Scenario" onchange={on_scenario}>
                        if state.id.is_none() {
                            <option value="" selected=true>{ format!("{} (edited)", state.scenario.name) }</option>
                        }
                        { for library().iter().map(|(id, s)| html! {
                            <option value={*id} selected={state.id.as_deref() == Some(*id)}>{ s.name.clone() }</option>
                        }) }
                    </select>
                </label>
                <label class="field">
                    <span>{ "Preset" }</span>
                    <select aria-label="Preset for writers" onchange={on_preset}>
                        <option value="" selected={state.preset.is_none()}>{ "each writer's own" }</option>
                        { for Preset::ALL.into_iter().map(|p| html! {
                            <option value={p.as_str()} selected={state.preset == Some(p)}>{ p.as_str() }</option>
                        }) }
                    </select>
                </label>
                <button type="button" aria-pressed={state.compare.is_some().to_string()} onclick={send(RaceAction::ToggleCompare)}>{ "Compare presets" }</button>
                <button type="button" disabled={!explorable} onclick={send(RaceAction::Explore)}
                    title={if explorable { "Replay every interleaving under every preset" } else { "At most 3 writers and 8 events" }}>
                    { "Explore interleavings" }
                </button>
                if state.undo.is_some() {
                    <button type="button" class="undo" onclick={send(RaceAction::Undo)}>{ "Undo loading" }</button>
                }
                <button type="button" class="primary" onclick={share_link}>{ if *copied { "Link copied" } else { "Share link" } }</button>
            </div>
            if let Some(notice) = &state.notice {
                <div class={classes!("notice", notice.error.then_some("notice-error"))} role={if notice.error { "alert" } else { "status" }}>
                    <span>{ notice.text.clone() }</span>
                    <button type="button" class="link" onclick={send(RaceAction::DismissNotice)}>{ "Dismiss" }</button>
                </div>
            }
            if !state.scenario.description.is_empty() {
                <p class="example-note">{ state.scenario.description.clone() }</p>
            }
            <div class="player" role="group" aria-label="Playback">
                <button type="button" onclick={send(RaceAction::Goto(0))}>{ "Start" }</button>
                <button type="button" onclick={send(RaceAction::Prev)} aria-label="Step back" disabled={step == 0}>{ "◀ Back" }</button>
                if state.playing {
                    <button type="button" class="primary" onclick={send(RaceAction::Pause)}>{ "Pause" }</button>
                } else {
                    <button type="button" class="primary" onclick={send(RaceAction::Play)}>{ "Play" }</button>
                }
                <button type="button" onclick={send(RaceAction::Next)} aria-label="Step forward" disabled={step >= len}>{ "Forward ▶" }</button>
                <input type="range" min="0" max={len.to_string()} value={step.to_string()} aria-label="Timeline position" oninput={on_scrub} />
                <span class="step-count" aria-live="polite">{ format!("step {step} of {len}") }</span>
                <label class="field">
                    <span>{ "Speed" }</span>
                    <select aria-label="Speed" onchange={on_speed}>
                        { for [(2000, "slow"), (900, "normal"), (350, "fast")].into_iter().map(|(ms, label)| html! {
                            <option value={ms.to_string()} selected={state.speed == ms}>{ label }</option>
                        }) }
                    </select>
                </label>
            </div>
            { match replay {
                Ok(replay) => html! {
                    <>
                        <Lanes replay={Rc::clone(&state.replay)} {step} writers={state.scenario.writers.iter().map(|w| w.name.clone()).collect::<Vec<_>>()}
                            ongoto={{ let state = state.clone(); Callback::from(move |i| state.dispatch(RaceAction::Goto(i))) }} />
                        <StepDetail step={state.current().cloned()} previous={previous_object(replay, step)} />
                        <OutcomesTable outcomes={replay.outcomes.clone()} />
                    </>
                },
                Err(err) => html! { <p class="parse-error" role="alert">{ err.clone() }</p> },
            } }
            if let Some(rows) = &state.compare {
                <section class="compare" aria-labelledby="compare-title">
                    <h2 id="compare-title">{ "The same timeline under each preset" }</h2>
                    <div class="table-scroll">
                        <table class="outcomes">
                            <thead><tr>
                                <th scope="col">{ "Preset" }</th><th scope="col">{ "Writes" }</th><th scope="col">{ "422" }</th>
                                <th scope="col">{ "409" }</th><th scope="col">{ "False conflicts" }</th><th scope="col">{ "True conflicts" }</th>
                                <th scope="col">{ "Lost updates" }</th><th scope="col">{ "Converged" }</th>
                            </tr></thead>
                            <tbody>
                                { for rows.iter().map(|row| match &row.outcomes {
                                    Ok(o) => {
                                        let sum = |f: fn(&crate::sim::timeline::WriterOutcome) -> u64| o.writers.iter().map(f).sum::<u64>();
                                        html! {
                                            <tr>
                                                <th scope="row">{ row.preset.as_str() }</th>
                                                <td>{ sum(|w| w.counts.writes) }</td>
                                                <td>{ sum(|w| w.counts.invalid) }</td>
                                                <td>{ sum(|w| w.counts.conflict) }</td>
                                                <td>{ sum(|w| w.counts.false_conflicts) }</td>
                                                <td>{ sum(|w| w.counts.true_conflicts) }</td>
                                                <td class={classes!((!o.lost_updates.is_empty()).then_some("bad"))}>{ o.lost_updates.len() }</td>
                                                <td class={if o.intents_hold { "ok" } else { "bad" }}>{ if o.intents_hold { "yes" } else { "no" } }</td>
                                            </tr>
                                        }
                                    }
                                    Err(e) => html! { <tr><th scope="row">{ row.preset.as_str() }</th><td colspan="7">{ e.clone() }</td></tr> },
                                }) }
                            </tbody>
                        </table>
                    </div>
                </section>
            }
            if let Some(exploration) = &state.exploration {
                { explorer(exploration, &state) }
            }
            <Editing state={state.clone()} />
        </section>
    }
}

fn previous_object(replay: &Replay, step: usize) -> Option<serde_json::Value> {
    match step {
        0 | 1 => replay.initial.first().cloned(),
        n => replay.steps.get(n - 2).map(|s| s.object.clone()),
    }
}

#[derive(PartialEq, Properties)]
struct LanesProps {
    replay: Rc<Result<Replay, String>>,
    step: usize,
    writers: Vec<String>,
    ongoto: Callback<usize>,
}

fn status_class(step: &Step) -> &'static str {
    match (&step.response, step.lost.is_empty()) {
        (Some(r), true) if r.is_success() => "ev-ok",
        (Some(r), false) if r.is_success() => "ev-lost",
        (Some(_), _) => "ev-bad",
        (None, _) => "ev-none",
    }
}

#[component]
fn Lanes(props: &LanesProps) -> Html {
    let Ok(replay) = props.replay.as_ref() else {
        return html! {};
    };
    html! {
        <div class="lanes" role="group" aria-label="Writers' timelines">
            { for props.writers.iter().map(|writer| html! {
                <div class="lane">
                    <div class="lane-name">{ writer.clone() }</div>
                    <ol class="lane-events">
                        { for replay.steps.iter().map(|s| {
                            if &s.writer != writer {
                                return html! { <li class="ev-gap" aria-hidden="true"></li> };
                            }
                            let index = s.index;
                            let happened = index < props.step;
                            let current = index + 1 == props.step;
                            let code = s.response.as_ref().map(|r| r.code.to_string()).unwrap_or_default();
                            // The accessible name ends with the visible text ("write 422").
                            let shown_code = if happened && !code.is_empty() { format!(" {code}") } else { String::new() };
                            let label = format!("Step {}: {} {}{}", index + 1, writer, s.event, shown_code);
                            let ongoto = props.ongoto.clone();
                            html! {
                                <li>
                                    <button type="button"
                                        class={classes!("ev", status_class(s), happened.then_some("done"), current.then_some("current"))}
                                        aria-label={label}
                                        aria-current={current.then_some("step")}
                                        onclick={Callback::from(move |_: MouseEvent| ongoto.emit(index + 1))}>
                                        <span class="ev-kind">{ s.event.as_str() }</span>
                                        if happened && !code.is_empty() {
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

#[derive(PartialEq, Properties)]
struct StepDetailProps {
    step: Option<Step>,
    previous: Option<serde_json::Value>,
}

#[component]
fn StepDetail(props: &StepDetailProps) -> Html {
    let Some(step) = &props.step else {
        return html! {
            <article class="step-detail" aria-label="Current step">
                <div class="step-main">
                    <h2>{ "Before the first event" }</h2>
                    <p class="muted">{ "Step forward to replay the writers' events one by one." }</p>
                </div>
                if let Some(object) = &props.previous {
                    <ObjectView before={object.clone()} after={object.clone()} />
                }
            </article>
        };
    };
    let failing = step
        .response
        .as_ref()
        .and_then(|r| r.cause.as_ref())
        .and_then(|c| c.index);
    html! {
        <article class="step-detail" aria-label="Current step">
            <div class="step-main">
            <h2>{ format!("Step {}: {} {}", step.index + 1, step.writer, step.event) }</h2>
            <p class="step-summary">{ step.summary.clone() }</p>
            if let Some(sent) = &step.request {
                <h3>{ format!("Request: {} ({})", sent.content_type, sent.preset) }</h3>
                if sent.ops.is_empty() {
                    <pre class="body"><code>{ sent.body.clone() }</code></pre>
                } else {
                    <ol class="ops" aria-label="Operations sent">
                        { for sent.ops.iter().enumerate().map(|(i, planned)| {
                            let op = &planned.op;
                            let class = match op.op {
                                crate::patch::OpKind::Add => "op-add",
                                crate::patch::OpKind::Remove => "op-remove",
                                crate::patch::OpKind::Replace => "op-replace",
                                crate::patch::OpKind::Test => "op-test",
                                _ => "op-move",
                            };
                            html! {
                                <li class={classes!("op", class, (Some(i) == failing).then_some("failing"))}>
                                    <div class="op-line">
                                        <span class="op-kind">{ op.op.as_str() }</span>
                                        <code class="op-path">{ op.path.clone() }</code>
                                        if Some(i) == failing {
                                            <span class="fail-badge">{ "failed here" }</span>
                                        }
                                    </div>
                                    if let Some(v) = op.value.as_ref().filter(|_| op.op.takes_value()) {
                                        <code class="op-value">{ serde_json::to_string(v).unwrap_or_default() }</code>
                                    }
                                </li>
                            }
                        }) }
                    </ol>
                }
            }
            if let Some(response) = &step.response {
                <div class={classes!("response", if response.is_success() { "response-ok" } else { "response-bad" })} role="status">
                    <h3>{ format!("Response: {} {}", response.code, if response.is_success() { "OK" } else { response.reason.as_str() }) }</h3>
                    if response.is_success() {
                        <p>{ match (&response.resource_version, response.changed) {
                            (Some(rv), true) => format!("Stored with resourceVersion {rv}."),
                            _ => "Nothing changed: no new resourceVersion, no watch event.".to_owned(),
                        } }</p>
                    } else {
                        <p><q>{ response.message.clone() }</q></p>
                    }
                    if let Some(cause) = &response.cause {
                        <div class="hidden-cause">
                            <p><strong>{ "Why (the server only logs this): " }</strong>{ cause.message.clone() }</p>
                            if let Some(path) = &cause.path {
                                <dl>
                                    <dt>{ "op" }</dt><dd>{ format!("{} {}", cause.index.map_or("-".into(), |i| i.to_string()), cause.op.clone().unwrap_or_default()) }</dd>
                                    <dt>{ "path" }</dt><dd><code>{ path.clone() }</code></dd>
                                    if let Some(expected) = &cause.expected {
                                        <dt>{ "expected" }</dt><dd><code>{ serde_json::to_string(expected).unwrap_or_default() }</code></dd>
                                        <dt>{ "actual" }</dt><dd><code>{ cause.actual.as_ref().map_or("(absent)".to_owned(), |a| serde_json::to_string(a).unwrap_or_default()) }</code></dd>
                                    }
                                </dl>
                            }
                        </div>
                    }
                    if !response.conflicts.is_empty() {
                        <p>{ format!("Conflicting fields: {}", response.conflicts.join(", ")) }</p>
                    }
                </div>
            }
            { match step.conflict {
                Some(Conflict::False) => html! { <p class="class-note warn">{ "A false conflict: nothing this writer meant to change had been changed by others since its read." }</p> },
                Some(Conflict::True) => html! { <p class="class-note">{ "A true conflict: another writer changed what this writer meant to change." }</p> },
                None => html! {},
            } }
            { for step.lost.iter().map(|lost| html! {
                <p class="class-note bad">{ format!("Lost update: {}'s \"{}\" ({}) erased.", lost.victim, lost.intent, lost.path) }</p>
            }) }
            </div>
            if let Some(before) = &props.previous {
                <ObjectView before={before.clone()} after={step.object.clone()} />
            }
        </article>
    }
}

#[derive(PartialEq, Properties)]
struct ObjectViewProps {
    before: serde_json::Value,
    after: serde_json::Value,
}

#[component]
fn ObjectView(props: &ObjectViewProps) -> Html {
    let before = crate::input::to_yaml(&props.before);
    let after = crate::input::to_yaml(&props.after);
    let lines = line_diff(&before, &after);
    let changed = lines.iter().any(|(tag, _)| *tag != ' ');
    html! {
        <section class="object" aria-label="The object after this step">
            <h3>{ if changed { "The object after this step (changes marked)" } else { "The object (unchanged)" } }</h3>
            <pre class="diff"><code>
                { for lines.into_iter().map(|(tag, line)| {
                    let class = match tag { '+' => "diff-add", '-' => "diff-del", _ => "diff-same" };
                    let label = match tag { '+' => "added: ", '-' => "removed: ", _ => "" };
                    html! { <span class={class}><span class="sr-only">{ label }</span>{ format!("{tag} {line}\n") }</span> }
                }) }
            </code></pre>
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct OutcomesProps {
    outcomes: Outcomes,
}

#[component]
fn OutcomesTable(props: &OutcomesProps) -> Html {
    let o = &props.outcomes;
    html! {
        <section class="outcomes-box" aria-labelledby="outcomes-title">
            <h2 id="outcomes-title">{ "Outcomes of the whole timeline" }</h2>
            <div class="table-scroll">
                <table class="outcomes">
                    <thead><tr>
                        <th scope="col">{ "Writer" }</th><th scope="col">{ "Preset" }</th><th scope="col">{ "Writes" }</th>
                        <th scope="col">{ "OK" }</th><th scope="col">{ "422" }</th><th scope="col">{ "409" }</th>
                        <th scope="col">{ "Retries" }</th><th scope="col">{ "False" }</th><th scope="col">{ "True" }</th>
                        <th scope="col">{ "Lost" }</th><th scope="col">{ "Intent holds" }</th>
                    </tr></thead>
                    <tbody>
                        { for o.writers.iter().map(|w| html! {
                            <tr>
                                <th scope="row">{ w.name.clone() }</th>
                                <td>{ w.preset.as_str() }</td>
                                <td>{ w.counts.writes }</td>
                                <td>{ w.counts.ok }</td>
                                <td>{ w.counts.invalid }</td>
                                <td>{ w.counts.conflict }</td>
                                <td>{ w.counts.retries }</td>
                                <td>{ w.counts.false_conflicts }</td>
                                <td>{ w.counts.true_conflicts }</td>
                                <td class={classes!((w.counts.lost_updates > 0).then_some("bad"))}>{ w.counts.lost_updates }</td>
                                <td class={if w.intent_holds { "ok" } else { "bad" }}>{ if w.intent_holds { "yes" } else { "no" } }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <p class={if o.intents_hold { "ok" } else { "bad" }}>
                { if o.intents_hold { "Every writer's intent holds at the end." } else { "Not every writer's intent holds at the end." } }
            </p>
        </section>
    }
}

fn explorer(
    exploration: &Rc<Result<crate::sim::explore::Exploration, String>>,
    state: &UseReducerHandle<RaceState>,
) -> Html {
    let Ok(result) = exploration.as_ref() else {
        return html! {
            <p class="parse-error" role="alert">{ exploration.as_ref().as_ref().err().cloned().unwrap_or_default() }</p>
        };
    };
    let n = result.interleavings.len();
    let open = |index: Option<usize>, label: &str| -> Html {
        match index {
            Some(i) => {
                let schedule = result.interleavings[i].clone();
                let state = state.clone();
                html! {
                    <button type="button" class="link" onclick={Callback::from(move |_: MouseEvent| state.dispatch(RaceAction::SetSchedule(schedule.clone())))}>
                        { format!("open {label}") }
                    </button>
                }
            }
            None => html! { <span class="muted">{ "none" }</span> },
        }
    };
    html! {
        <section class="explorer" aria-labelledby="explorer-title">
            <h2 id="explorer-title">{ format!("Every interleaving ({n}), per preset") }</h2>
            <p class="muted">{ "Counts are interleavings where it happens at least once. Open one to replay it here." }</p>
            <div class="table-scroll">
                <table class="outcomes">
                    <thead><tr>
                        <th scope="col">{ "Preset" }</th><th scope="col">{ "422 or 409" }</th><th scope="col">{ "False conflict" }</th>
                        <th scope="col">{ "Lost update" }</th><th scope="col">{ "Not converged" }</th>
                    </tr></thead>
                    <tbody>
                        { for result.presets.iter().map(|row| html! {
                            <tr>
                                <th scope="row">{ row.preset.as_str() }</th>
                                <td>{ row.failed.count }{ " " }{ open(row.failed.first, "first") }</td>
                                <td>{ row.false_conflicts.count }{ " " }{ open(row.false_conflicts.first, "first") }</td>
                                <td>{ row.lost_updates.count }{ " " }{ open(row.lost_updates.first, "first") }</td>
                                <td>{ row.intent_not_held.count }{ " " }{ open(row.intent_not_held.first, "first") }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct EditingProps {
    state: UseReducerHandle<RaceState>,
}

#[component]
fn Editing(props: &EditingProps) -> Html {
    let state = &props.state;
    let add_writer = use_state(|| 0usize);
    let add_kind = use_state(|| "write".to_owned());
    let writers: Vec<String> = state
        .scenario
        .writers
        .iter()
        .map(|w| w.name.clone())
        .collect();
    let add = {
        let state = state.clone();
        let writers = writers.clone();
        let (add_writer, add_kind) = (add_writer.clone(), add_kind.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(name) = writers.get(*add_writer) {
                let event = match add_kind.as_str() {
                    "read" => TimelineEvent::Read(name.clone()),
                    "retry" => TimelineEvent::Retry(name.clone()),
                    _ => TimelineEvent::Write(name.clone()),
                };
                state.dispatch(RaceAction::AddEvent(event));
            }
        })
    };
    html! {
        <details class="editing">
            <summary>{ "Edit the writers and the timeline" }</summary>
            <div class="editing-grid">
                <section aria-labelledby="writers-title">
                    <h3 id="writers-title">{ "Writers" }</h3>
                    { for state.scenario.writers.iter().enumerate().map(|(w, writer)| {
                        let (text, error) = state.intents.get(w).cloned().unwrap_or_default();
                        let on_preset = {
                            let state = state.clone();
                            Callback::from(move |event: Event| {
                                if let Some(preset) = select_value(&event).and_then(|v| v.parse::<Preset>().ok()) {
                                    state.dispatch(RaceAction::SetWriterPreset(w, preset));
                                }
                            })
                        };
                        let on_intents = {
                            let state = state.clone();
                            Callback::from(move |event: InputEvent| {
                                if let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() {
                                    state.dispatch(RaceAction::EditIntents(w, area.value()));
                                }
                            })
                        };
                        html! {
                            <div class="writer-card">
                                <h4>{ writer.name.clone() }{ if writer.fixed { " (fixed preset)" } else { "" } }</h4>
                                <label class="field">
                                    <span>{ "Own preset" }</span>
                                    <select aria-label={format!("Preset of {}", writer.name)} onchange={on_preset}>
                                        { for Preset::ALL.into_iter().map(|p| html! {
                                            <option value={p.as_str()} selected={writer.preset == p}>{ p.as_str() }</option>
                                        }) }
                                    </select>
                                </label>
                                <label class="intents">
                                    <span>{ "Intents (YAML)" }</span>
                                    <textarea aria-label={format!("Intents of {}", writer.name)} spellcheck="false" rows="5" value={text} oninput={on_intents} />
                                </label>
                                if let Some(error) = error {
                                    <p class="parse-error" role="alert">{ error }</p>
                                }
                            </div>
                        }
                    }) }
                </section>
                <section aria-labelledby="timeline-title">
                    <h3 id="timeline-title">{ "Timeline" }</h3>
                    <ol class="timeline">
                        { for state.scenario.schedule.iter().enumerate().map(|(i, event)| html! {
                            <li>
                                <span>{ format!("{} {}", event.writer(), event.kind()) }</span>
                                <button type="button" class="link" aria-label={format!("Move event {} up", i + 1)} onclick={{ let s = state.clone(); Callback::from(move |_: MouseEvent| s.dispatch(RaceAction::MoveUp(i))) }}>{ "↑" }</button>
                                <button type="button" class="link" aria-label={format!("Move event {} down", i + 1)} onclick={{ let s = state.clone(); Callback::from(move |_: MouseEvent| s.dispatch(RaceAction::MoveDown(i))) }}>{ "↓" }</button>
                                <button type="button" class="link" aria-label={format!("Remove event {}", i + 1)} onclick={{ let s = state.clone(); Callback::from(move |_: MouseEvent| s.dispatch(RaceAction::RemoveEvent(i))) }}>{ "Remove" }</button>
                            </li>
                        }) }
                    </ol>
                    <div class="add-event">
                        <select aria-label="Writer of the new event" onchange={{ let a = add_writer.clone(); Callback::from(move |e: Event| if let Some(v) = select_value(&e).and_then(|v| v.parse().ok()) { a.set(v) }) }}>
                            { for writers.iter().enumerate().map(|(i, w)| html! { <option value={i.to_string()} selected={*add_writer == i}>{ w.clone() }</option> }) }
                        </select>
                        <select aria-label="Kind of the new event" onchange={{ let a = add_kind.clone(); Callback::from(move |e: Event| if let Some(v) = select_value(&e) { a.set(v) }) }}>
                            { for ["read", "write", "retry"].into_iter().map(|k| html! { <option value={k} selected={add_kind.as_str() == k}>{ k }</option> }) }
                        </select>
                        <button type="button" onclick={add}>{ "Add event" }</button>
                    </div>
                </section>
            </div>
        </details>
    }
}
