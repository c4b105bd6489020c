//! A move played, as the writers of `convert` write it, on Russian's [`Position`] or any
//! variant's [`VariantPosition`]: its text in a notation, its squares, the FEN after it.
//! Each writer is written once, generic over [`Notated`], so that a game of any variant
//! is converted by the same code as a Russian one.

use crate::Color;
use crate::check::checker::MoveInfo;
use crate::replay::Ply;
use crate::rules::notation::{SquareStyle, Style, push_move_named};
use crate::rules::{FenStyle, Move, Playable, Position, Square, VariantMove, VariantPosition};

/// A legal move and the position it is played from, for a writer.
pub trait Notated {
    /// The side that played it.
    fn side(&self) -> Color;
    /// The move in `style`, appended to `out`.
    fn push_text(&self, out: &mut String, style: Style);
    /// The square it starts from, in `style`.
    fn push_from(&self, out: &mut String, style: Style);
    /// The square it ends on, in `style`.
    fn push_to(&self, out: &mut String, style: Style);
    /// Each square of its route (from, every landing, to), in `style`, joined by `sep`,
    /// appended to `out`.
    fn push_route(&self, out: &mut String, style: Style, sep: &str);
    /// Each square of a piece it captures, in `style`, joined by `sep`, appended to `out`.
    fn push_captured(&self, out: &mut String, style: Style, sep: &str);
    /// How many pieces it captures.
    fn captured_count(&self) -> usize;
    /// Whether a man is crowned.
    fn promotes(&self) -> bool;
    /// The FEN after it (numbered squares), appended to `out`.
    fn push_fen_after(&self, out: &mut Vec<u8>);
}

/// A move `mv` played from `before`; `short_names_it` as [`Ply::short_names_it`].
#[derive(Clone, Copy, Debug)]
pub struct Played<'a, P: Playable> {
    /// The position it is played from.
    pub before: &'a P,
    /// The move.
    pub mv: &'a P::Move,
    /// The move is known to be named by its first and last squares alone.
    pub short_names_it: bool,
}

impl<P: Playable> Ply<P> {
    /// The move, for a writer.
    pub fn played(&self) -> Played<'_, P> {
        Played {
            before: &self.before,
            mv: &self.mv,
            short_names_it: self.short_names_it,
        }
    }
}

impl<P: Playable> MoveInfo<P> {
    /// The move, for a writer.
    pub fn played(&self) -> Played<'_, P> {
        Played {
            before: &self.before,
            mv: &self.mv,
            short_names_it: self.short_names_it,
        }
    }

    /// The move written in `style`, appended to `out`.
    pub fn push_text(&self, out: &mut String, style: Style)
    where
        for<'b> Played<'b, P>: Notated,
    {
        self.played().push_text(out, style)
    }
}

#[inline]
fn push_square(out: &mut String, sq: Square, style: Style) {
    match style.squares {
        SquareStyle::Algebraic => sq.push_algebraic(out),
        SquareStyle::Numeric => sq.push_numeric(out),
    }
}

/// `squares` in `style`, joined by `sep`, appended to `out`.
#[inline]
fn push_joined(out: &mut String, squares: impl Iterator<Item = Square>, style: Style, sep: &str) {
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        push_square(out, sq, style);
    }
}

impl Notated for Played<'_, Position> {
    #[inline]
    fn side(&self) -> Color {
        self.before.turn()
    }
    #[inline]
    fn push_text(&self, out: &mut String, style: Style) {
        push_move_named(out, self.before, self.mv, style, self.short_names_it);
    }
    #[inline]
    fn push_from(&self, out: &mut String, style: Style) {
        push_square(out, self.mv.from(), style);
    }
    #[inline]
    fn push_to(&self, out: &mut String, style: Style) {
        push_square(out, self.mv.to(), style);
    }
    fn push_route(&self, out: &mut String, style: Style, sep: &str) {
        // (a quiet move or a capture of one piece lands only on `to`: the route search
        // would list every legal move to say so)
        let mv: &Move = self.mv;
        let route = (mv.captured().count() > 1)
            .then(|| self.before.routes(mv).into_iter().next())
            .flatten();
        let squares = match &route {
            Some(route) => &route.0[..],
            None => &[mv.from(), mv.to()][..],
        };
        push_joined(out, squares.iter().copied(), style, sep);
    }
    fn push_captured(&self, out: &mut String, style: Style, sep: &str) {
        push_joined(out, self.mv.captured(), style, sep);
    }
    #[inline]
    fn captured_count(&self) -> usize {
        self.mv.captured().count() as usize
    }
    #[inline]
    fn promotes(&self) -> bool {
        self.mv.promotes()
    }
    #[inline]
    fn push_fen_after(&self, out: &mut Vec<u8>) {
        self.before.after(self.mv).push_fen(FenStyle::Numeric, out);
    }
}

impl Played<'_, VariantPosition> {
    /// Square index `i` in `style`: the variant's number (or, on the Turkish board, its
    /// name), or its algebraic name.
    fn square(&self, i: u8, style: Style) -> String {
        match style.squares {
            SquareStyle::Numeric => self.before.square_text(i),
            SquareStyle::Algebraic => self.before.square_name(i),
        }
    }
}

impl Notated for Played<'_, VariantPosition> {
    fn side(&self) -> Color {
        self.before.turn()
    }
    fn push_text(&self, out: &mut String, style: Style) {
        out.push_str(&self.before.write(self.mv, style));
    }
    fn push_from(&self, out: &mut String, style: Style) {
        out.push_str(&self.square(self.mv.from(), style));
    }
    fn push_to(&self, out: &mut String, style: Style) {
        out.push_str(&self.square(self.mv.to(), style));
    }
    fn push_route(&self, out: &mut String, style: Style, sep: &str) {
        let mv: &VariantMove = self.mv;
        let names: Vec<String> = (mv.route().iter())
            .map(|&i| self.square(i, style))
            .collect();
        out.push_str(&names.join(sep));
    }
    fn push_captured(&self, out: &mut String, style: Style, sep: &str) {
        let mut squares: Vec<u8> = self.mv.captured().collect();
        squares.sort_by_key(|&i| self.before.square_order(i));
        let names: Vec<String> = squares.iter().map(|&i| self.square(i, style)).collect();
        out.push_str(&names.join(sep));
    }
    fn captured_count(&self) -> usize {
        self.mv.captured().count()
    }
    fn promotes(&self) -> bool {
        self.mv.promotes()
    }
    fn push_fen_after(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.before.then(self.mv).to_fen().as_bytes());
    }
}
