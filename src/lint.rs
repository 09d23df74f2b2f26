//! The rules engine: reads a JSON patch, a merge patch or a `kubectl patch`
//! command line, with or without the current object, and says what is
//! hazardous about it, why, and (where it can) which ops to send instead.
//!
//! Every rule is a row of [`RULES`] (stable kebab-case name, severity,
//! summary, explanation); a [`Finding`] names its rule, the op index and
//! path, and carries a [`Fix`] (the whole rewritten op list) when one can
//! be computed. The fixes come from the strategy engine, so a fixed
//! whole-map test is exactly what PR #18139's per-key strategy sends.
//!
//! ```
//! use patchlab::lint::{lint, Options, Rule, Severity};
//!
//! // The seed's race: a test of the whole label map to add one label.
//! let payload = r#"[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},
//!   {"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01","kubevirt.io/migrationTargetNodeName":"node02"}}]"#;
//! let report = lint(payload, &Options::default()).unwrap();
//! let finding = &report.findings[0];
//! assert_eq!(finding.rule, Rule::WholeMapTest);
//! assert_eq!(finding.severity, Severity::Warning);
//! assert_eq!((finding.index, finding.path.as_deref()), (Some(0), Some("/metadata/labels")));
//! // The fix: PR #18139's per-key op.
//! assert_eq!(
//!     finding.fix.as_ref().unwrap().payload(),
//!     r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#
//! );
//! assert_eq!(report.worst(), Some(Severity::Warning));
//! ```

mod checks;
mod kubectl;
mod merge;
mod read;
pub mod report;
pub mod rules;

use serde::Serialize;
use serde_json::Value;

pub use kubectl::is_command;
pub use read::{budget, read_object, BodyKind, Input, LintError, Origin};
pub use rules::{AppliesTo, Example, Rule, RuleInfo, Severity, RULES};

use crate::apply::{self, Engine, Semantics, ServerResponse};
use crate::input::Budget;
use crate::kube::Cluster;
use crate::limits::MAX_BODY_BYTES;
use crate::patch::{self, Encoding, Operation, PatchSet};
use crate::strategy::{self, Overwrite, Policy, Precondition};

/// What lint checks against.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The engine the patch is meant for: `kube` (default) or `rfc`.
    /// Decides whether the patch applies to [`Options::object`] and which
    /// engine differences are worth a finding.
    pub semantics: Semantics,
    /// The current object, when known: lint then says whether the patch
    /// applies now, and can compute fixes that need current values.
    pub object: Option<Value>,
    /// Which paths hold maps and lists (labels, annotations, finalizers,
    /// ... by default; add a custom resource's own with
    /// [`Policy::set_kind`]).
    pub policy: Policy,
    /// Under `kube` semantics, the release and engine modelled (default:
    /// the newest release with its own engine): whether the patch applies
    /// to [`Options::object`] is answered by that engine.
    pub cluster: Cluster,
}

impl Options {
    /// The engine the patch runs on: RFC 6902, or the cluster's.
    pub fn engine(&self) -> Engine {
        match self.semantics {
            Semantics::Rfc => Engine::Rfc,
            Semantics::Kube => self.cluster.patch_engine(),
        }
    }
}

/// A rewritten op list: the whole patch as it should be sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// The ops, in order.
    pub ops: Vec<Operation>,
}

impl Fix {
    /// The fix as a payload, byte for byte as KubeVirt's builder writes it
    /// (`[]` when the fix is to send nothing).
    pub fn payload(&self) -> String {
        PatchSet::of(self.ops.iter().cloned())
            .payload_with(Encoding::Go)
            .unwrap_or_else(|_| "[]".to_owned())
    }
}

impl Serialize for Fix {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.ops.serialize(serializer)
    }
}

/// One hazard found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// Which rule.
    pub rule: Rule,
    /// How bad (the rule's severity).
    pub severity: Severity,
    /// Zero-based index of the op it is about (`None` for the whole body).
    pub index: Option<usize>,
    /// The path it is about (the op's path, or a member of a merge patch).
    pub path: Option<String>,
    /// What is wrong, naming the op index and path.
    pub message: String,
    /// The whole patch rewritten, when lint can compute it.
    pub fix: Option<Fix>,
}

impl Finding {
    fn new(rule: Rule, index: Option<usize>, path: Option<&str>, message: String) -> Finding {
        Finding {
            rule,
            severity: rule.severity(),
            index,
            path: path.map(str::to_owned),
            message,
            fix: None,
        }
    }

    fn with_fix(mut self, fix: Option<Vec<Operation>>) -> Finding {
        self.fix = fix.map(|ops| Fix { ops });
        self
    }
}

/// Applied to the current object: does the patch apply now?
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// True when every op applies.
    pub applies: bool,
    /// The failing op's index (`None`: the whole body was refused).
    pub index: Option<usize>,
    /// The failing op's path.
    pub path: Option<String>,
    /// Why it fails (the engine's own words, which the server hides).
    pub cause: Option<String>,
    /// What kube-apiserver answers (kube semantics only).
    pub response: Option<ServerResponse>,
    /// True when applying changes nothing (the server then writes nothing:
    /// no new resourceVersion, no watch event).
    pub unchanged: bool,
}

/// Everything lint found about one body.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// JSON patch or merge patch.
    pub kind: BodyKind,
    /// The engine assumed.
    #[serde(serialize_with = "semantics_name")]
    pub semantics: Semantics,
    /// The decoded ops of a JSON patch (empty for a merge patch), so a
    /// view can show findings on them by [`Finding::index`].
    #[serde(skip)]
    pub ops: Vec<Operation>,
    /// How many ops the body holds (malformed ones included).
    #[serde(rename = "opCount")]
    pub op_count: usize,
    /// The findings, by op index, then by severity (worst first).
    pub findings: Vec<Finding>,
    /// With the current object: whether the patch applies now.
    pub outcome: Option<Outcome>,
    /// Concurrent changes that make the patch fail (its conflict surface).
    #[serde(serialize_with = "conflicts")]
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes it would silently overwrite.
    #[serde(serialize_with = "overwrites")]
    pub overwrites: Vec<Overwrite>,
}

fn semantics_name<S: serde::Serializer>(s: &Semantics, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s.as_str())
}

#[derive(Serialize)]
struct PathReason<'a> {
    path: &'a str,
    reason: &'a str,
}

fn conflicts<S: serde::Serializer>(list: &[Precondition], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(list.iter().map(|c| PathReason {
        path: &c.path,
        reason: &c.reason,
    }))
}

fn overwrites<S: serde::Serializer>(list: &[Overwrite], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(list.iter().map(|o| PathReason {
        path: &o.path,
        reason: &o.reason,
    }))
}

impl Report {
    /// The worst severity found, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// True when a finding is at warning or above (the CLI exits 1).
    pub fn has_warnings(&self) -> bool {
        self.worst() >= Some(Severity::Warning)
    }

    /// The findings about op `index`.
    pub fn on_op(&self, index: usize) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.index == Some(index))
    }
}

/// Reads a patch: a `kubectl patch` command line (detected by its first
/// word), JSON text (kept byte for byte) or YAML (sent as the JSON Go
/// encodes, as kubectl does). A list is a JSON patch, an object a merge
/// patch.
///
/// # Errors
///
/// [`LintError`] saying what and where.
pub fn read(text: &str, budget: &Budget) -> Result<Input, LintError> {
    if kubectl::is_command(text) {
        return kubectl::read(text, budget);
    }
    read::body(text, budget, read::BodyText::File)
}

/// Reads `text` (see [`read`]) and lints it.
///
/// # Errors
///
/// [`LintError`] when the text cannot be read as a patch.
pub fn lint(text: &str, options: &Options) -> Result<Report, LintError> {
    let input = read(text, &budget())?;
    lint_input(&input, options)
}

/// Lints a body already read.
///
/// # Errors
///
/// [`LintError::Payload`] when a JSON patch body is not a list of op
/// objects (the server answers 400 before running anything).
pub fn lint_input(input: &Input, options: &Options) -> Result<Report, LintError> {
    let mut report = match input.kind {
        BodyKind::JsonPatch => {
            let decoded = patch::decode(&input.payload).map_err(LintError::Payload)?;
            checks::json_patch(&decoded, Some(&input.payload), options)
        }
        BodyKind::MergePatch => {
            let body: Value = serde_json::from_str(&input.payload).map_err(|err| {
                LintError::Syntax(crate::input::InputError {
                    message: err.to_string(),
                    line: Some(err.line()),
                    column: Some(err.column()),
                })
            })?;
            merge::merge_patch(&body, options)
        }
        kind @ (BodyKind::Apply | BodyKind::Update) => return Err(LintError::Unsupported(kind)),
    };
    if input.payload.len() > MAX_BODY_BYTES {
        report.findings.push(Finding::new(
            Rule::BodyTooLarge,
            None,
            None,
            format!(
                "the body is {} bytes, more than the server's limit of {MAX_BODY_BYTES}: {}",
                input.payload.len(),
                crate::status::Status::body_too_large()
            ),
        ));
    }
    report
        .findings
        .sort_by_key(|f| (f.index.map_or(0, |i| i + 1), std::cmp::Reverse(f.severity)));
    Ok(report)
}

/// Lints a list of ops (as the strategy engine or a builder made them).
pub fn lint_ops(ops: &[Operation], options: &Options) -> Report {
    let decoded = patch::Decoded {
        ops: ops.to_vec(),
        malformed: None,
        count: ops.len(),
        warnings: Vec::new(),
    };
    let mut report = checks::json_patch(&decoded, None, options);
    report
        .findings
        .sort_by_key(|f| (f.index.map_or(0, |i| i + 1), std::cmp::Reverse(f.severity)));
    report
}

/// The outcome of applying `decoded` to `object` on `engine`.
fn outcome(object: &Value, decoded: &patch::Decoded, engine: Engine) -> Outcome {
    let mut doc = object.clone();
    match apply::apply_decoded(&mut doc, decoded, engine) {
        Ok(()) => Outcome {
            applies: true,
            index: None,
            path: None,
            cause: None,
            response: None,
            unchanged: crate::gojson::stored_eq(&doc, object),
        },
        Err(err) => Outcome {
            applies: false,
            index: err.index,
            path: err.path.clone(),
            cause: Some(err.cause.to_string()),
            response: err.response(),
            unchanged: true,
        },
    }
}

/// The conflict surface and overwrites of plain ops (see
/// [`strategy::surface_of`]).
fn surface(ops: &[Operation]) -> (Vec<Precondition>, Vec<Overwrite>) {
    strategy::surface_of(ops)
}

#[cfg(test)]
mod tests;
