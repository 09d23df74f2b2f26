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
use patchlab::sim::timeline::replay;
use patchlab::strategy::Preset;
use serde_json::Value;

/// The facts of what a step opens.
fn facts_of(open: &Open) -> Result<Value, String> {
    if let Some(link) = open.build_link() {
        return Ok(facts::build(&BuildState::from_link(link)));
    }
    if let Some(link) = open.race_link() {
        let state = RaceState::open(link).map_err(|e| e.to_string())?;
        let replay = state.replay.as_ref().as_ref().map_err(|e| e.to_string())?;
        return Ok(facts::race(replay, state.step));
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
        let state = BuildState::from_link(BuildLink::example(example.id, None).unwrap());
        let what = format!("example {}", example.id);
        check(&what, &example.claims, &facts::build(&state), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_race_scenario_shows_what_its_description_says() {
    let mut failures = Vec::new();
    for (id, scenario) in library() {
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
        serde_json::json!({"race": "migration-race", "preset": "kubevirt-pr18139", "step": 4}),
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
        let state = BuildState::from_link(BuildLink::example(example.id, None).unwrap());
        println!("== example {}\n{}", example.id, trim(facts::build(&state)));
    }
    for (id, scenario) in library() {
        for preset in [
            None,
            Some(Preset::KubevirtHead),
            Some(Preset::KubevirtPr18139),
            Some(Preset::Naive),
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
