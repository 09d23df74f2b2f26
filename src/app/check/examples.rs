//! The bundled examples of the Check view (`www/check/*.yaml`, also read
//! by `tests/lint.rs`, which holds lint to each example's `expect` list),
//! compiled in as JSON (`www/check/examples.json`, written from the YAML
//! files by a test: `PATCHLAB_BLESS=1 cargo test --lib check::examples`)
//! with the values of the YAML texts lint reads in them, so that the
//! Check module, which has no YAML reader, shows them without asking the
//! engines (#27).

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::engine::ReadText;
use crate::apply::Semantics;
use crate::input::elsewhere::ReadTexts;

/// A finding an example promises: its rule, op index and path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The rule's kebab-case name.
    pub rule: String,
    /// The op index (`None` for the whole body).
    pub index: Option<usize>,
    /// The path.
    pub path: Option<String>,
}

/// A bundled example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// Its id (the file name).
    #[serde(skip)]
    pub id: &'static str,
    /// The menu title.
    pub title: String,
    /// What it shows.
    pub description: String,
    /// The text pasted: a JSON patch, a merge patch or a kubectl command.
    pub patch: String,
    /// The current object (YAML or JSON), if the example has one.
    #[serde(default)]
    pub object: Option<String>,
    /// The engine (kube when not given).
    #[serde(default)]
    pub semantics: Semantics,
    /// Every finding lint reports on it.
    pub expect: Vec<Expected>,
    /// The YAML texts lint reads in it, each with what it reads as (in
    /// the compiled JSON only, as `read`: `[text, ReadText]` pairs, read
    /// by hand).
    #[serde(skip)]
    pub read: Vec<(String, ReadText)>,
}

/// The examples as JSON: `[id, example]` pairs in menu order.
const COMPILED: &str = include_str!("../../../www/check/examples.json");

/// The example files, in menu order (the order of issue 17's list).
#[cfg(test)]
const FILES: [(&str, &str); 6] = [
    (
        "seed-whole-map",
        include_str!("../../../www/check/seed-whole-map.yaml"),
    ),
    (
        "unescaped-label",
        include_str!("../../../www/check/unescaped-label.yaml"),
    ),
    (
        "float-test",
        include_str!("../../../www/check/float-test.yaml"),
    ),
    (
        "finalizer-by-index",
        include_str!("../../../www/check/finalizer-by-index.yaml"),
    ),
    (
        "merge-drops-finalizer",
        include_str!("../../../www/check/merge-drops-finalizer.yaml"),
    ),
    (
        "node-labels-shared",
        include_str!("../../../www/check/node-labels-shared.yaml"),
    ),
];

/// The id of the example a first visit opens.
pub const FIRST_EXAMPLE: &str = "seed-whole-map";

/// Every bundled example, in menu order (read once; one that does not
/// read is left out, which the tests forbid).
pub fn examples() -> &'static [Example] {
    static EXAMPLES: std::sync::OnceLock<Vec<Example>> = std::sync::OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let pairs = match serde_json::from_str::<Value>(COMPILED) {
            Ok(Value::Array(pairs)) => pairs,
            _ => Vec::new(),
        };
        pairs
            .into_iter()
            .filter_map(|pair| {
                let Value::Array(mut pair) = pair else {
                    return None;
                };
                let mut value = pair.pop()?;
                let read = value.as_object_mut()?.remove("read");
                let mut example: Example = serde_json::from_value(value).ok()?;
                example.read = match read {
                    None => Vec::new(),
                    Some(Value::Array(read)) => read
                        .into_iter()
                        .map(|pair| match pair {
                            Value::Array(mut pair) if pair.len() == 2 => {
                                let read = ReadText::from_value(pair.pop()?)?;
                                Some((pair.pop()?.as_str()?.to_owned(), read))
                            }
                            _ => None,
                        })
                        .collect::<Option<_>>()?,
                    Some(_) => return None,
                };
                let id = pair.first()?.as_str()?;
                example.id = IDS.into_iter().find(|known| *known == id)?;
                Some(example)
            })
            .collect()
    })
}

/// The ids, in menu order.
const IDS: [&str; 6] = [
    "seed-whole-map",
    "unescaped-label",
    "float-test",
    "finalizer-by-index",
    "merge-drops-finalizer",
    "node-labels-shared",
];

/// What the YAML texts of every example read as.
pub(super) fn read() -> ReadTexts {
    let mut read = ReadTexts::default();
    for example in examples() {
        for (text, value) in &example.read {
            read.insert(Rc::from(text.as_str()), value.to_result());
        }
    }
    read
}

/// One example by id.
pub fn example(id: &str) -> Option<&'static Example> {
    examples().iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::app::check::{CheckLink, Checked, Texts};

    /// The compiled examples are the YAML files, with what lint's YAML
    /// texts in each read as (what the engines would answer).
    #[test]
    fn the_compiled_examples_are_the_yaml_files() {
        let examples: Vec<(&str, Value)> = crate::app::bundled::yaml_files("check", &FILES, &IDS)
            .into_iter()
            .map(|(id, value)| {
                let mut example: Example = serde_json::from_value(value)
                    .unwrap_or_else(|e| panic!("www/check/{id}.yaml: {e}"));
                let link = CheckLink::of_example(&example);
                let texts = Texts {
                    patch: &link.patch,
                    object: &link.object,
                    semantics: link.semantics,
                };
                let asked = Checked::of(&texts, 1, &Rc::default()).asked;
                example.read = (asked.unread.iter())
                    .map(|text| (text.to_string(), ReadText::of(text)))
                    .collect();
                let mut read = ReadTexts::default();
                for (text, value) in &example.read {
                    read.insert(Rc::from(text.as_str()), value.to_result());
                }
                let checked = Checked::of(&texts, 1, &Rc::new(read));
                assert!(!checked.waiting(), "{id}: every YAML text is read");
                let mut value = serde_json::to_value(&example).unwrap();
                if !example.read.is_empty() {
                    value["read"] = serde_json::to_value(&example.read).unwrap();
                }
                (id, value)
            })
            .collect();
        crate::app::bundled::shipped_compact_json_is(
            "www/check/examples.json",
            COMPILED,
            &examples,
            "the YAML files, with the values of the YAML texts lint reads in each",
            "check::examples",
        );
    }

    #[test]
    fn every_file_of_www_check_is_an_example() {
        assert_eq!(
            examples().len(),
            FILES.len(),
            "an example file does not parse"
        );
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/check");
        let on_disk = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "yaml")
            })
            .count();
        assert_eq!(on_disk, FILES.len(), "a www/check file is not in FILES");
        for e in examples() {
            assert!(e.description.ends_with('.'), "{}", e.id);
            assert!(!e.expect.is_empty(), "{}", e.id);
        }
    }
}
