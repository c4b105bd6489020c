//! Replaying a game against the rules: every move of the main line and of every variation,
//! the move numbers, the result, and the draw rules.
//!
//! [`replay`] takes a parsed [`Game`] and gives a [`Replay`]: the resolved main line (each
//! ply with its move and the position after it), the final position, the status of the
//! game, the draw verdict, and [`Finding`]s located by byte spans in the game text. Turning
//! spans into `line:column` and findings into diagnostics is [`crate::check`]'s job.
//!
//! ```
//! use pdnkit::pdn::Game;
//! use pdnkit::replay::{replay, ReplayOptions, Status};
//! let game = Game::parse("1. c3-d4 f6-g5 2. d4-c5 b6:d4 *");
//! let r = replay(&game, &ReplayOptions::default());
//! assert_eq!(r.status, Status::Complete);
//! assert_eq!(r.mainline.len(), 4);
//! assert!(r.findings.is_empty());
//! ```

use crate::Color;
use crate::diag::Rule;
use crate::diag::codes::{self, RuleSet};
use crate::draw::{DrawTracker, Edition, Material, Outcome, PlyFacts, PositionKey, Verdict};
use crate::pdn::fen::Setup as FenSetup;
use crate::pdn::{Annotation, Game, Line, Move as PdnMove, MoveNumber, Span};
use crate::rules::notation::{
    CaptureStyle, Resolution, Style, format_move, format_move_named, parse_and_resolve,
    parse_and_resolve_knowing, push_move_named,
};
use crate::rules::{Move, Position, Variant};
use compact_str::CompactString;

/// How to replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// The draw-rule edition (RULES.md §5).
    pub edition: Edition,
    /// Replay with Russian rules whatever the GameType tag says.
    pub force_russian: bool,
    /// Leave out of the diagnostics what only a report for people shows: the source line
    /// of each ([`crate::diag::Diagnostic::snippet`]) and the board before an illegal
    /// move ([`crate::diag::Diagnostic::board`]). Off by default; a report for machines,
    /// which shows neither, is faster to make with it (a board costs more than the rest
    /// of its diagnostic).
    pub omit_snippets_and_boards: bool,
    /// The rules whose findings are reported (every rule by default). Findings of the
    /// others are not made, which saves their cost; a game with an error among them still
    /// counts as having errors ([`crate::check::GameSummary::has_errors`]). The limit of
    /// [`crate::check::MAX_GAME_FINDINGS`] a game counts the reported findings only.
    pub report: RuleSet,
}

/// How far the replay of the main line got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every main-line move was legal.
    #[default]
    Complete,
    /// The main line stopped at an illegal, ambiguous, unreadable or placeholder move.
    Illegal,
    /// The start position could not be set up (invalid FEN).
    InvalidSetup,
    /// The GameType names a variant we do not replay.
    Unsupported,
}

/// A main line this long makes room for all its written moves at once. Before, a game
/// that stops early made room for plies it never played: 2 MB for a game of 20,000
/// moves, allocated and freed for each such game on each thread, which mimalloc holds
/// for a while after it is freed.
const LONG_MAIN_LINE: usize = 256;

/// One main-line ply that was played.
#[derive(Clone, Debug)]
pub struct Ply {
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
    pub mv: Move,
    /// The position before it (needed to write the move in any notation).
    pub before: Position,
    /// The position after it.
    pub after: Position,
    /// Whether `mv` is known to be the only legal move from its first to its last square
    /// (a quiet move, or a capture found as its piece's only one to there), so that
    /// those two squares name it; `false` says nothing. Lets a writer of the minimal
    /// capture form skip asking again.
    pub short_names_it: bool,
}

impl Ply {
    /// The move written in `style` (as [`format_move`] writes it).
    pub fn text(&self, style: Style) -> String {
        format_move_named(&self.before, &self.mv, style, self.short_names_it)
    }

    /// [`text`](Self::text) appended to `out`.
    pub(crate) fn push_text(&self, out: &mut String, style: Style) {
        push_move_named(out, &self.before, &self.mv, style, self.short_names_it);
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
    pub board: Option<Position>,
    /// Further notes for the reader of the diagnostic.
    pub notes: Vec<String>,
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
        }
    }
}

/// The result of replaying one game.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The rules used, `None` when the variant is not supported.
    pub variant: Option<Variant>,
    /// The position the game starts from.
    pub start: Option<Position>,
    /// Full-move number of the first move.
    pub first_move_number: u32,
    /// The main-line plies that were played (up to the first bad move).
    pub mainline: Vec<Ply>,
    /// Main-line moves written in the record (played or not).
    pub written_plies: u32,
    /// How far the main line got.
    pub status: Status,
    /// The recorded outcome (Result tag if readable, else the terminator).
    pub outcome: Outcome,
    /// The draw verdict (basis of a drawn game, draw findings), when the main line was
    /// replayed completely.
    pub draw: Option<Verdict>,
    /// Everything found, in text order.
    pub findings: Vec<Finding>,
}

impl Replay {
    /// The position at the end of the replayed main line.
    pub fn final_position(&self) -> Option<&Position> {
        self.mainline
            .last()
            .map(|p| &p.after)
            .or(self.start.as_ref())
    }

    /// Whether some finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.rule.severity == crate::diag::Severity::Error)
    }
}

/// The variant a GameType tag asks for: `Ok(Some)` supported, `Ok(None)` missing (Russian
/// by default), `Err(number)` a variant we do not replay.
fn variant_of(game: &Game) -> Result<Variant, String> {
    variant_for(game.tag("GameType"))
}

/// The variant a GameType tag value asks for (see [`variant_of`]).
pub(crate) fn variant_for(game_type: Option<&str>) -> Result<Variant, String> {
    let Some(value) = game_type else {
        return Ok(Variant::Russian);
    };
    let number = value.split(',').next().unwrap_or("").trim();
    match number {
        "25" => Ok(Variant::Russian),
        "" => Ok(Variant::Russian),
        other => Err(other.to_string()),
    }
}

pub(crate) fn variant_name(number: &str) -> &'static str {
    match number {
        "20" => "international draughts",
        "21" => "English draughts",
        "22" => "Italian draughts",
        "23" => "American pool",
        "24" => "Spanish draughts",
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
    let mut setup: FenSetup = fen
        .parse()
        .map_err(|e| format!("invalid FEN \"{fen}\": {e}"))?;
    if setup.turn.is_none() {
        setup.turn = Some(side.unwrap_or(Color::White));
    }
    let fullmove = setup.extra.iter().find_map(|f| {
        f.strip_prefix(['F', 'f'])
            .and_then(|n| n.trim().parse::<u32>().ok())
            .filter(|&n| n > 0)
    });
    let pos = Position::from_setup(&setup).map_err(|e| format!("impossible FEN \"{fen}\": {e}"))?;
    Ok((pos, fullmove))
}

/// The position a game starts from and the full-move number of its first move, given its
/// first FEN tag and the number written before its first main-line move.
pub(crate) fn start_of(
    fen: Option<&str>,
    first_written: Option<MoveNumber>,
) -> Result<(Position, u32), String> {
    let Some(fen) = fen else {
        return Ok((Position::start(), 1));
    };
    // a FEN without side to move takes it from how the first move is numbered
    let side = first_written.map(|n| if n.black { Color::Black } else { Color::White });
    let (pos, fullmove) = setup_position(fen, side)?;
    // Without a FEN F field (or with F1), a record that starts with `N...` or `N.` for
    // its first move tells the number; otherwise 1.
    let number = match fullmove.unwrap_or(1) {
        1 => first_written.map_or(1, |n| n.number),
        n => n,
    };
    Ok((pos, number))
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
/// order of [`draw_view`]'s material (0.3% of `lint`'s instructions).
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

/// Full-path notation, for listing candidates.
pub(crate) fn full(pos: &Position, m: &Move) -> String {
    format_move(
        pos,
        m,
        Style {
            captures: CaptureStyle::Full,
            ..Style::default()
        },
    )
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

/// How deep the look-ahead for ambiguous captures may branch (each level multiplies the
/// work by the number of candidates; real games have one ambiguity in hundreds).
const LOOKAHEAD_AMBIGUITIES: u32 = 4;

/// Whether `moves` replay legally from `pos`, trying every candidate of an ambiguous move.
fn replays_legally(pos: &Position, moves: &[PdnMove], budget: u32) -> bool {
    let mut pos = *pos;
    for (i, m) in moves.iter().enumerate() {
        if m.before().iter().any(|a| matches!(a, Annotation::Setup(_))) || is_placeholder(&m.text) {
            // a setup command or a placeholder ends what can be checked
            return true;
        }
        let Ok(resolution) = parse_and_resolve(&pos, &m.text) else {
            return false;
        };
        match resolution {
            Resolution::Unique { mv, .. } => pos.play_unchecked(&mv),
            Resolution::Illegal(_) => return false,
            Resolution::Ambiguous(cands) => {
                if budget == 0 {
                    return true;
                }
                return cands
                    .iter()
                    .any(|c| replays_legally(&pos.after(c), &moves[i + 1..], budget - 1));
            }
        }
    }
    true
}

struct Replayer {
    findings: Vec<Finding>,
    mainline: Vec<Ply>,
    tracker: Option<DrawTracker>,
    main_status: Status,
}

/// Where a line starts: its position and the number/side of its first move.
#[derive(Clone, Copy)]
struct LineStart {
    pos: Position,
    move_number: u32,
    mainline: bool,
    /// Main-line ply of the line's first move (mainline only).
    ply: u32,
}

impl Replayer {
    fn finding(&mut self, f: Finding) {
        self.findings.push(f);
    }

    /// Replays one line; returns whether it went to its end.
    fn line(&mut self, line: &Line, start: LineStart) -> bool {
        let mut pos = start.pos;
        let mut move_number = start.move_number;
        let mut ply = start.ply;
        // `pos.has_captures()`, when already known
        let mut captures: Option<bool> = None;
        // Variations before the first move are alternatives to it (one generator writes
        // them so): same start position.
        for v in &line.leading_variations {
            self.variation(v, pos, move_number);
        }
        for (i, m) in line.moves.iter().enumerate() {
            // A /FEN/ setup command re-sets the position before this move.
            for a in m.before() {
                if let Annotation::Setup(s) = a {
                    match setup_position(&s.fen, m.side) {
                        Ok((p, fullmove)) => {
                            pos = p;
                            captures = None;
                            if let Some(n) = fullmove {
                                move_number = n;
                            }
                            if start.mainline {
                                let (material, key) = draw_view(&pos);
                                self.tracker = Some(
                                    DrawTracker::new(
                                        self.tracker
                                            .as_ref()
                                            .map(|t| t.edition())
                                            .unwrap_or_default(),
                                        material,
                                        key,
                                    )
                                    .with_first_move_number(move_number)
                                    .with_start_ply(ply),
                                );
                            }
                        }
                        Err(msg) => {
                            self.finding(Finding::new(&codes::INVALID_FEN, msg, Some(s.span)));
                            return self.stop(start.mainline);
                        }
                    }
                }
            }
            ply += 1;
            self.check_number(m, &pos, move_number, start.mainline.then_some(ply));
            let has_captures = captures.take().unwrap_or_else(|| pos.has_captures());
            let mut short_names_it = true;
            let played = self.resolve_move(
                m,
                &pos,
                has_captures,
                &line.moves[i + 1..],
                start.mainline.then_some(ply),
                &mut short_names_it,
            );
            let after = played.map(|mv| pos.after(&mv));
            self.variations_of(m, pos, after, move_number);
            let (Some(mv), Some(after)) = (played, after) else {
                return self.stop(start.mainline);
            };
            let before = pos;
            pos = after;
            if start.mainline {
                if self.mainline.len() == LONG_MAIN_LINE {
                    // one allocation for the rest instead of growing (and copying) plies
                    // of two positions each
                    self.mainline.reserve(line.moves.len() - LONG_MAIN_LINE);
                }
                self.mainline.push(Ply {
                    ply,
                    move_number,
                    side: before.turn(),
                    written: m.text.clone(),
                    span: m.span,
                    mv,
                    before,
                    after: pos,
                    short_names_it,
                });
                captures = follow_ply(self.tracker.as_mut(), &before, &mv, &pos);
            }
            if before.turn() == Color::Black {
                move_number += 1;
            }
        }
        true
    }

    /// Resolves one written move against `pos`, reporting what is wrong; `None` when the
    /// line cannot go on. `rest` is the rest of the line, for ambiguous captures. Clears
    /// `short_names_it` as [`parse_and_resolve_knowing`] does.
    fn resolve_move(
        &mut self,
        m: &PdnMove,
        pos: &Position,
        has_captures: bool,
        rest: &[PdnMove],
        ply: Option<u32>,
        short_names_it: &mut bool,
    ) -> Option<Move> {
        let pos = *pos;
        let finding = |rule: &'static Rule, message: String| {
            let mut f = Finding::new(rule, message, Some(m.span));
            f.move_text = Some(m.text.to_string());
            f.ply = ply;
            f
        };
        if is_placeholder(&m.text) {
            let f = finding(
                &codes::PLACEHOLDER_MOVE,
                "placeholder for an unknown move; the rest of this line cannot be replayed".into(),
            );
            self.finding(f);
            return None;
        }
        let resolution =
            match parse_and_resolve_knowing(&pos, &m.text, has_captures, short_names_it) {
                Ok(r) => r,
                Err(e) => {
                    let f = finding(
                        &codes::UNREADABLE_MOVE,
                        format!("cannot read move `{}`: {e}", m.text),
                    );
                    self.finding(f);
                    return None;
                }
            };
        let mv = match resolution {
            Resolution::Unique {
                mv,
                separator_mismatch,
            } => {
                if separator_mismatch {
                    let what = if mv.is_capture() {
                        "a capture written with `-`"
                    } else {
                        "a quiet move written with a capture separator"
                    };
                    let f = finding(
                        &codes::CAPTURE_WRITTEN_AS_MOVE,
                        format!("`{}` is {what}; read as {}", m.text, full(&pos, &mv)),
                    );
                    self.finding(f);
                }
                mv
            }
            Resolution::Illegal(why) => {
                let mut f = finding(
                    &codes::ILLEGAL_MOVE,
                    format!("`{}` is illegal: {}", m.text, describe_illegal(&pos, &why)),
                );
                f.board = Some(pos);
                self.finding(f);
                return None;
            }
            Resolution::Ambiguous(cands) => {
                let fitting = fitting_candidates(&pos, &cands, rest);
                let names: Vec<String> = cands.iter().map(|c| full(&pos, c)).collect();
                if let [only] = fitting[..] {
                    let f = finding(
                        &codes::AMBIGUOUS_MOVE_RESOLVED,
                        format!(
                            "`{}` could be {}; only {} fits the rest of the game",
                            m.text,
                            names.join(" or "),
                            full(&pos, &only)
                        ),
                    );
                    self.finding(f);
                    only
                } else {
                    let why = if fitting.is_empty() {
                        "none of them fits the rest of the game".to_string()
                    } else {
                        format!("{} of them fit the rest of the game", fitting.len())
                    };
                    let mut f = finding(
                        &codes::AMBIGUOUS_MOVE,
                        format!("`{}` could be {}; {why}", m.text, names.join(" or ")),
                    );
                    f.board = Some(pos);
                    self.finding(f);
                    return None;
                }
            }
        };
        Some(mv)
    }

    /// Replays the variations attached to move `m` (see [`variation_start`]).
    fn variations_of(
        &mut self,
        m: &PdnMove,
        before: Position,
        after: Option<Position>,
        move_number: u32,
    ) {
        for v in m.variations() {
            let (pos, number) = variation_start(v, before, after, move_number);
            self.variation(v, pos, number);
        }
    }

    fn stop(&mut self, mainline: bool) -> bool {
        if mainline {
            self.main_status = Status::Illegal;
        }
        false
    }

    fn variation(&mut self, v: &Line, pos: Position, move_number: u32) {
        self.line(
            v,
            LineStart {
                pos,
                move_number,
                mainline: false,
                ply: 0,
            },
        );
    }

    /// Move numbers must fit the side to move: `N.` before White's move N, `N...` before
    /// Black's.
    fn check_number(&mut self, m: &PdnMove, pos: &Position, expected: u32, ply: Option<u32>) {
        let Some(number) = m.written_number else {
            return;
        };
        let written = number.number;
        if !number_fits(number, pos, expected) {
            let want = match pos.turn() {
                Color::White => format!("{expected}."),
                Color::Black => format!("{expected}..."),
            };
            let mut f = Finding::new(
                &codes::WRONG_MOVE_NUMBER,
                format!(
                    "move `{}` is written as move {written}{} but is {} move {expected} (`{want}`)",
                    m.text,
                    if number.black { "..." } else { "." },
                    match pos.turn() {
                        Color::White => "White's",
                        Color::Black => "Black's",
                    }
                ),
                Some(m.number_span.unwrap_or(m.span)),
            );
            f.move_text = Some(m.text.to_string());
            f.ply = ply;
            self.finding(f);
        }
    }
}

/// Whether a written move number is right for the move played from `pos` as move
/// `expected`. `N.` before Black's move is common shorthand in variations and after a FEN
/// with Black to move, but only when the number itself is right; we keep it strict.
pub(crate) fn number_fits(number: MoveNumber, pos: &Position, expected: u32) -> bool {
    number.number == expected && number.black == (pos.turn() == Color::Black)
}

/// Where a variation attached to a move starts: its position and full-move number.
///
/// A variation is an alternative to the move it follows (PDN), so it starts from the
/// position `before` that move; but one generator writes alternatives *before* the move
/// they replace, so when the variation's first written move number names the move after
/// (and not the move itself), it starts from `after` it.
pub fn variation_start(
    v: &Line,
    before: Position,
    after: Option<Position>,
    move_number: u32,
) -> (Position, u32) {
    variation_start_numbered(
        v.moves.first().and_then(|f| f.written_number),
        before,
        after,
        move_number,
    )
}

/// [`variation_start`] for a variation whose first move is written with number `first`.
pub(crate) fn variation_start_numbered(
    first: Option<MoveNumber>,
    before: Position,
    after: Option<Position>,
    move_number: u32,
) -> (Position, u32) {
    let names = |pos: &Position, number: u32| first.is_some_and(|n| number_fits(n, pos, number));
    let next_number = if before.turn() == Color::Black {
        move_number + 1
    } else {
        move_number
    };
    match after {
        Some(a) if !names(&before, move_number) && names(&a, next_number) => (a, next_number),
        _ => (before, move_number),
    }
}

/// The candidates of an ambiguous move that let the rest of the line replay legally
/// (RULES.md §3): exactly one means the move is resolved.
pub fn fitting_candidates(pos: &Position, candidates: &[Move], rest: &[PdnMove]) -> Vec<Move> {
    candidates
        .iter()
        .copied()
        .filter(|c| replays_legally(&pos.after(c), rest, LOOKAHEAD_AMBIGUITIES))
        .collect()
}

/// Words for why a move is illegal, with candidate moves in full notation.
pub(crate) fn describe_illegal(pos: &Position, why: &crate::rules::notation::Illegal) -> String {
    use crate::rules::notation::Illegal as I;
    let list = |moves: &[Move]| {
        let mut names: Vec<String> = moves.iter().map(|m| full(pos, m)).collect();
        names.sort();
        names.dedup();
        names.join(", ")
    };
    match why {
        I::CaptureMandatory(moves) => format!("a capture is mandatory; available: {}", list(moves)),
        I::CaptureNotCompleted(moves) => format!(
            "the capture is not completed; it must go on as {}",
            list(moves)
        ),
        I::NoSuchCapture(moves) => {
            format!("no such capture; this piece can play {}", list(moves))
        }
        other => other.to_string(),
    }
}

/// Replays a game.
pub fn replay(game: &Game, options: &ReplayOptions) -> Replay {
    let recorded = recorded_outcome(game);
    let mut r = Replay {
        variant: None,
        start: None,
        first_move_number: 1,
        mainline: Vec::new(),
        written_plies: game.moves.moves.len() as u32,
        status: Status::Complete,
        outcome: recorded,
        draw: None,
        findings: Vec::new(),
    };
    let variant = match variant_of(game) {
        Ok(v) => v,
        Err(_) if options.force_russian => Variant::Russian,
        Err(number) => {
            let span = game
                .tags
                .iter()
                .find(|t| t.name == "GameType")
                .map(|t| t.span);
            r.findings.push(Finding::new(
                &codes::UNSUPPORTED_VARIANT,
                format!(
                    "GameType {number} ({}) is not supported yet; the game is read but not replayed (--variant russian forces Russian rules)",
                    variant_name(&number)
                ),
                span,
            ));
            r.status = Status::Unsupported;
            return r;
        }
    };
    r.variant = Some(variant);

    let fen = game.tags.iter().find(|t| t.name == "FEN");
    let first_written = game.moves.moves.first().and_then(|m| m.written_number);
    let (start, first_number) = match start_of(fen.map(|t| t.value.as_str()), first_written) {
        Ok(start) => start,
        Err(msg) => {
            let span = fen.map(|t| t.span);
            r.findings
                .push(Finding::new(&codes::INVALID_FEN, msg, span));
            r.status = Status::InvalidSetup;
            return r;
        }
    };
    r.start = Some(start);
    r.first_move_number = first_number;

    let (material, key) = draw_view(&start);
    let mut replayer = Replayer {
        findings: Vec::new(),
        mainline: Vec::with_capacity(game.moves.moves.len().min(LONG_MAIN_LINE)),
        tracker: Some(
            spare_tracker(options.edition, material, key).with_first_move_number(first_number),
        ),
        main_status: Status::Complete,
    };
    replayer.line(
        &game.moves,
        LineStart {
            pos: start,
            move_number: first_number,
            mainline: true,
            ply: 0,
        },
    );
    r.status = replayer.main_status;
    r.mainline = std::mem::take(&mut replayer.mainline);
    r.findings = replayer.findings;

    // whether the side to move at the end has a move: the result check and the draw
    // tracker both need it
    let end_has_moves = (r.status == Status::Complete)
        .then(|| r.final_position().map(Position::has_legal_moves))
        .flatten();
    check_results(game, &mut r, end_has_moves);
    if r.status == Status::Complete {
        if let Some(tracker) = &mut replayer.tracker {
            tracker.settle(|| end_has_moves.unwrap_or(true));
            let verdict = tracker.verdict(recorded, r.mainline.len() as u32);
            let mainline = &r.mainline;
            // (every finding: `check::report` leaves out those of rules not reported)
            r.findings.extend(draw_findings(
                &verdict,
                |_| true,
                mainline.len() as u32,
                |p| {
                    let ply = &mainline[p as usize - 1];
                    (ply.span, ply.written.to_string())
                },
                result_span(game),
            ));
            r.draw = Some(verdict);
        }
    }
    // A game without GameType that fails at once is most likely another variant (English
    // draughts, where Black moves first; Italian; 10x10 numbers): say how to tell pdnkit.
    if game.tag("GameType").is_none() {
        for f in &mut r.findings {
            if f.ply.is_some_and(|p| p <= 2)
                && matches!(f.rule.name, "illegal-move" | "unreadable-move")
            {
                f.notes.push(
                    "the game has no GameType tag, so it was replayed as Russian draughts; \
                     if it is another variant, a GameType tag (e.g. \"21\" for English) tells \
                     pdnkit so"
                        .to_string(),
                );
            }
        }
    }
    r.findings.sort_by_key(|f| f.span.map_or(0, |s| s.start));
    if let Some(tracker) = replayer.tracker {
        let _ = SPARE_TRACKER.try_with(|spare| spare.set(Some(tracker)));
    }
    r
}

thread_local! {
    /// The draw tracker of the last game replayed on this thread, for the next one: a
    /// fresh tracker allocates its lists anew, which took more than the replay itself on a
    /// file of games without moves.
    static SPARE_TRACKER: std::cell::Cell<Option<DrawTracker>> = const { std::cell::Cell::new(None) };
}

/// A tracker for a game from `initial`: this thread's spare one restarted, or a new one.
fn spare_tracker(edition: Edition, initial: Material, key: PositionKey) -> DrawTracker {
    match SPARE_TRACKER.try_with(std::cell::Cell::take).ok().flatten() {
        Some(mut tracker) => {
            tracker.restart(edition, initial, key);
            tracker
        }
        None => DrawTracker::new(edition, initial, key),
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

/// The Result tag when it is readable, else the terminator, else unknown.
fn recorded_outcome(game: &Game) -> Outcome {
    recorded_from(game.tag("Result"), game.result.as_ref().map(|r| r.outcome))
}

/// [`recorded_outcome`] from the first Result tag's value and the terminator.
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
pub(crate) fn contradicted_by(
    end: &Position,
    end_has_moves: bool,
    recorded: Outcome,
) -> Option<Color> {
    if recorded == Outcome::Unknown || end_has_moves {
        return None;
    }
    let loser = end.turn();
    let winner_outcome = match loser {
        Color::White => Outcome::BlackWins,
        Color::Black => Outcome::WhiteWins,
    };
    (recorded != winner_outcome).then_some(loser)
}

fn result_span(game: &Game) -> Option<Span> {
    game.result.as_ref().map(|r| r.span).or_else(|| {
        game.tags
            .iter()
            .find(|t| t.name == "Result")
            .map(|t| t.span)
    })
}

/// RULES.md §4: the Result tag against the terminator, and both against the final position.
/// `end_has_moves` is whether the side to move at the end of a complete main line has a
/// legal move (`None` for a line that did not replay completely).
fn check_results(game: &Game, r: &mut Replay, end_has_moves: Option<bool>) {
    let tag = game.tags.iter().find(|t| t.name == "Result");
    let tag_outcome = tag.and_then(|t| Outcome::from_pdn(&t.value));
    if let (Some(t), Some(tag_outcome), Some(term)) = (tag, tag_outcome, &game.result) {
        if results_disagree(tag_outcome, term.outcome) {
            r.findings.push(Finding::new(
                &codes::RESULT_MISMATCH,
                format!(
                    "the Result tag says \"{}\" ({tag_outcome}) but the movetext ends with `{}` ({})",
                    t.value, term.raw, term.outcome
                ),
                Some(term.span),
            ));
        }
    }
    let (Some(end), Some(end_has_moves)) = (r.final_position().copied(), end_has_moves) else {
        return;
    };
    let Some(loser) = contradicted_by(&end, end_has_moves, r.outcome) else {
        return;
    };
    let outcome = r.outcome;
    let name = |c: Color| match c {
        Color::White => "White",
        Color::Black => "Black",
    };
    let message = format!(
        "the game is recorded as {outcome}, but at the end {} is to move and has no legal move, so {} won",
        name(loser),
        name(loser.opponent())
    );
    let mut f = Finding::new(
        &codes::RESULT_CONTRADICTS_POSITION,
        message,
        result_span(game),
    );
    f.board = Some(end);
    r.findings.push(f);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Replay {
        replay(&Game::parse(text), &ReplayOptions::default())
    }

    fn names(r: &Replay) -> Vec<&'static str> {
        r.findings.iter().map(|f| f.rule.name).collect()
    }

    #[test]
    fn a_game_replays_alike_after_any_other_on_its_thread() {
        // (the draw tracker of one game is restarted for the next on the same thread)
        let mut text = Vec::new();
        crate::generate::Generator::new(17)
            .write_games(&mut text, 120)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        let games: Vec<Game> = text.split("\n\n[Event").map(Game::parse).collect();
        for edition in [Edition::Russia, Edition::Fmjd] {
            let options = ReplayOptions {
                edition,
                ..ReplayOptions::default()
            };
            // each alone on a thread of its own, then all in turn on this one (backwards,
            // so that each follows another than in the file)
            let alone: Vec<String> = std::thread::scope(|scope| {
                let threads: Vec<_> = (games.iter())
                    .map(|g| scope.spawn(move || format!("{:?}", replay(g, &options))))
                    .collect();
                threads.into_iter().map(|t| t.join().unwrap()).collect()
            });
            for (k, g) in games.iter().enumerate().rev() {
                assert_eq!(
                    format!("{:?}", replay(g, &options)),
                    alone[k],
                    "{edition:?} game {k}"
                );
            }
            let draws = games
                .iter()
                .filter(|g| replay(g, &options).draw.is_some_and(|d| d.basis.is_some()));
            assert!(draws.count() > 3);
        }
    }

    #[test]
    fn a_condition_may_be_met_at_a_board_as_in_its_material() {
        use crate::rules::{Bitboard, Square};
        let mut rng = crate::generate::SplitMix64::new(41);
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
        let mut rng = crate::generate::SplitMix64::new(23);
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
        assert!(r.findings[0].notes[0].contains("no GameType tag"));
        let r = run("[GameType \"25\"]\n1. 11-15 23-18 *");
        assert!(r.findings[0].notes.is_empty());
    }

    #[test]
    fn unsupported_variant_is_not_replayed() {
        let r = run("[GameType \"20\"]\n1. 32-28 19-23 *");
        assert_eq!(r.status, Status::Unsupported);
        assert_eq!(names(&r), ["unsupported-variant"]);
        let forced = replay(
            &Game::parse("[GameType \"29\"]\n1. c3-d4 *"),
            &ReplayOptions {
                force_russian: true,
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
        assert_eq!(r.status, Status::Illegal);
    }

    #[test]
    fn setup_command_resets_the_position() {
        let r = run("1. c3-d4 /FEN \"B:WKa1:Bh8\"/ 1... h8-g7 *");
        assert_eq!(r.status, Status::Complete, "{:?}", r.findings);
    }

    #[test]
    fn draw_view_counts_as_material_from_pieces() {
        use crate::pdn::fen::Setup;
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
