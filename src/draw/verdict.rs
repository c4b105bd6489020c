//! The verdict: what the draw rules say about a finished game and its recorded result.

use super::{DrawEvent, DrawEventKind, DrawRule, DrawTracker, Edition, Outcome};
use crate::diag::{Rule, codes};
use serde::{Deserialize, Serialize};

/// Why a drawn game is drawn. Serialised with a `kind` tag:
/// `{"kind":"rule","rule":"6.1.8.6","ply":57}`, `{"kind":"repetition","ply":40}`,
/// `{"kind":"agreement","move_number":12,"early":true}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DrawBasis {
    /// An automatic draw by a move-count rule, reached after `ply`.
    Rule {
        /// The rule.
        rule: DrawRule,
        /// The ply after which the game was drawn.
        ply: u32,
    },
    /// A threefold repetition that could be claimed after `ply` (the last one in the game).
    Repetition {
        /// The ply after which the position stood for the third (or later) time.
        ply: u32,
    },
    /// No rule applies: the players agreed (7.2.1, 6.1.8.1).
    Agreement {
        /// The number of the last move played (0 when no move was played).
        move_number: u32,
        /// russia edition only: agreed before each side made 20 moves, which 6.1.8.1
        /// does not allow. Always `false` in every other edition.
        early: bool,
    },
}

/// One draw-rule finding about a game, for the caller to place in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawFinding {
    /// The diagnostic: one of `D101`–`D105`.
    pub rule: &'static Rule,
    /// What exactly, naming the draw rule and the plies.
    pub message: String,
    /// The 1-based ply the finding points at; `None` for the game's result.
    pub ply: Option<u32>,
}

/// The draw verdict on one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// For a drawn result: why it is drawn. `None` for other results.
    pub basis: Option<DrawBasis>,
    /// The first automatic draw of the game, if it reached one (whatever the result).
    pub automatic: Option<DrawEvent>,
    /// Findings `D101`–`D105`, in ply order (result findings last).
    pub findings: Vec<DrawFinding>,
}

fn plies_word(n: u32) -> &'static str {
    if n == 1 { "ply" } else { "plies" }
}

fn list(plies: &[u32]) -> String {
    plies
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl DrawTracker {
    /// The verdict on the game followed so far, given its recorded `outcome` and the
    /// number of mainline plies in the record (normally [`ply`](Self::ply); more if the
    /// replay stopped early).
    ///
    /// - a drawn result gets a [`DrawBasis`]: the automatic draw if the game reached
    ///   one, else the last threefold repetition, else agreement (finding
    ///   `draw-without-basis`, and in the russia edition `early-draw-agreement` when it
    ///   came before each side made 20 moves in a game with moves played from the start
    ///   position);
    /// - plies recorded after an automatic draw: `play-after-automatic-draw`, once, at
    ///   the first such ply;
    /// - a decisive result (`1-0`, `0-1`) after an automatic draw:
    ///   `result-contradicts-draw-rule`. `0-0` (both lose) is an arbiter's sanction, not
    ///   a result of play, and is not checked;
    /// - a decisive result in a game with a threefold repetition (before any automatic
    ///   draw): `repetition-not-claimed`.
    pub fn verdict(&self, outcome: Outcome, plies_played: u32) -> Verdict {
        let automatic = self.automatic_draw();
        let end = automatic.map_or(u32::MAX, |e| e.ply);
        let repetitions: Vec<DrawEvent> = self
            .events()
            .iter()
            .copied()
            .filter(|e| e.kind == DrawEventKind::Claimable && e.ply <= end)
            .collect();
        let mut findings = Vec::new();

        if let Some(ev) = automatic.filter(|e| plies_played > e.ply) {
            let more = plies_played - ev.ply;
            findings.push(DrawFinding {
                rule: &codes::PLAY_AFTER_AUTOMATIC_DRAW,
                message: format!(
                    "drawn automatically at ply {} by {} ({}), yet {more} more {} {}",
                    ev.ply,
                    ev.rule.id(),
                    ev.detail,
                    plies_word(more),
                    if more == 1 { "follows" } else { "follow" },
                ),
                ply: Some(ev.ply + 1),
            });
        }

        let basis = match outcome {
            Outcome::Draw => Some(if let Some(ev) = automatic {
                DrawBasis::Rule {
                    rule: ev.rule,
                    ply: ev.ply,
                }
            } else if let Some(ev) = repetitions.last() {
                DrawBasis::Repetition { ply: ev.ply }
            } else {
                self.agreement(plies_played, &mut findings)
            }),
            _ => None,
        };

        if outcome.is_decisive() {
            if let Some(ev) = automatic {
                findings.push(DrawFinding {
                    rule: &codes::RESULT_CONTRADICTS_DRAW_RULE,
                    message: format!(
                        "the result ({outcome}) contradicts the automatic draw at ply {} by {} ({})",
                        ev.ply,
                        ev.rule.id(),
                        ev.detail,
                    ),
                    ply: None,
                });
            }
            if let Some(first) = repetitions.first() {
                let plies = self.repetition_plies(first);
                findings.push(DrawFinding {
                    rule: &codes::REPETITION_NOT_CLAIMED,
                    message: format!(
                        "threefold repetition ({}): the position after ply {} stood for the third time (after plies {}); a draw could have been claimed, yet the result is {outcome}{}",
                        first.rule.id(),
                        first.ply,
                        list(&plies),
                        if repetitions.len() > 1 {
                            format!(" ({} repetition claims were possible)", repetitions.len())
                        } else {
                            String::new()
                        },
                    ),
                    ply: Some(first.ply),
                });
            }
        }
        findings.sort_by_key(|f| f.ply.unwrap_or(u32::MAX));
        Verdict {
            basis,
            automatic,
            findings,
        }
    }

    /// The plies (up to and including `ev.ply`) at which the position of a repetition
    /// event stood.
    fn repetition_plies(&self, ev: &DrawEvent) -> Vec<u32> {
        self.occurrence_lists()
            .find(|plies| plies.contains(&ev.ply))
            .map(|plies| plies.iter().copied().filter(|&p| p <= ev.ply).collect())
            .unwrap_or_default()
    }

    /// A draw that rests on no rule: agreement at the last move played.
    fn agreement(&self, plies_played: u32, findings: &mut Vec<DrawFinding>) -> DrawBasis {
        // Half-moves made in the whole game before the agreement, counting the moves
        // before a setup from its move number and side to move.
        let before = 2 * (self.first_move_number() - 1)
            + u32::from(self.initial_side_to_move() != self.first_player());
        // Plies before a setup in the movetext are counted by the setup's move number.
        let total = before + plies_played.saturating_sub(self.start_ply());
        let (white, black) = (total.div_ceil(2), total / 2);
        let move_number = total.div_ceil(2);
        // (6.1.8.1 is about games: not a game without moves, nor a problem or a fragment
        // set up by FEN)
        let early = self.edition() == Edition::Russia
            && black < 20
            && self.from_start()
            && plies_played > self.start_ply();
        let ply = (plies_played > 0).then_some(plies_played);
        let article = self.edition().agreement_article();
        findings.push(DrawFinding {
            rule: &codes::DRAW_WITHOUT_BASIS,
            // (pieces pushed, not formatted: nearly every drawn game of a real file has
            // this finding, and `format!` cost a sixth of making its diagnostic)
            message: if move_number == 0 {
                concat(&["drawn before any move: a draw by agreement (", article, ")"])
            } else {
                concat(&[
                    "drawn at move ",
                    itoa::Buffer::new().format(move_number),
                    " although no draw rule was reached and no position repeated three times: a draw by agreement (",
                    article,
                    ")",
                ])
            },
            ply,
        });
        if early {
            findings.push(DrawFinding {
                rule: &codes::EARLY_DRAW_AGREEMENT,
                message: format!(
                    "draw agreed at move {move_number}, before each side made 20 moves (White made {white}, Black {black}); 6.1.8.1 allows a draw offer only after 20 moves each"
                ),
                ply,
            });
        }
        DrawBasis::Agreement { move_number, early }
    }
}

/// The pieces, one after the other.
fn concat(pieces: &[&str]) -> String {
    let mut out = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
    for p in pieces {
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_json_shape_is_stable() {
        let j = |b: DrawBasis| serde_json::to_string(&b).unwrap();
        assert_eq!(
            j(DrawBasis::Rule {
                rule: DrawRule::R6_1_8_6,
                ply: 57
            }),
            r#"{"kind":"rule","rule":"6.1.8.6","ply":57}"#
        );
        assert_eq!(
            j(DrawBasis::Repetition { ply: 40 }),
            r#"{"kind":"repetition","ply":40}"#
        );
        assert_eq!(
            j(DrawBasis::Agreement {
                move_number: 12,
                early: true
            }),
            r#"{"kind":"agreement","move_number":12,"early":true}"#
        );
        let back: DrawBasis =
            serde_json::from_str(r#"{"kind":"rule","rule":"7.2.8","ply":9}"#).unwrap();
        assert_eq!(
            back,
            DrawBasis::Rule {
                rule: DrawRule::R7_2_8,
                ply: 9
            }
        );
    }

    #[test]
    fn outcome_in_words() {
        assert_eq!(Outcome::WhiteWins.to_string(), "White wins");
        assert_eq!(Outcome::Draw.to_string(), "draw");
    }
}
