//! The Check view: a toolbar, the patch and object editors, and beside
//! them what lint found: the summary, the fix shown, the ops with their
//! findings, the outcome on the current object. State lives in
//! [`CheckState`]; the hooks do the browser's part.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use super::findings::{fix_button_id, OpList};
use super::fix::FixPanel;
use super::report::{engine, ApplyOutcome, Summary};
use super::state::{CheckAction, CheckState, Checked, Comparison, FixKey};
use crate::app::components::{
    use_copy, CopyFallback, Editor, ExampleSelect, NoticeBar, TabMode, UseCopy,
};
use crate::app::hooks::{use_share, use_shortcuts, use_tab_mode, use_view_state, INSTANT_BYTES};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::apply::Semantics;
use crate::input::{Format, InputError};

impl Reducible for CheckState {
    type Action = CheckAction;
    fn reduce(self: Rc<Self>, action: CheckAction) -> Rc<Self> {
        let next = CheckState::reduce(&self, action);
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

/// The pause in typing before big texts are checked.
const PAUSE_MS: u32 = 300;

/// Runs lint when the texts changed: at once for small texts, after a
/// pause in typing for big ones.
#[hook]
fn use_lint(state: &CheckState, dispatcher: UseReducerDispatcher<CheckState>) {
    let timer = use_mut_ref(|| None::<Timeout>);
    let big = state.text_bytes() > INSTANT_BYTES;
    use_effect_with((state.rev, state.stale()), move |(_, stale)| {
        timer.borrow_mut().take();
        if !*stale {
            return;
        }
        if big {
            *timer.borrow_mut() = Some(Timeout::new(PAUSE_MS, move || {
                dispatcher.dispatch(CheckAction::Check)
            }));
        } else {
            dispatcher.dispatch(CheckAction::Check);
        }
    });
}

#[derive(PartialEq, Properties)]
pub struct CheckViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

/// The Check view.
#[component]
pub fn CheckView(props: &CheckViewProps) -> Html {
    let state = use_view_state::<CheckState>(props.packed.clone());
    let copy = use_copy();
    let (tab_mode, on_tab_mode) = use_tab_mode();
    let send = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: CheckAction| dispatcher.dispatch(action))
    };
    let notify = send.reform(CheckAction::Notify);
    use_lint(&state, state.dispatcher());
    let share = use_share(state.link(), &copy, notify);
    {
        let (send, share) = (send.clone(), share.clone());
        use_shortcuts(
            Some(View::Check),
            Callback::from(move |shortcut| match shortcut {
                Shortcut::UseFix => send.emit(CheckAction::ShowFirstFix),
                Shortcut::Undo => send.emit(CheckAction::Undo),
                Shortcut::Share => share.emit(()),
                _ => {}
            }),
        );
    }
    let on = |action: CheckAction| send.reform(move |()| action.clone());
    // The fix beside the patch, worked out again only when it can change.
    let comparison = {
        let state = state.clone();
        use_memo((state.checked.rev, state.fix.clone()), move |_| {
            state.comparison()
        })
    };
    let (title, description) = state.title();
    html! {
        <section class="view check" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Check" }</h1>
                <p class="summary">{ View::Check.summary() }</p>
            </div>
            <Toolbar example={state.example.clone()} semantics={state.semantics} undo={state.undo.is_some()} copy={copy.clone()}
                onexample={send.reform(CheckAction::LoadExample)} onsemantics={send.reform(CheckAction::SetSemantics)}
                onclear={on(CheckAction::Clear)} onundo={on(CheckAction::Undo)} onshare={share} />
            <NoticeBar notice={state.notice.clone()} ondismiss={on(CheckAction::DismissNotice)} onundo={on(CheckAction::Undo)} />
            <div class="subject">
                <h2 class="subject-title">{ title }</h2>
                if let Some(description) = description {
                    <p class="subject-note">{ super::findings::with_code(&description) }</p>
                }
            </div>
            <div class="workspace check-workspace">
                <Editors patch={AttrValue::from(Rc::clone(&state.patch))} object={AttrValue::from(Rc::clone(&state.object))}
                    patch_error={state.patch_error()} object_error={state.object_error()} {tab_mode} ontabmode={on_tab_mode}
                    onpatch={send.reform(CheckAction::EditPatch)} onobject={send.reform(CheckAction::EditObject)} />
                <Results checked={Rc::clone(&state.checked)} checking={state.stale() && state.text_bytes() > INSTANT_BYTES} comparison={(*comparison).clone()}
                    shown={state.fix.clone()} copy={copy.clone()}
                    onfix={send.reform(CheckAction::ShowFix)} onadopt={on(CheckAction::AdoptFix)} onclose={on(CheckAction::HideFix)} />
            </div>
            <CopyFallback {copy} />
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct EditorsProps {
    patch: AttrValue,
    object: AttrValue,
    patch_error: Option<InputError>,
    object_error: Option<InputError>,
    tab_mode: TabMode,
    ontabmode: Callback<TabMode>,
    onpatch: Callback<String>,
    onobject: Callback<String>,
}

#[component]
fn Editors(props: &EditorsProps) -> Html {
    html! {
        <div class="editors">
            <div class="pane">
                <h3 class="pane-title"><label for="check-patch">{ "Patch" }</label><span class="hint">{ "a JSON patch, a merge patch, or a kubectl patch command" }</span></h3>
                <Editor id="check-patch" label="Patch" text={props.patch.clone()} format={Format::detect(&props.patch)}
                    error={props.patch_error.clone()} tab_mode={props.tab_mode} ontabmode={props.ontabmode.clone()} onchange={props.onpatch.clone()} />
            </div>
            <div class="pane">
                <h3 class="pane-title"><label for="check-object">{ "Current object" }</label><span class="hint">{ "optional: does the patch apply now?" }</span></h3>
                <Editor id="check-object" label="Current object" text={props.object.clone()} format={Format::detect(&props.object)}
                    error={props.object_error.clone()} tab_mode={props.tab_mode} ontabmode={props.ontabmode.clone()} onchange={props.onobject.clone()} />
            </div>
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct ResultsProps {
    checked: Rc<Checked>,
    /// Big texts changed and wait for a pause in typing.
    checking: bool,
    comparison: Option<Comparison>,
    shown: Option<FixKey>,
    copy: UseCopy,
    onfix: Callback<FixKey>,
    onadopt: Callback<()>,
    onclose: Callback<()>,
}

#[component]
fn Results(props: &ResultsProps) -> Html {
    let comparison = props.comparison.clone();
    let opener = comparison.as_ref().and_then(|c| {
        let findings = &props.checked.ok()?.report.findings;
        let n = findings.iter().position(|f| *f == c.finding)?;
        Some(AttrValue::from(fix_button_id(n)))
    });
    html! {
        <div class={classes!("results", "check-results", props.checking.then_some("stale"))} aria-busy={props.checking.to_string()}>
            if props.checking {
                <p class="stale-note" role="status">{ "Checking: large texts are checked after a pause in typing." }</p>
            }
            <Summary checked={Rc::clone(&props.checked)} />
            if let Some(comparison) = comparison {
                <FixPanel {comparison} {opener} copy={props.copy.clone()} onadopt={props.onadopt.clone()} onclose={props.onclose.clone()} />
            }
            <OpList checked={Rc::clone(&props.checked)} shown={props.shown.clone()} onfix={props.onfix.clone()} />
            <ApplyOutcome checked={Rc::clone(&props.checked)} />
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct ToolbarProps {
    example: Option<String>,
    semantics: Semantics,
    undo: bool,
    copy: UseCopy,
    onexample: Callback<String>,
    onsemantics: Callback<Semantics>,
    onclear: Callback<()>,
    onundo: Callback<()>,
    onshare: Callback<()>,
}

#[component]
fn Toolbar(props: &ToolbarProps) -> Html {
    let click = |cb: &Callback<()>| cb.reform(|_: MouseEvent| ());
    let engine_button = |s: Semantics| {
        let onsemantics = props.onsemantics.clone();
        html! {
            <button type="button" aria-pressed={(props.semantics == s).to_string()}
                onclick={Callback::from(move |_: MouseEvent| onsemantics.emit(s))}>{ engine(s) }</button>
        }
    };
    html! {
        <div class="toolbar" role="toolbar" aria-label="Check actions">
            <ExampleSelect current={props.example.clone()} onchoose={props.onexample.clone()}
                choices={super::examples().iter().map(|e| (e.id, e.title.clone())).collect::<Vec<_>>()} />
            <div class="segmented" role="group" aria-label="Engine">
                { engine_button(Semantics::Kube) }
                { engine_button(Semantics::Rfc) }
            </div>
            <button type="button" onclick={click(&props.onclear)}>{ "Clear" }</button>
            if props.undo {
                <button type="button" class="undo" onclick={click(&props.onundo)}>{ "Undo" }<kbd class="shortcut-hint" aria-hidden="true">{ "z" }</kbd></button>
            }
            <button type="button" class="primary" onclick={click(&props.onshare)}>
                <span aria-live="polite">{ props.copy.label("share", "Share link") }</span><kbd class="shortcut-hint" aria-hidden="true">{ "l" }</kbd>
            </button>
        </div>
    }
}
