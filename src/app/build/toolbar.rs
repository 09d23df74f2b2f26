//! Build's toolbar: example, Kubernetes release, format, Format, Swap,
//! Reset, Undo and Share.

use yew::prelude::*;

use super::state::BuildAction;
use crate::app::components::{
    example_select, kubernetes_select, share_button, undo_button, ExampleSelectProps,
    KubernetesSelectProps, ShareButtonProps, UndoButtonProps, UseCopy,
};
use crate::input::Format;
use crate::kube::KubeVersion;

/// What the toolbar shows.
#[derive(PartialEq, Properties)]
pub struct ToolbarProps {
    pub example: Option<String>,
    pub format: Format,
    /// A Convert or Format waits for the engines (on a first visit, until
    /// they have loaded).
    pub converting: bool,
    pub kubernetes: KubeVersion,
    pub undo: bool,
    pub copy: UseCopy,
    pub send: Callback<BuildAction>,
    pub onshare: Callback<()>,
}

pub fn toolbar(props: &ToolbarProps) -> Html {
    let send = &props.send;
    let click = |action: BuildAction| send.reform(move |_: MouseEvent| action.clone());
    let format = |f: Format, label: &'static str| {
        html! {
            <button type="button" aria-pressed={(props.format == f).to_string()}
                onclick={click(BuildAction::SetFormat(f))}>{ label }</button>
        }
    };
    html! {
        <div class="toolbar" role="toolbar" aria-label="Editor actions">
            { example_select(&yew::props!(ExampleSelectProps { current: props.example.clone(), onchoose: send.reform(BuildAction::LoadExample), choices: super::examples().iter().map(|e| (e.id, e.title.clone())).collect::<Vec<_>>() })) }
            { kubernetes_select(&yew::props!(KubernetesSelectProps { value: props.kubernetes, onchange: send.reform(BuildAction::SetKubernetes) })) }
            <div class="segmented" role="group" aria-label="Format" aria-busy={props.converting.to_string()}>
                { format(Format::Yaml, "YAML") }
                { format(Format::Json, "JSON") }
            </div>
            <button type="button" aria-busy={props.converting.to_string()} onclick={click(BuildAction::FormatText)}>{ "Format" }<kbd class="shortcut-hint" aria-hidden="true">{ "f" }</kbd></button>
            <button type="button" onclick={click(BuildAction::Swap)}>{ "Swap old and new" }<kbd class="shortcut-hint" aria-hidden="true">{ "s" }</kbd></button>
            <button type="button" onclick={click(BuildAction::Reset)}>{ "Reset" }</button>
            { undo_button(&yew::props!(UndoButtonProps { shown: props.undo, onundo: send.reform(|()| BuildAction::Undo) })) }
            if props.converting { <span class="converting">{ "Converting…" }</span> }
            { share_button(&yew::props!(ShareButtonProps { class: "primary", copy: props.copy.clone(), onshare: props.onshare.clone() })) }
        </div>
    }
}
