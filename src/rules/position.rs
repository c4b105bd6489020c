//! A legal board position: pieces and side to move.

use std::fmt;

use super::{Bitboard, Square, Variant};
use crate::Color;
use crate::rules::fen::{FenSquare, Setup};

/// A piece: a man or a king of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// A king (дамка) rather than a man.
    pub king: bool,
}

/// How [`Position::to_fen`] writes squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FenStyle {
    /// `W:W21,22,K30:B1,2`, squares in number order (what Russian PDN files use).
    #[default]
    Numeric,
    /// `W:Wa1,c1,Kh8:Bb8`, squares from a1 rank by rank (the style of pydraughts).
    Algebraic,
}

/// Why a [`Setup`] is not a position. The position builder checks, in this order: side to
/// move, each square, duplicates, men on their promotion rank, piece counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// `?` as the side to move: a position needs to know who moves. Set
    /// [`Setup::turn`] before converting if the caller can decide (e.g. from the first move).
    #[error("the side to move is unknown ('?')")]
    UnknownTurn,
    /// A number outside 1–32 or a letter/rank outside a–h/1–8.
    #[error("square {0} is not on the 8×8 board")]
    OffBoard(FenSquare),
    /// `a2`: a light square, where no piece can stand.
    #[error("square {0} is a light square")]
    LightSquare(FenSquare),
    /// The same square holds two pieces.
    #[error("square {0} is listed twice")]
    DuplicateSquare(Square),
    /// A man on the rank where it would already have been crowned: White on rank 8 or
    /// Black on rank 1.
    #[error("{0} man on {1}, its promotion rank (it would be a king)")]
    ManOnPromotionRank(Color, Square),
    /// More pieces than a side starts with.
    #[error("{0} has {1} pieces, more than the 12 a side starts with")]
    TooManyPieces(Color, usize),
}

/// A position of Russian draughts that passed validation: at most 12 pieces a side, no two
/// pieces on one square, no man on its promotion rank, a known side to move.
///
/// A side to move with no pieces (or no legal move) is a valid position: that side has lost
/// (1.8.1). A board with no pieces at all is accepted for the same reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) men: [Bitboard; 2],
    pub(crate) kings: [Bitboard; 2],
    pub(crate) turn: Color,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start position: White men on 21–32 (ranks 1–3), Black men on 1–12, White to move.
    pub const fn start() -> Position {
        Position {
            men: [Bitboard(0x0000_0FFF), Bitboard(0xFFF0_0000)],
            kings: [Bitboard::EMPTY, Bitboard::EMPTY],
            turn: Color::White,
        }
    }

    /// Validates an unchecked setup (see [`SetupError`] for what is rejected).
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let turn = setup.turn.ok_or(SetupError::UnknownTurn)?;
        let mut pos = Position {
            men: [Bitboard::EMPTY; 2],
            kings: [Bitboard::EMPTY; 2],
            turn,
        };
        for piece in &setup.pieces {
            let sq = board_square(piece.square)?;
            if pos.occupied().contains(sq) {
                return Err(SetupError::DuplicateSquare(sq));
            }
            if !piece.king && Position::promotion_rank(piece.color).contains(sq) {
                return Err(SetupError::ManOnPromotionRank(piece.color, sq));
            }
            let set = if piece.king {
                &mut pos.kings
            } else {
                &mut pos.men
            };
            set[piece.color.index()].insert(sq);
        }
        for color in [Color::White, Color::Black] {
            let n = pos.pieces(color).count() as usize;
            if n > Variant::Russian.pieces_per_side() {
                return Err(SetupError::TooManyPieces(color, n));
            }
        }
        Ok(pos)
    }

    /// The rank where `color`'s men are crowned.
    #[inline]
    pub const fn promotion_rank(color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::RANK_8,
            Color::Black => Bitboard::RANK_1,
        }
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The variant whose rules this position follows: Russian, always (the other
    /// variants' positions are [`super::VariantPosition`]s).
    #[inline]
    pub fn variant(&self) -> Variant {
        Variant::Russian
    }

    /// `color`'s men.
    #[inline]
    pub fn men(&self, color: Color) -> Bitboard {
        self.men[color.index()]
    }

    /// `color`'s kings.
    #[inline]
    pub fn kings(&self, color: Color) -> Bitboard {
        self.kings[color.index()]
    }

    /// All of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.men[color.index()] | self.kings[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces(Color::White) | self.pieces(Color::Black)
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// Number of `color`'s pieces.
    pub fn count(&self, color: Color) -> u32 {
        self.pieces(color).count()
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        for color in [Color::White, Color::Black] {
            if self.men(color).contains(sq) {
                return Some(Piece { color, king: false });
            }
            if self.kings(color).contains(sq) {
                return Some(Piece { color, king: true });
            }
        }
        None
    }

    /// FEN text of this position: side to move, then White's list, then Black's.
    ///
    /// ```
    /// use pdnkit::rules::{FenStyle, Position};
    /// assert_eq!(Position::start().to_fen(FenStyle::Numeric), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    /// ```
    pub fn to_fen(&self, style: FenStyle) -> String {
        let mut out = Vec::with_capacity(FEN_BYTES);
        self.push_fen(style, &mut out);
        // (ASCII, always: never the empty default)
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends [`to_fen`](Self::to_fen)'s ASCII bytes to `out`. Put together in place a
    /// row at a time, from a table: this runs after every ply of a JSON Lines conversion,
    /// which writes them as they are.
    pub(crate) fn push_fen(&self, style: FenStyle, out: &mut Vec<u8>) {
        let start = out.len();
        // room for the longest FEN and a row's copy past its end, cut to size below
        out.resize(start + FEN_BYTES, 0);
        let buf = &mut out[start..];
        buf[0] = self.turn.letter() as u8;
        let mut n = 1;
        for color in [Color::White, Color::Black] {
            buf[n] = b':';
            n += 2;
            let (pieces, kings) = (self.pieces(color).0, self.kings(color).0);
            // Algebraic FEN lists the pieces in square order (a1, c1, … h8), which is bit
            // order; numeric FEN by number (rank 8 first, each rank from the a-file side),
            // which is bit order with the rows (nibbles) reversed: bit k is then square
            // number k + 1.
            let (mut pieces, mut kings, rows) = match style {
                FenStyle::Algebraic => (pieces, kings, &ALGEBRAIC_ROWS),
                FenStyle::Numeric => (rows_reversed(pieces), rows_reversed(kings), &NUMBER_ROWS),
            };
            // Every piece is written after a comma, from where the colour's letter goes:
            // the first comma, if any, is then overwritten by the letter.
            let letter_at = n - 1;
            n = letter_at;
            for row in &rows.0 {
                // a row's pieces at once (up to four of `,K12`), whichever are kings
                let (text, len) = &row[((pieces & 15) | (kings & 15) << 4) as usize];
                (pieces, kings) = (pieces >> 4, kings >> 4);
                if let Some(slot) = buf.get_mut(n..n + 16) {
                    slot.copy_from_slice(text);
                    n += usize::from(*len);
                }
            }
            buf[letter_at] = color.letter() as u8;
            n = n.max(letter_at + 1);
        }
        out.truncate(start + n);
    }
}

/// The most bytes a FEN of [`Position::push_fen`] can have: 32 pieces of up to four
/// bytes (`K12,`) and five more, and 16 bytes of room past that, so that every row's
/// copy fits whole (an empty row's too, which may come after the last piece).
const FEN_BYTES: usize = 5 + 4 * 32 + 16;

/// For each row (four bits of the board, in a style's order) and each set of pieces on
/// it with each set of kings among them (index: pieces | kings << 4), their names in a
/// FEN list, each after a comma, and how many bytes that is.
struct RowLists([[([u8; 16], u8); 256]; 8]);

/// [`RowLists`] of a style from its square names (by bit).
const fn row_lists(names: &[(u16, u32); 32]) -> RowLists {
    let mut rows = [[([0u8; 16], 0u8); 256]; 8];
    let mut row = 0;
    while row < 8 {
        let mut index = 0;
        while index < 256 {
            let (pieces, kings) = (index & 15, index >> 4);
            let (mut text, mut len) = ([0u8; 16], 0);
            let mut c = 0;
            // (kings not among the pieces: an index never looked up, left empty)
            while c < 4 && kings & !pieces == 0 {
                if pieces >> c & 1 != 0 {
                    let (name, name_len) = names[4 * row + c];
                    text[len] = b',';
                    len += 1;
                    if kings >> c & 1 != 0 {
                        text[len] = b'K';
                        len += 1;
                    }
                    text[len] = name as u8;
                    text[len + 1] = (name >> 8) as u8;
                    len += name_len as usize;
                }
                c += 1;
            }
            rows[row][index] = (text, len as u8);
            index += 1;
        }
        row += 1;
    }
    RowLists(rows)
}

/// [`RowLists`] of [`FenStyle::Numeric`] and [`FenStyle::Algebraic`].
static NUMBER_ROWS: RowLists = row_lists(&NUMBERS);
static ALGEBRAIC_ROWS: RowLists = row_lists(&ALGEBRAIC_NAMES);

/// A square's name in a FEN as little-endian bytes, and how many: by bit for
/// [`FenStyle::Numeric`] (bit `k` is square number `k + 1`, once the rows are reversed).
/// Read only to make [`NUMBER_ROWS`].
const NUMBERS: [(u16, u32); 32] = {
    let mut table = [(0, 0); 32];
    let mut k = 0;
    while k < 32 {
        let number = k as u16 + 1;
        table[k] = if number >= 10 {
            (
                (b'0' as u16 + number / 10) | (b'0' as u16 + number % 10) << 8,
                2,
            )
        } else {
            (b'0' as u16 + number, 1)
        };
        k += 1;
    }
    table
};

/// [`NUMBERS`] for [`FenStyle::Algebraic`]: by square index.
const ALGEBRAIC_NAMES: [(u16, u32); 32] = {
    let mut table = [(0, 0); 32];
    let mut k = 0;
    while k < 32 {
        let square = Square::new_unchecked(k as u8);
        let (file, rank) = (b'a' + square.file(), b'1' + square.rank());
        table[k] = (file as u16 | (rank as u16) << 8, 2);
        k += 1;
    }
    table
};

/// The board's bits with its rows (four bits each) in reverse order, each row's bits in
/// their order: bit `4 * (7 - r) + c` is bit `4 * r + c`.
const fn rows_reversed(bits: u32) -> u32 {
    let pairs = bits.swap_bytes(); // the rows in pairs reversed, each pair's rows swapped
    ((pairs & 0x0F0F_0F0F) << 4) | ((pairs >> 4) & 0x0F0F_0F0F)
}

/// A written square on the 8×8 board, or why it is not one.
pub(crate) fn board_square(sq: FenSquare) -> Result<Square, SetupError> {
    match sq {
        FenSquare::Numeric(n) => Square::from_numeric(n).ok_or(SetupError::OffBoard(sq)),
        FenSquare::Algebraic { file, rank } => {
            if file >= 8 || rank >= 8 {
                Err(SetupError::OffBoard(sq))
            } else {
                Square::from_file_rank(file, rank).ok_or(SetupError::LightSquare(sq))
            }
        }
    }
}

impl fmt::Display for Position {
    /// A board diagram from White's side: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8u8 {
                let c = match Square::from_file_rank(file, rank) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            king: false,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            king: true,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            king: false,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            king: true,
                        }) => 'B',
                    },
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  abcdefgh  {} to move", self.turn)
    }
}

/// A random board for tests: each square empty, a man or a king of either colour (men
/// never on their promotion rank), crowded enough that most boards have captures.
#[cfg(test)]
pub(crate) fn random_crowded(rng: &mut pdnkit_gen::SplitMix64, turn: Color) -> Position {
    random_board(rng, turn, 16, 6, 2)
}

/// A random board for tests: each square holds a man with odds `men` in `out_of` (never on
/// its promotion rank), else a king with odds `kings` in `out_of`, of either colour.
#[cfg(test)]
pub(crate) fn random_board(
    rng: &mut pdnkit_gen::SplitMix64,
    turn: Color,
    out_of: u64,
    men: u64,
    kings: u64,
) -> Position {
    let mut p = Position {
        men: [Bitboard::EMPTY; 2],
        kings: [Bitboard::EMPTY; 2],
        turn,
    };
    for sq in Square::all() {
        let roll = rng.next_u64() % out_of;
        let color = [Color::White, Color::Black][(roll % 2) as usize];
        if roll < men {
            if !Position::promotion_rank(color).contains(sq) {
                p.men[color.index()].insert(sq);
            }
        } else if roll < men + kings {
            p.kings[color.index()].insert(sq);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_lists_pieces_in_number_or_square_order() {
        // against the plain way: every square in the order each style lists them, on
        // crowded boards and on sparse ones (a side with no piece, rows without kings)
        let mut rng = pdnkit_gen::SplitMix64::new(5);
        for k in 0..4000 {
            let turn = [Color::White, Color::Black][k % 2];
            let p = if k < 2000 {
                random_crowded(&mut rng, turn)
            } else {
                random_board(&mut rng, turn, 24, 2, u64::from(k % 3 == 2))
            };
            for style in [FenStyle::Numeric, FenStyle::Algebraic] {
                let mut want = String::from(p.turn.letter());
                for color in [Color::White, Color::Black] {
                    let mut squares: Vec<Square> = Square::all().collect();
                    if style == FenStyle::Numeric {
                        squares.sort_by_key(|sq| sq.numeric());
                    }
                    let listed: Vec<String> = squares
                        .into_iter()
                        .filter(|&sq| p.pieces(color).contains(sq))
                        .map(|sq| {
                            let king = if p.kings(color).contains(sq) { "K" } else { "" };
                            match style {
                                FenStyle::Numeric => format!("{king}{}", sq.numeric()),
                                FenStyle::Algebraic => format!("{king}{sq}"),
                            }
                        })
                        .collect();
                    want += &format!(":{}{}", color.letter(), listed.join(","));
                }
                assert_eq!(p.to_fen(style), want);
            }
        }
        // the longest list: a king of one side on every square (the buffer's bound)
        let full = Position {
            men: [Bitboard::EMPTY; 2],
            kings: [Bitboard(u32::MAX), Bitboard::EMPTY],
            turn: Color::White,
        };
        let numbers: Vec<String> = (1..=32).map(|n| format!("K{n}")).collect();
        let want = format!("W:W{}:B", numbers.join(","));
        assert_eq!(full.to_fen(FenStyle::Numeric), want);
        let squares: Vec<String> = Square::all().map(|sq| format!("K{sq}")).collect();
        let want = format!("W:W{}:B", squares.join(","));
        assert_eq!(full.to_fen(FenStyle::Algebraic), want);
    }

    fn pos(fen: &str) -> Result<Position, SetupError> {
        Position::from_setup(&fen.parse().unwrap())
    }

    #[test]
    fn start_matches_fen() {
        assert_eq!(pos("W:W21-32:B1-12").unwrap(), Position::start());
        assert_eq!(
            Position::start().to_fen(FenStyle::Algebraic),
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        );
    }

    #[test]
    fn fen_of_random_boards_reads_back_in_order() {
        // both styles: the same position read back, pieces listed in the order the
        // style promises (numbers rising, or squares a1, c1, … h8)
        let mut rng = pdnkit_gen::SplitMix64::new(41);
        for n in 0..2000 {
            let turn = [Color::White, Color::Black][n % 2];
            let p = random_crowded(&mut rng, turn);
            if p.count(Color::White) > 12 || p.count(Color::Black) > 12 {
                continue; // not a position a FEN may set up
            }
            for style in [FenStyle::Numeric, FenStyle::Algebraic] {
                let fen = p.to_fen(style);
                let setup: crate::rules::fen::Setup = fen.parse().unwrap();
                let back = Position::from_setup(&setup).unwrap();
                assert_eq!(back, p, "{fen}");
                for side in fen.split(':').skip(1) {
                    let order: Vec<u32> = side[1..]
                        .split(',')
                        .filter(|t| !t.is_empty())
                        .map(|t| {
                            let sq = t.trim_start_matches('K');
                            match style {
                                FenStyle::Numeric => sq.parse().unwrap(),
                                FenStyle::Algebraic => {
                                    Square::from_algebraic(sq).unwrap().index() as u32
                                }
                            }
                        })
                        .collect();
                    assert!(order.windows(2).all(|w| w[0] < w[1]), "{fen}");
                }
            }
        }
    }

    #[test]
    fn fen_round_trip_with_kings() {
        let p = pos("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        assert_eq!(
            p.to_fen(FenStyle::Numeric),
            "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"
        );
        assert_eq!(pos(&p.to_fen(FenStyle::Algebraic)).unwrap(), p);
        assert_eq!(
            pos("B:WKh2:B").unwrap().to_fen(FenStyle::Algebraic),
            "B:WKh2:B"
        );
        assert_eq!(p.count(Color::White), 6);
        assert_eq!(
            p.piece_at(Square::from_numeric(22).unwrap()),
            Some(Piece {
                color: Color::Black,
                king: true
            })
        );
    }

    #[test]
    fn rejects_impossible_setups() {
        assert_eq!(pos("?:W21:B1"), Err(SetupError::UnknownTurn));
        assert_eq!(
            pos("W:W33:B1"),
            Err(SetupError::OffBoard(FenSquare::Numeric(33)))
        );
        assert_eq!(
            pos("W:W0:B1"),
            Err(SetupError::OffBoard(FenSquare::Numeric(0)))
        );
        assert!(matches!(pos("W:Wa2:B1"), Err(SetupError::LightSquare(_))));
        assert!(matches!(pos("W:Wi1:B1"), Err(SetupError::OffBoard(_))));
        assert!(matches!(
            pos("W:W21,21:B1"),
            Err(SetupError::DuplicateSquare(_))
        ));
        assert!(matches!(
            pos("W:W21:B21"),
            Err(SetupError::DuplicateSquare(_))
        ));
        assert!(matches!(
            pos("W:W1:B5"),
            Err(SetupError::ManOnPromotionRank(Color::White, _))
        ));
        assert!(matches!(
            pos("W:W5:B29"),
            Err(SetupError::ManOnPromotionRank(Color::Black, _))
        ));
        assert!(pos("W:WK1:BK29").is_ok());
        assert_eq!(
            pos("W:W5-17:B1"),
            Err(SetupError::TooManyPieces(Color::White, 13))
        );
    }

    #[test]
    fn side_without_pieces_is_a_position() {
        assert!(pos("W:W:B1").is_ok());
        assert!(pos("B::").is_ok());
    }
}
