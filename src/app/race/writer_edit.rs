//! The timeline editor's writer settings beyond the preset and intents:
//! what a scenario file can say of a writer, the editor can show and edit
//! (www/scenarios/README.md): per-field strategy overrides (`set`, YAML),
//! the number of attempts, `fixed`, `force`, `force-on-retry` and the
//! object it writes (`target`). A change the scenario refuses is not
//! taken, and said so (the state applies it: `RaceState::edit_writer`).
//! Also the typed texts of a writer (intents, overrides) with why one was
//! not taken.
//!
//! The texts are YAML, read by the engines' module (the Race module
//! carries no YAML reader): a typed text waits for its
//! reading ([`IntentsText::reading`]), and what it reads as is then taken
//! or refused like any edit.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;

use crate::engines::read_yaml::ReadText;
use crate::engines::{Failure, Never};
use crate::input::{self, InputError};
use crate::limits::WRITER_INTENTS;
use crate::sim::writer::{Intent, WriterSpec};
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
    /// Not read: the engines, which read YAML, are unavailable (why).
    Unread(String),
}

impl std::fmt::Display for IntentsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntentsError::Syntax(e) => write!(f, "{e}"),
            IntentsError::Shape(e) => write!(f, "{e}"),
            IntentsError::TooMany(n) => {
                write!(f, "{n} intents, more than the limit of {WRITER_INTENTS}")
            }
            IntentsError::Unread(why) => {
                write!(
                    f,
                    "Not read: patchlab's engines, which read YAML, are unavailable ({why})."
                )
            }
        }
    }
}

/// A writer's intents as the user typed them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntentsText {
    /// The text.
    pub text: String,
    /// Why it was not taken, if it was not.
    pub error: Option<IntentsError>,
    /// True while it waits to be read (not taken yet).
    pub reading: bool,
}

impl IntentsText {
    /// A text that is what the scenario holds.
    pub fn taken(text: String) -> IntentsText {
        IntentsText {
            text,
            ..IntentsText::default()
        }
    }

    /// A typed text waiting to be read.
    pub fn reading(text: String) -> IntentsText {
        IntentsText {
            reading: true,
            ..IntentsText::taken(text)
        }
    }

    /// A text that was not taken, and why.
    pub fn refused(text: String, error: IntentsError) -> IntentsText {
        IntentsText {
            error: Some(error),
            ..IntentsText::taken(text)
        }
    }
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

/// What a text read as (from the engines), as a `T`.
fn shaped<T: DeserializeOwned>(read: ReadText) -> Result<T, IntentsError> {
    match read {
        ReadText::Value(value) => {
            serde_json::from_value(value).map_err(|e| IntentsError::Shape(e.to_string()))
        }
        ReadText::Error(error) => Err(IntentsError::Syntax(error)),
    }
}

/// A writer's field overrides, from what their text read as.
pub(super) fn overrides_of(read: ReadText) -> Result<BTreeMap<String, Strategy>, IntentsError> {
    shaped(read)
}

/// A writer's intents, from what their text read as.
pub(super) fn intents_of(read: ReadText) -> Result<Vec<Intent>, IntentsError> {
    let intents: Vec<Intent> = shaped(read)?;
    if intents.len() > WRITER_INTENTS {
        return Err(IntentsError::TooMany(intents.len()));
    }
    Ok(intents)
}

/// What the engines answered for each of `texts`: the value or the
/// reason it has none, or, for every text, why they could not answer (a
/// text the answer has no value for is unread too, never left waiting).
pub(super) fn answers(
    texts: &[std::rc::Rc<str>],
    answer: &Result<std::rc::Rc<Vec<ReadText>>, Failure<Never>>,
) -> Vec<(std::rc::Rc<str>, Result<ReadText, IntentsError>)> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let read = match answer {
                Ok(values) => values.get(i).cloned().ok_or_else(|| {
                    IntentsError::Unread("the engines answered fewer texts than asked".into())
                }),
                Err(why) => Err(IntentsError::Unread(why.to_string())),
            };
            (text.clone(), read)
        })
        .collect()
}
