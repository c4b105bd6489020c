//! Rule-by-rule tests of the tracker and the verdict over synthetic ply facts.

use super::*;
use crate::Color::{Black, White};
use crate::diag::codes;
use crate::draw::{DrawBasis, Outcome, SideMaterial, Verdict};

use DrawRule::*;
use Edition::{Fmjd, Russia};

/// What the tests look at inside a tracker.
impl DrawTracker {
    /// The state of every move-count rule of the edition (repetition is followed
    /// separately: see [`occurrences`](Self::occurrences)), in article order.
    fn rule_states(&self) -> &[RuleState] {
        &self.states
    }

    /// The state of one rule, if the edition has it (and it is not repetition).
    fn rule_state(&self, rule: DrawRule) -> Option<&RuleState> {
        self.states.iter().find(|s| s.rule == rule)
    }

    /// The plies (0 = initial position) after which this position occurred so far, for a
    /// position that occurred at least twice (a position seen once may be listed or not:
    /// the tracker forgets positions that can never stand again).
    fn occurrences(&self, key: &PositionKey) -> &[u32] {
        self.seen.get(key).map_or(&[], Vec::as_slice)
    }
}

/// `n` kings, no men, none on the main road.
fn k(n: u8) -> SideMaterial {
    SideMaterial::new(n, 0)
}

/// `kings` kings and `men` men, none on the main road.
fn km(kings: u8, men: u8) -> SideMaterial {
    SideMaterial::new(kings, men)
}

fn mat(white: SideMaterial, black: SideMaterial) -> Material {
    Material::new(white, black)
}

/// The start position's material: 12 men each, no rule applies.
fn start() -> Material {
    mat(km(0, 12), km(0, 12))
}

/// A game driven by synthetic facts. Every ply reaches a new position unless `to` names
/// one, so repetitions only happen on purpose.
struct Game {
    t: DrawTracker,
    material: Material,
    next: Color,
    serial: u32,
}

impl Game {
    fn new(edition: Edition, material: Material, to_move: Color) -> Self {
        Game {
            t: DrawTracker::new(edition, material, PositionKey::new([0; 4], to_move)),
            material,
            next: to_move,
            serial: 1000,
        }
    }

    fn fresh(&mut self) -> [u32; 4] {
        self.serial += 1;
        [self.serial, 1, 0, 0]
    }

    fn push_facts(
        &mut self,
        capture: bool,
        man_moved: bool,
        promotion: bool,
        after: Material,
        placement: [u32; 4],
        has_moves: bool,
    ) -> Option<DrawEvent> {
        let mover = self.next;
        self.next = mover.opponent();
        self.material = after;
        self.t.push(&PlyFacts {
            mover,
            capture,
            man_moved,
            promotion,
            after,
            key: PositionKey::new(placement, mover.opponent()),
            side_to_move_has_moves: has_moves,
        })
    }

    /// A quiet king move; material unchanged.
    fn king(&mut self) -> Option<DrawEvent> {
        let p = self.fresh();
        self.push_facts(false, false, false, self.material, p, true)
    }

    /// A quiet king move that changes who stands on the main road.
    fn king_to(&mut self, after: Material) -> Option<DrawEvent> {
        let p = self.fresh();
        self.push_facts(false, false, false, after, p, true)
    }

    /// A quiet man move, no promotion.
    fn man(&mut self) -> Option<DrawEvent> {
        let p = self.fresh();
        self.push_facts(false, true, false, self.material, p, true)
    }

    /// A man move that promotes.
    fn promote(&mut self, after: Material) -> Option<DrawEvent> {
        let p = self.fresh();
        self.push_facts(false, true, true, after, p, true)
    }

    /// A capture by a king.
    fn capture(&mut self, after: Material) -> Option<DrawEvent> {
        let p = self.fresh();
        self.push_facts(true, false, false, after, p, true)
    }

    /// A quiet king move after which the opponent has no legal move.
    fn blocking_win(&mut self) -> Option<DrawEvent> {
        let p = self.fresh();
        self.push_facts(false, false, false, self.material, p, false)
    }

    /// A quiet king move to the named placement `id` (only king moves can bring a
    /// placement back: men never retreat, and the tracker relies on it).
    fn to(&mut self, id: u32) -> Option<DrawEvent> {
        self.push_facts(false, false, false, self.material, [id, 0, 0, 0], true)
    }

    fn ply(&self) -> u32 {
        self.t.ply()
    }

    fn auto(&self) -> Option<(DrawRule, u32)> {
        self.t.automatic_draw().map(|e| (e.rule, e.ply))
    }

    fn state(&self, rule: DrawRule) -> RuleState {
        *self.t.rule_state(rule).expect("rule of this edition")
    }

    /// Quiet king moves up to ply `at - 1` with no automatic draw, then one more that
    /// must draw by `rule`.
    fn expect_draw_at(&mut self, rule: DrawRule, at: u32) {
        self.quiet_until(at - 1);
        let ev = self.king();
        assert_eq!(
            ev.map(|e| (e.rule, e.ply, e.kind)),
            Some((rule, at, DrawEventKind::Automatic)),
            "expected {rule} at ply {at}"
        );
    }

    /// Quiet king moves up to ply `last`, asserting no automatic draw.
    fn quiet_until(&mut self, last: u32) {
        while self.ply() < last {
            let ev = self.king();
            assert_eq!(ev, None, "no event expected at ply {}", self.ply());
        }
    }
}

// ---------------------------------------------------------------------------------------
// russia: 6.1.8.6
// ---------------------------------------------------------------------------------------

#[test]
fn r6186_two_kings_v_king_fires_on_tenth_ply() {
    // 2K v K: 3 pieces, 5 moves each = 10 plies after the setup (ply 0 not counted).
    let mut g = Game::new(Russia, mat(k(2), k(1)), White);
    let st = g.state(R6_1_8_6);
    assert!(st.holds);
    assert_eq!(st.established_at, Some(0));
    assert_eq!(st.fires_at, Some(10));
    assert_eq!(st.counting, Some(Counting::MovesEach { moves: 5 }));
    g.quiet_until(9);
    assert_eq!(g.state(R6_1_8_6).plies, 9);
    assert_eq!(g.state(R6_1_8_6).moves, [5, 4]);
    g.expect_draw_at(R6_1_8_6, 10);
    assert_eq!(g.state(R6_1_8_6).fires_at, Some(10));
}

#[test]
fn r6186_black_to_move_at_setup_same_count() {
    let mut g = Game::new(Russia, mat(k(2), k(1)), Black);
    g.expect_draw_at(R6_1_8_6, 10);
}

#[test]
fn r6186_king_v_king() {
    let mut g = Game::new(Russia, mat(k(1), k(1)), White);
    g.expect_draw_at(R6_1_8_6, 10);
}

#[test]
fn r6186_man_moves_do_not_restart_promotion_does() {
    // K+M v K: man moves keep the balance; the promotion to 2K v K changes it.
    let mut g = Game::new(Russia, mat(km(1, 1), k(1)), White);
    assert_eq!(g.man(), None); // ply 1
    assert_eq!(g.king(), None); // 2
    assert_eq!(g.man(), None); // 3
    assert_eq!(g.state(R6_1_8_6).established_at, Some(0));
    assert_eq!(g.king(), None); // 4
    assert_eq!(g.promote(mat(k(2), k(1))), None); // 5: balance changes
    let st = g.state(R6_1_8_6);
    assert_eq!(
        (st.established_at, st.plies, st.fires_at),
        (Some(5), 0, Some(15))
    );
    g.expect_draw_at(R6_1_8_6, 15);
}

#[test]
fn r6186_man_moves_keep_counting_to_the_limit() {
    let mut g = Game::new(Russia, mat(km(1, 1), k(1)), White);
    for _ in 0..4 {
        assert_eq!(g.man(), None);
        assert_eq!(g.king(), None);
    }
    assert_eq!(g.man(), None); // 9
    assert_eq!(g.king().map(|e| (e.rule, e.ply)), Some((R6_1_8_6, 10)));
}

#[test]
fn r6186_capture_restarts() {
    // 2K v 2K; Black captures a king on ply 7 -> K v 2K, a 3-piece ending from ply 7.
    let mut g = Game::new(Russia, mat(k(2), k(2)), White);
    g.quiet_until(6);
    assert_eq!(g.capture(mat(k(1), k(2))), None);
    assert_eq!(g.state(R6_1_8_6).established_at, Some(7));
    // 6.1.8.8 needs 4-7 pieces: it stops holding.
    assert!(!g.state(R6_1_8_8).holds);
    g.expect_draw_at(R6_1_8_6, 17);
}

#[test]
fn r6186_four_five_pieces_sixty_plies() {
    // K+M v K+M, a White man move every 20 plies keeps 6.1.8.8 from firing.
    let mut g = Game::new(Russia, mat(km(1, 1), km(1, 1)), White);
    g.quiet_until(20);
    assert_eq!(g.man(), None); // 21
    g.quiet_until(40);
    assert_eq!(g.man(), None); // 41
    assert_eq!(g.state(R6_1_8_8).fires_at, Some(71));
    assert_eq!(g.state(R6_1_8_6).fires_at, Some(60));
    g.expect_draw_at(R6_1_8_6, 60);
}

#[test]
fn r6186_six_seven_pieces_hundred_twenty_plies() {
    // K+2M v K+2M.
    let mut g = Game::new(Russia, mat(km(1, 2), km(1, 2)), White);
    for at in [41, 81] {
        g.quiet_until(at - 1);
        assert_eq!(g.man(), None);
    }
    g.expect_draw_at(R6_1_8_6, 120);
}

#[test]
fn r6186_needs_kings_on_both_sides() {
    // 2K v M: no rule of the russia edition applies.
    let mut g = Game::new(Russia, mat(k(2), km(0, 1)), White);
    assert!(g.t.rule_states().iter().all(|s| !s.holds));
    for _ in 0..100 {
        assert_eq!(g.king(), None);
        assert_eq!(g.man(), None);
    }
}

#[test]
fn r6186_eight_pieces_no_rule() {
    let mut g = Game::new(Russia, mat(k(4), k(4)), White);
    g.quiet_until(300);
    assert_eq!(g.auto(), None);
}

// ---------------------------------------------------------------------------------------
// russia: 6.1.8.8
// ---------------------------------------------------------------------------------------

#[test]
fn r6188_two_kings_each_thirty_plies() {
    // 2K v 2K: 4 pieces, only king moves, 15 moves each.
    let mut g = Game::new(Russia, mat(k(2), k(2)), White);
    assert_eq!(g.state(R6_1_8_8).fires_at, Some(30));
    assert_eq!(g.state(R6_1_8_6).fires_at, Some(60));
    g.expect_draw_at(R6_1_8_8, 30);
}

#[test]
fn r6188_man_move_restarts() {
    // K+M v 2K: the man moves on ply 11; the count starts again after it.
    let mut g = Game::new(Russia, mat(km(1, 1), k(2)), White);
    g.quiet_until(10);
    assert_eq!(g.man(), None); // 11
    let st = g.state(R6_1_8_8);
    assert_eq!((st.established_at, st.fires_at), (Some(11), Some(41)));
    g.expect_draw_at(R6_1_8_8, 41);
}

#[test]
fn r6188_capture_restarts() {
    // 3K v 2K (5 pieces); capture on ply 20 -> 2K v 2K (4 pieces) from ply 20.
    let mut g = Game::new(Russia, mat(k(3), k(2)), White);
    g.quiet_until(19);
    assert_eq!(g.capture(mat(k(2), k(2))), None);
    g.expect_draw_at(R6_1_8_8, 50);
}

#[test]
fn r6188_six_seven_pieces_fifty_plies() {
    let mut g = Game::new(Russia, mat(k(3), k(3)), Black);
    g.expect_draw_at(R6_1_8_8, 50);
}

// ---------------------------------------------------------------------------------------
// russia: 6.1.8.3 and 6.1.8.4
// ---------------------------------------------------------------------------------------

#[test]
fn r6183_three_kings_on_road_white_to_move() {
    // White's 15th move after the setup: plies 1, 3, …, 29.
    let mut g = Game::new(Russia, mat(k(3).on_road(1), k(1)), White);
    let st = g.state(R6_1_8_3);
    assert_eq!(
        st.counting,
        Some(Counting::StrongerSide {
            side: Some(White),
            moves: 15
        })
    );
    assert_eq!(st.fires_at, Some(29));
    // 6.1.8.4 holds too, with the same limit: the earlier article is reported.
    assert_eq!(g.state(R6_1_8_4).fires_at, Some(29));
    g.expect_draw_at(R6_1_8_3, 29);
    assert_eq!(g.state(R6_1_8_3).moves, [15, 14]);
}

#[test]
fn r6183_black_to_move_at_setup() {
    // Black moves first: White's 15th move is ply 30 (6.1.8.8 also reaches 30: the
    // earlier article wins the tie).
    let mut g = Game::new(Russia, mat(k(3).on_road(1), k(1)), Black);
    assert_eq!(g.state(R6_1_8_8).fires_at, Some(30));
    g.expect_draw_at(R6_1_8_3, 30);
}

#[test]
fn r6183_established_by_the_stronger_sides_capture() {
    // White captures on ply 1 (3K v 2K -> 3K v K): that ply is not counted; White's
    // 1st move is ply 3, the 15th ply 31.
    let mut g = Game::new(Russia, mat(k(3).on_road(1), k(2)), White);
    assert_eq!(g.capture(mat(k(3).on_road(1), k(1))), None);
    assert_eq!(g.state(R6_1_8_3).established_at, Some(1));
    assert_eq!(g.state(R6_1_8_3).fires_at, Some(31));
    g.expect_draw_at(R6_1_8_3, 31);
}

#[test]
fn r6183_established_by_the_weak_sides_capture() {
    // 4K v 2K; Black captures on ply 2 -> 3K v K: White's 15th move is ply 31.
    let mut g = Game::new(Russia, mat(k(4).on_road(1), k(2)), White);
    assert_eq!(g.king(), None);
    assert_eq!(g.capture(mat(k(3).on_road(1), k(1))), None);
    assert_eq!(g.state(R6_1_8_3).fires_at, Some(31));
    assert_eq!(g.state(R6_1_8_8).fires_at, Some(32));
    g.expect_draw_at(R6_1_8_3, 31);
}

#[test]
fn r6183_one_short_is_no_draw() {
    let mut g = Game::new(Russia, mat(k(3).on_road(1), k(1)), White);
    g.quiet_until(28);
    assert_eq!(g.auto(), None);
    assert_eq!(g.state(R6_1_8_3).moves, [14, 14]);
}

#[test]
fn r6183_leaving_the_road_restarts_it_but_not_6184() {
    let mut g = Game::new(Russia, mat(k(3).on_road(1), k(1)), White);
    g.quiet_until(4);
    assert_eq!(g.king_to(mat(k(3), k(1))), None); // 5: off the road
    assert!(!g.state(R6_1_8_3).holds);
    assert_eq!(g.king(), None); // 6
    assert_eq!(g.king_to(mat(k(3).on_road(1), k(1))), None); // 7: back on it
    let st = g.state(R6_1_8_3);
    assert_eq!((st.established_at, st.fires_at), (Some(7), Some(37)));
    assert_eq!(g.state(R6_1_8_4).established_at, Some(0));
    g.expect_draw_at(R6_1_8_4, 29);
}

#[test]
fn r6184_three_kings_off_the_road() {
    let mut g = Game::new(Russia, mat(k(1), k(3)), Black);
    assert!(!g.state(R6_1_8_3).holds);
    assert_eq!(
        g.state(R6_1_8_4).counting,
        Some(Counting::StrongerSide {
            side: Some(Black),
            moves: 15
        })
    );
    g.expect_draw_at(R6_1_8_4, 29);
}

#[test]
fn r6184_four_kings_and_kings_plus_man() {
    let mut g = Game::new(Russia, mat(k(4), k(1)), White);
    g.expect_draw_at(R6_1_8_4, 29);

    // 3K+M v K: a man move does not restart 6.1.8.4 (it restarts 6.1.8.8).
    let mut g = Game::new(Russia, mat(km(3, 1), k(1)), White);
    assert_eq!(g.king(), None);
    assert_eq!(g.king(), None);
    assert_eq!(g.man(), None); // 3
    assert_eq!(g.state(R6_1_8_8).fires_at, Some(33));
    g.expect_draw_at(R6_1_8_4, 29);
}

#[test]
fn r6184_promotion_restarts() {
    // 3K+M v K; the man promotes on ply 5 (White): White's 15th move after it is ply 35.
    let mut g = Game::new(Russia, mat(km(3, 1), k(1)), White);
    g.quiet_until(4);
    assert_eq!(g.promote(mat(k(4), k(1))), None);
    assert_eq!(g.state(R6_1_8_4).fires_at, Some(35));
    g.expect_draw_at(R6_1_8_4, 35);
}

#[test]
fn r6184_two_kings_and_man_is_not_enough() {
    let g = Game::new(Russia, mat(km(2, 1), k(1)), White);
    assert!(!g.state(R6_1_8_4).holds);
    assert!(!g.state(R6_1_8_3).holds);
}

#[test]
fn r6184_win_on_the_limit_ply_wins() {
    // White takes the lone king with its 15th move: a win, not a draw.
    let mut g = Game::new(Russia, mat(k(3), k(1)), White);
    g.quiet_until(28);
    let p = g.fresh();
    assert_eq!(
        g.push_facts(true, false, false, mat(k(3), k(0)), p, false),
        None
    );
    assert_eq!(g.auto(), None);
    assert_eq!(g.t.won_at(), Some((29, White)));

    // Or blocks it on that ply.
    let mut g = Game::new(Russia, mat(k(3), k(1)), White);
    g.quiet_until(28);
    assert_eq!(g.blocking_win(), None);
    assert_eq!(g.auto(), None);
    assert_eq!(g.t.won_at(), Some((29, White)));
    let v = g.t.verdict(Outcome::WhiteWins, 29);
    assert!(v.findings.is_empty());
}

// ---------------------------------------------------------------------------------------
// russia: 6.1.8.5
// ---------------------------------------------------------------------------------------

#[test]
fn r6185_king_and_two_men_against_king_on_road() {
    let mut g = Game::new(Russia, mat(km(1, 2), k(1).on_road(1)), White);
    assert_eq!(g.state(R6_1_8_5).fires_at, Some(9));
    g.expect_draw_at(R6_1_8_5, 9);

    let mut g = Game::new(Russia, mat(km(1, 2), k(1).on_road(1)), Black);
    g.quiet_until(9);
    assert_eq!(g.king().map(|e| (e.rule, e.ply)), Some((R6_1_8_5, 10)));
}

#[test]
fn r6185_three_men_and_three_kings() {
    let mut g = Game::new(Russia, mat(km(0, 3), k(1).on_road(1)), White);
    // White moves men (no promotion): the count goes on.
    for _ in 0..4 {
        assert_eq!(g.man(), None);
        assert_eq!(g.king(), None);
    }
    assert_eq!(g.man().map(|e| (e.rule, e.ply)), Some((R6_1_8_5, 9)));

    // Three kings off the road against a king on it: 6.1.8.5 comes before 6.1.8.4.
    let mut g = Game::new(Russia, mat(k(3), k(1).on_road(1)), White);
    assert_eq!(g.state(R6_1_8_4).fires_at, Some(29));
    g.expect_draw_at(R6_1_8_5, 9);
}

#[test]
fn r6185_does_not_hold_with_a_piece_on_the_road() {
    let g = Game::new(Russia, mat(km(1, 2).on_road(1), k(1).on_road(1)), White);
    assert!(!g.state(R6_1_8_5).holds);
    let g = Game::new(Russia, mat(km(1, 2), k(1)), White);
    assert!(!g.state(R6_1_8_5).holds);
    let g = Game::new(Russia, mat(km(2, 2), k(1).on_road(1)), White);
    assert!(!g.state(R6_1_8_5).holds);
}

#[test]
fn r6185_lone_king_leaving_and_regaining_the_road_restarts() {
    let mut g = Game::new(Russia, mat(km(1, 2), k(1).on_road(1)), White);
    g.quiet_until(3);
    assert_eq!(g.king_to(mat(km(1, 2), k(1))), None); // 4: Black leaves the road
    assert!(!g.state(R6_1_8_5).holds);
    assert_eq!(g.king(), None); // 5
    assert_eq!(g.king_to(mat(km(1, 2), k(1).on_road(1))), None); // 6: back
    // Established by Black's ply 6: White's moves 7, 9, 11, 13, 15.
    assert_eq!(g.state(R6_1_8_5).fires_at, Some(15));
    g.expect_draw_at(R6_1_8_5, 15);
}

#[test]
fn r6185_stronger_side_stepping_on_the_road_stops_it() {
    let mut g = Game::new(Russia, mat(km(1, 2), k(1).on_road(1)), White);
    g.quiet_until(6);
    assert_eq!(g.king_to(mat(km(1, 2).on_road(1), k(1).on_road(1))), None); // 7
    assert!(!g.state(R6_1_8_5).holds);
    g.quiet_until(20);
    assert_eq!(g.auto(), None);
}

#[test]
fn r6185_promotion_restarts() {
    let mut g = Game::new(Russia, mat(km(1, 2), k(1).on_road(1)), White);
    g.quiet_until(6);
    assert_eq!(g.promote(mat(km(2, 1), k(1).on_road(1))), None); // 7 (White)
    assert_eq!(g.state(R6_1_8_5).fires_at, Some(17));
    g.expect_draw_at(R6_1_8_5, 17);
}

// ---------------------------------------------------------------------------------------
// fmjd: 7.2.4 – 7.2.8
// ---------------------------------------------------------------------------------------

#[test]
fn f724_three_kings_against_king() {
    let mut g = Game::new(Fmjd, mat(k(3), k(1)), White);
    assert_eq!(g.state(R7_2_5).fires_at, Some(30));
    g.quiet_until(28);
    assert_eq!(g.auto(), None);
    g.expect_draw_at(R7_2_4, 29);
}

#[test]
fn f724_capture_restarts_and_men_exclude_it() {
    // 4K v 2K; White captures on ply 3 -> 4K v K, White's 15th move after it: ply 33.
    let mut g = Game::new(Fmjd, mat(k(4), k(2)), White);
    g.quiet_until(2);
    assert_eq!(g.capture(mat(k(4), k(1))), None);
    assert_eq!(g.state(R7_2_4).fires_at, Some(33));
    g.expect_draw_at(R7_2_4, 33);

    // 3K+M v K: 7.2.4 needs kings only; with the man moving, 7.2.6 decides (60 plies).
    let mut g = Game::new(Fmjd, mat(km(3, 1), k(1)), White);
    assert!(!g.state(R7_2_4).holds);
    for at in [21, 41] {
        g.quiet_until(at - 1);
        assert_eq!(g.man(), None);
    }
    g.expect_draw_at(R7_2_6, 60);
}

#[test]
fn f725_only_kings_fifteen_moves_each() {
    let mut g = Game::new(Fmjd, mat(k(2), k(2)), White);
    g.expect_draw_at(R7_2_5, 30);
    // 8 pieces and more: 7.2.5 has no piece limit.
    let mut g = Game::new(Fmjd, mat(k(4), k(4)), Black);
    g.expect_draw_at(R7_2_5, 30);
}

#[test]
fn f725_man_move_and_capture_restart() {
    let mut g = Game::new(Fmjd, mat(km(1, 1), k(3)), White);
    g.quiet_until(10);
    assert_eq!(g.man(), None); // 11
    assert_eq!(g.state(R7_2_5).fires_at, Some(41));
    g.quiet_until(30);
    assert_eq!(g.capture(mat(km(1, 1), k(2))), None); // 31 (White)
    assert_eq!(g.state(R7_2_6).fires_at, Some(91));
    assert_eq!(g.state(R7_2_5).established_at, Some(31));
    g.expect_draw_at(R7_2_5, 61);
}

#[test]
fn f726_four_five_and_six_seven() {
    let mut g = Game::new(Fmjd, mat(km(1, 1), km(1, 1)), White);
    for at in [21, 41] {
        g.quiet_until(at - 1);
        assert_eq!(g.man(), None);
    }
    g.expect_draw_at(R7_2_6, 60);

    let mut g = Game::new(Fmjd, mat(km(1, 2), km(1, 2)), White);
    for at in [21, 41, 61, 81, 101] {
        g.quiet_until(at - 1);
        assert_eq!(g.man(), None);
    }
    g.quiet_until(119);
    assert_eq!(g.auto(), None);
    g.expect_draw_at(R7_2_6, 120);
}

#[test]
fn f726_no_rule_for_three_pieces_with_men_moving() {
    // K+M v K in fmjd: 7.2.8 (stronger side's 5th move), not 7.2.6.
    let g = Game::new(Fmjd, mat(km(1, 1), k(1)), White);
    assert!(!g.state(R7_2_6).holds);
    assert!(g.state(R7_2_8).holds);
}

#[test]
fn f727_three_pieces_against_king_on_road() {
    for white in [k(3), km(2, 1), km(1, 2), km(0, 3), km(1, 2).on_road(1)] {
        let mut g = Game::new(Fmjd, mat(white, k(1).on_road(1)), White);
        g.expect_draw_at(R7_2_7, 9);
    }
    let mut g = Game::new(Fmjd, mat(km(1, 2), k(1).on_road(1)), Black);
    g.expect_draw_at(R7_2_7, 10);
    // Off the road: no 7.2.7.
    let g = Game::new(Fmjd, mat(km(1, 2), k(1)), White);
    assert!(!g.state(R7_2_7).holds);
}

#[test]
fn f727_promotion_restarts() {
    let mut g = Game::new(Fmjd, mat(km(1, 2), k(1).on_road(1)), White);
    g.quiet_until(6);
    assert_eq!(g.promote(mat(km(2, 1), k(1).on_road(1))), None); // 7
    g.expect_draw_at(R7_2_7, 17);
}

#[test]
fn f728_two_kings_and_king_and_man() {
    let mut g = Game::new(Fmjd, mat(k(2), k(1)), White);
    g.quiet_until(8);
    assert_eq!(g.auto(), None);
    g.expect_draw_at(R7_2_8, 9);

    let mut g = Game::new(Fmjd, mat(k(1), k(2)), White);
    // Black is stronger and moves second: its 5th move is ply 10.
    g.expect_draw_at(R7_2_8, 10);

    // K+M v K: man moves go on counting; the promotion on ply 3 restarts.
    let mut g = Game::new(Fmjd, mat(km(1, 1), k(1)), White);
    assert_eq!(g.man(), None);
    assert_eq!(g.king(), None);
    assert_eq!(g.promote(mat(k(2), k(1))), None); // 3
    assert_eq!(g.state(R7_2_8).fires_at, Some(13));
    g.expect_draw_at(R7_2_8, 13);
}

#[test]
fn f728_king_against_king_either_side() {
    let mut g = Game::new(Fmjd, mat(k(1), k(1)), White);
    assert_eq!(
        g.state(R7_2_8).counting,
        Some(Counting::StrongerSide {
            side: None,
            moves: 5
        })
    );
    g.expect_draw_at(R7_2_8, 9);

    // Established by Black's capture on ply 4: White's 5th move after it is ply 13.
    let mut g = Game::new(Fmjd, mat(k(1), k(2)), White);
    assert_eq!(g.king(), None);
    assert_eq!(g.king(), None);
    assert_eq!(g.king(), None);
    assert_eq!(g.capture(mat(k(1), k(1))), None); // 4 (Black)
    assert_eq!(g.state(R7_2_8).fires_at, Some(13));
    g.expect_draw_at(R7_2_8, 13);
}

#[test]
fn f728_king_against_king_win_on_limit_then_no_late_draw() {
    // White's 5th move (ply 9) blocks Black: a win. Black's 5th move would be ply 10,
    // but the game is over: no draw is reported afterwards.
    let mut g = Game::new(Fmjd, mat(k(1), k(1)), White);
    g.quiet_until(8);
    assert_eq!(g.blocking_win(), None);
    assert_eq!(g.king(), None);
    assert_eq!(g.auto(), None);
    assert_eq!(g.state(R7_2_8).fires_at, Some(9));
}

#[test]
fn f728_two_men_do_not_count() {
    let g = Game::new(Fmjd, mat(km(0, 2), k(1)), White);
    assert!(!g.state(R7_2_8).holds);
}

#[test]
fn fmjd_win_on_limit_ply() {
    let mut g = Game::new(Fmjd, mat(k(2), k(1)), White);
    g.quiet_until(8);
    assert_eq!(g.blocking_win(), None);
    assert_eq!(g.auto(), None);
    assert_eq!(g.t.won_at(), Some((9, White)));
}

// ---------------------------------------------------------------------------------------
// only the first automatic draw; events
// ---------------------------------------------------------------------------------------

#[test]
fn only_the_first_automatic_draw_is_reported() {
    let mut g = Game::new(Russia, mat(k(2), k(1)), White);
    g.expect_draw_at(R6_1_8_6, 10);
    for _ in 0..30 {
        assert_eq!(g.king(), None);
    }
    assert_eq!(g.t.events().len(), 1);
    assert_eq!(g.auto(), Some((R6_1_8_6, 10)));
}

#[test]
fn start_position_has_no_rule() {
    let g = Game::new(Russia, start(), White);
    assert!(g.t.rule_states().iter().all(|s| !s.holds));
    let g = Game::new(Fmjd, start(), White);
    assert!(g.t.rule_states().iter().all(|s| !s.holds));
    assert_eq!(g.t.rule_states().len(), 5);
}

// ---------------------------------------------------------------------------------------
// threefold repetition
// ---------------------------------------------------------------------------------------

#[test]
fn repetition_counts_the_initial_position() {
    let mut g = Game::new(Russia, start(), White);
    // Placement 0 with White to move is the initial position.
    assert_eq!(g.to(1), None); // 1: Black to move
    assert_eq!(g.to(0), None); // 2: White to move, second time
    assert_eq!(g.to(1), None); // 3
    let ev = g.to(0).unwrap(); // 4: third time
    assert_eq!(
        (ev.rule, ev.ply, ev.kind),
        (Repetition, 4, DrawEventKind::Claimable)
    );
    assert_eq!(
        g.t.occurrences(&PositionKey::new([0; 4], White)),
        &[0, 2, 4]
    );
    // The fourth time is another claim.
    assert_eq!(g.to(1).map(|e| e.ply), Some(5));
    assert_eq!(g.t.events().len(), 2);
    assert_eq!(g.auto(), None);
    // A man move ends what can repeat; what did repeat keeps every ply.
    assert_eq!(g.man(), None);
    assert_eq!(
        g.t.occurrences(&PositionKey::new([1, 0, 0, 0], Black)),
        &[1, 3, 5]
    );
    assert_eq!(
        g.t.occurrences(&PositionKey::new([0; 4], White)),
        &[0, 2, 4]
    );
}

#[test]
fn repetition_need_not_be_consecutive() {
    // Placement 7 with Black to move stands after White's plies 1, 11 and 21, other king
    // moves between.
    let mut g = Game::new(Fmjd, start(), White);
    for at in [1, 11] {
        while g.ply() < at - 1 {
            assert_eq!(g.king(), None);
        }
        assert_eq!(g.to(7), None);
    }
    while g.ply() < 20 {
        assert_eq!(g.king(), None);
    }
    let ev = g.to(7).unwrap();
    assert_eq!((ev.rule, ev.ply), (R7_2_3, 21));
    assert_eq!(
        g.t.occurrences(&PositionKey::new([7, 0, 0, 0], Black)),
        &[1, 11, 21]
    );
}

#[test]
fn repetition_same_placement_other_side_to_move_is_different() {
    let mut g = Game::new(Russia, start(), White);
    // Placement 5 after White's plies (Black to move) and after Black's (White to move).
    let mut events = Vec::new();
    for _ in 0..4 {
        events.extend(g.to(5));
    }
    // Plies 1, 3: Black to move (twice); plies 2, 4: White to move (twice).
    assert!(events.is_empty());
    assert_eq!(g.to(5).map(|e| (e.rule, e.ply)), Some((Repetition, 5)));
    assert_eq!(g.to(5).map(|e| (e.rule, e.ply)), Some((Repetition, 6)));
}

#[test]
fn fen_setup_counts_as_first_occurrence_in_fmjd() {
    let mut g = Game::new(Fmjd, start(), Black);
    assert_eq!(g.to(1), None);
    assert_eq!(g.to(0), None);
    assert_eq!(g.to(1), None);
    assert_eq!(g.to(0).map(|e| (e.rule, e.ply)), Some((R7_2_3, 4)));
}

// ---------------------------------------------------------------------------------------
// verdict
// ---------------------------------------------------------------------------------------

#[test]
fn verdict_play_after_automatic_draw_message() {
    // 47 plies of the middle game, a capture to 2K v K on ply 47, 10 quiet plies: drawn
    // at 57 by 6.1.8.6; 4 more plies are recorded.
    let mut g = Game::new(Russia, start(), White);
    for _ in 0..46 {
        assert_eq!(g.man(), None);
    }
    assert_eq!(g.capture(mat(k(2), k(1))), None);
    g.expect_draw_at(R6_1_8_6, 57);
    g.quiet_until(61);
    let v = g.t.verdict(Outcome::Draw, 61);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Rule {
            rule: R6_1_8_6,
            ply: 57
        })
    );
    assert_eq!(v.findings.len(), 1);
    let f = &v.findings[0];
    assert_eq!(f.rule, &codes::PLAY_AFTER_AUTOMATIC_DRAW);
    assert_eq!(f.ply, Some(58));
    assert_eq!(
        f.message,
        "drawn automatically at ply 57 by 6.1.8.6 (2-3 piece ending with kings on both sides, \
         balance unchanged for 5 moves each), yet 4 more plies follow"
    );
}

#[test]
fn verdict_draw_on_the_limit_has_no_findings() {
    let mut g = Game::new(Fmjd, mat(k(2), k(1)), White);
    g.expect_draw_at(R7_2_8, 9);
    let v = g.t.verdict(Outcome::Draw, 9);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Rule {
            rule: R7_2_8,
            ply: 9
        })
    );
    assert!(v.findings.is_empty());
    assert_eq!(v.automatic.map(|e| e.ply), Some(9));
}

#[test]
fn verdict_decisive_result_after_automatic_draw() {
    let mut g = Game::new(Russia, mat(k(3), k(1)), White);
    g.expect_draw_at(R6_1_8_4, 29);
    let v = g.t.verdict(Outcome::WhiteWins, 29);
    assert_eq!(v.basis, None);
    assert_eq!(v.findings.len(), 1);
    assert_eq!(v.findings[0].rule, &codes::RESULT_CONTRADICTS_DRAW_RULE);
    assert_eq!(v.findings[0].ply, None);
    assert!(v.findings[0].message.contains("White wins"));
    assert!(v.findings[0].message.contains("ply 29 by 6.1.8.4"));

    // Played on and "won" later: both findings, the ply one first.
    g.quiet_until(32);
    let v = g.t.verdict(Outcome::WhiteWins, 33);
    let codes: Vec<_> = v.findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(codes, ["D101", "D102"]);
    assert_eq!(v.findings[0].ply, Some(30));
    assert!(v.findings[0].message.contains("4 more plies"));

    // 0-0 is a sanction, not a result of play; * says nothing.
    let v = g.t.verdict(Outcome::BothLose, 29);
    assert!(v.findings.is_empty());
    let v = g.t.verdict(Outcome::Unknown, 30);
    assert_eq!(v.basis, None);
    let codes: Vec<_> = v.findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(codes, ["D101"]);
    assert!(v.findings[0].message.contains("1 more ply follows"));
}

#[test]
fn verdict_agreement_russia_early_and_not() {
    let play = |edition, plies: u32, first: u32, to_move| {
        let mut g = Game::new(edition, start(), to_move);
        g.t = g.t.clone().with_first_move_number(first);
        for _ in 0..plies {
            g.man();
        }
        g.t.verdict(Outcome::Draw, plies)
    };

    let v = play(Russia, 30, 1, White);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Agreement {
            move_number: 15,
            early: true
        })
    );
    let codes: Vec<_> = v.findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(codes, ["D103", "D104"]);
    assert_eq!(v.findings[0].ply, Some(30));
    assert!(v.findings[0].message.contains("agreement (6.1.8.1)"));
    assert!(v.findings[1].message.contains("White made 15, Black 15"));

    // 39 plies: White made 20 moves, Black 19: still early.
    let v = play(Russia, 39, 1, White);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Agreement {
            move_number: 20,
            early: true
        })
    );
    // 40 plies: 20 each.
    let v = play(Russia, 40, 1, White);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Agreement {
            move_number: 20,
            early: false
        })
    );
    let codes: Vec<_> = v.findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(codes, ["D103"]);

    // fmjd: never early.
    let v = play(Fmjd, 2, 1, White);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Agreement {
            move_number: 1,
            early: false
        })
    );
    assert!(v.findings[0].message.contains("agreement (7.2.1)"));

    // A setup at move 25 with Black to move: before it White made 25 moves, Black 24;
    // after one ply each side made 25.
    let v = play(Russia, 1, 25, Black);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Agreement {
            move_number: 25,
            early: false
        })
    );

    // No move at all: no game whose draw was agreed early.
    let v = play(Russia, 0, 1, White);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Agreement {
            move_number: 0,
            early: false
        })
    );
    assert_eq!(v.findings[0].ply, None);

    // A position set up (a problem, a study): never early.
    let mut g = Game::new(Russia, start(), White);
    g.t.set_from_start(false);
    for _ in 0..4 {
        g.man();
    }
    let v = g.t.verdict(Outcome::Draw, 4);
    let codes: Vec<_> = v.findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(codes, ["D103"]);
}

#[test]
fn verdict_repetition_basis_and_not_claimed() {
    let mut g = Game::new(Russia, start(), White);
    for id in [1, 0, 1, 0] {
        g.to(id);
    }
    for _ in 0..6 {
        g.man();
    }
    // A draw rests on the repetition at ply 4.
    let v = g.t.verdict(Outcome::Draw, 10);
    assert_eq!(v.basis, Some(DrawBasis::Repetition { ply: 4 }));
    assert!(v.findings.is_empty());

    // A decisive result: the claim was not made.
    let v = g.t.verdict(Outcome::BlackWins, 10);
    assert_eq!(v.basis, None);
    assert_eq!(v.findings.len(), 1);
    let f = &v.findings[0];
    assert_eq!(f.rule, &codes::REPETITION_NOT_CLAIMED);
    assert_eq!(f.ply, Some(4));
    assert!(f.message.contains("repetition"));
    assert!(f.message.contains("after plies 0, 2, 4"));
    assert!(f.message.contains("Black wins"));
}

#[test]
fn verdict_repetition_last_claim_is_the_basis() {
    let mut g = Game::new(Fmjd, start(), White);
    for id in [1, 0, 1, 0, 1] {
        g.to(id);
    }
    let v = g.t.verdict(Outcome::Draw, 5);
    assert_eq!(v.basis, Some(DrawBasis::Repetition { ply: 5 }));
    let v = g.t.verdict(Outcome::WhiteWins, 5);
    assert!(v.findings[0].message.contains("7.2.3"));
    assert!(v.findings[0].message.contains("2 repetition claims"));
}

#[test]
fn verdict_automatic_draw_beats_repetition_as_basis() {
    // 2K v K: positions repeat, and 6.1.8.6 draws at ply 10.
    let mut g = Game::new(Russia, mat(k(2), k(1)), White);
    let push = |g: &mut Game, id| {
        let m = g.material;
        g.push_facts(false, false, false, m, [id, 0, 0, 0], true)
    };
    for id in [1, 0, 1, 0] {
        push(&mut g, id);
    }
    assert_eq!(g.t.events().len(), 1);
    g.expect_draw_at(R6_1_8_6, 10);
    let v = g.t.verdict(Outcome::Draw, 10);
    assert_eq!(
        v.basis,
        Some(DrawBasis::Rule {
            rule: R6_1_8_6,
            ply: 10
        })
    );
    let v = g.t.verdict(Outcome::WhiteWins, 10);
    let codes: Vec<_> = v.findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(codes, ["D105", "D102"]);
}

/// The K v K shuffle of the D101/D102/D105 examples in `diag/codes.rs`:
/// `W:WK29:BK28`, 1. a1-b2 h2-g1 2. b2-a1 g1-h2 … (russia edition).
fn codes_example(plies: u32) -> DrawTracker {
    let m = mat(k(1), k(1));
    // White a1 = 29 / b2 = 25, Black h2 = 28 / g1 = 32.
    let key = |w: u32, b: u32, to_move| PositionKey::new([w, b, 0, 0], to_move);
    let mut t = DrawTracker::new(Russia, m, key(29, 28, White));
    let (mut w, mut b) = (29, 28);
    for ply in 1..=plies {
        let mover = if ply % 2 == 1 { White } else { Black };
        if mover == White {
            w = if w == 29 { 25 } else { 29 };
        } else {
            b = if b == 28 { 32 } else { 28 };
        }
        t.push(&PlyFacts {
            mover,
            capture: false,
            man_moved: false,
            promotion: false,
            after: m,
            key: key(w, b, mover.opponent()),
            side_to_move_has_moves: true,
        });
    }
    t
}

#[test]
fn diag_code_examples_do_what_they_say() {
    let codes_of = |v: Verdict| v.findings.iter().map(|f| f.rule.code).collect::<Vec<_>>();
    // D101: 11 plies, 1-1.
    let v = codes_example(11).verdict(Outcome::Draw, 11);
    assert_eq!(codes_of(v.clone()), ["D101"]);
    assert_eq!(v.findings[0].ply, Some(11));
    // D102: 10 plies, 2-0 (the repetition at ply 8 also gives D105).
    let v = codes_example(10).verdict(Outcome::WhiteWins, 10);
    assert_eq!(codes_of(v), ["D105", "D102"]);
    // D105: 8 plies, 2-0: the start position stood after plies 0, 4, 8.
    let v = codes_example(8).verdict(Outcome::WhiteWins, 8);
    assert_eq!(codes_of(v.clone()), ["D105"]);
    assert!(v.findings[0].message.contains("after plies 0, 4, 8"));
    // D103 + D104: four plies from the start, 1-1.
    let mut g = Game::new(Russia, start(), White);
    for _ in 0..4 {
        g.man();
    }
    assert_eq!(codes_of(g.t.verdict(Outcome::Draw, 4)), ["D103", "D104"]);
    // And every D code is documented.
    for c in [
        &codes::PLAY_AFTER_AUTOMATIC_DRAW,
        &codes::RESULT_CONTRADICTS_DRAW_RULE,
        &codes::DRAW_WITHOUT_BASIS,
        &codes::EARLY_DRAW_AGREEMENT,
        &codes::REPETITION_NOT_CLAIMED,
    ] {
        assert!(
            !c.explanation.is_empty() && !c.example.is_empty(),
            "{}",
            c.code
        );
    }
}

#[test]
fn no_condition_holds_without_kings() {
    // DrawTracker::push skips the rules while no king is on the board and all are idle.
    use super::condition;
    use crate::draw::{Edition, Material, SideMaterial};
    for edition in [Edition::Fmjd, Edition::Russia] {
        for &rule in edition.rules() {
            for wm in 0..=12u8 {
                for bm in 0..=12u8 {
                    for road in 0..=wm.min(8) {
                        let mut w = SideMaterial::new(0, wm);
                        w.on_main_road = road;
                        let m = Material::new(w, SideMaterial::new(0, bm));
                        assert_eq!(condition(rule, &m), None, "{rule:?} {m:?}");
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// other variants' federations: frisian, portuguese, threefold
// ---------------------------------------------------------------------------------------

#[test]
fn frisian_two_kings_against_a_king_have_seven_moves_each() {
    let mut g = Game::new(Edition::Frisian, mat(k(2), k(1)), White);
    assert_eq!(g.state(Frisian7).fires_at, Some(14));
    g.expect_draw_at(Frisian7, 14);
    // three kings against one: no limit
    let mut g = Game::new(Edition::Frisian, mat(k(3), k(1)), White);
    g.quiet_until(100);
    // a capture that leaves two kings against one starts the count
    let mut g = Game::new(Edition::Frisian, mat(k(3), k(2)), Black);
    g.quiet_until(5);
    assert_eq!(g.capture(mat(k(2), k(2))), None);
    assert_eq!(g.capture(mat(k(2), k(1))), None);
    g.expect_draw_at(Frisian7, 7 + 14);
}

#[test]
fn frisian_king_against_king_has_two_moves_each_and_no_repetition() {
    let mut g = Game::new(Edition::Frisian, mat(k(1), k(1)), White);
    g.expect_draw_at(Frisian2, 4);
    // a king and a man against a king: no rule
    let mut g = Game::new(Edition::Frisian, mat(km(1, 1), k(1)), White);
    for _ in 0..4 {
        for id in [1, 2] {
            assert_eq!(g.to(id), None, "no repetition rule");
        }
    }
    assert!(g.t.events().is_empty());
}

#[test]
fn portuguese_counts_moves_without_capture_or_promotion_with_any_material() {
    // men only: man moves count on, a capture restarts
    let mut g = Game::new(Edition::Portuguese, start(), White);
    for _ in 0..30 {
        assert_eq!(g.man(), None);
    }
    assert_eq!(g.capture(mat(km(0, 12), km(0, 11))), None);
    for _ in 0..39 {
        assert_eq!(g.man(), None);
    }
    assert_eq!(g.man().map(|e| (e.rule, e.ply)), Some((Portuguese20, 71)));
    // three kings, one on the long diagonal, against a king: 12 moves each
    let on_diagonal = mat(k(3).on_road(1), k(1));
    let mut g = Game::new(Edition::Portuguese, on_diagonal, White);
    g.expect_draw_at(Portuguese12, 24);
    let off = mat(k(3), k(1));
    let mut g = Game::new(Edition::Portuguese, off, White);
    g.expect_draw_at(Portuguese20, 40);
}

#[test]
fn threefold_editions_draw_nothing_automatically() {
    let mut g = Game::new(Edition::Threefold, mat(k(1), k(1)), White);
    g.quiet_until(200);
    for _ in 0..2 {
        for id in [1, 2] {
            g.to(id);
        }
    }
    let ev = g.to(1).expect("a third time");
    assert_eq!((ev.rule, ev.kind), (Repetition, DrawEventKind::Claimable));
}

#[test]
fn no_rule_holds_where_the_quick_test_says_none_can() {
    // every material with up to 12 men and 12 kings a side and any main-road count
    let mut sides = Vec::new();
    for men in 0..=12u8 {
        for kings in 0..=12u8 {
            for on_main_road in 0..=(men + kings).min(8) {
                sides.push(SideMaterial {
                    men,
                    kings,
                    on_main_road,
                });
            }
        }
    }
    let (mut checked, mut possible) = (0u64, 0u64);
    for edition in Edition::ALL {
        for &w in &sides {
            for &b in &sides {
                let m = Material::new(w, b);
                if may_meet_a_condition(edition, &m) {
                    possible += 1;
                    continue;
                }
                for &rule in edition.rules() {
                    assert_eq!(condition(rule, &m), None, "{rule:?} in {m:?}");
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked > 200_000 && possible > 1_000_000,
        "{checked} {possible}"
    );
}

#[test]
fn repetitions_are_found_as_a_count_over_the_whole_game_finds_them() {
    // random games of king moves among a few placements, now and then a man move or a
    // capture (after which, as on a board, no earlier placement comes back): every
    // repetition event and every list of plies, against counting over all positions
    let mut rng = pdnkit_gen::SplitMix64::new(17);
    let mut claims = 0;
    for game in 0..300 {
        // short runs of king moves, and long ones (hashed past SCANNED_RUN)
        let percent = [1, 8, 30][game % 3];
        let mut g = Game::new(Russia, start(), White);
        let (mut era, mut history) = (0u32, vec![(PositionKey::new([0; 4], White), 0)]);
        for ply in 1..=rng.below(300) as u32 {
            let mover = g.next;
            let irreversible = rng.chance(percent);
            if irreversible {
                era += 1;
            }
            let placement = [era, rng.below(4) as u32 + 1, 0, 0];
            let ev = g.push_facts(false, irreversible, false, g.material, placement, true);
            let key = PositionKey::new(placement, mover.opponent());
            history.push((key, ply));
            let plies: Vec<u32> = history
                .iter()
                .filter(|&&(k, _)| k == key)
                .map(|&(_, p)| p)
                .collect();
            let want = (plies.len() >= 3).then_some((Repetition, ply));
            assert_eq!(ev.map(|e| (e.rule, e.ply)), want, "ply {ply}");
            claims += usize::from(want.is_some());
            if plies.len() >= 2 {
                assert_eq!(g.t.occurrences(&key), plies, "ply {ply}");
            }
        }
    }
    assert!(claims > 1_000, "{claims}");
}

#[test]
fn a_long_run_of_king_moves_is_followed_by_hashing() {
    // 200,000 king moves to new placements, then back to two of the first ones: looking
    // through the whole run at every ply would take minutes; a repetition far back is
    // still found
    let mut g = Game::new(Russia, start(), White);
    for _ in 0..200_000 {
        assert_eq!(g.king(), None);
    }
    assert!(g.t.run.len() > 200_000 && g.t.run_index.len() > 200_000);
    // the initial placement with White to move, a second and a third time
    assert_eq!(g.to(5), None);
    assert_eq!(g.to(0), None);
    assert_eq!(g.to(5), None);
    let ev = g.to(0).unwrap();
    assert_eq!((ev.rule, ev.ply), (Repetition, 200_004));
    assert_eq!(
        g.t.occurrences(&PositionKey::new([0; 4], White)),
        &[0, 200_002, 200_004]
    );
}

#[test]
fn a_continuing_ply_leaves_the_projection_as_it_was() {
    // what `follow_rules` relies on to project a limit once, when the counting starts:
    // every counting, limit, side to move and number of moves already made, played on
    // ply by ply (each side in turn) until the limit is reached
    let mut countings = vec![];
    for moves in 1..=16 {
        countings.push(Counting::MovesEach { moves });
        for side in [None, Some(White), Some(Black)] {
            countings.push(Counting::StrongerSide { side, moves });
        }
    }
    let mut checked = 0;
    for counting in countings {
        for first in [White, Black] {
            for established in [0u32, 1, 7] {
                let mut st = RuleState {
                    holds: true,
                    counting: Some(counting),
                    established_at: Some(established),
                    ..RuleState::idle(R7_2_5)
                };
                let (mut ply, mut next) = (established, first);
                let projected = st.projection(ply, next);
                assert!(projected.is_some(), "{counting:?}");
                while !st.reached() {
                    ply += 1;
                    st.plies += 1;
                    st.moves[next.index()] += 1;
                    next = next.opponent();
                    if !st.reached() {
                        assert_eq!(st.projection(ply, next), projected, "{st:?} at {ply}");
                        checked += 1;
                    }
                }
                // and the limit is reached on the projected ply
                assert_eq!(Some(ply), projected, "{st:?}");
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
