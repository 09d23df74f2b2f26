//! Build's question: two objects' texts and the result columns; the
//! answer is every column (what it sends, tests, risks, its exports and
//! lint's findings) and the Fields table, texts written once, here: the
//! page only reads them.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Caches, Never, Question};
use crate::input::{self, Budget, InputError};
use crate::kube::KubeVersion;
use crate::lint::{self, Report, Rule};
use crate::patch::OpKind;
use crate::pointer::PointerBuf;
use crate::strategy::{
    self, Body, BodyKind, DiffError, FieldKind, Options, Overwrite, Plan, Precondition, Preset,
    RoundTrip, Strategy,
};

/// Characters of an op's value shown in a column.
pub const VALUE_CHARS: usize = 120;

/// What the Build view asks: two texts (JSON or YAML) and the columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// The old object's text.
    pub old: Rc<str>,
    /// The new object's text.
    pub new: Rc<str>,
    /// The columns.
    pub columns: Vec<Column>,
    /// The release the round trips run on.
    #[serde(default)]
    pub kubernetes: KubeVersion,
}

/// The revisions of what a Build answer is computed from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revs {
    /// The old side's.
    pub old: u64,
    /// The new side's.
    pub new: u64,
    /// The columns'.
    pub columns: u64,
}

impl Question for Build {
    const NAME: &'static str = "build";
    type Rev = Revs;
    type Answer = Built;
    type Refusal = Never;

    fn bytes(&self) -> usize {
        self.old.len() + self.new.len()
    }

    /// Parses both sides (the cached parse when a text did not change)
    /// and, when both parse, computes every column.
    fn answer(self, caches: &mut Caches) -> Result<Built, Never> {
        let parses = caches.get::<Parses>();
        let old = parses.old.parse(&self.old);
        let new = parses.new.parse(&self.new);
        let results = match (&old, &new) {
            (Ok(old), Ok(new)) => Some(Rc::new(compute(old, new, &self.columns, self.kubernetes))),
            _ => None,
        };
        Ok(Built {
            old: old.err(),
            new: new.err(),
            results,
        })
    }
}

/// The last parse of each side: an edit of one editor does not parse the
/// other again (Build's and Convert's cache).
#[derive(Default)]
pub struct Parses {
    /// The old side's.
    pub old: Parse,
    /// The new side's.
    pub new: Parse,
}

/// A side's last text and what it parsed to.
#[derive(Default)]
pub struct Parse(Option<(Rc<str>, Parsed)>);

/// What a text parses to, or why not.
type Parsed = Result<Rc<Value>, InputError>;

impl Parse {
    /// What `text` parses to, from the cache when it is the last text.
    ///
    /// # Errors
    ///
    /// Why it does not parse, and where.
    pub fn parse(&mut self, text: &Rc<str>) -> Result<Rc<Value>, InputError> {
        if let Some((cached, result)) = &self.0 {
            if **cached == **text {
                return result.clone();
            }
        }
        let result = input::parse(text, &Budget::default()).map(|(value, _)| Rc::new(value));
        self.0 = Some((Rc::clone(text), result.clone()));
        result
    }
}

/// What Build's question found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Built {
    /// Why the old side does not parse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old: Option<InputError>,
    /// Why the new side does not parse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new: Option<InputError>,
    /// Every result, when both texts parse.
    pub results: Option<Rc<Results>>,
}

/// A result column asked for: a preset and its per-field overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// The preset.
    pub preset: Preset,
    /// Strategy overrides by pointer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<PointerBuf, Strategy>,
}

impl Column {
    /// A column of `preset` without overrides.
    pub fn of(preset: Preset) -> Column {
        Column {
            preset,
            overrides: BTreeMap::new(),
        }
    }

    /// What the column runs, named: its preset and each override
    /// ([`strategy::label`]).
    pub fn label(&self) -> String {
        strategy::label(
            self.preset,
            self.overrides.iter().map(|(p, s)| (p.as_str(), *s)),
        )
    }

    /// The preset's summary, then what each override sends instead.
    pub fn label_summary(&self) -> String {
        strategy::label_summary(
            self.preset,
            self.overrides.iter().map(|(p, s)| (p.as_str(), *s)),
        )
    }

    /// The diff options of this column.
    pub fn options(&self) -> Options {
        let mut options = Options::preset(self.preset);
        for (path, strategy) in &self.overrides {
            options.policy.set_strategy(path.clone(), *strategy);
        }
        options
    }
}

/// Everything derived from both objects and the columns, as the views
/// show it (texts written once, by the engine: render only reads).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Per column.
    pub columns: Vec<ColumnResult>,
    /// Every changed path (in any column), with its kind and each column's
    /// strategy: the Fields table.
    pub fields: Vec<FieldRow>,
    /// The presets a column can choose for the new object
    /// ([`Preset::for_object`]: every preset, and `strategic` for a
    /// built-in kind). Decided here, so the schema tables stay in the
    /// worker; empty before the first answer (the view then offers
    /// [`Preset::ALL`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<Preset>,
}

/// One column's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColumnResult {
    /// The preset the column ran.
    pub preset: Preset,
    /// What the column ran, named: the preset and its overrides.
    #[serde(default)]
    pub label: String,
    /// The preset's summary and what each override sends instead.
    #[serde(default)]
    pub label_summary: String,
    /// Why there is no plan (the diff's error), if there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What is sent: a JSON patch, a merge patch, an update or an apply.
    pub kind: BodyKind,
    /// Its content type.
    pub content_type: String,
    /// "2 ops · 180 bytes", or the content type and size of a body.
    pub summary: String,
    /// True when nothing needs to be sent.
    pub empty: bool,
    /// The ops sent (JSON patches).
    pub ops: Vec<OpResult>,
    /// Lint's findings about the body as a whole (not one op): all of a
    /// merge or strategic merge patch's, a JSON patch's about its size.
    /// The same as the Check view shows for the same bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingResult>,
    /// The texts of the rules its findings (the body's and the ops') name.
    /// Always sent: an answer without it is from engines of another
    /// version, and is refused as unreadable rather than shown without them.
    pub rules: Vec<RuleText>,
    /// The field manager of an apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_manager: Option<String>,
    /// The round-trip check.
    pub round_trip: RoundTripResult,
    /// Concurrent changes that make the patch fail (its conflict surface).
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes the patch would silently overwrite.
    pub overwrites: Vec<Overwrite>,
    /// Caveats.
    pub notes: Vec<String>,
    /// What is sent and the exports (`None` without a plan).
    pub texts: Option<Rc<Texts>>,
}

/// One op a column sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpResult {
    /// `add`, `remove`, `replace`, `move`, `copy` or `test`.
    pub op: String,
    /// The target (an escaped JSON Pointer).
    pub path: String,
    /// The value, cut to [`VALUE_CHARS`] (ops that take one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Why the strategy sends it.
    pub reason: String,
    /// True when no other column sends the same op.
    #[serde(default)]
    pub unique: bool,
    /// What lint finds on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingResult>,
}

impl OpResult {
    /// The op's kind.
    pub fn kind(&self) -> Option<OpKind> {
        OpKind::parse(&self.op)
    }
}

/// A lint finding on an op, as a column shows it (no fix).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingResult {
    /// Its position in the column's report.
    pub n: usize,
    /// The rule's name.
    pub rule: String,
    /// The path it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
    /// It has a fix.
    #[serde(default)]
    pub has_fix: bool,
}

/// The texts of a rule a column's findings name ([`ColumnResult::rules`]):
/// sent with the answer, once per rule, so the page module does not carry
/// the rule table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleText {
    /// The rule's name.
    pub rule: String,
    /// Why it matters ([`lint::RuleInfo::explanation`]).
    pub explanation: Rc<str>,
    /// What its fix does ([`lint::RuleInfo::fix`]).
    pub fix: Rc<str>,
}

impl RuleText {
    /// The texts of every rule `report` names, in rule order, each once.
    pub fn of(report: Option<&Report>) -> Vec<RuleText> {
        let mut named = [false; Rule::ALL.len()];
        for finding in report.map_or(&[][..], |report| &report.findings) {
            named[finding.rule as usize] = true;
        }
        Rule::ALL
            .into_iter()
            .filter(|rule| named[*rule as usize])
            .map(|rule| {
                let info = rule.info();
                RuleText {
                    rule: rule.as_str().to_owned(),
                    explanation: Rc::from(info.explanation),
                    fix: Rc::from(info.fix),
                }
            })
            .collect()
    }
}

impl FindingResult {
    /// Finding `f`, the `n`th shown.
    fn of(n: usize, f: &lint::Finding) -> Self {
        FindingResult {
            n,
            rule: f.rule.as_str().to_owned(),
            path: f.path.clone(),
            message: f.message.clone(),
            has_fix: f.fix.is_some(),
        }
    }

    /// The lint finding (without its fix), for the shared diagnostics
    /// component; `None` for a rule this build does not know.
    pub fn finding(&self) -> Option<lint::Finding> {
        let rule: Rule = self.rule.parse().ok()?;
        Some(lint::Finding {
            rule,
            severity: rule.severity(),
            index: None,
            path: self.path.clone(),
            message: self.message.clone(),
            fix: None,
            writers: Vec::new(),
            folded: None,
        })
    }
}

/// The round-trip check, as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoundTripResult {
    /// old + patch = new.
    Exact,
    /// The server would refuse the patch (why, in words).
    Refused(String),
    /// It applies, but the result differs (where, in words).
    Differs(String),
    /// A server-side apply: depends on who owns which field.
    NotApplicable,
}

impl From<&RoundTrip> for RoundTripResult {
    fn from(round_trip: &RoundTrip) -> RoundTripResult {
        match round_trip {
            RoundTrip::Exact => RoundTripResult::Exact,
            RoundTrip::NotApplicable => RoundTripResult::NotApplicable,
            RoundTrip::Refused(_) => RoundTripResult::Refused(round_trip.to_string()),
            RoundTrip::Differs { .. } => RoundTripResult::Differs(round_trip.to_string()),
        }
    }
}

/// A column's texts, written once per result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    /// What is sent, byte for byte.
    pub payload: Rc<str>,
    /// The body as shown when it is not a list of ops: pretty JSON (a
    /// merge patch, an update) or YAML (an apply configuration).
    pub body: Option<Rc<str>>,
    /// The `kubectl` command that sends it (naming the new object).
    pub kubectl: Rc<str>,
    /// KubeVirt's patch builder in Go (JSON patches).
    pub go: Option<Rc<str>>,
    /// The same in Rust, with patchlab's builder (JSON patches).
    pub rust: Option<Rc<str>>,
}

impl Texts {
    fn of(plan: &Plan, new: &Value) -> Texts {
        let body = match &plan.body {
            Body::JsonPatch(_) => None,
            Body::MergePatch(body) | Body::Update(body) | Body::StrategicMergePatch(body) => {
                Some(input::to_json_pretty(body))
            }
            Body::Apply { config, .. } => Some(input::to_yaml(config)),
        };
        Texts {
            payload: Rc::from(plan.body_text()),
            body: body.map(Rc::from),
            kubectl: Rc::from(strategy::kubectl(plan, new)),
            go: strategy::go_code(plan).map(Rc::from),
            rust: strategy::rust_code(plan).map(Rc::from),
        }
    }
}

/// A row of the Fields table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldRow {
    /// The field's pointer.
    pub path: PointerBuf,
    /// Its kind.
    #[serde(with = "by_name")]
    pub kind: FieldKind,
    /// How it changed: `added`, `removed` or `modified`.
    pub change: String,
    /// The strategy per column (`None` where the column sends a
    /// whole-object body).
    pub strategies: Vec<Option<Strategy>>,
}

/// A type written as its name ([`std::fmt::Display`] and
/// [`std::str::FromStr`]).
mod by_name {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T: FromStr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let name = String::deserialize(d)?;
        name.parse()
            .map_err(|_| serde::de::Error::custom(format!("unknown name {name:?}")))
    }
}

/// Every column and the Fields table for two parsed objects.
pub fn compute(old: &Value, new: &Value, columns: &[Column], kubernetes: KubeVersion) -> Results {
    let plans: Vec<Result<Plan, DiffError>> = columns
        .iter()
        .map(|column| {
            let mut options = column.options();
            options.kubernetes = kubernetes;
            strategy::diff(old, new, &options)
        })
        .collect();
    let sent: Vec<Vec<String>> = plans
        .iter()
        .map(|plan| match plan {
            Ok(plan) => plan
                .ops()
                .unwrap_or_default()
                .iter()
                .map(|p| p.op.to_json())
                .collect(),
            Err(_) => Vec::new(),
        })
        .collect();
    let fields = field_rows(&plans);
    let columns = plans
        .iter()
        .zip(columns)
        .enumerate()
        .map(|(i, (plan, column))| {
            let unique = |k: usize| {
                sent.len() > 1
                    && sent.iter().enumerate().all(|(j, other)| {
                        j == i || sent[i].get(k).is_none_or(|op| !other.contains(op))
                    })
            };
            column_result(old, new, column, plan, kubernetes, unique)
        })
        .collect();
    Results {
        columns,
        fields,
        presets: Preset::for_object(new, kubernetes),
    }
}

fn column_result(
    old: &Value,
    new: &Value,
    column: &Column,
    plan: &Result<Plan, DiffError>,
    kubernetes: KubeVersion,
    unique: impl Fn(usize) -> bool,
) -> ColumnResult {
    let plan = match plan {
        Ok(plan) => plan,
        Err(error) => return ColumnResult::failed(column.preset, error),
    };
    let options = column.options();
    let round_trip = strategy::round_trip_on(old, new, plan, &options.policy, kubernetes);
    let kind = new.get("kind").and_then(Value::as_str);
    let report = lint::lint_plan(plan, kind);
    let texts = Texts::of(plan, new);
    let ops = plan
        .ops()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(k, planned)| op_result(k, planned, unique(k), report.as_ref()))
        .collect();
    ColumnResult {
        preset: column.preset,
        label: column.label(),
        label_summary: column.label_summary(),
        error: None,
        kind: plan.body.kind(),
        content_type: plan.body.content_type().to_owned(),
        summary: summary(plan, &texts),
        empty: plan.is_empty(),
        ops,
        findings: report.as_ref().map(body_findings).unwrap_or_default(),
        rules: RuleText::of(report.as_ref()),
        field_manager: match &plan.body {
            Body::Apply { field_manager, .. } => Some(field_manager.clone()),
            _ => None,
        },
        round_trip: RoundTripResult::from(&round_trip),
        conflicts: plan.conflicts.clone(),
        overwrites: plan.overwrites.clone(),
        notes: plan.notes.clone(),
        texts: Some(Rc::new(texts)),
    }
}

/// The findings of `report` about the body as a whole (not one op).
fn body_findings(report: &Report) -> Vec<FindingResult> {
    let whole = report.findings.iter().enumerate();
    whole
        .filter(|(_, f)| f.index.is_none())
        .map(|(n, f)| FindingResult::of(n, f))
        .collect()
}

impl ColumnResult {
    /// A column of `preset` without a plan: why.
    fn failed(preset: Preset, error: &DiffError) -> ColumnResult {
        ColumnResult {
            preset,
            label: preset.as_str().to_owned(),
            label_summary: preset.summary().to_owned(),
            error: Some(error.to_string()),
            kind: BodyKind::JsonPatch,
            content_type: String::new(),
            summary: String::new(),
            empty: true,
            ops: Vec::new(),
            findings: Vec::new(),
            field_manager: None,
            round_trip: RoundTripResult::NotApplicable,
            conflicts: Vec::new(),
            overwrites: Vec::new(),
            notes: Vec::new(),
            texts: None,
            rules: Vec::new(),
        }
    }
}

fn op_result(
    k: usize,
    planned: &strategy::PlannedOp,
    unique: bool,
    report: Option<&Report>,
) -> OpResult {
    let op = &planned.op;
    OpResult {
        op: op.op.as_str().to_owned(),
        path: op.path.clone(),
        value: op
            .value
            .as_ref()
            .filter(|_| op.op.takes_value())
            .map(|v| crate::text::elide_value(v, VALUE_CHARS)),
        reason: planned.reason.to_string(),
        unique,
        findings: report
            .map(|report| {
                report
                    .on_op(k)
                    .enumerate()
                    .map(|(n, f)| FindingResult::of(n, f))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// "2 ops · 180 bytes", or the content type and size of a body.
fn summary(plan: &Plan, texts: &Texts) -> String {
    let bytes = texts.payload.len();
    match &plan.body {
        Body::JsonPatch(ops) => format!(
            "{} op{} · {bytes} bytes",
            ops.len(),
            if ops.len() == 1 { "" } else { "s" },
        ),
        _ => format!("{} · {bytes} bytes", plan.body.content_type()),
    }
}

/// Rows of the Fields table: every changed path (in any column), with its
/// kind and each column's strategy, in path order.
fn field_rows(plans: &[Result<Plan, DiffError>]) -> Vec<FieldRow> {
    let mut rows: BTreeMap<PointerBuf, FieldRow> = BTreeMap::new();
    for (i, plan) in plans.iter().enumerate() {
        let Ok(plan) = plan else {
            continue;
        };
        for field in &plan.fields {
            let row = rows.entry(field.path.clone()).or_insert_with(|| FieldRow {
                path: field.path.clone(),
                kind: field.kind,
                change: field.change.as_str().to_owned(),
                strategies: vec![None; plans.len()],
            });
            if let Some(slot) = row.strategies.get_mut(i) {
                *slot = Some(field.strategy);
            }
        }
    }
    rows.into_values().collect()
}
