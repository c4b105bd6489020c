//! The JSON form of a game (`pdnkit convert --to jsonl`): one object per game, written
//! as the game's tree and report are walked.
//!
//! Nothing of the game tree is lost: every tag (in file order, duplicates kept), every
//! comment (with its syntax), setup command, variation, NAG and strength mark is there,
//! the annotations of a move in lists in the order they were written (the tests read the
//! objects back and rebuild games equal to the parsed ones). Each move also carries its
//! resolution against the rules (`resolved`, absent when the move could not be replayed).
//! Empty lists and absent values are left out.
//!
//! The bytes are put together here rather than by serializing views with serde_json: most
//! of an object is keys, numbers, squares and FENs, which need no escaping, and serde's
//! escaping scan and calls per key and value made the JSON cost three times the rest of a
//! conversion. Text from the file that needs escaping is escaped by serde_json, and the
//! enums of the report (outcome, status, draw basis) are written by their `Serialize`.

use serde::Serialize;

use super::played::{Notated, Played};
use super::{GameStatus, Resolutions, draw_basis_text, first_error, iso_date};
use crate::Color;
use crate::check::checker::MoveInfo;
use crate::diag::Diagnostic;
use crate::pdn::{Annotation, CommentKind, Line, Move};
use crate::rules::notation::{SquareStyle, Style};
use crate::rules::{FenStyle, Playable, Position, Variant, VariantPosition};
use crate::run::Checked;

/// The game's object after its `{` and the path and game number (see
/// [`super::Converted`]): `,"line":…}` and a line break, appended to `out`.
pub fn push_game(out: &mut Vec<u8>, g: &Checked<'_>, style: Style) {
    let r = &*g.report;
    match r.variant {
        Variant::Russian => {
            let resolutions = Resolutions::<Position>::new(&r.moves);
            // (a Russian move's squares by their names, whatever the notation)
            let squares = Style {
                squares: SquareStyle::Algebraic,
                ..style
            };
            push_game_of(out, g, style, squares, resolutions);
        }
        _ => {
            let resolutions = Resolutions::<VariantPosition>::new(&r.variant_line.moves);
            push_game_of(out, g, style, style, resolutions);
        }
    }
}

/// [`push_game`] of a game replayed on `P`, its moves in `style` and their squares in
/// `squares`'.
fn push_game_of<P: Playable>(
    out: &mut Vec<u8>,
    g: &Checked<'_>,
    style: Style,
    squares: Style,
    resolutions: Resolutions<'_, P>,
) where
    for<'b> Played<'b, P>: Notated,
{
    let r = &*g.report;
    let mut w = Json {
        out,
        style,
        squares,
        resolutions,
        text: String::new(),
    };
    w.put(b",\"line\":");
    w.number(g.source.start.line);
    // (the tree has the comments before the tags; the tags are the report's)
    w.put(b",\"before_tags\":");
    let empty = Line::default();
    let game = r.game.as_ref();
    w.annotations(game.map_or(&[][..], |game| &game.before_tags));
    w.put(b",\"tags\":");
    w.tags(r);
    w.put(b",\"date\":");
    w.or_null(r.tag("Date").and_then(iso_date), |w, date| w.string(&date));
    w.put(b",\"result\":");
    w.or_null(r.result.as_ref(), |w, result| w.string(&result.raw));
    w.put(b",\"outcome\":");
    w.serialized(&r.outcome);
    w.put(b",\"score\":");
    w.or_null(r.outcome.white_score(), |w, score| w.put(score.as_bytes()));
    w.put(b",\"status\":");
    w.serialized(&GameStatus::of(r));
    w.put(b",\"variant\":\"");
    w.put(r.variant.name().as_bytes());
    w.put(b"\"");
    let line = &r.variant_line;
    w.put(b",\"start_fen\":");
    w.either_fen(r.start.as_ref(), line.start.as_ref());
    w.put(b",\"plies\":");
    w.number(r.plies);
    w.put(b",\"final_fen\":");
    w.either_fen(r.end.as_ref(), line.end.as_ref());
    w.put(b",\"first_error\":");
    w.or_null(first_error(&g.diagnostics), |w, error| w.string(&error));
    let basis = r.draw.as_ref().and_then(|v| v.basis);
    w.put(b",\"draw_basis\":");
    w.or_null(basis.as_ref(), |w, basis| w.serialized(basis));
    w.put(b",\"draw_basis_text\":");
    w.or_null(basis, |w, basis| w.string(&draw_basis_text(&basis)));
    // the main line: its moves, and what follows its last move's annotations
    let main = game.map_or(&empty, |game| &game.moves);
    w.put(b",\"moves\":");
    w.list(&main.moves, Json::move_object);
    w.put(b",\"trailing\":");
    w.annotations(&main.trailing);
    w.put(b",\"diagnostics\":");
    w.list(&g.diagnostics, Json::diagnostic);
    w.put(b"}\n");
}

/// The object of a game the reader skipped (`problem`, a `game-too-large`) after its `{`
/// and the path and game number: `,"line":…,"status":"skipped",…}` with the reason, and a
/// line break, appended to `out`.
pub fn push_skipped(out: &mut Vec<u8>, problem: &Diagnostic) {
    let mut w = Json {
        out,
        style: Style::default(),
        squares: Style::default(),
        resolutions: Resolutions::<Position>::default(),
        text: String::new(),
    };
    w.put(b",\"line\":");
    w.number(problem.line);
    w.put(b",\"status\":");
    w.serialized(&GameStatus::Skipped);
    w.put(b",\"first_error\":");
    w.string(problem.rule.code);
    w.put(b",\"reason\":");
    w.string(&problem.message);
    w.put(b"}\n");
}

/// A game's JSON, written into `out` piece by piece.
struct Json<'a, P: Playable> {
    out: &'a mut Vec<u8>,
    /// The notation of resolved moves.
    style: Style,
    /// The notation of their squares (`from`, `to`, `route`, `captured`).
    squares: Style,
    /// The moves' resolutions, taken as the walk comes to the moves.
    resolutions: Resolutions<'a, P>,
    /// A resolved move's notation, made here before it is written.
    text: String,
}

impl<P: Playable> Json<'_, P>
where
    for<'b> Played<'b, P>: Notated,
{
    fn put(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// A string, escaped as serde_json escapes it (by serde_json, when it needs any).
    fn string(&mut self, s: &str) {
        if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
            // (writing into a vector cannot fail)
            let _ = serde_json::to_writer(&mut *self.out, s);
        } else {
            self.out.reserve(s.len() + 2);
            self.put(b"\"");
            self.put(s.as_bytes());
            self.put(b"\"");
        }
    }

    fn number(&mut self, n: impl itoa::Integer) {
        self.put(itoa::Buffer::new().format(n).as_bytes());
    }

    /// A value as serde serializes it (the report's enums: a few a game).
    fn serialized(&mut self, value: &impl Serialize) {
        // (writing into a vector cannot fail, nor can serializing these)
        let _ = serde_json::to_writer(&mut *self.out, value);
    }

    fn color(&mut self, color: Color) {
        self.put(match color {
            Color::White => b"\"white\"",
            Color::Black => b"\"black\"",
        });
    }

    /// A numeric FEN (ASCII: nothing to escape).
    fn fen(&mut self, pos: &Position) {
        self.put(b"\"");
        pos.push_fen(FenStyle::Numeric, self.out);
        self.put(b"\"");
    }

    /// The FEN of a Russian position, else of another variant's, else `null`.
    fn either_fen(&mut self, russian: Option<&Position>, other: Option<&VariantPosition>) {
        match (russian, other) {
            (Some(pos), _) => self.fen(pos),
            (None, Some(pos)) => self.string(&pos.to_fen()),
            (None, None) => self.put(b"null"),
        }
    }

    /// `value` written by `write`, or `null`.
    fn or_null<T>(&mut self, value: Option<T>, write: impl FnOnce(&mut Self, T)) {
        match value {
            Some(value) => write(self, value),
            None => self.put(b"null"),
        }
    }

    /// The tags as an object: a name's value, or the list of its values in file order
    /// when the name is written more than once (the names in the order first written).
    fn tags(&mut self, r: &crate::check::checker::GameReport) {
        // each name with the indices of its tags, in the order first written
        let mut names: Vec<(&str, Vec<usize>)> = Vec::new();
        let mut index: foldhash::HashMap<&str, usize> = Default::default();
        for (i, t) in r.tags.iter().enumerate() {
            let k = *index.entry(t.name.as_str()).or_insert_with(|| {
                names.push((t.name.as_str(), Vec::new()));
                names.len() - 1
            });
            names[k].1.push(i);
        }
        self.put(b"{");
        for (k, (name, tags)) in names.iter().enumerate() {
            if k > 0 {
                self.put(b",");
            }
            self.string(name);
            self.put(b":");
            match tags[..] {
                [i] => self.string(&r.tags[i].value),
                _ => self.list(tags, |w, &i| w.string(&r.tags[i].value)),
            }
        }
        self.put(b"}");
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
        self.put(b"]");
    }

    /// The entries of a line's object (also those of a variation's, after its `type`),
    /// its moves resolved as the walk comes to them.
    fn line(&mut self, line: &Line) {
        self.put(b"\"moves\":");
        self.list(&line.moves, Self::move_object);
        if !line.trailing.is_empty() {
            self.put(b",\"trailing\":");
            self.annotations(&line.trailing);
        }
    }

    fn move_object(&mut self, m: &Move) {
        self.put(b"{");
        if !m.before().is_empty() {
            self.put(b"\"before\":");
            self.annotations(m.before());
            self.put(b",");
        }
        // (the move's resolution is the next in text order: after those of the variations
        // before it, before those of the variations after it)
        let resolved = self.resolutions.next();
        if let Some(number) = m.number {
            self.put(b"\"number\":");
            self.number(number);
            self.put(b",");
        }
        if let Some(side) = m.side {
            self.put(b"\"side\":");
            self.color(side);
            self.put(b",");
        }
        self.put(b"\"text\":");
        self.string(&m.text);
        if let Some(strength) = m.strength() {
            self.put(b",\"strength\":");
            self.string(strength);
        }
        if !m.after().is_empty() {
            self.put(b",\"after\":");
            self.annotations(m.after());
        }
        if let Some(info) = resolved {
            self.put(b",\"resolved\":");
            self.resolved(info);
        }
        self.put(b"}");
    }

    /// A move resolved against the rules.
    fn resolved(&mut self, info: &MoveInfo<P>) {
        let played = info.played();
        self.put(b"{");
        if let Some(ply) = info.ply {
            self.put(b"\"ply\":");
            self.number(ply);
            self.put(b",");
        }
        self.put(b"\"move_number\":");
        self.number(info.move_number);
        self.put(b",\"side\":");
        self.color(played.side());
        self.put(b",\"move\":");
        // (the move and its squares put together first, and written at once: squares and
        // separators need no escaping)
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        text.push('"');
        played.push_text(&mut text, self.style);
        text.push_str("\",\"from\":\"");
        played.push_from(&mut text, self.squares);
        text.push_str("\",\"to\":\"");
        played.push_to(&mut text, self.squares);
        text.push_str("\",\"route\":[\"");
        played.push_route(&mut text, self.squares, "\",\"");
        text.push_str("\"]");
        if played.captured_count() > 0 {
            text.push_str(",\"captured\":[\"");
            played.push_captured(&mut text, self.squares, "\",\"");
            text.push_str("\"]");
        }
        self.put(text.as_bytes());
        self.text = text;
        if played.promotes() {
            self.put(b",\"promotes\":true");
        }
        self.put(b",\"fen_after\":\"");
        played.push_fen_after(self.out);
        self.put(b"\"}");
    }

    /// Annotations in document order, variations walked (and their moves resolved) where
    /// they stand.
    fn annotations(&mut self, list: &[Annotation]) {
        self.list(list, |w, a| match a {
            Annotation::Comment(c) => {
                w.put(b"{\"type\":\"comment\",\"kind\":\"");
                w.put(comment_kind(c.kind).as_bytes());
                w.put(b"\",\"text\":");
                w.string(&c.text);
                w.put(b"}");
            }
            Annotation::Setup(setup) => {
                w.put(b"{\"type\":\"setup\",\"fen\":");
                w.string(&setup.fen);
                w.put(b"}");
            }
            Annotation::Nag(n) => {
                w.put(b"{\"type\":\"nag\",\"nag\":");
                w.number(*n);
                w.put(b"}");
            }
            Annotation::Variation(line) => {
                w.put(b"{\"type\":\"variation\",");
                w.line(line);
                w.put(b"}");
            }
        });
    }

    /// A diagnostic, as in `pdnkit lint --format jsonl` (without the path and game).
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
        self.put(b"}");
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
