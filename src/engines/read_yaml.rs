//! Race's timeline editor: texts read as YAML (the writers' intents and
//! field overrides), each on its own, within lint's budget (the Race
//! module carries no YAML reader).

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Caches, Never, Question};
use crate::input::{self, Format, InputError};

/// Read these texts as YAML.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadYaml {
    /// The texts, each read on its own.
    pub texts: Vec<Rc<str>>,
}

/// What a text reads as.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReadText {
    /// Its value.
    Value(Value),
    /// Why it is not YAML, and where.
    Error(InputError),
}

impl ReadText {
    /// Reads `text` as YAML, within lint's budget.
    pub fn of(text: &str) -> ReadText {
        match input::parse_as(text, Format::Yaml, &crate::lint::budget()) {
            Ok(value) => ReadText::Value(value),
            Err(error) => ReadText::Error(error),
        }
    }
}

impl Question for ReadYaml {
    const NAME: &'static str = "read_yaml";
    const READ_THROUGH_VALUE: bool = true;
    /// The view's count of texts typed.
    type Rev = usize;
    /// Each text's reading, in the order asked.
    type Answer = Vec<ReadText>;
    type Refusal = Never;

    fn bytes(&self) -> usize {
        self.texts.iter().map(|t| t.len()).sum()
    }

    fn answer(self, _: &mut Caches) -> Result<Vec<ReadText>, Never> {
        Ok(self.texts.iter().map(|text| ReadText::of(text)).collect())
    }
}
