//! Check's "paste the error you got": the error text explained by
//! [`crate::explain`], with the patch and the object the view already holds
//! (the replay then names the failing op). Pure, tested natively.

use crate::explain::{explain, ExplainError, Explanation, Helps, Request};
use crate::kube::KubeVersion;

/// A view text explain was given but could not read, so it answered
/// without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unused {
    /// The patch editor's text.
    Patch,
    /// The object editor's text.
    Object,
}

impl Unused {
    /// In a sentence: "the patch".
    pub fn what(self) -> &'static str {
        match self {
            Unused::Patch => "the patch",
            Unused::Object => "the current object",
        }
    }
}

/// explain's answer for the pasted error text.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The explanation, or why there is none (the text is too large).
    pub answer: Result<Explanation, ExplainError>,
    /// The texts of the view explain could not read and went without.
    pub unused: Vec<Unused>,
    /// True when the patch editor held a patch explain used.
    pub with_patch: bool,
    /// True when the object editor held an object explain used.
    pub with_object: bool,
}

/// Explains `error` (blank: `None`) with the view's patch and object
/// (each when not blank) on `release` (the newest when `None`). A patch or
/// object explain cannot read is left out, and said so, rather than
/// hiding the explanation of the text.
pub fn explain_error(
    error: &str,
    patch: &str,
    object: &str,
    release: Option<KubeVersion>,
) -> Option<Explained> {
    if error.trim().is_empty() {
        return None;
    }
    let given = |text: &str| (!text.trim().is_empty()).then(|| text.to_owned());
    let (mut patch, mut object) = (given(patch), given(object));
    let mut unused = Vec::new();
    // At most three tries: as given, without the patch, without the object.
    loop {
        let request = Request {
            text: error,
            patch: patch.as_deref(),
            object: object.as_deref(),
            kube_version: release,
            content_type: None,
        };
        match explain(&request) {
            Err(ExplainError::Patch(_)) if patch.is_some() => {
                patch = None;
                unused.push(Unused::Patch);
            }
            Err(ExplainError::Object(_)) if object.is_some() => {
                object = None;
                unused.push(Unused::Object);
            }
            answer => {
                return Some(Explained {
                    answer,
                    unused,
                    with_patch: patch.is_some(),
                    with_object: object.is_some(),
                })
            }
        }
    }
}

/// Whether a retry helps, in a few words.
pub fn helps_text(helps: Helps) -> &'static str {
    match helps {
        Helps::Later => "Retrying helps, later",
        Helps::AfterReread => "Retrying helps only after a re-read and a rebuilt request",
        Helps::No => "Retrying never helps: the request itself must change",
    }
}

/// What client-go's `RetryOnConflict` does with it.
pub fn retry_on_conflict_text(retries: bool) -> &'static str {
    if retries {
        "RetryOnConflict retries it."
    } else {
        "RetryOnConflict does not retry it."
    }
}
