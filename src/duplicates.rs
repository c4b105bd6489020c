//! Copies of games across files: the same main line from the same start position, however
//! it is written.
//!
//! Two games are copies when their main lines are the same moves from the same start
//! position, whatever the notation (algebraic or numeric, short or full captures), the
//! encoding or the file: the checker resolves every move, and what is compared is the
//! resolved move (its first and last squares and the set of pieces it takes) and the start
//! position, never the text. A group of copies is of one of three [`Kind`]s, and one copy
//! of each group is the one to keep: the richest.
//!
//! # Memory
//!
//! Archives of any size are searched in bounded memory: a first pass keeps per game only a
//! [`Fingerprint`] of fixed size (two 64-bit keyed hashes of the whole line, the hash of
//! its first [`PREFIX_PLIES`] plies, its length and richness: 32 bytes), and two 32-bit
//! indices once it is read, 40 bytes a game in all. The groups are found by sorting those
//! indices; a second pass re-reads the inputs that hold a game of some candidate group,
//! confirms the groups, finds which lines are prefixes of which, and writes what is shown
//! of each game of a group (where it is, its roster tags) to a spool file the caller gives,
//! from which the groups are read back one at a time. An input that cannot be read twice
//! (standard input, a pipe) must be copied to a file first (the CLI does).
//!
//! # Hashes
//!
//! A line's key is 128 bits: two SipHash-1-3 hashes of the line under independent random
//! keys of the run. Equal keys are taken for equal lines without comparing the moves: for a
//! billion games, the chance that two different lines anywhere share a key is about
//! 10⁻²¹ (the birthday bound, 10¹⁸ pairs over 2¹²⁸), far below the chance of a memory
//! error while the run goes; and since the keys are random, no file can be made to collide.
//! The 64-bit hash of a line's first plies only picks candidates: prefixes are confirmed
//! with full keys.
//!
//! # Lines that do not replay
//!
//! A main line that stops at an illegal, ambiguous or unreadable move still takes part: it
//! is the moves replayed, then each move written after the stop as its first and last
//! squares when it names squares of the board (so that a short and a full capture, or the
//! numeric and the algebraic name, still agree), else as its text. A game of a variant not
//! replayed (or whose setup is invalid) is compared by its `FEN` and `GameType` tags and its
//! moves so written. A game without moves takes no part: nothing in it makes it a copy.
//!
//! # The library's use by the commands
//!
//! `duplicates` reports the groups; `stats --unique`, `lint --unique` and `select --unique`
//! ask [`Copies`] whether a game (an input and a game number in it) is a copy to drop.
//! [`find`] runs both passes.
//!
//! ```
//! use pdnkit::duplicates::{self, Kind};
//! use pdnkit::run::{Input, RunOptions};
//! let dir = tempfile::tempdir().unwrap();
//! let roster = "[Event \"e\"][Site \"s\"][Date \"2024.01.01\"][Round \"1\"][White \"w\"][Black \"b\"][Result \"*\"]";
//! std::fs::write(dir.path().join("a.pdn"), format!("{roster}\n1. c3-d4 f6-g5 *\n")).unwrap();
//! // the same game in numeric notation, with another White
//! let numeric = roster.replace("\"w\"", "\"x\"");
//! std::fs::write(dir.path().join("b.pdn"), format!("{numeric}\n1. 22-18 11-16 *\n")).unwrap();
//! let inputs = [Input::File(dir.path().join("a.pdn")), Input::File(dir.path().join("b.pdn"))];
//! let spool = tempfile::tempfile().unwrap();
//! let mut groups = duplicates::find(&inputs, &RunOptions::default(), spool, |_| {}).unwrap();
//! let mut seen = Vec::new();
//! groups.visit(|group, members| {
//!     assert_eq!(group.kind, Kind::SameMoves);
//!     seen.extend(members.iter().map(|m| (m.entry.input, m.entry.game, m.keep)));
//!     Ok(())
//! }).unwrap();
//! assert_eq!(seen, [(0, 1, true), (1, 1, false)]);
//! ```

use crate::check::checker::{GameReport, Keep};
use crate::diag::Diagnostic;
use crate::diag::codes::{self, RuleSet};
use crate::rules::board_square;
use crate::rules::fen::FenSquare;
use crate::rules::notation::MoveText;
use crate::run::{self, Checked, Event, Input, RunOptions, Task};
use std::fs::File;
use std::hash::{BuildHasher, DefaultHasher, Hasher, RandomState};
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// How long the shorter line of a [`Kind::Prefix`] pair is at least, in plies.
pub const PREFIX_PLIES: u32 = 20;

/// The roster tags: a [`Kind::SameGame`] copy has the same values of all of them.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// How a game of a group relates to the copy kept. Ordered from the closest to the
/// loosest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The same moves and the same roster tags ([`same_roster`]).
    SameGame,
    /// The same moves; some roster tag differs.
    SameMoves,
    /// The main line is a prefix, of at least [`PREFIX_PLIES`] plies, of the kept one's:
    /// an unfinished copy.
    Prefix,
}

impl Kind {
    /// The name in the outputs: `same-game`, `same-moves`, `prefix`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::SameGame => "same-game",
            Kind::SameMoves => "same-moves",
            Kind::Prefix => "prefix",
        }
    }
}

/// Whether two values of the roster tag `name` are the same: compared trimmed, with runs
/// of white space as one space and without case (`Moscow ch` is `MOSCOW  CH`); a missing
/// tag, an empty value and `?` are alike (unknown). A `Date` read as a date is compared
/// as that date (`1999.01.02` is `02.01.1999`), a `Result` as the outcome (`2-0` is `1-0`).
pub fn same_roster(name: &str, a: Option<&str>, b: Option<&str>) -> bool {
    roster_key(name, a) == roster_key(name, b)
}

/// The form of a roster value [`same_roster`] compares.
fn roster_key(name: &str, value: Option<&str>) -> String {
    let value = value.map_or("", str::trim);
    if matches!(value, "" | "?" | "-") {
        return String::new();
    }
    match name {
        "Date" => match crate::date::parse_date(value) {
            crate::date::DateValue::Date(d) => return format!("{d}"),
            crate::date::DateValue::Unknown => return String::new(),
            _ => {}
        },
        "Result" => {
            if let Some(outcome) = crate::Outcome::from_pdn(value) {
                return format!("{outcome:?}");
            }
        }
        _ => {}
    }
    let words: Vec<&str> = value.split_whitespace().collect();
    words.join(" ").to_lowercase()
}

/// The random keys of a run's line hashes (both passes must use the same).
#[derive(Clone, Debug, Default)]
pub struct LineKeys {
    a: RandomState,
    b: RandomState,
}

/// A line's hash as it is built, ply by ply.
#[derive(Clone)]
struct LineHasher {
    a: DefaultHasher,
    b: DefaultHasher,
}

impl LineHasher {
    fn word(&mut self, w: u64) {
        self.a.write_u64(w);
        self.b.write_u64(w);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.a.write(b);
        self.b.write(b);
        self.a.write_usize(b.len());
        self.b.write_usize(b.len());
    }

    fn key(&self) -> [u64; 2] {
        [self.a.finish(), self.b.finish()]
    }
}

/// What a line's hash takes of each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step<'a> {
    /// A move played: its first and last squares and what it takes.
    Played(u64),
    /// A move written after the line stopped, naming squares of the board.
    Squares(u64),
    /// A move written after the line stopped, as written.
    Text(&'a str),
}

impl LineKeys {
    /// New random keys.
    pub fn new() -> LineKeys {
        LineKeys::default()
    }

    /// The hasher of a line starting where `report`'s main line starts.
    fn start(&self, report: &GameReport) -> LineHasher {
        let mut h = LineHasher {
            a: self.a.build_hasher(),
            b: self.b.build_hasher(),
        };
        match (&report.start, &report.variant_line.start) {
            (Some(pos), _) => {
                h.word(0);
                std::hash::Hash::hash(pos, &mut h.a);
                std::hash::Hash::hash(pos, &mut h.b);
            }
            (None, Some(pos)) => {
                h.word(2);
                std::hash::Hash::hash(pos, &mut h.a);
                std::hash::Hash::hash(pos, &mut h.b);
            }
            (None, None) => {
                h.word(1);
                for name in ["FEN", "GameType"] {
                    h.bytes(report.tag(name).unwrap_or("").trim().as_bytes());
                }
            }
        }
        h
    }
}

/// The steps of `report`'s main line: the moves played, then those written after it
/// stopped.
fn steps(report: &GameReport) -> impl Iterator<Item = Step<'_>> {
    let played = report.mainline.iter().map(|p| {
        let m = &p.mv;
        let packed = m.from().index() as u64
            | (m.to().index() as u64) << 8
            | u64::from(m.captured().0) << 16;
        Step::Played(packed)
    });
    // (a move of another variant: its squares, and its captured set folded to 40 bits)
    let played_other = report.variant_line.mainline.iter().map(|p| {
        let m = &p.mv;
        let captured = m
            .captured()
            .fold(0u64, |h, i| h.rotate_left(7) ^ (u64::from(i) + 1));
        Step::Played(
            u64::from(m.from()) | u64::from(m.to()) << 8 | (captured & 0xff_ffff_ffff) << 16,
        )
    });
    (played.chain(played_other)).chain(report.unplayed.iter().map(|text| unplayed_step(text)))
}

/// A move written after the line stopped: its first and last squares when it is a move of
/// squares of the board, else its text.
fn unplayed_step(text: &str) -> Step<'_> {
    let squares = text.parse::<MoveText>().ok().and_then(|m| {
        let square = |s: Option<&FenSquare>| s.and_then(|&s| board_square(s).ok());
        Some((square(m.squares.first())?, square(m.squares.last())?))
    });
    match squares {
        Some((from, to)) => Step::Squares(from.index() as u64 | (to.index() as u64) << 8),
        None => Step::Text(text.trim()),
    }
}

impl LineHasher {
    fn step(&mut self, step: Step<'_>) {
        match step {
            Step::Played(w) => self.word(2 << 60 | w),
            Step::Squares(w) => self.word(3 << 60 | w),
            Step::Text(t) => {
                self.word(4 << 60);
                self.bytes(t.as_bytes());
            }
        }
    }
}

/// What the first pass keeps of a game: 32 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    /// The key of the whole main line and its start position.
    pub hash: [u64; 2],
    /// A hash of the start and the first [`PREFIX_PLIES`] plies (when there are that many).
    pub opening: u64,
    /// The main line's moves (played and written after a stop); 0: the game takes no
    /// part.
    pub plies: u32,
    /// How rich the record is: its tags, comments and variations.
    pub richness: u32,
}

impl Fingerprint {
    /// The fingerprint of a checked game (`report` kept every main-line ply: [`KEEP`]),
    /// whose text is `text`.
    pub fn of(keys: &LineKeys, report: &GameReport, text: &str) -> Fingerprint {
        let mut h = keys.start(report);
        let mut plies = 0u32;
        let mut opening = 0;
        for step in steps(report) {
            h.step(step);
            plies += 1;
            if plies == PREFIX_PLIES {
                opening = h.a.finish();
            }
        }
        Fingerprint {
            hash: h.key(),
            opening,
            plies,
            richness: richness(report, text),
        }
    }
}

/// What the checker keeps for a fingerprint: every main-line ply.
pub const KEEP: Keep = Keep {
    plies: usize::MAX,
    moves: false,
    tree: false,
    tags_only: false,
    positions: false,
};

/// A game's tags, comments and variations: the more, the richer the record. Comments and
/// variations are counted in the movetext (after the last tag) by their opening brackets,
/// a comment's text skipped.
fn richness(report: &GameReport, text: &str) -> u32 {
    let start = report.tags.last().map_or(0, |t| t.span.end).min(text.len());
    let b = &text.as_bytes()[start..];
    let mut n = report.tags.len();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                n += 1;
                i += memchr::memchr(b'}', &b[i..]).unwrap_or(b.len() - i);
            }
            b';' => {
                n += 1;
                i += memchr::memchr(b'\n', &b[i..]).unwrap_or(b.len() - i);
            }
            b'(' => n += 1,
            _ => {}
        }
        i += 1;
    }
    u32::try_from(n).unwrap_or(u32::MAX).min(RICHNESS)
}

/// The largest richness kept (the bits above are flags).
const RICHNESS: u32 = (1 << 30) - 1;
/// A flag of [`Record::meta`]: the game's line has copies.
const IN_CLASS: u32 = 1 << 31;
/// A flag of [`Record::meta`]: the game shares its first plies with a line of another
/// length, which may be a prefix of it or have it as one.
const PREFIX_CANDIDATE: u32 = 1 << 30;

/// The task of the first pass: each game's [`Fingerprint`].
pub struct Fingerprints {
    keys: LineKeys,
}

impl Task for Fingerprints {
    type Output = Fingerprint;

    fn keep(&self) -> Keep {
        KEEP
    }

    fn game(&self, g: Checked<'_>) -> Fingerprint {
        Fingerprint::of(&self.keys, g.report, g.source.text)
    }
}

/// A game as the search keeps it: 32 bytes.
#[derive(Debug)]
struct Record {
    hash: [u64; 2],
    /// The hash of the first plies in the first pass; then where the game's [`Entry`] is in
    /// the spool ([`NO_ENTRY`] until it is written).
    aux: AtomicU64,
    plies: u32,
    /// The richness and the flags.
    meta: AtomicU32,
}

const NO_ENTRY: u64 = u64::MAX;

impl Record {
    fn richness(&self) -> u32 {
        self.meta.load(Relaxed) & RICHNESS
    }

    fn involved(&self) -> bool {
        self.meta.load(Relaxed) & (IN_CLASS | PREFIX_CANDIDATE) != 0
    }

    fn flag(&self, flag: u32) {
        self.meta.fetch_or(flag, Relaxed);
    }
}

/// A vector in chunks: it grows without moving what it holds, so that its peak is what
/// it holds and a chunk (no copy of the whole beside the whole).
#[derive(Debug)]
struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

const CHUNK: usize = 1 << 16;

impl<T> Chunked<T> {
    fn push(&mut self, value: T) {
        if self.len % CHUNK == 0 {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        self.chunks.last_mut().expect("a chunk").push(value);
        self.len += 1;
    }

    fn len(&self) -> usize {
        self.len
    }
}

impl<T> std::ops::Index<u32> for Chunked<T> {
    type Output = T;
    fn index(&self, i: u32) -> &T {
        let i = i as usize;
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

/// The most games a search takes (game numbers are 31-bit indices): two billion.
pub const MAX_GAMES: usize = (1 << 31) - 1;

/// The first pass: takes every game's [`Fingerprint`] in input order.
///
/// Feed it every event of a run of [`Finder::task`] over the inputs, then make the
/// [`Index`].
#[derive(Debug, Default)]
pub struct Finder {
    keys: LineKeys,
    records: Chunked<Record>,
    /// The number of the first game of each input.
    starts: Vec<u32>,
    /// More than [`MAX_GAMES`] games were read.
    overflow: bool,
}

impl Finder {
    /// A search with keys of its own.
    pub fn new() -> Finder {
        Finder::default()
    }

    /// The task to run over the inputs.
    pub fn task(&self) -> Fingerprints {
        Fingerprints {
            keys: self.keys.clone(),
        }
    }

    /// Takes an event of the run of [`Finder::task`] (problems are the caller's).
    pub fn event(&mut self, event: &Event<Fingerprint>) {
        match event {
            Event::Start => self.starts.push(self.records.len() as u32),
            Event::Game(f) => {
                if self.records.len() >= MAX_GAMES {
                    self.overflow = true;
                    return;
                }
                self.records.push(Record {
                    hash: f.hash,
                    aux: AtomicU64::new(if f.plies >= PREFIX_PLIES {
                        f.opening
                    } else {
                        0
                    }),
                    plies: f.plies,
                    meta: AtomicU32::new(f.richness.min(RICHNESS)),
                });
            }
            Event::Problem(_) | Event::End(_) => {}
        }
    }

    /// The games taken so far.
    pub fn games(&self) -> usize {
        self.records.len()
    }

    /// Finds the candidate groups: the lines of more than one game, and the games whose
    /// first plies are those of a line of another length.
    pub fn index(self) -> io::Result<Index> {
        if self.overflow {
            return Err(io::Error::other(format!(
                "more than {MAX_GAMES} games: too many to search for copies in one run"
            )));
        }
        let r = &self.records;
        let n = r.len();
        let mut order: Vec<u32> = (0..n as u32).filter(|&o| r[o].plies > 0).collect();
        // the games of at least PREFIX_PLIES plies by their first plies, then by length:
        // a run of one opening with lines of different lengths may hold prefixes
        let long = |o: u32| r[o].plies >= PREFIX_PLIES;
        let opening = |o: u32| r[o].aux.load(Relaxed);
        order.sort_unstable_by_key(|&o| (!long(o), opening(o), r[o].plies));
        for run in order.chunk_by(|&x, &y| long(x) && long(y) && opening(x) == opening(y)) {
            let (first, last) = (run[0], run[run.len() - 1]);
            if long(first) && r[first].plies != r[last].plies {
                run.iter().for_each(|&o| r[o].flag(PREFIX_CANDIDATE));
            }
        }
        // the lines: runs of one key, the first game of each its class
        order.sort_unstable_by_key(|&o| (r[o].hash, o));
        let link: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NO_LINK)).collect();
        for run in order.chunk_by(|&x, &y| r[x].hash == r[y].hash) {
            for &o in run {
                link[o as usize].store(run[0], Relaxed);
                if run.len() > 1 {
                    r[o].flag(IN_CLASS);
                }
                r[o].aux.store(NO_ENTRY, Relaxed);
            }
        }
        // (only the games of some candidate group are looked up from here on)
        order.retain(|&o| r[o].involved());
        order.shrink_to_fit();
        Ok(Index {
            keys: self.keys,
            records: self.records,
            order,
            link,
            starts: self.starts,
        })
    }
}

/// No class: a game without moves.
const NO_LINK: u32 = u32::MAX;
/// In [`Index::link`] of a class's first game: the rest is the first game of the class of
/// the longest line this one is a prefix of.
const PARENT: u32 = 1 << 31;

/// The candidate groups after the first pass; [`Index::confirm`] runs the second.
pub struct Index {
    keys: LineKeys,
    records: Chunked<Record>,
    /// The games of candidate groups, by key then number (the second pass looks keys up
    /// here); after it, by group.
    order: Vec<u32>,
    /// Of each game, the first game of its class (the games of the same line); of that
    /// first game, [`PARENT`] and the first game of the class its line is a prefix of, when
    /// it is one.
    link: Vec<AtomicU32>,
    starts: Vec<u32>,
}

/// What is shown of a game of a group, written to the spool in the second pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// The input (its index in the inputs given).
    pub input: u32,
    /// The game's number in its input (1-based).
    pub game: u64,
    /// The line its first tag (or first move) is on.
    pub line: u64,
    /// The values of the [`ROSTER`] tags, in that order (`None`: missing).
    pub roster: [Option<String>; 7],
}

/// What the second pass finds of a game.
#[derive(Debug)]
pub enum Found {
    /// No game of a candidate group.
    Not,
    /// A game of a candidate group (its key), the classes whose line its own extends, and
    /// what is shown of it.
    Member {
        hash: [u64; 2],
        extends: Vec<u32>,
        entry: Box<Entry>,
    },
}

/// The task of the second pass.
pub struct Confirm<'i> {
    index: &'i Index,
}

impl Index {
    /// The first game of the class of the line of key `hash`, among the games of
    /// candidate groups.
    fn class_of(&self, hash: [u64; 2]) -> Option<u32> {
        let at = self.order.partition_point(|&o| self.records[o].hash < hash);
        let o = *self.order.get(at)?;
        (self.records[o].hash == hash).then_some(o)
    }

    /// Whether some game is in a candidate group (else there is nothing to confirm).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The inputs (their indices) that hold a game of a candidate group: those the second
    /// pass reads.
    pub fn inputs_to_read(&self) -> Vec<usize> {
        let n = self.records.len() as u32;
        let mut inputs = Vec::new();
        let mut involved = self.order.clone();
        involved.sort_unstable();
        for (i, &start) in self.starts.iter().enumerate() {
            let end = self.starts.get(i + 1).copied().unwrap_or(n);
            let at = involved.partition_point(|&o| o < start);
            if involved.get(at).is_some_and(|&o| o < end) {
                inputs.push(i);
            }
        }
        inputs
    }

    /// The second pass: re-reads those of `inputs` (the inputs of the first pass, in the
    /// same order, with the same reading options) that hold a game of a candidate group,
    /// confirms each group, finds the prefixes, and writes what is shown of each game to
    /// `spool` (a file opened for reading and writing; it is truncated). An input that
    /// is no longer what it was in the first pass is an error.
    pub fn confirm(
        self,
        inputs: &[Input],
        options: &RunOptions,
        spool: File,
    ) -> io::Result<Groups> {
        let options = fingerprint_options(options);
        let mut spool = spool;
        spool.set_len(0)?;
        spool.seek(SeekFrom::Start(0))?;
        let read = self.inputs_to_read();
        let subset: Vec<Input> = read.iter().map(|&i| inputs[i].clone()).collect();
        let mut out = BufWriter::new(&mut spool);
        let mut written = 0u64;
        let mut at = 0usize;
        let mut next = 0u32;
        let n = self.records.len() as u32;
        let changed = |i: usize| {
            io::Error::other(format!(
                "{} changed while it was searched for copies",
                inputs[i].label()
            ))
        };
        let task = Confirm { index: &self };
        run::run(&subset, &options, &task, |event| {
            match event {
                Event::Start => {
                    next = self.starts[read[at]];
                    at += 1;
                }
                Event::Game(found) => {
                    let input = read[at - 1];
                    let end = self.starts.get(input + 1).copied().unwrap_or(n);
                    if next >= end {
                        return Err(changed(input));
                    }
                    let o = next;
                    next += 1;
                    let record = &self.records[o];
                    match found {
                        Found::Not if !record.involved() => {}
                        Found::Member {
                            hash,
                            extends,
                            mut entry,
                        } if hash == record.hash && record.involved() => {
                            for c in extends {
                                self.extend(c, o);
                            }
                            entry.input = input as u32;
                            let mut line = serde_json::to_vec(&entry).map_err(io::Error::from)?;
                            line.push(b'\n');
                            out.write_all(&line)?;
                            record.aux.store(written, Relaxed);
                            written += line.len() as u64;
                        }
                        _ => return Err(changed(input)),
                    }
                }
                Event::Problem(_) => {}
                Event::End(_) => {
                    let input = read[at - 1];
                    let end = self.starts.get(input + 1).copied().unwrap_or(n);
                    if next != end {
                        return Err(changed(input));
                    }
                }
            }
            Ok(())
        })?;
        out.flush()?;
        drop(out);
        Ok(self.into_groups(spool))
    }

    /// Notes that the line of game `longer` extends that of class `class`: it becomes the
    /// class's parent when it is longer than the one it had (the first of the longest).
    fn extend(&self, class: u32, longer: u32) {
        let longer = self.class(longer);
        let slot = &self.link[class as usize];
        let now = slot.load(Relaxed);
        let better = match now & PARENT {
            0 => true,
            _ => self.records[longer].plies > self.records[now & !PARENT].plies,
        };
        if better {
            slot.store(PARENT | longer, Relaxed);
        }
    }

    /// The first game of the class of game `o`.
    fn class(&self, o: u32) -> u32 {
        let link = self.link[o as usize].load(Relaxed);
        if link & PARENT != 0 { o } else { link }
    }

    /// The first game of the class of the longest line game `o`'s is a prefix of (its
    /// own class's when none): what its group is known by.
    fn root(&self, o: u32) -> u32 {
        let class = self.class(o);
        let link = self.link[class as usize].load(Relaxed);
        if link & PARENT != 0 {
            link & !PARENT
        } else {
            class
        }
    }

    fn into_groups(mut self, spool: File) -> Groups {
        let mut order = std::mem::take(&mut self.order);
        order.sort_unstable_by_key(|&o| (self.root(o), o));
        Groups {
            index: self,
            order,
            spool: BufReader::with_capacity(4096, spool),
        }
    }
}

impl Task for Confirm<'_> {
    type Output = Found;

    fn keep(&self) -> Keep {
        KEEP
    }

    fn game(&self, g: Checked<'_>) -> Found {
        let index = self.index;
        let report = &*g.report;
        let mut h = index.keys.start(report);
        let mut plies = 0;
        for step in steps(report) {
            h.step(step);
            plies += 1;
        }
        if plies == 0 {
            return Found::Not;
        }
        let hash = h.key();
        let Some(class) = index.class_of(hash) else {
            return Found::Not;
        };
        let mut extends = Vec::new();
        if index.records[class].meta.load(Relaxed) & PREFIX_CANDIDATE != 0 {
            // the lines this one extends: its prefixes of PREFIX_PLIES plies and more that
            // are lines of candidate games
            let mut h = index.keys.start(report);
            for (k, step) in steps(report).enumerate().take(plies - 1) {
                h.step(step);
                if k + 1 >= PREFIX_PLIES as usize {
                    if let Some(c) = index.class_of(h.key()) {
                        extends.push(c);
                    }
                }
            }
        }
        let source = g.source;
        let line = source.position(source.stray_prefix).line;
        let roster = ROSTER.map(|name| report.tag(name).map(str::to_string));
        let entry = Box::new(Entry {
            input: 0,
            game: source.index,
            line,
            roster,
        });
        Found::Member {
            hash,
            extends,
            entry,
        }
    }

    fn rebase(&self, found: &mut Found, games: u64) {
        if let Found::Member { entry, .. } = found {
            entry.game += games;
        }
    }
}

/// The options of a pass that fingerprints: no finding is made (none is shown).
fn fingerprint_options(options: &RunOptions) -> RunOptions {
    let mut options = *options;
    options.check.report = RuleSet::EMPTY;
    options.check.omit_snippets_and_boards = true;
    options
}

/// The groups of copies found.
pub struct Groups {
    index: Index,
    /// The games of candidate groups, by group (the first game of its longest line's class)
    /// then number.
    order: Vec<u32>,
    spool: BufReader<File>,
}

/// A group of copies, as [`Groups::visit`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// 1, 2, … in the order of the groups (that of the first game of each group's longest
    /// line).
    pub id: u64,
    /// The loosest relation of a game of the group to the copy kept.
    pub kind: Kind,
}

/// A game of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// How it relates to the copy kept (for the copy kept itself: the group's kind).
    pub kind: Kind,
    /// It is the copy to keep: the one with the longest line, then the richest (most tags,
    /// comments and variations), then the first.
    pub keep: bool,
    /// Where it is and its roster tags.
    pub entry: Entry,
}

impl Groups {
    /// Gives `visit` each group and its games in input order, groups in the order of the
    /// first game of their longest line.
    pub fn visit(
        &mut self,
        mut visit: impl FnMut(Group, &[Member]) -> io::Result<()>,
    ) -> io::Result<()> {
        let order = std::mem::take(&mut self.order);
        let index = &self.index;
        let mut id = 0;
        let mut members: Vec<Member> = Vec::new();
        let result = (|| {
            for run in order.chunk_by(|&x, &y| index.root(x) == index.root(y)) {
                if run.len() < 2 {
                    continue;
                }
                id += 1;
                let root = index.root(run[0]);
                let kept = run
                    .iter()
                    .copied()
                    .max_by_key(|&o| {
                        let r = &index.records[o];
                        (r.plies, r.richness(), std::cmp::Reverse(o))
                    })
                    .expect("a group has games");
                members.clear();
                for &o in run {
                    let entry = read_entry(&mut self.spool, index.records[o].aux.load(Relaxed))?;
                    members.push(Member {
                        kind: Kind::SameGame,
                        keep: o == kept,
                        entry,
                    });
                }
                let k = run
                    .iter()
                    .position(|&o| o == kept)
                    .expect("kept is a member");
                let kept_roster = members[k].entry.roster.clone();
                let mut kind = Kind::SameGame;
                for (m, &o) in members.iter_mut().zip(run) {
                    m.kind = if index.class(o) != root {
                        Kind::Prefix
                    } else if (ROSTER.iter().zip(&m.entry.roster).zip(&kept_roster))
                        .all(|((name, a), b)| same_roster(name, a.as_deref(), b.as_deref()))
                    {
                        Kind::SameGame
                    } else {
                        Kind::SameMoves
                    };
                    kind = kind.max(m.kind);
                }
                members[k].kind = kind;
                visit(Group { id, kind }, &members)?;
            }
            Ok(())
        })();
        self.order = order;
        result
    }

    /// The copies to drop, for `--unique`.
    pub fn copies(&mut self) -> io::Result<Copies> {
        let mut copies = Copies::default();
        self.visit(|_, members| {
            let kept = members.iter().find(|m| m.keep).expect("a copy is kept");
            let at = copies.kept.len() as u32;
            copies.kept.push(Place {
                input: kept.entry.input,
                game: kept.entry.game,
                line: kept.entry.line,
            });
            for m in members.iter().filter(|m| !m.keep) {
                copies.dropped.push(Dropped {
                    input: m.entry.input,
                    game: m.entry.game,
                    kind: m.kind,
                    kept: at,
                });
            }
            Ok(())
        })?;
        copies.dropped.sort_unstable_by_key(|d| (d.input, d.game));
        Ok(copies)
    }
}

/// The entry written at `at` in the spool.
fn read_entry(spool: &mut BufReader<File>, at: u64) -> io::Result<Entry> {
    spool.seek(SeekFrom::Start(at))?;
    let mut line = String::new();
    spool.read_line(&mut line)?;
    serde_json::from_str(&line).map_err(io::Error::from)
}

/// Where a game is: its input, number and line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The input (its index in the inputs given).
    pub input: u32,
    /// The game's number in its input (1-based).
    pub game: u64,
    /// The line it starts on.
    pub line: u64,
}

/// A copy to drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Dropped {
    input: u32,
    game: u64,
    kind: Kind,
    kept: u32,
}

/// The copies to drop: every game of a group but the one kept. What `--unique` asks.
#[derive(Clone, Debug, Default)]
pub struct Copies {
    /// By input and game.
    dropped: Vec<Dropped>,
    kept: Vec<Place>,
}

/// What [`Copies::copy_of`] says of a copy to drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyOf {
    /// How it relates to the copy kept.
    pub kind: Kind,
    /// Where the copy kept is.
    pub kept: Place,
}

impl Copies {
    /// The number of copies to drop.
    pub fn len(&self) -> usize {
        self.dropped.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.dropped.is_empty()
    }

    /// Whether game `game` (1-based, as [`crate::pdn::GameSource::index`] numbers it in
    /// its input) of input `input` (its index in the inputs searched) is a copy to drop.
    pub fn is_copy(&self, input: usize, game: u64) -> bool {
        self.copy_of(input, game).is_some()
    }

    /// Of a copy to drop, its kind and the copy kept.
    pub fn copy_of(&self, input: usize, game: u64) -> Option<CopyOf> {
        let key = (input as u32, game);
        let at = self
            .dropped
            .binary_search_by_key(&key, |d| (d.input, d.game))
            .ok()?;
        let d = self.dropped[at];
        Some(CopyOf {
            kind: d.kind,
            kept: self.kept[d.kept as usize],
        })
    }

    /// The `duplicate-game` finding of game `game` of input `input` (starting on line
    /// `line`), when it is a copy to drop; `labels` name the inputs.
    pub fn finding(
        &self,
        labels: &[String],
        input: usize,
        game: u64,
        line: u64,
    ) -> Option<Diagnostic> {
        let of = self.copy_of(input, game)?;
        let kept = &of.kept;
        let label = |i: u32| labels.get(i as usize).map_or("?", String::as_str);
        let kept_at = format!(
            "game {} of {} (line {}), the copy kept",
            kept.game,
            label(kept.input),
            kept.line
        );
        let message = match of.kind {
            Kind::SameGame => format!("this game is a copy of {kept_at}"),
            Kind::SameMoves => {
                format!("this game has the same moves as {kept_at}, with other roster tags")
            }
            Kind::Prefix => format!("this game is an unfinished copy of {kept_at}"),
        };
        let mut d = Diagnostic::new(&codes::DUPLICATE_GAME, message);
        d.path = label(input as u32).to_string();
        d.game = usize::try_from(game).ok();
        (d.line, d.column) = (line as usize, 1);
        Some(d)
    }
}

/// Both passes over `inputs` (each readable twice: a file, not standard input), with
/// `options`: the groups of copies. `problem` is given the problems of the first pass
/// (inputs that cannot be read, games too large, …); the second pass's are the same and
/// are not given again. `spool` is a file opened for reading and writing, which the
/// search fills.
pub fn find(
    inputs: &[Input],
    options: &RunOptions,
    spool: File,
    mut problem: impl FnMut(Diagnostic),
) -> io::Result<Groups> {
    let mut finder = Finder::new();
    let task = finder.task();
    run::run(inputs, &fingerprint_options(options), &task, |event| {
        finder.event(&event);
        if let Event::Problem(d) = event {
            problem(d);
        }
        Ok(())
    })?;
    finder.index()?.confirm(inputs, options, spool)
}

/// Where a game is in its input: what a sink asks [`Copies`] about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameId {
    /// Its number in its input (1-based).
    pub game: u64,
    /// The line it starts on (its first tag's).
    pub line: u64,
}

/// A task whose outputs carry the [`GameId`] of their game: a sink that counts its
/// inputs ([`Event::Start`]) can ask [`Copies::is_copy`] of each output (the run loop
/// numbers games in blocks, so only the sink knows a game's number in its input).
pub struct Numbered<T>(pub T);

impl<T: Task> Task for Numbered<T> {
    type Output = (GameId, T::Output);

    fn keep(&self) -> Keep {
        self.0.keep()
    }

    fn game(&self, g: Checked<'_>) -> Self::Output {
        let source = g.source;
        let id = GameId {
            game: source.index,
            line: source.position(source.stray_prefix).line,
        };
        (id, self.0.game(g))
    }

    fn rebase(&self, (id, output): &mut Self::Output, games: u64) {
        id.game += games;
        self.0.rebase(output, games);
    }

    fn weight(&self, (_, output): &Self::Output) -> usize {
        self.0.weight(output)
    }

    fn unread(&self, problem: &Diagnostic, text: Option<&str>) -> Option<Self::Output> {
        let id = GameId {
            game: problem.game.map_or(0, |g| g as u64),
            line: problem.line as u64,
        };
        self.0.unread(problem, text).map(|o| (id, o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{Event, RunOptions, run_reader};

    #[test]
    fn roster_values_compare_trimmed_without_case_dates_as_dates() {
        assert!(same_roster(
            "Event",
            Some(" Moscow  ch "),
            Some("MOSCOW CH")
        ));
        assert!(same_roster("White", None, Some("?")));
        assert!(same_roster("Site", Some(""), None));
        assert!(same_roster("Date", Some("1999.01.02"), Some("02.01.1999")));
        assert!(same_roster("Result", Some("2-0"), Some("1-0")));
        assert!(!same_roster("Result", Some("1-1"), Some("1-0")));
        assert!(!same_roster("White", Some("Ivanov"), Some("Ivanova")));
    }

    #[test]
    fn a_move_after_a_stop_is_its_squares_in_any_notation() {
        assert_eq!(unplayed_step("c3:e5:g3"), unplayed_step("22x15x24"));
        assert_eq!(unplayed_step("c3:g3"), unplayed_step("c3:e5:g3"));
        assert_ne!(unplayed_step("c3-d4"), unplayed_step("c3-b4"));
        assert_eq!(unplayed_step(" - - "), Step::Text("- -"));
    }

    /// The fingerprints of the games of `text`.
    fn fingerprints(keys: &LineKeys, text: &str) -> Vec<Fingerprint> {
        let task = Fingerprints { keys: keys.clone() };
        let mut out = Vec::new();
        run_reader(
            "t.pdn",
            text.as_bytes(),
            &RunOptions::default(),
            &task,
            |e| {
                if let Event::Game(f) = e {
                    out.push(f);
                }
                Ok(())
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn a_fingerprint_is_of_the_moves_not_their_text() {
        let keys = LineKeys::new();
        let f = fingerprints(
            &keys,
            "[Event \"a\"]\n1. c3-d4 {x} f6-g5 (1... f6-e5) *\n\n[Event \"b\"][Site \"c\"]\n1. 22-18 11-16 *\n\n[FEN \"B:W21:B5\"]\n1. 5-9 *\n",
        );
        assert_eq!(f[0].hash, f[1].hash);
        assert_ne!(f[0].hash, f[2].hash);
        assert_eq!((f[0].plies, f[0].richness), (2, 3));
        assert_eq!((f[1].plies, f[1].richness), (2, 2));
        // other keys, other hashes: nothing outside a run depends on them
        assert_ne!(
            fingerprints(&LineKeys::new(), "1. c3-d4 *\n")[0].hash,
            fingerprints(&keys, "1. c3-d4 *\n")[0].hash
        );
    }
}
