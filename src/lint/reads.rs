//! Values a script reads from the cluster just before its patch and
//! carries into the patch's body: `IDX=$(kubectl get ... | jq ...)`,
//! `for i in $(kubectl get ...)`, `kubectl get ... | while read i`, and
//! the variables computed from them. Nothing in the request says what was
//! read, so a write in between goes unseen (rule `read-then-patch`).
//!
//! The scan is one pass over the words before the patch command: each
//! assignment, `for` variable or `read` name whose value comes from a
//! `kubectl get` (or from a variable that does) is remembered with the
//! read it comes from, at most [`MOST_NAMES`] of them.

use std::collections::{HashMap, HashSet};

use super::read::Hint;
use super::rules::{message, Rule};
use super::shell::{is_kubectl, Token};

/// The most variables remembered (a budget: scripts are user input).
const MOST_NAMES: usize = 256;
/// The most findings made.
const MOST_FINDINGS: usize = 8;

/// The findings for the patch's expansions that come from a read of the
/// patched object among `before` (the tokens before the patch command):
/// a part of it read (an index, a list) is a race; the whole object read
/// and sent back carries its resourceVersion, the optimistic lock. A read
/// of another kind of object (a ConfigMap's settings) is no race on this
/// one. `target`: the patch command's resource words (`settings x`).
pub(super) fn read_before(
    before: &[Token],
    patch_expansions: &[String],
    target: &[String],
) -> Vec<Hint> {
    let reads = Reads::scan(before);
    let mut hints: Vec<Hint> = Vec::new();
    for expansion in patch_expansions {
        if hints.len() == MOST_FINDINGS {
            break;
        }
        let Some(read) = reads.source(expansion) else {
            continue;
        };
        if !same_kind(&read, target) {
            continue;
        }
        let whole = whole_object(&read) && reads.direct(expansion);
        let (expansion, read) = (shown(expansion), shown(&read));
        let hint = match whole {
            true => Hint {
                rule: Rule::RvPinnedBody,
                message: message!(RvPinnedBody "read", expansion, read),
            },
            false => Hint {
                rule: Rule::ReadThenPatch,
                message: message!(ReadThenPatch "value", expansion, read),
            },
        };
        if !hints.iter().any(|h| h.message == hint.message) {
            hints.push(hint);
        }
    }
    hints
}

/// The findings for a patch kubectl reads from standard input, fed by the
/// `pipeline` before it: a `kubectl get` of the same object there is read
/// just before the patch (the whole object, the lock; a part, a race).
pub(super) fn piped_before(pipeline: &str, target: &[String]) -> Vec<Hint> {
    let read = format!("$({pipeline})");
    if substitution_read(&read).is_none() || !same_kind(&read, target) {
        return Vec::new();
    }
    let read = shown(pipeline);
    let hint = match whole_object(&format!("$({pipeline})")) {
        true => Hint {
            rule: Rule::RvPinnedBody,
            message: message!(RvPinnedBody "stdin", read),
        },
        false => Hint {
            rule: Rule::ReadThenPatch,
            message: message!(ReadThenPatch "stdin", read),
        },
    };
    vec![hint]
}

/// False when the read names a kind of resource other than the patch's
/// (`get configmap` before `patch settings`); true when they match or
/// either is not known.
fn same_kind(read: &str, target: &[String]) -> bool {
    let Some(patched) = target.first().and_then(|t| super::kinds::resource(t)) else {
        return true;
    };
    let words: Vec<&str> = read
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '|' | '`' | '"' | '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let Some(get) = words.iter().position(|w| *w == "get") else {
        return true;
    };
    let Some(kind) = words[get + 1..].iter().find(|w| !w.starts_with('-')) else {
        return true;
    };
    let read = super::kinds::resource(kind);
    match (read.as_ref().and_then(|r| r.kind.as_ref()), &patched.kind) {
        (Some(read), Some(patched)) => read == patched,
        // A kind not known to the tables: by the name typed.
        _ => bare(kind) == bare(&patched.typed),
    }
}

/// A resource word without its group, case or plural `s`: `Settings.longhorn.io` -> `setting`.
fn bare(word: &str) -> String {
    let word = word
        .split(['/', '.'])
        .next()
        .unwrap_or(word)
        .to_ascii_lowercase();
    word.strip_suffix('s').map(str::to_owned).unwrap_or(word)
}

/// True when the read returns the whole object (`-o json` or `-o yaml`,
/// through no `jq` or `yq`, or one whose last stage updates it in place:
/// `|=`, `=`, `del(`), metadata.resourceVersion included; a selection
/// (`.spec.plugins`) or a new object (`{data: ...}`) is a part of it.
fn whole_object(read: &str) -> bool {
    let words: Vec<&str> = read.split_whitespace().collect();
    let output = words.iter().enumerate().find_map(|(i, w)| {
        let value = match *w {
            "-o" | "--output" => words.get(i + 1).copied(),
            w => w
                .strip_prefix("--output=")
                .or_else(|| w.strip_prefix("-o="))
                .or_else(|| w.strip_prefix("-o")),
        }?;
        Some(value.trim_matches(|c| c == '\'' || c == '"' || c == ')'))
    });
    if !matches!(output, Some("json" | "yaml")) {
        return false;
    }
    let program = ["jq ", "yq "]
        .iter()
        .filter_map(|t| read.split_once(t))
        .map(|(_, p)| p)
        .next();
    let Some(program) = program else {
        return true;
    };
    // The last stage: after the last `|` that is no `|=`.
    let bytes = program.as_bytes();
    let cut = (0..bytes.len())
        .rev()
        .find(|&i| bytes[i] == b'|' && bytes.get(i + 1) != Some(&b'='))
        .map_or(0, |i| i + 1);
    let stage = program[cut..].trim_start_matches([' ', '\'', '"', '\n']);
    let assigns = stage.contains("|=")
        || stage.contains("+=")
        || stage
            .replace("==", "")
            .replace("!=", "")
            .replace(">=", "")
            .replace("<=", "")
            .contains('=');
    assigns || stage.starts_with("del(") || stage.starts_with(". ") || stage == "."
}

/// The variables read from the cluster, each with the read it comes from.
#[derive(Default)]
struct Reads {
    names: HashMap<String, String>,
    /// The names assigned a `$(kubectl get ...)` itself (at most
    /// [`MOST_NAMES`]).
    direct: HashSet<String>,
}

impl Reads {
    fn scan(tokens: &[Token]) -> Reads {
        let mut reads = Reads::default();
        // The words of the current command, and the read of the current
        // pipeline (`kubectl get ... | while read x`).
        let mut words: Vec<&Token> = Vec::new();
        let mut piped: Option<String> = None;
        for token in tokens {
            match token {
                Token::Op { op, .. } if op == "|" || op == "|&" => {
                    piped = piped.take().or_else(|| command_read(&words));
                    words.clear();
                }
                Token::Op { .. } => {
                    reads.command(&words, piped.as_deref());
                    piped = None;
                    words.clear();
                }
                Token::Word { .. } => words.push(token),
            }
        }
        reads.command(&words, piped.as_deref());
        reads
    }

    /// Remembers what one simple command assigns from a read: `NAME=...`
    /// words, `for NAME in ...`, `read NAME` fed by `piped`.
    fn command(&mut self, words: &[&Token], piped: Option<&str>) {
        let texts: Vec<&str> = words.iter().filter_map(|t| t.word()).collect();
        let start = texts
            .iter()
            .position(|w| {
                !matches!(
                    *w,
                    "while" | "until" | "do" | "then" | "export" | "local" | "readonly" | "declare"
                )
            })
            .unwrap_or(texts.len());
        match texts.get(start) {
            Some(&"for") => {
                if let Some(name) = texts.get(start + 1) {
                    let read = words[start + 2..].iter().find_map(|t| self.word_read(t));
                    self.remember(name, read);
                }
                return;
            }
            Some(&"read") => {
                for name in texts[start + 1..].iter().filter(|w| !w.starts_with('-')) {
                    self.remember(name, piped.map(str::to_owned));
                }
                return;
            }
            _ => {}
        }
        for token in &words[start..] {
            let Some(text) = token.word() else { continue };
            let Some((name, _)) = text.split_once('=') else {
                break;
            };
            if !is_name(name) {
                break;
            }
            let read = self.word_read(token);
            let Token::Word { expansions, .. } = token else {
                continue;
            };
            let whole = text.split_once('=').map(|(_, v)| v.trim_matches('"'));
            let direct = whole.is_some_and(|v| {
                expansions
                    .iter()
                    .any(|e| e == v && substitution_read(e).is_some())
            });
            if direct && self.direct.len() < MOST_NAMES {
                self.direct.insert(name.to_owned());
            }
            self.remember(name, read);
        }
    }

    fn remember(&mut self, name: &str, read: Option<String>) {
        match read {
            Some(read) if self.names.len() < MOST_NAMES || self.names.contains_key(name) => {
                self.names.insert(name.to_owned(), read);
            }
            // Reassigned from something else: no longer a read.
            _ => {
                self.names.remove(name);
            }
        }
    }

    /// The read a word's expansions come from, if any.
    fn word_read(&self, token: &Token) -> Option<String> {
        let Token::Word { expansions, .. } = token else {
            return None;
        };
        expansions.iter().find_map(|e| self.source(e))
    }

    /// True when the expansion is the read itself or a variable holding
    /// it as read (not a value computed from it).
    fn direct(&self, expansion: &str) -> bool {
        substitution_read(expansion).is_some()
            || mentioned(expansion).any(|m| self.direct.contains(m))
    }

    /// The read an expansion comes from: a `$(kubectl get ...)` itself, or
    /// a variable remembered (as `$NAME` or `${NAME...}` inside it).
    fn source(&self, expansion: &str) -> Option<String> {
        if let Some(read) = substitution_read(expansion) {
            return Some(read);
        }
        if self.names.is_empty() {
            return None;
        }
        mentioned(expansion).find_map(|name| self.names.get(name).cloned())
    }
}

/// The `kubectl get` a command substitution runs, as written; not a read
/// of the resourceVersion (sending that back is the optimistic lock).
fn substitution_read(expansion: &str) -> Option<String> {
    let inner = expansion
        .strip_prefix("$(")
        .or_else(|| expansion.strip_prefix('`'))?;
    let words: Vec<&str> = inner
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '|' | ';' | '`' | '"'))
        .filter(|w| !w.is_empty())
        .collect();
    let is_read = words.windows(2).any(|pair| {
        (is_kubectl(pair[0]) || pair[0].to_ascii_lowercase().contains("kubectl"))
            && words
                .iter()
                .skip_while(|w| **w != pair[0])
                .any(|w| *w == "get")
    });
    (is_read && !inner.contains("resourceVersion")).then(|| expansion.to_owned())
}

/// The words of a command that read (`kubectl get ...`), for a pipeline.
fn command_read(words: &[&Token]) -> Option<String> {
    let texts: Vec<&str> = words.iter().filter_map(|t| t.word()).collect();
    let at = texts.iter().position(|w| is_kubectl(w))?;
    let reads =
        texts[at..].contains(&"get") && !texts.iter().any(|w| w.contains("resourceVersion"));
    reads.then(|| texts[at..].join(" "))
}

/// The variable names `$NAME` and `${NAME...}` in a text.
fn mentioned(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices('$').filter_map(move |(at, _)| {
        let rest = &text[at + 1..];
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        is_name(name).then_some(name)
    })
}

fn is_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A text as a message shows it: cut after 80 characters.
fn shown(text: &str) -> String {
    let count = text.chars().count();
    if count <= 80 {
        return text.to_owned();
    }
    let cut: String = text.chars().take(80).collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::shell;

    fn findings(script: &str, expansions: &[&str]) -> Vec<String> {
        let tokens = shell::split(script).unwrap();
        let expansions: Vec<String> = expansions.iter().map(|e| (*e).to_owned()).collect();
        read_before(&tokens, &expansions, &[])
            .into_iter()
            .map(|h| h.message)
            .collect()
    }

    #[test]
    fn a_value_read_just_before_is_a_finding() {
        let script = "LAST=$(kubectl get node n -o json | jq '.spec.taints | length - 1')\n";
        let found = findings(script, &["$LAST"]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("$LAST in the patch comes from $(kubectl get node n"));
    }

    #[test]
    fn reads_flow_through_variables_loops_and_pipes() {
        let chain = "a=$(oc get consoles.operator.openshift.io cluster -o json | jq -c '.spec.plugins')\nb=$(jq --argjson a \"${a}\" -n '$a + [\"x\"]')\nc=$(jq --argjson b $b -n '{spec: {plugins: $b}}')\n";
        assert_eq!(findings(chain, &["$c"]).len(), 1);
        let looped = "for i in $(kubectl get node n -o json | jq '.spec.taints | keys[]'); do\n";
        assert_eq!(findings(looped, &["$i"]).len(), 1);
        let piped = "kubectl get pods -o name | while read pod; do\n";
        assert_eq!(findings(piped, &["$pod"]).len(), 1);
        let inline = "";
        assert_eq!(
            findings(inline, &["$(kubectl get cm x -o jsonpath='{.data.a}')"]).len(),
            1
        );
    }

    #[test]
    fn values_not_read_from_the_cluster_are_not() {
        // A name used for the target only is not in the body's expansions;
        // a value made locally, a resourceVersion read (the lock itself),
        // and a variable reassigned from elsewhere are not reads.
        assert!(findings(
            "CERT=$(kubectl create cm x --dry-run=client -o json)\n",
            &["$CERT"]
        )
        .is_empty());
        assert!(findings(
            "RV=$(kubectl get vmi v -o jsonpath='{.metadata.resourceVersion}')\n",
            &["$RV"]
        )
        .is_empty());
        assert!(findings("X=$(kubectl get cm a -o json)\nX=fixed\n", &["$X"]).is_empty());
        assert!(findings("N=$(date +%s)\n", &["$N"]).is_empty());
    }

    #[test]
    fn the_whole_object_read_is_the_lock_and_another_object_is_no_race() {
        let tokens = shell::split("").unwrap();
        let whole = "$(kubectl get validatingwebhookconfiguration v -o json | jq '.webhooks[0].rules |= map(.)')";
        let target = ["validatingwebhookconfiguration".to_owned(), "v".to_owned()];
        let hints = read_before(&tokens, &[whole.to_owned()], &target);
        assert_eq!(hints.len(), 1);
        assert_eq!(hints[0].rule, Rule::RvPinnedBody);
        assert!(
            hints[0]
                .message
                .contains("metadata.resourceVersion included"),
            "{}",
            hints[0].message
        );
        // A part of it: a race.
        let part =
            "$(kubectl get validatingwebhookconfiguration v -o json | jq '.webhooks[0].rules')";
        let hints = read_before(&tokens, &[part.to_owned()], &target);
        assert_eq!(hints[0].rule, Rule::ReadThenPatch);
        // -o jsonpath is a part; a yq selection too; an in-place update
        // keeps the whole object.
        assert!(!whole_object(
            "$(kubectl get cm a -o jsonpath='{.data.links}' | jq -c '{data: {links: .}}')"
        ));
        assert!(!whole_object("$(kubectl get deploy d -o yaml | yq eval '(.a) = \"b\" | .spec.template.spec.volumes' -o json -)"));
        assert!(whole_object(
            "$(kubectl get deploy d -o json | jq 'del(.status)')"
        ));
        assert!(whole_object("$(kubectl get deploy d -ojson)"));
        // A ConfigMap's value written into a Setting: another object.
        let tokens = shell::split(
            "kubectl get configmap settings -o jsonpath='{.data.a}' | while read key val; do\n",
        )
        .unwrap();
        let target = ["settings".to_owned(), "$key".to_owned()];
        assert!(read_before(&tokens, &["${val}".to_owned()], &target).is_empty());
    }
}
