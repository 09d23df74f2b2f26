//! The Kubernetes release picker of Build and Race: which kube-apiserver
//! (and so which evanphx/json-patch release) answers the patches.

use yew::prelude::*;

use super::{Choice, ReformSome, Select};
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
    let choices: Vec<Choice> = KubeVersion::choices()
        .into_iter()
        .map(|v| Choice::new(v.to_string(), v.label()))
        .collect();
    html! {
        <Select label="Kubernetes" field_class="kube" {choices}
            title="The kube-apiserver that answers: each release is built with one evanphx/json-patch release, and their answers differ in a few places (docs/fidelity.md in the source)."
            selected={props.value.choice().to_string()}
            onchange={props.onchange.reform_some(|v: String| v.parse::<KubeVersion>().ok())} />
    }
}
