//! The Check view: a toolbar, the patch and object editors, and beside
//! them what lint found: the summary, the fix shown, the ops with their
//! findings, the outcome on the current object. State lives in
//! [`CheckState`]; the hooks do the browser's part.

use std::rc::Rc;

use yew::prelude::*;

use super::explain_panel::{explain_panel, ExplainPanelProps};
use super::findings::{op_list, OpListProps};
use super::fix::FixPanel;
use super::link::FixKey;
use super::report::{apply_outcome, engine, summary, ApplyOutcomeProps, SummaryProps};
use super::state::{CheckAction, CheckState, Checked, Comparison};
use crate::app::components::{
    copy_fallback, example_select, fix_button_id, kubernetes_select, notice_bar, share_button,
    undo_button, with_code, CopyFallbackProps, Editor, ExampleSelectProps, KubernetesSelectProps,
    NoticeBarProps, ShareButtonProps, TabMode, UndoButtonProps, UseCopy,
};
use crate::app::hooks::{use_copy, use_share, use_shortcuts, use_tab_mode, use_view};
use crate::app::route::View;
use crate::app::shortcuts::Shortcut;
use crate::app::view_state::ViewState;
use crate::apply::Semantics;
use crate::engines::client::{use_ask, warm, EngineClient};
use crate::engines::explain::PanelAnswer;
use crate::engines::{Failure, Never};
use crate::input::{Format, InputError};
use crate::kube::KubeVersion;

#[derive(PartialEq, Properties)]
pub struct CheckViewProps {
    /// The link payload of the route, when opened from a link.
    pub packed: Option<AttrValue>,
}

/// The Check view.
#[component]
pub fn CheckView(props: &CheckViewProps) -> Html {
    let (state, send) = use_view::<CheckState>(props.packed.clone());
    let copy = use_copy();
    let (tab_mode, on_tab_mode) = use_tab_mode();
    use_engines(&state, &send);
    let share = use_share(state.link(), &copy, send.reform(CheckAction::Notify));
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
    let (title, description) = state.title();
    html! {
        <section class="view check" aria-labelledby="view-title">
            <div class="view-head">
                <h1 id="view-title">{ "Check" }</h1>
                <p class="summary">{ View::Check.summary() }</p>
            </div>
            { toolbar(&yew::props!(ToolbarProps { example: state.example.clone(), semantics: state.semantics, undo: state.undo.is_some(), copy: copy.clone(),
                onexample: send.reform(CheckAction::LoadExample), onsemantics: send.reform(CheckAction::SetSemantics),
                onclear: on(CheckAction::Clear), onundo: on(CheckAction::Undo), onshare: share })) }
            { notice_bar(&yew::props!(NoticeBarProps { notice: state.notice.clone(), ondismiss: on(CheckAction::DismissNotice), onundo: on(CheckAction::Undo) })) }
            <div class="subject">
                <h2 class="subject-title">{ title }</h2>
                if let Some(description) = description {
                    <p class="subject-note">{ with_code(&description) }</p>
                }
            </div>
            <div class="workspace check-workspace">
                { editors(&yew::props!(EditorsProps { patch: AttrValue::from(Rc::clone(&state.patch)), object: AttrValue::from(Rc::clone(&state.object)),
                    patch_error: state.patch_error(), object_error: state.object_error(), tab_mode, ontabmode: on_tab_mode,
                    onpatch: send.reform(CheckAction::EditPatch), onobject: send.reform(CheckAction::EditObject),
                    error: AttrValue::from(Rc::clone(&state.error)), kubernetes: state.kubernetes.unwrap_or_default(),
                    onerror: send.reform(CheckAction::EditError), onkubernetes: send.reform(CheckAction::SetKubernetes) })) }
                { results(&yew::props!(ResultsProps { checked: state.findings(), waiting: state.stale().then_some(state.big() && state.typing), failed: state.failed().cloned(), loading: EngineClient::loading(),
                    nothing_yet: state.nothing_yet(), comparison: state.shown.clone(),
                    explain: (!state.error.trim().is_empty()).then(|| (state.explanation(), state.explaining())),
                    shown: state.fix.clone(), opener: state.shown_finding().map(|n| AttrValue::from(fix_button_id(n))), copy: copy.clone(),
                    onfix: send.reform(CheckAction::ShowFix), onadopt: on(CheckAction::AdoptFix), onclose: on(CheckAction::HideFix) })) }
            </div>
            { copy_fallback(&yew::props!(CopyFallbackProps { copy })) }
        </section>
    }
}

/// Asks the engines' lint about the texts whenever the findings are not
/// theirs ([`CheckState::wants_check`]: the Check module has no linter),
/// at once for small texts, after a pause in typing for big ones; and
/// explain about the pasted error text whenever the texts changed
/// ([`CheckState::wants_explain`]). The first question starts the
/// engines' module (the one Build uses, fetched once): a visit that only
/// looks at the bundled examples never fetches it.
#[hook]
fn use_engines(state: &CheckState, send: &Callback<CheckAction>) {
    use_ask(
        state.wants_check().map(|(rev, check)| (rev, move || check)),
        state.big() && state.typing,
        send.reform(CheckAction::Checked),
    );
    use_ask(
        state
            .wants_explain()
            .map(|(rev, explain)| (rev, move || explain)),
        false,
        send.reform(CheckAction::Explained),
    );
}

#[derive(PartialEq, Properties)]
struct EditorsProps {
    patch: AttrValue,
    object: AttrValue,
    patch_error: Option<InputError>,
    object_error: Option<InputError>,
    tab_mode: TabMode,
    ontabmode: Callback<TabMode>,
    onpatch: Callback<Rc<str>>,
    onobject: Callback<Rc<str>>,
    /// The pasted error text.
    error: AttrValue,
    kubernetes: KubeVersion,
    onerror: Callback<Rc<str>>,
    onkubernetes: Callback<KubeVersion>,
}

fn editors(props: &EditorsProps) -> Html {
    // An editor taking the focus starts the engines: a paste usually
    // follows, and lint and explain run there.
    html! {
        <div class="editors" onfocusin={Callback::from(|_: FocusEvent| warm())}>
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
            { error_field(&yew::props!(ErrorFieldProps { text: props.error.clone(), kubernetes: props.kubernetes, onchange: props.onerror.clone(), onkubernetes: props.onkubernetes.clone() })) }
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct ResultsProps {
    checked: Rc<Checked>,
    /// explain's latest answer and whether it is behind the texts (`None`:
    /// no error text pasted).
    explain: Option<(Option<PanelAnswer>, bool)>,
    /// The findings wait for the engines (`Some(true)`: big texts, asked
    /// about after a pause in typing).
    waiting: Option<bool>,
    /// Why the engines could not check the current texts.
    failed: Option<Failure<Never>>,
    /// The engines are not loaded yet (the first answer waits for them).
    loading: bool,
    /// ... and nothing was checked yet (a link just opened): no findings
    /// to show, and no "paste a patch" either.
    nothing_yet: bool,
    comparison: Option<Rc<Comparison>>,
    shown: Option<FixKey>,
    /// The id of the button of the finding whose fix is shown.
    opener: Option<AttrValue>,
    copy: UseCopy,
    onfix: Callback<FixKey>,
    onadopt: Callback<()>,
    onclose: Callback<()>,
}

fn results(props: &ResultsProps) -> Html {
    // Failed: not busy (nothing is on its way), and no findings: those
    // shown last are of other texts.
    let busy = props.waiting.is_some() && props.failed.is_none();
    html! {
        <div class={classes!("results", "check-results", busy.then_some("stale"), (busy && props.waiting == Some(false)).then_some("soon"))} aria-busy={busy.to_string()}>
            if let Some(failed) = &props.failed {
                <p class="stale-note bad" role="alert">{ format!("patchlab's engines could not check this: {failed}. Your texts are kept.") }</p>
            } else if props.waiting == Some(true) {
                <p class="stale-note" role="status">{ "Checking: large texts are checked after a pause in typing." }</p>
            } else if props.waiting == Some(false) {
                <p class="stale-note soon" role="status">{ if props.loading { "Checking… (the first time, this loads patchlab's engines)" } else { "Checking…" } }</p>
            }
            if let Some((answer, waiting)) = props.explain.clone() {
                { explain_panel(&yew::props!(ExplainPanelProps { answer, waiting })) }
            }
            if !props.nothing_yet && props.failed.is_none() {
                { summary(&yew::props!(SummaryProps { checked: Rc::clone(&props.checked) })) }
                if let Some(comparison) = props.comparison.clone() {
                    <FixPanel {comparison} opener={props.opener.clone()} copy={props.copy.clone()} onadopt={props.onadopt.clone()} onclose={props.onclose.clone()} />
                }
                { op_list(&yew::props!(OpListProps { checked: Rc::clone(&props.checked), shown: props.shown.clone(), onfix: props.onfix.clone() })) }
                { apply_outcome(&yew::props!(ApplyOutcomeProps { checked: Rc::clone(&props.checked) })) }
            }
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

fn toolbar(props: &ToolbarProps) -> Html {
    let engine_button = |s: Semantics| {
        html! {
            <button type="button" aria-pressed={(props.semantics == s).to_string()}
                onclick={props.onsemantics.reform(move |_: MouseEvent| s)}>{ engine(s) }</button>
        }
    };
    html! {
        <div class="toolbar" role="toolbar" aria-label="Check actions">
            { example_select(&yew::props!(ExampleSelectProps { current: props.example.clone(), onchoose: props.onexample.clone(), choices: super::examples().iter().map(|e| (e.id, e.title.clone())).collect::<Vec<_>>() })) }
            <div class="segmented" role="group" aria-label="Engine">
                { engine_button(Semantics::Kube) }
                { engine_button(Semantics::Rfc) }
            </div>
            <button type="button" onclick={props.onclear.reform(|_: MouseEvent| ())}>{ "Clear" }</button>
            { undo_button(&yew::props!(UndoButtonProps { shown: props.undo, onundo: props.onundo.clone() })) }
            { share_button(&yew::props!(ShareButtonProps { class: "primary", copy: props.copy.clone(), onshare: props.onshare.clone() })) }
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct ErrorFieldProps {
    text: AttrValue,
    kubernetes: KubeVersion,
    onchange: Callback<Rc<str>>,
    onkubernetes: Callback<KubeVersion>,
}

/// "Paste the error you got": a plain text field (Tab leaves it) and the
/// release the error came from.
fn error_field(props: &ErrorFieldProps) -> Html {
    let oninput = props.onchange.reform(|event: InputEvent| {
        let text = event
            .target_dyn_into::<web_sys::HtmlTextAreaElement>()
            .map(|area| area.value())
            .unwrap_or_default();
        Rc::from(text.as_str())
    });
    html! {
        <div class="pane error-pane">
            <h3 class="pane-title"><label for="check-error">{ "The error you got" }</label><span class="hint" id="check-error-hint">{ "optional: paste it, and Check says what it means, whether a retry helps and what to change" }</span></h3>
            <textarea id="check-error" class="error-text" rows="3" spellcheck="false" autocapitalize="off" autocomplete="off"
                aria-describedby="check-error-hint"
                placeholder="The request is invalid: the server rejected our request due to an error in our request"
                value={props.text.clone()} {oninput} />
            { kubernetes_select(&yew::props!(KubernetesSelectProps { value: props.kubernetes, onchange: props.onkubernetes.clone() })) }
        </div>
    }
}
