//! The JSON form of a game (`pdnkit convert --to jsonl`): one [`GameRecord`] per game.
//!
//! Nothing of the game tree is lost: every tag (in file order, duplicates kept), every
//! comment (with its syntax), setup command, variation, NAG and strength mark is there, and
//! [`GameRecord::to_game`] rebuilds a [`Game`] equal to the parsed one after
//! [`Game::normalize`]. Each move also carries its resolution against the rules (`resolved`,
//! absent when the move could not be replayed). Empty lists and absent values are left out.

use super::{
    Alternatives, GameStatus, LineWalk, MoveInfo, ResolvedLine, draw_basis_text, first_error,
    iso_date, main_line_start, resolve_tree,
};
use crate::Color;
use crate::check::CheckedGame;
use crate::diag::Diagnostic;
use crate::draw::DrawBasis;
use crate::outcome::Outcome;
use crate::pdn::{
    Annotation, Comment, CommentKind, Game, GameResult, Line, Move, MoveExtras, Setup, Span,
};
use crate::replay::Ply;
use crate::rules::FenStyle;
use crate::rules::notation::Style;
use crate::rules::{Position, Square};
use serde::{Deserialize, Serialize};
use std::io::Write;

fn is_false(b: &bool) -> bool {
    !*b
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The input file (`-` for standard input).
    pub path: String,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// 1-based line where the game starts in the file.
    pub line: u64,
    /// Tags in file order.
    pub tags: Vec<TagRecord>,
    /// The `Date` tag in ISO 8601, when it can be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The result token ending the movetext, as written (`1-0`, `2-0`, `*`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The recorded outcome (Result tag if readable, else the terminator).
    pub outcome: Outcome,
    /// `ok`, `illegal` or `unparsed`.
    pub status: GameStatus,
    /// The FEN the game starts from (numeric squares), when it could be set up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_fen: Option<String>,
    /// Main-line plies replayed.
    pub plies: u32,
    /// The FEN at the end of the replayed main line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_fen: Option<String>,
    /// The first error as `CODE` or `CODE@PLY`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    /// Why a drawn game is drawn (`{"kind":"rule","rule":"6.1.8.6","ply":57}`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_basis: Option<DrawBasis>,
    /// The draw basis in words (as in the CSV column).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_basis_text: Option<String>,
    /// The main line, with its variations.
    pub moves: LineRecord,
    /// Everything lint reports about the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<DiagnosticRecord>,
}

/// A tag pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagRecord {
    /// The name as written.
    pub name: String,
    /// The decoded value.
    pub value: String,
}

/// A line: the main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRecord {
    /// Variations written before the line's first move (alternatives to it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leading_variations: Vec<LineRecord>,
    /// The moves.
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    /// Annotations after the last move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<AnnotationRecord>,
}

/// A move and everything attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Annotations between the previous move and this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<AnnotationRecord>,
    /// The full-move number, as written or inferred.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// The side announced by the move number (or inferred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Color>,
    /// The move exactly as written.
    pub text: String,
    /// Strength marks (`!`, `?!`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
    /// NAGs after the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u16>,
    /// Comments right after the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<AnnotationRecord>,
    /// Alternatives to this move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<LineRecord>,
    /// The legal move it names; absent when it could not be replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<ResolvedRecord>,
}

/// A move resolved against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedRecord {
    /// Main-line ply (1-based); absent in variations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// Full-move number.
    pub move_number: u32,
    /// Who played it.
    pub side: Color,
    /// The move in the chosen notation (canonical by default: `c3:e5`).
    #[serde(rename = "move")]
    pub notation: String,
    /// Start square (algebraic).
    pub from: String,
    /// End square (algebraic).
    pub to: String,
    /// Every landing square of the capture, from first to last (a quiet move: from, to).
    pub route: Vec<String>,
    /// Squares of the captured pieces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captured: Vec<String>,
    /// A man becomes a king.
    #[serde(default, skip_serializing_if = "is_false")]
    pub promotes: bool,
    /// The position after the move (numeric FEN).
    pub fen_after: String,
}

/// A comment, setup command or free-standing NAG, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnnotationRecord {
    /// `{"type":"comment","kind":"brace","text":"…"}`; kind `brace`, `percent` or `semicolon`.
    Comment {
        /// The syntax it was written in.
        kind: CommentKindRecord,
        /// The text, verbatim.
        text: String,
    },
    /// `{"type":"setup","fen":"W:W…:B…"}`: a `/FEN "…"/` command.
    Setup {
        /// The FEN as written.
        fen: String,
    },
    /// `{"type":"nag","nag":3}`: a NAG with no move right before it.
    Nag {
        /// The number.
        nag: u16,
    },
}

/// Comment syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommentKindRecord {
    /// `{…}`.
    Brace,
    /// `%…` at the start of a line.
    Percent,
    /// `;…`.
    Semicolon,
}

impl CommentKindRecord {
    fn of(kind: CommentKind) -> CommentKindRecord {
        match kind {
            CommentKind::Brace => CommentKindRecord::Brace,
            CommentKind::Percent => CommentKindRecord::Percent,
            CommentKind::Semicolon => CommentKindRecord::Semicolon,
        }
    }
}

/// A diagnostic, as in `pdnkit lint --format jsonl` (without the path and game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticRecord {
    /// `M101`…
    pub code: String,
    /// `illegal-move`…
    pub name: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// What exactly.
    pub message: String,
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Main-line ply, when it concerns a main-line move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The move as written.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "move")]
    pub move_text: Option<String>,
}

/// The fields of a game's JSON between its tags and its moves, as both the record and the
/// writer compute them.
struct GameFields<'a> {
    date: Option<String>,
    result: Option<&'a str>,
    outcome: Outcome,
    status: GameStatus,
    start: Option<Position>,
    plies: u32,
    end: Option<&'a Position>,
    first_error: Option<String>,
    draw_basis: Option<DrawBasis>,
}

impl GameFields<'_> {
    fn of(g: &CheckedGame) -> GameFields<'_> {
        GameFields {
            date: g.game.tag("Date").and_then(iso_date),
            result: g.game.result.as_ref().map(|r| r.raw.as_str()),
            outcome: g.replay.outcome,
            status: GameStatus::of(g),
            start: g.replay.start,
            plies: g.replay.mainline.len() as u32,
            end: g.replay.final_position(),
            first_error: first_error(&g.diagnostics),
            draw_basis: g.replay.draw.as_ref().and_then(|v| v.basis),
        }
    }
}

impl GameRecord {
    /// The record of a checked game; resolved moves are written in `style`.
    pub fn new(path: &str, g: &CheckedGame, style: Style) -> GameRecord {
        let tree = resolve_tree(&g.game, &g.replay);
        let f = GameFields::of(g);
        GameRecord {
            path: path.to_string(),
            game: g.raw.index,
            line: g.raw.start.line,
            tags: g
                .game
                .tags
                .iter()
                .map(|t| TagRecord {
                    name: t.name.clone(),
                    value: t.value.clone(),
                })
                .collect(),
            date: f.date,
            result: f.result.map(String::from),
            outcome: f.outcome,
            status: f.status,
            start_fen: f.start.map(|p| p.to_fen(FenStyle::Numeric)),
            plies: f.plies,
            final_fen: f.end.map(|p| p.to_fen(FenStyle::Numeric)),
            first_error: f.first_error,
            draw_basis: f.draw_basis,
            draw_basis_text: f.draw_basis.as_ref().map(draw_basis_text),
            moves: line_record(&g.game.moves, &tree, style),
            diagnostics: g
                .diagnostics
                .iter()
                .map(|d| DiagnosticRecord {
                    code: d.rule.code.to_string(),
                    name: d.rule.name.to_string(),
                    severity: d.severity.as_str().to_string(),
                    message: d.message.clone(),
                    line: d.line,
                    column: d.column,
                    ply: d.ply,
                    move_text: d.move_text.clone(),
                })
                .collect(),
        }
    }

    /// The game tree this record describes (spans empty, as after [`Game::normalize`];
    /// no syntax errors).
    pub fn to_game(&self) -> Game {
        let mut g = Game {
            tags: self
                .tags
                .iter()
                .map(|t| crate::pdn::Tag {
                    name: t.name.clone(),
                    raw_value: crate::pdn::token::escape(&t.value).into_owned(),
                    value: t.value.clone(),
                    span: Span::default(),
                })
                .collect(),
            moves: self.moves.to_line(),
            result: None,
            errors: Vec::new(),
        };
        if let Some(raw) = &self.result {
            let token = crate::pdn::token::parse_result(raw);
            g.result = token.map(|t| GameResult {
                outcome: t.outcome,
                scale: t.scale,
                raw: raw.clone(),
                span: Span::default(),
            });
        }
        g
    }
}

impl LineRecord {
    /// The line this record describes.
    pub fn to_line(&self) -> Line {
        Line {
            leading_variations: self
                .leading_variations
                .iter()
                .map(|l| l.to_line())
                .collect(),
            moves: self
                .moves
                .iter()
                .map(|m| {
                    let mut mv = Move::new(&m.text, Span::default());
                    mv.number = m.number;
                    mv.side = m.side;
                    let extras = MoveExtras {
                        before: m
                            .before
                            .iter()
                            .map(AnnotationRecord::to_annotation)
                            .collect(),
                        strength: m.strength.clone(),
                        nags: m.nags.clone(),
                        after: m
                            .after
                            .iter()
                            .map(AnnotationRecord::to_annotation)
                            .collect(),
                        variations: m.variations.iter().map(|l| l.to_line()).collect(),
                    };
                    if extras != MoveExtras::default() {
                        *mv.extras_mut() = extras;
                    }
                    mv
                })
                .collect(),
            trailing: self
                .trailing
                .iter()
                .map(AnnotationRecord::to_annotation)
                .collect(),
        }
    }
}

impl AnnotationRecord {
    fn new(a: &Annotation) -> AnnotationRecord {
        match a {
            Annotation::Comment(c) => AnnotationRecord::Comment {
                kind: CommentKindRecord::of(c.kind),
                text: c.text.clone(),
            },
            Annotation::Setup(s) => AnnotationRecord::Setup { fen: s.fen.clone() },
            Annotation::Nag(n) => AnnotationRecord::Nag { nag: *n },
        }
    }

    /// The annotation this record describes (span empty).
    pub fn to_annotation(&self) -> Annotation {
        match self {
            AnnotationRecord::Comment { kind, text } => Annotation::Comment(Comment {
                kind: match kind {
                    CommentKindRecord::Brace => CommentKind::Brace,
                    CommentKindRecord::Percent => CommentKind::Percent,
                    CommentKindRecord::Semicolon => CommentKind::Semicolon,
                },
                text: text.clone(),
                span: Span::default(),
            }),
            AnnotationRecord::Setup { fen } => Annotation::Setup(Setup {
                fen: fen.clone(),
                span: Span::default(),
            }),
            AnnotationRecord::Nag { nag } => Annotation::Nag(*nag),
        }
    }
}

fn annotations(list: &[Annotation]) -> Vec<AnnotationRecord> {
    list.iter().map(AnnotationRecord::new).collect()
}

fn resolved_record(info: &MoveInfo, style: Style) -> ResolvedRecord {
    ResolvedRecord {
        ply: info.ply,
        move_number: info.move_number,
        side: info.side,
        notation: info.text(style),
        from: info.mv.from().algebraic(),
        to: info.mv.to().algebraic(),
        route: info.route().iter().map(|s| s.algebraic()).collect(),
        captured: info.mv.captured().map(|s| s.algebraic()).collect(),
        promotes: info.mv.promotes(),
        fen_after: info.fen_after(),
    }
}

fn line_record(line: &Line, tree: &ResolvedLine, style: Style) -> LineRecord {
    LineRecord {
        leading_variations: line
            .leading_variations
            .iter()
            .zip(&tree.leading_variations)
            .map(|(l, t)| line_record(l, t, style))
            .collect(),
        moves: line
            .moves
            .iter()
            .zip(&tree.moves)
            .map(|(m, r)| MoveRecord {
                before: annotations(m.before()),
                number: m.number,
                side: m.side,
                text: m.text.to_string(),
                strength: m.strength().map(String::from),
                nags: m.nags().to_vec(),
                after: annotations(m.after()),
                variations: m
                    .variations()
                    .iter()
                    .zip(&r.variations)
                    .map(|(l, t)| line_record(l, t, style))
                    .collect(),
                resolved: r.info.as_ref().map(|i| resolved_record(i, style)),
            })
            .collect(),
        trailing: annotations(&line.trailing),
    }
}

/// Writes the JSON of [`GameRecord::new`]`(path, g, style)` into `out`, byte for byte,
/// without building the record: the moves, comments and tags are written straight from the
/// game tree. A record holds a copy of every comment and a few hundred bytes a move (a game
/// of twenty thousand moves made a record of several megabytes per worker thread), which
/// this does not.
///
/// The JSON is written by hand, not through serde: most of it is keys, numbers, squares
/// and FENs that need no escaping, and serde_json's escaping scan and call per value made
/// JSON Lines the slowest conversion by far. Text from the file (tags, comments, moves as
/// written) is escaped as serde_json escapes it, by serde_json when it needs any.
pub fn write_game_json<W: Write>(
    mut out: W,
    path: &str,
    g: &CheckedGame,
    style: Style,
) -> serde_json::Result<()> {
    let mut json = Vec::new();
    push_game_json(&mut json, path, g, style);
    out.write_all(&json).map_err(serde_json::Error::io)
}

/// [`write_game_json`] appended to `out` (what `pdnkit convert` writes each game's line
/// into): the bytes go straight into the vector, a few at a time.
pub fn push_game_json(out: &mut Vec<u8>, path: &str, g: &CheckedGame, style: Style) {
    JsonWriter {
        out,
        text: String::new(),
        style,
    }
    .game(path, g);
}

// The writer below writes what the records above serialize (same names, same order, same
// omissions); `the_json_writer_writes_what_the_record_serializes` in tests/convert.rs
// holds them together.

/// The JSON of one game, written piece by piece into `out`.
struct JsonWriter<'a> {
    out: &'a mut Vec<u8>,
    /// A move's notation, made here before it is written.
    text: String,
    style: Style,
}

/// Where each of some variations starts.
#[derive(Clone, Copy)]
enum VariationStart {
    /// Before a line's first move: where the line starts.
    Fixed(Option<(Position, u32)>),
    /// A move's: as alternatives to it.
    Alternatives(Alternatives),
}

impl JsonWriter<'_> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// `"key":` after a comma unless it is the object's first.
    #[inline(always)]
    fn key(&mut self, first: &mut bool, key: &str) {
        if !std::mem::take(first) {
            self.put(b",");
        }
        self.put(b"\"");
        self.put(key.as_bytes());
        self.put(b"\":")
    }

    /// A string, escaped as serde_json escapes it.
    fn string(&mut self, s: &str) {
        crate::json_text::push_string(self.out, s);
    }

    fn number(&mut self, n: impl itoa::Integer) {
        crate::json_text::push_number(self.out, n);
    }

    /// A value as serde serializes it (the names of enums: a few a game).
    fn serialized(&mut self, value: &impl Serialize) {
        // (writing into a vector cannot fail, nor can serializing a name)
        let _ = serde_json::to_writer(&mut *self.out, value);
    }

    fn color(&mut self, color: Color) {
        self.put(match color {
            Color::White => b"\"white\"",
            Color::Black => b"\"black\"",
        })
    }

    /// A list, each item written by `item`.
    fn list<T>(&mut self, items: impl IntoIterator<Item = T>, mut item: impl FnMut(&mut Self, T)) {
        self.put(b"[");
        for (i, x) in items.into_iter().enumerate() {
            if i > 0 {
                self.put(b",");
            }
            item(self, x);
        }
        self.put(b"]")
    }

    /// [`GameRecord`].
    fn game(&mut self, path: &str, g: &CheckedGame) {
        let first = &mut true;
        self.put(b"{");
        self.key(first, "path");
        self.string(path);
        self.key(first, "game");
        self.number(g.raw.index);
        self.key(first, "line");
        self.number(g.raw.start.line);
        self.key(first, "tags");
        self.list(&g.game.tags, |w, t| {
            w.put(b"{\"name\":");
            w.string(&t.name);
            w.put(b",\"value\":");
            w.string(&t.value);
            w.put(b"}")
        });
        let f = GameFields::of(g);
        if let Some(date) = &f.date {
            self.key(first, "date");
            self.string(date);
        }
        if let Some(result) = f.result {
            self.key(first, "result");
            self.string(result);
        }
        self.key(first, "outcome");
        self.serialized(&f.outcome);
        self.key(first, "status");
        self.serialized(&f.status);
        if let Some(start) = &f.start {
            self.key(first, "start_fen");
            self.fen(start);
        }
        self.key(first, "plies");
        self.number(f.plies);
        if let Some(end) = f.end {
            self.key(first, "final_fen");
            self.fen(end);
        }
        if let Some(error) = &f.first_error {
            self.key(first, "first_error");
            self.string(error);
        }
        if let Some(basis) = &f.draw_basis {
            self.key(first, "draw_basis");
            self.serialized(basis);
            self.key(first, "draw_basis_text");
            self.string(&draw_basis_text(basis));
        }
        self.key(first, "moves");
        let start = main_line_start(&g.replay);
        self.line(&g.game.moves, start, Some(&g.replay.mainline));
        if !g.diagnostics.is_empty() {
            self.key(first, "diagnostics");
            self.list(&g.diagnostics, Self::diagnostic);
        }
        self.put(b"}")
    }

    /// A numeric FEN, made in place (ASCII: nothing to escape).
    fn fen(&mut self, pos: &Position) {
        self.put(b"\"");
        pos.push_fen(FenStyle::Numeric, self.out);
        self.put(b"\"")
    }

    /// [`DiagnosticRecord`].
    fn diagnostic(&mut self, d: &Diagnostic) {
        self.put(b"{\"code\":");
        self.string(d.rule.code);
        self.put(b",\"name\":");
        self.string(d.rule.name);
        self.put(b",\"severity\":");
        self.string(d.severity.as_str());
        self.put(b",\"message\":");
        self.string(&d.message);
        self.put(b",\"line\":");
        self.number(d.line);
        self.put(b",\"column\":");
        self.number(d.column);
        if let Some(ply) = d.ply {
            self.put(b",\"ply\":");
            self.number(ply);
        }
        if let Some(text) = &d.move_text {
            self.put(b",\"move\":");
            self.string(text);
        }
        self.put(b"}")
    }

    /// [`LineRecord`]: the line from `start`; `main` holds the replayed plies when it is
    /// the main line (as for [`resolve_tree`], which resolves the same moves).
    fn line(&mut self, line: &Line, start: Option<(Position, u32)>, main: Option<&[Ply]>) {
        let first = &mut true;
        self.put(b"{");
        if !line.leading_variations.is_empty() {
            self.key(first, "leading_variations");
            self.lines(&line.leading_variations, VariationStart::Fixed(start));
        }
        self.key(first, "moves");
        self.list(LineWalk::new(&line.moves, start, main), |w, (m, walked)| {
            w.move_record(m, &walked)
        });
        if !line.trailing.is_empty() {
            self.key(first, "trailing");
            self.annotations(&line.trailing);
        }
        self.put(b"}")
    }

    /// Variations: those of a move, or those written before a line's first move.
    fn lines(&mut self, lines: &[Line], start: VariationStart) {
        self.list(lines, |w, v| {
            let start = match start {
                VariationStart::Fixed(start) => start,
                VariationStart::Alternatives(alternatives) => alternatives.start(v),
            };
            w.line(v, start, None)
        })
    }

    /// [`MoveRecord`].
    fn move_record(&mut self, m: &Move, walked: &super::WalkedMove) {
        let first = &mut true;
        self.put(b"{");
        if !m.before().is_empty() {
            self.key(first, "before");
            self.annotations(m.before());
        }
        if let Some(number) = m.number {
            self.key(first, "number");
            self.number(number);
        }
        if let Some(side) = m.side {
            self.key(first, "side");
            self.color(side);
        }
        self.key(first, "text");
        self.string(&m.text);
        if let Some(strength) = m.strength() {
            self.key(first, "strength");
            self.string(strength);
        }
        if !m.nags().is_empty() {
            self.key(first, "nags");
            self.list(m.nags(), |w, &n| w.number(n));
        }
        if !m.after().is_empty() {
            self.key(first, "after");
            self.annotations(m.after());
        }
        if !m.variations().is_empty() {
            self.key(first, "variations");
            self.lines(
                m.variations(),
                VariationStart::Alternatives(walked.alternatives()),
            );
        }
        if let Some(info) = &walked.info {
            self.key(first, "resolved");
            self.resolved(info);
        }
        self.put(b"}")
    }

    /// [`ResolvedRecord`].
    fn resolved(&mut self, info: &MoveInfo) {
        let first = &mut true;
        self.put(b"{");
        if let Some(ply) = info.ply {
            self.key(first, "ply");
            self.number(ply);
        }
        self.key(first, "move_number");
        self.number(info.move_number);
        self.put(b",\"side\":");
        self.color(info.side);
        self.put(b",\"move\":\"");
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        info.push_text(&mut text, self.style);
        // (squares and separators: nothing to escape)
        self.put(text.as_bytes());
        self.text = text;
        self.put(b"\",\"from\":");
        self.square(info.mv.from());
        self.put(b",\"to\":");
        self.square(info.mv.to());
        self.put(b",\"route\":");
        match info.long_route() {
            Some(route) => self.list(route, Self::square),
            None => self.list([info.mv.from(), info.mv.to()], Self::square),
        }
        let captured = info.mv.captured();
        if captured.any() {
            self.put(b",\"captured\":");
            self.list(captured, Self::square);
        }
        if info.mv.promotes() {
            self.put(b",\"promotes\":true");
        }
        self.put(b",\"fen_after\":");
        self.fen(&info.after);
        self.put(b"}")
    }

    /// A square by its algebraic name.
    fn square(&mut self, square: Square) {
        let [file, rank] = square.algebraic_bytes();
        self.put(&[b'"', file, rank, b'"'])
    }

    /// [`AnnotationRecord`]s.
    fn annotations(&mut self, list: &[Annotation]) {
        self.list(list, |w, a| match a {
            Annotation::Comment(c) => {
                w.put(b"{\"type\":\"comment\",\"kind\":");
                w.serialized(&CommentKindRecord::of(c.kind));
                w.put(b",\"text\":");
                w.string(&c.text);
                w.put(b"}")
            }
            Annotation::Setup(s) => {
                w.put(b"{\"type\":\"setup\",\"fen\":");
                w.string(&s.fen);
                w.put(b"}")
            }
            Annotation::Nag(n) => {
                w.put(b"{\"type\":\"nag\",\"nag\":");
                w.number(*n);
                w.put(b"}")
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CheckOptions, CheckedGames};
    use crate::convert::CANONICAL;

    #[test]
    fn the_tree_survives_json() {
        let text = "[Event \"E \\\"q\\\"\"]\n[Opening \"x\"]\n[Opening \"dup\"]\n{pre} 1. c3-d4! $1 {c} (1. e3-f4 {v} f6-g5 $2 (1... h6-g5)) f6-g5 ; lc\n2. ... b6-a5?! $14 {end} 2-0";
        let g = CheckedGames::new("t.pdn", text.as_bytes(), &CheckOptions::default())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let rec = GameRecord::new("t.pdn", &g, CANONICAL);
        let json = serde_json::to_string(&rec).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rec);
        let mut original = g.game.clone();
        original.normalize();
        let rebuilt = back.to_game();
        assert_eq!(rebuilt.tags, original.tags);
        assert_eq!(rebuilt.moves, original.moves);
        assert_eq!(rebuilt.result, original.result);
        let v = &rec.moves.moves[0].variations[0];
        let r = v.moves[1].resolved.as_ref().unwrap();
        assert_eq!(
            (r.ply, r.side, r.notation.as_str()),
            (None, Color::Black, "f6-g5")
        );
        assert_eq!(rec.moves.moves[0].resolved.as_ref().unwrap().ply, Some(1));
        assert!(
            json.contains(r#"{"type":"comment","kind":"semicolon","text":" lc"}"#),
            "{json}"
        );
    }
}
