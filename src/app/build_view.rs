//! The Build view: editors, the Fields table, and result columns side by
//! side. State lives in [`BuildState`]; this file renders it and wires the
//! browser (URL, storage, clipboard, keyboard).

use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::browser;
use super::build::{examples, BuildAction, BuildState, ColumnResult, FieldRow, Notice, RoundTrip};
use super::editor::Editor;
use super::share::{self, BuildLink};
use crate::input::Format;
use crate::patch::OpKind;
use crate::strategy::{self, Body, FieldKind, Plan, Preset, Strategy};

/// Where the Build view keeps its last state.
pub const STORAGE_KEY: &str = "patchlab.build";

impl Reducible for BuildState {
    type Action = BuildAction;
    fn reduce(self: Rc<Self>, action: BuildAction) -> Rc<Self> {
        Rc::new(BuildState::reduce(&self, action))
    }
}

/// Texts above this size are recomputed after a pause in typing; smaller
/// ones on every keystroke.
const INSTANT_BYTES: usize = 20_000;

/// The state a visit starts from: the link if it has one, else the saved
/// state, else the seed's race example; a bad link or bad saved state
/// leaves a notice and changes nothing else.
fn initial(query: &str) -> BuildState {
    let mut notices = Vec::new();
    let saved = || match browser::load(STORAGE_KEY) {
        None => None,
        // An encoded link; JSON from earlier versions.
        Some(text) => match if text.starts_with('{') {
            serde_json::from_str::<BuildLink>(&text)
                .map_err(|e| e.to_string())
                .and_then(|link| {
                    share::check(&link)
                        .map(|()| link)
                        .map_err(|e| e.to_string())
                })
        } else {
            share::decode_stored(&text).map_err(|e| e.to_string())
        } {
            Ok(link) => Some(Ok(BuildState::from_link(link))),
            Err(_) => Some(Err(())),
        },
    };
    let mut state = match share::state_param(query).map(share::decode) {
        Some(Ok(link)) => BuildState::from_link(link),
        Some(Err(err)) => {
            notices.push(format!("{err} Nothing was changed."));
            match saved() {
                Some(Ok(state)) => state,
                _ => BuildState::default(),
            }
        }
        None => match saved() {
            Some(Ok(state)) => state,
            Some(Err(())) => {
                notices.push("Your saved work could not be read and was ignored.".to_owned());
                BuildState::default()
            }
            None => BuildState::default(),
        },
    };
    if !notices.is_empty() {
        state.notice = Some(Notice {
            error: true,
            text: notices.join(" "),
        });
    }
    state
}

#[derive(PartialEq, Properties)]
pub struct BuildViewProps {
    /// The route's query (`s=...` when opened from a link).
    pub query: AttrValue,
}

/// What the copy buttons last did, for their "Copied" confirmation.
#[derive(Clone, PartialEq)]
struct Copied {
    key: String,
    ok: bool,
}

fn too_big_for_a_link(bytes: usize) -> String {
    format!(
        "These objects are too big for a link ({} KiB packed; a link holds {} KiB), so the page's \
         link no longer carries them and Share link is off: they are saved in this browser only.",
        bytes.div_ceil(1024),
        share::MAX_FRAGMENT / 1024
    )
}

#[component]
pub fn BuildView(props: &BuildViewProps) -> Html {
    let query = props.query.clone();
    let state = use_reducer(move || initial(&query));
    let copied = use_state(|| None::<Copied>);
    let recompute_timer = use_mut_ref(|| None::<Timeout>);
    let step_timer = use_mut_ref(|| None::<Timeout>);
    let save_timer = use_mut_ref(|| None::<Timeout>);
    let storage_failed = use_mut_ref(|| false);
    let link_too_big = use_mut_ref(|| false);

    // A new link pasted into the address bar of an open page.
    {
        let state = state.clone();
        use_effect_with(props.query.clone(), move |query| {
            if let Some(param) = share::state_param(query) {
                if share::encode(&state.link()) != param {
                    match share::decode(param) {
                        Ok(link) => state.dispatch(BuildAction::LoadLink(link)),
                        Err(err) => state.dispatch(BuildAction::Notify(Notice {
                            error: true,
                            text: format!("{err} Nothing was changed."),
                        })),
                    }
                }
            }
        });
    }

    // Recompute after edits: at once for small texts; for big ones after a
    // pause, then piece by piece so the page keeps responding.
    let big = state.old_text.len() + state.new_text.len() > INSTANT_BYTES;
    {
        let state = state.clone();
        let timer = recompute_timer.clone();
        let step = step_timer.clone();
        use_effect_with(state.edits, move |_| {
            if state.stale && state.edits > 0 {
                // A piece already scheduled waits for the pause too.
                step.borrow_mut().take();
                if big {
                    let dispatcher = state.dispatcher();
                    *timer.borrow_mut() = Some(Timeout::new(300, move || {
                        dispatcher.dispatch(BuildAction::RecomputeStep)
                    }));
                } else {
                    timer.borrow_mut().take();
                    state.dispatch(BuildAction::Recompute);
                }
            }
        });
    }
    {
        let state = state.clone();
        let timer = step_timer.clone();
        use_effect_with(state.pieces, move |pieces| {
            if *pieces > 0 && state.busy() {
                let dispatcher = state.dispatcher();
                *timer.borrow_mut() = Some(Timeout::new(0, move || {
                    dispatcher.dispatch(BuildAction::RecomputeStep)
                }));
            }
        });
    }

    // Keep the URL and storage in step with the state (debounced).
    {
        let link = state.link();
        let state = state.clone();
        let timer = save_timer.clone();
        let failed = storage_failed.clone();
        let too_big = link_too_big.clone();
        use_effect_with(link, move |link| {
            let link = link.clone();
            *timer.borrow_mut() = Some(Timeout::new(250, move || {
                let encoded = share::encode(&link);
                if encoded.len() <= share::MAX_FRAGMENT {
                    browser::replace_fragment(&format!("#/build?s={encoded}"));
                } else {
                    // An older state in the address bar would win over
                    // storage on reload: take it out.
                    browser::replace_fragment("#/build");
                    if !too_big.replace(true) {
                        state.dispatch(BuildAction::Notify(Notice {
                            error: false,
                            text: too_big_for_a_link(encoded.len()),
                        }));
                    }
                }
                if let Err(why) = browser::save(STORAGE_KEY, &encoded) {
                    if !failed.replace(true) {
                        // Still in the link: a status; in this tab only: an alert.
                        let in_link = encoded.len() <= share::MAX_FRAGMENT;
                        let kept = if in_link {
                            "in this tab and in the page's link"
                        } else {
                            "in this tab only: keep it open, or save the objects to files"
                        };
                        state.dispatch(BuildAction::Notify(Notice {
                            error: !in_link,
                            text: format!(
                                "Your work is not saved in this browser ({why}); it stays {kept}."
                            ),
                        }));
                    }
                }
            }));
        });
    }

    let copy = {
        let copied = copied.clone();
        Callback::from(move |(key, text): (String, String)| {
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let ok = browser::copy(text).await.is_ok();
                copied.set(Some(Copied { key, ok }));
                let copied = copied.clone();
                Timeout::new(2000, move || copied.set(None)).forget();
            });
        })
    };

    let share_link = {
        let state = state.clone();
        let copy = copy.clone();
        Callback::from(move |_: ()| {
            let encoded = share::encode(&state.link());
            if encoded.len() > share::MAX_FRAGMENT {
                state.dispatch(BuildAction::Notify(Notice {
                    error: true,
                    text: too_big_for_a_link(encoded.len()),
                }));
                return;
            }
            let fragment = format!("#/build?s={encoded}");
            copy.emit(("share".to_owned(), browser::url_with(&fragment)));
        })
    };

    // Keyboard shortcuts (Alt+key). The listener is registered again when
    // the state changes, so it copies the current payload and link.
    {
        let key = (state.edits, Rc::as_ptr(&state.results) as usize);
        let state = state.clone();
        let copy = copy.clone();
        let share_link = share_link.clone();
        use_effect_with(key, move |_| {
            let listener = EventListener::new(&gloo::utils::document(), "keydown", move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if !event.alt_key() || event.ctrl_key() || event.meta_key() {
                    return;
                }
                let code = event.code();
                let action = match code.as_str() {
                    "KeyS" => Some(BuildAction::Swap),
                    "KeyF" => Some(BuildAction::FormatText),
                    "KeyZ" => Some(BuildAction::Undo),
                    _ => None,
                };
                if let Some(action) = action {
                    event.prevent_default();
                    state.dispatch(action);
                } else if code == "KeyL" {
                    event.prevent_default();
                    share_link.emit(());
                } else if let Some(n) = code
                    .strip_prefix("Digit")
                    .and_then(|d| d.parse::<usize>().ok())
                {
                    if let Some(result) = n.checked_sub(1).and_then(|i| state.results.get(i)) {
                        if let Ok(plan) = &result.plan {
                            event.prevent_default();
                            copy.emit((format!("payload-{}", n - 1), plan.body_text()));
                        }
                    }
                }
            });
            move || drop(listener)
        });
    }

    let dispatch = |make: fn(String) -> BuildAction| {
        let state = state.clone();
        Callback::from(move |text: String| state.dispatch(make(text)))
    };
    let on = |action: BuildAction| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(action.clone()))
    };
    let on_example = {
        let state = state.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<HtmlSelectElement>() {
                let id = select.value();
                if !id.is_empty() {
                    state.dispatch(BuildAction::LoadExample(id));
                }
            }
        })
    };
    let format = state.format;
    let copied_key = (*copied).clone();
    // What kubectl needs to name the object; not the whole (maybe large) object.
    let new_object = state
        .new
        .value
        .as_deref()
        .map(|v| {
            serde_json::json!({
                "kind": v.get("kind"),
                "metadata": {
                    "name": v.pointer("/metadata/name"),
                    "namespace": v.pointer("/metadata/namespace"),
                }
            })
        })
        .unwrap_or_default();
    let fields = state.fields();

    html! {
        <section class="view build" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Build" }</h1>
                <p class="summary">{ "Edit an old and a new object; see what each strategy sends, what it tests and what it risks." }</p>
            </div>
            <div class="toolbar" role="toolbar" aria-label="Editor actions">
                <label class="field">
                    <span>{ "Example" }</span>
                    <select aria-label="Example" onchange={on_example}>
                        <option value="" selected={state.example.is_none()}>{ "Choose an example…" }</option>
                        { for examples().iter().map(|e| html! {
                            <option value={e.id} selected={state.example.as_deref() == Some(e.id)}>{ e.title.clone() }</option>
                        }) }
                    </select>
                </label>
                <div class="segmented" role="group" aria-label="Format">
                    <button type="button" aria-pressed={(format == Format::Yaml).to_string()} onclick={on(BuildAction::SetFormat(Format::Yaml))}>{ "YAML" }</button>
                    <button type="button" aria-pressed={(format == Format::Json).to_string()} onclick={on(BuildAction::SetFormat(Format::Json))}>{ "JSON" }</button>
                </div>
                <button type="button" onclick={on(BuildAction::FormatText)} title="Alt+F">{ "Format" }</button>
                <button type="button" onclick={on(BuildAction::Swap)} title="Alt+S">{ "Swap old and new" }</button>
                <button type="button" onclick={on(BuildAction::Reset)}>{ "Reset" }</button>
                if let Some(undo) = &state.undo {
                    <button type="button" class="undo" onclick={on(BuildAction::Undo)} title="Alt+Z">{ undo.label.clone() }</button>
                }
                <button type="button" class="primary" onclick={share_link.reform(|_: MouseEvent| ())} title="Alt+L">
                    { copy_label(&copied_key, "share", "Share link", "Link copied") }
                </button>
            </div>
            if let Some(notice) = &state.notice {
                <div class={classes!("notice", notice.error.then_some("notice-error"))} role={if notice.error { "alert" } else { "status" }}>
                    <span>{ notice.text.clone() }</span>
                    <button type="button" class="link" onclick={on(BuildAction::DismissNotice)} aria-label="Dismiss message">{ "Dismiss" }</button>
                </div>
            }
            if let Some(example) = state.example.as_deref().and_then(super::build::example) {
                <p class="example-note">{ example.description.clone() }</p>
            }
            <div class="editors">
                <div class="pane">
                    <h2 class="pane-title"><label for="old-object">{ "Old object" }</label><span class="hint">{ "what your cache shows" }</span></h2>
                    <Editor id="old-object" label="Old object" text={state.old_text.clone()} format={Format::detect(&state.old_text)}
                        error={state.old.error.clone()} onchange={dispatch(BuildAction::EditOld)} />
                </div>
                <div class="pane">
                    <h2 class="pane-title"><label for="new-object">{ "New object" }</label><span class="hint">{ "what you want it to be" }</span></h2>
                    <Editor id="new-object" label="New object" text={state.new_text.clone()} format={Format::detect(&state.new_text)}
                        error={state.new.error.clone()} onchange={dispatch(BuildAction::EditNew)} />
                </div>
            </div>
            <FieldsTable rows={fields} columns={state.columns.iter().map(|c| c.preset).collect::<Vec<_>>()}
                onchange={{
                    let state = state.clone();
                    Callback::from(move |(column, path, strategy)| state.dispatch(BuildAction::SetOverride(column, path, strategy)))
                }} />
            <div class={classes!("results", state.stale.then_some("stale"))} aria-busy={state.stale.to_string()}>
                if state.stale && (state.old.error.is_some() || state.new.error.is_some()) {
                    <p class="stale-note" role="status">{ "Showing the last result that parsed: fix the error above to update." }</p>
                } else if big && state.busy() {
                    <p class="stale-note" role="status">{ "Computing: large objects are parsed and compared piece by piece." }</p>
                }
                <div class="columns">
                    { for state.results.iter().enumerate().map(|(i, result)| {
                        let preset = state.columns.get(i).map(|c| c.preset).unwrap_or_default();
                        html! {
                            <ResultColumn
                                index={i}
                                count={state.columns.len()}
                                {preset}
                                result={result.clone()}
                                new_object={new_object.clone()}
                                copied={copied_key.clone()}
                                oncopy={copy.clone()}
                                onpreset={{
                                    let state = state.clone();
                                    Callback::from(move |preset| state.dispatch(BuildAction::SetPreset(i, preset)))
                                }}
                                onremove={{
                                    let state = state.clone();
                                    Callback::from(move |_| state.dispatch(BuildAction::RemoveColumn(i)))
                                }}
                            />
                        }
                    }) }
                </div>
                if state.columns.len() < super::build::MAX_COLUMNS {
                    <button type="button" class="add-column" onclick={on(BuildAction::AddColumn)}>{ "+ Add a column" }</button>
                }
            </div>
        </section>
    }
}

fn copy_label(copied: &Option<Copied>, key: &str, idle: &str, done: &str) -> String {
    match copied {
        Some(c) if c.key == key && c.ok => done.to_owned(),
        Some(c) if c.key == key => "Copy failed".to_owned(),
        _ => idle.to_owned(),
    }
}

#[derive(PartialEq, Properties)]
struct FieldsTableProps {
    rows: Vec<FieldRow>,
    columns: Vec<Preset>,
    onchange: Callback<(usize, String, Option<Strategy>)>,
}

fn choices(kind: FieldKind) -> Vec<Strategy> {
    Strategy::ALL
        .into_iter()
        .filter(|s| !s.is_whole_object() && s.kinds().contains(&kind))
        .collect()
}

#[component]
fn FieldsTable(props: &FieldsTableProps) -> Html {
    if props.rows.is_empty() {
        return html! {
            <section class="fields" aria-labelledby="fields-title">
                <h2 id="fields-title">{ "Fields" }</h2>
                <p class="muted">{ "No field differs between the old and the new object." }</p>
            </section>
        };
    }
    html! {
        <section class="fields" aria-labelledby="fields-title">
            <h2 id="fields-title">{ "Fields" }</h2>
            <div class="table-scroll">
                <table aria-labelledby="fields-title">
                    <thead>
                        <tr>
                            <th scope="col">{ "Changed field" }</th>
                            <th scope="col">{ "Kind" }</th>
                            <th scope="col">{ "Change" }</th>
                            { for props.columns.iter().enumerate().map(|(i, preset)| html! {
                                <th scope="col">{ format!("Column {} ({preset})", i + 1) }</th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for props.rows.iter().map(|row| {
                            html! {
                                <tr>
                                    <th scope="row"><code>{ row.path.clone() }</code></th>
                                    <td>{ row.kind.as_str() }</td>
                                    <td>{ row.change }</td>
                                    { for props.columns.iter().enumerate().map(|(i, preset)| {
                                        let current = row.strategies.get(i).copied().flatten();
                                        let whole = preset.whole_object();
                                        let label = format!("Strategy for {} in column {}", row.path, i + 1);
                                        let default = preset.strategy_for(row.kind);
                                        let onchange = {
                                            let onchange = props.onchange.clone();
                                            let path = row.path.clone();
                                            Callback::from(move |event: Event| {
                                                if let Some(select) = event.target_dyn_into::<HtmlSelectElement>() {
                                                    let value = select.value();
                                                    let strategy = value.parse::<Strategy>().ok();
                                                    onchange.emit((i, path.clone(), strategy));
                                                }
                                            })
                                        };
                                        html! {
                                            <td>
                                                if let Some(whole) = whole {
                                                    <span class="muted" title="This preset sends one body for the whole object">{ format!("{whole} (whole object)") }</span>
                                                } else {
                                                    <select aria-label={label} {onchange}>
                                                        <option value="" selected={current == Some(default)}>{ format!("{default} (preset)") }</option>
                                                        { for choices(row.kind).into_iter().filter(|s| *s != default).map(|s| html! {
                                                            <option value={s.as_str()} selected={current == Some(s)}>{ s.as_str() }</option>
                                                        }) }
                                                    </select>
                                                }
                                            </td>
                                        }
                                    }) }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct ResultColumnProps {
    index: usize,
    count: usize,
    preset: Preset,
    result: ColumnResult,
    new_object: serde_json::Value,
    copied: Option<Copied>,
    oncopy: Callback<(String, String)>,
    onpreset: Callback<Preset>,
    onremove: Callback<()>,
}

fn op_class(op: OpKind) -> &'static str {
    match op {
        OpKind::Add => "op-add",
        OpKind::Remove => "op-remove",
        OpKind::Replace => "op-replace",
        OpKind::Test => "op-test",
        OpKind::Move | OpKind::Copy => "op-move",
    }
}

fn short(value: &serde_json::Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    if text.chars().count() > 120 {
        format!("{}…", text.chars().take(119).collect::<String>())
    } else {
        text
    }
}

#[component]
fn ResultColumn(props: &ResultColumnProps) -> Html {
    let i = props.index;
    let n = i + 1;
    let select_label = if i == 0 {
        "Preset".to_owned()
    } else {
        format!("Preset for column {n}")
    };
    let onpreset = {
        let onpreset = props.onpreset.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<HtmlSelectElement>() {
                if let Ok(preset) = select.value().parse::<Preset>() {
                    onpreset.emit(preset);
                }
            }
        })
    };
    let header = html! {
        <header class="column-head">
            <span class="column-number" aria-hidden="true">{ n }</span>
            <select class="preset" aria-label={select_label} onchange={onpreset}>
                { for Preset::ALL.into_iter().map(|p| html! {
                    <option value={p.as_str()} selected={p == props.preset}>{ p.as_str() }</option>
                }) }
            </select>
            if props.count > 1 {
                <button type="button" class="link remove" aria-label={format!("Remove column {n}")}
                    onclick={props.onremove.reform(|_: MouseEvent| ())}>{ "Remove" }</button>
            }
        </header>
    };
    let plan = match &props.result.plan {
        Ok(plan) => plan,
        Err(err) => {
            return html! {
                <article class="column" aria-label={format!("Column {n}: {}", props.preset)}>
                    { header }
                    <p class="parse-error">{ err.clone() }</p>
                </article>
            };
        }
    };
    let copy = |key: &str, text: String| {
        let oncopy = props.oncopy.clone();
        let key = format!("{key}-{i}");
        Callback::from(move |_: MouseEvent| oncopy.emit((key.clone(), text.clone())))
    };
    let label =
        |key: &str, idle: &str| copy_label(&props.copied, &format!("{key}-{i}"), idle, "Copied");
    let body_text = plan.body_text();
    let kubectl = strategy::kubectl(plan, &props.new_object);
    let summary = match &plan.body {
        Body::JsonPatch(ops) => format!(
            "{} op{} · {} bytes",
            ops.len(),
            if ops.len() == 1 { "" } else { "s" },
            props.result.payload_bytes
        ),
        _ => format!(
            "{} · {} bytes",
            plan.body.content_type(),
            props.result.payload_bytes
        ),
    };
    html! {
        <article class="column" aria-label={format!("Column {n}: {}", props.preset)}>
            { header }
            <p class="preset-summary muted">{ props.preset.summary() }</p>
            <div class="chips">
                <span class="chip">{ summary }</span>
                { round_trip_chip(&props.result.round_trip) }
            </div>
            if plan.is_empty() {
                <p class="muted">{ "Nothing to send: the objects are equal under this policy." }</p>
            } else {
                { body_view(plan, &props.result.unique) }
                { surface(plan) }
            }
            if !plan.notes.is_empty() {
                <ul class="notes" aria-label="Notes">
                    { for plan.notes.iter().map(|note| html! { <li>{ note.clone() }</li> }) }
                </ul>
            }
            if !plan.is_empty() {
                <details class="payload">
                    <summary>{ format!("What is sent ({})", plan.body.content_type()) }</summary>
                    <pre><code>{ body_text.clone() }</code></pre>
                </details>
                <div class="exports" role="group" aria-label={format!("Copy from column {n}")}>
                    <button type="button" onclick={copy("payload", body_text)} title={format!("Alt+{n}")}>
                        { label("payload", if plan.ops().is_some() { "Copy payload" } else { "Copy body" }) }
                    </button>
                    <button type="button" onclick={copy("kubectl", kubectl)}>{ label("kubectl", "Copy kubectl") }</button>
                    if let Some(go) = strategy::go_code(plan) {
                        <button type="button" onclick={copy("go", go)}>{ label("go", "Copy Go") }</button>
                    }
                    if let Some(rust) = strategy::rust_code(plan) {
                        <button type="button" onclick={copy("rust", rust)}>{ label("rust", "Copy Rust") }</button>
                    }
                </div>
            }
        </article>
    }
}

fn round_trip_chip(round_trip: &RoundTrip) -> Html {
    match round_trip {
        RoundTrip::Exact => html! {
            <span class="chip ok" title="Applying this to the old object under kube-apiserver's rules gives the new object">{ "✓ old + patch = new" }</span>
        },
        RoundTrip::Differs(why) => html! {
            <span class="chip bad" title={why.clone()}>{ "✗ old + patch ≠ new" }</span>
        },
        RoundTrip::NotApplicable => html! {
            <span class="chip" title="A server-side apply result depends on who owns which field">{ "round trip: depends on field owners" }</span>
        },
    }
}

fn body_view(plan: &Plan, unique: &[bool]) -> Html {
    match &plan.body {
        Body::JsonPatch(ops) => html! {
            <ol class="ops" aria-label="Operations">
                { for ops.iter().enumerate().map(|(k, planned)| {
                    let op = &planned.op;
                    let only = unique.get(k).copied().unwrap_or(false);
                    html! {
                        <li class={classes!("op", op_class(op.op), only.then_some("only-here"))}>
                            <div class="op-line">
                                <span class="op-kind">{ op.op.as_str() }</span>
                                <code class="op-path">{ op.path.clone() }</code>
                                if only {
                                    <span class="only-badge" title="No other column sends this op">{ "only here" }</span>
                                }
                            </div>
                            if let Some(value) = op.value.as_ref().filter(|_| op.op.takes_value()) {
                                <code class="op-value">{ short(value) }</code>
                            }
                            <p class="op-reason">{ planned.reason.to_string() }</p>
                        </li>
                    }
                }) }
            </ol>
        },
        Body::MergePatch(body) | Body::Update(body) => html! {
            <pre class="body"><code>{ crate::input::to_json_pretty(body) }</code></pre>
        },
        Body::Apply {
            config,
            field_manager,
        } => html! {
            <>
                <p class="muted">{ format!("fieldManager: {field_manager}") }</p>
                <pre class="body"><code>{ crate::input::to_yaml(config) }</code></pre>
            </>
        },
    }
}

fn surface(plan: &Plan) -> Html {
    html! {
        <div class="surface">
            <h3>{ "Fails if another writer changed" }</h3>
            if plan.conflicts.is_empty() {
                <p class="muted">{ "Nothing: it tests nothing, so no concurrent change makes it fail." }</p>
            } else {
                <ul>
                    { for plan.conflicts.iter().map(|c| html! {
                        <li><code>{ if c.path.is_empty() { "(the whole object)".to_owned() } else { c.path.clone() } }</code>{ " " }<span class="muted">{ c.reason.clone() }</span></li>
                    }) }
                </ul>
            }
            <h3>{ "Silently overwrites" }</h3>
            if plan.overwrites.is_empty() {
                <p class="muted">{ "Nothing it writes goes unchecked." }</p>
            } else {
                <ul>
                    { for plan.overwrites.iter().map(|o| html! {
                        <li><code>{ o.path.clone() }</code>{ " " }<span class="muted">{ o.reason.clone() }</span></li>
                    }) }
                </ul>
            }
        </div>
    }
}
