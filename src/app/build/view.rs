//! The Build view: a toolbar, the two editors and the result columns side
//! by side, then the Fields table. State lives in [`BuildState`]; the hooks
//! do the browser's part.

use yew::prelude::*;

use super::fields::FieldsTable;
use super::results::ResultColumns;
use super::state::{BuildAction, BuildState};
use super::toolbar::{toolbar, ToolbarProps};
use crate::app::components::{
    copy_fallback, notice_bar, CopyFallbackProps, Editor, NoticeBarProps, TabMode, UseCopy,
};
use crate::app::hooks::{use_copy, use_share, use_shortcuts, use_tab_mode, use_view, ViewHandle};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::app::view_state::ViewState;
use crate::engines::client::use_ask;
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
    use_engines(&state, &send);
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

/// Asks the engines for the results whenever the texts or the columns
/// change (after a pause in typing when the texts are big), and for a
/// pending Convert or Format; their answers come back as actions.
#[hook]
fn use_engines(state: &ViewHandle<BuildState>, send: &Callback<BuildAction>) {
    let asked = state.clone();
    use_ask(
        state.wants().map(|revs| (revs, move || asked.question())),
        state.big() && state.typed(),
        send.reform(BuildAction::Computed),
    );
    use_ask(
        state
            .conversion()
            .map(|(rev, convert)| (rev, move || convert)),
        false,
        send.reform(BuildAction::Converted),
    );
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
