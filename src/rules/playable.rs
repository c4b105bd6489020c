//! What a game is replayed on: [`Playable`], a position of some variant with its moves,
//! implemented by Russian's bitboard [`Position`] and by every variant's
//! [`VariantPosition`]. The checker is written once over it, so that a game of any variant
//! is judged by the same code, and Russian's by the same code made for its own position.

use std::fmt;

use super::fen::{FenSquare, Setup};
use super::general::{VariantIllegal, VariantMove, VariantPosition, VariantResolution};
use super::notation::{
    self, CaptureSeparator, CaptureStyle, Illegal, MoveText, ParseMoveError, PlainSquares,
    Resolution, SquareStyle, Style,
};
use super::{CaptureChoice, Dialect, Move, Position, Variant};
use crate::Color;

/// What a written move names in a position ([`Playable::read`]).
#[derive(Clone, Debug)]
pub enum Named<P: Playable> {
    /// One legal move.
    Unique {
        /// The move.
        mv: P::Move,
        /// The separators as written contradict the move (`-` in a capture, `x` or `:` in a
        /// quiet move).
        separator_mismatch: bool,
        /// The move is known to be the only legal one between its first and last squares
        /// (see [`notation::Resolved::named_by_ends`]); `false` says nothing.
        named_by_ends: bool,
    },
    /// Several legal moves fit what is written.
    Ambiguous(Vec<P::Move>),
    /// A square beyond the board: the move cannot be read.
    OffBoard(FenSquare),
    /// A light square: the move cannot be read.
    LightSquare(FenSquare),
    /// The squares are on the board but name no legal move; why, in words.
    Illegal(String),
}

/// A position of Russian draughts or of any variant: what a finding shows of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// A position of Russian draughts.
    Russian(Position),
    /// A position of another variant (boxed: five times the size of a Russian one).
    Other(Box<VariantPosition>),
}

impl AnyPosition {
    /// The side to move.
    pub fn turn(&self) -> Color {
        match self {
            AnyPosition::Russian(p) => p.turn(),
            AnyPosition::Other(p) => p.turn(),
        }
    }

    /// The position in FEN, squares numbered.
    pub fn to_fen(&self) -> String {
        match self {
            AnyPosition::Russian(p) => p.to_fen(super::FenStyle::Numeric),
            AnyPosition::Other(p) => p.to_fen(),
        }
    }

    /// The variant whose rules the position follows.
    pub fn variant(&self) -> Variant {
        match self {
            AnyPosition::Russian(_) => Variant::Russian,
            AnyPosition::Other(p) => p.variant(),
        }
    }
}

/// A position a game can be replayed on: Russian's [`Position`] or any variant's
/// [`VariantPosition`].
pub trait Playable: Copy + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// A legal move.
    type Move: Copy + fmt::Debug + Send + Sync + 'static;

    /// The start position of `variant` (of this type's variants), its games written in
    /// `dialect` (Russian's own position has one).
    fn start_of(variant: Variant, dialect: Dialect) -> Self;
    /// Who moves first in the game.
    fn first_to_move(&self) -> Color;
    /// The variant whose rules the position follows.
    fn variant_of(&self) -> Variant;
    /// The position as a finding shows it.
    fn any(&self) -> AnyPosition;
    /// The side to move.
    fn to_move(&self) -> Color;
    /// How many men and how many kings `color` has.
    fn counts(&self, color: Color) -> (u8, u8);
    /// Plays `mv`, which must be legal.
    fn play(&mut self, mv: &Self::Move);
    /// The position after `mv`, which must be legal.
    fn then(&self, mv: &Self::Move) -> Self {
        let mut p = *self;
        p.play(mv);
        p
    }
    /// Every legal move, each once.
    fn legal(&self) -> Vec<Self::Move>;
    /// Whether the side to move has a legal move.
    fn can_move(&self) -> bool;
    /// Whether a move captures.
    fn captures(mv: &Self::Move) -> bool;
    /// Whether two legal moves of this position are the same move.
    fn same(a: &Self::Move, b: &Self::Move) -> bool;
    /// A move written in `style`.
    fn write(&self, mv: &Self::Move, style: Style) -> String;
    /// A move with its whole route, numbered: how a finding lists candidates.
    fn full(&self, mv: &Self::Move) -> String {
        let style = Style {
            captures: CaptureStyle::Full,
            ..Style::default()
        };
        self.write(mv, style)
    }
    /// The ordinary writing of a legal move, resolved quickly (`squares`: its squares as
    /// the reader read them; `captures`: whether the position has a capture, when known);
    /// `None` sends the move to [`read`](Self::read).
    fn read_plain(
        &self,
        text: &str,
        squares: Option<PlainSquares>,
        captures: Option<bool>,
    ) -> Option<Self::Move>;
    /// What the move written `text` names.
    fn read(&self, text: &str, captures: Option<bool>) -> Result<Named<Self>, ParseMoveError>;
    /// The position a FEN sets up in `variant`, its squares written in `dialect`, and its
    /// full-move number (`F` field); a FEN without side to move (`?`) takes `side`, else
    /// the game's first to move.
    fn set_up(
        fen: &str,
        variant: Variant,
        dialect: Dialect,
        side: Option<Color>,
    ) -> Result<(Self, Option<u32>), String>;
}

/// A FEN text as an unchecked setup, its side to move filled in (`?`: `side`), and its
/// full-move number.
fn setup_of(fen: &str, side: Color) -> Result<(Setup, Option<u32>), String> {
    let mut setup: Setup = fen
        .parse()
        .map_err(|e| format!("invalid FEN \"{fen}\": {e}"))?;
    if setup.turn.is_none() {
        setup.turn = Some(side);
    }
    let fullmove = setup.extra.iter().find_map(|f| {
        f.strip_prefix(['F', 'f'])
            .and_then(|n| n.trim().parse::<u32>().ok())
            .filter(|&n| n > 0)
    });
    Ok((setup, fullmove))
}

impl Playable for Position {
    type Move = Move;

    #[inline(always)]
    fn start_of(_: Variant, _: Dialect) -> Self {
        Position::start()
    }
    #[inline(always)]
    fn first_to_move(&self) -> Color {
        Color::White
    }
    #[inline(always)]
    fn variant_of(&self) -> Variant {
        Variant::Russian
    }
    fn any(&self) -> AnyPosition {
        AnyPosition::Russian(*self)
    }
    #[inline(always)]
    fn to_move(&self) -> Color {
        self.turn()
    }
    #[inline(always)]
    fn counts(&self, color: Color) -> (u8, u8) {
        (
            self.men(color).count() as u8,
            self.kings(color).count() as u8,
        )
    }
    #[inline(always)]
    fn play(&mut self, mv: &Move) {
        self.play_unchecked(mv)
    }
    #[inline(always)]
    fn then(&self, mv: &Move) -> Self {
        self.after(mv)
    }
    fn legal(&self) -> Vec<Move> {
        self.legal_moves().iter().copied().collect()
    }
    fn can_move(&self) -> bool {
        self.has_legal_moves()
    }
    #[inline(always)]
    fn captures(mv: &Move) -> bool {
        mv.is_capture()
    }
    fn same(a: &Move, b: &Move) -> bool {
        a == b
    }
    fn write(&self, mv: &Move, style: Style) -> String {
        notation::format_move(self, mv, style)
    }
    #[inline(always)]
    fn read_plain(
        &self,
        text: &str,
        squares: Option<PlainSquares>,
        captures: Option<bool>,
    ) -> Option<Move> {
        notation::resolve_plain_token(self, text, squares, captures)
    }
    fn read(&self, text: &str, captures: Option<bool>) -> Result<Named<Self>, ParseMoveError> {
        let resolved = notation::resolve_unplain(self, text, captures)?;
        Ok(match resolved.resolution {
            Resolution::Unique {
                mv,
                separator_mismatch,
            } => Named::Unique {
                mv,
                separator_mismatch,
                named_by_ends: resolved.named_by_ends,
            },
            Resolution::Ambiguous(moves) => Named::Ambiguous(moves),
            Resolution::Illegal(Illegal::OffBoard(s)) => Named::OffBoard(s),
            Resolution::Illegal(Illegal::LightSquare(s)) => Named::LightSquare(s),
            Resolution::Illegal(why) => Named::Illegal(describe_illegal(self, &why)),
        })
    }
    fn set_up(
        fen: &str,
        _: Variant,
        _: Dialect,
        side: Option<Color>,
    ) -> Result<(Self, Option<u32>), String> {
        let (setup, fullmove) = setup_of(fen, side.unwrap_or(Color::White))?;
        let pos =
            Position::from_setup(&setup).map_err(|e| format!("impossible FEN \"{fen}\": {e}"))?;
        Ok((pos, fullmove))
    }
}

/// Words for why a move is illegal, with candidate moves in full notation.
fn describe_illegal(pos: &Position, why: &Illegal) -> String {
    let list = |moves: &[Move]| listed(moves.iter().map(|m| pos.full(m)));
    match why {
        Illegal::CaptureMandatory(moves) => {
            format!("a capture is mandatory; available: {}", list(moves))
        }
        Illegal::CaptureNotCompleted(moves) => format!(
            "the capture is not completed; it must go on as {}",
            list(moves)
        ),
        Illegal::NoSuchCapture(moves) => {
            format!("no such capture; this piece can play {}", list(moves))
        }
        other => other.to_string(),
    }
}

/// Moves' names sorted, each once, joined by commas.
fn listed(names: impl Iterator<Item = String>) -> String {
    let mut names: Vec<String> = names.collect();
    names.sort();
    names.dedup();
    names.join(", ")
}

impl Playable for VariantPosition {
    type Move = VariantMove;

    fn start_of(variant: Variant, dialect: Dialect) -> Self {
        VariantPosition::start_in(variant, dialect)
    }
    fn first_to_move(&self) -> Color {
        self.dialect().first()
    }
    fn variant_of(&self) -> Variant {
        self.variant()
    }
    fn any(&self) -> AnyPosition {
        AnyPosition::Other(Box::new(*self))
    }
    fn to_move(&self) -> Color {
        self.turn()
    }
    fn counts(&self, color: Color) -> (u8, u8) {
        VariantPosition::counts(self, color)
    }
    fn play(&mut self, mv: &VariantMove) {
        self.play_unchecked(mv)
    }
    fn legal(&self) -> Vec<VariantMove> {
        self.legal_moves()
    }
    fn can_move(&self) -> bool {
        self.has_legal_moves()
    }
    fn captures(mv: &VariantMove) -> bool {
        mv.is_capture()
    }
    fn same(a: &VariantMove, b: &VariantMove) -> bool {
        a.same(b)
    }
    fn write(&self, mv: &VariantMove, style: Style) -> String {
        let capture = match style.separator {
            CaptureSeparator::Cross => "x",
            CaptureSeparator::Colon => ":",
        };
        let full = style.captures == CaptureStyle::Full;
        // (the legal moves say whether another one shares the move's start and end)
        let moves = if full { Vec::new() } else { self.legal() };
        let algebraic = style.squares == SquareStyle::Algebraic;
        self.written(mv, &moves, full, capture, algebraic)
    }
    fn full(&self, mv: &VariantMove) -> String {
        self.route_text(mv)
    }
    fn read_plain(
        &self,
        text: &str,
        _: Option<PlainSquares>,
        _: Option<bool>,
    ) -> Option<VariantMove> {
        let (from, to, capture) = plain_numbers(text)?;
        self.plain_move(from, to, capture)
    }
    fn read(&self, text: &str, _: Option<bool>) -> Result<Named<Self>, ParseMoveError> {
        let written: MoveText = text.parse()?;
        Ok(match self.resolve(&written) {
            VariantResolution::Unique(mv) => Named::Unique {
                mv,
                separator_mismatch: (written.separators.iter()).any(|s| {
                    *s != notation::Separator::None && s.claims_capture() != mv.is_capture()
                }),
                named_by_ends: false,
            },
            VariantResolution::Ambiguous(moves) => Named::Ambiguous(moves),
            VariantResolution::Illegal(VariantIllegal::OffBoard(s)) => Named::OffBoard(s),
            VariantResolution::Illegal(VariantIllegal::LightSquare(s)) => Named::LightSquare(s),
            VariantResolution::Illegal(VariantIllegal::NoSuchMove) => {
                Named::Illegal(self.why_illegal(&written))
            }
        })
    }
    fn set_up(
        fen: &str,
        variant: Variant,
        dialect: Dialect,
        side: Option<Color>,
    ) -> Result<(Self, Option<u32>), String> {
        let (setup, fullmove) = setup_of(fen, side.unwrap_or(dialect.first()))?;
        let pos = VariantPosition::from_setup_in(&setup, variant, dialect)
            .map_err(|e| format!("impossible FEN \"{fen}\" for {variant}: {e}"))?;
        Ok((pos, fullmove))
    }
}

/// The squares and kind of a move written the plain way by numbers: `32-28` (quiet),
/// `28x19` or `28:19` (a capture), nothing else.
fn plain_numbers(text: &str) -> Option<(u32, u32, bool)> {
    let b = text.as_bytes();
    let split = b.iter().position(|c| !c.is_ascii_digit())?;
    let capture = match b[split] {
        b'-' => false,
        b'x' | b'X' | b':' => true,
        _ => return None,
    };
    let number = |digits: &[u8]| -> Option<u32> {
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    Some((number(&b[..split])?, number(&b[split + 1..])?, capture))
}

impl VariantPosition {
    /// Why the squares of `written` (all on the board) name no legal move, in words.
    fn why_illegal(&self, written: &MoveText) -> String {
        let legal = self.legal_moves();
        let list = |moves: &mut dyn Iterator<Item = &VariantMove>| {
            listed(moves.map(|m| self.route_text(m)))
        };
        if legal.is_empty() {
            return "the side to move has no legal move (the game is over)".into();
        }
        let from = written.squares.first().and_then(|&s| self.index_of(s));
        let Some(from) = from else {
            return "no legal move goes by these squares".into();
        };
        let name = self.square_text(from);
        match self.piece_on(from) {
            None => return format!("no piece on {name}"),
            Some(color) if color != self.turn() => {
                return format!("the piece on {name} belongs to the side not to move");
            }
            Some(_) => {}
        }
        let mut own = legal.iter().filter(|m| m.from() == from).peekable();
        let capture = legal[0].is_capture();
        // (where a rule of precedence chooses among the captures, it is named)
        let rule = match self.variant().capture_choice() {
            CaptureChoice::Free => "",
            CaptureChoice::Most => " (the capture of the most pieces is mandatory)",
            CaptureChoice::MostThenKings => {
                " (the capture of the most pieces, then of the most kings, is mandatory)"
            }
            CaptureChoice::Italian => {
                " (Italian precedence: the most pieces, then by a king, then the most kings, then the king met first)"
            }
            CaptureChoice::KingFirst => " (a king must capture when it can)",
            CaptureChoice::Value => {
                " (the capture of the highest value is mandatory: a man 2, a king 3)"
            }
        };
        match (own.peek().is_some(), capture) {
            (false, true) => format!(
                "a capture is mandatory; available: {}{rule}",
                list(&mut legal.iter())
            ),
            (true, true) => format!(
                "no such capture; this piece can play {}{rule}",
                list(&mut own)
            ),
            (true, false) => format!("no such move; this piece can play {}", list(&mut own)),
            (false, false) => format!("the piece on {name} has no legal move"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_without_side_to_move_has_the_variants_first_player_move() {
        let (english, international) =
            (Variant::English.dialect(), Variant::International.dialect());
        let (pos, _) =
            VariantPosition::set_up("?:W21:B5", Variant::English, english, None).unwrap();
        assert_eq!(pos.turn(), Color::Black);
        let (pos, _) =
            VariantPosition::set_up("?:W46:B5", Variant::International, international, None)
                .unwrap();
        assert_eq!(pos.turn(), Color::White);
        let given = Some(Color::White);
        let (pos, _) =
            VariantPosition::set_up("?:W21:B5", Variant::English, english, given).unwrap();
        assert_eq!(pos.turn(), Color::White);
    }

    #[test]
    fn a_plain_move_is_read_as_in_full() {
        // every move of the positions of a game of each variant numbering its squares,
        // written plainly, is read by the fast path as by the general one
        for variant in Variant::ALL.into_iter().filter(|&v| v != Variant::Turkish) {
            plain_and_full_agree(variant);
        }
    }

    fn plain_and_full_agree(variant: Variant) {
        let mut pos = VariantPosition::start(variant);
        for ply in 0..300 {
            let moves = pos.legal_moves();
            let Some(pick) = moves.get((ply * 7) % moves.len().max(1)) else {
                break;
            };
            for m in &moves {
                let sep = if m.is_capture() { "x" } else { "-" };
                let text = format!(
                    "{}{sep}{}",
                    pos.square_text(m.from()),
                    pos.square_text(m.to())
                );
                let full = match pos.read(&text, None).unwrap() {
                    Named::Unique { mv, .. } => Some(mv),
                    _ => None,
                };
                let plain = pos.read_plain(&text, None, None);
                assert_eq!(plain.is_some(), full.is_some(), "{text} in {pos}");
                if let (Some(a), Some(b)) = (plain, full) {
                    assert!(a.same(&b), "{text} in {pos}");
                }
            }
            pos.play(pick);
        }
    }
}
