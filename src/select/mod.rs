//! Which games of an archive meet some criteria: the library of `pdnkit select`.
//!
//! A [`Query`] is a list of [`Criterion`]s that a game must all meet. It asks the
//! [`Checker`](crate::check::checker::Checker) for no more than it needs
//! ([`Query::keep`]): criteria on tags alone read the tags and skip the movetext
//! ([`Keep::tags_only`]), criteria on positions keep the main line's plies, and a game
//! is judged on its [`Checked`] report ([`Query::matches`]), which says at which ply the
//! board criteria are first met.
//!
//! [`Selector`] is the [`Task`] that runs a query: it wraps the task that makes the
//! output of a selected game (its text: [`Verbatim`]; what `convert` writes: a
//! [`Converter`](crate::convert::Converter); nothing: `()`) and gives, in input order,
//! `Some` [`Selected`] for the games selected. A filter across games (one copy of each
//! game, say) is no criterion, since it needs the games before and after: it goes after
//! the selector, over the [`Selected`] games in input order, with its inner task
//! computing what such a filter compares (a pair of tasks is a task).
//!
//! ```
//! use pdnkit::run::{Event, RunOptions, run_reader};
//! use pdnkit::select::{At, Criterion, Query, Selector, Verbatim};
//! let pdn = "[White \"Ivanov\"][Result \"2-0\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 2-0\n\n\
//!            [White \"Petrov\"][Result \"1-1\"]\n1. c3-d4 f6-g5 1-1\n";
//! let query = Query::new(
//!     vec![
//!         Criterion::Result(vec![pdnkit::Outcome::WhiteWins]),
//!         Criterion::Material("12M v 11M".parse().unwrap()),
//!     ],
//!     At::Any,
//! );
//! let selector = Selector::new(&query, Verbatim);
//! let mut selected = Vec::new();
//! run_reader("a.pdn", pdn.as_bytes(), &RunOptions::default(), &selector, |e| {
//!     if let Event::Game(Some(s)) = e {
//!         selected.push(s);
//!     }
//!     Ok(())
//! })
//! .unwrap();
//! assert_eq!(selected.len(), 1);
//! assert_eq!((selected[0].game, selected[0].ply), (1, Some(3)));
//! assert!(selected[0].output.contains("Ivanov"));
//! ```

pub mod board;
pub mod tags;

pub use board::{Exact, Material, Opening, Pattern, SideCount};
pub use tags::{DateRange, TagOp, TagTest};

use std::fmt;
use std::str::FromStr;

use crate::check::checker::{GameReport, Keep};
use crate::convert::GameStatus;
use crate::diag::codes;
use crate::outcome::Outcome;
use crate::replay::Ply;
use crate::replay::Status;
use crate::rules::{Playable, Position, Variant, VariantPosition};
use crate::run::{Checked, Task};

/// A criterion that could not be read: which option, the text, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option} `{text}`: {reason}")]
pub struct ParseCriterionError {
    /// The option (`--tag`, `--material`, …).
    pub option: &'static str,
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl ParseCriterionError {
    /// The error of `option` given `text`.
    pub fn new(option: &'static str, text: &str, reason: String) -> ParseCriterionError {
        ParseCriterionError {
            option,
            text: text.to_string(),
            reason,
        }
    }
}

/// How a game fared, as `--status` names it: one of six, for every game.
///
/// | class | the checker's report |
/// |---|---|
/// | `clean` | the main line replayed to its end, and no finding of error severity |
/// | `flawed` | the main line replayed to its end, but some finding is an error: the result (`R101`, `R102`), a draw rule (`D101`, `D102`), a bad move in a variation, a syntax error of no consequence to the moves… |
/// | `illegal` | the main line stops at an illegal (`M101`) or unreadable (`M106`) move, or its FEN is invalid (`F101`) |
/// | `ambiguous` | the main line stops at a capture written short that several legal captures fit and the rest of the line does not decide (`M102`) |
/// | `incomplete` | the main line stops at a placeholder for an unknown move (`M107`) |
/// | `unparsed` | syntax errors of error severity, or a variant pdnkit does not replay (`V101`) |
///
/// `convert`'s `status` is the same but for `clean` and `flawed`, which are both `ok`,
/// and `illegal` and `ambiguous`, which are both `illegal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameClass {
    Clean,
    Flawed,
    Illegal,
    Ambiguous,
    Incomplete,
    Unparsed,
}

impl GameClass {
    /// Every class, in the order of the table.
    pub const ALL: [GameClass; 6] = [
        GameClass::Clean,
        GameClass::Flawed,
        GameClass::Illegal,
        GameClass::Ambiguous,
        GameClass::Incomplete,
        GameClass::Unparsed,
    ];

    /// The class of a checked game (whose report is whole: not read with
    /// [`Keep::tags_only`]).
    pub fn of(report: &GameReport, has_errors: bool) -> GameClass {
        match GameStatus::of(report) {
            GameStatus::Ok if has_errors => GameClass::Flawed,
            GameStatus::Ok => GameClass::Clean,
            GameStatus::Illegal => {
                // (a main-line finding has its ply)
                let ambiguous = (report.findings.iter())
                    .any(|f| f.rule == &codes::AMBIGUOUS_MOVE && f.ply.is_some());
                match ambiguous && report.status == Status::Illegal {
                    true => GameClass::Ambiguous,
                    false => GameClass::Illegal,
                }
            }
            GameStatus::Incomplete => GameClass::Incomplete,
            GameStatus::Unparsed | GameStatus::Skipped => GameClass::Unparsed,
        }
    }

    /// `clean`, `flawed`, …
    pub fn as_str(self) -> &'static str {
        match self {
            GameClass::Clean => "clean",
            GameClass::Flawed => "flawed",
            GameClass::Illegal => "illegal",
            GameClass::Ambiguous => "ambiguous",
            GameClass::Incomplete => "incomplete",
            GameClass::Unparsed => "unparsed",
        }
    }
}

impl fmt::Display for GameClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameClass {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<GameClass, ParseCriterionError> {
        let t = s.trim();
        (GameClass::ALL.into_iter())
            .find(|c| c.as_str().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                let names: Vec<&str> = GameClass::ALL.iter().map(|c| c.as_str()).collect();
                ParseCriterionError::new("--status", s, format!("one of {}", names.join(", ")))
            })
    }
}

/// A range of plies, both ends included: `40..`, `..20`, `30..60`, `40`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    /// The fewest plies.
    pub min: u32,
    /// The most plies.
    pub max: u32,
}

impl PlyRange {
    /// Whether `n` is in the range.
    pub fn contains(&self, n: u32) -> bool {
        (self.min..=self.max).contains(&n)
    }
}

impl FromStr for PlyRange {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<PlyRange, ParseCriterionError> {
        let err = |reason: &str| ParseCriterionError::new("--plies", s, reason.to_string());
        let number = |t: &str, default: u32| match t.trim() {
            "" => Ok(default),
            t => t
                .parse::<u32>()
                .map_err(|_| err("MIN..MAX: 40.., ..20, 30..60 or 40")),
        };
        let range = match s.split_once("..") {
            Some((a, b)) => PlyRange {
                min: number(a, 0)?,
                max: number(b.strip_prefix('=').unwrap_or(b), u32::MAX)?,
            },
            None if s.trim().is_empty() => return Err(err("MIN..MAX: 40.., ..20, 30..60 or 40")),
            None => {
                let n = number(s, 0)?;
                PlyRange { min: n, max: n }
            }
        };
        if range.min > range.max {
            return Err(err("the range ends before it starts"));
        }
        Ok(range)
    }
}

/// Where in the main line the board criteria ([`Criterion::Position`],
/// [`Criterion::Pattern`], [`Criterion::Material`]) look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum At {
    /// At any ply: every position the main line reaches, from the start position on
    /// (of a main line that stops at a bad move, those before it; a position a setup
    /// command sets up is reached too).
    #[default]
    Any,
    /// At the end: the position after the last ply, of a main line that replayed to its
    /// end.
    End,
}

/// One thing a game must meet.
#[derive(Clone, Debug)]
pub enum Criterion {
    /// A tag test (`--tag`).
    Tag(TagTest),
    /// One of several tag tests (`--player`: White or Black).
    AnyTag(Vec<TagTest>),
    /// The Result tag says one of these, in either scale (`--result`; `1-0` is `2-0`).
    Result(Vec<Outcome>),
    /// The Date tag lies within these days (`--date`).
    Date(DateRange),
    /// The main line has this many plies written (`--plies`), played or not.
    Plies(PlyRange),
    /// The game is of one of these classes (`--status`).
    Status(Vec<GameClass>),
    /// The game has a finding of a rule one of these selectors matches (`--code`: a
    /// code `M101`, a name `illegal-move`, or a code prefix `M1`; see
    /// [`codes::check_selector`]), whatever its severity.
    Code(Vec<String>),
    /// The main line starts from the start position with these moves (`--opening`).
    Opening(Opening),
    /// The main line reaches exactly this position: pieces and side to move
    /// (`--position`).
    Position(Exact),
    /// The main line reaches a position that fits this pattern (`--pattern`).
    Pattern(Pattern),
    /// The main line reaches a position with this material (`--material`).
    Material(Material),
}

/// A result as `--result` takes it: any result PDN writes, in either scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultTag(pub Outcome);

impl FromStr for ResultTag {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<ResultTag, ParseCriterionError> {
        Outcome::from_pdn(s).map(ResultTag).ok_or_else(|| {
            let reason = "a result: 2-0, 0-2, 1-1, 1-0, 0-1, 1/2-1/2, 0-0 or *";
            ParseCriterionError::new("--result", s, reason.to_string())
        })
    }
}

impl Criterion {
    /// Whether the criterion is decided by the tags alone.
    pub fn on_tags(&self) -> bool {
        matches!(
            self,
            Criterion::Tag(_) | Criterion::AnyTag(_) | Criterion::Result(_) | Criterion::Date(_)
        )
    }

    /// Whether the criterion looks at the board (and gives a ply).
    fn on_board(&self) -> bool {
        matches!(
            self,
            Criterion::Opening(_)
                | Criterion::Position(_)
                | Criterion::Pattern(_)
                | Criterion::Material(_)
        )
    }

    /// The order criteria are tried in: what costs least, and most often fails, first.
    fn cost(&self) -> u8 {
        match self {
            c if c.on_tags() => 0,
            Criterion::Plies(_) | Criterion::Status(_) | Criterion::Code(_) => 1,
            Criterion::Opening(_) => 2,
            _ => 3,
        }
    }
}

/// What a query found in a game it selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The first ply by which every board criterion is met (0: the start position);
    /// `None` without board criteria.
    pub ply: Option<u32>,
}

/// Criteria that a game must all meet, and where the board criteria look.
#[derive(Clone, Debug, Default)]
pub struct Query {
    criteria: Vec<Criterion>,
    at: At,
}

impl Query {
    /// A query of these criteria (none: every game), its board criteria looking `at`.
    pub fn new(mut criteria: Vec<Criterion>, at: At) -> Query {
        criteria.sort_by_key(Criterion::cost);
        Query { criteria, at }
    }

    /// The criteria, in the order they are tried.
    pub fn criteria(&self) -> &[Criterion] {
        &self.criteria
    }

    /// Whether the tags alone decide (no criterion needs the moves).
    pub fn on_tags(&self) -> bool {
        self.criteria.iter().all(Criterion::on_tags)
    }

    /// Whether some criterion needs the findings of the game (`--status`, `--code`).
    pub fn needs_findings(&self) -> bool {
        (self.criteria.iter()).any(|c| matches!(c, Criterion::Status(_) | Criterion::Code(_)))
    }

    /// What the checker must keep of each game for [`matches`](Self::matches).
    pub fn keep(&self) -> Keep {
        let mut keep = Keep {
            tags_only: self.on_tags(),
            ..Keep::default()
        };
        for c in &self.criteria {
            match c {
                Criterion::Opening(o) => keep.plies = keep.plies.max(o.len()),
                Criterion::Position(_) | Criterion::Pattern(_) | Criterion::Material(_) => {
                    keep.positions |= self.at == At::Any;
                }
                _ => {}
            }
        }
        keep
    }

    /// Whether the game meets every criterion: what was found, or `None`.
    pub fn matches(&self, game: &Checked<'_>) -> Option<Hit> {
        let report = &*game.report;
        let mut ply: Option<u32> = None;
        for c in &self.criteria {
            let reached = match c {
                Criterion::Tag(t) => t.test(&report.tags).then_some(None),
                Criterion::AnyTag(ts) => ts.iter().any(|t| t.test(&report.tags)).then_some(None),
                Criterion::Result(want) => {
                    let tag = report.tag("Result").and_then(Outcome::from_pdn);
                    tag.is_some_and(|t| want.contains(&t)).then_some(None)
                }
                Criterion::Date(range) => (report.tag("Date"))
                    .is_some_and(|d| range.contains(d))
                    .then_some(None),
                Criterion::Plies(range) => range.contains(report.written_plies).then_some(None),
                Criterion::Status(classes) => {
                    let class = GameClass::of(report, game.has_errors);
                    classes.contains(&class).then_some(None)
                }
                Criterion::Code(selectors) => (game.diagnostics.iter())
                    .any(|d| selectors.iter().any(|s| codes::selector_matches(s, d.rule)))
                    .then_some(None),
                Criterion::Opening(o) => opening_ply(report, o).map(Some),
                Criterion::Position(p) => {
                    let fits = |pos: &VariantPosition| p.matches_variant(pos);
                    (self.first_ply(report, |pos| p.matches(pos), fits)).map(Some)
                }
                Criterion::Pattern(p) => {
                    let fits = |pos: &VariantPosition| p.matches_variant(pos);
                    (self.first_ply(report, |pos| p.matches(pos), fits)).map(Some)
                }
                Criterion::Material(m) => {
                    let fits = |pos: &VariantPosition| m.matches(pos);
                    (self.first_ply(report, |pos| m.matches(pos), fits)).map(Some)
                }
            };
            // (the board criteria are met by the latest of their first plies)
            if let Some(at) = reached? {
                ply = Some(ply.map_or(at, |p| p.max(at)));
            }
        }
        debug_assert_eq!(ply.is_some(), self.criteria.iter().any(Criterion::on_board));
        Some(Hit { ply })
    }

    /// The first ply of the main line at which `fits` holds (0: the start position), as
    /// [`At`] says where to look; `fits_other` for a game of another variant than Russian.
    fn first_ply(
        &self,
        report: &GameReport,
        fits: impl Fn(&Position) -> bool,
        fits_other: impl Fn(&VariantPosition) -> bool,
    ) -> Option<u32> {
        fn first<P>(
            at: At,
            report: &GameReport,
            (end, positions): (Option<P>, &[(u32, P)]),
            fits: impl Fn(&P) -> bool,
        ) -> Option<u32> {
            match at {
                At::End => {
                    let end = end.filter(|_| report.status == Status::Complete)?;
                    fits(&end).then_some(report.plies)
                }
                At::Any => (positions.iter()).find_map(|(ply, pos)| fits(pos).then_some(*ply)),
            }
        }
        let line = &report.variant_line;
        match report.variant {
            Variant::Russian => first(self.at, report, (report.end, &report.positions), fits),
            _ => first(self.at, report, (line.end, &line.positions), fits_other),
        }
    }
}

/// The ply at which the main line has played `opening` from the start position of its
/// variant.
fn opening_ply(report: &GameReport, opening: &Opening) -> Option<u32> {
    if report.start.is_some() {
        let moves = opening.moves()?;
        return played_from(Position::start(), &report.mainline, moves);
    }
    let line = &report.variant_line;
    let start = line.start.as_ref()?;
    let from = VariantPosition::start_in(start.variant(), start.dialect());
    let moves = opening.moves_from(from).ok()?;
    played_from(from, &line.mainline, &moves)
}

/// The ply at which `mainline` has played `moves` from `start` (and no setup command in
/// between).
fn played_from<P: Playable>(start: P, mainline: &[Ply<P>], moves: &[P::Move]) -> Option<u32> {
    let mut pos = start;
    let played = mainline.get(..moves.len())?;
    for (p, mv) in played.iter().zip(moves) {
        if p.before != pos || !P::same(&p.mv, mv) {
            return None;
        }
        pos = p.after;
    }
    Some(moves.len() as u32)
}

/// A selected game: where it is, and the output of the inner task.
#[derive(Clone, Debug)]
pub struct Selected<O> {
    /// Its number in its file (1-based).
    pub game: u64,
    /// The line its text starts on.
    pub line: u64,
    /// The byte offset in the input where its text starts
    /// ([`GameSource::offset`](crate::pdn::GameSource::offset)).
    pub offset: u64,
    /// The first ply by which every board criterion is met ([`Hit::ply`]).
    pub ply: Option<u32>,
    /// What the inner task made of it.
    pub output: O,
}

/// The [`Task`] that runs a [`Query`]: the output of `inner` for each game selected.
pub struct Selector<'q, T> {
    query: &'q Query,
    inner: T,
}

impl<'q, T: Task> Selector<'q, T> {
    /// The selector of `query`, giving `inner`'s output for each game selected.
    pub fn new(query: &'q Query, inner: T) -> Selector<'q, T> {
        Selector { query, inner }
    }

    /// The inner task.
    pub fn inner(&self) -> &T {
        &self.inner
    }
}

/// What both `a` and `b` ask the checker to keep.
pub fn keep_both(a: Keep, b: Keep) -> Keep {
    Keep {
        plies: a.plies.max(b.plies),
        moves: a.moves || b.moves,
        tree: a.tree || b.tree,
        tags_only: a.tags_only && b.tags_only,
        positions: a.positions || b.positions,
    }
}

impl<T: Task> Task for Selector<'_, T> {
    type Output = Option<Selected<T::Output>>;

    fn keep(&self) -> Keep {
        keep_both(self.query.keep(), self.inner.keep())
    }

    fn game(&self, game: Checked<'_>) -> Self::Output {
        let hit = self.query.matches(&game)?;
        let source = game.source;
        Some(Selected {
            game: source.index,
            line: source.start.line,
            offset: source.offset,
            ply: hit.ply,
            output: self.inner.game(game),
        })
    }

    fn rebase(&self, output: &mut Self::Output, games: u64) {
        if let Some(s) = output {
            s.game += games;
            self.inner.rebase(&mut s.output, games);
        }
    }

    fn weight(&self, output: &Self::Output) -> usize {
        output.as_ref().map_or(0, |s| self.inner.weight(&s.output))
    }
}

/// The inner task that gives a selected game's text as the reader gave it (decoded to
/// UTF-8), verbatim.
pub struct Verbatim;

impl Task for Verbatim {
    type Output = String;

    fn keep(&self) -> Keep {
        Keep {
            tags_only: true,
            ..Keep::default()
        }
    }

    fn game(&self, game: Checked<'_>) -> String {
        game.source.text.to_string()
    }

    fn weight(&self, output: &String) -> usize {
        output.len()
    }
}

/// The inner task that gives nothing: to count or to place the games selected.
impl Task for () {
    type Output = ();

    fn keep(&self) -> Keep {
        Keep {
            tags_only: true,
            ..Keep::default()
        }
    }

    fn game(&self, _game: Checked<'_>) {}
}

/// One line of `select --format matches`: where a selected game is (schema
/// `schemas/select-match.schema.json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MatchRecord<'a> {
    /// `pdnkit-select-match/1`.
    pub schema: &'static str,
    /// The input's name.
    pub path: &'a str,
    /// The game's number in its file (1-based).
    pub game: u64,
    /// The line its text starts on.
    pub line: u64,
    /// The byte offset in the input where its text starts.
    pub offset: u64,
    /// The first ply by which every board criterion is met; `None` (null) without board
    /// criteria.
    pub ply: Option<u32>,
}

impl<'a> MatchRecord<'a> {
    /// The record of `selected`, a game of the input `path`.
    pub fn new<O>(path: &'a str, selected: &Selected<O>) -> MatchRecord<'a> {
        MatchRecord {
            schema: "pdnkit-select-match/1",
            path,
            game: selected.game,
            line: selected.line,
            offset: selected.offset,
            ply: selected.ply,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckOptions;
    use crate::run::{Event, RunOptions, run_reader};

    const GAMES: &str = "\
[Event \"Cup\"][White \"Ivanov\"][Black \"Petrov\"][Date \"1965.03.12\"][Result \"2-0\"]
1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 h6-g5 2-0

[Event \"League\"][White \"Sidorov\"][Black \"Ivanov\"][Date \"1971\"][Result \"1/2-1/2\"]
1. c3-d4 d6-c5 2. b2-c3 c7-d6 3. d4-e5 1/2-1/2

[Event \"League\"][White \"Petrov\"][Black \"Sidorov\"][Result \"0-1\"]
1. c3-d4 f6-g5 2. d4-e5 2-0

[Event \"Cup\"][White \"X\"][Black \"Y\"][Result \"*\"]
1. c3-d4 f6-e5 2. d4-c5 *
";

    /// The numbers and plies of the games of [`GAMES`] that `criteria` select.
    fn select(criteria: Vec<Criterion>, at: At) -> Vec<(u64, Option<u32>)> {
        let query = Query::new(criteria, at);
        let selector = Selector::new(&query, ());
        let options = RunOptions {
            check: CheckOptions::default(),
            ..RunOptions::default()
        };
        let mut out = Vec::new();
        run_reader("t.pdn", GAMES.as_bytes(), &options, &selector, |e| {
            if let Event::Game(Some(s)) = e {
                out.push((s.game, s.ply));
            }
            Ok(())
        })
        .unwrap();
        out
    }

    fn tag(t: &str) -> Criterion {
        Criterion::Tag(t.parse().unwrap())
    }

    #[test]
    fn tags_results_and_dates() {
        assert_eq!(
            select(vec![tag("Event = Cup")], At::Any),
            [(1, None), (4, None)]
        );
        let ivanov = ["White", "Black"].map(|n| TagTest::contains(n, "ivanov"));
        assert_eq!(
            select(vec![Criterion::AnyTag(ivanov.to_vec())], At::Any),
            [(1, None), (2, None)]
        );
        let result = |r: &str| r.parse::<ResultTag>().unwrap().0;
        let white = Criterion::Result(vec![result("1-0")]);
        assert_eq!(select(vec![white], At::Any), [(1, None)]);
        let draw = Criterion::Result(vec![result("1-1"), result("0-0")]);
        assert_eq!(
            select(vec![draw, tag("Event = League")], At::Any),
            [(2, None)]
        );
        let sixties = Criterion::Date("1960..1969".parse().unwrap());
        assert_eq!(select(vec![sixties], At::Any), [(1, None)]);
        assert_eq!(select(vec![], At::Any).len(), 4);
    }

    #[test]
    fn the_shape_of_the_game() {
        let plies = |r: &str| Criterion::Plies(r.parse().unwrap());
        assert_eq!(select(vec![plies("5..")], At::Any), [(1, None), (2, None)]);
        assert_eq!(select(vec![plies("..4")], At::Any), [(3, None), (4, None)]);
        // game 4: 2. d4-c5 is illegal (d4:f6 must capture)
        let status = |s: &str| Criterion::Status(vec![s.parse().unwrap()]);
        assert_eq!(select(vec![status("illegal")], At::Any), [(4, None)]);
        assert_eq!(
            select(vec![Criterion::Code(vec!["M101".into()])], At::Any),
            [(4, None)]
        );
        assert_eq!(
            select(
                vec![Criterion::Code(vec!["D101".into(), "illegal-move".into()])],
                At::Any
            ),
            [(4, None)]
        );
        // game 3: the Result tag and the terminator disagree (an error)
        assert_eq!(select(vec![status("flawed")], At::Any), [(3, None)]);
        assert_eq!(
            select(vec![status("clean")], At::Any),
            [(1, None), (2, None)]
        );
    }

    #[test]
    fn the_board() {
        let opening = Criterion::Opening("22-18 11-15".parse().unwrap());
        assert_eq!(select(vec![opening], At::Any), [(1, Some(2)), (4, Some(2))]);
        let start = Criterion::Position("W:W21-32:B1-12".parse().unwrap());
        assert_eq!(select(vec![start], At::Any).len(), 4);
        assert_eq!(
            select(
                vec![Criterion::Position("W:W21-32:B1-12".parse().unwrap())],
                At::End
            ),
            []
        );
        let traded = Criterion::Material("11M v 11M".parse().unwrap());
        assert_eq!(select(vec![traded.clone()], At::Any), [(1, Some(4))]);
        assert_eq!(select(vec![traded], At::End), [(1, Some(6))]);
        // the latest of the first plies of the board criteria
        let e5 = Criterion::Pattern("Wd4:Be5".parse().unwrap());
        let opening = Criterion::Opening("c3-d4".parse().unwrap());
        assert_eq!(
            select(vec![e5, opening], At::Any),
            [(1, Some(2)), (4, Some(2))]
        );
    }

    #[test]
    fn the_checker_is_asked_for_what_the_criteria_need() {
        let q = Query::new(vec![tag("Event = Cup")], At::Any);
        assert!(q.keep().tags_only);
        let q = Query::new(
            vec![
                tag("Event = Cup"),
                Criterion::Opening("c3-d4".parse().unwrap()),
            ],
            At::Any,
        );
        assert_eq!((q.keep().tags_only, q.keep().plies), (false, 1));
        assert!(matches!(q.criteria()[0], Criterion::Tag(_)), "tags first");
        let q = Query::new(vec![Criterion::Material("K v K".parse().unwrap())], At::End);
        assert_eq!((q.keep().plies, q.keep().positions), (0, false));
        let q = Query::new(vec![Criterion::Material("K v K".parse().unwrap())], At::Any);
        assert_eq!((q.keep().plies, q.keep().positions), (0, true));
        let both = keep_both(q.keep(), Verbatim.keep());
        assert!(!both.tags_only);
    }

    #[test]
    fn plies_and_statuses_parse() {
        let r = |s: &str| s.parse::<PlyRange>().map(|r| (r.min, r.max));
        assert_eq!(r("40.."), Ok((40, u32::MAX)));
        assert_eq!(r("..20"), Ok((0, 20)));
        assert_eq!(r("30..60"), Ok((30, 60)));
        assert_eq!(r("30..=60"), Ok((30, 60)));
        assert_eq!(r("7"), Ok((7, 7)));
        for bad in ["", "x", "60..30", "-1"] {
            assert!(r(bad).is_err(), "{bad}");
        }
        assert_eq!("Ambiguous".parse::<GameClass>(), Ok(GameClass::Ambiguous));
        assert!("ok".parse::<GameClass>().is_err());
    }
}
