//! Move text: reading a move token as written in PDN, resolving it against the legal moves,
//! and writing moves back.
//!
//! Reading is two steps, as for FEN: [`MoveText`] is syntax only (`c3:e5`, `22x15`,
//! `a3b4`, `29-18-27`); [`resolve`] finds the legal move it names (RULES.md §3) or says why
//! there is none ([`Illegal`]) or lists the candidates ([`Resolution::Ambiguous`]).

use std::str::FromStr;

use super::position::board_square;
use super::{Bitboard, Move, MoveList, Position, Route, SetupError, Square};
use crate::rules::fen::{FenErrorKind, FenSquare, parse_square_bytes};

/// What stood between two squares of a move token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// `-`: a quiet move by PDN convention.
    Dash,
    /// `x` or `X`: a capture.
    Cross,
    /// `:`: a capture (the PDN 3.0 form for Russian).
    Colon,
    /// Nothing: `a3b4`, `3228`.
    None,
}

impl Separator {
    /// Whether this separator claims a capture (`x`, `X`, `:`).
    pub fn claims_capture(self) -> bool {
        matches!(self, Separator::Cross | Separator::Colon)
    }
}

/// A move token, parsed but not checked against any position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The squares as written: from, intermediate landing squares, to. At least two.
    pub squares: Vec<FenSquare>,
    /// `separators[i]` stood between `squares[i]` and `squares[i + 1]`.
    pub separators: Vec<Separator>,
}

/// A move token that is not a move at all, syntactically.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Nothing but spaces.
    #[error("empty move")]
    Empty,
    /// A character that belongs in no move token.
    #[error("unexpected {ch:?} at byte {position} of the move")]
    UnexpectedChar {
        /// Byte offset in the token.
        position: usize,
        /// The character.
        ch: char,
    },
    /// A separator with no square after it, or two separators in a row, or a leading one.
    #[error("missing square at byte {position} of the move")]
    MissingSquare {
        /// Byte offset in the token.
        position: usize,
    },
    /// Only one square.
    #[error("a move needs at least two squares")]
    SingleSquare,
    /// A square number beyond any board.
    #[error("square number {0} is too large")]
    NumberTooLarge(String),
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveError> {
        let b = s.as_bytes();
        let mut squares = Vec::new();
        let mut separators = Vec::new();
        // The separator seen since the last square; `None` before the first square.
        let mut pending: Option<Separator> = None;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            let sep = match c {
                b'-' => Some(Separator::Dash),
                b'x' | b'X' => Some(Separator::Cross),
                b':' => Some(Separator::Colon),
                _ => None,
            };
            if let Some(sep) = sep {
                if squares.is_empty() || pending.is_some_and(|p| p != Separator::None) {
                    return Err(ParseMoveError::MissingSquare { position: i });
                }
                pending = Some(sep);
                i += 1;
                continue;
            }
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            if c.is_ascii_digit() {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            } else if c.is_ascii_alphabetic() {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            } else {
                let ch = s[i..].chars().next().unwrap_or('?');
                return Err(ParseMoveError::UnexpectedChar { position: i, ch });
            }
            let sq = match parse_square_bytes(&b[start..i]) {
                Some(Ok(sq)) => sq,
                Some(Err(FenErrorKind::NumberTooLarge(n))) => {
                    return Err(ParseMoveError::NumberTooLarge(n));
                }
                _ => {
                    let ch = s[start..].chars().next().unwrap_or('?');
                    return Err(ParseMoveError::UnexpectedChar {
                        position: start,
                        ch,
                    });
                }
            };
            if !squares.is_empty() {
                separators.push(pending.unwrap_or(Separator::None));
            }
            squares.push(sq);
            pending = Some(Separator::None);
        }
        if squares.is_empty() {
            return Err(if pending.is_some() {
                ParseMoveError::MissingSquare { position: 0 }
            } else {
                ParseMoveError::Empty
            });
        }
        if pending.is_some_and(|p| p != Separator::None) {
            return Err(ParseMoveError::MissingSquare { position: b.len() });
        }
        if squares.len() == 1 {
            // `3228` (PDN 1.0 and [3.0] "seen"): two 2-digit numbers with no separator.
            let digits: Vec<u8> = b
                .iter()
                .copied()
                .filter(|c| !c.is_ascii_whitespace())
                .collect();
            if digits.len() == 4 && digits.iter().all(u8::is_ascii_digit) {
                let n = |d: &[u8]| {
                    FenSquare::Numeric(u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
                };
                return Ok(MoveText {
                    squares: vec![n(&digits[..2]), n(&digits[2..])],
                    separators: vec![Separator::None],
                });
            }
            return Err(ParseMoveError::SingleSquare);
        }
        Ok(MoveText {
            squares,
            separators,
        })
    }
}

/// The outcome of resolving a move token against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Exactly one legal move fits.
    Unique {
        /// The move.
        mv: Move,
        /// The written separators contradict the move (`c3-e5` for a capture, `c3xd4` for a
        /// quiet move, `-` inside a capture path): legal, but worth a style warning.
        separator_mismatch: bool,
    },
    /// Several distinct legal moves fit (e.g. a short capture `f4:h2` with two captured sets).
    Ambiguous(Vec<Move>),
    /// No legal move fits; the reason, as precisely as we can tell.
    Illegal(Illegal),
}

/// Why a move token names no legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// A written square is not on the 8×8 board (`33`, `i1`).
    #[error("square {0} is not on the board")]
    OffBoard(FenSquare),
    /// A written square is a light square (`a2`).
    #[error("square {0} is a light square")]
    LightSquare(FenSquare),
    /// The side to move has no legal move at all: the game is over (1.8.1).
    #[error("the side to move has no legal move (the game is over)")]
    NoLegalMoves,
    /// Nothing stands on the from-square.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// The piece on the from-square belongs to the side not to move.
    #[error("the piece on {0} belongs to the side not to move")]
    WrongSide(Square),
    /// A quiet move (or a capture by another piece) although a capture is available.
    #[error("a capture is mandatory: {}", list(.0))]
    CaptureMandatory(Vec<Move>),
    /// The move stops where the capture must go on: the written squares are the start of
    /// these legal captures.
    #[error("the capture is not completed; it continues as {}", list(.0))]
    CaptureNotCompleted(Vec<Move>),
    /// The piece can capture, but not like this.
    #[error("no such capture; this piece can play {}", list(.0))]
    NoSuchCapture(Vec<Move>),
    /// Intermediate squares written for a move that is not a capture.
    #[error("no capture is possible here")]
    NoCapturePossible,
    /// A man moving towards its own side without capturing.
    #[error("a man cannot move backwards")]
    ManBackwards,
    /// A man moving more than one square without capturing.
    #[error("a man moves one square at a time")]
    ManTooFar,
    /// From and to are not on one diagonal (or are the same square).
    #[error("{0} and {1} are not on one diagonal")]
    NotDiagonal(Square, Square),
    /// The destination is occupied.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// A king's path is blocked.
    #[error("the way is blocked at {0}")]
    Blocked(Square),
}

fn list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn square_of(sq: FenSquare) -> Result<Square, Illegal> {
    board_square(sq).map_err(|e| match e {
        SetupError::LightSquare(s) => Illegal::LightSquare(s),
        _ => Illegal::OffBoard(sq),
    })
}

/// Whether `needle` occurs in `hay` in order (not necessarily adjacent).
fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

/// Whether one of `routes` starts `from`, passes `mids` in order, and ends on `to`
/// (`to` must be the last square when `complete`, else any later landing square).
fn route_fits(routes: &[Route], mids: &[Square], to: Square, complete: bool) -> bool {
    routes.iter().any(|r| {
        let s = r.squares();
        let interior = &s[1..s.len() - 1];
        if complete {
            s.last() == Some(&to) && is_subsequence(mids, interior)
        } else {
            // Written squares end on a landing square before the end: a prefix.
            interior
                .iter()
                .enumerate()
                .any(|(k, &sq)| sq == to && is_subsequence(mids, &interior[..k]))
        }
    })
}

/// Resolves a parsed move token against the legal moves of `pos` (RULES.md §3): keep the
/// moves whose from and to match and one of whose routes passes the written intermediate
/// squares in order. Allocates only for an ambiguous move or a token of more than 32
/// squares.
pub fn resolve(pos: &Position, text: &MoveText) -> Resolution {
    let (written, separators) = (&text.squares, &text.separators);
    let mut buf = [Square::new_unchecked(0); 32];
    let long: Vec<Square>;
    let squares: &[Square] = if written.len() <= buf.len() {
        for (slot, &s) in buf.iter_mut().zip(written) {
            match square_of(s) {
                Ok(sq) => *slot = sq,
                Err(e) => return Resolution::Illegal(e),
            }
        }
        &buf[..written.len()]
    } else {
        match written.iter().map(|&s| square_of(s)).collect() {
            Ok(v) => long = v,
            Err(e) => return Resolution::Illegal(e),
        }
        &long
    };
    if squares.len() < 2 {
        return Resolution::Illegal(Illegal::NoCapturePossible);
    }
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let mids = &squares[1..squares.len() - 1];
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    let mut fits = legal
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| mids.is_empty() || route_fits(&pos.routes(m), mids, to, true))
        .copied();
    match (fits.next(), fits.next()) {
        (None, _) => Resolution::Illegal(explain(pos, &legal, from, mids, to)),
        (Some(mv), None) => {
            let separator_mismatch = separators
                .iter()
                .any(|&s| s != Separator::None && s.claims_capture() != mv.is_capture());
            Resolution::Unique {
                mv,
                separator_mismatch,
            }
        }
        (Some(a), Some(b)) => {
            let mut all = vec![a, b];
            all.extend(fits);
            if !mids.is_empty() {
                // Written with every landing square, a token spells one complete route and
                // names that move; the others only pass the written squares with more
                // landings between (`a5:c3:a1` against `a5:c3:e1:h4:f6:a1`). A bare
                // `from:to` stays ambiguous.
                let mut exact = all
                    .iter()
                    .filter(|m| pos.routes(m).iter().any(|r| r.squares() == squares));
                if let (Some(&mv), None) = (exact.next(), exact.next()) {
                    let separator_mismatch = separators
                        .iter()
                        .any(|&s| s != Separator::None && s.claims_capture() != mv.is_capture());
                    return Resolution::Unique {
                        mv,
                        separator_mismatch,
                    };
                }
            }
            Resolution::Ambiguous(all)
        }
    }
}

/// A move token resolved in a position, by [`resolve_token`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// What the token names.
    pub resolution: Resolution,
    /// Whether the move named is known to be the only legal move from its first to its
    /// last square (a quiet move, or a capture found as its piece's only one to there), so
    /// that those two squares name it: a writer of the minimal capture form need not ask
    /// again. `false` says nothing.
    pub named_by_ends: bool,
}

/// Reads the move token `token` and resolves it in `pos` (RULES.md §3): the legal move it
/// names, or why there is none, or the candidates. `written` is its squares when a reader
/// has already read them in the plain shape ([`PlainSquares`]); `captures` is
/// `pos.has_captures()` when the caller knows it.
///
/// The ordinary writing of a legal move (two squares joined by `-` for a quiet move where
/// no capture exists, by `:` or `x` for the piece's only capture to that square), and a
/// capture written with every landing square, are resolved without listing the legal
/// moves; anything else takes the general path of [`resolve`], with the same answer.
///
/// ```
/// use pdnkit::rules::Position;
/// use pdnkit::rules::notation::{Resolution, resolve_token};
/// let pos = Position::start();
/// let r = resolve_token(&pos, "c3-d4", None, None).unwrap();
/// assert!(matches!(r.resolution, Resolution::Unique { separator_mismatch: false, .. }));
/// assert!(matches!(resolve_token(&pos, "c3-e5", None, None).unwrap().resolution, Resolution::Illegal(_)));
/// ```
pub fn resolve_token(
    pos: &Position,
    token: &str,
    written: Option<PlainSquares>,
    captures: Option<bool>,
) -> Result<Resolved, ParseMoveError> {
    match resolve_plain_token(pos, token, written, captures) {
        Some(mv) => Ok(Resolved {
            resolution: Resolution::Unique {
                mv,
                separator_mismatch: false,
            },
            named_by_ends: true,
        }),
        None => resolve_unplain(pos, token, captures),
    }
}

/// The first step of [`resolve_token`], the ordinary writing of a legal move: the move, or
/// `None` for [`resolve_unplain`] to read. Apart for the replayer, which plays the move
/// at once (most moves of every file) without building a [`Resolved`].
#[inline(always)]
pub(crate) fn resolve_plain_token(
    pos: &Position,
    token: &str,
    written: Option<PlainSquares>,
    captures: Option<bool>,
) -> Option<Move> {
    // (no closures: this is on every ply's path and must inline whole)
    let written = match written {
        Some(w) => w,
        None => plain_squares(token)?,
    };
    resolve_plain_squares(pos, written, captures)
}

/// [`resolve_token`] for a token not written the plain way (one move in fifty of an
/// archive): apart, so that the plain path is not set up for it.
#[cold]
#[inline(never)]
pub(crate) fn resolve_unplain(
    pos: &Position,
    token: &str,
    captures: Option<bool>,
) -> Result<Resolved, ParseMoveError> {
    if let Some(mv) = resolve_full_capture(pos, token, captures) {
        return Ok(Resolved {
            resolution: Resolution::Unique {
                mv,
                separator_mismatch: false,
            },
            named_by_ends: true,
        });
    }
    Ok(Resolved {
        resolution: resolve_general(pos, token)?,
        named_by_ends: false,
    })
}

/// The two squares of a move token written the plain way (`c3-d4`, `22:18`: two squares
/// joined by `-`, `:` or `x`), and its separator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainSquares {
    /// The first square.
    pub from: Square,
    /// The last square.
    pub to: Square,
    /// Written with `:` or `x` (else `-`).
    pub capture: bool,
}

/// The squares of `token` when it is written the plain way: two squares
/// joined by `-`, `:` or `x`.
#[inline(always)]
pub(crate) fn plain_squares(token: &str) -> Option<PlainSquares> {
    let (one, two) = (square_of_one, square_of_two);
    let is_separator = |c: u8| matches!(c, b'-' | b'x' | b':');
    // the shapes by length: the separator ends a square of one or two bytes
    let (from, sep, to) = match *token.as_bytes() {
        [a, b, s, c, d] if is_separator(s) => (two(a, b)?, s, two(c, d)?),
        [a, s, c, d] if is_separator(s) => (one(a)?, s, two(c, d)?),
        [a, b, s, d] if is_separator(s) => (two(a, b)?, s, one(d)?),
        [a, s, d] if is_separator(s) => (one(a)?, s, one(d)?),
        _ => return None,
    };
    Some(PlainSquares {
        from,
        to,
        capture: sep != b'-',
    })
}

/// The move a token written the plain way names, when it is the ordinary writing of a
/// legal move (see [`resolve_token`]); `captures` as there: unknown, only a quiet move is
/// asked for where a capture exists (a capture the piece has is one the side has).
#[inline(always)]
pub(crate) fn resolve_plain_squares(
    pos: &Position,
    written: PlainSquares,
    captures: Option<bool>,
) -> Option<Move> {
    let PlainSquares { from, to, capture } = written;
    if capture {
        // a capture that the piece has is one the side to move has: whether it has any
        // need not be asked (without one, there is none to find)
        return if captures == Some(false) {
            None
        } else {
            pos.only_capture(from, to)
        };
    }
    pos.quiet_move_unless_capture(from, to, captures)
}

/// [`Square::from_file_rank`] by table, for a file and a rank already known to be below
/// 8 (the reader's common move tokens): index `file + 8 * rank`, [`NO_SQUARE`] for a light
/// square.
pub(crate) static ALGEBRAIC_SQUARES: [u8; 64] = {
    let mut t = [NO_SQUARE; 64];
    let mut k = 0;
    while k < 64 {
        if let Some(sq) = Square::from_file_rank(k as u8 % 8, k as u8 / 8) {
            t[k] = sq.index() as u8;
        }
        k += 1;
    }
    t
};

/// [`square_of_two`] of two digits by table: index `10 * first + second`, [`NO_SQUARE`]
/// where it gives none (a first digit `0`, numbers above 32).
pub(crate) static NUMERIC_SQUARES: [u8; 100] = numeric_squares(10);

/// [`square_of_one`] of a digit by table: index the digit, [`NO_SQUARE`] for `0`.
pub(crate) static ONE_DIGIT_SQUARES: [u8; 10] = numeric_squares(1);

/// The squares numbered `from..N` at their numbers, [`NO_SQUARE`] elsewhere.
const fn numeric_squares<const N: usize>(from: usize) -> [u8; N] {
    let mut t = [NO_SQUARE; N];
    let mut n = from;
    while n < N {
        if let Some(sq) = Square::from_numeric(n as u32) {
            t[n] = sq.index() as u8;
        }
        n += 1;
    }
    t
}

/// No square, in [`ALGEBRAIC_SQUARES`], [`NUMERIC_SQUARES`] and [`ONE_DIGIT_SQUARES`].
pub(crate) const NO_SQUARE: u8 = u8::MAX;

/// A square written in two bytes, `c3` or `22`.
fn square_of_two(a: u8, b: u8) -> Option<Square> {
    match (a, b) {
        (b'a'..=b'h', b'1'..=b'8') => Square::from_file_rank(a - b'a', b - b'1'),
        (b'1'..=b'3', b'0'..=b'9') => {
            Square::from_numeric(u32::from(a - b'0') * 10 + u32::from(b - b'0'))
        }
        _ => None,
    }
}

/// A square written in one byte, `9`.
fn square_of_one(d: u8) -> Option<Square> {
    match d {
        b'1'..=b'9' => Square::from_numeric(u32::from(d - b'0')),
        _ => None,
    }
}

/// A capture written with every landing square (`d4:b6:d8`, `22x15x8`), resolved
/// without listing routes. When the written squares are a chain of legal jumps over
/// exactly the captured pieces of the piece's only capture to the last square (so the
/// only candidate, whatever the written squares), crowning it as that move does, it is
/// one of its routes: each landing but the last goes on capturing (which is all the
/// rule on a king's landing asks), and the last is the move's own end. So the
/// move is the one named, as [`resolve_parts`] finds. `None` says nothing: the general
/// path decides. `captures` as for [`resolve_token`].
fn resolve_full_capture(pos: &Position, token: &str, captures: Option<bool>) -> Option<Move> {
    if captures == Some(false) || !crate::rules::variant::RUSSIAN.men_capture_backwards() {
        return None;
    }
    let b = token.as_bytes();
    // the squares, one or two bytes each, between capture separators
    let mut squares = [Square::new_unchecked(0); 16];
    let (mut n, mut i) = (0, 0);
    loop {
        // two bytes when they make a square (`12` before `1`), else one
        let two = match b.get(i..)? {
            [x, y, ..] => square_of_two(*x, *y),
            _ => None,
        };
        let (sq, end) = match two {
            Some(sq) => (sq, i + 2),
            None => (square_of_one(*b.get(i)?)?, i + 1),
        };
        *squares.get_mut(n)? = sq;
        n += 1;
        match b.get(end) {
            None => break,
            Some(b':' | b'x') => i = end + 1,
            Some(_) => return None,
        }
    }
    if n < 3 {
        return None;
    }
    let (from, to) = (squares[0], squares[n - 1]);
    let mv = pos.only_capture(from, to)?;
    let us = pos.turn();
    let was_king = pos.kings(us).contains(from);
    if !(was_king || pos.men(us).contains(from)) {
        return None;
    }
    // the written jumps, as the capture search makes them: over one enemy piece not
    // yet jumped (a man from next to it), onto a square empty at the start or the one
    // the piece left (jumped pieces stay until the move ends); a man that lands on the
    // promotion rank is crowned there and goes on as a king (1.5.9)
    let enemy = pos.pieces(us.opponent());
    let empty = pos.empty() | Bitboard::from_square(from);
    let promotion = Position::promotion_rank(us);
    let mut king = was_king;
    let mut jumped = Bitboard::EMPTY;
    for pair in squares[..n].windows(2) {
        let (at, next) = (pair[0], pair[1]);
        let between = at.between(next)?;
        let over = between & !empty;
        let one = over.0 != 0 && over.0 & (over.0 - 1) == 0;
        // (a man jumps two steps: one square between, the piece it jumps)
        if !one
            || (over & enemy).is_empty()
            || (over & jumped).any()
            || !empty.contains(next)
            || (!king && between != over)
        {
            return None;
        }
        jumped |= over;
        king |= promotion.contains(next);
    }
    (jumped == mv.captured() && (king && !was_king) == mv.promotes()).then_some(mv)
}

/// A token resolved by the general path: parsed, then matched against every legal move.
fn resolve_general(pos: &Position, token: &str) -> Result<Resolution, ParseMoveError> {
    Ok(resolve(pos, &token.parse()?))
}

fn explain(pos: &Position, legal: &[Move], from: Square, mids: &[Square], to: Square) -> Illegal {
    let Some(piece) = pos.piece_at(from) else {
        return Illegal::NoPiece(from);
    };
    if piece.color != pos.turn() {
        return Illegal::WrongSide(from);
    }
    if legal.is_empty() {
        return Illegal::NoLegalMoves;
    }
    if legal[0].is_capture() {
        let mine: Vec<Move> = legal.iter().filter(|m| m.from() == from).copied().collect();
        let unfinished: Vec<Move> = mine
            .iter()
            .filter(|m| route_fits(&pos.routes(m), mids, to, false))
            .copied()
            .collect();
        return if !unfinished.is_empty() {
            Illegal::CaptureNotCompleted(unfinished)
        } else if !mine.is_empty() {
            Illegal::NoSuchCapture(mine)
        } else {
            Illegal::CaptureMandatory(legal.to_vec())
        };
    }
    if !mids.is_empty() {
        return Illegal::NoCapturePossible;
    }
    let Some((dir, dist)) = from.direction_to(to) else {
        return Illegal::NotDiagonal(from, to);
    };
    if !piece.king {
        let forward = match pos.turn() {
            crate::Color::White => to.rank() > from.rank(),
            crate::Color::Black => to.rank() < from.rank(),
        };
        if !forward {
            return Illegal::ManBackwards;
        }
        if dist > 1 {
            return if dist == 2 {
                Illegal::NoCapturePossible
            } else {
                Illegal::ManTooFar
            };
        }
    }
    let mut t = from.step(dir);
    while let Some(sq) = t {
        if pos.piece_at(sq).is_some() {
            return if sq == to {
                Illegal::Occupied(to)
            } else {
                Illegal::Blocked(sq)
            };
        }
        if sq == to {
            break;
        }
        t = sq.step(dir);
    }
    // Every geometric reason is ruled out; a legal quiet move would have matched.
    Illegal::NoCapturePossible
}

// (these are also `convert`'s `--notation`, `--captures` and `--separator`: `help` is the
// help of their values)

/// How squares are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum SquareStyle {
    /// `c3` (what Russian files use).
    #[default]
    #[value(help = "c3-d4, c3:e5")]
    Algebraic,
    /// `22` (GameType 25 numbering).
    #[value(help = "22-18, 22:15")]
    Numeric,
}

/// How much of a capture's route is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CaptureStyle {
    /// From and to only: `c3:g7` (may be ambiguous, see RULES.md §3).
    #[default]
    #[value(skip)]
    Short,
    /// PDN 3.0: from and to, plus the fewest intermediate squares that make it unambiguous.
    #[value(
        name = "short",
        help = "from and to, plus intermediate squares only where needed to be unambiguous (PDN 3.0)"
    )]
    Minimal,
    /// Every landing square: `c3:e5:g7`.
    #[value(help = "every landing square")]
    Full,
}

/// The character between the squares of a capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CaptureSeparator {
    /// `:` (PDN 3.0 for Russian).
    #[default]
    #[value(name = ":", alias = "colon", help = "c3:e5 (PDN 3.0 for Russian)")]
    Colon,
    /// `x` (lidraughts and most modern files).
    #[value(name = "x", alias = "cross", help = "c3xe5")]
    Cross,
}

/// A notation style for [`format_move`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Style {
    /// Algebraic or numeric squares.
    pub squares: SquareStyle,
    /// How much of a capture route to write.
    pub captures: CaptureStyle,
    /// `:` or `x` for captures; quiet moves always use `-`.
    pub separator: CaptureSeparator,
}

/// Appends `squares` to `out` as a move in `style`, joined by the separator of a capture
/// or of a quiet move.
pub fn push_squares(out: &mut String, squares: &[Square], style: Style, capture: bool) {
    let sep = match (capture, style.separator) {
        (false, _) => "-",
        (true, CaptureSeparator::Colon) => ":",
        (true, CaptureSeparator::Cross) => "x",
    };
    // (appended piece by piece, without the formatting machinery: every move of every
    // converted game comes through here, and formatting cost more than the rest of
    // writing a move)
    for (i, sq) in squares.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match style.squares {
            SquareStyle::Algebraic => sq.push_algebraic(out),
            SquareStyle::Numeric => sq.push_numeric(out),
        }
    }
}

fn as_text(squares: &[Square]) -> MoveText {
    MoveText {
        squares: squares
            .iter()
            .map(|s| FenSquare::Numeric(s.numeric()))
            .collect(),
        separators: vec![Separator::None; squares.len().saturating_sub(1)],
    }
}

/// Writes `m` (legal in `pos`) in `style`. A move that is not legal in `pos` is written
/// short, as its routes are unknown.
///
/// [`CaptureStyle::Minimal`] cannot always be unambiguous: a one-landing capture whose
/// from/to another capture shares (`f4:h2` in `W:Wf4:Bg3,g5,e7,g7`) has no intermediate
/// square to add, so it is written in full, which is also its short form; a reader resolves
/// it from the rest of the game (RULES.md §3).
pub fn format_move(pos: &Position, m: &Move, style: Style) -> String {
    format_move_named(pos, m, style, false)
}

/// [`format_move`] as [`push_move_named`] writes it.
pub(crate) fn format_move_named(
    pos: &Position,
    m: &Move,
    style: Style,
    short_names_it: bool,
) -> String {
    let mut out = String::with_capacity(8);
    push_move_named(&mut out, pos, m, style, short_names_it);
    out
}

/// [`format_move`] appended to `out`: a game's moves written one after another into one
/// buffer, without a string for each (converting a game row to CSV wrote every move so,
/// and the allocations cost as much as the writing).
pub fn push_move(out: &mut String, pos: &Position, m: &Move, style: Style) {
    push_move_named(out, pos, m, style, false);
}

/// [`push_move`] for a move known to be named by its first and last squares alone when
/// `short_names_it` (as [`Resolved::named_by_ends`] tells): [`CaptureStyle::Minimal`] then writes
/// those without asking again (the capture's search was half the cost of writing the
/// moves of a CSV row). `false` asks.
pub(crate) fn push_move_named(
    out: &mut String,
    pos: &Position,
    m: &Move,
    style: Style,
    short_names_it: bool,
) {
    let short = [m.from(), m.to()];
    if !m.is_capture() || style.captures == CaptureStyle::Short {
        return push_squares(out, &short, style, m.is_capture());
    }
    // Minimal: the short form names the move when it is the piece's only capture to that
    // square (what `resolve` would find, with free choice among captures), which spares
    // listing its routes for nearly every capture.
    if style.captures == CaptureStyle::Minimal
        && (short_names_it || pos.has_captures() && pos.only_capture(m.from(), m.to()) == Some(*m))
    {
        return push_squares(out, &short, style, true);
    }
    let routes = pos.routes(m);
    let Some(first) = routes.first() else {
        return push_squares(out, &short, style, true);
    };
    if style.captures == CaptureStyle::Full {
        return push_squares(out, first.squares(), style, true);
    }
    let unique = |sq: &[Square]| matches!(resolve(pos, &as_text(sq)), Resolution::Unique { mv, .. } if mv == *m);
    if unique(&short) {
        return push_squares(out, &short, style, true);
    }
    // Fewest intermediate squares first; routes are at most a dozen landings long, and
    // ambiguous captures are rare, so trying subsets in order of size is cheap enough.
    for route in &routes {
        let s = route.squares();
        let interior = &s[1..s.len() - 1];
        let n = interior.len().min(16);
        let mut masks: Vec<u32> = (1..(1u32 << n)).collect();
        masks.sort_by_key(|mask| mask.count_ones());
        for mask in masks {
            let mut written = vec![m.from()];
            written.extend((0..n).filter(|k| mask & (1 << k) != 0).map(|k| interior[k]));
            written.push(m.to());
            if unique(&written) {
                return push_squares(out, &written, style, true);
            }
        }
    }
    push_squares(out, first.squares(), style, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain path of [`resolve_token`] alone.
    fn resolve_plain(pos: &Position, token: &str, captures: Option<bool>) -> Option<Move> {
        plain_squares(token).and_then(|w| resolve_plain_squares(pos, w, captures))
    }

    /// The token resolved in one step (the general path once the plain ones give up).
    fn parse_and_resolve(pos: &Position, token: &str) -> Result<Resolution, ParseMoveError> {
        resolve_token(pos, token, None, None).map(|r| r.resolution)
    }

    #[test]
    fn a_plain_token_resolves_as_the_general_path_does() {
        // every token of three to five bytes over an alphabet of squares' bytes and
        // separators, on random boards: what the shortcut resolves, the general path
        // resolves alike, and it resolves every legal move written plainly
        let tokens: Vec<String> = pdnkit_gen::every_string(b"ach13902-x:X", 3..=5)
            .map(|t| String::from_utf8(t).unwrap())
            .collect();
        let mut rng = pdnkit_gen::SplitMix64::new(37);
        let mut resolved = 0;
        for n in 0..40 {
            let turn = [crate::Color::White, crate::Color::Black][n % 2];
            let pos = crate::rules::position::random_crowded(&mut rng, turn);
            let captures = pos.has_captures();
            for token in &tokens {
                // whether the side to move has a capture, known or left to ask
                let plain = resolve_plain(&pos, token, Some(captures));
                assert_eq!(resolve_plain(&pos, token, None), plain, "{token}");
                if let Some(mv) = plain {
                    resolved += 1;
                    let general = resolve_general(&pos, token);
                    assert!(
                        matches!(general, Ok(Resolution::Unique { mv: g, separator_mismatch: false }) if g == mv),
                        "{token}"
                    );
                }
            }
            for m in pos.legal_moves().iter() {
                let sep = if m.is_capture() { ":" } else { "-" };
                let only = !m.is_capture() || pos.only_capture(m.from(), m.to()) == Some(*m);
                for (a, b) in [
                    (m.from().to_string(), m.to().to_string()),
                    (m.from().numeric().to_string(), m.to().numeric().to_string()),
                ] {
                    let token = format!("{a}{sep}{b}");
                    let want = only.then_some(*m);
                    assert_eq!(resolve_plain(&pos, &token, Some(captures)), want, "{token}");
                    assert_eq!(resolve_plain(&pos, &token, None), want, "{token}");
                }
            }
        }
        assert!(resolved > 100, "{resolved}");
    }

    #[test]
    fn a_capture_written_in_full_resolves_as_the_general_path_does() {
        // every route of two or more jumps of every capture on random crowded boards,
        // written out in both notations, as it is or spoilt: a landing dropped, two
        // swapped, one replaced, one added
        let mut rng = pdnkit_gen::SplitMix64::new(29);
        let (mut quick, mut refused) = (0, 0);
        for n in 0..6000 {
            let turn = [crate::Color::White, crate::Color::Black][n % 2];
            let pos = crate::rules::position::random_crowded(&mut rng, turn);
            if !pos.has_captures() {
                continue;
            }
            for m in pos.legal_moves().iter() {
                for route in pos.routes(m) {
                    let mut squares = route.squares().to_vec();
                    if squares.len() < 3 {
                        continue;
                    }
                    let k = 1 + (rng.next_u64() as usize) % (squares.len() - 2);
                    let random = Square::new_unchecked((rng.next_u64() % 32) as u8);
                    match rng.next_u64() % 6 {
                        0 => drop(squares.remove(k)),
                        1 => squares.swap(k, k + 1),
                        2 => squares[k] = random,
                        3 => squares.insert(k, random),
                        _ => {}
                    }
                    let algebraic: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                    let numeric: Vec<String> =
                        squares.iter().map(|s| s.numeric().to_string()).collect();
                    for token in [algebraic.join(":"), numeric.join("x")] {
                        let general = match resolve_general(&pos, &token) {
                            Ok(Resolution::Unique {
                                mv,
                                separator_mismatch: false,
                            }) => Some(mv),
                            _ => None,
                        };
                        let full = resolve_full_capture(&pos, &token, Some(true));
                        assert_eq!(resolve_full_capture(&pos, &token, None), full);
                        let fen = pos.to_fen(crate::rules::FenStyle::Numeric);
                        if full.is_some() {
                            quick += 1;
                            assert_eq!(full, general, "{token} in {fen}");
                        } else if pos
                            .only_capture(squares[0], squares[squares.len() - 1])
                            .is_some()
                        {
                            refused += 1;
                        }
                        let unique = |captures| match resolve_token(&pos, &token, None, captures) {
                            Ok(Resolved {
                                resolution:
                                    Resolution::Unique {
                                        mv,
                                        separator_mismatch: false,
                                    },
                                named_by_ends,
                            }) => (Some(mv), named_by_ends),
                            _ => (None, false),
                        };
                        assert_eq!(unique(Some(true)).0, general, "{token}");
                        assert_eq!(unique(None).0, general, "{token}");
                        // (a move it says its short form names is the only capture there)
                        if let (Some(mv), true) = unique(None) {
                            assert_eq!(pos.only_capture(mv.from(), mv.to()), Some(mv));
                        }
                    }
                }
            }
        }
        // both answers are given often
        assert!(quick > 1000 && refused > 500, "{quick} {refused}");
    }

    fn write_squares(squares: &[Square], style: Style, capture: bool) -> String {
        let mut out = String::new();
        push_squares(&mut out, squares, style, capture);
        out
    }

    #[test]
    fn squares_are_written_as_their_display_and_number() {
        let all: Vec<Square> = Square::all().collect();
        for sq in &all {
            let one = |squares| {
                write_squares(
                    std::slice::from_ref(sq),
                    Style {
                        squares,
                        ..Style::default()
                    },
                    false,
                )
            };
            assert_eq!(one(SquareStyle::Algebraic), sq.to_string());
            assert_eq!(one(SquareStyle::Numeric), sq.numeric().to_string());
        }
        let route = [all[8], all[17], all[26]];
        let numeric = Style {
            squares: SquareStyle::Numeric,
            separator: CaptureSeparator::Cross,
            ..Style::default()
        };
        let expected: Vec<String> = route.iter().map(|s| s.numeric().to_string()).collect();
        assert_eq!(write_squares(&route, numeric, true), expected.join("x"));
        assert_eq!(
            write_squares(&route, Style::default(), false),
            format!("{}-{}-{}", route[0], route[1], route[2])
        );
    }
    use crate::rules::Bitboard;

    /// `resolve_plain` gives a move only where the general path gives the same unique move
    /// with no separator mismatch: checked on every square pair and separator, in both
    /// notations, along random games (with captures, kings and multi-captures).
    #[test]
    fn plain_resolution_agrees_with_the_general_path() {
        let mut rng = pdnkit_gen::SplitMix64::new(9);
        let names = |sq: Square| [sq.to_string(), sq.numeric().to_string()];
        let mut plain_hits = 0;
        for _game in 0..20 {
            let mut pos = Position::start();
            for _ply in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let captures = pos.has_captures();
                for from in Square::all() {
                    for to in Square::all() {
                        for sep in ["-", ":", "x"] {
                            for (f, t) in names(from).into_iter().zip(names(to)) {
                                let token = format!("{f}{sep}{t}");
                                let general = resolve_general(&pos, &token);
                                let plain = resolve_plain(&pos, &token, Some(captures));
                                assert_eq!(resolve_plain(&pos, &token, None), plain);
                                match plain {
                                    Some(mv) => {
                                        plain_hits += 1;
                                        assert_eq!(
                                            general,
                                            Ok(Resolution::Unique {
                                                mv,
                                                separator_mismatch: false
                                            }),
                                            "{token} in {}",
                                            pos.to_fen(crate::rules::FenStyle::Numeric)
                                        );
                                    }
                                    None => {
                                        // the ordinary writing of a move with its own
                                        // from and to is always read plainly
                                        let ordinary = sep == if captures { ":" } else { "-" };
                                        let mut same = legal
                                            .iter()
                                            .filter(|m| m.from() == from && m.to() == to);
                                        let unique = same.next().is_some() && same.next().is_none();
                                        assert!(!(ordinary && unique), "{token} not read plainly");
                                    }
                                }
                            }
                        }
                    }
                }
                let mv = legal[rng.below(legal.len() as u64) as usize];
                pos.play_unchecked(&mv);
            }
        }
        assert!(plain_hits > 1000, "{plain_hits}");
    }

    fn pos(fen: &str) -> Position {
        Position::from_setup(&fen.parse().unwrap()).unwrap()
    }

    fn text(s: &str) -> Vec<String> {
        s.parse::<MoveText>()
            .unwrap()
            .squares
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn parses_all_written_forms() {
        assert_eq!(text("c3-d4"), ["c3", "d4"]);
        assert_eq!(text("c3:e5"), ["c3", "e5"]);
        assert_eq!(text("C3XE5"), ["c3", "e5"]);
        assert_eq!(text("c3:e5:g7"), ["c3", "e5", "g7"]);
        assert_eq!(text("22x15"), ["22", "15"]);
        assert_eq!(text("09-13"), ["9", "13"]);
        assert_eq!(text("1- 6"), ["1", "6"]);
        assert_eq!(text("35x 4"), ["35", "4"]);
        assert_eq!(text("29-18-27"), ["29", "18", "27"]);
        assert_eq!(text("a3b4"), ["a3", "b4"]);
        assert_eq!(text("3228"), ["32", "28"]);
        let t: MoveText = "29-18x27".parse().unwrap();
        assert_eq!(t.separators, [Separator::Dash, Separator::Cross]);
    }

    #[test]
    fn rejects_malformed_tokens() {
        assert_eq!("".parse::<MoveText>(), Err(ParseMoveError::Empty));
        assert_eq!("c3".parse::<MoveText>(), Err(ParseMoveError::SingleSquare));
        assert!(matches!(
            "c3--d4".parse::<MoveText>(),
            Err(ParseMoveError::MissingSquare { .. })
        ));
        assert!(matches!(
            "c3-".parse::<MoveText>(),
            Err(ParseMoveError::MissingSquare { .. })
        ));
        assert!(matches!(
            "-c3".parse::<MoveText>(),
            Err(ParseMoveError::MissingSquare { .. })
        ));
        assert!(matches!(
            "c3-d4!".parse::<MoveText>(),
            Err(ParseMoveError::UnexpectedChar { ch: '!', .. })
        ));
        assert!(matches!(
            "c3-dé".parse::<MoveText>(),
            Err(ParseMoveError::UnexpectedChar { .. })
        ));
        assert!(matches!(
            "1-99999999999".parse::<MoveText>(),
            Err(ParseMoveError::NumberTooLarge(_))
        ));
        for s in ["x", ":", "ab", "a0-b1", "é", "123", "0-0"] {
            let _ = s.parse::<MoveText>();
        }
    }

    fn resolve_str(p: &Position, s: &str) -> Resolution {
        parse_and_resolve(p, s).unwrap()
    }

    #[test]
    fn resolves_quiet_moves_in_any_form() {
        let p = Position::start();
        for s in ["c3-d4", "C3-D4", "22-18", "c3d4", "2218"] {
            assert!(
                matches!(
                    resolve_str(&p, s),
                    Resolution::Unique {
                        separator_mismatch: false,
                        ..
                    }
                ),
                "{s}"
            );
        }
        assert!(matches!(
            resolve_str(&p, "c3xd4"),
            Resolution::Unique {
                separator_mismatch: true,
                ..
            }
        ));
    }

    #[test]
    fn capture_written_with_dash_resolves_with_a_flag() {
        let p = pos("W:Wa1:Bb2,d4");
        for s in ["a1:e5", "a1-e5", "a1:c3:e5", "29x22x15", "29-22-15"] {
            assert!(
                matches!(resolve_str(&p, s), Resolution::Unique { .. }),
                "{s}"
            );
        }
        assert!(matches!(
            resolve_str(&p, "a1-e5"),
            Resolution::Unique {
                separator_mismatch: true,
                ..
            }
        ));
        assert!(matches!(
            resolve_str(&p, "a1:e5"),
            Resolution::Unique {
                separator_mismatch: false,
                ..
            }
        ));
    }

    /// Found by the round-trip property (tests/roundtrip.rs): a capture written in full
    /// was ambiguous when a longer capture passes the same squares in order, so
    /// `convert --captures full` wrote a move that did not read back.
    #[test]
    fn full_route_is_not_ambiguous_with_a_longer_route_through_its_squares() {
        let p = pos("B:Wc1,g1,b2,d2,f2,a3,b4,g5,h6:Ba5,c7,g7,b8,f8,h8");
        let Resolution::Unique { mv, .. } = resolve_str(&p, "a5:c3:a1") else {
            panic!("{:?}", resolve_str(&p, "a5:c3:a1"))
        };
        assert_eq!(mv.captured().count(), 2);
        let Resolution::Unique { mv: long, .. } = resolve_str(&p, "a5:c3:e1:h4:f6:a1") else {
            panic!()
        };
        assert_eq!(long.captured().count(), 5);
        // a partial path that fits the long route only names it; from:to stays ambiguous
        assert!(matches!(resolve_str(&p, "a5:e1:a1"), Resolution::Unique { mv, .. } if mv == long));
        assert!(matches!(resolve_str(&p, "a5:a1"), Resolution::Ambiguous(ref c) if c.len() == 2));
        for captures in [CaptureStyle::Full, CaptureStyle::Minimal] {
            let style = Style {
                captures,
                ..Style::default()
            };
            for m in [mv, long] {
                let written = format_move(&p, &m, style);
                assert!(
                    matches!(resolve_str(&p, &written), Resolution::Unique { mv, .. } if mv == m),
                    "{written}"
                );
            }
        }
    }

    #[test]
    fn ambiguous_short_capture_and_full_path() {
        let p = pos("W:Wf4:Bg3,g5,e7,g7");
        assert!(matches!(resolve_str(&p, "f4:h2"), Resolution::Ambiguous(ref c) if c.len() == 2));
        let Resolution::Unique { mv, .. } = resolve_str(&p, "f4:h6:f8:d6:h2") else {
            panic!()
        };
        assert_eq!(mv.captured().count(), 4);
        let Resolution::Unique { mv: one, .. } = resolve_str(&p, "f4:f8:h2") else {
            panic!()
        };
        assert_eq!(one, mv);
        // Minimal notation adds one square, and it reads back as the same move.
        let minimal = Style {
            captures: CaptureStyle::Minimal,
            ..Style::default()
        };
        let written = format_move(&p, &mv, minimal);
        assert_eq!(written.split(':').count(), 3, "{written}");
        assert!(matches!(resolve_str(&p, &written), Resolution::Unique { mv: m, .. } if m == mv));
        let small = p
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.captured().count() == 1)
            .unwrap();
        assert_eq!(format_move(&p, &small, minimal), "f4:h2");
    }

    #[test]
    fn explains_illegal_moves() {
        let p = Position::start();
        let illegal = |p: &Position, s: &str| match resolve_str(p, s) {
            Resolution::Illegal(i) => i,
            other => panic!("{s}: {other:?}"),
        };
        assert!(matches!(illegal(&p, "d4-e5"), Illegal::NoPiece(_)));
        assert!(matches!(illegal(&p, "b6-a5"), Illegal::WrongSide(_)));
        assert!(matches!(illegal(&p, "c3-c5"), Illegal::NotDiagonal(..)));
        assert!(matches!(illegal(&p, "c3-e5"), Illegal::NoCapturePossible));
        assert!(matches!(illegal(&p, "c3-f6"), Illegal::ManTooFar));
        assert!(matches!(illegal(&p, "b2-c3"), Illegal::Occupied(_)));
        assert!(matches!(illegal(&p, "c3-i5"), Illegal::OffBoard(_)));
        assert!(matches!(illegal(&p, "33-29"), Illegal::OffBoard(_)));
        assert!(matches!(illegal(&p, "a2-b3"), Illegal::LightSquare(_)));
        let p = pos("W:Wd4,h2:Bc3,e5");
        assert!(matches!(illegal(&p, "h2-g3"), Illegal::CaptureMandatory(ref m) if m.len() == 2));
        assert!(matches!(illegal(&p, "d4-c5"), Illegal::NoSuchCapture(_)));
        let p = pos("W:Wd4:Bh8");
        assert!(matches!(illegal(&p, "d4-c3"), Illegal::ManBackwards));
        let p = pos("W:WK29:B15,18");
        assert!(matches!(illegal(&p, "a1-h8"), Illegal::Blocked(_)));
        let p = pos("W:Wa1:Bb2,d4");
        let e = illegal(&p, "a1:c3");
        assert!(
            matches!(e, Illegal::CaptureNotCompleted(ref m) if m[0].captured().count() == 2),
            "{e:?}"
        );
        assert!(e.to_string().contains("a1:e5"));
        assert!(matches!(
            illegal(&pos("W:W:B1"), "a1-b2"),
            Illegal::NoPiece(_)
        ));
        assert!(matches!(
            illegal(&pos("W:W5:B1"), "a7-b8"),
            Illegal::NoLegalMoves
        ));
        assert!(matches!(
            illegal(&pos("W:W5,10:B1"), "a7-b8"),
            Illegal::Occupied(_)
        ));
    }

    #[test]
    fn formats_in_every_style() {
        let p = pos("W:Wa1:Bb2,d4");
        let m = p.legal_moves()[0];
        let f = |squares, captures, separator| {
            format_move(
                &p,
                &m,
                Style {
                    squares,
                    captures,
                    separator,
                },
            )
        };
        assert_eq!(
            f(
                SquareStyle::Algebraic,
                CaptureStyle::Short,
                CaptureSeparator::Colon
            ),
            "a1:e5"
        );
        assert_eq!(
            f(
                SquareStyle::Algebraic,
                CaptureStyle::Full,
                CaptureSeparator::Cross
            ),
            "a1xc3xe5"
        );
        assert_eq!(
            f(
                SquareStyle::Numeric,
                CaptureStyle::Full,
                CaptureSeparator::Colon
            ),
            "29:22:15"
        );
        assert_eq!(
            f(
                SquareStyle::Numeric,
                CaptureStyle::Minimal,
                CaptureSeparator::Cross
            ),
            "29x15"
        );
        let start = Position::start();
        let q = start.legal_moves()[0];
        let s = format_move(
            &start,
            &q,
            Style {
                squares: SquareStyle::Numeric,
                ..Style::default()
            },
        );
        assert!(s.contains('-'));
        // A move that is not legal here is still written, short.
        let bogus = Move::new(
            Square::from_numeric(1).unwrap(),
            Square::from_numeric(2).unwrap(),
            Bitboard(1),
            false,
        );
        assert_eq!(
            format_move(
                &start,
                &bogus,
                Style {
                    captures: CaptureStyle::Full,
                    ..Style::default()
                }
            ),
            "b8:d8"
        );
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_tokens_never_panic(s in "[a-kA-K0-9xX:\\- ]{0,14}|\\PC{0,12}") {
            let p = pos("W:W19,K30:B7,8,16,24");
            if let Ok(Resolution::Illegal(i)) = parse_and_resolve(&p, &s) {
                let _ = i.to_string();
            }
        }
    }
}
