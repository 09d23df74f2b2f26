//! The bundled examples of the Build view (`www/examples/*.yaml`),
//! compiled in as JSON (`www/examples/examples.json`, and their claims in
//! `www/examples/claims.json`, both written from the YAML files by a test:
//! `PATCHLAB_BLESS=1 cargo test --lib build::examples`), so the page module
//! reads them without a YAML reader, and without the claims, which only
//! tests read.

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
}

/// The examples as JSON: `[id, example]` pairs in menu order, without
/// their claims.
const COMPILED: &str = include_str!("../../../www/examples/examples.json");

/// Each example's claims as JSON, `[id, claims]` pairs in menu order: a
/// file of their own, read only by [`Example::claims`], which only tests
/// call, so the page module carries neither them nor their reader.
const CLAIMS: &str = include_str!("../../../www/examples/claims.json");

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
    /// What the description says the columns show, checked by a test
    /// against the engine (see `app::learn::facts::build`).
    pub fn claims(&self) -> crate::claims::Claims {
        // Written by a test from the YAML files, and read only by tests: a
        // file that does not read is a failing test, not empty claims.
        let read: Vec<(String, crate::claims::Claims)> =
            serde_json::from_str(CLAIMS).expect("www/examples/claims.json reads as claims");
        read.into_iter()
            .find(|(id, _)| id == self.id)
            .map(|(_, claims)| claims)
            .unwrap_or_default()
    }

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
        let mut examples: Vec<(&str, serde_json::Value)> = Vec::new();
        let mut claims: Vec<(&str, serde_json::Value)> = Vec::new();
        for (id, text) in FILES {
            let mut value = input::parse_as(text, Format::Yaml, &Budget::default())
                .unwrap_or_else(|e| panic!("www/examples/{id}.yaml: {e}"));
            let claimed = value
                .as_object_mut()
                .and_then(|example| example.remove("claims"))
                .unwrap_or_else(|| serde_json::json!({}));
            examples.push((id, value));
            claims.push((id, claimed));
        }
        crate::app::bundled::shipped_json_is(
            "www/examples/examples.json",
            COMPILED,
            &examples,
            "the YAML files",
            "build::examples",
        );
        crate::app::bundled::shipped_json_is(
            "www/examples/claims.json",
            CLAIMS,
            &claims,
            "the YAML files' claims",
            "build::examples",
        );
    }

    #[test]
    fn every_example_claims_something() {
        for e in examples() {
            assert!(!e.claims().is_empty(), "{} has no claims", e.id);
        }
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
