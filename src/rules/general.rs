//! Positions and legal moves of every variant: one move generator that reads the variant's
//! [`Rules`] (board, directions, flying kings, crowning, removal, capture choice).
//!
//! A move is the triple (from, to, captured set), as for Russian ([`super::Move`]): routes
//! that capture the same pieces between the same squares are one move. The capture search
//! walks every route of every piece and keeps those the variant's capture choice ranks
//! highest ([`CaptureChoice`]).

use std::fmt;

use super::Variant;
use super::fen::{FenSquare, ParseFenError, Setup};
use super::geometry::{Geometry, NONE, dir};
use super::movegen::play_on;
use super::notation::MoveText;
use super::perft::{Node, leaves};
use super::variant::{CaptureChoice, Crowning, Dialect, Rules};
use crate::Color;

/// A set of squares of any board: bit `i` is square index `i` ([`super::geometry`]).
type Set = u128;

/// The most squares a capture route holds: the start and one landing per captured piece
/// (at most 30, on 12×12).
const ROUTE: usize = 32;

/// A legal position of any variant.
///
/// Besides the pieces and the side to move it holds what Frisian's rule on kings needs of
/// the game's history (a FEN does not say it, so a position set up from one starts with
/// no king's run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantPosition {
    men: [Set; 2],
    kings: [Set; 2],
    turn: Color,
    variant: Variant,
    /// How the game is written: its numbering and which way the files run.
    dialect: Dialect,
    /// Per side, with [`Rules::king_quiet_run`]: the square of the king that made the
    /// side's last moves without capturing, and how many in a row (0: none).
    king_run: [KingRun; 2],
}

/// The position's hash leaves out how the game is written: the same position numbered
/// another way is the same position (duplicates, repetitions).
impl std::hash::Hash for VariantPosition {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.men, self.kings, self.turn, self.variant, self.king_run).hash(state);
    }
}

/// A king's non-capturing moves in a row: where it stands and how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct KingRun {
    square: u8,
    moves: u8,
}

/// A move of [`VariantPosition`]: start and end square, captured pieces, whether a man is
/// crowned, and one of its routes (the start square and every landing).
#[derive(Clone, Copy, Debug)]
pub struct VariantMove {
    from: u8,
    to: u8,
    captured: Set,
    promotes: bool,
    route: [u8; ROUTE],
    route_len: u8,
}

impl VariantMove {
    /// Square index the piece starts on (see [`VariantPosition::number`]).
    pub fn from(&self) -> u8 {
        self.from
    }

    /// Square index the piece ends on.
    pub fn to(&self) -> u8 {
        self.to
    }

    /// Square indices of the captured pieces, in index order.
    pub fn captured(&self) -> impl Iterator<Item = u8> + '_ {
        squares(self.captured)
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether a man becomes a king.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// One route of the move: its start square and every landing square.
    pub fn route(&self) -> &[u8] {
        &self.route[..usize::from(self.route_len)]
    }

    /// A non-capturing move from `from` to `to`.
    fn quiet(from: u8, to: u8, promotes: bool) -> VariantMove {
        let mut route = [0; ROUTE];
        (route[0], route[1]) = (from, to);
        VariantMove {
            from,
            to,
            captured: 0,
            promotes,
            route,
            route_len: 2,
        }
    }

    /// The same move: the same (from, to, captured set), whatever the route.
    pub fn same(&self, other: &VariantMove) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

/// Whether `via` are landings of `route`, in order (not necessarily all of them).
fn lands_on(route: &[u8], via: &[u8]) -> bool {
    let mut landings = route.iter();
    via.iter().all(|v| landings.any(|l| l == v))
}

/// What a move as written names in a position of any variant
/// ([`VariantPosition::resolve`]).
#[derive(Clone, Debug)]
pub enum VariantResolution {
    /// One legal move.
    Unique(VariantMove),
    /// Several legal moves (distinct captured sets) fit what is written.
    Ambiguous(Vec<VariantMove>),
    /// None does.
    Illegal(VariantIllegal),
}

/// Why a move as written names no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantIllegal {
    /// A square beyond the board.
    #[error("square {0} is not on the board")]
    OffBoard(FenSquare),
    /// A square where no piece can stand.
    #[error("square {0} is a light square")]
    LightSquare(FenSquare),
    /// The squares are the board's, but no legal move goes by them.
    #[error("no legal move goes by these squares")]
    NoSuchMove,
}

/// The squares of a set, lowest index first.
fn squares(mut set: Set) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as u8;
            set &= set - 1;
            i
        })
    })
}

/// Why a [`Setup`] is not a position of a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantSetupError {
    /// `?` as the side to move.
    #[error("the side to move is unknown ('?')")]
    UnknownTurn,
    /// A number or a square beyond the board.
    #[error("square {0} is not on the {1} board")]
    OffBoard(FenSquare, Variant),
    /// A square where no piece can stand.
    #[error("square {0} is a light square")]
    LightSquare(FenSquare),
    /// Two pieces on one square.
    #[error("square {0} is listed twice")]
    DuplicateSquare(FenSquare),
    /// A man on the rank where it would have been crowned.
    #[error("{0} man on {1}, its promotion rank (it would be a king)")]
    ManOnPromotionRank(Color, FenSquare),
    /// More pieces than a side starts with.
    #[error("{0} has {1} pieces, more than the {2} a side starts with")]
    TooManyPieces(Color, usize, usize),
}

/// Why a FEN is no position of a variant ([`VariantPosition::from_fen`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantFenError {
    /// The text is no FEN.
    #[error(transparent)]
    Syntax(#[from] ParseFenError),
    /// The FEN sets up no position of the variant.
    #[error(transparent)]
    Setup(#[from] VariantSetupError),
}

impl VariantPosition {
    fn rules(&self) -> &'static Rules {
        self.variant.rules()
    }

    fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.rules().board)
    }

    /// The start position of `variant`.
    pub fn start(variant: Variant) -> VariantPosition {
        VariantPosition::start_in(variant, variant.dialect())
    }

    /// The start position of `variant` written in `dialect` (its first player to move).
    pub fn start_in(variant: Variant, dialect: Dialect) -> VariantPosition {
        let rules = variant.rules();
        let g = Geometry::of(rules.board);
        let (first, count) = rules.men_ranks;
        VariantPosition {
            men: [
                g.ranks(first, count),
                g.ranks(g.side - first - count, count),
            ],
            kings: [0; 2],
            turn: dialect.first,
            variant,
            dialect,
            king_run: Default::default(),
        }
    }

    /// The position a FEN sets up in `variant` (numbers in the variant's numbering, or
    /// algebraic names).
    pub fn from_fen(fen: &str, variant: Variant) -> Result<VariantPosition, VariantFenError> {
        let setup: Setup = fen.parse()?;
        Ok(VariantPosition::from_setup(&setup, variant)?)
    }

    /// Validates an unchecked setup as a position of `variant`: every square on its board,
    /// no square twice, no man on its promotion rank, no more pieces than a side starts
    /// with.
    pub fn from_setup(
        setup: &Setup,
        variant: Variant,
    ) -> Result<VariantPosition, VariantSetupError> {
        VariantPosition::from_setup_in(setup, variant, variant.dialect())
    }

    /// [`from_setup`](Self::from_setup), the squares numbered and named in `dialect`.
    pub fn from_setup_in(
        setup: &Setup,
        variant: Variant,
        dialect: Dialect,
    ) -> Result<VariantPosition, VariantSetupError> {
        let turn = setup.turn.ok_or(VariantSetupError::UnknownTurn)?;
        let mut pos = VariantPosition {
            men: [0; 2],
            kings: [0; 2],
            turn,
            variant,
            dialect,
            king_run: Default::default(),
        };
        for piece in &setup.pieces {
            let i = pos.square_of(piece.square)?;
            let bit = 1 << i;
            if pos.occupied() & bit != 0 {
                return Err(VariantSetupError::DuplicateSquare(piece.square));
            }
            if !piece.king && pos.promotion(piece.color) & bit != 0 {
                return Err(VariantSetupError::ManOnPromotionRank(
                    piece.color,
                    piece.square,
                ));
            }
            let set = if piece.king {
                &mut pos.kings
            } else {
                &mut pos.men
            };
            set[piece.color.index()] |= bit;
        }
        let most = variant.pieces_per_side();
        for color in [Color::White, Color::Black] {
            let n = pos.pieces(color).count_ones() as usize;
            if n > most {
                return Err(VariantSetupError::TooManyPieces(color, n, most));
            }
        }
        Ok(pos)
    }

    /// The square index of a written square, when it is a playable square of the board.
    pub(crate) fn index_of(&self, sq: FenSquare) -> Option<u8> {
        self.square_of(sq).ok()
    }

    /// Whether a king stands on square index `i`.
    pub(crate) fn king_on(&self, i: u8) -> bool {
        (self.kings[0] | self.kings[1]) & 1 << i != 0
    }

    /// The colour of the piece on square index `i`, if any.
    pub(crate) fn piece_on(&self, i: u8) -> Option<Color> {
        let bit: Set = 1 << i;
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.pieces(c) & bit != 0)
    }

    /// The square index of a written square.
    fn square_of(&self, sq: FenSquare) -> Result<u8, VariantSetupError> {
        let g = self.geometry();
        let off = || VariantSetupError::OffBoard(sq, self.variant);
        match sq {
            FenSquare::Numeric(n) => {
                let d = self.dialect;
                (g.square_numbered(n, d.mirrored, d.first_square)).ok_or_else(off)
            }
            FenSquare::Algebraic { file, rank } => {
                if file >= g.side || rank >= g.side {
                    return Err(off());
                }
                // a mirrored board's files run the other way round
                let file = if self.dialect.mirrored {
                    g.side - 1 - file
                } else {
                    file
                };
                g.square_at(file, rank)
                    .ok_or(VariantSetupError::LightSquare(sq))
            }
        }
    }

    /// The variant whose rules this position follows.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// How the game is written: who moves first, and how the squares are numbered.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The same position, its squares named as the variant's own numbering names them
    /// (who moves first kept): how a move is written the same whatever the game's
    /// GameType fields said.
    pub(crate) fn in_usual_numbering(&self) -> VariantPosition {
        let usual = self.variant.dialect();
        VariantPosition {
            dialect: Dialect {
                first: self.dialect.first,
                ..usual
            },
            ..*self
        }
    }

    fn pieces(&self, color: Color) -> Set {
        self.men[color.index()] | self.kings[color.index()]
    }

    fn occupied(&self) -> Set {
        self.pieces(Color::White) | self.pieces(Color::Black)
    }

    /// Where `color`'s men are crowned: the top rank for White, the bottom for Black.
    fn promotion(&self, color: Color) -> Set {
        let g = self.geometry();
        match color {
            Color::White => g.top,
            Color::Black => g.bottom,
        }
    }

    /// Square index `i` as its players see it: (file from their left, rank from White's
    /// side), both from 0 (mirrored boards included).
    ///
    /// # Panics
    ///
    /// When `i` is no square's index (every index a position or a move gives is one).
    pub fn file_rank(&self, i: u8) -> (u8, u8) {
        let g = self.geometry();
        let (file, rank) = g.file_rank(i);
        if self.dialect.mirrored {
            (g.side - 1 - file, rank)
        } else {
            (file, rank)
        }
    }

    /// How many of `color`'s pieces stand on the long diagonal of a square board, the
    /// one through its two dark corners (Russian's main road a1–h8; h1–a8 as the players
    /// of a mirrored board name it).
    pub(crate) fn on_long_diagonal(&self, color: Color) -> u8 {
        (self.pieces(color) & self.geometry().long_diagonal).count_ones() as u8
    }

    /// Whether a king of either side is on the board.
    pub(crate) fn has_kings(&self) -> bool {
        self.kings[0] | self.kings[1] != 0
    }

    /// How many men and how many kings `color` has.
    pub(crate) fn counts(&self, color: Color) -> (u8, u8) {
        let i = color.index();
        (
            self.men[i].count_ones() as u8,
            self.kings[i].count_ones() as u8,
        )
    }

    /// Whether the side to move has a legal move, found without listing them: a capture,
    /// else a man's step by whole-board shifts, else a king's.
    pub(crate) fn has_legal_moves(&self) -> bool {
        self.may_capture() || self.quiet_count() > 0
    }

    /// Every piece: its square index, colour and whether it is a king.
    pub fn pieces_on_board(&self) -> impl Iterator<Item = (u8, Color, bool)> + '_ {
        [Color::White, Color::Black]
            .into_iter()
            .flat_map(move |color| {
                let kings = self.kings[color.index()];
                squares(self.pieces(color)).map(move |i| (i, color, kings & 1 << i != 0))
            })
    }

    /// The board as [`crate::diagram`] draws it.
    pub fn shape(&self) -> crate::diagram::Shape {
        let g = self.geometry();
        crate::diagram::Shape {
            side: g.side,
            dark_corner: !self.dialect.mirrored,
            every_square: !g.dark_only,
        }
    }

    /// The PDN number of square index `i` in the game's numbering.
    ///
    /// # Panics
    ///
    /// When `i` is no square's index (every index a position or a move gives is one).
    pub fn number(&self, i: u8) -> u32 {
        let d = self.dialect;
        self.geometry().number(i, d.mirrored, d.first_square)
    }

    /// The algebraic name of square index `i` (`c3`; files a, b, … from the left of the
    /// board as its players see it, mirrored boards included).
    pub fn square_name(&self, i: u8) -> String {
        let (file, rank) = self.file_rank(i);
        format!("{}{}", char::from(b'a' + file), rank + 1)
    }

    /// Square index `i` as the variant's PDN writes it: its number, or on the Turkish
    /// board, where every square is played and PDN names squares (GameType 30 `A0`), its
    /// algebraic name.
    pub fn square_text(&self, i: u8) -> String {
        if self.geometry().dark_only {
            self.number(i).to_string()
        } else {
            self.square_name(i)
        }
    }

    /// Where square index `i` comes in the order a FEN lists squares: by number, or on
    /// the Turkish board, whose squares have names, rank by rank from a1.
    pub fn square_order(&self, i: u8) -> u32 {
        let g = self.geometry();
        if g.dark_only {
            self.number(i)
        } else {
            let (file, rank) = g.file_rank(i);
            u32::from(rank) * 8 + u32::from(file)
        }
    }

    /// FEN of the position: `W:W31,32,K46:B1,2`, in number order (Turkish: `W:Wa2,b2:Ba7`,
    /// rank by rank from a1).
    pub fn to_fen(&self) -> String {
        let mut out = String::from(self.turn.letter());
        for color in [Color::White, Color::Black] {
            out.push(':');
            out.push(color.letter());
            let mut listed: Vec<(u32, u8)> = squares(self.pieces(color))
                .map(|i| (self.square_order(i), i))
                .collect();
            listed.sort_unstable();
            for (k, (_, i)) in listed.into_iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                if self.kings[color.index()] & 1 << i != 0 {
                    out.push('K');
                }
                out.push_str(&self.square_text(i));
            }
        }
        out
    }

    /// A move as PDN writes it: `32-28`, `28x19`; a capture that another legal move shares
    /// start and end with, with every landing square (`28x19x8`).
    pub fn move_text(&self, m: &VariantMove, moves: &[VariantMove]) -> String {
        self.written(m, moves, false, "x", false)
    }

    /// A move with every square of its route: `28x19x10`, `32-28`.
    pub fn route_text(&self, m: &VariantMove) -> String {
        self.written(m, &[], true, "x", false)
    }

    /// `m` written with every square of its route (`full`, or where another of `moves`
    /// shares its start and end), else with those two; a capture's squares joined by
    /// `capture`, a quiet move's by `-`; squares by their names (`algebraic`) or as the
    /// variant's PDN writes them ([`square_text`](Self::square_text)).
    pub(crate) fn written(
        &self,
        m: &VariantMove,
        moves: &[VariantMove],
        full: bool,
        capture: &str,
        algebraic: bool,
    ) -> String {
        let ends = [m.from, m.to];
        let shared = || {
            moves
                .iter()
                .any(|o| o.from == m.from && o.to == m.to && !o.same(m))
        };
        let squares = if full || shared() { m.route() } else { &ends };
        let texts: Vec<String> = (squares.iter())
            .map(|&i| match algebraic {
                true => self.square_name(i),
                false => self.square_text(i),
            })
            .collect();
        texts.join(if m.is_capture() { capture } else { "-" })
    }

    /// The legal move a move as written names: its first square is where the piece
    /// starts, its last where it ends, and any squares between are landings of the
    /// capture, in order (`28x19x10`, or some of them). Squares are numbers in the
    /// variant's numbering or algebraic names (files as the players see them). The
    /// separators are not read: whether `-` or `x` fits the move is the caller's to judge.
    pub fn resolve(&self, text: &MoveText) -> VariantResolution {
        let mut indices = Vec::with_capacity(text.squares.len());
        for &sq in &text.squares {
            match self.square_of(sq) {
                Ok(i) => indices.push(i),
                Err(VariantSetupError::LightSquare(sq)) => {
                    return VariantResolution::Illegal(VariantIllegal::LightSquare(sq));
                }
                Err(_) => return VariantResolution::Illegal(VariantIllegal::OffBoard(sq)),
            }
        }
        let (Some(&from), Some(&to)) = (indices.first(), indices.last()) else {
            return VariantResolution::Illegal(VariantIllegal::NoSuchMove);
        };
        let via = &indices[1..indices.len() - 1];
        let mut named: Vec<VariantMove> = Vec::new();
        // (every route: the one a distinct move keeps may not be the one written)
        for m in self.legal_routes() {
            if m.from == from
                && m.to == to
                && lands_on(&m.route()[1..], via)
                && !named.iter().any(|n| n.same(&m))
            {
                named.push(m);
            }
        }
        match named.len() {
            0 => VariantResolution::Illegal(VariantIllegal::NoSuchMove),
            1 => VariantResolution::Unique(named[0]),
            _ => VariantResolution::Ambiguous(named),
        }
    }

    /// All legal moves, each distinct (from, to, captured set) once.
    pub fn legal_moves(&self) -> Vec<VariantMove> {
        self.moves_by(true)
    }

    /// All legal moves, a capture once per route: captures of the same pieces between
    /// the same squares by different routes (a ring both ways round) are listed apart,
    /// as the every-route perft counts ([`EveryRoute`]) and pydraughts list them.
    pub fn legal_routes(&self) -> Vec<VariantMove> {
        self.moves_by(false)
    }

    fn moves_by(&self, distinct: bool) -> Vec<VariantMove> {
        // (room for most positions' moves at once: grown by doubling, the list cost more
        // than finding the moves)
        let mut list = Vec::with_capacity(32);
        if self.may_capture() {
            self.captures_into(&mut list, distinct);
        }
        if list.is_empty() {
            self.quiet_moves_into(&mut list);
        }
        list
    }

    /// The legal move written `from`-`to` by their square numbers (`capture`: with `x` or
    /// `:`, else `-`) when it is the one legal move between them and of that kind: the
    /// ordinary writing of most moves, found without listing every route (`None`: read
    /// it in full, [`resolve`](Self::resolve)).
    pub(crate) fn plain_move(&self, from: u32, to: u32, capture: bool) -> Option<VariantMove> {
        let from = self.index_of(FenSquare::Numeric(from))?;
        let to = self.index_of(FenSquare::Numeric(to))?;
        if capture {
            let mut captures = Vec::with_capacity(16);
            self.captures_into(&mut captures, true);
            let mut named = captures.iter().filter(|m| m.from == from && m.to == to);
            return match (named.next(), named.next()) {
                (Some(&m), None) => Some(m),
                _ => None,
            };
        }
        // (a quiet move where a capture is mandatory is illegal: said in full elsewhere)
        if self.may_capture() {
            return None;
        }
        let mut found = None;
        self.piece_quiet_moves(from, |_, t, promotes| {
            if t == to {
                found = Some(VariantMove::quiet(from, to, promotes));
            }
        });
        found
    }

    /// Whether the side to move has a capture: a man next to an enemy piece it may take
    /// with the square beyond empty (whole-board shifts), or a king that reaches one so
    /// along a line. No search: most positions have no capture, and the search would try
    /// every piece in every direction to find none.
    fn may_capture(&self) -> bool {
        let occupied = self.occupied();
        self.men_that_capture() != 0 || self.king_may_capture(occupied)
    }

    /// The men of the side to move that have a first jump: next to a piece they may take
    /// with the square beyond empty (whole-board shifts). Only they can capture.
    fn men_that_capture(&self) -> Set {
        let (g, rules) = (self.geometry(), self.rules());
        let them = self.turn.opponent().index();
        let prey = if rules.men_capture_kings {
            self.pieces(self.turn.opponent())
        } else {
            self.men[them]
        };
        let empty = !self.occupied() & g.all();
        let men = self.men[self.turn.index()];
        self.turned(rules.men_jumps).fold(0, |found, d| {
            let back = dir::opposite(d);
            found | men & g.shift(g.shift(empty, back) & prey, back)
        })
    }

    /// Whether a king of the side to move has a first jump (the rest of a capture can only
    /// follow one).
    fn king_may_capture(&self, occupied: Set) -> bool {
        let (g, rules) = (self.geometry(), self.rules());
        let enemy = self.pieces(self.turn.opponent());
        for sq in squares(self.kings[self.turn.index()]) {
            for d in self.turned(rules.king_jumps) {
                let step = &g.step[usize::from(d)];
                let mut over = step[usize::from(sq)];
                while rules.flying_kings && over != NONE && occupied & 1 << over == 0 {
                    over = step[usize::from(over)];
                }
                if over == NONE || enemy & 1 << over == 0 {
                    continue;
                }
                let land = step[usize::from(over)];
                if land != NONE && occupied & 1 << land == 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Plays `m`, which must be one of [`legal_moves`](Self::legal_moves).
    pub fn play_unchecked(&mut self, m: &VariantMove) {
        let (from, to): (Set, Set) = (1 << m.from, 1 << m.to);
        let us = self.turn.index();
        let king = self.kings[us] & from != 0;
        if self.rules().king_quiet_run > 0 {
            let run = &mut self.king_run[us];
            // (the same king goes on if it stands where the run left it)
            let before = if run.moves > 0 && run.square == m.from {
                run.moves
            } else {
                0
            };
            *run = if !king || m.is_capture() {
                KingRun::default()
            } else {
                KingRun {
                    square: m.to,
                    moves: before.saturating_add(1),
                }
            };
        }
        self.turn = play_on(
            [&mut self.men, &mut self.kings],
            self.turn,
            (from, to, m.captured),
            king,
            m.promotes,
        );
    }

    /// The position after `m` (which must be legal).
    pub fn after(&self, m: &VariantMove) -> VariantPosition {
        let mut p = *self;
        p.play_unchecked(m);
        p
    }

    /// The directions `rules` gives the side to move, turned for the side at the top.
    fn turned(&self, dirs: &'static [u8]) -> impl Iterator<Item = u8> {
        let top = self.turn == Color::Black;
        dirs.iter()
            .map(move |&d| if top { dir::from_top(d) } else { d })
    }

    fn quiet_moves_into(&self, list: &mut Vec<VariantMove>) {
        self.quiet_moves(|from, to, promotes| list.push(VariantMove::quiet(from, to, promotes)));
    }

    /// Calls `found(from, to, promotes)` for each quiet move (legal when there is no
    /// capture): the men's, then the kings'.
    fn quiet_moves(&self, mut found: impl FnMut(u8, u8, bool)) {
        let us = self.turn.index();
        for from in squares(self.men[us]).chain(squares(self.kings[us])) {
            self.piece_quiet_moves(from, &mut found);
        }
    }

    /// [`quiet_moves`](Self::quiet_moves) of the piece of the side to move on `from` (none
    /// for a king that must rest, nor for another side's piece or an empty square).
    fn piece_quiet_moves(&self, from: u8, mut found: impl FnMut(u8, u8, bool)) {
        let (g, rules) = (self.geometry(), self.rules());
        let us = self.turn.index();
        let empty = !self.occupied() & g.all();
        if self.men[us] & 1 << from != 0 {
            let promotion = self.promotion(self.turn);
            for d in self.turned(rules.men_steps) {
                let to = g.step[usize::from(d)][usize::from(from)];
                if to != NONE && empty & 1 << to != 0 {
                    found(from, to, promotion & 1 << to != 0);
                }
            }
            return;
        }
        if self.kings[us] & 1 << from == 0 || self.resting_king() == Some(from) {
            return;
        }
        for d in self.turned(rules.king_steps) {
            let mut to = g.step[usize::from(d)][usize::from(from)];
            while to != NONE && empty & 1 << to != 0 {
                found(from, to, false);
                if !rules.flying_kings {
                    break;
                }
                to = g.step[usize::from(d)][usize::from(to)];
            }
        }
    }

    /// The king of the side to move that has made as many non-capturing moves in a row as
    /// [`Rules::king_quiet_run`] allows while its side has men: it may capture, not move
    /// (Frisian).
    fn resting_king(&self) -> Option<u8> {
        let limit = self.rules().king_quiet_run;
        let us = self.turn.index();
        let run = self.king_run[us];
        (limit > 0
            && run.moves >= limit
            && self.men[us] != 0
            && self.kings[us] & 1 << run.square != 0)
            .then_some(run.square)
    }

    /// The number of legal moves, the quiet ones counted without being listed (the men's
    /// by population counts).
    fn count_by(&self, distinct: bool) -> usize {
        if self.may_capture() {
            let mut list = Vec::new();
            self.captures_into(&mut list, distinct);
            if !list.is_empty() {
                return list.len();
            }
        }
        self.quiet_count()
    }

    /// The number of quiet moves (legal when there is no capture), the men's by
    /// population counts of whole-board shifts.
    fn quiet_count(&self) -> usize {
        let (g, us) = (self.geometry(), self.turn.index());
        let empty = !self.occupied() & g.all();
        let men: u32 = (self.turned(self.rules().men_steps))
            .map(|d| (g.shift(self.men[us], d) & empty).count_ones())
            .sum();
        let mut kings = 0;
        for from in squares(self.kings[us]) {
            self.piece_quiet_moves(from, |_, _, _| kings += 1);
        }
        men as usize + kings
    }

    fn captures_into(&self, list: &mut Vec<VariantMove>, distinct: bool) {
        let us = self.turn;
        let them = us.opponent();
        let mut search = Search {
            g: self.geometry(),
            rules: self.rules(),
            men_jumps: [0; 8],
            men_jump_count: 0,
            king_jumps: [0; 8],
            king_jump_count: 0,
            enemy: self.pieces(them),
            enemy_kings: self.kings[them.index()],
            occupied: 0,
            promotion: self.promotion(us),
            from: 0,
            by_king: false,
            crowned: false,
            captured: 0,
            order: [0; ROUTE],
            route: [0; ROUTE],
            depth: 0,
            best: 0,
            distinct,
            list,
        };
        for d in self.turned(search.rules.men_jumps) {
            search.men_jumps[search.men_jump_count] = d;
            search.men_jump_count += 1;
        }
        for d in self.turned(search.rules.king_jumps) {
            search.king_jumps[search.king_jump_count] = d;
            search.king_jump_count += 1;
        }
        let occupied = self.occupied();
        // (a man with no first jump has no capture: most are left out before the search)
        for (pieces, king) in [
            (self.men_that_capture(), false),
            (self.kings[us.index()], true),
        ] {
            for from in squares(pieces) {
                search.from = from;
                search.by_king = king;
                search.crowned = false;
                search.occupied = occupied & !(1 << from);
                search.route[0] = from;
                if king {
                    search.king(from, NONE);
                } else {
                    search.man(from);
                }
            }
        }
    }
}

/// Depth-first search of the captures of one piece, keeping those ranked highest.
struct Search<'a> {
    g: &'static Geometry,
    rules: &'static Rules,
    /// The directions of the side to move.
    men_jumps: [u8; 8],
    men_jump_count: usize,
    king_jumps: [u8; 8],
    king_jump_count: usize,
    /// The opponent's pieces, captured or not (the captured are in `captured`).
    enemy: Set,
    enemy_kings: Set,
    /// Occupied squares: not the mover's start; captured pieces until the move ends,
    /// unless the variant removes them at once.
    occupied: Set,
    promotion: Set,
    from: u8,
    /// A king captures (not a man, crowned or not).
    by_king: bool,
    /// A man crowned during this capture, going on as a king.
    crowned: bool,
    captured: Set,
    /// The captured squares in the order jumped.
    order: [u8; ROUTE],
    /// The start and landing squares so far; `route[depth]` is where the piece stands.
    route: [u8; ROUTE],
    depth: usize,
    /// The rank of the captures listed ([`Search::rank`]).
    best: u64,
    /// List each (from, to, captured set) once, not once per route.
    distinct: bool,
    list: &'a mut Vec<VariantMove>,
}

impl Search<'_> {
    fn capturable(&self, sq: u8, by_man: bool) -> bool {
        let bit = 1 << sq;
        self.enemy & !self.captured & bit != 0
            && (!by_man || self.rules.men_capture_kings || self.enemy_kings & bit == 0)
    }

    /// Jumps `over` onto `land`, runs `then` from there, and takes the jump back.
    fn jump(&mut self, over: u8, land: u8, then: impl FnOnce(&mut Self) -> bool) -> bool {
        let bit = 1 << over;
        if self.depth + 1 >= ROUTE {
            return false; // (no board has that many pieces to capture)
        }
        self.order[self.depth] = over;
        self.depth += 1;
        self.route[self.depth] = land;
        self.captured |= bit;
        let at_once = self.rules.removed_at_once;
        if at_once {
            self.occupied &= !bit;
        }
        let went_on = then(self);
        if at_once {
            self.occupied |= bit;
        }
        self.captured &= !bit;
        self.depth -= 1;
        went_on
    }

    /// The captures of a man standing on `sq`; whether it has any.
    fn man(&mut self, sq: u8) -> bool {
        let mut any = false;
        for k in 0..self.men_jump_count {
            let d = usize::from(self.men_jumps[k]);
            let over = self.g.step[d][usize::from(sq)];
            if over == NONE || !self.capturable(over, true) {
                continue;
            }
            let land = self.g.step[d][usize::from(over)];
            if land == NONE || self.occupied & 1 << land != 0 {
                continue;
            }
            any = true;
            let crowning = self.promotion & 1 << land != 0;
            self.jump(over, land, |s| {
                let went_on = match (crowning, s.rules.crowning) {
                    (true, Crowning::GoesOnAsKing) => {
                        s.crowned = true;
                        let went_on = s.king(land, NONE);
                        s.crowned = false;
                        if !went_on {
                            s.report(true);
                        }
                        return true;
                    }
                    (true, Crowning::EndsMove) => false,
                    _ => s.man(land),
                };
                if !went_on {
                    s.report(crowning);
                }
                true
            });
        }
        any
    }

    /// The captures of a king (or of a man crowned on the way) standing on `sq`, which
    /// arrived along `came` ([`NONE`] at the start); whether it has any.
    fn king(&mut self, sq: u8, came: u8) -> bool {
        let mut any = false;
        let flying = self.rules.flying_kings;
        for k in 0..self.king_jumps_len() {
            let d = self.king_jumps[k];
            // a Turkish king may not turn back on the squares its capture freed
            if self.rules.no_turning_back && came != NONE && d == dir::opposite(came) {
                continue;
            }
            let step = &self.g.step[usize::from(d)];
            let mut over = step[usize::from(sq)];
            while flying && over != NONE && self.occupied & 1 << over == 0 {
                over = step[usize::from(over)];
            }
            if over == NONE || !self.capturable(over, false) {
                continue;
            }
            let mut lands = [NONE; 12];
            let mut n = 0;
            let mut land = step[usize::from(over)];
            while land != NONE && self.occupied & 1 << land == 0 && n < lands.len() {
                lands[n] = land;
                n += 1;
                if !flying || self.rules.king_lands_next {
                    break;
                }
                land = step[usize::from(land)];
            }
            if n == 0 {
                continue;
            }
            any = true;
            // where some landings let the capture go on, only those are allowed (Russian
            // 1.5.6; where the most pieces must be taken, stopping short ranks lower anyway)
            self.jump(over, lands[0], |s| {
                let mut went_on = false;
                for &land in &lands[..n] {
                    s.route[s.depth] = land;
                    went_on |= s.king(land, d);
                }
                if !went_on {
                    for &land in &lands[..n] {
                        s.route[s.depth] = land;
                        s.report(s.crowned);
                    }
                }
                true
            });
        }
        any
    }

    fn king_jumps_len(&self) -> usize {
        self.king_jump_count
    }

    /// How the capture choice ranks the capture made so far (higher is preferred).
    fn rank(&self) -> u64 {
        let n = self.depth as u64;
        let kings = (self.captured & self.enemy_kings).count_ones() as u64;
        let by_king = u64::from(self.by_king);
        match self.rules.choice {
            CaptureChoice::Free => 0,
            CaptureChoice::Most => n,
            CaptureChoice::MostThenKings => n << 8 | kings,
            CaptureChoice::KingFirst => by_king,
            CaptureChoice::Value => (2 * (n - kings) + 3 * kings) << 16 | kings << 8 | by_king,
            CaptureChoice::Italian => {
                // which of the pieces jumped, in order, are kings: the first most significant
                let mut first_kings = 0u64;
                for (j, &sq) in self.order[..self.depth].iter().enumerate() {
                    if self.enemy_kings & 1 << sq != 0 {
                        first_kings |= 1 << (31 - j);
                    }
                }
                n << 40 | by_king << 39 | kings << 32 | first_kings
            }
        }
    }

    /// Lists the capture made so far, ending where the piece stands, if the capture choice
    /// ranks it no lower than those listed (dropping those it ranks higher than).
    fn report(&mut self, crowned: bool) {
        let rank = self.rank();
        if !self.list.is_empty() && rank < self.best {
            return;
        }
        if self.list.is_empty() || rank > self.best {
            self.list.clear();
            self.best = rank;
        }
        let to = self.route[self.depth];
        let man = !self.by_king;
        let promotes = man && (crowned || self.crowned || self.promotion & 1 << to != 0);
        let m = VariantMove {
            from: self.from,
            to,
            captured: self.captured,
            promotes,
            route: self.route,
            route_len: (self.depth + 1) as u8,
        };
        if !self.distinct || !self.list.iter().any(|x| x.same(&m)) {
            self.list.push(m);
        }
    }
}

impl Node for VariantPosition {
    type Move = VariantMove;
    type Moves = Vec<VariantMove>;

    fn moves(&self) -> Vec<VariantMove> {
        self.legal_moves()
    }

    fn after(&self, m: &VariantMove) -> VariantPosition {
        VariantPosition::after(self, m)
    }

    fn count_moves(&self) -> usize {
        self.count_by(true)
    }

    fn notation(&self, m: &VariantMove) -> String {
        self.move_text(m, &self.legal_moves())
    }

    fn perft(&self, depth: u32) -> u64 {
        leaves(self, depth)
    }
}

/// A position whose perft counts every route of a capture as a move of its own
/// ([`VariantPosition::legal_routes`]): the count of pydraughts, and of the published
/// Frisian figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EveryRoute(pub VariantPosition);

impl Node for EveryRoute {
    type Move = VariantMove;
    type Moves = Vec<VariantMove>;

    fn moves(&self) -> Vec<VariantMove> {
        self.0.legal_routes()
    }

    fn after(&self, m: &VariantMove) -> EveryRoute {
        EveryRoute(self.0.after(m))
    }

    fn count_moves(&self) -> usize {
        self.0.count_by(false)
    }

    fn notation(&self, m: &VariantMove) -> String {
        // every landing: two routes are two lines of a divide
        let squares: Vec<String> = m.route().iter().map(|&i| self.0.square_text(i)).collect();
        squares.join(if m.is_capture() { "x" } else { "-" })
    }

    fn perft(&self, depth: u32) -> u64 {
        leaves(self, depth)
    }
}

impl fmt::Display for VariantPosition {
    /// A board diagram from the bottom side: `w`/`b` men, `W`/`B` kings, `.` empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry();
        let mirrored = self.dialect.mirrored;
        for rank in (0..g.side).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..g.side {
                let inner = if mirrored { g.side - 1 - file } else { file };
                let c = match g.square_at(inner, rank) {
                    None => ' ',
                    Some(i) => {
                        let bit = 1 << i;
                        match (self.men[0] & bit, self.kings[0] & bit, self.men[1] & bit) {
                            (0, 0, 0) if self.kings[1] & bit != 0 => 'B',
                            (0, 0, 0) => '.',
                            (0, 0, _) => 'b',
                            (0, _, _) => 'W',
                            _ => 'w',
                        }
                    }
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        let files: String = (0..g.side).map(|k| char::from(b'a' + k)).collect();
        writeln!(f, "   {files}  {} to move", self.turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::perft::perft;
    use crate::rules::{FenStyle, Position};

    fn counts(variant: Variant, depth: u32) -> Vec<u64> {
        let start = VariantPosition::start(variant);
        (1..=depth).map(|d| perft(&start, d)).collect()
    }

    #[test]
    fn published_perft_counts() {
        assert_eq!(counts(Variant::International, 5), [9, 81, 658, 4265, 27117]);
        assert_eq!(counts(Variant::English, 6), [7, 49, 302, 1469, 7361, 36768]);
        assert_eq!(
            counts(Variant::Brazilian, 6),
            [7, 49, 302, 1469, 7473, 37628]
        );
        // the published Frisian figures count every route: a ring both ways round twice
        assert_eq!(counts(Variant::Frisian, 5), [9, 81, 658, 3874, 21265]);
        let start = EveryRoute(VariantPosition::start(Variant::Frisian));
        let routes: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
        assert_eq!(routes, [9, 81, 658, 3880, 21345]);
        // Russian, by the general generator, as Russian's own counts it
        assert_eq!(counts(Variant::Russian, 6), [7, 49, 302, 1469, 7482, 37986]);
    }

    /// The depth-6 counts of the variants without published figures (docs/VARIANTS.md),
    /// checked against pydraughts where it has the variant: every board and rule the
    /// published counts leave out (12×12, Turkish's full board, Thai's landings).
    #[test]
    fn counts_of_the_other_variants() {
        for (variant, leaves) in [
            (Variant::Canadian, 584100),
            (Variant::Pool, 37986),
            (Variant::Czech, 36768),
            (Variant::Italian, 36473),
            (Variant::Spanish, 36473),
            (Variant::Portuguese, 36473),
            (Variant::Turkish, 931312),
            (Variant::Thai, 218695),
        ] {
            assert_eq!(
                perft(&VariantPosition::start(variant), 6),
                leaves,
                "{variant}"
            );
        }
    }

    #[test]
    fn the_start_positions() {
        let fen = |v| VariantPosition::start(v).to_fen();
        assert_eq!(
            fen(Variant::International),
            format!(
                "W:W{}:B{}",
                (31..=50)
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                (1..=20)
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
        );
        assert!(fen(Variant::English).starts_with("B:W21,"));
        assert_eq!(
            fen(Variant::Thai),
            "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"
        );
    }

    /// The general generator with Russian rules lists the moves Russian's own does, on
    /// the positions of random games.
    #[test]
    fn russian_by_both_generators() {
        let mut rng = pdnkit_gen::SplitMix64::new(23);
        let mut positions = 0;
        for _ in 0..300 {
            let mut fast = Position::start();
            for _ in 0..120 {
                let fen = fast.to_fen(FenStyle::Numeric);
                let general =
                    VariantPosition::from_setup(&fen.parse().unwrap(), Variant::Russian).unwrap();
                assert_eq!(general.to_fen(), fen);
                let mut want: Vec<(u32, u32, Vec<u32>, bool)> = fast
                    .legal_moves()
                    .iter()
                    .map(|m| {
                        let captured = m.captured().map(|s| s.numeric()).collect();
                        (m.from().numeric(), m.to().numeric(), captured, m.promotes())
                    })
                    .collect();
                let mut got: Vec<(u32, u32, Vec<u32>, bool)> = general
                    .legal_moves()
                    .iter()
                    .map(|m| {
                        let mut captured: Vec<u32> =
                            m.captured().map(|i| general.number(i)).collect();
                        captured.sort_unstable();
                        (
                            general.number(m.from),
                            general.number(m.to),
                            captured,
                            m.promotes,
                        )
                    })
                    .collect();
                for list in [&mut want, &mut got] {
                    for m in list.iter_mut() {
                        m.2.sort_unstable();
                    }
                    list.sort();
                }
                assert_eq!(got, want, "{fen}");
                positions += 1;
                let moves = fast.legal_moves();
                if moves.is_empty() {
                    break;
                }
                fast.play_unchecked(&moves[rng.next_u64() as usize % moves.len()]);
            }
        }
        assert!(positions > 10_000, "{positions}");
    }

    /// The count perft takes at its last ply is the number of moves listed, for every
    /// variant, on the positions of random games (quiet moves are counted apart).
    #[test]
    fn counted_moves_are_the_moves_listed() {
        let mut rng = pdnkit_gen::SplitMix64::new(31);
        for variant in Variant::ALL {
            for _ in 0..40 {
                let mut p = VariantPosition::start(variant);
                for _ in 0..150 {
                    let (moves, routes) = (p.legal_moves(), p.legal_routes());
                    assert_eq!(p.count_moves(), moves.len(), "{variant} {}", p.to_fen());
                    assert_eq!(EveryRoute(p).count_moves(), routes.len(), "{}", p.to_fen());
                    // the quick tests say what the lists say
                    let captures = moves.first().is_some_and(VariantMove::is_capture);
                    assert_eq!(p.may_capture(), captures, "{variant} {}", p.to_fen());
                    assert_eq!(p.has_legal_moves(), !moves.is_empty(), "{}", p.to_fen());
                    if moves.is_empty() {
                        break;
                    }
                    p.play_unchecked(&moves[rng.next_u64() as usize % moves.len()]);
                }
            }
        }
    }

    /// The legal moves of a FEN as sorted PDN texts (captures with every landing).
    fn moves(variant: Variant, fen: &str) -> Vec<String> {
        let p = VariantPosition::from_setup(&fen.parse().unwrap(), variant).unwrap();
        let list = p.legal_moves();
        let mut texts: Vec<String> = list.iter().map(|m| p.route_text(m)).collect();
        texts.sort();
        texts
    }

    #[test]
    fn international_takes_the_most_pieces_and_crowns_only_at_the_end() {
        // c3 (37) takes d4 and d6, g3 (39) only h4: the most pieces
        assert_eq!(
            moves(Variant::International, "W:W37,39:B32,22,34"),
            ["37x28x17"]
        );
        // Brazilian is the same on 8×8; Russian leaves the choice free
        let fen = "W:W22,31:B18,10,27";
        assert_eq!(moves(Variant::Brazilian, fen), ["22x15x6"]);
        assert_eq!(moves(Variant::Russian, fen), ["22x15x6", "31x24"]);
        // d8 (12) takes e9, reaches f10 and takes g9 backwards as a man: not crowned
        let p = VariantPosition::from_setup(&"W:W12:B8,9".parse().unwrap(), Variant::International)
            .unwrap();
        let list = p.legal_moves();
        assert_eq!(moves(Variant::International, "W:W12:B8,9"), ["12x3x14"]);
        assert!(!list[0].promotes());
    }

    #[test]
    fn italian_men_take_no_king_and_kings_take_first() {
        // d3 (22) may not take the king on c4 (18), only the man on e4 (19)
        assert_eq!(moves(Variant::Italian, "W:W22:BK18,19,1"), ["22x15"]);
        // one piece either way: the king on b1 (29) takes, not the man on h3 (24)
        assert_eq!(moves(Variant::Italian, "W:WK29,24:B26,20,1"), ["29x22"]);
        // one piece either way, by a king: the king rather than the man
        assert_eq!(moves(Variant::Italian, "W:WK22:B18,K19,1"), ["22x15"]);
        // two pieces, one a king, either way: the route meeting the king first
        assert_eq!(
            moves(Variant::Italian, "W:WK22:B18,K10,K19,12"),
            ["22x15x8"]
        );
    }

    #[test]
    fn spanish_takes_the_most_kings_among_the_most_pieces() {
        // (Spanish numbers from White's side: 1 is h1, White's men start on 1 to 12)
        assert_eq!(moves(Variant::Spanish, "W:W11:BK14,15,32"), ["11x18"]);
        assert_eq!(
            moves(Variant::Spanish, "W:W11:B14,15,32"),
            ["11x18", "11x20"]
        );
        let start = VariantPosition::start(Variant::Spanish).to_fen();
        assert!(
            start.starts_with("W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,"),
            "{start}"
        );
    }

    #[test]
    fn czech_kings_capture_first() {
        assert_eq!(
            moves(Variant::Czech, "W:WK29,24:B25,19"),
            ["29x11", "29x15", "29x18", "29x22", "29x4", "29x8"]
        );
        assert_eq!(moves(Variant::Russian, "W:WK29,24:B25,19").len(), 7);
    }

    #[test]
    fn frisian_values_and_orthogonal_captures() {
        // the king on a1 (46) takes b2, then f4 along the rank from d4: two men
        assert_eq!(
            moves(Variant::Frisian, "W:WK46,39:B41,33"),
            ["46x23x43", "46x32x34", "46x32x35"]
        );
        // International: one piece either way, every landing of the king and the man
        assert_eq!(moves(Variant::International, "W:WK46,39:B41,33").len(), 9);
        // a king (3) is worth more than a man (2): c3 takes the king on d4, not g3 the man
        assert_eq!(moves(Variant::Frisian, "W:W37,39:BK32,34"), ["37x28"]);
        // two men (4) are worth more than a king (3)
        assert_eq!(moves(Variant::Frisian, "W:W37,39:B32,22,K34"), ["37x28x17"]);
        // equal value: the king captures
        let fen = "W:WK46,32:B41,28";
        assert_eq!(moves(Variant::Frisian, fen), ["46x37"]);
        assert_eq!(moves(Variant::International, fen), ["32x23", "46x37"]);
    }

    #[test]
    fn a_frisian_king_rests_after_three_quiet_moves_while_its_side_has_men() {
        // White: a king on a1 (46) and a man on j2 (45); Black: two men out of its reach
        let start = |fen: &str| {
            VariantPosition::from_setup(&fen.parse().unwrap(), Variant::Frisian).unwrap()
        };
        let play = |p: &mut VariantPosition, from: u32, to: u32| {
            let list = p.legal_moves();
            let m = list
                .iter()
                .find(|m| p.number(m.from()) == from && p.number(m.to()) == to)
                .unwrap_or_else(|| panic!("{from}-{to} is not legal in {p}"));
            p.play_unchecked(m);
        };
        let king_moves = |p: &VariantPosition| {
            let list = p.legal_moves();
            (list.iter())
                .filter(|m| p.kings[p.turn.index()] & 1 << m.from() != 0)
                .count()
        };
        let mut p = start("W:WK46,45:B3,4");
        for (white, black) in [((46, 41), (3, 8)), ((41, 46), (8, 13)), ((46, 41), (4, 9))] {
            assert!(king_moves(&p) > 0);
            play(&mut p, white.0, white.1);
            play(&mut p, black.0, black.1);
        }
        // three in a row: the king rests, the man moves (and the count starts again)
        assert_eq!(king_moves(&p), 0, "{p}");
        assert_eq!(p.legal_moves().len(), 1);
        assert_eq!(p.perft(1), 1);
        play(&mut p, 45, 40);
        play(&mut p, 13, 18);
        assert!(king_moves(&p) > 0);
        // a resting king may still capture, and its capture ends the run of quiet moves
        let mut p = start("W:WK46,45:B3,4,27");
        for (white, black) in [
            ((46, 41), (3, 8)),
            ((41, 46), (8, 13)),
            ((46, 41), (27, 32)),
        ] {
            play(&mut p, white.0, white.1);
            play(&mut p, black.0, black.1);
        }
        let list = p.legal_moves();
        assert!(!list.is_empty());
        assert!(
            list.iter()
                .all(|m| m.is_capture() && p.number(m.from()) == 41)
        );
        p.play_unchecked(&list[0]);
        // (three quiet moves more are its again)
        assert_eq!(p.king_run[Color::White.index()], KingRun::default());
        // another king is free to move; the same king after another's move is too
        let mut p = start("W:WK46,K50,45:B3,4");
        for (white, black) in [((46, 41), (3, 8)), ((41, 46), (8, 13)), ((46, 41), (4, 9))] {
            play(&mut p, white.0, white.1);
            play(&mut p, black.0, black.1);
        }
        let list = p.legal_moves();
        assert!(list.iter().all(|m| p.number(m.from()) != 41));
        assert!(list.iter().any(|m| p.number(m.from()) == 50));
        play(&mut p, 50, 44);
        play(&mut p, 13, 18);
        assert!(p.legal_moves().iter().any(|m| p.number(m.from()) == 41));
        // with kings only, no limit; nor in International
        for (variant, fen) in [
            (Variant::Frisian, "W:WK46:B3,4"),
            (Variant::International, "W:WK46,45:B3,4"),
        ] {
            let mut p = VariantPosition::from_setup(&fen.parse().unwrap(), variant).unwrap();
            for (white, black) in [((46, 41), (3, 8)), ((41, 46), (8, 13)), ((46, 41), (4, 9))] {
                play(&mut p, white.0, white.1);
                play(&mut p, black.0, black.1);
            }
            assert!(king_moves(&p) > 0, "{variant}");
        }
    }

    #[test]
    fn a_move_as_written_names_a_legal_move() {
        let resolve = |variant: Variant, fen: &str, text: &str| {
            let p = VariantPosition::from_setup(&fen.parse().unwrap(), variant).unwrap();
            match p.resolve(&text.parse().unwrap()) {
                VariantResolution::Unique(m) => {
                    let route: Vec<String> = m.route().iter().map(|&i| p.square_text(i)).collect();
                    Ok(vec![route.join("x")])
                }
                VariantResolution::Ambiguous(list) => Ok(list
                    .iter()
                    .map(|m| {
                        let route: Vec<String> =
                            m.route().iter().map(|&i| p.square_text(i)).collect();
                        route.join("x")
                    })
                    .collect()),
                VariantResolution::Illegal(why) => Err(why),
            }
        };
        let start = "W:W31-50:B1-20";
        assert_eq!(
            resolve(Variant::International, start, "32-28"),
            Ok(vec!["32x28".into()])
        );
        // the separator is not read; a square of the board with no move is illegal
        assert_eq!(
            resolve(Variant::International, start, "32x28"),
            Ok(vec!["32x28".into()])
        );
        assert_eq!(
            resolve(Variant::International, start, "32-22"),
            Err(VariantIllegal::NoSuchMove)
        );
        assert_eq!(
            resolve(Variant::International, start, "32-51"),
            Err(VariantIllegal::OffBoard(FenSquare::Numeric(51)))
        );
        assert_eq!(
            resolve(Variant::International, start, "a1-b1"),
            Err(VariantIllegal::LightSquare(FenSquare::Algebraic {
                file: 1,
                rank: 0
            }))
        );
        // two captures from 3 to 26 of three men each: ambiguous, unless a landing says
        let fen = "B:W6,13,14,18,21,22,25,30,31:B1,2,3,4,7,9";
        assert_eq!(
            resolve(Variant::Italian, fen, "3x26").map(|l| l.len()),
            Ok(2)
        );
        assert_eq!(
            resolve(Variant::Italian, fen, "3x19x26"),
            Ok(vec!["3x10x19x26".into()])
        );
        assert_eq!(
            resolve(Variant::Italian, fen, "3x10x17x26"),
            Ok(vec!["3x10x17x26".into()])
        );
        // Italian's first move named by the players' files: b3 (21) to a4 (17)
        assert_eq!(
            resolve(Variant::Italian, "W:W21-32:B1-12", "b3-a4"),
            Ok(vec!["21x17".into()])
        );
    }

    #[test]
    fn turkish_kings_capture_along_lines_and_never_turn_back() {
        // the pieces leave at once: back down the d-file after d6, the king would pass
        // its start and find d2; a Turkish king may not turn back, so one piece each way
        assert_eq!(
            moves(Variant::Turkish, "W:WKd4:Bd6,d2"),
            ["d4xd1", "d4xd7", "d4xd8"]
        );
        // a man captures forward and sideways, not backwards
        assert_eq!(
            moves(Variant::Turkish, "W:Wd4:Bd3,c4,d5"),
            ["d4xb4", "d4xd6"]
        );
    }

    #[test]
    fn thai_kings_land_next_and_english_kings_step() {
        // (Thai numbers from White's side, as English from Black's: 29 there is 4 here)
        assert_eq!(moves(Variant::Thai, "W:WK4:B11,32"), ["4x15"]);
        let fen = "W:WK29:B22,1";
        assert_eq!(moves(Variant::Pool, fen).len(), 5);
        assert_eq!(moves(Variant::English, fen), ["29-25"]);
    }

    #[test]
    fn a_man_passing_the_far_rank_is_crowned_in_russian_not_in_pool() {
        // d6 (10) takes e7, reaches f8 and takes g7 backwards, ending on h6
        let fen = "W:W10:B7,8";
        for (variant, crowned) in [(Variant::Russian, true), (Variant::Pool, false)] {
            let p = VariantPosition::from_setup(&fen.parse().unwrap(), variant).unwrap();
            let list = p.legal_moves();
            assert_eq!(moves(variant, fen), ["10x3x12"]);
            assert_eq!(list[0].promotes(), crowned, "{variant}");
        }
        // English: crowned on f8, the move ends there
        assert_eq!(moves(Variant::English, fen), ["10x3"]);
    }
}
