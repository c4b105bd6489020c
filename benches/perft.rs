//! perft from the start position: the move generator's benchmark.
//! `cargo bench --bench perft`; for a one-shot perft(10) timing use
//! `cargo run --release --example perft -- 10`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pdnkit::rules::{Position, Variant, VariantPosition, perft::perft};

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft");
    for depth in [4u32, 6, 8] {
        group.bench_function(format!("start/{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    // A middlegame with kings and captures (case 11 of rules-cases, plus men).
    let mid: Position =
        Position::from_setup(&"W:W18,19,23,24,26,K30:B6,7,8,11,K20".parse().unwrap()).unwrap();
    group.bench_function("kings/5", |b| b.iter(|| perft(black_box(&mid), 5)));
    // the general generator: International (10×10, the most pieces), and Russian by it
    for variant in [Variant::International, Variant::Russian] {
        let start = VariantPosition::start(variant);
        group.bench_function(format!("{variant}/6"), |b| {
            b.iter(|| perft(black_box(&start), 6))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
