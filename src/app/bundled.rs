//! The data the playground compiles in (`www/check/`, `www/learn/`): YAML
//! files read into their types once, in menu order. (Build's examples are
//! compiled in as JSON: the page module has no YAML reader; see
//! `app::build::examples`.)

use serde::de::DeserializeOwned;

use crate::input::{self, Budget, Format};

/// Reads each `(id, YAML text)` into a `T` and gives it its id (`with_id`).
/// A file that does not read is left out; each module's tests check that
/// every file reads, with the error.
pub fn read_all<T: DeserializeOwned>(
    files: &[(&'static str, &'static str)],
    with_id: fn(&mut T, &'static str),
) -> Vec<T> {
    files
        .iter()
        .filter_map(|(id, text)| {
            let value = input::parse_as(text, Format::Yaml, &Budget::default()).ok()?;
            let mut item: T = serde_json::from_value(value).ok()?;
            with_id(&mut item, id);
            Some(item)
        })
        .collect()
}

/// Test-only: the YAML files compiled into JSON (`www/<dir>/<id>.yaml`,
/// `files`), each read as a value, after checking that their ids are
/// `ids`, in order (the order the compiled JSON is read in).
#[cfg(test)]
pub fn yaml_files(
    dir: &str,
    files: &[(&'static str, &'static str)],
    ids: &[&str],
) -> Vec<(&'static str, serde_json::Value)> {
    let found: Vec<&str> = files.iter().map(|(id, _)| *id).collect();
    assert_eq!(found, ids, "www/{dir}: the files and the compiled ids");
    files
        .iter()
        .map(|(id, text)| {
            let value = input::parse_as(text, Format::Yaml, &Budget::default())
                .unwrap_or_else(|e| panic!("www/{dir}/{id}.yaml: {e}"));
            (*id, value)
        })
        .collect()
}

/// Test-only: checks that `shipped` (a file compiled in, at `path` under
/// the crate) is `value` written as pretty JSON, or with `PATCHLAB_BLESS`
/// set writes it there first. `why` says what it is made from, and `tests`
/// which tests write it (`cargo test --lib <tests>`).
#[cfg(test)]
pub fn shipped_json_is<T: serde::Serialize>(
    path: &str,
    shipped: &str,
    value: &T,
    why: &str,
    tests: &str,
) {
    let text = serde_json::to_string_pretty(value).expect("a value writes as JSON") + "\n";
    shipped_text_is(path, shipped, &text, why, tests);
}

/// Test-only: [`shipped_json_is`] for a file compiled in as compact JSON
/// (one line: no indentation bytes in the module).
#[cfg(test)]
pub fn shipped_compact_json_is<T: serde::Serialize>(
    path: &str,
    shipped: &str,
    value: &T,
    why: &str,
    tests: &str,
) {
    let text = serde_json::to_string(value).expect("a value writes as JSON") + "\n";
    shipped_text_is(path, shipped, &text, why, tests);
}

#[cfg(test)]
fn shipped_text_is(path: &str, shipped: &str, text: &str, why: &str, tests: &str) {
    if std::env::var_os("PATCHLAB_BLESS").is_some() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    assert_eq!(
        shipped, text,
        "{path} differs from {why}: run PATCHLAB_BLESS=1 cargo test --lib {tests}"
    );
}
