//! perft: counting the leaves of the move tree, the standard check of a move generator.
//!
//! Moves are counted as distinct (from, to, captured set), as in `rules-cases/perft.json`
//! (`distinct`). Depth-1 nodes are counted without listing quiet moves (bulk counting).

use std::ops::Deref;

use super::notation::{Style, format_move};
use super::{Move, MoveList, Position};

/// A position whose move tree perft counts: Russian's [`Position`] and every variant's
/// [`super::VariantPosition`].
pub trait Node: Sized {
    /// A legal move.
    type Move;
    /// The legal moves of a position.
    type Moves: Deref<Target = [Self::Move]>;
    /// The legal moves, each distinct (from, to, captured set) once.
    fn moves(&self) -> Self::Moves;
    /// The position after a legal move.
    fn after(&self, m: &Self::Move) -> Self;
    /// How many legal moves (perft's last ply: counted, not played).
    fn count_moves(&self) -> usize;
    /// A legal move as PDN writes it, short (two moves may share it).
    fn notation(&self, m: &Self::Move) -> String;
    /// [`perft`] of this position: each implementation is `leaves(self, depth)`, so that
    /// the count is compiled in this crate, with the move generator it calls inlined into
    /// it (a generic function called from another crate is compiled there, where only
    /// the generator's `#[inline]` functions can be inlined).
    fn perft(&self, depth: u32) -> u64;
}

impl Node for Position {
    type Move = Move;
    type Moves = MoveList;

    #[inline]
    fn moves(&self) -> MoveList {
        self.legal_moves()
    }

    #[inline]
    fn after(&self, m: &Move) -> Position {
        Position::after(self, m)
    }

    #[inline]
    fn count_moves(&self) -> usize {
        self.count_legal_moves()
    }

    fn notation(&self, m: &Move) -> String {
        format_move(self, m, Style::default())
    }

    fn perft(&self, depth: u32) -> u64 {
        leaves(self, depth)
    }
}

/// Number of leaf positions `depth` plies below `pos`.
pub fn perft<N: Node>(pos: &N, depth: u32) -> u64 {
    pos.perft(depth)
}

/// [`perft`]'s count, which each [`Node::perft`] is.
pub(crate) fn leaves<N: Node>(pos: &N, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => pos
            .moves()
            .iter()
            .map(|m| leaves(&pos.after(m), depth - 1))
            .sum(),
    }
}

/// One line of [`perft_divide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideEntry<M = Move> {
    /// The move played from the root.
    pub mv: M,
    /// Its short notation (`c3-d4`, `a1:e5`); two moves may share it (see RULES.md §3).
    pub notation: String,
    /// Leaves below it.
    pub nodes: u64,
}

/// perft split by the root moves (for finding where two generators disagree).
pub fn perft_divide<N: Node>(pos: &N, depth: u32) -> Vec<DivideEntry<N::Move>>
where
    N::Move: Clone,
{
    pos.moves()
        .iter()
        .map(|m| DivideEntry {
            mv: m.clone(),
            notation: pos.notation(m),
            nodes: if depth == 0 {
                1
            } else {
                pos.after(m).perft(depth - 1)
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `distinct` column of rules-cases/perft.json.
    const DISTINCT: [u64; 10] = [
        7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032,
    ];

    fn assert_start_depths(depths: std::ops::RangeInclusive<u32>) {
        let start = Position::start();
        for depth in depths {
            assert_eq!(
                perft(&start, depth),
                DISTINCT[depth as usize - 1],
                "depth {depth}"
            );
        }
    }

    #[test]
    fn start_depths_1_to_8() {
        // Depth 8 takes well under a second even in a debug build.
        assert_start_depths(1..=8);
    }

    #[test]
    #[ignore = "slow in debug builds; run with --release --ignored"]
    fn start_depths_9_to_10() {
        assert_start_depths(9..=10);
    }

    #[test]
    fn divide_sums_to_perft() {
        let start = Position::start();
        let d = perft_divide(&start, 3);
        assert_eq!(d.len(), 7);
        assert_eq!(d.iter().map(|e| e.nodes).sum::<u64>(), 302);
        assert!(d.iter().any(|e| e.notation == "c3-d4"));
    }
}
