//! The whole check of `pdnkit lint` on one thread: split, parse, tags, replay, draw rules,
//! diagnostics, on 4 MB of games from the generator (`pdnkit generate`, seed 1).
//! Reports MB/s; `bench/run.sh` measures the command itself against `wc -l`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pdnkit::check::{CheckOptions, check_reader};
use pdnkit::generate::Generator;

fn bench(c: &mut Criterion) {
    let mut text = Vec::new();
    Generator::new(1).write_bytes(&mut text, 4_000_000).unwrap();
    let mut group = c.benchmark_group("lint");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("check_reader (1 thread)", |b| {
        b.iter(|| check_reader("bench.pdn", &text[..], &CheckOptions::default()).games)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
