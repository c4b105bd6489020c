//! Sets of squares as 32-bit masks, and the four diagonal directions.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// A set of dark squares: bit `i` is the square with internal index `i`.
///
/// ```text
///            bit layout (internal index)        diagonal steps
///   rank 8 |  . 28  . 29  . 30  . 31           from an even row (ranks 1,3,5,7):
///   rank 7 | 24  . 25  . 26  . 27  .             NW +3  NE +4  SW -5  SE -4
///   rank 6 |  . 20  . 21  . 22  . 23           from an odd row (ranks 2,4,6,8):
///   rank 5 | 16  . 17  . 18  . 19  .             NW +4  NE +5  SW -4  SE -3
///   rank 4 |  . 12  . 13  . 14  . 15
///   rank 3 |  8  .  9  . 10  . 11  .           so one shift per row parity, with the
///   rank 2 |  .  4  .  5  .  6  .  7           a-file (bits 0,8,16,24) or h-file
///   rank 1 |  0  .  1  .  2  .  3  .           (bits 7,15,23,31) masked off first.
///           a  b  c  d  e  f  g  h
/// ```
///
/// Moving towards rank 8 is a left shift, so bits pushed off the top simply fall out of
/// the `u32`; no guard row is needed. The price of a dense 32-bit layout is that the shift
/// amount depends on the row parity, hence the two masks in [`Bitboard::shift`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u32);

/// Rows whose dark squares are on files a, c, e, g (ranks 1, 3, 5, 7).
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// Rows whose dark squares are on files b, d, f, h (ranks 2, 4, 6, 8).
const ODD_ROWS: u32 = 0xF0F0_F0F0;
const FILE_A: u32 = 0x0101_0101;
const FILE_H: u32 = 0x8080_8080;
/// Files a and b (a-file squares of even rows, b-file squares of odd rows).
const FILES_AB: u32 = 0x1111_1111;
/// Files g and h.
const FILES_GH: u32 = 0x8888_8888;

/// A diagonal direction, seen from White's side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards rank 8 and the a-file.
    NorthWest = 0,
    /// Towards rank 8 and the h-file.
    NorthEast = 1,
    /// Towards rank 1 and the a-file.
    SouthWest = 2,
    /// Towards rank 1 and the h-file.
    SouthEast = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// The reverse direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::NorthWest => Direction::SouthEast,
            Direction::NorthEast => Direction::SouthWest,
            Direction::SouthWest => Direction::NorthEast,
            Direction::SouthEast => Direction::NorthWest,
        }
    }

    const fn delta(self) -> (i8, i8) {
        match self {
            Direction::NorthWest => (-1, 1),
            Direction::NorthEast => (1, 1),
            Direction::SouthWest => (-1, -1),
            Direction::SouthEast => (1, -1),
        }
    }
}

/// Marker for "off the board" in [`STEP`].
const NONE: u8 = 0xFF;

/// `STEP[dir][sq]`: the neighbour of `sq` in direction `dir`, or [`NONE`]. Table lookups
/// beat the shift-and-mask arithmetic when walking one piece at a time (king rays, capture
/// search); the shifts are for whole-board work.
static STEP: [[u8; 32]; 4] = {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        let (df, dr) = dir.delta();
        let mut i = 0;
        while i < 32 {
            let sq = Square::new_unchecked(i as u8);
            let f = sq.file() as i8 + df;
            let r = sq.rank() as i8 + dr;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[d][i] = (r * 4 + f / 2) as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// `RAY[dir][sq]`: the squares from `sq` (not included) to the edge of the board in
/// direction `dir`. Indices grow towards rank 8, so along a northward ray the nearest
/// square is the lowest bit, along a southward one the highest.
static RAY: [[u32; 32]; 4] = {
    let mut t = [[0u32; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = Direction::ALL[d].delta();
        let mut i = 0;
        while i < 32 {
            let sq = Square::new_unchecked(i as u8);
            let mut f = sq.file() as i8 + df;
            let mut r = sq.rank() as i8 + dr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[d][i] |= 1 << (r * 4 + f / 2);
                f += df;
                r += dr;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// Marker in [`BETWEEN`] for two squares on no common diagonal (no set of squares
/// between two squares is the whole board).
const NOT_ALIGNED: u32 = u32::MAX;

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they are distinct
/// squares of one diagonal, else [`NOT_ALIGNED`]. One lookup answers both whether a
/// king's move is along a diagonal and what it passes (the replayer asks it for every
/// king's quiet move).
static BETWEEN: [[u32; 32]; 32] = {
    // along each ray from `a`, the ray beyond `b` taken off the ray from `a`
    let mut t = [[NOT_ALIGNED; 32]; 32];
    let mut a = 0;
    while a < 32 {
        let mut d = 0;
        while d < 4 {
            let ray = RAY[d][a];
            let mut rest = ray;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                t[a][b] = ray & !RAY[d][b] & !(1 << b);
            }
            d += 1;
        }
        a += 1;
    }
    t
};

impl Square {
    /// The first square of `among` met going from `self` in `dir` (any distance).
    #[inline]
    pub(crate) fn first_in(self, dir: Direction, among: Bitboard) -> Option<Square> {
        let met = RAY[dir as usize][self.index()] & among.0;
        if met == 0 {
            return None;
        }
        let index = match dir {
            Direction::NorthWest | Direction::NorthEast => met.trailing_zeros(),
            Direction::SouthWest | Direction::SouthEast => 31 - met.leading_zeros(),
        };
        Some(Square::new_unchecked(index as u8))
    }

    /// [`first_in`](Self::first_in) as a set of at most one square, without a branch: the
    /// king tests ask it for every king and direction, and which of them meets something
    /// is too irregular for branch prediction (a bit scan per answer is cheaper).
    #[inline(always)]
    pub(crate) fn nearest_in(self, dir: Direction, among: Bitboard) -> Bitboard {
        let met = RAY[dir as usize][self.index()] & among.0;
        Bitboard(match dir {
            // the lowest bit: squares ahead towards rank 8 have higher indices
            Direction::NorthWest | Direction::NorthEast => met & met.wrapping_neg(),
            // the highest bit (none when `met` is empty: a shift by 32 of a u64)
            Direction::SouthWest | Direction::SouthEast => {
                (0x8000_0000_u64 >> met.leading_zeros()) as u32
            }
        })
    }

    /// The squares from `self` (not included) to the edge of the board in `dir`.
    #[inline]
    pub(crate) fn ray(self, dir: Direction) -> Bitboard {
        Bitboard(RAY[dir as usize][self.index()])
    }

    /// The neighbouring square in `dir`, if there is one.
    #[inline]
    pub fn step(self, dir: Direction) -> Option<Square> {
        let n = STEP[dir as usize][self.index()];
        if n == NONE {
            None
        } else {
            Some(Square::new_unchecked(n))
        }
    }

    /// The squares strictly between `self` and `other` when they are distinct squares of
    /// one diagonal (empty for neighbours), else `None`.
    #[inline]
    pub(crate) fn between(self, other: Square) -> Option<Bitboard> {
        let between = BETWEEN[self.index()][other.index()];
        (between != NOT_ALIGNED).then_some(Bitboard(between))
    }

    /// If `self` and `other` are distinct squares on one diagonal, the direction from
    /// `self` to `other` and the distance in steps.
    pub fn direction_to(self, other: Square) -> Option<(Direction, u8)> {
        let df = other.file() as i8 - self.file() as i8;
        let dr = other.rank() as i8 - self.rank() as i8;
        if df == 0 || df.abs() != dr.abs() {
            return None;
        }
        let dir = match (df > 0, dr > 0) {
            (false, true) => Direction::NorthWest,
            (true, true) => Direction::NorthEast,
            (false, false) => Direction::SouthWest,
            (true, false) => Direction::SouthEast,
        };
        Some((dir, df.unsigned_abs()))
    }
}

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const FULL: Bitboard = Bitboard(u32::MAX);
    /// Rank 1 (a1, c1, e1, g1): Black's promotion rank.
    pub const RANK_1: Bitboard = Bitboard(0x0000_000F);
    /// Rank 8 (b8, d8, f8, h8): White's promotion rank.
    pub const RANK_8: Bitboard = Bitboard(0xF000_0000);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether some square of the set is on a rank of even number (2, 4, 6, 8), where the
    /// dark squares are on files b, d, f, h.
    #[inline]
    pub(crate) const fn is_on_odd_row(self) -> bool {
        self.0 & ODD_ROWS != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// The lowest-index square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Every square moved one step in `dir`; squares that would leave the board are dropped.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let b = self.0;
        Bitboard(match dir {
            Direction::NorthWest => ((b & EVEN_ROWS & !FILE_A) << 3) | ((b & ODD_ROWS) << 4),
            Direction::NorthEast => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !FILE_H) << 5),
            Direction::SouthWest => ((b & EVEN_ROWS & !FILE_A) >> 5) | ((b & ODD_ROWS) >> 4),
            Direction::SouthEast => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !FILE_H) >> 3),
        })
    }

    /// Every square moved two steps in `dir` (a jump): `self.shift(dir).shift(dir)`, but
    /// one shift, since two rows always move a square by 7 or 9 bits whatever its row.
    /// Only the two files nearest the edge it moves towards need masking.
    #[inline]
    pub const fn jump(self, dir: Direction) -> Bitboard {
        let b = self.0;
        Bitboard(match dir {
            Direction::NorthWest => (b & !FILES_AB) << 7,
            Direction::NorthEast => (b & !FILES_GH) << 9,
            Direction::SouthWest => (b & !FILES_AB) >> 9,
            Direction::SouthEast => (b & !FILES_GH) >> 7,
        })
    }

    /// The jumps of a man on one of `self`'s squares, all on one row parity (`ODD`: ranks
    /// 2, 4, 6, 8), over one of `victims` onto one of `empty`: per direction (indexed by
    /// [`Direction`]), the jumped squares and the landings. A jump crosses two rows, so a
    /// man's chain of jumps stays on the row parity it starts on, where each step is one
    /// shift whose amount the parity fixes ([`shift`](Self::shift) masks and shifts for
    /// both parities). The edge files are masked off first: no wrap on either step.
    #[inline(always)]
    pub(crate) fn jumps_on_parity<const ODD: bool>(
        self,
        victims: Bitboard,
        empty: Bitboard,
    ) -> [(Bitboard, Bitboard); 4] {
        let (b, v, e) = (self.0, victims.0, empty.0);
        // (first step, second step): from an odd row NW +4 then +3, NE +5 then +4, SW -4
        // then -5, SE -3 then -4; from an even row the other way round
        let (nw, ne, sw, se) = if ODD {
            ((4, 3), (5, 4), (4, 5), (3, 4))
        } else {
            ((3, 4), (4, 5), (5, 4), (4, 3))
        };
        let north = |mask: u32, (first, second): (u32, u32)| {
            let land = ((((b & !mask) << first) & v) << second) & e;
            (Bitboard(land >> second), Bitboard(land))
        };
        let south = |mask: u32, (first, second): (u32, u32)| {
            let land = ((((b & !mask) >> first) & v) >> second) & e;
            (Bitboard(land << second), Bitboard(land))
        };
        [
            north(FILES_AB, nw),
            north(FILES_GH, ne),
            south(FILES_AB, sw),
            south(FILES_GH, se),
        ]
    }

    /// Whether a piece of `self` can jump in `dir` over one of `over` onto one of `onto`
    /// (a man's capture in one direction): first the squares whose landing is free,
    /// then whether one of them passes a piece of `over`.
    #[inline]
    pub const fn can_jump(self, dir: Direction, over: Bitboard, onto: Bitboard) -> bool {
        let landing_free = Bitboard(self.0 & onto.jump(dir.opposite()).0);
        landing_free.shift(dir).0 & over.0 != 0
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Pops the lowest square: iterating a bitboard visits squares in index order.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

/// The set operations of bitboards, as the operators of their words.
macro_rules! bitboard_ops {
    ($($op:ident $method:ident $assign:ident $assign_method:ident),*) => {$(
        impl $op for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard($op::$method(self.0, rhs.0))
            }
        }

        impl $assign for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                $assign::$assign_method(&mut self.0, rhs.0);
            }
        }
    )*};
}

bitboard_ops!(
    BitAnd bitand BitAndAssign bitand_assign,
    BitOr bitor BitOrAssign bitor_assign,
    BitXor bitxor BitXorAssign bitxor_assign
);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bitboard{")?;
        for (i, sq) in self.enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{sq}")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jump_is_two_steps() {
        let mut rng = pdnkit_gen::SplitMix64::new(11);
        let singles = (0..32).map(|i| Bitboard(1 << i));
        let random = (0..2000).map(|_| Bitboard(rng.next_u64() as u32));
        for b in singles.chain(random).chain([Bitboard(u32::MAX)]) {
            for dir in Direction::ALL {
                assert_eq!(b.jump(dir), b.shift(dir).shift(dir), "{:#x} {dir:?}", b.0);
            }
        }
    }

    #[test]
    fn jumps_on_one_parity_are_two_steps_over_a_victim_onto_an_empty_square() {
        let mut rng = pdnkit_gen::SplitMix64::new(17);
        let mut random = || Bitboard(rng.next_u64() as u32);
        for k in 0..4000 {
            // single men most often (the chains' case), else any set of one parity
            let from = if k % 2 == 0 {
                Bitboard(1 << (k / 2 % 32))
            } else {
                random()
            };
            let (victims, empty) = (random(), random() & random());
            for odd in [false, true] {
                let men = from & Bitboard(if odd { ODD_ROWS } else { EVEN_ROWS });
                let jumps = if odd {
                    men.jumps_on_parity::<true>(victims, empty)
                } else {
                    men.jumps_on_parity::<false>(victims, empty)
                };
                for dir in Direction::ALL {
                    let land = (men.shift(dir) & victims).shift(dir) & empty;
                    let over = land.shift(dir.opposite());
                    let case = format!("{:#x} {:#x} {:#x} {dir:?}", men.0, victims.0, empty.0);
                    assert_eq!(jumps[dir as usize], (over, land), "{case}");
                }
            }
        }
    }

    #[test]
    fn first_in_and_nearest_in_are_the_first_square_met_stepping() {
        let mut rng = pdnkit_gen::SplitMix64::new(3);
        for _ in 0..200 {
            let among = Bitboard(rng.next_u64() as u32 & rng.next_u64() as u32);
            for from in Square::all() {
                for dir in Direction::ALL {
                    let mut walk = from.step(dir);
                    while let Some(sq) = walk.filter(|&sq| !among.contains(sq)) {
                        walk = sq.step(dir);
                    }
                    assert_eq!(from.first_in(dir, among), walk, "{from} {dir:?} {among:?}");
                    let as_set: Bitboard = walk.into_iter().collect();
                    assert_eq!(
                        from.nearest_in(dir, among),
                        as_set,
                        "{from} {dir:?} {among:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn shift_agrees_with_step_table() {
        for dir in Direction::ALL {
            for sq in Square::all() {
                let shifted = Bitboard::from_square(sq).shift(dir);
                let expected: Bitboard = sq.step(dir).into_iter().collect();
                assert_eq!(shifted, expected, "{sq} {dir:?}");
            }
        }
    }

    #[test]
    fn steps_from_corners() {
        let a1 = Square::from_algebraic("a1").unwrap();
        assert_eq!(a1.step(Direction::NorthEast), Square::from_algebraic("b2"));
        assert_eq!(a1.step(Direction::NorthWest), None);
        assert_eq!(a1.step(Direction::SouthEast), None);
        let h8 = Square::from_algebraic("h8").unwrap();
        assert_eq!(h8.step(Direction::SouthWest), Square::from_algebraic("g7"));
        assert_eq!(h8.step(Direction::NorthEast), None);
    }

    #[test]
    fn between_is_the_ray_up_to_the_other_square() {
        for a in Square::all() {
            for b in Square::all() {
                let expected = a
                    .direction_to(b)
                    .map(|(dir, _)| a.ray(dir) & !b.ray(dir) & !Bitboard::from_square(b));
                assert_eq!(a.between(b), expected, "{a} {b}");
            }
        }
        let (c3, f6) = (
            Square::from_algebraic("c3").unwrap(),
            Square::from_algebraic("f6").unwrap(),
        );
        let passed: Vec<String> = c3.between(f6).unwrap().map(|s| s.to_string()).collect();
        assert_eq!(passed, ["d4", "e5"]);
    }

    #[test]
    fn direction_to() {
        let c3 = Square::from_algebraic("c3").unwrap();
        let f6 = Square::from_algebraic("f6").unwrap();
        assert_eq!(c3.direction_to(f6), Some((Direction::NorthEast, 3)));
        assert_eq!(f6.direction_to(c3), Some((Direction::SouthWest, 3)));
        assert_eq!(c3.direction_to(c3), None);
        assert_eq!(c3.direction_to(Square::from_algebraic("c5").unwrap()), None);
    }

    #[test]
    fn promotion_ranks() {
        let r8: Vec<String> = Bitboard::RANK_8.map(|s| s.to_string()).collect();
        assert_eq!(r8, ["b8", "d8", "f8", "h8"]);
        let r1: Vec<String> = Bitboard::RANK_1.map(|s| s.to_string()).collect();
        assert_eq!(r1, ["a1", "c1", "e1", "g1"]);
    }
}
