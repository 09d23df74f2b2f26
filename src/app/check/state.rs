//! The Check view's state: the pasted patch, the current object (optional),
//! the engine, what lint found, which fix is shown beside the patch, a
//! notice and an undo. A pure reducer, tested natively; the components
//! render it, a hook decides when to run lint ([`CheckAction::Check`]).

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::examples::{example, FIRST_EXAMPLE};
use crate::app::link::{LinkError, Shareable, Start};
use crate::app::notice::Notice;
use crate::app::route::View;
use crate::app::text_diff::{line_diff, LineTag};
use crate::apply::Semantics;
use crate::input::InputError;
use crate::lint::{self, report, Finding, Fix, Input, LintError, Options, Origin, Report};
use crate::patch::{Operation, PayloadError};

/// The longest patch or object text a link may hold (the editors refuse
/// longer pastes too).
pub const MAX_TEXT: usize = crate::limits::OBJECT_BYTES;

/// Ops listed one by one; a longer patch lists only its ops with findings
/// (at most this many).
pub const MAX_SHOWN_OPS: usize = 200;

/// `kube` or `rfc`, in links and example files.
pub(crate) mod semantics_name {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::apply::Semantics;

    pub fn serialize<S: Serializer>(semantics: &Semantics, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(semantics.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Semantics, D::Error> {
        let name = String::deserialize(de)?;
        name.parse().map_err(|_| {
            D::Error::custom(format!(
                "semantics {name:?} is neither \"kube\" nor \"rfc\""
            ))
        })
    }
}

fn is_kube(semantics: &Semantics) -> bool {
    *semantics == Semantics::Kube
}

fn is_empty(text: &Rc<str>) -> bool {
    text.is_empty()
}

fn empty() -> Rc<str> {
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
    pub fn of(finding: &Finding) -> FixKey {
        FixKey {
            rule: finding.rule.as_str().to_owned(),
            index: finding.index,
            path: finding.path.clone(),
        }
    }

    /// True when `finding` is the one this key names.
    pub fn names(&self, finding: &Finding) -> bool {
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
    /// The engine the patch is meant for.
    #[serde(default, with = "semantics_name", skip_serializing_if = "is_kube")]
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
        let example = example(id)?;
        Some(CheckLink {
            patch: Rc::from(example.patch.as_str()),
            object: Rc::from(example.object.as_deref().unwrap_or_default()),
            semantics: example.semantics,
            example: Some(example.id.to_owned()),
            fix: None,
        })
    }

    /// True when replacing this link loses work: anything but a bundled
    /// example as bundled (or nothing at all).
    fn is_work(&self) -> bool {
        match self.example.as_deref().and_then(example) {
            Some(e) => {
                *e.patch != *self.patch
                    || e.object.as_deref().unwrap_or_default() != &*self.object
                    || e.semantics != self.semantics
            }
            None => !self.patch.trim().is_empty() || !self.object.trim().is_empty(),
        }
    }
}

impl Shareable for CheckLink {
    const VIEW: View = View::Check;
    const STORAGE_KEY: &'static str = "patchlab.check";

    fn check(&self) -> Result<(), LinkError> {
        for (what, text) in [("a patch", &self.patch), ("an object", &self.object)] {
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
}

impl Checked {
    /// Reads and lints `patch` against `object` (blank: none).
    pub fn run(patch: &str, object: &str, semantics: Semantics, rev: u64) -> Checked {
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
        Checked { rev, patch, object }
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

/// What lint finds in the ops a strategy sends (`None` for a body that
/// is not a JSON patch): the Build view shows it on each column's ops.
pub fn plan_findings(plan: &crate::strategy::Plan) -> Option<Report> {
    let ops: Vec<Operation> = plan.ops()?.iter().map(|p| p.op.clone()).collect();
    Some(lint::lint_ops(&ops, &Options::default()))
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

/// What an undo restores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    link: CheckLink,
}

/// The whole Check view state.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckState {
    /// The pasted text.
    pub patch: Rc<str>,
    /// The current object's text (empty: none).
    pub object: Rc<str>,
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
    /// A message for the user.
    pub notice: Option<Notice>,
    /// What the last replacement replaced (the notice's Undo).
    pub undo: Option<Rc<Snapshot>>,
}

/// What can happen in the Check view.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckAction {
    /// The patch editor's text changed.
    EditPatch(String),
    /// The object editor's text changed.
    EditObject(String),
    /// The engine changed.
    SetSemantics(Semantics),
    /// Run lint on the current texts (the hook sends it: at once for small
    /// texts, after a pause in typing for big ones).
    Check,
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
            semantics: Semantics::Kube,
            example: None,
            fix: None,
        }))
    }
}

impl CheckState {
    /// The state of a link, checked.
    pub fn from_link(link: CheckLink) -> CheckState {
        let checked = Checked::run(&link.patch, &link.object, link.semantics, 1);
        CheckState {
            patch: link.patch,
            object: link.object,
            semantics: link.semantics,
            example: link.example,
            fix: link.fix,
            rev: 1,
            checked: Rc::new(checked),
            notice: None,
            undo: None,
        }
    }

    /// The state a visit starts with (see [`Start`]).
    pub fn start(start: Start<CheckLink>) -> CheckState {
        match start {
            Start::Fresh => CheckState::default(),
            Start::Saved(link) => CheckState::from_link(link),
            Start::Link { link, saved } => {
                let mut state = CheckState::from_link(link);
                if let Some(saved) = saved.filter(CheckLink::is_work) {
                    state.keep_for_undo(saved, "Opened the link");
                }
                state
            }
            Start::BrokenLink { error, saved } => CheckState {
                notice: Some(Notice::from(&error)),
                ..saved.map(CheckState::from_link).unwrap_or_default()
            },
            Start::BrokenSaved(error) => CheckState {
                notice: Some(
                    Notice::warning(
                        "Your saved patch could not be read, so this is the first example.",
                    )
                    .with_detail(Some(&error.to_string())),
                ),
                ..CheckState::default()
            },
        }
    }

    /// The link of this state.
    pub fn link(&self) -> CheckLink {
        CheckLink {
            patch: Rc::clone(&self.patch),
            object: Rc::clone(&self.object),
            semantics: self.semantics,
            example: self.example.clone(),
            fix: self.fix.clone(),
        }
    }

    /// True when the findings are not those of the current texts.
    pub fn stale(&self) -> bool {
        self.checked.rev != self.rev
    }

    /// Total bytes in the editors.
    pub fn text_bytes(&self) -> usize {
        self.patch.len() + self.object.len()
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
        let key = self.fix.as_ref()?;
        let patch = self.checked.ok()?;
        let finding = patch.report.findings.iter().find(|f| key.names(f))?;
        let fix = finding.fix.as_ref()?;
        Some(Comparison::new(patch, finding, fix))
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
        if self.stale() {
            self.checked = Rc::new(Checked::run(
                &self.patch,
                &self.object,
                self.semantics,
                self.rev,
            ));
        }
    }

    fn edited(&mut self) {
        self.rev += 1;
    }

    /// Replaces the content with `link`, keeping the current one for an
    /// undo when it is work (or always, with `keep`).
    fn load(&mut self, link: CheckLink, what: &str, keep: bool) {
        let previous = self.link();
        let keep = (keep || previous.is_work()) && previous != link;
        self.notice = None;
        self.undo = None;
        self.patch = link.patch;
        self.object = link.object;
        self.semantics = link.semantics;
        self.example = link.example;
        self.fix = link.fix;
        self.edited();
        self.check();
        if keep {
            self.keep_for_undo(previous, what);
        }
    }

    /// Keeps `link` as what Undo brings back, and says so.
    fn keep_for_undo(&mut self, link: CheckLink, what: &str) {
        self.undo = Some(Rc::new(Snapshot { link }));
        self.notice = Some(
            Notice::info(format!(
                "{what}. What the editors held before is kept: Undo brings it back."
            ))
            .with_undo("Undo"),
        );
    }

    /// The next state; a pure function of the state and the action.
    pub fn reduce(&self, action: CheckAction) -> CheckState {
        let mut next = self.clone();
        match action {
            CheckAction::EditPatch(text) => {
                next.patch = Rc::from(text);
                next.edited();
            }
            CheckAction::EditObject(text) => {
                next.object = Rc::from(text);
                next.edited();
            }
            CheckAction::SetSemantics(semantics) => {
                if semantics != next.semantics {
                    next.semantics = semantics;
                    next.edited();
                    next.check();
                }
            }
            CheckAction::Check => next.check(),
            CheckAction::LoadExample(id) => match CheckLink::example(&id) {
                Some(link) => {
                    let title = example(&id).map(|e| e.title.as_str()).unwrap_or_default();
                    next.load(link, &format!("Loaded the example “{title}”"), false);
                }
                None => next.notice = Some(Notice::error(format!("There is no example {id:?}."))),
            },
            CheckAction::OpenLink(link) => next.load(link, "Opened the link", false),
            CheckAction::Clear => {
                let blank = CheckLink {
                    patch: empty(),
                    object: empty(),
                    semantics: next.semantics,
                    example: None,
                    fix: None,
                };
                next.load(blank, "Cleared the editors", false);
            }
            CheckAction::ShowFix(key) => next.fix = Some(key),
            CheckAction::ShowFirstFix => match next.first_fix() {
                Some(key) => next.fix = Some(key),
                None => {
                    next.notice = Some(Notice::info("No finding here comes with a fix to use."))
                }
            },
            CheckAction::HideFix => next.fix = None,
            CheckAction::AdoptFix => {
                if let Some(comparison) = next.comparison() {
                    let fixed = comparison.finding.fix.as_ref().map(fix_text);
                    if let Some(fixed) = fixed {
                        let link = CheckLink {
                            patch: Rc::from(fixed),
                            fix: None,
                            ..next.link()
                        };
                        let what = format!(
                            "The patch editor now holds the fix for {}",
                            comparison.finding.rule
                        );
                        next.load(link, &what, true);
                    }
                }
            }
            CheckAction::Undo => {
                if let Some(snapshot) = next.undo.take() {
                    next.load(
                        snapshot.link.clone(),
                        "Brought back what the editors held",
                        false,
                    );
                }
            }
            CheckAction::Notify(notice) => next.notice = Some(notice),
            CheckAction::DismissNotice => next.notice = None,
        }
        next
    }
}

impl crate::app::link::ViewState for CheckState {
    type Link = CheckLink;
    type Action = CheckAction;

    fn start(start: Start<CheckLink>) -> Self {
        CheckState::start(start)
    }

    fn link(&self) -> CheckLink {
        CheckState::link(self)
    }

    fn open(link: CheckLink) -> CheckAction {
        CheckAction::OpenLink(link)
    }

    fn notify(notice: Notice) -> CheckAction {
        CheckAction::Notify(notice)
    }
}
