//! The pieces of a replay against the rules that the [`Checker`](crate::check::checker)
//! puts together: the start position of a game (its GameType, FEN and first move number),
//! where a variation starts, the draw-rule facts of each ply, why a move is illegal, how a
//! result is read and judged, and the records of what was played and found.
//!
//! ```
//! use pdnkit::replay::setup_position;
//! let (pos, fullmove) = setup_position("W:W21-32:B1-12:F3", None).unwrap();
//! assert_eq!(pos.legal_moves().len(), 7);
//! assert_eq!(fullmove, Some(3));
//! ```

use crate::Color;
use crate::diag::Rule;
use crate::diag::codes::RuleSet;
use crate::draw::{DrawTracker, Edition, Material, Outcome, PlyFacts, PositionKey, Verdict};
use crate::pdn::{MoveNumber, Span};
use crate::rules::fen::{FenSquare, Setup as FenSetup};
use crate::rules::notation::{Style, format_move_named};
use crate::rules::{
    AnyPosition, Dialect, Move, Playable, Position, Variant, VariantMove, VariantPosition,
};
use compact_str::CompactString;

/// How to replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// The draw-rule edition (RULES.md §5).
    pub edition: Edition,
    /// Replay every game by this variant's rules, whatever its tags say (`--variant`);
    /// `None`: by the variant they say, Russian when they say none.
    pub variant: Option<Variant>,
    /// Leave out of the diagnostics what only a report for people shows: the source line
    /// of each ([`crate::diag::Diagnostic::snippet`]) and the board before an illegal
    /// move ([`crate::diag::Diagnostic::board`]). Off by default; a report for machines,
    /// which shows neither, is faster to make with it (a board costs more than the rest
    /// of its diagnostic).
    pub omit_snippets_and_boards: bool,
    /// The rules whose findings are reported (every rule by default). Findings of the
    /// others are not made, which saves their cost; a game with an error among them still
    /// counts as having errors ([`crate::run::GameSummary::has_errors`]). The limit of
    /// [`crate::check::MAX_GAME_FINDINGS`] a game counts the reported findings only.
    pub report: RuleSet,
    /// The fix of a missing-tag finding also writes `?` for each missing roster tag
    /// (Event, Site, Date, Round, White, Black) and `*` for a missing Result the movetext
    /// does not give (`pdnkit fix --fill-roster`).
    pub fill_roster: bool,
    /// Report each capture written with more or fewer of its landing squares than this
    /// style writes (`M108`, `lint` and `fix --captures`); `None` (the default): any.
    pub captures: Option<crate::rules::notation::CaptureStyle>,
    /// Findings less serious than this are given as diagnostics of their rule and
    /// severity only, without message, place or fix: what a report that counts them and
    /// does not show them needs (`lint --severity`), and much cheaper to make. `None`
    /// (the default): every diagnostic in full.
    pub least_shown: Option<crate::diag::Severity>,
}

impl ReplayOptions {
    /// Whether a finding of `rule` is made in full ([`least_shown`](Self::least_shown)).
    pub fn shows(&self, rule: &crate::diag::Rule) -> bool {
        self.least_shown.is_none_or(|least| rule.severity <= least)
    }
}

/// How far the replay of the main line got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every main-line move was legal.
    #[default]
    Complete,
    /// The main line stopped at an illegal, ambiguous or unreadable move.
    Illegal,
    /// The main line stopped at a placeholder for an unknown move (`M107`, a warning):
    /// nothing wrong was found, but the rest cannot be replayed.
    Placeholder,
    /// The start position could not be set up (invalid FEN).
    InvalidSetup,
    /// The GameType names a variant we do not replay.
    Unsupported,
}

/// One main-line ply that was played (on a Russian [`Position`], or on a
/// [`crate::rules::VariantPosition`] in a game of another variant).
#[derive(Clone, Debug)]
pub struct Ply<P: Playable = Position> {
    /// 1-based ply in the main line.
    pub ply: u32,
    /// Full-move number (`N.` of the record).
    pub move_number: u32,
    /// Who played it.
    pub side: Color,
    /// The move as written (inline up to 24 bytes: no allocation per ply).
    pub written: CompactString,
    /// Where it was written.
    pub span: Span,
    /// The legal move it resolved to.
    pub mv: P::Move,
    /// The position before it (needed to write the move in any notation).
    pub before: P,
    /// The position after it.
    pub after: P,
    /// Whether `mv` is known to be the only legal move from its first to its last square
    /// (a quiet move, or a capture found as its piece's only one to there), so that
    /// those two squares name it; `false` says nothing. Lets a writer of the minimal
    /// capture form skip asking again.
    pub short_names_it: bool,
}

impl Ply {
    /// The move written in `style` (as [`crate::rules::notation::format_move`] writes it).
    pub fn text(&self, style: Style) -> String {
        format_move_named(&self.before, &self.mv, style, self.short_names_it)
    }
}

/// Something wrong (or worth knowing) in the game, by byte span in the game text.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Which diagnostic.
    pub rule: &'static Rule,
    /// What exactly.
    pub message: String,
    /// Where in the game text; `None` for the game as a whole (its start).
    pub span: Option<Span>,
    /// Main-line ply, when it concerns a main-line move.
    pub ply: Option<u32>,
    /// The move as written, when it concerns a move.
    pub move_text: Option<String>,
    /// The position before the move, for rule errors.
    pub board: Option<AnyPosition>,
    /// Further notes for the reader of the diagnostic.
    pub notes: Vec<String>,
    /// How to mend it, when the checker knows.
    pub fix: Option<Box<crate::diag::fix::Proposal>>,
}

impl Finding {
    pub(crate) fn new(rule: &'static Rule, message: impl Into<String>, span: Option<Span>) -> Self {
        Finding {
            rule,
            message: message.into(),
            span,
            ply: None,
            move_text: None,
            board: None,
            notes: Vec::new(),
            fix: None,
        }
    }
}

/// The variant a GameType tag value asks for (its first field, the number; none or an
/// empty one is Russian); the number, when pdnkit replays no such variant.
pub(crate) fn variant_for(game_type: Option<&str>) -> Result<Variant, String> {
    let Some(value) = game_type else {
        return Ok(Variant::Russian);
    };
    let number = value.split(',').next().unwrap_or("").trim();
    if number.is_empty() {
        return Ok(Variant::Russian);
    }
    (number.parse().ok())
        .and_then(Variant::from_game_type)
        .ok_or_else(|| number.to_string())
}

/// The GameType number of a `Variant` tag's value (`International`, `American/English`,
/// `Russian`…), when it names a variant PDN numbers.
pub(crate) fn game_type_of_variant(value: &str) -> Option<&'static str> {
    let v = value.trim().to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| v.contains(w));
    Some(if has(&["russian", "shashki", "шашки"]) {
        "25"
    } else if has(&["international", "dammen", "10x10", "fmjd"]) {
        "20"
    } else if has(&["pool"]) {
        "23"
    } else if has(&["english", "american", "checkers"]) {
        "21"
    } else if has(&["italian", "dama italiana"]) {
        "22"
    } else if has(&["spanish"]) {
        "24"
    } else if has(&["brazil"]) {
        "26"
    } else if has(&["canadian"]) {
        "27"
    } else if has(&["portuguese"]) {
        "28"
    } else if has(&["czech"]) {
        "29"
    } else if has(&["turkish"]) {
        "30"
    } else if has(&["thai"]) {
        "31"
    } else if has(&["frisian"]) {
        "40"
    } else {
        return None;
    })
}

/// The GameType of the board a square beyond the Russian one belongs to: `20` for one of
/// 10×10 (numbers to 50, files to j), `27` for one of 12×12; `None` for a square of the
/// Russian board, or of no board of draughts.
pub(crate) fn larger_board(square: FenSquare) -> Option<&'static str> {
    match square {
        FenSquare::Numeric(33..=50) => Some("20"),
        FenSquare::Numeric(51..=72) => Some("27"),
        FenSquare::Algebraic { file, rank } if file < 8 && rank < 8 => None,
        FenSquare::Algebraic { file, rank } if file < 10 && rank < 10 => Some("20"),
        FenSquare::Algebraic { file, rank } if file < 12 && rank < 12 => Some("27"),
        _ => None,
    }
}

/// [`larger_board`] of the first square of a FEN beyond the Russian board.
pub(crate) fn larger_board_of_fen(fen: &str) -> Option<(FenSquare, &'static str)> {
    let setup: FenSetup = fen.parse().ok()?;
    (setup.pieces.iter()).find_map(|p| larger_board(p.square).map(|game| (p.square, game)))
}

pub(crate) fn variant_name(number: &str) -> &'static str {
    match number {
        "20" => "international draughts",
        "21" => "English draughts",
        "22" => "Italian draughts",
        "23" => "American pool",
        "24" => "Spanish draughts",
        "25" => "Russian draughts",
        "26" => "Brazilian draughts",
        "27" => "Canadian draughts",
        "28" => "Portuguese draughts",
        "29" => "Czech draughts",
        "30" => "Turkish draughts",
        "31" => "Thai draughts",
        "40" => "Frisian draughts",
        "41" => "Spantsiretti",
        "0" => "chess",
        _ => "an unknown game",
    }
}

/// Reads a FEN text into a position and its full-move number (`F` field), if any; a
/// missing side to move (`?`) is taken from `side`.
pub fn setup_position(fen: &str, side: Option<Color>) -> Result<(Position, Option<u32>), String> {
    Position::set_up(fen, Variant::Russian, Variant::Russian.dialect(), side)
}

/// The side a move number written `N...` (`black`) or `N.` names in a game whose `first`
/// player moves first: the second to move or the first (in English checkers, Black moves
/// first).
pub(crate) fn side_written(first: Color, black: bool) -> Color {
    if black { first.opponent() } else { first }
}

/// The position a game of `variant`, written in `dialect`, starts from and the full-move
/// number of its first move, given its first FEN tag and the number written before its
/// first main-line move.
pub(crate) fn start_of<P: Playable>(
    fen: Option<&str>,
    variant: Variant,
    dialect: Dialect,
    first_written: Option<MoveNumber>,
) -> Result<(P, u32), String> {
    let Some(fen) = fen else {
        return Ok((P::start_of(variant, dialect), 1));
    };
    // a FEN without side to move takes it from how the first move is numbered
    let side = first_written.map(|n| side_written(dialect.first(), n.black));
    let (pos, fullmove) = P::set_up(fen, variant, dialect, side)?;
    // Without a FEN F field (or with F1), a record that starts with `N...` or `N.` for
    // its first move tells the number; otherwise 1.
    let number = match fullmove.unwrap_or(1) {
        1 => first_written.map_or(1, |n| n.number),
        n => n,
    };
    Ok((pos, number))
}

/// Material and repetition key of a position of another variant, for the draw tracker
/// (the main road is the board's long diagonal, which Brazilian's and Portuguese's rules
/// name). The key is a 128-bit hash of
/// the position: a board of 50 squares and more has no injective key of that size, and
/// two positions of one game sharing a hash is beyond any record's length.
pub fn variant_draw_view(pos: &VariantPosition) -> (Material, PositionKey) {
    use std::hash::BuildHasher;
    let side = |color| {
        let (men, kings) = pos.counts(color);
        crate::draw::SideMaterial {
            men,
            kings,
            on_main_road: pos.on_long_diagonal(color),
        }
    };
    let sides = [side(Color::White), side(Color::Black)];
    let hash = |seed| foldhash::fast::FixedState::with_seed(seed).hash_one(pos);
    let (a, b) = (hash(0x9e37_79b9), hash(0x7f4a_7c15));
    let placement = [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32];
    let material = Material::new(sides[0], sides[1]);
    (material, PositionKey::new(placement, pos.turn()))
}

/// Follows one main-line ply of another variant's game for its draw tracker: the facts
/// of the ply in full when some rule may hold (a king is on the board, or the edition
/// has a rule without kings), else only that it was played.
pub(crate) fn follow_variant_ply(
    tracker: &mut DrawTracker,
    before: &VariantPosition,
    mv: &VariantMove,
    after: &VariantPosition,
) {
    let mover = before.turn();
    if !tracker.holding() && !after.has_kings() && tracker.edition().needs_kings() {
        return tracker.push_without_kings(mover);
    }
    let (material, key) = variant_draw_view(after);
    if !tracker.holding() && !crate::draw::may_meet_a_condition(tracker.edition(), &material) {
        // (no rule can hold: the repetition key, and whether the next side can move left
        // to the next ply to show)
        let reversible = !mv.is_capture() && before.king_on(mv.from());
        tracker.push_idle(mover, key, reversible, None);
        return;
    }
    tracker.push(&PlyFacts {
        mover,
        capture: mv.is_capture(),
        man_moved: !before.king_on(mv.from()),
        promotion: mv.promotes(),
        after: material,
        key,
        side_to_move_has_moves: after.can_move(),
    });
}

/// The main road a1–h8 as a bitboard.
const MAIN_ROAD_BITS: u32 = {
    let mut bits = 0u32;
    let mut i = 0;
    while i < crate::draw::MAIN_ROAD.len() {
        if let Some(sq) = crate::rules::Square::from_numeric(crate::draw::MAIN_ROAD[i] as u32) {
            bits |= 1 << sq.index();
        }
        i += 1;
    }
    bits
};

/// Material and repetition key of a position, for the draw tracker. Population counts
/// (the same as `Material::from_pieces` over every piece, a test checks it): this runs on
/// every ply.
pub fn draw_view(pos: &Position) -> (Material, PositionKey) {
    let side = |c: Color| crate::draw::SideMaterial {
        men: pos.men(c).count() as u8,
        kings: pos.kings(c).count() as u8,
        on_main_road: (pos.pieces(c).0 & MAIN_ROAD_BITS).count_ones() as u8,
    };
    let material = Material::new(side(Color::White), side(Color::Black));
    (material, draw_view_key(pos))
}

/// What [`crate::draw::may_meet_a_condition`] says of the material of `pos` (a test holds
/// the two together), from the bitboards, counting pieces only where a king stands on
/// both sides or a lone king on one.
#[inline]
fn may_meet_a_condition_at(edition: Edition, pos: &Position) -> bool {
    let (white_kings, black_kings) = (pos.kings(Color::White).0, pos.kings(Color::Black).0);
    if white_kings == 0 && black_kings == 0 {
        return false;
    }
    if white_kings != 0
        && black_kings != 0
        && (edition == Edition::Fmjd || pos.occupied().count() <= 7)
    {
        return true;
    }
    // a lone king against two pieces or more, of which three kings, or three pieces (or
    // for `fmjd` two)
    let against_lone_king = |strong: Color| {
        let (own, lone) = (pos.pieces(strong).0, pos.pieces(strong.opponent()).0);
        if lone == 0 || lone & (lone - 1) != 0 || lone != pos.kings(strong.opponent()).0 {
            return false;
        }
        let pieces = own.count_ones();
        pos.kings(strong).0.count_ones() >= 3
            || pieces == 3
            || (edition == Edition::Fmjd && pieces == 2)
    };
    against_lone_king(Color::White) || against_lone_king(Color::Black)
}

/// The key half of [`draw_view`]: the four bitboards in the order `Position` keeps them
/// (men of both sides, then kings), which the compiler copies in wider pieces than the
/// order of [`draw_view`]'s material.
fn draw_view_key(pos: &Position) -> PositionKey {
    PositionKey::new(
        [pos.men[0].0, pos.men[1].0, pos.kings[0].0, pos.kings[1].0],
        pos.turn(),
    )
}

/// What the draw tracker needs to know about one ply: `mv` played from `before` gave
/// `after`.
pub fn ply_facts(before: &Position, mv: &Move, after: &Position) -> PlyFacts {
    ply_facts_and_captures(before, mv, after).0
}

/// [`ply_facts`], and whether the side to move at `after` has a capture: asking whether it
/// has a move asks that first, and the replayer needs it again to resolve the next move.
pub(crate) fn ply_facts_and_captures(
    before: &Position,
    mv: &Move,
    after: &Position,
) -> (PlyFacts, bool) {
    let captures = after.has_captures();
    let has_moves = captures || after.has_quiet_moves();
    let (material, key) = draw_view(after);
    let mover = before.turn();
    let facts = PlyFacts {
        mover,
        capture: mv.is_capture(),
        man_moved: before.men(mover).contains(mv.from()),
        promotion: mv.promotes(),
        after: material,
        key,
        side_to_move_has_moves: has_moves,
    };
    (facts, captures)
}

/// Follows one main-line ply, `mv` played from `before` giving `after`: gives `tracker`
/// (when there is one) what [`DrawTracker::push`] of [`ply_facts`] would, and says whether
/// the side to move at `after` has a capture (which resolving the next move needs) when
/// that was asked (`None`: not asked).
///
/// After most plies of a game no draw rule can hold (none can without a king, and with
/// kings most material still meets none: [`may_meet_a_condition_at`]); while none holds,
/// the tracker then needs neither the material nor the other facts, and counting the
/// material was most of the cost of a ply's facts. Whether the side to move has a move
/// is then left to the next ply to show (at the end of the line the caller
/// [settles](DrawTracker::settle) it), and whether it has a capture to the next move's
/// resolution, which needs it for a quiet move only.
#[inline(always)]
pub(crate) fn follow_ply(
    tracker: Option<&mut DrawTracker>,
    before: &Position,
    mv: &Move,
    after: &Position,
) -> Option<bool> {
    let tracker = tracker?;
    if !tracker.holding() && (after.kings(Color::White) | after.kings(Color::Black)).is_empty() {
        // (most plies of a game: no rule's condition holds without a king; this much is
        // inlined in the replayers' loops, the rest is a call)
        tracker.push_without_kings(before.turn());
        return None;
    }
    follow_ply_with_kings(tracker, before, mv, after)
}

/// [`follow_ply`] after a ply that leaves a king on the board, or while a rule holds.
#[inline(never)]
fn follow_ply_with_kings(
    tracker: &mut DrawTracker,
    before: &Position,
    mv: &Move,
    after: &Position,
) -> Option<bool> {
    // (the numbers of men and kings change only by a capture or a promotion)
    let counts_kept = tracker.idle_material() && !mv.is_capture() && !mv.promotes();
    if counts_kept || (!tracker.holding() && !may_meet_a_condition_at(tracker.edition(), after)) {
        let mover = before.turn();
        let reversible = !mv.is_capture() && !before.men(mover).contains(mv.from());
        tracker.push_idle(mover, draw_view_key(after), reversible, None);
        return None;
    }
    Some(follow_ply_with_facts(tracker, before, mv, after))
}

/// [`follow_ply`] when some rule's condition may hold: the ply's facts in full (apart,
/// so that the common idle ply is not set up for this one's registers and stack).
#[inline(never)]
fn follow_ply_with_facts(
    tracker: &mut DrawTracker,
    before: &Position,
    mv: &Move,
    after: &Position,
) -> bool {
    let (facts, captures) = ply_facts_and_captures(before, mv, after);
    tracker.push(&facts);
    captures
}

/// Whether a written token is the `- -` placeholder for an unknown move.
pub(crate) fn is_placeholder(text: &str) -> bool {
    // (no allocation: this runs for every move, and most start with a square)
    if text
        .as_bytes()
        .first()
        .is_some_and(|&c| c != b'-' && !c.is_ascii_whitespace())
    {
        return false;
    }
    let mut rest = text.chars().filter(|c| !c.is_whitespace());
    rest.next() == Some('-') && rest.all(|c| c == '-')
}

/// Whether a written move number is right for the move played from `pos` as move
/// `expected`. `N.` before Black's move is common shorthand in variations and after a FEN
/// with Black to move, but only when the number itself is right; we keep it strict.
pub(crate) fn number_fits<P: Playable>(number: MoveNumber, pos: &P, expected: u32) -> bool {
    number.number == expected && number.black == second_to_move(pos)
}

/// Whether the side to move in `pos` is the one that moves second in its variant (its
/// moves are numbered `N...`, and a full move ends with them).
#[inline(always)]
pub(crate) fn second_to_move<P: Playable>(pos: &P) -> bool {
    pos.to_move() != pos.first_to_move()
}

/// Where a variation starts, whose first move is written with number `first`: its position
/// and full-move number.
///
/// A variation is an alternative to the move it follows (PDN), so it starts from the
/// position `before` that move; but one generator writes alternatives *before* the move
/// they replace, so when the variation's first written move number names the move after
/// (and not the move itself), it starts from `after` it.
pub(crate) fn variation_start_numbered<P: Playable>(
    first: Option<MoveNumber>,
    before: P,
    after: Option<P>,
    move_number: u32,
) -> (P, u32) {
    let names = |pos: &P, number: u32| first.is_some_and(|n| number_fits(n, pos, number));
    let next_number = if second_to_move(&before) {
        move_number + 1
    } else {
        move_number
    };
    match after {
        Some(a) if !names(&before, move_number) && names(&a, next_number) => (a, next_number),
        _ => (before, move_number),
    }
}

/// The findings of a draw verdict, located: one about main-line ply `p` (of `plies`) at
/// that move (`ply_at(p)` gives its span and text as written), the others at the result;
/// only those whose rule `keep` says yes to.
pub(crate) fn draw_findings(
    verdict: &Verdict,
    mut keep: impl FnMut(&'static Rule) -> bool,
    plies: u32,
    ply_at: impl Fn(u32) -> (Span, String),
    result_span: Option<Span>,
) -> impl Iterator<Item = Finding> {
    let kept = verdict.findings.iter().filter(move |f| keep(f.rule));
    kept.map(move |f| match f.ply {
        Some(p) if p >= 1 && p <= plies => {
            let (span, written) = ply_at(p);
            let mut finding = Finding::new(f.rule, f.message.clone(), Some(span));
            finding.ply = Some(p);
            finding.move_text = Some(written);
            finding
        }
        _ => Finding::new(f.rule, f.message.clone(), result_span),
    })
}

/// The recorded outcome: the first Result tag's value when it is readable, else the
/// terminator, else unknown.
pub(crate) fn recorded_from(result_tag: Option<&str>, terminator: Option<Outcome>) -> Outcome {
    result_tag
        .and_then(Outcome::from_pdn)
        .filter(|o| *o != Outcome::Unknown)
        .or(terminator)
        .unwrap_or(Outcome::Unknown)
}

/// Whether a Result tag and a terminator name different outcomes (`*` as terminator goes
/// with any Result tag: KingsRow and DamboTop write it).
pub(crate) fn results_disagree(tag: Outcome, terminator: Outcome) -> bool {
    terminator != Outcome::Unknown && tag != Outcome::Unknown && terminator != tag
}

/// When the side to move at `end` has no legal move (`end_has_moves`, which the caller
/// asks once for this and for its draw tracker) it has lost (1.8.1): the loser, if the
/// recorded outcome says otherwise (an unknown outcome says nothing).
pub(crate) fn contradicted_by<P: Playable>(
    end: &P,
    end_has_moves: bool,
    recorded: Outcome,
) -> Option<Color> {
    if recorded == Outcome::Unknown || end_has_moves {
        return None;
    }
    let loser = end.to_move();
    let winner_outcome = match loser {
        Color::White => Outcome::BlackWins,
        Color::Black => Outcome::WhiteWins,
    };
    (recorded != winner_outcome).then_some(loser)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckOptions;
    use crate::check::checker::testing::check;
    use crate::check::checker::{GameReport, Keep};

    const ALL_PLIES: Keep = Keep {
        plies: usize::MAX,
        moves: false,
        tree: false,
        tags_only: false,
        positions: false,
    };

    fn run_with(text: &str, options: &CheckOptions) -> GameReport {
        check(text, options, ALL_PLIES).0
    }

    fn run(text: &str) -> GameReport {
        run_with(text, &CheckOptions::default())
    }

    fn names(r: &GameReport) -> Vec<&'static str> {
        r.findings.iter().map(|f| f.rule.name).collect()
    }

    #[test]
    fn a_game_replays_alike_after_any_other_on_its_checker() {
        // (the draw tracker of one game is restarted for the next in the same checker)
        let mut text = Vec::new();
        pdnkit_gen::Generator::new(17)
            .write_games(&mut text, 120)
            .unwrap();
        for edition in [Edition::Russia, Edition::Fmjd] {
            let options = CheckOptions {
                edition,
                ..CheckOptions::default()
            };
            let reports = |input: &[u8]| {
                let mut reader = crate::pdn::Reader::new(input, options.reader_options()).unwrap();
                let mut checker =
                    crate::check::checker::Checker::new(options.replay_options(), ALL_PLIES);
                let mut out = Vec::new();
                while let Some(item) = checker.read_game(&mut reader) {
                    item.unwrap();
                    out.push((
                        reader.game().text.to_string(),
                        format!("{:?}", checker.report()),
                    ));
                }
                out
            };
            let all = reports(&text);
            // each alone, in a checker of its own, backwards
            for (game, report) in all.iter().rev() {
                assert_eq!(&reports(game.as_bytes())[0].1, report, "{edition:?}");
            }
            let draws = all.iter().filter(|(_, r)| r.contains("basis: Some"));
            assert!(draws.count() > 3);
        }
    }

    #[test]
    fn a_condition_may_be_met_at_a_board_as_in_its_material() {
        use crate::rules::{Bitboard, Square};
        let mut rng = pdnkit_gen::SplitMix64::new(41);
        let mut said = [0usize; 2];
        for _ in 0..40_000 {
            let mut pos = Position::start();
            pos.men = [Bitboard::EMPTY; 2];
            pos.kings = [Bitboard::EMPTY; 2];
            // few pieces on each side, so that lone kings and bare boards come up often
            for side in 0..2 {
                for _ in 0..rng.next_u64() % 7 {
                    let sq = Square::all().nth((rng.next_u64() % 32) as usize).unwrap();
                    if pos.occupied().contains(sq) {
                        continue;
                    }
                    if rng.next_u64() % 2 == 0 {
                        pos.kings[side].insert(sq);
                    } else {
                        pos.men[side].insert(sq);
                    }
                }
            }
            for edition in [Edition::Russia, Edition::Fmjd] {
                let by_material = crate::draw::may_meet_a_condition(edition, &draw_view(&pos).0);
                assert_eq!(
                    may_meet_a_condition_at(edition, &pos),
                    by_material,
                    "{edition:?} {pos:?}"
                );
                said[usize::from(by_material)] += 1;
            }
        }
        assert!(said[0] > 10_000 && said[1] > 10_000, "{said:?}");
    }

    #[test]
    fn following_a_ply_tells_the_tracker_what_its_facts_would() {
        // random games, long enough to crown kings and reach the endings the rules count
        let mut rng = pdnkit_gen::SplitMix64::new(23);
        let (mut kingless, mut idle_with_kings, mut holding, mut won) = (0, 0, 0, 0);
        for edition in [Edition::Russia, Edition::Fmjd] {
            for _ in 0..150 {
                let mut pos = Position::start();
                let (material, key) = draw_view(&pos);
                let mut by_facts = DrawTracker::new(edition, material, key);
                let mut followed = by_facts.clone();
                for _ in 0..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                    let before = pos;
                    pos.play_unchecked(&mv);
                    let no_kings = (pos.kings(Color::White) | pos.kings(Color::Black)).is_empty();
                    let idle = !followed.holding() && !may_meet_a_condition_at(edition, &pos);
                    kingless += usize::from(no_kings && idle);
                    idle_with_kings += usize::from(!no_kings && idle);
                    holding += usize::from(followed.holding());
                    let (facts, captures) = ply_facts_and_captures(&before, &mv, &pos);
                    by_facts.push(&facts);
                    let told = follow_ply(Some(&mut followed), &before, &mv, &pos);
                    assert!(told.is_none_or(|told| told == captures));
                    // as if the line ended here (a win is noted when it is settled)
                    let mut settled = followed.clone();
                    settled.settle(|| pos.has_legal_moves());
                    let mut expected = by_facts.clone();
                    if no_kings {
                        // the run of a position without kings, which `push_without_kings`
                        // leaves empty, is never looked up: the next ply is a man's
                        settled.forget_run();
                        expected.forget_run();
                    }
                    assert_eq!(format!("{settled:?}"), format!("{expected:?}"));
                    won += usize::from(by_facts.won_at().is_some());
                }
            }
        }
        // both ways of following are taken often
        assert!(
            kingless > 10_000 && idle_with_kings > 1_000 && holding > 200 && won > 20,
            "{kingless} {idle_with_kings} {holding} {won}"
        );
    }

    #[test]
    fn a_clean_game_replays_completely() {
        let r = run("1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 *");
        assert_eq!(r.status, Status::Complete);
        assert_eq!(r.mainline.len(), 5);
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert_eq!(r.mainline[4].move_number, 3);
    }

    #[test]
    fn missing_capture_is_illegal_and_stops_the_line() {
        // after 1. c3-d4 f6-e5 White must capture d4:f6
        let r = run("1. c3-d4 f6-e5 2. b2-c3 e5:c3 *");
        assert_eq!(r.status, Status::Illegal);
        assert_eq!(names(&r), ["illegal-move"]);
        let f = &r.findings[0];
        assert_eq!(f.ply, Some(3));
        assert_eq!(f.move_text.as_deref(), Some("b2-c3"));
        assert!(f.message.contains("capture is mandatory"), "{}", f.message);
        assert!(f.message.contains("d4:f6"), "{}", f.message);
        assert_eq!(r.mainline.len(), 2);
        assert_eq!(r.plies, 2);
    }

    #[test]
    fn variations_are_replayed_from_the_position_before_their_move() {
        let r = run("1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6) (1... b6-a5 2. b2-c3) 2. b2-c3 *");
        assert_eq!(r.status, Status::Complete);
        // 2. b2-c3 is fine after 1... b6-a5 (no capture possible), and 2. d4:f6 after f6-e5
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        let bad = run("1. c3-d4 f6-g5 (1... f6-e5 2. b2-c3) 2. b2-c3 *");
        assert_eq!(names(&bad), ["illegal-move"]);
        assert_eq!(
            bad.findings[0].ply, None,
            "variation moves have no main-line ply"
        );
        assert_eq!(bad.status, Status::Complete);
    }

    #[test]
    fn variations_written_before_the_move_they_replace() {
        // shashkispark writes `( 2. … )` after Black's first move, before White's second
        let r = run("1. c3-d4 f6-g5 ( 2. b2-c3 g5-h4 ) 2. g3-f4 *");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        // the ordinary reading still wins when the number names the preceding move
        let r = run("1. c3-d4 f6-g5 ( 1... f6-e5 2. d4:f6 ) 2. g3-f4 *");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
    }

    #[test]
    fn variations_of_an_illegal_move_are_still_replayed() {
        let r = run("1. c3-d4 f6-e5 2. b2-c3 ( 2. d4:f6 g7:e5 ) *");
        assert_eq!(names(&r), ["illegal-move"]);
        let r = run("1. c3-d4 f6-e5 2. b2-c3 ( 2. d4:f6 g7-h6 ) *");
        assert_eq!(names(&r), ["illegal-move", "illegal-move"]);
        assert_eq!(r.findings[1].move_text.as_deref(), Some("g7-h6"));
    }

    #[test]
    fn ambiguous_short_capture_resolved_by_the_rest_of_the_game() {
        // RULES.md §3 example: f4:h2 takes g3 only, or g5,g7,e7,g3 ending as a king.
        // Black replies g5-h4 which needs the g5 man still on the board.
        let r = run("[FEN \"W:Wf4:Bg3,g5,e7,g7\"]\n1. f4:h2 g5-h4 *");
        assert_eq!(names(&r), ["ambiguous-move-resolved"]);
        assert_eq!(r.status, Status::Complete);
        assert_eq!(r.mainline[0].mv.captured().count(), 1);
        let r = run("[FEN \"W:Wf4:Bg3,g5,e7,g7\"]\n1. f4:h2 *");
        assert_eq!(names(&r), ["ambiguous-move"]);
        assert!(r.findings[0].message.contains("f4:h6:f8:d6:h2"));
    }

    #[test]
    fn result_mismatch_and_contradiction() {
        let r = run("[Result \"1-0\"]\n1. c3-d4 0-1");
        assert!(names(&r).contains(&"result-mismatch"));
        // White king takes the last black piece: Black has no move, so White won.
        let r = run("[FEN \"W:WKa1:Bc3\"]\n[Result \"0-1\"]\n1. a1:d4 0-1");
        assert_eq!(names(&r), ["result-contradicts-position"]);
        let r = run("[FEN \"W:WKa1:Bc3\"]\n[Result \"1-0\"]\n1. a1:d4 1-0");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
    }

    #[test]
    fn a_game_without_gametype_failing_at_once_gets_a_hint() {
        // English draughts: Black (on 1-12) moves first
        let r = run("1. 11-15 23-18 *");
        assert_eq!(names(&r), ["illegal-move"]);
        let hint =
            |r: &GameReport| (r.findings[0].notes.iter()).any(|n| n.contains("no GameType tag"));
        assert!(hint(&r));
        let r = run("[GameType \"25\"]\n1. 11-15 23-18 *");
        assert!(!hint(&r));
    }

    #[test]
    fn other_variants_are_replayed_by_their_rules() {
        let r = run("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *");
        assert_eq!(
            (r.status, r.variant),
            (Status::Complete, Variant::International)
        );
        assert_eq!((r.plies, r.variant_line.mainline.len()), (4, 4));
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert!(r.mainline.is_empty() && r.start.is_none());
        // International's majority rule: 28x19 takes one man where two can be taken
        let r = run("[GameType \"20\"]\n[FEN \"W:W28:B23,13,12\"]\n1. 28x19 *");
        assert_eq!(names(&r), ["illegal-move"]);
        let message = &r.findings[0].message;
        assert!(
            message.contains("28x19x8x17 (the capture of the most"),
            "{message}"
        );
        // English: Black moves first, and its move is numbered `1.`
        let r = run("[GameType \"21\"]\n1. 11-15 23-18 2. 8-11 27-23 *");
        assert_eq!((r.status, r.variant), (Status::Complete, Variant::English));
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        let r = run("[GameType \"21\"]\n1. 11-15 1... 23-18 2. 8-11 *");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        let r = run("[GameType \"21\"]\n1. 11-15 2. 23-18 *");
        assert_eq!(names(&r), ["wrong-move-number"]);
        assert!(r.findings[0].message.contains("White's move 1 (`1...`)"));
        // a Variant tag says it too
        let r = run("[Variant \"Czech\"]\n1. c3-d4 f6-g5 *");
        assert_eq!((r.status, r.variant), (Status::Complete, Variant::Czech));
    }

    /// An International game whose kings shuttle `n` moves each from `fen`, ending with
    /// `result`.
    fn shuttled(fen: &str, white: [&str; 2], black: [&str; 2], n: usize, result: &str) -> String {
        shuttled_in("20", fen, white, black, n, result)
    }

    /// A game of GameType `game_type` from `fen`, White to move, in which each side
    /// plays its two moves in turn, `n` moves each.
    fn shuttled_in(
        game_type: &str,
        fen: &str,
        white: [&str; 2],
        black: [&str; 2],
        n: usize,
        result: &str,
    ) -> String {
        let moves: Vec<String> = (0..n)
            .map(|k| format!("{}. {} {}", k + 1, white[k % 2], black[k % 2]))
            .collect();
        format!(
            "[GameType \"{game_type}\"]\n[FEN \"{fen}\"]\n{} {result}\n",
            moves.join(" ")
        )
    }

    #[test]
    fn international_games_are_judged_by_the_fmjd_draw_rules() {
        use crate::draw::{DrawBasis, DrawRule};
        let basis = |r: &GameReport| r.draw.as_ref().and_then(|v| v.basis);
        let (w, b) = (["46-41", "41-46"], ["3-9", "9-3"]);
        // two kings against one: drawn after 5 moves each
        let r = run(&shuttled("W:WK46,K47:BK3", w, b, 5, "1-1"));
        let at_10 = DrawBasis::Rule {
            rule: DrawRule::Int5,
            ply: 10,
        };
        assert_eq!(basis(&r), Some(at_10));
        assert!(names(&r).is_empty(), "{:?}", r.findings);
        // three kings against one: 16 moves each; play after it, and a win, contradict it
        // (the verdict's findings are located with the game: `check::diagnose`)
        let r = run(&shuttled("W:WK46,K47,K48:BK3", w, b, 17, "2-0"));
        let verdict = r.draw.as_ref().unwrap();
        let found: Vec<&str> = verdict.findings.iter().map(|f| f.rule.name).collect();
        assert!(found.contains(&"play-after-automatic-draw"), "{found:?}");
        assert!(found.contains(&"result-contradicts-draw-rule"), "{found:?}");
        let by_16 =
            |f: &crate::draw::DrawFinding| f.message.contains("at ply 32 by international-16");
        assert!(verdict.findings.iter().any(by_16), "{:?}", verdict.findings);
        // kings only moved, men stood still: 25 moves each
        let r = run(&shuttled("W:WK46,35:BK3,16", w, b, 25, "1-1"));
        let at_50 = DrawBasis::Rule {
            rule: DrawRule::Int25,
            ply: 50,
        };
        assert_eq!(basis(&r), Some(at_50));
    }

    #[test]
    fn other_federations_draw_rules() {
        use crate::draw::{DrawBasis, DrawRule};
        let basis = |r: &GameReport| r.draw.as_ref().and_then(|v| v.basis);
        let rule = |rule, ply| Some(DrawBasis::Rule { rule, ply });
        // Brazilian: the FMJD's draughts-64 rules; three kings against a lone king on the
        // main road (a1-h8): the stronger side's 5th move
        let brazilian = "[GameType \"26\"]\n[FEN \"B:WKc1,Ke1,Kg1:BKh8\"]\n1... h8-g7 \
                         2. c1-d2 g7-h8 3. d2-c1 h8-g7 4. c1-d2 g7-h8 5. d2-c1 h8-g7 6. c1-d2 1-1";
        assert_eq!(basis(&run(brazilian)), rule(DrawRule::R7_2_7, 10));
        // Frisian: two kings against one, 7 moves each (International's 5 do not apply)
        let (w, b) = (["46-41", "41-46"], ["3-9", "9-3"]);
        let frisian = shuttled_in("40", "W:WK46,K47:BK3", w, b, 7, "1-1");
        let r = run(&frisian);
        assert_eq!(basis(&r), rule(DrawRule::Frisian7, 14));
        assert!(names(&r).is_empty(), "{:?}", r.findings);
        // Portuguese: three kings, one on the long diagonal (h1-a8 on its mirrored
        // board), against a king: 12 moves each
        let (w, b) = (["d1-c2", "c2-d1"], ["c8-d7", "d7-c8"]);
        let portuguese = shuttled_in("28", "W:WKh1,Kf1,Kd1:BKc8", w, b, 12, "1-1");
        assert_eq!(basis(&run(&portuguese)), rule(DrawRule::Portuguese12, 24));
        let off_diagonal = shuttled_in("28", "W:WKh5,Kf1,Kd1:BKc8", w, b, 12, "1-1");
        assert!(matches!(
            basis(&run(&off_diagonal)),
            Some(DrawBasis::Repetition { .. })
        ));
        // English: no automatic draw; a draw with no repetition is agreed
        let r = run("[GameType \"21\"]\n1. 11-15 23-19 1-1");
        let agreed = DrawBasis::Agreement {
            move_number: 1,
            early: false,
        };
        assert_eq!(basis(&r), Some(agreed));
        let verdict = r.draw.as_ref().unwrap();
        let found: Vec<&str> = verdict.findings.iter().map(|f| f.rule.name).collect();
        assert_eq!(found, ["draw-without-basis"]);
        assert!(
            verdict.findings[0].message.contains("at move 1 "),
            "{verdict:?}"
        );
        // Czech: no federation's draw rules known, none followed
        let r = run("[GameType \"29\"]\n1. c3-d4 f6-g5 1-1");
        assert!(r.draw.is_none() && names(&r).is_empty(), "{:?}", r.findings);
    }

    #[test]
    fn a_variant_is_guessed_from_the_board_a_game_shows() {
        // a move beyond the Russian board: read again as International
        let r = run("1. 33-28 18-23 2. 39-33 *");
        assert_eq!(
            (r.status, r.variant),
            (Status::Complete, Variant::International)
        );
        assert_eq!(names(&r), ["guessed-variant"]);
        assert_eq!(r.findings[0].span.map(|s| s.start), Some(3));
        // a FEN of the 10×10 board
        let r = run("[FEN \"W:W46:B5\"]\n1. 46-41 *");
        assert_eq!(
            (r.status, r.variant),
            (Status::Complete, Variant::International)
        );
        assert_eq!(names(&r), ["guessed-variant"]);
        // a GameType says it for certain
        let r = run("[GameType \"20\"]\n1. 33-28 *");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        // after moves replayed as Russian, such a square is a slip of a Russian game
        let r = run("1. c3-d4 f6-g5 2. 33-28 *");
        assert_eq!(
            (names(&r), r.variant),
            (vec!["unreadable-move"], Variant::Russian)
        );
        // a Variant tag that names no variant says nothing
        let r = run("[Variant \"Mine\"]\n[FEN \"W:W46:B5\"]\n1. 46-41 *");
        assert_eq!(
            (names(&r), r.variant),
            (vec!["guessed-variant"], Variant::International)
        );
    }

    #[test]
    fn unsupported_variant_is_not_replayed() {
        let r = run("[GameType \"41\"]\n1. 32-28 19-23 *");
        assert_eq!(r.status, Status::Unsupported);
        assert_eq!(names(&r), ["unsupported-variant"]);
        let forced = run_with(
            "[GameType \"29\"]\n1. c3-d4 *",
            &CheckOptions {
                variant: Some(Variant::Russian),
                ..Default::default()
            },
        );
        assert_eq!(forced.status, Status::Complete);
    }

    #[test]
    fn invalid_fen_is_reported_and_not_replayed() {
        let r = run("[FEN \"W:W21-32:B1-12,21\"]\n1. c3-d4 *");
        assert_eq!(r.status, Status::InvalidSetup);
        assert_eq!(names(&r), ["invalid-fen"]);
        assert!(
            r.findings[0].message.contains("twice"),
            "{}",
            r.findings[0].message
        );
    }

    #[test]
    fn wrong_move_numbers_are_warned() {
        let r = run("1. c3-d4 f6-g5 3. b2-c3 *");
        assert_eq!(names(&r), ["wrong-move-number"]);
        assert_eq!(r.status, Status::Complete);
        let r = run("[FEN \"B:W21-32:B1-12\"]\n1... f6-g5 2. c3-d4 *");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
    }

    #[test]
    fn placeholder_stops_the_line() {
        let r = run("1. - - - - 2. - - *");
        assert_eq!(names(&r), ["placeholder-move"]);
        assert_eq!(r.status, Status::Placeholder);
        // a placeholder after the line stopped leaves it stopped where it stopped
        let r = run("1. c3-d4 f6-e5 2. b2-c3 - - *");
        assert_eq!(r.status, Status::Illegal);
    }

    #[test]
    fn setup_command_resets_the_position() {
        let r = run("1. c3-d4 /FEN \"B:WKa1:Bh8\"/ 1... h8-g7 *");
        assert_eq!(r.status, Status::Complete, "{:?}", r.findings);
    }

    #[test]
    fn draw_view_counts_as_material_from_pieces() {
        use crate::rules::fen::Setup;
        for fen in [
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:WKa1,c3,Kh8:Bb8,Kd4,e5,Kg7",
            "W:WK29,K25,18:BK4,8,15,22",
        ] {
            let setup: Setup = fen.parse().unwrap();
            let pos = Position::from_setup(&setup).unwrap();
            let pieces = [Color::White, Color::Black].into_iter().flat_map(|c| {
                let kings = pos.kings(c);
                pos.pieces(c)
                    .map(move |sq| (c, kings.contains(sq), sq.numeric() as u8))
            });
            assert_eq!(draw_view(&pos).0, Material::from_pieces(pieces), "{fen}");
        }
    }
}
