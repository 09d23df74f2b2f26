//! The timeline editor's writer settings beyond the preset and intents:
//! what a scenario file can say of a writer, the editor can show and edit
//! (www/scenarios/README.md): per-field strategy overrides (`set`, YAML),
//! the number of attempts, `fixed`, `force`, `force-on-retry` and the
//! object it writes (`target`). A change the scenario refuses is not
//! taken, and said so.

use std::collections::BTreeMap;

use super::state::{IntentsError, IntentsText, RaceState};
use crate::input::{self, Budget, Format};
use crate::sim::writer::WriterSpec;
use crate::strategy::Strategy;

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

fn parse_overrides(text: &str) -> Result<BTreeMap<String, Strategy>, IntentsError> {
    if text.trim().is_empty() {
        return Ok(BTreeMap::new());
    }
    let value =
        input::parse_as(text, Format::Yaml, &Budget::default()).map_err(IntentsError::Syntax)?;
    serde_json::from_value(value).map_err(|e| IntentsError::Shape(e.to_string()))
}

impl RaceState {
    /// Applies `edit` to writer `w`: taken when the scenario still runs,
    /// otherwise kept out with the reason (the overrides text as typed).
    pub(super) fn edit_writer(&mut self, w: usize, edit: WriterEdit) {
        let Some(before) = self.scenario.writers.get(w).cloned() else {
            return;
        };
        let mut writer = before.clone();
        let mut typed = None;
        match edit {
            WriterEdit::Overrides(text) => match parse_overrides(&text) {
                Ok(set) => {
                    writer.set = set;
                    typed = Some(text);
                }
                Err(error) => {
                    self.set_overrides_text(w, text, Some(error));
                    return;
                }
            },
            WriterEdit::Attempts(n) => writer.attempts = n.max(1),
            WriterEdit::Fixed(on) => writer.fixed = on,
            WriterEdit::Force(on) => writer.force = on,
            WriterEdit::ForceOnRetry(on) => writer.force_on_retry = on,
            WriterEdit::Target(target) => writer.target = target,
        }
        if writer == before {
            if let Some(text) = typed {
                self.set_overrides_text(w, text, None);
            }
            return;
        }
        self.scenario.writers[w] = writer;
        match self.scenario.validate() {
            Ok(()) => {
                let text = typed.unwrap_or_else(|| overrides_text(&self.scenario.writers[w]));
                self.set_overrides_text(w, text, None);
                self.edit();
            }
            Err(error) => {
                self.scenario.writers[w] = before;
                let text = typed.unwrap_or_else(|| overrides_text(&self.scenario.writers[w]));
                self.set_overrides_text(w, text, Some(IntentsError::Shape(error.to_string())));
            }
        }
    }

    fn set_overrides_text(&mut self, w: usize, text: String, error: Option<IntentsError>) {
        if self.overrides.len() < self.scenario.writers.len() {
            self.overrides.resize(
                self.scenario.writers.len(),
                IntentsText {
                    text: String::new(),
                    error: None,
                },
            );
        }
        if let Some(slot) = self.overrides.get_mut(w) {
            *slot = IntentsText { text, error };
        }
    }
}
