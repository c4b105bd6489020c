//! Rows for `pdnkit convert --to csv`: one per game ([`GAME_COLUMNS`], [`game_row`]) or one
//! per main-line ply ([`PLY_COLUMNS`], [`ply_rows`]). Cells are plain strings; quoting is
//! the CSV writer's job.

use super::{GameStatus, draw_basis_text, first_error, iso_date, mainline_text, result_text};
use crate::check::{CheckedGame, QuickGame};
use crate::rules::FenStyle;
use crate::rules::Square;
use crate::rules::notation::{SquareStyle, Style};
use std::collections::BTreeSet;

/// The columns of a game row, in order. With tag columns, `tag:NAME` columns follow.
pub const GAME_COLUMNS: [&str; 18] = [
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
    "gametype",
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

/// The header of a game table: [`GAME_COLUMNS`] then `tag:NAME` for each tag column.
pub fn game_header(tag_columns: &[String]) -> Vec<String> {
    GAME_COLUMNS
        .iter()
        .map(|c| c.to_string())
        .chain(tag_columns.iter().map(|t| format!("tag:{t}")))
        .collect()
}

fn square(sq: Square, style: Style) -> String {
    let mut out = String::with_capacity(2);
    push_square(&mut out, sq, style);
    out
}

/// [`square`] appended to `out`.
fn push_square(out: &mut String, sq: Square, style: Style) {
    match style.squares {
        SquareStyle::Algebraic => sq.push_algebraic(out),
        SquareStyle::Numeric => sq.push_numeric(out),
    }
}

/// An integer cell, written without the formatting machinery (several a row, a row a game
/// or a ply).
fn decimal<I: itoa::Integer>(n: I) -> String {
    itoa::Buffer::new().format(n).to_owned()
}

/// One game's row (see [`game_header`]). Moves are written in `style`; FENs always use
/// numeric squares (the PDN convention).
pub fn game_row(path: &str, g: &CheckedGame, style: Style, tag_columns: &[String]) -> Vec<String> {
    let game = &g.game;
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect();
    RowParts {
        path,
        index: g.raw.index,
        tags: &tags,
        result: result_text(game),
        plies: g.replay.mainline.len(),
        moves: mainline_text(g, style),
        final_fen: g
            .replay
            .final_position()
            .map(|p| p.to_fen(FenStyle::Numeric))
            .unwrap_or_default(),
        status: GameStatus::of(g),
        first_error: first_error(&g.diagnostics),
        draw_basis: g.replay.draw.as_ref().and_then(|v| v.basis),
    }
    .row(tag_columns)
}

/// [`game_row`] for a game the quick lane of a [`crate::check::Diagnoser`] took, which
/// must keep every ply ([`crate::check::Diagnoser::keep_first_plies`] with `usize::MAX`):
/// the same cells, without the game's tree (a test compares the two row by row).
pub fn quick_game_row(
    path: &str,
    g: &QuickGame<'_>,
    style: Style,
    tag_columns: &[String],
) -> Vec<String> {
    let tags: Vec<(&str, &str)> = g.tags().collect();
    let found = &g.diagnosed;
    // (one string, not one per move joined: written straight into the row's cell)
    let plies = g.first_plies();
    let mut moves = String::with_capacity(plies.len() * 6);
    for (i, ply) in plies.iter().enumerate() {
        if i > 0 {
            moves.push(' ');
        }
        ply.push_text(&mut moves, style);
    }
    RowParts {
        path,
        index: g.raw.index,
        tags: &tags,
        result: g.tag("Result").or(g.terminator()),
        plies: found.summary.plies as usize,
        moves,
        final_fen: g.end().to_fen(FenStyle::Numeric),
        status: GameStatus::Ok,
        first_error: first_error(&found.diagnostics),
        draw_basis: found.summary.draw_basis,
    }
    .row(tag_columns)
}

/// What a game row says, from either source; [`RowParts::row`] lays the cells out.
struct RowParts<'a> {
    path: &'a str,
    index: u64,
    /// (name, decoded value), in file order.
    tags: &'a [(&'a str, &'a str)],
    result: Option<&'a str>,
    plies: usize,
    moves: String,
    final_fen: String,
    status: GameStatus,
    first_error: Option<String>,
    draw_basis: Option<crate::draw::DrawBasis>,
}

impl RowParts<'_> {
    fn row(self, tag_columns: &[String]) -> Vec<String> {
        let first = |name: &str| self.tags.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        let tag = |name: &str| first(name).unwrap_or("").to_string();
        let date_raw = first("Date");
        let mut row = vec![
            self.path.to_string(),
            decimal(self.index),
            tag("Event"),
            tag("Site"),
            date_raw.and_then(iso_date).unwrap_or_default(),
            date_raw.unwrap_or("").to_string(),
            tag("Round"),
            tag("White"),
            tag("Black"),
            self.result.unwrap_or("").to_string(),
            tag("GameType"),
            tag("FEN"),
            decimal(self.plies),
            self.moves,
            self.final_fen,
            self.status.as_str().to_string(),
            self.first_error.unwrap_or_default(),
            self.draw_basis
                .map(|b| draw_basis_text(&b))
                .unwrap_or_default(),
        ];
        // A tag written twice: its values joined by a line break, so nothing is lost.
        for name in tag_columns {
            let values: Vec<&str> = self
                .tags
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| *v)
                .collect();
            row.push(values.join("\n"));
        }
        row
    }
}

/// The rows of the replayed main-line plies (see [`PLY_COLUMNS`]). Squares and the move
/// are written in `style`; `fen_after` uses numeric squares.
pub fn ply_rows(path: &str, g: &CheckedGame, style: Style) -> Vec<Vec<String>> {
    g.replay
        .mainline
        .iter()
        .map(|p| {
            // (the cells made without the formatting machinery: a dozen a ply)
            let mut captured = String::new();
            for (i, sq) in p.mv.captured().enumerate() {
                if i > 0 {
                    captured.push(' ');
                }
                push_square(&mut captured, sq, style);
            }
            vec![
                path.to_string(),
                decimal(g.raw.index),
                decimal(p.ply),
                decimal(p.move_number),
                p.side.name().to_owned(),
                p.written.to_string(),
                p.text(style),
                square(p.mv.from(), style),
                square(p.mv.to(), style),
                captured,
                decimal(p.mv.captured().count()),
                if p.mv.promotes() { "true" } else { "false" }.to_owned(),
                p.after.to_fen(FenStyle::Numeric),
            ]
        })
        .collect()
}

/// Collects tag names in first-seen order (for `--tags all`).
#[derive(Clone, Debug, Default)]
pub struct TagUnion {
    seen: BTreeSet<String>,
    order: Vec<String>,
}

impl TagUnion {
    /// Adds the names of one game's tags.
    pub fn add<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        for n in names {
            if !self.seen.contains(n) {
                self.seen.insert(n.to_string());
                self.order.push(n.to_string());
            }
        }
    }

    /// The names, in the order first seen.
    pub fn into_names(self) -> Vec<String> {
        self.order
    }
}

/// Adds the tag names of every game of `input` to `union` (a quick pass that reads tags
/// only, for `--tags all`: the header must be known before the first row).
pub fn collect_tag_names(
    input: impl std::io::Read,
    encoding: Option<&'static encoding_rs::Encoding>,
    union: &mut TagUnion,
) -> std::io::Result<()> {
    use crate::pdn::{GameSplitter, RawTag, ReaderOptions, Skip, Span, Visitor};
    struct Names(Vec<String>);
    impl Visitor for Names {
        type Output = Vec<String>;
        fn begin_game(&mut self) {
            self.0.clear();
        }
        fn tag(&mut self, tag: RawTag<'_>) {
            self.0.push(tag.name.to_string());
        }
        fn begin_variation(&mut self, _: Span) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }
    let options = ReaderOptions {
        encoding,
        ..ReaderOptions::default()
    };
    for raw in GameSplitter::new(input, options)? {
        let raw = raw.map_err(std::io::Error::other)?;
        let names = raw.visit(&mut Names(Vec::new()));
        union.add(names.iter().map(String::as_str));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CheckOptions, CheckedGames};
    use crate::convert::CANONICAL;

    #[test]
    fn a_capture_and_a_promotion() {
        let text = "[FEN \"W:Wc3:Bb4,h8\"]\n1. c3:a5 *";
        let g = CheckedGames::new("t.pdn", text.as_bytes(), &CheckOptions::default())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let rows = ply_rows("t.pdn", &g, CANONICAL);
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(
            &r[6..12],
            ["c3:a5", "c3", "a5", "b4", "1", "false"].map(String::from)
        );
        let row = game_row("t.pdn", &g, CANONICAL, &["FEN".to_string()]);
        assert_eq!(row.len(), GAME_COLUMNS.len() + 1);
        assert_eq!(row[15], "ok");
    }

    #[test]
    fn union_keeps_first_seen_order() {
        let mut u = TagUnion::default();
        u.add(["Event", "Date"]);
        u.add(["Date", "ECO", "Event"]);
        assert_eq!(u.into_names(), ["Event", "Date", "ECO"]);
    }
}
