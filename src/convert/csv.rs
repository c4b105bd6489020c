//! CSV rows for `pdnkit convert --to csv`, written by the csv crate (RFC 4180, CR LF row
//! ends): one row per game ([`GAME_COLUMNS`]) or one per main-line ply ([`PLY_COLUMNS`]).

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use super::played::{Notated, Played};
use super::{GameStatus, draw_basis_text, first_error, iso_date};
use crate::replay::Ply;
use crate::rules::notation::Style;
use crate::rules::{FenStyle, Playable};
use crate::run::Checked;

/// The columns of a game row, in order. With tag columns, `tag:NAME` columns follow.
pub const GAME_COLUMNS: [&str; 20] = [
    "path",
    "game",
    "event",
    "site",
    "date",
    "date_raw",
    "round",
    "white",
    "black",
    "result",
    "score",
    "gametype",
    "variant",
    "fen",
    "plies",
    "moves",
    "final_fen",
    "status",
    "first_error",
    "draw_basis",
];

/// The columns of a ply row (`--per-move`), in order.
pub const PLY_COLUMNS: [&str; 13] = [
    "path",
    "game",
    "ply",
    "move_number",
    "side",
    "written",
    "move",
    "from",
    "to",
    "captured",
    "captures",
    "promotes",
    "fen_after",
];

/// What a thread's CSV writer writes into, taken from after each record.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How CSV is written: the byte between fields (`,` by default; `;` for the spreadsheets
/// of locales whose decimal separator is the comma, `\t` for TSV), and whether the output
/// starts with a byte order mark (which Excel needs to read UTF-8, Cyrillic names among it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvOptions {
    pub delimiter: u8,
    pub bom: bool,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            delimiter: b',',
            bom: false,
        }
    }
}

thread_local! {
    /// This thread's writer (for its delimiter), and what it writes into.
    static WRITER: RefCell<Option<(u8, csv::Writer<Shared>, Shared)>> = const { RefCell::new(None) };
}

/// Appends one CSV record of `fields` to `out`, fields separated by `delimiter`.
fn push_record<I, T>(out: &mut Vec<u8>, delimiter: u8, fields: I)
where
    I: IntoIterator<Item = T>,
    T: AsRef<[u8]>,
{
    WRITER.with_borrow_mut(|slot| {
        if slot.as_ref().is_none_or(|(d, ..)| *d != delimiter) {
            let shared = Shared::default();
            let writer = csv::WriterBuilder::new()
                .delimiter(delimiter)
                .terminator(csv::Terminator::CRLF)
                .flexible(true)
                .from_writer(shared.clone());
            *slot = Some((delimiter, writer, shared));
        }
        let Some((_, writer, shared)) = slot else {
            return;
        };
        // (writing into memory cannot fail)
        let _ = writer.write_record(fields);
        let _ = writer.flush();
        out.append(&mut shared.0.borrow_mut());
    });
}

/// One CSV record of `fields`.
pub fn record<I, T>(delimiter: u8, fields: I) -> Vec<u8>
where
    I: IntoIterator<Item = T>,
    T: AsRef<[u8]>,
{
    let mut out = Vec::new();
    push_record(&mut out, delimiter, fields);
    out
}

/// A field as CSV writes it first in a record of several, and the delimiter after it.
pub fn field(text: &str, delimiter: u8) -> Vec<u8> {
    let mut out = record(delimiter, [text, ""]);
    // (the record without its second, empty field and its row end)
    out.truncate(out.len() - 2);
    out
}

/// The header of a game table: [`GAME_COLUMNS`] then `tag:NAME` for each tag column.
pub fn game_header(tag_columns: &[String], delimiter: u8) -> Vec<u8> {
    let tags = tag_columns.iter().map(|t| format!("tag:{t}"));
    record(
        delimiter,
        GAME_COLUMNS.iter().map(|c| c.to_string()).chain(tags),
    )
}

/// The game's row after its first two fields (see [`super::Converted`]), appended to `out`,
/// with a `tag:NAME` cell for each of `tag_columns` (a tag written twice: its values joined
/// by a line break, so nothing is lost).
pub fn push_game_row(
    out: &mut Vec<u8>,
    delimiter: u8,
    g: &Checked<'_>,
    style: Style,
    tag_columns: &[String],
) {
    let r = &*g.report;
    let tag = |name: &str| r.tag(name).unwrap_or("");
    let date_raw = r.tag("Date");
    let result = (r.tag("Result")).or(r.result.as_ref().map(|t| t.raw.as_str()));
    // the main line: replayed moves in `style`, then the others as written
    let line = &r.variant_line;
    let played = r.mainline.len() + line.mainline.len();
    let mut moves = String::with_capacity((played + r.unplayed.len()) * 6);
    push_moves(&mut moves, &r.mainline, style);
    push_moves(&mut moves, &line.mainline, style);
    for m in &r.unplayed {
        if !moves.is_empty() {
            moves.push(' ');
        }
        moves.push_str(m);
    }
    let final_fen =
        (r.end.map(|p| p.to_fen(FenStyle::Numeric))).or_else(|| line.end.map(|p| p.to_fen()));
    let plies = itoa::Buffer::new().format(r.plies).to_string();
    let first = first_error(&g.diagnostics);
    let basis = r
        .draw
        .as_ref()
        .and_then(|v| v.basis)
        .map(|b| draw_basis_text(&b));
    let iso = date_raw.and_then(iso_date);
    let tags: Vec<String> = tag_columns
        .iter()
        .map(|name| {
            let values: Vec<&str> = (r.tags.iter())
                .filter(|t| t.name == name.as_str())
                .map(|t| t.value.as_str())
                .collect();
            values.join("\n")
        })
        .collect();
    let cells = [
        "",
        tag("Event"),
        tag("Site"),
        iso.as_deref().unwrap_or(""),
        date_raw.unwrap_or(""),
        tag("Round"),
        tag("White"),
        tag("Black"),
        result.unwrap_or(""),
        r.outcome.white_score().unwrap_or(""),
        tag("GameType"),
        r.variant.name(),
        tag("FEN"),
        &plies,
        &moves,
        final_fen.as_deref().unwrap_or(""),
        GameStatus::of(r).as_str(),
        first.as_deref().unwrap_or(""),
        basis.as_deref().unwrap_or(""),
    ];
    push_record(
        out,
        delimiter,
        cells.into_iter().chain(tags.iter().map(String::as_str)),
    );
}

/// The row of a game the reader skipped (`problem`, a `game-too-large`) after its first
/// two fields: only its status and the code in `first_error`, the rest empty (the game
/// was not read), with `tag_columns` empty tag cells.
pub fn push_skipped_row(
    out: &mut Vec<u8>,
    delimiter: u8,
    problem: &crate::diag::Diagnostic,
    tag_columns: usize,
) {
    let mut cells = vec![""; GAME_COLUMNS.len() - 1 + tag_columns];
    // (after the path and the game number: `status` and `first_error` are the 18th and
    // 19th columns)
    cells[GAME_COLUMNS.len() - 4] = GameStatus::Skipped.as_str();
    cells[GAME_COLUMNS.len() - 3] = problem.rule.code;
    push_record(out, delimiter, cells);
}

/// The moves of `plies` in `style`, appended to `moves` (each after a space but the
/// first of all).
fn push_moves<P: Playable>(moves: &mut String, plies: &[Ply<P>], style: Style)
where
    for<'b> Played<'b, P>: Notated,
{
    for p in plies {
        if !moves.is_empty() {
            moves.push(' ');
        }
        p.played().push_text(moves, style);
    }
}

/// The rows of the replayed main-line plies after their first two fields, appended to
/// `out`, each row's end in `ends`. Squares and the move are written in `style`;
/// `fen_after` uses numeric squares.
pub fn push_ply_rows(
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
    delimiter: u8,
    g: &Checked<'_>,
    style: Style,
) {
    push_rows_of(out, ends, delimiter, &g.report.mainline, style);
    push_rows_of(out, ends, delimiter, &g.report.variant_line.mainline, style);
}

/// [`push_ply_rows`] of `plies`.
fn push_rows_of<P: Playable>(
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
    delimiter: u8,
    plies: &[Ply<P>],
    style: Style,
) where
    for<'b> Played<'b, P>: Notated,
{
    let mut text = String::new();
    let mut captured = String::new();
    let (mut from, mut to) = (String::new(), String::new());
    let mut fen = Vec::new();
    for p in plies {
        let played = p.played();
        captured.clear();
        played.push_captured(&mut captured, style, " ");
        text.clear();
        played.push_text(&mut text, style);
        from.clear();
        played.push_from(&mut from, style);
        to.clear();
        played.push_to(&mut to, style);
        fen.clear();
        played.push_fen_after(&mut fen);
        let (mut ply, mut number, mut count) = (
            itoa::Buffer::new(),
            itoa::Buffer::new(),
            itoa::Buffer::new(),
        );
        let cells = [
            "",
            ply.format(p.ply),
            number.format(p.move_number),
            p.side.name(),
            &p.written,
            &text,
            &from,
            &to,
            &captured,
            count.format(played.captured_count()),
            if played.promotes() { "true" } else { "false" },
            std::str::from_utf8(&fen).unwrap_or_default(),
        ];
        push_record(out, delimiter, cells);
        ends.push(out.len());
    }
}

/// Collects tag names in first-seen order (for `--tags all`).
#[derive(Clone, Debug, Default)]
pub struct TagUnion {
    seen: std::collections::HashSet<String>,
    order: Vec<String>,
}

impl TagUnion {
    /// Adds a name.
    pub fn add(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_string());
            self.order.push(name.to_string());
        }
    }

    /// The names, in the order first seen.
    pub fn into_names(self) -> Vec<String> {
        self.order
    }
}
