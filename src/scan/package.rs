//! One Go package scanned: which of its files are read whole, the files
//! of other packages of the module its code calls into, and the world the
//! interpreter walks.

use std::collections::{BTreeMap, BTreeSet};

use super::eval::World;
use super::go::{self, GoFile};
use super::judge::{self, Judged};
use super::ScanError;

/// Reads the Go files (name and text, tests left out) of another package
/// of the module, by its import path; empty when it is not the module's.
pub type Loader<'l> = &'l (dyn Fn(&str) -> Vec<(String, String)> + Sync);

/// Most bytes of other packages read for one package's calls.
const MAX_FOREIGN_BYTES: usize = 4 * 1024 * 1024;

/// Words of a file whose functions a followed call may need: what
/// changes an object a patch carries.
const CHANGES: [&str; 6] = [
    "Finalizer",
    "OwnerRef",
    "ControllerReference",
    "Condition",
    "SetLabels",
    "Containers",
];

/// How much of a file is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Parsed, and its functions walked.
    Walked,
    /// Parsed and walked for the changes its functions make (a patch
    /// helper elsewhere sends them) and for the functions others call.
    Parsed,
    /// Only its constants and variables.
    Declared,
}

fn reading(text: &str) -> Reading {
    if go::may_patch(text) {
        Reading::Walked
    } else if CHANGES.iter().any(|w| text.contains(w)) {
        Reading::Parsed
    } else {
        Reading::Declared
    }
}

/// Scans the files of one Go package (one directory): package constants
/// and functions are shared between them; `loader` reads the packages of
/// the module their code calls.
pub fn scan(
    parser: &mut tree_sitter::Parser,
    files: &[(String, String)],
    loader: Option<Loader>,
) -> (Judged, Vec<ScanError>) {
    let mut errors = Vec::new();
    if !files.iter().any(|(_, text)| go::may_patch(text)) {
        return (Judged::default(), errors);
    }
    let readings: Vec<Reading> = files.iter().map(|(_, t)| reading(t)).collect();
    let texts: Vec<String> = files
        .iter()
        .zip(&readings)
        .map(|((_, text), r)| match r {
            Reading::Declared => go::declarations(text),
            _ => String::new(),
        })
        .collect();
    let mut own = Vec::with_capacity(files.len());
    let mut walked = Vec::with_capacity(files.len());
    for (((name, text), r), cut) in files.iter().zip(&readings).zip(&texts) {
        let id = own.len() as u32;
        let source = if *r == Reading::Declared { cut } else { text };
        match go::parse(parser, id, name, source) {
            Ok(file) => {
                own.push(file);
                walked.push(*r != Reading::Declared);
            }
            Err(err) if *r != Reading::Declared => errors.push(err),
            Err(_) => {}
        }
    }
    let foreign_texts = loader.map(|l| foreign(&own, l)).unwrap_or_default();
    let mut foreign = Vec::with_capacity(foreign_texts.len());
    for (path, name, text) in &foreign_texts {
        let id = (own.len() + foreign.len()) as u32;
        if let Ok(file) = go::parse(parser, id, name, text) {
            foreign.push((path.clone(), file));
        }
    }
    let world = World::new(&own, &walked, &foreign);
    let names: Vec<&str> = own
        .iter()
        .map(|f| f.name)
        .chain(foreign.iter().map(|(_, f)| f.name))
        .collect();
    (judge::judge(&names, &world.emits()), errors)
}

/// The files of other packages of the module that define the functions
/// `own` calls through their imports: (import path, name, text).
fn foreign(own: &[GoFile], loader: Loader) -> Vec<(String, String, String)> {
    let mut wanted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in own {
        for (alias, path) in import_paths(file) {
            let names = called(file.text, &alias);
            if !names.is_empty() {
                wanted.entry(path).or_default().extend(names);
            }
        }
    }
    let mut out = Vec::new();
    let mut bytes = 0;
    for (path, names) in wanted {
        for (name, text) in loader(&path) {
            let defines = names.iter().any(|n| {
                text.contains(&format!("func {n}(")) || text.contains(&format!("func {n}["))
            });
            if !defines || bytes + text.len() > MAX_FOREIGN_BYTES {
                continue;
            }
            bytes += text.len();
            out.push((path.clone(), name, text));
        }
    }
    out
}

/// The import paths of a file, by the name it uses for them.
fn import_paths(file: &GoFile) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for decl in go::children(file.tree.root_node()) {
        if decl.kind() != "import_declaration" {
            continue;
        }
        for spec in go::specs(decl) {
            let Some(path) = go::field(spec, "path").and_then(|p| go::string_literal(file, p))
            else {
                continue;
            };
            let alias = match go::field(spec, "name") {
                Some(name) => file.text_of(name).to_owned(),
                None => path.rsplit('/').next().unwrap_or(&path).to_owned(),
            };
            if alias != "_" && alias != "." {
                out.push((alias, path));
            }
        }
    }
    out
}

/// The names `text` calls as `alias.Name(`.
fn called(text: &str, alias: &str) -> BTreeSet<String> {
    let needle = format!("{alias}.");
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find(&needle) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + needle.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if rest[name.len()..].starts_with('(') && name.starts_with(char::is_uppercase) {
            out.insert(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_through_an_alias_are_found() {
        let text = "x := finalizers.EnsureFinalizer(ctx, c)\ny := myfinalizers.Other()\nfinalizers.Const\n";
        let names: Vec<String> = called(text, "finalizers").into_iter().collect();
        assert_eq!(names, ["EnsureFinalizer"]);
        assert!(reading("func f() { controllerutil.AddFinalizer(o, f) }") == Reading::Parsed);
        assert!(reading("x.Patch(ctx)") == Reading::Walked);
        assert!(reading("const a = 1") == Reading::Declared);
    }
}
