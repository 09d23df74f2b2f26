//! The Build view: a toolbar, the two editors and the result columns side
//! by side, then the Fields table. State lives in [`BuildState`]; the hooks
//! do the browser's part.

use yew::prelude::*;

use super::column::ResultColumns;
use super::fields::FieldsTable;
use super::state::{BuildAction, BuildState};
use crate::app::components::{
    use_copy, CopyFallback, Editor, ExampleSelect, KubernetesSelect, NoticeBar, UseCopy,
};
use crate::app::hooks::{
    use_piecewise_recompute, use_share, use_shortcuts, use_tab_mode, use_view_state,
};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::input::Format;
use crate::kube::KubeVersion;

impl Reducible for BuildState {
    type Action = BuildAction;
    fn reduce(self: std::rc::Rc<Self>, action: BuildAction) -> std::rc::Rc<Self> {
        std::rc::Rc::new(BuildState::reduce(&self, action))
    }
}

#[derive(PartialEq, Properties)]
pub struct BuildViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

/// The Build view.
#[component]
pub fn BuildView(props: &BuildViewProps) -> Html {
    let state = use_view_state::<BuildState>(props.packed.clone());
    let copy = use_copy();
    let (tab_mode, on_tab_mode) = use_tab_mode();
    let send = {
        let dispatcher = state.dispatcher();
        move |action: BuildAction| dispatcher.dispatch(action)
    };
    let notify = {
        let send = send.clone();
        Callback::from(move |notice| send(BuildAction::Notify(notice)))
    };
    use_piecewise_recompute(&state, state.dispatcher());
    let share = use_share(state.link(), &copy, notify);
    {
        let (state, send, share, copy) = (state.clone(), send.clone(), share.clone(), copy.clone());
        use_shortcuts(
            Some(View::Build),
            Callback::from(move |shortcut| match shortcut {
                Shortcut::Swap => send(BuildAction::Swap),
                Shortcut::Format => send(BuildAction::FormatText),
                Shortcut::Undo => send(BuildAction::Undo),
                Shortcut::Share => share.emit(()),
                Shortcut::CopyPayload(n) => {
                    let i = usize::from(n) - 1;
                    if let Some(Ok(plan)) = state.results.get(i).map(|r| &r.plan) {
                        copy.copy
                            .emit((format!("payload-{i}").into(), plan.body_text()));
                    }
                }
                _ => {}
            }),
        );
    }
    let on = |action: BuildAction| {
        let send = send.clone();
        Callback::from(move |()| send(action.clone()))
    };
    let on_text = |make: fn(String) -> BuildAction| {
        let send = send.clone();
        Callback::from(move |text: String| send(make(text)))
    };
    let (title, description) = state.title();
    let old_error = state.old.current_error().cloned();
    let new_error = state.new.current_error().cloned();

    html! {
        <section class="view build" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Build" }</h1>
                <p class="summary">{ View::Build.summary() }</p>
            </div>
            <Toolbar
                example={state.example.clone()}
                format={state.format}
                kubernetes={state.kubernetes.unwrap_or_default()}
                onkubernetes={{ let send = send.clone(); Callback::from(move |v| send(BuildAction::SetKubernetes(v))) }}
                undo={state.undo.is_some()}
                copy={copy.clone()}
                onexample={{ let send = send.clone(); Callback::from(move |id| send(BuildAction::LoadExample(id))) }}
                onformat={{ let send = send.clone(); Callback::from(move |f| send(BuildAction::SetFormat(f))) }}
                onpretty={on(BuildAction::FormatText)}
                onswap={on(BuildAction::Swap)}
                onreset={on(BuildAction::Reset)}
                onundo={on(BuildAction::Undo)}
                onshare={share}
            />
            <NoticeBar notice={state.notice.clone()} ondismiss={on(BuildAction::DismissNotice)} onundo={on(BuildAction::Undo)} />
            <div class="subject">
                <h2 class="subject-title">{ title }</h2>
                if let Some(description) = description {
                    <p class="subject-note">{ description }</p>
                }
            </div>
            <div class="workspace">
                <div class="editors">
                    <div class="pane">
                        <h3 class="pane-title"><label for="old-object">{ "Old object" }</label><span class="hint">{ "what your cache shows" }</span></h3>
                        <Editor id="old-object" label="Old object" text={AttrValue::from(state.old.text.clone())}
                            format={Format::detect(&state.old.text)} error={old_error}
                            tab_mode={tab_mode} ontabmode={on_tab_mode.clone()} onchange={on_text(BuildAction::EditOld)} />
                    </div>
                    <div class="pane">
                        <h3 class="pane-title"><label for="new-object">{ "New object" }</label><span class="hint">{ "what you want it to be" }</span></h3>
                        <Editor id="new-object" label="New object" text={AttrValue::from(state.new.text.clone())}
                            format={Format::detect(&state.new.text)} error={new_error}
                            tab_mode={tab_mode} ontabmode={on_tab_mode} onchange={on_text(BuildAction::EditNew)} />
                    </div>
                </div>
                <ResultColumns
                    columns={state.columns.clone()}
                    results={state.results.clone()}
                    stale={state.stale()}
                    blocked={state.blocked()}
                    big={state.text_bytes() > crate::app::hooks::INSTANT_BYTES}
                    target={kubectl_target(&state)}
                    copy={copy.clone()}
                    onpreset={{ let send = send.clone(); Callback::from(move |(i, p)| send(BuildAction::SetPreset(i, p))) }}
                    onremove={{ let send = send.clone(); Callback::from(move |i| send(BuildAction::RemoveColumn(i))) }}
                    onadd={on(BuildAction::AddColumn)}
                />
            </div>
            <FieldsTable rows={state.fields()} columns={state.columns.iter().map(|c| c.preset).collect::<Vec<_>>()}
                onchange={{ let send = send.clone(); Callback::from(move |(i, path, s)| send(BuildAction::SetOverride(i, path, s))) }} />
            <CopyFallback copy={copy} />
        </section>
    }
}

/// What kubectl needs to name the object; not the whole (maybe large) object.
fn kubectl_target(state: &BuildState) -> serde_json::Value {
    let at = |p: &str| {
        crate::pointer::Pointer::parse(p)
            .ok()
            .and_then(|p| state.new_at(p))
            .cloned()
    };
    serde_json::json!({
        "kind": at("/kind"),
        "metadata": { "name": at("/metadata/name"), "namespace": at("/metadata/namespace") }
    })
}

#[derive(PartialEq, Properties)]
struct ToolbarProps {
    example: Option<String>,
    format: Format,
    kubernetes: KubeVersion,
    onkubernetes: Callback<KubeVersion>,
    undo: bool,
    copy: UseCopy,
    onexample: Callback<String>,
    onformat: Callback<Format>,
    onpretty: Callback<()>,
    onswap: Callback<()>,
    onreset: Callback<()>,
    onundo: Callback<()>,
    onshare: Callback<()>,
}

#[component]
fn Toolbar(props: &ToolbarProps) -> Html {
    let click = |cb: &Callback<()>| cb.reform(|_: MouseEvent| ());
    let format = |f: Format, label: &'static str| {
        let onformat = props.onformat.clone();
        html! {
            <button type="button" aria-pressed={(props.format == f).to_string()}
                onclick={Callback::from(move |_: MouseEvent| onformat.emit(f))}>{ label }</button>
        }
    };
    let share_label = props.copy.label("share", "Share link");
    html! {
        <div class="toolbar" role="toolbar" aria-label="Editor actions">
            <ExampleSelect current={props.example.clone()} onchoose={props.onexample.clone()}
                choices={super::examples().iter().map(|e| (e.id, e.title.clone())).collect::<Vec<_>>()} />
            <KubernetesSelect value={props.kubernetes} onchange={props.onkubernetes.clone()} />
            <div class="segmented" role="group" aria-label="Format">
                { format(Format::Yaml, "YAML") }
                { format(Format::Json, "JSON") }
            </div>
            <button type="button" onclick={click(&props.onpretty)}>{ "Format" }<kbd class="shortcut-hint" aria-hidden="true">{ "f" }</kbd></button>
            <button type="button" onclick={click(&props.onswap)}>{ "Swap old and new" }<kbd class="shortcut-hint" aria-hidden="true">{ "s" }</kbd></button>
            <button type="button" onclick={click(&props.onreset)}>{ "Reset" }</button>
            if props.undo {
                <button type="button" class="undo" onclick={click(&props.onundo)}>{ "Undo" }<kbd class="shortcut-hint" aria-hidden="true">{ "z" }</kbd></button>
            }
            <button type="button" class="primary" onclick={click(&props.onshare)}>
                <span aria-live="polite">{ share_label }</span><kbd class="shortcut-hint" aria-hidden="true">{ "l" }</kbd>
            </button>
        </div>
    }
}
