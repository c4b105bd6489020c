//! The material facts the draw rules look at: men and kings per side, and who stands on
//! the main road (большая дорога, the long diagonal a1–h8).

use crate::Color;
use serde::{Deserialize, Serialize};

/// The squares of the main road a1–h8 in the numeric notation of GameType 25
/// (`1 = b8 … 32 = g1`, see RULES.md §1): a1 = 29, b2 = 25, c3 = 22, d4 = 18, e5 = 15,
/// f6 = 11, g7 = 8, h8 = 4.
pub const MAIN_ROAD: [u8; 8] = [29, 25, 22, 18, 15, 11, 8, 4];

/// Is this numeric square (GameType 25 numbering, 1–32) on the main road a1–h8?
pub fn is_on_main_road(square: u8) -> bool {
    MAIN_ROAD.contains(&square)
}

/// One side's material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SideMaterial {
    /// Men (simple pieces) on the board.
    pub men: u8,
    /// Kings on the board.
    pub kings: u8,
    /// How many of this side's pieces (men and kings) stand on the main road a1–h8.
    pub on_main_road: u8,
}

impl SideMaterial {
    /// A side with `kings` kings, `men` men, none of them on the main road.
    pub const fn new(kings: u8, men: u8) -> Self {
        SideMaterial {
            men,
            kings,
            on_main_road: 0,
        }
    }

    /// The same material with `n` of its pieces on the main road.
    pub const fn on_road(self, n: u8) -> Self {
        SideMaterial {
            on_main_road: n,
            ..self
        }
    }

    /// Men and kings together.
    pub const fn pieces(self) -> u8 {
        self.men + self.kings
    }

    /// Exactly one piece, and it is a king ("одинокая дамка").
    pub const fn is_lone_king(self) -> bool {
        self.kings == 1 && self.men == 0
    }

    /// A lone king that stands on the main road (7.2.7, 6.1.8.5).
    pub const fn lone_king_on_main_road(self) -> bool {
        self.is_lone_king() && self.on_main_road == 1
    }
}

/// The material on the board after a ply (or at the start), both sides.
///
/// The replayer computes it from its position (`replay::draw_view`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Material {
    /// Indexed by [`Color::index`]: White first.
    pub sides: [SideMaterial; 2],
}

impl Material {
    /// Material from White's and Black's side.
    pub const fn new(white: SideMaterial, black: SideMaterial) -> Self {
        Material {
            sides: [white, black],
        }
    }

    /// Counts the pieces of a position given as `(side, is_king, numeric square)` triples
    /// (GameType 25 numbering; squares outside 1–32 count as off the main road).
    #[cfg(test)]
    pub(crate) fn from_pieces(pieces: impl IntoIterator<Item = (Color, bool, u8)>) -> Self {
        let mut m = Material::default();
        for (color, king, square) in pieces {
            let s = &mut m.sides[color.index()];
            if king {
                s.kings += 1;
            } else {
                s.men += 1;
            }
            if is_on_main_road(square) {
                s.on_main_road += 1;
            }
        }
        m
    }

    /// One side's material.
    pub fn side(&self, color: Color) -> SideMaterial {
        self.sides[color.index()]
    }

    /// All pieces on the board: an "N-piece ending" has `total() == N`.
    pub fn total(&self) -> u8 {
        self.sides[0].pieces() + self.sides[1].pieces()
    }

    /// Both sides have at least one king (7.2.6, 6.1.8.6).
    pub fn both_have_kings(&self) -> bool {
        self.sides[0].kings > 0 && self.sides[1].kings > 0
    }

    /// The balance of forces, without the main-road counts: men and kings per side.
    /// Two positions have the same balance when this is equal.
    pub fn balance(&self) -> [(u8, u8); 2] {
        [
            (self.sides[0].men, self.sides[0].kings),
            (self.sides[1].men, self.sides[1].kings),
        ]
    }

    /// The side that faces a lone king while having more pieces: `Some(stronger)` when the
    /// other side has exactly one piece, a king, and this side has at least two pieces.
    /// `None` otherwise (including king against king, which is symmetric).
    pub fn against_lone_king(&self) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.side(c.opponent()).is_lone_king() && self.side(c).pieces() >= 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_road_squares() {
        // a1 b2 c3 d4 e5 f6 g7 h8
        assert_eq!(MAIN_ROAD.len(), 8);
        assert!(is_on_main_road(29) && is_on_main_road(4) && is_on_main_road(15));
        assert!(!is_on_main_road(1) && !is_on_main_road(32) && !is_on_main_road(0));
    }

    #[test]
    fn from_pieces_counts_road() {
        let m = Material::from_pieces([
            (Color::White, true, 29),
            (Color::White, true, 1),
            (Color::White, false, 22),
            (Color::Black, true, 15),
        ]);
        assert_eq!(m.side(Color::White), SideMaterial::new(2, 1).on_road(2));
        assert!(m.side(Color::Black).lone_king_on_main_road());
        assert_eq!(m.total(), 4);
        assert!(m.both_have_kings());
        assert_eq!(m.against_lone_king(), Some(Color::White));
    }

    #[test]
    fn king_against_king_has_no_stronger_side() {
        let m = Material::new(SideMaterial::new(1, 0), SideMaterial::new(1, 0));
        assert_eq!(m.against_lone_king(), None);
        let m = Material::new(SideMaterial::new(0, 0), SideMaterial::new(1, 0));
        assert_eq!(m.against_lone_king(), None);
    }
}
