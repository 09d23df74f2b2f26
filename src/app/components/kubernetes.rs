//! The Kubernetes release picker of Build and Race: which kube-apiserver
//! (and so which evanphx/json-patch release) answers the patches.

use yew::prelude::*;

use crate::kube::KubeVersion;

#[derive(PartialEq, Properties)]
pub struct KubernetesSelectProps {
    /// The release chosen.
    pub value: KubeVersion,
    /// A release was chosen.
    pub onchange: Callback<KubeVersion>,
}

/// A labelled select of [`KubeVersion::choices`], newest first.
#[component]
pub fn KubernetesSelect(props: &KubernetesSelectProps) -> Html {
    let onchange = {
        let emit = props.onchange.clone();
        Callback::from(move |event: Event| {
            let chosen = event
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|select| select.value().parse::<KubeVersion>().ok());
            if let Some(version) = chosen {
                emit.emit(version);
            }
        })
    };
    html! {
        <label class="field kube" title="The kube-apiserver that answers: each release is built with one evanphx/json-patch release, and their answers differ in a few places (docs/fidelity.md in the source).">
            <span>{ "Kubernetes" }</span>
            <select {onchange}>
                { for KubeVersion::choices().into_iter().map(|v| html! {
                    <option value={v.to_string()} selected={v == props.value.choice()}>{ v.label() }</option>
                }) }
            </select>
        </label>
    }
}
