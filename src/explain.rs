//! From the error a user got to its cause, whether a retry helps, and the
//! fix.
//!
//! Users arrive with an error text, not with an old and a new object:
//! kubectl's one-liner, a controller's log line, a `Status` JSON, an audit
//! event, a client library's exception (see [`read`] for every shape).
//! [`explain`] reads it, classifies it into an [`ErrorClass`] (or, where
//! the text cannot decide, lists the candidates and what would decide),
//! and, given the patch and the object, replays them on the engine of the
//! Kubernetes release to name the failing op. Every class comes with
//! whether `RetryOnConflict` retries it and whether retrying helps, the
//! fix (lint's findings and rewrite when the patch is given), the
//! Kubernetes code that writes the message, and a link that opens the
//! case in the playground's Check view.
//!
//! ```
//! use patchlab::explain::{explain, Request};
//! use patchlab::vocabulary::ErrorClass;
//!
//! // The text alone: a bare 422 could be any failed op.
//! let text = "The request is invalid: the server rejected our request due to an error in our request";
//! let e = explain(&Request::text(text)).unwrap();
//! assert_eq!(e.class, None);
//! assert!(e.candidates.iter().any(|c| c.class == ErrorClass::TestFailed));
//!
//! // With the patch and the object, the replay names the op.
//! let patch = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#;
//! let object = r#"{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}"#;
//! let e = explain(&Request { patch: Some(patch), object: Some(object), ..Request::text(text) }).unwrap();
//! assert_eq!(e.class, Some(ErrorClass::TestFailed));
//! let replay = e.replay.unwrap();
//! assert_eq!((replay.index, replay.path.as_deref()), (Some(0), Some("/metadata/labels")));
//! assert!(!e.retry.unwrap().retry_on_conflict);
//! ```

mod advice;
mod classify;
mod decode;
mod details;
mod offer;
mod others;
pub use others::OtherLine;
pub mod read;
mod release;
pub mod render;
mod replay;
mod report;
pub mod signatures;

use std::fmt;

use serde::Serialize;
use serde_json::Value;

pub use advice::{fix, retry, sources, Helps, Retry, SourceRef};
pub use classify::{CUSTOM_RESOURCE_PATCH_TYPES, STRATEGIC};
pub use decode::DecodeAt;
pub use details::{Details, FieldProblem, Manager};
pub use offer::Offer;
pub use read::{Shape, Target, MAX_TEXT_BYTES};
pub use release::{NotARelease, Release};
pub use replay::{Rerun, KNOWN_PANICS};
pub use report::text;

use crate::kube::{Cluster, KubeVersion};
use crate::lint::{self, BodyKind, Finding, LintError, Options, Severity};
use crate::patch::{self, OpKind};
use crate::vocabulary::ErrorClass;

/// What a user has: the error text, and optionally the patch (a payload,
/// or a whole `kubectl patch` line), the object, the release and the
/// content type sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request<'a> {
    /// The error text as pasted.
    pub text: &'a str,
    /// The patch sent: JSON or YAML, or a `kubectl patch` command line.
    pub patch: Option<&'a str>,
    /// The object as the server held it (JSON or YAML).
    pub object: Option<&'a str>,
    /// The cluster's Kubernetes release, any `1.x` (default: the newest
    /// modelled); one patchlab does not model is explained with the
    /// nearest modelled engine, and the explanation says what differs.
    pub kube_version: Option<Release>,
    /// The content type sent: `json`, `merge`, `strategic`, `apply`, or a
    /// media type.
    pub content_type: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A request with the error text alone.
    pub fn text(text: &'a str) -> Request<'a> {
        Request {
            text,
            ..Request::default()
        }
    }
}

/// Why there is nothing to explain (the CLI exits 2): the error text
/// itself is missing or over the budget. An optional input that cannot
/// be read (the patch, the object, the content type) is never a reason:
/// it is reported beside the explanation ([`Explanation::unread`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainError {
    /// The error text is over [`MAX_TEXT_BYTES`].
    TextTooLarge {
        /// Its size in bytes.
        size: usize,
    },
    /// The error text is empty.
    Empty,
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplainError::TextTooLarge { size } => write!(
                f,
                "the error text is {size} bytes, more than the limit of {MAX_TEXT_BYTES}"
            ),
            ExplainError::Empty => f.write_str("the error text is empty"),
        }
    }
}

impl std::error::Error for ExplainError {}

/// An optional input explain could not read, and went without: what it
/// is, what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unread {
    /// `patch`, `object` or `content-type`.
    pub input: &'static str,
    /// What is wrong, and where (lint's reader's words).
    pub message: String,
    /// The line (1-based), where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column (1-based), where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Unread {
    fn of(input: &'static str, err: &LintError) -> Unread {
        let (line, column) = err.location();
        let message = match err {
            LintError::Command { .. } => format!("patch: {err}"),
            _ => err.to_string(),
        };
        Unread {
            input,
            message,
            line,
            column,
        }
    }
}

/// One class the error may be, with what to do about it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The class.
    pub class: ErrorClass,
    /// Its heading.
    pub label: &'static str,
    /// What it means.
    pub definition: &'static str,
    /// Whether a retry helps.
    pub retry: Retry,
    /// The fix, in general.
    pub fix: &'static str,
    /// Where Kubernetes writes the message.
    pub sources: Vec<SourceRef>,
}

impl Candidate {
    fn of(class: ErrorClass) -> Candidate {
        Candidate {
            class,
            label: class.label(),
            definition: class.definition(),
            retry: retry(class),
            fix: fix(class),
            sources: sources(class),
        }
    }
}

/// The answer as read from the text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Seen {
    /// The HTTP status code.
    pub code: Option<u16>,
    /// The Status reason.
    pub reason: Option<String>,
    /// The Status message.
    pub message: Option<String>,
    /// The request verb.
    pub verb: Option<String>,
    /// The content type sent, as far as known.
    #[serde(rename = "contentType")]
    pub content_type: Option<String>,
}

impl Seen {
    /// The answer's status as read, for a line: `HTTP 422 Invalid`, `HTTP
    /// 409`, `Conflict`; `None` when the text names neither.
    pub fn answer(&self) -> Option<String> {
        let parts: Vec<String> = self
            .code
            .map(|c| format!("HTTP {c}"))
            .into_iter()
            .chain(self.reason.clone().filter(|r| !r.is_empty()))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// What the Check view needs to open the case: the patch text and the
/// object, in the shape of its links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckCase {
    /// The patch text (a payload or a kubectl line).
    pub patch: String,
    /// The object's text; empty when not given.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub object: String,
}

impl CheckCase {
    /// The playground fragment that opens this case in Check
    /// (`#/check?s=1.…`, the view's own link format); `None` when the
    /// texts are over what the view opens (4 MiB each, a 512 KiB link).
    pub fn fragment(&self) -> Option<String> {
        let max = crate::limits::OBJECT_BYTES;
        if self.patch.len() > max || self.object.len() > max {
            return None;
        }
        let fragment = format!("#/check?s={}", crate::share::pack(self));
        (fragment.len() <= crate::share::MAX_FRAGMENT).then_some(fragment)
    }
}

/// Everything patchlab can say about an error text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// True when the text was recognised (at least one candidate, or a
    /// text that is no failure of the write itself: `details.outside`).
    pub recognised: bool,
    /// The class, when decided.
    pub class: Option<ErrorClass>,
    /// Every class consistent with what is known, likeliest first, each
    /// with its retry verdict, fix and sources.
    pub candidates: Vec<Candidate>,
    /// How the class was decided (the text, the verb, the replay ...).
    pub decided_by: Option<String>,
    /// When undecided: what would decide.
    pub would_decide: Option<String>,
    /// What printed the text.
    pub shape: Shape,
    /// The answer as read.
    pub seen: Seen,
    /// The object the text names.
    pub target: Target,
    /// The Kubernetes (or client) text that matched.
    pub matched: Option<&'static str>,
    /// Details the text holds (paths, managers, fields, ...).
    pub details: Details,
    /// The cause, in a few sentences.
    pub summary: String,
    /// The decided class's retry verdict.
    pub retry: Option<Retry>,
    /// What to do, most specific first.
    pub fix: Vec<String>,
    /// Lint's findings on the patch (at warning and above).
    pub findings: Vec<Finding>,
    /// The first rewrite offered ("send instead"): lint's fixes and
    /// explain's own, each linted and replayed on the object first.
    pub rewrite: Option<String>,
    /// Every rewrite considered, with its replay and, for one not
    /// offered, why.
    pub offers: Vec<Offer>,
    /// Where the patch stops being JSON, for a decode error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_at: Option<DecodeAt>,
    /// The replay of the patch on the object, on the release's engine.
    pub replay: Option<Rerun>,
    /// The releases whose engine panics on this patch and object.
    pub panics_on: Vec<KubeVersion>,
    /// The release whose engine explains it (the release asked, or the
    /// nearest modelled one).
    pub release: KubeVersion,
    /// The release asked, when it is not one patchlab models.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked_release: Option<Release>,
    /// For a release patchlab does not model: what its own code answers
    /// otherwise, with where that is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release_note: Option<String>,
    /// The optional inputs that could not be read (explained without
    /// them).
    pub unread: Vec<Unread>,
    /// The line (1-based) of the explained message, when the text holds
    /// other errors too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The other errors of the pasted text: each line of another kind
    /// named with its class, or listed as not read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<others::OtherLine>,
    /// The case for the Check view (when the patch is given).
    pub check: Option<CheckCase>,
    /// The fragment that opens it (`#/check?s=...`).
    pub check_link: Option<String>,
}

/// A media type from the CLI's or an API's short name; `Err` with what
/// is wrong.
fn media_type(name: &str) -> Result<String, String> {
    let t = name.trim().to_ascii_lowercase();
    let full = match t.as_str() {
        "json" | "json-patch" => "application/json-patch+json",
        "merge" | "merge-patch" => "application/merge-patch+json",
        "strategic" | "smp" => STRATEGIC,
        "apply" | "ssa" => "application/apply-patch+yaml",
        other if other.starts_with("application/") => other,
        _ => {
            return Err(format!(
                "content type {name:?}: use json, merge, strategic, apply or a patch media type"
            ))
        }
    };
    Ok(full.to_owned())
}

/// The patch as read, when given.
struct PatchRead {
    /// The text as given (for the Check link).
    text: String,
    /// The body, when lint reads it (not a strategic merge patch).
    input: Option<lint::Input>,
    /// The JSON body and how it was sent, when known.
    body: Option<(String, BodyKind)>,
    /// The content type it is sent with, when known (given, or a
    /// `kubectl patch` line's `--type`): a bare object may have gone as a
    /// merge or a strategic merge patch.
    content_type: Option<String>,
}

fn read_patch(text: &str, content_type: Option<&str>) -> Result<PatchRead, LintError> {
    match lint::read(text, &lint::budget()) {
        Ok(input) => {
            let from_command = matches!(
                input.origin,
                lint::Origin::Kubectl { .. } | lint::Origin::Curl { .. }
            );
            let content_type = content_type
                .map(str::to_owned)
                .or_else(|| from_command.then(|| input.kind.content_type().to_owned()));
            let kind = content_type
                .as_deref()
                .and_then(body_kind)
                .unwrap_or(input.kind);
            let body = Some((input.payload.clone(), kind));
            let strategic = content_type
                .as_deref()
                .is_some_and(|t| t.starts_with(STRATEGIC));
            let input = (!strategic).then_some(input);
            Ok(PatchRead {
                text: text.to_owned(),
                input,
                body,
                content_type,
            })
        }
        // kubectl sends a strategic merge patch without --type (or with
        // --type=strategic): lint does not read those, explain knows what
        // the server does with them.
        Err(LintError::Command { message, .. }) if message.contains("strategic merge patch") => {
            Ok(PatchRead {
                text: text.to_owned(),
                input: None,
                body: None,
                content_type: Some(STRATEGIC.to_owned()),
            })
        }
        Err(err) => Err(err),
    }
}

/// The body kind of a patch media type.
fn body_kind(content_type: &str) -> Option<BodyKind> {
    [
        BodyKind::JsonPatch,
        BodyKind::MergePatch,
        BodyKind::StrategicMergePatch,
        BodyKind::Apply,
    ]
    .into_iter()
    .find(|k| content_type.starts_with(k.content_type()))
}

/// Explains an error text (see the module docs).
///
/// # Errors
///
/// [`ExplainError`] when the text is empty or too large. A patch, object
/// or content type that cannot be read is no error: it is reported in
/// [`Explanation::unread`] and the text is explained without it; a text
/// that is read but not recognised is no error either:
/// [`Explanation::recognised`] is false.
pub fn explain(request: &Request<'_>) -> Result<Explanation, ExplainError> {
    let mut e = explain_unlinked(request)?;
    e.check_link = e.check.as_ref().and_then(CheckCase::fragment);
    Ok(e)
}

/// What explain was given, as read: the optional inputs that could not be
/// read are left out, and listed.
struct Given {
    asked: Release,
    content_type: Option<String>,
    patch: Option<PatchRead>,
    object: Option<Value>,
    unread: Vec<Unread>,
}

impl Given {
    fn read(request: &Request<'_>, reading: &read::Reading) -> Given {
        let mut unread = Vec::new();
        let content_type = request.content_type.and_then(|t| match media_type(t) {
            Ok(t) => Some(t),
            Err(message) => {
                unread.push(Unread {
                    input: "content-type",
                    message,
                    line: None,
                    column: None,
                });
                None
            }
        });
        let patch = the_patch(request, reading, content_type.as_deref(), &mut unread);
        let object = request.object.and_then(|t| {
            lint::read_object(t, &lint::budget())
                .map_err(|err| unread.push(Unread::of("object", &err)))
                .ok()
        });
        Given {
            asked: request
                .kube_version
                .unwrap_or_else(|| KubeVersion::default().into()),
            content_type,
            patch,
            object,
            unread,
        }
    }
}

/// [`explain`] without [`Explanation::check_link`] (always `None`): for
/// the Check view itself, which holds the case already, and whose
/// engines then carry no link compressor.
///
/// # Errors
///
/// As [`explain`].
pub fn explain_unlinked(request: &Request<'_>) -> Result<Explanation, ExplainError> {
    if request.text.len() > MAX_TEXT_BYTES {
        return Err(ExplainError::TextTooLarge {
            size: request.text.len(),
        });
    }
    if request.text.trim().is_empty() {
        return Err(ExplainError::Empty);
    }
    let mut reading = read::read(request.text);
    let given = Given::read(request, &reading);
    if let Some(t) = given
        .content_type
        .clone()
        .or_else(|| given.patch.as_ref().and_then(|p| p.content_type.clone()))
    {
        reading.content_type = Some(t);
    }
    let verdict = classify::classify(&reading);
    let others = others::others(request.text, verdict.matched, &verdict.candidates);
    // A log of several errors: what was seen (status, reason, target) is
    // read from the line the explained message is on, not from another
    // error's line.
    let (line, reading, verdict) = match others::line_of(request.text, verdict.matched) {
        Some((line, text)) if !others.is_empty() => {
            let mut alone = read::read(text);
            alone.content_type = alone.content_type.or(reading.content_type.clone());
            let again = classify::classify(&alone);
            match again.matched == verdict.matched {
                true => (Some(line), alone, again),
                false => (None, reading, verdict),
            }
        }
        _ => (None, reading, verdict),
    };
    let mut e = Explanation::of_text(&reading, &verdict, given.asked.modelled());
    e.line = line;
    e.others = others;
    e.asked_release = (!given.asked.is_modelled()).then_some(given.asked);
    e.release_note = given.asked.note();
    let (candidates, decided_by) = e.decide(&reading, &verdict, &given, request.object);
    e.class = (candidates.len() == 1).then(|| candidates[0]);
    e.retry = e.class.map(retry);
    e.decided_by = if e.class.is_some() { decided_by } else { None };
    e.would_decide = if e.class.is_none() && !candidates.is_empty() {
        Some(would_decide(
            &candidates,
            given.patch.is_some(),
            given.object.is_some(),
        ))
    } else {
        None
    };
    e.candidates = candidates.iter().copied().map(Candidate::of).collect();
    e.unread = given.unread;
    e.decode_at = decode::locate(&e, request.patch, request.text);
    e.settle_advice(given.patch.as_ref(), given.object.as_ref());
    e.summary = report::summary(&e);
    e.fix = report::fixes(&e);
    Ok(e)
}

/// The patch to explain with: given, or the one the text carries (an
/// audit event's requestObject, a -v=8 trace's request body). A given
/// patch that cannot be read is listed in `unread`; a body carried by the
/// text that patchlab cannot read is no concern of the user's.
fn the_patch(
    request: &Request<'_>,
    reading: &read::Reading,
    content_type: Option<&str>,
    unread: &mut Vec<Unread>,
) -> Option<PatchRead> {
    let content_type = content_type.or(reading.content_type.as_deref());
    if let Some(text) = request.patch {
        match read_patch(text, content_type) {
            Ok(p) => return Some(p),
            Err(err) => unread.push(Unread::of("patch", &err)),
        }
    }
    reading
        .request_body
        .as_deref()
        .filter(|b| b.trim_start().starts_with(['[', '{']))
        .and_then(|b| read_patch(b, content_type).ok())
}

impl Explanation {
    /// What the text alone says: what was seen and the classifier's
    /// verdict, nothing decided yet.
    fn of_text(reading: &read::Reading, verdict: &classify::Verdict, release: KubeVersion) -> Self {
        Explanation {
            recognised: !verdict.candidates.is_empty() || verdict.details.outside.is_some(),
            class: None,
            candidates: Vec::new(),
            decided_by: None,
            would_decide: None,
            shape: reading.shape.unwrap_or(Shape::Plain),
            seen: Seen {
                code: reading.code,
                reason: reading.reason.clone(),
                message: reading.message.clone(),
                verb: reading.verb.clone(),
                content_type: reading.content_type.clone(),
            },
            target: reading.target.clone(),
            matched: verdict.matched,
            details: verdict.details.clone(),
            summary: String::new(),
            retry: None,
            fix: Vec::new(),
            findings: Vec::new(),
            rewrite: None,
            offers: Vec::new(),
            decode_at: None,
            replay: None,
            panics_on: Vec::new(),
            release,
            asked_release: None,
            release_note: None,
            unread: Vec::new(),
            line: None,
            others: Vec::new(),
            check: None,
            check_link: None,
        }
    }

    /// The candidates and how they were decided: the text's, narrowed by
    /// the patch, then by the replay on the object.
    fn decide(
        &mut self,
        reading: &read::Reading,
        verdict: &classify::Verdict,
        given: &Given,
        object_text: Option<&str>,
    ) -> (Vec<ErrorClass>, Option<String>) {
        let mut candidates = verdict.candidates.clone();
        let mut decided_by = (candidates.len() == 1).then(|| {
            let by_verb = reading.verb.is_some()
                && matches!(
                    candidates[0],
                    ErrorClass::RvPrecondition | ErrorClass::UpdateConflict
                );
            if by_verb {
                "the message and the request's verb".to_owned()
            } else {
                "the message".to_owned()
            }
        });
        let Some(p) = &given.patch else {
            return (candidates, decided_by);
        };
        narrow_by_patch(p, &mut candidates, &mut decided_by);
        // Lint only what the server would run (it refuses more than
        // 10,000 ops before anything runs): lint's checks are not all
        // linear in the op count.
        let lintable = p.input.as_ref().filter(|input| {
            input.kind != BodyKind::JsonPatch
                || patch::decode(&input.payload).is_ok_and(|d| d.count <= crate::limits::MAX_OPS)
        });
        if let Some(input) = lintable {
            self.lint_patch(input, given.object.as_ref());
        }
        self.check = Some(CheckCase {
            patch: p.text.clone(),
            object: object_text.unwrap_or_default().to_owned(),
        });
        if let (Some(input), Some(object)) = (&p.input, &given.object) {
            if let Some((class, how)) =
                self.replay_on(input, object, &verdict.candidates, &candidates)
            {
                candidates = vec![class];
                decided_by = Some(how);
            }
        }
        (candidates, decided_by)
    }

    /// Lints the patch (with the object when given): its warnings and the
    /// first fix's rewrite.
    fn lint_patch(&mut self, input: &lint::Input, object: Option<&Value>) {
        let options = Options {
            object: object.cloned(),
            cluster: Cluster::new(self.release),
            ..Options::default()
        };
        if let Ok(report) = lint::lint_input(input, &options) {
            self.findings = report
                .findings
                .into_iter()
                .filter(|f| f.severity >= Severity::Warning)
                .collect();
        }
    }

    /// Proves the rewrites (lint's fixes, explain's own) on the object and
    /// release before any is offered, and says "retry: no" when the same
    /// patch fails on the object given whatever the timing.
    fn settle_advice(&mut self, patch: Option<&PatchRead>, object: Option<&Value>) {
        let Some(p) = patch else { return };
        let mut rewrites: Vec<offer::Rewrite> = self
            .findings
            .iter()
            .filter_map(|f| {
                f.fix.as_ref().map(|fix| offer::Rewrite {
                    from: format!("lint {}", f.rule.as_str()),
                    payload: fix.payload(),
                    kind: BodyKind::JsonPatch,
                })
            })
            .collect();
        if let Some((body, kind)) = &p.body {
            rewrites.extend(offer::own(self.class, body, *kind));
        }
        self.offers = offer::prove(rewrites, object, self.release);
        self.rewrite = self
            .offers
            .iter()
            .find(|o| o.offered())
            .map(|o| o.payload.clone());
        let fails_again = self
            .replay
            .as_ref()
            .is_some_and(|r| !r.applies && r.class.is_some() && r.class == self.class);
        if let (true, Some(retry)) = (fails_again, self.retry.as_mut()) {
            if retry.helps != Helps::No {
                retry.helps = Helps::No;
                retry.advice = format!(
                    "Replayed on the object given with the engine of Kubernetes {}, the same patch fails again: whatever the timing, sending it unchanged cannot succeed while the object holds this. Rebuild it from the object (a \"send instead\" below has been replayed on it). {}",
                    self.release, retry.advice
                );
            }
        }
    }

    /// Replays the patch on the object with the release's engine (and,
    /// for a JSON patch that may panic, every release's): the class it
    /// decides and how, when it decides one. `seen` are the text's own
    /// candidates, `candidates` those the patch narrowed them to.
    fn replay_on(
        &mut self,
        input: &lint::Input,
        object: &Value,
        seen: &[ErrorClass],
        candidates: &[ErrorClass],
    ) -> Option<(ErrorClass, String)> {
        let release = self.release;
        let replay = replay::replay(input.kind, &input.payload, object, release);
        let op_failure = seen
            .iter()
            .any(|c| ErrorClass::BARE_422.contains(c) || *c == ErrorClass::EnginePanic);
        if input.kind == BodyKind::JsonPatch
            && (candidates.contains(&ErrorClass::EnginePanic)
                || replay.class == Some(ErrorClass::EnginePanic))
        {
            self.panics_on = replay::panics_on(&input.payload, object);
        }
        let mut decided = None;
        if let Some(class) = replay.class {
            // The text's own candidates (before the patch narrowed
            // them by its ops alone) bound what the replay may decide.
            if op_failure && seen.contains(&class) {
                decided = Some((
                    class,
                    format!(
                        "replaying the patch on the object with the engine of Kubernetes {release} (evanphx/json-patch {})",
                        release.engine().tag()
                    ),
                ));
            } else if candidates.contains(&ErrorClass::EnginePanic) && !self.panics_on.is_empty() {
                decided = Some((
                    ErrorClass::EnginePanic,
                    format!(
                        "replaying the patch on the object: the engines of {} panic on it",
                        releases_text(&self.panics_on)
                    ),
                ));
            }
        }
        self.replay = Some(replay);
        decided
    }
}

/// Narrows the candidates with the patch alone.
fn narrow_by_patch(
    p: &PatchRead,
    candidates: &mut Vec<ErrorClass>,
    decided_by: &mut Option<String>,
) {
    let before = candidates.len();
    if list_sent_as_object(p, candidates) {
        *candidates = vec![ErrorClass::ContentType];
        *decided_by = Some("the patch: a list sent as a merge or strategic merge patch".to_owned());
        return;
    }
    let Some(input) = &p.input else {
        // A strategic merge patch runs no JSON patch ops: a bare 422 is
        // one of its own errors.
        if candidates.contains(&ErrorClass::SmpMergeKey) {
            candidates.retain(|c| !ErrorClass::BARE_422.contains(c));
        }
        if candidates.len() == 1 && before > 1 {
            *decided_by =
                Some("the message and the patch's content type (strategic merge patch)".to_owned());
        }
        return;
    };
    let stale = [ErrorClass::UpdateConflict, ErrorClass::RvPrecondition];
    if candidates.iter().any(|c| stale.contains(c)) {
        let pins = pins_resource_version(input);
        candidates.retain(|c| !stale.contains(c) || (*c == ErrorClass::RvPrecondition) == pins);
        if candidates.len() == 1 {
            *decided_by = Some(if pins {
                "the message and the patch (it sets metadata.resourceVersion)".to_owned()
            } else {
                "the message and the patch (it does not set metadata.resourceVersion, so the 409 came from an Update)".to_owned()
            });
        }
        return;
    }
    if input.kind != BodyKind::JsonPatch {
        candidates.retain(|c| !ErrorClass::BARE_422.contains(c));
    } else if let Ok(decoded) = patch::decode(&input.payload) {
        narrow_by_ops(&decoded, candidates);
    }
    if candidates.len() == 1 && before > 1 {
        *decided_by = Some("the message and the ops of the patch".to_owned());
    }
}

/// True when a list went as a merge or strategic merge patch (the content
/// type known) and the answer is one a body the server cannot decode as
/// an object gets, whatever its code.
fn list_sent_as_object(p: &PatchRead, candidates: &[ErrorClass]) -> bool {
    let decoding = candidates.is_empty()
        || candidates.iter().any(|c| {
            matches!(
                c,
                ErrorClass::ContentType
                    | ErrorClass::DecodeError
                    | ErrorClass::SmpMergeKey
                    | ErrorClass::SmpCustomResource
                    | ErrorClass::EnginePanic
            )
        });
    decoding
        && p.body.as_ref().is_some_and(|(body, kind)| {
            matches!(kind, BodyKind::MergePatch | BodyKind::StrategicMergePatch)
                && p.content_type.is_some()
                && body.trim_start().starts_with('[')
        })
}

/// Narrows a bare 422's op classes by the ops of a JSON patch.
fn narrow_by_ops(decoded: &patch::Decoded, candidates: &mut Vec<ErrorClass>) {
    candidates.retain(|c| *c != ErrorClass::SmpMergeKey);
    let ops = &decoded.ops;
    let has = |kind: OpKind| ops.iter().any(|o| o.op == kind);
    let indexed = ops.iter().any(|o| {
        std::iter::once(o.path.as_str())
            .chain(o.from.as_deref())
            .flat_map(|p| p.split('/').skip(1))
            .any(|t| {
                t == "-" || (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
            })
    });
    let malformed = decoded.malformed.is_some()
        || ops.iter().any(|o| {
            o.path.is_empty()
                || matches!(o.op, OpKind::Copy | OpKind::Move)
                || (o.value.is_none()
                    && matches!(o.op, OpKind::Add | OpKind::Replace | OpKind::Test))
        });
    candidates.retain(|c| match c {
        ErrorClass::TestFailed => has(OpKind::Test),
        ErrorClass::BadIndex => indexed,
        ErrorClass::MalformedOp => malformed,
        _ => true,
    });
}

/// True when the patch sets or tests `metadata.resourceVersion`.
fn pins_resource_version(input: &lint::Input) -> bool {
    match input.kind {
        BodyKind::JsonPatch => patch::decode(&input.payload).is_ok_and(|d| {
            d.ops.iter().any(|o| {
                o.path == "/metadata/resourceVersion"
                    && matches!(o.op, OpKind::Add | OpKind::Replace | OpKind::Test)
            })
        }),
        _ => serde_json::from_str::<Value>(&input.payload)
            .ok()
            .and_then(|v| v.pointer("/metadata/resourceVersion").cloned())
            .is_some_and(|v| !v.is_null()),
    }
}

/// `1.25 to 1.34`-style list of releases.
pub(crate) fn releases_text(releases: &[KubeVersion]) -> String {
    let mut minors: Vec<u16> = releases
        .iter()
        .filter(|v| v.patch().is_none())
        .map(|v| v.minor())
        .collect();
    crate::sort::sort(&mut minors);
    minors.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < minors.len() {
        let mut j = i;
        while j + 1 < minors.len() && minors[j + 1] == minors[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("1.{}", minors[i])
        } else {
            format!("1.{} to 1.{}", minors[i], minors[j])
        });
        i = j + 1;
    }
    let early_128 = releases
        .iter()
        .any(|v| v.minor() == 28 && v.patch().is_some());
    if early_128 && !minors.contains(&28) {
        parts.push("1.28.0 and 1.28.1".to_owned());
    }
    parts.join(", ")
}

/// What would decide between the candidates.
fn would_decide(candidates: &[ErrorClass], has_patch: bool, has_object: bool) -> String {
    let mut parts = Vec::new();
    if candidates.iter().any(|c| ErrorClass::BARE_422.contains(c)) {
        parts.push(match (has_patch, has_object) {
            (false, _) => "the patch that was sent and the object as the server held it (--patch, --object): patchlab replays them on the release's engine and names the failing op; an audit event at level Request or above carries the patch as requestObject, and kubectl -v=8 prints it",
            (true, false) => "the object as the server held it (--object): patchlab replays the patch on it and names the failing op",
            (true, true) => "the object as the server held it when the patch was sent: on the object given, the patch applies, so the server's copy differed (a concurrent writer); the audit log's events for this object show who wrote in between",
        });
    }
    if candidates.contains(&ErrorClass::SmpMergeKey) && candidates.len() > 1 {
        parts.push("the content type sent (--content-type): a strategic merge patch gets its own 400, 422 and 500 answers");
    }
    if candidates.contains(&ErrorClass::UpdateConflict)
        && candidates.contains(&ErrorClass::RvPrecondition)
    {
        parts.push("the request: an Update (PUT) with a stale resourceVersion, or a patch that sets metadata.resourceVersion (--patch, or the verb in an audit event or a -v=8 trace)");
    }
    if candidates.contains(&ErrorClass::SmpCustomResource)
        && candidates.contains(&ErrorClass::ContentType)
    {
        parts.push("the media types the 415 lists (the whole message): a custom resource lists no strategic merge patch");
    }
    if candidates.contains(&ErrorClass::TooLarge) && candidates.contains(&ErrorClass::TooManyOps) {
        parts.push("the message: the op limit names its count");
    }
    if candidates.contains(&ErrorClass::Invalid) {
        parts.push("the Status message: a validation error names the object and its fields, a failed op does not");
    }
    if parts.is_empty() {
        parts.push("the full Status message (kubectl -v=8, or the client's response body)");
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests;
