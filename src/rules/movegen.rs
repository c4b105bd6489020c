//! Legal moves of Russian draughts: generation, playing, and the routes of a capture.
//!
//! This is Russian's own generator, on bitboards of its 32 squares; its rules are those
//! of [`RUSSIAN`], read as constants. Every variant, Russian included, also has
//! the general generator ([`super::VariantPosition`]), which agrees with this one on
//! Russian positions (tested) and is several times slower.
//!
//! Rules (RULES.md §2): capture is mandatory; free choice among captures; a capture goes on
//! while the piece can capture; men capture backwards; kings fly and, when some landing
//! squares beyond a captured piece let the capture go on, must land on one of those; captured
//! pieces stay on the board until the move ends (Turkish strike), so they can be neither
//! jumped again nor passed over; a man reaching the far rank mid-capture goes on as a king.
//!
//! A move is the triple (from, to, captured set): different routes to the same triple are one
//! move, and the generator removes duplicates as it goes.

use arrayvec::ArrayVec;
use std::fmt;
use std::ops::Deref;

use super::variant::RUSSIAN;
use super::{Bitboard, CaptureChoice, Direction, Position, Square};
use crate::Color;

/// A legal move: where the piece starts and ends and which pieces it captures.
///
/// Small and `Copy`; the route (the landing squares of a capture) is not stored because
/// several routes may realise one move. Ask [`Position::routes`] when notation needs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    captured: Bitboard,
    promotes: bool,
}

impl Move {
    /// A move from its parts. Nothing is checked: use [`Position::play`] to play it safely.
    pub const fn new(from: Square, to: Square, captured: Bitboard, promotes: bool) -> Move {
        Move {
            from,
            to,
            captured,
            promotes,
        }
    }

    /// Square the piece starts on.
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// Square the piece ends on (may equal [`Move::from`] for a ring capture).
    #[inline]
    pub fn to(&self) -> Square {
        self.to
    }

    /// Squares of the captured pieces (empty for a quiet move).
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether a man becomes a king with this move (on arrival or mid-capture).
    #[inline]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// The same move? Moves are identified by (from, to, captured set).
    #[inline]
    fn same(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl fmt::Display for Move {
    /// Short algebraic notation: `c3-d4`, `a1:e5` (from and to only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { ':' } else { '-' };
        write!(f, "{}{}{}", self.from, sep, self.to)
    }
}

/// Capacity of a [`MoveList`].
///
/// Quiet moves: at most 12 kings × 13 squares (the most a king sees, from the centre) = 156.
/// Captures in real and composed positions stay far below that. Should a constructed
/// position ever produce more distinct moves, the list keeps the first `CAPACITY` and
/// [`MoveList::is_truncated`] says so: never a panic or an out-of-bounds write.
pub const MOVE_LIST_CAPACITY: usize = 256;

/// The legal moves of a position, in a fixed-size array (no allocation).
///
/// `MAN_STEPS[color][square]`: where a man of `color` on `square` steps (its two forward
/// neighbours, or one at the edge).
static MAN_STEPS: [[Bitboard; 32]; 2] = {
    let mut t = [[Bitboard::EMPTY; 32]; 2];
    let mut i = 0;
    while i < 32 {
        let b = Bitboard(1 << i);
        let white = b.shift(Direction::NorthWest).0 | b.shift(Direction::NorthEast).0;
        let black = b.shift(Direction::SouthWest).0 | b.shift(Direction::SouthEast).0;
        t[0][i] = Bitboard(white);
        t[1][i] = Bitboard(black);
        i += 1;
    }
    t
};

/// A position's legal moves, in a fixed array: no allocation per position, and the room
/// beyond the moves listed is not initialised (a position has a handful of moves).
#[derive(Clone, Default)]
pub struct MoveList {
    moves: ArrayVec<Move, MOVE_LIST_CAPACITY>,
    truncated: bool,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList::default()
    }

    #[inline]
    fn push(&mut self, m: Move) {
        if self.moves.try_push(m).is_err() {
            self.truncated = true;
        }
    }

    /// Adds a capture unless the same (from, to, captured) is already listed.
    #[inline]
    fn push_distinct(&mut self, m: Move) {
        if !self.iter().any(|x| x.same(&m)) {
            self.push(m);
        }
    }

    /// Empties the list.
    #[inline]
    fn clear(&mut self) {
        self.moves.clear();
        self.truncated = false;
    }

    /// Whether moves were dropped because the list was full (believed impossible, see
    /// [`MOVE_LIST_CAPACITY`]).
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// One way to play a move: the start square, then every landing square in order.
/// A quiet move's route is `[from, to]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Route(pub Vec<Square>);

impl Route {
    /// The squares: from, landings…, to.
    pub fn squares(&self) -> &[Square] {
        &self.0
    }
}

/// [`Position::play`] was given a move that is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMoveError(pub Move);

/// Where the capture search reports complete captures.
trait CaptureSink {
    /// Whether the search must keep the route (costs a little; off for plain generation).
    const ROUTES: bool;
    fn found(&mut self, m: Move, route: &[Square]);
}

impl CaptureSink for MoveList {
    const ROUTES: bool = false;
    #[inline]
    fn found(&mut self, m: Move, _route: &[Square]) {
        self.push_distinct(m);
    }
}

/// Collects the routes of one move.
struct RouteSink<'a> {
    target: &'a Move,
    routes: Vec<Route>,
}

impl CaptureSink for RouteSink<'_> {
    const ROUTES: bool = true;
    fn found(&mut self, m: Move, route: &[Square]) {
        if m.same(self.target) {
            let r = Route(route.to_vec());
            if !self.routes.contains(&r) {
                self.routes.push(r);
            }
        }
    }
}

/// Depth-first search of the captures of one piece.
struct CaptureSearch<'a, S> {
    from: Square,
    /// Opponent pieces (captured or not: captured ones are removed per branch).
    enemy: Bitboard,
    /// Empty squares, counting the mover's start square as empty (a ring may end there)
    /// and captured pieces as occupied (Turkish strike).
    empty: Bitboard,
    promotion: Bitboard,
    men_backwards: bool,
    forward: [Direction; 2],
    /// Start square and landing squares so far; a capture takes one piece per landing and
    /// there are at most 31 other pieces, so 32 entries always suffice.
    route: [Square; 32],
    len: usize,
    sink: &'a mut S,
}

impl<S: CaptureSink> CaptureSearch<'_, S> {
    #[inline]
    fn enter(&mut self, sq: Square) {
        // The bound holds for any position from `from_setup`; the check keeps a board
        // corrupted by illegal `play_unchecked` calls from panicking.
        if S::ROUTES && self.len < self.route.len() {
            self.route[self.len] = sq;
            self.len += 1;
        }
    }

    #[inline]
    fn leave(&mut self) {
        if S::ROUTES {
            self.len = self.len.saturating_sub(1);
        }
    }

    #[inline]
    fn report(&mut self, to: Square, captured: Bitboard, promotes: bool) {
        let m = Move {
            from: self.from,
            to,
            captured,
            promotes,
        };
        self.sink.found(m, &self.route[..self.len]);
    }

    /// A man on `sq` that has captured `captured` so far.
    fn man(&mut self, sq: Square, captured: Bitboard) {
        let capturable = self.enemy & !captured;
        let mut extended = false;
        for dir in Direction::ALL {
            if !self.men_backwards && !self.forward.contains(&dir) {
                continue;
            }
            let Some(over) = sq.step(dir) else { continue };
            if !capturable.contains(over) {
                continue;
            }
            let Some(land) = over.step(dir) else { continue };
            if !self.empty.contains(land) {
                continue;
            }
            extended = true;
            let now = captured | Bitboard::from_square(over);
            self.enter(land);
            if self.promotion.contains(land) {
                // 1.5.15: crowned on arrival, it goes on (if it can) as a king.
                self.king(land, now, true);
            } else {
                self.man(land, now);
            }
            self.leave();
        }
        if !extended && captured.any() {
            self.report(sq, captured, false);
        }
    }

    /// The first piece met from `sq` going `dir` over empty squares, if any.
    #[inline]
    fn first_piece(&self, sq: Square, dir: Direction) -> Option<Square> {
        sq.first_in(dir, !self.empty)
    }

    /// A king (or a man crowned mid-capture, `promotes`) on `sq` that has captured `captured`.
    fn king(&mut self, sq: Square, captured: Bitboard, promotes: bool) {
        let capturable = self.enemy & !captured;
        let mut extended = false;
        for dir in Direction::ALL {
            let Some(over) = self.first_piece(sq, dir) else {
                continue;
            };
            if !capturable.contains(over) {
                continue; // own piece, or a captured one that blocks (Turkish strike)
            }
            let now = captured | Bitboard::from_square(over);
            let mut lands = [over; 7];
            let mut n = 0;
            let mut t = over.step(dir);
            while let Some(s) = t {
                if !self.empty.contains(s) {
                    break;
                }
                lands[n] = s;
                n += 1;
                t = s.step(dir);
            }
            if n == 0 {
                continue;
            }
            extended = true;
            // 1.5.6: if some landing squares let the capture go on, only those are allowed.
            // Whether one does is the test `kings_have_captures` makes for a side, with
            // the captured pieces blocking and not open to capture: the same open pieces
            // for every landing of this capture.
            let open = open_to_capture(self.enemy & !now, self.empty);
            let mut continued = false;
            for &land in &lands[..n] {
                if king_capture_hits(land, !self.empty, &open).any() {
                    continued = true;
                    self.enter(land);
                    self.king(land, now, promotes);
                    self.leave();
                }
            }
            if !continued {
                for &land in &lands[..n] {
                    self.enter(land);
                    self.report(land, now, promotes);
                    self.leave();
                }
            }
        }
        if !extended && captured.any() {
            self.report(sq, captured, promotes);
        }
    }
}

/// Plays a move on the sets of men and kings `[men, kings]` of any board (Russian's
/// bitboards, the general generator's sets): the piece of `turn` goes from `from` to `to`
/// (a king if `king`; a man crowned there if `promotes`), the pieces on `captured` go.
/// Returns the side to move next.
#[inline(always)]
pub(crate) fn play_on<S>(
    [men, kings]: [&mut [S; 2]; 2],
    turn: Color,
    (from, to, captured): (S, S, S),
    king: bool,
    promotes: bool,
) -> Color
where
    S: Copy
        + std::ops::BitAnd<Output = S>
        + std::ops::BitOr<Output = S>
        + std::ops::Not<Output = S>,
{
    let (us, them) = (turn.index(), turn.opponent().index());
    if king {
        kings[us] = (kings[us] & !from) | to;
    } else {
        men[us] = men[us] & !from;
        if promotes {
            kings[us] = kings[us] | to;
        } else {
            men[us] = men[us] | to;
        }
    }
    men[them] = men[them] & !captured;
    kings[them] = kings[them] & !captured;
    turn.opponent()
}

/// Per direction (indexed by [`Direction`]), the pieces of `capturable` with an empty
/// square next to them in that direction: what a king meeting one of them first along
/// that diagonal can capture.
#[inline(always)]
fn open_to_capture(capturable: Bitboard, empty: Bitboard) -> [Bitboard; 4] {
    Direction::ALL.map(|dir| capturable & empty.shift(dir.opposite()))
}

/// The pieces a king on `king` can capture now (none: it has no capture): in each
/// direction, the first piece it meets among `occupied`, if it is open to capture in
/// that direction ([`open_to_capture`]). One ray lookup and a bit scan per direction and
/// no branch: whether a direction has a capture is unpredictable, and mispredicted
/// branches made this test cost more time than its instructions say.
#[inline(always)]
fn king_capture_hits(king: Square, occupied: Bitboard, open: &[Bitboard; 4]) -> Bitboard {
    Direction::ALL
        .into_iter()
        .fold(Bitboard::EMPTY, |hit, dir| {
            hit | (king.nearest_in(dir, occupied) & open[dir as usize])
        })
}

impl Position {
    #[inline]
    fn forward(color: Color) -> [Direction; 2] {
        match color {
            Color::White => [Direction::NorthWest, Direction::NorthEast],
            Color::Black => [Direction::SouthWest, Direction::SouthEast],
        }
    }

    /// Whether the side to move has a capture (and so must capture). Whole-board shifts, no
    /// search: the cheap test that decides between the two generators.
    #[inline]
    pub fn has_captures(&self) -> bool {
        self.has_captures_inline()
    }

    /// [`has_captures`](Self::has_captures), always inlined (for
    /// [`quiet_move_unless_capture`](Self::quiet_move_unless_capture)).
    #[inline(always)]
    fn has_captures_inline(&self) -> bool {
        let us = self.turn;
        let enemy = self.pieces(us.opponent());
        let empty = self.empty();
        let men = self.men(us);
        let men_dirs: &[Direction] = if RUSSIAN.men_capture_backwards() {
            &Direction::ALL
        } else {
            &Self::forward(us)
        };
        for &dir in men_dirs {
            if men.can_jump(dir, enemy, empty) {
                return true;
            }
        }
        self.kings(us).any() && self.kings_have_captures()
    }

    /// Whether a king of the side to move has a capture (apart from
    /// [`has_captures`](Self::has_captures): most positions of a game have no king).
    #[inline(never)]
    fn kings_have_captures(&self) -> bool {
        let us = self.turn;
        let enemy = self.pieces(us.opponent());
        let empty = self.empty();
        // (the enemy pieces open to capture are the same for every king)
        let open = open_to_capture(enemy, empty);
        self.kings(us)
            .fold(Bitboard::EMPTY, |hit, king| {
                hit | king_capture_hits(king, !empty, &open)
            })
            .any()
    }

    /// The captures of the piece of the side to move on `from` (none when there is no
    /// such piece), in the order [`legal_moves`](Self::legal_moves) lists them. Only
    /// meaningful when [`has_captures`](Self::has_captures): with free choice among
    /// captures (Russian 1.5.14) they are then exactly the legal moves starting on `from`,
    /// found without searching the other pieces.
    pub(crate) fn piece_captures_into(&self, from: Square, list: &mut MoveList) {
        list.clear();
        let us = self.turn;
        let (man, king) = (self.men(us).contains(from), self.kings(us).contains(from));
        if !man && !king {
            return;
        }
        let mut search = self.capture_search(list);
        search.from = from;
        search.empty = !self.occupied() | Bitboard::from_square(from);
        search.enter(from);
        if man {
            search.man(from, Bitboard::EMPTY);
        } else {
            search.king(from, Bitboard::EMPTY, false);
        }
    }

    /// The capture from `from` to `to` when the piece there has exactly one capture ending
    /// on `to`; `None` when it has none or several, or when the variant does not leave the
    /// choice among captures free (then a piece's captures need not all be legal). Only
    /// meaningful when [`has_captures`](Self::has_captures).
    pub(crate) fn only_capture(&self, from: Square, to: Square) -> Option<Move> {
        if RUSSIAN.choice != CaptureChoice::Free {
            return None;
        }
        if let Some(jump) = self.forced_jumps(from, to) {
            return Some(jump);
        }
        if let Some(capture) = self.forced_king_capture(from, to) {
            return Some(capture);
        }
        self.only_capture_by_search(from, to)
    }

    /// [`only_capture`](Self::only_capture) when it is a king's forced capture, found
    /// without the search (most of a king's captures are): from `from`, and from each
    /// landing where it goes on, the king can capture in exactly one direction, and there
    /// exactly one of its landing squares lets it go on, until none does; `to` is then one
    /// of the last piece's landing squares. The search goes only that way (1.5.6: where
    /// some landing lets the capture go on, only those are allowed) and ends on each of the
    /// last landings with the same pieces, so the move ending on `to` is the only one.
    /// `None` says nothing: ask the search. (The search's branches, unpredictable, cost a
    /// king's capture more time than its instructions say.)
    fn forced_king_capture(&self, from: Square, to: Square) -> Option<Move> {
        if !self.kings(self.turn).contains(from) {
            return None;
        }
        self.forced_king_chain(from, from, Bitboard::EMPTY, to, false)
    }

    /// The forced capture of a king on `at` that started on `from` and has captured
    /// `captured` so far (`promotes`: a man crowned on `at` mid-capture), as
    /// [`forced_king_capture`](Self::forced_king_capture) walks it; `None`: ask the search.
    fn forced_king_chain(
        &self,
        from: Square,
        mut at: Square,
        mut captured: Bitboard,
        to: Square,
        promotes: bool,
    ) -> Option<Move> {
        let enemy = self.pieces(self.turn.opponent());
        // the piece has left `from`; the jumped pieces stay on the board until the move
        // ends (1.5.11): they block, and they cannot be jumped again
        let empty = self.empty() | Bitboard::from_square(from);
        let occupied = !empty;
        let mut open = open_to_capture(enemy & !captured, empty);
        // (each turn jumps a piece not jumped before: at most 12 turns)
        loop {
            // the one piece it can jump (more: no forced capture), and in which direction
            let hits = king_capture_hits(at, occupied, &open);
            let Some(over) = hits.first() else {
                // (only a man crowned here can arrive with nothing more to capture)
                return (captured.any() && at == to).then_some(Move {
                    from,
                    to,
                    captured,
                    promotes,
                });
            };
            if hits.0 & (hits.0 - 1) != 0 {
                return None; // more than one
            }
            let (dir, _) = at.direction_to(over)?;
            captured |= hits;
            // the empty squares behind it, up to the next piece
            let lands = over.ray(dir)
                & !match over.first_in(dir, occupied) {
                    Some(next) => next.ray(dir) | Bitboard::from_square(next),
                    None => Bitboard::EMPTY,
                };
            open = open_to_capture(enemy & !captured, empty);
            let mut going_on = lands.filter(|&land| king_capture_hits(land, occupied, &open).any());
            match (going_on.next(), going_on.next()) {
                (None, _) => {
                    return lands.contains(to).then_some(Move {
                        from,
                        to,
                        captured,
                        promotes,
                    });
                }
                (Some(land), None) => at = land,
                (Some(_), Some(_)) => return None,
            }
        }
    }

    /// [`only_capture`](Self::only_capture) when it is a man's forced chain of jumps,
    /// found without the search (most captures of a game are): from `from`, the man has
    /// exactly one jump at every landing, until none is left, and the last one is `to`.
    /// Then that chain is the piece's only capture at all, since any other would leave it
    /// at some landing. A landing that crowns it hands the rest to the king's forced
    /// capture ([`forced_king_chain`](Self::forced_king_chain)). `None` says nothing: ask
    /// the search.
    fn forced_jumps(&self, from: Square, to: Square) -> Option<Move> {
        let us = self.turn;
        if !self.men(us).contains(from) || !RUSSIAN.men_capture_backwards() {
            return None;
        }
        // (the chain stays on the row parity of `from`: one shift a step)
        if Bitboard::from_square(from).is_on_odd_row() {
            self.forced_jumps_on::<true>(from, to)
        } else {
            self.forced_jumps_on::<false>(from, to)
        }
    }

    /// [`forced_jumps`](Self::forced_jumps) of a man on a row of parity `ODD`.
    #[inline(always)]
    fn forced_jumps_on<const ODD: bool>(&self, from: Square, to: Square) -> Option<Move> {
        let us = self.turn;
        let f = Bitboard::from_square(from);
        let promotion = Position::promotion_rank(us);
        // the jumped pieces stay on the board until the move ends (1.5.11, the Turkish
        // strike): they can be neither jumped again nor landed on; `from` is empty
        let enemy = self.pieces(us.opponent());
        let empty = self.empty() | f;
        let mut at = f;
        let mut jumped = Bitboard::EMPTY;
        // (each turn jumps a piece not jumped before: at most 12 turns)
        loop {
            // the jumps it has from here: over a piece not jumped yet, onto an empty square
            // (by shifts: a table looked up by `at` made every turn wait for the load)
            let victims = enemy & !jumped;
            let (mut open, mut over, mut land) = (0, Bitboard::EMPTY, Bitboard::EMPTY);
            for (jumped_here, landing) in at.jumps_on_parity::<ODD>(victims, empty) {
                open += u32::from(landing.any());
                land |= landing;
                over |= jumped_here;
            }
            if open == 0 {
                break;
            }
            if open > 1 {
                return None;
            }
            jumped |= over;
            at = land;
            if (at & promotion).any() {
                // crowned on the way: it goes on as a king (1.5.15)
                return self.forced_king_chain(from, at.first()?, jumped, to, true);
            }
        }
        (jumped.any() && at == Bitboard::from_square(to)).then_some(Move {
            from,
            to,
            captured: jumped,
            promotes: false,
        })
    }

    /// [`only_capture`](Self::only_capture) by listing the piece's captures.
    fn only_capture_by_search(&self, from: Square, to: Square) -> Option<Move> {
        let mut list = MoveList::new();
        self.piece_captures_into(from, &mut list);
        let mut fits = list.iter().filter(|m| m.to() == to);
        match (fits.next(), fits.next()) {
            (Some(&mv), None) => Some(mv),
            _ => None,
        }
    }

    /// A capture search for the side to move, reporting to `sink`, not yet placed.
    fn capture_search<'s, S: CaptureSink>(&self, sink: &'s mut S) -> CaptureSearch<'s, S> {
        let us = self.turn;
        CaptureSearch {
            from: Square::new_unchecked(0),
            enemy: self.pieces(us.opponent()),
            empty: self.empty(),
            promotion: Position::promotion_rank(us),
            men_backwards: RUSSIAN.men_capture_backwards(),
            forward: Self::forward(us),
            route: [Square::new_unchecked(0); 32],
            len: 0,
            sink,
        }
    }

    /// Runs the capture search for every piece of the side to move.
    fn captures_into<S: CaptureSink>(&self, sink: &mut S) {
        let us = self.turn;
        let occupied = self.occupied();
        let mut search = self.capture_search(sink);
        for sq in self.men(us) {
            search.from = sq;
            search.empty = !occupied | Bitboard::from_square(sq);
            search.len = 0;
            search.enter(sq);
            search.man(sq, Bitboard::EMPTY);
        }
        for sq in self.kings(us) {
            search.from = sq;
            search.empty = !occupied | Bitboard::from_square(sq);
            search.len = 0;
            search.enter(sq);
            search.king(sq, Bitboard::EMPTY, false);
        }
    }

    fn quiet_moves_into(&self, list: &mut MoveList) {
        let us = self.turn;
        let empty = self.empty();
        let promotion = Position::promotion_rank(us);
        for dir in Self::forward(us) {
            let back = dir.opposite();
            for to in self.men(us).shift(dir) & empty {
                if let Some(from) = to.step(back) {
                    list.push(Move {
                        from,
                        to,
                        captured: Bitboard::EMPTY,
                        promotes: promotion.contains(to),
                    });
                }
            }
        }
        for from in self.kings(us) {
            for dir in Direction::ALL {
                let mut t = from.step(dir);
                while let Some(to) = t {
                    if !empty.contains(to) {
                        break;
                    }
                    list.push(Move {
                        from,
                        to,
                        captured: Bitboard::EMPTY,
                        promotes: false,
                    });
                    if !RUSSIAN.flying_kings {
                        break;
                    }
                    t = to.step(dir);
                }
            }
        }
    }

    /// All legal moves, each distinct (from, to, captured set) once.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// [`legal_moves`](Self::legal_moves) into an existing (emptied) list: returning a
    /// `MoveList` by value copies its whole array.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        if self.has_captures() {
            self.captures_into(list);
        } else {
            self.quiet_moves_into(list);
        }
    }

    /// The quiet move `from`-`to` when it is one of [`legal_moves`](Self::legal_moves) of a
    /// position without captures (the caller checks [`has_captures`](Self::has_captures)):
    /// the replayer's common case, answered without listing every move.
    #[inline(always)]
    fn quiet_move_inline(&self, from: Square, to: Square) -> Option<Move> {
        let us = self.turn;
        if self.occupied().contains(to) {
            return None;
        }
        if self.men(us).contains(from) {
            let promotes = Position::promotion_rank(us).contains(to);
            let steps = MAN_STEPS[us.index()][from.index()];
            return steps.contains(to).then_some(Move {
                from,
                to,
                captured: Bitboard::EMPTY,
                promotes,
            });
        }
        self.king_quiet_move(from, to)
    }

    /// [`quiet_move_inline`](Self::quiet_move_inline) when the side to move has no capture, else `None`:
    /// the resolution of a quiet move written `from`-`to`, in one call (most plies of a
    /// game). `captures`: whether the side to move has a capture, when already known.
    #[inline(never)]
    pub(crate) fn quiet_move_unless_capture(
        &self,
        from: Square,
        to: Square,
        captures: Option<bool>,
    ) -> Option<Move> {
        let captures = match captures {
            Some(known) => known,
            None => self.has_captures_inline(),
        };
        if captures {
            return None;
        }
        self.quiet_move_inline(from, to)
    }

    /// [`quiet_move`](Self::quiet_move) by a king (apart: most quiet moves are men's).
    #[inline(never)]
    fn king_quiet_move(&self, from: Square, to: Square) -> Option<Move> {
        let quiet = |promotes| Move {
            from,
            to,
            captured: Bitboard::EMPTY,
            promotes,
        };
        if !self.kings(self.turn).contains(from) {
            return None;
        }
        // a king reaches `to` (on its diagonal, itself empty) when nothing stands on the
        // squares between, and a king that does not fly when there are none
        let between = from.between(to)?;
        let reaches = if RUSSIAN.flying_kings {
            (between & self.occupied()).is_empty()
        } else {
            between.is_empty()
        };
        reaches.then(|| quiet(false))
    }

    /// Whether the side to move has any legal move (else it has lost, 1.8.1): whole-board
    /// shifts only, no move list (the replayer asks this after every ply).
    pub fn has_legal_moves(&self) -> bool {
        self.has_captures() || self.has_quiet_moves()
    }

    /// Whether the side to move has a quiet move (legal when it has no capture).
    pub(crate) fn has_quiet_moves(&self) -> bool {
        let us = self.turn;
        let empty = self.empty();
        let men = self.men(us);
        let kings = self.kings(us);
        Self::forward(us)
            .into_iter()
            .any(|dir| (men.shift(dir) & empty).any())
            || Direction::ALL
                .into_iter()
                .any(|dir| (kings.shift(dir) & empty).any())
    }

    /// The number of legal moves, faster than `legal_moves().len()` when no capture exists
    /// (quiet moves are counted with population counts, not listed).
    pub fn count_legal_moves(&self) -> usize {
        if self.has_captures() {
            let mut list = MoveList::new();
            self.captures_into(&mut list);
            return list.len();
        }
        let us = self.turn;
        let empty = self.empty();
        let men = self.men(us);
        let mut n = 0;
        for dir in Self::forward(us) {
            n += (men.shift(dir) & empty).count();
        }
        let kings = self.kings(us);
        if kings.any() {
            for dir in Direction::ALL {
                let mut front = kings.shift(dir) & empty;
                while front.any() {
                    n += front.count();
                    if !RUSSIAN.flying_kings {
                        break;
                    }
                    front = front.shift(dir) & empty;
                }
            }
        }
        n as usize
    }

    /// Every route (start square and landing squares) that realises `m`, no duplicates.
    /// Empty if `m` is not legal here. Allocates: meant for notation, not for search.
    pub fn routes(&self, m: &Move) -> Vec<Route> {
        if !m.is_capture() {
            return if self.legal_moves().contains(m) {
                vec![Route(vec![m.from, m.to])]
            } else {
                Vec::new()
            };
        }
        if !self.has_captures() {
            return Vec::new();
        }
        let mut sink = RouteSink {
            target: m,
            routes: Vec::new(),
        };
        self.captures_into(&mut sink);
        sink.routes
    }

    /// Plays `m`, which must be legal here (from [`Position::legal_moves`]). An illegal
    /// move leaves the board in an unspecified but memory-safe state.
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        let from = Bitboard::from_square(m.from);
        let to = Bitboard::from_square(m.to);
        let king = (self.kings[self.turn.index()] & from).any();
        self.turn = play_on(
            [&mut self.men, &mut self.kings],
            self.turn,
            (from, to, m.captured),
            king,
            m.promotes,
        );
    }

    /// Plays `m` if it is legal here.
    pub fn play(&mut self, m: &Move) -> Result<(), IllegalMoveError> {
        if self.legal_moves().iter().any(|x| x == m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError(*m))
        }
    }

    /// The position after `m` (which must be legal), leaving `self` unchanged.
    #[inline]
    pub fn after(&self, m: &Move) -> Position {
        let mut p = *self;
        p.play_unchecked(m);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::FenStyle;

    fn pos(fen: &str) -> Position {
        Position::from_setup(&fen.parse().unwrap()).unwrap()
    }

    fn short(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_has_seven_moves() {
        assert_eq!(
            short(&Position::start()),
            [
                "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"
            ]
        );
        assert_eq!(Position::start().count_legal_moves(), 7);
    }

    #[test]
    fn a_forced_chain_of_jumps_is_what_the_search_finds() {
        // random boards crowded enough for captures, every (from, to) of the side to move
        let mut rng = pdnkit_gen::SplitMix64::new(17);
        let (mut walked_any, mut chains, mut crowned) = (0, 0, 0);
        for n in 0..4000 {
            let p = crate::rules::position::random_crowded(
                &mut rng,
                [Color::White, Color::Black][n % 2],
            );
            if !p.has_captures() {
                continue;
            }
            for from in p.pieces(p.turn()) {
                for to in Square::all() {
                    let searched = p.only_capture_by_search(from, to);
                    assert_eq!(
                        p.only_capture(from, to),
                        searched,
                        "{} {from}-{to}",
                        p.to_fen(FenStyle::default())
                    );
                    let walked = p.forced_jumps(from, to);
                    walked_any += usize::from(walked.is_some());
                    chains += usize::from(walked.is_some_and(|m| m.captured().count() > 1));
                    crowned += usize::from(walked.is_some_and(|m| m.promotes()));
                }
            }
        }
        assert!(walked_any > 1000, "only {walked_any} forced jumps tried");
        assert!(
            crowned > 200,
            "only {crowned} forced jumps crowned on the way"
        );
        assert!(chains > 100, "only {chains} chains of jumps tried");
    }

    #[test]
    fn a_kings_forced_capture_is_what_the_search_finds() {
        // random boards, from crowded to a few pieces (where kings capture most), every
        // (from, to) of the side to move, against the search
        let mut rng = pdnkit_gen::SplitMix64::new(29);
        let (mut walked, mut chains, mut declined) = (0, 0, 0);
        for n in 0..6000 {
            let p = match n % 3 {
                0 => crate::rules::position::random_crowded(
                    &mut rng,
                    [Color::White, Color::Black][n % 2],
                ),
                // one square in four or five holds a piece, a third of them kings
                k => crate::rules::position::random_board(
                    &mut rng,
                    [Color::White, Color::Black][n % 2],
                    6 * (3 + k as u64),
                    4,
                    2,
                ),
            };
            if !p.has_captures() {
                continue;
            }
            let fen = p.to_fen(FenStyle::default());
            for from in p.kings(p.turn()) {
                for to in Square::all() {
                    let searched = p.only_capture_by_search(from, to);
                    let fast = p.forced_king_capture(from, to);
                    assert_eq!(p.only_capture(from, to), searched, "{fen} {from}-{to}");
                    if fast.is_some() {
                        assert_eq!(fast, searched, "{fen} {from}-{to}");
                    } else if searched.is_some() {
                        declined += 1;
                    }
                    walked += usize::from(fast.is_some());
                    chains += usize::from(fast.is_some_and(|m| m.captured().count() > 1));
                }
            }
        }
        assert!(walked > 1000, "only {walked} forced king captures");
        assert!(chains > 100, "only {chains} forced chains of a king");
        assert!(
            declined > 100,
            "only {declined} king captures left to the search"
        );
    }

    #[test]
    fn man_captures_backwards() {
        assert_eq!(short(&pos("W:Wd4:Bc3,e5")), ["d4:b2", "d4:f6"]);
    }

    #[test]
    fn promotion_mid_capture_continues_as_king() {
        let p = pos("W:Wd6:Be3,e7,g7");
        assert_eq!(short(&p), ["d6:c1", "d6:d2"]);
        assert!(
            p.legal_moves()
                .iter()
                .all(|m| m.promotes() && m.captured().count() == 3)
        );
    }

    #[test]
    fn ring_returns_to_start_with_two_routes() {
        let p = pos("W:We1:Bd2,f2,d4,f4");
        let moves = p.legal_moves();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].from(), moves[0].to());
        assert_eq!(p.routes(&moves[0]).len(), 2);
        assert_eq!(p.after(&moves[0]).to_fen(FenStyle::Algebraic), "B:We1:B");
    }

    #[test]
    fn quiet_promotion_and_king_moves() {
        let p = pos("W:W6:B12");
        let moves = p.legal_moves();
        assert_eq!(moves.len(), 2);
        assert!(moves.iter().all(|m| m.promotes()));
        let p = pos("W:WK29:B4");
        assert_eq!(p.count_legal_moves(), 6); // a1-b2…g7; h8 is occupied
        assert_eq!(p.legal_moves().len(), 6);
    }

    #[test]
    fn checked_play_rejects_illegal_moves() {
        let mut p = Position::start();
        let m = Move::new(
            Square::from_numeric(22).unwrap(),
            Square::from_numeric(15).unwrap(),
            Bitboard::EMPTY,
            false,
        );
        assert!(p.play(&m).is_err());
        assert_eq!(p, Position::start());
        let m = p.legal_moves()[0];
        assert!(p.play(&m).is_ok());
        assert_eq!(p.turn(), Color::Black);
    }

    #[test]
    fn no_pieces_no_moves() {
        assert_eq!(pos("W:W:B1").legal_moves().len(), 0);
        assert_eq!(pos("W:W:B1").count_legal_moves(), 0);
    }

    #[test]
    fn has_legal_moves_and_captures_agree_with_the_move_list() {
        assert!(!pos("W:W:B1").has_legal_moves());
        // blocked men, a blocked king, kings and men of both sides
        for fen in [
            "W:W29:B25,22",
            "B:W25,29:B21",
            "W:WKa1:Bb2,c3",
            "B:WKh8,e5:BKa1,b4",
        ] {
            let p = pos(fen);
            assert_eq!(p.has_legal_moves(), p.count_legal_moves() > 0, "{fen}");
        }
        // every position of the first five plies, and random games deep into the ending
        fn walk(p: &Position, depth: u32) {
            assert_eq!(p.has_legal_moves(), !p.legal_moves().is_empty());
            if depth > 0 {
                for m in p.legal_moves().iter() {
                    walk(&p.after(m), depth - 1);
                }
            }
        }
        walk(&Position::start(), 5);
        let mut seed = 1u64;
        for _ in 0..200 {
            let mut p = Position::start();
            for _ in 0..200 {
                let moves = p.legal_moves();
                assert_eq!(p.has_legal_moves(), !moves.is_empty());
                // (captures come first in the list: the rule makes them the only moves)
                let listed = moves.first().is_some_and(|m| m.is_capture());
                assert_eq!(
                    p.has_captures(),
                    listed,
                    "{}",
                    p.to_fen(FenStyle::default())
                );
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p.play_unchecked(&moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }

    #[test]
    fn quiet_move_agrees_with_the_move_list() {
        let mut seed = 7u64;
        for _ in 0..100 {
            let mut p = Position::start();
            for _ in 0..150 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !p.has_captures() {
                    for from in Square::all() {
                        for to in Square::all() {
                            let listed = moves.iter().find(|m| m.from() == from && m.to() == to);
                            assert_eq!(
                                p.quiet_move_inline(from, to).as_ref(),
                                listed,
                                "{from}-{to}"
                            );
                        }
                    }
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p.play_unchecked(&moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }
}
