//! The compiled-in tables per Kubernetes release: each table text holds
//! the newest release's table, then one section per older release with
//! what that release has otherwise than the release after it
//! (`scripts/schemas.py` writes them from each release's OpenAPI
//! definitions). A release's table is the next newer one's with its
//! section applied, built on first use and kept; the types it does not
//! change are shared with that table.
//!
//! A section, after its `%1.X` line:
//!
//! ```text
//! ->Kind apiVersion                 a kind the release does not serve
//! >Kind apiVersion ...              a kind it serves (a kind line)
//! =Type [m=...]                     a type it has otherwise (or only it has); then:
//! -name                             a field the type does not have
//! +name type ...                    a field it has, or has otherwise
//! -=Type                            a type it does not have
//! -!apiVersion Kind ...             built-in kinds kubectl knows that it serves
//! !apiVersion Kind ...              built-in kinds kubectl knows that it does not serve
//! ```
//!
//! The generator writes no `-=`: a type a release lacks stays in its
//! table, reached by no kind, and a section that gives it back changes it
//! from the last definition the sections gave it (fewer lines).
//!
//! ```
//! use patchlab::kube::KubeVersion;
//! use patchlab::schema;
//!
//! let v = |s: &str| s.parse::<KubeVersion>().unwrap();
//! let pod_spec = |release| schema::for_release(release).struct_named("PodSpec").unwrap();
//! assert!(pod_spec(v("1.36")).field("schedulingGroup").is_some());
//! assert!(pod_spec(v("1.32")).field("schedulingGroup").is_none());
//! assert!(schema::for_release(v("1.25")).kind("autoscaling/v2beta2", "HorizontalPodAutoscaler").is_some());
//! assert!(schema::for_release(v("1.26")).kind("autoscaling/v2beta2", "HorizontalPodAutoscaler").is_none());
//! ```

use std::sync::{Arc, OnceLock};

use super::table::{err, type_attributes, Struct, Table, TableError};
use super::BUILTIN_TABLES;
use crate::kube::KubeVersion;

/// How many minor releases are modelled.
const RELEASES: usize = (KubeVersion::NEWEST_MINOR - KubeVersion::OLDEST_MINOR + 1) as usize;

/// The compiled-in tables of a Kubernetes release: its built-in kinds at
/// the group versions it serves, with its fields. Built on first use (the
/// newest in about a millisecond, each older one from the one after it)
/// and kept.
pub fn for_release(version: KubeVersion) -> &'static Table {
    static TABLES: [OnceLock<Table>; RELEASES] = [const { OnceLock::new() }; RELEASES];
    let minor = version.minor();
    let index = usize::from(minor - KubeVersion::OLDEST_MINOR);
    TABLES[index].get_or_init(|| {
        let mut table = if minor == KubeVersion::NEWEST_MINOR {
            newest()
        } else {
            for_release(release(minor + 1)).clone()
        };
        for (_, text) in BUILTIN_TABLES {
            // The tables are checked by the tests: a bad section is left
            // out rather than taking the program down.
            let _ = table.apply_release(text, minor);
        }
        table.release = Some(release(minor));
        table
    })
}

fn release(minor: u16) -> KubeVersion {
    KubeVersion::new(minor, None).unwrap_or_default()
}

/// The newest release's tables, read from the compiled-in texts.
fn newest() -> Table {
    let mut table = Table::default();
    for (_, text) in BUILTIN_TABLES {
        let _ = table.extend(text);
    }
    table
}

/// The lines of a text's section for a release (`%1.X`), with their
/// 0-based line numbers in the text.
pub(crate) fn section(text: &str, minor: u16) -> Vec<(usize, &str)> {
    let head = format!("%1.{minor}");
    text.lines()
        .enumerate()
        .skip_while(|(_, line)| line.trim_end() != head)
        .skip(1)
        .take_while(|(_, line)| !line.starts_with('%'))
        .map(|(i, line)| (i, line.trim_end()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// The releases a text has sections for, newest first.
#[cfg(test)]
pub(crate) fn sections(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| line.strip_prefix("%1."))
}

impl Table {
    /// Applies a text's section for the release `1.minor` (none: no
    /// change). On error the table is unchanged.
    ///
    /// # Errors
    ///
    /// [`TableError`] with the line of the first problem.
    pub fn apply_release(&mut self, text: &str, minor: u16) -> Result<(), TableError> {
        let lines = section(text, minor);
        if lines.is_empty() {
            return Ok(());
        }
        let mut next = self.clone();
        next.declare_changed(&lines)?;
        next.apply_lines(&lines)?;
        *self = next;
        Ok(())
    }

    /// Declares the types a section names that the table lacks, so that
    /// fields may name them.
    fn declare_changed(&mut self, lines: &[(usize, &str)]) -> Result<(), TableError> {
        for &(i, line) in lines {
            let Some(rest) = line.strip_prefix('=') else {
                continue;
            };
            let mut parts = rest.split_ascii_whitespace();
            let name = parts.next().unwrap_or_default();
            if name.is_empty() {
                return Err(err(i, "a type without a name"));
            }
            if !self.by_name.contains_key(name) {
                let (map_type, opaque) = type_attributes(parts.next(), i)?;
                self.push_struct(Struct {
                    name: name.into(),
                    map_type,
                    opaque,
                    fields: Vec::new(),
                });
            }
        }
        Ok(())
    }

    fn apply_lines(&mut self, lines: &[(usize, &str)]) -> Result<(), TableError> {
        let mut current: Option<u32> = None;
        for &(i, line) in lines {
            if let Some(rest) = line.strip_prefix("->") {
                let (kind, api_version) = rest.split_once(' ').unwrap_or((rest, ""));
                let before = self.kinds.len();
                self.kinds
                    .retain(|k| !(*k.kind == *kind && *k.api_version == *api_version));
                if self.kinds.len() == before {
                    return Err(err(i, format!("no kind {kind} {api_version} to remove")));
                }
            } else if let Some(name) = line.strip_prefix("-=") {
                if self.by_name.remove(name).is_none() {
                    return Err(err(i, format!("no type {name} to remove")));
                }
            } else if let Some(rest) = line.strip_prefix("-!") {
                self.unserved_line(rest, false);
            } else if let Some(rest) = line.strip_prefix('!') {
                self.unserved_line(rest, true);
            } else if let Some(rest) = line.strip_prefix('>') {
                self.kind_line(rest, i, false)?;
            } else if let Some(rest) = line.strip_prefix('=') {
                current = Some(self.retype(rest, i)?);
            } else {
                let index = current.ok_or_else(|| err(i, "a field change outside a type"))?;
                self.change_field(index, line, i)?;
            }
        }
        Ok(())
    }

    /// A `=Type [m=...]` line of a section: the type's index, with its
    /// attribute set as the line gives it.
    fn retype(&mut self, rest: &str, i: usize) -> Result<u32, TableError> {
        let mut parts = rest.split_ascii_whitespace();
        let name = parts.next().unwrap_or_default();
        let index = self.by_name[name];
        let (map_type, opaque) = type_attributes(parts.next(), i)?;
        let s = &mut self.structs[index as usize];
        if (s.map_type, s.opaque) != (map_type, opaque) {
            let s = Arc::make_mut(s);
            (s.map_type, s.opaque) = (map_type, opaque);
        }
        Ok(index)
    }

    /// A `-name` or `+field line` of a section, in the type at `index`.
    fn change_field(&mut self, index: u32, line: &str, i: usize) -> Result<(), TableError> {
        if let Some(name) = line.strip_prefix('-') {
            let s = Arc::make_mut(&mut self.structs[index as usize]);
            if !s.remove(name) {
                return Err(err(
                    i,
                    format!("type {}: no field {name} to remove", s.name),
                ));
            }
        } else if let Some(field) = line.strip_prefix('+') {
            let field = self.field(field, i)?;
            Arc::make_mut(&mut self.structs[index as usize]).put(field);
        } else {
            return Err(err(i, format!("not a change: {line:?}")));
        }
        Ok(())
    }
}
