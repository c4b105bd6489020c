//! Whole-game tests of the draw rules (issue 5): real PDN games, set up by FEN, replayed
//! through the public API, for every rule of both editions.
//!
//! Every expected rule and ply below is computed from the rule text and the README's
//! counting conventions (section "Draw rules"), written next to the test:
//! - "N moves each" (7.2.5, 7.2.6, 6.1.8.6, 6.1.8.8) = ply e + 2N;
//! - "the stronger side's Nth move" (7.2.4, 7.2.7, 7.2.8, 6.1.8.3–6.1.8.5) = ply e + 2N
//!   when the stronger side made the establishing ply e, e + 2N − 1 otherwise;
//! - a FEN setup establishes at ply 0 as if the side not to move had just moved.
//!
//! Games are built by a small deterministic generator ([`generate`]): a plan of steps
//! (quiet king moves, a man move, a promotion, a piece offered and captured, a winning
//! move) that picks legal moves with the engine under explicit constraints: a quiet ply
//! never leaves the opponent a capture, never repeats a position and keeps the test's
//! placement predicate. The moves are written in algebraic notation into a PDN game,
//! which is then replayed by `pdnkit::replay::replay`; [`run`] first asserts that every
//! move replayed legally and that captures happen exactly where the plan put them, so a
//! broken fixture fails loudly rather than testing something else.

use std::collections::HashSet;

mod common;

use pdnkit::Color;
use pdnkit::check::CheckOptions;
use pdnkit::diag::Diagnostic;
use pdnkit::draw::{DrawBasis, Edition, Verdict};
use pdnkit::replay::{Ply, Status, setup_position};
use pdnkit::rules::notation::{Style, format_move};
use pdnkit::rules::{Bitboard, Move, Position, Square};
use pdnkit::run::check_reader;

use Edition::{Fmjd, Russia};

// ---------------------------------------------------------------------------------------
// Positions and placement predicates
// ---------------------------------------------------------------------------------------

/// The main road a1–h8 in numeric squares.
const ROAD: [u32; 8] = [29, 25, 22, 18, 15, 11, 8, 4];

fn position(fen: &str) -> (Position, u32) {
    let (pos, number) = setup_position(fen, None).unwrap_or_else(|e| panic!("{e}"));
    (pos, number.unwrap_or(1))
}

fn on_road(pos: &Position, color: Color) -> usize {
    pos.pieces(color)
        .filter(|s| ROAD.contains(&s.numeric()))
        .count()
}

fn has(set: Bitboard, numeric: u32) -> bool {
    Square::from_numeric(numeric).is_some_and(|s| set.contains(s))
}

fn white_kings_on(pos: &Position, squares: &[u32]) -> bool {
    squares.iter().all(|&n| has(pos.kings(Color::White), n))
}

type Pred = fn(&Position) -> bool;

fn anything(_: &Position) -> bool {
    true
}
/// A white piece holds the main road; the black king stays off it.
fn white_holds_road(p: &Position) -> bool {
    on_road(p, Color::White) >= 1 && on_road(p, Color::Black) == 0
}
/// Nobody on the main road.
fn road_empty(p: &Position) -> bool {
    on_road(p, Color::White) == 0 && on_road(p, Color::Black) == 0
}
/// No white piece on the main road, the (lone) black king on it.
fn black_holds_road(p: &Position) -> bool {
    on_road(p, Color::White) == 0 && on_road(p, Color::Black) >= 1
}
fn black_off_road(p: &Position) -> bool {
    on_road(p, Color::Black) == 0
}
fn white_off_road(p: &Position) -> bool {
    on_road(p, Color::White) == 0
}
fn black_has_no_men(p: &Position) -> bool {
    p.men(Color::Black).count() == 0
}
/// The cage of the double corner: white kings c7, d6 and pieces b6, c5 stay put, so the
/// black king can only go a7 ⇄ b8 and is taken by nothing.
fn cage(p: &Position) -> bool {
    white_kings_on(p, &[6, 10]) && [9, 14].iter().all(|&n| has(p.pieces(Color::White), n))
}

// ---------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Quiet king moves.
    King,
    /// A quiet man move that does not promote.
    Man,
    /// Any quiet move (man or king) that does not promote.
    Quiet,
    /// A quiet man move that promotes.
    Promote,
    /// The side to move makes a quiet move after which the opponent captures exactly one
    /// piece, and the opponent does (two plies).
    Offer,
    /// A quiet move after which the opponent has no legal move.
    Win,
}

#[derive(Clone, Copy, Debug)]
struct Step {
    kind: Kind,
    n: u32,
    /// Must hold after every ply of the step (after the capture for `Offer`).
    cond: Option<Pred>,
}

fn step(kind: Kind, n: u32) -> Step {
    Step {
        kind,
        n,
        cond: None,
    }
}
fn kings(n: u32) -> Step {
    step(Kind::King, n)
}
fn man() -> Step {
    step(Kind::Man, 1)
}
fn quiet(n: u32) -> Step {
    step(Kind::Quiet, n)
}
fn promote() -> Step {
    step(Kind::Promote, 1)
}
fn offer() -> Step {
    step(Kind::Offer, 1)
}
fn win() -> Step {
    step(Kind::Win, 1)
}
impl Step {
    fn when(self, cond: Pred) -> Step {
        Step {
            cond: Some(cond),
            ..self
        }
    }
    fn plies(&self) -> u32 {
        if self.kind == Kind::Offer {
            2 * self.n
        } else {
            self.n
        }
    }
}

fn plies(steps: &[Step]) -> u32 {
    steps.iter().map(Step::plies).sum()
}

struct Generator<'a> {
    steps: &'a [Step],
    keep: Pred,
    seen: HashSet<Position>,
    nodes: u32,
    out: Vec<(Position, Move)>,
}

fn has_capture(p: &Position) -> bool {
    p.legal_moves().iter().any(Move::is_capture)
}

impl Generator<'_> {
    fn cond(&self, s: &Step, p: &Position) -> bool {
        s.cond.is_none_or(|c| c(p))
    }

    /// A quiet ply that changes nothing for the opponent: it has moves, no capture, and
    /// the position is new.
    fn quiet_ok(&self, s: &Step, after: &Position) -> bool {
        (self.keep)(after)
            && self.cond(s, after)
            && !self.seen.contains(after)
            && after.count_legal_moves() > 0
            && !has_capture(after)
    }

    fn push(&mut self, before: Position, mv: Move) -> Position {
        let after = before.after(&mv);
        self.out.push((before, mv));
        self.seen.insert(after);
        after
    }

    fn pop(&mut self, n: usize) {
        for _ in 0..n {
            let (before, mv) = self.out.pop().unwrap();
            self.seen.remove(&before.after(&mv));
        }
    }

    fn search(&mut self, pos: Position, index: usize, done: u32) -> bool {
        let Some(s) = self.steps.get(index).copied() else {
            return true;
        };
        if done == s.n {
            return self.search(pos, index + 1, 0);
        }
        self.nodes += 1;
        assert!(
            self.nodes < 2_000_000,
            "the generator is lost at {index}: {s:?}"
        );
        let mover = pos.turn();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        for mv in moves {
            if mv.is_capture() {
                continue;
            }
            let is_man = pos.men(mover).contains(mv.from());
            let fits = match s.kind {
                Kind::King => !is_man,
                Kind::Man => is_man && !mv.promotes(),
                Kind::Quiet => !mv.promotes(),
                Kind::Promote => mv.promotes(),
                Kind::Offer | Kind::Win => !mv.promotes(),
            };
            if !fits {
                continue;
            }
            let after = pos.after(&mv);
            match s.kind {
                Kind::Win => {
                    if after.count_legal_moves() == 0 && self.cond(&s, &after) {
                        self.push(pos, mv);
                        if self.search(after, index, done + 1) {
                            return true;
                        }
                        self.pop(1);
                    }
                }
                Kind::Offer => {
                    if !(self.keep)(&after) || self.seen.contains(&after) {
                        continue;
                    }
                    let takes: Vec<Move> = after
                        .legal_moves()
                        .iter()
                        .copied()
                        .filter(|c| c.is_capture() && c.captured().count() == 1 && !c.promotes())
                        .collect();
                    for take in takes {
                        let end = after.after(&take);
                        if self.seen.contains(&end) || !self.cond(&s, &end) {
                            continue;
                        }
                        self.push(pos, mv);
                        self.push(after, take);
                        if self.search(end, index, done + 1) {
                            return true;
                        }
                        self.pop(2);
                    }
                }
                _ => {
                    if self.quiet_ok(&s, &after) {
                        self.push(pos, mv);
                        if self.search(after, index, done + 1) {
                            return true;
                        }
                        self.pop(1);
                    }
                }
            }
        }
        false
    }
}

/// The moves of a game from `fen` that follows `steps`, every position satisfying `keep`
/// (except after a winning move and after a capture), written in algebraic notation.
fn generate(fen: &str, keep: Pred, steps: &[Step]) -> Vec<String> {
    let (start, _) = position(fen);
    let mut g = Generator {
        steps,
        keep,
        seen: HashSet::from([start]),
        nodes: 0,
        out: Vec::new(),
    };
    assert!(
        g.search(start, 0, 0),
        "no game from {fen} follows the plan {steps:?}"
    );
    g.out
        .iter()
        .map(|(before, mv)| format_move(before, mv, Style::default()))
        .collect()
}

// ---------------------------------------------------------------------------------------
// PDN games and their replay
// ---------------------------------------------------------------------------------------

/// A PDN game: FEN tag, numbered movetext, result.
fn pdn(fen: &str, moves: &[String], result: &str) -> String {
    let (start, mut number) = position(fen);
    let mut text = format!("[Event \"draw rules\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n");
    let mut side = start.turn();
    for (i, m) in moves.iter().enumerate() {
        match side {
            Color::White => text.push_str(&format!("{number}. {m} ")),
            Color::Black if i == 0 => text.push_str(&format!("{number}... {m} ")),
            Color::Black => text.push_str(&format!("{m} ")),
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.opponent();
    }
    text.push_str(result);
    text.push('\n');
    text
}

/// What replaying a game found, as the checker reports it.
struct Replay {
    status: Status,
    mainline: Vec<Ply>,
    end: Option<Position>,
    draw: Option<Verdict>,
    /// The findings but for those about the tags.
    findings: Vec<Diagnostic>,
}

impl Replay {
    fn final_position(&self) -> Option<Position> {
        self.end
    }
}

/// The first game of `text`, replayed under `edition`.
fn replay(text: &str, edition: Edition) -> Replay {
    let options = CheckOptions {
        edition,
        ..CheckOptions::default()
    };
    let (report, diagnostics) = common::checked(text, &options).swap_remove(0);
    Replay {
        status: report.status,
        mainline: report.mainline,
        end: report.end,
        draw: report.draw,
        findings: diagnostics
            .into_iter()
            .filter(|d| !d.rule.code.starts_with('T'))
            .collect(),
    }
}

/// Replays the game and asserts that every written move was legal and that captures
/// happened exactly on the plies written with `:`.
fn run(edition: Edition, fen: &str, moves: &[String], result: &str) -> Replay {
    let text = pdn(fen, moves, result);
    let r = replay(&text, edition);
    assert_eq!(
        r.status,
        Status::Complete,
        "the fixture does not replay:\n{text}\n{:#?}",
        r.findings
    );
    assert_eq!(r.mainline.len(), moves.len(), "{text}");
    for (ply, written) in r.mainline.iter().zip(moves) {
        assert_eq!(
            ply.mv.is_capture(),
            written.contains(':'),
            "ply {} ({written}) of\n{text}",
            ply.ply
        );
    }
    assert!(r.draw.is_some(), "{text}");
    r
}

fn automatic(r: &Replay) -> Option<(&'static str, u32)> {
    r.draw
        .as_ref()
        .unwrap()
        .automatic
        .map(|e| (e.rule.id(), e.ply))
}

fn basis(r: &Replay) -> Option<DrawBasis> {
    r.draw.as_ref().unwrap().basis
}

fn rule_basis(r: &Replay) -> Option<(&'static str, u32)> {
    match basis(r) {
        Some(DrawBasis::Rule { rule, ply }) => Some((rule.id(), ply)),
        other => panic!("expected a rule as the basis, got {other:?}"),
    }
}

/// Every replay finding as (name, ply).
fn findings(r: &Replay) -> Vec<(&'static str, Option<u32>)> {
    r.findings.iter().map(|f| (f.rule.name, f.ply)).collect()
}

const DRAW: &str = "1-1";
const WHITE_WINS: &str = "2-0";
const BLACK_WINS: &str = "0-2";

/// Agreement after `plies` plies from `fen`, by the README: the move number of the last
/// move played, counting the moves before the setup from its move number; early in russia
/// when Black (the second player) made fewer than 20 moves of a game from the start
/// position.
fn agreement(edition: Edition, fen: &str, plies: u32) -> DrawBasis {
    let (start, number) = position(fen);
    let before = 2 * (number - 1) + u32::from(start.turn() == Color::Black);
    let total = before + plies;
    // (only a game with moves from the start position breaks 6.1.8.1 by an early draw)
    let from_start = start == Position::start() && number == 1 && plies > 0;
    DrawBasis::Agreement {
        move_number: total.div_ceil(2),
        early: edition == Russia && total / 2 < 20 && from_start,
    }
}

fn agreement_findings(basis: DrawBasis, plies: u32) -> Vec<(&'static str, Option<u32>)> {
    let ply = (plies > 0).then_some(plies);
    let mut v = vec![("draw-without-basis", ply)];
    if matches!(basis, DrawBasis::Agreement { early: true, .. }) {
        v.push(("early-draw-agreement", ply));
    }
    v
}

/// The standard checks of one rule's limit in one game plan whose length is the limit:
/// - the game ending on the limit ply, drawn: an automatic draw by `rule` at `limit`, the
///   basis, no finding;
/// - the same game recorded as a win: `result-contradicts-draw-rule`;
/// - one ply more, drawn: `play-after-automatic-draw` at `limit + 1`;
/// - one ply short, drawn: no automatic draw, a draw by agreement (`draw-without-basis`,
///   and `early-draw-agreement` in russia before 20 moves each of a game from the start
///   position); recorded as a win: no
///   finding at all.
fn limit(edition: Edition, fen: &str, keep: Pred, steps: &[Step], rule: &str, limit: u32) {
    assert_eq!(plies(steps), limit, "the plan must be as long as the limit");
    let mut plan = steps.to_vec();
    plan.push(kings(1));
    let moves = generate(fen, keep, &plan);
    let exact = &moves[..limit as usize];
    let short = &moves[..limit as usize - 1];
    let ctx = format!("{edition} {fen}: {rule} at {limit}");

    let r = run(edition, fen, exact, DRAW);
    assert_eq!(automatic(&r), Some((rule, limit)), "{ctx}");
    assert_eq!(rule_basis(&r), Some((rule, limit)), "{ctx}");
    assert_eq!(findings(&r), [], "{ctx}");

    for decisive in [WHITE_WINS, BLACK_WINS] {
        let r = run(edition, fen, exact, decisive);
        assert_eq!(automatic(&r), Some((rule, limit)), "{ctx}");
        assert_eq!(basis(&r), None, "{ctx}");
        assert_eq!(
            findings(&r),
            [("result-contradicts-draw-rule", None)],
            "{ctx}"
        );
    }

    let r = run(edition, fen, &moves, DRAW);
    assert_eq!(automatic(&r), Some((rule, limit)), "{ctx}");
    assert_eq!(rule_basis(&r), Some((rule, limit)), "{ctx}");
    assert_eq!(
        findings(&r),
        [("play-after-automatic-draw", Some(limit + 1))],
        "{ctx}"
    );

    let r = run(edition, fen, short, DRAW);
    assert_eq!(automatic(&r), None, "{ctx}: one ply short");
    let expected = agreement(edition, fen, limit - 1);
    assert_eq!(basis(&r), Some(expected), "{ctx}: one ply short");
    assert_eq!(
        findings(&r),
        agreement_findings(expected, limit - 1),
        "{ctx}: one ply short"
    );
    let r = run(edition, fen, short, WHITE_WINS);
    assert_eq!(automatic(&r), None, "{ctx}: one ply short");
    assert_eq!(findings(&r), [], "{ctx}: one ply short, decisive");
}

/// A game whose last ply (the limit ply of some rule) wins: no automatic draw, the win
/// stands without any finding.
fn wins_on(edition: Edition, fen: &str, keep: Pred, steps: &[Step], ply: u32, result: &str) {
    assert_eq!(plies(steps), ply);
    let moves = generate(fen, keep, steps);
    let r = run(edition, fen, &moves, result);
    let end = r.final_position().unwrap();
    assert_eq!(end.count_legal_moves(), 0, "the last ply must win");
    assert_eq!(automatic(&r), None, "{edition} {fen}: won on ply {ply}");
    assert_eq!(findings(&r), [], "{edition} {fen}: won on ply {ply}");
}

// ---------------------------------------------------------------------------------------
// Material and FENs (numeric squares; see the crate docs: 1 = b8 … 32 = g1)
// ---------------------------------------------------------------------------------------

/// K v K: c1 against h8.
const K_K: &str = "W:WK30:BK4";
/// 2K v K: c1, e1 against h8; White to move.
const K2_K: &str = "W:WK30,K31:BK4";
/// The same, Black to move (White "made" the establishing ply 0).
const K2_K_BLACK: &str = "B:WK30,K31:BK4";
/// K+M v K: king c1, man e3 against h8.
const KM_K: &str = "W:WK30,23:BK4";
/// K+M v K, Black to move.
const KM_K_BLACK: &str = "B:WK30,23:BK4";
/// K+M v K with the man on c7, a move from the king row.
const KM7_K: &str = "W:WK30,6:BK4";
/// 2K v 2K: c1, e1 against f8, h8.
const K2_K2: &str = "W:WK30,K31:BK3,K4";
/// 3K v K holding the main road (a1), the black king on b8.
const K3_K_ROAD: &str = "W:WK29,K30,K31:BK1";
const K3_K_ROAD_BLACK: &str = "B:WK29,K30,K31:BK1";
/// 3K v K, nobody on the main road (c1, e1, g1 against b8).
const K3_K: &str = "W:WK30,K31,K32:BK1";
/// 3K off the road against a lone king on it (c1, e1, g1 against h8).
const K3_K_ON_ROAD: &str = "W:WK30,K31,K32:BK4";
/// 3K v 2K: c1, e1, g1 against h8 (on the road) and b8.
const K3_K2: &str = "W:WK30,K31,K32:BK1,K4";
/// 3K v 2K, nobody on the road: c1, e1, g1 against b8, d8.
const K3_K2_OFF: &str = "W:WK30,K31,K32:BK1,K2";
/// 4K v K, nobody on the main road: c1, e1, g1, h2 against b8.
const K4_K: &str = "W:WK28,K30,K31,K32:BK1";
/// 3K+M v K, the man on c7: c1, e1, g1, c7 against h4.
const K3M_K: &str = "W:WK30,K31,K32,6:BK20";
/// 3K+M v K, the man on e3, for king moves only: c1, e1, g1, e3 against a5.
const K3M_K_LOW: &str = "W:WK30,K31,K32,23:BK13";
/// K+2M v K: king c1, men e3, g3 against h8 (the road).
const K2M_K: &str = "W:WK30,23,24:BK4";
/// K+2M v K with a man on c7: king c1, men c7, g3 against h8.
const K2M7_K: &str = "W:WK30,6,24:BK4";
/// 3M v K: men c1, e1, g3 against h8.
const M3_K: &str = "W:W24,30,31:BK4";
/// K+2M v K+2M: king c1, men e3, g3 against king h8, men b6, h6.
const K2M_K2M: &str = "W:WK30,23,24:BK4,9,12";
/// 2K+M v 2K, the man on c7: c1, e1, c7 against a3 and g1.
const K2M7_K2: &str = "W:WK30,K31,6:BK21,K32";
/// 4K v 3K: c1, e1, g1, h2 against b8, d8, f8.
const K4_K3: &str = "W:WK28,K30,K31,K32:BK1,K2,K3";
/// K+M v 2K: king c1, man a3 against f8, h8.
const KM_K2: &str = "W:WK30,21:BK3,K4";
/// K+M v 2K+M: king c1, man a3 against f8, h8 and a man on h6.
const KM_K2M: &str = "W:WK30,21:BK3,K4,12";
/// 5K v K in the double-corner cage: kings c7, b6, d6, c5 and h2 against a7.
const CAGE_5K: &str = "W:WK6,K9,K10,K14,K28:BK5";
/// 3K+2M v K in the cage, Black to move: kings c7, d6, h2, men b6, c5 against b8.
const CAGE_3K2M_BLACK: &str = "B:WK6,K10,K28,9,14:BK1";

// ---------------------------------------------------------------------------------------
// russia 6.1.8.6: kings on both sides, balance unchanged; 2–3 / 4–5 / 6–7 pieces: 5 / 30 / 60
// moves each
// ---------------------------------------------------------------------------------------

#[test]
fn r6186_two_kings_v_king_five_moves_each() {
    // established at 0, 5 moves each: ply 10.
    limit(Russia, K2_K, anything, &[kings(10)], "6.1.8.6", 10);
    // Black to move first: still 10 plies.
    limit(Russia, K2_K_BLACK, anything, &[kings(10)], "6.1.8.6", 10);
}

#[test]
fn r6186_king_v_king() {
    limit(Russia, K_K, anything, &[kings(10)], "6.1.8.6", 10);
}

#[test]
fn r6186_king_and_man_v_king_man_move_does_not_restart() {
    // K+M v K: a man move (ply 3) is no change of the balance: still ply 10.
    limit(
        Russia,
        KM_K,
        anything,
        &[kings(2), man(), kings(7)],
        "6.1.8.6",
        10,
    );
}

#[test]
fn r6186_promotion_restarts() {
    // K+M v K; the man promotes on ply 3 (2K v K, still 3 pieces): 3 + 10 = 13.
    limit(
        Russia,
        KM7_K,
        anything,
        &[kings(2), promote(), kings(10)],
        "6.1.8.6",
        13,
    );
}

#[test]
fn r6186_established_by_a_capture() {
    // 2K v 2K (4 pieces: 6.1.8.8 at 30); Black offers a king on ply 8, White takes it on
    // ply 9: 2K v K, 3 pieces, established at 9 (not counted): 9 + 10 = 19.
    limit(
        Russia,
        K2_K2,
        anything,
        &[kings(7), offer(), kings(10)],
        "6.1.8.6",
        19,
    );
}

#[test]
fn r6186_four_to_five_pieces_thirty_moves_each() {
    // K+M v 2K (4 pieces): 30 moves each = ply 60. White's man moves on plies 21 and 41
    // restart 6.1.8.8 (15 each: 30, 51, 71) but not 6.1.8.6.
    limit(
        Russia,
        KM_K2,
        anything,
        &[kings(20), man(), kings(19), man(), kings(19)],
        "6.1.8.6",
        60,
    );
}

#[test]
fn r6186_capture_restarts_within_the_same_piece_class() {
    // K+M v 2K+M (5 pieces, 30 each); Black's man is taken on ply 13: K+M v 2K, 4 pieces,
    // same limit, counted again from 13: 13 + 60 = 73. Man moves on 33 and 53 keep
    // 6.1.8.8 (15 each) from firing: 13 + 30 = 43 > 33, 63 > 53, 83 > 73.
    let steps = [
        kings(11),
        offer().when(black_has_no_men),
        kings(19),
        man(),
        kings(19),
        man(),
        kings(20),
    ];
    limit(Russia, KM_K2M, anything, &steps, "6.1.8.6", 73);
}

#[test]
fn r6186_six_to_seven_pieces_sixty_moves_each() {
    // K+2M v K+2M (6 pieces): 60 moves each = ply 120; man moves on 21, 42, 63, 84, 105
    // restart 6.1.8.8 (25 each: 50 plies) each time.
    let steps = [
        kings(20),
        man(),
        kings(20),
        man(),
        kings(20),
        man(),
        kings(20),
        man(),
        kings(20),
        man(),
        kings(15),
    ];
    limit(Russia, K2M_K2M, anything, &steps, "6.1.8.6", 120);
}

#[test]
fn r6186_win_on_the_limit_ply() {
    // K+M v K, Black to move: 6.1.8.6 at ply 10 (White's 5th move). Black's king blunders
    // on ply 9 and White takes it on ply 10: a win, not a draw.
    wins_on(
        Russia,
        KM_K_BLACK,
        anything,
        &[kings(8), offer()],
        10,
        WHITE_WINS,
    );
}

// ---------------------------------------------------------------------------------------
// russia 6.1.8.8: only king moves; 4–5 / 6–7 pieces: 15 / 25 moves each
// ---------------------------------------------------------------------------------------

#[test]
fn r6188_two_kings_v_two_kings() {
    // 4 pieces: 15 moves each = 30 (6.1.8.6 would be 60).
    limit(Russia, K2_K2, anything, &[kings(30)], "6.1.8.8", 30);
}

#[test]
fn r6188_six_pieces_twenty_five_moves_each() {
    // K+2M v K+2M: 25 moves each = 50.
    limit(Russia, K2M_K2M, anything, &[kings(50)], "6.1.8.8", 50);
}

#[test]
fn r6188_man_move_restarts() {
    // K+2M v K+2M; White's man moves on ply 11: 11 + 50 = 61.
    limit(
        Russia,
        K2M_K2M,
        anything,
        &[kings(10), man(), kings(50)],
        "6.1.8.8",
        61,
    );
}

#[test]
fn r6188_promotion_restarts() {
    // 2K+M v 2K (5 pieces: 30); the man promotes on ply 21: 3K v 2K, 21 + 30 = 51.
    limit(
        Russia,
        K2M7_K2,
        anything,
        &[kings(20), promote(), kings(30)],
        "6.1.8.8",
        51,
    );
}

#[test]
fn r6188_capture_restarts_within_the_same_piece_class() {
    // 4K v 3K (7 pieces, 25 each = 50); Black offers a king on 22, White takes on 23:
    // 4K v 2K, 6 pieces, same limit, from 23: 23 + 50 = 73.
    limit(
        Russia,
        K4_K3,
        anything,
        &[kings(21), offer(), kings(50)],
        "6.1.8.8",
        73,
    );
}

// ---------------------------------------------------------------------------------------
// russia 6.1.8.3 / 6.1.8.4: three kings (holding the main road) / three kings and more
// against a lone king: the stronger side's 15th move
// ---------------------------------------------------------------------------------------

#[test]
fn r6183_three_kings_holding_the_road() {
    // White to move: Black "made" ply 0, White's 15th move is ply 29 (6.1.8.8: 30).
    limit(
        Russia,
        K3_K_ROAD,
        white_holds_road,
        &[kings(29)],
        "6.1.8.3",
        29,
    );
}

#[test]
fn r6183_ties_with_6188_and_names_the_earlier_article() {
    // Black to move: White "made" ply 0, its 15th move is ply 30, where 6.1.8.8 (15 each)
    // is reached too: the earlier article is named.
    limit(
        Russia,
        K3_K_ROAD_BLACK,
        white_holds_road,
        &[kings(30)],
        "6.1.8.3",
        30,
    );
}

#[test]
fn r6184_three_kings_off_the_road() {
    limit(Russia, K3_K, road_empty, &[kings(29)], "6.1.8.4", 29);
}

#[test]
fn r6183_dropped_when_the_kings_leave_the_road_6184_keeps_counting() {
    // The road is left on ply 5 and taken again on ply 7: 6.1.8.3 would count from 7
    // (7 + 30 = 37), but 6.1.8.4 holds throughout and reaches White's 15th move on 29.
    let steps = [
        kings(4).when(white_holds_road),
        kings(2).when(road_empty),
        kings(23).when(white_holds_road),
    ];
    limit(Russia, K3_K_ROAD, black_off_road, &steps, "6.1.8.4", 29);
}

#[test]
fn r6184_capture_restarts_and_the_establishing_ply_is_not_counted() {
    // 4K v K (6.1.8.4 from 0: 29); White offers a king on 11, Black takes it on 12:
    // 3K v K, established by the weaker side on 12: White's 15th move is 12 + 29 = 41
    // (6.1.8.8 from 12: 42).
    limit(
        Russia,
        K4_K,
        road_empty,
        &[kings(10), offer(), kings(29)],
        "6.1.8.4",
        41,
    );
}

#[test]
fn r6184_established_by_the_stronger_sides_capture() {
    // 3K v 2K; Black offers on 8, White takes on 9: 3K v K established by White, whose
    // 15th move is 9 + 30 = 39; 6.1.8.8 (4 pieces, 15 each) is reached on 39 too, and
    // 6.1.8.4 is the earlier article.
    limit(
        Russia,
        K3_K2_OFF,
        road_empty,
        &[kings(7), offer().when(road_empty), kings(30)],
        "6.1.8.4",
        39,
    );
}

#[test]
fn r6184_three_kings_and_a_man() {
    // 3K+M v K is 6.1.8.4 ("three kings and more pieces"): 29.
    limit(Russia, K3M_K_LOW, road_empty, &[kings(29)], "6.1.8.4", 29);
}

#[test]
fn r6184_promotion_restarts() {
    // 3K+M v K; the man promotes on ply 3 (4K v K, 6.1.8.4 still holds): White made the
    // establishing ply, its 15th move is 3 + 30 = 33 (6.1.8.8 restarts too: 33, later
    // article).
    limit(
        Russia,
        K3M_K,
        black_off_road,
        &[kings(2), promote(), kings(30)],
        "6.1.8.4",
        33,
    );
}

#[test]
fn r6183_win_on_the_limit_ply() {
    // White's 15th move (ply 29) takes the lone king.
    wins_on(
        Russia,
        K3_K_ROAD,
        white_holds_road,
        &[kings(27), offer()],
        29,
        WHITE_WINS,
    );
}

#[test]
fn r6184_win_on_the_limit_ply_by_blocking() {
    // 5K v K, the black king caged a7 ⇄ b8; White's 15th move (ply 29) c7-b8 leaves it
    // without a move while 6.1.8.4 still holds: the win takes precedence.
    wins_on(Russia, CAGE_5K, cage, &[kings(28), win()], 29, WHITE_WINS);
    // Control: a spare move instead is drawn on 29.
    limit(Russia, CAGE_5K, cage, &[kings(29)], "6.1.8.4", 29);
}

#[test]
fn r6184_win_after_the_limit_is_too_late() {
    // The same cage, closed on ply 31: the game was drawn on 29.
    let moves = generate(CAGE_5K, cage, &[kings(30), win()]);
    let r = run(Russia, CAGE_5K, &moves, WHITE_WINS);
    assert_eq!(r.final_position().unwrap().count_legal_moves(), 0);
    assert_eq!(automatic(&r), Some(("6.1.8.4", 29)));
    assert_eq!(
        findings(&r),
        [
            ("play-after-automatic-draw", Some(30)),
            ("result-contradicts-draw-rule", None)
        ]
    );
}

// ---------------------------------------------------------------------------------------
// russia 6.1.8.5: three pieces off the main road against a lone king on it: 5th move
// ---------------------------------------------------------------------------------------

#[test]
fn r6185_three_kings() {
    limit(
        Russia,
        K3_K_ON_ROAD,
        black_holds_road,
        &[kings(9)],
        "6.1.8.5",
        9,
    );
}

#[test]
fn r6185_king_and_two_men_man_move_does_not_restart() {
    limit(
        Russia,
        K2M_K,
        black_holds_road,
        &[kings(2), man(), kings(6)],
        "6.1.8.5",
        9,
    );
}

#[test]
fn r6185_three_men() {
    limit(Russia, M3_K, black_holds_road, &[quiet(9)], "6.1.8.5", 9);
}

#[test]
fn r6185_promotion_restarts() {
    // K+2M v K; the man on c7 promotes on ply 3 (2K+M, still three pieces off the road):
    // White's 5th move from 3 is 13.
    limit(
        Russia,
        K2M7_K,
        black_holds_road,
        &[kings(2), promote(), kings(10)],
        "6.1.8.5",
        13,
    );
}

#[test]
fn r6185_lone_king_leaves_the_road_and_returns() {
    // The black king steps off the road on ply 4 and back on ply 6: established again
    // by the weaker side on 6, White's 5th move is 6 + 9 = 15.
    let steps = [
        kings(3).when(black_holds_road),
        kings(2).when(black_off_road),
        kings(10).when(black_holds_road),
    ];
    limit(Russia, K3_K_ON_ROAD, white_off_road, &steps, "6.1.8.5", 15);
}

#[test]
fn r6185_established_by_a_capture() {
    // 3K v 2K (one black king on the road); Black offers the other on 8, White takes it
    // on 9: established by White on 9, its 5th move is 19.
    limit(
        Russia,
        K3_K2,
        white_off_road,
        &[
            kings(7),
            offer().when(black_holds_road),
            kings(10).when(black_holds_road),
        ],
        "6.1.8.5",
        19,
    );
}

#[test]
fn r6185_win_on_the_limit_ply() {
    wins_on(
        Russia,
        K3_K_ON_ROAD,
        black_holds_road,
        &[kings(7), offer()],
        9,
        WHITE_WINS,
    );
}

// ---------------------------------------------------------------------------------------
// fmjd 7.2.8: two kings, king and man, or king against a lone king: 5th move
// ---------------------------------------------------------------------------------------

#[test]
fn f728_two_kings_v_king() {
    // White to move: White's 5th move is ply 9.
    limit(Fmjd, K2_K, anything, &[kings(9)], "7.2.8", 9);
    // Black to move: White "made" ply 0, its 5th move is ply 10.
    limit(Fmjd, K2_K_BLACK, anything, &[kings(10)], "7.2.8", 10);
}

#[test]
fn f728_king_v_king_either_side() {
    // Either side's 5th move: White's, on ply 9.
    limit(Fmjd, K_K, anything, &[kings(9)], "7.2.8", 9);
    // Black to move: Black's 5th move comes first, also on ply 9.
    limit(Fmjd, "B:WK30:BK4", anything, &[kings(9)], "7.2.8", 9);
}

#[test]
fn f728_king_and_man_man_move_does_not_restart() {
    limit(
        Fmjd,
        KM_K,
        anything,
        &[kings(2), man(), kings(6)],
        "7.2.8",
        9,
    );
}

#[test]
fn f728_promotion_restarts() {
    // K+M v K; promotion on ply 3 (2K v K): White made it, its 5th move is 13.
    limit(
        Fmjd,
        KM7_K,
        anything,
        &[kings(2), promote(), kings(10)],
        "7.2.8",
        13,
    );
}

#[test]
fn f728_established_by_the_stronger_sides_capture() {
    // 2K v 2K; Black offers on 8, White takes on 9: 2K v K by White, 5th move on 19.
    limit(
        Fmjd,
        K2_K2,
        anything,
        &[kings(7), offer(), kings(10)],
        "7.2.8",
        19,
    );
}

#[test]
fn f728_established_by_the_weaker_sides_capture() {
    // 3K v K (7.2.4 from 0: 29); White offers on 7, Black takes on 8: 2K v K established
    // by the weaker side on 8, White's 5th move is 8 + 9 = 17. In russia the same
    // material is 6.1.8.6, 5 moves each from 8: 18.
    let steps = |tail| [kings(6), offer(), kings(tail)];
    limit(Fmjd, K3_K, black_off_road, &steps(9), "7.2.8", 17);
    limit(Russia, K3_K, black_off_road, &steps(10), "6.1.8.6", 18);
}

#[test]
fn f728_win_on_the_limit_ply() {
    wins_on(Fmjd, K2_K, anything, &[kings(7), offer()], 9, WHITE_WINS);
}

// ---------------------------------------------------------------------------------------
// fmjd 7.2.7: three pieces against a lone king on the main road: 5th move
// ---------------------------------------------------------------------------------------

#[test]
fn f727_three_kings() {
    limit(
        Fmjd,
        K3_K_ON_ROAD,
        black_holds_road,
        &[kings(9)],
        "7.2.7",
        9,
    );
}

#[test]
fn f727_holds_wherever_the_three_stand() {
    // Two of the three on the road too (unlike 6.1.8.5): still 7.2.7. King c1 and men
    // b2, c3 (the men never move; b2 covers c3) against h8.
    const FEN: &str = "W:WK30,22,25:BK4";
    fn both_on_road(p: &Position) -> bool {
        on_road(p, Color::White) == 2 && on_road(p, Color::Black) == 1
    }
    limit(Fmjd, FEN, both_on_road, &[kings(9)], "7.2.7", 9);
    // russia: 6.1.8.5 does not hold (pieces on the road); 6.1.8.8 is at 30.
    let moves = generate(FEN, both_on_road, &[kings(29)]);
    let r = run(Russia, FEN, &moves, DRAW);
    assert_eq!(automatic(&r), None);
    assert_eq!(
        basis(&r),
        Some(DrawBasis::Agreement {
            move_number: 15,
            early: false
        })
    );
}

#[test]
fn f727_king_and_two_men_man_move_does_not_restart() {
    limit(
        Fmjd,
        K2M_K,
        black_holds_road,
        &[kings(2), man(), kings(6)],
        "7.2.7",
        9,
    );
}

#[test]
fn f727_three_men() {
    limit(Fmjd, M3_K, black_holds_road, &[quiet(9)], "7.2.7", 9);
}

#[test]
fn f727_promotion_restarts() {
    limit(
        Fmjd,
        K2M7_K,
        black_holds_road,
        &[kings(2), promote(), kings(10)],
        "7.2.7",
        13,
    );
}

#[test]
fn f727_lone_king_leaves_the_road_and_returns() {
    let steps = [
        kings(3).when(black_holds_road),
        kings(2).when(black_off_road),
        kings(10).when(black_holds_road),
    ];
    limit(Fmjd, K3_K_ON_ROAD, white_off_road, &steps, "7.2.7", 15);
}

#[test]
fn f727_established_by_a_capture() {
    limit(
        Fmjd,
        K3_K2,
        white_off_road,
        &[
            kings(7),
            offer().when(black_holds_road),
            kings(10).when(black_holds_road),
        ],
        "7.2.7",
        19,
    );
}

#[test]
fn f727_win_on_the_limit_ply() {
    wins_on(
        Fmjd,
        K3_K_ON_ROAD,
        black_holds_road,
        &[kings(7), offer()],
        9,
        WHITE_WINS,
    );
}

// ---------------------------------------------------------------------------------------
// fmjd 7.2.4: three or more kings (no men) against a lone king: 15th move
// ---------------------------------------------------------------------------------------

#[test]
fn f724_three_kings_with_and_without_the_road() {
    limit(Fmjd, K3_K, road_empty, &[kings(29)], "7.2.4", 29);
    limit(Fmjd, K3_K_ROAD, white_holds_road, &[kings(29)], "7.2.4", 29);
}

#[test]
fn f724_ties_with_725_and_names_the_earlier_article() {
    // Black to move: White's 15th move is ply 30, as is 7.2.5's 15 moves each.
    limit(
        Fmjd,
        K3_K_ROAD_BLACK,
        white_holds_road,
        &[kings(30)],
        "7.2.4",
        30,
    );
}

#[test]
fn f724_capture_restarts_and_the_establishing_ply_is_not_counted() {
    // 4K v K; Black takes a king on 12: White's 15th move after it is 12 + 29 = 41.
    limit(
        Fmjd,
        K4_K,
        road_empty,
        &[kings(10), offer(), kings(29)],
        "7.2.4",
        41,
    );
}

#[test]
fn f724_three_kings_and_a_man_is_not_724() {
    // 7.2.4 needs kings only: 3K+M v K falls to 7.2.5 (15 moves each, 30), while russia
    // counts it under 6.1.8.4 (29).
    limit(Fmjd, K3M_K_LOW, road_empty, &[kings(30)], "7.2.5", 30);
}

#[test]
fn f724_established_by_promotion() {
    // 3K+M v K; the man promotes on ply 3: 4K v K, 7.2.4 from 3 (White's): 33; 7.2.5
    // restarts on the man move too and reaches 33 as well; 7.2.4 is named.
    limit(
        Fmjd,
        K3M_K,
        black_off_road,
        &[kings(2), promote(), kings(30)],
        "7.2.4",
        33,
    );
}

#[test]
fn f724_win_on_the_limit_ply_by_blocking() {
    wins_on(Fmjd, CAGE_5K, cage, &[kings(28), win()], 29, WHITE_WINS);
    limit(Fmjd, CAGE_5K, cage, &[kings(29)], "7.2.4", 29);
}

// ---------------------------------------------------------------------------------------
// fmjd 7.2.5: only king moves, 15 moves each; 7.2.6: kings on both sides, 4–5 / 6–7 pieces,
// 30 / 60 moves each
// ---------------------------------------------------------------------------------------

#[test]
fn f725_two_kings_v_two_kings() {
    limit(Fmjd, K2_K2, anything, &[kings(30)], "7.2.5", 30);
}

#[test]
fn f725_any_material_with_kings_on_both_sides() {
    // K+2M v K+2M, 6 pieces: still 15 moves each (russia: 25).
    limit(Fmjd, K2M_K2M, anything, &[kings(30)], "7.2.5", 30);
}

#[test]
fn f725_man_move_restarts() {
    limit(
        Fmjd,
        K2M_K2M,
        anything,
        &[kings(10), man(), kings(30)],
        "7.2.5",
        41,
    );
}

#[test]
fn f725_promotion_restarts() {
    limit(
        Fmjd,
        K2M7_K2,
        anything,
        &[kings(20), promote(), kings(30)],
        "7.2.5",
        51,
    );
}

#[test]
fn f725_capture_restarts() {
    // 4K v 3K; White takes a king on 23: 23 + 30 = 53.
    limit(
        Fmjd,
        K4_K3,
        anything,
        &[kings(21), offer(), kings(30)],
        "7.2.5",
        53,
    );
}

#[test]
fn f725_win_on_the_limit_ply_by_blocking() {
    // 3K+2M v K (men: not 7.2.4), Black to move, caged: 7.2.5 at 30, White's move; the
    // cage closes on it. russia: 6.1.8.4, White's 15th move, also 30.
    for (edition, rule) in [(Fmjd, "7.2.5"), (Russia, "6.1.8.4")] {
        wins_on(
            edition,
            CAGE_3K2M_BLACK,
            cage,
            &[kings(29), win()],
            30,
            WHITE_WINS,
        );
        limit(edition, CAGE_3K2M_BLACK, cage, &[kings(30)], rule, 30);
    }
}

#[test]
fn f726_four_to_five_pieces_thirty_moves_each() {
    limit(
        Fmjd,
        KM_K2,
        anything,
        &[kings(20), man(), kings(19), man(), kings(19)],
        "7.2.6",
        60,
    );
}

#[test]
fn f726_capture_restarts_within_the_same_piece_class() {
    let steps = [
        kings(11),
        offer().when(black_has_no_men),
        kings(19),
        man(),
        kings(19),
        man(),
        kings(20),
    ];
    limit(Fmjd, KM_K2M, anything, &steps, "7.2.6", 73);
}

#[test]
fn f726_six_to_seven_pieces_sixty_moves_each() {
    let steps = [
        kings(20),
        man(),
        kings(20),
        man(),
        kings(20),
        man(),
        kings(20),
        man(),
        kings(20),
        man(),
        kings(15),
    ];
    limit(Fmjd, K2M_K2M, anything, &steps, "7.2.6", 120);
}

// ---------------------------------------------------------------------------------------
// Threefold repetition (fmjd 7.2.3, russia `repetition`): a claim, play may go on
// ---------------------------------------------------------------------------------------

/// 8 pieces (no move-count rule in russia; fmjd 7.2.5 at 30): White king h2, men a1, c1,
/// e1; Black king a7, men d8, f8, h8. The kings shuffle h2-g1 and a7-b8 untouchably.
const SHUFFLE: &str = "W:WK28,29,30,31:BK5,2,3,4";

fn moves(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// The start position again after plies 4 and 8: the third time on ply 8.
const THRICE: &str = "h2-g1 a7-b8 g1-h2 b8-a7 h2-g1 a7-b8 g1-h2 b8-a7";

#[test]
fn repetition_then_play_goes_on_drawn() {
    // Repeated on ply 8, then four man moves: the draw rests on the repetition of ply 8.
    let game = moves(&format!("{THRICE} c1-d2 f8-g7 d2-c3 g7-f6"));
    for edition in [Russia, Fmjd] {
        let r = run(edition, SHUFFLE, &game, DRAW);
        assert_eq!(automatic(&r), None, "{edition}");
        assert_eq!(
            basis(&r),
            Some(DrawBasis::Repetition { ply: 8 }),
            "{edition}"
        );
        assert_eq!(findings(&r), [], "{edition}");
    }
}

#[test]
fn repetition_the_last_one_is_the_basis() {
    // Shuffling on: the start position stands a 4th time on ply 12.
    let game = moves(&format!("{THRICE} h2-g1 a7-b8 g1-h2 b8-a7"));
    for edition in [Russia, Fmjd] {
        let r = run(edition, SHUFFLE, &game, DRAW);
        assert_eq!(
            basis(&r),
            Some(DrawBasis::Repetition { ply: 12 }),
            "{edition}"
        );
        assert_eq!(findings(&r), [], "{edition}");
    }
}

#[test]
fn repetition_not_claimed_with_a_decisive_result() {
    let game = moves(&format!("{THRICE} c1-d2 f8-g7 d2-c3 g7-f6"));
    for (edition, id) in [(Russia, "repetition"), (Fmjd, "7.2.3")] {
        for result in [WHITE_WINS, BLACK_WINS] {
            let r = run(edition, SHUFFLE, &game, result);
            assert_eq!(basis(&r), None);
            assert_eq!(
                findings(&r),
                [("repetition-not-claimed", Some(8))],
                "{edition}"
            );
            assert!(
                r.findings[0].message.contains(id),
                "{}",
                r.findings[0].message
            );
            assert!(
                r.findings[0].message.contains("0, 4, 8"),
                "{}",
                r.findings[0].message
            );
        }
    }
}

#[test]
fn twice_is_not_a_repetition() {
    // The start position again on ply 4 only: a draw by agreement at move 4.
    let game = moves("h2-g1 a7-b8 g1-h2 b8-a7 c1-d2 f8-g7 d2-c3 g7-f6");
    for edition in [Russia, Fmjd] {
        let r = run(edition, SHUFFLE, &game, DRAW);
        // (set up by FEN: no early agreement)
        let expected = DrawBasis::Agreement {
            move_number: 4,
            early: false,
        };
        assert_eq!(basis(&r), Some(expected), "{edition}");
        assert_eq!(findings(&r), agreement_findings(expected, 8), "{edition}");
        let r = run(edition, SHUFFLE, &game, WHITE_WINS);
        assert_eq!(findings(&r), [], "{edition}");
    }
}

#[test]
fn repetition_then_an_automatic_draw() {
    // fmjd: repeated on ply 8, then king moves only: 7.2.5 (15 moves each from ply 0) at
    // 30 is the basis; a decisive result contradicts it and also left the repetition
    // unclaimed. russia has no move-count rule for 8 pieces: the repetition is the basis.
    let mut game = moves(THRICE);
    game.extend(generate(SHUFFLE, anything, &[kings(22)]));
    let r = run(Fmjd, SHUFFLE, &game, DRAW);
    assert_eq!(automatic(&r), Some(("7.2.5", 30)));
    assert_eq!(rule_basis(&r), Some(("7.2.5", 30)));
    assert_eq!(findings(&r), []);
    let r = run(Fmjd, SHUFFLE, &game, WHITE_WINS);
    assert_eq!(
        findings(&r),
        [
            ("repetition-not-claimed", Some(8)),
            ("result-contradicts-draw-rule", None)
        ]
    );
    let r = run(Russia, SHUFFLE, &game, DRAW);
    assert_eq!(automatic(&r), None);
    assert_eq!(basis(&r), Some(DrawBasis::Repetition { ply: 8 }));
    assert_eq!(findings(&r), []);
}

// ---------------------------------------------------------------------------------------
// Agreement: russia 6.1.8.1 (20 moves each), fmjd 7.2.1 (any time)
// ---------------------------------------------------------------------------------------

/// 4K v 4K, 8 pieces: no move-count rule in russia.
const K4_K4: &str = "W:WK28,K30,K31,K32:BK1,K2,K3,K5";
/// The same, set up at move 15.
const K4_K4_MOVE15: &str = "W:WK28,K30,K31,K32:BK1,K2,K3,K5:F15";

#[test]
fn russia_agreement_from_a_set_up_position_is_never_early() {
    // 6.1.8.1 is about games played from the start position: a problem or a fragment set
    // up by FEN, drawn after 19 moves each, is a draw without basis and no early
    // agreement; its moves are counted from the setup's move number. (The count from
    // the start position is the tracker's test `verdict_agreement_russia_early_and_not`,
    // and `early_draw_agreement_only_for_games_with_moves_from_the_start_position`.)
    let game = generate(K4_K4, anything, &[kings(40)]);
    let r = run(Russia, K4_K4, &game[..39], DRAW);
    assert_eq!(automatic(&r), None);
    let agreement = |move_number| {
        Some(DrawBasis::Agreement {
            move_number,
            early: false,
        })
    };
    assert_eq!(basis(&r), agreement(20));
    assert_eq!(findings(&r), [("draw-without-basis", Some(39))]);
    // set up at move 15 (14 moves each made): 10 more plies make Black's 19th move
    let game = generate(K4_K4_MOVE15, anything, &[kings(12)]);
    let r = run(Russia, K4_K4_MOVE15, &game[..10], DRAW);
    assert_eq!(basis(&r), agreement(19));
    assert_eq!(findings(&r), [("draw-without-basis", Some(10))]);
    let r = run(Russia, K4_K4_MOVE15, &game, DRAW);
    assert_eq!(basis(&r), agreement(20));
}

#[test]
fn fmjd_agreement_at_any_time() {
    let game = generate(K4_K4, anything, &[kings(10)]);
    let r = run(Fmjd, K4_K4, &game, DRAW);
    assert_eq!(
        basis(&r),
        Some(DrawBasis::Agreement {
            move_number: 5,
            early: false
        })
    );
    assert_eq!(findings(&r), [("draw-without-basis", Some(10))]);
}

// ---------------------------------------------------------------------------------------
// Through the checker, and hand-written games
// ---------------------------------------------------------------------------------------

#[test]
fn the_checker_reports_play_after_the_draw_and_the_contradicting_result() {
    // 2K v K, russia: 6.1.8.6 at ply 10; 11 plies recorded as a White win.
    let game = generate(K2_K, anything, &[kings(11)]);
    let text = pdn(K2_K, &game, WHITE_WINS);
    for (edition, first) in [(Russia, ("D101", Some(11))), (Fmjd, ("D101", Some(10)))] {
        let options = CheckOptions {
            edition,
            ..CheckOptions::default()
        };
        let report = check_reader("draw.pdn", text.as_bytes(), &options);
        let draw: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule.code.starts_with("D1"))
            .map(|d| (d.rule.code, d.ply))
            .collect();
        // fmjd: 7.2.8, White's 5th move, ply 9.
        assert_eq!(draw, [first, ("D102", None)], "{edition}");
    }
}

#[test]
fn hand_written_king_and_man_against_king() {
    // K+M v K in russia (6.1.8.6, 5 moves each: ply 10) and fmjd (7.2.8, White's 5th
    // move: ply 9), written by hand: the man e3 steps once, which restarts neither.
    let game = moves("c1-d2 h8-g7 e3-f4 g7-h8 d2-e3 h8-g7 e3-d2 g7-h8 d2-c1 h8-g7 c1-b2");
    let r = run(Russia, KM_K, &game, DRAW);
    assert_eq!(automatic(&r), Some(("6.1.8.6", 10)));
    assert_eq!(findings(&r), [("play-after-automatic-draw", Some(11))]);
    let r = run(Fmjd, KM_K, &game, DRAW);
    assert_eq!(automatic(&r), Some(("7.2.8", 9)));
    assert_eq!(findings(&r), [("play-after-automatic-draw", Some(10))]);
}

/// Regression: after a `/FEN "…"/` setup command in the main line, the draw tracker
/// counted plies from the setup while the verdict compared them with the whole main line:
/// a game drawn exactly on its last ply got `play-after-automatic-draw` on a ply before
/// the limit, and the automatic draw carried the wrong ply.
#[test]
fn setup_command_in_the_movetext_keeps_main_line_ply_numbers() {
    // Two plies from the start, then 2K v K set up before White's 2nd move (ply 2):
    // 6.1.8.6, 5 moves each after ply 2, is reached on ply 12.
    let text = |plies: &str, result: &str| {
        format!(
            "[Event \"setup\"]\n[Result \"{result}\"]\n1. c3-d4 f6-g5 /FEN \"W:WK30,K31:BK4\"/ {plies} {result}\n"
        )
    };
    let after_setup = [
        "2. c1-d2 h8-g7 3. e1-f2 g7-h8 4. d2-c1 h8-g7 5. f2-e1 g7-h8 6. c1-d2 h8-g7",
        "2. c1-d2 h8-g7 3. e1-f2 g7-h8 4. d2-c1 h8-g7 5. f2-e1 g7-h8 6. c1-d2 h8-g7 7. d2-c3",
        "2. c1-d2 h8-g7 3. e1-f2 g7-h8 4. d2-c1 h8-g7 5. f2-e1 g7-h8 6. c1-d2",
    ];
    let play = |plies: &str, result: &str| {
        let text = text(plies, result);
        let r = replay(&text, Russia);
        assert_eq!(r.status, Status::Complete, "{text}");
        r
    };
    let r = play(after_setup[0], DRAW);
    assert_eq!(r.mainline.len(), 12);
    assert_eq!(automatic(&r), Some(("6.1.8.6", 12)));
    assert_eq!(rule_basis(&r), Some(("6.1.8.6", 12)));
    assert_eq!(findings(&r), []);
    let r = play(after_setup[1], DRAW);
    assert_eq!(findings(&r), [("play-after-automatic-draw", Some(13))]);
    // One ply short: a draw by agreement at move 6 (the setup is at move 2).
    let r = play(after_setup[2], DRAW);
    assert_eq!(automatic(&r), None);
    let expected = DrawBasis::Agreement {
        move_number: 6,
        early: false,
    };
    assert_eq!(basis(&r), Some(expected));
    assert_eq!(findings(&r), agreement_findings(expected, 11));
}

/// D104 is about games played from the start position, with moves: a draw agreed at
/// move 2 of such a game is early; a draw recorded for a game without moves, for a
/// position set up by FEN (a problem, a study) or after a setup command is not.
#[test]
fn early_draw_agreement_only_for_games_with_moves_from_the_start_position() {
    let early = |pdn: &str| {
        let options = CheckOptions::default();
        common::checked(pdn, &options)
            .iter()
            .flat_map(|(_, ds)| ds.iter().map(|d| d.rule.code))
            .filter(|&c| c == "D104")
            .count()
    };
    assert_eq!(
        early("[Result \"1-1\"]\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 1-1\n"),
        1
    );
    // the start position written as a FEN is the start position
    let start = "[FEN \"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]";
    assert_eq!(early(&format!("{start}\n1. c3-d4 f6-g5 1-1\n")), 1);
    assert_eq!(early("[Result \"1-1\"]\n1-1\n"), 0);
    assert_eq!(early("[FEN \"W:WK29:BK28\"]\n1. a1-b2 1-1\n"), 0);
    assert_eq!(early("1. c3-d4 /FEN \"B:WK29:BK28\"/ 1... h2-g1 1-1\n"), 0);
}
