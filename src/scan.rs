//! Scan: find hazardous patches in a controller's Go source before they
//! ship.
//!
//! Go files are parsed with tree-sitter's Go grammar (a real parser, not
//! regular expressions). Each function is walked once, in statement order,
//! following what flows into a patch: KubeVirt's builder (`patch.New`,
//! `WithTest`/`WithAdd`/`WithReplace`/`WithRemove`, `AddOption`,
//! `GeneratePayload`, `GenerateTestReplacePatch`, `PatchOperation{...}`),
//! op structs and maps, JSON text built with `fmt.Sprintf` or `+`, patch
//! types, controller-runtime's `MergeFrom`/`RawPatch` and client-go's
//! `Patch(ctx, name, type, data, ...)`. Paths keep what is known
//! (constants of the package, literals) and mark what is not (a key, an
//! index, an escaped key); values are known, `nil`, a whole map or list
//! (`vmi.Labels`, `obj.Finalizers`) or one element (`vmi.Labels[key]`).
//!
//! Each payload is then judged by the real [`lint`](crate::lint) rules
//! (every combination of the branches it was built in, unknown values
//! replaced by stand-ins of their shape), plus two rules only code shows:
//! [`Rule::TestRetriedOnConflict`] and [`Rule::MergeFromReplacesList`].
//!
//! ```
//! use patchlab::lint::Rule;
//! use patchlab::scan::scan_source;
//!
//! let go = r#"package x
//! import "kubevirt.io/kubevirt/pkg/apimachinery/patch"
//! func labels(old, new *VMI) ([]byte, error) {
//!     return patch.New(
//!         patch.WithTest("/metadata/labels", old.Labels),
//!         patch.WithReplace("/metadata/labels", new.Labels),
//!     ).GeneratePayload()
//! }
//! "#;
//! let (findings, payloads) = scan_source("x.go", go).unwrap();
//! assert_eq!(findings[0].rule, Rule::WholeMapTest);
//! assert_eq!((findings[0].line, findings[0].column), (5, 9));
//! assert!(findings[0].fix.contains("patch.GeneratePerKeyMapPatches(\"/metadata/labels\", old.Labels, new.Labels)"));
//! assert_eq!(
//!     payloads[0].text,
//!     r#"[{"op":"test","path":"/metadata/labels","value":<old.Labels>},{"op":"replace","path":"/metadata/labels","value":<new.Labels>}]"#
//! );
//! ```

mod body;
mod eval;
mod fix;
mod go;
mod judge;
mod package;
pub mod report;
mod value;
mod walk;

use std::fmt;

use serde::Serialize;

pub use walk::{discover, scan_paths, Progress, Selection};

use crate::lint::{Rule, Severity};

/// Go files above this size are skipped (generated code; no controller
/// writes its patches in an 8 MiB file).
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// Why a path could not be scanned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScanErrorKind {
    /// The path does not exist.
    NotFound,
    /// Reading failed (the system's message).
    Io(String),
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// Not UTF-8 (Go source must be), at this byte offset.
    NotUtf8 {
        /// The first bad byte.
        offset: usize,
    },
    /// Binary: a NUL byte at this offset.
    Binary {
        /// The first NUL byte.
        offset: usize,
    },
    /// The parser gave up.
    Parse,
    /// An `--exclude` pattern that is not a glob.
    BadGlob(String),
}

/// A path that could not be scanned, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanError {
    /// The path (or the glob).
    pub path: String,
    /// Why.
    pub kind: ScanErrorKind,
}

impl ScanError {
    /// An error about `path`.
    pub fn new(path: impl Into<String>, kind: ScanErrorKind) -> ScanError {
        ScanError {
            path: path.into(),
            kind,
        }
    }
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.path;
        match &self.kind {
            ScanErrorKind::NotFound => write!(f, "{path}: no such file or directory"),
            ScanErrorKind::Io(message) => write!(f, "{path}: {message}"),
            ScanErrorKind::TooLarge { bytes, limit } => {
                write!(f, "{path}: {bytes} bytes, more than the limit of {limit}")
            }
            ScanErrorKind::NotUtf8 { offset } => {
                write!(f, "{path}: not UTF-8 (byte {offset})")
            }
            ScanErrorKind::Binary { offset } => {
                write!(f, "{path}: a binary file (NUL byte at {offset})")
            }
            ScanErrorKind::Parse => write!(f, "{path}: the Go parser gave up on this file"),
            ScanErrorKind::BadGlob(message) => write!(f, "--exclude {path}: {message}"),
        }
    }
}

impl std::error::Error for ScanError {}

/// A place in Go code that builds or sends a hazardous patch: the rule,
/// where, and what to write instead.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HazardSite {
    /// Which rule (the `lint` rule table).
    pub rule: Rule,
    /// How bad.
    pub severity: Severity,
    /// The file, as given.
    pub file: String,
    /// 1-based line of the op (or call) it is about.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The function, as Go prints it (`(*Controller).patchVMI`).
    pub function: String,
    /// The kind of the object patched, when the code says it (the client
    /// call, the object's declared type).
    #[serde(rename = "objectKind", skip_serializing_if = "Option::is_none")]
    pub object_kind: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The ops it is about, as JSON with `<expression>` placeholders.
    pub ops: Vec<String>,
    /// The whole payload the code builds, with placeholders.
    pub payload: String,
    /// True when the payload's ops are added in branches: `payload` shows
    /// their union, and every combination was checked.
    pub branches: bool,
    /// What to write instead, as Go code.
    pub fix: String,
    /// The rewritten payload, when every value is known.
    #[serde(rename = "fixPayload")]
    pub fix_payload: Option<String>,
}

/// One op of a payload.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PayloadOp {
    /// `test`, `add`, ... (`<op>` when computed at run time).
    pub op: &'static str,
    /// The path, holes as `<expression>`.
    pub path: String,
    /// The value: JSON when known, `<expression>` when not.
    pub value: Option<String>,
    /// Where the op is written.
    pub line: usize,
    /// Its column.
    pub column: usize,
    /// Added in a branch (`if`, `switch`, a loop).
    pub conditional: bool,
}

/// A payload the code builds or sends.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Payload {
    /// The file.
    pub file: String,
    /// Where it is generated or sent.
    pub line: usize,
    /// Its column.
    pub column: usize,
    /// The function.
    pub function: String,
    /// The kind of the object it is sent to, when the code says it.
    #[serde(rename = "objectKind", skip_serializing_if = "Option::is_none")]
    pub object_kind: Option<String>,
    /// `json-patch`, `merge-patch`, `strategic-merge-patch` or `apply`.
    pub kind: &'static str,
    /// How it leaves the function (`sent here as json-patch`,
    /// `returned to the caller`, ...).
    pub how: String,
    /// The payload with placeholders.
    pub text: String,
    /// Its ops (JSON patches).
    pub ops: Vec<PayloadOp>,
    /// Ops added in branches.
    pub branches: bool,
}

/// What a scan of Go files found: files read, hazard sites, payloads and
/// files skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Survey {
    /// Go files read.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Hazard sites, by file, line, column and rule.
    pub findings: Vec<HazardSite>,
    /// Payloads, by file and line.
    pub payloads: Vec<Payload>,
    /// Files that could not be read (skipped).
    #[serde(serialize_with = "errors")]
    pub skipped: Vec<ScanError>,
    /// The paths scanned, as given (SARIF locations are relative to
    /// them).
    #[serde(skip)]
    pub roots: Vec<String>,
    /// Places judged knowing the object's kind (file, line, column): a
    /// finding there judged without the kind is dropped.
    #[serde(skip)]
    kinded: std::collections::HashSet<(String, usize, usize)>,
}

fn errors<S: serde::Serializer>(list: &[ScanError], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(list.iter().map(|e| e.to_string()))
}

impl Survey {
    /// The worst severity found.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// True when a finding is at warning or above (the CLI exits 1).
    pub fn has_warnings(&self) -> bool {
        self.worst() >= Some(Severity::Warning)
    }

    /// Keeps the findings at `min` or above.
    pub fn keep_at_least(&mut self, min: Severity) {
        self.findings.retain(|f| f.severity >= min);
    }

    /// Adds one package's findings and payloads.
    fn add(&mut self, judged: judge::Judged) {
        self.findings.extend(judged.findings);
        self.payloads.extend(judged.payloads);
        self.kinded.extend(judged.kinded);
    }

    /// Sorts, and keeps one finding per rule and place: the one judged
    /// with the object's kind when there is one (a helper's op judged in
    /// its package and in a caller's).
    fn finish(&mut self) {
        let kinded = std::mem::take(&mut self.kinded);
        self.findings.retain(|f| {
            f.object_kind.is_some() || !kinded.contains(&(f.file.clone(), f.line, f.column))
        });
        self.findings.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.rule, a.object_kind.is_none()).cmp(&(
                &b.file,
                b.line,
                b.column,
                b.rule,
                b.object_kind.is_none(),
            ))
        });
        self.findings.dedup_by(|a, b| {
            (&a.file, a.line, a.column, a.rule) == (&b.file, b.line, b.column, b.rule)
        });
        self.sort();
    }

    fn sort(&mut self) {
        self.findings.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.rule).cmp(&(&b.file, b.line, b.column, b.rule))
        });
        self.payloads
            .sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    }
}

/// Scans one Go file on its own (its package's other files unseen).
///
/// # Errors
///
/// [`ScanError`] when the file is too large or cannot be parsed.
pub fn scan_source(name: &str, text: &str) -> Result<(Vec<HazardSite>, Vec<Payload>), ScanError> {
    let mut parser = go::parser();
    let (judged, mut errors) =
        package::scan(&mut parser, &[(name.to_owned(), text.to_owned())], None);
    if let Some(err) = errors.pop() {
        return Err(err);
    }
    let mut survey = Survey::default();
    survey.add(judged);
    survey.finish();
    Ok((survey.findings, survey.payloads))
}

/// Scans several files as one package.
pub fn scan_files(files: &[(String, String)]) -> Survey {
    let mut parser = go::parser();
    let (judged, skipped) = package::scan(&mut parser, files, None);
    let mut survey = Survey {
        files: files.len() - skipped.len(),
        bytes: files.iter().map(|(_, t)| t.len() as u64).sum(),
        skipped,
        ..Survey::default()
    };
    survey.add(judged);
    survey.finish();
    survey
}
