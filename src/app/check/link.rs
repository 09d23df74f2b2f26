//! What a Check link holds: the pasted patch, the current object, the
//! engine, and which finding's fix is shown (named across edits by a
//! [`FixKey`]), with the budgets a link must keep.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::examples::{example, Example};
use crate::app::link::{LinkError, Shareable};
use crate::app::route::View;
use crate::apply::Semantics;
use crate::engines::check::CheckedFinding;
use crate::kube::KubeVersion;

/// The longest patch or object text a link may hold (the editors refuse
/// longer pastes too).
pub const MAX_TEXT: usize = crate::limits::OBJECT_BYTES;

fn is_kube(semantics: &Semantics) -> bool {
    *semantics == Semantics::Kube
}

fn is_empty(text: &Rc<str>) -> bool {
    text.is_empty()
}

pub(super) fn empty() -> Rc<str> {
    Rc::from("")
}

/// Names a finding across edits: its rule, op index and path. The fix
/// shown is the current fix of the finding with this key, if lint still
/// reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixKey {
    /// The rule's kebab-case name.
    pub rule: String,
    /// The op index (`None`: the whole body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl FixKey {
    /// The key of `finding`.
    pub fn of(finding: &CheckedFinding) -> FixKey {
        FixKey {
            rule: finding.rule.as_str().to_owned(),
            index: finding.index,
            path: finding.path.clone(),
        }
    }

    /// True when `finding` is the one this key names.
    pub fn names(&self, finding: &CheckedFinding) -> bool {
        finding.rule.as_str() == self.rule
            && finding.index == self.index
            && finding.path == self.path
    }
}

/// What a Check view link holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckLink {
    /// The pasted text: a JSON patch, a merge patch or a kubectl command.
    pub patch: Rc<str>,
    /// The current object's text (empty: none given).
    #[serde(default = "empty", skip_serializing_if = "is_empty")]
    pub object: Rc<str>,
    /// The error text the user got (empty: none pasted). Links made
    /// before the field open with none.
    #[serde(default = "empty", skip_serializing_if = "is_empty")]
    pub error: Rc<str>,
    /// The Kubernetes release the error came from (explain replays the
    /// patch on its engine; `None`: the newest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<KubeVersion>,
    /// The engine the patch is meant for.
    #[serde(default, skip_serializing_if = "is_kube")]
    pub semantics: Semantics,
    /// The example it started from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The finding whose fix is shown beside the patch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixKey>,
}

impl CheckLink {
    /// The link of a bundled example.
    pub fn example(id: &str) -> Option<CheckLink> {
        example(id).map(CheckLink::of_example)
    }

    /// The link of an example as bundled.
    pub(super) fn of_example(example: &Example) -> CheckLink {
        CheckLink {
            patch: Rc::from(example.patch.as_str()),
            object: Rc::from(example.object.as_deref().unwrap_or_default()),
            error: empty(),
            kubernetes: None,
            semantics: example.semantics,
            example: Some(example.id.to_owned()),
            fix: None,
        }
    }

    /// True when replacing this link loses work: anything but a bundled
    /// example as bundled (or nothing at all).
    pub fn is_work(&self) -> bool {
        match self.example.as_deref().and_then(example) {
            Some(e) => {
                *e.patch != *self.patch
                    || e.object.as_deref().unwrap_or_default() != &*self.object
                    || e.semantics != self.semantics
                    || !self.error.trim().is_empty()
            }
            None => {
                !self.patch.trim().is_empty()
                    || !self.object.trim().is_empty()
                    || !self.error.trim().is_empty()
            }
        }
    }
}

impl Shareable for CheckLink {
    const VIEW: View = View::Check;
    const STORAGE_KEY: &'static str = "patchlab.check";

    fn check(&self) -> Result<(), LinkError> {
        for (what, text) in [
            ("a patch", &self.patch),
            ("an object", &self.object),
            ("an error text", &self.error),
        ] {
            if text.len() > MAX_TEXT {
                return Err(LinkError::OverBudget(format!(
                    "{what} of {} bytes (at most {MAX_TEXT})",
                    text.len()
                )));
            }
        }
        Ok(())
    }
}
