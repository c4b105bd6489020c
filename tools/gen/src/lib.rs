//! pdnkit's development tools, not part of the product: a generator of random, legal
//! Russian draughts games for benchmarks and tests, with the small pseudo-random generator
//! the tests draw from, and the binaries `pdnkit-generate` (games to files) and
//! `pdnkit-read` (the reader alone, timed by `bench/run.sh`).
//!
//! [`Generator`] writes games that `pdnkit lint` replays without errors, deterministically
//! for a given seed (the same seed gives the same bytes on every machine): each game is
//! played from the start position by choosing among the legal moves with a small
//! pseudo-random generator ([`SplitMix64`]), with shapes like real archives:
//!
//! - 40 to 120 plies, with every capture the rules force (multi-captures, flying kings,
//!   promotions in the middle of a capture happen as they come);
//! - promotions are preferred when available, so king endings are common;
//! - about one game in six is played on past its planned length until a draw rule of the
//!   `russia` edition ends it (most often 6.1.8.6 or 6.1.8.3 in king endings) or a side
//!   cannot move, and is recorded `1/2-1/2` or as a win;
//! - other games end with a win when a side is clearly ahead in material, else a draw
//!   by agreement (after 20 moves each) or `*`;
//! - algebraic (`c3-d4`, `c3:e5:g7`) and numeric (`22-17`, `22x13`) notation, captures
//!   written short where unambiguous (PDN 3.0's minimal form) or in full;
//! - a comment or a one-move variation here and there, a `GameType` tag in some games.
//!
//! ```
//! use pdnkit_gen::Generator;
//! let mut out = Vec::new();
//! Generator::new(7).write_games(&mut out, 3).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text.matches("[Event ").count(), 3);
//! ```

mod slips;

pub use slips::{SlipKind, Slipped, Tally, measure, slipped};

use pdnkit::Color;
use pdnkit::draw::{DrawEventKind, DrawTracker, Edition};
use pdnkit::replay::{draw_view, ply_facts};
use pdnkit::rules::notation::{
    CaptureSeparator, CaptureStyle, Resolution, SquareStyle, Style, format_move, resolve_token,
};
use pdnkit::rules::{Move, Position};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The SplitMix64 pseudo-random generator: tiny, fast and the same everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        // Lemire's multiply-shift; the tiny bias is irrelevant here.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// A random index below `len` (0 when `len` is 0): for picking in slices and buffers.
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A copy of `bytes` (not empty) with `changes` random bytes replaced by random bytes
    /// of `alphabet`: the copying errors the robustness tests feed the reader.
    pub fn corrupted(&mut self, bytes: &[u8], changes: usize, alphabet: &[u8]) -> Vec<u8> {
        let mut copy = bytes.to_vec();
        for _ in 0..changes {
            let at = self.index(copy.len());
            copy[at] = *self.pick(alphabet);
        }
        copy
    }
}

/// Every string over `alphabet` with a length in `lengths`, shortest first: the
/// exhaustive inputs of the tests that hold a lexer's shortcut to its general reading.
pub fn every_string(
    alphabet: &[u8],
    lengths: std::ops::RangeInclusive<u32>,
) -> impl Iterator<Item = Vec<u8>> + '_ {
    lengths.flat_map(move |len| {
        (0..alphabet.len().pow(len)).map(move |n| {
            let mut k = n;
            (0..len)
                .map(|_| {
                    let c = alphabet[k % alphabet.len()];
                    k /= alphabet.len();
                    c
                })
                .collect()
        })
    })
}

/// How many games to write: a number of games, or games until a number of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Games(u64),
    Bytes(u64),
}

/// Games made at once on the worker threads.
const CHUNK: u64 = 512;

const PLAYERS: &[&str] = &[
    "Иванов, Пётр",
    "Smirnova, Anna",
    "Kuznetsov, Ivan",
    "Попова, Мария",
    "Sokolov, Alexei",
    "Lebedev, Dmitri",
    "Козлова, Ольга",
    "Novikov, Sergei",
    "Morozov, Andrei",
    "Волков, Николай",
    "Soloviev, Yuri",
    "Vasilieva, Elena",
    "Zaitsev, Oleg",
    "Павлов, Михаил",
    "Semenov, Boris",
    "Golubeva, Irina",
];

const EVENTS: &[&str] = &[
    "USSR ch",
    "Moscow open",
    "Чемпионат России",
    "Club match",
    "Leningrad ch",
    "Кубок Москвы",
    "Online blitz",
    "Correspondence ch",
];

const SITES: &[&str] = &["Moscow", "Санкт-Петербург", "Kazan", "Kyiv", "Minsk", "?"];

const COMMENTS: &[&str] = &[
    "the only move",
    "a strong positional move",
    "threatening a combination",
    "better was to exchange",
    "теперь у белых лучше",
    "forced",
    "White should have played for the centre",
    "a typical idea in this opening",
];

/// What a generated game ended with, for summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GeneratedStats {
    /// Games written.
    pub games: u64,
    /// Main-line plies written.
    pub plies: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Games ended by an automatic draw rule (recorded `1/2-1/2`).
    pub rule_draws: u64,
    /// Games recorded as a win.
    pub wins: u64,
}

/// Writes random legal games; see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Generator {
    seed: u64,
    next_index: u64,
    stats: GeneratedStats,
}

struct PlayedGame {
    /// (position before, move, move as written) per ply.
    plies: Vec<(Position, Move, String)>,
    result: &'static str,
    rule_draw: bool,
}

impl PlayedGame {
    /// The side to move in `end` has no legal move: it has lost (1.8.1).
    fn lost_by(end: &Position, plies: Vec<(Position, Move, String)>) -> PlayedGame {
        PlayedGame {
            plies,
            result: match end.turn() {
                Color::White => "0-1",
                Color::Black => "1-0",
            },
            rule_draw: false,
        }
    }
}

/// Material in half-men: a man is 2, a king 5.
fn score(pos: &Position, c: Color) -> i64 {
    2 * pos.men(c).count() as i64 + 5 * pos.kings(c).count() as i64
}

fn play_once(rng: &mut SplitMix64, style: Style) -> PlayedGame {
    let target = rng.range(40, 120) as usize;
    let play_out = rng.chance(20);
    let cap = if play_out { target + 200 } else { target };
    let mut pos = Position::start();
    let (material, key) = draw_view(&pos);
    let mut tracker = DrawTracker::new(Edition::Russia, material, key);
    let mut plies = Vec::with_capacity(cap);
    while plies.len() < cap {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return PlayedGame::lost_by(&pos, plies);
        }
        let (mv, written) = choose(rng, &pos, &moves, style);
        let before = pos;
        pos.play_unchecked(&mv);
        plies.push((before, mv, written));
        let event = tracker.push(&ply_facts(&before, &mv, &pos));
        match event {
            Some(e) if e.kind == DrawEventKind::Automatic => {
                return PlayedGame {
                    plies,
                    result: "1/2-1/2",
                    rule_draw: true,
                };
            }
            Some(_) if play_out && plies.len() >= target => {
                // a threefold repetition: claimed
                return PlayedGame {
                    plies,
                    result: "1/2-1/2",
                    rule_draw: true,
                };
            }
            _ => {}
        }
    }
    if !pos.has_legal_moves() {
        return PlayedGame::lost_by(&pos, plies);
    }
    let lead = score(&pos, Color::White) - score(&pos, Color::Black);
    let result = if lead >= 6 {
        "1-0"
    } else if lead <= -6 {
        "0-1"
    } else if plies.len() >= 40 && rng.chance(70) {
        "1/2-1/2"
    } else {
        "*"
    };
    PlayedGame {
        plies,
        result,
        rule_draw: false,
    }
}

/// A move like a weak but careful player's: promotions first, then quiet moves that leave
/// nothing to capture, else anything.
///
/// The move is written in `style`, or in full when that is ambiguous; a move that stays
/// ambiguous in full (a one-landing capture sharing from and to with another, RULES.md §3)
/// is avoided when there is any other.
fn choose(rng: &mut SplitMix64, pos: &Position, moves: &[Move], style: Style) -> (Move, String) {
    let promoting: Vec<Move> = moves.iter().copied().filter(|m| m.promotes()).collect();
    let mut first = None;
    if !promoting.is_empty() && rng.chance(80) {
        first = Some(*rng.pick(&promoting));
    } else if !moves[0].is_capture() && rng.chance(90) {
        let safe: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !pos.after(m).has_captures())
            .collect();
        if !safe.is_empty() {
            first = Some(*rng.pick(&safe));
        }
    }
    let first = first.unwrap_or_else(|| *rng.pick(moves));
    let start = moves.iter().position(|m| *m == first).unwrap_or(0);
    let candidates = moves[start..].iter().chain(&moves[..start]);
    for m in candidates {
        if let Some(text) = written(pos, m, style) {
            return (*m, text);
        }
    }
    (first, format_move(pos, &first, style))
}

/// `m` written in `style` (or in full) so that it reads back as `m` alone.
fn written(pos: &Position, m: &Move, style: Style) -> Option<String> {
    let reads_back = |text: &str| matches!(resolve_token(pos, text, None, None), Ok(r) if matches!(r.resolution, Resolution::Unique { mv, .. } if mv == *m));
    let text = format_move(pos, m, style);
    if !m.is_capture() || reads_back(&text) {
        return Some(text);
    }
    let full = Style {
        captures: CaptureStyle::Full,
        ..style
    };
    let text = format_move(pos, m, full);
    reads_back(&text).then_some(text)
}

fn play(rng: &mut SplitMix64, style: Style) -> PlayedGame {
    // Short games (a side without moves before ply 40) are played again.
    for _ in 0..20 {
        let game = play_once(rng, style);
        if game.plies.len() >= 40 {
            return game;
        }
    }
    play_once(rng, style)
}

/// A game's notation: numeric or algebraic squares, captures short or in full, `:` or
/// `x`.
fn style_for(rng: &mut SplitMix64) -> Style {
    Style {
        squares: if rng.chance(40) {
            SquareStyle::Numeric
        } else {
            SquareStyle::Algebraic
        },
        captures: if rng.chance(75) {
            CaptureStyle::Minimal
        } else {
            CaptureStyle::Full
        },
        separator: if rng.chance(60) {
            CaptureSeparator::Colon
        } else {
            CaptureSeparator::Cross
        },
    }
}

/// Appends `token` to the movetext, wrapping lines at about 80 columns.
fn push_token(out: &mut String, line_len: &mut usize, token: &str) {
    if *line_len > 0 && *line_len + 1 + token.len() > 80 {
        out.push('\n');
        *line_len = 0;
    } else if *line_len > 0 {
        out.push(' ');
        *line_len += 1;
    }
    out.push_str(token);
    *line_len += token.chars().count();
}

impl Generator {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Generator {
            seed,
            next_index: 0,
            stats: GeneratedStats::default(),
        }
    }

    /// What has been written so far.
    pub fn stats(&self) -> GeneratedStats {
        self.stats
    }

    /// The text of the next game (each game depends only on the seed and its index).
    pub fn next_game(&mut self) -> String {
        let index = self.next_index;
        self.next_index += 1;
        let mut rng = SplitMix64::new(self.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next_u64();
        let style = style_for(&mut rng);
        let game = play(&mut rng, style);
        let mut text = String::with_capacity(1024);
        let white = rng.pick(PLAYERS);
        let mut black = rng.pick(PLAYERS);
        if black == white {
            black =
                &PLAYERS[(PLAYERS.iter().position(|p| p == white).unwrap() + 1) % PLAYERS.len()];
        }
        let _ = writeln!(text, "[Event \"{}\"]", rng.pick(EVENTS));
        let _ = writeln!(text, "[Site \"{}\"]", rng.pick(SITES));
        let _ = writeln!(
            text,
            "[Date \"{}.{:02}.{:02}\"]",
            rng.range(1950, 2024),
            rng.range(1, 12),
            rng.range(1, 28)
        );
        let _ = writeln!(text, "[Round \"{}\"]", rng.range(1, 15));
        let _ = writeln!(text, "[White \"{white}\"]");
        let _ = writeln!(text, "[Black \"{black}\"]");
        let _ = writeln!(text, "[Result \"{}\"]", game.result);
        if style.squares == SquareStyle::Numeric || rng.chance(30) {
            text.push_str("[GameType \"25\"]\n");
        }
        text.push('\n');
        let mut line_len = 0;
        for (i, (before, mv, written_move)) in game.plies.iter().enumerate() {
            let number = i / 2 + 1;
            if i % 2 == 0 {
                push_token(&mut text, &mut line_len, &format!("{number}."));
            }
            push_token(&mut text, &mut line_len, written_move);
            if rng.chance(3) {
                let comment = format!("{{{}}}", rng.pick(COMMENTS));
                push_token(&mut text, &mut line_len, &comment);
            }
            // now and then an alternative to the move just played
            if rng.chance(2) {
                let alternatives: Vec<String> = before
                    .legal_moves()
                    .iter()
                    .filter(|m| *m != mv)
                    .filter_map(|m| written(before, m, style))
                    .collect();
                if !alternatives.is_empty() {
                    let alt = rng.pick(&alternatives);
                    let dots = if i % 2 == 0 { "." } else { "..." };
                    let var = format!("({number}{dots} {alt})");
                    push_token(&mut text, &mut line_len, &var);
                }
            }
        }
        push_token(&mut text, &mut line_len, game.result);
        text.push_str("\n\n");
        self.stats.games += 1;
        self.stats.plies += game.plies.len() as u64;
        self.stats.bytes += text.len() as u64;
        self.stats.rule_draws += u64::from(game.rule_draw);
        self.stats.wins += u64::from(game.result == "1-0" || game.result == "0-1");
        text
    }

    /// The next `n` games, made on all cores (each game depends only on the seed and its
    /// index, so the text is the same as one by one).
    fn next_chunk(&mut self, n: u64) -> Vec<String> {
        use rayon::prelude::*;
        let start = self.next_index;
        let games: Vec<(String, GeneratedStats)> = (start..start + n)
            .into_par_iter()
            .map(|i| {
                let mut g = Generator::new(self.seed);
                g.next_index = i;
                let text = g.next_game();
                (text, g.stats)
            })
            .collect();
        self.next_index += n;
        games
            .into_iter()
            .map(|(text, s)| {
                self.stats.games += s.games;
                self.stats.plies += s.plies;
                self.stats.bytes += s.bytes;
                self.stats.rule_draws += s.rule_draws;
                self.stats.wins += s.wins;
                text
            })
            .collect()
    }

    /// Writes the next `games` games to `out`.
    pub fn write_games<W: Write + ?Sized>(&mut self, out: &mut W, games: u64) -> io::Result<()> {
        let mut left = games;
        while left > 0 {
            let n = left.min(CHUNK);
            for g in self.next_chunk(n) {
                out.write_all(g.as_bytes())?;
            }
            left -= n;
        }
        Ok(())
    }

    /// Writes games to `out` until at least `bytes` bytes have been written by this call.
    pub fn write_bytes<W: Write + ?Sized>(&mut self, out: &mut W, bytes: u64) -> io::Result<()> {
        let mut written = 0;
        while written < bytes {
            let chunk_start = self.next_index;
            let chunk = self.next_chunk(CHUNK);
            for (k, g) in chunk.iter().enumerate() {
                if written >= bytes {
                    // give back the games not written, so that the next call goes on
                    // from here
                    self.unwrite(&chunk[k..], chunk_start + k as u64);
                    return Ok(());
                }
                out.write_all(g.as_bytes())?;
                written += g.len() as u64;
            }
        }
        Ok(())
    }

    /// Writes the next `amount` of games to `out`.
    pub fn write<W: Write + ?Sized>(&mut self, out: &mut W, amount: Amount) -> io::Result<()> {
        match amount {
            Amount::Games(n) => self.write_games(out, n),
            Amount::Bytes(n) => self.write_bytes(out, n),
        }
    }

    /// Writes the next `amount` of games spread over `files` files in `dir` (`0000.pdn`,
    /// `0001.pdn`, …, in order), each with its share of the amount.
    pub fn write_files(&mut self, dir: &Path, files: u32, amount: Amount) -> io::Result<()> {
        let files = u64::from(files.max(1));
        std::fs::create_dir_all(dir)?;
        let mut games_left = match amount {
            Amount::Games(n) => n,
            Amount::Bytes(_) => 0,
        };
        for i in 0..files {
            let mut out = BufWriter::new(File::create(dir.join(format!("{i:04}.pdn")))?);
            let share = match amount {
                Amount::Games(n) => {
                    let k = n.div_ceil(files).min(games_left);
                    games_left -= k;
                    Amount::Games(k)
                }
                Amount::Bytes(n) => Amount::Bytes(n.div_ceil(files)),
            };
            self.write(&mut out, share)?;
            out.flush()?;
        }
        Ok(())
    }

    fn unwrite(&mut self, texts: &[String], next_index: u64) {
        // recount: regenerate the stats of the unwritten games is costly, so keep exact
        // stats by replaying them one by one (rare: at most one chunk per call)
        for i in next_index..next_index + texts.len() as u64 {
            let mut g = Generator::new(self.seed);
            g.next_index = i;
            g.next_game();
            let s = g.stats;
            self.stats.games -= s.games;
            self.stats.plies -= s.plies;
            self.stats.bytes -= s.bytes;
            self.stats.rule_draws -= s.rule_draws;
            self.stats.wins -= s.wins;
        }
        self.next_index = next_index;
    }
}
