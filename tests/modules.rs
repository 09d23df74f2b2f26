//! The table of builds in `src/lib.rs`'s docs, kept true: read with
//! `build.rs`'s own reader (what the `cfg(module)` and `cfg(holds)` aliases
//! come from), it must agree with `Cargo.toml`'s `[features]` and
//! `[[bin]]`s, `index.html`'s Trunk links and the files of `src/bin/`. And
//! the boot script's globals: every `patchlab...` name the playground's
//! scripts use is spelled in the Rust sources, and the other way round.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "../build.rs"]
#[allow(dead_code)]
mod build;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The strings of a TOML array (`["a", "b"]`).
fn strings(array: &str) -> Vec<String> {
    array
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// `[features]`: each feature and what it enables.
fn features(cargo: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in cargo.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[features]";
        } else if let (true, Some((name, value))) = (inside, line.split_once('=')) {
            if !line.starts_with('#') {
                out.insert(name.trim().to_owned(), strings(value));
            }
        }
    }
    out
}

/// `[[bin]]`s: name -> (path, required features).
fn bins(cargo: &str) -> BTreeMap<String, (String, Vec<String>)> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String, Vec<String>)> = None;
    for line in cargo.lines().map(str::trim).chain(["["]) {
        if line.starts_with('[') {
            if let Some((name, path, required)) = current.take() {
                out.insert(name, (path, required));
            }
            if line == "[[bin]]" {
                current = Some(Default::default());
            }
        } else if let (Some(bin), Some((key, value))) = (current.as_mut(), line.split_once('=')) {
            match key.trim() {
                "name" => bin.0 = strings(value).concat(),
                "path" => bin.1 = strings(value).concat(),
                "required-features" => bin.2 = strings(value),
                _ => {}
            }
        }
    }
    out
}

/// `index.html`'s `<link data-trunk rel="rust" ...>`: data-bin -> data-cargo-features.
fn trunk_links(html: &str) -> BTreeMap<String, Option<String>> {
    let attribute = |tag: &str, name: &str| {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..].split('"').next()?.to_owned())
    };
    html.split("<link ")
        .skip(1)
        .filter_map(|tag| tag.split('>').next())
        .filter(|tag| tag.contains("data-trunk") && tag.contains("rel=\"rust\""))
        .map(|tag| {
            let bin = attribute(tag, "data-bin")
                .unwrap_or_else(|| panic!("index.html: a Rust link without data-bin: {tag}"));
            (bin, attribute(tag, "data-cargo-features"))
        })
        .collect()
}

#[test]
fn the_table_of_builds_agrees_with_cargo_index_html_and_src_bin() {
    let table = build::table(&read("src/lib.rs"));
    let cargo = read("Cargo.toml");
    let (features, bins) = (features(&cargo), bins(&cargo));
    let links = trunk_links(&read("index.html"));
    let files: BTreeSet<String> = fs::read_dir(root().join("src/bin"))
        .expect("src/bin")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".rs").map(str::to_owned)
        })
        .collect();
    let mut wrong = Vec::new();

    let all: Vec<_> = table.iter().filter(|m| m.feature.is_none()).collect();
    let [all] = all[..] else {
        panic!(
            "src/lib.rs, table of builds: {} rows without a feature, not one (`all`)",
            all.len()
        );
    };
    let mut held = BTreeMap::<&str, Vec<&str>>::new();
    for m in table.iter().filter(|m| m.feature.is_some()) {
        if m.holds.is_empty() {
            wrong.push(format!("table: module `{}` holds no view", m.name));
        }
        for view in &m.holds {
            held.entry(view).or_default().push(&m.name);
        }
    }
    for (view, modules) in &held {
        if modules.len() > 1 {
            wrong.push(format!(
                "table: view `{view}` is held by several modules: {modules:?}"
            ));
        }
    }
    let all_holds: BTreeSet<&str> = all.holds.iter().map(String::as_str).collect();
    if all_holds != held.keys().copied().collect() {
        wrong.push(format!(
            "table: `{}` holds {all_holds:?}, the modules {:?}",
            all.name,
            held.keys().collect::<Vec<_>>()
        ));
    }

    for m in &table {
        let b = &m.binary;
        let path = format!("src/bin/{b}.rs");
        if !files.contains(b) {
            wrong.push(format!(
                "table: module `{}` is binary `{b}`, but there is no {path}",
                m.name
            ));
        }
        match (&m.feature, bins.get(b)) {
            (Some(f), None) => wrong.push(format!("Cargo.toml: no [[bin]] `{b}` (module `{}`, required-features = [\"{f}\"])", m.name)),
            (Some(f), Some((p, required))) if *p != path || *required != [f.clone()] => wrong.push(format!(
                "Cargo.toml: [[bin]] `{b}` has path {p:?} and required-features {required:?}; the table says {path} and [{f:?}]"
            )),
            (None, Some((_, required))) if !required.is_empty() => {
                wrong.push(format!("Cargo.toml: [[bin]] `{b}` requires {required:?}; the table gives it no feature"));
            }
            _ => {}
        }
        if let Some(f) = &m.feature {
            match features.get(f) {
                None => wrong.push(format!(
                    "Cargo.toml: no feature `{f}` (module `{}`)",
                    m.name
                )),
                Some(enables) if !enables.iter().any(|e| e == "partial") => {
                    wrong.push(format!(
                        "Cargo.toml: feature `{f}` does not enable `partial`"
                    ));
                }
                _ => {}
            }
        }
        match links.get(b) {
            None => wrong.push(format!(
                "index.html: no Trunk link with data-bin=\"{b}\" (module `{}`)",
                m.name
            )),
            Some(on) if on != &m.feature => wrong.push(format!(
                "index.html: data-bin=\"{b}\" has data-cargo-features {on:?}; the table says {:?}",
                m.feature
            )),
            _ => {}
        }
    }

    let binaries: BTreeSet<&String> = table.iter().map(|m| &m.binary).collect();
    let modules: BTreeSet<&String> = table.iter().filter_map(|m| m.feature.as_ref()).collect();
    for (f, enables) in &features {
        if enables.iter().any(|e| e == "partial") && !modules.contains(f) {
            wrong.push(format!(
                "Cargo.toml: feature `{f}` enables `partial` but selects no module of the table"
            ));
        }
    }
    for b in links.keys().filter(|b| !binaries.contains(b)) {
        wrong.push(format!("index.html: data-bin=\"{b}\" is not in the table"));
    }
    for b in files.iter().filter(|b| !binaries.contains(b)) {
        wrong.push(format!("src/bin/{b}.rs is not in the table"));
    }
    for (b, (_, required)) in &bins {
        if required.iter().any(|f| modules.contains(f)) && !binaries.contains(b) {
            wrong.push(format!(
                "Cargo.toml: [[bin]] `{b}` requires a module's feature but is not in the table"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "the table of builds in src/lib.rs disagrees:\n  {}",
        wrong.join("\n  ")
    );
}

/// Every `patchlab[A-Z]\w*` name in `text` (not inside a longer name).
fn globals(text: &str) -> BTreeSet<String> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let b = text.as_bytes();
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("patchlab") {
        let end = at + "patchlab".len();
        if (at > 0 && ident(b[at - 1])) || !b.get(end).is_some_and(u8::is_ascii_uppercase) {
            continue;
        }
        let len = b[end..].iter().take_while(|&&c| ident(c)).count();
        out.insert(text[at..end + len].to_owned());
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Names set or read on the page by one side only.
const RUST_ONLY: [&str; 3] = [
    // Between the wasm modules: which started in this page, how to start one again.
    "patchlabStarted",
    "patchlabRestart",
    // Between the engines' clients of two modules.
    "patchlabBroken",
];
/// Set by the boot script for the end-to-end tests.
const JS_ONLY: [&str; 1] = ["patchlabOfflineAt"];

#[test]
fn the_scripts_globals_are_spelled_in_the_rust_sources() {
    // The scripts' code, not their whole-line comments.
    let mut scripts: Vec<PathBuf> = fs::read_dir(root().join("www"))
        .expect("www")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .collect();
    assert!(
        scripts.iter().any(|p| p.ends_with("boot.js")),
        "www/boot.js is missing"
    );
    scripts.extend(["scripts/postbuild.mjs", "scripts/prerender.mjs"].map(|p| root().join(p)));
    let mut js = BTreeMap::<String, String>::new();
    for path in &scripts {
        let text = fs::read_to_string(path).expect("script");
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for name in globals(&code) {
            js.entry(name)
                .or_insert_with(|| path.strip_prefix(root()).unwrap().display().to_string());
        }
    }
    // The Rust sources' string literals that are such a name.
    let mut sources = Vec::new();
    rust_files(&root().join("src"), &mut sources);
    let mut rust = BTreeMap::<String, String>::new();
    for path in &sources {
        let text = fs::read_to_string(path).expect("source");
        for name in globals(&text) {
            if text.contains(&format!("\"{name}\"")) {
                rust.entry(name)
                    .or_insert_with(|| path.strip_prefix(root()).unwrap().display().to_string());
            }
        }
    }
    let mut wrong = Vec::new();
    for (name, file) in &js {
        if !rust.contains_key(name) && !JS_ONLY.contains(&name.as_str()) {
            wrong.push(format!(
                "{file} uses {name}, which no string constant of src/ spells"
            ));
        }
    }
    for (name, file) in &rust {
        if !js.contains_key(name) && !RUST_ONLY.contains(&name.as_str()) {
            wrong.push(format!(
                "{file} spells \"{name}\", which no script of www/ or scripts/ uses"
            ));
        }
    }
    for name in RUST_ONLY {
        if !rust.contains_key(name) || js.contains_key(name) {
            wrong.push(format!(
                "{name} is listed as the Rust sources' alone, but is not (RUST_ONLY)"
            ));
        }
    }
    for name in JS_ONLY {
        if !js.contains_key(name) || rust.contains_key(name) {
            wrong.push(format!(
                "{name} is listed as the scripts' alone, but is not (JS_ONLY)"
            ));
        }
    }
    assert!(
        rust.len() >= 5 && js.len() >= 5,
        "globals not found: {js:?} {rust:?}"
    );
    assert!(
        wrong.is_empty(),
        "the playground's globals disagree:\n  {}",
        wrong.join("\n  ")
    );
}
