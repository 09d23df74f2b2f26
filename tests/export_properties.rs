//! Property tests of the exports: the Go code prints every rune Go's
//! `strconv.Quote` would escape as an escape and types the numbers Go's
//! constants cannot hold; the kubectl command line survives kubectl's YAML
//! re-encoding of `-p` and sends the bytes `--format json` shows.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Value};

use patchlab::gojson;
use patchlab::strategy::{diff, go_code, kubectl, Options, Preset};

/// Strings rich in what trips the tools: controls, C1, invisible runes,
/// quotes, HTML characters, surrogate-pair runes, plus arbitrary Unicode.
fn tricky() -> impl Strategy<Value = String> {
    let special = prop_oneof![
        Just('\u{0}'),
        Just('\u{7}'),
        Just('\t'),
        Just('\n'),
        Just('\u{1b}'),
        Just('\u{7f}'),
        Just('\u{80}'),
        Just('\u{85}'),
        Just('\u{9f}'),
        Just('\u{a0}'),
        Just('\u{ad}'),
        Just('\u{200b}'),
        Just('\u{2028}'),
        Just('\u{feff}'),
        Just('\u{fffe}'),
        Just('\u{ffff}'),
        Just('\u{e000}'),
        Just('\u{e0001}'),
        Just('\u{1f600}'),
        Just('"'),
        Just('\\'),
        Just('\''),
        Just('<'),
        Just('&'),
        Just('é'),
        any::<char>(),
    ];
    proptest::collection::vec(special, 0..8).prop_map(|cs| cs.into_iter().collect())
}

/// Go's `strconv.Unquote` of an interpreted string literal (enough of it for
/// what `strconv.Quote` writes).
fn go_unquote(literal: &str) -> Option<String> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let hex = |chars: &mut std::str::Chars<'_>, n: usize| -> Option<u32> {
            let digits: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&digits, 16).ok()
        };
        out.push(match chars.next()? {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\\' => '\\',
            '"' => '"',
            'x' => char::from_u32(hex(&mut chars, 2)?)?,
            'u' => char::from_u32(hex(&mut chars, 4)?)?,
            'U' => char::from_u32(hex(&mut chars, 8)?)?,
            _ => return None,
        });
    }
    Some(out)
}

/// The plan that adds label `key` with `value` (per-key add).
fn plan_for(key: &str, value: Value) -> patchlab::strategy::Plan {
    let old = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
                     "metadata": {"name": "v", "namespace": "default", "labels": {"x": "y"}},
                     "status": {}});
    let mut new = old.clone();
    new["metadata"]["labels"][key] = json!("set");
    new["status"]["value"] = value;
    diff(&old, &new, &Options::preset(Preset::KubevirtPerKey)).unwrap()
}

/// The `-p` argument of a kubectl command line, unquoted as a shell would.
fn kubectl_payload(command: &str) -> String {
    let quoted = command.split_once(" -p ").unwrap().1;
    let inner = quoted
        .strip_prefix('\'')
        .unwrap()
        .strip_suffix('\'')
        .unwrap();
    inner.replace(r"'\''", "'")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn go_quote_escapes_what_go_would_and_unquotes_back(s in tricky()) {
        let quoted = gojson::quote(&s);
        let back = go_unquote(&quoted);
        prop_assert_eq!(back.as_deref(), Some(s.as_str()));
        for c in quoted.chars() {
            prop_assert!(c.is_ascii_graphic() || c == ' ' || (gojson::is_print(c) && !c.is_ascii()),
                "{c:?} printed raw in {quoted}");
        }
    }

    #[test]
    fn go_export_prints_no_invisible_rune(key in tricky(), value in tricky()) {
        let plan = plan_for(&key, Value::String(value.clone()));
        let code = go_code(&plan).unwrap();
        for c in code.chars() {
            prop_assert!(c == '\n' || c == '\t' || gojson::is_print(c), "{c:?} printed raw in {code}");
        }
        let quoted_value = gojson::quote(&value);
        prop_assert!(code.contains(&quoted_value), "{code} lacks {quoted_value}");
    }

    #[test]
    fn go_export_types_the_numbers_go_constants_cannot_hold(
        n in prop_oneof![
            any::<i64>().prop_map(Value::from),
            (i64::MAX as u64 + 1..=u64::MAX).prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            (-1e22f64..1e22).prop_map(|f| Value::from(f.trunc())),
            Just(json!(-0.0)),
        ]
    ) {
        let plan = plan_for("k", n.clone());
        let code = go_code(&plan).unwrap();
        // The diff sends numbers as the server stores them (`-0` is 0,
        // `1.0` is 1, above int64 a float).
        let n = Value::Number(gojson::stored_number(n.as_number().unwrap()));
        let mut digits = String::new();
        gojson::write_value(&mut digits, &n);
        let expected = if n.is_i64() {
            digits.clone()
        } else if n.is_u64() {
            format!("uint64({digits})")
        } else if n.as_f64() == Some(0.0) && n.as_f64().unwrap().is_sign_negative() {
            "math.Copysign(0, -1)".to_owned()
        } else if n.as_f64().unwrap().fract() == 0.0 && !digits.contains(['.', 'e']) {
            format!("float64({digits})")
        } else {
            digits.clone()
        };
        prop_assert!(code.contains(&format!("/status/value\", {expected})")), "{code} lacks {expected}");
        prop_assert_eq!(code.contains("\"math\""), expected.starts_with("math."));
    }

    #[test]
    fn kubectl_sends_the_payload_byte_for_byte(key in tricky(), value in tricky(), zero in any::<bool>()) {
        let number = if zero { json!(-0.0) } else { json!(7) };
        let plan = plan_for(&key, json!([value, number]));
        let command = kubectl(&plan, &json!({"kind": "VirtualMachineInstance", "metadata": {"name": "v"}}));
        let sent = kubectl_payload(&command);
        // Nothing sigs.k8s.io/yaml refuses or folds is raw, and no `-0`
        // integer is left for it to turn into 0.
        for c in sent.chars() {
            prop_assert!(!matches!(c, '\u{7f}'..='\u{9f}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'),
                "{c:?} raw in {sent}");
        }
        prop_assert!(!sent.contains(",-0]") && !sent.contains(",-0}"), "{sent}");
        // kubectl decodes `-p` (here JSON, which YAML reads the same once
        // those are escaped) and encodes it with Go's encoder: the bytes of
        // the payload.
        let decoded: Value = serde_json::from_str(&sent).unwrap();
        prop_assert_eq!(gojson::to_string(&decoded), plan.body_text());
    }
}

/// A value shaped to exercise gofmt's layout rules: maps long enough to
/// be written one pair per line, keys of very different lengths (gofmt
/// breaks its alignment where a key's size jumps), keys past 40 bytes,
/// multi-byte keys (aligned by runes), values that span lines.
fn gofmt_value(rng: &mut patchlab::sim::rng::SplitMix64, depth: usize) -> Value {
    let pick = rng.below(if depth > 2 { 4 } else { 7 });
    match pick {
        0 => json!(rng.below(1000)),
        1 => json!(format!("v{}", rng.below(50))),
        2 => json!(rng.below(2) == 0),
        3 => Value::Null,
        4 | 5 => {
            let mut map = serde_json::Map::new();
            for i in 0..rng.below(9) {
                let len = [1, 3, 8, 20, 41, 60, 120][rng.below(7) as usize];
                let mut key: String = (0..len)
                    .map(|j| (b'a' + ((i + j) % 26) as u8) as char)
                    .collect();
                if rng.below(5) == 0 {
                    key.push_str("é/~");
                }
                map.insert(key, gofmt_value(rng, depth + 1));
            }
            Value::Object(map)
        }
        _ => Value::Array(
            (0..rng.below(6))
                .map(|_| gofmt_value(rng, depth + 1))
                .collect(),
        ),
    }
}

/// Every Go export is gofmt-clean: 400 plans of generated objects (with
/// awkward keys in paths, one-op patches whose `WithRemove` path gofmt
/// writes `a + b`, and nested maps gofmt aligns) written into one folder,
/// `gofmt -l` on it lists nothing. Skipped loudly where no gofmt is
/// installed (Debian: `apt-get install golang-go`).
#[test]
fn go_export_is_gofmt_clean() {
    let gofmt = ["/usr/bin/gofmt", "/usr/lib/go/bin/gofmt"]
        .into_iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.exists());
    let Some(gofmt) = gofmt else {
        eprintln!("\n*** NOTICE: no gofmt at /usr/bin/gofmt: go_export_is_gofmt_clean is SKIPPED (apt-get install golang-go) ***\n");
        return;
    };
    let dir = std::env::temp_dir().join(format!("patchlab-gofmt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = patchlab::sim::rng::SplitMix64::new(seed());
    let mut written = 0;
    for case in 0..400 {
        let labels = |n: u64| {
            let mut map = serde_json::Map::new();
            for i in 0..n {
                map.insert(format!("kubevirt.io/k{i}"), json!(format!("v{i}")));
            }
            Value::Object(map)
        };
        let old = json!({"metadata": {"name": "x", "labels": labels(rng.below(3))},
                         "status": gofmt_value(&mut rng, 0)});
        let mut new = json!({"metadata": {"name": "x", "labels": labels(rng.below(3))},
                             "status": gofmt_value(&mut rng, 0)});
        if case % 5 == 0 {
            // Only a removal of an escaped key: `patch.New` of one op.
            new = old.clone();
            new["metadata"]["labels"] = json!({});
        }
        let preset = [
            Preset::KubevirtMain,
            Preset::KubevirtPerKey,
            Preset::Naive,
            Preset::Optimistic,
        ][case % 4];
        let Ok(plan) = diff(&old, &new, &Options::preset(preset)) else {
            continue;
        };
        let Some(code) = go_code(&plan) else { continue };
        std::fs::write(dir.join(format!("case{case}.go")), code).unwrap();
        written += 1;
    }
    assert!(written > 300, "only {written} exports written");
    let out = std::process::Command::new(&gofmt)
        .arg("-l")
        .arg(&dir)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout).into_owned();
    let first_diff = listed.lines().next().map(|file| {
        let d = std::process::Command::new(&gofmt)
            .arg("-d")
            .arg(file)
            .output()
            .unwrap();
        String::from_utf8_lossy(&d.stdout).into_owned()
    });
    assert!(
        out.status.success(),
        "gofmt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        listed.is_empty(),
        "not gofmt-clean:\n{listed}\n{}",
        first_diff.unwrap_or_default()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The seed of the gofmt test (`PATCHLAB_GOFMT_SEED` to try others).
fn seed() -> u64 {
    std::env::var("PATCHLAB_GOFMT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7)
}
