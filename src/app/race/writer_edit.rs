//! The timeline editor's writer settings beyond the preset and intents:
//! what a scenario file can say of a writer, the editor can show and edit
//! (www/scenarios/README.md): per-field strategy overrides (`set`, YAML),
//! the number of attempts, `fixed`, `force`, `force-on-retry` and the
//! object it writes (`target`). A change the scenario refuses is not
//! taken, and said so (the state applies it: `RaceState::edit_writer`).
//! Also the typed texts of a writer (intents, overrides) with why one was
//! not taken.

use std::collections::BTreeMap;

use crate::input::{self, Budget, Format, InputError};
use crate::limits::WRITER_INTENTS;
use crate::sim::writer::WriterSpec;
use crate::strategy::Strategy;

/// Why a writer's intents text was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntentsError {
    /// Not YAML (with line and column).
    Syntax(InputError),
    /// YAML, but not a list of intents (serde's words).
    Shape(String),
    /// More than [`WRITER_INTENTS`].
    TooMany(usize),
}

impl std::fmt::Display for IntentsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntentsError::Syntax(e) => write!(f, "{e}"),
            IntentsError::Shape(e) => write!(f, "{e}"),
            IntentsError::TooMany(n) => {
                write!(f, "{n} intents, more than the limit of {WRITER_INTENTS}")
            }
        }
    }
}

/// A writer's intents as the user typed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntentsText {
    /// The text.
    pub text: String,
    /// Why it was not taken, if it was not.
    pub error: Option<IntentsError>,
}

/// One change of a writer's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriterEdit {
    /// The per-field overrides, as YAML (`/metadata/labels: whole-map`).
    Overrides(String),
    /// Writes attempted in all before giving up.
    Attempts(u32),
    /// A UI or command-line preset does not replace its own.
    Fixed(bool),
    /// Server-side apply: take the conflicting fields.
    Force(bool),
    /// Server-side apply: force only when retrying after a conflict.
    ForceOnRetry(bool),
    /// The object it writes (`Kind/name`; `None`: the first).
    Target(Option<String>),
}

/// The YAML text of a writer's overrides (empty when none).
pub fn overrides_text(writer: &WriterSpec) -> String {
    if writer.set.is_empty() {
        return String::new();
    }
    let value = serde_json::to_value(&writer.set).unwrap_or_default();
    input::to_yaml(&value)
}

pub(super) fn parse_overrides(text: &str) -> Result<BTreeMap<String, Strategy>, IntentsError> {
    if text.trim().is_empty() {
        return Ok(BTreeMap::new());
    }
    let value =
        input::parse_as(text, Format::Yaml, &Budget::default()).map_err(IntentsError::Syntax)?;
    serde_json::from_value(value).map_err(|e| IntentsError::Shape(e.to_string()))
}
