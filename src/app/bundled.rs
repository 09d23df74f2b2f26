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
