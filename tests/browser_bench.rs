//! Browser benchmarks: run in headless Chromium with `make bench-browser`
//! (release build) and print times. They check results but assert no time.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

fn requests(result: &patchlab::sim::migrate::MigrateResult) -> u64 {
    result.presets.iter().map(|p| p.total.writes).sum()
}

/// Ignored in `make test` (a debug build takes minutes); `make bench-browser`
/// runs it on a release build. The fast path cold (its tables of
/// transitions built from nothing, as on a page's first run) and warm (a
/// second run with the same writers, as when the VMI count or the seed
/// changes), and the general path for the before/after ratio.
#[wasm_bindgen_test]
#[ignore]
fn bench_migrate_all_presets() {
    use patchlab::sim::migrate::{migrate_reference, migrate_warm, MigrateOptions, WarmTables};
    let log = |line: String| web_sys::console::log_1(&line.into());
    for vms in [2000, 10_000, 100_000] {
        let options = MigrateOptions {
            vms,
            seed: 1,
            ..MigrateOptions::default()
        };
        let (mut cold, mut warm) = (f64::MAX, f64::MAX);
        let mut first = None;
        for _ in 0..3 {
            let mut warm_tables = WarmTables::default();
            let start = now();
            let result = migrate_warm(&options, &mut warm_tables).expect("runs");
            cold = cold.min(now() - start);
            let start = now();
            let again = migrate_warm(&options, &mut warm_tables).expect("runs");
            warm = warm.min(now() - start);
            assert_eq!(result, again, "deterministic");
            first.get_or_insert(result);
        }
        let n = first.as_ref().map_or(0, requests);
        log(format!(
            "BENCH migrate {vms} VMIs x 7 presets (fast path): cold {cold:.0} ms, warm {warm:.0} ms, {n} requests, {:.0} requests/s warm",
            n as f64 / (warm / 1000.0)
        ));
        if vms == 2000 {
            let start = now();
            let reference = migrate_reference(&options).expect("runs");
            let took = now() - start;
            assert_eq!(Some(&reference), first.as_ref(), "the same numbers");
            log(format!(
                "BENCH migrate {vms} VMIs x 7 presets (general path, as before): {took:.0} ms; fast cold is {:.1}x faster, warm {:.0}x",
                took / cold,
                took / warm
            ));
        }
    }
}

/// A VMI of about `kb` KB as YAML, and a copy with one label added.
fn vmi_pair(kb: usize) -> (String, String) {
    let labels = serde_json::json!({"kubevirt.io/nodeName": "node01"});
    // Each annotation line is about 100 bytes of YAML.
    let annotations: serde_json::Map<String, serde_json::Value> = (0..kb * 1024 / 100)
        .map(|i| {
            (
                format!("example.com/annotation-{i:06}"),
                "x".repeat(60).into(),
            )
        })
        .collect();
    let object = serde_json::json!({
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": "testvmi", "namespace": "default", "labels": labels, "annotations": annotations},
        "status": {"phase": "Running", "interfaces": [{"name": "default", "ipAddress": "10.244.1.7"}]}
    });
    let old = patchlab::input::to_yaml(&object);
    let new = old.replace(
        "    kubevirt.io/nodeName: node01\n",
        "    kubevirt.io/nodeName: node01\n    kubevirt.io/migrationTargetNodeName: node02\n",
    );
    (old, new)
}

fn time_edit(kb: usize, runs: usize) -> (f64, f64) {
    use patchlab::app::build::{BuildAction, BuildState};
    use patchlab::app::view_state::ViewState;
    let (old, new) = vmi_pair(kb);
    let mut state = BuildState::default()
        .reduce(BuildAction::EditOld(old.into()))
        .reduce(BuildAction::EditNew(new.as_str().into()));
    state.recompute();
    assert!(!state.stale());
    let mut times = Vec::with_capacity(runs);
    for run in 0..runs {
        // Each edit changes the text, as typing does.
        let text = format!("{new}# edit {run}\n");
        let start = now();
        let mut next = state.reduce(BuildAction::EditNew(text.into()));
        next.recompute();
        times.push(now() - start);
        assert!(!next.stale());
    }
    times.sort_by(f64::total_cmp);
    (times[runs / 2], times[runs - 1])
}

/// Recomputing after an edit: parse the edited editor, diff for each column,
/// check the round trip. Not the rendering.
#[wasm_bindgen_test]
#[ignore]
fn bench_build_recompute() {
    for (kb, runs) in [(10, 41), (1024, 5)] {
        let (median, worst) = time_edit(kb, runs);
        let bytes = vmi_pair(kb).0.len();
        web_sys::console::log_1(
            &format!(
                "BENCH build recompute, {bytes} bytes of YAML per editor, 2 columns: median {median:.1} ms, worst {worst:.1} ms"
            )
            .into(),
        );
    }
}
