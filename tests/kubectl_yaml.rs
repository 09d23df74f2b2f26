//! YAML as kubectl reads it, against the real kubectl's wire bytes
//! (issue #49). For a generated set of YAML texts covering every
//! construct where YAML 1.1 (kubectl: sigs.k8s.io/yaml over yaml.v2) and
//! YAML 1.2 differ, and every refusal of yaml.v2's reader, scanner,
//! parser, decoder and of the JSON conversion, the real kubectl runs
//! `kubectl patch cm x --type=merge -p TEXT` (and `--patch-file FILE`)
//! against the fake API server of `tests/support/apiserver.rs`, which
//! records the body kubectl sends. patchlab's answer
//! (`patchlab::lint::kubectl_sends`, what lint says kubectl sends; and
//! lint's whole `kubectl patch --patch-file` path) must be the same bytes,
//! or the same refusal: exit status 1 and kubectl's error line, byte for
//! byte. Objects go through `kubectl replace -f -` and `kubectl create -f
//! -` (kubectl's other YAML reader, the same conversion per document) and
//! must be the values `input::parse` reads.
//!
//! Named differences, documented in docs/fidelity.md ("YAML as kubectl
//! reads it"), are counted apart: a `!!binary` value whose bytes are not
//! UTF-8 (kubectl writes each bad byte as the escape `\ufffd`, patchlab
//! holds U+FFFD and writes the character); two keys that become one
//! string (`1` and `"1"`: Go's map order picks the survivor, patchlab the
//! later one). Agreement counts are printed. Skipped, with a NOTICE on
//! stderr, where no kubectl is installed.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/apiserver.rs"]
mod apiserver;

use std::collections::BTreeMap;
use std::thread;

use apiserver::{ApiServer, Run};
use patchlab::gojson;
use patchlab::input::{self, Budget};
use patchlab::lint;

/// One generated text and the construct it exercises.
#[derive(Clone, Debug)]
struct Case {
    category: &'static str,
    text: String,
}

fn case(category: &'static str, text: impl Into<String>) -> Case {
    Case {
        category,
        text: text.into(),
    }
}

/// What kubectl did with a text: the body it sent, or its refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Sent(String),
    Refused { status: i32, stderr: String },
}

// ------------------------------------------------------------ the texts

/// YAML 1.1's boolean and null words in every casing yaml.v2 knows, and
/// near misses it does not.
#[rustfmt::skip]
const WORDS: [&str; 36] = [
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
    "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
    "yEs", "oN", "tRUE", "nO", "", "~", "null", "Null", "NULL", "nULL", "<<", "=", "-", "?x",
];

/// Integers in every base and form Go's `ParseInt(s, 0, 64)` and yaml.v2
/// read (and some they do not).
#[rustfmt::skip]
const INTS: [&str; 48] = [
    "0", "-0", "+0", "7", "+7", "-7", "010", "-010", "08", "09", "0o17", "0O17", "-0o17", "0o",
    "0x1F", "0X1f", "-0x1F", "+0x1F", "0x", "0xg", "0b11", "0B11", "-0b11", "0b", "0b2", "1_000",
    "1__0", "_1", "1_", "+_1", "0x_1F", "0_7", "00", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "0x7FFFFFFFFFFFFFFF",
    "0x8000000000000000", "0xFFFFFFFFFFFFFFFF", "0x10000000000000000", "-0x8000000000000000",
    "0b1111111111111111111111111111111111111111111111111111111111111111",
    "99999999999999999999999", "1:30", "190:20:30",
];

/// Floats, infinities and NaNs, in range and out.
#[rustfmt::skip]
const FLOATS: [&str; 44] = [
    "1.5", "1.0", "1.10", "-1.5", "+1.5", ".5", "-.5", "+.5", "1.", "1e3", "1E+3", "1.5e-3",
    "1e400", "-1e400", "1e-400", "-1e-400", ".5e400", "1.7976931348623157e308",
    "1.7976931348623158e308", "1.7976931348623159e308", "4.9e-324", "0.1", "123456789.125",
    ".inf", ".Inf", ".INF", "+.inf", "-.inf", "-.Inf", ".iNf", ".nan", ".NaN", ".NAN", "-.nan",
    "inf", "NaN", ".5_0", "._5", ".5_", ".5e1_0", "1_0.5", "1.5_0", ".", "1e",
];

/// Strings that look like other things.
#[rustfmt::skip]
const STRINGS: [&str; 16] = [
    "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "2001-13-14",
    "12:30", "<desired number>", "a:b", "a #b", "x#y", "'it''s'", "\"q\"", "nginx:1.10", "-x",
    "@x", "`x", "%x",
];

/// Double-quoted escapes yaml.v2 reads, and the ones it refuses.
#[rustfmt::skip]
const ESCAPES: [&str; 38] = [
    "\\0", "\\a", "\\b", "\\t", "\\\t", "\\n", "\\v", "\\f", "\\r", "\\e", "\\ ", "\\\"", "\\'",
    "\\\\", "\\N", "\\_", "\\L", "\\P", "\\x41", "\\xe9", "\\u00e9", "\\U0001F600", "\\/", "\\q",
    "\\x4", "\\xZZ", "\\uD800", "\\uDFFF", "\\uD83D\\uDE00", "\\U00110000", "\\UFFFFFFFF",
    "\\U0010FFFF", "\\uFFFE", "\\u0000", "a\\\n  b", "\\u202", "\\%", "\\x7F",
];

fn scalar_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for word in WORDS {
        cases.push(case("booleans and nulls", format!("a: {word}")));
        cases.push(case("booleans and nulls as keys", format!("{word}: a")));
    }
    cases.extend(INTS.iter().map(|n| case("integers", format!("a: {n}"))));
    cases.extend(
        INTS.iter()
            .take(20)
            .map(|n| case("integers as keys", format!("{n}: a"))),
    );
    cases.extend(FLOATS.iter().map(|f| case("floats", format!("a: {f}"))));
    #[rustfmt::skip]
    let float_keys = ["1.5", "0.1", "3.141592653589793", "1e7", "123456", "1234567", "0.0001", "0.00001", "-0.0", "1e39", ".inf", "-.inf", ".nan"];
    cases.extend(
        float_keys
            .iter()
            .map(|f| case("floats as keys", format!("{f}: a"))),
    );
    cases.extend(STRINGS.iter().map(|s| case("strings", format!("a: {s}"))));
    cases.extend(
        ESCAPES
            .iter()
            .map(|e| case("escapes", format!("a: \"{e}\""))),
    );
    cases
}

/// Tags: yaml.v2 resolves and checks the core ones, base64-decodes
/// `!!binary`, and leaves any other tag's scalar a string.
#[rustfmt::skip]
const TAGS: [&str; 26] = [
    "a: !!str 12", "a: !!str yes", "a: !!int 12", "a: !!int 0x10", "a: !!int 1.5", "a: !!int abc",
    "a: !!int", "a: !!float 1", "a: !!float 1.5", "a: !!float 18446744073709551615",
    "a: !!bool yes", "a: !!bool 1", "a: !!null ~", "a: !!null x", "a: !!timestamp 2001-12-14",
    "a: !!timestamp 2001-13-14", "a: !!timestamp 12", "a: !custom 1", "a: ! 12",
    "a: !<tag:yaml.org,2002:int> 12", "a: !!binary aGVsbG8=", "a: !!binary aGVsbG8",
    "a: !!binary |\n  aGVs\n  bG8=", "a: !!binary /w==", "a: !!map {b: 1}", "a: !!seq x",
];

/// Merge keys, anchors and aliases.
#[rustfmt::skip]
const MERGES: [&str; 22] = [
    "b: &x {c: 1}\na:\n  <<: *x\n  d: 2",
    "a:\n  x: 1\n  <<: {x: 2, y: 2}\n  y: 3",
    "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc:\n  <<: [*a, *b]",
    "a:\n  <<: [{x: 1}, {x: 2, y: 2}]",
    "<<: {a: 1}\n<<: {b: 2}",
    "b:\n  <<: 1", "b:\n  <<: [1]", "b:\n  <<: ~", "a: &a [1]\nb:\n  <<: *a",
    "b:\n  \"<<\": {a: 1}", "b:\n  !!merge <<: {a: 1}", "b:\n  ! <<: {a: 1}", "b:\n  !!str <<: 1",
    "a: &x 1\nb: *x", "a: &x [1, 2]\nb: *x\nc: &x 3\nd: *x", "a: *b", "a: &x [*x]",
    "a: &x {b: *x}", "&a a: *a", "a: &anchor\nb: *anchor", "? &k k\n: *k", "*a : 1",
];

/// Keys: repeated, of every type, too long for a simple key.
fn key_cases() -> Vec<Case> {
    #[rustfmt::skip]
    let texts = [
        "a: 1\na: 2", "a: 1\na: 2\na: 3", "a: {b: 1, b: 2}", "a: [1, {b: 2, b: 3}]",
        "a:\n  b: 1\n  c: 2\n  b: {d: 3}", "~: 1", "a: {~: 1}", "null: 1", "? \n: 1",
        "9223372036854775808: a", "18446744073709551615: a", "-1: a", "true: a\ny: b",
        "? [a]\n: 1", "? {a: 1}\n: 2", "[1, 2]: 3", "? [1, \"x\", ~, 1.5, {b: 2}]\n: 1",
        "a: {? [1]: 2}", "2001-12-14: a", "1: a\n\"1\": b",
    ];
    let mut cases: Vec<Case> = texts.iter().map(|t| case("keys", *t)).collect();
    let long = "k".repeat(1030);
    cases.push(case("keys", format!("{long}: b")));
    cases.push(case("keys", format!("\"{long}\": b")));
    cases.push(case("keys", format!("a: {}: b", "x".repeat(1030))));
    cases.push(case("keys", format!("{}: b", "k".repeat(1020))));
    cases
}

/// Raw characters: controls (refused), DEL, C1, NEL/LS/PS line breaks,
/// U+FFFE, byte order marks where yaml.v2 drops or keeps them.
fn character_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for c in (0x01u32..0x20).chain([
        0x7F, 0x80, 0x84, 0x85, 0x9F, 0xA0, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0xE000, 0x1F600,
    ]) {
        let c = char::from_u32(c).unwrap_or('?');
        if matches!(c, '\n' | '\r') {
            continue;
        }
        cases.push(case("raw characters", format!("a: x{c}y")));
    }
    #[rustfmt::skip]
    let more = [
        "a: \"x\u{7f}\"", "a: 'x\u{85}y'", "# \u{7f}\na: 1", "a: 1\n---\nb: \u{7f}",
        "\u{feff}a: 1", "\u{feff}\u{feff}a: 1\nb: 2", "a: 1\n\u{feff}b: 2", "a: \u{feff}b",
        "\u{feff}{\"b\": 1, \"a\": 2}", "\u{feff}[1, 2]", " {\"a\": 1.0}", "\u{a0}{\"a\": 1.0}",
        "\u{85}{\"a\": 1.0}", "\u{200b}{\"a\": 1.0}", "\t{\"a\": 1.0}",
        "a: 1\r\nb: 2", "a: \"x\r\n  y\"", "a: x\u{85}  y", "a: x\u{2028}  y",
    ];
    cases.extend(more.iter().map(|t| case("raw characters", *t)));
    // A control character in a later 512-byte chunk than a syntax error,
    // and in the same one: yaml.v2 reports whichever its reader meets
    // first.
    let pad = "#".repeat(600);
    cases.push(case("reader chunks", format!("a: [1\n{pad}\nb: \u{7f}")));
    cases.push(case("reader chunks", format!("a: [1\nb: \u{7f}\n{pad}")));
    cases.push(case(
        "reader chunks",
        format!("{pad}\na: \"\\/\"\nb: \u{7f}"),
    ));
    cases.push(case(
        "reader chunks",
        format!("a: 1\n{}\nb: \u{7f}", "#".repeat(2000)),
    ));
    cases
}

/// Tabs where yaml.v2's scanner takes them for separation and where it
/// refuses them.
#[rustfmt::skip]
const TABS: [&str; 22] = [
    "a:\tb", "a: \tb", "a:\n\tb: 1", "a:\n  b:\t1", "-\tx", "- \tx", "a:\n- \tb", "? \ta\n: b",
    "a: b\t", "a: b\t# c", "a:\t\n  b: 1", "a: x\n\ty", "a: x\n \ty", "a:\n  b\n\tc",
    "a: [1,\t2]", "a: {b:\t1}", "a: |\n\tx", "a: |\n  x\n\ty", "a: |\n  x\n  \ty", "a: >\n \tx",
    "\ta: 1", "a: '\tb'",
];

/// Flow and block styles, block scalars, documents and directives, and
/// syntax errors (yaml.v2's words and its line numbering).
#[rustfmt::skip]
const STRUCTURES: [&str; 76] = [
    "- a\n- b", "[1, 2, {a: b}]", "[a: 1, b]", "[? a : b]", "{a, b: c}", "{a: , b}", "[,]",
    "{,}", "[a,]", "a:\n  - b\n  -\n  - c", "a:\n- b\n- c", "a: [\n  1,\n  2\n]", "a: {\n b: 1}",
    "a: >\n  x\n\n  y\n", "a: |+\n  x\n\n", "a: |-\n  x\n", "a: |2\n   x", "a: |0\n x",
    "a: >-\n x\n  y\n z", "a: |\n  x\n # c\n", "a: plain\n  multi\n  line", "a: plain\n\n  para",
    "a: 'multi\n  line'", "a: \"multi\n\n  line\"", "? a\n? b", "? a\n: b\n? c",
    "a: b\n---\nc: d", "---\na: 1\n---\nb: 2", "--- a", "---\n...\n", "a: 1\n...\nb: 2",
    "a: 1\n...\n%YAML 1.2\n---\nb: 1", "%YAML 1.1\n---\na: 1", "%YAML 1.2\n---\na: 1",
    "%YAML 2.0\n---\na: 1", "%YAML 1.1\n%YAML 1.1\n---\na: 1", "%YAML 1\n---\na: 1",
    "%YAML 123.1\n---\na: 1", "%TAG ! tag:x.org,2000:\n---\na: !y 1", "%TAG !e! tag:e.org:\n---\na: !e!x 1",
    "%FOO bar\n---\na: 1", "a: !e!x 1", "a: [1, 2", "a: {b: 1", "a: 1\nb", "a: 1\n b: 2",
    "- a\nb: 1", "a:\n- b\n c", "a: 'x", "a: \"x", "a: b: c", "[a, b", "a: 1\n]", "a: 1\n}\n",
    "]", "a: b\n- c", "a: &", "a: *", "a: !", "a: |x", "a: -", "a: ?", "a: :", "a: ::x",
    "a:\n  b: 1\n c: 2", "a:\n  - 1\n   - 2", "  a: 1\nb: 2", "a: [b: c: d]", "a: {b: [c}",
    "a: \"x\"y", "a: 'x' y", "a: |\n  x\n y", "a: x\n---b", "a: x\n--- b", "a:\n  ---\n", "- - - a",
];

fn cases() -> Vec<Case> {
    let mut cases = scalar_cases();
    cases.extend(TAGS.iter().map(|t| case("tags", *t)));
    cases.extend(MERGES.iter().map(|t| case("merge keys and anchors", *t)));
    cases.extend(key_cases());
    cases.extend(character_cases());
    cases.extend(TABS.iter().map(|t| case("tabs", *t)));
    cases.extend(
        STRUCTURES
            .iter()
            .map(|t| case("flow, block, documents, errors", *t)),
    );
    cases
}

// ------------------------------------------------------------ expected

/// What patchlab says kubectl does with `text` given as `-p` (or, with
/// `from_file`, in the file `--patch-file` names).
fn expected(text: &str, from_file: bool) -> Outcome {
    match lint::kubectl_sends(text, &Budget::default()) {
        Ok(body) => Outcome::Sent(body),
        Err(err) => {
            let patch = if from_file {
                "\"\"".to_owned()
            } else {
                gojson::quote(text)
            };
            Outcome::Refused {
                status: 1,
                stderr: format!("error: unable to parse {patch}: {}\n", err.go),
            }
        }
    }
}

fn outcome(run: &Run) -> Outcome {
    assert!(!run.timed_out, "kubectl hung: {run:?}");
    match run.writes.as_slice() {
        [write] if run.status == 0 => {
            assert_eq!(write.content_type, "application/merge-patch+json");
            Outcome::Sent(String::from_utf8_lossy(&write.body).into_owned())
        }
        [] => Outcome::Refused {
            status: run.status,
            stderr: run.stderr.clone(),
        },
        _ => panic!("more than one write: {run:?}"),
    }
}

/// The named differences: a reason when kubectl and patchlab differ in
/// a documented way.
fn named_difference(case: &Case, kubectl: &Outcome, patchlab: &Outcome) -> Option<&'static str> {
    if let (Outcome::Sent(k), Outcome::Sent(p)) = (kubectl, patchlab) {
        if k.contains("\\ufffd") && k.replace("\\ufffd", "\u{fffd}") == *p {
            return Some("!!binary bytes that are not UTF-8");
        }
    }
    let colliding = ["1: a\n\"1\": b", "true: a\ny: b"];
    colliding
        .contains(&case.text.as_str())
        .then_some("two keys that become one string")
}

// ------------------------------------------------------------ the runs

/// Runs `run` on each case, on `workers` servers side by side.
fn run_all(
    cases: &[Case],
    workers: usize,
    run: impl Fn(&ApiServer, &Case) -> Run + Sync,
) -> Option<Vec<Outcome>> {
    let servers: Vec<ApiServer> = (0..workers).filter_map(|_| ApiServer::start()).collect();
    if servers.len() < workers {
        return None;
    }
    let mut outcomes = vec![None; cases.len()];
    thread::scope(|scope| {
        let handles: Vec<_> = servers
            .iter()
            .enumerate()
            .map(|(w, server)| {
                let run = &run;
                scope.spawn(move || {
                    let mine: Vec<(usize, Outcome)> = cases
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % workers == w)
                        .map(|(i, case)| (i, outcome(&run(server, case))))
                        .collect();
                    mine
                })
            })
            .collect();
        for handle in handles {
            for (i, outcome) in handle.join().expect("a worker") {
                outcomes[i] = Some(outcome);
            }
        }
    });
    Some(
        outcomes
            .into_iter()
            .map(|o| o.expect("every case ran"))
            .collect(),
    )
}

/// Compares, prints the counts per category, and answers the unnamed
/// disagreements.
fn compare(label: &str, cases: &[Case], kubectl: &[Outcome], from_file: bool) -> Vec<String> {
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut named: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (case, kubectl) in cases.iter().zip(kubectl) {
        let patchlab = expected(&case.text, from_file);
        let entry = counts.entry(case.category).or_default();
        entry.0 += 1;
        if *kubectl == patchlab {
            entry.1 += 1;
        } else if let Some(reason) = named_difference(case, kubectl, &patchlab) {
            *named.entry(reason).or_default() += 1;
        } else {
            failures.push(format!(
                "{label} {:?} ({}):\n  kubectl:  {kubectl:?}\n  patchlab: {patchlab:?}",
                case.text, case.category
            ));
        }
    }
    let (total, agree) = counts
        .values()
        .fold((0, 0), |(t, a), (ct, ca)| (t + ct, a + ca));
    eprintln!("\n{label}: {agree} of {total} texts agree byte for byte with kubectl 1.32");
    for (category, (n, ok)) in &counts {
        eprintln!("  {category:<34} {ok:>4} of {n:>4}");
    }
    for (reason, n) in &named {
        eprintln!("  named difference: {reason}: {n}");
    }
    failures
}

#[test]
fn kubectl_patch_sends_what_patchlab_says_for_every_yaml_text() {
    // An argument cannot hold a NUL byte: those texts go by file only.
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|c| !c.text.contains('\0'))
        .collect();
    let Some(kubectl) = run_all(&cases, 2, |server, case| {
        server.kubectl(
            &["patch", "cm", "x", "--type=merge", "-p", &case.text],
            None,
        )
    }) else {
        return;
    };
    let failures = compare("kubectl patch -p", &cases, &kubectl, false);
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn kubectl_patch_file_sends_what_lint_says() {
    let mut cases: Vec<Case> = cases()
        .into_iter()
        .enumerate()
        .filter(|(i, c)| {
            i % 3 == 0 || c.category == "raw characters" || c.category == "reader chunks"
        })
        .map(|(_, c)| c)
        .collect();
    cases.push(case("raw characters", "a: x\0y"));
    let Some(kubectl) = run_all(&cases, 2, |server, case| {
        let file = server.dir().join("patch.yaml");
        std::fs::write(&file, &case.text).expect("the patch file is written");
        let file = file.to_string_lossy().into_owned();
        server.kubectl(
            &["patch", "cm", "x", "--type=merge", "--patch-file", &file],
            None,
        )
    }) else {
        return;
    };
    let failures = compare("kubectl patch --patch-file", &cases, &kubectl, true);
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Lint's own path (the command line, the file opened through its
    // callback) reads the same bytes, or refuses with kubectl's line.
    for (case, kubectl) in cases.iter().zip(&kubectl) {
        lint_agrees(case, kubectl);
    }
}

/// `patchlab lint` on `kubectl patch cm x --type=merge --patch-file p.yaml`
/// with the case's text in the file.
fn lint_agrees(case: &Case, kubectl: &Outcome) {
    let files = |_: &str| Ok::<String, String>(case.text.clone());
    let command = "kubectl patch cm x --type=merge --patch-file p.yaml";
    let read = lint::read_with(command, &lint::budget(), Some(&files));
    match (kubectl, read) {
        (Outcome::Sent(body), Ok(input)) => assert_eq!(&input.payload, body, "{:?}", case.text),
        (Outcome::Refused { stderr, .. }, Err(err)) => {
            let line = stderr.trim_end().trim_start_matches("error: ");
            assert!(
                err.to_string().contains(line),
                "{:?}: {err}\nkubectl: {stderr}",
                case.text
            );
        }
        // A body lint does not lint (a scalar; a list, which is no merge
        // patch): lint says so, kubectl sends it anyway.
        (
            Outcome::Sent(_),
            Err(lint::LintError::NotAPatch { .. } | lint::LintError::Command { .. }),
        ) => {}
        // Sent, and lint says the server cannot decode it: as written (`{`
        // after a no-break space: Go's JSON has no such space), or as the
        // JSON kubectl made of it (a list, which is no merge patch).
        (Outcome::Sent(body), Err(lint::LintError::Judged { hints, .. }))
            if hints[0].rule == lint::Rule::UndecodableBody =>
        {
            let message = &hints[0].message;
            match message.strip_prefix("kubectl sends ") {
                Some(rest) => {
                    let shown: String = body.chars().take(60).collect();
                    assert!(rest.contains(&shown), "{:?}: {message}", case.text);
                }
                None => assert_eq!(body, &case.text),
            }
        }
        (Outcome::Sent(body), Err(err)) => {
            panic!("{:?}: kubectl sends {body}, lint: {err}", case.text)
        }
        (Outcome::Refused { stderr, .. }, Ok(input)) => {
            panic!(
                "{:?}: lint reads {}, kubectl refuses: {stderr}",
                case.text, input.payload
            )
        }
    }
}

// ------------------------------------------------------------ objects

/// Values placed in a ConfigMap-shaped object read by `kubectl replace
/// -f -` and `kubectl create -f -`.
#[rustfmt::skip]
const OBJECT_VALUES: [&str; 24] = [
    "yes", "off", "010", "0b11", "1_000", "0x1F", "1.10", "18446744073709551615", "2001-12-14",
    "!!str 12", "!custom 1", "\"\\u00e9\\N\"", "'it''s'", "[1, {b: 2, b: 3}]",
    "|\n    line1\n    line2", "\"\\/\"", "\"\\uD83D\\uDE00\"", "\"x\u{7f}\"", ".inf", "{<<: {m: 1}, n: 2}",
    "{on: 1, n: 2}", "&a {x: 1}", "!!int 1.5", "\tx",
];

fn object_text(value: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: absent-x\nspec:\n  v: {value}\n")
}

#[test]
fn objects_read_by_kubectl_replace_and_create_are_the_values_patchlab_reads() {
    let cases: Vec<Case> = OBJECT_VALUES
        .iter()
        .map(|v| case("objects", object_text(v)))
        .collect();
    for verb in ["replace", "create"] {
        let Some(runs) = run_objects(&cases, verb) else {
            return;
        };
        let mut agree = 0;
        for (case, run) in cases.iter().zip(&runs) {
            let ours = input::parse(&case.text, &Budget::default());
            match (run.writes.first(), ours) {
                (Some(write), Ok((value, _))) => {
                    let sent: serde_json::Value =
                        serde_json::from_slice(&write.body).expect("JSON");
                    assert!(
                        gojson::stored_eq(&sent["spec"], &value["spec"]),
                        "{verb} {:?}: kubectl {} patchlab {}",
                        case.text,
                        sent["spec"],
                        value["spec"]
                    );
                }
                (None, Err(err)) => {
                    // kubectl wraps the reader's error; its text is there.
                    let go = input::read_yaml(&case.text, &Budget::default())
                        .unwrap_err()
                        .go;
                    assert!(
                        run.stderr.contains(&go),
                        "{verb} {:?}: {}\npatchlab: {err} ({go})",
                        case.text,
                        run.stderr
                    );
                }
                (kubectl, ours) => panic!(
                    "{verb} {:?}: kubectl {kubectl:?} {}, patchlab {ours:?}",
                    case.text, run.stderr
                ),
            }
            agree += 1;
        }
        eprintln!(
            "kubectl {verb} -f: {agree} of {} objects agree with input::parse",
            cases.len()
        );
    }
}

fn run_objects(cases: &[Case], verb: &str) -> Option<Vec<Run>> {
    let server = ApiServer::start()?;
    Some(
        cases
            .iter()
            .map(|case| server.kubectl(&[verb, "-f", "-"], Some(case.text.as_bytes())))
            .collect(),
    )
}

#[test]
fn the_generated_set_covers_every_construct() {
    let cases = cases();
    let categories: std::collections::BTreeSet<_> = cases.iter().map(|c| c.category).collect();
    assert!(categories.len() >= 14, "{categories:?}");
    assert!(cases.len() > 450, "{}", cases.len());
    let refused = cases
        .iter()
        .filter(|c| lint::kubectl_sends(&c.text, &Budget::default()).is_err())
        .count();
    assert!(refused > 100, "{refused} refusals");
}
