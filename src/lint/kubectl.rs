//! A `kubectl patch ... --type=json -p '...'` command line, as pasted from
//! a shell script, a runbook or a terminal: shell quoting (POSIX rules, by
//! the `shlex` crate), then kubectl's own flags.
//!
//! kubectl converts `-p` with apimachinery's `yaml.ToJSON`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`, `RunPatch`): text
//! starting with `{` is sent as it is, anything else (a JSON list too) is
//! read as YAML and re-encoded by Go's `encoding/json`.

use crate::input::Budget;

use super::read::{body, BodyKind, BodyText, Input, LintError, Origin};

/// kubectl's flags that take a value (the next word, unless written
/// `--flag=value`). Any other flag is taken as a switch.
const VALUE_FLAGS: [&str; 33] = [
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-s",
    "--server",
    "--token",
    "-p",
    "--patch",
    "--type",
    "-o",
    "--output",
    "--patch-file",
    "--field-manager",
    "--subresource",
    "-l",
    "--selector",
    "-f",
    "--filename",
    "-k",
    "--kustomize",
    "--template",
    "--request-timeout",
    "--as",
    "--as-group",
    "--as-uid",
    "--cache-dir",
    "--certificate-authority",
    "--client-certificate",
    "--client-key",
    "-v",
];

fn is_kubectl(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    matches!(name, "kubectl" | "oc" | "kubectl.exe" | "oc.exe")
}

/// True when `text` starts with a `kubectl` (or `oc`) command, optionally
/// after a `$ ` prompt.
pub(super) fn is_command(text: &str) -> bool {
    let text = strip_prompt(text);
    let first = text.split_whitespace().next().unwrap_or("");
    is_kubectl(first)
}

fn strip_prompt(text: &str) -> &str {
    let text = text.trim_start();
    text.strip_prefix("$ ").unwrap_or(text)
}

fn command_error(message: impl Into<String>, line: Option<usize>) -> LintError {
    LintError::Command {
        message: message.into(),
        line,
    }
}

/// Splits the command into words; stops at the first `|`, `;`, `&&` or
/// `||` (only the first command of a pipeline matters).
fn words(text: &str) -> Result<Vec<(String, usize)>, LintError> {
    let mut lexer = shlex::Shlex::new(text);
    let mut out = Vec::new();
    loop {
        let line = lexer.line_no;
        let Some(word) = lexer.next() else { break };
        if matches!(word.as_str(), "|" | ";" | "&&" | "||" | "&") {
            return Ok(out);
        }
        out.push((word, lexer.line_no));
        if out.len() > 10_000 {
            return Err(command_error("more than 10,000 words", Some(line)));
        }
    }
    if lexer.had_error {
        let line = out.last().map_or(1, |(_, line)| *line);
        return Err(command_error(
            format!("a quote opened on or after this line is never closed (or the text ends with a lone backslash); last complete word: {}", out.last().map_or("none", |(w, _)| w.as_str())),
            Some(line),
        ));
    }
    Ok(out)
}

/// Reads the patch out of a `kubectl patch` command line.
pub(super) fn read(text: &str, budget: &Budget) -> Result<Input, LintError> {
    if text.len() > budget.max_bytes {
        return Err(command_error(
            format!(
                "the command is {} bytes, more than the limit of {} bytes",
                text.len(),
                budget.max_bytes
            ),
            None,
        ));
    }
    let words = words(strip_prompt(text))?;
    let mut patch: Option<(String, usize)> = None;
    let mut kind: Option<(String, usize)> = None;
    let mut positional: Vec<String> = Vec::new();
    let mut rest = words.iter().skip(1);
    while let Some((word, line)) = rest.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with('-') => (flag, Some(value.to_owned())),
            _ => (word.as_str(), None),
        };
        if word == "--" {
            positional.extend(rest.by_ref().map(|(w, _)| w.clone()));
            break;
        }
        if !flag.starts_with('-') || flag == "-" {
            positional.push(word.clone());
            continue;
        }
        let takes_value = VALUE_FLAGS.contains(&flag);
        let value = match inline {
            Some(value) => Some(value),
            None if takes_value => match rest.next() {
                Some((value, _)) => Some(value.clone()),
                None => return Err(command_error(format!("{flag} needs a value"), Some(*line))),
            },
            None => None,
        };
        match flag {
            "-p" | "--patch" => patch = value.map(|v| (v, *line)),
            "--type" => kind = value.map(|v| (v, *line)),
            "--patch-file" => {
                return Err(command_error(
                    "--patch-file names a file lint cannot open from a command line: lint the file itself (or paste its contents with -p)",
                    Some(*line),
                ))
            }
            _ => {}
        }
    }
    let Some(verb) = positional.first() else {
        return Err(command_error(
            "no kubectl subcommand (expected `kubectl patch ...`)",
            None,
        ));
    };
    if verb != "patch" {
        return Err(command_error(
            format!("lint reads `kubectl patch` commands; `kubectl {verb}` sends no JSON patch or merge patch"),
            None,
        ));
    }
    let Some((patch, patch_line)) = patch else {
        return Err(command_error(
            "the command has no -p/--patch argument holding the patch",
            None,
        ));
    };
    let kind = match kind.as_ref().map(|(k, line)| (k.to_ascii_lowercase(), *line)) {
        Some((k, _)) if k == "json" => BodyKind::JsonPatch,
        Some((k, _)) if k == "merge" => BodyKind::MergePatch,
        Some((k, line)) if k == "strategic" => {
            return Err(command_error(
                "--type=strategic sends a strategic merge patch, which lint does not read: use --type=json or --type=merge",
                Some(line),
            ))
        }
        None => {
            return Err(command_error(
                "without --type, kubectl sends a strategic merge patch, which lint does not read: add --type=json or --type=merge",
                None,
            ))
        }
        Some((other, line)) => {
            return Err(command_error(
                format!("--type must be json, merge or strategic, not {other:?}"),
                Some(line),
            ))
        }
    };
    let mut input = body(&patch, budget, BodyText::Kubectl).map_err(|err| match err {
        LintError::Syntax(mut err) => {
            err.message = format!("the -p argument (from line {patch_line}): {}", err.message);
            LintError::Syntax(err)
        }
        other => other,
    })?;
    if input.kind != kind {
        let found = if input.kind == BodyKind::JsonPatch {
            "a list of ops"
        } else {
            "an object"
        };
        return Err(command_error(
            format!(
                "--type={} but the -p argument is {found}: the server would answer 400",
                if kind == BodyKind::JsonPatch {
                    "json"
                } else {
                    "merge"
                }
            ),
            Some(patch_line),
        ));
    }
    input.origin = Origin::Kubectl {
        target: positional[1..].join(" "),
    };
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Input, LintError> {
        super::read(text, &Budget::default())
    }

    #[test]
    fn reads_quoted_patches() {
        let input = read(
            "$ kubectl patch vmi testvmi -n default --type=json -p '[{\"op\":\"remove\",\"path\":\"/metadata/labels/a\"}]'",
        )
        .unwrap();
        assert_eq!(input.kind, BodyKind::JsonPatch);
        assert_eq!(
            input.payload,
            r#"[{"op":"remove","path":"/metadata/labels/a"}]"#
        );
        assert_eq!(
            input.origin,
            Origin::Kubectl {
                target: "vmi testvmi".to_owned()
            }
        );
        // Double quotes, a continuation line, --type as its own word, `'\''`.
        let input = read(
            "kubectl -n x patch vmi a \\\n  --type merge --patch \"{\\\"metadata\\\":{\\\"labels\\\":{\\\"it's\\\":null}}}\" | jq .",
        )
        .unwrap();
        assert_eq!(input.kind, BodyKind::MergePatch);
        assert_eq!(input.payload, r#"{"metadata":{"labels":{"it's":null}}}"#);
        let input = read(
            r#"kubectl patch vmi a --type=json -p='[{"op":"add","path":"/a","value":"it'\''s"}]'"#,
        )
        .unwrap();
        assert!(input.payload.contains("it's"));
    }

    #[test]
    fn a_list_is_re_encoded_by_go_an_object_is_not() {
        let input =
            read(r#"kubectl patch vmi a --type=json -p '[{"op":"test","path":"/a","value":1.0}]'"#)
                .unwrap();
        assert_eq!(input.payload, r#"[{"op":"test","path":"/a","value":1}]"#);
        assert_eq!(input.origin.as_str(), "kubectl");
        let input = read(r#"kubectl patch vmi a --type=merge -p '{"a": 1.0}'"#).unwrap();
        assert_eq!(input.payload, r#"{"a": 1.0}"#);
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            ("kubectl patch vmi a -p '[]'", "without --type"),
            ("kubectl patch vmi a --type=json", "no -p/--patch"),
            ("kubectl apply -f x.yaml", "`kubectl apply`"),
            ("kubectl patch vmi a --type=json -p '[", "never closed"),
            ("kubectl patch vmi a --type=json -p '{}'", "--type=json but"),
            ("kubectl patch vmi a --type=yaml -p '{}'", "--type must be"),
            (
                "kubectl patch vmi a --type=json --patch-file p.json",
                "--patch-file",
            ),
            ("kubectl patch vmi a --type=json -p", "-p needs a value"),
        ];
        for (text, expected) in cases {
            let err = read(text).unwrap_err();
            assert!(err.to_string().contains(expected), "{text}: {err}");
        }
        let err = read("kubectl patch vmi a \\\n --type=json \\\n -p '[{'").unwrap_err();
        assert!(
            err.to_string().starts_with("patch: line 1, column 2"),
            "{err}"
        );
        assert!(err.to_string().contains("from line 3"), "{err}");
    }
}
