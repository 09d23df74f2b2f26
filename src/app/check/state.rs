//! The Check view's state: the pasted patch, the current object (optional),
//! the engine, what lint found, which fix is shown beside the patch, a
//! notice and an undo. A pure reducer, tested natively; the components
//! render it. Lint runs in the reducer for small texts, and as a job after
//! a pause in typing for big ones ([`CheckJob`]).

use std::convert::Infallible;
use std::rc::Rc;

use super::examples::{example, FIRST_EXAMPLE};
use super::link::{empty, CheckLink, FixKey};
use crate::app::deferred::{Deferred, Job, INSTANT_BYTES};
use crate::app::engine::explained::{ExplainAnswer, ExplainRequest};
use crate::app::engine::{EngineFailed, ReadText};
use crate::app::notice::Notice;
use crate::app::text_diff::{line_diff, LineTag};
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::apply::Semantics;
use crate::input::elsewhere::{self, Asked, ReadTexts};
use crate::input::InputError;
use crate::kube::KubeVersion;
use crate::lint::{self, report, Finding, Fix, Input, LintError, Options, Origin, Report};
use crate::patch::{Operation, PayloadError};

/// Ops listed one by one; a longer patch lists only its ops with findings
/// (at most this many).
pub const MAX_SHOWN_OPS: usize = 200;

/// The current object, as lint read it.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectRead {
    /// None given.
    Blank,
    /// Read: lint checked the patch against it.
    Read,
    /// Not readable: lint checked the patch without it.
    Unreadable(LintError),
}

/// A patch lint read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedPatch {
    /// The body as the server receives it, and where it came from.
    pub input: Input,
    /// What lint found.
    pub report: Report,
    /// Each element of a JSON patch as sent, without insignificant
    /// whitespace (the bytes of a `test` value matter).
    pub written: Vec<String>,
    /// The 1-based line of each op in the editor (empty when the editor
    /// does not hold the payload as sent: YAML, a command line).
    pub lines: Vec<usize>,
}

/// One op of the patch with its findings.
#[derive(Clone, Debug, PartialEq)]
pub struct OpRow<'a> {
    /// Its index.
    pub index: usize,
    /// The op (`None` when the server cannot read it as one).
    pub op: Option<&'a Operation>,
    /// The element as sent.
    pub written: Option<&'a str>,
    /// Its line in the editor.
    pub line: Option<usize>,
    /// What lint found about it, worst first.
    pub findings: Vec<&'a Finding>,
}

impl CheckedPatch {
    fn new(input: Input, report: Report) -> CheckedPatch {
        let elements: Vec<&serde_json::value::RawValue> =
            serde_json::from_str(&input.payload).unwrap_or_default();
        let written = elements
            .iter()
            .map(|raw| {
                let mut out = Vec::with_capacity(raw.get().len());
                crate::apply::text::minify(raw.get(), &mut out);
                String::from_utf8(out).unwrap_or_else(|_| raw.get().to_owned())
            })
            .collect();
        let lines = match input.origin {
            Origin::Json => report::op_locations(&input.payload)
                .into_iter()
                .map(|(line, _)| line)
                .collect(),
            _ => Vec::new(),
        };
        CheckedPatch {
            input,
            report,
            written,
            lines,
        }
    }

    /// Findings about the whole body (or, in a merge patch, a member).
    pub fn body_findings(&self) -> impl Iterator<Item = &Finding> {
        self.report.findings.iter().filter(|f| f.index.is_none())
    }

    /// The ops to list and how many are left out: every op of a patch of
    /// up to [`MAX_SHOWN_OPS`], else those with findings (at most
    /// [`MAX_SHOWN_OPS`]).
    pub fn rows(&self) -> (Vec<OpRow<'_>>, usize) {
        let count = self.report.op_count.max(self.report.ops.len());
        let row = |index: usize| OpRow {
            index,
            op: self.report.ops.get(index),
            written: self.written.get(index).map(String::as_str),
            line: self.lines.get(index).copied(),
            findings: self.report.on_op(index).collect(),
        };
        let rows: Vec<OpRow<'_>> = if count <= MAX_SHOWN_OPS {
            (0..count).map(row).collect()
        } else {
            let mut with_findings: Vec<usize> = self
                .report
                .findings
                .iter()
                .filter_map(|f| f.index)
                .collect();
            with_findings.dedup();
            with_findings
                .into_iter()
                .take(MAX_SHOWN_OPS)
                .map(row)
                .collect()
        };
        let left_out = count - rows.len().min(count);
        (rows, left_out)
    }

    /// Errors, warnings and notes found.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for finding in &self.report.findings {
            match finding.severity {
                lint::Severity::Error => counts.errors += 1,
                lint::Severity::Warning => counts.warnings += 1,
                lint::Severity::Note => counts.notes += 1,
            }
        }
        counts
    }

    /// What the patch is and how it was read, in a line.
    pub fn read_as(&self) -> String {
        let what = match self.input.kind {
            lint::BodyKind::JsonPatch => {
                let n = self.report.op_count;
                format!("a JSON patch of {n} op{}", if n == 1 { "" } else { "s" })
            }
            lint::BodyKind::StrategicMergePatch => "a strategic merge patch".to_owned(),
            _ => "a JSON merge patch".to_owned(),
        };
        let bytes = self.input.payload.len();
        match &self.input.origin {
            Origin::Json => format!("Read {what}: {bytes} bytes, sent as written."),
            Origin::Yaml => format!(
                "Read {what} from YAML: sent as the {bytes} bytes of JSON that kubectl and Go write."
            ),
            Origin::Kubectl { target, shell } if shell.is_empty() => format!(
                "Read {what} from the -p argument of `kubectl patch {target}`: {bytes} bytes as sent."
            ),
            Origin::Kubectl { target, shell } => format!(
                "Read {what} from the -p argument of `kubectl patch {target}` (inside shell: {}): {bytes} bytes as sent.",
                shell.join(", ")
            ),
        }
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
    /// "1 error, 2 warnings" (or "nothing found").
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

/// What lint made of the editors' texts at one revision.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The revision checked.
    pub rev: u64,
    /// The patch (`None`: the editor is blank).
    pub patch: Option<Result<CheckedPatch, LintError>>,
    /// The current object.
    pub object: ObjectRead,
    /// The YAML texts lint read, and those it could not because the
    /// engines have not read them yet ([`crate::input::elsewhere`]): while
    /// any is unread, this check is not shown.
    pub asked: Asked,
}

/// The texts of the Check view, as one check reads them.
#[derive(Clone, Copy, Debug)]
pub struct Texts<'a> {
    /// The patch editor's text.
    pub patch: &'a str,
    /// The object editor's text.
    pub object: &'a str,
    /// The engine lint checks the patch for.
    pub semantics: Semantics,
}

impl Checked {
    /// Reads and lints `patch` against `object` (blank: none), with the
    /// YAML in them read here ([`Checked::of`] takes it from the engines).
    pub fn run(patch: &str, object: &str, semantics: Semantics, rev: u64) -> Checked {
        Checked::lint(
            &Texts {
                patch,
                object,
                semantics,
            },
            rev,
        )
    }

    /// Reads and lints the patch against the object (blank: none), the
    /// YAML in them taken from `read` (what the engines read): a YAML text
    /// not there is listed in [`Checked::asked`] as unread. The error text
    /// is explained apart, by the engines ([`ExplainRequest`]).
    pub fn of(texts: &Texts<'_>, rev: u64, read: &Rc<ReadTexts>) -> Checked {
        let (checked, asked) = elsewhere::reading(read, || Checked::lint(texts, rev));
        Checked { asked, ..checked }
    }

    /// Nothing checked yet (revision 0, behind every state's).
    fn blank() -> Checked {
        Checked {
            rev: 0,
            patch: None,
            object: ObjectRead::Blank,
            asked: Asked::default(),
        }
    }

    /// True while a YAML text lint read is not read yet.
    pub fn waiting(&self) -> bool {
        !self.asked.unread.is_empty()
    }

    fn lint(texts: &Texts<'_>, rev: u64) -> Checked {
        let Texts {
            patch,
            object,
            semantics,
        } = *texts;
        let (value, object) = if object.trim().is_empty() {
            (None, ObjectRead::Blank)
        } else {
            match lint::read_object(object, &lint::budget()) {
                Ok(value) => (Some(value), ObjectRead::Read),
                Err(err) => (None, ObjectRead::Unreadable(err)),
            }
        };
        let patch = (!patch.trim().is_empty()).then(|| {
            let input = lint::read(patch, &lint::budget())?;
            let options = Options {
                semantics,
                object: value,
                ..Options::default()
            };
            let report = lint::lint_input(&input, &options)?;
            Ok(CheckedPatch::new(input, report))
        });
        Checked {
            rev,
            patch,
            object,
            asked: Asked::default(),
        }
    }

    /// The checked patch, when it could be read.
    pub fn ok(&self) -> Option<&CheckedPatch> {
        self.patch.as_ref().and_then(|p| p.as_ref().ok())
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
        other => plain(other.to_string()),
    }
}

/// A fix as the editor holds it: one op per line (the same bytes per op
/// as [`Fix::payload`], which is what the copy button copies).
pub fn fix_text(fix: &Fix) -> String {
    if fix.ops.is_empty() {
        return "[]\n".to_owned();
    }
    let lines: Vec<String> = fix
        .op_texts()
        .into_iter()
        .map(|op| format!("  {op}"))
        .collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// A fix beside the patch it rewrites.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The finding it fixes.
    pub finding: Finding,
    /// The patch as sent, one op per line (or the merge patch body),
    /// lines the fix drops marked removed.
    pub original: Vec<(LineTag, String)>,
    /// The fix, one op per line, lines it adds marked added.
    pub fixed: Vec<(LineTag, String)>,
    /// The fixed payload, as KubeVirt's builder writes it.
    pub payload: String,
}

impl Comparison {
    fn new(patch: &CheckedPatch, finding: &Finding, fix: &Fix) -> Comparison {
        let fixed_ops: Vec<String> = fix.op_texts();
        let kept = fix.kept();
        let (original, fixed) =
            if patch.input.kind == lint::BodyKind::JsonPatch && kept.iter().any(Option::is_some) {
                // The fix says which ops it keeps: the comparison follows
                // from that in one pass, whatever the patch's length.
                let mut original = Vec::with_capacity(patch.written.len());
                let mut fixed = Vec::with_capacity(fixed_ops.len());
                let mut next = 0;
                for (text, kept) in fixed_ops.into_iter().zip(kept) {
                    match kept {
                        Some(i) => {
                            for dropped in patch.written.get(next..*i).unwrap_or_default() {
                                original.push((LineTag::Removed, dropped.clone()));
                            }
                            next = next.max(i + 1);
                            original.push((LineTag::Same, text.clone()));
                            fixed.push((LineTag::Same, text));
                        }
                        None => fixed.push((LineTag::Added, text)),
                    }
                }
                for dropped in patch.written.get(next..).unwrap_or_default() {
                    original.push((LineTag::Removed, dropped.clone()));
                }
                (original, fixed)
            } else if patch.input.kind == lint::BodyKind::JsonPatch {
                let diff = line_diff(&patch.written.join("\n"), &fixed_ops.join("\n"));
                let side = |keep: LineTag| -> Vec<(LineTag, String)> {
                    diff.iter()
                        .filter(|(tag, _)| *tag == LineTag::Same || *tag == keep)
                        .cloned()
                        .collect()
                };
                (side(LineTag::Removed), side(LineTag::Added))
            } else {
                let body = serde_json::from_str(&patch.input.payload)
                    .map(|value| crate::input::to_json_pretty(&value))
                    .unwrap_or_else(|_| patch.input.payload.clone());
                let same = |text: &str| -> Vec<(LineTag, String)> {
                    text.lines()
                        .map(|l| (LineTag::Same, l.to_owned()))
                        .collect()
                };
                (
                    same(&body),
                    fixed_ops.into_iter().map(|l| (LineTag::Added, l)).collect(),
                )
            };
        Comparison {
            finding: finding.clone(),
            original,
            fixed,
            payload: fix.payload(),
        }
    }
}

/// The whole Check view state.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckState {
    /// The pasted text.
    pub patch: Rc<str>,
    /// The current object's text (empty: none).
    pub object: Rc<str>,
    /// The pasted error text (empty: none).
    pub error: Rc<str>,
    /// The release explain replays the patch on (`None`: the newest).
    pub kubernetes: Option<KubeVersion>,
    /// The engine.
    pub semantics: Semantics,
    /// The example loaded last, if any.
    pub example: Option<String>,
    /// The finding whose fix is shown beside the patch.
    pub fix: Option<FixKey>,
    /// Bumped on every change of the patch, the object or the engine.
    pub rev: u64,
    /// What lint found, for revision `checked.rev`.
    pub checked: Rc<Checked>,
    /// The YAML texts the engines read for lint (the Check module has no
    /// YAML reader, #27), and the bundled examples' own, read when the
    /// playground was built. Only those the last check used are kept.
    pub read: Rc<ReadTexts>,
    /// Bumped whenever the engines answer: lint then runs again.
    pub read_rev: u64,
    /// The YAML texts lint waits for, and which check asked.
    pub reading: Option<Reading>,
    /// explain's latest answer taken (for revision `explained.rev`; `None`:
    /// none asked for yet). It comes from the engines' module, after the
    /// texts changed ([`CheckState::explain_request`]).
    pub explained: Option<Rc<ExplainAnswer>>,
    /// The fix shown beside the patch (derived from `checked` and `fix`,
    /// whenever either changes).
    pub shown: Option<Rc<Comparison>>,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// What the last replacement replaced (the notice's Undo).
    pub undo: Option<Undo<CheckState>>,
}

/// YAML texts lint could not read yet, asked of the engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The revision checked.
    pub rev: u64,
    /// [`CheckState::read_rev`] as it was checked.
    pub read_rev: u64,
    /// The texts, in the order lint read them.
    pub texts: Vec<Rc<str>>,
}

/// What can happen in the Check view.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckAction {
    /// The patch editor's text changed.
    EditPatch(Rc<str>),
    /// The object editor's text changed.
    EditObject(Rc<str>),
    /// The pasted error text changed.
    EditError(Rc<str>),
    /// The release explain replays on changed.
    SetKubernetes(KubeVersion),
    /// The engine changed.
    SetSemantics(Semantics),
    /// What lint found on big texts, after a pause in typing.
    Checked(Rc<Checked>),
    /// explain's answer, from the engines.
    Explained(Rc<ExplainAnswer>),
    /// What the engines read `texts` as (asked for by
    /// [`CheckState::unread`]).
    YamlRead {
        /// The texts asked about.
        texts: Vec<Rc<str>>,
        /// Each one's value or error, in order, or why there is none.
        answer: Result<Vec<ReadText>, EngineFailed>,
    },
    /// Load an example by id (undoable).
    LoadExample(String),
    /// Open a link's state (undoable).
    OpenLink(CheckLink),
    /// Empty both editors (undoable).
    Clear,
    /// Show a finding's fix beside the patch.
    ShowFix(FixKey),
    /// Show the fix of the first finding that has one.
    ShowFirstFix,
    /// Hide the fix.
    HideFix,
    /// Put the fix shown into the patch editor (undoable).
    AdoptFix,
    /// Restore what the last replacement replaced.
    Undo,
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
}

impl Default for CheckState {
    fn default() -> Self {
        CheckState::from_link(CheckLink::example(FIRST_EXAMPLE).unwrap_or(CheckLink {
            patch: empty(),
            object: empty(),
            error: empty(),
            kubernetes: None,
            semantics: Semantics::Kube,
            example: None,
            fix: None,
        }))
    }
}

impl CheckState {
    /// The state of a link, checked.
    pub fn from_link(link: CheckLink) -> CheckState {
        let mut state = CheckState {
            patch: link.patch,
            object: link.object,
            error: link.error,
            kubernetes: link.kubernetes,
            semantics: link.semantics,
            example: link.example,
            fix: None,
            rev: 1,
            checked: Rc::new(Checked::blank()),
            read: Rc::new(super::examples::read()),
            read_rev: 0,
            reading: None,
            explained: None,
            shown: None,
            notice: None,
            undo: None,
        };
        state.check();
        state.show_fix(link.fix);
        state
    }

    /// True when the findings are not those of the current texts.
    pub fn stale(&self) -> bool {
        self.checked.rev != self.rev
    }

    /// The YAML texts to ask the engines for: those the check of the
    /// current texts could not read (none once they answered).
    pub fn unread(&self) -> Option<&Reading> {
        self.reading
            .as_ref()
            .filter(|r| r.rev == self.rev && r.read_rev == self.read_rev)
    }

    /// Takes in what the engines read of the texts lint waits for; lint
    /// then runs again. An answer about texts no longer waited for (typed
    /// over since) is dropped: it neither grows what is kept nor ends the
    /// pause a big text waits for.
    fn take_read(&mut self, texts: &[Rc<str>], answer: &Result<Vec<ReadText>, EngineFailed>) {
        let Some(waited) = self.unread().map(|r| r.texts.clone()) else {
            return;
        };
        if !texts.iter().any(|t| waited.contains(t)) {
            return;
        }
        let read = Rc::make_mut(&mut self.read);
        for (i, text) in texts.iter().enumerate() {
            if !waited.contains(text) {
                continue;
            }
            let why = |message: String| InputError {
                message,
                line: None,
                column: None,
            };
            let value = match answer {
                Ok(values) => match values.get(i) {
                    Some(read) => read.to_result(),
                    None => Err(why(
                        "patchlab's engines answered fewer texts than asked".to_owned()
                    )),
                },
                Err(failed) => Err(why(format!(
                    "patchlab's engines could not read this YAML: {failed}"
                ))),
            };
            read.insert(Rc::clone(text), value);
        }
        self.read_rev += 1;
    }

    /// What to ask explain, when the error text is not blank and the
    /// answer taken is not that of the current texts.
    pub fn explain_request(&self) -> Option<ExplainRequest> {
        self.explaining().then(|| ExplainRequest {
            rev: self.rev,
            error: Rc::clone(&self.error),
            patch: Rc::clone(&self.patch),
            object: Rc::clone(&self.object),
            kubernetes: self.kubernetes,
        })
    }

    /// True while the error text is not blank and explain's answer is not
    /// that of the current texts.
    pub fn explaining(&self) -> bool {
        !self.error.trim().is_empty() && self.explained.as_ref().is_none_or(|a| a.rev != self.rev)
    }

    fn take_explained(&mut self, answer: Rc<ExplainAnswer>) {
        if answer.rev == self.rev {
            self.explained = Some(answer);
        }
    }

    /// Total bytes in the editors (the error text included).
    pub fn text_bytes(&self) -> usize {
        self.patch.len() + self.object.len() + self.error.len()
    }

    /// True when the texts are too big to check on every keystroke.
    pub fn big(&self) -> bool {
        self.text_bytes() > INSTANT_BYTES
    }

    /// The title and description of what the editors hold: the example's
    /// while they hold it as bundled, "Your patch" otherwise.
    pub fn title(&self) -> (String, Option<String>) {
        let link = self.link();
        match self.example.as_deref().and_then(example) {
            Some(e) if !link.is_work() => (e.title.clone(), Some(e.description.clone())),
            Some(e) => (
                "Your patch".to_owned(),
                Some(format!("Started from the example “{}”.", e.title)),
            ),
            None => ("Your patch".to_owned(), None),
        }
    }

    /// The patch editor's error, if the patch could not be read.
    pub fn patch_error(&self) -> Option<InputError> {
        match &self.checked.patch {
            Some(Err(err)) => Some(editor_error(err, &self.patch)),
            _ => None,
        }
    }

    /// The object editor's error, if the object could not be read.
    pub fn object_error(&self) -> Option<InputError> {
        match &self.checked.object {
            ObjectRead::Unreadable(err) => Some(editor_error(err, &self.object)),
            _ => None,
        }
    }

    /// The fix shown beside the patch, if lint still reports its finding.
    pub fn comparison(&self) -> Option<Comparison> {
        self.shown.as_deref().cloned()
    }

    /// The position in the report of the finding whose fix is shown.
    pub fn shown_finding(&self) -> Option<usize> {
        let key = self.fix.as_ref()?;
        self.checked
            .ok()?
            .report
            .findings
            .iter()
            .position(|f| key.names(f))
    }

    /// Works out the fix shown again (lint's findings or the key changed).
    fn compare(&mut self) {
        self.shown = self.fix.as_ref().and_then(|key| {
            let patch = self.checked.ok()?;
            let finding = patch.report.findings.iter().find(|f| key.names(f))?;
            let fix = finding.fix.as_ref()?;
            Some(Rc::new(Comparison::new(patch, finding, fix)))
        });
    }

    fn show_fix(&mut self, fix: Option<FixKey>) {
        self.fix = fix;
        self.compare();
    }

    fn take_checked(&mut self, checked: Rc<Checked>) {
        if checked.rev != self.rev {
            return;
        }
        if checked.waiting() {
            // Texts read meanwhile are not asked again: the check runs
            // again instead (at once for small texts, after a pause for
            // big ones).
            let texts: Vec<Rc<str>> = (checked.asked.unread.iter())
                .filter(|text| self.read.get(text).is_none())
                .cloned()
                .collect();
            self.reading = (!texts.is_empty()).then_some(Reading {
                rev: self.rev,
                read_rev: self.read_rev,
                texts,
            });
            return;
        }
        self.reading = None;
        if self.read.len() > checked.asked.used.len() {
            Rc::make_mut(&mut self.read).keep_only(&checked.asked.used);
        }
        self.checked = checked;
        self.compare();
    }

    /// The first finding that has a fix.
    fn first_fix(&self) -> Option<FixKey> {
        let patch = self.checked.ok()?;
        patch
            .report
            .findings
            .iter()
            .find(|f| f.fix.is_some())
            .map(FixKey::of)
    }

    /// Runs lint when the texts changed since the last run.
    pub fn check(&mut self) {
        if let Some(job) = self.check_job() {
            self.take_checked(job.run());
        }
    }

    /// Lint of the current texts, when they changed since the last run.
    pub fn check_job(&self) -> Option<CheckJob> {
        (self.stale() && self.unread().is_none()).then(|| CheckJob {
            patch: Rc::clone(&self.patch),
            object: Rc::clone(&self.object),
            semantics: self.semantics,
            rev: self.rev,
            read: Rc::clone(&self.read),
            checked: None,
        })
    }

    fn edited(&mut self) {
        self.rev += 1;
    }

    /// The state of `link` in place of this one (undoable when this is work).
    fn load(&self, link: CheckLink, what: &str) -> CheckState {
        view_state::replace(self, CheckState::from_link(link), what)
    }

    /// The patch editor with the fix shown, the patch before kept for Undo.
    fn adopt_fix(&self) -> CheckState {
        let Some(comparison) = &self.shown else {
            return self.clone();
        };
        let Some(fixed) = comparison.finding.fix.as_ref().map(fix_text) else {
            return self.clone();
        };
        let link = CheckLink {
            patch: Rc::from(fixed),
            fix: None,
            ..self.link()
        };
        let what = format!(
            "The patch editor now holds the fix for {}",
            comparison.finding.rule
        );
        view_state::replace_keeping(self, CheckState::from_link(link), &what)
    }
}

/// Lint of the two texts, as a job (one piece: lint is one pass; the job
/// lets big texts wait for a pause in typing).
pub struct CheckJob {
    patch: Rc<str>,
    object: Rc<str>,
    semantics: Semantics,
    rev: u64,
    read: Rc<ReadTexts>,
    checked: Option<Rc<Checked>>,
}

impl CheckJob {
    /// Does it all at once.
    pub fn run(self) -> Rc<Checked> {
        Rc::new(self.checked())
    }

    fn checked(&self) -> Checked {
        Checked::of(
            &Texts {
                patch: &self.patch,
                object: &self.object,
                semantics: self.semantics,
            },
            self.rev,
            &self.read,
        )
    }
}

impl Job for CheckJob {
    type Done = Rc<Checked>;

    fn step(&mut self) -> bool {
        self.checked = Some(Rc::new(self.checked()));
        false
    }

    fn finish(self) -> Rc<Checked> {
        match self.checked {
            Some(checked) => checked,
            None => self.run(),
        }
    }
}

impl ViewState for CheckState {
    type Link = CheckLink;
    type Action = CheckAction;
    type OpenError = Infallible;
    const WORDS: Words = Words {
        saved: "patch",
        fresh: "this is the first example",
        kept: "What the editors held before is kept",
        back: "Brought back what the editors held",
    };

    fn from_link(link: CheckLink) -> Result<Self, Infallible> {
        Ok(CheckState::from_link(link))
    }

    /// The link of this state.
    fn link(&self) -> CheckLink {
        CheckLink {
            patch: Rc::clone(&self.patch),
            object: Rc::clone(&self.object),
            error: Rc::clone(&self.error),
            kubernetes: self.kubernetes,
            semantics: self.semantics,
            example: self.example.clone(),
            fix: self.fix.clone(),
        }
    }

    fn is_work(&self) -> bool {
        self.link().is_work()
    }

    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
        (&mut self.notice, &mut self.undo)
    }

    /// The next state; a pure function of the state and the action.
    fn reduce(&self, action: CheckAction) -> Self {
        let mut next = self.clone();
        match action {
            CheckAction::EditPatch(text) => {
                next.patch = text;
                next.edited();
            }
            CheckAction::EditObject(text) => {
                next.object = text;
                next.edited();
            }
            CheckAction::EditError(text) => {
                next.error = text;
                next.edited();
            }
            CheckAction::SetKubernetes(release) => {
                let release = (release != KubeVersion::NEWEST).then_some(release);
                if release != next.kubernetes {
                    next.kubernetes = release;
                    next.edited();
                    next.check();
                }
            }
            CheckAction::SetSemantics(semantics) => {
                if semantics != next.semantics {
                    next.semantics = semantics;
                    next.edited();
                    next.check();
                }
            }
            CheckAction::Checked(checked) => next.take_checked(checked),
            CheckAction::Explained(answer) => next.take_explained(answer),
            CheckAction::YamlRead { texts, answer } => next.take_read(&texts, &answer),
            CheckAction::LoadExample(id) => match CheckLink::example(&id) {
                Some(link) => {
                    let title = example(&id).map(|e| e.title.as_str()).unwrap_or_default();
                    next = self.load(link, &format!("Loaded the example “{title}”"));
                }
                None => next.notice = Some(Notice::error(format!("There is no example {id:?}."))),
            },
            CheckAction::OpenLink(link) => next = view_state::open(self, link),
            CheckAction::Clear => {
                let blank = CheckLink {
                    patch: empty(),
                    object: empty(),
                    error: empty(),
                    kubernetes: self.kubernetes,
                    semantics: self.semantics,
                    example: None,
                    fix: None,
                };
                next = self.load(blank, "Cleared the editors");
            }
            CheckAction::ShowFix(key) => next.show_fix(Some(key)),
            CheckAction::ShowFirstFix => match next.first_fix() {
                Some(key) => next.show_fix(Some(key)),
                None => {
                    next.notice = Some(Notice::info("No finding here comes with a fix to use."))
                }
            },
            CheckAction::HideFix => next.show_fix(None),
            CheckAction::AdoptFix => next = self.adopt_fix(),
            CheckAction::Undo => next = view_state::undo(self),
            CheckAction::Notify(notice) => next.notice = Some(notice),
            CheckAction::DismissNotice => next.notice = None,
        }
        next
    }

    fn settle(&mut self) {
        if !self.big() {
            self.check();
        }
    }

    /// Revisions keep counting past `previous`'s, so that no lint of an
    /// earlier text is taken for this one's.
    fn after(mut self, previous: &Self) -> Self {
        let rev = previous.rev + 1;
        // Up to date stays up to date; behind stays behind.
        let checked_rev = if self.stale() { 0 } else { rev };
        if let Some(reading) = self.reading.as_mut().filter(|r| r.rev == self.rev) {
            reading.rev = rev;
        }
        self.checked = Rc::new(Checked {
            rev: checked_rev,
            ..Checked::clone(&self.checked)
        });
        if let Some(answer) = &self.explained {
            let answered = if answer.rev == self.rev { rev } else { 0 };
            self.explained = Some(Rc::new(ExplainAnswer {
                rev: answered,
                ..ExplainAnswer::clone(answer)
            }));
        }
        self.rev = rev;
        self
    }

    fn open_action(link: CheckLink) -> CheckAction {
        CheckAction::OpenLink(link)
    }

    fn notify_action(notice: Notice) -> CheckAction {
        CheckAction::Notify(notice)
    }
}

impl Deferred for CheckState {
    type Job = CheckJob;
    type Key = (u64, u64);

    /// A new text, or what the engines read: lint runs again.
    fn key(&self) -> (u64, u64) {
        (self.rev, self.read_rev)
    }

    fn job(&self) -> Option<CheckJob> {
        self.big().then(|| self.check_job()).flatten()
    }

    fn typed(before: &(u64, u64), now: &(u64, u64)) -> bool {
        before.0 != now.0
    }

    fn done(checked: Rc<Checked>) -> CheckAction {
        CheckAction::Checked(checked)
    }
}

#[cfg(test)]
impl CheckState {
    /// Test-only: answers what lint waits for as the engines would
    /// ([`ReadText::of`]) and checks again, until nothing waits.
    pub(crate) fn read_here(&self) -> CheckState {
        let mut state = self.clone();
        state.check();
        while let Some(reading) = state.unread().cloned() {
            let answer = Ok(reading.texts.iter().map(|t| ReadText::of(t)).collect());
            state = state.reduce(CheckAction::YamlRead {
                texts: reading.texts,
                answer,
            });
            state.check();
        }
        state
    }
}
