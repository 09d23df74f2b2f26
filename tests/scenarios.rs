//! The shipped scenarios (`www/scenarios/`) replayed under each preset:
//! what the issue promises they show.
#![cfg(not(target_arch = "wasm32"))]

use patchlab::sim::outcome::{NotHeld, WriterEnd};
use patchlab::sim::timeline::{replay, ConflictKind, EventKind, IntentVerdict, Replay, Scenario};
use patchlab::strategy::BodyKind;
use patchlab::strategy::Preset;
use serde_json::json;

fn scenario(name: &str) -> Scenario {
    let path = format!("{}/www/scenarios/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(name: &str, preset: Option<Preset>) -> Replay {
    replay(&scenario(name), preset).unwrap()
}

fn writer<'a>(replay: &'a Replay, name: &str) -> &'a patchlab::sim::timeline::WriterOutcome {
    replay
        .outcomes
        .writers
        .iter()
        .find(|w| w.name == name)
        .unwrap()
}

#[test]
fn race_head_fails_for_nothing_and_drops_the_interfaces_update() {
    let r = run("migration-race", Some(Preset::KubevirtMain));
    let step = &r.steps[3];
    assert_eq!(
        (step.writer.as_str(), step.event),
        ("virt-controller", EventKind::Write)
    );
    let response = step.response.as_ref().unwrap();
    assert_eq!(response.code, 422);
    assert_eq!(
        response.message,
        "the server rejected our request due to an error in our request"
    );
    let cause = response.cause.as_ref().unwrap();
    assert_eq!(cause.path.as_deref(), Some("/metadata/labels"));
    assert_eq!(cause.op.as_deref(), Some("test"));
    // No label the controller changes was touched (a needless failure),
    // but its replace of the whole map would have put virt-handler's labels
    // back (a true conflict of the request).
    assert_eq!(step.intent, Some(IntentVerdict::Needless));
    assert_eq!(step.conflict, Some(ConflictKind::True));
    // The whole patch was dropped: the interfaces update did not land.
    assert_eq!(
        step.object["status"]["interfaces"][0]["ipAddress"],
        "10.244.1.7"
    );
    assert!(step.object["status"]["activePods"].get("pod-b").is_none());
    let request = step.request.as_ref().unwrap();
    assert!(request.body.contains(r#""path":"/status/interfaces""#));
    // The retry re-reads and succeeds.
    assert_eq!(r.steps[4].response.as_ref().unwrap().code, 200);
    let controller = writer(&r, "virt-controller");
    assert_eq!(
        (
            controller.counts.invalid,
            controller.counts.needless_failures,
            controller.counts.retries
        ),
        (1, 1, 1)
    );
    assert!(r.outcomes.intents_hold);
}

#[test]
fn race_pr18139_succeeds_first_time() {
    let r = run("migration-race", Some(Preset::KubevirtPerKey));
    let step = &r.steps[3];
    assert_eq!(step.response.as_ref().unwrap().code, 200);
    let body = &step.request.as_ref().unwrap().body;
    assert!(body.contains(r#"{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}"#), "{body}");
    assert!(!body.contains(r#""path":"/metadata/labels","#), "{body}");
    assert_eq!(
        step.object["status"]["interfaces"][0]["ipAddress"],
        "10.244.2.9"
    );
    assert_eq!(writer(&r, "virt-controller").counts.invalid, 0);
    assert!(r.steps[4].summary.contains("nothing to retry"));
    assert!(r.outcomes.intents_hold);
    assert!(r.outcomes.lost_updates.is_empty());
}

#[test]
fn race_naive_erases_virt_handlers_label() {
    let r = run("migration-race", Some(Preset::Naive));
    let step = &r.steps[3];
    assert_eq!(step.response.as_ref().unwrap().code, 200);
    assert_eq!(
        step.object["metadata"]["labels"]["kubevirt.io/nodeName"], "node01",
        "handler's node02 erased"
    );
    assert_eq!(step.lost.len(), 2, "{:?}", step.lost);
    assert!(step
        .lost
        .iter()
        .all(|l| l.victim == "virt-handler" && l.erased_by == "virt-controller"));
    assert!(step
        .lost
        .iter()
        .any(|l| l.path == "/metadata/labels/kubevirt.io~1nodeName"));
    assert_eq!(writer(&r, "virt-handler").counts.lost_updates, 2);
    assert!(!writer(&r, "virt-handler").intent_holds);
    assert!(!r.outcomes.intents_hold);
}

#[test]
fn race_update_writers_get_409() {
    let r = run("migration-race", Some(Preset::Update));
    let response = r.steps[3].response.as_ref().unwrap();
    assert_eq!(response.code, 409);
    assert!(response.message.starts_with(
        "Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"testvmi\""
    ));
    // The stale object would have put virt-handler's labels back.
    assert_eq!(r.steps[3].conflict, Some(ConflictKind::True));
    assert_eq!(r.steps[3].intent, Some(IntentVerdict::Needless));
    assert_eq!(r.steps[3].request.as_ref().unwrap().kind, BodyKind::Update);
    assert_eq!(r.steps[4].response.as_ref().unwrap().code, 200);
    assert!(r.outcomes.intents_hold);
    // Without --preset, each writer keeps its own (the file says head).
    let own = run("migration-race", None);
    assert_eq!(own.outcomes.writers[0].preset, Preset::KubevirtMain);
    assert_eq!(own.outcomes.writers[1].preset, Preset::Update);
}

#[test]
fn finalizer_race() {
    let r = run("finalizer-race", None);
    assert_eq!(r.steps[3].response.as_ref().unwrap().code, 422);
    assert_eq!(r.steps[3].conflict, Some(ConflictKind::True));
    assert_eq!(r.steps[3].intent, Some(IntentVerdict::Needless));
    assert_eq!(r.steps[4].response.as_ref().unwrap().code, 200);
    assert!(r.outcomes.intents_hold);
    assert_eq!(
        r.steps[4].object["metadata"]["finalizers"],
        json!(["backup.example.com/protect"])
    );
    let naive = run("finalizer-race", Some(Preset::Naive));
    assert_eq!(naive.outcomes.lost_updates.len(), 1);
    assert_eq!(naive.outcomes.lost_updates[0].victim, "backup-controller");
    assert!(!naive.outcomes.intents_hold);
}

#[test]
fn migration_state_first_write() {
    let unguarded = run("migration-state-first-write", None);
    assert_eq!(unguarded.steps[3].response.as_ref().unwrap().code, 200);
    assert_eq!(
        unguarded.outcomes.lost_updates.len(),
        2,
        "the add without test erases both fields of the first write"
    );
    assert!(!unguarded.outcomes.intents_hold);
    // The shipped guarded scenario is the same race with each writer on
    // kubevirt-main and no override: KubeVirt's guard, test(null) + add.
    let mut guarded = scenario("migration-state-first-write");
    for w in &mut guarded.writers {
        w.set.clear();
    }
    let shipped = scenario("migration-state-guarded");
    assert_eq!(guarded.writers, shipped.writers);
    assert_eq!(guarded.schedule, shipped.schedule);
    let r = replay(&guarded, None).unwrap();
    let body = &r.steps[3].request.as_ref().unwrap().body;
    assert!(
        body.starts_with(r#"[{"op":"test","path":"/status/migrationState","value":null}"#),
        "{body}"
    );
    assert_eq!(r.steps[3].response.as_ref().unwrap().code, 422);
    assert_eq!(r.steps[3].conflict, Some(ConflictKind::True));
    assert_eq!(r.steps[3].intent, Some(IntentVerdict::Needless));
    assert_eq!(r.steps[4].response.as_ref().unwrap().code, 200);
    assert!(r.outcomes.intents_hold);
    assert!(r.outcomes.lost_updates.is_empty());
}

/// What the scenario texts say of every order (the explorer), checked.
#[test]
fn the_explorer_finds_what_the_texts_say_of_every_order() {
    use patchlab::sim::explore::explore;
    for id in ["finalizer-race", "migration-state-guarded"] {
        let result = explore(&scenario(id), &[Preset::KubevirtMain]).unwrap();
        assert!(
            result.without_retry.is_empty(),
            "{id}: every writer retries"
        );
        let row = &result.presets[0];
        assert_eq!(row.lost_updates.count, 0, "{id}: nothing is lost");
        assert_eq!(row.never_retried.count, 0, "{id}");
        assert_eq!(row.intent_not_held.count, 0, "{id}: both intents hold");
        assert!(
            row.needless_failures.count > 0,
            "{id}: some orders fail though no intent clashes"
        );
    }
    let result = explore(
        &scenario("migration-state-first-write"),
        &[Preset::KubevirtMain],
    )
    .unwrap();
    assert!(result.presets[0].lost_updates.count > 0);
}

#[test]
fn annotation_keys_are_escaped() {
    let r = run("annotation-keys", None);
    let bodies: Vec<&str> = r
        .steps
        .iter()
        .filter_map(|s| s.request.as_ref())
        .map(|s| s.body.as_str())
        .collect();
    assert!(bodies[0].contains("/metadata/annotations/kubevirt.io~1domain"));
    assert!(bodies[1].contains("/metadata/annotations/example.com~1owner~0team"));
    assert!(r.outcomes.intents_hold);
    assert_eq!(r.outcomes.requests(), 2);
    let head = run("annotation-keys", Some(Preset::KubevirtMain));
    assert_eq!(head.outcomes.writers[1].counts.needless_failures, 1);
}

#[test]
fn merge_patch_loses_a_concurrent_finalizer() {
    let r = run("merge-patch-loses-finalizer", None);
    assert_eq!(
        r.steps[3].request.as_ref().unwrap().kind,
        BodyKind::MergePatch
    );
    assert_eq!(r.steps[3].response.as_ref().unwrap().code, 200);
    assert_eq!(r.outcomes.lost_updates.len(), 1);
    assert_eq!(
        r.outcomes.lost_updates[0].intent,
        "add finalizer backup.example.com/protect"
    );
    assert!(!r.outcomes.intents_hold);
}

#[test]
fn ssa_conflict_and_force() {
    let r = run("ssa-conflict", None);
    let conflict = r.steps[3].response.as_ref().unwrap();
    assert_eq!((conflict.code, conflict.reason.as_str()), (409, "Conflict"));
    assert_eq!(
        conflict.conflicts,
        [".metadata.labels.kubevirt.io/nodeName"]
    );
    assert_eq!(
        conflict.message,
        r#"Apply failed with 1 conflict: conflict with "virt-handler" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName"#
    );
    assert_eq!(r.steps[3].conflict, Some(ConflictKind::True));
    let forced = r.steps[5].response.as_ref().unwrap();
    assert_eq!(forced.code, 200);
    assert_eq!(
        r.steps[5].object["metadata"]["labels"]["kubevirt.io/nodeName"],
        "node03"
    );
    // Force on retry: the first apply conflicts with the applier that took
    // the field over, the retry forces.
    let first = r.steps[7].response.as_ref().unwrap();
    assert_eq!(
        first.message,
        r#"Apply failed with 1 conflict: conflict with "placement-controller-force": .metadata.labels.kubevirt.io/nodeName"#
    );
    assert_eq!(r.steps[8].response.as_ref().unwrap().code, 200);
    assert_eq!(
        r.steps[8].object["metadata"]["labels"]["kubevirt.io/nodeName"],
        "node04"
    );
    // An applier applies again: its whole configuration, with force.
    let again = r.steps[9].request.as_ref().unwrap();
    assert_eq!(again.kind, patchlab::strategy::BodyKind::Apply);
    assert!(again.body.contains("node03"), "{}", again.body);
    assert_eq!(r.steps[9].response.as_ref().unwrap().code, 200);
    assert_eq!(
        r.steps[9].object["metadata"]["labels"]["kubevirt.io/nodeName"],
        "node03"
    );
}

/// The applier sends every field it manages: dropping one of its labels
/// deletes only that one, and releasing fields another writer needs is a
/// lost update.
#[test]
fn an_applier_sends_its_whole_configuration() {
    let scenario = Scenario::parse(
        r#"
name: whole configuration
owner: virt-controller
objects:
  - apiVersion: kubevirt.io/v1
    kind: VirtualMachineInstance
    metadata: {name: v, resourceVersion: "1", labels: {a: "1"}}
writers:
  - name: applier
    preset: ssa
    fixed: true
    intents:
      - set-label: {key: a, value: "1"}
      - set-label: {key: b, value: "2"}
      - set-annotation: {key: c, value: "3"}
  - name: applier-2
    preset: ssa
    fixed: true
    intents:
      - remove-label: {key: a}
      - set-label: {key: b, value: "2"}
      - set-annotation: {key: c, value: "3"}
schedule:
  - read: applier
  - write: applier
  - read: applier-2
  - write: applier-2
"#,
    )
    .unwrap();
    let r = replay(&scenario, None).unwrap();
    assert_eq!(r.steps[1].response.as_ref().unwrap().code, 200);
    let after = &r.steps[3].object;
    // applier-2 applies b and c (sharing them) and omits a: a stays, owned
    // by applier; nothing of applier's is deleted.
    assert_eq!(
        after["metadata"]["labels"],
        serde_json::json!({"a": "1", "b": "2"})
    );
    assert_eq!(after["metadata"]["annotations"]["c"], "3");
    assert_eq!(r.outcomes.lost_updates.len(), 0);
    assert!(r.outcomes.writers[0].intent_holds);
    assert!(
        !r.outcomes.writers[1].intent_holds,
        "an applier cannot remove a field another owns"
    );
}

#[test]
fn replays_are_deterministic() {
    for name in ["migration-race", "finalizer-race", "ssa-conflict"] {
        for preset in [None, Some(Preset::KubevirtMain), Some(Preset::Naive)] {
            assert_eq!(run(name, preset), run(name, preset));
        }
    }
}

#[test]
fn bad_scenarios_are_clear_errors() {
    let err = Scenario::parse("name: x\nobjects: []\nwriters: []\nschedule: []\n").unwrap_err();
    assert_eq!(err.to_string(), "a scenario needs at least one object");
    let err = Scenario::parse("name: x\nobjects: [{kind: Pod, metadata: {name: p}}]\nwriters: []\nschedule: [{read: ghost}]\n").unwrap_err();
    assert!(err.to_string().contains("names no writer"), "{err}");
    let err = Scenario::parse("name: x\nobjects: [{kind: Pod, metadata: {name: p}}]\nwriters: [{name: w, preset: best, intents: []}]\nschedule: []\n").unwrap_err();
    assert!(err.to_string().contains("unknown preset"), "{err}");
    let err = Scenario::parse("name: x\nobjects: [{kind: Pod, metadata: {name: p}}]\nwriters: [{name: w, intents: [{paint: {}}]}]\nschedule: []\n").unwrap_err();
    assert!(err.to_string().contains("unknown variant"), "{err}");
    let err = Scenario::parse("name: [").unwrap_err();
    assert!(err.to_string().starts_with("line "), "{err}");
}

/// The same golden numbers the browser test checks in wasm.
#[test]
fn migrate_matches_the_cross_platform_golden_file() {
    let golden: serde_json::Value =
        serde_json::from_str(include_str!("golden/migrate-50-seed-3.json")).unwrap();
    let options = patchlab::sim::migrate::MigrateOptions {
        vms: 50,
        seed: 3,
        ..patchlab::sim::migrate::MigrateOptions::default()
    };
    let result = patchlab::sim::migrate::migrate(&options).unwrap();
    assert_eq!(serde_json::to_value(&result).unwrap(), golden);
}

/// KubeVirt's node labeller (`pkg/virt-handler/node-labeller`, whole-map
/// test + replace of a Node's labels) against the same virt-handler's
/// heartbeat (a strategic merge patch) and node-feature-discovery (per-key
/// JSON patch ops): a false conflict and a retry under the current code,
/// none under per-key ops; the file's own claims hold under each preset
/// they name (the Race library does not list the file yet, so
/// `tests/lessons.rs` does not check them).
#[test]
fn node_labeller_fails_for_nothing_under_whole_map_and_never_per_key() {
    let s = scenario("node-labeller");
    let own = replay(&s, None).unwrap();
    let heartbeat = own.steps[3].request.as_ref().unwrap();
    assert_eq!(heartbeat.kind, BodyKind::StrategicMergePatch);
    assert_eq!(
        heartbeat.body,
        r#"{"metadata":{"annotations":{"kubevirt.io/heartbeat":"2026-08-22T10:01:07Z"},"labels":{"kubevirt.io/schedulable":"true"}}}"#
    );
    let failed = own.steps[5].response.as_ref().unwrap();
    assert_eq!(failed.code, 422);
    assert_eq!(own.steps[5].intent, Some(IntentVerdict::Needless));
    let labeller = writer(&own, "node-labeller");
    assert_eq!(
        (labeller.counts.needless_failures, labeller.counts.retries),
        (1, 1)
    );
    // The retry replaces the whole map it re-read: the heartbeat's and
    // NFD's labels are in it, nothing is lost.
    assert!(own.outcomes.lost_updates.is_empty());
    let labels = &own.steps[6].object["metadata"]["labels"];
    assert_eq!(labels["kubevirt.io/schedulable"], "true");
    assert_eq!(
        labels["feature.node.kubernetes.io/cpu-cpuid.AVX512F"],
        "true"
    );
    assert_eq!(
        labels["cpu-model.node.kubevirt.io/Skylake-Client-IBRS"],
        "true"
    );
    assert!(labels.get("cpu-model.node.kubevirt.io/Haswell").is_none());

    let per_key = replay(&s, Some(Preset::KubevirtPerKey)).unwrap();
    assert_eq!(per_key.steps[5].response.as_ref().unwrap().code, 200);
    assert_eq!(writer(&per_key, "node-labeller").counts.retries, 0);
    // The heartbeat keeps its strategic merge patch under every preset
    // (it is fixed), and a strategic labeller would not fail either.
    let strategic = replay(&s, Some(Preset::Strategic)).unwrap();
    assert_eq!(
        strategic.steps[5].request.as_ref().unwrap().kind,
        BodyKind::StrategicMergePatch
    );
    assert_eq!(strategic.steps[5].response.as_ref().unwrap().code, 200);

    for (preset, claims) in &s.claims {
        let preset = (preset != "own").then(|| preset.parse::<Preset>().unwrap());
        let replay = replay(&s, preset).unwrap();
        let facts = patchlab::app::learn::facts::race(&replay, replay.steps.len());
        let failures = claims.check(&facts);
        assert!(failures.is_empty(), "{preset:?}: {failures:?}");
    }
}

/// An applier applies again after a success, whatever its attempts: when
/// that apply fails, it has not given up (it had a successful write; "gave
/// up" means its attempts ran out without one), its last write was not
/// retried; and a retry scheduled after it does retry.
#[test]
fn an_applier_that_succeeded_and_then_failed_did_not_give_up() {
    let text = |retry: &str| {
        format!(
            r#"
name: applied twice
objects:
  - apiVersion: kubevirt.io/v1
    kind: VirtualMachineInstance
    metadata: {{name: v, resourceVersion: "1"}}
writers:
  - name: team-red
    preset: ssa
    fixed: true
    attempts: 2
    intents:
      - set-label: {{key: team, value: red}}
  - name: team-blue
    preset: ssa
    fixed: true
    force: true
    intents:
      - set-label: {{key: team, value: blue}}
schedule:
  - read: team-red
  - write: team-red
  - read: team-blue
  - write: team-blue
  - read: team-red
  - write: team-red
{retry}"#
        )
    };
    let r = replay(&Scenario::parse(&text("")).unwrap(), None).unwrap();
    let codes: Vec<u16> = r
        .steps
        .iter()
        .filter_map(|s| s.response.as_ref().map(|r| r.code))
        .collect();
    assert_eq!(codes, [200, 200, 409], "{:#?}", r.steps);
    let red = writer(&r, "team-red");
    assert_eq!((red.counts.ok, red.counts.writes), (1, 2));
    assert_eq!(red.counts.gave_up, 0);
    assert_eq!(red.end, WriterEnd::NotRetried { code: 409 });
    assert_eq!(red.not_held, Some(NotHeld::NotRetried { code: 409 }));

    let r = replay(
        &Scenario::parse(&text("  - retry: team-red\n")).unwrap(),
        None,
    )
    .unwrap();
    let last = r.steps.last().unwrap();
    assert!(
        last.summary.starts_with("team-red re-reads and retries"),
        "{}",
        last.summary
    );
    assert_eq!(last.response.as_ref().map(|r| r.code), Some(409));
    let red = writer(&r, "team-red");
    assert_eq!(
        (red.counts.writes, red.counts.retries, red.counts.gave_up),
        (3, 1, 0)
    );
    assert_eq!(red.end, WriterEnd::NotRetried { code: 409 });
}
