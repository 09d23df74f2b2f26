//! The kubectl exports of every preset, run through the real kubectl
//! (#22 item 6). For each pair of objects the project ships (the Build
//! examples `www/examples/*.yaml`: old and new; the Race scenarios
//! `www/scenarios/*.yaml`: each writer's first object and what its
//! intents make of it) and each preset (`Preset::EVERY`, and each
//! example column's own overrides), `patchlab diff --format kubectl`'s
//! command line is split as a POSIX shell splits it, and its `--type` and
//! `-p` run in `kubectl patch --local -f OLD --type=T -p P -o json`, which
//! runs kubectl's own JSON patch, merge patch and strategic merge patch
//! code on the old object. patchlab applies the same body (the bytes
//! `--format json` shows) as kubectl 1.32 does (evanphx/json-patch
//! v4.12.0, evanphx's `MergePatch`, `strategicpatch` with the kind's
//! Go type, or kubectl's refusal of a strategic merge patch to a kind
//! outside its scheme); the two results must be equal, and equal to the
//! new object where patchlab's round trip says so.
//!
//! `kubectl apply --server-side` (ssa) and `kubectl replace` (update) have
//! no local mode: those exports are counted, not run. Skipped, with a
//! NOTICE on stderr, where no kubectl is installed.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use patchlab::apply::{self, strategic, Engine};
use patchlab::gojson;
use patchlab::input::{self, Budget};
use patchlab::kube::Evanphx;
use patchlab::schema;
use patchlab::sim::timeline::Scenario;
use patchlab::strategy::{self, parse_path, Options, Preset, RoundTrip};

fn kubectl() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/kubectl");
    if fixed.exists() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("kubectl"))
            .find(|p| p.exists())
    })
}

/// One pair of objects and the policies to export it under.
struct Pair {
    name: String,
    old: Value,
    new: Value,
    options: Vec<(String, Options)>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn yaml_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

fn every_preset() -> Vec<(String, Options)> {
    Preset::EVERY
        .into_iter()
        .map(|p| (p.as_str().to_owned(), Options::preset(p)))
        .collect()
}

/// The Build examples: old, new, every preset and each column's policy.
fn examples() -> Vec<Pair> {
    yaml_files("www/examples")
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let (file, _) = input::parse(&text, &Budget::default()).unwrap();
            let object = |key: &str| {
                input::parse(file[key].as_str().unwrap(), &Budget::default())
                    .unwrap()
                    .0
            };
            let mut options = every_preset();
            for (i, column) in file["columns"].as_array().into_iter().flatten().enumerate() {
                let preset: Preset = column["preset"].as_str().unwrap().parse().unwrap();
                let mut o = Options::preset(preset);
                for (at, strategy) in column["overrides"].as_object().into_iter().flatten() {
                    o.policy.set_strategy(
                        parse_path(at).unwrap(),
                        strategy.as_str().unwrap().parse().unwrap(),
                    );
                }
                options.push((format!("column {i} ({preset})"), o));
            }
            Pair {
                name: format!("example {}", path.file_stem().unwrap().to_string_lossy()),
                old: object("old"),
                new: object("new"),
                options,
            }
        })
        .collect()
}

/// The Race scenarios: each writer's target object before and after its
/// intents, under every preset.
fn scenarios() -> Vec<Pair> {
    let mut pairs = Vec::new();
    for path in yaml_files("www/scenarios") {
        let scenario = Scenario::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for writer in &scenario.writers {
            let old = match &writer.target {
                Some(key) => scenario
                    .objects
                    .iter()
                    .find(|o| {
                        format!(
                            "{}/{}",
                            o["kind"].as_str().unwrap_or_default(),
                            o["metadata"]["name"].as_str().unwrap_or_default()
                        ) == *key
                    })
                    .unwrap()
                    .clone(),
                None => scenario.objects[0].clone(),
            };
            let Ok(new) = writer.desired(&old) else {
                continue;
            };
            pairs.push(Pair {
                name: format!(
                    "scenario {} writer {}",
                    path.file_stem().unwrap().to_string_lossy(),
                    writer.name
                ),
                old,
                new,
                options: every_preset(),
            });
        }
    }
    pairs
}

/// What a case came to.
enum Outcome {
    /// kubectl and patchlab give the same object (and, where the round
    /// trip is exact, the new object).
    Agree,
    /// kubectl and patchlab both refuse the body.
    BothRefuse,
    /// No local mode for this export (server-side apply, replace).
    NotRunnable,
    /// Nothing to send.
    Empty,
    Disagree(String),
}

/// The `--type` and `-p` of an exported `kubectl patch` command line, as a
/// POSIX shell splits it.
fn type_and_body(command: &str) -> Option<(String, String)> {
    let words = shlex::split(command)?;
    if words.get(1).map(String::as_str) != Some("patch") {
        return None;
    }
    let kind = words
        .iter()
        .find_map(|w| w.strip_prefix("--type="))?
        .to_owned();
    let at = words.iter().position(|w| w == "-p")?;
    Some((kind, words.get(at + 1)?.clone()))
}

/// `kubectl patch --local -f OLD --type=T -p BODY -o json`: the object, or
/// kubectl's error output.
fn run_kubectl(
    kubectl: &Path,
    dir: &Path,
    tag: usize,
    old: &Value,
    kind: &str,
    body: &str,
) -> Result<Value, String> {
    let file = dir.join(format!("{tag}.json"));
    std::fs::write(&file, serde_json::to_vec(old).unwrap()).unwrap();
    let out = Command::new(kubectl)
        .args(["patch", "--local", "-f"])
        .arg(&file)
        .args([&format!("--type={kind}"), "-p", body, "-o", "json"])
        .env("KUBECONFIG", "/dev/null")
        .output()
        .expect("kubectl runs");
    let _ = std::fs::remove_file(&file);
    if out.status.success() {
        serde_json::from_slice(&out.stdout).map_err(|e| format!("not JSON: {e}"))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim_end().to_owned())
    }
}

/// What patchlab says kubectl 1.32 does with the body: its result, or
/// kubectl's error line.
fn patchlab(old: &Value, kind: &str, body: &str) -> Result<Value, String> {
    let engine = Engine::Kube(Evanphx::V4_12_0);
    let mut doc = old.clone();
    match kind {
        "json" => apply::apply_payload(&mut doc, body, engine).map_err(|e| e.to_string())?,
        "merge" => {
            apply::apply_merge(&mut doc, body, engine).map_err(|e| e.to_string())?;
        }
        _ => {
            let patch: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
            strategic::apply_local(&mut doc, &patch, &schema::target_of(old))
                .map_err(|e| format!("error: {e}"))?;
        }
    }
    Ok(doc)
}

/// Values as the server stores them, as Go writes them.
fn go(value: &Value) -> String {
    gojson::to_string(&gojson::stored(value))
}

fn case(kubectl: &Path, dir: &Path, tag: usize, pair: &Pair, options: &Options) -> Outcome {
    let plan = match strategy::diff(&pair.old, &pair.new, options) {
        Ok(plan) => plan,
        Err(err) => return Outcome::Disagree(format!("no plan: {err}")),
    };
    if plan.is_empty() {
        return Outcome::Empty;
    }
    let command = strategy::kubectl(&plan, &pair.new);
    let Some((kind, body)) = type_and_body(&command) else {
        return if command.starts_with("kubectl apply --server-side")
            || command.starts_with("kubectl replace")
        {
            Outcome::NotRunnable
        } else {
            Outcome::Disagree(format!("not a kubectl patch line: {command}"))
        };
    };
    // The shell gives kubectl the payload patchlab shows (after kubectl's
    // YAML re-encoding of a `-p` that is no JSON object: kubectl_safe).
    if body != strategy::kubectl_safe(&plan.body_text()) {
        return Outcome::Disagree(format!("the shell does not give back the body: {body}"));
    }
    let theirs = run_kubectl(kubectl, dir, tag, &pair.old, &kind, &body);
    let ours = patchlab(&pair.old, &kind, &plan.body_text());
    match (&theirs, &ours) {
        (Ok(a), Ok(b)) if go(a) == go(b) => {
            let exact = strategy::round_trip_on(
                &pair.old,
                &pair.new,
                &plan,
                &options.policy,
                Evanphx::V4_12_0,
            ) == RoundTrip::Exact;
            let mut want = pair.new.clone();
            let mut got = a.clone();
            for path in options.policy.server_written() {
                path.delete(&mut want);
                path.delete(&mut got);
            }
            if exact && go(&got) != go(&want) {
                Outcome::Disagree(format!(
                    "patchlab's round trip says old + patch = new, kubectl gives {}",
                    go(a)
                ))
            } else {
                Outcome::Agree
            }
        }
        // kubectl refuses what patchlab refuses: a failed test, or a
        // strategic merge patch to a kind outside its scheme (its words).
        (Err(e), Err(ours)) if kind != "strategic" || e == ours => Outcome::BothRefuse,
        _ => Outcome::Disagree(format!(
            "{command}\n  kubectl:  {}\n  patchlab: {}",
            theirs.map(|v| go(&v)).unwrap_or_else(|e| e),
            ours.map(|v| go(&v)).unwrap_or_else(|e| e)
        )),
    }
}

#[test]
fn every_presets_kubectl_export_runs_in_the_real_kubectl_as_patchlab_says() {
    let Some(kubectl) = kubectl() else {
        eprintln!("\n*** NOTICE: no kubectl at /usr/bin/kubectl or on PATH: every_presets_kubectl_export_runs_in_the_real_kubectl_as_patchlab_says is SKIPPED (install kubectl 1.32) ***\n");
        return;
    };
    let dir = std::env::temp_dir().join(format!("patchlab-exports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pairs: Vec<Pair> = examples().into_iter().chain(scenarios()).collect();
    let cases: Vec<(&Pair, &String, &Options)> = pairs
        .iter()
        .flat_map(|p| p.options.iter().map(move |(name, o)| (p, name, o)))
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 6);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((pair, name, options)) = cases.get(i) else {
                    break;
                };
                let outcome = case(&kubectl, &dir, i, pair, options);
                results.lock().unwrap().push((
                    i,
                    format!("{} under {name}", pair.name),
                    options.policy.preset,
                    outcome,
                ));
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let results = results.into_inner().unwrap();
    let count = |f: &dyn Fn(&Outcome) -> bool| results.iter().filter(|r| f(&r.3)).count();
    let agree = count(&|o| matches!(o, Outcome::Agree));
    let refused = count(&|o| matches!(o, Outcome::BothRefuse));
    let not_runnable = count(&|o| matches!(o, Outcome::NotRunnable));
    let empty = count(&|o| matches!(o, Outcome::Empty));
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(_, what, _, o)| match o {
            Outcome::Disagree(why) => Some(format!("{what}: {why}")),
            _ => None,
        })
        .collect();
    // A strategic merge patch to a custom resource is refused by both in
    // kubectl's words; to a Pod or a Node it merges.
    assert!(results
        .iter()
        .any(|(_, _, p, o)| *p == Preset::Strategic && matches!(o, Outcome::BothRefuse)));
    // Every preset that has a local mode was run somewhere.
    for preset in Preset::EVERY {
        if matches!(preset, Preset::Ssa | Preset::Update) {
            continue;
        }
        assert!(
            results
                .iter()
                .any(|(_, _, p, o)| *p == preset && matches!(o, Outcome::Agree)),
            "preset {preset} was never run through kubectl"
        );
    }
    eprintln!(
        "kubectl exports: {} cases over {} object pairs: {agree} give kubectl's object, {refused} are refused by both, {not_runnable} have no local mode (server-side apply, replace), {empty} send nothing, {} disagree",
        results.len(),
        pairs.len(),
        failures.len()
    );
    assert!(agree >= 150, "only {agree} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
