//! The layer table of `src/lib.rs`, kept true: every `crate::`, `super::`
//! and `self::` path of every file of the library, and every path into a
//! child module the file declares (`mod strategic;` then
//! `strategic::merge`), is an arrow from that file to the file it names; an
//! arrow that runs up a layer, or between two views, fails, and so does any
//! cycle between files. Both files are named.
//!
//! The table is read from `src/lib.rs`'s own docs, so the map and the
//! check cannot drift apart. The check runs on a set of files in memory
//! (path under `src/` -> source), read from `src/` or planted by a test.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One row of the table: a layer, its modules, what it may use.
#[derive(Debug)]
struct Row {
    /// `3`, or `7.1` (sub-layers of the UI), as written.
    layer: String,
    /// Its rank: rows are ranked in the order of the table.
    rank: usize,
    /// Module paths, `app::build` style.
    modules: Vec<String>,
    /// Ranks below this row it may use (every lower rank unless limited).
    may_use: BTreeSet<usize>,
    /// Its own modules may use each other.
    peers: bool,
}

/// Files of the library: path under `src/` (`apply/run.rs`) -> source.
type Files = BTreeMap<String, String>;

/// Arrows between files, each file named by its module path.
type Graph = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Reads the `| layer | modules | may use |` tables of a `lib.rs`.
fn table(lib: &str) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let mut pending: Vec<(String, Vec<String>, String)> = Vec::new();
    for line in lib.lines() {
        let Some(line) = line.strip_prefix("//!") else {
            continue;
        };
        let cells: Vec<&str> = line.trim().split('|').map(str::trim).collect();
        // | a | b | c |  splits into ["", a, b, c, ""].
        if cells.len() != 5 || !cells[0].is_empty() || !cells[4].is_empty() {
            continue;
        }
        let (layer, modules, may) = (cells[1], cells[2], cells[3]);
        if !layer.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let number = layer.split_whitespace().next().unwrap_or(layer).to_owned();
        let modules = modules
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect::<Vec<_>>();
        pending.push((number, modules, may.to_owned()));
    }
    let numbers: Vec<String> = pending.iter().map(|(n, _, _)| n.clone()).collect();
    for (rank, (layer, modules, may)) in pending.into_iter().enumerate() {
        let mut may_use = BTreeSet::new();
        let mut peers = false;
        for part in may.split(',').map(str::trim) {
            if part == "own layer" {
                peers = true;
            } else if part == "nothing" || part.is_empty() {
            } else if let Some((from, to)) = part.split_once('-') {
                let a = numbers.iter().position(|n| n == from.trim());
                let b = numbers.iter().position(|n| n == to.trim());
                let (Some(a), Some(b)) = (a, b) else {
                    panic!("src/lib.rs layer table: row {layer}: unknown range {part:?}");
                };
                may_use.extend(a..=b);
            } else {
                let Some(r) = numbers.iter().position(|n| n == part) else {
                    panic!("src/lib.rs layer table: row {layer}: unknown layer {part:?}");
                };
                may_use.insert(r);
            }
        }
        assert!(
            may_use.iter().all(|&r| r < rank),
            "src/lib.rs layer table: row {layer} may use a layer above it"
        );
        rows.push(Row {
            layer,
            rank,
            modules,
            may_use,
            peers,
        });
    }
    rows
}

/// Every `.rs` file of the library (the binaries' `main.rs`, `cli.rs`,
/// `cli/` and `bin/` use the library by its name, not by `crate::`).
fn src_files() -> Files {
    let mut out = Files::new();
    let mut stack = vec![src()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            let rel = path.strip_prefix(src()).expect("under src").to_path_buf();
            if path.is_dir() {
                if rel != Path::new("cli") && rel != Path::new("bin") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs")
                && rel != Path::new("main.rs")
                && rel != Path::new("cli.rs")
            {
                let text = fs::read_to_string(&path).expect("read");
                out.insert(rel.to_string_lossy().replace('\\', "/"), text);
            }
        }
    }
    out
}

/// `apply/run.rs` -> `["apply", "run"]`; `lib.rs` -> `[]`.
fn module_of(rel: &str) -> Vec<String> {
    let text = rel.strip_suffix(".rs").unwrap_or(rel);
    if text == "lib" {
        return Vec::new();
    }
    let text = text.strip_suffix("/mod").unwrap_or(text);
    text.split('/').map(str::to_owned).collect()
}

/// Source with comments, strings and char literals blanked out, so only
/// code is read.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
        } else if (rest.starts_with(b"r\"") || rest.starts_with(b"r#"))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            out.resize(out.len() + 2 + hashes, b' ');
            i += 2 + hashes;
            while i < b.len() && !b[i..].starts_with(&close) {
                out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            out.resize(out.len() + close.len(), b' ');
            i += close.len();
        } else if rest[0] == b'"' && path_literal(rest).is_some() {
            // `#[serde(with = "super::x")]` names a module: keep the path.
            let len = path_literal(rest).unwrap_or(0);
            out.push(b' ');
            out.extend_from_slice(&rest[1..1 + len]);
            out.push(b' ');
            i += len + 2;
        } else if rest[0] == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                let step = if b[i] == b'\\' { 2 } else { 1 };
                for _ in 0..step {
                    if i < b.len() {
                        out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                        i += 1;
                    }
                }
            }
            out.push(b' ');
            i += 1;
        } else if rest[0] == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), not a lifetime.
            let end = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&c| c == b'\'').map(|p| p + 2)
            } else if rest.get(2) == Some(&b'\'') {
                Some(2)
            } else {
                std::str::from_utf8(&rest[1..rest.len().min(6)])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .filter(|c| !c.is_ascii())
                    .and_then(|c| {
                        (rest.get(1 + c.len_utf8()) == Some(&b'\'')).then(|| 1 + c.len_utf8())
                    })
            };
            match end {
                Some(end) => {
                    out.resize(out.len() + end + 1, b' ');
                    i += end + 1;
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The length of a string literal's content when it is a path into the
/// crate (`"super::state::name"`), as serde's `with` attributes hold.
fn path_literal(rest: &[u8]) -> Option<usize> {
    let end = rest[1..].iter().position(|&c| c == b'"')?;
    let body = std::str::from_utf8(&rest[1..1 + end]).ok()?;
    let is_path = (body.starts_with("crate::") || body.starts_with("super::"))
        && body
            .split("::")
            .all(|seg| !seg.is_empty() && seg.chars().all(is_ident));
    is_path.then_some(end)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a file names, each resolved to a module path: `crate::`
/// from the root, `super::` from the parent and `self::` from the (inline)
/// module it is written in, and a path whose first segment is a child
/// module declared there (`mod strategic;`, then `strategic::merge`) from
/// that module; each with whether a `pub use` re-exports it.
fn paths_of(module: &[String], code: &str) -> Vec<(Vec<String>, bool)> {
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    // Every path with the module it is written in, and every `mod name;`.
    let mut found: Vec<(Vec<String>, Vec<String>, bool)> = Vec::new();
    let mut children: BTreeSet<Vec<String>> = BTreeSet::new();
    // Inline `mod name {` blocks: (brace depth at open, name).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c == '{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == '}' {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(d, _)| *d == depth) {
                inline.pop();
            }
            i += 1;
            continue;
        }
        let starts_word = i == 0 || !is_ident(chars[i - 1].1);
        if !starts_word || !is_ident(c) {
            i += 1;
            continue;
        }
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(_, n)| n.clone()))
            .collect();
        let (path, len) = read_path(&code[at..]);
        let mut end = at + len;
        if path[0] == "mod" {
            // `mod name {` opens an inline module; `mod name;` declares a child.
            let rest = code[at + 3..].trim_start();
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            let after = rest[name.len()..].trim_start();
            if !name.is_empty() && after.starts_with('{') {
                inline.push((depth, name));
            } else if !name.is_empty() && after.starts_with(';') {
                children.insert(here.iter().cloned().chain([name]).collect());
            }
        } else if path[0] == "use" {
            end = code[at..].find(';').map_or(code.len(), |p| at + p);
            let tree = &code[at + 3..end];
            let before = code[..at].trim_end();
            let public = before.ends_with("pub")
                || before.rsplit_once("pub(").is_some_and(|(_, vis)| {
                    vis.ends_with(')') && vis.chars().all(|c| is_ident(c) || ":) ".contains(c))
                });
            for path in expand(tree.trim().trim_start_matches("::")) {
                found.push((here.clone(), path, public));
            }
        } else if path.len() > 1 {
            found.push((here, path, false));
        }
        // Skip the path (or the `use` statement) whole.
        while i < chars.len() && chars[i].0 < end {
            i += 1;
        }
    }
    found
        .iter()
        .filter_map(|(here, path, public)| Some((resolve(here, path, &children)?, *public)))
        .collect()
}

/// `crate::a::b::C` at the start of `text`, as segments, and its length.
fn read_path(text: &str) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let seg: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if seg.is_empty() {
            break;
        }
        rest = &rest[seg.len()..];
        out.push(seg);
        match rest.strip_prefix("::") {
            Some(r) if r.trim_start().starts_with(is_ident) => rest = r.trim_start(),
            _ => break,
        }
    }
    (out, text.len() - rest.len())
}

/// A use tree (`crate::a::{b, c::{d, e}}`) as its leaf paths.
fn expand(tree: &str) -> Vec<Vec<String>> {
    fn split_top(list: &str) -> Vec<&str> {
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (i, c) in list.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&list[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&list[start..]);
        parts
    }
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let inner = tree[open + 1..].trim_end();
            let inner = inner.strip_suffix('}').unwrap_or(inner);
            let mut next = prefix.to_vec();
            next.extend(head);
            for part in split_top(inner) {
                walk(&next, part, out);
            }
        } else {
            let path = tree.split(" as ").next().unwrap_or(tree);
            let mut full = prefix.to_vec();
            for seg in path.split("::").map(str::trim) {
                // `a::{self}` is `a`; `self::a` starts from here.
                if !seg.is_empty() && seg != "*" && (seg != "self" || full.is_empty()) {
                    full.push(seg.to_owned());
                }
            }
            out.push(full);
        }
    }
    let mut out = Vec::new();
    for part in split_top(tree) {
        walk(&[], part, &mut out);
    }
    out
}

/// A path's module, from the module it is written in: `crate::` from the
/// root, `super::` from the parent, `self::` and a declared child module
/// (`mod strategic;`) from here; other paths name no file of the library.
fn resolve(
    here: &[String],
    path: &[String],
    children: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut base: Vec<String> = here.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        Some("self") => rest = &rest[1..],
        Some(name) if children.contains(&[here, &[name.to_owned()]].concat()) => {}
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file a module path lives in: its longest prefix that is a file.
fn file_of<'a>(modules: &'a BTreeSet<Vec<String>>, path: &[String]) -> Option<&'a Vec<String>> {
    (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

/// The row a module belongs to: the row naming its longest prefix.
fn row_of<'r>(rows: &'r [Row], module: &[String]) -> Option<(&'r Row, usize)> {
    let mut best: Option<(&Row, usize)> = None;
    for row in rows {
        for name in &row.modules {
            let segs: Vec<&str> = name.split("::").collect();
            if module.len() >= segs.len()
                && module.iter().zip(&segs).all(|(a, b)| a == b)
                && best.is_none_or(|(_, n)| segs.len() > n)
            {
                best = Some((row, segs.len()));
            }
        }
    }
    best
}

/// Every arrow between two files; with `wiring`, also a file's re-exports
/// of the files of its own folder (`pub use boot::start;` in `app.rs`),
/// which wire modules together, as the crate root does, for the layers.
fn arrows(files: &Files, wiring: bool) -> Graph {
    let modules: BTreeSet<Vec<String>> = files.keys().map(|rel| module_of(rel)).collect();
    let mut graph = Graph::new();
    for (rel, text) in files {
        let module = module_of(rel);
        let mut targets = BTreeSet::new();
        for (path, public) in paths_of(&module, &code_only(text)) {
            if let Some(target) = file_of(&modules, &path) {
                let wires = public && target.len() > module.len() && target.starts_with(&module);
                // The crate root only wires modules together.
                if *target != module && !target.is_empty() && (wiring || !wires) {
                    targets.insert(target.clone());
                }
            }
        }
        graph.insert(module.clone(), targets);
    }
    graph
}

fn file_name(module: &[String]) -> String {
    if module.is_empty() {
        "src/lib.rs".to_owned()
    } else {
        format!("src/{}.rs", module.join("/"))
    }
}

/// Every arrow against the table, both files named.
fn upward(rows: &[Row], graph: &Graph) -> Vec<String> {
    let mut faults = Vec::new();
    for (from, targets) in graph {
        if from.is_empty() {
            continue;
        }
        let Some((row, name_len)) = row_of(rows, from) else {
            faults.push(format!(
                "{} is in no row of the layer table in src/lib.rs",
                file_name(from)
            ));
            continue;
        };
        for to in targets {
            let Some((target, target_len)) = row_of(rows, to) else {
                continue;
            };
            // Inside one named module (a view, `apply`, ...) anything goes;
            // cycles are checked apart.
            let own = from[..name_len] == to[..name_len.min(to.len())]
                && target.rank == row.rank
                && name_len == target_len;
            if own {
                continue;
            }
            let fine = if target.rank == row.rank {
                row.peers
            } else {
                row.may_use.contains(&target.rank)
            };
            if !fine {
                faults.push(format!(
                    "{} (layer {}) uses {} (layer {}): {}",
                    file_name(from),
                    row.layer,
                    file_name(to),
                    target.layer,
                    if target.rank > row.rank {
                        "an arrow up a layer"
                    } else if target.rank == row.rank {
                        "modules of this layer may not use each other"
                    } else {
                        "a layer this one may not use"
                    }
                ));
            }
        }
    }
    faults
}

/// Strongly connected components of more than one file (Tarjan).
fn cycles(graph: &Graph) -> Vec<Vec<Vec<String>>> {
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g Vec<String>, usize>,
        low: BTreeMap<&'g Vec<String>, usize>,
        stack: Vec<&'g Vec<String>>,
        on: BTreeSet<&'g Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g Vec<String>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(targets) = s.graph.get(v) {
            for w in targets {
                let Some((w, _)) = s.graph.get_key_value(w) else {
                    continue;
                };
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The cycles between files that are faults. A file and the files of its
/// folder form one module and may use each other (`apply.rs` re-exports
/// `apply/error.rs`, which uses `super::Engine`), so a set of files that
/// use each other is a fault unless one of them holds all the others in
/// its folder; then the set without that file is checked again.
fn tangles(graph: &Graph) -> Vec<Vec<Vec<String>>> {
    let mut out = Vec::new();
    for component in cycles(graph) {
        let root = component.iter().find(|r| {
            component
                .iter()
                .all(|m| m.len() >= r.len() && m[..r.len()] == r[..])
        });
        let Some(root) = root else {
            out.push(component);
            continue;
        };
        let inner: Graph = component
            .iter()
            .filter(|m| *m != root)
            .map(|m| {
                (
                    m.clone(),
                    graph[m].iter().filter(|t| *t != root).cloned().collect(),
                )
            })
            .collect();
        out.extend(tangles(&inner));
    }
    out
}

/// Every cycle between files that is a fault, each pair of files that use
/// each other in it named.
fn cycle_faults(graph: &Graph) -> Vec<String> {
    tangles(graph)
        .iter()
        .map(|component| {
            let names: Vec<String> = component.iter().map(|m| file_name(m)).collect();
            let mut pairs = Vec::new();
            for a in component {
                for b in &graph[a] {
                    if component.contains(b) {
                        pairs.push(format!("{} -> {}", file_name(a), file_name(b)));
                    }
                }
            }
            format!("{} ({})", names.join(", "), pairs.join("; "))
        })
        .collect()
}

/// The faults of a set of files against its own `lib.rs`'s table: arrows
/// against the table, and cycles.
fn check(files: &Files) -> (Vec<String>, Vec<String>) {
    let rows = table(files.get("lib.rs").expect("lib.rs"));
    let layers = upward(&rows, &arrows(files, false));
    (layers, cycle_faults(&arrows(files, true)))
}

#[test]
fn every_arrow_runs_down_the_layer_table() {
    let files = src_files();
    let rows = table(&files["lib.rs"]);
    assert!(
        rows.len() >= 8,
        "src/lib.rs must hold the layer table (found {} rows)",
        rows.len()
    );
    let faults = check(&files).0;
    assert!(
        faults.is_empty(),
        "{} arrow(s) against the layer table of src/lib.rs:\n  {}",
        faults.len(),
        faults.join("\n  ")
    );
}

#[test]
fn no_cycle_between_files() {
    let found = check(&src_files()).1;
    assert!(
        found.is_empty(),
        "cycles between files:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_reader_sees_what_it_should() {
    // Paths in comments and strings are not arrows; use trees expand;
    // super:: resolves from inline modules.
    let code = code_only(
        "// crate::sim::x\nlet s = \"crate::app::y z\"; let c = '{'; #[serde(with = \"super::kube\")]\nuse crate::{apply::{self, Semantics}, strategy::merge};\nmod tests { use super::Thing; fn f() { crate::lint::lint(); } }\n",
    );
    let module = vec!["patch".to_owned()];
    let paths = paths_of(&module, &code);
    let names: Vec<String> = paths.iter().map(|(p, _)| p.join("::")).collect();
    assert_eq!(
        names,
        [
            "kube",
            "apply",
            "apply::Semantics",
            "strategy::merge",
            "patch::Thing",
            "lint::lint"
        ]
    );
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}, self}"),
        [
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "d"],
            vec!["crate", "a", "c", "e"],
            vec!["crate", "a"],
        ]
    );
}

#[test]
fn the_reader_follows_declared_child_modules() {
    // `strategic` is a child module only where it is declared.
    let code = code_only(
        "mod strategic;\nmod tests { use strategic::x; }\nuse strategic::merge;\nuse self::text::elide;\nfn f() { strategic::order::sort(); self::run::run(); other::strategic::x(); x.strategic::<u8>(); }\n",
    );
    let module = vec!["apply".to_owned()];
    let names: Vec<String> = paths_of(&module, &code)
        .iter()
        .map(|(p, _)| p.join("::"))
        .collect();
    assert_eq!(
        names,
        [
            "apply::strategic::merge",
            "apply::text::elide",
            "apply::strategic::order::sort",
            "apply::run::run"
        ]
    );
}

/// A small library in memory: a layer table and the files given, each
/// `(path under src/, source)`.
fn planted(files: &[(&str, &str)]) -> Files {
    let lib = "//! | layer | modules | may use |
//! |---|---|---|
//! | 0 base | `kube` | own layer |
//! | 1 server | `apply`, `status` | 0, own layer |
//! | 2 UI | `app` | 0-1 |
//! | 3 UI shell | `app::shell` | 0-2 |
pub mod app;
pub mod apply;
pub mod kube;
pub mod status;
";
    let mut out = Files::from([("lib.rs".to_owned(), lib.to_owned())]);
    for (path, text) in files {
        out.insert((*path).to_owned(), (*text).to_owned());
    }
    out
}

/// A tree that keeps the table: `apply.rs` and the files of its folder use
/// each other, the UI wires its shell.
const CLEAN: [(&str, &str); 7] = [
    (
        "apply.rs",
        "mod strategic;\npub use strategic::merge;\npub struct Semantics;\n",
    ),
    (
        "apply/strategic.rs",
        "mod merge;\npub use merge::merge;\nuse super::Semantics;\n",
    ),
    (
        "apply/strategic/merge.rs",
        "use crate::kube::Version;\npub fn merge() {}\n",
    ),
    ("kube.rs", "pub struct Version;\n"),
    (
        "status.rs",
        "use crate::kube::Version;\npub struct Status;\n",
    ),
    (
        "app.rs",
        "mod shell;\npub use shell::App;\nuse crate::kube::Version;\n",
    ),
    (
        "app/shell.rs",
        "use super::super::status::Status;\npub struct App;\n",
    ),
];

/// The clean tree with one file's source replaced.
fn with(path: &str, text: &str) -> Files {
    let mut files = planted(&CLEAN);
    files.insert(path.to_owned(), text.to_owned());
    files
}

#[test]
fn a_clean_planted_tree_passes() {
    assert_eq!(check(&planted(&CLEAN)), (Vec::new(), Vec::new()));
}

#[test]
fn a_planted_upward_import_fails() {
    // Written in a child module's child, in every way a path can be.
    for import in [
        "use crate::app::App;",
        "use super::super::super::app::App;",
        "fn f() { crate::app::App::new(); }",
        "fn f() -> super::super::super::app::App { todo!() }",
    ] {
        let files = with(
            "apply/strategic/merge.rs",
            &format!("pub fn merge() {{}}\n{import}\n"),
        );
        let (layers, cycles) = check(&files);
        assert_eq!(
            layers,
            ["src/apply/strategic/merge.rs (layer 1) uses src/app.rs (layer 2): an arrow up a layer"],
            "{import}"
        );
        assert!(cycles.is_empty(), "{import}: {cycles:?}");
    }
    // A file uses its child a layer up: only a re-export of it is wiring.
    for import in [
        "use shell::App;",
        "use self::shell::App;",
        "fn f() { shell::App::new(); }",
        "fn f() { self::shell::App::new(); }",
    ] {
        let files = with("app.rs", &format!("mod shell;\n{import}\n"));
        assert_eq!(
            check(&files).0,
            ["src/app.rs (layer 2) uses src/app/shell.rs (layer 3): an arrow up a layer"],
            "{import}"
        );
    }
}

#[test]
fn a_planted_cycle_through_a_child_path_fails() {
    // apply -> apply/strategic -> status -> apply, closed by a relative
    // path into the child module.
    let status = ("status.rs", "use crate::apply::Semantics;\n");
    let strategic = (
        "apply/strategic.rs",
        "mod merge;\npub fn diff() {}\nuse crate::status::Status;\n",
    );
    for import in [
        "use strategic::diff;",
        "pub use strategic::diff;",
        "use self::strategic::diff;",
        "fn f() { strategic::diff(); }",
        "fn f() { self::strategic::diff(); }",
    ] {
        let apply = format!("mod strategic;\npub struct Semantics;\n{import}\n");
        let mut files = with("apply.rs", &apply);
        files.extend([strategic, status].map(|(p, t)| (p.to_owned(), t.to_owned())));
        let (layers, cycles) = check(&files);
        assert!(layers.is_empty(), "{import}: {layers:?}");
        assert_eq!(
            cycles,
            ["src/apply.rs, src/apply/strategic.rs, src/status.rs (src/apply.rs -> src/apply/strategic.rs; src/apply/strategic.rs -> src/status.rs; src/status.rs -> src/apply.rs)"],
            "{import}"
        );
        // Without the child path, nothing closes the circle.
        files.insert(
            "apply.rs".to_owned(),
            "mod strategic;\npub struct Semantics;\n".to_owned(),
        );
        assert_eq!(check(&files), (Vec::new(), Vec::new()), "{import}");
    }
}

#[test]
fn a_planted_cycle_between_sibling_files_fails_under_their_parent() {
    // Both use their parent, which re-exports them: that is one module;
    // but the two siblings also use each other.
    let files = planted(&[
        (
            "apply.rs",
            "mod a;\nmod b;\npub use a::A;\npub use b::B;\npub struct Semantics;\n",
        ),
        (
            "apply/a.rs",
            "use super::{b::B, Semantics};\npub struct A;\n",
        ),
        (
            "apply/b.rs",
            "use super::{a::A, Semantics};\npub struct B;\n",
        ),
    ]);
    assert_eq!(
        check(&files).1,
        ["src/apply/a.rs, src/apply/b.rs (src/apply/a.rs -> src/apply/b.rs; src/apply/b.rs -> src/apply/a.rs)"]
    );
}
