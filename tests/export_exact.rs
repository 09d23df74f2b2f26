//! Every export is exact for every code point: random strings over what
//! trips shells, terminals, YAML and JSON (C0 and C1 controls, DEL, the
//! bidirectional formatting characters, U+2028/9, U+FEFF, U+FFFE/F, U+FFFD
//! that Go makes of a lone surrogate escape, the characters around the
//! surrogates, astral ones, quotes, `$`, backslashes, `<>&`) in label
//! values, annotation keys and values, finalizers and nested fields.
//!
//! For each generated pair and each preset, `--format kubectl`'s command is
//! run by `bash` against the fake kube-apiserver (`tests/support/
//! apiserver.rs`) with the real kubectl: a patch reaches the server byte for
//! byte as `--format json` shows it, an apply configuration or a replaced
//! object as the same value (kubectl encodes those itself). No export holds
//! a character a terminal acts on (newlines and tabs of its layout aside).
//! The Go exports are compiled and run (a stand-in for KubeVirt's patch
//! package, from its documented behaviour) and the Rust exports compiled
//! against this crate and run: both print the payload.
//!
//! Bounded (24 pairs, about 120 kubectl runs: `PATCHLAB_EXPORT_CASES` for
//! more; `PATCHLAB_EXPORT_SEED` replays another seed);
//! skipped with a NOTICE where kubectl, `go` or the crate's rlib is absent.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/apiserver.rs"]
mod apiserver;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use apiserver::{ApiServer, Recorded};
use patchlab::gojson;
use patchlab::sim::rng::SplitMix64;
use patchlab::strategy::{diff, go_code, kubectl, rust_code, Body, Options, Plan, Preset};
use patchlab::text::acts_on_terminal;

/// Pairs generated per run (`PATCHLAB_EXPORT_CASES` for more).
fn cases() -> usize {
    std::env::var("PATCHLAB_EXPORT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24)
}

/// The presets each pair is exported under (a JSON patch, a merge patch,
/// a strategic merge patch, server-side apply, replace).
const PRESETS: [Preset; 5] = [
    Preset::KubevirtPerKey,
    Preset::Merge,
    Preset::Strategic,
    Preset::Ssa,
    Preset::Update,
];

/// The characters drawn most often.
const HARD: &[char] = &[
    '\u{0}',
    '\u{1}',
    '\u{7}',
    '\u{8}',
    '\t',
    '\n',
    '\u{b}',
    '\u{c}',
    '\r',
    '\u{1b}',
    '\u{1f}',
    '\u{7f}',
    '\u{80}',
    '\u{85}',
    '\u{9b}',
    '\u{9f}',
    '\u{a0}',
    '\u{ad}',
    '\u{61c}',
    '\u{200b}',
    '\u{200e}',
    '\u{200f}',
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{2028}',
    '\u{2029}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{feff}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{1f600}',
    '\u{10ffff}',
    '"',
    '\'',
    '\\',
    '$',
    '`',
    '!',
    '<',
    '>',
    '&',
    '%',
    '~',
    '/',
    'é',
    ' ',
    '-',
    '0',
    '{',
    '}',
    ':',
    '#',
];

fn seed() -> u64 {
    std::env::var("PATCHLAB_EXPORT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xe4_2026)
}

/// A string of up to `max` characters, most of them hard ones.
fn hard_string(rng: &mut SplitMix64, max: u64) -> String {
    (0..rng.below(max + 1))
        .map(|_| match rng.below(10) {
            0 | 1 => (b' ' + rng.below(95) as u8) as char,
            2 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}'),
            _ => HARD[rng.below(HARD.len() as u64) as usize],
        })
        .collect()
}

/// An object of `kind` with the fields the random strings go into.
fn object(kind: &str, name: &str, fields: [Value; 4]) -> Value {
    let [labels, annotations, finalizers, nested] = fields;
    let mut object = json!({
        "kind": kind,
        "metadata": {"name": name, "namespace": "default", "labels": labels,
                     "annotations": annotations, "finalizers": finalizers},
    });
    match kind {
        "ConfigMap" => {
            object["apiVersion"] = json!("v1");
            object["data"] = nested;
        }
        "Pod" => {
            object["apiVersion"] = json!("v1");
            object["spec"] = json!({"containers": [{"name": "c", "image": "i",
                "args": [nested["deep"].clone()], "env": [{"name": "E", "value": nested["deep"].clone()}]}]});
        }
        _ => {
            object["apiVersion"] = json!("kubevirt.io/v1");
            object["spec"] = json!({"nested": nested});
        }
    }
    object
}

/// An old object and a new one that changes every field to random strings.
fn pair(rng: &mut SplitMix64, i: usize) -> (Value, Value) {
    let kind = ["ConfigMap", "Pod", "VirtualMachineInstance"][i % 3];
    let name = format!("x{i}");
    let old = object(
        kind,
        &name,
        [
            json!({"app": "x"}),
            json!({"a": "b"}),
            json!(["f"]),
            json!({"deep": "v"}),
        ],
    );
    let (key, deep_key) = (hard_string(rng, 6), hard_string(rng, 6));
    let mut s = |max| Value::String(hard_string(rng, max));
    let mut annotations = json!({"a": s(12)});
    annotations[key] = s(12);
    let mut nested = json!({"deep": s(12)});
    nested[deep_key] = s(8);
    let fields = [
        json!({"app": "x", "l": s(10)}),
        annotations,
        json!(["f", s(10)]),
        nested,
    ];
    (old, object(kind, &name, fields))
}

/// What the server should have received for a plan: the payload's bytes
/// (a patch), or the value kubectl encodes (an apply configuration, a
/// replaced object).
enum Expected {
    Bytes(String),
    Value(Value),
}

fn expected(plan: &Plan) -> Expected {
    match &plan.body {
        Body::Apply { config, .. } => Expected::Value(config.clone()),
        Body::Update(object) => Expected::Value(object.clone()),
        _ => Expected::Bytes(plan.body_text()),
    }
}

/// What one write shows, against what was expected; `None` when exact.
fn mismatch(write: &Recorded, expected: &Expected) -> Option<String> {
    match expected {
        Expected::Bytes(text) if write.body == text.as_bytes() => None,
        Expected::Bytes(text) => Some(format!(
            "sent {}\n  shown {text}",
            String::from_utf8_lossy(&write.body)
        )),
        Expected::Value(value) => {
            let mut sent: Option<Value> = serde_json::from_slice(&write.body).ok();
            // `kubectl replace` sets the resourceVersion it read.
            if write.method == "PUT" && value.pointer("/metadata/resourceVersion").is_none() {
                if let Some(Value::Object(meta)) = sent.as_mut().and_then(|s| s.get_mut("metadata"))
                {
                    meta.remove("resourceVersion");
                }
            }
            match sent {
                Some(sent) if gojson::to_string(&sent) == gojson::to_string(value) => None,
                _ => Some(format!(
                    "sent {}\n  meant {}",
                    String::from_utf8_lossy(&write.body),
                    gojson::to_string(value)
                )),
            }
        }
    }
}

/// A character of `text` a terminal would act on (layout whitespace
/// aside).
fn raw_control(text: &str, layout: &[char]) -> Option<char> {
    text.chars()
        .find(|&c| acts_on_terminal(c) && !layout.contains(&c))
}

/// The plans of every preset for a pair (those that send something).
fn plans(old: &Value, new: &Value) -> Vec<(Preset, Plan)> {
    PRESETS
        .into_iter()
        .filter_map(|preset| {
            let plan = diff(old, new, &Options::preset(preset)).ok()?;
            (!plan.is_empty()).then_some((preset, plan))
        })
        .collect()
}

/// Runs every preset's kubectl command for one pair in one bash script;
/// answers the commands run and the failures.
fn run_pair(server: &ApiServer, old: &Value, new: &Value) -> (usize, Vec<String>) {
    let plans = plans(old, new);
    let mut failures = Vec::new();
    let mut script = String::from("set -u\n");
    for (preset, plan) in &plans {
        let command = kubectl(plan, new);
        if let Some(c) = raw_control(&command, &['\n']) {
            failures.push(format!("{preset}: {c:?} raw in the command:\n{command}"));
        }
        script.push_str(&command);
        script.push_str("\necho \"status $?\"\n");
    }
    let run = server.bash(&script);
    let statuses: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("status "))
        .collect();
    if run.writes.len() != plans.len() || statuses.iter().any(|s| *s != "status 0") {
        failures.push(format!(
            "{} commands, {} writes, {statuses:?}\n{}\n{script}",
            plans.len(),
            run.writes.len(),
            run.stderr
        ));
        return (plans.len(), failures);
    }
    for ((preset, plan), write) in plans.iter().zip(&run.writes) {
        if let Some(why) = mismatch(write, &expected(plan)) {
            failures.push(format!("{preset} {}: {why}", write.path));
        }
    }
    (plans.len(), failures)
}

fn generated() -> Vec<(Value, Value)> {
    let mut rng = SplitMix64::new(seed());
    (0..cases()).map(|i| pair(&mut rng, i)).collect()
}

#[test]
fn every_kubectl_export_reaches_the_server_byte_for_byte() {
    let pairs = generated();
    // Two servers, each with every other pair.
    let results: Vec<Option<(usize, Vec<String>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|t| {
                let pairs = &pairs;
                scope.spawn(move || {
                    let server = ApiServer::start()?;
                    let mut total = (0, Vec::new());
                    for (old, new) in pairs.iter().skip(t).step_by(2) {
                        let (n, failures) = run_pair(&server, old, new);
                        total.0 += n;
                        total.1.extend(failures);
                    }
                    Some(total)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let Some(results) = results.into_iter().collect::<Option<Vec<_>>>() else {
        return;
    };
    let commands: usize = results.iter().map(|r| r.0).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    eprintln!(
        "kubectl exports through bash and kubectl: {} of {commands} exact ({} pairs, seed {:#x})",
        commands - failures.len(),
        pairs.len(),
        seed()
    );
    assert!(commands >= cases() * 4, "only {commands} commands ran");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(4)].join("\n\n")
    );
}

/// The JSON-patch plans of the generated pairs, with the payload each must
/// print.
fn json_patch_plans() -> Vec<Plan> {
    generated()
        .iter()
        .flat_map(|(old, new)| {
            [Preset::KubevirtPerKey, Preset::KubevirtMain, Preset::Naive]
                .into_iter()
                .filter_map(move |preset| diff(old, new, &Options::preset(preset)).ok())
        })
        .filter(|plan| !plan.is_empty() && plan.ops().is_some())
        .collect()
}

/// A fresh scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("patchlab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Splits a program's output into the payloads it printed, each ended by
/// a NUL byte.
fn printed(stdout: &[u8]) -> Vec<String> {
    stdout
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

#[path = "support/export_programs.rs"]
mod programs;

#[test]
fn go_exports_compile_and_print_the_payload() {
    let Some(go) = ["/usr/bin/go", "/usr/lib/go/bin/go", "/usr/local/go/bin/go"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
    else {
        eprintln!("\n*** NOTICE: no go at /usr/bin/go: go_exports_compile_and_print_the_payload is SKIPPED (apt-get install golang-go) ***\n");
        return;
    };
    let plans = json_patch_plans();
    let mut codes = Vec::new();
    for plan in &plans {
        let code = go_code(plan).unwrap();
        assert_eq!(raw_control(&code, &['\n', '\t']), None, "{code}");
        codes.push(code);
    }
    let dir = scratch("go-exports");
    let out = programs::run_go(&go, &dir, &codes);
    let _ = std::fs::remove_dir_all(&dir);
    let printed = printed(&out);
    assert_eq!(
        printed.len(),
        plans.len(),
        "the Go program printed {} payloads",
        printed.len()
    );
    for (plan, payload) in plans.iter().zip(&printed) {
        // Go before 1.22 writes \b and \f as \u0008 and \u000c: compared
        // as Go 1.22 (kubectl's) writes them.
        let shown = plan.body_text();
        let same = *payload == shown || programs::go_1_22(payload) == shown;
        assert!(same, "Go printed {payload}\n  shown {shown}");
    }
    eprintln!(
        "Go exports: {} of {} print the payload",
        printed.len(),
        plans.len()
    );
}

#[test]
fn rust_exports_compile_and_print_the_payload() {
    let plans = json_patch_plans();
    let mut codes = Vec::new();
    for plan in &plans {
        let code = rust_code(plan).unwrap();
        assert_eq!(raw_control(&code, &['\n']), None, "{code}");
        codes.push(code);
    }
    let dir = scratch("rust-exports");
    let Some(out) = programs::run_rust(&dir, &codes) else {
        eprintln!("\n*** NOTICE: no patchlab rlib beside the test binary: rust_exports_compile_and_print_the_payload is SKIPPED ***\n");
        return;
    };
    let _ = std::fs::remove_dir_all(&dir);
    let printed = printed(&out);
    assert_eq!(printed.len(), plans.len());
    for (plan, payload) in plans.iter().zip(&printed) {
        assert_eq!(*payload, plan.body_text());
    }
    eprintln!(
        "Rust exports: {} of {} print the payload",
        printed.len(),
        plans.len()
    );
}

/// The deps folder of this test binary, where cargo keeps the rlibs.
pub fn deps_dir() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()?
        .parent()
        .map(Path::to_path_buf)
}

/// Runs `command`, panicking with its output when it fails.
pub fn run(mut command: Command, what: &str) -> Vec<u8> {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out.stdout
}
