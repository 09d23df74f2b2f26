//! What lint reads: a JSON patch or a merge patch body (JSON or YAML), or
//! a whole `kubectl patch` command line; and the errors when it cannot.

use std::fmt;

use serde_json::Value;

use crate::gojson;
use crate::input::{self, Budget, Format, InputError};
use crate::patch::PayloadError;

pub use crate::strategy::BodyKind;

/// Where the body came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// JSON text, sent byte for byte as written.
    Json,
    /// YAML text, sent as the JSON Go encodes (what kubectl does).
    Yaml,
    /// The `-p` argument of a `kubectl patch` command line.
    Kubectl {
        /// The resource arguments (`vmi testvmi -n default`), as typed.
        target: String,
    },
}

impl Origin {
    /// `json`, `yaml` or `kubectl`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Origin::Json => "json",
            Origin::Yaml => "yaml",
            Origin::Kubectl { .. } => "kubectl",
        }
    }
}

/// A body ready to lint: its kind and the bytes the server receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// JSON patch or merge patch.
    pub kind: BodyKind,
    /// The body as the server receives it (JSON text).
    pub payload: String,
    /// Where it came from.
    pub origin: Origin,
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
                "lint reads JSON patches and merge patches, not {} bodies ({})",
                kind,
                kind.content_type()
            ),
            LintError::ObjectNotAnObject { found } => {
                write!(f, "object: expected a Kubernetes object (a JSON object), found {found}")
            }
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

/// How the body text is turned into the bytes sent.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum BodyText {
    /// A file or a pasted payload: JSON as written, YAML Go-encoded.
    File,
    /// kubectl's `-p`: apimachinery's `yaml.ToJSON` keeps text starting
    /// with `{` as it is and converts anything else (a `[` list too) from
    /// YAML, re-encoding it with Go's `encoding/json`.
    Kubectl,
}

pub(super) fn body(text: &str, budget: &Budget, how: BodyText) -> Result<Input, LintError> {
    let format = Format::detect(text);
    let value = input::parse_as(text, format, budget).map_err(LintError::Syntax)?;
    let kind = match &value {
        Value::Array(_) => BodyKind::JsonPatch,
        Value::Object(_) => BodyKind::MergePatch,
        other => {
            return Err(LintError::NotAPatch {
                found: crate::text::kind(other),
            })
        }
    };
    let as_written = match how {
        BodyText::File => format == Format::Json,
        BodyText::Kubectl => text.trim_start().starts_with('{'),
    };
    let (payload, origin) = if as_written {
        (text.to_owned(), Origin::Json)
    } else {
        (gojson::to_string(&value), Origin::Yaml)
    };
    Ok(Input {
        kind,
        payload,
        origin,
    })
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
