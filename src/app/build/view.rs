//! The Build view: a toolbar, the two editors and the result columns side
//! by side, then the Fields table. State lives in [`BuildState`]; the hooks
//! do the browser's part.

use std::rc::Rc;

use yew::prelude::*;

use super::fields::FieldsTable;
use super::recompute::Revs;
use super::results::ResultColumns;
use super::state::{BuildAction, BuildState};
use super::toolbar::{toolbar, ToolbarProps};
use crate::app::components::{
    copy_fallback, notice_bar, CopyFallbackProps, Editor, NoticeBarProps, TabMode, UseCopy,
};
use crate::app::deferred::PAUSE_MS;
use crate::app::engine::{BuildAnswer, BuildJob, EngineFailed, RequestKind};
use crate::app::engine_worker::{self, EngineClient};
use crate::app::hooks::{use_copy, use_share, use_shortcuts, use_tab_mode, use_view, ViewHandle};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::app::view_state::ViewState;
use crate::input::Format;

#[derive(PartialEq, Properties)]
pub struct BuildViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

/// The Build view.
#[component]
pub fn BuildView(props: &BuildViewProps) -> Html {
    let (state, send) = use_view::<BuildState>(props.packed.clone());
    let copy = use_copy();
    let (tab_mode, on_tab_mode) = use_tab_mode();
    use_engine(&state, &send);
    use_convert(&state, &send);
    let share = use_share(state.link(), &copy, send.reform(BuildAction::Notify));
    use_build_shortcuts(&state, &send, &share, &copy);
    let on = |action: BuildAction| send.reform(move |()| action.clone());
    let (title, description) = state.title();
    html! {
        <section class="view build" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Build" }</h1>
                <p class="summary">{ View::Build.summary() }</p>
            </div>
            { toolbar(&ToolbarProps {
                example: state.example.clone(),
                format: state.format,
                converting: state.converting.is_some(),
                kubernetes: state.kubernetes.unwrap_or_default(),
                undo: state.undo.is_some(),
                copy: copy.clone(),
                send: send.clone(),
                onshare: share,
            }) }
            { notice_bar(&yew::props!(NoticeBarProps { notice: state.notice.clone(), ondismiss: on(BuildAction::DismissNotice), onundo: on(BuildAction::Undo) })) }
            <div class="subject">
                <h2 class="subject-title">{ title }</h2>
                if let Some(description) = description {
                    <p class="subject-note">{ description }</p>
                }
            </div>
            <div class="workspace">
                { editors(&EditorsProps { state: state.clone(), tab_mode, ontabmode: on_tab_mode, send: send.clone() }) }
                <ResultColumns
                    columns={state.columns.clone()}
                    results={state.results.clone()}
                    stale={state.stale()}
                    blocked={state.blocked()}
                    big={state.big()}
                    copy={copy.clone()}
                    onpreset={send.reform(|(i, p)| BuildAction::SetPreset(i, p))}
                    onremove={send.reform(BuildAction::RemoveColumn)}
                    onadd={on(BuildAction::AddColumn)}
                />
            </div>
            <FieldsTable results={state.results.clone()} columns={state.columns.iter().map(|c| c.preset).collect::<Vec<_>>()}
                onchange={send.reform(|(i, path, s)| BuildAction::SetOverride(i, path, s))} />
            { copy_fallback(&yew::props!(CopyFallbackProps { copy })) }
        </section>
    }
}

/// Asks the engine worker for the results whenever the texts or the
/// columns change (after a pause in typing when the texts are big); its
/// answer comes back as an action, and an answer to a replaced request
/// never does.
#[hook]
fn use_engine(state: &ViewHandle<BuildState>, send: &Callback<BuildAction>) {
    let timer = use_mut_ref(|| None::<gloo::timers::callback::Timeout>);
    let previous = use_mut_ref(|| None::<Revs>);
    // Made on every render (shared texts: cheap), sent only when the
    // revisions changed.
    let job = state.engine_job();
    let big = state.big();
    let send = send.clone();
    use_effect_with(state.revs(), move |revs| {
        let typed = previous
            .borrow()
            .is_some_and(|p| p.old != revs.old || p.new != revs.new);
        *previous.borrow_mut() = Some(*revs);
        timer.borrow_mut().take();
        if let Some(job) = job {
            // A fresh visit to Build: the answer computed at build time.
            if let Some(answer) = engine_worker::seeded(&job) {
                send.emit(BuildAction::Computed(answer));
                return;
            }
            // Without a worker, the answer computed here if this module
            // can; otherwise why there is none.
            let fallback = {
                let job = job.clone();
                move |why: String| match in_page(&job) {
                    Some(answer) => BuildAction::Computed(answer),
                    None => BuildAction::EngineFailed(why),
                }
            };
            let ask = move || match EngineClient::shared() {
                Ok(client) => {
                    let worker = Rc::downgrade(&client);
                    client.build(
                        job,
                        send.reform(move |answer| match answer {
                            Ok(answer) => BuildAction::Computed(answer),
                            Err(why) if worker.upgrade().is_some_and(|c| c.is_broken()) => {
                                fallback(why)
                            }
                            Err(why) => BuildAction::EngineFailed(why),
                        }),
                    )
                }
                Err(why) => send.emit(fallback(why)),
            };
            if typed && big {
                *timer.borrow_mut() = Some(gloo::timers::callback::Timeout::new(PAUSE_MS, ask));
            } else {
                ask();
            }
        }
    });
    use_effect_with((), |()| {
        || {
            if let Ok(client) = EngineClient::shared() {
                client.forget(RequestKind::Build);
            }
        }
    });
}

/// Asks the engines for a pending Convert or Format
/// ([`BuildState::conversion`]; the page module carries no YAML reader);
/// their answer comes back as [`BuildAction::Converted`]. With the engines
/// in the page (small texts, once they are loaded) it comes at once.
#[hook]
fn use_convert(state: &ViewHandle<BuildState>, send: &Callback<BuildAction>) {
    let pending = state.conversion();
    let send = send.clone();
    use_effect_with(state.converting, move |_| {
        let Some((conversion, old, new)) = pending else {
            return;
        };
        let done = send.reform(move |texts: Result<(String, String), EngineFailed>| {
            BuildAction::Converted(
                conversion,
                texts.map(|(old, new)| (Rc::from(old), Rc::from(new))),
            )
        });
        let format = conversion.format;
        match EngineClient::shared() {
            Ok(client) => {
                // As for the results: a worker that failed to start is
                // replaced by the engines of this module, if it has them.
                let worker = Rc::downgrade(&client);
                let (o, n) = (Rc::clone(&old), Rc::clone(&new));
                client.convert(
                    format,
                    old,
                    new,
                    Callback::from(move |answer| match answer {
                        Err(failed) if worker.upgrade().is_some_and(|c| c.is_broken()) => {
                            done.emit(convert_in_page(format, &o, &n).unwrap_or(Err(failed)))
                        }
                        answer => done.emit(answer),
                    }),
                )
            }
            Err(why) => done.emit(
                convert_in_page(format, &old, &new).unwrap_or(Err(EngineFailed::Unavailable(why))),
            ),
        }
    });
    use_effect_with((), |()| {
        || {
            if let Ok(client) = EngineClient::shared() {
                client.forget(RequestKind::Convert);
            }
        }
    });
}

/// A conversion on the page's own thread, when the worker cannot start and
/// this module carries the engines (as [`in_page`]).
#[cfg(not(feature = "build-only"))]
fn convert_in_page(
    format: Format,
    old: &Rc<str>,
    new: &Rc<str>,
) -> Option<Result<(String, String), EngineFailed>> {
    Some(
        crate::app::engine::Engine::default()
            .convert(format, old, new)
            .map_err(|e| EngineFailed::Refused(e.to_string())),
    )
}

#[cfg(feature = "build-only")]
fn convert_in_page(
    _: Format,
    _: &Rc<str>,
    _: &Rc<str>,
) -> Option<Result<(String, String), EngineFailed>> {
    None
}

/// The answer computed on the page's own thread, when the worker cannot
/// start (a host that blocks workers, the browser tests' page) and this
/// module carries the engines: a build with every view (the tests') does,
/// the page module (Build only, kept small for the first load) does not
/// and says why instead.
#[cfg(not(feature = "build-only"))]
fn in_page(job: &BuildJob) -> Option<Rc<BuildAnswer>> {
    Some(Rc::new(crate::app::engine::Engine::default().build(job)))
}

#[cfg(feature = "build-only")]
fn in_page(_: &BuildJob) -> Option<Rc<BuildAnswer>> {
    None
}

/// Build's keys: swap, format, undo, share, copy a column's payload.
#[hook]
fn use_build_shortcuts(
    state: &ViewHandle<BuildState>,
    send: &Callback<BuildAction>,
    share: &Callback<()>,
    copy: &UseCopy,
) {
    let (state, send, share, copy) = (state.clone(), send.clone(), share.clone(), copy.clone());
    use_shortcuts(
        Some(View::Build),
        Callback::from(move |shortcut| match shortcut {
            Shortcut::Swap => send.emit(BuildAction::Swap),
            Shortcut::Format => send.emit(BuildAction::FormatText),
            Shortcut::Undo => send.emit(BuildAction::Undo),
            Shortcut::Share => share.emit(()),
            Shortcut::CopyPayload(n) => {
                let i = usize::from(n) - 1;
                let texts = state.results.columns.get(i).and_then(|r| r.texts.as_ref());
                if let Some(texts) = texts {
                    copy.copy
                        .emit((format!("payload-{i}").into(), texts.payload.to_string()));
                }
            }
            _ => {}
        }),
    );
}

struct EditorsProps {
    state: ViewHandle<BuildState>,
    tab_mode: TabMode,
    ontabmode: Callback<TabMode>,
    send: Callback<BuildAction>,
}

/// The old and the new object, side by side.
fn editors(props: &EditorsProps) -> Html {
    let state = &props.state;
    let pane = |id: &'static str,
                label: &'static str,
                hint: &'static str,
                side: &super::TextSide,
                edit: fn(std::rc::Rc<str>) -> BuildAction| {
        html! {
            <div class="pane">
                <h3 class="pane-title"><label for={id}>{ label }</label><span class="hint">{ hint }</span></h3>
                <Editor {id} {label} text={AttrValue::from(side.text.clone())}
                    format={Format::detect(&side.text)} error={side.current_error().cloned()}
                    tab_mode={props.tab_mode} ontabmode={props.ontabmode.clone()} onchange={props.send.reform(edit)} />
            </div>
        }
    };
    html! {
        <div class="editors">
            { pane("old-object", "Old object", "what your cache shows", &state.old, BuildAction::EditOld) }
            { pane("new-object", "New object", "what you want it to be", &state.new, BuildAction::EditNew) }
        </div>
    }
}
