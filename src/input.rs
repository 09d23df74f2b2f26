//! Reading objects that users type or paste: JSON or YAML, detected,
//! within a size and depth budget, with errors that say where. YAML is
//! read as kubectl reads it (YAML 1.1: sigs.k8s.io/yaml over yaml.v2, see
//! [`yaml_to_json`]), so `on: yes` is `{"true": true}` and `010` is 8.
//!
//! ```
//! use patchlab::input::{parse, Budget, Format};
//!
//! let (value, format) = parse("metadata:\n  labels:\n    app: web\n", &Budget::default()).unwrap();
//! assert_eq!(format, Format::Yaml);
//! assert_eq!(value["metadata"]["labels"]["app"], "web");
//!
//! let err = parse("{\"a\": 1,\n \"b\": }", &Budget::default()).unwrap_err();
//! assert_eq!((err.line, err.column), (Some(2), Some(7)));
//! ```

mod yaml;

pub use yaml::{is_literal as is_yaml_literal, is_number as is_yaml_number};

use std::fmt;
use std::rc::Rc;

use serde_json::Value;

/// The text format of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// JSON (RFC 8259).
    Json,
    /// YAML, read as kubectl reads it (YAML 1.1; JSON is valid YAML, but
    /// is read as JSON).
    Yaml,
}

impl Format {
    /// Guesses the format: JSON when the first non-blank character opens
    /// an object or array, YAML otherwise.
    pub fn detect(text: &str) -> Format {
        match text.trim_start().as_bytes().first() {
            Some(b'{' | b'[') => Format::Json,
            _ => Format::Yaml,
        }
    }

    /// `json` or `yaml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
        }
    }
}

/// Limits on what one input may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of objects and arrays.
    pub max_depth: usize,
}

impl Budget {
    /// A budget for command-line tools processing files
    /// ([`crate::limits::CLI_BYTES`]).
    pub fn cli() -> Budget {
        Budget {
            max_bytes: crate::limits::CLI_BYTES,
            max_depth: crate::limits::DEPTH,
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_bytes: crate::limits::OBJECT_BYTES,
            max_depth: crate::limits::DEPTH,
        }
    }
}

/// Why an input could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputError {
    /// What is wrong.
    pub message: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
}

impl InputError {
    fn plain(message: impl Into<String>) -> InputError {
        InputError {
            message: message.into(),
            line: None,
            column: None,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                write!(f, "line {line}, column {column}: {}", self.message)
            }
            (Some(line), None) => write!(f, "line {line}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// Decodes bytes as UTF-8, naming the first bad byte.
///
/// # Errors
///
/// [`InputError`] with the line and column of the first invalid byte.
pub fn utf8(bytes: &[u8]) -> Result<&str, InputError> {
    std::str::from_utf8(bytes).map_err(|err| {
        let valid = &bytes[..err.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        InputError {
            message: format!(
                "not valid UTF-8 (byte {} of the input)",
                err.valid_up_to() + 1
            ),
            line: Some(line),
            column: Some(column),
        }
    })
}

/// Parses JSON or YAML (detected) within `budget`.
///
/// # Errors
///
/// [`InputError`] for text over the size budget, nesting over the depth
/// budget, or a syntax error (with line and column).
pub fn parse(text: &str, budget: &Budget) -> Result<(Value, Format), InputError> {
    let format = Format::detect(text);
    parse_as(text, format, budget).map(|value| (value, format))
}

/// A parse done in pieces, so a page can stay responsive while a big YAML
/// text is read: each [`ParseJob::step`] reads about as many characters as
/// asked. JSON (fast) and small texts are parsed in one step.
pub struct ParseJob {
    format: Format,
    state: JobState,
}

enum JobState {
    Start(Rc<str>, Budget),
    Yaml(Box<yaml::Job>),
    Done,
}

impl ParseJob {
    /// A job for `text` (its format detected) within `budget`.
    pub fn new(text: Rc<str>, budget: Budget) -> ParseJob {
        ParseJob {
            format: Format::detect(&text),
            state: JobState::Start(text, budget),
        }
    }

    /// Does about `chars` characters of work; the outcome once finished
    /// (then `None` if called again).
    ///
    /// # Errors
    ///
    /// As [`parse`].
    pub fn step(&mut self, chars: usize) -> Option<Result<(Value, Format), InputError>> {
        let format = self.format;
        match std::mem::replace(&mut self.state, JobState::Done) {
            JobState::Done => None,
            JobState::Start(text, budget) => {
                if format == Format::Json || text.len() <= chars {
                    return Some(parse_as(&text, format, &budget).map(|v| (v, format)));
                }
                if let Err(err) = precheck(&text, &budget) {
                    return Some(Err(err));
                }
                let job = yaml::Job::new(text, budget, yaml::Documents::One);
                self.state = JobState::Yaml(Box::new(job));
                self.step(chars)
            }
            JobState::Yaml(mut job) => match job.step(chars) {
                Some(outcome) => Some(
                    outcome
                        .map(|read| (read.value, format))
                        .map_err(|e| e.input_error()),
                ),
                None => {
                    self.state = JobState::Yaml(job);
                    None
                }
            },
        }
    }
}

impl fmt::Debug for ParseJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParseJob")
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

fn precheck(text: &str, budget: &Budget) -> Result<(), InputError> {
    if text.len() > budget.max_bytes {
        return Err(InputError::plain(format!(
            "input is {} bytes, more than the limit of {} bytes",
            text.len(),
            budget.max_bytes
        )));
    }
    if text.trim().is_empty() {
        return Err(InputError::plain("input is empty"));
    }
    if text.starts_with('\u{feff}') {
        return Err(InputError {
            message: crate::json::BOM_MESSAGE.to_owned(),
            line: Some(1),
            column: Some(1),
        });
    }
    Ok(())
}

/// Parses `text` as the given format within `budget`.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_as(text: &str, format: Format, budget: &Budget) -> Result<Value, InputError> {
    precheck(text, budget)?;
    match format {
        Format::Json => parse_json(text, budget),
        Format::Yaml => parse_yaml(text, budget),
    }
}

fn parse_json(text: &str, budget: &Budget) -> Result<Value, InputError> {
    let value: Value = serde_json::from_str(&crate::json::go_strings(text)).map_err(|err| {
        let message = err.to_string();
        let mut message = match message.rfind(" at line ") {
            Some(at) => message[..at].to_owned(),
            None => message,
        };
        if message == "recursion limit exceeded" {
            // serde_json's own guard, which stops at 128 levels.
            message = format!(
                "nesting is deeper than the limit of {} levels",
                budget.max_depth.min(crate::limits::DEPTH)
            );
        }
        InputError {
            message,
            line: Some(err.line()),
            column: Some(err.column()),
        }
    })?;
    check_depth(&value, budget.max_depth)?;
    Ok(value)
}

fn parse_yaml(text: &str, budget: &Budget) -> Result<Value, InputError> {
    yaml::parse(text, budget)
}

/// A plain YAML scalar that kubectl's YAML 1.1 reads as a boolean or a
/// number: where, as written, and the JSON value sent for it.
#[derive(Clone, Debug, PartialEq)]
pub struct YamlScalar {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// As written (`yes`, `010`, `1.10`).
    pub written: String,
    /// The JSON text sent for it (`true`, `8`, `1.1`); for a key, the
    /// key's string (`true`, `8`).
    pub sent: String,
    /// True for a mapping key.
    pub key: bool,
}

/// A YAML text as kubectl reads it: its value, and the plain scalars read
/// as booleans or numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct YamlRead {
    /// The value (JSON; [`crate::gojson::to_string`] writes the bytes
    /// kubectl sends).
    pub value: Value,
    /// The plain scalars YAML 1.1 reads as booleans or numbers, in order.
    pub scalars: Vec<YamlScalar>,
}

/// Why kubectl's YAML reader refuses a text: where, and the error as Go
/// prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// yaml.v2's words for the problem, with patchlab's line and column.
    pub error: InputError,
    /// The error's text in Go (`yaml: line 2: found unknown escape
    /// character`), as kubectl prints it after `unable to parse ...: `;
    /// for patchlab's own budgets, patchlab's words.
    pub go: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for YamlError {}

impl From<yaml::Error> for YamlError {
    fn from(e: yaml::Error) -> YamlError {
        YamlError {
            error: e.input_error(),
            go: e.go_text(),
        }
    }
}

fn yaml_read(read: yaml::Read) -> YamlRead {
    let scalars = read
        .notes
        .into_iter()
        .map(|note| YamlScalar {
            line: note.mark.line + 1,
            column: note.mark.column + 1,
            sent: note.sent(),
            written: note.written,
            key: note.key,
        })
        .collect();
    YamlRead {
        value: read.value,
        scalars,
    }
}

/// sigs.k8s.io/yaml's `YAMLToJSON` (what kubectl's `-p` and
/// `--patch-file` go through when the text does not start with `{`): the
/// first YAML document (the rest unread; none is `null`), as YAML 1.1.
///
/// # Errors
///
/// [`YamlError`] where yaml.v2 or the conversion refuses the text, or
/// the text is over the size budget.
///
/// ```
/// use patchlab::input::{yaml_to_json, Budget};
/// use patchlab::gojson;
///
/// let read = yaml_to_json("on: yes\nmode: 0755\n<<: {b: 1_000}\n", &Budget::default()).unwrap();
/// assert_eq!(gojson::to_string(&read.value), r#"{"b":1000,"mode":493,"true":true}"#);
/// let err = yaml_to_json("a: \"\\/\"", &Budget::default()).unwrap_err();
/// assert_eq!(err.go, "yaml: found unknown escape character");
/// assert_eq!((err.error.line, err.error.column), (Some(1), Some(5)));
/// ```
pub fn yaml_to_json(text: &str, budget: &Budget) -> Result<YamlRead, YamlError> {
    if text.len() > budget.max_bytes {
        let error = InputError::plain(format!(
            "input is {} bytes, more than the limit of {} bytes",
            text.len(),
            budget.max_bytes
        ));
        let go = error.message.clone();
        return Err(YamlError { error, go });
    }
    yaml::read(text, budget, yaml::Documents::First)
        .map(yaml_read)
        .map_err(YamlError::from)
}

/// Reads one YAML document (an object or a patch file) as kubectl reads
/// it, with the plain scalars YAML 1.1 reads as booleans or numbers.
///
/// # Errors
///
/// As [`parse`]; a second document (`---`) is an error too.
pub fn read_yaml(text: &str, budget: &Budget) -> Result<YamlRead, YamlError> {
    if let Err(error) = precheck(text, budget) {
        let go = error.message.clone();
        return Err(YamlError { error, go });
    }
    yaml::read(text, budget, yaml::Documents::One)
        .map(yaml_read)
        .map_err(YamlError::from)
}

/// Fails when `value` nests deeper than `max` (iteratively: no recursion).
fn check_depth(value: &Value, max: usize) -> Result<(), InputError> {
    let mut stack = vec![(value, 1usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth > max {
            return Err(InputError::plain(format!(
                "nesting is deeper than the limit of {max} levels"
            )));
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    Ok(())
}

/// Writes `value` as pretty JSON (two-space indent, document key order).
pub fn to_json_pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Writes `value` as block-style YAML (keys in order, strings quoted only
/// when they would otherwise read back as something else).
pub fn to_yaml(value: &Value) -> String {
    yaml::emit(value)
}

/// Writes `value` in `format`.
pub fn write(value: &Value, format: Format) -> String {
    match format {
        Format::Json => to_json_pretty(value),
        Format::Yaml => to_yaml(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detects_and_parses_both_formats() {
        let budget = Budget::default();
        let (json_value, format) = parse(r#" {"a": [1, null, "x"]}"#, &budget).unwrap();
        assert_eq!(format, Format::Json);
        assert_eq!(json_value, json!({"a": [1, null, "x"]}));
        let yaml = "a:\n  - 1\n  - null\n  - x\n";
        let (yaml_value, format) = parse(yaml, &budget).unwrap();
        assert_eq!(format, Format::Yaml);
        assert_eq!(yaml_value, json_value);
    }

    #[test]
    fn yaml_is_1_1_as_kubectl_reads_it_and_keeps_awkward_keys() {
        let yaml = "metadata:\n  labels:\n    kubevirt.io/nodeName: node01\n    \"a~b\": \"yes\"\n    on: no\n    empty: {}\n    nothing: ~\n    ünï: \"✓\"\n";
        let (value, _) = parse(yaml, &Budget::default()).unwrap();
        let labels = &value["metadata"]["labels"];
        assert_eq!(labels["kubevirt.io/nodeName"], "node01");
        assert_eq!(labels["a~b"], "yes");
        // YAML 1.1: `on` and `no` are booleans; a key is sent as its text.
        assert_eq!(labels["true"], false);
        assert_eq!(labels["empty"], json!({}));
        assert_eq!(labels["nothing"], Value::Null);
        let err = parse("x: .nan\n", &Budget::default()).unwrap_err();
        assert_eq!(err.message, "json: unsupported value: NaN");
        assert_eq!(labels["ünï"], "✓");
    }

    #[test]
    fn yaml_round_trip() {
        let value = json!({
            "metadata": {"labels": {"a/b": "1", "c~d": "", "n": null, "e": {}, "l": []}},
            "spec": {"replicas": 3, "ratio": 0.5, "on": true, "text": "multi\nline", "num": "123"}
        });
        let yaml = to_yaml(&value);
        let back = parse_as(&yaml, Format::Yaml, &Budget::default()).unwrap();
        assert_eq!(back, value, "{yaml}");
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse("{\n  \"a\": 1,\n  \"b\" 2\n}", &Budget::default()).unwrap_err();
        assert_eq!(err.line, Some(3));
        assert_eq!(err.column, Some(7));
        assert!(
            err.to_string()
                .starts_with("line 3, column 7: expected `:`"),
            "{err}"
        );

        let err = parse("a: 1\nb: [1, 2\nc: 3\n", &Budget::default()).unwrap_err();
        assert!(err.line.is_some(), "{err:?}");
        assert!(!err.message.contains('\n'), "{err:?}");
    }

    #[test]
    fn budgets_are_enforced() {
        let small = Budget {
            max_bytes: 10,
            max_depth: 3,
        };
        let err = parse(r#"{"aaaaaaaaaaaaaaa": 1}"#, &small).unwrap_err();
        assert!(err.message.contains("more than the limit of 10 bytes"));
        let err = parse("[[[[1]]]]", &small).unwrap_err();
        assert!(err.message.contains("deeper than the limit of 3"), "{err}");
        let err = parse(
            "a:\n b:\n  c:\n   d: 1\n",
            &Budget {
                max_bytes: 100,
                max_depth: 3,
            },
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("depth") || err.to_string().contains("deeper"),
            "{err}"
        );
    }

    #[test]
    fn a_parse_in_pieces_equals_a_parse_at_once() {
        let budget = Budget::default();
        let big: String = (0..2000)
            .map(|i| format!("k{i}: [a, {{b: {i}}}]\n"))
            .collect();
        let texts = [
            "a: 1\nb: [x, y]\nc: {d: e}\n",
            "a: &x {b: 1}\nc: *x\n",
            "a: 1\na: 2\n",
            "a: [1, 2\n",
            "a: 1\n---\nb: 2\n",
            "{\"json\": [1, 2, {\"x\": null}]}",
            "{\"json\": [1, 2,}",
            "   \n",
            big.as_str(),
        ];
        for text in texts {
            let at_once = parse(text, &budget);
            for chars in [1, 7, 100, 10_000, usize::MAX] {
                let mut job = ParseJob::new(Rc::from(text), budget);
                let mut steps = 0;
                let outcome = loop {
                    steps += 1;
                    if let Some(outcome) = job.step(chars) {
                        break outcome;
                    }
                };
                assert_eq!(outcome, at_once, "{text:?} in pieces of {chars}");
                assert!(job.step(chars).is_none(), "finished jobs stay finished");
                if text.len() > 10_000 && chars == 100 {
                    assert!(steps > 100, "{steps} steps");
                }
            }
        }
    }

    #[test]
    fn hostile_nesting_is_an_error_not_a_crash() {
        let budget = Budget::default();
        let limit = "nesting is deeper than the limit of 128 levels";
        let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let err = parse(&deep_json, &budget).unwrap_err();
        assert_eq!((err.message.as_str(), err.line), (limit, Some(1)));
        let deep_yaml = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        let err = parse_as(&deep_yaml, Format::Yaml, &budget).unwrap_err();
        assert!(err.message.contains(limit), "{err}");
        let deep_block: String = (0..1_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect();
        let err = parse(&deep_block, &budget).unwrap_err();
        assert!(err.message.contains(limit), "{err}");
    }

    #[test]
    fn yaml_1_1_scalars() {
        let yaml = "a: 0x1F\nb: 0o17\nc: -12\nd: 1.5e3\ne: .5\nf: '12'\ng: !!str 12\nh: 1_000\ni: +7\nj: 12:30\nk: TRUE\nl: yes\nm: 010\nr: 0b11\no: Off\np: !custom 1\nq: 2001-12-14\n";
        let (v, _) = parse(yaml, &Budget::default()).unwrap();
        assert_eq!(
            v,
            json!({"a": 31, "b": 15, "c": -12, "d": 1500.0, "e": 0.5, "f": "12", "g": "12",
                   "h": 1000, "i": 7, "j": "12:30", "k": true, "l": true, "m": 8, "r": 3,
                   "o": false, "p": "1", "q": "2001-12-14"})
        );
        for (bad, message) in [
            ("x: .inf\n", "json: unsupported value: +Inf"),
            ("x: -.Inf\n", "json: unsupported value: -Inf"),
            ("x: .NaN\n", "json: unsupported value: NaN"),
            ("x: !!int abc\n", "cannot decode !!str `abc` as a !!int"),
            ("x: \"\\/\"\n", "found unknown escape character"),
            (
                "x: \"\\uD83D\\uDE00\"\n",
                "found invalid Unicode character escape code",
            ),
            ("x: \"\u{7f}\"\n", "control characters are not allowed"),
        ] {
            let err = parse(bad, &Budget::default()).unwrap_err();
            assert_eq!(err.message, message, "{bad}");
            assert!(err.line.is_some(), "{bad}: {err}");
        }
    }

    #[test]
    fn a_scalar_is_a_number_to_the_colouring_exactly_when_the_reader_reads_one() {
        let words = [
            "0",
            "-12",
            "+7",
            "007",
            "1.5e3",
            "1E+2",
            "-0.5e-3",
            ".5",
            "-.5",
            "+.5",
            "5.",
            "1_000",
            "0x1F",
            "0xg",
            "0x",
            "0o17",
            "0o8",
            "-0o17",
            "0xFFFFFFFFFFFFFFFFFF",
            "12:30",
            ".inf",
            "-.Inf",
            "+.INF",
            ".nan",
            "-.nan",
            "inf",
            "NaN",
            "infinity",
            "1e",
            "e5",
            ".",
            "-",
            "1.2.3",
            "1e5.5",
            "abc",
            "1e400",
            "18446744073709551616",
            "99999999999999999999999",
            "true",
        ];
        let huge = "9".repeat(400);
        for word in words.iter().copied().chain([huge.as_str()]) {
            let read = parse(&format!("x: {word}\n"), &Budget::default());
            let number = match &read {
                Ok((v, _)) => v["x"].is_number(),
                // Refused as a number JSON cannot hold.
                Err(e) => e.message.contains("unsupported value"),
            };
            assert_eq!(is_yaml_number(word), number, "{word}: {read:?}");
        }
    }

    #[test]
    fn yaml_documents_keys_and_aliases() {
        let budget = Budget::default();
        // A repeated key keeps its last value, as kubectl's reader does.
        let (v, _) = parse("a: 1\na: 2\n", &budget).unwrap();
        assert_eq!(v, json!({"a": 2}));
        let err = parse("a: 1\n---\nb: 2\n", &budget).unwrap_err();
        assert!(err.message.contains("one YAML document"), "{err}");
        let err = parse("? [a]\n: 1\n", &budget).unwrap_err();
        assert_eq!(err.message, "invalid map key: []interface {}{\"a\"}");
        let (v, _) = parse("base: &b {x: 1, z: 2}\nm:\n  <<: *b\n  x: 3\n", &budget).unwrap();
        assert_eq!(v["m"], json!({"x": 3, "z": 2}));
        // `y` and `n` are booleans too, as keys.
        let (v, _) = parse("y: 1\nn: 2\n", &budget).unwrap();
        assert_eq!(v, json!({"true": 1, "false": 2}));
        let (v, _) = parse("base: &b {x: 1}\ncopy: *b\n", &budget).unwrap();
        assert_eq!(v, json!({"base": {"x": 1}, "copy": {"x": 1}}));
        // The "billion laughs": each level doubles; the node budget stops it.
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..30 {
            bomb.push_str(&format!(
                "a{i}: &a{i} [*a{}, *a{}, *a{}, *a{}, *a{}, *a{}, *a{}, *a{}, *a{}, *a{}]\n",
                i - 1,
                i - 1,
                i - 1,
                i - 1,
                i - 1,
                i - 1,
                i - 1,
                i - 1,
                i - 1,
                i - 1
            ));
        }
        let err = parse(&bomb, &budget).unwrap_err();
        assert_eq!(err.message, "document contains excessive aliasing");
        assert_eq!(
            parse("# only a comment\n", &budget).unwrap_err().message,
            "input is empty"
        );
    }

    #[test]
    fn yaml_emitter_quotes_only_what_needs_it() {
        let value = json!({
            "plain": "node01", "slash/key": "a/b", "looks-bool": "true", "looks-num": "012",
            "looks-null": "~", "colon": "a: b", "hash": "a #b", "dash": "-x", "empty": "",
            "multi": "line1\nline2\n", "multi-no-end": "a\n b", "tab": "a\tb", "n": null,
            "l": [1, {"k": "v", "k2": [true]}, []], "m": {}, "dots": "...", "dashes": "--- x"
        });
        let yaml = to_yaml(&value);
        assert!(yaml.contains("plain: node01\n"), "{yaml}");
        assert!(yaml.contains("slash/key: a/b\n"), "{yaml}");
        assert!(yaml.contains("looks-bool: \"true\"\n"), "{yaml}");
        assert!(yaml.contains("multi: |\n  line1\n  line2\n"), "{yaml}");
        assert!(yaml.contains("- k: v\n    k2:\n      - true\n"), "{yaml}");
        assert_eq!(
            parse_as(&yaml, Format::Yaml, &Budget::default()).unwrap(),
            value,
            "{yaml}"
        );
    }

    #[test]
    fn fuzz_regression_document_markers_are_quoted() {
        let (value, _) = parse(" ...", &Budget::default()).unwrap();
        assert_eq!(value, json!("..."));
        let yaml = to_yaml(&value);
        assert_eq!(
            parse_as(&yaml, Format::Yaml, &Budget::default()).unwrap(),
            value,
            "{yaml}"
        );
    }

    #[test]
    fn fuzz_regression_long_keys_are_explicit() {
        let key = "\u{e}".repeat(1100);
        for value in [
            json!({ key.clone(): 1 }),
            json!([{ key.clone(): {"a": [1]}, "b": 2 }]),
        ] {
            let yaml = to_yaml(&value);
            assert_eq!(
                parse_as(&yaml, Format::Yaml, &Budget::default()).unwrap(),
                value
            );
        }
    }

    #[test]
    fn fuzz_regression_top_level_literal_blocks_are_indented() {
        for value in [
            json!("ap\n2\n..\n---\nx"),
            json!("---\n"),
            json!(["...\nb\n"]),
        ] {
            let yaml = to_yaml(&value);
            assert_eq!(
                parse_as(&yaml, Format::Yaml, &Budget::default()).unwrap(),
                value,
                "{yaml}"
            );
        }
    }

    #[test]
    fn fuzz_regression_unicode_blanks_are_quoted() {
        for value in [
            json!("\u{a0}"),
            json!({"\u{2003}k": "v\u{a0}"}),
            json!(["x\u{3000}"]),
        ] {
            let yaml = to_yaml(&value);
            assert_eq!(
                parse_as(&yaml, Format::Yaml, &Budget::default()).unwrap(),
                value,
                "{yaml}"
            );
        }
    }

    #[test]
    fn empty_and_non_utf8_inputs() {
        assert_eq!(
            parse("  \n", &Budget::default()).unwrap_err().message,
            "input is empty"
        );
        let err = utf8(b"ok\nab\xffcd").unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(3)));
        assert!(err.message.contains("not valid UTF-8"));
    }
}
