//! The explanation in words: its summary, its fixes, and the CLI's text
//! output.

use std::fmt::Write as _;

use crate::text::elide_value as elide;
use crate::vocabulary::ErrorClass;

use super::{releases_text, Explanation, Helps, Rerun, KNOWN_PANICS};

/// The cause, in a few sentences.
pub(super) fn summary(e: &Explanation) -> String {
    let Some(class) = e.class else {
        return undecided(e);
    };
    let mut s = class.definition().to_owned();
    if let Some(r) = e.replay.as_ref().filter(|r| r.class == Some(class)) {
        replayed_failure(&mut s, r);
    }
    class_details(&mut s, e, class);
    if let Some(at) = &e.decode_at {
        s.push(' ');
        s.push_str(&at.sentence());
    }
    s
}

/// The summary when the text is not recognised or names several classes.
fn undecided(e: &Explanation) -> String {
    if let Some(outside) = e.details.outside {
        return outside.to_owned();
    }
    if e.candidates.is_empty() {
        return "patchlab does not recognise this text as an error of a Kubernetes write."
            .to_owned();
    }
    let names: Vec<&str> = e.candidates.iter().map(|c| c.class.id()).collect();
    let mut s = format!(
        "The text alone cannot decide: it is one of {}.",
        names.join(", ")
    );
    if e.candidates
        .iter()
        .any(|c| ErrorClass::BARE_422.contains(&c.class))
    {
        s.push_str(" kube-apiserver answers every failed JSON patch op with the same bare 422 and drops the engine's own error, so a failed test, a missing path and a bad index look alike (kubernetes/kubernetes#68202).");
    }
    if let Some(r) = &e.replay {
        if r.applies {
            let _ = write!(
                s,
                " On the object given, the patch applies on Kubernetes {}: the object the server held was not this one.",
                r.release
            );
        }
    }
    s
}

/// The op that fails in the replay, and why.
fn replayed_failure(s: &mut String, r: &Rerun) {
    let op = match (r.index, r.op.as_deref(), r.path.as_deref()) {
        (Some(i), Some(op), Some(path)) => format!("Op {i} ({op} {path:?})"),
        (Some(i), _, _) => format!("Op {i}"),
        _ => "The patch".to_owned(),
    };
    let _ = write!(
        s,
        " {op} fails on Kubernetes {} (evanphx/json-patch {})",
        r.release,
        r.engine.tag()
    );
    match (&r.expected, &r.actual) {
        (Some(expected), Some(actual)) => {
            let _ = write!(s, ": it expected {}", elide(expected, 200));
            if r.absent {
                s.push_str(" and the object has no such member.");
            } else {
                let _ = write!(s, " and the object holds {}.", elide(actual, 200));
            }
        }
        _ => {
            if let Some(cause) = &r.cause {
                let _ = write!(s, ": {cause}.");
            }
        }
    }
}

/// What the text's details add for its class: owners, fields, releases,
/// the webhook or the identity.
fn class_details(s: &mut String, e: &Explanation, class: ErrorClass) {
    match class {
        ErrorClass::SsaConflict if !e.details.managers.is_empty() => {
            for m in &e.details.managers {
                let _ = write!(
                    s,
                    " {} ({}) owns {}.",
                    m.manager,
                    if m.operation == "Apply" {
                        "an applier"
                    } else {
                        "wrote by Update or patch"
                    },
                    m.fields.join(", ")
                );
            }
        }
        ErrorClass::Invalid | ErrorClass::Immutable if !e.details.fields.is_empty() => {
            let fields: Vec<String> = e
                .details
                .fields
                .iter()
                .map(|f| format!("{}: {}", f.field, f.message))
                .collect();
            let _ = write!(s, " The server names: {}.", fields.join("; "));
        }
        ErrorClass::EnginePanic => {
            if e.panics_on.is_empty() {
                let _ = write!(s, " {KNOWN_PANICS}");
            } else {
                let _ = write!(
                    s,
                    " With this patch and object it panics on {}.",
                    releases_text(&e.panics_on)
                );
            }
        }
        ErrorClass::AdmissionDenied => {
            if let Some(w) = &e.details.webhook {
                let _ = write!(s, " The webhook: {w}.");
            }
        }
        ErrorClass::Forbidden => {
            if let Some(u) = &e.details.user {
                let _ = write!(s, " The identity: {u}.");
            }
        }
        ErrorClass::MissingResourceVersion => {
            if let Some(r) = &e.details.releases {
                let _ = write!(s, " The wording dates the cluster: Kubernetes {r}.");
            }
        }
        _ => {}
    }
}

/// What to do, most specific first.
pub(super) fn fixes(e: &Explanation) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(r) = &e.replay {
        if let (Some(class), Some(i)) = (r.class, r.index) {
            if Some(class) == e.class {
                for f in e.findings.iter().filter(|f| f.index == Some(i)) {
                    out.push(format!("lint {}: {}", f.rule.as_str(), f.message));
                }
            }
        }
    }
    for o in &e.offers {
        match (&o.dropped, o.replayed) {
            (None, Some(_)) => out.push(format!(
                "send instead ({}, {}; replayed on the object given: it applies): {}",
                o.from, o.content_type, o.payload
            )),
            (None, None) => out.push(format!(
                "send instead ({}, {}; not replayed: no object given): {}",
                o.from, o.content_type, o.payload
            )),
            (Some(why), _) => out.push(format!("not offered: {} ({why})", o.from)),
        }
    }
    match e.class {
        Some(ErrorClass::SsaConflict) => {
            let fields: Vec<&str> = e
                .details
                .managers
                .iter()
                .flat_map(|m| m.fields.iter().map(String::as_str))
                .collect();
            if !fields.is_empty() {
                out.push(format!(
                    "leave out of your configuration (or force): {}",
                    fields.join(", ")
                ));
            }
        }
        Some(ErrorClass::EnginePanic) if !e.panics_on.is_empty() => {
            let newest = e.panics_on.iter().max();
            if newest.is_some_and(|v| v.minor() < 35) {
                out.push(
                    "Kubernetes 1.35 and later answer this patch with a 422 instead of panicking"
                        .to_owned(),
                );
            }
        }
        _ => {}
    }
    match e.class {
        Some(class) => out.push(super::fix(class).to_owned()),
        None => {
            for c in &e.candidates {
                out.push(format!("if {}: {}", c.class.id(), c.fix));
            }
        }
    }
    out
}

/// The explanation as the CLI prints it.
pub fn text(e: &Explanation) -> String {
    let mut s = String::new();
    match e.class {
        Some(class) => {
            let _ = writeln!(s, "class: {} ({})", class.id(), class.label());
        }
        None if e.details.outside.is_some() => {
            s.push_str("class: none (recognised: no failure of the write itself)\n");
        }
        None if e.candidates.is_empty() => {
            s.push_str("not recognised\n");
        }
        None => {
            let ids: Vec<&str> = e.candidates.iter().map(|c| c.class.id()).collect();
            let _ = writeln!(s, "class: undecided, one of {}", ids.join(", "));
        }
    }
    let _ = write!(s, "read as: {}", e.shape.as_str());
    if let Some(answer) = e.seen.answer() {
        let _ = write!(s, ", {answer}");
    }
    s.push('\n');
    if let Some(m) = e.matched {
        let _ = writeln!(s, "matched: {m:?}");
    }
    if let Some(by) = &e.decided_by {
        let _ = writeln!(s, "decided by: {by}");
    }
    if let Some(note) = &e.release_note {
        let _ = writeln!(s, "release: {note}");
    }
    for u in &e.unread {
        let _ = writeln!(
            s,
            "not read: {}: {} (explained without it)",
            u.input, u.message
        );
    }
    if let Some(line) = e.line {
        let _ = writeln!(
            s,
            "explained: line {line} (the text holds other errors, below)"
        );
    }
    for o in &e.others {
        let _ = match o.classes.as_slice() {
            [] => writeln!(
                s,
                "not read, line {}: {} (no signature matches it)",
                o.line, o.text
            ),
            classes => {
                let ids: Vec<&str> = classes.iter().map(|c| c.id()).collect();
                writeln!(
                    s,
                    "also in the text, line {} ({}): {}",
                    o.line,
                    ids.join(" or "),
                    o.text
                )
            }
        };
    }
    let _ = writeln!(s, "\ncause: {}", e.summary);
    if let Some(w) = &e.would_decide {
        let _ = writeln!(s, "would decide: {w}");
    }
    retry_lines(&mut s, e);
    if !e.fix.is_empty() {
        s.push_str("\nfix:\n");
        for f in &e.fix {
            let _ = writeln!(s, "  - {f}");
        }
    }
    source_lines(&mut s, e);
    if let Some(link) = &e.check_link {
        let _ = writeln!(s, "\nopen in Check: {link}");
    }
    s
}

/// Where the candidates' messages are written, each place once.
fn source_lines(s: &mut String, e: &Explanation) {
    let mut seen = Vec::new();
    for c in &e.candidates {
        for src in &c.sources {
            let url = src.url();
            if !seen.contains(&url) {
                seen.push(url);
                if seen.len() == 1 {
                    s.push_str("\nsource:\n");
                }
                let _ = writeln!(
                    s,
                    "  {} ({}): {}",
                    src.path,
                    src.symbol,
                    seen[seen.len() - 1]
                );
            }
        }
    }
}

/// The retry verdict: the decided class's, or each candidate's.
fn retry_lines(s: &mut String, e: &Explanation) {
    if let Some(r) = &e.retry {
        let helps = helps_text(r.helps);
        let _ = writeln!(
            s,
            "\nretry: {helps} (RetryOnConflict {}). {}",
            if r.retry_on_conflict {
                "retries it"
            } else {
                "does not retry it"
            },
            r.advice
        );
    } else if !e.candidates.is_empty() {
        s.push_str("\nretry:\n");
        for c in &e.candidates {
            let _ = writeln!(
                s,
                "  if {}: {} (RetryOnConflict {}). {}",
                c.class.id(),
                helps_text(c.retry.helps),
                if c.retry.retry_on_conflict {
                    "retries it"
                } else {
                    "does not retry it"
                },
                c.retry.advice
            );
        }
    }
}

fn helps_text(helps: Helps) -> &'static str {
    match helps {
        Helps::Later => "yes, later",
        Helps::AfterReread => "only after a re-read and a rebuilt request",
        Helps::No => "no",
    }
}
