//! A `kubectl patch` command line, as pasted from a shell script, a
//! runbook or a terminal: split as bash splits it ([`super::shell`]:
//! quotes, `$'...'`, continuations, here-documents), found inside the
//! shell around it (loops, pipes into `xargs`, `;`, `&&`, redirections),
//! then read with kubectl's own flags and messages
//! (`staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`).
//!
//! kubectl converts the patch with apimachinery's `yaml.ToJSON`: text
//! starting with `{` is sent as it is, anything else (a JSON list too) is
//! read as YAML and re-encoded by Go's `encoding/json`. Without `--type`
//! it sends a strategic merge patch.

use std::borrow::Cow;

use serde_json::Value;

use crate::input::Budget;

use super::dropped;
use super::kinds;
use super::read::{
    kubectl_body, kubectl_sends, server_answer, undecodable, BodyKind, Hint, Input, LintError,
    Origin, PatchFiles, Refusal,
};
use super::reads;
use super::rules::message;
pub(super) use super::shell::is_kubectl;
use super::shell::{self, Token};
use super::Rule;

/// kubectl's flags that take a value (the next word, unless written
/// `--flag=value`). Any other flag is taken as a switch.
#[rustfmt::skip]
const VALUE_FLAGS: [&str; 34] = [
    "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server",
    "--token", "-p", "--patch", "--type", "-o", "--output", "--patch-file", "--field-manager",
    "--subresource", "-l", "--selector", "-f", "--filename", "-k", "--kustomize", "--template",
    "--request-timeout", "--as", "--as-group", "--as-uid", "--cache-dir", "--certificate-authority",
    "--client-certificate", "--client-key", "-v", "--resource-version",
];

/// A word that is one variable and nothing else (`$KUBECTL`, `${K}`,
/// `"${KUBECTL_CMD}"`): a script's spelling of kubectl when `patch`
/// follows.
fn is_variable(word: &str) -> bool {
    let name = match word.strip_prefix("${") {
        Some(inner) => match inner.strip_suffix('}') {
            Some(name) => name,
            None => return false,
        },
        None => match word.strip_prefix('$') {
            Some(name) => name,
            None => return false,
        },
    };
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The first word of `words` after flags (and the values of the flags
/// that take one).
fn verb<'w>(mut words: impl Iterator<Item = &'w str>) -> Option<&'w str> {
    while let Some(word) = words.next() {
        if word.starts_with('-') {
            let flag = word.split_once('=').map_or(word, |(f, _)| f);
            if !word.contains('=') && VALUE_FLAGS.contains(&flag) {
                words.next();
            }
            continue;
        }
        return Some(word);
    }
    None
}

/// Where `kubectl patch` starts among the words: kubectl by any of its
/// names (`kubectl`, `oc`, `k`, `kubectl.exe`, a path; `microk8s
/// kubectl` and `sudo kubectl` reach it too), or a variable holding it,
/// followed by `patch` after its flags.
fn patch_position(words: &[&str]) -> Option<usize> {
    (0..words.len()).find(|&i| {
        (is_kubectl(words[i]) || is_variable(words[i]))
            && matches!(
                verb(words[i + 1..].iter().copied()),
                Some("patch" | "label" | "annotate")
            )
    })
}

/// True when `text` holds a `kubectl` (or `oc`) command: its first word,
/// after an optional `$ ` prompt, or a `kubectl patch` (by any of its
/// spellings) after shell that runs it (`for ...; do kubectl`, `| xargs
/// kubectl`, `sudo kubectl`, `$KUBECTL -n ns patch`).
pub fn is_command(text: &str) -> bool {
    let text = strip_prompt(text);
    let first = text.split_whitespace().next().unwrap_or("");
    if is_kubectl(first) && first != "k" {
        return true;
    }
    // Shell around a command: look for a `kubectl patch` anywhere, but
    // only when the text does not read as a patch body itself.
    let starts_like_body = matches!(
        text.trim_start().as_bytes().first(),
        Some(b'[' | b'{' | b'-')
    ) || first.ends_with(':');
    // Comment lines (a YAML file's or a script's) do not count.
    let code = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| {
            l.split(|c: char| {
                c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '`' | '"')
            })
        })
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>();
    !starts_like_body && patch_position(&code).is_some()
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

/// A text that reads, and fails as written: one finding of `rule`.
fn fails(rule: Rule, message: String, line: Option<usize>, kind: BodyKind) -> LintError {
    LintError::Judged {
        hints: vec![Hint { rule, message }],
        line,
        column: None,
        kind,
    }
}

/// The first line of `text` that ends in a backslash followed by spaces or
/// tabs (1-based): the backslash escapes a space, not the line break.
fn continuation(text: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let kept = line.trim_end_matches([' ', '\t']);
            kept.len() < line.len() && kept.ends_with('\\') && !kept.ends_with("\\\\")
        })
        .map(|i| i + 1)
}

/// One simple command of the text: its words, and the shell around it.
struct Command<'t> {
    words: Vec<&'t Token>,
    /// The shell constructs around it, named.
    shell: Vec<String>,
    /// Its redirections.
    redirects: Vec<Redirect>,
}

/// A redirection: the operator and its target.
type Redirect = (String, String);

/// The shell constructs around a command, each named once, at most
/// [`Shell::MOST`] of them (then how many more).
#[derive(Default)]
struct Shell {
    named: Vec<String>,
    seen: std::collections::HashSet<String>,
    more: usize,
}

impl Shell {
    /// The most constructs named.
    const MOST: usize = 24;

    fn name(&mut self, what: String) {
        if !self.seen.insert(what.clone()) {
            return;
        }
        if self.named.len() == Self::MOST {
            self.more += 1;
            return;
        }
        self.named.push(what);
    }

    /// What was named, and how many more were left unnamed.
    fn into_names(mut self) -> Vec<String> {
        if self.more > 0 {
            self.named.push(format!("and {} more", self.more));
        }
        self.named
    }

    /// Names the operator `op`; true for a redirection (the word after it
    /// is its target).
    fn operator(&mut self, op: &str) -> bool {
        match op {
            "|" | "|&" => self.name("a pipe (|)".to_owned()),
            "&&" | "||" | ";" | "&" => self.name(format!("the operator {op}")),
            "\n" | "(" | ")" | ";;" => {}
            redirect => {
                self.name(format!("a redirection ({redirect})"));
                return true;
            }
        }
        false
    }

    /// Names what the word `text` brings (its expansions, a block, a
    /// command that runs others); false for a word that is not part of the
    /// command (`do`, `sudo`). `first`: no word of the command before it.
    fn word(
        &mut self,
        text: &str,
        expansions: &[String],
        placeholders: &[String],
        first: bool,
    ) -> bool {
        for placeholder in placeholders {
            self.name(format!(
                "the placeholder {placeholder}, read as the name it stands for (bash would read its < and > as redirections: fill it in before running the line)"
            ));
        }
        for expansion in expansions {
            let shown: String = expansion.chars().take(40).collect();
            let cut = if shown.len() < expansion.len() {
                "..."
            } else {
                ""
            };
            self.name(format!("the expansion {shown}{cut}"));
        }
        match text {
            "for" | "while" | "until" | "if" | "case" | "select" if first => {
                self.name(format!("a {text} block"));
            }
            "do" | "then" | "else" | "elif" | "done" | "fi" | "esac" | "{" | "}" | "time"
            | "sudo" | "command" | "exec" | "nohup"
                if first =>
            {
                return false;
            }
            "xargs" | "watch" | "env" | "timeout" | "parallel" if first => {
                self.name(text.to_owned())
            }
            _ => {}
        }
        true
    }
}

/// The first `kubectl patch` command of the tokens, with the shell
/// around it named.
fn find_patch_command(tokens: &[Token]) -> Option<Command<'_>> {
    let mut shell = Shell::default();
    let mut found: Option<(Vec<&Token>, Vec<Redirect>)> = None;
    let mut current: Vec<&Token> = Vec::new();
    let mut redirects: Vec<Redirect> = Vec::new();
    let mut commands = 0;
    let mut after_redirect: Option<&str> = None;
    for token in tokens {
        match token {
            // A here-document's body is no word of the command.
            Token::Op { op, .. } if shell.operator(op) => {
                after_redirect = (op != "<<").then_some(op.as_str());
            }
            // Any other operator ends a command.
            Token::Op { .. } => {
                commands += usize::from(!current.is_empty());
                if found.is_none() && is_patch(&current) {
                    found = Some((std::mem::take(&mut current), std::mem::take(&mut redirects)));
                }
                current.clear();
                redirects.clear();
            }
            Token::Word {
                text,
                expansions,
                placeholders,
                ..
            } => {
                // A redirection's target is not an argument.
                let target = after_redirect.take();
                if let Some(op) = target {
                    redirects.push((op.to_owned(), text.clone()));
                } else if shell.word(text, expansions, placeholders, current.is_empty()) {
                    current.push(token);
                }
            }
        }
    }
    commands += usize::from(!current.is_empty());
    if found.is_none() && is_patch(&current) {
        found = Some((current, redirects));
    }
    let (words, redirects) = found?;
    if commands > 1 {
        shell.name(format!("{commands} commands"));
    }
    // Runner words before kubectl (`xargs -I{}`, `env A=b`) belong to the
    // shell, not to kubectl.
    let texts: Vec<&str> = words.iter().map(|t| t.word().unwrap_or("")).collect();
    let start = patch_position(&texts)?;
    Some(Command {
        words: words[start..].to_vec(),
        shell: shell.into_names(),
        redirects,
    })
}

/// True when `t` is one of the operators `ops`.
fn is_op(t: &Token, ops: &[&str]) -> bool {
    matches!(t, Token::Op { op, .. } if ops.contains(&op.as_str()))
}

/// Where the pipeline holding the command at token `first` starts: after
/// the line break or list operator before it.
fn pipeline_start(tokens: &[Token], first: usize) -> usize {
    tokens[..first]
        .iter()
        .rposition(|t| is_op(t, &["\n", ";", "&&", "||"]))
        .map_or(0, |i| i + 1)
}

/// What the command starting at token `first` reads on standard input: the
/// here-document opened on its line (`kubectl patch ... --patch-file
/// /dev/stdin <<EOF`, `cat <<EOF | kubectl patch ...`), or the text an
/// `echo` or `printf` before it in the pipeline writes.
fn stdin_text(tokens: &[Token], first: usize) -> Option<String> {
    let start = pipeline_start(tokens, first);
    let end = first
        + tokens[first..]
            .iter()
            .position(|t| is_op(t, &["\n"]))
            .unwrap_or(tokens.len() - first);
    if tokens[start..end].iter().any(|t| is_op(t, &["<<"])) {
        return tokens.get(end + 1)?.word().map(str::to_owned);
    }
    let pipe = tokens[start..first]
        .iter()
        .rposition(|t| is_op(t, &["|"]))?
        + start;
    let feeder: Vec<&str> = tokens[start..pipe].iter().filter_map(Token::word).collect();
    match feeder.split_first() {
        Some((&"echo", args)) => {
            let args: Vec<&str> = args
                .iter()
                .copied()
                .skip_while(|a| a.starts_with('-'))
                .collect();
            Some(args.join(" "))
        }
        Some((&"printf", [format])) => Some(format.replace("\\n", "\n")),
        _ => None,
    }
}

/// The here-document an earlier command of the script writes to `file`
/// (`cat <<EOF > file`, `cat > file <<EOF`), the last one when several.
fn heredoc_written(tokens: &[Token], file: &str) -> Option<String> {
    let mut found = None;
    let mut line_start = 0;
    for (i, token) in tokens.iter().enumerate() {
        let Token::Op { op, .. } = token else {
            continue;
        };
        if op != "\n" {
            continue;
        }
        let line = &tokens[line_start..i];
        let writes = line.windows(2).any(|pair| {
            matches!(&pair[0], Token::Op { op, .. } if op == ">" || op == ">|")
                && pair[1].word() == Some(file)
        });
        let heredoc = line
            .iter()
            .any(|t| matches!(t, Token::Op { op, .. } if op == "<<"));
        if writes && heredoc {
            found = tokens.get(i + 1).and_then(Token::word).map(str::to_owned);
        }
        line_start = i + 1;
    }
    found
}

/// The commands piped into the command starting at token `first`, as
/// written (`kubectl get ... | jq ...`); empty when none.
fn pipeline_before(tokens: &[Token], first: usize) -> String {
    let start = pipeline_start(tokens, first);
    let mut out = String::new();
    for token in &tokens[start..first] {
        let text = match token {
            Token::Word { text, .. } => text.as_str(),
            Token::Op { op, .. } => op.as_str(),
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(text);
    }
    out.trim_end_matches(|c: char| c == '|' || c.is_whitespace())
        .to_owned()
}

/// What a `$(cat ...)` patch argument reads.
enum Cat {
    /// `$(cat FILE)`.
    File(String),
    /// `$(cat <<EOF ... EOF)`: the here-document's body.
    HereDocument(String),
}

/// A patch argument that is exactly `$(cat FILE)` or `$(cat <<EOF ...)`.
fn cat_substitution(value: &str) -> Option<Cat> {
    let inner = value.strip_prefix("$(")?.strip_suffix(')')?.trim();
    let rest = inner.strip_prefix("cat")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim_start();
    if let Some(doc) = rest.strip_prefix("<<") {
        let doc = doc.strip_prefix('-').unwrap_or(doc).trim_start();
        let (first, body) = doc.split_once('\n')?;
        let delimiter: String = first
            .trim()
            .chars()
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect();
        let mut out = String::new();
        for line in body.lines() {
            if line.trim_start_matches('\t') == delimiter {
                return Some(Cat::HereDocument(out));
            }
            out.push_str(line);
            out.push('\n');
        }
        return None;
    }
    let file = rest.trim_matches(|c| c == '"' || c == '\'');
    (!file.is_empty() && !file.contains(char::is_whitespace)).then(|| Cat::File(file.to_owned()))
}

/// True when the words hold `kubectl ... patch`.
fn is_patch(words: &[&Token]) -> bool {
    let texts: Vec<&str> = words.iter().filter_map(|t| t.word()).collect();
    patch_position(&texts).is_some()
}

/// Reads the patch out of a `kubectl patch` command line.
pub(super) fn read(
    text: &str,
    budget: &Budget,
    files: Option<PatchFiles<'_>>,
) -> Result<Input, LintError> {
    if text.len() > budget.max_bytes {
        let (bytes, limit) = (text.len(), budget.max_bytes);
        let message = format!("the command is {bytes} bytes, more than the limit of {limit} bytes");
        return Err(command_error(message, None));
    }
    let text = without_prompts(text);
    let tokens = split(&text)?;
    let Some(command) = find_patch_command(&tokens) else {
        return Err(no_patch_command(&tokens));
    };
    let mut flags = Flags::read(&command)?;
    if let Some(verb @ ("label" | "annotate")) = flags.positional.first().map(String::as_str) {
        return label_or_annotate(verb, &flags, command.shell);
    }
    // kubectl's `PatchOptions.Validate`, in its words.
    if flags.positional.first().map(String::as_str) != Some("patch") {
        return Err(command_error(
            "no `kubectl patch` command in this text",
            None,
        ));
    }
    let truncated = truncations(&command.redirects, &flags);
    let from_file = flags.patch_file.is_some();
    let expansions = std::mem::take(&mut flags.patch_expansions);
    let kind = patch_type(flags.kind.clone())?;
    let refused = |what: &str| {
        let why = continuation(&text).map_or_else(
            String::new,
            |line| message!(CommandFails "continuation", line),
        );
        fails(
            Rule::CommandFails,
            message!(CommandFails "kubectl", what, why),
            None,
            kind,
        )
    };
    let first = command.words.first().map_or(0, |w| {
        tokens.iter().position(|t| std::ptr::eq(t, *w)).unwrap_or(0)
    });
    let read_before = reads::read_before(&tokens[..first], &expansions, &flags.positional[1..]);
    set_elsewhere(&flags, &expansions, &read_before, kind)?;
    from_stdin(&tokens, first, &mut flags, kind)?;
    let written = |file: &str| heredoc_written(&tokens[..first], file);
    let (patch, patch_file) = (flags.patch.take(), flags.patch_file.take());
    let (text, patch_line) = patch_text(patch, patch_file, files, &refused, &written)?;
    let (text, stand_ins) = standing_in(text, &expansions, budget);
    if flags.positional.len() < 2 && !flags.filename {
        return Err(refused(
            "You must provide one or more resources by argument or filename.",
        ));
    }
    let mut input = patch_body(&text, budget, patch_line, from_file, kind)?;
    if type_mismatch(kind, input.kind) {
        let sent = shown(&input.payload);
        let content = kind.content_type();
        let answer = server_answer(kind, &input.payload).unwrap_or_default();
        let message = message!(UndecodableBody "shape", sent, content, answer);
        let line = Some(patch_line);
        return Err(fails(Rule::UndecodableBody, message, line, kind));
    }
    input.kind = kind;
    input.hints.extend(truncated);
    input.hints.extend(read_before);
    finish(input, &flags, command.shell, stand_ins)
}

/// The text split as the shell splits it; a syntax error is the command
/// failing as written, a text over the word budget an error.
fn split(text: &str) -> Result<Vec<Token>, LintError> {
    shell::split(text).map_err(|err| match err.over_budget {
        true => command_error(
            format!("the shell cannot split this text: {}", err.message),
            Some(err.line),
        ),
        false => {
            let what = err.message;
            let message = message!(CommandFails "shell", what);
            let kind = BodyKind::StrategicMergePatch;
            fails(Rule::CommandFails, message, Some(err.line), kind)
        }
    })
}

/// A `-p` that is one value the script sets elsewhere (`-p "$PATCH"`): a
/// note, with what was read from the cluster before it.
fn set_elsewhere(
    flags: &Flags,
    expansions: &[String],
    read_before: &[Hint],
    kind: BodyKind,
) -> Result<(), LintError> {
    let Some((value, line)) = &flags.patch else {
        return Ok(());
    };
    if cat_substitution(value).is_some() || !expansions.iter().any(|e| e == value) {
        return Ok(());
    }
    let value = shown(value);
    let mut hints = read_before.to_vec();
    hints.push(Hint {
        rule: Rule::BodyUnknown,
        message: message!(BodyUnknown "value", value),
    });
    Err(LintError::Judged {
        hints,
        line: Some(*line),
        column: None,
        kind,
    })
}

/// The patch read from standard input (`--patch-file /dev/stdin`, `-p
/// "$(cat)"`): a here-document on the command's line or what `echo` pipes
/// in becomes the `-p` text; fed by other commands, it is not known here,
/// and a read of the same object among them is a finding.
fn from_stdin(
    tokens: &[Token],
    first: usize,
    flags: &mut Flags,
    kind: BodyKind,
) -> Result<(), LintError> {
    let stdin = |value: &str| {
        matches!(value, "/dev/stdin" | "/dev/fd/0")
            || matches!(value, "$(cat)" | "$(cat -)" | "$(cat /dev/stdin)")
    };
    let line = match (&flags.patch, &flags.patch_file) {
        (None, Some((file, line))) if stdin(file) => *line,
        (Some((value, line)), None) if stdin(value) => *line,
        _ => return Ok(()),
    };
    if let Some(text) = stdin_text(tokens, first) {
        flags.patch = Some((text, line));
        flags.patch_file = None;
        return Ok(());
    }
    let feeder = pipeline_before(tokens, first);
    let mut hints = reads::piped_before(&feeder, &flags.positional[1..]);
    let feeder = shown(&feeder);
    hints.push(Hint {
        rule: Rule::BodyUnknown,
        message: message!(BodyUnknown "stdin", feeder),
    });
    Err(LintError::Judged {
        hints,
        line: Some(line),
        column: None,
        kind,
    })
}

/// The body read, with its target, the writes the endpoint drops, and the
/// shell around the command (each value standing in named).
fn finish(
    mut input: Input,
    flags: &Flags,
    mut shell: Vec<String>,
    stand_ins: Vec<String>,
) -> Result<Input, LintError> {
    let targets = &flags.positional[1..];
    input.resource = targets.first().and_then(|t| kinds::resource(t));
    let target_kind = input.resource.as_ref().and_then(|r| r.kind.as_deref());
    let subresource = flags.subresource.as_deref();
    let dropped = dropped::dropped(target_kind, input.kind, &input.payload, subresource);
    input.hints.extend(dropped);
    let unknown = stand_ins.len();
    shell.extend(stand_ins.into_iter().take(Shell::MOST).map(|e| {
        format!("the value of {e} in the patch, which lint cannot know: a placeholder string stands in for it")
    }));
    if unknown > Shell::MOST {
        let more = unknown - Shell::MOST;
        shell.push(format!(
            "and {more} more values in the patch, each a placeholder string"
        ));
    }
    input.origin = Origin::Kubectl {
        verb: "patch",
        target: targets.join(" "),
        shell,
    };
    Ok(input)
}

/// What `kubectl label` and `kubectl annotate` send: a JSON merge patch of
/// the keys they set (`k=v`) and remove (`k-`), the resourceVersion too
/// with `--resource-version` (kubernetes `staging/src/k8s.io/kubectl/pkg/
/// cmd/label/label.go` and `annotate/annotate.go`, `RunLabel` and
/// `RunAnnotate`: `jsonpatch.CreateMergePatch` of the object before and
/// after, sent as `types.MergePatchType`).
fn label_or_annotate(verb: &str, flags: &Flags, shell: Vec<String>) -> Result<Input, LintError> {
    let map = if verb == "label" {
        "labels"
    } else {
        "annotations"
    };
    let args = &flags.positional[1..];
    let is_change = |a: &String| a.contains('=') || (a.ends_with('-') && a.len() > 1);
    let targets: Vec<&String> = args.iter().take_while(|a| !is_change(a)).collect();
    let mut changes = serde_json::Map::new();
    for arg in args.iter().filter(|a| is_change(a)) {
        match arg.split_once('=') {
            Some((key, value)) => changes.insert(key.to_owned(), Value::String(value.to_owned())),
            None => changes.insert(arg[..arg.len() - 1].to_owned(), Value::Null),
        };
    }
    let kind = BodyKind::MergePatch;
    if changes.is_empty() {
        let what = format!("at least one {} update is required", &map[..map.len() - 1]);
        let why = String::new();
        return Err(fails(
            Rule::CommandFails,
            message!(CommandFails "kubectl", what, why),
            None,
            kind,
        ));
    }
    let mut metadata = serde_json::Map::new();
    metadata.insert(map.to_owned(), Value::Object(changes));
    if let Some(rv) = &flags.resource_version {
        metadata.insert("resourceVersion".to_owned(), Value::String(rv.clone()));
    }
    let body = serde_json::json!({ "metadata": metadata });
    Ok(Input {
        kind,
        payload: crate::gojson::to_string(&body),
        origin: Origin::Kubectl {
            verb: if verb == "label" { "label" } else { "annotate" },
            target: targets
                .iter()
                .map(|t| t.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            shell,
        },
        resource: targets.first().and_then(|t| kinds::resource(t)),
        hints: Vec::new(),
        wrapper: None,
    })
}

/// The redirections that truncate a file the command reads (`> f` with
/// `-f f` or `--patch-file f`): the shell empties it before kubectl starts.
fn truncations(redirects: &[Redirect], flags: &Flags) -> Vec<Hint> {
    let reads = [
        (
            flags.filename_value.as_deref(),
            "-f",
            "no object: kubectl answers `error: no objects passed to patch`",
        ),
        (
            flags.patch_file.as_ref().map(|(f, _)| f.as_str()),
            "--patch-file",
            "an empty patch",
        ),
    ];
    let mut hints = Vec::new();
    for (op, target) in redirects {
        let truncates = op.ends_with('>') && !op.ends_with(">>") && !op.starts_with('<');
        for (file, flag, finds) in reads {
            if truncates && file == Some(target.as_str()) {
                hints.push(Hint {
                    rule: Rule::RedirectTruncatesInput,
                    message: message!(RedirectTruncatesInput "command", op, target, flag, finds),
                });
            }
        }
    }
    hints
}

/// A value as a message shows it: cut after 60 characters, with its
/// length.
fn shown(value: &str) -> String {
    let count = value.chars().count();
    if count <= 60 {
        return value.to_owned();
    }
    let cut: String = value.chars().take(60).collect();
    format!("{cut}... ({count} characters)")
}

/// The patch with each expansion the shell splices in as a bare JSON
/// value (`'{"a": '"$CERT"'}'`) replaced by a placeholder string, when
/// the text only reads that way; and the expansions replaced, each once.
/// One pass: the shell recorded the expansions in the order they stand in
/// the text, so each is looked for after the one before.
fn standing_in(text: String, expansions: &[String], budget: &Budget) -> (String, Vec<String>) {
    if expansions.is_empty() || kubectl_body(&text, budget).is_ok() {
        return (text, Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut replaced = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut json = JsonStrings::default();
    let mut at = 0;
    for expansion in expansions {
        let Some(found) = text[at..].find(expansion.as_str()) else {
            continue;
        };
        let start = at + found;
        json.copy(&text[at..start], &mut out);
        if json.inside {
            json.copy(expansion, &mut out);
        } else {
            out.push_str(&crate::gojson::quote(&format!("<{expansion}>")));
            if seen.insert(expansion.as_str()) {
                replaced.push(expansion.clone());
            }
        }
        at = start + expansion.len();
    }
    json.copy(&text[at..], &mut out);
    match kubectl_body(&out, budget) {
        Ok(_) if !replaced.is_empty() => (out, replaced),
        _ => (text, Vec::new()),
    }
}

/// Whether a scan of JSON text stands inside a string.
#[derive(Default)]
struct JsonStrings {
    inside: bool,
    escaped: bool,
}

impl JsonStrings {
    /// Copies `text` to `out`, following its strings.
    fn copy(&mut self, text: &str, out: &mut String) {
        for c in text.chars() {
            match c {
                _ if self.escaped => self.escaped = false,
                '\\' if self.inside => self.escaped = true,
                '"' => self.inside = !self.inside,
                _ => {}
            }
            out.push(c);
        }
    }
}

/// The text without the `$ ` prompts of a pasted terminal session.
fn without_prompts(text: &str) -> Cow<'_, str> {
    if !text.lines().any(|l| l.trim_start().starts_with("$ ")) {
        return Cow::Borrowed(text);
    }
    let lines = text
        .lines()
        .map(|l| l.trim_start().strip_prefix("$ ").unwrap_or(l));
    Cow::Owned(lines.collect::<Vec<_>>().join("\n"))
}

/// The patch (from line `line` of the command), read as kubectl reads it;
/// when its YAML reader refuses the text, kubectl's own error line.
fn patch_body(
    text: &str,
    budget: &Budget,
    line: usize,
    from_file: bool,
    kind: BodyKind,
) -> Result<Input, LintError> {
    kubectl_body(text, budget).map_err(|refusal| match refusal {
        Refusal::Yaml(yaml) => {
            let parsed = unable_to_parse(text, from_file);
            // The reader's end of input past the last line: the last
            // line's end.
            let lines = text.lines().count().max(1);
            let place = match (yaml.error.line, yaml.error.column) {
                (Some(l), _) if l > lines => {
                    let last = text.lines().last().unwrap_or("");
                    format!("; line {lines}, column {} of the patch", last.chars().count() + 1)
                }
                (Some(l), Some(c)) => format!("; line {l}, column {c} of the patch"),
                _ => String::new(),
            };
            let what = format!(
                "the patch (from line {line} of the command{place}): {}; kubectl reads it as YAML (yaml.ToJSON) and stops: error: unable to parse {parsed}: {}",
                yaml.error.message, yaml.go
            );
            let message = message!(CommandFails "yaml", what);
            let at = match from_file {
                true => line,
                false => line + yaml.error.line.unwrap_or(1).min(lines) - 1,
            };
            fails(Rule::CommandFails, message, Some(at), kind)
        }
        Refusal::Lint(LintError::Syntax(err)) => {
            // The line of the command; the column is the patch's own.
            let at = err.line.map(|l| l + line - 1);
            match undecodable(text, kind, err) {
                LintError::Judged { hints, kind, .. } => LintError::Judged {
                    hints,
                    line: at,
                    column: None,
                    kind,
                },
                other => other,
            }
        }
        Refusal::Lint(LintError::NotAPatch { found }) => {
            let sent = kubectl_sends(text, budget).unwrap_or_else(|_| text.to_owned());
            match server_answer(kind, &sent) {
                Some(answer) => {
                    let sent = format!("{found}, {}", shown(&sent));
                    let content = kind.content_type();
                    let message = message!(UndecodableBody "shape", sent, content, answer);
                    fails(Rule::UndecodableBody, message, Some(line), kind)
                }
                None => LintError::NotAPatch { found },
            }
        }
        Refusal::Lint(other) => other,
    })
}

/// What kubectl's `unable to parse %q` quotes: the `-p` value (Go-quoted;
/// named when long), or nothing for `--patch-file` (its `-p` is empty).
fn unable_to_parse(text: &str, from_file: bool) -> String {
    if from_file {
        return "\"\"".to_owned();
    }
    let quoted = crate::gojson::quote(text);
    if quoted.chars().count() <= 120 {
        quoted
    } else {
        format!("\"<the {}-byte patch>\"", text.len())
    }
}

/// The error for a text without a `kubectl patch` command, naming the
/// kubectl verb it has instead.
fn no_patch_command(tokens: &[Token]) -> LintError {
    // A `kubectl patch` inside a string or a substitution: the script
    // builds the command when it runs (`bash <(... | jq '"kubectl patch "
    // + ...')`).
    let built = tokens.iter().find_map(|t| match t {
        Token::Word {
            text, expansions, ..
        } => std::iter::once(text)
            .chain(expansions)
            .find(|w| builds_patch(w))
            .map(|w| (w.clone(), t.line())),
        Token::Op { .. } => None,
    });
    if let Some((word, line)) = built {
        let value = shown(&word);
        let message = message!(BodyUnknown "built", value);
        return LintError::Judged {
            hints: vec![Hint {
                rule: Rule::BodyUnknown,
                message,
            }],
            line: Some(line),
            column: None,
            kind: BodyKind::StrategicMergePatch,
        };
    }
    let verb = tokens
        .iter()
        .filter_map(Token::word)
        .skip_while(|w| !is_kubectl(w))
        .skip(1)
        .find(|w| !w.starts_with('-'));
    command_error(
        match verb {
            Some(verb) => {
                format!("lint reads `kubectl patch` commands; `kubectl {verb}` sends no patch")
            }
            None => "no `kubectl patch` command in this text".to_owned(),
        },
        None,
    )
}

/// True when `text` holds a kubectl spelling followed by `patch` as words.
fn builds_patch(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`' | '|' | ';'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .iter()
        .position(|w| is_kubectl(w))
        .is_some_and(|at| words[at..].contains(&"patch"))
}

/// The flags and arguments of a `kubectl patch` command that decide what
/// it sends (each flag's value with its line).
struct Flags {
    patch: Option<(String, usize)>,
    /// The expansions inside the `-p` value, as written.
    patch_expansions: Vec<String>,
    patch_file: Option<(String, usize)>,
    kind: Option<(String, usize)>,
    /// `-f` or `-k`: the target comes from a file.
    filename: bool,
    /// The file `-f` names.
    filename_value: Option<String>,
    /// `--subresource`: `status`, `scale`.
    subresource: Option<String>,
    /// `--resource-version` (kubectl label and annotate).
    resource_version: Option<String>,
    /// The words that are not flags: `patch`, then the targets.
    positional: Vec<String>,
}

impl Flags {
    /// Reads the words after `kubectl`, as kubectl's flag parser would.
    fn read(command: &Command<'_>) -> Result<Flags, LintError> {
        let mut flags = Flags {
            patch: None,
            patch_expansions: Vec::new(),
            patch_file: None,
            kind: None,
            filename: false,
            filename_value: None,
            subresource: None,
            resource_version: None,
            positional: Vec::new(),
        };
        let mut rest = command.words.iter().skip(1);
        while let Some(token) = rest.next() {
            let Some(word) = token.word() else { continue };
            let line = token.line();
            let (flag, inline) = match word.split_once('=') {
                Some((flag, value)) if flag.starts_with('-') => (flag, Some(value.to_owned())),
                _ => (word, None),
            };
            if word == "--" {
                flags
                    .positional
                    .extend(rest.by_ref().filter_map(|t| t.word()).map(str::to_owned));
                break;
            }
            if !flag.starts_with('-') || flag == "-" {
                flags.positional.push(word.to_owned());
                continue;
            }
            let takes_value = VALUE_FLAGS.contains(&flag);
            let mut expansions = match token {
                Token::Word { expansions, .. } if inline.is_some() => expansions.clone(),
                _ => Vec::new(),
            };
            let value = match inline {
                Some(value) => Some(value),
                None if takes_value => match rest.next() {
                    Some(Token::Word {
                        text,
                        expansions: e,
                        ..
                    }) => {
                        expansions.clone_from(e);
                        Some(text.clone())
                    }
                    // pflag's words (`flag needs an argument: 'p' in -p`).
                    Some(Token::Op { .. }) | None => {
                        let what = match flag.strip_prefix("--") {
                            Some(_) => format!("flag needs an argument: {flag}"),
                            None => format!("flag needs an argument: '{}' in {flag}", &flag[1..]),
                        };
                        let why = String::new();
                        let message = message!(CommandFails "kubectl", what, why);
                        let kind = BodyKind::StrategicMergePatch;
                        return Err(fails(Rule::CommandFails, message, Some(line), kind));
                    }
                },
                None => None,
            };
            match flag {
                "-p" | "--patch" => {
                    flags.patch = value.map(|v| (v, line));
                    flags.patch_expansions = expansions;
                }
                "--patch-file" => flags.patch_file = value.map(|v| (v, line)),
                "--type" => flags.kind = value.map(|v| (v, line)),
                "--subresource" => flags.subresource = value,
                "--resource-version" => flags.resource_version = value,
                "-f" | "--filename" => {
                    flags.filename = true;
                    flags.filename_value = value;
                }
                "-k" | "--kustomize" => flags.filename = true,
                _ => {}
            }
        }
        Ok(flags)
    }
}

/// The patch's text and first line, from `--patch` (or the file or
/// here-document its `$(cat ...)` names) or `--patch-file`.
fn patch_text(
    patch: Option<(String, usize)>,
    patch_file: Option<(String, usize)>,
    files: Option<PatchFiles<'_>>,
    refused: &dyn Fn(&str) -> LintError,
    written: &dyn Fn(&str) -> Option<String>,
) -> Result<(String, usize), LintError> {
    let (file, line, from_cat) = match (patch, patch_file) {
        (Some(_), Some(_)) => {
            return Err(refused("cannot specify --patch and --patch-file together"));
        }
        (None, None) => {
            return Err(refused(
                "must specify --patch or --patch-file containing the contents of the patch",
            ));
        }
        // `--patch "$(cat patch.yaml)"`, as older docs write it, or a
        // here-document inside `$(cat <<EOF ... EOF)`.
        (Some((value, line)), None) => match cat_substitution(&value) {
            Some(Cat::HereDocument(body)) => return Ok((body, line)),
            Some(Cat::File(file)) => (file, line, true),
            None => return Ok((value, line)),
        },
        (None, Some((file, line))) => (file, line, false),
    };
    // A file lint cannot open: the body is not known, and only the
    // command is judged.
    let unknown = |why: String| {
        let what = match from_cat {
            true => format!("the output of $(cat {file})"),
            false => format!("the file --patch-file {file} names"),
        };
        fails(
            Rule::BodyUnknown,
            message!(BodyUnknown "unopened", what, why),
            Some(line),
            BodyKind::StrategicMergePatch,
        )
    };
    // The script writes the file just before: its here-document.
    if let Some(text) = written(&file) {
        return Ok((text, line));
    }
    let Some(files) = files else {
        return Err(unknown("lint cannot open files here".to_owned()));
    };
    let text = files(&file).map_err(|err| {
        unknown(match from_cat {
            true => format!("cat: {err}"),
            false => format!("kubectl: unable to read patch file: {err}"),
        })
    })?;
    Ok((text, line))
}

/// The patch type `--type` names (strategic without it).
fn patch_type(kind: Option<(String, usize)>) -> Result<BodyKind, LintError> {
    match kind
        .as_ref()
        .map(|(k, line)| (k.to_ascii_lowercase(), *line))
    {
        Some((k, _)) if k == "json" => Ok(BodyKind::JsonPatch),
        Some((k, _)) if k == "merge" => Ok(BodyKind::MergePatch),
        Some((k, _)) if k == "strategic" => Ok(BodyKind::StrategicMergePatch),
        None => Ok(BodyKind::StrategicMergePatch),
        Some((_, line)) => {
            let given = kind.map(|(k, _)| k).unwrap_or_default();
            let what = format!("--type must be one of [json merge strategic], not {given:?}");
            let why = String::new();
            let message = message!(CommandFails "kubectl", what, why);
            Err(fails(
                Rule::CommandFails,
                message,
                Some(line),
                BodyKind::StrategicMergePatch,
            ))
        }
    }
}

/// True when the body's shape does not match the `--type` it is sent
/// with: a list is only a JSON patch, an object never is.
fn type_mismatch(sent: BodyKind, found: BodyKind) -> bool {
    (sent == BodyKind::JsonPatch) != (found == BodyKind::JsonPatch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::Rule;

    fn read(text: &str) -> Result<Input, LintError> {
        super::read(text, &Budget::default(), None)
    }

    fn target(input: &Input) -> (&str, &[String]) {
        match &input.origin {
            Origin::Kubectl { target, shell, .. } => (target, shell),
            _ => panic!("not from kubectl"),
        }
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
        assert_eq!(target(&input).0, "vmi testvmi");
        assert_eq!(
            input.resource.as_ref().unwrap().kind.as_deref(),
            Some("VirtualMachineInstance")
        );
        // Double quotes, a continuation line, --type as its own word, `'\\''`.
        let input = read(
            "kubectl -n x patch vmi a \\\n  --type merge --patch \"{\\\"metadata\\\":{\\\"labels\\\":{\\\"it's\\\":null}}}\" | jq .",
        )
        .unwrap();
        assert_eq!(input.kind, BodyKind::MergePatch);
        assert_eq!(input.payload, r#"{"metadata":{"labels":{"it's":null}}}"#);
        assert_eq!(
            target(&input).1,
            ["a pipe (|)".to_owned(), "2 commands".to_owned()]
        );
        let input = read(
            r#"kubectl patch vmi a --type=json -p='[{"op":"add","path":"/a","value":"it'\''s"}]'"#,
        )
        .unwrap();
        assert!(input.payload.contains("it's"));
    }

    /// kubectl's own help writes `$'...'`; the escapes are bash's.
    #[test]
    fn ansi_c_quoting_is_decoded() {
        let input =
            read(r#"kubectl patch node k8s-node-1 -p $'spec:\n  unschedulable: true'"#).unwrap();
        assert_eq!(input.kind, BodyKind::StrategicMergePatch);
        assert_eq!(input.payload, r#"{"spec":{"unschedulable":true}}"#);
        assert_eq!(input.resource.unwrap().kind.as_deref(), Some("Node"));
    }

    #[test]
    fn line_continuations_join_lines_as_the_shell_does() {
        let input = read(
            "kubectl patch vmi testvmi \\\n  -n default \\\n  --type=json -p \\\n  '[{\"op\":\"remove\",\"path\":\"/a\"}]'",
        )
        .unwrap();
        assert_eq!(input.payload, r#"[{"op":"remove","path":"/a"}]"#);
        assert_eq!(target(&input).0, "vmi testvmi");
        let input = read("kubectl pat\\\nch vmi a --type=json -p '[]'").unwrap();
        assert_eq!(input.payload, "[]");
        let input = read("kubectl patch vmi a --type=merge -p \"{\\\"a\\\":\\\n1}\"").unwrap();
        assert_eq!(input.payload, r#"{"a":1}"#);
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
        // A placeholder in a list: YAML reads it as a string, as kubectl does.
        let input = read(
            r#"kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":<desired number>}]'"#,
        )
        .unwrap();
        assert_eq!(
            input.payload,
            r#"[{"op":"replace","path":"/spec/replicas","value":"\u003cdesired number\u003e"}]"#
        );
    }

    #[test]
    fn shell_around_the_command_is_named() {
        let input = read(
            "for vmi in $(kubectl get vmi -o name); do\n  kubectl patch $vmi --type=merge -p '{\"metadata\":{\"labels\":{\"a\":\"b\"}}}' > /dev/null\ndone",
        )
        .unwrap();
        let (on, shell) = target(&input);
        assert_eq!(on, "$vmi");
        assert!(shell.contains(&"a for block".to_owned()), "{shell:?}");
        assert!(
            shell.contains(&"the expansion $vmi".to_owned()),
            "{shell:?}"
        );
        assert!(shell.contains(&"a redirection (>)".to_owned()), "{shell:?}");
        let input = read(
            "kubectl get pods -o name | xargs -I{} kubectl patch {} --type=json -p '[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]'",
        )
        .unwrap();
        assert!(target(&input).1.contains(&"xargs".to_owned()));
        assert_eq!(input.kind, BodyKind::JsonPatch);
    }

    #[test]
    fn every_spelling_of_kubectl_is_read() {
        let body = r#"-p '{"metadata":{"labels":{"a":"b"}}}'"#;
        for (command, on) in [
            (
                "${KUBECTL} patch ds -n kube-system kube-proxy",
                "ds kube-proxy",
            ),
            ("$KUBECTL -n \"$NS\" patch secret \"s-$X\"", "secret s-$X"),
            ("k patch vmi a", "vmi a"),
            ("microk8s kubectl patch vmi a", "vmi a"),
            ("k3s kubectl patch vmi a", "vmi a"),
            ("microk8s.kubectl patch vmi a", "vmi a"),
            ("sudo kubectl.exe patch vmi a", "vmi a"),
            ("oc --kubeconfig=\"$K\" patch vmi a", "vmi a"),
            ("/usr/local/bin/kubectl --context c patch vmi a", "vmi a"),
        ] {
            let text = format!("{command} {body}");
            assert!(is_command(&text), "{text}");
            let input = read(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(target(&input).0, on, "{text}");
            assert_eq!(input.kind, BodyKind::StrategicMergePatch);
        }
        // Flags between kubectl and patch, inside a loop.
        let text = "for r in $(kubectl -n ns get $RES -o name); do\n  kubectl -n ns patch $r -p '{\"metadata\":{\"ownerReferences\":null}}'\ndone";
        assert!(is_command(text));
        assert_eq!(target(&read(text).unwrap()).0, "$r");
        // A variable that runs something else is no kubectl.
        assert!(read("$EDITOR file; echo patch").is_err());
        assert!(!is_command("$EDITOR notes.txt"));
    }

    #[test]
    fn placeholders_are_read_as_the_names_they_stand_for() {
        let input = read(
            r#"kubectl patch pv <your-pv-name> -p '{"spec":{"persistentVolumeReclaimPolicy":"Retain"}}'"#,
        )
        .unwrap();
        let (on, shell) = target(&input);
        assert_eq!(on, "pv <your-pv-name>");
        assert!(
            shell
                .iter()
                .any(|s| s.starts_with("the placeholder <your-pv-name>")
                    && s.contains("bash would read its < and > as redirections")),
            "{shell:?}"
        );
        let input = read(
            "kubectl patch storageclass/<YOUR_AZURE_FILE_STORAGE_CLASS_NAME> \\\n  --type json \\\n  --patch '[{\"op\":\"add\",\"path\":\"/mountOptions/-\",\"value\":\"nouser_xattr\"}]'",
        )
        .unwrap();
        assert_eq!(input.kind, BodyKind::JsonPatch);
        assert_eq!(
            target(&input).0,
            "storageclass/<YOUR_AZURE_FILE_STORAGE_CLASS_NAME>"
        );
    }

    #[test]
    fn values_from_elsewhere_are_placeholders_or_named() {
        // Spliced in as a bare JSON value: a placeholder string stands in.
        let input =
            read(r#"kubectl patch cm c -n k -p '{"data":{"a": "b", "ca": '"$CERT"'}}'"#).unwrap();
        assert_eq!(input.payload, r#"{"data":{"a": "b", "ca": "<$CERT>"}}"#);
        assert!(target(&input)
            .1
            .iter()
            .any(|s| s.starts_with("the value of $CERT in the patch")));
        // Inside a JSON string it is text already: nothing stands in.
        let input =
            read(r#"kubectl patch secret s -p "{\"stringData\":{\"id\":\"$ID\"}}""#).unwrap();
        assert_eq!(input.payload, r#"{"stringData":{"id":"$ID"}}"#);
        // The whole patch from elsewhere: named, with its line.
        for text in [
            "with_retries kubectl patch cm f -n t -p \"$jsonpatch\"",
            "kubectl patch deploy -n i c --patch=\"$(curl https://example.com/patch.json)\"",
        ] {
            let err = read(text).unwrap_err().to_string();
            assert!(
                err.contains("a value the script sets elsewhere: lint cannot know it"),
                "{err}"
            );
        }
    }

    #[test]
    fn many_values_from_elsewhere_stand_in_at_once_and_are_named_briefly() {
        let n = 2_000;
        let members: Vec<String> = (0..n).map(|i| format!(r#""k{i}": '"$v{i}"'"#)).collect();
        let text = format!("kubectl patch cm c -p '{{{}}}'", members.join(", "));
        let input = read(&text).unwrap();
        let body: serde_json::Value = serde_json::from_str(&input.payload).unwrap();
        assert_eq!(body["k1999"], "<$v1999>");
        assert_eq!(body.as_object().unwrap().len(), n);
        let shell = target(&input).1;
        assert!(shell.len() <= 2 * Shell::MOST + 2, "{}", shell.len());
        assert!(
            shell
                .iter()
                .any(|s| s.starts_with("and ") && s.contains("more")),
            "{shell:?}"
        );
    }

    #[test]
    fn commands_are_told_from_bodies() {
        assert!(is_command("$ kubectl patch a b -p '{}'"));
        assert!(is_command("for x in a; do kubectl patch $x -p '{}'; done"));
        assert!(!is_command(
            "# run: kubectl patch vmi a\nmetadata:\n  labels: {a: b}\n"
        ));
        assert!(!is_command(
            r#"[{"op":"add","path":"/a","value":"kubectl patch x"}]"#
        ));
        assert!(!is_command("note: kubectl patch it later\n"));
    }

    #[test]
    fn no_type_is_a_strategic_merge_patch_of_the_named_kind() {
        let input = read(r#"kubectl patch deploy web -p '{"spec":{"replicas":3}}'"#).unwrap();
        assert_eq!(input.kind, BodyKind::StrategicMergePatch);
        assert_eq!(input.resource.unwrap().kind.as_deref(), Some("Deployment"));
        let input =
            read(r#"kubectl patch gateways.gateway.networking.k8s.io/kong -p '{"metadata":{"finalizers":null}}'"#)
                .unwrap();
        assert_eq!(input.resource.unwrap().served, kinds::Served::Custom);
    }

    #[test]
    fn cat_substitutions_read_the_file_or_the_here_document() {
        let input = read(
            "kubectl patch deployment patch-demo --patch \"$(cat <<EOF\nspec:\n  replicas: 2\nEOF\n)\"",
        )
        .unwrap();
        assert_eq!(input.payload, r#"{"spec":{"replicas":2}}"#);
        let files = |name: &str| match name {
            "patch-file.yaml" => Ok("spec:\n  replicas: 3\n".to_owned()),
            other => Err(format!("open {other}: no such file or directory")),
        };
        let input = super::read(
            "kubectl patch deployment patch-demo --patch \"$(cat patch-file.yaml)\"",
            &Budget::default(),
            Some(&files),
        )
        .unwrap();
        assert_eq!(input.payload, r#"{"spec":{"replicas":3}}"#);
        let err = read("kubectl patch deployment patch-demo --patch \"$(cat patch-file.yaml)\"")
            .unwrap_err();
        assert!(err.to_string().contains("$(cat patch-file.yaml)"), "{err}");
    }

    #[test]
    fn label_and_annotate_send_a_merge_patch_of_their_keys() {
        let input = read("kubectl label node n1 gpu=true old- --overwrite").unwrap();
        assert_eq!(input.kind, BodyKind::MergePatch);
        assert_eq!(
            input.payload,
            r#"{"metadata":{"labels":{"gpu":"true","old":null}}}"#
        );
        assert_eq!(target(&input).0, "node n1");
        assert_eq!(input.resource.unwrap().kind.as_deref(), Some("Node"));
        let input = read("oc annotate pod/p example.com/a=b --resource-version=42").unwrap();
        assert_eq!(
            input.payload,
            r#"{"metadata":{"annotations":{"example.com/a":"b"},"resourceVersion":"42"}}"#
        );
        // No key: kubectl's own refusal, a finding.
        let Err(LintError::Judged { hints, .. }) = read("kubectl label node n1") else {
            panic!("no refusal");
        };
        assert!(hints[0]
            .message
            .ends_with("at least one label update is required"));
    }

    #[test]
    fn standard_input_and_files_the_script_writes_are_read() {
        // A here-document on the command's line, or piped from cat.
        for text in [
            "kubectl patch cm a --patch-file=/dev/stdin <<-EOF\ndata:\n  k: v\nEOF\n",
            "cat <<EOF | kubectl patch cm a --patch-file /dev/stdin\n{\"data\":{\"k\":\"v\"}}\nEOF\n",
            "echo '{\"data\":{\"k\":\"v\"}}' | kubectl patch cm a --patch-file /dev/stdin",
        ] {
            let input = read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            // (JSON is sent as written, its newline included)
            assert_eq!(input.payload.trim_end(), r#"{"data":{"k":"v"}}"#, "{text}");
        }
        // Fed by other commands: not known, and a read of the same object
        // among them is a finding.
        let piped = "kubectl get cm a -o jsonpath='{.data.k}' | jq -c '{data: {k: .}}' | kubectl patch cm a --type merge --patch-file /dev/stdin";
        let Err(LintError::Judged { hints, .. }) = read(piped) else {
            panic!("{piped}");
        };
        let rules: Vec<Rule> = hints.iter().map(|h| h.rule).collect();
        assert_eq!(rules, [Rule::ReadThenPatch, Rule::BodyUnknown]);
        // A file the script writes just before with a here-document.
        let written = "cat <<EOF > p.json\n[{\"op\":\"remove\",\"path\":\"/data/k\"}]\nEOF\nkubectl patch cm a --type=json -p=\"$(cat p.json)\"";
        let input = read(written).unwrap();
        assert_eq!(
            input.payload.trim_end(),
            "[{\"op\":\"remove\",\"path\":\"/data/k\"}]"
        );
    }

    #[test]
    fn patch_files_are_read_through_the_callback() {
        let files = |name: &str| match name {
            "p.yaml" => Ok("metadata:\n  labels:\n    a: b\n".to_owned()),
            other => Err(format!("open {other}: no such file or directory")),
        };
        let input = super::read(
            "kubectl patch cm conf --type=merge --patch-file p.yaml",
            &Budget::default(),
            Some(&files),
        )
        .unwrap();
        assert_eq!(input.payload, r#"{"metadata":{"labels":{"a":"b"}}}"#);
        let err = super::read(
            "kubectl patch cm conf --patch-file q.yaml",
            &Budget::default(),
            Some(&files),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("unable to read patch file: open q.yaml"),
            "{err}"
        );
    }

    #[test]
    fn yaml_is_read_as_kubectl_reads_it() {
        // YAML 1.1: `yes` and the key `on` are booleans, `010` is octal,
        // `<<` merges; the hints say so.
        let input = read(
            "kubectl patch cm conf --type=merge -p 'data: {enabled: yes, mode: 010}\nmetadata: {labels: {<<: {a: b}, on: x}}'",
        )
        .unwrap();
        assert_eq!(
            input.payload,
            r#"{"data":{"enabled":true,"mode":8},"metadata":{"labels":{"a":"b","true":"x"}}}"#
        );
        let rules: Vec<_> = input
            .hints
            .iter()
            .map(|h| (h.rule, h.message.as_str()))
            .collect();
        assert_eq!(
            rules,
            [
                (Rule::YamlBoolean, "line 1: the YAML word yes is sent as true (kubectl reads YAML 1.1): quote it (\"yes\") if it is text"),
                (Rule::YamlNumber, "line 1: the YAML number 010 is sent as 8: quote it (\"010\") if the digits matter"),
                (Rule::YamlBoolean, "line 2: the key on is sent as the key \"true\" (kubectl reads YAML 1.1): quote it (\"on\")"),
            ]
        );
        // A byte order mark before `{`: not JSON to kubectl, so re-encoded.
        let input =
            read("kubectl patch cm conf --type=merge -p $'\\xef\\xbb\\xbf{\"b\": 1, \"a\": 2}'")
                .unwrap();
        assert_eq!(input.payload, r#"{"a":2,"b":1}"#);
        // A repeated key keeps its last value; kubectl does not stop.
        let input = read("kubectl patch cm conf --type=merge -p 'a: 1\na: 2'").unwrap();
        assert_eq!(input.payload, r#"{"a":2}"#);
    }

    #[test]
    fn yaml_refusals_are_kubectls_own_error_line() {
        let err = read(r#"kubectl patch cm conf --type=merge -p 'data: {a: "\/"}'"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"the patch (from line 1 of the command; line 1, column 12 of the patch): found unknown escape character; kubectl reads it as YAML (yaml.ToJSON) and stops: error: unable to parse "data: {a: \"\\/\"}": yaml: found unknown escape character: nothing is sent"#
        );
        let files = |_: &str| Ok("a: 1\nb: \"\\uD83D\\uDE00\"\n".to_owned());
        let err = super::read(
            "kubectl patch cm conf --type=merge --patch-file p.yaml",
            &Budget::default(),
            Some(&files),
        )
        .unwrap_err();
        assert!(
            err.to_string().ends_with(r#"error: unable to parse "": yaml: line 2: found invalid Unicode character escape code: nothing is sent"#),
            "{err}"
        );
        assert!(
            err.to_string().contains("line 2, column 7 of the patch"),
            "{err}"
        );
        // The line of the command that names the file.
        assert_eq!(err.location(), (Some(1), None));
    }

    #[test]
    fn errors_say_what_and_where_in_kubectl_terms() {
        let cases = [
            (
                "kubectl patch vmi a --type=json",
                "must specify --patch or --patch-file",
            ),
            ("kubectl apply -f x.yaml", "`kubectl apply` sends no patch"),
            ("kubectl patch vmi a --type=json -p '[", "never closed"),
            (
                "kubectl patch vmi a --type=json -p '{}'",
                "cannot decode it as application/json-patch+json",
            ),
            (
                "kubectl patch vmi a --type=yaml -p '{}'",
                "--type must be one of [json merge strategic], not \"yaml\"",
            ),
            (
                "kubectl patch vmi a --type=json --patch-file p.json",
                "the file --patch-file p.json names (lint cannot open files here)",
            ),
            (
                "kubectl patch vmi a --type=json -p",
                "flag needs an argument: 'p' in -p",
            ),
            (
                "kubectl patch --type=json -p '[]'",
                "You must provide one or more resources",
            ),
            (
                "kubectl patch vmi a -p '{}' --patch-file x",
                "cannot specify --patch and --patch-file together",
            ),
            (
                "kubectl patch vmi a -p '[]'",
                "kubectl sends [], and the server cannot decode it as application/strategic-merge-patch+json",
            ),
        ];
        // What kubectl, the shell or the server refuses as written is a
        // finding of its own (the faces that lint report it); what lint
        // cannot read is an error.
        let judged = |err: &LintError| match err {
            LintError::Judged { hints, .. } => Some(hints[0].rule),
            _ => None,
        };
        for (text, expected) in cases {
            let err = read(text).unwrap_err();
            assert!(err.to_string().contains(expected), "{text}: {err}");
            let rule = match expected {
                "`kubectl apply` sends no patch" => None,
                "the file --patch-file p.json names (lint cannot open files here)" => {
                    Some(Rule::BodyUnknown)
                }
                "cannot decode it as application/json-patch+json"
                | "kubectl sends [], and the server cannot decode it as application/strategic-merge-patch+json" => {
                    Some(Rule::UndecodableBody)
                }
                _ => Some(Rule::CommandFails),
            };
            assert_eq!(judged(&err), rule, "{text}: {err}");
        }
        let err = read("kubectl patch vmi a \\\n --type=json \\\n -p '[{'").unwrap_err();
        assert_eq!(judged(&err), Some(Rule::CommandFails), "{err}");
        assert!(
            err.to_string()
                .contains("from line 3 of the command; line 1, column 3 of the patch"),
            "{err}"
        );
        assert_eq!(err.location(), (Some(3), None));
        // An object sent as a JSON patch, a list as a merge patch: the
        // server's own 400.
        let err = read("kubectl patch vmi a --type=json -p '{}'").unwrap_err();
        assert!(
            err.to_string()
                .contains("cannot unmarshal object into Go value of type []handlers.jsonPatchOp"),
            "{err}"
        );
        let err = read("kubectl patch vmi a --type=merge -p '[]'").unwrap_err();
        assert!(err.to_string().contains("error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"), "{err}");
    }
}
