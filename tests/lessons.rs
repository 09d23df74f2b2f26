//! Lessons cannot lie: every walkthrough step, Build example and Race
//! scenario declares, as claims, what its text says the live state shows;
//! this replays each one with the real engine and checks every claim.
//! A failure names the walkthrough, the step and the claim.
#![cfg(not(target_arch = "wasm32"))]

use patchlab::app::build::{examples, BuildLink, BuildState};
use patchlab::app::learn::{facts, walkthroughs, Open};
use patchlab::app::race::{library, RaceState};
use patchlab::claims::Claims;
use patchlab::sim::migrate::{migrate, MigrateOptions};
use patchlab::sim::timeline::{replay, Scenario};
use patchlab::strategy::Preset;
use serde_json::Value;

/// The Race menu's scenarios read from their files, with their claims
/// (the playground's compiled copy has none: only tests read them).
fn shipped_scenarios() -> Vec<(&'static str, Scenario)> {
    library()
        .iter()
        .map(|(id, _)| {
            let path = format!("{}/www/scenarios/{id}.yaml", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            (
                *id,
                Scenario::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}")),
            )
        })
        .collect()
}

/// The facts of what a step opens.
fn facts_of(open: &Open) -> Result<Value, String> {
    if let Some(link) = open.build_link() {
        return Ok(facts::build(&BuildState::computed(link)));
    }
    if let Some(link) = open.race_link() {
        let state = RaceState::open(link).map_err(|e| e.to_string())?;
        let replay = state.replay_here().map_err(|e| e.to_string())?;
        return Ok(facts::race(&replay, state.step));
    }
    if let Some(link) = open.scale_link() {
        let result = migrate(&MigrateOptions {
            vms: link.vms,
            seed: link.seed,
            ..MigrateOptions::default()
        })
        .map_err(|e| e.to_string())?;
        return Ok(facts::scale(&result));
    }
    Err("it opens nothing".into())
}

fn check(what: &str, claims: &Claims, facts: &Value, failures: &mut Vec<String>) {
    if claims.is_empty() {
        failures.push(format!("{what}: states outcomes but declares no claims"));
    }
    for failure in claims.check(facts) {
        failures.push(format!("{what}: {failure}"));
    }
}

#[test]
fn every_walkthrough_step_shows_what_its_text_says() {
    let mut failures = Vec::new();
    let mut steps = 0;
    for w in walkthroughs() {
        assert!(w.goal.ends_with('.'), "{}: the goal is a sentence", w.id);
        for (i, step) in w.steps.iter().enumerate() {
            steps += 1;
            let what = format!("walkthrough {}, step {} ({:?})", w.id, i + 1, step.title);
            match facts_of(&step.open) {
                Ok(facts) => check(&what, &step.claims, &facts, &mut failures),
                Err(why) => failures.push(format!("{what}: {why}")),
            }
        }
    }
    assert!(steps >= 30, "{steps} steps");
    assert!(
        failures.is_empty(),
        "{} claims fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_build_example_shows_what_its_description_says() {
    let mut failures = Vec::new();
    for example in examples() {
        let state = BuildState::computed(BuildLink::example(example.id, None).unwrap());
        let what = format!("example {}", example.id);
        check(
            &what,
            &example.claims(),
            &facts::build(&state),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_race_scenario_shows_what_its_description_says() {
    let mut failures = Vec::new();
    for (id, scenario) in &shipped_scenarios() {
        if scenario.claims.is_empty() {
            failures.push(format!(
                "scenario {id}: states outcomes but declares no claims"
            ));
        }
        for (preset, claims) in &scenario.claims {
            let what = format!("scenario {id} under {preset}");
            let preset = match preset.as_str() {
                "own" => None,
                name => match name.parse::<Preset>() {
                    Ok(p) => Some(p),
                    Err(e) => {
                        failures.push(format!("{what}: {e}"));
                        continue;
                    }
                },
            };
            match replay(scenario, preset) {
                Ok(replay) => {
                    let facts = facts::race(&replay, replay.steps.len());
                    check(&what, claims, &facts, &mut failures);
                }
                Err(e) => failures.push(format!("{what}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The test itself can fail: a wrong claim is caught and named.
#[test]
fn a_false_claim_is_caught_and_named() {
    let open: Open = serde_json::from_value(
        serde_json::json!({"race": "migration-race", "preset": "kubevirt-per-key", "step": 4}),
    )
    .unwrap();
    let claims: Claims =
        serde_json::from_value(serde_json::json!({"/current/status": 422})).unwrap();
    let mut failures = Vec::new();
    check("a lie", &claims, &facts_of(&open).unwrap(), &mut failures);
    assert_eq!(
        failures,
        ["a lie: /current/status: expected 422, found 200"]
    );
}

/// For lesson authors: prints the facts of every step, example and
/// scenario, to write claims against
/// (`cargo test --test lessons -- --ignored --nocapture print_facts`).
#[test]
#[ignore]
fn print_facts() {
    let trim = |mut facts: Value| {
        // The objects are long; the claims rarely need more than a field.
        if let Some(steps) = facts.get_mut("steps").and_then(Value::as_array_mut) {
            for step in steps {
                step.as_object_mut().map(|s| s.remove("object"));
            }
        }
        if let Some(columns) = facts.get_mut("columns").and_then(Value::as_array_mut) {
            for column in columns {
                column.as_object_mut().map(|c| c.remove("payload"));
            }
        }
        facts
    };
    for w in walkthroughs() {
        for (i, step) in w.steps.iter().enumerate() {
            if let Ok(facts) = facts_of(&step.open) {
                println!(
                    "== {} step {}: {}\n{}",
                    w.id,
                    i + 1,
                    step.title,
                    trim(facts)
                );
            }
        }
    }
    for example in examples() {
        let state = BuildState::computed(BuildLink::example(example.id, None).unwrap());
        println!("== example {}\n{}", example.id, trim(facts::build(&state)));
    }
    for (id, scenario) in library() {
        for preset in [
            None,
            Some(Preset::KubevirtMain),
            Some(Preset::KubevirtPerKey),
            Some(Preset::Naive),
            Some(Preset::Ssa),
        ] {
            if let Ok(replay) = replay(scenario, preset) {
                let label = preset.map_or("own".to_owned(), |p| p.to_string());
                println!(
                    "== scenario {id} under {label}\n{}",
                    trim(facts::race(&replay, replay.steps.len()))
                );
            }
        }
    }
}

/// The verdict words a text may use and the facts that decide each: a
/// text that uses one must claim those facts, so the replay checks the
/// word against its definition (src/vocabulary.rs). (`phrase`, pointers
/// one of which a claim must end with.)
const VERDICTS: [(&str, &[&str]); 25] = [
    // What a column or a request sends, checked on its ops.
    ("narrower", &["narrower_than"]),
    ("as safe", &["as_safe_as"]),
    ("guard", &["guarded", "/tests", "/sent", "/ops"]),
    (" safe", &["as_safe_as", "guarded", "overwrites"]),
    ("false conflict", &["false_conflicts", "/conflict"]),
    ("true conflict", &["true_conflicts", "/conflict"]),
    ("needless failure", &["needless_failures", "/intent"]),
    ("clashing intent", &["/intent", "/clashes"]),
    ("failure kept", &["/kept", "true_conflicts"]),
    ("lost update", &["lost_updates", "/lost", "not_held/reason"]),
    ("nothing is lost", &["lost_updates", "/lost"]),
    ("is lost", &["lost_updates", "/lost"]),
    ("erases", &["lost_updates", "/lost", "not_held/reason"]),
    ("erased", &["lost_updates", "/lost", "not_held/reason"]),
    ("deliberate overwrite", &["not_held/reason", "lost_updates"]),
    ("intent holds", &["intent_holds", "intents_hold"]),
    ("intents hold", &["intent_holds", "intents_hold"]),
    (
        "no longer holds",
        &["intent_holds", "intents_hold", "not_held/reason"],
    ),
    (
        "does not hold",
        &["intent_holds", "intents_hold", "not_held/reason"],
    ),
    ("gives up", &["gave_up", "not_held/reason"]),
    ("gave up", &["gave_up", "not_held/reason"]),
    ("never retried", &["not_held/reason", "/end/state"]),
    ("not retried", &["not_held/reason", "/end/state"]),
    ("no retry", &["not_held/reason", "/end/state"]),
    ("never wrote", &["not_held/reason", "/end/state"]),
];

/// The verdict words of `text` its `claims` do not speak to.
fn unclaimed_verdicts(text: &str, claims: &Claims) -> Vec<&'static str> {
    let text = text.to_lowercase();
    let pointers: Vec<String> = serde_json::to_value(claims)
        .ok()
        .and_then(|v| v.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    VERDICTS
        .iter()
        .filter(|(phrase, _)| text.contains(phrase))
        .filter(|(_, facts)| {
            !pointers
                .iter()
                .any(|p| facts.iter().any(|f| p.ends_with(f)))
        })
        .map(|(phrase, _)| *phrase)
        .collect()
}

/// A lesson that says "false conflict", "lost update", "nothing is lost",
/// "intent holds", ... claims the facts that decide it, so a replay that
/// shows otherwise fails `every_walkthrough_step_shows_what_its_text_says`
/// or `every_race_scenario_shows_what_its_description_says`.
#[test]
fn every_verdict_word_in_a_lesson_is_claimed() {
    let mut failures = Vec::new();
    for w in walkthroughs() {
        for (i, step) in w.steps.iter().enumerate() {
            for phrase in unclaimed_verdicts(&step.text, &step.claims) {
                failures.push(format!(
                    "walkthrough {}, step {} ({:?}) says {phrase:?} but claims nothing that decides it",
                    w.id,
                    i + 1,
                    step.title
                ));
            }
        }
    }
    for (id, scenario) in &shipped_scenarios() {
        // A description may speak of the scenario under several presets:
        // some preset's claims must decide each word.
        let words: Vec<&str> = VERDICTS
            .iter()
            .map(|(p, _)| *p)
            .filter(|phrase| {
                scenario.claims.values().all(|claims| {
                    unclaimed_verdicts(&scenario.description, claims).contains(phrase)
                })
            })
            .collect();
        for phrase in words {
            failures.push(format!(
                "scenario {id} says {phrase:?} but no preset's claims decide it"
            ));
        }
    }
    for example in examples() {
        for phrase in unclaimed_verdicts(&example.description, &example.claims()) {
            if matches!(phrase, "false conflict" | "true conflict" | "lost update") {
                failures.push(format!(
                    "example {} says {phrase:?}: a Build example shows ops, not replays; link to a Race scenario that claims it",
                    example.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The check itself can fail.
#[test]
fn an_unclaimed_verdict_is_caught() {
    let claims: Claims =
        serde_json::from_value(serde_json::json!({"/current/status": 422})).unwrap();
    assert_eq!(
        unclaimed_verdicts("A false conflict: nothing is lost.", &claims),
        ["false conflict", "nothing is lost", "is lost"]
    );
    let claims: Claims = serde_json::from_value(
        serde_json::json!({"/current/conflict": "false", "/lost_updates": 0}),
    )
    .unwrap();
    assert!(unclaimed_verdicts("A false conflict: nothing is lost.", &claims).is_empty());
    // Why an intent does not hold is a word too.
    let text = "Its write was never retried, so its intent does not hold.";
    assert_eq!(
        unclaimed_verdicts(text, &claims),
        ["does not hold", "never retried"]
    );
    let claims: Claims = serde_json::from_value(
        serde_json::json!({"/writers/backup-controller/not_held/reason": "not-retried"}),
    )
    .unwrap();
    assert!(unclaimed_verdicts(text, &claims).is_empty());
}
