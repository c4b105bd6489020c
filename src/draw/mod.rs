//! The draw rules of Russian draughts and of other variants' federations, as pure logic
//! over per-ply facts.
//!
//! This module does not look at boards. The replayer, which has the positions, tells a
//! [`DrawTracker`] after every ply what happened ([`PlyFacts`]: who moved, whether it was
//! a capture, a man move, a promotion, the [`Material`] after the ply, a [`PositionKey`]
//! for repetitions, and whether the side to move has any legal move). The tracker follows
//! every draw rule of the chosen [`Edition`] and reports the first automatic draw and
//! every threefold repetition as a [`DrawEvent`]. At the end of the game,
//! [`DrawTracker::verdict`] compares the recorded [`Outcome`] with that history and gives
//! the [`DrawBasis`] of a drawn game and the [`DrawFinding`]s (diagnostics `D101`–`D105`).
//!
//! The rules themselves, and how we read them where the texts leave room, are described
//! in the README, section "Draw rules" (also RULES.md §5). In short:
//!
//! - edition `fmjd`: 7.2.3 (repetition), 7.2.4, 7.2.5, 7.2.6, 7.2.7, 7.2.8, agreement 7.2.1;
//! - edition `russia`: threefold repetition, 6.1.8.3, 6.1.8.4, 6.1.8.5, 6.1.8.6, 6.1.8.8,
//!   agreement after 20 moves each (6.1.8.1). 6.1.8.7 (a "clearly drawn" position, the
//!   arbiter's judgement) is **not checked**: no program can decide it;
//! - the editions of other variants' games ([`Edition::of_variant`]): `international`,
//!   `frisian`, `portuguese`, and `threefold` (repetition only: English, pool, Italian);
//!   Brazilian games are judged by `fmjd`. docs/VARIANTS.md gives them with their sources.
//!
//! # Example
//!
//! ```
//! use pdnkit::Color;
//! use pdnkit::draw::{
//!     DrawBasis, DrawRule, DrawTracker, Edition, Material, Outcome, PlyFacts, PositionKey,
//!     SideMaterial,
//! };
//!
//! // White: two kings; Black: one king. Set up by FEN, White to move.
//! let material = Material::new(SideMaterial::new(2, 0), SideMaterial::new(1, 0));
//! let key = |n: u32, to_move| PositionKey::new([n, 0, 0, 0], to_move);
//! let mut tracker = DrawTracker::new(Edition::Russia, material, key(0, Color::White));
//!
//! // Ten quiet king moves (5 by each side): 6.1.8.6 draws the 3-piece ending.
//! let mut event = None;
//! for ply in 1..=10u32 {
//!     let mover = if ply % 2 == 1 { Color::White } else { Color::Black };
//!     let facts = PlyFacts {
//!         mover,
//!         capture: false,
//!         man_moved: false,
//!         promotion: false,
//!         after: material,
//!         key: key(ply, mover.opponent()),
//!         side_to_move_has_moves: true,
//!     };
//!     event = tracker.push(&facts).or(event);
//! }
//! let event = event.unwrap();
//! assert_eq!((event.rule, event.ply), (DrawRule::R6_1_8_6, 10));
//!
//! let verdict = tracker.verdict(Outcome::Draw, 10);
//! assert_eq!(verdict.basis, Some(DrawBasis::Rule { rule: DrawRule::R6_1_8_6, ply: 10 }));
//! assert!(verdict.findings.is_empty());
//! ```

mod material;
mod tracker;
mod verdict;

pub use material::{MAIN_ROAD, Material, SideMaterial, is_on_main_road};
pub use tracker::{DrawEvent, DrawEventKind, DrawTracker, PlyFacts, PositionKey};
pub use verdict::{DrawBasis, DrawFinding, Verdict};

pub(crate) use tracker::may_meet_a_condition;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which set of draw rules applies: `Russia`, the current rules of the Russian federation,
/// 6.1.8 (seed 003), the default for GameType 25; or `Fmjd`, the older FMJD-style rules,
/// section 7.2 (and 1.9.1) of seed 000. (The variants have no comments: clap would show
/// them in `--rules`' help.)
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Edition {
    #[default]
    Russia,
    Fmjd,
    #[value(skip)]
    International,
    #[value(skip)]
    Frisian,
    #[value(skip)]
    Portuguese,
    #[value(skip)]
    Threefold,
}

impl Edition {
    /// Every edition.
    pub const ALL: [Edition; 6] = [
        Edition::Russia,
        Edition::Fmjd,
        Edition::International,
        Edition::Frisian,
        Edition::Portuguese,
        Edition::Threefold,
    ];

    /// `fmjd`, `russia`, or the rules another variant's games are judged by (not one
    /// `--rules` chooses): `international` (the FMJD's rules of international draughts),
    /// `frisian`, `portuguese` (the Portuguese federation's), `threefold` (threefold
    /// repetition as a draw to claim, and no automatic draw: English, pool, Italian).
    pub fn as_str(self) -> &'static str {
        match self {
            Edition::Fmjd => "fmjd",
            Edition::Russia => "russia",
            Edition::International => "international",
            Edition::Frisian => "frisian",
            Edition::Portuguese => "portuguese",
            Edition::Threefold => "threefold",
        }
    }

    /// The edition a game of `variant` is judged by, `russian` for Russian games; `None`
    /// for a variant whose federation's draw rules pdnkit does not know (docs/VARIANTS.md
    /// says which and why).
    pub fn of_variant(variant: crate::rules::Variant, russian: Edition) -> Option<Edition> {
        use crate::rules::Variant::*;
        match variant {
            Russian => Some(russian),
            International => Some(Edition::International),
            // (the FMJD's rules of draughts-64, for Russian and Brazilian alike)
            Brazilian => Some(Edition::Fmjd),
            Frisian => Some(Edition::Frisian),
            Portuguese => Some(Edition::Portuguese),
            English | Pool | Italian => Some(Edition::Threefold),
            Canadian | Czech | Spanish | Turkish | Thai => None,
        }
    }

    /// Whether every automatic rule needs a king on the board (all but Portuguese 3.2.a,
    /// which counts moves without capture or promotion with any material).
    pub fn needs_kings(self) -> bool {
        self != Edition::Portuguese
    }

    /// The rules this edition checks, in article order. When several reach their limit on
    /// the same ply, the first in this order is reported.
    pub fn rules(self) -> &'static [DrawRule] {
        use DrawRule::*;
        match self {
            Edition::Fmjd => &[R7_2_3, R7_2_4, R7_2_5, R7_2_6, R7_2_7, R7_2_8],
            Edition::Russia => &[Repetition, R6_1_8_3, R6_1_8_4, R6_1_8_5, R6_1_8_6, R6_1_8_8],
            Edition::International => &[Repetition, Int25, Int16, Int5],
            Edition::Frisian => &[Frisian7, Frisian2],
            Edition::Portuguese => &[Repetition, Portuguese20, Portuguese12],
            Edition::Threefold => &[Repetition],
        }
    }

    /// The rule for threefold repetition in this edition: 7.2.3 or `repetition`; `None`
    /// where a repetition draws nothing (Frisian).
    pub fn repetition_rule(self) -> Option<DrawRule> {
        match self {
            Edition::Fmjd => Some(DrawRule::R7_2_3),
            Edition::Frisian => None,
            _ => Some(DrawRule::Repetition),
        }
    }

    /// The article that allows a draw by agreement: 7.2.1 or 6.1.8.1.
    pub fn agreement_article(self) -> &'static str {
        match self {
            Edition::Fmjd => "7.2.1",
            Edition::Russia => "6.1.8.1",
            Edition::International => "FMJD",
            Edition::Frisian => "Frisian rules",
            Edition::Portuguese => "Portuguese rules",
            Edition::Threefold => "the variant's rules",
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an [`Edition`] or a [`DrawRule`] from text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{text}` (expected one of: {expected})")]
pub struct ParseDrawError {
    what: &'static str,
    text: String,
    expected: &'static str,
}

impl FromStr for Edition {
    type Err = ParseDrawError;

    /// `fmjd` or `russia`, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fmjd" => Ok(Edition::Fmjd),
            "russia" => Ok(Edition::Russia),
            _ => Err(ParseDrawError {
                what: "draw-rule edition",
                text: s.to_string(),
                expected: "fmjd, russia",
            }),
        }
    }
}

/// One draw rule that pdnkit checks, named by its article.
///
/// Agreement (7.2.1, 6.1.8.1) is not a rule here but a [`DrawBasis::Agreement`]; 7.2.2
/// ("no side can win") and 6.1.8.7 (arbiter's judgement) are not checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawRule {
    /// fmjd 7.2.3: the same position with the same side to move three times (a claim).
    R7_2_3,
    /// fmjd 7.2.4: three or more kings (no men) against a lone king; stronger side's 15th move.
    R7_2_4,
    /// fmjd 7.2.5: only king moves, no man move and no capture, for 15 moves each.
    R7_2_5,
    /// fmjd 7.2.6: both sides have kings, balance unchanged; 4–5 pieces 30 moves each,
    /// 6–7 pieces 60 moves each.
    R7_2_6,
    /// fmjd 7.2.7: three pieces against a lone king on the main road; stronger side's 5th move.
    R7_2_7,
    /// fmjd 7.2.8: two kings, king and man, or one king against a lone king; the 5th move.
    R7_2_8,
    /// russia 6.1.8.3: three kings holding the main road against a lone king; 15th move.
    R6_1_8_3,
    /// russia 6.1.8.4: three or more kings (plus any pieces) against a lone king; 15th move.
    R6_1_8_4,
    /// russia 6.1.8.5: three pieces, none on the main road, against a lone king on the
    /// main road; stronger side's 5th move.
    R6_1_8_5,
    /// russia 6.1.8.6: both sides have kings, balance unchanged; 2–3 / 4–5 / 6–7 pieces:
    /// 5 / 30 / 60 moves each.
    R6_1_8_6,
    /// russia 6.1.8.8: only king moves, no man move and no capture; 4–5 / 6–7 pieces:
    /// 15 / 25 moves each.
    R6_1_8_8,
    /// russia: threefold repetition (7.2.3 carried over; 6.1.8.2 refers to 5.4.12); in
    /// international draughts, the FMJD's threefold repetition.
    Repetition,
    /// international (FMJD): only king moves, no man move and no capture, for 25 moves each.
    Int25,
    /// international (FMJD): three pieces, a king among them, against a lone king; 16
    /// moves each.
    Int16,
    /// international (FMJD): two kings, king and man, or a king against a lone king; 5
    /// moves each.
    Int5,
    /// frisian: two kings against a lone king; 7 moves each.
    Frisian7,
    /// frisian: a king against a lone king; 2 moves each.
    Frisian2,
    /// portuguese (3.2.a): no capture and no promotion for 20 moves each.
    Portuguese20,
    /// portuguese (3.2.b): three kings, one on the long diagonal, against a lone king; 12
    /// moves each.
    Portuguese12,
}

impl DrawRule {
    /// Every rule, every edition.
    pub const ALL: [DrawRule; 19] = [
        DrawRule::R7_2_3,
        DrawRule::R7_2_4,
        DrawRule::R7_2_5,
        DrawRule::R7_2_6,
        DrawRule::R7_2_7,
        DrawRule::R7_2_8,
        DrawRule::R6_1_8_3,
        DrawRule::R6_1_8_4,
        DrawRule::R6_1_8_5,
        DrawRule::R6_1_8_6,
        DrawRule::R6_1_8_8,
        DrawRule::Repetition,
        DrawRule::Int25,
        DrawRule::Int16,
        DrawRule::Int5,
        DrawRule::Frisian7,
        DrawRule::Frisian2,
        DrawRule::Portuguese20,
        DrawRule::Portuguese12,
    ];

    /// The stable id: the article number (`6.1.8.6`) or `repetition`.
    pub fn id(self) -> &'static str {
        use DrawRule::*;
        match self {
            R7_2_3 => "7.2.3",
            R7_2_4 => "7.2.4",
            R7_2_5 => "7.2.5",
            R7_2_6 => "7.2.6",
            R7_2_7 => "7.2.7",
            R7_2_8 => "7.2.8",
            R6_1_8_3 => "6.1.8.3",
            R6_1_8_4 => "6.1.8.4",
            R6_1_8_5 => "6.1.8.5",
            R6_1_8_6 => "6.1.8.6",
            R6_1_8_8 => "6.1.8.8",
            Repetition => "repetition",
            Int25 => "international-25",
            Int16 => "international-16",
            Int5 => "international-5",
            Frisian7 => "frisian-7",
            Frisian2 => "frisian-2",
            Portuguese20 => "portuguese-20",
            Portuguese12 => "portuguese-12",
        }
    }

    /// A short description of the condition and limit.
    pub fn description(self) -> &'static str {
        use DrawRule::*;
        match self {
            R7_2_3 | Repetition => {
                "same position with the same side to move three times; a draw may be claimed"
            }
            R7_2_4 => "three or more kings against a lone king, not taken by the 15th move",
            R7_2_5 | R6_1_8_8 | Int25 => "only king moves, no man move and no capture",
            Int16 => "three pieces, a king among them, against a lone king, 16 moves each",
            Int5 => "two kings, king and man, or a king against a lone king, 5 moves each",
            Frisian7 => "two kings against a lone king, 7 moves each",
            Frisian2 => "a king against a lone king, 2 moves each",
            Portuguese20 => "no capture and no promotion for 20 moves each",
            Portuguese12 => {
                "three kings, one on the long diagonal, against a lone king, 12 moves each"
            }
            R7_2_6 | R6_1_8_6 => "kings on both sides, balance of forces unchanged",
            R7_2_7 => "three pieces against a lone king on the main road, no win by the 5th move",
            R7_2_8 => {
                "two kings, king and man, or one king against a lone king, no win by the 5th move"
            }
            R6_1_8_3 => {
                "three kings holding the main road against a lone king, not taken by the 15th move"
            }
            R6_1_8_4 => "three or more kings against a lone king, not taken by the 15th move",
            R6_1_8_5 => {
                "three pieces off the main road against a lone king on it, not taken by the 5th move"
            }
        }
    }

    /// Is this the threefold-repetition rule (a claim, not an automatic draw)?
    pub fn is_repetition(self) -> bool {
        matches!(self, DrawRule::R7_2_3 | DrawRule::Repetition)
    }

    /// The edition this rule belongs to: for `repetition`, which `russia` shares with
    /// other editions, `russia`.
    pub fn edition(self) -> Edition {
        use DrawRule::*;
        match self {
            R7_2_3 | R7_2_4 | R7_2_5 | R7_2_6 | R7_2_7 | R7_2_8 => Edition::Fmjd,
            Int25 | Int16 | Int5 => Edition::International,
            Frisian7 | Frisian2 => Edition::Frisian,
            Portuguese20 | Portuguese12 => Edition::Portuguese,
            _ => Edition::Russia,
        }
    }
}

impl fmt::Display for DrawRule {
    /// `6.1.8.6 (kings on both sides, balance of forces unchanged)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id(), self.description())
    }
}

impl FromStr for DrawRule {
    type Err = ParseDrawError;

    /// The id as [`DrawRule::id`] gives it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        DrawRule::ALL
            .into_iter()
            .find(|r| r.id().eq_ignore_ascii_case(t))
            .ok_or_else(|| ParseDrawError {
                what: "draw rule",
                text: s.to_string(),
                expected: "7.2.3 7.2.4 7.2.5 7.2.6 7.2.7 7.2.8 6.1.8.3 6.1.8.4 6.1.8.5 6.1.8.6 6.1.8.8 repetition international-25 international-16 international-5 frisian-7 frisian-2 portuguese-20 portuguese-12",
            })
    }
}

impl Serialize for DrawRule {
    /// As its id string, e.g. `"6.1.8.6"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for DrawRule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

pub use crate::outcome::Outcome;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edition_parses_and_displays() {
        assert_eq!("fmjd".parse::<Edition>(), Ok(Edition::Fmjd));
        assert_eq!("Russia".parse::<Edition>(), Ok(Edition::Russia));
        assert!("fide".parse::<Edition>().is_err());
        assert_eq!(Edition::Fmjd.to_string(), "fmjd");
        assert_eq!(Edition::default(), Edition::Russia);
        assert_eq!(
            serde_json::to_string(&Edition::Russia).unwrap(),
            "\"russia\""
        );
    }

    #[test]
    fn rule_ids_round_trip() {
        for r in DrawRule::ALL {
            assert_eq!(r.id().parse::<DrawRule>(), Ok(r));
            assert!(r.to_string().starts_with(r.id()));
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.id()));
            assert_eq!(serde_json::from_str::<DrawRule>(&json).unwrap(), r);
            assert!(r.edition().rules().contains(&r));
        }
        assert!("7.2.2".parse::<DrawRule>().is_err());
    }

    #[test]
    fn editions_list_their_rules() {
        assert_eq!(Edition::Fmjd.rules().len(), 6);
        assert_eq!(Edition::Russia.rules().len(), 6);
        assert_eq!(Edition::Fmjd.repetition_rule(), Some(DrawRule::R7_2_3));
        assert_eq!(
            Edition::Russia.repetition_rule(),
            Some(DrawRule::Repetition)
        );
        assert_eq!(Edition::Frisian.repetition_rule(), None);
        for e in Edition::ALL {
            let listed = e.rules().iter().find(|r| r.is_repetition()).copied();
            assert_eq!(listed, e.repetition_rule(), "{e}");
        }
    }

    #[test]
    fn outcome_reads_both_scales() {
        assert_eq!(Outcome::from_pdn("2-0"), Some(Outcome::WhiteWins));
        assert_eq!(Outcome::from_pdn("1-0"), Some(Outcome::WhiteWins));
        assert_eq!(Outcome::from_pdn("0-2"), Some(Outcome::BlackWins));
        assert_eq!(Outcome::from_pdn("1-1"), Some(Outcome::Draw));
        assert_eq!(Outcome::from_pdn("1/2-1/2"), Some(Outcome::Draw));
        assert_eq!(Outcome::from_pdn("0-0"), Some(Outcome::BothLose));
        assert_eq!(Outcome::from_pdn("*"), Some(Outcome::Unknown));
        assert_eq!(Outcome::from_pdn("white"), None);
        assert!(Outcome::WhiteWins.is_decisive() && !Outcome::BothLose.is_decisive());
    }
}
