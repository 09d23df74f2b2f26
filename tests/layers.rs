//! The layer table of `src/lib.rs`, kept true: every `crate::` and
//! `super::` path of every file of the library is an arrow from that file
//! to the file it names; an arrow that runs up a layer, or between two
//! views, fails, and so does any cycle between files. Both files are named.
//!
//! The table is read from `src/lib.rs`'s own docs, so the map and the
//! check cannot drift apart.

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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Reads the `| layer | modules | may use |` tables of `src/lib.rs`.
fn table() -> Vec<Row> {
    let lib = fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
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
    assert!(
        rows.len() >= 8,
        "src/lib.rs must hold the layer table (found {} rows)",
        rows.len()
    );
    rows
}

/// Every `.rs` file of the library (the binaries' `main.rs`, `cli.rs`,
/// `cli/` and `bin/` use the library by its name, not by `crate::`).
fn files() -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
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
                out.insert(module_of(&rel), rel);
            }
        }
    }
    out
}

/// `apply/run.rs` -> `["apply", "run"]`; `lib.rs` -> `[]`.
fn module_of(rel: &Path) -> Vec<String> {
    let text = rel.to_string_lossy().replace('\\', "/");
    let text = text.strip_suffix(".rs").unwrap_or(&text);
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

/// The paths a file names, each as the module path of the file it starts
/// in (`super::` resolved from the inline module it is written in).
fn paths_of(module: &[String], code: &str) -> Vec<Vec<String>> {
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut out = Vec::new();
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
        let word_end = chars[i..]
            .iter()
            .position(|&(_, c)| !is_ident(c))
            .map_or(chars.len(), |p| i + p);
        let word: String = chars[i..word_end].iter().map(|&(_, c)| c).collect();
        if word == "mod" {
            // `mod name {`: an inline module.
            let rest = &code[chars.get(word_end).map_or(code.len(), |&(a, _)| a)..];
            let rest = rest.trim_start();
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() && rest[name.len()..].trim_start().starts_with('{') {
                inline.push((depth, name));
            }
        }
        if word == "use" {
            let end = code[at..].find(';').map_or(code.len(), |p| at + p);
            let tree = &code[at + 3..end];
            let here: Vec<String> = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(_, n)| n.clone()))
                .collect();
            for path in expand(tree.trim().trim_start_matches("::")) {
                if let Some(resolved) = resolve(&here, &path) {
                    out.push(resolved);
                }
            }
            // Skip the statement.
            while i < chars.len() && chars[i].0 < end {
                i += 1;
            }
            continue;
        }
        if word == "crate" || word == "super" {
            let path = read_path(&code[at..]);
            let here: Vec<String> = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(_, n)| n.clone()))
                .collect();
            if path.len() > 1 {
                if let Some(resolved) = resolve(&here, &path) {
                    out.push(resolved);
                }
            }
            let len: usize = path.iter().map(|s| s.len() + 2).sum::<usize>();
            let stop = at + len.saturating_sub(2);
            while i < chars.len() && chars[i].0 < stop {
                i += 1;
            }
            continue;
        }
        i = word_end;
    }
    out
}

/// `crate::a::b::C` at the start of `text`, as segments.
fn read_path(text: &str) -> Vec<String> {
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
            Some(r) => rest = r.trim_start(),
            None => break,
        }
    }
    out
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
            full.extend(
                path.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "self" && *s != "*")
                    .map(str::to_owned),
            );
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
/// root, `super::` from the parent; other relative paths are children of
/// the file itself and name no other file.
fn resolve(here: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut base: Vec<String>;
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &rest[1..];
        }
        Some("super") => {
            base = here.to_vec();
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file a module path lives in: its longest prefix that is a file.
fn file_of<'a>(
    files: &'a BTreeMap<Vec<String>, PathBuf>,
    path: &[String],
) -> Option<&'a Vec<String>> {
    (0..=path.len())
        .rev()
        .find_map(|n| files.get_key_value(&path[..n]).map(|(k, _)| k))
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

/// Every arrow between two files of the library.
fn arrows() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = files();
    let mut graph = BTreeMap::new();
    for (module, rel) in &files {
        let text = fs::read_to_string(src().join(rel)).expect("read");
        let code = code_only(&text);
        let mut targets = BTreeSet::new();
        for path in paths_of(module, &code) {
            if let Some(target) = file_of(&files, &path) {
                // The crate root only wires modules together.
                if target != module && !target.is_empty() {
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

fn upward(rows: &[Row], graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
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
fn cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct State<'g> {
        graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
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

#[test]
fn every_arrow_runs_down_the_layer_table() {
    let rows = table();
    let graph = arrows();
    let faults = upward(&rows, &graph);
    assert!(
        faults.is_empty(),
        "{} arrow(s) against the layer table of src/lib.rs:\n  {}",
        faults.len(),
        faults.join("\n  ")
    );
}

#[test]
fn no_cycle_between_files() {
    let graph = arrows();
    let found: Vec<String> = cycles(&graph)
        .iter()
        .map(|component| {
            // Name each pair of files that use each other in the cycle.
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
        .collect();
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
    let names: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
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
