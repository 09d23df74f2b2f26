//! The Kubernetes release picker of Build, Check and Race: which
//! kube-apiserver (and so which evanphx/json-patch release) answers the
//! patches; given which releases answer differently, it says so.

use std::rc::Rc;

use yew::prelude::*;

use super::{counted, select, Choice, ReformSome, SelectProps};
use crate::kube::KubeVersion;

/// Shown after the label of a release whose answer differs.
pub const DIFFERS_MARK: &str = " · answers differently";

#[derive(PartialEq, Properties)]
pub struct KubernetesSelectProps {
    /// The release chosen.
    pub value: KubeVersion,
    /// A release was chosen.
    pub onchange: Callback<KubeVersion>,
    /// The choices whose answer differs from the chosen release's (`None`:
    /// not worked out; nothing is said).
    #[prop_or_default]
    pub differs: Option<Rc<Vec<KubeVersion>>>,
}

/// A labelled select of [`KubeVersion::choices`], newest first, the
/// releases that answer differently marked, and a line that says whether
/// the choice matters here.
pub fn kubernetes_select(props: &KubernetesSelectProps) -> Html {
    let differs = |v: &KubeVersion| {
        props
            .differs
            .as_ref()
            .is_some_and(|d| d.contains(&v.choice()))
    };
    let choices: Vec<Choice> = KubeVersion::choices()
        .into_iter()
        .map(|v| {
            let label = if differs(&v) {
                format!("{}{DIFFERS_MARK}", v.label())
            } else {
                v.label()
            };
            Choice::new(v.to_string(), label)
        })
        .collect();
    let note = props.differs.as_ref().map(|d| {
        if d.is_empty() {
            "Every release gives the same answer here.".to_owned()
        } else {
            format!(
                "{} from {} (marked).",
                counted(
                    d.len(),
                    "release answers differently",
                    "releases answer differently"
                ),
                props.value.choice()
            )
        }
    });
    html! {
        <>
            { select(&yew::props!(SelectProps { label: "Kubernetes", field_class: "kube", choices, title: "The kube-apiserver that answers: each release is built with one evanphx/json-patch release, and their answers differ in a few places (docs/fidelity.md in the source).", selected: props.value.choice().to_string(), onchange: props.onchange.reform_some(|v: String| v.parse::<KubeVersion>().ok()) })) }
            if let Some(note) = note {
                <span class="kube-note muted" role="status">{ note }</span>
            }
        </>
    }
}
