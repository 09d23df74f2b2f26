//! Near misses: Go's `%v` of a slice of ops pasted for JSON (found in the
//! text before it is read), and plain YAML scalars kubectl's YAML 1.1
//! reads as something their writer may not mean (found by the reader):
//! numbers whose digits the JSON sent drops (`1.10` -> `1.1`), words that
//! are booleans (`yes`, `on`).

use serde_json::Value;

use crate::input::YamlScalar;
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

/// What kubectl's YAML 1.1 made of a plain scalar that its writer may
/// not have meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surprise {
    /// A number whose digits the JSON sent does not keep (`1.10` is sent
    /// as `1.1`, `0755` as `493`, `1_000` as `1000`).
    Number,
    /// A YAML 1.1 word read as a boolean (`yes`, `on`, `n`, `Off`).
    Boolean,
}

/// Whether `scalar` (one the reader read as a boolean or a number) is a
/// surprise, and which.
pub fn yaml_surprise(scalar: &YamlScalar) -> Option<Surprise> {
    let written = scalar.written.as_str();
    if matches!(scalar.sent.as_str(), "true" | "false") {
        let json_word = matches!(
            written,
            "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
        );
        return (!json_word).then_some(Surprise::Boolean);
    }
    (written != scalar.sent && loses_digits(written, &scalar.sent)).then_some(Surprise::Number)
}

/// A number written in a way its JSON does not keep and a person would
/// not mean: decimals ending in zero after at least two fraction digits
/// (`1.10`, `2.50`: version numbers); integers with a leading zero
/// (`0755`, octal in YAML 1.1; `09`); YAML 1.1's `_` separators and
/// `0b`/`0o`/`0x` bases; integers too long for the float they become.
fn loses_digits(written: &str, sent: &str) -> bool {
    let digits = written.strip_prefix(['-', '+']).unwrap_or(written);
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some((whole, fraction)) = digits.split_once('.') {
        return all_digits(whole)
            && all_digits(fraction)
            && fraction.len() >= 2
            && fraction.ends_with('0');
    }
    let lower = digits.to_ascii_lowercase();
    let based = ["0b", "0o", "0x"].iter().any(|p| lower.starts_with(p));
    let leading_zero = digits.len() > 1 && digits.starts_with('0') && all_digits(digits);
    let too_long = all_digits(digits) && !leading_zero && sent.trim_start_matches('-') != digits;
    based || leading_zero || digits.contains('_') || too_long
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
    fn yaml_scalars_that_surprise() {
        let text = "metadata:\n  annotations:\n    version: 1.10  # the release\n    mode: 0755\n    ok: \"1.10\"\n    img: nginx:1.10\n    n: 1.0\n    list: [2.50, 3, 1_000, 0x1F, 09, 18446744073709551616, 1e3, +7]\n    enabled: yes\n    strict: true\n  script: |\n    v: 1.10\n  after: 4.20\n";
        let read = crate::input::read_yaml(text, &crate::input::Budget::default()).unwrap();
        let found: Vec<(usize, &str, &str, Surprise)> = read
            .scalars
            .iter()
            .filter_map(|s| {
                Some((
                    s.line,
                    s.written.as_str(),
                    s.sent.as_str(),
                    yaml_surprise(s)?,
                ))
            })
            .collect();
        assert_eq!(
            found,
            [
                (3, "1.10", "1.1", Surprise::Number),
                (4, "0755", "493", Surprise::Number),
                (7, "n", "false", Surprise::Boolean),
                (8, "2.50", "2.5", Surprise::Number),
                (8, "1_000", "1000", Surprise::Number),
                (8, "0x1F", "31", Surprise::Number),
                (8, "09", "9", Surprise::Number),
                (
                    8,
                    "18446744073709551616",
                    "18446744073709552000",
                    Surprise::Number
                ),
                (9, "yes", "true", Surprise::Boolean),
                (13, "4.20", "4.2", Surprise::Number),
            ]
        );
    }
}
