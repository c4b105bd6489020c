//! Converting checked games to other forms: CSV rows ([`table`]), JSON objects ([`json`])
//! and canonical PDN ([`repdn`]).
//!
//! Everything starts from a [`CheckedGame`], so a game is judged
//! exactly as `pdnkit lint` judges it. The replay keeps only the resolved main line; the
//! resolved moves of variations come from [`resolve_tree`], which walks the whole move tree
//! and gives a [`ResolvedLine`] of the same shape as the game's [`Line`].
//!
//! ```
//! use pdnkit::check::{CheckOptions, CheckedGames};
//! use pdnkit::convert::{resolve_tree, GameStatus};
//! let pdn = "1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6) 2. b2-c3 *\n";
//! let g = CheckedGames::new("x.pdn", pdn.as_bytes(), &CheckOptions::default())
//!     .unwrap().next().unwrap().unwrap();
//! assert_eq!(GameStatus::of(&g), GameStatus::Ok);
//! let tree = resolve_tree(&g.game, &g.replay);
//! let variation = &tree.moves[1].variations[0];
//! let capture = variation.moves[1].info.as_ref().unwrap();
//! assert_eq!(capture.mv.captured().into_iter().next().unwrap().to_string(), "e5");
//! ```

pub mod json;
pub mod repdn;
pub mod table;

use crate::Color;
use crate::check::CheckedGame;
use crate::date::{DateValue, parse_date};
use crate::diag::{Diagnostic, Severity};
use crate::draw::DrawBasis;
use crate::pdn::{Annotation, Game, Line, Move as PdnMove};
use crate::replay::{Ply, Replay, Status};
use crate::replay::{fitting_candidates, setup_position, variation_start};
use crate::rules::notation::{
    CaptureSeparator, CaptureStyle, MoveText, Resolution, SquareStyle, Style, format_move_named,
    push_move_named, resolve,
};
use crate::rules::{FenStyle, Move, Position, Square};

/// The status of a converted game, as written in the `status` column/field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Read without syntax errors and every main-line move replayed.
    Ok,
    /// The main line stops at an illegal, ambiguous, unreadable or placeholder move, or the
    /// start position (FEN) is invalid.
    Illegal,
    /// The game has syntax errors (severity error), or its GameType is not replayed.
    Unparsed,
}

impl GameStatus {
    /// The status of a checked game.
    pub fn of(g: &CheckedGame) -> GameStatus {
        if g.game.has_errors() || g.replay.status == Status::Unsupported {
            GameStatus::Unparsed
        } else if g.replay.status == Status::Complete {
            GameStatus::Ok
        } else {
            GameStatus::Illegal
        }
    }

    /// `ok`, `illegal` or `unparsed`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Ok => "ok",
            GameStatus::Illegal => "illegal",
            GameStatus::Unparsed => "unparsed",
        }
    }
}

/// The canonical notation: algebraic squares, PDN 3.0 minimal captures, `:`.
pub const CANONICAL: Style = Style {
    squares: SquareStyle::Algebraic,
    captures: CaptureStyle::Minimal,
    separator: CaptureSeparator::Colon,
};

/// A move of the tree resolved against the rules.
#[derive(Clone, Debug)]
pub struct MoveInfo {
    /// The position before the move.
    pub before: Position,
    /// The legal move.
    pub mv: Move,
    /// The position after it.
    pub after: Position,
    /// Its full-move number.
    pub move_number: u32,
    /// Who played it.
    pub side: Color,
    /// The main-line ply (1-based) for a main-line move, `None` in a variation.
    pub ply: Option<u32>,
    /// As [`Ply::short_names_it`] (`false` in a variation: not known).
    pub short_names_it: bool,
}

impl MoveInfo {
    fn from_ply(p: &Ply) -> MoveInfo {
        MoveInfo {
            before: p.before,
            mv: p.mv,
            after: p.after,
            move_number: p.move_number,
            side: p.side,
            ply: Some(p.ply),
            short_names_it: p.short_names_it,
        }
    }

    /// The move written in `style`.
    pub fn text(&self, style: Style) -> String {
        format_move_named(&self.before, &self.mv, style, self.short_names_it)
    }

    /// [`text`](Self::text) appended to `out`.
    pub(crate) fn push_text(&self, out: &mut String, style: Style) {
        push_move_named(out, &self.before, &self.mv, style, self.short_names_it)
    }

    /// The landing squares of the move (from, landings…, to) along its first route.
    pub fn route(&self) -> Vec<Square> {
        self.long_route()
            .unwrap_or_else(|| vec![self.mv.from(), self.mv.to()])
    }

    /// [`route`](Self::route) when it is more than `from` and `to` (a capture of several
    /// pieces); `None` when it is just those two, so that a writer need not make a list.
    pub(crate) fn long_route(&self) -> Option<Vec<Square>> {
        // a quiet move, and a capture of one piece, land only on `to` (the route search
        // would list every legal move to say so, for every quiet move of a game)
        if self.mv.captured().count() <= 1 {
            return None;
        }
        self.before.routes(&self.mv).into_iter().next().map(|r| r.0)
    }

    /// The FEN after the move (numeric squares, as Russian PDN files write it).
    pub fn fen_after(&self) -> String {
        self.after.to_fen(FenStyle::Numeric)
    }
}

/// A move of the tree: resolved or not, and its variations.
#[derive(Clone, Debug, Default)]
pub struct ResolvedMove {
    /// The resolved move; `None` when it is illegal, ambiguous, unreadable, a placeholder,
    /// or follows such a move in its line.
    pub info: Option<MoveInfo>,
    /// The variations attached to the move, in order.
    pub variations: Vec<ResolvedLine>,
}

/// A line of the tree, parallel to [`Line`].
#[derive(Clone, Debug, Default)]
pub struct ResolvedLine {
    /// Parallel to [`Line::leading_variations`].
    pub leading_variations: Vec<ResolvedLine>,
    /// Parallel to [`Line::moves`].
    pub moves: Vec<ResolvedMove>,
}

/// Resolves every move of the game's tree. Main-line moves are taken from the replay (so
/// they are exactly what lint judged); variations are replayed here the way the replayer
/// does it: a variation is an alternative to the move it follows and starts from the
/// position before that move, except that a variation whose first move number names the
/// move *after* it (one generator writes alternatives so) starts after it.
pub fn resolve_tree(game: &Game, replay: &Replay) -> ResolvedLine {
    walk_line(&game.moves, main_line_start(replay), Some(&replay.mainline))
}

/// Where the main line of a replayed game starts: its position and first move number.
pub(crate) fn main_line_start(replay: &Replay) -> Option<(Position, u32)> {
    replay
        .start
        .map(|pos| (pos, replay.first_move_number.max(1)))
}

fn walk_line(line: &Line, start: Option<(Position, u32)>, main: Option<&[Ply]>) -> ResolvedLine {
    let mut moves = Vec::with_capacity(line.moves.len());
    moves.extend(LineWalk::new(&line.moves, start, main).map(|(m, walked)| {
        ResolvedMove {
            variations: m
                .variations()
                .iter()
                .map(|v| walk_line(v, walked.alternatives().start(v), None))
                .collect(),
            info: walked.info,
        }
    }));
    ResolvedLine {
        leading_variations: line
            .leading_variations
            .iter()
            .map(|v| walk_line(v, start, None))
            .collect(),
        moves,
    }
}

/// The moves of a line resolved one by one, as [`resolve_tree`] resolves them, for a
/// caller that needs each move only once (the JSON writer: the resolutions of a long
/// game are not all held at once). Variations written before the line's first move
/// start where the line starts; those of a move, at [`Alternatives::start`].
pub(crate) struct LineWalk<'a> {
    moves: &'a [PdnMove],
    walker: LineWalker<'a>,
    next: usize,
}

impl<'a> LineWalk<'a> {
    /// Walks `moves` from `start`; `main` holds the replayed plies of the main line.
    pub fn new(
        moves: &'a [PdnMove],
        start: Option<(Position, u32)>,
        main: Option<&'a [Ply]>,
    ) -> LineWalk<'a> {
        LineWalk {
            moves,
            walker: LineWalker::new(start, main),
            next: 0,
        }
    }
}

impl<'a> Iterator for LineWalk<'a> {
    type Item = (&'a PdnMove, WalkedMove);

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        let m = self.moves.get(i)?;
        self.next += 1;
        Some((m, self.walker.step(self.moves, i)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.moves.len() - self.next;
        (left, Some(left))
    }
}

/// What a [`LineWalk`] knows between two moves, apart from the moves: a caller that
/// changes each move once it is walked (re-notating it in place) steps it itself.
pub(crate) struct LineWalker<'a> {
    /// The main line's replayed plies, when this is the main line.
    main: Option<&'a [Ply]>,
    /// The position before the next move and its number, while known.
    state: Option<(Position, u32)>,
}

/// A move of a [`LineWalk`].
pub(crate) struct WalkedMove {
    /// Its resolution.
    pub info: Option<MoveInfo>,
    /// The position the move was to be played from and its number, when it was not
    /// resolved there (a variation's move); else `None` (the resolution has them).
    unresolved_at: Option<(Position, u32)>,
}

impl WalkedMove {
    /// Where its variations start (made when asked: most moves have none, and the two
    /// positions were copied for every move).
    pub fn alternatives(&self) -> Alternatives {
        match &self.info {
            Some(i) => Alternatives {
                at: Some((i.before, i.move_number)),
                after: Some(i.after),
            },
            None => Alternatives {
                at: self.unresolved_at,
                after: None,
            },
        }
    }
}

/// Where the variations of a move start: they are alternatives to it.
#[derive(Clone, Copy)]
pub(crate) struct Alternatives {
    /// The position before the move and its number, when known.
    at: Option<(Position, u32)>,
    /// The position after it, when it was resolved.
    after: Option<Position>,
}

impl Alternatives {
    /// Where the variation `v` starts (see [`variation_start`]).
    pub fn start(&self, v: &Line) -> Option<(Position, u32)> {
        self.at
            .map(|(pos, number)| variation_start(v, pos, self.after, number))
    }
}

impl<'a> LineWalker<'a> {
    /// A walk from `start`; `main` holds the replayed plies of the main line.
    pub fn new(start: Option<(Position, u32)>, main: Option<&'a [Ply]>) -> LineWalker<'a> {
        LineWalker { main, state: start }
    }

    /// Walks `moves[i]`, the move after the one walked last (the first: `i` is 0); the
    /// moves after it are read for an ambiguous move, as the replayer reads them.
    pub fn step(&mut self, moves: &[PdnMove], i: usize) -> WalkedMove {
        let info = match self.main {
            Some(plies) => plies.get(i).map(MoveInfo::from_ply),
            None => self.resolve_variation_move(moves, i),
        };
        // (a main-line move not replayed has no position to start variations from)
        let unresolved_at = match (&info, self.main) {
            (None, None) => self.state,
            _ => None,
        };
        self.state = info.as_ref().map(|i| {
            let next = if i.side == Color::Black {
                i.move_number + 1
            } else {
                i.move_number
            };
            (i.after, next)
        });
        WalkedMove {
            info,
            unresolved_at,
        }
    }

    /// The resolution of `moves[i]` from `self.state`, after its setup commands.
    fn resolve_variation_move(&mut self, moves: &[PdnMove], i: usize) -> Option<MoveInfo> {
        let m = &moves[i];
        if let Some((pos, number)) = &mut self.state {
            for a in m.before() {
                if let Annotation::Setup(s) = a {
                    match setup_position(&s.fen, m.side).ok() {
                        Some((p, n)) => {
                            *pos = p;
                            if let Some(n) = n {
                                *number = n;
                            }
                        }
                        None => {
                            self.state = None;
                            break;
                        }
                    }
                }
            }
        }
        let (pos, number) = self.state?;
        resolve_written(&pos, m, &moves[i + 1..]).map(|mv| MoveInfo {
            before: pos,
            mv,
            after: pos.after(&mv),
            move_number: number,
            side: pos.turn(),
            ply: None,
            short_names_it: false,
        })
    }
}

/// Resolves a written move; an ambiguous one is kept when exactly one candidate lets the
/// rest of the line replay (as the replayer does).
fn resolve_written(pos: &Position, m: &PdnMove, rest: &[PdnMove]) -> Option<Move> {
    let text: MoveText = m.text.parse().ok()?;
    match resolve(pos, &text) {
        Resolution::Unique { mv, .. } => Some(mv),
        Resolution::Illegal(_) => None,
        Resolution::Ambiguous(cands) => match fitting_candidates(pos, &cands, rest)[..] {
            [only] => Some(only),
            _ => None,
        },
    }
}

/// The first error-severity diagnostic of a game, as `CODE` or `CODE@PLY`.
pub fn first_error(diagnostics: &[Diagnostic]) -> Option<String> {
    diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| match d.ply {
            Some(p) => format!("{}@{p}", d.rule.code),
            None => d.rule.code.to_string(),
        })
}

/// A draw basis in words for a CSV cell: `rule 6.1.8.6 at ply 57`, `repetition at ply 40`,
/// `agreement at move 12`, `early agreement at move 12`.
pub fn draw_basis_text(basis: &DrawBasis) -> String {
    match basis {
        DrawBasis::Rule { rule, ply } => format!("rule {} at ply {ply}", rule.id()),
        DrawBasis::Repetition { ply } => format!("repetition at ply {ply}"),
        DrawBasis::Agreement { move_number, early } => format!(
            "{}agreement at move {move_number}",
            if *early { "early " } else { "" }
        ),
    }
}

/// A `Date` tag value in ISO 8601: `1965-01-01`, `1965-03`, `1965`, or an interval
/// `2004-10-27/2004-11-01`; `None` when it is unknown or cannot be read.
pub fn iso_date(raw: &str) -> Option<String> {
    match parse_date(raw) {
        DateValue::Date(d) => d.iso(),
        DateValue::Range(a, b) => match (a.iso(), b.iso()) {
            (Some(a), Some(b)) => Some(format!("{a}/{b}")),
            (a, _) => a,
        },
        DateValue::Unknown | DateValue::Unreadable => None,
    }
}

/// The recorded result: the Result tag when present, else the terminator as written.
pub fn result_text(game: &Game) -> Option<&str> {
    game.tag("Result")
        .or_else(|| game.result.as_ref().map(|r| r.raw.as_str()))
}

/// The main line as written in `style`: replayed moves in that style, the moves after the
/// replay stopped as written; space separated.
pub fn mainline_text(g: &CheckedGame, style: Style) -> String {
    let plies = &g.replay.mainline;
    let moves = &g.game.moves.moves;
    // (one string, not one per move joined: a long game's moves are many small blocks)
    let mut text = String::with_capacity(moves.len() * 6);
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        match plies.get(i) {
            Some(p) => p.push_text(&mut text, style),
            None => text.push_str(&m.text),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CheckOptions, CheckedGames};

    fn checked(text: &str) -> CheckedGame {
        CheckedGames::new("t.pdn", text.as_bytes(), &CheckOptions::default())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
    }

    #[test]
    fn variations_start_before_the_move_they_follow() {
        let g = checked("1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6 g7:e5) 2. b2-c3 (2. g3-h4) *");
        let t = resolve_tree(&g.game, &g.replay);
        let v = &t.moves[1].variations[0];
        assert!(v.moves.iter().all(|m| m.info.is_some()));
        assert_eq!(v.moves[1].info.as_ref().unwrap().move_number, 2);
        assert_eq!(
            v.moves[2].info.as_ref().unwrap().text(CANONICAL),
            "g7:e5",
            "black recaptures"
        );
        let w = &t.moves[2].variations[0].moves[0];
        assert_eq!(w.info.as_ref().unwrap().side, Color::White);
    }

    #[test]
    fn an_illegal_variation_move_stops_that_line_only() {
        let g = checked("1. c3-d4 f6-g5 (1... a7-a5 h6-g5) 2. b2-c3 *");
        let t = resolve_tree(&g.game, &g.replay);
        assert!(t.moves.iter().all(|m| m.info.is_some()));
        assert!(
            t.moves[1].variations[0]
                .moves
                .iter()
                .all(|m| m.info.is_none())
        );
    }

    #[test]
    fn statuses_and_cells() {
        assert_eq!(GameStatus::of(&checked("1. c3-d4 *")), GameStatus::Ok);
        let bad = checked("1. c3-d4 f6-g5 2. c3-d4 *");
        assert_eq!(GameStatus::of(&bad), GameStatus::Illegal);
        assert_eq!(first_error(&bad.diagnostics).as_deref(), Some("M101@3"));
        assert_eq!(mainline_text(&bad, CANONICAL), "c3-d4 f6-g5 c3-d4");
        assert_eq!(iso_date("1.1.1965").as_deref(), Some("1965-01-01"));
        assert_eq!(
            iso_date("2004.10.27 - 2004.11.01").as_deref(),
            Some("2004-10-27/2004-11-01")
        );
        assert_eq!(iso_date("????.??.??"), None);
    }
}
