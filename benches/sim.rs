//! Criterion benchmarks of the simulator: the 2000-VMI mass migration under
//! all presets (throughput in simulated write requests per second) and the
//! interleaving explorer.
//!
//! Run: `cargo bench --bench sim` (numbers in docs/performance.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use patchlab::sim::explore::explore;
use patchlab::sim::migrate::{migrate, MigrateOptions};
use patchlab::sim::timeline::Scenario;

fn benches(c: &mut Criterion) {
    let options = MigrateOptions {
        vms: 2000,
        seed: 1,
        presets: Vec::new(),
    };
    let requests: u64 = migrate(&options)
        .unwrap()
        .presets
        .iter()
        .map(|p| p.total.writes)
        .sum();
    let mut group = c.benchmark_group("migrate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(requests));
    group.bench_function("2000-vmis-all-presets", |b| {
        b.iter(|| migrate(&options).unwrap())
    });
    group.finish();

    let scenario = Scenario::parse(include_str!("../www/scenarios/migration-race.yaml")).unwrap();
    let mut group = c.benchmark_group("explore");
    group.bench_function("migration-race-all-presets", |b| {
        b.iter(|| explore(&scenario, &[]).unwrap())
    });
    group.finish();
}

criterion_group!(sim_benches, benches);
criterion_main!(sim_benches);
