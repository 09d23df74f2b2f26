//! The other errors of a pasted text. Users paste logs: a retry loop's
//! lines, a conflict and then a NotFound, a webhook's denial beside a
//! decode error. explain explains one message; every other line that
//! reads as an error of another kind is named with its class, and a line
//! that looks like an error but matches no signature is listed as not
//! read, so that nothing pasted is silently passed over.

use serde::Serialize;

use super::{classify, read};
use crate::vocabulary::ErrorClass;

/// The most lines looked at, and the most listed.
const MAX_LINES: usize = 2_000;
const MAX_LISTED: usize = 20;
/// How much of a line is shown.
const SHOWN_CHARS: usize = 160;

/// A line of the pasted text holding another error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OtherLine {
    /// 1-based line number.
    pub line: usize,
    /// The line, cut after [`SHOWN_CHARS`] characters (with its length).
    pub text: String,
    /// The classes it reads as, likeliest first; empty when it looks like
    /// an error that no signature matches (not read).
    pub classes: Vec<ErrorClass>,
    /// The wording it matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<&'static str>,
}

/// The lines of `text`, other than the explained message (`matched`, the
/// classes `primary`), that hold an error: one per distinct wording.
pub(super) fn others(
    text: &str,
    matched: Option<&'static str>,
    primary: &[ErrorClass],
) -> Vec<OtherLine> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    if lines.iter().filter(|l| !l.trim().is_empty()).count() < 2 {
        return Vec::new();
    }
    let mut seen: Vec<Option<&'static str>> = vec![matched];
    let wording = matched.map(collapsed);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let explained = wording
            .as_deref()
            .is_some_and(|m| collapsed(trimmed).contains(m));
        if trimmed.is_empty() || explained {
            continue;
        }
        let verdict = classify::classify(&read::read(trimmed));
        let reads_as_error = !verdict.candidates.is_empty();
        if reads_as_error {
            // The same error told again (a client's status line and its
            // body, a retry's repeat) shares a class with the explained one.
            let same = verdict.candidates.iter().any(|c| primary.contains(c));
            if seen.contains(&verdict.matched) || same {
                continue;
            }
            seen.push(verdict.matched);
        } else if !looks_like_an_error(trimmed) {
            continue;
        }
        out.push(OtherLine {
            line: i + 1,
            text: shown(trimmed),
            classes: verdict.candidates,
            matched: verdict.matched,
        });
        if out.len() == MAX_LISTED {
            break;
        }
    }
    out
}

/// The first line (1-based) holding the matched wording, and its text.
pub(super) fn line_of<'t>(
    text: &'t str,
    matched: Option<&'static str>,
) -> Option<(usize, &'t str)> {
    let matched = collapsed(matched?);
    text.lines()
        .take(MAX_LINES)
        .enumerate()
        .find(|(_, line)| collapsed(line).contains(&matched))
        .map(|(i, line)| (i + 1, line.trim()))
}

/// Runs of whitespace as one space (a wrapped message).
fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A line that says it is an error: kubectl's and client-go's prefixes,
/// klog's error level, a log level field.
fn looks_like_an_error(line: &str) -> bool {
    let klog_error =
        line.len() > 5 && line.starts_with('E') && line[1..5].bytes().all(|b| b.is_ascii_digit());
    line.starts_with("Error")
        || line.starts_with("error:")
        || line.starts_with("ERROR")
        || line.contains("level=error")
        || line.contains("\"level\":\"error\"")
        || klog_error
}

fn shown(line: &str) -> String {
    let count = line.chars().count();
    if count <= SHOWN_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(SHOWN_CHARS).collect();
    format!("{cut}... ({count} characters)")
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_other_error_line_is_named_or_listed_as_not_read() {
        let text = "Error from server (Conflict): Operation cannot be fulfilled on pods \"a\": the object has been modified; please apply your changes to the latest version and try again\nsome unrelated log line\nError from server (NotFound): pods \"b\" not found\nError from server (NotFound): pods \"c\" not found\nerror: something this tool has never seen\n";
        let e = crate::explain::explain(&crate::explain::Request::text(text)).unwrap();
        let listed: Vec<(usize, Vec<&str>)> = e
            .others
            .iter()
            .map(|o| (o.line, o.classes.iter().map(|c| c.id()).collect()))
            .collect();
        assert_eq!(listed, [(3, vec!["not-found"]), (5, vec![])]);
        let text = crate::explain::report::text(&e);
        assert!(
            text.contains("also in the text, line 3 (not-found): Error from server (NotFound)"),
            "{text}"
        );
        assert!(
            text.contains("not read, line 5: error: something this tool has never seen"),
            "{text}"
        );
    }

    #[test]
    fn what_was_seen_comes_from_the_explained_line() {
        let text = "error: something no tool prints\nError from server (NotFound): pods \"b\" not found\nError from server (Conflict): Operation cannot be fulfilled on pods \"a\": the object has been modified; please apply your changes to the latest version and try again\n";
        let e = crate::explain::explain(&crate::explain::Request::text(text)).unwrap();
        let listed: Vec<usize> = e.others.iter().map(|o| o.line).collect();
        let explained = e.candidates.first().map(|c| c.class.id());
        match explained {
            Some("not-found") => {
                assert_eq!(e.line, Some(2));
                assert_eq!(listed, [1, 3]);
                assert_eq!(e.seen.reason.as_deref(), Some("NotFound"));
            }
            _ => {
                assert_eq!(e.line, Some(3), "{explained:?}");
                assert_eq!(listed, [1, 2]);
                assert_eq!(e.seen.reason.as_deref(), Some("Conflict"));
            }
        }
        let report = crate::explain::report::text(&e);
        assert!(
            report.contains(&format!("explained: line {}", e.line.unwrap())),
            "{report}"
        );
    }

    #[test]
    fn one_message_alone_or_repeated_lists_nothing() {
        let one = "Error from server (NotFound): pods \"b\" not found";
        assert!(crate::explain::explain(&crate::explain::Request::text(one))
            .unwrap()
            .others
            .is_empty());
        let twice = format!("{one}\n{one}\n");
        assert!(
            crate::explain::explain(&crate::explain::Request::text(&twice))
                .unwrap()
                .others
                .is_empty()
        );
    }
}
