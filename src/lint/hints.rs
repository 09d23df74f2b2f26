//! Near misses found in the text before it is read: Go's `%v` of a slice
//! of ops pasted for JSON, and YAML numbers whose digits the JSON sent
//! drops (`1.10` -> `1.1`). Both scan the text once.

use serde_json::Value;

use crate::patch::{OpKind, Operation};

/// True when `text` looks like Go's `fmt` output of a `[]PatchOperation`
/// (`[{add /metadata/labels/app web}]`, `[map[op:add path:/a value:b]]`,
/// `[0xc000123 0xc000456]` aside) rather than JSON or YAML.
pub fn looks_go_formatted(text: &str) -> bool {
    let t = text.trim_start();
    let Some(rest) = t.strip_prefix('[') else {
        return false;
    };
    let rest = rest.trim_start();
    if rest.starts_with("map[") {
        return rest.contains("op:");
    }
    let Some(body) = rest.strip_prefix("&{").or_else(|| rest.strip_prefix('{')) else {
        return false;
    };
    let name = body.split([' ', '}']).next().unwrap_or("");
    OpKind::parse(name).is_some() && body[name.len()..].starts_with(' ')
}

/// The ops of a Go-formatted body of the simple form
/// `[{op path value} {op path value}]`, when every value is a single
/// word (strings print bare, numbers and booleans as themselves); `None`
/// otherwise (maps, slices and values with spaces cannot be read back).
pub fn read_go_formatted(text: &str) -> Option<Vec<Operation>> {
    let t = text.trim();
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let mut ops = Vec::new();
    for element in inner.split('}') {
        let element = element.trim();
        if element.is_empty() {
            continue;
        }
        let element = element
            .strip_prefix("&{")
            .or_else(|| element.strip_prefix('{'))?;
        if element.contains(['{', '[', '"']) {
            return None;
        }
        let mut words = element.split_whitespace();
        let kind = OpKind::parse(words.next()?)?;
        let path = words.next()?.to_owned();
        let value = words.next();
        if words.next().is_some() {
            return None;
        }
        let op = match (kind, value) {
            (OpKind::Remove, None) => Operation::remove(path),
            (OpKind::Add | OpKind::Replace | OpKind::Test, Some(word)) => {
                let value = match serde_json::from_str::<Value>(word) {
                    Ok(v @ (Value::Number(_) | Value::Bool(_))) => v,
                    _ if word == "<nil>" => Value::Null,
                    _ => Value::String(word.to_owned()),
                };
                match kind {
                    OpKind::Add => Operation::add(path, value),
                    OpKind::Replace => Operation::replace(path, value),
                    _ => Operation::test(path, value),
                }
            }
            _ => return None,
        };
        ops.push(op);
    }
    (!ops.is_empty()).then_some(ops)
}

/// A YAML number that the JSON sent writes differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlNumber {
    /// 1-based line.
    pub line: usize,
    /// As written (`1.10`).
    pub written: String,
    /// As sent (`1.1`).
    pub sent: String,
}

/// Plain (unquoted) YAML scalars that read as numbers whose text the JSON
/// sent does not keep: decimals ending in zero after at least two
/// fraction digits (`1.10`, `2.50`: version numbers), and integers with a
/// leading zero (`0755`: octal in YAML 1.1, which kubectl reads). Quoted
/// text, comments, keys and block scalars (`|`, `>`) are skipped.
pub fn yaml_numbers(text: &str) -> Vec<YamlNumber> {
    let mut out = Vec::new();
    // Lines more indented than this belong to a block scalar.
    let mut block: Option<usize> = None;
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        if let Some(level) = block {
            if line.trim().is_empty() || indent > level {
                continue;
            }
            block = None;
        }
        let tokens = plain_tokens(line);
        let last = tokens.iter().rev().find(|t| !t.is_empty());
        if last.is_some_and(|t| {
            t.starts_with('|') || t.starts_with('>') && t.len() <= 3 && !t.contains(':')
        }) {
            block = Some(indent);
        }
        for token in tokens {
            let token = token.trim_end_matches(':');
            if let Some(sent) = lossy_number(token) {
                out.push(YamlNumber {
                    line: n + 1,
                    written: token.to_owned(),
                    sent,
                });
            }
        }
    }
    out
}

/// The plain (unquoted) tokens of a YAML line, up to its comment (empty
/// ones where separators meet).
fn plain_tokens(line: &str) -> Vec<String> {
    let mut token = String::new();
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut prev = ' ';
    let mut tokens: Vec<String> = Vec::new();
    for c in line.chars() {
        if double {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                double = false;
            }
        } else if single {
            if c == '\'' {
                single = false;
            }
        } else if c == '#' && (prev == ' ' || prev == '\t') {
            break;
        } else if token.is_empty() && c == '"' {
            double = true;
        } else if token.is_empty() && c == '\'' {
            single = true;
        } else if matches!(c, ' ' | '\t' | ',' | '[' | ']' | '{' | '}') {
            tokens.push(std::mem::take(&mut token));
        } else {
            token.push(c);
        }
        prev = c;
    }
    tokens.push(token);
    tokens
}

/// The JSON a YAML number is sent as, when it differs from how it is
/// written in a way a person would not mean.
fn lossy_number(token: &str) -> Option<String> {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if let Some((whole, fraction)) = digits.split_once('.') {
        let numeric = !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && fraction.len() >= 2
            && fraction.bytes().all(|b| b.is_ascii_digit());
        if numeric && fraction.ends_with('0') {
            let value: f64 = token.parse().ok()?;
            return Some(crate::gojson::to_string(&Value::from(value)));
        }
        return None;
    }
    let octal =
        digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit());
    if octal {
        // YAML 1.1 (go-yaml v2, which kubectl's sigs.k8s.io/yaml wraps):
        // octal when every digit is 0-7.
        if digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            let n = i64::from_str_radix(&digits[1..], 8).ok()?;
            let sign = if token.starts_with('-') { "-" } else { "" };
            return Some(format!("{sign}{n}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_formatting_is_recognised_and_read_back_when_simple() {
        assert!(looks_go_formatted("[{add /metadata/labels/app web}]"));
        assert!(looks_go_formatted(
            "[&{test /spec/replicas 3} &{replace /spec/replicas 4}]"
        ));
        assert!(looks_go_formatted("[map[op:add path:/a value:b]]"));
        assert!(!looks_go_formatted(r#"[{"op":"add"}]"#));
        assert!(!looks_go_formatted("[{op: add, path: /a}]"));
        let ops = read_go_formatted(
            "[{test /spec/replicas 3} {replace /spec/replicas 4} {remove /metadata/labels/a}]",
        )
        .unwrap();
        assert_eq!(
            crate::patch::PatchSet::of(ops).payload().unwrap(),
            r#"[{"op":"test","path":"/spec/replicas","value":3},{"op":"replace","path":"/spec/replicas","value":4},{"op":"remove","path":"/metadata/labels/a"}]"#
        );
        assert!(read_go_formatted("[{add /metadata/labels map[a:b]}]").is_none());
    }

    #[test]
    fn yaml_numbers_that_lose_digits() {
        let text = "metadata:\n  annotations:\n    version: 1.10  # the release\n    mode: 0755\n    ok: \"1.10\"\n    img: nginx:1.10\n    n: 1.0\n    list: [2.50, 3]\n  script: |\n    v: 1.10\n  after: 4.20\n";
        let found: Vec<(usize, String, String)> = yaml_numbers(text)
            .into_iter()
            .map(|n| (n.line, n.written, n.sent))
            .collect();
        assert_eq!(
            found,
            [
                (3, "1.10".to_owned(), "1.1".to_owned()),
                (4, "0755".to_owned(), "493".to_owned()),
                (8, "2.50".to_owned(), "2.5".to_owned()),
                (11, "4.20".to_owned(), "4.2".to_owned()),
            ]
        );
    }
}
