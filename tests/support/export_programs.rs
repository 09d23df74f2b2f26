//! Programs built from the Go and Rust exports, for `tests/export_exact.rs`:
//! each export compiled as printed into one program that prints every
//! payload, each ended by a NUL byte.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{deps_dir, run};

/// A stand-in for KubeVirt's `pkg/apimachinery/patch`, written from its
/// documented behaviour: ops in order; `remove` without `value`, the others
/// with it (`null` for nil); keys op, path, value; Go's encoder; an empty
/// set is an error.
const PATCH_PACKAGE: &str = r#"package patch

import (
	"encoding/json"
	"errors"
	"strings"
)

type PatchOperation struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	Value interface{} `json:"value"`
}

func (p PatchOperation) MarshalJSON() ([]byte, error) {
	if p.Op == "remove" {
		return json.Marshal(struct {
			Op   string `json:"op"`
			Path string `json:"path"`
		}{p.Op, p.Path})
	}
	type plain PatchOperation
	return json.Marshal(plain(p))
}

type PatchSet struct{ ops []PatchOperation }

type PatchOption func(*PatchSet)

func New(opts ...PatchOption) *PatchSet {
	set := &PatchSet{}
	for _, opt := range opts {
		opt(set)
	}
	return set
}

func with(op, path string, value interface{}) PatchOption {
	return func(set *PatchSet) { set.ops = append(set.ops, PatchOperation{op, path, value}) }
}

func WithTest(path string, value interface{}) PatchOption    { return with("test", path, value) }
func WithAdd(path string, value interface{}) PatchOption     { return with("add", path, value) }
func WithReplace(path string, value interface{}) PatchOption { return with("replace", path, value) }
func WithRemove(path string) PatchOption                     { return with("remove", path, nil) }

func (set *PatchSet) GeneratePayload() ([]byte, error) {
	if len(set.ops) == 0 {
		return nil, errors.New("list of patches is empty")
	}
	return json.Marshal(set.ops)
}

func EscapeJSONPointer(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}
"#;

fn write(path: PathBuf, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Builds and runs a Go module holding each export as its own package
/// (as printed, beside a file that exports its function); the program's
/// output.
pub fn run_go(go: &Path, dir: &Path, codes: &[String]) -> Vec<u8> {
    write(
        dir.join("kubevirt/go.mod"),
        "module kubevirt.io/kubevirt\n\ngo 1.19\n",
    );
    write(
        dir.join("kubevirt/pkg/apimachinery/patch/patch.go"),
        PATCH_PACKAGE,
    );
    write(
        dir.join("go.mod"),
        "module exports\n\ngo 1.19\n\nrequire kubevirt.io/kubevirt v0.0.0\n\nreplace kubevirt.io/kubevirt => ./kubevirt\n",
    );
    let mut main = String::from("package main\n\nimport (\n\t\"os\"\n\n");
    let mut calls = String::new();
    for (i, code) in codes.iter().enumerate() {
        write(dir.join(format!("c{i}/export.go")), code);
        write(
            dir.join(format!("c{i}/call.go")),
            "package patches\n\nfunc Payload() ([]byte, error) { return patchPayload() }\n",
        );
        let _ = writeln!(main, "\tc{i} \"exports/c{i}\"");
        let _ = writeln!(calls, "\t\tc{i}.Payload,");
    }
    main.push_str(")\n\nfunc main() {\n\tfor _, payload := range []func() ([]byte, error){\n");
    main.push_str(&calls);
    main.push_str("\t} {\n\t\tbytes, err := payload()\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tos.Stdout.Write(append(bytes, 0))\n\t}\n}\n");
    write(dir.join("main.go"), &main);
    let mut build = Command::new(go);
    build
        .args(["build", "-o", "exports", "."])
        .current_dir(dir)
        .env("GOPROXY", "off")
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "local");
    run(build, "go build of the Go exports");
    run(Command::new(dir.join("exports")), "the Go exports")
}

/// A payload as Go 1.22 and later write it: `\b` and `\f` for U+0008 and
/// U+000C (Go before 1.22 wrote `\u0008`, `\u000c`), read in JSON strings.
pub fn go_1_22(payload: &str) -> String {
    let mut out = String::with_capacity(payload.len());
    let mut rest = payload;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let escape = &rest[at..];
        let (text, len) = match escape.get(..6) {
            Some("\\u0008") => ("\\b", 6),
            Some("\\u000c") => ("\\f", 6),
            _ => (escape.get(..2).unwrap_or(escape), 2.min(escape.len())),
        };
        out.push_str(text);
        rest = &escape[len..];
    }
    out.push_str(rest);
    out
}

/// Rlibs named `lib<name>-*.rlib` in `deps`, newest first.
fn rlibs(deps: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!("lib{name}-");
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(deps)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".rlib"))
        })
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    found.sort_by_key(|b| std::cmp::Reverse(b.0));
    found.into_iter().map(|(_, p)| p).collect()
}

/// The Rust program: each export as printed, the body of a function
/// returning its payload.
fn rust_program(codes: &[String]) -> String {
    let mut program = String::from(
        "use std::io::Write;\n\ntype Payload = Result<String, Box<dyn std::error::Error>>;\n\n",
    );
    for (i, code) in codes.iter().enumerate() {
        let _ = write!(
            program,
            "fn case{i}() -> Payload {{\n{code}    Ok(payload)\n}}\n\n"
        );
    }
    program.push_str("fn main() {\n    let mut out = std::io::stdout().lock();\n    let cases: &[fn() -> Payload] = &[");
    for i in 0..codes.len() {
        let _ = write!(program, "case{i}, ");
    }
    program.push_str("];\n    for case in cases {\n        out.write_all(case().unwrap().as_bytes()).unwrap();\n        out.write_all(&[0]).unwrap();\n    }\n}\n");
    program
}

/// Compiles the exports against this crate's rlib (and the serde_json it
/// was built with) and runs them; `None` when no rlib is found.
pub fn run_rust(dir: &Path, codes: &[String]) -> Option<Vec<u8>> {
    let deps = deps_dir()?;
    let source = dir.join("exports.rs");
    std::fs::write(&source, rust_program(codes)).unwrap();
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let mut last_error = String::new();
    for patchlab in rlibs(&deps, "patchlab") {
        for serde_json in rlibs(&deps, "serde_json") {
            let out = Command::new(&rustc)
                .args(["--edition", "2021", "-C", "debuginfo=0", "-L"])
                .arg(format!("dependency={}", deps.display()))
                .arg("--extern")
                .arg(format!("patchlab={}", patchlab.display()))
                .arg("--extern")
                .arg(format!("serde_json={}", serde_json.display()))
                .arg("-o")
                .arg(dir.join("exports"))
                .arg(&source)
                .output()
                .ok()?;
            if out.status.success() {
                return Some(run(Command::new(dir.join("exports")), "the Rust exports"));
            }
            last_error = String::from_utf8_lossy(&out.stderr).into_owned();
        }
    }
    assert!(
        last_error.is_empty(),
        "the Rust exports do not compile:\n{last_error}"
    );
    None
}
