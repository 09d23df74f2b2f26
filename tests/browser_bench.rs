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

/// Ignored in `make test` (a debug build takes minutes); `make bench-browser`
/// runs it on a release build.
#[wasm_bindgen_test]
#[ignore]
fn bench_migrate_2000_vmis_all_presets() {
    let options = patchlab::sim::migrate::MigrateOptions {
        vms: 2000,
        seed: 1,
        ..patchlab::sim::migrate::MigrateOptions::default()
    };
    // Warm up once, then take the best of three.
    let warm = patchlab::sim::migrate::migrate(&options).expect("runs");
    let requests: u64 = warm.presets.iter().map(|p| p.total.writes).sum();
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = now();
        let result = patchlab::sim::migrate::migrate(&options).expect("runs");
        best = best.min(now() - start);
        assert_eq!(result, warm, "deterministic");
    }
    web_sys::console::log_1(
        &format!(
            "BENCH migrate 2000 VMIs x 7 presets: {best:.0} ms, {requests} requests, {:.0} requests/s",
            requests as f64 / (best / 1000.0)
        )
        .into(),
    );
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
    let (old, new) = vmi_pair(kb);
    let state = BuildState::default()
        .reduce(BuildAction::EditOld(old))
        .reduce(BuildAction::EditNew(new.clone()))
        .reduce(BuildAction::Recompute);
    assert!(!state.stale());
    let mut times = Vec::with_capacity(runs);
    for run in 0..runs {
        // Each edit changes the text, as typing does.
        let text = format!("{new}# edit {run}\n");
        let start = now();
        let next = state
            .reduce(BuildAction::EditNew(text))
            .reduce(BuildAction::Recompute);
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
