//! The JSON form of a game (`pdnkit convert --to jsonl`): one object per game, written by
//! serde_json from views that borrow the game's tree and report.
//!
//! Nothing of the game tree is lost: every tag (in file order, duplicates kept), every
//! comment (with its syntax), setup command, variation, NAG and strength mark is there,
//! the annotations of a move in lists in the order they were written (the tests read the
//! objects back and rebuild games equal to the parsed ones). Each move also carries its
//! resolution against the rules (`resolved`, absent when the move could not be replayed).
//! Empty lists and absent values are left out.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::{GameStatus, MoveInfo, Resolutions, draw_basis_text, first_error, iso_date};
use crate::diag::Diagnostic;
use crate::pdn::{Annotation, CommentKind, Line, Move};
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

/// The object of a game the reader skipped (`problem`, a `game-too-large`) after its `{`
/// and the path and game number: `,"line":…,"status":"skipped",…}` with the reason, and a
/// line break, appended to `out`.
pub fn push_skipped(out: &mut Vec<u8>, problem: &Diagnostic) {
    #[derive(Serialize)]
    struct Skipped<'a> {
        line: usize,
        status: GameStatus,
        first_error: &'a str,
        reason: &'a str,
    }
    let start = out.len();
    let view = Skipped {
        line: problem.line,
        status: GameStatus::Skipped,
        first_error: problem.rule.code,
        reason: &problem.message,
    };
    // (writing into a vector cannot fail)
    let _ = serde_json::to_writer(&mut *out, &view);
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
        // (the tree has the comments before the tags; the tags are the report's)
        if let Some(before) = r.game.as_ref().map(|game| &game.before_tags) {
            if !before.is_empty() {
                map.serialize_entry("before_tags", &Annotations(before, self))?;
            }
        }
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
        let mut map = s.serialize_map(None)?;
        line_entries(&mut map, self.0, self.1)?;
        map.end()
    }
}

/// The entries of a line's object (also those of a variation's, after its `type`).
fn line_entries<M: SerializeMap>(
    map: &mut M,
    line: &Line,
    game: &GameView<'_, '_>,
) -> Result<(), M::Error> {
    map.serialize_entry("moves", &Moves(&line.moves, game))?;
    if !line.trailing.is_empty() {
        map.serialize_entry("trailing", &Annotations(&line.trailing, game))?;
    }
    Ok(())
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
        let mut map = s.serialize_map(None)?;
        if !m.before().is_empty() {
            map.serialize_entry("before", &Annotations(m.before(), game))?;
        }
        // (the move's resolution is the next in text order: after those of the variations
        // before it, before those of the variations after it)
        let resolved = game.resolutions.next();
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
        if !m.after().is_empty() {
            map.serialize_entry("after", &Annotations(m.after(), game))?;
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

/// Annotations in document order, variations walked (and their moves resolved) where
/// they stand.
struct Annotations<'a, 'g, 'b>(&'a [Annotation], &'g GameView<'g, 'b>);

impl Serialize for Annotations<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for a in self.0 {
            seq.serialize_element(&AnnotationView(a, self.1))?;
        }
        seq.end()
    }
}

struct AnnotationView<'a, 'g, 'b>(&'a Annotation, &'g GameView<'g, 'b>);

impl Serialize for AnnotationView<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        match self.0 {
            Annotation::Comment(c) => {
                map.serialize_entry("type", "comment")?;
                map.serialize_entry("kind", comment_kind(c.kind))?;
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
            Annotation::Variation(line) => {
                map.serialize_entry("type", "variation")?;
                line_entries(&mut map, line, self.1)?;
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

/// The `kind` of a comment's annotation.
fn comment_kind(kind: CommentKind) -> &'static str {
    match kind {
        CommentKind::Brace => "brace",
        CommentKind::Percent => "percent",
        CommentKind::Semicolon => "semicolon",
    }
}
