//! The bundled examples of the Build view (`www/examples/*.yaml`),
//! compiled in as JSON (`www/examples/examples.json`, written from the YAML
//! files by a test: `PATCHLAB_BLESS=1 cargo test --lib build::examples`),
//! so the page module reads them without a YAML reader.

use std::rc::Rc;

use serde::Deserialize;

use super::link::{BuildLink, Column};
use crate::input::Format;
use crate::strategy::Preset;

/// A bundled example.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// Its id (the file name).
    #[serde(skip)]
    pub id: &'static str,
    /// The menu title.
    pub title: String,
    /// What it shows.
    pub description: String,
    /// The suggested comparison.
    pub columns: Vec<Column>,
    /// The old object (YAML).
    pub old: String,
    /// The new object (YAML).
    pub new: String,
    /// What the description says the columns show, checked by a test
    /// (see `app::learn::facts::build`).
    #[serde(default)]
    pub claims: crate::claims::Claims,
}

/// The examples as JSON: `[id, example]` pairs in menu order.
const COMPILED: &str = include_str!("../../../www/examples/examples.json");

/// The ids, in menu order (as in [`FILES`]).
const IDS: [&str; 9] = [
    "migration-race",
    "finalizers",
    "last-finalizer",
    "first-finalizer",
    "migration-state",
    "annotation-keys",
    "active-pods",
    "pod-annotations",
    "html-annotations",
];

/// The sources of [`COMPILED`].
#[cfg(test)]
const FILES: [(&str, &str); 9] = [
    (
        "migration-race",
        include_str!("../../../www/examples/migration-race.yaml"),
    ),
    (
        "finalizers",
        include_str!("../../../www/examples/finalizers.yaml"),
    ),
    (
        "last-finalizer",
        include_str!("../../../www/examples/last-finalizer.yaml"),
    ),
    (
        "first-finalizer",
        include_str!("../../../www/examples/first-finalizer.yaml"),
    ),
    (
        "migration-state",
        include_str!("../../../www/examples/migration-state.yaml"),
    ),
    (
        "annotation-keys",
        include_str!("../../../www/examples/annotation-keys.yaml"),
    ),
    (
        "active-pods",
        include_str!("../../../www/examples/active-pods.yaml"),
    ),
    (
        "pod-annotations",
        include_str!("../../../www/examples/pod-annotations.yaml"),
    ),
    (
        "html-annotations",
        include_str!("../../../www/examples/html-annotations.yaml"),
    ),
];

/// The id of the example a first visit opens.
pub const FIRST_EXAMPLE: &str = "migration-race";

/// Every bundled example, in menu order (parsed once).
pub fn examples() -> &'static [Example] {
    static EXAMPLES: std::sync::OnceLock<Vec<Example>> = std::sync::OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let read: Vec<(String, Example)> = serde_json::from_str(COMPILED).unwrap_or_default();
        read.into_iter()
            .filter_map(|(id, mut example)| {
                example.id = IDS.into_iter().find(|known| *known == id)?;
                Some(example)
            })
            .collect()
    })
}

/// One example by id.
pub fn example(id: &str) -> Option<&'static Example> {
    examples().iter().find(|e| e.id == id)
}

impl Example {
    /// True when `link` holds this example as bundled (its objects and
    /// columns untouched).
    pub fn is(&self, link: &BuildLink) -> bool {
        *self.old == *link.old && *self.new == *link.new && self.columns == link.columns
    }
}

impl BuildLink {
    /// The link of a bundled example, with `presets` as its columns when
    /// given.
    pub fn example(id: &str, presets: Option<&[Preset]>) -> Option<BuildLink> {
        let example = example(id)?;
        Some(BuildLink {
            old: Rc::from(example.old.as_str()),
            new: Rc::from(example.new.as_str()),
            format: Format::Yaml,
            columns: match presets {
                Some(presets) => presets.iter().copied().map(Column::of).collect(),
                None => example.columns.clone(),
            },
            example: Some(example.id.to_owned()),
            kubernetes: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::input::{self, Budget};

    #[test]
    fn the_compiled_examples_are_the_yaml_files() {
        let ids: Vec<&str> = FILES.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, IDS);
        let read: Vec<(&str, serde_json::Value)> = FILES
            .iter()
            .map(|(id, text)| {
                let value = input::parse_as(text, Format::Yaml, &Budget::default())
                    .unwrap_or_else(|e| panic!("www/examples/{id}.yaml: {e}"));
                (*id, value)
            })
            .collect();
        crate::app::bundled::shipped_json_is(
            "www/examples/examples.json",
            COMPILED,
            &read,
            "the YAML files",
            "build::examples",
        );
    }

    #[test]
    fn every_file_is_an_example() {
        assert_eq!(
            examples().len(),
            FILES.len(),
            "an example file does not read as an example"
        );
        for e in examples() {
            assert!(e.description.ends_with('.'), "{}", e.id);
            assert!(!e.columns.is_empty(), "{}", e.id);
        }
    }
}
