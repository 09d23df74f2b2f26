//! The KubeVirt presets were renamed for what they are (`kubevirt-head` is
//! now `kubevirt-main`, KubeVirt's code today; `kubevirt-pr18139` is
//! `kubevirt-per-key`, PR #18139's change). Links, saved states and scenario
//! files written with the old names still open, as the renamed presets, and
//! only the new names are written back.
#![cfg(not(target_arch = "wasm32"))]

use patchlab::app::build::{BuildLink, BuildState};
use patchlab::app::learn::{facts, Open};
use patchlab::app::link::{decode, decode_stored};
use patchlab::app::race::{RaceLink, RaceState};
use patchlab::app::view_state::ViewState;
use patchlab::share::pack;
use patchlab::sim::timeline::{replay, Scenario};
use patchlab::strategy::Preset;
use serde_json::json;

#[test]
fn an_old_race_link_opens_under_the_renamed_preset() {
    let old = json!({"id": "migration-race", "preset": "kubevirt-head", "step": 4});
    let link: RaceLink = decode(&pack(&old)).unwrap();
    assert_eq!(link.preset, Some(Preset::KubevirtMain));
    let state = RaceState::open(link).unwrap().replayed_here();
    let replayed = state.replay().unwrap().as_ref().unwrap();
    assert_eq!(replayed.steps[3].response.as_ref().unwrap().code, 422);
    let written = serde_json::to_string(&state.link()).unwrap();
    assert!(written.contains(r#""preset":"kubevirt-main""#), "{written}");
    assert!(!written.contains("kubevirt-head"), "{written}");
    // A state saved by an earlier version, as JSON text.
    let saved: RaceLink =
        decode_stored(r#"{"id":"per-key-limits","preset":"kubevirt-pr18139","step":2}"#).unwrap();
    assert_eq!(saved.preset, Some(Preset::KubevirtPerKey));
}

#[test]
fn an_old_build_link_opens_with_the_renamed_columns() {
    let example = BuildLink::example("migration-race", None).unwrap();
    let mut old = serde_json::to_value(&example).unwrap();
    old["columns"] = json!([{"preset": "kubevirt-head"}, {"preset": "kubevirt-pr18139"}]);
    let link: BuildLink = decode(&pack(&old)).unwrap();
    let columns: Vec<Preset> = link.columns.iter().map(|c| c.preset).collect();
    assert_eq!(columns, [Preset::KubevirtMain, Preset::KubevirtPerKey]);
    let shown = facts::build(&BuildState::computed(link));
    assert_eq!(shown["columns"][0]["preset"], "kubevirt-main");
    assert_eq!(shown["columns"][1]["preset"], "kubevirt-per-key");
}

#[test]
fn old_names_in_scenario_files_and_lessons_still_read() {
    let text = include_str!("../www/scenarios/per-key-last-writer.yaml")
        .replace("preset: kubevirt-per-key", "preset: kubevirt-pr18139");
    assert!(text.contains("kubevirt-pr18139"));
    let scenario = Scenario::parse(&text).unwrap();
    assert_eq!(scenario.writers[0].preset, Preset::KubevirtPerKey);
    let replayed = replay(&scenario, None).unwrap();
    assert_eq!(replayed.outcomes.writers[0].preset, Preset::KubevirtPerKey);
    let written = serde_json::to_string(&scenario).unwrap();
    assert!(
        written.contains(r#""preset":"kubevirt-per-key""#),
        "{written}"
    );
    let open: Open = serde_json::from_value(
        json!({"race": "migration-race", "preset": "kubevirt-head", "step": 4}),
    )
    .unwrap();
    assert_eq!(open.race_link().unwrap().preset, Some(Preset::KubevirtMain));
}
