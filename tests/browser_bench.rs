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
        presets: Vec::new(),
    };
    // Warm up once, then take the best of three.
    let warm = patchlab::sim::migrate::migrate(&options).expect("runs");
    let requests: u64 = warm.presets.iter().map(|p| p.requests).sum();
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
