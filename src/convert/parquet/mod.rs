//! A Parquet dataset of checked games (`pdnkit convert --format parquet -o DIR`): the
//! tables `games`, `moves` (one row per main-line ply), `diagnostics` (one per finding)
//! and, when asked, `positions` (every position of every main line), which DuckDB,
//! Polars and Spark query as they are. Their columns are in [`tables`] and
//! `schemas/parquet.json` (described in `docs/parquet.md`); the schema's version is in
//! every file's metadata ([`SCHEMA_KEY`] = [`SCHEMA_VERSION`]).
//!
//! A worker makes a game's [`GameRows`] (its moves written out, its positions' FENs:
//! what costs); the thread that puts the games out in order appends them to the tables'
//! Arrow builders in [`Dataset`], which writes row groups as they fill (`files.rs`), so
//! memory stays bounded whatever the input, and rows are in input order whatever the
//! number of threads. Games are joined to their other rows by `game_id`, their number in
//! the whole run (from 1, in input order).

mod encode;
mod files;
pub mod tables;

use crate::convert::played::Notated;
use crate::rules::{Playable, Variant, VariantPosition};
use std::io;
use std::path::Path;

use super::{Converted, GameStatus, draw_basis_text};
use crate::Color;
use crate::check::checker::TagEntry;
use crate::date::{DateValue, PartialDate, parse_date};
use crate::diag::{Diagnostic, Severity, codes};
use crate::outcome::Outcome;
use crate::replay::Ply;
use crate::rules::notation::{SquareStyle, Style, push_move_named};
use crate::rules::{FenStyle, Position, Square};
use crate::run::Checked;
use arrow_array::RecordBatch;
use files::TableFiles;
use tables::{DiagnosticsRows, GamesRows, MovesRows, PositionsRows, Table};

pub use files::partition_folder;

/// The version of the tables' columns, in each file's key-value metadata under
/// [`SCHEMA_KEY`]: a column's name, type or meaning never changes within a version.
pub const SCHEMA_VERSION: &str = "pdnkit-parquet/1";

/// The metadata key of [`SCHEMA_VERSION`].
pub const SCHEMA_KEY: &str = "pdnkit.schema";

/// The plies of the main line in `games.first_moves`.
pub const FIRST_MOVES_PLIES: usize = 20;

/// How the tables are partitioned (`--partition-by`): Hive-style folders, one per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PartitionBy {
    /// the year of the Date tag (`year=1950`)
    Year,
    /// the Event tag (`event=…`)
    Event,
    /// the GameType tag (`gametype=25`)
    Gametype,
}

impl PartitionBy {
    /// The partition key: the folders' `KEY=`.
    pub fn key(self) -> &'static str {
        match self {
            PartitionBy::Year => "year",
            PartitionBy::Event => "event",
            PartitionBy::Gametype => "gametype",
        }
    }
}

/// What a dataset holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParquetOptions {
    /// Write `positions` too.
    pub positions: bool,
    /// Partition every table by this.
    pub partition_by: Option<PartitionBy>,
}

/// A game's rows, as a worker makes them.
pub struct GameRows {
    line: u64,
    status: GameStatus,
    tags: Vec<TagEntry>,
    result: Option<String>,
    outcome: Outcome,
    /// The variant replayed by (`None` for a game the reader skipped).
    variant: Option<Variant>,
    /// Plies replayed (`None` for a game the reader skipped).
    plies: Option<u32>,
    draw_basis: Option<String>,
    start: Option<Position>,
    /// The FENs of the start and the end of the main line (of any variant).
    start_fen: Option<String>,
    final_fen: Option<String>,
    /// The main-line plies replayed, of a Russian game, or of a game of another variant.
    mainline: Vec<Ply>,
    other: Vec<Ply<VariantPosition>>,
    /// Where another variant's main line starts.
    other_start: Option<VariantPosition>,
    /// The notation of the moves and squares.
    style: Style,
    /// Their moves in the style asked for, separated by spaces; where each ends.
    texts: String,
    text_ends: Vec<usize>,
    diagnostics: Vec<Diagnostic>,
    /// With positions: the FEN of the start and of the position after each ply, one
    /// after another; where each ends.
    fens: Vec<u8>,
    fen_ends: Vec<usize>,
}

impl GameRows {
    /// The rows of a checked game, its moves written in `style`; its main line, tags and
    /// diagnostics are taken from it.
    pub fn new(g: &mut Checked<'_>, style: Style, options: &ParquetOptions) -> GameRows {
        let r = &mut *g.report;
        let mainline = std::mem::take(&mut r.mainline);
        let other = std::mem::take(&mut r.variant_line.mainline);
        let mut texts = String::with_capacity(mainline.len() * 6);
        let mut text_ends = Vec::with_capacity(mainline.len());
        for p in &mainline {
            if !texts.is_empty() {
                texts.push(' ');
            }
            push_move_named(&mut texts, &p.before, &p.mv, style, p.short_names_it);
            text_ends.push(texts.len());
        }
        for p in &other {
            if !texts.is_empty() {
                texts.push(' ');
            }
            p.played().push_text(&mut texts, style);
            text_ends.push(texts.len());
        }
        let fen = |p: &Option<Position>| p.map(|p| p.to_fen(FenStyle::Numeric));
        let line = &r.variant_line;
        let start_fen = fen(&r.start).or_else(|| line.start.map(|p| p.to_fen()));
        let final_fen = fen(&r.end).or_else(|| line.end.map(|p| p.to_fen()));
        let (mut fens, mut fen_ends) = (Vec::new(), Vec::new());
        if options.positions {
            if let Some(start) = &r.start {
                let positions = std::iter::once(start).chain(mainline.iter().map(|p| &p.after));
                // (a FEN of a Russian position is at most about 90 bytes)
                fens.reserve(64 * (mainline.len() + 1));
                fen_ends.reserve(mainline.len() + 1);
                for pos in positions {
                    pos.push_fen(FenStyle::Numeric, &mut fens);
                    fen_ends.push(fens.len());
                }
            }
        }
        if let (true, Some(start)) = (options.positions, &r.variant_line.start) {
            for pos in std::iter::once(start).chain(other.iter().map(|p| &p.after)) {
                fens.extend_from_slice(pos.to_fen().as_bytes());
                fen_ends.push(fens.len());
            }
        }
        // (before the tags are taken)
        let result = (r.tag("Result").map(str::to_string))
            .or_else(|| r.result.as_ref().map(|t| t.raw.clone()));
        GameRows {
            line: g.source.start.line,
            status: GameStatus::of(r),
            result,
            tags: std::mem::take(&mut r.tags),
            outcome: r.outcome,
            variant: Some(r.variant),
            plies: Some(r.plies),
            draw_basis: (r.draw.as_ref())
                .and_then(|v| v.basis)
                .map(|b| draw_basis_text(&b)),
            start: r.start,
            start_fen,
            final_fen,
            mainline,
            other,
            other_start: r.variant_line.start,
            style,
            texts,
            text_ends,
            diagnostics: std::mem::take(&mut g.diagnostics),
            fens,
            fen_ends,
        }
    }

    /// The row of a game the reader skipped (`problem`, a `game-too-large`): its status,
    /// and the code as its first error.
    pub fn skipped(problem: &Diagnostic) -> GameRows {
        GameRows {
            line: problem.line as u64,
            status: GameStatus::Skipped,
            tags: Vec::new(),
            result: None,
            outcome: Outcome::Unknown,
            variant: None,
            plies: None,
            draw_basis: None,
            start: None,
            start_fen: None,
            final_fen: None,
            mainline: Vec::new(),
            other: Vec::new(),
            other_start: None,
            style: Style::default(),
            texts: String::new(),
            text_ends: Vec::new(),
            diagnostics: Vec::new(),
            fens: Vec::new(),
            fen_ends: Vec::new(),
        }
    }

    /// About the bytes the rows hold (for the run loop's budget of outputs waiting).
    pub fn weight(&self) -> usize {
        self.mainline.capacity() * std::mem::size_of::<Ply>()
            + self.other.capacity() * std::mem::size_of::<Ply<VariantPosition>>()
            + self.texts.capacity()
            + self.fens.capacity()
            + self.diagnostics.len() * 256
            + self.tags.len() * 64
    }

    /// The first value of tag `name`.
    fn tag(&self, name: &str) -> Option<&str> {
        (self.tags.iter())
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The value of this game's partition.
    fn partition(&self, by: Option<PartitionBy>) -> Option<String> {
        match by? {
            PartitionBy::Year => match parse_date(self.tag("Date")?) {
                DateValue::Date(d) | DateValue::Range(d, _) => d.year.map(|y| y.to_string()),
                _ => None,
            },
            PartitionBy::Event => self.tag("Event").map(str::to_string),
            PartitionBy::Gametype => self.tag("GameType").map(str::to_string),
        }
    }
}

/// The days since 1970-01-01 of a date whose year, month and day are all known (Arrow's
/// `Date32`).
fn days(date: &PartialDate) -> Option<i32> {
    let (y, m, d) = (date.year?, date.month?, date.day?);
    let month = time::Month::try_from(m).ok()?;
    let date = time::Date::from_calendar_date(i32::from(y), month, d).ok()?;
    // (the Julian day of 1970-01-01)
    Some(date.to_julian_day() - 2_440_588)
}

/// White's score as a number; `None` when the result is unknown.
fn white_score(outcome: Outcome) -> Option<f64> {
    match outcome {
        Outcome::WhiteWins => Some(1.0),
        Outcome::Draw => Some(0.5),
        Outcome::BlackWins | Outcome::BothLose => Some(0.0),
        Outcome::Unknown => None,
    }
}

/// The score of `side` (both lose `0-0`).
fn score_of(outcome: Outcome, side: Color) -> Option<f64> {
    match (side, outcome) {
        (_, Outcome::BothLose) => Some(0.0),
        (Color::White, _) => white_score(outcome),
        (Color::Black, _) => white_score(outcome).map(|s| 1.0 - s),
    }
}

/// The tables of a dataset being written into a folder.
pub struct Dataset {
    options: ParquetOptions,
    /// The input the games that follow come from.
    path: String,
    /// The `game_id` of the next game.
    next_id: i64,
    games: TableFiles<GamesRows>,
    moves: TableFiles<MovesRows>,
    diagnostics: TableFiles<DiagnosticsRows>,
    positions: Option<TableFiles<PositionsRows>>,
}

/// What each table's builders and writers may hold (the positions' FENs and the games'
/// tags and moves are most of it).
const TABLE_BUDGET: usize = 12 << 20;
const DIAGNOSTICS_BUDGET: usize = 8 << 20;

impl Dataset {
    /// A dataset written into the folder `dir` (which exists), its moves' squares in
    /// `style`'s.
    pub fn create(dir: &Path, options: ParquetOptions, style: Style) -> io::Result<Dataset> {
        let key = options.partition_by.map(PartitionBy::key);
        let squares = square_names(style);
        let moves = move || MovesRows::new(&squares);
        Ok(Dataset {
            options,
            path: String::new(),
            next_id: 1,
            games: TableFiles::new(dir, key, TABLE_BUDGET, GamesRows::new),
            moves: TableFiles::new(dir, key, TABLE_BUDGET, moves),
            diagnostics: TableFiles::new(dir, key, DIAGNOSTICS_BUDGET, DiagnosticsRows::new),
            positions: (options.positions)
                .then(|| TableFiles::new(dir, key, TABLE_BUDGET, PositionsRows::new)),
        })
    }

    /// The games that follow come from the input named `path`.
    pub fn start_input(&mut self, path: &str) {
        self.path = path.to_string();
    }

    /// A problem of the input that is no game's (a game too large to read, text outside
    /// any game, an encoding guessed…): a row of `diagnostics`; one about a game skipped
    /// joins the game's row that follows it.
    pub fn problem(&mut self, d: &Diagnostic) -> io::Result<()> {
        let game_id =
            (d.rule == &codes::GAME_TOO_LARGE && d.game.is_some()).then_some(self.next_id);
        let path = &self.path;
        self.diagnostics
            .append(None, |rows| push_diagnostic(rows, game_id, path, d))
    }

    /// Appends a converted game's rows (a game of another format has none).
    pub fn game(&mut self, game: &Converted) -> io::Result<()> {
        let Some(rows) = &game.rows else {
            return Ok(());
        };
        let id = self.next_id;
        self.next_id += 1;
        let partition = rows.partition(self.options.partition_by);
        let partition = partition.as_deref();
        let path = &self.path;
        self.games
            .append(partition, |b| push_game(b, id, path, game.game, rows))?;
        if !rows.mainline.is_empty() || !rows.other.is_empty() {
            self.moves.append(partition, |b| push_moves(b, id, rows))?;
        }
        for d in &rows.diagnostics {
            self.diagnostics
                .append(partition, |b| push_diagnostic(b, Some(id), path, d))?;
        }
        if let Some(positions) = &mut self.positions {
            if !rows.fen_ends.is_empty() {
                positions.append(partition, |b| push_positions(b, id, rows))?;
            }
        }
        Ok(())
    }

    /// A dataset held in memory as Arrow record batches instead of written to files
    /// (without partitions): what a dataframe library takes as it is, with the rows and
    /// columns the files would have. [`Dataset::into_batches`] gives them.
    pub fn in_memory(options: ParquetOptions, style: Style) -> Dataset {
        let squares = square_names(style);
        let moves = move || MovesRows::new(&squares);
        Dataset {
            options: ParquetOptions {
                partition_by: None,
                ..options
            },
            path: String::new(),
            next_id: 1,
            games: TableFiles::in_memory(GamesRows::new),
            moves: TableFiles::in_memory(moves),
            diagnostics: TableFiles::in_memory(DiagnosticsRows::new),
            positions: (options.positions).then(|| TableFiles::in_memory(PositionsRows::new)),
        }
    }

    /// The record batches of each table of a dataset held in memory
    /// ([`Dataset::in_memory`]), in the order the tables are written; none for one
    /// written to files.
    pub fn into_batches(self) -> io::Result<Vec<(Table, Vec<RecordBatch>)>> {
        let mut tables = vec![
            (Table::Games, self.games.into_batches()?),
            (Table::Moves, self.moves.into_batches()?),
            (Table::Diagnostics, self.diagnostics.into_batches()?),
        ];
        if let Some(positions) = self.positions {
            tables.push((Table::Positions, positions.into_batches()?));
        }
        Ok(tables)
    }

    /// Writes what is held and closes every file.
    pub fn finish(self) -> io::Result<()> {
        self.games.finish()?;
        self.moves.finish()?;
        self.diagnostics.finish()?;
        if let Some(positions) = self.positions {
            positions.finish()?;
        }
        Ok(())
    }
}

/// The names of the squares in `style`, by index: the Russian board's 32 first (by
/// [`Square::index`]), then every other name a square of another variant's board may
/// have (numbers to 72, names to l12), so that the moves of any variant are in one
/// dictionary.
fn square_names(style: Style) -> Vec<String> {
    let mut names: Vec<String> = Square::all()
        .map(|sq| {
            let mut name = String::new();
            match style.squares {
                SquareStyle::Algebraic => sq.push_algebraic(&mut name),
                SquareStyle::Numeric => sq.push_numeric(&mut name),
            }
            name
        })
        .collect();
    let numbers = (1..=72).map(|n: u32| n.to_string());
    let letters = (b'a'..=b'l').map(char::from);
    let algebraic = letters.flat_map(|f| (1..=12).map(move |r| format!("{f}{r}")));
    for name in numbers.chain(algebraic) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}
/// Appends a game's row; the bytes it holds.
fn push_game(b: &mut GamesRows, id: i64, path: &str, game: u64, rows: &GameRows) -> usize {
    let tag = |name: &str| rows.tag(name);
    let date_raw = tag("Date");
    let date = date_raw.and_then(|raw| match parse_date(raw) {
        DateValue::Date(d) => days(&d),
        _ => None,
    });
    b.game_id.append_value(id);
    b.path.append_value(path);
    b.game.append_value(game as i64);
    b.line.append_value(rows.line as i64);
    b.event.append_option(tag("Event"));
    b.site.append_option(tag("Site"));
    b.date.append_option(date);
    b.date_raw.append_option(date_raw);
    b.round.append_option(tag("Round"));
    b.white.append_option(tag("White"));
    b.black.append_option(tag("Black"));
    b.result.append_option(rows.result.as_deref());
    b.score.append_option(white_score(rows.outcome));
    b.gametype.append_option(tag("GameType"));
    b.variant.append_option(rows.variant.map(Variant::name));
    let mut bytes = 160 + path.len() + rows.texts.len().min(160);
    if rows.status == GameStatus::Skipped {
        b.tags.append(false).ok();
    } else {
        // each name once, in the order first written, the values of a name written more
        // than once joined by a line break (a map has each key once)
        for (i, t) in rows.tags.iter().enumerate() {
            if rows.tags[..i].iter().any(|u| u.name == t.name) {
                continue;
            }
            b.tags.keys().append_value(&t.name);
            let mut values = rows.tags[i..].iter().filter(|u| u.name == t.name);
            let first = values.next().map_or("", |u| u.value.as_str());
            match values.next() {
                None => b.tags.values().append_value(first),
                Some(second) => {
                    let mut joined = format!("{first}\n{}", second.value);
                    for u in values {
                        joined.push('\n');
                        joined.push_str(&u.value);
                    }
                    b.tags.values().append_value(joined);
                }
            }
            bytes += t.name.len() + t.value.len() + 8;
        }
        // (appending a map cannot fail: keys and values are appended alike)
        b.tags.append(true).ok();
    }
    b.plies.append_option(rows.plies.map(|p| p as i32));
    b.status.append_value(rows.status.as_str());
    let first_error = match rows.status {
        GameStatus::Skipped => Some((codes::GAME_TOO_LARGE.code, None)),
        _ => (rows.diagnostics.iter())
            .find(|d| d.severity == Severity::Error)
            .map(|d| (d.rule.code, d.ply)),
    };
    b.first_error
        .append_option(first_error.map(|(code, _)| code));
    b.first_error_ply
        .append_option(first_error.and_then(|(_, ply)| ply).map(|p| p as i32));
    b.draw_basis.append_option(rows.draw_basis.as_deref());
    b.start_fen.append_option(rows.start_fen.as_deref());
    b.final_fen.append_option(rows.final_fen.as_deref());
    let first_moves = match rows.text_ends.get(FIRST_MOVES_PLIES - 1) {
        Some(&end) => &rows.texts[..end],
        None => &rows.texts,
    };
    match rows.status {
        GameStatus::Skipped => b.first_moves.append_null(),
        _ => b.first_moves.append_value(first_moves),
    }
    bytes
}

/// Appends a game's rows of `moves`; the bytes they hold.
fn push_moves(b: &mut MovesRows, id: i64, rows: &GameRows) -> usize {
    let mut texts = (rows.text_ends.iter()).scan(0, |start, &end| {
        let text = &rows.texts[*start..end];
        *start = end + 1;
        Some(text)
    });
    for (p, text) in rows.mainline.iter().zip(&mut texts) {
        push_ply(b, id, p, text);
        b.from.push(p.mv.from().index() as u8);
        b.to.push(p.mv.to().index() as u8);
        push_captured(b, p.mv.captured().map(|sq| sq.index() as u8));
        b.promotes.push(p.mv.promotes());
    }
    // (another variant's squares by their names in the dictionary)
    let mut name = String::new();
    for (p, text) in rows.other.iter().zip(&mut texts) {
        let played = p.played();
        push_ply(b, id, p, text);
        name.clear();
        played.push_from(&mut name, rows.style);
        let from = b.square_index(&name);
        b.from.push(from);
        name.clear();
        played.push_to(&mut name, rows.style);
        let to = b.square_index(&name);
        b.to.push(to);
        name.clear();
        played.push_captured(&mut name, rows.style, " ");
        let captured: Vec<u8> = (name.split(' ').filter(|n| !n.is_empty()))
            .map(|n| b.square_index(n))
            .collect();
        push_captured(b, captured.into_iter());
        b.promotes.push(played.promotes());
    }
    rows.texts.len() + (rows.mainline.len() + rows.other.len()) * 40
}

/// Appends what a row of `moves` says of ply `p` but its squares: its game, numbers,
/// side, and its text as written and as `text`.
fn push_ply<P: Playable>(b: &mut MovesRows, id: i64, p: &Ply<P>, text: &str) {
    b.game_id.push(id);
    b.ply.push(i64::from(p.ply));
    b.move_number.push(i64::from(p.move_number));
    b.side.push(p.side.index() as u8);
    b.written.extend_from_slice(p.written.as_bytes());
    b.written_lengths.push(p.written.len() as i64);
    b.text.extend_from_slice(text.as_bytes());
    b.text_lengths.push(text.len() as i64);
}

/// Appends a row's captured squares (indices into the squares' dictionary) with their
/// list's levels, and whether it captures.
fn push_captured(b: &mut MovesRows, squares: impl Iterator<Item = u8>) {
    let mut any = false;
    for (i, sq) in squares.enumerate() {
        b.captured.push(sq);
        b.captured_rep.push(u8::from(i > 0));
        b.captured_def.push(1);
        any = true;
    }
    if !any {
        b.captured_rep.push(0);
        b.captured_def.push(0);
    }
    b.capture.push(any);
}

/// Appends a game's rows of `positions`; the bytes they hold.
fn push_positions(b: &mut PositionsRows, id: i64, rows: &GameRows) -> usize {
    // (each position's side to move and men and kings, White's then Black's: of a Russian
    // game's main line, or of another variant's; the FENs are in that order)
    fn facts<P: Playable>(p: &P) -> (Color, [(u8, u8); 2]) {
        (
            p.to_move(),
            [Color::White, Color::Black].map(|c| p.counts(c)),
        )
    }
    let russian = (rows.start.iter())
        .chain(rows.mainline.iter().map(|p| &p.after))
        .map(facts)
        .enumerate();
    let other = (rows.other_start.iter())
        .chain(rows.other.iter().map(|p| &p.after))
        .map(facts)
        .enumerate();
    let mut start = 0;
    for ((ply, (side, [white, black])), &end) in russian.chain(other).zip(&rows.fen_ends) {
        b.game_id.append_value(id);
        b.ply.append_value(ply as i32);
        // (FENs are ASCII)
        b.fen
            .append_value(std::str::from_utf8(&rows.fens[start..end]).unwrap_or_default());
        start = end;
        b.side_to_move.append_value(side.name());
        b.white_men.append_value(white.0 as i8);
        b.white_kings.append_value(white.1 as i8);
        b.black_men.append_value(black.0 as i8);
        b.black_kings.append_value(black.1 as i8);
        b.score.append_option(score_of(rows.outcome, side));
    }
    rows.fens.len() + 40 * rows.fen_ends.len()
}

/// Appends a diagnostic's row; the bytes it holds.
fn push_diagnostic(b: &mut DiagnosticsRows, id: Option<i64>, path: &str, d: &Diagnostic) -> usize {
    b.game_id.append_option(id);
    b.path.append_value(path);
    b.game.append_option(d.game.map(|g| g as i64));
    b.line.append_value(d.line as i64);
    b.column.append_value(d.column as i64);
    b.code.append_value(d.rule.code);
    b.name.append_value(d.rule.name);
    b.severity.append_value(d.severity.as_str());
    b.message.append_value(&d.message);
    b.ply.append_option(d.ply.map(|p| p as i32));
    b.move_text.append_option(d.move_text.as_deref());
    80 + path.len() + d.message.len()
}
