//! The boards of draughts variants: which squares exist, how PDN numbers them, and each
//! square's neighbour in each direction.
//!
//! Squares are counted from the top of the board (Black's side, the far side of the player
//! who starts at the bottom), each row from left to right: on a board of dark squares
//! numbered from the top left, as most variants are, the `p`-th square so counted (from 0)
//! is the square PDN numbers `p + 1`; a board numbered from another [`Corner`] (Spanish,
//! Portuguese and Thai from the bottom right) counts from there along the rows. The top
//! row's first dark square is on the b-file, so the bottom-left corner a1 is dark, as on
//! the Russian and International boards. Boards whose bottom-left corner is light
//! (Italian, Spanish, Portuguese) are these boards seen in a mirror: their files, and so
//! their numbering along each row, run the other way round ([`Geometry::number`]).
//!
//! A square's *index*, its bit in a set, leaves one index unused after every two rows of a
//! board of dark squares. A diagonal step then moves the index by the same amount from
//! every square, wherever the row starts, and off the side of the board it lands on the
//! unused index: a whole set steps with one shift ([`Geometry::shift`]).
//!
//! ```text
//!   International (10×10)      PDN numbers          indices
//!   rank 10 |  .  1  .  2  .  3  .  4  .  5        0 .. 4
//!   rank  9 |  6  .  7  .  8  .  9  . 10  .        5 .. 9    (10 unused)
//!   rank  8 |  . 11  . 12  . 13  . 14  . 15       11 .. 15
//!    …
//!   rank  1 | 46  . 47  . 48  . 49  . 50  .       49 .. 53
//!             a  b  c  d  e  f  g  h  i  j
//! ```
//!
//! From 28 (index 29) one step up-right is 23 (index 24), up-left 22 (index 23): minus 5
//! and minus 6, as from any square.

/// The board a variant is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// The 32 dark squares of 8×8.
    Dark8,
    /// The 50 dark squares of 10×10.
    Dark10,
    /// The 72 dark squares of 12×12.
    Dark12,
    /// All 64 squares of 8×8 (Turkish draughts).
    Full8,
}

/// One more than the highest index of any board (12×12: 72 squares and 5 unused indices).
pub(crate) const MAX_INDEX: usize = 77;
/// The corner of the board where its square 1 is, as White sees the board (White at the
/// bottom): PDN numbers the squares along the rows from there, row after row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Corner {
    BottomLeft,
    BottomRight,
    TopLeft,
    TopRight,
}

impl Corner {
    /// The corner a GameType notation digit names (`0` bottom left, `1` bottom right, `2`
    /// top left, `3` top right), which PDN gives as the first player sees the board.
    pub(crate) const fn of_digit(digit: u8, first_player: crate::Color) -> Option<Corner> {
        let corner = match digit {
            0 => Corner::BottomLeft,
            1 => Corner::BottomRight,
            2 => Corner::TopLeft,
            3 => Corner::TopRight,
            _ => return None,
        };
        Some(match first_player {
            crate::Color::White => corner,
            crate::Color::Black => corner.turned(),
        })
    }

    /// The corner seen from the other side of the board.
    pub(crate) const fn turned(self) -> Corner {
        match self {
            Corner::BottomLeft => Corner::TopRight,
            Corner::BottomRight => Corner::TopLeft,
            Corner::TopLeft => Corner::BottomRight,
            Corner::TopRight => Corner::BottomLeft,
        }
    }

    /// The GameType notation digit of the corner, as `first_player` sees the board.
    pub(crate) const fn digit(self, first_player: crate::Color) -> u8 {
        let seen = match first_player {
            crate::Color::White => self,
            crate::Color::Black => self.turned(),
        };
        match seen {
            Corner::BottomLeft => 0,
            Corner::BottomRight => 1,
            Corner::TopLeft => 2,
            Corner::TopRight => 3,
        }
    }
}

/// No square: off the board in [`Geometry::step`].
pub(crate) const NONE: u8 = u8::MAX;

/// The eight directions, seen from the bottom of the board. On a board of dark squares an
/// orthogonal step goes two files or two ranks (to the next dark square on that line: the
/// Frisian orthogonal capture); on the full board, one.
pub(crate) mod dir {
    pub(crate) const NW: u8 = 0;
    pub(crate) const NE: u8 = 1;
    pub(crate) const SW: u8 = 2;
    pub(crate) const SE: u8 = 3;
    pub(crate) const N: u8 = 4;
    pub(crate) const S: u8 = 5;
    pub(crate) const W: u8 = 6;
    pub(crate) const E: u8 = 7;

    /// The four diagonals.
    pub(crate) const DIAGONAL: &[u8] = &[NW, NE, SW, SE];
    /// The four orthogonals.
    pub(crate) const ORTHOGONAL: &[u8] = &[N, S, W, E];
    /// All eight.
    pub(crate) const ALL: &[u8] = &[NW, NE, SW, SE, N, S, W, E];

    /// The reverse direction.
    pub(crate) const fn opposite(d: u8) -> u8 {
        match d {
            NW => SE,
            NE => SW,
            SW => NE,
            SE => NW,
            N => S,
            S => N,
            W => E,
            _ => W,
        }
    }

    /// The direction seen from the top of the board: a rule written for the side at the
    /// bottom ("forward" is north) applies to the side at the top through this mirror.
    pub(crate) const fn from_top(d: u8) -> u8 {
        match d {
            NW => SW,
            NE => SE,
            SW => NW,
            SE => NE,
            N => S,
            S => N,
            other => other,
        }
    }

    /// (file, rank) change of one step on a board of dark squares, or of all squares.
    pub(crate) const fn delta(d: u8, dark_only: bool) -> (i8, i8) {
        let o = if dark_only { 2 } else { 1 };
        match d {
            NW => (-1, 1),
            NE => (1, 1),
            SW => (-1, -1),
            SE => (1, -1),
            N => (0, o),
            S => (0, -o),
            W => (-o, 0),
            _ => (o, 0),
        }
    }
}

/// The squares of one [`Board`] and how they connect.
pub(crate) struct Geometry {
    /// Files (and ranks): 8, 10 or 12.
    pub(crate) side: u8,
    /// Number of squares.
    pub(crate) squares: u8,
    /// Only the dark squares are squares.
    pub(crate) dark_only: bool,
    /// `step[d][i]`: the neighbour of square `i` in direction `d`, or [`NONE`].
    pub(crate) step: [[u8; MAX_INDEX]; 8],
    /// The squares of the top rank (where the bottom side's men are crowned).
    pub(crate) top: u128,
    /// The squares of the bottom rank.
    pub(crate) bottom: u128,
    /// Every square.
    every: u128,
    /// The long diagonal, from the bottom-left corner to the top-right one (a1–h8 on 8×8:
    /// Russian's main road).
    pub(crate) long_diagonal: u128,
    /// `has[d]`: the squares with a neighbour in direction `d`.
    has: [u128; 8],
    /// How far the index moves one step in direction `d`: up (`left[d]`) or down
    /// (`right[d]`), the other 0. The same from every square (see the module's words).
    left: [u8; 8],
    right: [u8; 8],
    /// Every index is below 64.
    narrow: bool,
}

impl Geometry {
    /// The geometry of `board`.
    pub(crate) const fn of(board: Board) -> &'static Geometry {
        match board {
            Board::Dark8 => &DARK8,
            Board::Dark10 => &DARK10,
            Board::Dark12 => &DARK12,
            Board::Full8 => &FULL8,
        }
    }

    /// Every square of `set` moved one step in direction `d`; those with no neighbour
    /// there are dropped. (Whole-board tests: whether some man can capture, how many
    /// quiet moves the men have.)
    #[inline(always)]
    pub(crate) fn shift(&self, set: u128, d: u8) -> u128 {
        let d = usize::from(d);
        let (left, right) = (self.left[d], self.right[d]);
        if self.narrow {
            // (one word's shifts where the board fits in one: all but 12×12)
            ((set as u64 & self.has[d] as u64) << left >> right).into()
        } else {
            (set & self.has[d]) << left >> right
        }
    }

    /// Squares per row.
    const fn per_row(&self) -> u8 {
        if self.dark_only {
            self.side / 2
        } else {
            self.side
        }
    }

    /// Indices per two rows: their squares, and on a board of dark squares one unused.
    const fn per_two_rows(&self) -> u8 {
        2 * self.per_row() + self.dark_only as u8
    }

    /// The index of the `p`-th square from the top left (0-based).
    pub(crate) const fn index(&self, p: u8) -> u8 {
        let two = 2 * self.per_row();
        p / two * self.per_two_rows() + p % two
    }

    /// Which square from the top left (0-based) index `i` is: [`index`](Self::index)'s
    /// inverse, `None` for an unused index.
    const fn place(&self, i: u8) -> Option<u8> {
        let (pair, k) = (i / self.per_two_rows(), i % self.per_two_rows());
        let two = 2 * self.per_row();
        if k >= two || pair * two + k >= self.squares {
            return None;
        }
        Some(pair * two + k)
    }

    /// File and rank (0-based, from the bottom left) of square `i`.
    pub(crate) const fn file_rank(&self, i: u8) -> (u8, u8) {
        let p = match self.place(i) {
            Some(p) => p,
            None => panic!("not a square's index"),
        };
        let per_row = self.per_row();
        let rank = self.side - 1 - p / per_row;
        let k = p % per_row;
        if self.dark_only {
            (2 * k + rank % 2, rank)
        } else {
            (k, rank)
        }
    }

    /// The square on `file` and `rank`, if it is one of the board's.
    pub(crate) const fn square_at(&self, file: u8, rank: u8) -> Option<u8> {
        if file >= self.side || rank >= self.side {
            return None;
        }
        if self.dark_only && (file + rank) % 2 != 0 {
            return None;
        }
        let k = if self.dark_only { file / 2 } else { file };
        Some(self.index((self.side - 1 - rank) * self.per_row() + k))
    }

    /// The PDN number of square `i` on a board numbered from `first` (as White sees the
    /// board; `mirrored`: a board whose bottom-left corner is light, its files the other
    /// way round).
    pub(crate) const fn number(&self, i: u8, mirrored: bool, first: Corner) -> u32 {
        let p = match self.place(i) {
            Some(p) => p,
            None => panic!("not a square's index"),
        };
        self.counted_from(self.mirror(p, mirrored), first) as u32 + 1
    }

    /// The square PDN numbers `n` ([`number`](Self::number)'s inverse).
    pub(crate) const fn square_numbered(
        &self,
        n: u32,
        mirrored: bool,
        first: Corner,
    ) -> Option<u8> {
        if n < 1 || n > self.squares as u32 {
            return None;
        }
        // (each of the turns is its own inverse)
        let p = self.counted_from((n - 1) as u8, first);
        Some(self.index(self.mirror(p, mirrored)))
    }

    /// Place `q`, counted from the top left as the players see the board, counted from
    /// `first` instead, along the rows (its own inverse).
    const fn counted_from(&self, q: u8, first: Corner) -> u8 {
        let last = self.squares - 1;
        match first {
            Corner::TopLeft => q,
            Corner::TopRight => self.mirror(q, true),
            Corner::BottomRight => last - q,
            Corner::BottomLeft => last - self.mirror(q, true),
        }
    }

    /// Place `p` with its row counted from the other end when `mirrored` (its own
    /// inverse).
    const fn mirror(&self, p: u8, mirrored: bool) -> u8 {
        let per_row = self.per_row();
        if mirrored {
            p / per_row * per_row + per_row - 1 - p % per_row
        } else {
            p
        }
    }

    /// Every square of the board, as a set.
    pub(crate) const fn all(&self) -> u128 {
        self.every
    }

    /// The squares of ranks `from..from + count` (from the bottom).
    pub(crate) const fn ranks(&self, from: u8, count: u8) -> u128 {
        let (per_row, mut set) = (self.per_row(), 0u128);
        let mut rank = from;
        while rank < from + count && rank < self.side {
            let first = self.index((self.side - 1 - rank) * per_row);
            set |= ((1 << per_row) - 1) << first;
            rank += 1;
        }
        set
    }

    /// Every square's index, in the order of their PDN numbers (unmirrored).
    #[cfg(test)]
    pub(crate) fn indices(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.squares).map(|p| self.index(p))
    }
}

/// Builds the geometry of a `side`×`side` board.
const fn geometry(side: u8, dark_only: bool) -> Geometry {
    let squares = if dark_only {
        side * side / 2
    } else {
        side * side
    };
    let mut g = Geometry {
        side,
        squares,
        dark_only,
        step: [[NONE; MAX_INDEX]; 8],
        top: 0,
        bottom: 0,
        every: 0,
        long_diagonal: 0,
        has: [0; 8],
        left: [0; 8],
        right: [0; 8],
        narrow: false,
    };
    let mut p = 0;
    while p < squares {
        let i = g.index(p);
        g.every |= 1 << i;
        let (file, rank) = g.file_rank(i);
        if file == rank {
            g.long_diagonal |= 1 << i;
        }
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dir::delta(d, dark_only);
            let (f, r) = (file as i8 + df, rank as i8 + dr);
            if f >= 0 && r >= 0 {
                if let Some(n) = g.square_at(f as u8, r as u8) {
                    g.step[d as usize][i as usize] = n;
                    g.has[d as usize] |= 1 << i;
                    let (left, right) = if n > i { (n - i, 0) } else { (0, i - n) };
                    // (the layout's point: every square steps by the same amount)
                    let (l, r) = (g.left[d as usize], g.right[d as usize]);
                    assert!(l + r == 0 || (l == left && r == right));
                    g.left[d as usize] = left;
                    g.right[d as usize] = right;
                }
            }
            d += 1;
        }
        p += 1;
    }
    g.narrow = g.every >> 64 == 0;
    g.top = g.ranks(side - 1, 1);
    g.bottom = g.ranks(0, 1);
    g
}

static DARK8: Geometry = geometry(8, true);
static DARK10: Geometry = geometry(10, true);
static DARK12: Geometry = geometry(12, true);
static FULL8: Geometry = geometry(8, false);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_the_international_board() {
        let g = Geometry::of(Board::Dark10);
        let sq = |n| g.square_numbered(n, false, Corner::TopLeft).unwrap();
        // 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1
        assert_eq!(g.file_rank(sq(1)), (1, 9));
        assert_eq!(g.file_rank(sq(5)), (9, 9));
        assert_eq!(g.file_rank(sq(6)), (0, 8));
        assert_eq!(g.file_rank(sq(46)), (0, 0));
        assert_eq!(g.file_rank(sq(50)), (8, 0));
        // one index unused after every two rows
        assert_eq!((sq(10), sq(11), sq(50)), (9, 11, 53));
        // 32-28 and 32-27 are White's steps; 46 has one
        assert_eq!(g.step[dir::NE as usize][usize::from(sq(32))], sq(28));
        assert_eq!(g.step[dir::NW as usize][usize::from(sq(32))], sq(27));
        assert_eq!(g.step[dir::NW as usize][usize::from(sq(46))], NONE);
        // a Frisian orthogonal step: 28 to 38 straight down, 28 to 29 sideways
        assert_eq!(g.step[dir::S as usize][usize::from(sq(28))], sq(38));
        assert_eq!(g.step[dir::E as usize][usize::from(sq(28))], sq(29));
        assert_eq!(g.step[dir::W as usize][usize::from(sq(26))], NONE);
    }

    #[test]
    fn every_square_round_trips() {
        for board in [Board::Dark8, Board::Dark10, Board::Dark12, Board::Full8] {
            let g = Geometry::of(board);
            for i in g.indices() {
                let (f, r) = g.file_rank(i);
                assert_eq!(g.square_at(f, r), Some(i));
                for (mirrored, first) in [false, true].into_iter().flat_map(|m| {
                    use Corner::*;
                    [BottomLeft, BottomRight, TopLeft, TopRight].map(|c| (m, c))
                }) {
                    let n = g.number(i, mirrored, first);
                    assert_eq!(g.square_numbered(n, mirrored, first), Some(i));
                }
                for d in 0..8u8 {
                    let n = g.step[d as usize][i as usize];
                    if n != NONE {
                        assert_eq!(g.step[dir::opposite(d) as usize][n as usize], i);
                    }
                }
            }
        }
    }

    #[test]
    fn a_shift_is_a_step_of_every_square() {
        let mut rng = pdnkit_gen::SplitMix64::new(7);
        for board in [Board::Dark8, Board::Dark10, Board::Dark12, Board::Full8] {
            let g = Geometry::of(board);
            for k in 0..500 {
                let set = if k < g.squares as usize {
                    1u128 << g.index(k as u8)
                } else {
                    (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) & g.all()
                };
                for d in 0..8u8 {
                    let mut want = 0u128;
                    for i in g.indices() {
                        let n = g.step[usize::from(d)][usize::from(i)];
                        if set & 1 << i != 0 && n != NONE {
                            want |= 1 << n;
                        }
                    }
                    assert_eq!(g.shift(set, d), want, "{board:?} {set:#x} {d}");
                }
            }
        }
    }

    #[test]
    fn the_mirrored_numbering_of_italian_boards() {
        // Italian: 1 is the top row's left square, a dark corner on that board; seen in
        // the mirror of the Russian board it is h8's index, index 3
        let g = Geometry::of(Board::Dark8);
        let italian = |n| g.square_numbered(n, true, Corner::TopLeft).unwrap();
        assert_eq!((italian(1), italian(5), italian(9)), (3, 7, 12));
        assert_eq!(g.number(0, true, Corner::TopLeft), 4);
        assert_eq!(g.file_rank(italian(32)), (0, 0));
        // Spanish: 1 is the bottom row's right square, h1 as the players see it (a1 of
        // the mirror, index 31), and the numbers run right to left, upwards (5 is g2,
        // b2 of the mirror)
        let spanish = |n| g.square_numbered(n, true, Corner::BottomRight).unwrap();
        assert_eq!(g.file_rank(spanish(1)), (0, 0));
        assert_eq!(g.file_rank(spanish(2)), (2, 0));
        assert_eq!(g.file_rank(spanish(5)), (1, 1));
        assert_eq!(g.file_rank(spanish(32)), (7, 7));
    }
}
