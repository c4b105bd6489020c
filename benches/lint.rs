//! The whole check of `pdnkit lint` on one thread: reading, tags, replay, draw rules,
//! diagnostics, on 4 MB of games from the generator (`pdnkit_gen::Generator`, seed 1).
//! Reports MB/s; `bench/run.sh` measures the command itself against `wc -l`.
//!
//! Beside it, in the same run and on the same games, the rules alone: every main-line move,
//! read beforehand, resolved and played from the start position, with nothing else (no
//! reading, no draw rules, no variations, no diagnostics). What `lint` spends beyond that is
//! the cost of reading and of the checks around the rules.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pdnkit::check::CheckOptions;
use pdnkit::pdn::{RawTag, Reader, ReaderOptions, Skip, Span, Visitor};
use pdnkit::rules::Position;
use pdnkit::rules::notation::{Resolution, resolve_token};
use pdnkit::run::check_reader;
use pdnkit_gen::Generator;

/// The main-line move tokens of a game, back to back in `text`, each ending where `ends`
/// says (one allocation per game, so that the replay does not chase a pointer per move).
#[derive(Default)]
struct Moves {
    text: String,
    ends: Vec<usize>,
}

/// Collects the [`Moves`] of a game that starts from the start position (`None` for a
/// game with a setup).
#[derive(Default)]
struct MainLine {
    moves: Moves,
    setup: bool,
}

impl Visitor for MainLine {
    type Output = Option<Moves>;
    fn begin_game(&mut self) {
        *self = MainLine::default();
    }
    fn tag(&mut self, tag: RawTag<'_>) {
        self.setup |= tag.name.eq_ignore_ascii_case("FEN");
    }
    fn mv(&mut self, text: &str, _span: Span) {
        self.moves.text.push_str(text);
        self.moves.ends.push(self.moves.text.len());
    }
    fn begin_variation(&mut self, _span: Span) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) -> Self::Output {
        (!self.setup).then(|| std::mem::take(&mut self.moves))
    }
}

/// Resolves and plays `moves` from the start position; returns the plies played (a game
/// stops at its first move that is not the unique legal move named).
fn replay(moves: &Moves) -> usize {
    let mut pos = Position::start();
    let mut start = 0;
    for (ply, &end) in moves.ends.iter().enumerate() {
        match resolve_token(&pos, &moves.text[start..end], None, None).map(|r| r.resolution) {
            Ok(Resolution::Unique { mv, .. }) => pos.play_unchecked(&mv),
            _ => return ply,
        }
        start = end;
    }
    moves.ends.len()
}

fn bench(c: &mut Criterion) {
    let mut text = Vec::new();
    Generator::new(1).write_bytes(&mut text, 4_000_000).unwrap();
    let mut reader = Reader::new(&text[..], ReaderOptions::default()).unwrap();
    let mut games: Vec<Moves> = Vec::new();
    while let Some(item) = reader.read_game(&mut MainLine::default()) {
        games.extend(item.ok().flatten());
    }
    let mut group = c.benchmark_group("lint");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("check_reader (1 thread)", |b| {
        b.iter(|| check_reader("bench.pdn", &text[..], &CheckOptions::default()).games)
    });
    group.bench_function("rules alone (main lines read beforehand)", |b| {
        b.iter(|| games.iter().map(|g| replay(black_box(g))).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
