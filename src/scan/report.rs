//! A scan written out: compiler-style text, JSON and SARIF 2.1.0 (the
//! same rule table and log shape as `lint`'s).

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::{HazardSite, Payload, Survey};
use crate::lint::{report as lint_report, Rule, Severity};

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One finding as text.
pub fn finding_text(finding: &HazardSite) -> String {
    let info = finding.rule.info();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}[{}]: {}",
        finding.severity, finding.rule, finding.message
    );
    let _ = writeln!(
        out,
        "  --> {}:{}:{} (in {})",
        finding.file, finding.line, finding.column, finding.function
    );
    if !finding.ops.is_empty() {
        let _ = writeln!(out, "   = ops: {}", finding.ops.join(", "));
    }
    let branches = if finding.branches {
        " (ops added in branches: their union is shown, each combination was checked)"
    } else {
        ""
    };
    let _ = writeln!(out, "   = payload: {}{branches}", finding.payload);
    let _ = writeln!(out, "   = why: {}", info.explanation);
    let _ = writeln!(out, "   = fix: {}", info.fix);
    if finding.fix != info.fix {
        let _ = writeln!(out, "{}", indent(&finding.fix, "          "));
    }
    if let Some(payload) = &finding.fix_payload {
        let _ = writeln!(out, "          payload: {payload}");
    }
    out
}

/// One payload as text.
pub fn payload_text(payload: &Payload) -> String {
    format!(
        "{} {}:{}:{} (in {}, {}{}): {}\n",
        payload.kind,
        payload.file,
        payload.line,
        payload.column,
        payload.function,
        payload.how,
        if payload.branches {
            ", ops in branches"
        } else {
            ""
        },
        payload.text
    )
}

/// `3 warnings, 1 note` (or `no findings`).
pub fn count(findings: &[HazardSite]) -> String {
    let mut parts = Vec::new();
    for (severity, one, many) in [
        (Severity::Error, "error", "errors"),
        (Severity::Warning, "warning", "warnings"),
        (Severity::Note, "note", "notes"),
    ] {
        let n = findings.iter().filter(|f| f.severity == severity).count();
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

/// Findings by rule: `whole-map-test 7, unguarded-whole-write 3`.
pub fn by_rule(findings: &[HazardSite]) -> Vec<(Rule, usize)> {
    let mut counts: Vec<(Rule, usize)> = Vec::new();
    for finding in findings {
        match counts.iter_mut().find(|(r, _)| *r == finding.rule) {
            Some((_, n)) => *n += 1,
            None => counts.push((finding.rule, 1)),
        }
    }
    counts.sort();
    counts
}

/// The summary line.
pub fn summary(survey: &Survey) -> String {
    let mut out = format!(
        "scanned {} Go files ({:.1} MB): {} payloads, {}",
        survey.files,
        survey.bytes as f64 / 1e6,
        survey.payloads.len(),
        count(&survey.findings)
    );
    let rules = by_rule(&survey.findings);
    if !rules.is_empty() {
        let list: Vec<String> = rules.iter().map(|(r, n)| format!("{r} {n}")).collect();
        let _ = write!(out, " ({})", list.join(", "));
    }
    if !survey.skipped.is_empty() {
        let _ = write!(out, "; {} files skipped", survey.skipped.len());
    }
    out
}

/// Compiler-style text: each finding, then (with `payloads`) every
/// payload found, then the files skipped and the summary.
pub fn text(survey: &Survey, payloads: bool) -> String {
    let mut out = String::new();
    for finding in &survey.findings {
        out.push_str(&finding_text(finding));
        out.push('\n');
    }
    if payloads {
        for payload in &survey.payloads {
            out.push_str(&payload_text(payload));
        }
        if !survey.payloads.is_empty() {
            out.push('\n');
        }
    }
    for skipped in &survey.skipped {
        let _ = writeln!(out, "skipped: {skipped}");
    }
    let _ = writeln!(out, "{}", summary(survey));
    out
}

/// The survey as JSON: `{"files", "bytes", "findings": [...], "payloads":
/// [...], "skipped": [...]}`.
pub fn json(survey: &Survey) -> Value {
    serde_json::to_value(survey).unwrap_or(Value::Null)
}

/// The file as a SARIF artifact URI: a relative reference (forward
/// slashes, no leading `./`) for a relative path, a `file://` URI for an
/// absolute one (a relative reference must not start with `/`).
pub fn uri(file: &str) -> String {
    let file = file.replace('\\', "/");
    let file = file.strip_prefix("./").unwrap_or(&file);
    let mut out = String::with_capacity(file.len() + 8);
    if file.starts_with('/') {
        out.push_str("file://");
    }
    for b in file.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The survey as a SARIF 2.1.0 log: one result per finding, located at
/// its file, line and column, inside its function.
pub fn sarif(survey: &Survey) -> Value {
    let results: Vec<Value> = survey
        .findings
        .iter()
        .map(|f| {
            json!({
                "ruleId": f.rule.as_str(),
                "ruleIndex": Rule::ALL.iter().position(|r| *r == f.rule).unwrap_or(0),
                "level": f.severity.as_str(),
                "message": {"text": format!("{}\n\nFix:\n{}", f.message, f.fix)},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(&f.file)},
                        "region": {"startLine": f.line, "startColumn": f.column},
                    },
                    "logicalLocations": [{"fullyQualifiedName": f.function, "kind": "function"}],
                }],
                "properties": {
                    "ops": f.ops,
                    "payload": f.payload,
                    "branches": f.branches,
                    "fix": f.fix,
                    "fixPayload": f.fix_payload,
                },
            })
        })
        .collect();
    lint_report::sarif_log(results)
}
