//! Check's question: lint of a patch against an object, run where the
//! engines are (the Check module holds none of lint, the apply engines,
//! strategic merge patch, the strategy engine or the schema tables). The
//! answer, [`Checked`], is lint's report worked out into what the view
//! shows (the ops listed, each finding with its rule's texts, each fix's
//! ops as sent), so the page reads plain data and runs none of lint's code. The bundled examples' answers
//! are compiled in (`www/check/examples.json`): a first visit shows one
//! without fetching the engines.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::build::RuleText;
use super::{Caches, Never, Question};
use crate::apply::Semantics;
use crate::input::InputError;
use crate::lint::{self, report, BodyKind, Finding, Fix, LintError, Options, Origin, Report};
use crate::lint::{Rule, Severity};
use crate::patch::PayloadError;
use crate::strategy::{Overwrite, Precondition};

/// Ops listed one by one; a longer patch lists only its ops with findings
/// (at most this many).
pub const MAX_SHOWN_OPS: usize = 200;

/// Characters of an op's value (or of an element that is not an op)
/// shown in its row.
pub const VALUE_CHARS: usize = 160;

/// What Check asks: lint of its two texts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// The patch editor's text.
    pub patch: Rc<str>,
    /// The object editor's text (blank: none).
    pub object: Rc<str>,
    /// The engine lint checks the patch for.
    pub semantics: Semantics,
}

impl Question for Check {
    const NAME: &'static str = "check";
    type Rev = u64;
    type Answer = Checked;
    type Refusal = Never;

    fn bytes(&self) -> usize {
        self.patch.len() + self.object.len()
    }

    fn answer(self, _: &mut Caches) -> Result<Checked, Never> {
        Ok(self.check())
    }
}

impl Check {
    /// Reads and lints the patch against the object, as the view shows it.
    pub fn check(&self) -> Checked {
        let (value, object) = if self.object.trim().is_empty() {
            (None, ObjectRead::Blank)
        } else {
            match lint::read_object(&self.object, &lint::budget()) {
                Ok(value) => (Some(value), ObjectRead::Read),
                Err(err) => (
                    None,
                    ObjectRead::Unreadable(editor_error(&err, &self.object)),
                ),
            }
        };
        let patch = (!self.patch.trim().is_empty()).then(|| {
            let lint = || -> Result<CheckedPatch, LintError> {
                let input = lint::read(&self.patch, &lint::budget())?;
                let options = Options {
                    semantics: self.semantics,
                    object: value,
                    ..Options::default()
                };
                let report = lint::lint_input(&input, &options)?;
                Ok(CheckedPatch::of(&input, &report))
            };
            lint().map_err(|err| editor_error(&err, &self.patch))
        });
        Checked { patch, object }
    }
}

/// A lint error as the editor shows it: the message, and the line to mark
/// when it is a line of the editor's text.
pub fn editor_error(err: &LintError, text: &str) -> InputError {
    let plain = |message: String| InputError {
        message,
        line: None,
        column: None,
    };
    match err {
        // A command's -p argument has lines of its own: the message says
        // where it starts.
        LintError::Syntax(inner) if lint::is_command(text) => plain(inner.to_string()),
        LintError::Syntax(inner) | LintError::Object(inner) => inner.clone(),
        LintError::Payload(PayloadError::Syntax {
            message,
            line,
            column,
        }) if !lint::is_command(text) => InputError {
            message: message.clone(),
            line: Some(*line),
            column: Some(*column),
        },
        LintError::Command { message, line } => InputError {
            message: format!("in the command: {message}"),
            line: *line,
            column: None,
        },
        LintError::Judged { line, column, .. } => InputError {
            message: err.judged_text(),
            line: *line,
            column: *column,
        },
        other => plain(other.to_string()),
    }
}

/// What lint made of Check's texts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checked {
    /// The patch (`None`: the editor is blank), or why it could not be
    /// read, as its editor shows it.
    pub patch: Option<Result<CheckedPatch, InputError>>,
    /// The current object.
    pub object: ObjectRead,
}

impl Checked {
    /// Nothing checked.
    pub fn blank() -> Checked {
        Checked {
            patch: None,
            object: ObjectRead::Blank,
        }
    }

    /// The checked patch, when it could be read.
    pub fn ok(&self) -> Option<&CheckedPatch> {
        self.patch.as_ref().and_then(|p| p.as_ref().ok())
    }

    /// The patch editor's error, if the patch could not be read.
    pub fn patch_error(&self) -> Option<InputError> {
        match &self.patch {
            Some(Err(err)) => Some(err.clone()),
            _ => None,
        }
    }

    /// The object editor's error, if the object could not be read.
    pub fn object_error(&self) -> Option<InputError> {
        match &self.object {
            ObjectRead::Unreadable(err) => Some(err.clone()),
            _ => None,
        }
    }
}

/// The current object, as lint read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectRead {
    /// None given.
    Blank,
    /// Read: lint checked the patch against it.
    Read,
    /// Not readable (why, as its editor shows it): lint checked the patch
    /// without it.
    Unreadable(InputError),
}

/// A patch lint read and checked, as the view shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckedPatch {
    /// JSON patch, merge patch or strategic merge patch.
    pub kind: BodyKind,
    /// What the patch is and how it was read, in a line.
    pub read_as: String,
    /// What lint found.
    pub report: CheckedReport,
    /// Each element of a JSON patch as sent, without insignificant
    /// whitespace (the bytes of a `test` value matter).
    pub written: Vec<String>,
    /// The ops listed: every op of a patch of up to [`MAX_SHOWN_OPS`],
    /// else those with findings (at most [`MAX_SHOWN_OPS`]).
    pub rows: Vec<OpRow>,
    /// Ops not listed.
    pub left_out: usize,
    /// A merge or strategic merge body, pretty (what a fix is shown
    /// beside); `None` for a JSON patch.
    pub body: Option<String>,
}

/// lint's report, as the view shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckedReport {
    /// The engine assumed.
    pub semantics: Semantics,
    /// How many ops the body holds (malformed ones included).
    pub op_count: usize,
    /// The findings, by op index, then worst first (as lint orders them).
    pub findings: Vec<CheckedFinding>,
    /// The texts of every rule the findings name, each once.
    pub rules: Vec<RuleText>,
    /// With the current object: whether the patch applies now.
    pub outcome: Option<CheckedOutcome>,
    /// Concurrent changes that make the patch fail (its conflict surface;
    /// at most [`MAX_SHOWN_OPS`]).
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes it would silently overwrite (at most
    /// [`MAX_SHOWN_OPS`]).
    pub overwrites: Vec<Overwrite>,
    /// How many conflicts and overwrites are not listed.
    pub surface_left_out: (usize, usize),
}

/// A finding, with its fix worked out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckedFinding {
    /// Which rule.
    pub rule: Rule,
    /// How bad.
    pub severity: Severity,
    /// The op it is about (`None`: the whole body).
    pub index: Option<usize>,
    /// The path it is about.
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The whole patch rewritten, when lint can compute it.
    pub fix: Option<CheckedFix>,
}

impl CheckedFinding {
    fn of(finding: &Finding, written: &[String]) -> CheckedFinding {
        CheckedFinding {
            rule: finding.rule,
            severity: finding.severity,
            index: finding.index,
            path: finding.path.clone(),
            message: finding.message.clone(),
            fix: finding.fix.as_ref().map(|fix| CheckedFix::of(fix, written)),
        }
    }

    /// The lint finding, its fix left out (for the shared diagnostics
    /// component).
    pub fn finding(&self) -> Finding {
        Finding {
            rule: self.rule,
            severity: self.severity,
            index: self.index,
            path: self.path.clone(),
            message: self.message.clone(),
            fix: None,
            writers: Vec::new(),
            folded: None,
        }
    }
}

/// A fix: the ops it keeps from the patch, by reference, and the texts of
/// those it writes anew. A fix is a whole patch rewritten, and a report
/// holds up to [`lint::FIX_OPS_PER_OP`] times the patch's ops in fixes:
/// sent op by op, they made a 570 KB patch's answer 12 MB.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedFix {
    /// The fix's ops in order, in runs: `(Some(i), n)` is the patch's ops
    /// `i..i + n` kept as sent ([`CheckedPatch::written`]); `(None, n)` the
    /// next `n` texts of `new`.
    pub runs: Vec<(Option<usize>, usize)>,
    /// The JSON text of each op written anew, as KubeVirt's builder writes
    /// it ([`Fix::op_texts`]).
    pub new: Vec<String>,
}

impl CheckedFix {
    fn of(fix: &Fix, written: &[String]) -> CheckedFix {
        let mut runs: Vec<(Option<usize>, usize)> = Vec::new();
        let mut new = Vec::new();
        for (text, kept) in fix.op_texts().into_iter().zip(fix.kept()) {
            // Kept as sent, byte for byte (else sent as a new op).
            let kept = kept.filter(|i| written.get(*i) == Some(&text));
            match (runs.last_mut(), kept) {
                (Some((Some(first), n)), Some(i)) if *first + *n == i => *n += 1,
                (Some((None, n)), None) => *n += 1,
                (_, kept) => runs.push((kept, 1)),
            }
            if kept.is_none() {
                new.push(text);
            }
        }
        CheckedFix { runs, new }
    }

    /// For each op, its index in the patch when the fix keeps it as sent
    /// ([`Fix::kept`]).
    pub fn kept(&self) -> Vec<Option<usize>> {
        (self.runs.iter())
            .flat_map(|&(first, n)| (0..n).map(move |k| first.map(|i| i + k)))
            .collect()
    }

    /// Each op's JSON text ([`Fix::op_texts`]), `written` being the ops
    /// of the patch it fixes as sent.
    pub fn op_texts(&self, written: &[String]) -> Vec<String> {
        let mut new = self.new.iter();
        (self.kept().into_iter())
            .map(|kept| match kept {
                Some(i) => written.get(i).cloned().unwrap_or_default(),
                None => new.next().cloned().unwrap_or_default(),
            })
            .collect()
    }
}

/// A fix's payload, as KubeVirt's builder writes it ([`Fix::payload`]),
/// from its ops' texts.
pub fn fix_payload(ops: &[String]) -> String {
    format!("[{}]", ops.join(","))
}

/// A fix as the editor holds it, from its ops' texts: one op per line (the
/// same bytes per op as the payload the copy button copies).
pub fn fix_text(ops: &[String]) -> String {
    if ops.is_empty() {
        return "[]\n".to_owned();
    }
    let lines: Vec<String> = ops.iter().map(|op| format!("  {op}")).collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// Applied to the current object: does the patch apply now?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedOutcome {
    /// True when every op applies.
    pub applies: bool,
    /// True when applying changes nothing.
    pub unchanged: bool,
    /// The failing op's index (`None`: the whole body was refused).
    pub index: Option<usize>,
    /// The failing op's path.
    pub path: Option<String>,
    /// Why it fails (the engine's own words, which the server hides).
    pub cause: Option<String>,
    /// What kube-apiserver answers.
    pub response: Option<CheckedResponse>,
}

/// kube-apiserver's answer to a patch that does not apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedResponse {
    /// HTTP status code.
    pub code: u16,
    /// Its `reason` (`Invalid`, `UnsupportedMediaType`, ...).
    pub reason: String,
    /// Its `message`.
    pub message: String,
}

/// An op as listed: its kind, path and `from`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedOp {
    /// `add`, `test`, ...
    pub op: String,
    /// Its path.
    pub path: String,
    /// Its `from` (`move`, `copy`).
    pub from: Option<String>,
}

/// One op of the patch listed, with its findings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpRow {
    /// Its index.
    pub index: usize,
    /// The op's kind, path and `from` (`None` when the server cannot read
    /// the element as an op).
    pub op: Option<ListedOp>,
    /// Its value, or the element as sent when it is not an op (elided).
    pub value: Option<String>,
    /// Its 1-based line in the editor (`None` when the editor does not
    /// hold the payload as sent: YAML, a command line).
    pub line: Option<usize>,
    /// The positions in the report of the findings about it, worst first.
    pub findings: Vec<usize>,
}

/// An op's text as sent, without insignificant white space.
fn minified(raw: &str) -> String {
    let mut out = Vec::with_capacity(raw.len());
    crate::apply::text::minify(raw, &mut out);
    String::from_utf8(out).unwrap_or_else(|_| raw.to_owned())
}

/// The ops listed: every op of a patch of at most [`MAX_SHOWN_OPS`],
/// otherwise those with findings (at most as many).
fn rows(input: &lint::Input, report: &Report, written: &[String]) -> Vec<OpRow> {
    let lines: Vec<usize> = match input.origin {
        Origin::Json => report::op_locations(&input.payload)
            .into_iter()
            .map(|(line, _)| line)
            .collect(),
        _ => Vec::new(),
    };
    let row = |index: usize| OpRow::of(index, report, written, lines.get(index).copied());
    let count = report.op_count.max(report.ops.len());
    if count <= MAX_SHOWN_OPS {
        return (0..count).map(row).collect();
    }
    let mut with_findings: Vec<usize> = report.findings.iter().filter_map(|f| f.index).collect();
    with_findings.dedup();
    with_findings
        .into_iter()
        .take(MAX_SHOWN_OPS)
        .map(row)
        .collect()
}

impl OpRow {
    /// Row `index` of `report` (`written`: the elements as sent; `line`:
    /// where the op starts).
    fn of(index: usize, report: &Report, written: &[String], line: Option<usize>) -> OpRow {
        let op = report.ops.get(index);
        let value = match op {
            Some(op) => op
                .raw_value()
                .map(|raw| crate::text::elide(raw, VALUE_CHARS))
                .or_else(|| {
                    op.value
                        .as_ref()
                        .map(|v| crate::text::elide_value(v, VALUE_CHARS))
                }),
            None => Some(
                written
                    .get(index)
                    .map(|w| crate::text::elide(w, VALUE_CHARS))
                    .unwrap_or_default(),
            ),
        };
        OpRow {
            index,
            op: op.map(|op| ListedOp {
                op: op.op.as_str().to_owned(),
                path: op.path.clone(),
                from: op.from.clone(),
            }),
            value,
            line,
            findings: (report.findings.iter().enumerate())
                .filter(|(_, f)| f.covers(index))
                .map(|(n, _)| n)
                .collect(),
        }
    }
}

/// The first [`MAX_SHOWN_OPS`] of a conflict surface.
fn first_shown<T: Clone>(items: &[T]) -> Vec<T> {
    items.iter().take(MAX_SHOWN_OPS).cloned().collect()
}

impl CheckedReport {
    fn of(report: &Report, written: &[String]) -> CheckedReport {
        CheckedReport {
            semantics: report.semantics,
            op_count: report.op_count,
            findings: (report.findings.iter())
                .map(|f| CheckedFinding::of(f, written))
                .collect(),
            rules: RuleText::of(Some(report)),
            outcome: report.outcome.as_ref().map(|o| CheckedOutcome {
                applies: o.applies,
                unchanged: o.unchanged,
                index: o.index,
                path: o.path.clone(),
                cause: o.cause.clone(),
                response: o.response.as_ref().map(|r| CheckedResponse {
                    code: r.code,
                    reason: r.reason.as_str().to_owned(),
                    message: r.message.clone(),
                }),
            }),
            conflicts: first_shown(&report.conflicts),
            overwrites: first_shown(&report.overwrites),
            surface_left_out: (
                report.conflicts.len().saturating_sub(MAX_SHOWN_OPS),
                report.overwrites.len().saturating_sub(MAX_SHOWN_OPS),
            ),
        }
    }
}

impl CheckedPatch {
    fn of(input: &lint::Input, report: &Report) -> CheckedPatch {
        let elements: Vec<&serde_json::value::RawValue> =
            serde_json::from_str(&input.payload).unwrap_or_default();
        let written: Vec<String> = elements.iter().map(|raw| minified(raw.get())).collect();
        let rows = rows(input, report, &written);
        let count = report.op_count.max(report.ops.len());
        let body = (input.kind != BodyKind::JsonPatch).then(|| {
            serde_json::from_str(&input.payload)
                .map(|value| crate::input::to_json_pretty(&value))
                .unwrap_or_else(|_| input.payload.clone())
        });
        CheckedPatch {
            kind: input.kind,
            read_as: read_as(input, report),
            report: CheckedReport::of(report, &written),
            left_out: count - rows.len().min(count),
            written,
            rows,
            body,
        }
    }

    /// Findings about the whole body (or, in a merge patch, a member).
    pub fn body_findings(&self) -> impl Iterator<Item = (usize, &CheckedFinding)> {
        (self.report.findings.iter().enumerate()).filter(|(_, f)| f.index.is_none())
    }

    /// Errors, warnings and notes found.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for finding in &self.report.findings {
            match finding.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Note => counts.notes += 1,
            }
        }
        counts
    }

    /// The worst severity found, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.report.findings.iter().map(|f| f.severity).max()
    }

    /// The texts of `rule`: why it matters and what its fix does (empty
    /// for a rule the answer does not name).
    pub fn rule_texts(&self, rule: Rule) -> (Rc<str>, Rc<str>) {
        self.report
            .rules
            .iter()
            .find(|r| r.rule == rule.as_str())
            .map(|r| (Rc::clone(&r.explanation), Rc::clone(&r.fix)))
            .unwrap_or_else(|| (Rc::from(""), Rc::from("")))
    }
}

/// What the patch is and how it was read, in a line.
fn read_as(input: &lint::Input, report: &Report) -> String {
    let what = match input.kind {
        BodyKind::JsonPatch => {
            let n = report.op_count;
            format!("a JSON patch of {n} op{}", if n == 1 { "" } else { "s" })
        }
        BodyKind::StrategicMergePatch => "a strategic merge patch".to_owned(),
        _ => "a JSON merge patch".to_owned(),
    };
    let bytes = input.payload.len();
    if let Some(carried) = &input.wrapper {
        let (label, place) = (&carried.label, carried.context.describe());
        let more = match carried.others.len() {
            0 => String::new(),
            n => format!(
                " (and the {n} other patch{} it holds, their findings listed with their place)",
                if n == 1 { "" } else { "es" }
            ),
        };
        return format!("Read {what} from {label}{more}: {place}.");
    }
    match &input.origin {
        Origin::Json => format!("Read {what}: {bytes} bytes, sent as written."),
        Origin::Yaml => format!(
            "Read {what} from YAML: sent as the {bytes} bytes of JSON that kubectl and Go write."
        ),
        Origin::Kubectl {
            verb: "patch",
            target,
            shell,
        } if shell.is_empty() => format!(
            "Read {what} from the -p argument of `kubectl patch {target}`: {bytes} bytes as sent."
        ),
        Origin::Kubectl {
            verb: "patch",
            target,
            shell,
        } => format!(
            "Read {what} from the -p argument of `kubectl patch {target}` (inside shell: {}): {bytes} bytes as sent.",
            shell.join(", ")
        ),
        Origin::Kubectl { verb, target, .. } => format!(
            "Read {what}: the one `kubectl {verb} {target}` sends, {bytes} bytes."
        ),
        Origin::Curl { url } => format!(
            "Read {what} from the body of `curl -X PATCH {url}`: {bytes} bytes, sent as written."
        ),
    }
}

/// How many findings of each severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Notes.
    pub notes: usize,
}

impl Counts {
    /// "1 error, 2 warnings" (or "Nothing found").
    pub fn summary(self) -> String {
        let part = |n: usize, what: &str| match n {
            0 => None,
            1 => Some(format!("1 {what}")),
            n => Some(format!("{n} {what}s")),
        };
        let parts: Vec<String> = [
            part(self.errors, "error"),
            part(self.warnings, "warning"),
            part(self.notes, "note"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            "Nothing found".to_owned()
        } else {
            parts.join(", ")
        }
    }
}
