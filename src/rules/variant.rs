//! The draughts variants PDN numbers, each a description of its rules ([`Rules`]) that one
//! move generator ([`super::VariantPosition`]) reads. docs/VARIANTS.md gives each rule
//! with its sources.
//!
//! Russian draughts, the default, also has a move generator of its own
//! ([`super::Position`]): bitboards of the 32 squares with its rules built in, several times
//! faster than the general one on the same games (docs/VARIANTS.md, "Speed").

use std::fmt;
use std::str::FromStr;

use super::geometry::{Board, Corner, dir};
use crate::Color;

/// A draughts variant, by PDN `GameType`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Variant {
    /// Russian draughts (GameType 25).
    #[default]
    Russian,
    /// International draughts, 10×10 (GameType 20).
    International,
    /// English draughts or American checkers (GameType 21).
    English,
    /// Italian draughts (GameType 22).
    Italian,
    /// American pool checkers (GameType 23).
    Pool,
    /// Spanish draughts (GameType 24).
    Spanish,
    /// Brazilian draughts: International rules on 8×8 (GameType 26).
    Brazilian,
    /// Canadian draughts: International rules on 12×12 (GameType 27).
    Canadian,
    /// Portuguese draughts (GameType 28).
    Portuguese,
    /// Czech draughts (GameType 29).
    Czech,
    /// Turkish draughts (GameType 30).
    Turkish,
    /// Thai draughts (GameType 31).
    Thai,
    /// Frisian draughts (GameType 40).
    Frisian,
}

/// What a player must choose among the available captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureChoice {
    /// Any capture (Russian 1.5.14, English, pool, Thai).
    Free,
    /// One taking the most pieces (International, Brazilian, Canadian, Turkish).
    Most,
    /// The most pieces, then the most kings among them (Spanish, Portuguese).
    MostThenKings,
    /// Italian: the most pieces; then with a king rather than a man; then the most kings;
    /// then the one meeting a king earliest.
    Italian,
    /// With a king whenever a king can capture (Czech).
    KingFirst,
    /// Frisian: the highest value (a man 2, a king 3), then the most kings, then with a
    /// king rather than a man.
    Value,
}

/// When a man reaching the far rank during a capture becomes a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Crowning {
    /// At once, and it goes on capturing as a king (Russian 1.5.15).
    GoesOnAsKing,
    /// At once, and the move ends there (English, Italian, Czech, Spanish, Portuguese,
    /// Thai: their men capture forward only, so none could go on anyway).
    EndsMove,
    /// Only if the move ends there: a man passing the far rank goes on as a man
    /// (International, Brazilian, Canadian, pool, Turkish, Frisian).
    AtEnd,
}

/// How a game of a variant is written down: who moves first, where square 1 is, and
/// whether the board's bottom-left corner is light (its files then run the other way
/// round). By default the GameType table's ([`Variant::dialect`]); a GameType tag's optional
/// fields may say otherwise ([`super::game_type`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    pub(crate) first: Color,
    pub(crate) first_square: Corner,
    pub(crate) mirrored: bool,
}

impl Dialect {
    /// Who moves first.
    pub fn first(&self) -> Color {
        self.first
    }

    /// Every dialect a GameType's fields can give: either side first, square 1 in any
    /// corner, the files either way round.
    pub(crate) fn every() -> impl Iterator<Item = Dialect> {
        use super::geometry::Corner::*;
        [Color::White, Color::Black].into_iter().flat_map(|first| {
            [BottomLeft, BottomRight, TopLeft, TopRight]
                .into_iter()
                .flat_map(move |first_square| {
                    [false, true].map(|mirrored| Dialect {
                        first,
                        first_square,
                        mirrored,
                    })
                })
        })
    }
}

/// The rules of a variant: what the move generator reads. Directions are seen from the
/// side at the bottom of the board and mirrored for the side at the top.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    pub(crate) board: Board,
    /// How its games are written by default: who moves first, where square 1 is, which
    /// way the files run (the GameType table's full value).
    pub(crate) dialect: Dialect,
    /// The men's ranks at the start, counted from each side's own edge: first and number.
    pub(crate) men_ranks: (u8, u8),
    /// Where a man steps.
    pub(crate) men_steps: &'static [u8],
    /// Where a man captures.
    pub(crate) men_jumps: &'static [u8],
    /// Where a king moves.
    pub(crate) king_steps: &'static [u8],
    /// Where a king captures.
    pub(crate) king_jumps: &'static [u8],
    /// Kings move and capture over any number of empty squares.
    pub(crate) flying_kings: bool,
    /// A flying king lands on the square right behind the piece it captures (Thai).
    pub(crate) king_lands_next: bool,
    /// Men may capture kings (not in Italian).
    pub(crate) men_capture_kings: bool,
    pub(crate) crowning: Crowning,
    /// Captured pieces leave the board at once, each as it is jumped (Turkish, Thai),
    /// rather than when the move ends: squares they free may then be crossed.
    pub(crate) removed_at_once: bool,
    /// A king may not turn back on the line it came along between two captures (Turkish).
    pub(crate) no_turning_back: bool,
    pub(crate) choice: CaptureChoice,
    /// How many non-capturing moves in a row one king may make while its side still has
    /// men (Frisian: 3); 0 for no limit.
    pub(crate) king_quiet_run: u8,
}

impl Rules {
    /// Men may capture backwards.
    pub(crate) const fn men_capture_backwards(&self) -> bool {
        let mut k = 0;
        while k < self.men_jumps.len() {
            if self.men_jumps[k] == dir::SW {
                return true;
            }
            k += 1;
        }
        false
    }
}

use dir::{DIAGONAL, E, N, NE, NW, ORTHOGONAL, W};

/// White first, square 1 at the top left, a1 dark: how most variants are written.
const USUAL: Dialect = Dialect {
    first: Color::White,
    first_square: Corner::TopLeft,
    mirrored: false,
};

/// A man's two forward diagonals.
const FORWARD: &[u8] = &[NW, NE];
/// International rules on a board of `board` with `rows` ranks of men.
const fn international(board: Board, rows: u8) -> Rules {
    Rules {
        board,
        dialect: USUAL,
        men_ranks: (0, rows),
        men_steps: FORWARD,
        men_jumps: DIAGONAL,
        king_steps: DIAGONAL,
        king_jumps: DIAGONAL,
        flying_kings: true,
        king_lands_next: false,
        men_capture_kings: true,
        crowning: Crowning::AtEnd,
        removed_at_once: false,
        no_turning_back: false,
        choice: CaptureChoice::Most,
        king_quiet_run: 0,
    }
}

/// The rules of the 8×8 variants whose men capture forward only, as they differ from
/// International on 8×8.
const fn forward_capturing(flying_kings: bool, choice: CaptureChoice) -> Rules {
    Rules {
        men_jumps: FORWARD,
        flying_kings,
        crowning: Crowning::EndsMove,
        choice,
        ..international(Board::Dark8, 3)
    }
}

pub(crate) const RUSSIAN: Rules = Rules {
    crowning: Crowning::GoesOnAsKing,
    choice: CaptureChoice::Free,
    ..international(Board::Dark8, 3)
};
const INTERNATIONAL: Rules = international(Board::Dark10, 4);
const BRAZILIAN: Rules = international(Board::Dark8, 3);
const CANADIAN: Rules = international(Board::Dark12, 5);
const ENGLISH: Rules = Rules {
    dialect: Dialect {
        first: Color::Black,
        ..USUAL
    },
    ..forward_capturing(false, CaptureChoice::Free)
};
const POOL: Rules = Rules {
    dialect: Dialect {
        first: Color::Black,
        ..USUAL
    },
    choice: CaptureChoice::Free,
    ..international(Board::Dark8, 3)
};
const ITALIAN: Rules = Rules {
    men_capture_kings: false,
    dialect: Dialect {
        mirrored: true,
        ..USUAL
    },
    ..forward_capturing(false, CaptureChoice::Italian)
};
const SPANISH: Rules = Rules {
    // `24,W,8,8,N1,1`: 1 is h1, White's men stand on 1 to 12
    dialect: Dialect {
        first_square: Corner::BottomRight,
        mirrored: true,
        ..USUAL
    },
    ..forward_capturing(true, CaptureChoice::MostThenKings)
};
const PORTUGUESE: Rules = SPANISH;
const CZECH: Rules = forward_capturing(true, CaptureChoice::KingFirst);
const THAI: Rules = Rules {
    men_ranks: (0, 2),
    king_lands_next: true,
    removed_at_once: true,
    // `31,B,8,8,N2,0`: the top left as Black, who moves first, sees the board
    dialect: Dialect {
        first: Color::Black,
        first_square: Corner::BottomRight,
        ..USUAL
    },
    ..forward_capturing(true, CaptureChoice::Free)
};
const TURKISH: Rules = Rules {
    board: Board::Full8,
    men_ranks: (1, 2),
    men_steps: &[N, W, E],
    men_jumps: &[N, W, E],
    king_steps: ORTHOGONAL,
    king_jumps: ORTHOGONAL,
    removed_at_once: true,
    no_turning_back: true,
    ..international(Board::Full8, 2)
};
const FRISIAN: Rules = Rules {
    king_jumps: dir::ALL,
    men_jumps: dir::ALL,
    choice: CaptureChoice::Value,
    king_quiet_run: 3,
    ..international(Board::Dark10, 4)
};

impl Variant {
    /// Every variant, in GameType order (Russian first).
    pub const ALL: [Variant; 13] = [
        Variant::Russian,
        Variant::International,
        Variant::English,
        Variant::Italian,
        Variant::Pool,
        Variant::Spanish,
        Variant::Brazilian,
        Variant::Canadian,
        Variant::Portuguese,
        Variant::Czech,
        Variant::Turkish,
        Variant::Thai,
        Variant::Frisian,
    ];

    /// The rules the general move generator reads.
    #[inline]
    pub(crate) fn rules(self) -> &'static Rules {
        match self {
            Variant::Russian => &RUSSIAN,
            Variant::International => &INTERNATIONAL,
            Variant::English => &ENGLISH,
            Variant::Italian => &ITALIAN,
            Variant::Pool => &POOL,
            Variant::Spanish => &SPANISH,
            Variant::Brazilian => &BRAZILIAN,
            Variant::Canadian => &CANADIAN,
            Variant::Portuguese => &PORTUGUESE,
            Variant::Czech => &CZECH,
            Variant::Turkish => &TURKISH,
            Variant::Thai => &THAI,
            Variant::Frisian => &FRISIAN,
        }
    }

    /// PDN `GameType` number.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::International => 20,
            Variant::English => 21,
            Variant::Italian => 22,
            Variant::Pool => 23,
            Variant::Spanish => 24,
            Variant::Russian => 25,
            Variant::Brazilian => 26,
            Variant::Canadian => 27,
            Variant::Portuguese => 28,
            Variant::Czech => 29,
            Variant::Turkish => 30,
            Variant::Thai => 31,
            Variant::Frisian => 40,
        }
    }

    /// The variant of a PDN `GameType` number.
    pub fn from_game_type(number: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == number)
    }

    /// The name `--variant` takes and [`Display`](fmt::Display) writes: `international`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::International => "international",
            Variant::English => "english",
            Variant::Italian => "italian",
            Variant::Pool => "pool",
            Variant::Spanish => "spanish",
            Variant::Brazilian => "brazilian",
            Variant::Canadian => "canadian",
            Variant::Portuguese => "portuguese",
            Variant::Czech => "czech",
            Variant::Turkish => "turkish",
            Variant::Thai => "thai",
            Variant::Frisian => "frisian",
        }
    }

    /// Who moves first.
    pub fn first_to_move(self) -> Color {
        self.rules().dialect.first
    }

    /// How the variant's games are written by default: the GameType table's full value.
    pub fn dialect(self) -> Dialect {
        self.rules().dialect
    }

    /// Which captures are allowed when several exist.
    pub fn capture_choice(self) -> CaptureChoice {
        self.rules().choice
    }

    /// Men may capture backwards (Russian 1.5.3).
    pub fn men_capture_backwards(self) -> bool {
        self.rules().men_capture_backwards()
    }

    /// Kings move and capture at any distance (Russian 1.4, 1.5.6).
    pub fn flying_kings(self) -> bool {
        self.rules().flying_kings
    }

    /// When a man reaching the far rank during a capture is crowned.
    pub fn crowning(self) -> Crowning {
        self.rules().crowning
    }

    /// Files (and ranks) of the board: 8, 10 or 12.
    pub fn board_side(self) -> u8 {
        super::geometry::Geometry::of(self.rules().board).side
    }

    /// Pieces each side has at the start, hence the most a legal setup may have.
    pub fn pieces_per_side(self) -> usize {
        let rules = self.rules();
        let g = super::geometry::Geometry::of(rules.board);
        g.ranks(rules.men_ranks.0, rules.men_ranks.1).count_ones() as usize
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--variant` that names no variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant `{0}`: give a name (russian, international, brazilian, english or american, pool, czech, italian, spanish, portuguese, canadian, turkish, thai, frisian) or a GameType number (20–31, 40)"
)]
pub struct ParseVariantError(pub String);

impl FromStr for Variant {
    type Err = ParseVariantError;

    /// A name (`international`, `american` for `english`), either case, or a GameType
    /// number (`20`).
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        let t = s.trim().to_ascii_lowercase();
        if let Ok(n) = t.parse::<u32>() {
            return Variant::from_game_type(n).ok_or_else(|| ParseVariantError(s.to_string()));
        }
        if t == "american" {
            return Ok(Variant::English);
        }
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == t)
            .ok_or_else(|| ParseVariantError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_read_back() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse(), Ok(v));
            assert_eq!(v.game_type().to_string().parse(), Ok(v));
            assert_eq!(Variant::from_game_type(v.game_type()), Some(v));
        }
        assert_eq!("American".parse(), Ok(Variant::English));
        assert!("chess".parse::<Variant>().is_err());
        assert!("32".parse::<Variant>().is_err());
    }

    #[test]
    fn pieces_at_the_start() {
        let count = |v: Variant| v.pieces_per_side();
        assert_eq!(count(Variant::Russian), 12);
        assert_eq!(count(Variant::International), 20);
        assert_eq!(count(Variant::Canadian), 30);
        assert_eq!(count(Variant::Turkish), 16);
        assert_eq!(count(Variant::Thai), 8);
    }
}
