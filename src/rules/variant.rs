//! Rule parameters that differ between draughts variants.
//!
//! Only Russian draughts is implemented. The move generator asks the variant for each rule
//! that other 8×8 variants change (men capturing backwards, flying kings, whether a man
//! that reaches the far rank mid-capture goes on as a king) instead of hard-wiring it, so
//! Brazilian, pool or Czech draughts are a new enum arm plus the few rules the generator does
//! not know yet (majority capture, kings before men). 10×10 needs a wider [`super::Bitboard`].

/// A draughts variant: which rules apply. `Russian`: Russian draughts (PDN GameType 25):
/// 8×8, men capture backwards, flying kings, free choice among captures, promotion
/// mid-capture continues as a king. (The variants have no comments: clap would show them
/// in `--variant`'s help.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
#[non_exhaustive]
pub enum Variant {
    #[default]
    Russian,
}

/// What a player must choose among the available captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureChoice {
    /// Any capture (Russian 1.5.14: no majority rule).
    Free,
}

impl Variant {
    /// PDN `GameType` number.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::Russian => 25,
        }
    }

    /// Men may capture backwards (Russian 1.5.3).
    #[inline]
    pub const fn men_capture_backwards(self) -> bool {
        match self {
            Variant::Russian => true,
        }
    }

    /// Kings move and capture at any distance (Russian 1.4, 1.5.6).
    #[inline]
    pub const fn flying_kings(self) -> bool {
        match self {
            Variant::Russian => true,
        }
    }

    /// A man reaching the far rank during a capture is crowned at once and, if it can,
    /// goes on capturing as a king in the same move (Russian 1.5.15).
    #[inline]
    pub const fn promotes_mid_capture(self) -> bool {
        match self {
            Variant::Russian => true,
        }
    }

    /// Which captures are allowed when several exist.
    #[inline]
    pub const fn capture_choice(self) -> CaptureChoice {
        match self {
            Variant::Russian => CaptureChoice::Free,
        }
    }

    /// Pieces each side has at the start, hence the most a legal setup may have.
    pub const fn pieces_per_side(self) -> usize {
        match self {
            Variant::Russian => 12,
        }
    }
}
