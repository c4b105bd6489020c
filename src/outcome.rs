//! The recorded outcome of a game, shared by the reader (result tokens), the replayer and
//! the draw rules.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The recorded result of a game (RULES.md §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// `1-0` or `2-0`.
    WhiteWins,
    /// `0-1` or `0-2`.
    BlackWins,
    /// `1/2-1/2` or `1-1`.
    Draw,
    /// `0-0`: both lost (an administrative result).
    BothLose,
    /// `*` or no result.
    #[default]
    Unknown,
}

impl Outcome {
    /// Reads a PDN result in either scale: `1-0 2-0 0-1 0-2 1/2-1/2 ½-½ 1-1 0-0 *`.
    /// Anything else gives `None`.
    pub fn from_pdn(s: &str) -> Option<Outcome> {
        Some(match s.trim() {
            "1-0" | "2-0" => Outcome::WhiteWins,
            "0-1" | "0-2" => Outcome::BlackWins,
            "1/2-1/2" | "½-½" | "1-1" | "0.5-0.5" => Outcome::Draw,
            "0-0" => Outcome::BothLose,
            "*" => Outcome::Unknown,
            _ => return None,
        })
    }

    /// White's score as a number: `1` for a White win, `0.5` for a draw, `0` for a loss
    /// (and for `0-0`, where both lose); `None` when the result is unknown.
    pub fn white_score(self) -> Option<&'static str> {
        match self {
            Outcome::WhiteWins => Some("1"),
            Outcome::Draw => Some("0.5"),
            Outcome::BlackWins | Outcome::BothLose => Some("0"),
            Outcome::Unknown => None,
        }
    }

    /// A win for one side.
    pub fn is_decisive(self) -> bool {
        matches!(self, Outcome::WhiteWins | Outcome::BlackWins)
    }
}

impl fmt::Display for Outcome {
    /// The result in words: `White wins`, `Black wins`, `draw`, `both lose`, `unknown`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::WhiteWins => "White wins",
            Outcome::BlackWins => "Black wins",
            Outcome::Draw => "draw",
            Outcome::BothLose => "both lose",
            Outcome::Unknown => "unknown",
        })
    }
}
