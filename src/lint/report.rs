//! A report written out: compiler-style text, JSON and SARIF 2.1.0.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::{Finding, Fix, Outcome, Report, Rule, RULES};
use crate::apply::Semantics;

/// Where each op of a JSON-text payload starts: 1-based line and column,
/// by op index (empty when the payload is not a JSON array).
pub fn op_locations(payload: &str) -> Vec<(usize, usize)> {
    let Ok(elements) = serde_json::from_str::<Vec<&serde_json::value::RawValue>>(payload) else {
        return Vec::new();
    };
    let base = payload.as_ptr() as usize;
    let mut out = Vec::with_capacity(elements.len());
    // One pass: the line so far, and the characters since its start
    // (counting from the line's start for each op is quadratic on a
    // payload written on one line).
    let (mut line, mut column, mut scanned) = (1, 0, 0);
    for element in elements {
        let offset = (element.get().as_ptr() as usize)
            .saturating_sub(base)
            .min(payload.len());
        let segment = &payload[scanned..offset];
        match segment.rfind('\n') {
            Some(last) => {
                line += segment.bytes().filter(|&b| b == b'\n').count();
                column = segment[last + 1..].chars().count();
            }
            None => column += segment.chars().count(),
        }
        scanned = offset;
        out.push((line, column + 1));
    }
    out
}

/// Where the findings point: the file name and, for JSON text, where
/// each op starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// The name shown (a file path, `<stdin>`, `<command>`).
    pub name: String,
    /// 1-based line and column of each op, when the payload is the text
    /// as written.
    pub ops: Vec<(usize, usize)>,
}

impl Source {
    /// A source named `name` whose ops start where `payload` says (pass
    /// `None` when the payload is not the text the user wrote).
    pub fn new(name: impl Into<String>, payload: Option<&str>) -> Source {
        Source {
            name: name.into(),
            ops: payload.map(op_locations).unwrap_or_default(),
        }
    }

    fn at(&self, finding: &Finding) -> Option<(usize, usize)> {
        finding.index.and_then(|i| self.ops.get(i).copied())
    }
}

/// The longest fix the text output prints whole.
pub const FIX_SHOWN_BYTES: usize = 4096;

/// Conflicts and overwrites the text output lists (JSON and SARIF list
/// all of them).
pub const LISTED: usize = 50;

/// Compiler-style text: one block per finding (severity, rule, message,
/// location, why, fix), then the outcome, conflict surface, overwrites and
/// a count.
pub fn text(report: &Report, source: &Source) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        write_finding(&mut out, finding, source);
    }
    if let Some(outcome) = &report.outcome {
        write_outcome(&mut out, outcome, report.semantics);
    }
    match report.context {
        Some(context) => {
            let _ = writeln!(out, "where ({}): {}", context.as_str(), context.describe());
        }
        // No body was read: there is no surface to list.
        None if report.is_judged() => {}
        None => write_surface(&mut out, report),
    }
    if let Some(types) = &report.types {
        let _ = writeln!(out, "patch types: {}", types.summary);
        for list in &types.lists {
            let _ = writeln!(out, "  {}", list.path);
            let _ = writeln!(out, "    strategic merge patch: {}", list.strategic);
            let _ = writeln!(out, "    merge patch (--type=merge): {}", list.merge);
        }
    }
    let _ = writeln!(out, "{}", count(report));
    out
}

/// One finding's block: severity, rule and message, location, why, fix.
fn write_finding(out: &mut String, finding: &Finding, source: &Source) {
    let info = finding.rule.info();
    let _ = writeln!(
        out,
        "{}[{}]: {}",
        finding.severity, finding.rule, finding.message
    );
    let mut at = source.name.clone();
    if let Some((line, column)) = source.at(finding) {
        let _ = write!(at, ":{line}:{column}");
    }
    if let Some(index) = finding.index {
        let _ = write!(at, " (op {index}");
        if let Some(path) = &finding.path {
            let _ = write!(at, " {path}");
        }
        at.push(')');
    } else if let Some(path) = &finding.path {
        let _ = write!(at, " ({path})");
    }
    let _ = writeln!(out, "  --> {at}");
    let _ = writeln!(out, "   = why: {}", info.explanation);
    let _ = writeln!(out, "   = fix: {}", info.fix);
    if let Some(fix) = &finding.fix {
        write_fix(out, fix);
    }
    out.push('\n');
}

/// A fix's patch: whole when short, otherwise the ops it writes anew.
fn write_fix(out: &mut String, fix: &Fix) {
    let payload = fix.payload();
    if payload.len() <= FIX_SHOWN_BYTES {
        let _ = writeln!(out, "          {payload}");
    } else {
        // A long patch: the ops the fix writes anew, not the
        // whole of it again for every finding.
        let texts = fix.op_texts();
        let new: Vec<&String> = texts
            .iter()
            .zip(fix.kept())
            .filter(|(_, kept)| kept.is_none())
            .map(|(text, _)| text)
            .collect();
        let _ = writeln!(
            out,
            "          {} ops in all ({} new or changed; --format json has the whole patch):",
            fix.ops.len(),
            new.len()
        );
        for text in new.iter().take(10) {
            let _ = writeln!(out, "          {text}");
        }
        if new.len() > 10 {
            let _ = writeln!(out, "          ... and {} more", new.len() - 10);
        }
    }
}

/// Whether the patch applies to the current object, and the server's
/// answer when it does not.
fn write_outcome(out: &mut String, outcome: &Outcome, semantics: Semantics) {
    if outcome.applies {
        let unchanged = if outcome.unchanged {
            " (and changes nothing: the server writes nothing)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "applies to the current object ({} semantics){unchanged}",
            semantics
        );
    } else {
        let _ = writeln!(
            out,
            "does not apply to the current object ({} semantics): {}",
            semantics,
            outcome.cause.as_deref().unwrap_or("")
        );
        if let Some(response) = &outcome.response {
            let _ = writeln!(out, "the server would answer: {response}");
        }
    }
}

/// The conflict surface and the overwrites, each list cut at [`LISTED`].
fn write_surface(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "conflict surface (a concurrent change here makes it fail):"
    );
    if report.conflicts.is_empty() {
        let _ = writeln!(out, "  none: nothing is tested");
    }
    for conflict in report.conflicts.iter().take(LISTED) {
        let path = if conflict.path.is_empty() {
            "(whole object)"
        } else {
            &conflict.path
        };
        let _ = writeln!(out, "  {path}: {}", conflict.reason);
    }
    if report.conflicts.len() > LISTED {
        let _ = writeln!(
            out,
            "  ... and {} more (--format json lists them all)",
            report.conflicts.len() - LISTED
        );
    }
    let _ = writeln!(
        out,
        "overwrites (concurrent changes it would silently erase):"
    );
    if report.overwrites.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for overwrite in report.overwrites.iter().take(LISTED) {
        let _ = writeln!(out, "  {}: {}", overwrite.path, overwrite.reason);
    }
    if report.overwrites.len() > LISTED {
        let _ = writeln!(
            out,
            "  ... and {} more (--format json lists them all)",
            report.overwrites.len() - LISTED
        );
    }
}

/// `2 warnings, 1 note` (or `no findings`).
pub fn count(report: &Report) -> String {
    let mut parts = Vec::new();
    for (severity, one, many) in [
        (super::Severity::Error, "error", "errors"),
        (super::Severity::Warning, "warning", "warnings"),
        (super::Severity::Note, "note", "notes"),
    ] {
        let n = report
            .findings
            .iter()
            .filter(|f| f.severity == severity)
            .count();
        if n > 0 {
            parts.push(format!("{n} {}", if n == 1 { one } else { many }));
        }
    }
    if parts.is_empty() {
        "no findings".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The report as JSON: `{"kind", "semantics", "opCount", "findings":
/// [{"rule", "severity", "index", "path", "message", "fix"}], "outcome",
/// "conflicts", "overwrites"}`.
pub fn json(report: &Report) -> Value {
    serde_json::to_value(report).unwrap_or(Value::Null)
}

/// The SARIF version written.
pub const SARIF_VERSION: &str = "2.1.0";

/// The report as a SARIF 2.1.0 log (one run, the rule table as the
/// driver's rules), so CI systems show the findings inline.
pub fn sarif(report: &Report, source: &Source) -> Value {
    let uri = if source.name.starts_with('<') {
        "stdin".to_owned()
    } else {
        source.name.clone()
    };
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|finding| {
            let mut physical = json!({"artifactLocation": {"uri": uri}});
            if let Some((line, column)) = source.at(finding) {
                physical["region"] = json!({"startLine": line, "startColumn": column});
            }
            let mut logical = Vec::new();
            if let Some(index) = finding.index {
                logical.push(
                    json!({"name": format!("op {index}"), "kind": "element", "index": index}),
                );
            }
            if let Some(path) = &finding.path {
                logical.push(json!({"fullyQualifiedName": path, "kind": "member"}));
            }
            let mut location = json!({"physicalLocation": physical});
            if !logical.is_empty() {
                location["logicalLocations"] = Value::Array(logical);
            }
            let mut result = json!({
                "ruleId": finding.rule.as_str(),
                "ruleIndex": Rule::ALL.iter().position(|r| *r == finding.rule).unwrap_or(0),
                "level": finding.severity.as_str(),
                "message": {"text": finding.message},
                "locations": [location],
            });
            let mut properties = serde_json::Map::new();
            if let Some(fix) = &finding.fix {
                properties.insert("fix".into(), json!(fix));
                properties.insert("fixPayload".into(), json!(fix.payload()));
            }
            if !finding.writers.is_empty() {
                properties.insert("writers".into(), json!(finding.writers));
            }
            if let Some(folded) = &finding.folded {
                properties.insert("folded".into(), json!(folded));
            }
            if !properties.is_empty() {
                result["properties"] = Value::Object(properties);
            }
            result
        })
        .collect();
    sarif_log(results)
}

/// The rule table as SARIF `reportingDescriptor`s, in [`Rule::ALL`]
/// order (a result's `ruleIndex` points into it).
pub fn sarif_rules() -> Vec<Value> {
    RULES
        .iter()
        .map(|info| {
            json!({
                "id": info.name,
                "name": pascal(info.name),
                "shortDescription": {"text": info.summary},
                "fullDescription": {"text": info.explanation},
                "help": {"text": format!("{}\n\nFix: {}", info.explanation, info.fix)},
                "defaultConfiguration": {"level": info.severity.as_str()},
            })
        })
        .collect()
}

/// A SARIF 2.1.0 log of one patchlab run holding `results`.
pub fn sarif_log(results: Vec<Value>) -> Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "patchlab",
                "version": crate::VERSION,
                "informationUri": crate::SOURCE_URL,
                "rules": sarif_rules(),
            }},
            "results": results,
        }],
    })
}

/// `whole-map-test` as `WholeMapTest`.
fn pascal(name: &str) -> String {
    name.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// docs/lint.md as generated from the rule table: one section per rule
/// (what, why, example, fix). A test keeps the file equal to this.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# Lint rules\n\n");
    out.push_str("<!-- Generated from the rule table (src/lint/rules.rs) and the writers table (src/lint/writers.rs) by `patchlab::lint::report::markdown()`; the test `docs_match_the_rule_table` keeps this file equal to it: run `PATCHLAB_BLESS=1 cargo test --lib lint::` after changing a rule. -->\n\n");
    out.push_str("`patchlab lint PATCH [--object OBJ] [--semantics kube|rfc] [--format text|json|sarif]` reads a JSON patch, a merge patch, a strategic merge patch or a whole `kubectl patch` command line and reports what is hazardous about it. Severities: **error** (cannot work, or fails on a real server), **warning** (fails or loses data under concurrency, or on some Kubernetes releases), **note** (worth knowing). The CLI exits 0 when nothing is at warning or above, 1 when something is, 2 when the input cannot be read.\n\n");
    out.push_str("How bodies are read: JSON text is sent byte for byte as written (that is what a controller sends, and what `test-never-matches` looks at); YAML is read as kubectl reads it (YAML 1.1, docs/fidelity.md section \"YAML as kubectl reads it\") and sent as the JSON Go's `encoding/json` writes. A list is a JSON patch; an object is a merge patch, or a strategic merge patch when it holds directives (`$patch`, `$retainKeys`, `$setElementOrder/...`, `$deleteFromPrimitiveList/...`).\n\n");
    out.push_str("How `kubectl patch` lines are read: as bash splits them (single and double quotes, `$'...'` with its escapes, continuation lines, here-documents), inside the shell around them (`for` loops, `| xargs`, `;`, `&&`, redirections, `$(...)`: each is named in the output). The `-p` argument, or the file `--patch-file` names (the CLI opens it), is converted the way kubectl converts it (apimachinery `yaml.ToJSON`, called from `staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`): text starting with `{` is sent as is, anything else, a JSON list or a byte order mark included, is read as YAML and re-encoded by Go, so `1.0` in a `kubectl patch --type=json` list reaches the server as `1` and a placeholder such as `<desired number>` becomes a string. The YAML is read as kubectl reads it, YAML 1.1 by sigs.k8s.io/yaml over yaml.v2 (whose reader, scanner and parser patchlab ports line for line, checked against the real kubectl's wire bytes in `tests/kubectl_yaml.rs`): `yes`, `on`, `y`, `off`, `No` are booleans (`yaml-boolean`), `010` is 8, `0b11` is 3, `1_000` is 1000 (`yaml-number`), `<<: *anchor` merges keys, a repeated key keeps its last value, and the texts yaml.v2 refuses (a `\\/` or a surrogate `\\uD83D` escape, a raw DEL or C1 control, `%YAML 1.2`, a tab where its scanner wants an indentation space) are refused with kubectl's own error line (`error: unable to parse \"...\": yaml: line 2: found unknown escape character`). Without `--type` (or with `--type=strategic`) kubectl sends a strategic merge patch (see below). The kind comes from the resource name (`cm`, `deploy`, `vmi`, `virtualmachineinstances.kubevirt.io`, `deploy/web`) and decides who else writes a field. A line lint cannot use says why in kubectl's own words (`must specify --patch or --patch-file containing the contents of the patch`, `--type must be one of [json merge strategic]`, ...).\n\n");
    out.push_str("Where a patch goes (`--context`, `context` in the JSON output): a request to a live object by default. `kustomize` (kustomize build's patches), `helm-post-renderer`, `webhook-response` (a mutating webhook's patch, applied by the API server to the object under admission) and `restore-time` (a Velero resource modifier, applied to the backup's copy before it is created) meet no concurrent writer and no request limit: the rules about guards, whole-collection writes, resourceVersion locks and the server's limits do not apply there, and the text output says where instead of listing a conflict surface. At build time an index past a list's first element stays a finding (`index-without-test`, in the build's words): it names whatever an upgrade of the base puts there.\n\nA kustomization (kustomize's `kind: Kustomization`, or Flux's under `spec`) and an AdmissionReview are recognized from the text, without the flag: lint reads each patch they hold (a kustomization's inline `patches`, `patchesJson6902` and `patchesStrategicMerge`, an AdmissionReview's base64 `response.patch`) and judges it where it goes; each message names its patch (`patches[1] (Deployment web): ...`), and a patch kept in a file (`path:`) is named as not read. Another `--context` than `live` wins over the recognized one.\n\n");
    out.push_str("How strategic merge patches are read (a `kubectl patch` line without `--type` or with `--type=strategic`, a body holding directives, or any object body with `patchlab lint --type strategic`): against the kind's schema (`src/schema`, generated from Kubernetes' published OpenAPI definitions: which lists merge by key, which as a set, which are replaced whole; which kinds are built in), and with `--object`, applied by the strategic merge patch engine kube-apiserver runs (`src/apply/strategic.rs`, a port of apimachinery `pkg/util/strategicpatch`, checked against the real kubectl: docs/fidelity.md section 7), so the outcome is the server's answer (415 for a custom resource, 500 for a list element without its merge key, 409 for a stale resourceVersion). For a merge or strategic merge body the report also says what each patch type would do with each list of the body (`types` in the JSON output, \"patch types\" in the text): lint never advises a type that would delete elements the body does not name.\n\n");
    out.push_str("Sources for the server's behaviour: kubernetes `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go` (10,000-op limit, 413; 422 for a failed op; 400 `error decoding patch`), `staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go` (the patch types a custom resource accepts), evanphx/json-patch `patch.go` at v4.12.0, v4.13.0 and v5.6.0 (the engines Kubernetes has shipped), KubeVirt `pkg/apimachinery/patch/patch.go` and PR #18139 (per-key map patches).\n\n");
    out.push_str("Bounds: every rule runs in time linear in the patch (paths are indexed once, in a trie), a rule that fires on many ops lists the first five and folds the rest into one finding with their count and one fix for all of them, and the fixes of one report hold at most eight times the patch's ops (plus 4,096).\n\n");
    out.push_str("| rule | severity | finds |\n|---|---|---|\n");
    for info in &RULES {
        let _ = writeln!(
            out,
            "| [`{}`](#{}) | {} | {} |",
            info.name, info.name, info.severity, info.summary
        );
    }
    out.push_str(&writers_table());
    for info in &RULES {
        let example = info.rule.example();
        let _ = write!(
            out,
            "## {}\n\n**{}**: {}.\n\n{}\n\n",
            info.name, info.severity, info.summary, info.explanation
        );
        let applies = match info.applies_to {
            super::AppliesTo::JsonPatch => "JSON patches",
            super::AppliesTo::MergePatch => "merge patches",
            super::AppliesTo::Both => "JSON patches and merge patches",
            super::AppliesTo::StrategicMergePatch => {
                "strategic merge patches (`kubectl patch` without `--type`)"
            }
            super::AppliesTo::All => "JSON patches, merge patches and strategic merge patches",
            super::AppliesTo::GoSource => "Go source (`patchlab scan`)",
        };
        let go = info.applies_to == super::AppliesTo::GoSource;
        let fence = |text: &str| {
            if go {
                format!("```go\n{text}\n```\n\n")
            } else {
                fenced(text)
            }
        };
        let _ = writeln!(out, "Applies to {applies}.\n");
        out.push_str("Example:\n\n");
        out.push_str(&fence(&example.patch));
        match example.object {
            Some(super::rules::NODE_OBJECT) => out.push_str("(against the example Node, `patchlab lint --object`; see `NODE_OBJECT` in src/lint/rules.rs)\n\n"),
            Some(_) => out.push_str("(against the example VMI, `patchlab lint --object`; see `EXAMPLE_OBJECT` in src/lint/rules.rs)\n\n"),
            None => {}
        }
        let _ = writeln!(out, "Fix: {}\n", info.fix);
        out.push_str(&fence(&example.fixed));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// A code block: `sh` for a command line, `json` otherwise; a byte order
/// mark shown as `<U+FEFF>` (invisible otherwise).
fn fenced(text: &str) -> String {
    let language = if super::is_command(text) {
        "sh"
    } else {
        "json"
    };
    let shown = match text.strip_prefix('\u{feff}') {
        Some(rest) => format!("<U+FEFF>{rest}"),
        None => text.to_owned(),
    };
    format!("```{language}\n{}\n```\n\n", shorten(&shown))
}

/// The writers table of docs/lint.md: who writes which field, with where.
fn writers_table() -> String {
    use super::writers::{ROWS, WRITERS};
    let mut out = String::from("\n## Who writes what\n\n");
    out.push_str("Whether a whole-field `test` or write is a hazard depends on who else writes the field, not on its shape: the table below (`src/lint/writers.rs`, `patchlab::lint::writers`, which the simulator can read too) says it per kind and path, and each finding names the writers that make it fail or whose changes it erases. A field with one writer (a VMI's `status.activePods`, written by the VMI controller alone) is safe to test whole; a field the table does not know is not called shared.\n\n");
    out.push_str("| kind | field | shape | writers |\n|---|---|---|---|\n");
    for row in &ROWS {
        let kinds = if row.kinds.is_empty() {
            "every kind".to_owned()
        } else {
            row.kinds.join(", ")
        };
        let _ = writeln!(
            out,
            "| {kinds} | `{}` | {} | {} |",
            row.path,
            row.shape.as_str(),
            row.writers
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out.push_str("\n| writer | what it writes | source |\n|---|---|---|\n");
    for writer in &WRITERS {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            writer.name, writer.what, writer.source
        );
    }
    out.push('\n');
    out
}

fn shorten(text: &str) -> String {
    crate::text::elide(text, 600)
}
