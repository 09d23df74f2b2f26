//! The bundled examples of the Check view (`www/check/*.yaml`, also read
//! by `tests/lint.rs`, which holds lint to each example's `expect` list).

use serde::Deserialize;

use crate::apply::Semantics;

/// A finding an example promises: its rule, op index and path.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
}

/// The example files, in menu order (the order of issue 17's list).
pub(super) const FILES: [(&str, &str); 6] = [
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

/// Every bundled example, in menu order (parsed once).
pub fn examples() -> &'static [Example] {
    static EXAMPLES: std::sync::OnceLock<Vec<Example>> = std::sync::OnceLock::new();
    EXAMPLES.get_or_init(|| {
        crate::app::bundled::read_all(&FILES, |example: &mut Example, id| example.id = id)
    })
}

/// One example by id.
pub fn example(id: &str) -> Option<&'static Example> {
    examples().iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

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
