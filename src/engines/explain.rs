//! Check's "paste the error you got": the error text explained by
//! [`crate::explain`], with the patch and the object the view already
//! holds (the replay then names the failing op), answered with every text
//! of the panel worked out ([`ExplainView`]): the Check module carries no
//! explain engine.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::{Caches, Never, Question};
use crate::explain::{explain_unlinked, ExplainError, Explanation, Helps, Release, Request};
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

/// What the explanation panel shows: explain's answer (`None`: the error
/// text is blank), or why the engines could not give one.
pub type PanelAnswer = Result<Rc<Option<ExplainView>>, super::Failure<Never>>;

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
/// object explain cannot read is left out, and said so beside the
/// explanation, rather than hiding the explanation of the text.
pub fn explain_error(
    error: &str,
    patch: &str,
    object: &str,
    release: Option<KubeVersion>,
) -> Option<Explained> {
    if error.trim().is_empty() {
        return None;
    }
    fn given(text: &str) -> Option<&str> {
        (!text.trim().is_empty()).then_some(text)
    }
    let (patch, object) = (given(patch), given(object));
    let request = Request {
        text: error,
        patch,
        object,
        kube_version: release.map(Release::from),
        content_type: None,
    };
    let answer = explain_unlinked(&request);
    let unread = |input: &str| {
        answer
            .as_ref()
            .is_ok_and(|e| e.unread.iter().any(|u| u.input == input))
    };
    let mut unused = Vec::new();
    if patch.is_some() && unread("patch") {
        unused.push(Unused::Patch);
    }
    if object.is_some() && unread("object") {
        unused.push(Unused::Object);
    }
    Some(Explained {
        with_patch: patch.is_some() && !unused.contains(&Unused::Patch),
        with_object: object.is_some() && !unused.contains(&Unused::Object),
        answer,
        unused,
    })
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

/// What explain is asked: the error text with the view's patch, object
/// and release.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explain {
    /// The pasted error text.
    pub error: Rc<str>,
    /// The patch editor's text.
    pub patch: Rc<str>,
    /// The object editor's text.
    pub object: Rc<str>,
    /// The release to replay on (`None`: the newest).
    pub kubernetes: Option<KubeVersion>,
}

impl Question for Explain {
    const NAME: &'static str = "explain";
    type Rev = u64;
    /// The panel's texts (`None`: the error text is blank).
    type Answer = Option<ExplainView>;
    type Refusal = Never;

    fn bytes(&self) -> usize {
        self.error.len() + self.patch.len() + self.object.len()
    }

    fn answer(self, _: &mut Caches) -> Result<Option<ExplainView>, Never> {
        Ok(
            explain_error(&self.error, &self.patch, &self.object, self.kubernetes)
                .map(|e| ExplainView::of(&e)),
        )
    }
}

/// The decided class's retry verdict, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryView {
    /// Whether retrying helps ([`helps_text`]).
    pub helps: String,
    /// What `RetryOnConflict` does ([`retry_on_conflict_text`]).
    pub retry_on_conflict: String,
    /// What to do.
    pub advice: String,
}

/// A class the error may be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CandidateView {
    /// Its heading.
    pub label: String,
    /// Its id (`test-failed`).
    pub id: String,
    /// What it means.
    pub definition: String,
    /// Whether retrying helps ([`helps_text`]).
    pub helps: String,
    /// What `RetryOnConflict` does ([`retry_on_conflict_text`]).
    pub retry_on_conflict: String,
}

/// The explanation panel's texts, worked out from [`Explained`] where the
/// engines are: what crosses to the Check module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplainView {
    /// Why there is no explanation (the error text cannot be read).
    pub unreadable: Option<String>,
    /// True when the text is an answer patchlab knows.
    pub recognised: bool,
    /// The decided class: its heading and id.
    pub class: Option<(String, String)>,
    /// How the text was read: "Read as kubectl, HTTP 422; decided by ...".
    pub read_as: String,
    /// The cause, in a few sentences.
    pub summary: String,
    /// When undecided: what would decide.
    pub would_decide: Option<String>,
    /// The decided class's retry verdict.
    pub retry: Option<RetryView>,
    /// Every class consistent with what is known, likeliest first.
    pub candidates: Vec<CandidateView>,
    /// What to do, most specific first.
    pub fix: Vec<String>,
    /// Where the message is written: each place's address and name, once.
    pub sources: Vec<(String, String)>,
    /// The view's texts explain could not read, in a sentence.
    pub unused: Option<String>,
    /// What the explanation was made from, in a sentence (none when the
    /// text could not be read).
    pub made_from: Option<String>,
    /// The other errors of the pasted text, a sentence each: another
    /// class on another line, or a line that looks like an error and was
    /// not read.
    pub others: Vec<String>,
}

impl ExplainView {
    /// The panel's texts of `explained`.
    pub fn of(explained: &Explained) -> ExplainView {
        let (unused, made_from) = (explained.unused_text(), explained.made_from());
        let e = match &explained.answer {
            Err(err) => {
                return ExplainView {
                    unreadable: Some(format!("The error text could not be read: {err}.")),
                    unused,
                    made_from,
                    ..ExplainView::default()
                }
            }
            Ok(e) => e,
        };
        ExplainView {
            unreadable: None,
            recognised: e.recognised,
            class: e.class.map(|c| (c.label().to_owned(), c.id().to_owned())),
            read_as: read_as(e),
            summary: e.summary.clone(),
            would_decide: e.would_decide.clone(),
            retry: e.retry.as_ref().map(|r| RetryView {
                helps: helps_text(r.helps).to_owned(),
                retry_on_conflict: retry_on_conflict_text(r.retry_on_conflict).to_owned(),
                advice: r.advice.to_owned(),
            }),
            candidates: e.candidates.iter().map(CandidateView::of).collect(),
            fix: e.fix.clone(),
            sources: sources(e),
            unused,
            made_from,
            others: e.others.iter().map(other_text).collect(),
        }
    }
}

/// One other error of the pasted text, in a sentence.
fn other_text(o: &crate::explain::OtherLine) -> String {
    match o.classes.as_slice() {
        [] => format!(
            "Line {} looks like an error no known wording matches, so it is not explained: {}",
            o.line, o.text
        ),
        classes => {
            let names: Vec<String> = classes
                .iter()
                .map(|c| format!("{} ({})", c.label(), c.id()))
                .collect();
            format!(
                "Line {} is another error, {}: {}",
                o.line,
                names.join(" or "),
                o.text
            )
        }
    }
}

impl Explained {
    /// The view's texts explain could not read, in a sentence.
    fn unused_text(&self) -> Option<String> {
        (!self.unused.is_empty()).then(|| {
            let what: Vec<&str> = self.unused.iter().map(|u| u.what()).collect();
            let mut s = format!(
                "{} could not be read (its editor says where), so explain went without it",
                capitalised(&what.join(" and "))
            );
            if let Ok(e) = &self.answer {
                for u in e.unread.iter().filter(|u| u.input != "content-type") {
                    s.push_str(&format!(" ({}: {})", u.input, u.message));
                }
            }
            s.push('.');
            s
        })
    }

    /// What the explanation was made from, in a sentence.
    fn made_from(&self) -> Option<String> {
        let used: Vec<&str> = [
            self.with_patch.then_some("the patch"),
            self.with_object.then_some("the current object"),
        ]
        .into_iter()
        .flatten()
        .collect();
        self.answer.is_ok().then(|| {
            if used.is_empty() {
                "From the error text alone: paste the patch (and the object) above to replay them."
                    .to_owned()
            } else {
                format!(
                    "From the error text with {} of this view.",
                    used.join(" and ")
                )
            }
        })
    }
}

impl CandidateView {
    fn of(c: &crate::explain::Candidate) -> CandidateView {
        CandidateView {
            label: c.label.to_owned(),
            id: c.class.id().to_owned(),
            definition: c.definition.to_owned(),
            helps: helps_text(c.retry.helps).to_owned(),
            retry_on_conflict: retry_on_conflict_text(c.retry.retry_on_conflict).to_owned(),
        }
    }
}

/// "Read as kubectl, HTTP 422; decided by ..." (from line N of a log
/// with other errors).
fn read_as(e: &Explanation) -> String {
    let answer = e.seen.answer().map(|a| format!(", {a}"));
    let decided = e.decided_by.as_ref().map(|by| format!("; decided by {by}"));
    let line = e.line.map(|l| format!("Line {l} of the pasted text, read"));
    format!(
        "{} as {}{}{}.",
        line.as_deref().unwrap_or("Read"),
        e.shape.as_str(),
        answer.unwrap_or_default(),
        decided.unwrap_or_default()
    )
}

/// Where the message is written: each place's address and name, once.
fn sources(e: &Explanation) -> Vec<(String, String)> {
    let mut sources: Vec<(String, String)> = Vec::new();
    for src in e.candidates.iter().flat_map(|c| &c.sources) {
        let url = src.url();
        if !sources.iter().any(|(u, _)| *u == url) {
            sources.push((url, format!("{} {} ({})", src.repo, src.path, src.symbol)));
        }
    }
    sources
}

/// The text with its first letter capitalised (the texts are this
/// playground's own, which begin with an ASCII letter).
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect(),
        None => String::new(),
    }
}
