//! Measures what a mass migration costs, in CPU seconds of this process
//! (robust on a shared machine), for `expected_cost`'s table:
//! `cargo run --example scale_probe -- VMS CHURN RETRIES`.

use patchlab::sim::migrate::{migrate, MigrateOptions};

/// CPU seconds (user and system) this process used so far, from
/// `/proc/self/stat` (Linux); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let [vms, churn, retries] = args[..] else {
        panic!("usage: scale_probe VMS CHURN RETRIES");
    };
    let options = MigrateOptions {
        vms,
        churn,
        retries: retries as u32,
        ..MigrateOptions::default()
    };
    let start = cpu_seconds().unwrap_or(0.0);
    migrate(&options).expect("runs");
    let took = cpu_seconds().unwrap_or(0.0) - start;
    println!("{vms} {churn} {retries} {took:.2}");
}
