//! The JSON form of a game (`pdnkit convert --to jsonl`): one object per game, written by
//! serde_json from views that borrow the game's tree and report.
//!
//! Nothing of the game tree is lost: every tag (in file order, duplicates kept), every
//! comment (with its syntax), setup command, variation, NAG and strength mark is there, and
//! [`GameRecord`] reads the object back, [`GameRecord::to_game`] rebuilding a [`Game`]
//! equal to the parsed one after [`Game::normalize`]. Each move also carries its resolution
//! against the rules (`resolved`, absent when the move could not be replayed). Empty lists
//! and absent values are left out.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize, Serializer};

use super::{GameStatus, MoveInfo, Resolutions, draw_basis_text, first_error, iso_date};
use crate::Color;
use crate::diag::Diagnostic;
use crate::draw::DrawBasis;
use crate::outcome::Outcome;
use crate::pdn::{
    Annotation, Comment, CommentKind, Game, GameResult, Line, Move, MoveExtras, Setup, Span,
};
use crate::rules::notation::Style;
use crate::rules::{FenStyle, Position, Square};
use crate::run::Checked;

/// The game's object after its `{` and the path and game number (see
/// [`super::Converted`]): `,"line":…}` and a line break, appended to `out`.
pub fn push_game(out: &mut Vec<u8>, g: &Checked<'_>, style: Style) {
    let start = out.len();
    let view = GameView {
        g,
        style,
        resolutions: match &g.report.game {
            Some(_) => Resolutions::new(g.report),
            None => Resolutions {
                moves: &[],
                next: Default::default(),
            },
        },
    };
    // (writing into a vector cannot fail)
    let _ = serde_json::to_writer(&mut *out, &view);
    // the object's `{` goes, its fields follow the game number
    out[start] = b',';
    out.push(b'\n');
}

/// A game, as [`push_game`] writes it (without its path and number).
struct GameView<'a, 'b> {
    g: &'a Checked<'b>,
    style: Style,
    resolutions: Resolutions<'a>,
}

impl Serialize for GameView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.g;
        let r = &*g.report;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("line", &g.source.start.line)?;
        map.serialize_entry("tags", &Tags(&r.tags))?;
        if let Some(date) = r.tag("Date").and_then(iso_date) {
            map.serialize_entry("date", &date)?;
        }
        if let Some(result) = &r.result {
            map.serialize_entry("result", &result.raw)?;
        }
        map.serialize_entry("outcome", &r.outcome)?;
        map.serialize_entry("status", &GameStatus::of(r))?;
        if let Some(start) = &r.start {
            map.serialize_entry("start_fen", &Fen(start))?;
        }
        map.serialize_entry("plies", &r.plies)?;
        if let Some(end) = &r.end {
            map.serialize_entry("final_fen", &Fen(end))?;
        }
        if let Some(error) = first_error(&g.diagnostics) {
            map.serialize_entry("first_error", &error)?;
        }
        if let Some(basis) = r.draw.as_ref().and_then(|v| v.basis) {
            map.serialize_entry("draw_basis", &basis)?;
            map.serialize_entry("draw_basis_text", &draw_basis_text(&basis))?;
        }
        let empty = Line::default();
        let moves = r.game.as_ref().map_or(&empty, |game| &game.moves);
        map.serialize_entry("moves", &LineView(moves, self))?;
        if !g.diagnostics.is_empty() {
            map.serialize_entry("diagnostics", &Diagnostics(&g.diagnostics))?;
        }
        map.end()
    }
}

struct Tags<'a>(&'a [crate::check::checker::TagEntry]);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for t in self.0 {
            seq.serialize_element(&TagRecordView {
                name: &t.name,
                value: &t.value,
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct TagRecordView<'a> {
    name: &'a str,
    value: &'a str,
}

/// A numeric FEN.
struct Fen<'a>(&'a Position);

impl Serialize for Fen<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_fen(FenStyle::Numeric))
    }
}

/// A line of the tree, its moves resolved as the walk comes to them.
struct LineView<'a, 'g, 'b>(&'a Line, &'g GameView<'g, 'b>);

impl Serialize for LineView<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (line, game) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        if !line.leading_variations.is_empty() {
            map.serialize_entry("leading_variations", &Lines(&line.leading_variations, game))?;
        }
        map.serialize_entry("moves", &Moves(&line.moves, game))?;
        if !line.trailing.is_empty() {
            map.serialize_entry("trailing", &Annotations(&line.trailing))?;
        }
        map.end()
    }
}

struct Lines<'a, 'g, 'b>(&'a [Line], &'g GameView<'g, 'b>);

impl Serialize for Lines<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for line in self.0 {
            seq.serialize_element(&LineView(line, self.1))?;
        }
        seq.end()
    }
}

struct Moves<'a, 'g, 'b>(&'a [Move], &'g GameView<'g, 'b>);

impl Serialize for Moves<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for m in self.0 {
            seq.serialize_element(&MoveView(m, self.1))?;
        }
        seq.end()
    }
}

struct MoveView<'a, 'g, 'b>(&'a Move, &'g GameView<'g, 'b>);

impl Serialize for MoveView<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (m, game) = (self.0, self.1);
        // (the move's resolution is the next in text order: before its variations')
        let resolved = game.resolutions.next();
        let mut map = s.serialize_map(None)?;
        if !m.before().is_empty() {
            map.serialize_entry("before", &Annotations(m.before()))?;
        }
        if let Some(number) = m.number {
            map.serialize_entry("number", &number)?;
        }
        if let Some(side) = m.side {
            map.serialize_entry("side", &side)?;
        }
        map.serialize_entry("text", m.text.as_str())?;
        if let Some(strength) = m.strength() {
            map.serialize_entry("strength", strength)?;
        }
        if !m.nags().is_empty() {
            map.serialize_entry("nags", m.nags())?;
        }
        if !m.after().is_empty() {
            map.serialize_entry("after", &Annotations(m.after()))?;
        }
        if !m.variations().is_empty() {
            map.serialize_entry("variations", &Lines(m.variations(), game))?;
        }
        if let Some(info) = resolved {
            map.serialize_entry("resolved", &ResolvedView(info, game.style))?;
        }
        map.end()
    }
}

/// A move resolved against the rules.
struct ResolvedView<'a>(&'a MoveInfo, Style);

impl Serialize for ResolvedView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (info, style) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        if let Some(ply) = info.ply {
            map.serialize_entry("ply", &ply)?;
        }
        map.serialize_entry("move_number", &info.move_number)?;
        map.serialize_entry("side", &info.side())?;
        let mut text = String::new();
        info.push_text(&mut text, style);
        map.serialize_entry("move", &text)?;
        map.serialize_entry("from", &SquareName(info.mv.from()))?;
        map.serialize_entry("to", &SquareName(info.mv.to()))?;
        let route: Vec<SquareName> = info.route().into_iter().map(SquareName).collect();
        map.serialize_entry("route", &route)?;
        if info.mv.captured().any() {
            let captured: Vec<SquareName> = info.mv.captured().map(SquareName).collect();
            map.serialize_entry("captured", &captured)?;
        }
        if info.mv.promotes() {
            map.serialize_entry("promotes", &true)?;
        }
        map.serialize_entry("fen_after", &info.fen_after())?;
        map.end()
    }
}

/// A square by its algebraic name.
struct SquareName(Square);

impl Serialize for SquareName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.algebraic_name())
    }
}

struct Annotations<'a>(&'a [Annotation]);

impl Serialize for Annotations<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for a in self.0 {
            seq.serialize_element(&AnnotationView(a))?;
        }
        seq.end()
    }
}

struct AnnotationView<'a>(&'a Annotation);

impl Serialize for AnnotationView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        match self.0 {
            Annotation::Comment(c) => {
                map.serialize_entry("type", "comment")?;
                map.serialize_entry("kind", &CommentKindRecord::of(c.kind))?;
                map.serialize_entry("text", &c.text)?;
            }
            Annotation::Setup(setup) => {
                map.serialize_entry("type", "setup")?;
                map.serialize_entry("fen", &setup.fen)?;
            }
            Annotation::Nag(n) => {
                map.serialize_entry("type", "nag")?;
                map.serialize_entry("nag", n)?;
            }
        }
        map.end()
    }
}

struct Diagnostics<'a>(&'a [Diagnostic]);

impl Serialize for Diagnostics<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for d in self.0 {
            seq.serialize_element(&DiagnosticView(d))?;
        }
        seq.end()
    }
}

/// A diagnostic, as in `pdnkit lint --format jsonl` (without the path and game).
struct DiagnosticView<'a>(&'a Diagnostic);

impl Serialize for DiagnosticView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("code", d.rule.code)?;
        map.serialize_entry("name", d.rule.name)?;
        map.serialize_entry("severity", d.severity.as_str())?;
        map.serialize_entry("message", &d.message)?;
        map.serialize_entry("line", &d.line)?;
        map.serialize_entry("column", &d.column)?;
        if let Some(ply) = d.ply {
            map.serialize_entry("ply", &ply)?;
        }
        if let Some(text) = &d.move_text {
            map.serialize_entry("move", text)?;
        }
        map.end()
    }
}

/// One game's object, read back.
#[derive(Clone, Debug, PartialEq, Deserialize)]
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
    #[serde(default)]
    pub date: Option<String>,
    /// The result token ending the movetext, as written (`1-0`, `2-0`, `*`…).
    #[serde(default)]
    pub result: Option<String>,
    /// The recorded outcome (Result tag if readable, else the terminator).
    pub outcome: Outcome,
    /// `ok`, `illegal` or `unparsed`.
    pub status: GameStatus,
    /// The FEN the game starts from (numeric squares), when it could be set up.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// Main-line plies replayed.
    pub plies: u32,
    /// The FEN at the end of the replayed main line.
    #[serde(default)]
    pub final_fen: Option<String>,
    /// The first error as `CODE` or `CODE@PLY`.
    #[serde(default)]
    pub first_error: Option<String>,
    /// Why a drawn game is drawn (`{"kind":"rule","rule":"6.1.8.6","ply":57}`…).
    #[serde(default)]
    pub draw_basis: Option<DrawBasis>,
    /// The draw basis in words (as in the CSV column).
    #[serde(default)]
    pub draw_basis_text: Option<String>,
    /// The main line, with its variations.
    pub moves: LineRecord,
    /// Everything lint reports about the game.
    #[serde(default)]
    pub diagnostics: Vec<DiagnosticRecord>,
}

/// A tag pair.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TagRecord {
    /// The name as written.
    pub name: String,
    /// The decoded value.
    pub value: String,
}

/// A line: the main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct LineRecord {
    /// Variations written before the line's first move (alternatives to it).
    #[serde(default)]
    pub leading_variations: Vec<LineRecord>,
    /// The moves.
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    /// Annotations after the last move.
    #[serde(default)]
    pub trailing: Vec<AnnotationRecord>,
}

/// A move and everything attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct MoveRecord {
    /// Annotations between the previous move and this one.
    #[serde(default)]
    pub before: Vec<AnnotationRecord>,
    /// The full-move number, as written or inferred.
    #[serde(default)]
    pub number: Option<u32>,
    /// The side announced by the move number (or inferred).
    #[serde(default)]
    pub side: Option<Color>,
    /// The move exactly as written.
    pub text: String,
    /// Strength marks (`!`, `?!`…).
    #[serde(default)]
    pub strength: Option<String>,
    /// NAGs after the move.
    #[serde(default)]
    pub nags: Vec<u16>,
    /// Comments right after the move.
    #[serde(default)]
    pub after: Vec<AnnotationRecord>,
    /// Alternatives to this move.
    #[serde(default)]
    pub variations: Vec<LineRecord>,
    /// The legal move it names; absent when it could not be replayed.
    #[serde(default)]
    pub resolved: Option<ResolvedRecord>,
}

/// A move resolved against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ResolvedRecord {
    /// Main-line ply (1-based); absent in variations.
    #[serde(default)]
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
    #[serde(default)]
    pub captured: Vec<String>,
    /// A man becomes a king.
    #[serde(default)]
    pub promotes: bool,
    /// The position after the move (numeric FEN).
    pub fen_after: String,
}

/// A comment, setup command or free-standing NAG, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
    #[serde(default)]
    pub ply: Option<u32>,
    /// The move as written.
    #[serde(default, rename = "move")]
    pub move_text: Option<String>,
}

impl GameRecord {
    /// The game tree this record describes (spans empty, as after [`Game::normalize`];
    /// no syntax errors).
    pub fn to_game(&self) -> Game {
        let tags = self.tags.iter().map(|t| crate::pdn::Tag {
            name: t.name.clone(),
            raw_value: crate::pdn::token::escape(&t.value).into_owned(),
            value: t.value.clone(),
            span: Span::default(),
        });
        let result = self.result.as_ref().and_then(|raw| {
            crate::pdn::token::parse_result(raw).map(|t| GameResult {
                outcome: t.outcome,
                scale: t.scale,
                raw: raw.clone(),
                span: Span::default(),
            })
        });
        Game {
            tags: tags.collect(),
            moves: self.moves.to_line(),
            result,
            errors: Vec::new(),
        }
    }
}

impl LineRecord {
    /// The line this record describes.
    pub fn to_line(&self) -> Line {
        let annotations =
            |list: &[AnnotationRecord]| list.iter().map(AnnotationRecord::to_annotation).collect();
        Line {
            leading_variations: self
                .leading_variations
                .iter()
                .map(|l| l.to_line())
                .collect(),
            moves: (self.moves.iter())
                .map(|m| {
                    let mut mv = Move::new(&m.text, Span::default());
                    mv.number = m.number;
                    mv.side = m.side;
                    let extras = MoveExtras {
                        before: annotations(&m.before),
                        strength: m.strength.clone(),
                        nags: m.nags.clone(),
                        after: annotations(&m.after),
                        variations: m.variations.iter().map(|l| l.to_line()).collect(),
                    };
                    if extras != MoveExtras::default() {
                        *mv.extras_mut() = extras;
                    }
                    mv
                })
                .collect(),
            trailing: annotations(&self.trailing),
        }
    }
}

impl AnnotationRecord {
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
