//! Templates of a patch or a command (Ansible's Jinja, Helm's and Go's
//! templates): the engine fills each `{{ ... }}` before the text runs.
//! `{{ kubectl }}` (`{{ oc }}`) is the binary's path, read as its name; an
//! expression where a JSON or YAML value stands (`"replicas": {{ .Values.n
//! }}`) is read as a placeholder string holding the expression (the
//! rendered value is not known); an Ansible folded block (`command: >`)
//! runs its lines as one. Expressions inside strings stay as written.

use super::kubectl;
use super::read::{self, Input, LintError, PatchFiles};
use crate::input::Budget;

/// The most expressions rendered (a budget: the text is user input).
const MOST: usize = 10_000;

/// The text read as its template engine would leave it: the first reading
/// that works among the text with `{{ kubectl }}` named, with value
/// expressions as placeholders, and each folded to one line for a
/// command; `None` when the text holds no expression this changes.
pub(super) fn read(
    text: &str,
    budget: &Budget,
    files: Option<PatchFiles<'_>>,
) -> Option<Result<Input, LintError>> {
    let named = render(text, false);
    let quoted = render(text, true);
    if named == text && quoted == text {
        return None;
    }
    let command = kubectl::is_command(&named);
    let read_one = |t: &str| match command {
        true => kubectl::read(t, budget, files),
        false => read::body(t, budget),
    };
    let mut candidates = vec![named.clone(), quoted.clone()];
    if command {
        candidates.extend([&named, &quoted].map(|t| fold(t)));
    }
    let mut first = None;
    for candidate in candidates {
        match read_one(&candidate) {
            Ok(input) => return Some(Ok(input)),
            Err(err) if first.is_none() => first = Some(err),
            Err(_) => {}
        }
    }
    // Nothing reads: the error of the text with kubectl named, for a
    // command; the text as it is otherwise.
    match command {
        true => first.map(Err),
        false => None,
    }
}

/// The lines of `text` as one (an Ansible folded block).
fn fold(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines.join(" ")
}

/// `text` with `{{ kubectl }}` named and, when `quote`, each expression
/// in a value's place (after `:`, `,` or `[`) a JSON string of itself.
fn render(text: &str, quote: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut done = 0;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open..].find("}}") else {
            break;
        };
        if done == MOST {
            break;
        }
        done += 1;
        let whole = &rest[open..open + close + 2];
        let inner = rest[open + 2..open + close].trim();
        out.push_str(&rest[..open]);
        let value_place = out.trim_end().ends_with([':', ',', '[']);
        if kubectl::is_kubectl(inner) && !inner.contains(char::is_whitespace) {
            out.push_str(inner);
        } else if quote && value_place {
            out.push_str(&crate::gojson::quote(whole));
        } else {
            out.push_str(whole);
        }
        rest = &rest[open + close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_are_named_or_stand_in_as_strings() {
        assert_eq!(render("{{ kubectl }} patch", false), "kubectl patch");
        assert_eq!(
            render(
                r#"{"spec":{"replicas": {{ .Values.n }},"a":"{{ x }}"}}"#,
                true
            ),
            r#"{"spec":{"replicas": "{{ .Values.n }}","a":"{{ x }}"}}"#
        );
        let budget = Budget::default();
        let body = r#"{"spec":{"replicas": {{ .Values.replicas }}}}"#;
        let input = read(body, &budget, None).unwrap().unwrap();
        assert_eq!(
            input.payload,
            r#"{"spec":{"replicas": "{{ .Values.replicas }}"}}"#
        );
        // Ansible's folded block: the lines run as one command.
        let folded = "{{ kubectl }}\npatch ds kube-proxy -n kube-system -p\n'{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"{{ sel }}\":\"linux\"}}}}}'";
        let input = read(folded, &budget, None).unwrap().unwrap();
        assert!(input.payload.contains("{{ sel }}"), "{}", input.payload);
        // No expression: nothing to do.
        assert!(read("kubectl patch a b -p '{}'", &budget, None).is_none());
    }
}
