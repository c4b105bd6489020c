//! The reader alone: bytes -> games, no replay.
//!
//! Input: a few MB of PDN generated in memory, by repeating `abatsiev.pdn` from the shared
//! corpus when it is there, else a built-in sample game. Reports throughput (MB/s) of the
//! reader through a counting visitor, and through the `Game` tree builder.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pdnkit::pdn::{GameBuilder, MoveCount, Reader, ReaderOptions, Visitor};

const SAMPLE: &str = r#"[Event "Чемпионат СССР"]
[Site "Москва"]
[Date "1965.01.01"]
[Round "1"]
[White "Абаулин В."]
[Black "Абациев Э."]
[Result "1-0"]

1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6 4. d4-c5 b6xd4 5. e3xc5 c7-b6 {a comment}
6. d2-e3 b6xd4 7. e3xc5 d8-c7 8. b4-a5 d6xb4 9. a5xc3 a7-b6 (9... h8-g7 10. c3-b4) 10. c3-b4 e7-d6
11. b4-a5 h8-g7 12. a1-b2 h6-g5 13. a3-b4 b6-c5! 14. b2-a3 c5-d4 $1 15. c1-d2 f8-e7 1-0

"#;

fn input(target: usize) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus/russian/abatsiev.pdn"
    );
    let unit = std::fs::read_to_string(path).unwrap_or_else(|_| SAMPLE.to_string());
    let mut s = String::with_capacity(target + unit.len());
    while s.len() < target {
        s.push_str(&unit);
        s.push_str("\r\n");
    }
    s
}

/// What `visitor` makes of every game of `text`.
fn read_all<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut reader = Reader::new(text.as_bytes(), ReaderOptions::default()).unwrap();
    let mut out = Vec::new();
    while let Some(item) = reader.read_game(visitor) {
        out.extend(item.ok());
    }
    out
}

fn bench(c: &mut Criterion) {
    let text = input(8 << 20);
    let mut group = c.benchmark_group("reader");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    group.bench_function("visitor", |b| {
        b.iter(|| {
            read_all(&text, &mut MoveCount::default())
                .into_iter()
                .sum::<usize>()
        })
    });
    group.bench_function("game-tree", |b| {
        b.iter(|| {
            read_all(&text, &mut GameBuilder::default())
                .into_iter()
                .map(|g| black_box(g).ply_count())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
