//! `patchlab scan` speed: the corpus of controller shapes (tests/scan), and
//! a package of 1,000 copies of it (the KubeVirt `pkg/` goal is 5,000 files
//! in under 10 s on 2 cores; docs/scan.md has the measured runs).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scan");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("tests/scan")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "go"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).expect("readable");
            (e.path().display().to_string(), text)
        })
        .collect();
    files.sort();
    files
}

fn scan(c: &mut Criterion) {
    let files = corpus();
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let mut group = c.benchmark_group("scan");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("corpus", |b| {
        b.iter(|| {
            let mut findings = 0;
            for (name, text) in &files {
                let (f, _) = patchlab::scan::scan_source(name, text).expect("parses");
                findings += f.len();
            }
            findings
        })
    });
    // One big package: 1,000 files (each corpus file renamed), as one
    // thread sees them.
    let many: Vec<(String, String)> = (0..1000)
        .map(|i| {
            let (name, text) = &files[i % files.len()];
            (format!("{i}-{name}"), text.clone())
        })
        .collect();
    let many_bytes: usize = many.iter().map(|(_, t)| t.len()).sum();
    group.throughput(Throughput::Bytes(many_bytes as u64));
    group.sample_size(10);
    group.bench_function("1000-files-one-thread", |b| {
        b.iter(|| patchlab::scan::scan_files(&many).findings.len())
    });
    group.finish();
}

criterion_group!(benches, scan);
criterion_main!(benches);
