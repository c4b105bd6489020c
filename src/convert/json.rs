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
    Annotation, Comment, CommentKind, Game, GameResult, Line, Move, MoveExtras, Setup, Span, Tag,
};
use crate::replay::Ply;
use crate::rules::FenStyle;
use crate::rules::notation::Style;
use crate::rules::{Bitboard, Position, Square};
use serde::{Deserialize, Serialize, Serializer};

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
            start_fen: f.start_fen,
            plies: f.plies,
            final_fen: f.final_fen,
            first_error: f.first_error,
            draw_basis: f.draw_basis,
            draw_basis_text: f.draw_basis_text,
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
pub fn write_game_json<W: std::io::Write>(
    out: W,
    path: &str,
    g: &CheckedGame,
    style: Style,
) -> serde_json::Result<()> {
    let start = main_line_start(&g.replay);
    let view = GameView {
        path,
        game: g.raw.index,
        line: g.raw.start.line,
        tags: Views(&g.game.tags, TagView::of),
        fields: GameFields::of(g),
        moves: LineView::new(&g.game.moves, start, Some(&g.replay.mainline), style),
        diagnostics: Views(&g.diagnostics, DiagnosticView::of),
    };
    serde_json::to_writer(out, &view)
}

// The borrowed views below serialize as the records above do (same names, same order,
// same omissions); `the_json_writer_writes_what_the_record_serializes` in tests/convert.rs
// holds them together.

/// [`GameRecord`], borrowed.
#[derive(Serialize)]
struct GameView<'a> {
    path: &'a str,
    game: u64,
    line: u64,
    tags: Views<'a, Tag, TagView<'a>>,
    #[serde(flatten)]
    fields: GameFields<'a>,
    moves: LineView<'a>,
    #[serde(skip_serializing_if = "Views::is_empty")]
    diagnostics: Views<'a, Diagnostic, DiagnosticView<'a>>,
}

/// The fields of a [`GameRecord`] between its tags and its moves, as both the record and
/// the view compute them.
#[derive(Serialize)]
struct GameFields<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a str>,
    outcome: Outcome,
    status: GameStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_fen: Option<String>,
    plies: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    final_fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_basis: Option<DrawBasis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_basis_text: Option<String>,
}

impl GameFields<'_> {
    fn of(g: &CheckedGame) -> GameFields<'_> {
        let basis = g.replay.draw.as_ref().and_then(|v| v.basis);
        GameFields {
            date: g.game.tag("Date").and_then(iso_date),
            result: g.game.result.as_ref().map(|r| r.raw.as_str()),
            outcome: g.replay.outcome,
            status: GameStatus::of(g),
            start_fen: g.replay.start.map(|p| p.to_fen(FenStyle::Numeric)),
            plies: g.replay.mainline.len() as u32,
            final_fen: g
                .replay
                .final_position()
                .map(|p| p.to_fen(FenStyle::Numeric)),
            first_error: first_error(&g.diagnostics),
            draw_basis: basis,
            draw_basis_text: basis.as_ref().map(draw_basis_text),
        }
    }
}

/// A slice serialized as a list of views of its items (the view made as each is written).
struct Views<'a, T, V>(&'a [T], fn(&'a T) -> V);

impl<T, V> Views<'_, T, V> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a, T, V: Serialize> Serialize for Views<'a, T, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

/// [`TagRecord`], borrowed.
#[derive(Serialize)]
struct TagView<'a> {
    name: &'a str,
    value: &'a str,
}

impl TagView<'_> {
    fn of(t: &Tag) -> TagView<'_> {
        TagView {
            name: &t.name,
            value: &t.value,
        }
    }
}

/// [`DiagnosticRecord`], borrowed.
#[derive(Serialize)]
struct DiagnosticView<'a> {
    code: &'a str,
    name: &'a str,
    severity: &'a str,
    message: &'a str,
    line: usize,
    column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", rename = "move")]
    move_text: Option<&'a str>,
}

impl DiagnosticView<'_> {
    fn of(d: &Diagnostic) -> DiagnosticView<'_> {
        DiagnosticView {
            code: d.rule.code,
            name: d.rule.name,
            severity: d.severity.as_str(),
            message: &d.message,
            line: d.line,
            column: d.column,
            ply: d.ply,
            move_text: d.move_text.as_deref(),
        }
    }
}

/// [`AnnotationRecord`], borrowed.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum AnnotationView<'a> {
    Comment {
        kind: CommentKindRecord,
        text: &'a str,
    },
    Setup {
        fen: &'a str,
    },
    Nag {
        nag: u16,
    },
}

impl AnnotationView<'_> {
    fn of(a: &Annotation) -> AnnotationView<'_> {
        match a {
            Annotation::Comment(c) => AnnotationView::Comment {
                kind: CommentKindRecord::of(c.kind),
                text: &c.text,
            },
            Annotation::Setup(s) => AnnotationView::Setup { fen: &s.fen },
            Annotation::Nag(n) => AnnotationView::Nag { nag: *n },
        }
    }
}

/// Annotations as [`AnnotationRecord`]s.
type Annotations<'a> = Views<'a, Annotation, AnnotationView<'a>>;

/// The annotations `list` as [`AnnotationRecord`]s.
fn annotation_views(list: &[Annotation]) -> Annotations<'_> {
    Views(list, AnnotationView::of)
}

/// [`LineRecord`], borrowed.
#[derive(Serialize)]
struct LineView<'a> {
    #[serde(skip_serializing_if = "Lines::is_empty")]
    leading_variations: Lines<'a>,
    moves: Moves<'a>,
    #[serde(skip_serializing_if = "Views::is_empty")]
    trailing: Annotations<'a>,
}

impl<'a> LineView<'a> {
    /// The line from `start`; `main` holds the replayed plies when it is the main line
    /// (as for [`resolve_tree`], which resolves the same moves).
    fn new(
        line: &'a Line,
        start: Option<(Position, u32)>,
        main: Option<&'a [Ply]>,
        style: Style,
    ) -> LineView<'a> {
        LineView {
            leading_variations: Lines {
                lines: &line.leading_variations,
                start: VariationStart::Fixed(start),
                style,
            },
            moves: Moves {
                moves: &line.moves,
                start,
                main,
                style,
            },
            trailing: annotation_views(&line.trailing),
        }
    }
}

/// Variations: those of a move, or those written before a line's first move.
struct Lines<'a> {
    lines: &'a [Line],
    start: VariationStart,
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

impl Lines<'_> {
    fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

impl Serialize for Lines<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.lines.iter().map(|v| {
            let start = match self.start {
                VariationStart::Fixed(start) => start,
                VariationStart::Alternatives(alternatives) => alternatives.start(v),
            };
            LineView::new(v, start, None, self.style)
        }))
    }
}

/// A line's moves, resolved one by one as they are written, as [`MoveRecord`]s.
struct Moves<'a> {
    moves: &'a [Move],
    start: Option<(Position, u32)>,
    main: Option<&'a [Ply]>,
    style: Style,
}

impl Serialize for Moves<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let style = self.style;
        let walk = LineWalk::new(self.moves, self.start, self.main);
        s.collect_seq(walk.map(|(m, walked)| MoveView {
            before: annotation_views(m.before()),
            number: m.number,
            side: m.side,
            text: &m.text,
            strength: m.strength(),
            nags: m.nags(),
            after: annotation_views(m.after()),
            variations: Lines {
                lines: m.variations(),
                start: VariationStart::Alternatives(walked.alternatives),
                style,
            },
            resolved: walked.info.as_ref().map(|i| ResolvedView::new(i, style)),
        }))
    }
}

/// [`MoveRecord`], borrowed.
#[derive(Serialize)]
struct MoveView<'a> {
    #[serde(skip_serializing_if = "Views::is_empty")]
    before: Annotations<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    number: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<Color>,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    strength: Option<&'a str>,
    #[serde(skip_serializing_if = "<[u16]>::is_empty")]
    nags: &'a [u16],
    #[serde(skip_serializing_if = "Views::is_empty")]
    after: Annotations<'a>,
    #[serde(skip_serializing_if = "Lines::is_empty")]
    variations: Lines<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resolved: Option<ResolvedView>,
}

/// [`ResolvedRecord`], with its squares written as they are serialized (a string per
/// square and a vector per list were most of the allocations of a ply).
#[derive(Serialize)]
struct ResolvedView {
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    move_number: u32,
    side: Color,
    #[serde(rename = "move")]
    notation: String,
    from: SquareName,
    to: SquareName,
    route: SquareNames,
    #[serde(skip_serializing_if = "SquareNames::is_empty")]
    captured: SquareNames,
    #[serde(skip_serializing_if = "is_false")]
    promotes: bool,
    fen_after: String,
}

impl ResolvedView {
    fn new(info: &MoveInfo, style: Style) -> ResolvedView {
        ResolvedView {
            ply: info.ply,
            move_number: info.move_number,
            side: info.side,
            notation: info.text(style),
            from: SquareName(info.mv.from()),
            to: SquareName(info.mv.to()),
            route: SquareNames::Route(info.route()),
            captured: SquareNames::Set(info.mv.captured()),
            promotes: info.mv.promotes(),
            fen_after: info.fen_after(),
        }
    }
}

/// A square, serialized by its algebraic name.
struct SquareName(Square);

impl Serialize for SquareName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.algebraic_name())
    }
}

/// Squares, serialized as a list of their algebraic names.
enum SquareNames {
    /// In route order.
    Route(Vec<Square>),
    /// In square order.
    Set(Bitboard),
}

impl SquareNames {
    fn is_empty(&self) -> bool {
        match self {
            SquareNames::Route(squares) => squares.is_empty(),
            SquareNames::Set(set) => !set.any(),
        }
    }
}

impl Serialize for SquareNames {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SquareNames::Route(squares) => s.collect_seq(squares.iter().map(|&q| SquareName(q))),
            SquareNames::Set(set) => s.collect_seq(set.map(SquareName)),
        }
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
