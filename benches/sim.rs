//! Criterion benchmarks of the simulator: the mass migration under all
//! presets on the fast path and on the general path (throughput in
//! simulated write requests per second), and the interleaving explorer.
//!
//! Run: `cargo bench --bench sim` (numbers in docs/performance.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use patchlab::sim::explore::explore;
use patchlab::sim::migrate::{migrate, migrate_reference, MigrateOptions, Migration};
use patchlab::sim::timeline::Scenario;

fn requests(options: &MigrateOptions) -> u64 {
    migrate(options)
        .unwrap()
        .presets
        .iter()
        .map(|p| p.total.writes)
        .sum()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("migrate");
    group.sample_size(10);
    for (vms, churn, reference) in [
        (2000, 0, true),
        (10_000, 0, false),
        (100_000, 0, false),
        (10_000, 4, false),
    ] {
        let options = MigrateOptions {
            vms,
            churn,
            ..MigrateOptions::default()
        };
        let mut migration = Migration::new(&options).unwrap();
        while !migration.advance(usize::MAX) {}
        let stats = migration.stats();
        println!(
            "migrate {vms} VMIs, churn {churn}: {} requests, {} server states, {} transitions computed by the general engine, {} looked up",
            requests(&options),
            stats.states,
            stats.transitions,
            stats.lookups
        );
        group.throughput(Throughput::Elements(requests(&options)));
        let name = format!("{vms}-vmis-churn-{churn}-all-presets");
        group.bench_function(format!("fast/{name}"), |b| {
            b.iter(|| migrate(&options).unwrap())
        });
        if reference {
            assert_eq!(
                migrate(&options).unwrap(),
                migrate_reference(&options).unwrap()
            );
            group.bench_function(format!("reference/{name}"), |b| {
                b.iter(|| migrate_reference(&options).unwrap())
            });
        }
    }
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
