//! Scale's estimate of how long a run takes comes from the measured cost
//! of the simulator (`patchlab::sim::migrate::expected_cost`): here it is
//! checked against real runs, in the same test. Times are the CPU time of
//! this thread (Linux; wall time elsewhere), so other work on a busy
//! machine does not count; the yardstick is measured here too, not taken
//! from a constant. From the time of the default run (what the playground
//! measures first), the estimate of each setting, heavy churn included, is
//! within a factor of 2 of its run.

#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

use patchlab::sim::migrate::{expected_cost, migrate, MigrateOptions};

/// CPU seconds this thread used so far (`/proc/thread-self/stat`, in
/// clock ticks of 10 ms); `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Seconds of `repeat` runs in a row, in CPU time where it can be read.
fn seconds(options: &MigrateOptions, repeat: usize) -> f64 {
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    for _ in 0..repeat {
        migrate(options).expect("runs");
    }
    match (cpu, cpu_seconds()) {
        (Some(start), Some(end)) => end - start,
        _ => wall.elapsed().as_secs_f64(),
    }
}

/// Seconds of a run (the median of `times`; a short run is timed over
/// repeats, the clock ticking in 10 ms).
fn timed(options: &MigrateOptions, times: usize) -> f64 {
    let repeat = if options.churn == 0 { 10 } else { 1 };
    let mut runs: Vec<f64> = (0..times)
        .map(|_| seconds(options, repeat) / repeat as f64)
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

#[test]
fn the_estimate_is_within_a_factor_of_2_of_the_run() {
    let default = MigrateOptions::default();
    let yardstick = timed(&default, 5);
    let per_cost = yardstick / expected_cost(&default);
    let mut report = Vec::new();
    for (vms, churn, retries) in [(2000, 2, 2), (1000, 4, 8), (400, 6, 0), (300, 8, 2)] {
        let options = MigrateOptions {
            vms,
            churn,
            retries,
            ..MigrateOptions::default()
        };
        let estimate = expected_cost(&options) * per_cost;
        let took = timed(&options, 1);
        let ratio = took / estimate;
        report.push(format!(
            "{vms} VMIs, churn {churn}, retries {retries}: estimated {estimate:.2} s, took {took:.2} s ({ratio:.2}x)"
        ));
        assert!(
            (0.5..=2.0).contains(&ratio),
            "the default run took {yardstick:.3} s\n{}",
            report.join("\n")
        );
    }
    println!("default run: {yardstick:.3} s\n{}", report.join("\n"));
}
