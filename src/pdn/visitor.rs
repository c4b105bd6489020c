//! The streaming visitor: the parser calls these methods in text order with borrowed tokens.
//!
//! Order of calls for one game: `begin_game`, then `tag`s, then `begin_movetext` (always
//! called once, even for a game with no movetext), then movetext events, then `end_game`.
//! Comments and line comments met before the movetext are delivered before
//! `begin_movetext`. `syntax_error` may come at any point. `begin_variation` and
//! `end_variation` always balance (the parser closes unclosed variations itself), except
//! that a variation skipped through [`Skip`] gets no `end_variation` and no events inside.

use super::error::{Span, SyntaxError};
use super::game::CommentKind;
use super::token::{MoveNumber, RawTag, ResultToken};
pub use crate::rules::notation::PlainSquares;

/// Whether to skip a variation (returned by [`Visitor::begin_variation`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(pub bool);

/// Receives the events of one game. All methods but `end_game` default to doing nothing.
pub trait Visitor {
    /// What `end_game` produces.
    type Output;

    /// A game starts.
    fn begin_game(&mut self) {}
    /// A tag pair (value still escaped; see [`RawTag::value`]).
    fn tag(&mut self, _tag: RawTag<'_>) {}
    /// The movetext starts (called once per game, also when there is no movetext).
    /// `Skip(true)`: the visitor has what it needs of the game (its tags): the reader
    /// reads on to the game's end without giving it more events, `end_game` then.
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }
    /// A move number such as `12.` or `12...`.
    fn move_number(&mut self, _number: MoveNumber, _span: Span) {}
    /// A move token exactly as written (`c3-d4`, `1- 6`, `- -`…), without strength marks.
    fn mv(&mut self, _text: &str, _span: Span) {}
    /// A move token of two plain squares (`c3-d4`, `22:18`): [`Visitor::mv`] with the
    /// squares the reader read as it recognised the token. By default, `mv`.
    fn plain_mv(&mut self, _squares: PlainSquares, text: &str, span: Span) {
        self.mv(text, span);
    }
    /// A strength mark for the preceding move: `!`, `?!`, `(?)`, `*`…
    fn strength(&mut self, _mark: &str, _span: Span) {}
    /// A numeric annotation glyph `$n`.
    fn nag(&mut self, _nag: u16, _span: Span) {}
    /// A `{…}` comment; `text` is between the braces, verbatim.
    fn comment(&mut self, _text: &str, _span: Span) {}
    /// A `%` (at line start) or `;` comment; `text` follows the marker, without the line end.
    fn line_comment(&mut self, _kind: CommentKind, _text: &str, _span: Span) {}
    /// A `(` opens a variation: an alternative to the preceding move.
    fn begin_variation(&mut self, _span: Span) -> Skip {
        Skip(false)
    }
    /// The `)` closing a variation (or the end of the game for an unclosed one).
    fn end_variation(&mut self, _span: Span) {}
    /// A `/FEN "…"/` setup command; `fen` is the text between the quotes.
    fn setup(&mut self, _fen: &str, _span: Span) {}
    /// The result token that ends the game.
    fn result(&mut self, _result: ResultToken<'_>, _span: Span) {}
    /// A syntax problem; the parser carries on after it.
    fn syntax_error(&mut self, _error: SyntaxError) {}
    /// The game ends.
    fn end_game(&mut self) -> Self::Output;
}

/// Counts a game's moves, in all its lines: the cheapest useful visitor (the reader's
/// move limit, `pdnkit-read` of tools/gen and the reader benchmark use it).
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveCount(pub usize);

impl Visitor for MoveCount {
    type Output = usize;
    fn begin_game(&mut self) {
        self.0 = 0;
    }
    fn mv(&mut self, _text: &str, _span: Span) {
        self.0 += 1;
    }
    fn end_game(&mut self) -> usize {
        self.0
    }
}
