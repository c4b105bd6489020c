//! Statistics over many games: totals, results, draw bases, game lengths, openings,
//! players, final material, and the same per group. This is what `pdnkit stats` runs.
//!
//! [`Stats`] is an accumulator: [`Stats::add_game`] one checked game at a time (games are judged
//! by [`crate::check`], exactly as `pdnkit lint` judges them), [`Stats::add_file`] once per
//! input, and [`Stats::merge`] two accumulators. Every field is a count or a map of counts,
//! so merging is exact, commutative and associative: the stats of a folder are the merge of
//! the stats of its files, in any order. [`Stats::report`] turns the counts into a
//! [`Report`], the documented JSON schema (see [`report`]).
//!
//! [`StatsTask`] is what the run loop ([`crate::run`]) gives each checked game to, and a
//! [`Counter`] counts what the loop hands on; [`stats_reader`] does both for one input.
//!
//! ```
//! use pdnkit::check::CheckOptions;
//! use pdnkit::stats::{StatsOptions, stats_reader};
//! let pdn = "[White \"A\"][Black \"B\"][Result \"1-0\"]\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 1-0\n";
//! let file = stats_reader("a.pdn", pdn.as_bytes(), &CheckOptions::default(), StatsOptions::default());
//! assert!(file.error.is_none());
//! let report = file.stats.report(20);
//! assert_eq!(report.totals.games, 1);
//! assert_eq!(report.results.counts.white_wins, 1);
//! assert_eq!(report.players[0].name, "A");
//! ```
//!
//! Definitions (also in the README, section `pdnkit stats`):
//!
//! - a game is **not replayed** when its main line did not replay completely
//!   ([`Status`] other than `Complete`: an illegal, ambiguous or unreadable move, a bad
//!   FEN, an unsupported variant) or it has a syntax error of error severity. Such games
//!   still count in the totals, results and players (their recorded result is a fact of
//!   the record), but not in game lengths, final material or draw bases;
//! - **plies** (total) are the main-line plies replayed, over all games;
//! - a game's **length** is its number of main-line plies, over the games replayed;
//! - the **opening** of a game is its first `depth` main-line plies in canonical notation
//!   (algebraic, captures with the fewest intermediate squares that make them unambiguous,
//!   [`CaptureStyle::Minimal`]), written with move numbers: `1. c3-d4 f6-g5 2. b2-c3 g5-h4`.
//!   Another variant's is written as [`crate::convert::style_for`] writes its moves, after
//!   the variant's name: `international: 1. 32-28 19-23`. Only games that start from the
//!   initial position have one, and only when at least `depth` plies were replayed, or
//!   the whole game was replayed and is shorter;
//! - the **final material** is counted in the final position of a replayed game, of any
//!   variant: `3K v K`, `K+2M v 3M`;
//! - **White score** is White's result percentage: (White wins + draws / 2) / (games with
//!   a known result: White wins, Black wins, draws, both lose) × 100; `null` when there
//!   are none;
//! - a player's **score** is the same from the player's side; `0-0` (both lose) is a loss
//!   for both;
//! - **player names** are the White and Black tags with surrounding spaces trimmed; an
//!   empty name or `?` is no player.

pub mod chart;
pub mod html;
mod players;
pub mod render;
pub mod report;

pub use report::Report;

use crate::Color;
use crate::check::CheckOptions;
use crate::check::checker::{GameReport, Keep};
use crate::convert::played::{Notated, Played};
use crate::convert::style_for;
use crate::date::{DateValue, parse_date};
use crate::diag::Severity;
use crate::diag::{Diagnostic, codes};
use crate::draw::DrawBasis;
use crate::outcome::Outcome;
use crate::replay::Ply;
use crate::replay::Status;
use crate::rules::notation::{CaptureStyle, Style};
use crate::rules::{Playable, Position, Variant, VariantPosition};
use crate::run::{Checked, Event, RunOptions, run_reader};
use players::Players;
use std::collections::{BTreeMap, HashMap};

/// A map of keys from the games (openings, players, groups): hashed with a seed of the
/// run, fast on short keys (an ordered map compares openings that share their first
/// moves; SipHash costs more on keys this short).
type KeyMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The default opening depth, in plies.
pub const DEFAULT_DEPTH: usize = 6;

/// What to group by (`--by`): the Event tag (trimmed; `?` when missing or empty); each
/// player (a game counts for its White and for its Black player); the year of the Date tag
/// (the first date of a range; `?` when unknown); the opening (the first `depth` plies; `?`
/// for games without one); the input file, as named on the command line (`-` for standard
/// input). (The variants have no comments: clap would show them in `--by`'s help.)
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum GroupBy {
    Event,
    Player,
    Year,
    Opening,
    File,
}

impl GroupBy {
    /// `event`, `player`, `year`, `opening` or `file`.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupBy::Event => "event",
            GroupBy::Player => "player",
            GroupBy::Year => "year",
            GroupBy::Opening => "opening",
            GroupBy::File => "file",
        }
    }
}

/// How to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsOptions {
    /// Opening depth in plies (0: no openings).
    pub depth: usize,
    /// Grouping, if any.
    pub by: Option<GroupBy>,
}

impl Default for StatsOptions {
    fn default() -> Self {
        StatsOptions {
            depth: DEFAULT_DEPTH,
            by: None,
        }
    }
}

/// Games by recorded result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ResultCounts {
    /// All games counted.
    pub games: u64,
    /// `1-0`.
    pub white_wins: u64,
    /// `0-1`.
    pub black_wins: u64,
    /// `1/2-1/2`.
    pub draws: u64,
    /// `0-0`.
    pub both_lose: u64,
    /// `*` or no result.
    pub unknown: u64,
}

impl ResultCounts {
    /// Counts one game.
    pub fn add(&mut self, outcome: Outcome) {
        self.games += 1;
        match outcome {
            Outcome::WhiteWins => self.white_wins += 1,
            Outcome::BlackWins => self.black_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BothLose => self.both_lose += 1,
            Outcome::Unknown => self.unknown += 1,
        }
    }

    /// Adds another count.
    pub fn merge(&mut self, o: &ResultCounts) {
        self.games += o.games;
        self.white_wins += o.white_wins;
        self.black_wins += o.black_wins;
        self.draws += o.draws;
        self.both_lose += o.both_lose;
        self.unknown += o.unknown;
    }

    /// White's result percentage over games with a known result, rounded to 0.01.
    pub fn white_score(&self) -> Option<f64> {
        score(
            self.white_wins,
            self.draws,
            self.black_wins + self.both_lose,
        )
    }
}

/// (wins + draws / 2) / (wins + draws + losses) × 100, rounded to 0.01; `None` for no games.
pub(crate) fn score(wins: u64, draws: u64, losses: u64) -> Option<f64> {
    let n = wins + draws + losses;
    (n > 0).then(|| round2((2 * wins + draws) as f64 * 50.0 / n as f64))
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// One player's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PlayerCounts {
    /// Games played (either colour).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost (`0-0` counts as lost).
    pub losses: u64,
    /// Games without a known result.
    pub unknown: u64,
}

impl PlayerCounts {
    /// The player's result percentage over games with a known result.
    pub fn score(&self) -> Option<f64> {
        score(self.wins, self.draws, self.losses)
    }
}

/// One group of `--by` (other than `player`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupCounts {
    /// Results of all games of the group.
    pub results: ResultCounts,
    /// Games not replayed.
    pub not_replayed: u64,
    /// Games replayed, and their plies (for the mean length).
    pub replayed: u64,
    /// Plies of the games replayed.
    pub replayed_plies: u64,
}

impl GroupCounts {
    fn merge(&mut self, o: &GroupCounts) {
        self.results.merge(&o.results);
        self.not_replayed += o.not_replayed;
        self.replayed += o.replayed;
        self.replayed_plies += o.replayed_plies;
    }
}

/// A diagnostic kind, for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DiagnosticKind {
    /// `M101`.
    pub code: &'static str,
    /// `illegal-move`.
    pub name: &'static str,
    /// As reported.
    pub severity: Severity,
}

/// The accumulator. Every field is a count, so [`merge`](Stats::merge) is exact.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub(crate) options: StatsOptions,
    /// (as reported)
    pub(crate) totals: report::Totals,
    pub(crate) diagnostics: BTreeMap<DiagnosticKind, u64>,
    pub(crate) results: ResultCounts,
    pub(crate) draws: BTreeMap<String, u64>,
    /// length in plies -> games (exact distribution, so percentiles merge exactly)
    pub(crate) lengths: BTreeMap<u32, u64>,
    /// (hashed: a game's opening, compared in an ordered map, shares its first moves
    /// with the keys around it; reports sort them)
    pub(crate) openings: KeyMap<String, ResultCounts>,
    /// (each name once, in a table of its own: an archive may name millions)
    pub(crate) players: Players,
    /// Keyed by [`MaterialCounts`]: the text of the key is made once per report, not
    /// once per game.
    pub(crate) material: HashMap<MaterialCounts, ResultCounts>,
    pub(crate) groups: KeyMap<String, GroupCounts>,
}

/// The key of games that have no value for a grouping (no Event tag, unknown year, no
/// opening).
pub const NO_KEY: &str = "?";

impl Stats {
    /// An empty accumulator.
    pub fn new(options: StatsOptions) -> Stats {
        Stats {
            options,
            ..Stats::default()
        }
    }

    /// The options counted with.
    pub fn options(&self) -> StatsOptions {
        self.options
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.totals.games
    }

    /// Counts one input: `encoding` is `None` when it could not be read at all; `failed`
    /// when reading failed (at the start or part way).
    pub fn add_file(&mut self, encoding: Option<&str>, bytes: u64, failed: bool) {
        let t = &mut self.totals;
        t.files += 1;
        t.bytes += bytes;
        if let Some(e) = encoding {
            *t.encodings.entry(e.to_string()).or_default() += 1;
        }
        t.unreadable_files += u64::from(failed);
    }

    /// Counts a located problem of a file that is no game's, as `lint` reports it, among
    /// the diagnostics.
    pub fn add_read_diagnostic(&mut self, d: &crate::diag::Diagnostic) {
        self.count_diagnostic(d.rule, d.severity);
    }

    fn count_diagnostic(&mut self, rule: &'static crate::diag::Rule, severity: Severity) {
        let kind = DiagnosticKind {
            code: rule.code,
            name: rule.name,
            severity,
        };
        *self.diagnostics.entry(kind).or_default() += 1;
    }

    /// Counts one game of the file named `file` (the key of `--by file`).
    pub fn add_game(&mut self, file: &str, g: &GameStats) {
        let outcome = g.outcome;
        let replayed = g.replayed;
        let plies = g.plies;
        let t = &mut self.totals;
        t.games += 1;
        t.plies += u64::from(plies);
        *t.variants.at(variant_key(g.game_type.as_deref())) += 1;
        t.not_replayed += u64::from(!replayed);
        t.with_errors += u64::from(g.has_errors);
        for &(rule, severity) in &g.diagnostics {
            self.count_diagnostic(rule, severity);
        }
        self.results.add(outcome);
        if outcome == Outcome::Draw {
            *self.draws.at(draw_key(g.draw_basis, replayed)) += 1;
        }
        if replayed {
            *self.lengths.entry(plies).or_default() += 1;
            if let Some(end) = g.end {
                self.material.entry(end).or_default().add(outcome);
            }
        }
        let opening = &g.opening;
        if let Some(o) = opening {
            self.openings.at(o).add(outcome);
        }
        for (color, tag) in [(Color::White, &g.white), (Color::Black, &g.black)] {
            let tag = tag.as_deref();
            if let Some(name) = player_name(tag) {
                self.players.add(name, outcome, color);
            }
        }
        let year;
        let key = match self.options.by {
            None | Some(GroupBy::Player) => return,
            Some(GroupBy::Event) => (g.event.as_deref())
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .unwrap_or(NO_KEY),
            Some(GroupBy::Year) => {
                year = year_key(g.date.as_deref());
                &year
            }
            Some(GroupBy::Opening) => opening.as_deref().unwrap_or(NO_KEY),
            Some(GroupBy::File) => file,
        };
        let group = self.groups.at(key);
        group.results.add(outcome);
        if replayed {
            group.replayed += 1;
            group.replayed_plies += u64::from(plies);
        } else {
            group.not_replayed += 1;
        }
    }

    /// Adds the counts of `other` (counted with the same options).
    ///
    /// # Panics
    /// When the options differ: the counts would not mean the same thing.
    pub fn merge(&mut self, other: Stats) {
        assert_eq!(
            self.options, other.options,
            "merging stats counted with different options"
        );
        let (t, o) = (&mut self.totals, other.totals);
        t.files += o.files;
        t.unreadable_files += o.unreadable_files;
        t.bytes += o.bytes;
        add_map(&mut t.encodings, o.encodings);
        t.games += o.games;
        t.plies += o.plies;
        add_map(&mut t.variants, o.variants);
        t.not_replayed += o.not_replayed;
        t.with_errors += o.with_errors;
        add_map(&mut self.diagnostics, other.diagnostics);
        self.results.merge(&other.results);
        add_map(&mut self.draws, other.draws);
        add_map(&mut self.lengths, other.lengths);
        // (the smaller map into the larger: stats are merged into empty ones at the end
        // of a run, which would move every opening)
        merge_into_larger(&mut self.openings, other.openings, ResultCounts::merge);
        let mut players = other.players;
        if self.players.len() < players.len() {
            std::mem::swap(&mut self.players, &mut players);
        }
        self.players.merge(&players);
        for (k, v) in other.material {
            self.material.entry(k).or_default().merge(&v);
        }
        merge_into_larger(&mut self.groups, other.groups, GroupCounts::merge);
    }
}

fn merge_into_larger<V: Default>(
    into: &mut KeyMap<String, V>,
    mut from: KeyMap<String, V>,
    merge: fn(&mut V, &V),
) {
    if into.len() < from.len() {
        std::mem::swap(into, &mut from);
    }
    for (k, v) in from {
        merge(into.entry(k).or_default(), &v);
    }
}

fn add_map<K: Ord>(into: &mut BTreeMap<K, u64>, from: BTreeMap<K, u64>) {
    for (k, v) in from {
        *into.entry(k).or_default() += v;
    }
}

/// What [`Stats`] counts of one game.
#[derive(Clone, Debug, Default)]
pub struct GameStats {
    outcome: Outcome,
    /// Its main line replayed completely and it has no syntax error of error severity.
    replayed: bool,
    plies: u32,
    has_errors: bool,
    diagnostics: Vec<(&'static crate::diag::Rule, Severity)>,
    draw_basis: Option<DrawBasis>,
    /// The material of the final position, when the main line was replayed.
    end: Option<MaterialCounts>,
    opening: Option<String>,
    white: Option<String>,
    black: Option<String>,
    event: Option<String>,
    date: Option<String>,
    game_type: Option<String>,
}

impl GameStats {
    /// What counts of the checked game `g` (its first `depth` plies kept: its opening).
    pub fn of(g: &Checked<'_>, depth: usize) -> GameStats {
        let r = &*g.report;
        let tag = |name: &str| r.tag(name).map(str::to_string);
        GameStats {
            outcome: r.outcome,
            replayed: r.replayed(),
            plies: r.plies,
            has_errors: g.has_errors,
            diagnostics: g.diagnostics.iter().map(|d| (d.rule, d.severity)).collect(),
            draw_basis: r.draw.as_ref().and_then(|v| v.basis),
            end: MaterialCounts::at_end(r),
            opening: opening(r, depth),
            white: tag("White"),
            black: tag("Black"),
            event: tag("Event"),
            date: tag("Date"),
            game_type: tag("GameType"),
        }
    }
}

/// The [`Task`](crate::run::Task) of `pdnkit stats`: what counts of each game.
pub struct StatsTask {
    /// The options counted with.
    pub options: StatsOptions,
}

impl crate::run::Task for StatsTask {
    type Output = GameStats;

    fn keep(&self) -> Keep {
        Keep {
            plies: self.options.depth,
            ..Keep::default()
        }
    }

    fn game(&self, g: Checked<'_>) -> GameStats {
        GameStats::of(&g, self.options.depth)
    }

    /// What a game's counts hold while they wait for their turn: for short games several
    /// times their text, and the counting thread (which interns the players) is the slow
    /// one, so without it the queue would hold a hundred megabytes.
    fn weight(&self, g: &GameStats) -> usize {
        // (a small string's allocation holds at least 16 bytes)
        let text = |s: &Option<String>| s.as_ref().map_or(0, |s| s.len().max(16));
        std::mem::size_of::<GameStats>()
            + g.diagnostics.len() * std::mem::size_of::<(&crate::diag::Rule, Severity)>()
            + [
                &g.opening,
                &g.white,
                &g.black,
                &g.event,
                &g.date,
                &g.game_type,
            ]
            .into_iter()
            .map(text)
            .sum::<usize>()
    }
}

/// Counts into a [`Stats`] what the run loop hands on of [`StatsTask`]'s games, input by
/// input.
#[derive(Debug)]
pub struct Counter {
    /// The counts so far.
    pub stats: Stats,
    /// Whether the current input was left unread.
    failed: bool,
}

impl Counter {
    /// Nothing counted yet.
    pub fn new(options: StatsOptions) -> Counter {
        Counter {
            stats: Stats::new(options),
            failed: false,
        }
    }

    /// Counts one event of the input named `label`. A problem that leaves the input
    /// unread (it cannot be read, or is not PDN) is not counted among the diagnostics,
    /// but the input counts as unreadable: it is given back, for the caller to report.
    pub fn event(&mut self, label: &str, event: Event<GameStats>) -> Option<Diagnostic> {
        match event {
            Event::Start => {}
            Event::Game(game) => self.stats.add_game(label, &game),
            Event::Problem(d) if d.rule == &codes::IO_ERROR || d.rule == &codes::NOT_PDN => {
                self.failed = true;
                return Some(d);
            }
            Event::Problem(d) => self.stats.add_read_diagnostic(&d),
            Event::End(read) => {
                let failed = std::mem::take(&mut self.failed) || read.failed;
                self.stats.add_file(read.encoding, read.bytes, failed);
            }
        }
        None
    }
}

/// The stats of one input and how reading it ended.
#[derive(Debug)]
pub struct FileStats {
    /// The counts, including this input in `files` and `bytes`.
    pub stats: Stats,
    /// The problem that left the input unread (or read only in part), if one did.
    pub error: Option<Diagnostic>,
}

/// Counts the games of one input (`input`, named `path`) on the calling thread, judging
/// them exactly as `pdnkit lint` does. Never panics on input; an I/O error ends the
/// input and is given beside what was counted before it.
pub fn stats_reader(
    path: &str,
    input: impl std::io::Read,
    check: &CheckOptions,
    options: StatsOptions,
) -> FileStats {
    let mut counter = Counter::new(options);
    let mut error = None;
    let run = RunOptions {
        check: *check,
        threads: 1,
        progress: None,
    };
    let read = run_reader(path, input, &run, &StatsTask { options }, |event| {
        if let Some(d) = counter.event(path, event) {
            error.get_or_insert(d);
        }
        Ok(())
    })
    // (the sink never fails, so neither does the run)
    .unwrap_or_default();
    counter.event(path, Event::End(read));
    FileStats {
        stats: counter.stats,
        error,
    }
}

/// The GameType number (the part before any comma), `none` when the tag is missing or empty.
fn variant_key(game_type: Option<&str>) -> &str {
    game_type
        .map(|v| v.split(',').next().unwrap_or("").trim())
        .filter(|v| !v.is_empty())
        .unwrap_or("none")
}

/// The basis of a drawn game: a draw rule id (`6.1.8.6`), `repetition`, `agreement`,
/// `early_agreement`, or `unjudged` when the game was not replayed or its variant's draw
/// rules are not known.
fn draw_key(basis: Option<DrawBasis>, replayed: bool) -> &'static str {
    match basis {
        Some(DrawBasis::Rule { rule, .. }) if replayed => rule.id(),
        Some(DrawBasis::Repetition { .. }) if replayed => "repetition",
        Some(DrawBasis::Agreement { early: false, .. }) if replayed => "agreement",
        Some(DrawBasis::Agreement { early: true, .. }) if replayed => "early_agreement",
        _ => "unjudged",
    }
}

/// A map of counts keyed by text.
trait KeyedCounts {
    type Value;
    /// The value at `key`, made (with the key's text allocated) only when `key` is new:
    /// the keys of most games are already there.
    fn at(&mut self, key: &str) -> &mut Self::Value;
}

/// [`KeyedCounts`] for a map type (the ordered and the hashed maps alike).
macro_rules! keyed_counts {
    ($map:ident) => {
        impl<V: Default> KeyedCounts for $map<String, V> {
            type Value = V;
            fn at(&mut self, key: &str) -> &mut V {
                // (two look-ups for a new key, none of them allocating for a known one)
                if !self.contains_key(key) {
                    self.insert(key.to_string(), V::default());
                }
                self.get_mut(key).expect("inserted above")
            }
        }
    };
}
keyed_counts!(BTreeMap);
keyed_counts!(KeyMap);

/// A trimmed player name; `None` for a missing, empty or `?` name.
fn player_name(tag: Option<&str>) -> Option<&str> {
    tag.map(str::trim).filter(|s| !s.is_empty() && *s != "?")
}

/// The year of a Date tag, `?` when unknown, unreadable or no day of the calendar.
fn year_key(date: Option<&str>) -> String {
    let year = match date.map(parse_date) {
        Some(DateValue::Date(d)) | Some(DateValue::Range(d, _)) => d.year,
        _ => None,
    };
    year.map_or_else(|| NO_KEY.to_string(), |y| y.to_string())
}

/// One side's material: `3K`, `K+2M`, `5M`, `0` for nothing.
fn side_material(kings: u32, men: u32) -> String {
    let part = |n: u32, letter: char| match n {
        0 => None,
        1 => Some(letter.to_string()),
        n => Some(format!("{n}{letter}")),
    };
    let parts: Vec<String> = [part(kings, 'K'), part(men, 'M')]
        .into_iter()
        .flatten()
        .collect();
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join("+")
    }
}

/// The material balance of a position, White first: `3K v K`, `K+2M v 3M`, `0 v K`.
#[cfg(test)]
fn material_key(pos: &Position) -> String {
    MaterialCounts::of(pos).text()
}

/// Kings and men of each side, White first (written `3K v K`, `K+2M v 3M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MaterialCounts([u8; 4]);

impl MaterialCounts {
    fn of<P: Playable>(pos: &P) -> MaterialCounts {
        let ((wm, wk), (bm, bk)) = (pos.counts(Color::White), pos.counts(Color::Black));
        MaterialCounts([wk, wm, bk, bm])
    }

    /// The material at the end of a main line replayed to its end, of whichever variant.
    fn at_end(r: &GameReport) -> Option<MaterialCounts> {
        if r.status != Status::Complete {
            return None;
        }
        (r.end.as_ref().map(MaterialCounts::of))
            .or_else(|| r.variant_line.end.as_ref().map(MaterialCounts::of))
    }

    /// `3K v K`, `K+2M v 3M`, `0 v K`.
    pub(crate) fn text(self) -> String {
        let [wk, wm, bk, bm] = self.0.map(u32::from);
        format!("{} v {}", side_material(wk, wm), side_material(bk, bm))
    }
}

/// The opening of a game (see the module documentation), `None` when it has none: from its
/// first `depth` plies, kept in `report`. Another variant's opening is written as its
/// players write moves, in its own numbering, after its name (`international: 1. 32-28
/// 19-23`), so that no two variants' openings share a key and a game numbered otherwise
/// by its GameType shares its opening's.
pub fn opening(report: &GameReport, depth: usize) -> Option<String> {
    if depth == 0 {
        return None;
    }
    if let Some(start) = report.start {
        let from_start = start == Position::start();
        return opening_of(
            report,
            from_start,
            &report.mainline,
            depth,
            Variant::Russian,
        );
    }
    let line = &report.variant_line;
    let start = line.start.as_ref()?;
    let variant = start.variant();
    let from_start = *start == VariantPosition::start_in(variant, start.dialect());
    // (written in the variant's own numbering, whatever the game's GameType said)
    let usual = start.dialect() == variant.dialect();
    let renumbered: Vec<Ply<VariantPosition>>;
    let plies = match usual {
        true => &line.mainline,
        false => {
            renumbered = (line.mainline.iter().take(depth))
                .map(|p| Ply {
                    before: p.before.in_usual_numbering(),
                    ..p.clone()
                })
                .collect();
            &renumbered
        }
    };
    opening_of(report, from_start, plies, depth, variant)
}

/// The opening of a main line of `variant` played from the start position
/// (`from_start`): its first `depth` plies in canonical notation, numbered.
fn opening_of<P: Playable>(
    report: &GameReport,
    from_start: bool,
    plies: &[Ply<P>],
    depth: usize,
    variant: Variant,
) -> Option<String>
where
    for<'a> Played<'a, P>: Notated,
{
    if !from_start || plies.is_empty() {
        return None;
    }
    if (report.plies as usize) < depth && report.status != Status::Complete {
        return None;
    }
    let canonical = Style {
        captures: CaptureStyle::Minimal,
        ..Style::default()
    };
    let style = style_for(canonical, (None, None), variant);
    // (about what six plies take, so that it is allocated once)
    let mut out = String::with_capacity(64);
    if variant != Variant::Russian {
        out.push_str(variant.name());
        out.push_str(": ");
    }
    for (k, ply) in plies.iter().take(depth).enumerate() {
        let dots = match ply.side == ply.before.first_to_move() {
            true => Some(". "),
            false if k == 0 => Some("... "),
            false => None,
        };
        if k > 0 {
            out.push(' ');
        }
        if let Some(dots) = dots {
            // (without the formatting machinery, which cost as much as the moves)
            out.push_str(itoa::Buffer::new().format(ply.move_number));
            out.push_str(dots);
        }
        ply.played().push_text(&mut out, style);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckOptions;
    use crate::run::{Event, RunOptions, run_reader};

    /// What counts of each game of `pdn`.
    fn checked(pdn: &str) -> Vec<GameStats> {
        let task = StatsTask {
            options: StatsOptions::default(),
        };
        let mut games = Vec::new();
        run_reader(
            "t.pdn",
            pdn.as_bytes(),
            &RunOptions::default(),
            &task,
            |e| {
                if let Event::Game(g) = e {
                    games.push(g);
                }
                Ok(())
            },
        )
        .unwrap();
        games
    }

    /// The report of the first game of `pdn`, every ply kept.
    fn one(pdn: &str) -> GameReport {
        let keep = Keep {
            plies: usize::MAX,
            ..Keep::default()
        };
        crate::check::checker::testing::check(pdn, &CheckOptions::default(), keep).0
    }

    #[test]
    fn material_keys() {
        assert_eq!(material_key(&Position::start()), "12M v 12M");
        let g = one("[FEN \"W:WK30,K31,K22:BK4\"]\n1. c1-d2 *");
        assert_eq!(material_key(&g.end.unwrap()), "3K v K");
        let g = one("[FEN \"W:WK30,21:B4,5\"]\n1. c1-d2 *");
        assert_eq!(material_key(&g.end.unwrap()), "K+M v 2M");
        assert_eq!(side_material(0, 0), "0");
    }

    #[test]
    fn openings_are_canonical_and_numbered() {
        let g = one("1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6 4. d4-c5 b6:d4 *");
        assert_eq!(
            opening(&g, 6).as_deref(),
            Some("1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6")
        );
        assert_eq!(opening(&g, 3).as_deref(), Some("1. c3-d4 f6-g5 2. b2-c3"));
        assert_eq!(opening(&g, 0), None);
        // written differently (numeric squares, `x`), same opening text
        let h = one("1. 22-18 11-16 2. 25-22 16-20 *");
        assert_eq!(
            opening(&h, 4).as_deref(),
            Some("1. c3-d4 f6-g5 2. b2-c3 g5-h4")
        );
        // a short complete game is its own opening; a broken one has none
        let short = one("1. c3-d4 f6-g5 *");
        assert_eq!(opening(&short, 6).as_deref(), Some("1. c3-d4 f6-g5"));
        let broken = one("1. c3-d4 f6-g5 2. a1-b2 *");
        assert_eq!(opening(&broken, 6), None);
        assert_eq!(opening(&broken, 2).as_deref(), Some("1. c3-d4 f6-g5"));
        // from a setup: none
        let setup = one("[FEN \"W:WK30:BK4\"]\n1. c1-d2 h8-g7 *");
        assert_eq!(opening(&setup, 2), None);
    }

    #[test]
    fn years_and_players() {
        assert_eq!(year_key(Some("2004.10.27")), "2004");
        assert_eq!(year_key(Some("2007/2008")), "2007");
        assert_eq!(year_key(Some("????.??.??")), "?");
        assert_eq!(year_key(Some("soon")), "?");
        assert_eq!(year_key(None), "?");
        assert_eq!(player_name(Some("  Ivanov  I. ")), Some("Ivanov  I."));
        assert_eq!(player_name(Some(" ? ")), None);
        assert_eq!(player_name(Some("")), None);
        assert_eq!(player_name(None), None);
    }

    #[test]
    fn scores() {
        let mut r = ResultCounts::default();
        for o in [
            Outcome::WhiteWins,
            Outcome::Draw,
            Outcome::BlackWins,
            Outcome::Unknown,
        ] {
            r.add(o);
        }
        assert_eq!(r.games, 4);
        assert_eq!(r.white_score(), Some(50.0));
        r.add(Outcome::BothLose);
        assert_eq!(r.white_score(), Some(37.5));
        assert_eq!(ResultCounts::default().white_score(), None);
        assert_eq!(score(2, 0, 1), Some(66.67));
    }

    #[test]
    fn draw_bases() {
        let pdn = concat!(
            "[Result \"1/2-1/2\"]\n1. c3-d4 f6-g5 1/2-1/2\n\n",
            "[FEN \"W:WK30,K31:BK4\"]\n[Result \"1/2-1/2\"]\n",
            "1. c1-d2 h8-g7 2. d2-c1 g7-h8 3. c1-d2 h8-g7 4. d2-c1 g7-h8 5. c1-d2 h8-g7 1/2-1/2\n\n",
            "[Result \"1/2-1/2\"]\n1. c3-d4 f6-g5 2. a1-b2 1/2-1/2\n",
        );
        let mut s = Stats::new(StatsOptions::default());
        for g in checked(pdn) {
            s.add_game("t.pdn", &g);
        }
        let keys: Vec<_> = s.draws.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            keys,
            [("6.1.8.6", 1), ("early_agreement", 1), ("unjudged", 1)]
        );
        assert_eq!(s.totals.not_replayed, 1);
        assert_eq!(s.lengths.values().sum::<u64>(), 2);
    }

    #[test]
    #[should_panic(expected = "different options")]
    fn merging_different_options_panics() {
        let mut a = Stats::new(StatsOptions::default());
        a.merge(Stats::new(StatsOptions { depth: 2, by: None }));
    }
}
