//! The bundled examples of the Check view (`www/check/*.yaml`, also read
//! by `tests/lint.rs`, which holds lint to each example's `expect` list),
//! compiled in as JSON (`www/check/examples.json`, written from the YAML
//! files by a test: `PATCHLAB_BLESS=1 cargo test --lib check::examples`)
//! with what the engines' lint answers about each, so that the Check
//! module, which has no linter, shows them without fetching the engines.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::apply::Semantics;
use crate::engines::check::{Check, Checked};

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
    /// What the engines' lint answers about it, as bundled (in the
    /// compiled JSON only, as `checked`; read when the example is shown).
    #[serde(skip)]
    pub checked: Option<Value>,
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
                let checked = value.as_object_mut()?.remove("checked")?;
                let mut example: Example = serde_json::from_value(value).ok()?;
                example.checked = Some(checked);
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

/// The bundled answer to `request`, when it asks about an example's
/// texts as bundled.
pub(super) fn answered(request: &Check) -> Option<Checked> {
    examples()
        .iter()
        .find(|e| {
            *e.patch == *request.patch
                && e.object.as_deref().unwrap_or_default() == &*request.object
                && e.semantics == request.semantics
        })
        .and_then(|e| serde_json::from_value::<Checked>(e.checked.clone()?).ok())
}

/// One example by id.
pub fn example(id: &str) -> Option<&'static Example> {
    examples().iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::rc::Rc;

    use crate::app::check::CheckLink;

    /// The compiled examples are the YAML files, each with what the
    /// engines' lint answers about it.
    #[test]
    fn the_compiled_examples_are_the_yaml_files() {
        let examples: Vec<(&str, Value)> = crate::app::bundled::yaml_files("check", &FILES, &IDS)
            .into_iter()
            .map(|(id, value)| {
                let example: Example = serde_json::from_value(value)
                    .unwrap_or_else(|e| panic!("www/check/{id}.yaml: {e}"));
                let link = CheckLink::of_example(&example);
                let checked = Check {
                    patch: Rc::clone(&link.patch),
                    object: Rc::clone(&link.object),
                    semantics: link.semantics,
                }
                .check();
                assert!(checked.ok().is_some(), "{id}: the patch reads");
                let mut value = serde_json::to_value(&example).unwrap();
                value["checked"] = serde_json::to_value(&checked).unwrap();
                (id, value)
            })
            .collect();
        crate::app::bundled::shipped_compact_json_is(
            "www/check/examples.json",
            COMPILED,
            &examples,
            "the YAML files, with what lint answers about each",
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
