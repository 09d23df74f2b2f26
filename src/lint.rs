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

mod body;
mod checks;
pub mod context;
mod curl;
mod dropped;
mod fields;
mod fix;
mod hints;
mod index;
pub mod kinds;
mod kubectl;
mod lists;
mod merge;
mod paths;
mod read;
mod reads;
pub mod report;
pub mod rules;
mod shell;
mod smp;
mod template;
mod words;
mod wrapped;
pub mod writers;

use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;

pub use fields::MAX_UNKNOWN_FIELDS;
pub use fix::{FIX_OPS_BASE, FIX_OPS_PER_OP, SHOWN_PER_RULE};
pub use kubectl::is_command;
pub use lists::{ListTypes, Types, LISTS_SHOWN};
pub use read::kubectl_sends;
pub use read::{
    budget, read_object, BodyKind, Hint, Input, LintError, Origin, PatchFiles, Wrapped,
};
pub use rules::{AppliesTo, Example, Rule, RuleInfo, Severity, RULES};

use crate::apply::{self, Engine, Semantics, ServerResponse};
use crate::input::Budget;
use crate::kube::Cluster;
use crate::limits::MAX_BODY_BYTES;
use crate::patch::{self, Operation};
use crate::strategy::{self, Overwrite, Policy, Precondition};
use rules::message;

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
    /// The object's kind (`Node`, `VirtualMachineInstance`): decides who
    /// else writes a field ([`writers`]) and which maps hold strings.
    /// When `None`, the object's `kind`, else the kind a `kubectl patch`
    /// command names.
    pub kind: Option<String>,
    /// Where the patch is applied ([`context::Context`]): a live object
    /// by default.
    pub context: context::Context,
}

impl Options {
    /// The engine the patch runs on: RFC 6902, or the cluster's.
    pub fn engine(&self) -> Engine {
        match self.semantics {
            Semantics::Rfc => Engine::Rfc,
            Semantics::Kube => self.cluster.into(),
        }
    }
}

/// A rewritten op list: the whole patch as it should be sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// The ops, in order.
    pub ops: Vec<Operation>,
    /// For each op, its index in the original patch when it is an
    /// original op left as it was.
    origin: Vec<Option<usize>>,
    /// The original ops as sent (minified), by index.
    written: Option<Rc<[Box<str>]>>,
}

impl Fix {
    /// A fix of plain ops (nothing kept from an original payload).
    pub fn of(ops: Vec<Operation>) -> Fix {
        Fix {
            origin: vec![None; ops.len()],
            ops,
            written: None,
        }
    }

    /// Each op's JSON text: an op the fix leaves as it was keeps the bytes
    /// it was sent with (a `test` value written `1.0`, an escape, a key
    /// order); a new or changed op is written as KubeVirt's builder
    /// writes it.
    pub fn op_texts(&self) -> Vec<String> {
        self.ops
            .iter()
            .zip(&self.origin)
            .map(|(op, origin)| {
                origin
                    .and_then(|i| self.written.as_ref()?.get(i))
                    .map(|text| text.to_string())
                    .unwrap_or_else(|| op.to_json())
            })
            .collect()
    }

    /// The original index of each op the fix keeps as it was.
    pub fn kept(&self) -> &[Option<usize>] {
        &self.origin
    }

    /// The fix as a payload: untouched ops byte for byte as sent, the
    /// others as KubeVirt's builder writes them (`[]` when the fix is to
    /// send nothing).
    pub fn payload(&self) -> String {
        // An op's text is what `PatchSet::payload_with(Encoding::Go)`
        // writes for it, or its bytes as sent.
        format!("[{}]", self.op_texts().join(","))
    }
}

impl Serialize for Fix {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.ops.serialize(serializer)
    }
}

/// Findings of one rule folded into one (see [`SHOWN_PER_RULE`]): the
/// report stays bounded when a rule fires on thousands of ops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Folded {
    /// How many findings this one stands for, itself included.
    pub count: usize,
    /// Their op indices (the first 100).
    pub indices: Vec<usize>,
    /// Their paths (the first 20).
    pub paths: Vec<String>,
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
    /// The other writers of the field that make this op fail or whose
    /// changes it erases (names from [`writers::WRITERS`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub writers: Vec<&'static str>,
    /// The same finding on further ops, folded into this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folded: Option<Folded>,
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
            writers: Vec::new(),
            folded: None,
        }
    }

    /// True when this finding stands for op `index` (its own, or one
    /// folded into it).
    pub fn covers(&self, index: usize) -> bool {
        self.index == Some(index)
            || self
                .folded
                .as_ref()
                .is_some_and(|f| f.indices.contains(&index))
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
    /// JSON patch, merge patch or strategic merge patch.
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
    /// The findings, by op index, then by severity (worst first); at most
    /// [`SHOWN_PER_RULE`] + 1 per rule (see [`Finding::folded`]).
    pub findings: Vec<Finding>,
    /// With the current object: whether the patch applies now.
    pub outcome: Option<Outcome>,
    /// Concurrent changes that make the patch fail (its conflict surface).
    #[serde(serialize_with = "conflicts")]
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes it would silently overwrite.
    #[serde(serialize_with = "overwrites")]
    pub overwrites: Vec<Overwrite>,
    /// For a merge or strategic merge body: what each patch type would do
    /// with it, list by list (so that no advice to switch types deletes
    /// elements the user did not touch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub types: Option<Types>,
    /// Where the patch is applied, when not to a live object.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "context_name"
    )]
    pub context: Option<context::Context>,
}

fn context_name<S: serde::Serializer>(
    context: &Option<context::Context>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match context {
        Some(c) => s.serialize_str(c.as_str()),
        None => s.serialize_none(),
    }
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
    /// A report of a `kind` body on `semantics`, with nothing in it yet.
    fn new(kind: BodyKind, semantics: Semantics) -> Report {
        Report {
            kind,
            semantics,
            ops: Vec::new(),
            op_count: 0,
            findings: Vec::new(),
            outcome: None,
            conflicts: Vec::new(),
            overwrites: Vec::new(),
            types: None,
            context: None,
        }
    }

    /// The worst severity found, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// True when a finding is at warning or above (the CLI exits 1).
    pub fn has_warnings(&self) -> bool {
        self.worst() >= Some(Severity::Warning)
    }

    /// True when no body was read, and the findings say all there is (a
    /// command or body that fails as written, a body set elsewhere).
    pub fn is_judged(&self) -> bool {
        self.op_count == 0 && self.findings.iter().any(|f| f.rule.judges_whole_text())
    }

    /// The findings about op `index` (folded ones included).
    pub fn on_op(&self, index: usize) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.covers(index))
    }
}

/// What the analysis of a body produces: the report without findings, and
/// the findings with their fixes still to write out.
struct Analysis {
    report: Report,
    pending: Vec<fix::Pending>,
}

/// Reads a patch: a `kubectl patch` command line (found by its words,
/// inside shell text too), JSON text (kept byte for byte) or YAML (sent
/// as the JSON Go encodes, as kubectl does). A list is a JSON patch; an
/// object is a merge patch, or a strategic merge patch when it holds
/// directives (`$patch`, `$retainKeys`, `$setElementOrder/...`).
///
/// # Errors
///
/// [`LintError`] saying what and where.
pub fn read(text: &str, budget: &Budget) -> Result<Input, LintError> {
    read_with(text, budget, None)
}

/// [`read`], with a way to open the file of `kubectl patch --patch-file`
/// (the CLI passes one; the browser has none).
///
/// # Errors
///
/// [`LintError`] saying what and where.
pub fn read_with(
    text: &str,
    budget: &Budget,
    files: Option<PatchFiles<'_>>,
) -> Result<Input, LintError> {
    if text.contains("{{") {
        if let Some(read) = template::read(text, budget, files) {
            return read;
        }
    }
    if curl::is_curl(text) {
        return curl::read(text, budget, files);
    }
    if kubectl::is_command(text) {
        return kubectl::read(text, budget, files);
    }
    wrapped::unwrap(read::body(text, budget)?, budget, read::body)
}

/// [`read_with`] for the faces that lint: a text that reads but fails as
/// written, or whose body is set elsewhere ([`LintError::Judged`]), is an
/// input whose report is its findings, not an error.
///
/// # Errors
///
/// [`LintError`] when the text cannot be read at all.
pub fn read_for_lint(
    text: &str,
    budget: &Budget,
    files: Option<PatchFiles<'_>>,
) -> Result<Input, LintError> {
    read_with(text, budget, files).or_else(|err| Input::judged(&err).ok_or(err))
}

/// Reads `text` (see [`read_for_lint`]) and lints it.
///
/// # Errors
///
/// [`LintError`] when the text cannot be read as a patch.
pub fn lint(text: &str, options: &Options) -> Result<Report, LintError> {
    let input = read_for_lint(text, &budget(), None)?;
    lint_input(&input, options)
}

/// The kind lint assumes: the options', the object's, or the command's.
fn kind_of(options: &Options, input: Option<&Input>) -> Option<String> {
    let kind = options.kind.clone().or_else(|| {
        options
            .object
            .as_ref()
            .and_then(|o| o.get("kind"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    kind.or_else(|| input?.resource.as_ref()?.kind.clone())
        .map(|k| kinds::canonical_kind(&k).map_or(k, str::to_owned))
}

/// Lints a body already read. This and [`lint_ops`] are the two entry
/// points: every face (CLI, JS, Check, Build) lints through them.
///
/// # Errors
///
/// [`LintError::Payload`] when a JSON patch body is not a list of op
/// objects (the server answers 400 before running anything).
pub fn lint_input(input: &Input, options: &Options) -> Result<Report, LintError> {
    if let Some(wrapper) = &input.wrapper {
        return lint_wrapped(input, wrapper, options);
    }
    let kind = kind_of(options, Some(input));
    let kind = kind.as_deref();
    let syntax = |err: serde_json::Error| {
        LintError::Syntax(crate::input::InputError {
            message: err.to_string(),
            line: Some(err.line()),
            column: Some(err.column()),
        })
    };
    let go_formatted = input.hints.iter().any(|h| h.rule == Rule::GoFormattedBody);
    let schema_kind = lists::schema_of(options, kind);
    let (analysis, written) = match input.kind {
        _ if input.is_judged() => (judged_report(input, options), None),
        BodyKind::JsonPatch if go_formatted => (go_formatted_report(input, options), None),
        BodyKind::JsonPatch => {
            let decoded = patch::decode(&input.payload).map_err(LintError::Payload)?;
            let mut analysis = checks::json_patch(&decoded, Some(&input.payload), options, kind);
            analysis
                .pending
                .extend(fields::in_ops(&decoded.ops, schema_kind));
            (analysis, fix::written_ops(&input.payload))
        }
        BodyKind::MergePatch => {
            let body: Value = serde_json::from_str(&input.payload).map_err(syntax)?;
            let mut analysis = merge::merge_patch(&body, options, kind);
            analysis.pending.extend(fields::in_body(&body, schema_kind));
            (analysis, None)
        }
        BodyKind::StrategicMergePatch => {
            let body: Value = serde_json::from_str(&input.payload).map_err(syntax)?;
            let mut analysis = smp::strategic(
                &body,
                &input.payload,
                options,
                kind,
                input.resource.as_ref(),
            );
            analysis.pending.extend(fields::in_body(&body, schema_kind));
            (analysis, None)
        }
        kind @ (BodyKind::Apply | BodyKind::Update) => return Err(LintError::Unsupported(kind)),
    };
    let Analysis {
        report,
        mut pending,
    } = analysis;
    if input.payload.len() > MAX_BODY_BYTES {
        let (bytes, limit) = (input.payload.len(), MAX_BODY_BYTES);
        let status = crate::status::Status::body_too_large();
        let message = message!(BodyTooLarge "body", bytes, limit, status);
        let finding = Finding::new(Rule::BodyTooLarge, None, None, message);
        pending.push(fix::Pending::new(finding));
    }
    let mut report = report;
    in_context(options.context, &mut report, &mut pending);
    for hint in &input.hints {
        let reported = input.is_judged() && hint.rule.judges_whole_text();
        if hint.rule != Rule::GoFormattedBody && !reported {
            pending.push(fix::Pending::new(Finding::new(
                hint.rule,
                None,
                None,
                hint.message.clone(),
            )));
        }
    }
    Ok(finish(report, pending, written))
}

/// Lints each patch a kustomization or an AdmissionReview carries, where
/// it goes (unless `--context` says otherwise) and for the kind its target
/// names: one patch's report as it is; several patches' findings in one
/// report, each message led by the patch's place (the ops, the outcome
/// and the fixes are the first patch's).
fn lint_wrapped(input: &Input, wrapper: &Wrapped, options: &Options) -> Result<Report, LintError> {
    let several = !wrapper.others.is_empty();
    let one = |part: &Input, place: &Wrapped| -> Result<Report, LintError> {
        let mut options = options.clone();
        if options.context == context::Context::Live {
            options.context = place.context;
        }
        options.kind = options.kind.or_else(|| place.kind.clone());
        let bare = Input {
            wrapper: None,
            ..part.clone()
        };
        let mut report = lint_input(&bare, &options)?;
        if several {
            for finding in &mut report.findings {
                finding.message = format!("{}: {}", place.label, finding.message);
            }
        }
        Ok(report)
    };
    let mut report = one(input, wrapper)?;
    for other in &wrapper.others {
        let Some(place) = other.wrapper.as_deref() else {
            continue;
        };
        // Another patch's ops are not this report's: its findings keep
        // their path and say their place, without an op index or a fix.
        report
            .findings
            .extend(one(other, place)?.findings.into_iter().map(|mut f| {
                f.index = None;
                f.fix = None;
                f
            }));
    }
    let notes = wrapper.unread.iter();
    report
        .findings
        .extend(notes.map(|h| Finding::new(h.rule, None, None, h.message.clone())));
    Ok(report)
}

/// The findings that mean something where the patch is applied
/// ([`context::Context`]): off a live object, no concurrent writer; at
/// build time an index past the first element stays a finding of its own.
fn in_context(context: context::Context, report: &mut Report, pending: &mut Vec<fix::Pending>) {
    if context == context::Context::Live {
        return;
    }
    report.context = Some(context);
    report.conflicts.clear();
    report.overwrites.clear();
    pending.retain_mut(|p| {
        let finding = &mut p.finding;
        if context.keeps(finding.rule) {
            return true;
        }
        let past_first = finding.path.as_deref().and_then(context::index_past_first);
        match (finding.rule, past_first, finding.index) {
            (Rule::IndexWithoutTest, Some(at), Some(index)) if context.at_build_time() => {
                let path = finding.path.clone().unwrap_or_default();
                let built = context.as_str();
                finding.message = message!(IndexWithoutTest "built", index, path, at, built);
                finding.writers.clear();
                true
            }
            _ => false,
        }
    });
}

/// A text that reads and fails as written, or whose body is not known:
/// its findings are the report ([`LintError::Judged`]); the others (a
/// value read just before) are added with the hints after.
fn judged_report(input: &Input, options: &Options) -> Analysis {
    let pending = input
        .hints
        .iter()
        .filter(|h| h.rule.judges_whole_text())
        .map(|h| fix::Pending::new(Finding::new(h.rule, None, None, h.message.clone())))
        .collect();
    Analysis {
        report: Report::new(input.kind, options.semantics),
        pending,
    }
}

/// A body that is Go's `fmt` output: one finding, and the ops read back
/// when they can be.
fn go_formatted_report(input: &Input, options: &Options) -> Analysis {
    let message = input
        .hints
        .iter()
        .find(|h| h.rule == Rule::GoFormattedBody)
        .map(|h| h.message.clone())
        .unwrap_or_default();
    let ops = hints::read_go_formatted(&input.payload);
    let pending = vec![
        fix::Pending::new(Finding::new(Rule::GoFormattedBody, None, None, message))
            .with(ops.map(|ops| fix::Draft::Whole(Rc::new(ops)))),
    ];
    Analysis {
        report: Report::new(BodyKind::JsonPatch, options.semantics),
        pending,
    }
}

/// Sorts, folds and writes out the fixes: the report's last step, the same
/// for every body kind.
fn finish(
    mut report: Report,
    mut pending: Vec<fix::Pending>,
    written: Option<Rc<[Box<str>]>>,
) -> Report {
    crate::sort::sort_by_key(&mut pending, |p| {
        (
            p.finding.index.map_or(0, |i| i + 1),
            std::cmp::Reverse(p.finding.severity),
        )
    });
    let pending = fix::fold(pending);
    report.findings = fix::finish(pending, &report.ops, written);
    report
}

/// Lints a list of ops (as the strategy engine or a builder made them).
pub fn lint_ops(ops: &[Operation], options: &Options) -> Report {
    let decoded = patch::Decoded {
        ops: ops.to_vec(),
        malformed: None,
        count: ops.len(),
        warnings: Vec::new(),
    };
    let kind = kind_of(options, None);
    let Analysis {
        report,
        mut pending,
    } = checks::json_patch(&decoded, None, options, kind.as_deref());
    let schema_kind = lists::schema_of(options, kind.as_deref());
    pending.extend(fields::in_ops(ops, schema_kind));
    finish(report, pending, None)
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

// Lint on a strategy's plan (the Build view's columns).
mod plan;
pub use plan::lint_plan;

#[cfg(test)]
mod tests;
