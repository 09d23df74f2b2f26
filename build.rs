//! The aliases of the playground's builds, read from the table of builds in
//! `src/lib.rs`'s docs: `cfg(module = "...")`, which build this is (the row
//! whose Cargo feature is on; the row without one when none is), and
//! `cfg(holds = "...")`, once per view that row holds. Both are declared
//! with every value the table names, so a misspelt one does not compile.

use std::env;
use std::fs;

/// One row of the table (`tests/modules.rs` reads it with this file too).
pub struct Module {
    /// Its `cfg(module)`.
    pub name: String,
    /// Its binary, in `src/bin/`.
    pub binary: String,
    /// The Cargo feature that selects it (none for `all`).
    pub feature: Option<String>,
    /// Its `cfg(holds)`, one a view.
    pub holds: Vec<String>,
}

/// The names between backquotes in a cell.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The rows of the `| module | binary | feature | holds | ... |` table.
pub fn table(lib: &str) -> Vec<Module> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in lib.lines() {
        let cells: Vec<&str> = match line.strip_prefix("//!") {
            Some(line) if line.trim().starts_with('|') => line.split('|').map(str::trim).collect(),
            _ if inside => break,
            _ => continue,
        };
        if cells.get(1..5) == Some(&["module", "binary", "feature", "holds"][..]) {
            inside = true;
        } else if inside && !cells[1].starts_with('-') {
            let (Some(name), Some(binary), Some(feature), Some(holds)) = (
                quoted(cells[1]).pop(),
                cells.get(2).and_then(|c| quoted(c).pop()),
                cells.get(3).map(|c| quoted(c).pop()),
                cells.get(4).map(|c| quoted(c)),
            ) else {
                panic!("src/lib.rs, table of builds: cannot read {line:?}");
            };
            rows.push(Module {
                name,
                binary,
                feature,
                holds,
            });
        }
    }
    assert!(!rows.is_empty(), "src/lib.rs holds no table of builds");
    rows
}

fn values<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let mut seen: Vec<&String> = Vec::new();
    for name in names {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen.iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn enabled(feature: &str) -> bool {
    let var = format!("CARGO_FEATURE_{}", feature.to_uppercase().replace('-', "_"));
    env::var_os(var).is_some()
}

fn main() {
    println!("cargo::rerun-if-changed=src/lib.rs");
    let lib = fs::read_to_string("src/lib.rs").expect("src/lib.rs");
    let modules = table(&lib);
    let names = values(modules.iter().map(|m| &m.name));
    let views = values(modules.iter().flat_map(|m| &m.holds));
    println!("cargo::rustc-check-cfg=cfg(module, values({names}))");
    println!("cargo::rustc-check-cfg=cfg(holds, values({views}))");
    let on: Vec<&Module> = modules
        .iter()
        .filter(|m| m.feature.as_deref().is_some_and(enabled))
        .collect();
    let this = match on[..] {
        [] => modules
            .iter()
            .find(|m| m.feature.is_none())
            .expect("src/lib.rs, table of builds: no row without a feature"),
        [one] => one,
        _ => panic!(
            "the features {} each make a build of their own (src/lib.rs, table of builds): enable one",
            values(on.iter().filter_map(|m| m.feature.as_ref()))
        ),
    };
    // `partial` (a build with some of the views) comes with a module's feature, never alone.
    assert!(
        enabled("partial") == this.feature.is_some(),
        "feature `partial` is enabled by a module's feature (src/lib.rs, table of builds), not on its own"
    );
    println!("cargo::rustc-cfg=module={:?}", this.name);
    for view in &this.holds {
        println!("cargo::rustc-cfg=holds={view:?}");
    }
}
