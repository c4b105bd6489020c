//! The 32 playable squares of the 8×8 board.

use std::fmt;

/// One of the 32 dark squares, stored as an internal index `0..32`.
///
/// The index runs from White's side: `a1 = 0, c1 = 1, e1 = 2, g1 = 3, b2 = 4, …, h8 = 31`,
/// that is `index = 4 * rank + file / 2` with 0-based rank and file. This is *not* the
/// PDN numbering (where `1 = b8` and `32 = g1`); use [`Square::from_numeric`] and
/// [`Square::numeric`] to convert. The index order was chosen so that a move towards
/// Black's side is a left shift of a [`Bitboard`](super::Bitboard), see there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of playable squares.
    pub const COUNT: usize = 32;

    /// The square with internal index `index`, if `index < 32`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 32 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with internal index `index`; the caller guarantees `index < 32`.
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 32);
        Square(index)
    }

    /// Internal index `0..32` (a1 = 0, h8 = 31).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square with PDN number `n` (GameType 25: `1 = b8`, `32 = g1`), if `1 <= n <= 32`.
    pub const fn from_numeric(n: u32) -> Option<Square> {
        if n < 1 || n > 32 {
            return None;
        }
        let row_from_top = (n - 1) / 4;
        let within = (n - 1) % 4;
        Some(Square(((7 - row_from_top) * 4 + within) as u8))
    }

    /// The PDN number of this square (`1 = b8` … `32 = g1`).
    pub const fn numeric(self) -> u32 {
        let rank = self.0 as u32 / 4;
        (7 - rank) * 4 + self.0 as u32 % 4 + 1
    }

    /// The dark square on `file` (0 = a) and `rank` (0 = rank 1), if it is on the board and dark.
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 8 || rank >= 8 || (file + rank) % 2 != 0 {
            return None;
        }
        Some(Square(rank * 4 + file / 2))
    }

    /// Parses `c3` or `C3`. Light squares and squares off the board give `None`.
    #[cfg(test)]
    pub(crate) fn from_algebraic(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Square::from_file_rank(file, rank)
    }

    /// File, 0 = a … 7 = h.
    #[inline]
    pub const fn file(self) -> u8 {
        let rank = self.0 / 4;
        (self.0 % 4) * 2 + rank % 2
    }

    /// Rank, 0 = rank 1 … 7 = rank 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// All 32 squares in index order (a1, c1, …, h8).
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..32u8).map(Square)
    }
}

impl Square {
    /// Appends the algebraic name (`c3`) to `out`, without the formatting machinery
    /// (move text writes one per square): the name from [`Self::algebraic_name`]'s table in
    /// one append costs less than a `push` per character.
    pub(crate) fn push_algebraic(self, out: &mut String) {
        out.push_str(self.algebraic_name());
    }

    /// The algebraic name (`c3`) as a string that needs no making: the JSON of every ply
    /// names several squares, and checking two bytes to be UTF-8 cost more than writing
    /// them.
    #[inline]
    pub(crate) const fn algebraic_name(self) -> &'static str {
        const NAMES: [&str; 32] = [
            "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3", "b4", "d4",
            "f4", "h4", "a5", "c5", "e5", "g5", "b6", "d6", "f6", "h6", "a7", "c7", "e7", "g7",
            "b8", "d8", "f8", "h8",
        ];
        NAMES[self.0 as usize % 32]
    }

    /// Appends the number (`1`..`32`) to `out`.
    pub(crate) fn push_numeric(self, out: &mut String) {
        let n = self.numeric() as u8;
        if n >= 10 {
            out.push(char::from(b'0' + n / 10));
        }
        out.push(char::from(b'0' + n % 10));
    }
}

impl fmt::Display for Square {
    /// Algebraic, lower case: `c3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_squares_name_is_its_display() {
        for sq in Square::all() {
            assert_eq!(sq.algebraic_name(), sq.to_string());
        }
    }

    #[test]
    fn numeric_matches_rules_md_table() {
        let table = [
            (1, "b8"),
            (2, "d8"),
            (4, "h8"),
            (5, "a7"),
            (9, "b6"),
            (13, "a5"),
            (18, "d4"),
            (21, "a3"),
            (22, "c3"),
            (25, "b2"),
            (29, "a1"),
            (32, "g1"),
        ];
        for (n, alg) in table {
            let sq = Square::from_numeric(n).unwrap();
            assert_eq!(sq.to_string(), alg);
            assert_eq!(sq.numeric(), n);
            assert_eq!(Square::from_algebraic(alg), Some(sq));
        }
        assert_eq!(Square::from_numeric(0), None);
        assert_eq!(Square::from_numeric(33), None);
    }

    #[test]
    fn pushed_names_are_the_display_and_the_number() {
        for sq in Square::all() {
            let (mut a, mut n) = (String::new(), String::new());
            sq.push_algebraic(&mut a);
            sq.push_numeric(&mut n);
            assert_eq!((a, n), (sq.to_string(), sq.numeric().to_string()));
        }
    }

    #[test]
    fn round_trips_and_light_squares() {
        for sq in Square::all() {
            assert_eq!(Square::from_numeric(sq.numeric()), Some(sq));
            assert_eq!(Square::from_file_rank(sq.file(), sq.rank()), Some(sq));
        }
        assert_eq!(Square::from_algebraic("a2"), None);
        assert_eq!(Square::from_algebraic("C3"), Square::from_algebraic("c3"));
        assert_eq!(Square::from_algebraic("i1"), None);
        assert_eq!(Square::from_algebraic("a9"), None);
        assert_eq!(Square::from_algebraic("a"), None);
        assert_eq!(Square::from_algebraic("é1"), None);
    }
}
