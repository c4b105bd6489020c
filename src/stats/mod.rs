//! Statistics over many games: totals, results, draw bases, game lengths, openings,
//! players, final material, and the same per group. This is what `pdnkit stats` runs.
//!
//! [`Stats`] is an accumulator: [`Stats::add`] one checked game at a time (games are judged
//! by [`crate::check`], exactly as `pdnkit lint` judges them), [`Stats::add_file`] once per
//! input, and [`Stats::merge`] two accumulators. Every field is a count or a map of counts,
//! so merging is exact, commutative and associative: the stats of a folder are the merge of
//! the stats of its files, in any order. [`Stats::report`] turns the counts into a
//! [`Report`], the documented JSON schema (see [`report`]).
//!
//! ```
//! use pdnkit::check::CheckOptions;
//! use pdnkit::stats::{StatsOptions, stats_reader};
//! let pdn = "[White \"A\"][Black \"B\"][Result \"1-0\"]\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 1-0\n";
//! let file = stats_reader("a.pdn", pdn.as_bytes(), &CheckOptions::default(), &StatsOptions::default());
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
//!   Only games that start from the initial position have one, and only when at least
//!   `depth` plies were replayed, or the whole game was replayed and is shorter;
//! - **White score** is White's result percentage: (White wins + draws / 2) / (games with
//!   a known result: White wins, Black wins, draws, both lose) × 100; `null` when there
//!   are none;
//! - a player's **score** is the same from the player's side; `0-0` (both lose) is a loss
//!   for both;
//! - **player names** are the White and Black tags with surrounding spaces trimmed; an
//!   empty name or `?` is no player.

pub mod render;
pub mod report;

pub use report::Report;

use crate::Color;
use crate::check::{CheckOptions, Checked, CheckedGame, Diagnoser, QuickGame};
use crate::date::{DateValue, parse_date};
use crate::diag::Severity;
use crate::draw::DrawBasis;
use crate::outcome::Outcome;
use crate::pdn::{GameSplitter, ReadError, SyntaxErrorKind};
use crate::replay::{ReplayOptions, Status};
use crate::rules::Position;
use crate::rules::notation::{CaptureStyle, Style, push_move};
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};

/// A map of keys from the games (openings, players, groups): hashed with a seed of the
/// run, fast on short keys. (SipHash cost more than the ordered maps it replaced, which
/// took 7% of `stats` comparing openings that share their first moves.)
type KeyMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
use std::io::Read;
use std::rc::Rc;
use std::sync::atomic::Ordering;

/// The default opening depth, in plies.
pub const DEFAULT_DEPTH: usize = 6;

/// Games counted together, on one thread. Bounds memory: a batch holds at most this many
/// games, and no more than [`BATCH_BYTES`] of their text (but the game that reaches it),
/// and a file has at most one batch a thread waiting or counted, besides the one read.
pub const BATCH: usize = 512;

/// The text of a batch of games ([`BATCH`]): a batch ends with the game that brings it to
/// this size. By count alone, 512 games of a few megabytes were all held at once (16
/// games of 4 MB took 80 MB).
pub const BATCH_BYTES: usize = 1 << 20;

/// What to group by (`--by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GroupBy {
    /// The Event tag (trimmed); `?` when missing or empty.
    Event,
    /// Each player: a game counts for its White and for its Black player.
    Player,
    /// The year of the Date tag (the first date of a range); `?` when unknown.
    Year,
    /// The opening (first `depth` plies); `?` for games without one.
    Opening,
    /// The input file, as named on the command line (`-` for standard input).
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
    fn add(&mut self, outcome: Outcome, color: Color) {
        self.games += 1;
        match (outcome, color) {
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => {
                self.wins += 1
            }
            (Outcome::WhiteWins, Color::Black)
            | (Outcome::BlackWins, Color::White)
            | (Outcome::BothLose, _) => self.losses += 1,
            (Outcome::Draw, _) => self.draws += 1,
            (Outcome::Unknown, _) => self.unknown += 1,
        }
    }

    fn merge(&mut self, o: &PlayerCounts) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.unknown += o.unknown;
    }

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
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub(crate) options: StatsOptions,
    pub(crate) files: u64,
    pub(crate) unreadable_files: u64,
    pub(crate) bytes: u64,
    pub(crate) encodings: BTreeMap<String, u64>,
    pub(crate) games: u64,
    pub(crate) plies: u64,
    pub(crate) variants: BTreeMap<String, u64>,
    pub(crate) not_replayed: u64,
    pub(crate) with_errors: u64,
    pub(crate) diagnostics: BTreeMap<DiagnosticKind, u64>,
    pub(crate) results: ResultCounts,
    pub(crate) draws: BTreeMap<String, u64>,
    /// length in plies -> games (exact distribution, so percentiles merge exactly)
    pub(crate) lengths: BTreeMap<u32, u64>,
    /// (hashed: a game's opening, compared in an ordered map, shares its first moves
    /// with the keys around it; reports sort them)
    pub(crate) openings: KeyMap<String, ResultCounts>,
    pub(crate) players: KeyMap<String, PlayerCounts>,
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
            files: 0,
            unreadable_files: 0,
            bytes: 0,
            encodings: BTreeMap::new(),
            games: 0,
            plies: 0,
            variants: BTreeMap::new(),
            not_replayed: 0,
            with_errors: 0,
            diagnostics: BTreeMap::new(),
            results: ResultCounts::default(),
            draws: BTreeMap::new(),
            lengths: BTreeMap::new(),
            openings: KeyMap::default(),
            players: KeyMap::default(),
            material: HashMap::new(),
            groups: KeyMap::default(),
        }
    }

    /// The options counted with.
    pub fn options(&self) -> StatsOptions {
        self.options
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Counts one input: `encoding` is `None` when it could not be read at all; `failed`
    /// when reading failed (at the start or part way).
    pub fn add_file(&mut self, encoding: Option<&str>, bytes: u64, failed: bool) {
        self.files += 1;
        self.bytes += bytes;
        if let Some(e) = encoding {
            *self.encodings.entry(e.to_string()).or_default() += 1;
        }
        if failed {
            self.unreadable_files += 1;
        }
    }

    /// Counts a problem of a file that is no game's (see [`ReadError`]), among the
    /// diagnostics.
    pub fn add_read_problem(&mut self, kind: SyntaxErrorKind) {
        let rule = crate::diag::codes::of_read_error(kind);
        self.count_diagnostic(rule, rule.severity);
    }

    /// Counts a located problem of a file that is no game's, as `lint` reports it (an
    /// item of [`crate::check::CheckedGames`] that is not a game), among the diagnostics.
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
    pub fn add(&mut self, file: &str, g: &CheckedGame) {
        let replay = &g.replay;
        let replayed = is_replayed(g);
        self.add_record(
            file,
            Record {
                outcome: replay.outcome,
                replayed,
                plies: replay.mainline.len() as u32,
                has_errors: g.has_errors(),
                diagnostics: &g.diagnostics,
                draw_basis: replay.draw.as_ref().and_then(|v| v.basis),
                end: replay.final_position().copied(),
                opening: opening(g, self.options.depth),
                tags: Tags::of(|name| g.game.tag(name)),
            },
        );
    }

    /// Counts one game the quick lane of a [`crate::check::Diagnoser`] took; for openings
    /// the checker must keep as many first plies as the opening depth
    /// ([`crate::check::Diagnoser::keep_first_plies`]).
    pub fn add_quick(&mut self, file: &str, g: &QuickGame<'_>) {
        let plies = g.first_plies();
        let depth = self.options.depth;
        // a quick game is replayed completely, so a shorter game has all its plies here
        let opening = (depth > 0 && g.start() == Position::start() && !plies.is_empty())
            .then(|| opening_text(plies.iter().take(depth).map(|p| (p.before, p.mv, p.number))));
        self.add_record(
            file,
            Record {
                outcome: g.outcome(),
                replayed: true,
                plies: g.diagnosed.summary.plies,
                has_errors: g.diagnosed.summary.has_errors,
                diagnostics: &g.diagnosed.diagnostics,
                draw_basis: g.diagnosed.summary.draw_basis,
                end: Some(g.end()),
                opening,
                tags: Tags::first_of(g.tags()),
            },
        );
    }

    /// Counts one game as [`crate::check::Diagnoser::check`] gave it: [`add`](Self::add)
    /// or [`add_quick`](Self::add_quick).
    pub fn add_checked(&mut self, file: &str, g: Checked<'_>) {
        match g {
            Checked::Full(g) => {
                self.add(file, &g);
                // (a long game's main line is kept for the next one: see Game::recycle)
                g.game.recycle();
            }
            Checked::Quick(g) => self.add_quick(file, &g),
        }
    }

    fn add_record(&mut self, file: &str, g: Record<'_>) {
        let outcome = g.outcome;
        let replayed = g.replayed;
        let plies = g.plies;
        self.games += 1;
        self.plies += u64::from(plies);
        *self.variants.at(variant_key(g.tags.game_type)) += 1;
        if !replayed {
            self.not_replayed += 1;
        }
        if g.has_errors {
            self.with_errors += 1;
        }
        for d in g.diagnostics {
            self.count_diagnostic(d.rule, d.severity);
        }
        self.results.add(outcome);
        if outcome == Outcome::Draw {
            *self.draws.at(draw_key(g.draw_basis, replayed)) += 1;
        }
        if replayed {
            *self.lengths.entry(plies).or_default() += 1;
            if let Some(end) = &g.end {
                self.material
                    .entry(MaterialCounts::of(end))
                    .or_default()
                    .add(outcome);
            }
        }
        let opening = g.opening;
        if let Some(o) = &opening {
            self.openings.at(o).add(outcome);
        }
        for (color, tag) in [(Color::White, g.tags.white), (Color::Black, g.tags.black)] {
            if let Some(name) = player_name(tag) {
                self.players.at(name).add(outcome, color);
            }
        }
        let year;
        let key = match self.options.by {
            None | Some(GroupBy::Player) => return,
            Some(GroupBy::Event) => g
                .tags
                .event
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .unwrap_or(NO_KEY),
            Some(GroupBy::Year) => {
                year = year_key(g.tags.date);
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
        self.files += other.files;
        self.unreadable_files += other.unreadable_files;
        self.bytes += other.bytes;
        add_map(&mut self.encodings, other.encodings);
        self.games += other.games;
        self.plies += other.plies;
        add_map(&mut self.variants, other.variants);
        self.not_replayed += other.not_replayed;
        self.with_errors += other.with_errors;
        add_map(&mut self.diagnostics, other.diagnostics);
        self.results.merge(&other.results);
        add_map(&mut self.draws, other.draws);
        add_map(&mut self.lengths, other.lengths);
        // (the smaller map into the larger: stats merged into empty ones at the end of a
        // run took 1.4% of `stats -j1`, moving every opening)
        merge_into_larger(&mut self.openings, other.openings, ResultCounts::merge);
        merge_into_larger(&mut self.players, other.players, PlayerCounts::merge);
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

/// Whether a game counts as replayed: its main line replayed completely and it has no
/// syntax error of error severity. The others are "not replayed".
pub fn is_replayed(g: &CheckedGame) -> bool {
    g.replay.status == Status::Complete
        && !g
            .game
            .errors
            .iter()
            .any(|e| e.severity() == crate::pdn::Severity::Error)
}

/// What [`Stats`] counts of one game, from the full check or the quick lane.
struct Record<'a> {
    outcome: Outcome,
    replayed: bool,
    plies: u32,
    has_errors: bool,
    diagnostics: &'a [crate::diag::Diagnostic],
    draw_basis: Option<DrawBasis>,
    /// The final position, when the main line was replayed.
    end: Option<Position>,
    opening: Option<String>,
    tags: Tags<'a>,
}

/// The tags [`Stats`] reads (the first of each name, decoded).
struct Tags<'a> {
    white: Option<&'a str>,
    black: Option<&'a str>,
    event: Option<&'a str>,
    date: Option<&'a str>,
    game_type: Option<&'a str>,
}

impl<'a> Tags<'a> {
    fn of(tag: impl Fn(&str) -> Option<&'a str>) -> Self {
        Tags {
            white: tag("White"),
            black: tag("Black"),
            event: tag("Event"),
            date: tag("Date"),
            game_type: tag("GameType"),
        }
    }

    /// The first of each tag among `tags` (name, value), in one pass (five look-ups,
    /// each through the game's tags, were a fifth of what counting a game cost).
    fn first_of(tags: impl Iterator<Item = (&'a str, &'a str)>) -> Self {
        let mut found = Tags {
            white: None,
            black: None,
            event: None,
            date: None,
            game_type: None,
        };
        for (name, value) in tags {
            let slot = match name {
                "White" => &mut found.white,
                "Black" => &mut found.black,
                "Event" => &mut found.event,
                "Date" => &mut found.date,
                "GameType" => &mut found.game_type,
                _ => continue,
            };
            slot.get_or_insert(value);
        }
        found
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
/// `early_agreement`, or `unjudged` when the game was not replayed.
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

/// The year of a Date tag, `?` when unknown or unreadable.
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
pub fn material_key(pos: &Position) -> String {
    MaterialCounts::of(pos).text()
}

/// Kings and men of each side, White first: what [`material_key`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MaterialCounts([u8; 4]);

impl MaterialCounts {
    fn of(pos: &Position) -> MaterialCounts {
        let count = |b: crate::rules::Bitboard| b.count() as u8;
        MaterialCounts([
            count(pos.kings(Color::White)),
            count(pos.men(Color::White)),
            count(pos.kings(Color::Black)),
            count(pos.men(Color::Black)),
        ])
    }

    /// `3K v K`, `K+2M v 3M`, `0 v K`.
    pub(crate) fn text(self) -> String {
        let [wk, wm, bk, bm] = self.0.map(u32::from);
        format!("{} v {}", side_material(wk, wm), side_material(bk, bm))
    }
}

/// The opening of a game (see the module documentation), `None` when it has none.
pub fn opening(g: &CheckedGame, depth: usize) -> Option<String> {
    let r = &g.replay;
    if depth == 0 || r.mainline.is_empty() || r.start != Some(Position::start()) {
        return None;
    }
    if r.mainline.len() < depth && r.status != Status::Complete {
        return None;
    }
    Some(opening_text(
        r.mainline
            .iter()
            .take(depth)
            .map(|p| (p.before, p.mv, p.move_number)),
    ))
}

/// Plies (position before, move, full-move number) in canonical notation, numbered.
fn opening_text(plies: impl Iterator<Item = (Position, crate::rules::Move, u32)>) -> String {
    let style = Style {
        captures: CaptureStyle::Minimal,
        ..Style::default()
    };
    // (about what six plies take, so that it is allocated once)
    let mut out = String::with_capacity(64);
    for (before, mv, number) in plies {
        if !out.is_empty() {
            out.push(' ');
        }
        let dots = match before.turn() {
            Color::White => Some(". "),
            Color::Black if out.is_empty() => Some("... "),
            Color::Black => None,
        };
        if let Some(dots) = dots {
            // (without the formatting machinery, which cost as much as the moves)
            out.push_str(itoa::Buffer::new().format(number));
            out.push_str(dots);
        }
        push_move(&mut out, &before, &mv, style);
    }
    out
}

/// The stats of one input and how reading it ended.
#[derive(Debug)]
pub struct FileStats {
    /// The counts, including this file in `files` and `bytes`.
    pub stats: Stats,
    /// Why reading stopped early (or could not start), if it did.
    pub error: Option<std::io::Error>,
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// Counts a read problem of a file: a located one the reader goes on after (a game too
/// large to hold, text outside any game) is counted as `lint` reports it; any other (the
/// file cannot be read, or is not PDN) ends the file, kept in `error`: then `true`.
fn read_problem(e: ReadError, stats: &mut Stats, error: &mut Option<std::io::Error>) -> bool {
    match e {
        ReadError::At { kind, .. } if kind != SyntaxErrorKind::NotPdn => {
            stats.add_read_problem(kind);
            false
        }
        e => {
            *error = Some(std::io::Error::other(e));
            true
        }
    }
}

/// Counts up to [`BATCH`] games of `splitter` into `stats`, each read and checked in one
/// pass over its text where the quick lane takes it, not cut out and copied first; read
/// problems as [`read_problem`]. Returns the games counted, and whether the input ended.
fn count_in_one_pass<R: Read>(
    (splitter, path, replay_options): (&mut GameSplitter<R>, &str, &ReplayOptions),
    stats: &mut Stats,
    checker: &mut Diagnoser,
    error: &mut Option<std::io::Error>,
) -> (u64, bool) {
    let mut n = 0;
    while n < BATCH as u64 {
        let count = |g: Checked<'_>| stats.add_checked(path, g);
        let done = match checker.next_checked_from(splitter, path, replay_options, count) {
            Some(Ok(())) => {
                n += 1;
                false
            }
            Some(Err(e)) => read_problem(e, stats, error),
            None => true,
        };
        if done {
            return (n, true);
        }
    }
    (n, false)
}

/// Counts the games of one input (named `path`), judging them as
/// [`crate::check::CheckedGames`] does. Games are read one by one, in batches of at most
/// [`BATCH`] games that are counted on the current rayon pool while the next ones are
/// read (at most one a thread waiting), so a huge file uses every core and memory stays
/// bounded; while every other thread is busy (and always on one thread) the reading
/// thread counts the next games itself, reading most in one pass over their text.
/// Never panics on input; an I/O error ends the file and is returned
/// beside what was counted before it.
pub fn stats_reader(
    path: &str,
    input: impl Read,
    check: &CheckOptions,
    options: &StatsOptions,
) -> FileStats {
    stats_reader_with_progress(path, input, check, options, |_| {})
}

/// [`stats_reader`], calling `progress(n)` after each batch of `n` games (for a progress
/// display on long files).
pub fn stats_reader_with_progress(
    path: &str,
    input: impl Read,
    check: &CheckOptions,
    options: &StatsOptions,
    progress: impl Fn(u64),
) -> FileStats {
    let mut stats = Stats::new(*options);
    let count = Rc::new(Cell::new(0));
    let input = Counting {
        inner: input,
        count: Rc::clone(&count),
    };
    // The same reader and replay options as `CheckedGames::new`.
    let replay_options = check.replay_options();
    let mut splitter = match GameSplitter::new(input, check.reader_options()) {
        Ok(s) => s,
        Err(e) => {
            stats.add_file(None, count.get(), true);
            return FileStats {
                stats,
                error: Some(e),
            };
        }
    };
    let encoding = splitter.encoding().name();
    let mut error = None;
    // Batches are counted while the next ones are read: handed to the other threads
    // while fewer than one a thread wait; else the next games are counted here, read and
    // checked in one pass (on the 10 MB archive, `pdnkit stats -j1`, which ran on this
    // until the twenty-fifth session, was 9% faster than cutting them into a batch
    // first, `-j2` 3%). (Read, then counted by all threads together, `stats -j2` was 1.3
    // times `-j1`: the reading held one thread and left the other idle, and each batch
    // waited for its slowest game.) Each thread counts into its own stats, with its own
    // checker, merged once at the end: counts merge in any order to the same stats, and
    // a batch's own stats merged into the file's took 5% of `stats`. (The command now
    // reads as `lint` does, a big file in blocks: see its source.)
    let threads = rayon::current_num_threads().max(1);
    let new_slot = || {
        let mut checker = Diagnoser::default();
        checker.keep_first_plies(options.depth);
        std::sync::Mutex::new((Stats::new(*options), checker))
    };
    // (one a thread of the pool, one more for a reading thread outside it)
    let slots: Vec<_> = (0..=threads).map(|_| new_slot()).collect();
    // this thread's slot (a batch that panicked poisons its slot and ends the scope with
    // its panic)
    let slot = || {
        let slot = rayon::current_thread_index().map_or(threads, |i| i.min(threads));
        slots[slot].lock().unwrap_or_else(|e| e.into_inner())
    };
    let count_batch = |games: Vec<crate::pdn::RawGame>| {
        let mut slot = slot();
        let (counted, checker) = &mut *slot;
        for raw in games {
            counted.add_checked(path, checker.check(path, raw, &replay_options));
        }
    };
    let in_flight = std::sync::atomic::AtomicUsize::new(0);
    let (count_batch, in_flight) = (&count_batch, &in_flight);
    rayon::in_place_scope(|scope| {
        loop {
            if threads == 1 || in_flight.load(Ordering::Acquire) >= threads {
                // Every thread is busy (or there is only this one): the next games are
                // counted here, each read and checked in one pass over its text where the
                // quick lane takes it, not cut out and copied for a batch first.
                let mut slot = slot();
                let (counted, checker) = &mut *slot;
                let reading = (&mut splitter, path, &replay_options);
                let (n, done) = count_in_one_pass(reading, counted, checker, &mut error);
                drop(slot);
                progress(n);
                if done {
                    break;
                }
                continue;
            }
            let mut batch = Vec::with_capacity(BATCH);
            let mut done = false;
            let mut bytes = 0;
            while batch.len() < BATCH && bytes < BATCH_BYTES {
                match splitter.next() {
                    Some(Ok(raw)) => {
                        bytes += raw.text.len();
                        batch.push(raw);
                    }
                    Some(Err(e)) => {
                        if read_problem(e, &mut stats, &mut error) {
                            done = true;
                            break;
                        }
                    }
                    None => {
                        done = true;
                        break;
                    }
                }
            }
            let n = batch.len() as u64;
            if !batch.is_empty() {
                // (only this thread adds to `in_flight`: there is room for the batch still)
                in_flight.fetch_add(1, Ordering::AcqRel);
                scope.spawn(move |_| {
                    count_batch(batch);
                    in_flight.fetch_sub(1, Ordering::AcqRel);
                });
            }
            progress(n);
            if done {
                break;
            }
        }
    });
    for slot in slots {
        let (counted, _) = slot.into_inner().unwrap_or_else(|e| e.into_inner());
        stats.merge(counted);
    }
    stats.add_file(Some(encoding), count.get(), error.is_some());
    FileStats { stats, error }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckedGames;

    fn checked(pdn: &str) -> Vec<CheckedGame> {
        CheckedGames::new("t.pdn", pdn.as_bytes(), &CheckOptions::default())
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    fn one(pdn: &str) -> CheckedGame {
        checked(pdn).pop().unwrap()
    }

    #[test]
    fn material_keys() {
        assert_eq!(material_key(&Position::start()), "12M v 12M");
        let g = one("[FEN \"W:WK30,K31,K22:BK4\"]\n1. c1-d2 *");
        assert_eq!(material_key(g.replay.final_position().unwrap()), "3K v K");
        let g = one("[FEN \"W:WK30,21:B4,5\"]\n1. c1-d2 *");
        assert_eq!(material_key(g.replay.final_position().unwrap()), "K+M v 2M");
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
            s.add("t.pdn", &g);
        }
        let keys: Vec<_> = s.draws.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            keys,
            [("6.1.8.6", 1), ("early_agreement", 1), ("unjudged", 1)]
        );
        assert_eq!(s.not_replayed, 1);
        assert_eq!(s.lengths.values().sum::<u64>(), 2);
    }

    /// `stats_reader` (batched, parallel) counts exactly what adding the games of
    /// `CheckedGames` one by one counts, whatever the check options: the two must read
    /// and replay with the same options.
    #[test]
    fn batched_reader_equals_checked_games() {
        let mut text = String::new();
        for i in 0..700 {
            text.push_str(match i % 4 {
                0 => "[GameType \"20\"]\n[Result \"1-0\"]\n1. 32-28 1-0\n\n",
                1 => "[White \"\u{410}\"]\n[Result \"1/2-1/2\"]\n1. c3-d4 f6-g5 1/2-1/2\n\n",
                2 => "[FEN \"W:WK30,K31:BK4\"]\n[Result \"1/2-1/2\"]\n1. c1-d2 h8-g7 2. d2-c1 g7-h8 3. c1-d2 h8-g7 4. d2-c1 g7-h8 5. c1-d2 h8-g7 1/2-1/2\n\n",
                _ => "1. c3-d4 f6-g5 2. a1-b2 *\n\n",
            });
        }
        for check in [
            CheckOptions::default(),
            CheckOptions {
                force_russian: true,
                ..CheckOptions::default()
            },
            CheckOptions {
                edition: crate::draw::Edition::Fmjd,
                ..CheckOptions::default()
            },
            CheckOptions {
                encoding: Some(encoding_rs::WINDOWS_1251),
                ..CheckOptions::default()
            },
        ] {
            let options = StatsOptions {
                depth: 2,
                by: Some(GroupBy::Opening),
            };
            let batched = stats_reader("t.pdn", text.as_bytes(), &check, &options);
            assert!(batched.error.is_none());
            let mut one_by_one = Stats::new(options);
            let games = CheckedGames::new("t.pdn", text.as_bytes(), &check).unwrap();
            let encoding = games.encoding().name();
            for g in games {
                one_by_one.add("t.pdn", &g.unwrap());
            }
            one_by_one.add_file(Some(encoding), text.len() as u64, false);
            assert_eq!(batched.stats, one_by_one, "{check:?}");
        }
    }

    #[test]
    #[should_panic(expected = "different options")]
    fn merging_different_options_panics() {
        let mut a = Stats::new(StatsOptions::default());
        a.merge(Stats::new(StatsOptions { depth: 2, by: None }));
    }
}
