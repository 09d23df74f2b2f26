//! What lint reads: a JSON patch or a merge patch body (JSON or YAML), or
//! a whole `kubectl patch` command line; and the errors when it cannot.

use std::fmt;

use serde_json::Value;

use super::context::Context;
use super::hints::{self, Surprise};
use super::kinds::Resource;
use super::rules::{message, Rule};
use crate::gojson;
use crate::input::{self, Budget, Format, InputError, YamlError, YamlScalar};
use crate::patch::PayloadError;

pub use crate::strategy::BodyKind;

/// Reads the file a `--patch-file` names (the CLI passes one; the browser
/// has none).
pub type PatchFiles<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// Where the body came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// JSON text, sent byte for byte as written.
    Json,
    /// YAML text, sent as the JSON Go encodes (what kubectl does).
    Yaml,
    /// The `-p` argument (or `--patch-file`) of a `kubectl patch` command
    /// line.
    Kubectl {
        /// The kubectl verb: `patch`, or `label` and `annotate` (which
        /// send a merge patch of the keys they change).
        verb: &'static str,
        /// The resource arguments (`vmi testvmi`), as typed.
        target: String,
        /// The shell around the command, named (`a for loop`, `xargs`, `a
        /// > redirection`, `the expansion $VMI`): empty for a bare command.
        shell: Vec<String>,
    },
    /// The body of a `curl -X PATCH` command, sent as written.
    Curl {
        /// The URL it is sent to.
        url: String,
    },
}

impl Origin {
    /// `json`, `yaml` or `kubectl`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Origin::Json => "json",
            Origin::Yaml => "yaml",
            Origin::Kubectl { .. } => "kubectl",
            Origin::Curl { .. } => "curl",
        }
    }
}

/// A body ready to lint: its kind and the bytes the server receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// JSON patch, merge patch or strategic merge patch.
    pub kind: BodyKind,
    /// The body as the server receives it (JSON text).
    pub payload: String,
    /// Where it came from.
    pub origin: Origin,
    /// The resource a command names (`kubectl patch vmi ...`), with its
    /// kind when known.
    pub resource: Option<Resource>,
    /// What reading found about the text itself (a byte order mark, YAML
    /// numbers that lose digits, Go formatting): lint reports them.
    pub hints: Vec<Hint>,
    /// The text that carried the patch (a kustomization, an
    /// AdmissionReview), with its other patches: `None` for a bare patch.
    pub wrapper: Option<Box<Wrapped>>,
}

impl Input {
    /// The input a [`LintError::Judged`] stands for: no body, and the
    /// findings lint reports for it (any other error: `None`).
    pub fn judged(err: &LintError) -> Option<Input> {
        let LintError::Judged { hints, kind, .. } = err else {
            return None;
        };
        Some(Input {
            kind: *kind,
            payload: String::new(),
            origin: Origin::Json,
            resource: None,
            hints: hints.clone(),
            wrapper: None,
        })
    }

    /// True for the input of a [`LintError::Judged`]: its findings are all
    /// there is (no body was read).
    pub fn is_judged(&self) -> bool {
        self.payload.is_empty() && self.hints.iter().any(|h| h.rule.judges_whole_text())
    }

    /// Sends the body as `kind` instead of the kind read from its shape
    /// (`--type`): an object as a merge patch or a strategic merge patch,
    /// a list as a JSON patch.
    ///
    /// # Errors
    ///
    /// [`LintError::Command`] in kubectl's words when the shape and the
    /// type disagree (a list is only a JSON patch, an object never is),
    /// or when the body came from a `kubectl patch` line (its own `--type`
    /// decides); [`LintError::Unsupported`] for apply and update bodies.
    pub fn set_kind(&mut self, kind: BodyKind) -> Result<(), LintError> {
        if matches!(kind, BodyKind::Apply | BodyKind::Update) {
            return Err(LintError::Unsupported(kind));
        }
        if self.is_judged() {
            self.kind = kind;
            return Ok(());
        }
        if matches!(self.origin, Origin::Kubectl { .. }) && kind != self.kind {
            return Err(LintError::Command {
                message: format!(
                    "the kubectl line sends {} (its own --type decides), not {}",
                    self.kind.content_type(),
                    kind.content_type()
                ),
                line: None,
            });
        }
        let list = self.kind == BodyKind::JsonPatch;
        match (list, kind == BodyKind::JsonPatch) {
            (true, false) => Err(LintError::Command {
                message: "the patch is a list, which is a JSON patch: a merge or strategic merge patch is an object".to_owned(),
                line: None,
            }),
            (false, true) => Err(LintError::Command {
                message: "a JSON patch is a list of ops, and this patch is an object: the server would answer 400 error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp".to_owned(),
                line: None,
            }),
            _ => {
                self.kind = kind;
                for hint in self.hints.iter_mut().filter(|h| h.rule == Rule::ByteOrderMark) {
                    hint.message = bom_message(kind);
                }
                Ok(())
            }
        }
    }
}

/// What carried a patch, and where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapped {
    /// Where the patch is applied.
    pub context: Context,
    /// This patch's place in the text: `patches[1] (Deployment web)`,
    /// `response.patch`.
    pub label: String,
    /// The kind its target names, when it names one.
    pub kind: Option<String>,
    /// The carrier's other patches, each read (kustomizations hold many).
    pub others: Vec<Input>,
    /// The patches it names but does not hold (files), as notes.
    pub unread: Vec<Hint>,
}

/// A finding made while reading the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The rule.
    pub rule: Rule,
    /// What and where.
    pub message: String,
}

/// Why lint could not read its input. Every variant says where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LintError {
    /// The patch text is not JSON or YAML, too big or too deep (line and
    /// column inside the patch text).
    Syntax(InputError),
    /// JSON, but not a patch: not an array of op objects, or not an object
    /// for a merge patch (with the op index when about one element).
    Payload(PayloadError),
    /// Neither a list of ops nor an object.
    NotAPatch {
        /// What was found: `a string`, `a number`, ...
        found: &'static str,
    },
    /// A command line lint cannot use (1-based line of the command text
    /// where the problem is, when known).
    Command {
        /// What is wrong.
        message: String,
        /// 1-based line of the command text.
        line: Option<usize>,
    },
    /// The current object could not be read.
    Object(InputError),
    /// A body kind lint does not read (server-side apply, Update).
    Unsupported(BodyKind),
    /// The current object is not a JSON object.
    ObjectNotAnObject {
        /// What was found.
        found: &'static str,
    },
    /// Not an error for the faces that lint: the text reads, and its
    /// findings say all lint can say of it (the shell, kubectl or the
    /// server refuses it as written, or its body is a value the script
    /// sets elsewhere). [`Input::judged`] makes it an input whose report
    /// is those findings; faces that need the body (explain) show it as
    /// an error.
    Judged {
        /// The findings, worst first.
        hints: Vec<Hint>,
        /// 1-based line of the text, when known.
        line: Option<usize>,
        /// 1-based column of that line, when known.
        column: Option<usize>,
        /// The body kind the text is sent as (its `--type`), or its shape.
        kind: BodyKind,
    },
}

impl LintError {
    /// The 1-based line and column, when known.
    pub fn location(&self) -> (Option<usize>, Option<usize>) {
        match self {
            LintError::Syntax(err) | LintError::Object(err) => (err.line, err.column),
            LintError::Payload(PayloadError::Syntax { line, column, .. }) => {
                (Some(*line), Some(*column))
            }
            LintError::Command { line, .. } => (*line, None),
            LintError::Judged { line, column, .. } => (*line, *column),
            _ => (None, None),
        }
    }

    /// The op index, for an error about one element of a patch.
    pub fn index(&self) -> Option<usize> {
        match self {
            LintError::Payload(err) => err.index(),
            _ => None,
        }
    }
}

impl fmt::Display for LintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LintError::Syntax(err) => write!(f, "patch: {err}"),
            LintError::Payload(err) => write!(f, "patch: {err}"),
            LintError::NotAPatch { found } => write!(
                f,
                "patch: expected a JSON patch (a list of ops) or a merge patch (an object), found {found}"
            ),
            LintError::Command { message, line } => match line {
                Some(line) => write!(f, "command, line {line}: {message}"),
                None => write!(f, "command: {message}"),
            },
            LintError::Object(err) => write!(f, "object: {err}"),
            LintError::Unsupported(kind) => write!(
                f,
                "lint reads JSON patches, merge patches and strategic merge patches, not {} bodies ({})",
                kind,
                kind.content_type()
            ),
            LintError::ObjectNotAnObject { found } => {
                write!(f, "object: expected a Kubernetes object (a JSON object), found {found}")
            }
            // The findings say what they are about.
            LintError::Judged { .. } => f.write_str(&self.judged_text()),
        }
    }
}

impl LintError {
    /// A [`LintError::Judged`]'s findings in one text (empty for the
    /// other variants).
    pub fn judged_text(&self) -> String {
        match self {
            LintError::Judged { hints, .. } => {
                let messages: Vec<&str> = hints.iter().map(|h| h.message.as_str()).collect();
                messages.join("; ")
            }
            _ => String::new(),
        }
    }
}

impl std::error::Error for LintError {}

/// The budget lint reads within: big enough to see a body over the
/// server's 3 MiB limit and say so.
pub fn budget() -> Budget {
    Budget {
        max_bytes: 16 * 1024 * 1024,
        max_depth: crate::limits::DEPTH,
    }
}

/// True when `value` holds a strategic-merge-patch directive key at any
/// depth.
pub(super) fn has_directive(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    if is_directive(key) {
                        return true;
                    }
                    stack.push(child);
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

/// `$patch`, `$retainKeys`, `$setElementOrder/<list>`,
/// `$deleteFromPrimitiveList/<list>` (apimachinery
/// `pkg/util/strategicpatch/patch.go`).
pub(super) fn is_directive(key: &str) -> bool {
    key == "$patch"
        || key == "$retainKeys"
        || key.starts_with("$setElementOrder/")
        || key.starts_with("$deleteFromPrimitiveList/")
}

/// Reads a patch body from a file or a paste: a JSON patch (a list), a
/// merge patch (an object) or a strategic merge patch (an object with
/// directives), with the hints reading it gave (a byte order mark, YAML
/// numbers and booleans, Go's `%v`). JSON is sent as written; YAML as the
/// JSON kubectl's reader makes of it.
pub(super) fn body(text: &str, budget: &Budget) -> Result<Input, LintError> {
    let mut hints = Vec::new();
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            let message = bom_message(BodyKind::JsonPatch);
            hints.push(Hint {
                rule: Rule::ByteOrderMark,
                message,
            });
            rest
        }
        None => text,
    };
    if hints::looks_go_formatted(text) {
        return Ok(go_formatted(text, hints));
    }
    match Format::detect(text) {
        Format::Json => {
            let value = input::parse_as(text, Format::Json, budget)
                .map_err(|err| undecodable(text, shape_of(text), err))?;
            input_of(value, text.to_owned(), Origin::Json, hints, &[])
        }
        Format::Yaml => {
            let read = input::read_yaml(text, budget).map_err(|e| LintError::Syntax(e.error))?;
            let payload = gojson::to_string(&read.value);
            input_of(read.value, payload, Origin::Yaml, hints, &read.scalars)
        }
    }
}

/// The kind a body that cannot be read is sent as, from its first
/// character: a list is a JSON patch, anything else a merge patch.
pub(super) fn shape_of(text: &str) -> BodyKind {
    match text.trim_start().starts_with('[') {
        true => BodyKind::JsonPatch,
        false => BodyKind::MergePatch,
    }
}

/// The server's 400 answer to a `kind` body it cannot decode: Go's
/// decoder text, after `error decoding patch: ` for JSON and merge patches
/// (`applyJSPatch`), as it is for a strategic merge patch
/// (`strategicPatchObject`; k8s.io/apiserver
/// `pkg/endpoints/handlers/patch.go`). `None` when Go decodes it.
pub(super) fn server_answer(kind: BodyKind, payload: &str) -> Option<String> {
    let decoded = match kind {
        BodyKind::JsonPatch => gojson::check_json_patch(payload),
        _ => gojson::check_merge_patch(payload),
    };
    let err = decoded.err()?;
    let prefix = match kind {
        BodyKind::StrategicMergePatch => String::new(),
        _ => message!(ByteOrderMark "prefix"),
    };
    Some(format!("{prefix}{err}"))
}

/// A JSON text lint could not read, sent as a `kind` body: when Go's
/// decoder refuses it too, the server's 400 as the finding
/// ([`LintError::Judged`]); otherwise (a budget) the error as it is.
pub(super) fn undecodable(text: &str, kind: BodyKind, err: InputError) -> LintError {
    let Some(answer) =
        server_answer(kind, text).filter(|_| gojson::check_valid(text.as_bytes()).is_err())
    else {
        return LintError::Syntax(err);
    };
    // serde says column 0 for the end of input after a line break: the
    // line before ends there.
    let place = match (err.line, err.column) {
        (Some(line), Some(0)) if line > 1 => {
            let (line, column) = (
                line - 1,
                text.lines()
                    .nth(line - 2)
                    .map_or(1, |l| l.chars().count() + 1),
            );
            message!(UndecodableBody "place", line, column)
        }
        (Some(line), Some(column)) => message!(UndecodableBody "place", line, column),
        _ => String::new(),
    };
    let content = kind.content_type();
    LintError::Judged {
        hints: vec![Hint {
            rule: Rule::UndecodableBody,
            message: message!(UndecodableBody "body", content, place, answer),
        }],
        line: err.line,
        column: err.column,
        kind,
    }
}

/// Why kubectl cannot send a `-p` text: lint cannot read it, or
/// kubectl's YAML reader refuses it (with kubectl's words).
pub(super) enum Refusal {
    Lint(LintError),
    Yaml(YamlError),
}

/// What `kubectl patch` sends for its `-p` (or `--patch-file`) text:
/// apimachinery's `yaml.ToJSON` keeps a text that starts with `{` (after
/// white space) as it is, and converts any other, a byte order mark or a
/// JSON list included, from YAML (sigs.k8s.io/yaml's `YAMLToJSON`).
///
/// # Errors
///
/// [`YamlError`] with kubectl's words when its YAML reader refuses the
/// text.
pub fn kubectl_sends(text: &str, budget: &Budget) -> Result<String, YamlError> {
    if has_json_prefix(text) {
        return Ok(text.to_owned());
    }
    input::yaml_to_json(text, budget).map(|read| gojson::to_string(&read.value))
}

/// apimachinery's `hasJSONPrefix`: `{` after Unicode white space.
fn has_json_prefix(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// A `kubectl patch` body: the bytes kubectl sends, read.
pub(super) fn kubectl_body(text: &str, budget: &Budget) -> Result<Input, Refusal> {
    if hints::looks_go_formatted(text) {
        return Ok(go_formatted(text, Vec::new()));
    }
    if has_json_prefix(text) {
        let value = input::parse_as(text, Format::Json, budget)
            .map_err(|e| Refusal::Lint(LintError::Syntax(e)))?;
        return input_of(value, text.to_owned(), Origin::Json, Vec::new(), &[])
            .map_err(Refusal::Lint);
    }
    let read = input::yaml_to_json(text, budget).map_err(Refusal::Yaml)?;
    let payload = gojson::to_string(&read.value);
    input_of(read.value, payload, Origin::Yaml, Vec::new(), &read.scalars).map_err(Refusal::Lint)
}

/// The body's kind from its shape, and the hints about it.
fn input_of(
    value: Value,
    payload: String,
    origin: Origin,
    mut hints: Vec<Hint>,
    scalars: &[YamlScalar],
) -> Result<Input, LintError> {
    let kind = match &value {
        Value::Array(_) => BodyKind::JsonPatch,
        Value::Object(_) if has_directive(&value) => BodyKind::StrategicMergePatch,
        Value::Object(_) => BodyKind::MergePatch,
        other => {
            return Err(LintError::NotAPatch {
                found: crate::text::kind(other),
            })
        }
    };
    for hint in hints.iter_mut().filter(|h| h.rule == Rule::ByteOrderMark) {
        hint.message = bom_message(kind);
    }
    hints.extend(scalars.iter().filter_map(yaml_hint));
    Ok(Input {
        kind,
        payload,
        origin,
        resource: None,
        hints,
        wrapper: None,
    })
}

/// The hint about a plain YAML scalar kubectl reads as something its
/// writer may not mean.
fn yaml_hint(scalar: &YamlScalar) -> Option<Hint> {
    let (line, written, sent) = (scalar.line, &scalar.written, &scalar.sent);
    let (rule, message) = match hints::yaml_surprise(scalar)? {
        Surprise::Number => (
            Rule::YamlNumber,
            message!(YamlNumber "number", line, written, sent),
        ),
        Surprise::Boolean if scalar.key => (
            Rule::YamlBoolean,
            message!(YamlBoolean "key", line, written, sent),
        ),
        Surprise::Boolean => (
            Rule::YamlBoolean,
            message!(YamlBoolean "value", line, written, sent),
        ),
    };
    Some(Hint { rule, message })
}

/// What the server answers a body that starts with a byte order mark: the
/// decoder's text, after `error decoding patch:` for JSON and merge
/// patches (`applyJSPatch`), as it is for a strategic merge patch
/// (`strategicPatchObject`; k8s.io/apiserver `pkg/endpoints/handlers/patch.go`).
fn bom_message(kind: BodyKind) -> String {
    let prefix = match kind {
        BodyKind::StrategicMergePatch => String::new(),
        _ => message!(ByteOrderMark "prefix"),
    };
    message!(ByteOrderMark "body", prefix)
}

/// A body that is Go's `fmt` output: the text as sent, with the hint.
fn go_formatted(text: &str, mut hints: Vec<Hint>) -> Input {
    hints.push(Hint {
        rule: Rule::GoFormattedBody,
        message: message!(GoFormattedBody "body"),
    });
    Input {
        kind: BodyKind::JsonPatch,
        payload: text.to_owned(),
        origin: Origin::Json,
        resource: None,
        hints,
        wrapper: None,
    }
}

/// Reads the current object (JSON or YAML).
///
/// # Errors
///
/// [`LintError::Object`] or [`LintError::ObjectNotAnObject`].
pub fn read_object(text: &str, budget: &Budget) -> Result<Value, LintError> {
    let (value, _) = input::parse(text, budget).map_err(LintError::Object)?;
    if !value.is_object() {
        return Err(LintError::ObjectNotAnObject {
            found: crate::text::kind(&value),
        });
    }
    Ok(value)
}
