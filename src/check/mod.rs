//! Checking whole files: read every game, replay it, check its tags, and turn everything
//! found into located [`Diagnostic`]s. This is what `pdnkit lint` runs for each file.
//!
//! ```
//! use pdnkit::check::{check_reader, CheckOptions};
//! let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n";
//! let report = check_reader("game.pdn", pdn.as_bytes(), &CheckOptions::default());
//! assert_eq!(report.games, 1);
//! let illegal = report.diagnostics.iter().find(|d| d.rule.name == "illegal-move").unwrap();
//! assert_eq!((illegal.line, illegal.column, illegal.ply), (2, 19, Some(3)));
//! ```

pub mod checker;
mod quick;
pub mod tags;

use crate::diag::codes::{self, RuleSet};
use crate::diag::{Diagnostic, Severity, Snippet};
use crate::diagram::Diagram;
use crate::draw::{DrawBasis, Edition};
use crate::pdn::GameSource;
use crate::pdn::split::Split;
use crate::pdn::{
    BlockStart, Game, GameSplitter, RawGame, ReadError, ReaderOptions, Span, SyntaxError,
};
use crate::replay::{Finding, Replay, ReplayOptions, Status, replay};
use crate::rules::notation::{Style, push_move_named};
use crate::rules::{Move, Position};
use std::io::Read;

/// How to check.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// Text encoding; `None` detects it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// Replay every game with Russian rules whatever its GameType says.
    pub force_russian: bool,
    /// The draw-rule edition.
    pub edition: Edition,
    /// [`ReaderOptions::max_game_bytes`]; `None` for the reader's default.
    pub max_game_bytes: Option<usize>,
    /// [`ReaderOptions::max_game_moves`]; `None` for the reader's default.
    pub max_game_moves: Option<usize>,
    /// [`ReaderOptions::max_game_items`]; `None` for the reader's default.
    pub max_game_items: Option<usize>,
    /// [`ReplayOptions::omit_snippets_and_boards`].
    pub omit_snippets_and_boards: bool,
    /// [`ReplayOptions::report`]: the rules whose findings are made (every rule by
    /// default).
    pub report: RuleSet,
}

impl CheckOptions {
    /// How the reader is to read with these options.
    pub fn reader_options(&self) -> ReaderOptions {
        let default = ReaderOptions::default();
        ReaderOptions {
            encoding: self.encoding,
            max_game_bytes: self.max_game_bytes.unwrap_or(default.max_game_bytes),
            max_game_moves: self.max_game_moves.unwrap_or(default.max_game_moves),
            max_game_items: self.max_game_items.unwrap_or(default.max_game_items),
        }
    }

    /// How games are to be replayed with these options.
    pub fn replay_options(&self) -> ReplayOptions {
        ReplayOptions {
            edition: self.edition,
            force_russian: self.force_russian,
            omit_snippets_and_boards: self.omit_snippets_and_boards,
            report: self.report,
        }
    }
}

/// What checking one game found, besides its diagnostics.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// 1-based index in the file.
    pub index: usize,
    /// How far the main line replayed.
    pub status: Status,
    /// Main-line plies played.
    pub plies: u32,
    /// The basis of a drawn result, when the game is recorded as a draw.
    pub draw_basis: Option<DrawBasis>,
    /// Whether some diagnostic of this game is an error.
    pub has_errors: bool,
}

/// Everything found in one file.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    /// The file's name as given.
    pub path: String,
    /// The encoding it was read in (WHATWG name), when it could be read.
    pub encoding: Option<&'static str>,
    /// Games read.
    pub games: usize,
    /// Games with at least one error.
    pub games_with_errors: usize,
    /// Per-game summaries, in file order.
    pub summaries: Vec<GameSummary>,
    /// Diagnostics in report order (game, then position).
    pub diagnostics: Vec<Diagnostic>,
    /// The file could not be read (or only partly).
    pub io_failed: bool,
}

impl FileReport {
    /// The report for a file that could not be opened.
    pub fn io_failure(path: &str, error: &std::io::Error) -> FileReport {
        let mut d = Diagnostic::new(&codes::IO_ERROR, format!("cannot read {path}: {error}"));
        d.path = path.to_string();
        FileReport {
            path: path.to_string(),
            diagnostics: vec![d],
            io_failed: true,
            ..FileReport::default()
        }
    }
}

/// One game after checking: its text, tree, replay and diagnostics. `convert` and `stats`
/// work from this, so they judge games exactly as `lint` does.
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// The game's text and where it is in the file.
    pub raw: RawGame,
    /// The parsed game.
    pub game: Game,
    /// The replay of its moves.
    pub replay: Replay,
    /// Everything found of the rules reported ([`ReplayOptions::report`]), located, in
    /// text order.
    pub diagnostics: Vec<Diagnostic>,
    /// Some finding of a rule not reported was an error.
    pub unreported_errors: bool,
}

impl CheckedGame {
    /// Whether some finding is an error, reported or not.
    pub fn has_errors(&self) -> bool {
        self.unreported_errors
            || self
                .diagnostics
                .iter()
                .any(|d| d.severity == crate::diag::Severity::Error)
    }

    /// The short summary kept in a [`FileReport`].
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            index: self.raw.index as usize,
            status: self.replay.status,
            plies: self.replay.mainline.len() as u32,
            draw_basis: self.replay.draw.as_ref().and_then(|v| v.basis),
            has_errors: self.has_errors(),
        }
    }
}

/// The games of one input, checked one by one as they are read (streaming: memory stays
/// bounded by the largest game, not the file).
pub struct CheckedGames<R: Read> {
    path: String,
    splitter: GameSplitter<R>,
    options: ReplayOptions,
    failed: bool,
}

impl CheckedGames<std::io::Empty> {
    /// [`CheckedGames::at`] for a block already in memory as text (see
    /// [`GameSplitter::at_text`]).
    pub fn at_text(
        path: &str,
        text: String,
        options: &CheckOptions,
        start: BlockStart,
    ) -> std::io::Result<Self> {
        Ok(CheckedGames {
            path: path.to_string(),
            splitter: GameSplitter::at_text(text, options.reader_options(), start)?,
            options: options.replay_options(),
            failed: false,
        })
    }
}

impl DiagnosedGames<std::io::Empty> {
    /// [`DiagnosedGames::at`] for a block already in memory as text (see
    /// [`GameSplitter::at_text`]).
    pub fn at_text(
        path: &str,
        text: String,
        options: &CheckOptions,
        start: BlockStart,
    ) -> std::io::Result<Self> {
        Ok(DiagnosedGames {
            games: CheckedGames::at_text(path, text, options, start)?,
            checker: Diagnoser::default(),
        })
    }
}

impl<R: Read> CheckedGames<R> {
    /// Starts reading `input` (named `path` in diagnostics).
    pub fn new(path: &str, input: R, options: &CheckOptions) -> std::io::Result<Self> {
        Ok(CheckedGames {
            path: path.to_string(),
            splitter: GameSplitter::new(input, options.reader_options())?,
            options: options.replay_options(),
            failed: false,
        })
    }

    /// Starts reading a block of a longer UTF-8 input, apart from the text before it (see
    /// [`GameSplitter::at`]): game indices count from 1 in the block.
    pub fn at(
        path: &str,
        input: R,
        options: &CheckOptions,
        start: BlockStart,
    ) -> std::io::Result<Self> {
        Ok(CheckedGames {
            path: path.to_string(),
            splitter: GameSplitter::at(input, options.reader_options(), start)?,
            options: options.replay_options(),
            failed: false,
        })
    }

    /// The encoding the input is read in.
    pub fn encoding(&self) -> &'static encoding_rs::Encoding {
        self.splitter.encoding()
    }

    /// The splitter's [`GameSplitter::games_indexed`].
    pub fn games_indexed(&self) -> u64 {
        self.splitter.games_indexed()
    }

    /// The splitter's [`GameSplitter::ended_clean`].
    pub fn ended_clean(&self) -> bool {
        self.splitter.ended_clean()
    }

    /// The splitter's [`GameSplitter::ended_between_games`].
    pub fn ended_between_games(&self) -> bool {
        self.splitter.ended_between_games()
    }

    /// The splitter's [`GameSplitter::take_buffer`].
    pub fn take_buffer(&mut self) -> String {
        self.splitter.take_buffer()
    }

    /// The splitter's [`GameSplitter::replaced`].
    pub fn replaced(&self) -> bool {
        self.splitter.replaced()
    }
}

impl<R: Read> CheckedGames<R> {
    /// The next raw game, unchecked (for callers that check games on other threads with
    /// [`check_game`]); file-level problems come as located diagnostics, as from `next`.
    pub fn next_raw(&mut self) -> Option<Result<RawGame, Diagnostic>> {
        if self.failed {
            return None;
        }
        match self.splitter.next()? {
            Ok(raw) => Some(Ok(raw)),
            Err(e) => Some(Err(self.read_error(e))),
        }
    }

    /// The replay options games are checked with.
    pub fn replay_options(&self) -> &ReplayOptions {
        &self.options
    }

    fn read_error(&mut self, e: ReadError) -> Diagnostic {
        let mut d = match &e {
            ReadError::Io(io) => {
                self.failed = true;
                Diagnostic::new(&codes::IO_ERROR, format!("reading {}: {io}", self.path))
            }
            ReadError::At {
                kind,
                game_index,
                line,
                column,
                message,
            } => {
                let mut d = Diagnostic::new(codes::of_read_error(*kind), message.clone());
                d.game = game_index.map(|g| g as usize);
                d.line = *line as usize;
                d.column = *column as usize;
                d
            }
        };
        d.path = self.path.clone();
        d
    }
}

/// Each item is a checked game, or a located file-level problem (the file cannot be read,
/// is not PDN, a game too large to read…). After an I/O error the iteration ends.
impl<R: Read> Iterator for CheckedGames<R> {
    type Item = Result<CheckedGame, Diagnostic>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(
            self.next_raw()?
                .map(|raw| check_game(&self.path, raw, &self.options)),
        )
    }
}

/// The games of one input, each diagnosed as it is read, on the calling thread: what
/// `lint -j1` runs. The same items as [`CheckedGames::next_raw`] given to
/// [`Diagnoser::diagnose`] one by one, with less work: a game of the plain shape with
/// nothing to report is read and checked in one pass over its text, before the splitter
/// cuts it (tests compare the two ways on every game of the fixtures, the corpus and
/// corrupted archives).
///
/// ```
/// use pdnkit::check::{CheckOptions, DiagnosedGames};
/// let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n\n[Event \"y\"]\n1. c3-d4 *\n";
/// let games = DiagnosedGames::new("game.pdn", pdn.as_bytes(), &CheckOptions::default()).unwrap();
/// let found: Vec<_> = games.map(Result::unwrap).collect();
/// assert!(found[0].summary.has_errors);
/// assert!(found[0].diagnostics.iter().any(|d| d.rule.name == "illegal-move"));
/// assert_eq!((found[1].summary.index, found[1].summary.has_errors), (2, false));
/// assert_eq!(found[1].summary.plies, 1);
/// ```
pub struct DiagnosedGames<R: Read> {
    games: CheckedGames<R>,
    checker: Diagnoser,
}

impl<R: Read> DiagnosedGames<R> {
    /// Starts reading `input` (named `path` in diagnostics).
    pub fn new(path: &str, input: R, options: &CheckOptions) -> std::io::Result<Self> {
        Ok(DiagnosedGames {
            games: CheckedGames::new(path, input, options)?,
            checker: Diagnoser::default(),
        })
    }

    /// Starts reading a block of a longer UTF-8 input, apart from the text before it, as
    /// [`CheckedGames::at`] does.
    pub fn at(
        path: &str,
        input: R,
        options: &CheckOptions,
        start: BlockStart,
    ) -> std::io::Result<Self> {
        Ok(DiagnosedGames {
            games: CheckedGames::at(path, input, options, start)?,
            checker: Diagnoser::default(),
        })
    }

    /// The encoding the input is read in.
    pub fn encoding(&self) -> &'static encoding_rs::Encoding {
        self.games.encoding()
    }

    /// The games read so far, `CheckedGames` itself: where the input ended
    /// ([`CheckedGames::ended_clean`]), how many game indices it gave.
    pub fn games(&self) -> &CheckedGames<R> {
        &self.games
    }

    /// [`CheckedGames::take_buffer`].
    pub fn take_buffer(&mut self) -> String {
        self.games.take_buffer()
    }

    /// How many games so far were checked without the full check (see
    /// [`Diagnoser::quick_games`]).
    pub fn quick_games(&self) -> u64 {
        self.checker.quick_games()
    }

    /// Keeps the first `plies` main-line plies of the games the quick lane takes, for
    /// [`next_checked`](Self::next_checked) (see [`Diagnoser::keep_first_plies`]).
    pub fn keep_first_plies(&mut self, plies: usize) {
        self.checker.keep_first_plies(plies);
    }

    /// The next game as [`Diagnoser::check`] gives it, handed to `f`, or a located
    /// file-level problem: for callers that need more of a game than its diagnostics
    /// (its tags, plies and end position), read as [`next`](Iterator::next) reads games,
    /// in one pass over the text of most of them. A game the quick lane takes is borrowed
    /// from the checker for the call (its `raw` holds the game's text from its first tag
    /// pair to its result, as `next` locates its diagnostics in).
    ///
    /// ```
    /// use pdnkit::check::{CheckOptions, Checked, DiagnosedGames};
    ///
    /// let pdn = "[Event \"a\"]\n1. c3-d4 f6-e5 1-0\n\n[Event \"b\"]\n1. c3-d5 *\n";
    /// let mut games = DiagnosedGames::new("g.pdn", pdn.as_bytes(), &CheckOptions::default())?;
    /// games.keep_first_plies(usize::MAX);
    /// let plies = |c: Checked<'_>| match c {
    ///     Checked::Quick(g) => (g.tag("Event").map(str::to_string), g.first_plies().len()),
    ///     Checked::Full(g) => (g.game.tag("Event").map(str::to_string), g.replay.mainline.len()),
    /// };
    /// assert_eq!(games.next_checked(plies).unwrap().unwrap(), (Some("a".into()), 2));
    /// // an illegal move: the full check, whose replay stops before it
    /// assert_eq!(games.next_checked(plies).unwrap().unwrap(), (Some("b".into()), 0));
    /// assert!(games.next_checked(plies).is_none());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn next_checked<T>(
        &mut self,
        f: impl FnOnce(Checked<'_>) -> T,
    ) -> Option<Result<T, Diagnostic>> {
        let games = &mut self.games;
        if games.failed {
            return None;
        }
        let options = games.options;
        let item = self
            .checker
            .next_checked_from(&mut games.splitter, &games.path, &options, f)?;
        Some(item.map_err(|e| games.read_error(e)))
    }
}

/// A game [`Diagnoser::next_item`] read.
enum Found {
    /// Offered whole to the quick lane and proved by it, in one pass over its text.
    Proved(quick::Proved, RawGame),
    /// As the splitter cut it.
    Cut(RawGame),
    /// As the splitter cut it, after the quick lane refused it whole (see
    /// [`quick::QuickLane::refused`]): for the full check. (Offered to the lane again,
    /// a game with an illegal move at its 25th move was read three times, not two: on
    /// the 10 MB archive with one in most games, 14% of `lint`.)
    Refused(RawGame),
}

impl Diagnoser {
    /// The next item of `splitter`, a game given to `take` with the checker. A proved
    /// game's text is kept when `keep` (and its tags for [`QuickGame`]), else only when it
    /// has findings to be located in it (else its raw game's text is empty).
    #[inline(always)]
    fn next_item<R: Read, T>(
        &mut self,
        splitter: &mut GameSplitter<R>,
        options: &ReplayOptions,
        keep: bool,
        take: impl FnOnce(&mut Self, Found) -> T,
    ) -> Option<Result<T, ReadError>> {
        let lane = &mut self.quick;
        // whether the quick lane was offered the game and refused it (then the game cut
        // goes straight to the full check: the lane would refuse it again)
        let mut refused = false;
        let mut read = |text: &str, at_end| {
            let found = lane.check_game_text(text, at_end, options, keep);
            refused = found.is_none() && lane.refused();
            let (len, proved) = found?;
            let kept = keep || proved.has_findings();
            let text = if kept {
                text[..len].to_string()
            } else {
                String::new()
            };
            Some((len, (proved, text)))
        };
        Some(match splitter.next_fused(&mut read)? {
            Ok(Split::Fused(mut game)) => {
                self.quick_games += 1;
                let text = std::mem::take(&mut game.value.1);
                let raw = RawGame::fused(&game, text);
                let (mut found, _) = game.value;
                found.summary.index = raw.index as usize;
                Ok(take(self, Found::Proved(found, raw)))
            }
            Ok(Split::Raw(raw)) if refused => Ok(take(self, Found::Refused(raw))),
            Ok(Split::Raw(raw)) => Ok(take(self, Found::Cut(raw))),
            Err(e) => Err(e),
        })
    }

    /// The next item of `splitter` (the input named `path`), read and checked as
    /// [`DiagnosedGames::next_checked`] reads and checks it; read errors as the splitter
    /// gives them.
    pub(crate) fn next_checked_from<R: Read, T>(
        &mut self,
        splitter: &mut GameSplitter<R>,
        path: &str,
        options: &ReplayOptions,
        f: impl FnOnce(Checked<'_>) -> T,
    ) -> Option<Result<T, ReadError>> {
        self.next_item(splitter, options, true, |checker, found| match found {
            Found::Proved(proved, raw) => f(Checked::Quick(QuickGame::proved(
                &checker.quick,
                (path, options),
                raw,
                proved,
            ))),
            Found::Cut(raw) => f(checker.check(path, raw, options)),
            Found::Refused(raw) => f(Checked::Full(Box::new(check_game(path, raw, options)))),
        })
    }
}

/// Each item is a diagnosed game, or a located file-level problem, as from
/// [`CheckedGames`]. After an I/O error the iteration ends.
impl<R: Read> Iterator for DiagnosedGames<R> {
    type Item = Result<Diagnosed, Diagnostic>;

    fn next(&mut self) -> Option<Self::Item> {
        let games = &mut self.games;
        if games.failed {
            return None;
        }
        let options = games.options;
        let path = &games.path;
        let splitter = &mut games.splitter;
        let item = self
            .checker
            .next_item(splitter, &options, false, |checker, found| {
                match found {
                    Found::Proved(proved, _) if !proved.has_findings() => Diagnosed {
                        summary: proved.summary,
                        diagnostics: Vec::new(),
                    },
                    // (findings are located in the game's text, kept for them)
                    Found::Proved(proved, raw) => located(path, &raw, proved, &options),
                    Found::Cut(raw) => checker.diagnose(path, raw, &options),
                    Found::Refused(raw) => full_diagnosis(path, raw, &options),
                }
            })?;
        Some(item.map_err(|e| games.read_error(e)))
    }
}

/// Checks one file (or any reader). Never panics on input; I/O errors become an
/// `io-error` diagnostic and what was read before them is still checked.
pub fn check_reader(path: &str, input: impl Read, options: &CheckOptions) -> FileReport {
    let mut report = FileReport {
        path: path.to_string(),
        ..FileReport::default()
    };
    let games = match DiagnosedGames::new(path, input, options) {
        Ok(g) => g,
        Err(e) => return FileReport::io_failure(path, &e),
    };
    report.encoding = Some(games.encoding().name());
    for game in games {
        match game {
            Ok(g) => {
                report.games += 1;
                if g.summary.has_errors {
                    report.games_with_errors += 1;
                }
                report.summaries.push(g.summary);
                report.diagnostics.extend(g.diagnostics);
            }
            Err(d) => {
                report.io_failed |= d.rule == &codes::IO_ERROR;
                report.diagnostics.push(d);
            }
        }
    }
    report
}

/// The diagnostics and summary of one game, without its tree or replay.
#[derive(Clone, Debug)]
pub struct Diagnosed {
    /// What checking found, besides the diagnostics.
    pub summary: GameSummary,
    /// Everything found, located, in text order (exactly as [`check_game`] gives them).
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks games one after another for callers that need only each game's diagnostics and
/// summary, like `lint`: the same findings as [`check_game`], several times faster.
///
/// A game with nothing to report (or only what the draw verdict says about its result) is
/// proved so straight from the parser's tokens (no tree, no record per ply); any other
/// game goes through [`check_game`]. The checker keeps its buffers from game to game, so
/// keep one per thread.
///
/// ```
/// use pdnkit::check::Diagnoser;
/// use pdnkit::pdn::GameSplitter;
/// use pdnkit::replay::ReplayOptions;
/// let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n";
/// let mut checker = Diagnoser::default();
/// for raw in GameSplitter::new(pdn.as_bytes(), Default::default()).unwrap() {
///     let found = checker.diagnose("game.pdn", raw.unwrap(), &ReplayOptions::default());
///     assert!(found.summary.has_errors);
///     assert!(found.diagnostics.iter().any(|d| d.rule.name == "illegal-move"));
/// }
/// assert_eq!(checker.quick_games(), 0); // an illegal move takes the full path
/// ```
#[derive(Default)]
pub struct Diagnoser {
    quick: quick::QuickLane,
    quick_games: u64,
}

impl Diagnoser {
    /// Checks one game.
    pub fn diagnose(&mut self, path: &str, raw: RawGame, options: &ReplayOptions) -> Diagnosed {
        // (only the diagnostics are asked for: the quick lane need not keep the tags)
        match self.check_keeping(path, raw, options, false) {
            Checked::Full(game) => diagnosed(*game),
            Checked::Quick(game) => game.diagnosed,
        }
    }

    /// Keeps the first `plies` main-line plies of the games the quick lane takes (see
    /// [`QuickGame::first_plies`]); none by default.
    pub fn keep_first_plies(&mut self, plies: usize) {
        self.quick.opening_depth = plies;
    }

    /// Checks one game, giving what the full check knows of it or, for a game the quick
    /// lane takes, what that lane knows: for callers that need more than diagnostics
    /// (`stats`) without paying for the tree when they can.
    pub fn check(&mut self, path: &str, raw: RawGame, options: &ReplayOptions) -> Checked<'_> {
        self.check_keeping(path, raw, options, true)
    }

    /// [`check`](Self::check); the quick lane keeps every tag for [`QuickGame::tags`] and
    /// [`QuickGame::tag`] when `keep_tags`, else only those it needs itself.
    fn check_keeping(
        &mut self,
        path: &str,
        raw: RawGame,
        options: &ReplayOptions,
        keep_tags: bool,
    ) -> Checked<'_> {
        self.quick.keep_tags = keep_tags;
        if let Some(proved) = self.quick.check(&raw, options) {
            self.quick_games += 1;
            let quick = QuickGame::proved(&self.quick, (path, options), raw, proved);
            return Checked::Quick(quick);
        }
        Checked::Full(Box::new(check_game(path, raw, options)))
    }

    /// How many games so far were checked without the full check.
    pub fn quick_games(&self) -> u64 {
        self.quick_games
    }
}

/// The diagnostics and summary of `raw` by the full check.
fn full_diagnosis(path: &str, raw: RawGame, options: &ReplayOptions) -> Diagnosed {
    diagnosed(check_game(path, raw, options))
}

/// The diagnostics and summary of a game the full check checked (its tree recycled).
fn diagnosed(game: CheckedGame) -> Diagnosed {
    let summary = game.summary();
    let CheckedGame {
        game, diagnostics, ..
    } = game;
    game.recycle();
    Diagnosed {
        summary,
        diagnostics,
    }
}

/// The diagnostics and summary of a game the quick lane proved: its findings located in
/// `raw`, in the full check's order (findings by place, then diagnostics by line).
fn located(path: &str, raw: &RawGame, proved: quick::Proved, options: &ReplayOptions) -> Diagnosed {
    let quick::Proved {
        mut summary,
        missing_terminator,
        findings,
        tag_findings,
        unmade,
        ..
    } = proved;
    // (in the full check's order: the reader's error, tag findings, then the replay's)
    let mut found: Vec<Unlocated> = Vec::with_capacity(tag_findings.len() + findings.len() + 1);
    found.extend(missing_terminator.as_ref().map(Unlocated::Syntax));
    found.extend(
        tag_findings
            .into_iter()
            .map(|(rule, message, span)| Unlocated::Made(rule, message, span)),
    );
    found.extend(findings.iter().map(Unlocated::Finding));
    let (diagnostics, unreported_errors) = report(path, raw.source(), found, unmade, options);
    // (`proved` noted the errors of findings it did not make)
    summary.has_errors |= unreported_errors
        || diagnostics
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error);
    Diagnosed {
        summary,
        diagnostics,
    }
}

/// One game checked by [`Diagnoser::check`].
pub enum Checked<'a> {
    /// Checked by [`check_game`]: the tree, the replay and the diagnostics.
    Full(Box<CheckedGame>),
    /// Proved by the quick lane: its diagnostics (from the draw verdict, if any) and a
    /// few facts, borrowed from the checker until its next game.
    Quick(QuickGame<'a>),
}

/// A game the quick lane of a [`Diagnoser`] took: it was read without a syntax error and
/// its main line replayed completely (status [`Status::Complete`]).
pub struct QuickGame<'a> {
    lane: &'a quick::QuickLane,
    /// The game's text and where it is in the file.
    pub raw: RawGame,
    start: Position,
    end: Position,
    outcome: crate::Outcome,
    /// Its diagnostics and summary.
    pub diagnosed: Diagnosed,
}

impl<'a> QuickGame<'a> {
    /// The game `raw` of the input `path` that `lane` proved so, its findings located.
    fn proved(
        lane: &'a quick::QuickLane,
        (path, options): (&str, &ReplayOptions),
        raw: RawGame,
        proved: quick::Proved,
    ) -> Self {
        let (start, end, outcome) = (proved.start, proved.end, proved.outcome);
        let diagnosed = located(path, &raw, proved, options);
        QuickGame {
            lane,
            raw,
            start,
            end,
            outcome,
            diagnosed,
        }
    }

    /// The decoded value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.lane.tag_value(name)
    }

    /// Every tag in file order: (name, decoded value).
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.lane.tags()
    }

    /// The result token that ends the movetext, as written, if there is one.
    pub fn terminator(&self) -> Option<&str> {
        let span = self.lane.terminator_span()?;
        self.raw.text.get(span.start..span.end)
    }

    /// The position the main line starts from.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The position at the end of the main line.
    pub fn end(&self) -> Position {
        self.end
    }

    /// The recorded outcome (Result tag if readable, else the terminator).
    pub fn outcome(&self) -> crate::Outcome {
        self.outcome
    }

    /// The first main-line plies, as many as [`Diagnoser::keep_first_plies`] asked.
    pub fn first_plies(&self) -> &[KeptPly] {
        self.lane.first_plies()
    }
}

/// One of the first main-line plies of a [`QuickGame`] ([`QuickGame::first_plies`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeptPly {
    /// The position before the ply.
    pub before: Position,
    /// The move played.
    pub mv: Move,
    /// Its full-move number.
    pub number: u32,
    /// Whether the move is known to be named by its first and last squares alone (the
    /// check found it so); `false` when that was not asked.
    pub(crate) short_names_it: bool,
}

impl KeptPly {
    /// Appends the move to `out` as [`push_move`](crate::rules::notation::push_move)
    /// writes it, without asking again what the check found out while resolving it.
    pub fn push_text(&self, out: &mut String, style: Style) {
        push_move_named(out, &self.before, &self.mv, style, self.short_names_it);
    }
}

/// Checks one game: syntax, tags, replay, results, draws.
pub fn check_game(path: &str, raw: RawGame, options: &ReplayOptions) -> CheckedGame {
    let game = raw.to_game();
    // (one finding past the limit is reported itself, so one more is made: see `report`)
    let (tag_findings, unmade) = tags::check_tags_reporting(
        game.tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str())),
        MAX_GAME_FINDINGS + 1,
        &options.report,
    );
    let replay = replay(&game, options);
    let mut found: Vec<Unlocated> =
        Vec::with_capacity(game.errors.len() + tag_findings.len() + replay.findings.len() + 1);
    found.extend(game.errors.iter().map(Unlocated::Syntax));
    for f in tag_findings {
        let span = f.tag.map(|i| game.tags[i].span);
        found.push(Unlocated::Made(f.rule, f.message, span));
    }
    if game.moves.moves.is_empty() && !game.tags.is_empty() && replay.status == Status::Complete {
        let empty = "the game has tags but no moves".to_string();
        found.push(Unlocated::Made(&codes::EMPTY_GAME, empty, None));
    }
    found.extend(replay.findings.iter().map(Unlocated::Finding));
    let (diagnostics, unreported_errors) = report(path, raw.source(), found, unmade, options);
    CheckedGame {
        raw,
        game,
        replay,
        diagnostics,
        unreported_errors,
    }
}

/// Locates what the checker found in one game (`report`, of the game `game` of the input
/// `path`): its diagnostics in text order, and whether a finding of a rule not reported
/// was an error.
pub fn diagnose(
    path: &str,
    game: GameSource<'_>,
    report: &checker::GameReport,
    options: &ReplayOptions,
) -> (Vec<Diagnostic>, bool) {
    let mut found: Vec<Unlocated> = Vec::with_capacity(
        report.syntax_errors.len() + report.tag_findings.len() + report.findings.len(),
    );
    found.extend(report.syntax_errors.iter().map(Unlocated::Syntax));
    found.extend(report.tag_findings.iter().map(Unlocated::Finding));
    found.extend(report.findings.iter().map(Unlocated::Finding));
    // the draw verdict's findings: about a ply at its move, the others at the result
    let result_span = (report.result.as_ref().map(|t| t.span)).or_else(|| {
        (report.tags.iter())
            .find(|t| t.name == "Result")
            .map(|t| t.span)
    });
    let mut unreported = false;
    let draws: Vec<Finding> = match &report.draw {
        Some(verdict) => crate::replay::draw_findings(
            verdict,
            |rule| {
                let keep = options.report.contains(rule);
                unreported |= !keep && rule.severity == crate::diag::Severity::Error;
                keep
            },
            report.plies,
            |p| {
                let span = report.main_spans[p as usize - 1];
                let text = game.text.get(span.start..span.end).unwrap_or_default();
                (span, text.to_string())
            },
            result_span,
        )
        .collect(),
        None => Vec::new(),
    };
    found.extend(draws.iter().map(Unlocated::Finding));
    let (diagnostics, unreported_here) =
        self::report(path, game, found, report.tags_unmade, options);
    (
        diagnostics,
        unreported || unreported_here || report.unreported_errors,
    )
}

/// The findings one game reports at most, besides its syntax errors (which the reader
/// bounds: [`crate::pdn::MAX_GAME_ERRORS`]): past them one more, `P118 too-many-errors`,
/// says how many more there were (a game of 10,000 tags, within the reader's limits, can
/// have 10,000 duplicates, and each located diagnostic holds its source line).
pub const MAX_GAME_FINDINGS: usize = 1_000;

/// Which findings a check makes ([`ReplayOptions::report`]), and whether one it left
/// out was an error (the game has errors all the same).
#[derive(Clone, Copy)]
pub(super) struct Reporting {
    rules: RuleSet,
    pub(super) unreported_errors: bool,
}

impl Reporting {
    pub(super) fn new(options: &ReplayOptions) -> Reporting {
        Reporting {
            rules: options.report,
            unreported_errors: false,
        }
    }

    /// Whether every rule is reported.
    fn all(&self) -> bool {
        self.rules == RuleSet::ALL
    }

    /// Whether a finding of `rule` whose diagnostic has `severity` is made; notes it when
    /// it is an error that is not.
    pub(super) fn keeps(&mut self, rule: &crate::diag::Rule, severity: Severity) -> bool {
        let keep = self.rules.contains(rule);
        self.unreported_errors |= !keep && severity == Severity::Error;
        keep
    }
}

/// The rule of the diagnostic a syntax error becomes, and its severity: its kind's rule,
/// or the generic one for a kind the registry does not know yet, which keeps the reader's
/// own severity.
pub(super) fn syntax_rule(e: &SyntaxError) -> (&'static crate::diag::Rule, Severity) {
    match codes::find(e.kind.name()) {
        Some(rule) => (rule, rule.severity),
        None => {
            let severity = match e.severity() {
                crate::pdn::Severity::Error => Severity::Error,
                crate::pdn::Severity::Warning => Severity::Warning,
            };
            (&codes::SYNTAX_ERROR, severity)
        }
    }
}

/// Something a game's check found, not located yet.
enum Unlocated<'a> {
    /// A syntax error of the reader.
    Syntax(&'a SyntaxError),
    /// A finding of the replay or the quick lane.
    Finding(&'a Finding),
    /// A finding of the check itself (rule, message), and where it is.
    Made(&'static crate::diag::Rule, String, Option<Span>),
}

impl Unlocated<'_> {
    fn span(&self) -> Option<Span> {
        match self {
            Unlocated::Syntax(e) => Some(e.span),
            Unlocated::Finding(f) => f.span,
            Unlocated::Made(_, _, span) => *span,
        }
    }

    /// The rule of the diagnostic this becomes, and its severity (as [`Locator`] makes
    /// it).
    fn rule_and_severity(&self) -> (&'static crate::diag::Rule, Severity) {
        match self {
            Unlocated::Syntax(e) => syntax_rule(e),
            Unlocated::Finding(Finding { rule, .. }) | Unlocated::Made(rule, _, _) => {
                (*rule, rule.severity)
            }
        }
    }

    /// The rule of a finding that counts towards [`MAX_GAME_FINDINGS`]; `None` for a
    /// syntax error, which the reader bounds.
    fn counted_rule(&self) -> Option<&'static crate::diag::Rule> {
        match self {
            Unlocated::Syntax(_) => None,
            Unlocated::Finding(f) => Some(f.rule),
            Unlocated::Made(rule, _, _) => Some(rule),
        }
    }
}

/// Locates what a game's check found, in text order: its syntax errors and at most
/// [`MAX_GAME_FINDINGS`] other findings, then one `P118 too-many-errors` for the rest
/// (an error if some of the rest are, so that the game still counts as having errors).
/// `unmade` are findings counted and not made, each after the findings in `found` of
/// its kind (tag findings beyond the first ones: see [`tags::check_tags_up_to`]), so that
/// there are more than [`MAX_GAME_FINDINGS`] in `found` before them where there are any.
///
/// Only the rules of [`ReplayOptions::report`] are reported (and counted towards the
/// limit); the second value says whether the others held an error.
fn report(
    path: &str,
    raw: GameSource<'_>,
    mut found: Vec<Unlocated>,
    unmade: tags::Unmade,
    options: &ReplayOptions,
) -> (Vec<Diagnostic>, bool) {
    let mut reporting = Reporting::new(options);
    if !reporting.all() {
        found.retain(|u| {
            let (rule, severity) = u.rule_and_severity();
            reporting.keeps(rule, severity)
        });
    }
    // (a finding of the game as a whole is located where its text starts)
    let start = |u: &Unlocated| u.span().map_or(raw.stray_prefix, |s| s.start);
    found.sort_by_key(start);
    // Syntax errors are bounded by the reader already (`pdn::MAX_GAME_ERRORS`, then its
    // own P118); the rest are counted here. One past the limit is reported itself: a line
    // saying so would take its place.
    let others = found.iter().filter(|u| u.counted_rule().is_some()).count() + unmade.findings;
    let limit = if others > MAX_GAME_FINDINGS + 1 {
        MAX_GAME_FINDINGS
    } else {
        others
    };
    let mut locator = Locator::new(path, raw, options.omit_snippets_and_boards);
    let mut out: Vec<Diagnostic> = Vec::new();
    let (mut kept, mut dropped, mut dropped_errors) = (0, unmade.findings, unmade.errors);
    let mut first_dropped = None;
    for u in found {
        if let Some(rule) = u.counted_rule() {
            if kept == limit {
                dropped += 1;
                dropped_errors += usize::from(rule.severity == crate::diag::Severity::Error);
                first_dropped = first_dropped.or(Some(u.span()));
                continue;
            }
            kept += 1;
        }
        out.push(match u {
            Unlocated::Syntax(e) => locator.syntax(e),
            Unlocated::Finding(f) => locator.finding(f),
            Unlocated::Made(rule, message, span) => {
                locator.locate(Diagnostic::new(rule, message), span)
            }
        });
    }
    // (an error when some of the findings it stands for are)
    let p118 = match dropped_errors {
        0 => codes::TOO_MANY_ERRORS.severity,
        _ => Severity::Error,
    };
    if let Some(span) = first_dropped.filter(|_| reporting.keeps(&codes::TOO_MANY_ERRORS, p118)) {
        let mut message = format!("{dropped} more findings in this game are not reported");
        if dropped_errors > 0 {
            message.push_str(&format!(" ({dropped_errors} of them errors)"));
        }
        let mut d = Diagnostic::new(&codes::TOO_MANY_ERRORS, message);
        d.severity = p118;
        out.push(locator.locate(d, span));
    }
    // (positions grow with offsets: this only keeps equal places in the order above)
    out.sort_by_key(|d| (d.line, d.column));
    (out, reporting.unreported_errors)
}

/// Locates the diagnostics of one game: fills in path, game, line, column and the source
/// snippet from a span. Positions are counted on from the last one asked, and the source
/// line of the last one is kept, so that a game's diagnostics, asked for in text order,
/// cost about one pass over its text together (located one by one from the game's start,
/// the 150,000 diagnostics of a 2 MB game took 30 s).
struct Locator<'a> {
    path: &'a str,
    raw: GameSource<'a>,
    /// [`ReplayOptions::omit_snippets_and_boards`].
    omit_snippets_and_boards: bool,
    positions: crate::pdn::source::Positions<'a>,
    /// The last source line: its bytes `start..end` in the game's text, and its length in
    /// characters.
    line: Option<(usize, usize, usize)>,
}

impl<'a> Locator<'a> {
    fn new(path: &'a str, raw: GameSource<'a>, omit_snippets_and_boards: bool) -> Self {
        Locator {
            path,
            raw,
            omit_snippets_and_boards,
            positions: raw.positions(),
            line: None,
        }
    }

    fn syntax(&mut self, e: &SyntaxError) -> Diagnostic {
        let (rule, severity) = syntax_rule(e);
        // (the generic rule names the reader's kind in its message)
        let mut d = if std::ptr::eq(rule, &codes::SYNTAX_ERROR) {
            Diagnostic::new(rule, format!("{}: {}", e.kind.name(), e.message))
        } else {
            Diagnostic::new(rule, e.message.clone())
        };
        d.severity = severity;
        self.locate(d, Some(e.span))
    }

    fn finding(&mut self, f: &Finding) -> Diagnostic {
        let mut d = Diagnostic::new(f.rule, f.message.clone());
        d.ply = f.ply;
        d.move_text = f.move_text.clone();
        if !self.omit_snippets_and_boards {
            d.board = f.board.as_ref().map(|p| board_diagram(p).ascii());
        }
        d.notes.extend(f.notes.iter().cloned());
        self.locate(d, f.span)
    }

    /// The source line around byte `at`: its bytes and its length in characters.
    fn line_around(&mut self, at: usize) -> (usize, usize, usize) {
        if let Some(line @ (start, end, _)) = self.line {
            if start <= at && at <= end {
                return line;
            }
        }
        let text = self.raw.text;
        // (memchr: the line of nearly every game's diagnostic, a missing tag, is looked
        // for, and `str::find` with a set of characters took 1.7% of `lint` so)
        let bytes = text.as_bytes();
        let start = memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr2(b'\n', b'\r', &bytes[at..]).map_or(text.len(), |i| at + i);
        let line = (start, end, text[start..end].chars().count());
        self.line = Some(line);
        line
    }

    fn locate(&mut self, mut d: Diagnostic, span: Option<Span>) -> Diagnostic {
        let raw = self.raw;
        d.path = self.path.to_string();
        d.game = Some(raw.index as usize);
        let span = span.unwrap_or_else(|| {
            let at = raw.stray_prefix.min(raw.text.len());
            Span::new(at, at)
        });
        let start = self.positions.position(span.start);
        d.line = start.line as usize;
        d.column = start.column as usize;
        if self.omit_snippets_and_boards {
            return d;
        }
        // The source line: from the last line break before the span to the next one.
        let at = span.start.min(raw.text.len());
        let (line_start, line_end, chars) = self.line_around(at);
        let end = span.end.clamp(at, line_end);
        // (at most a snippet's width is ever shown)
        let width = raw.text[at..end]
            .chars()
            .take(SNIPPET_WHOLE_LINE + 1)
            .count()
            .max(1);
        // The first line of a game may start mid-line in the file: what came before it on
        // that line is shown as blanks, so that columns are the file's.
        let blanks = if line_start == 0 && raw.start.column > 1 {
            raw.start.column as usize - 1
        } else {
            0
        };
        // (the column the position says: the characters before `at` on its line, blanks
        // included, plus one)
        let column = start.column as usize;
        let line_chars = blanks + chars;
        // A long line (a whole game or file on one line) is shown as a window around the
        // span, so that a diagnostic never holds a copy of megabytes.
        let (from, to) = if line_chars <= SNIPPET_WHOLE_LINE {
            (1, line_chars)
        } else {
            (
                column.saturating_sub(SNIPPET_BEFORE).max(1),
                (column + SNIPPET_AFTER).min(line_chars),
            )
        };
        // (one allocation for a line shown whole, at most a window's for a longer one)
        let lead = blanks.min(to).saturating_sub(from - 1);
        let bytes = (line_end - line_start).min(4 * SNIPPET_WHOLE_LINE);
        let mut shown = String::with_capacity(bytes + lead + 6);
        if from > 1 {
            shown.push('…');
        }
        shown.extend(std::iter::repeat_n(' ', lead));
        // the line's characters from the window's first on, found from `at` (the
        // character `column - 1 - blanks` of the line), not from the line's start
        let first = (from - 1).saturating_sub(blanks);
        let back = (column - 1 - blanks).saturating_sub(first);
        let window_start = if back == 0 {
            at
        } else {
            raw.text[line_start..at]
                .char_indices()
                .rev()
                .nth(back - 1)
                .map_or(line_start, |(k, _)| line_start + k)
        };
        // (the characters wanted, as one slice: nearly always the rest of the line)
        let rest = &raw.text[window_start..line_end];
        let wanted = to.saturating_sub(blanks.max(from - 1));
        let end = if rest.len() <= wanted {
            rest.len()
        } else {
            rest.char_indices()
                .nth(wanted)
                .map_or(rest.len(), |(k, _)| k)
        };
        shown.push_str(&rest[..end]);
        if to < line_chars {
            shown.push('…');
        }
        d.snippet = Some(Snippet {
            line_text: shown,
            column: column + 1 - from + usize::from(from > 1),
            width: width.min(to + 1 - column.min(to)).max(1),
        });
        d
    }
}

/// Source lines up to this many characters are shown whole in a diagnostic.
const SNIPPET_WHOLE_LINE: usize = 1_000;
/// Of a longer line, the characters shown before the span's start and after it.
const SNIPPET_BEFORE: usize = 80;
const SNIPPET_AFTER: usize = 160;

/// The diagram of a position.
pub fn board_diagram(pos: &Position) -> Diagram {
    let mut pieces = Vec::new();
    for color in [crate::Color::White, crate::Color::Black] {
        let kings = pos.kings(color);
        for sq in pos.pieces(color) {
            pieces.push(((sq.file(), sq.rank()), color, kings.contains(sq)));
        }
    }
    Diagram {
        pieces,
        turn: Some(pos.turn()),
        last_move: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The snippets of every diagnostic of `pdn`.
    fn snippets(pdn: &str) -> Vec<(usize, Snippet)> {
        check_reader("long.pdn", pdn.as_bytes(), &CheckOptions::default())
            .diagnostics
            .into_iter()
            .filter_map(|d| Some((d.column, d.snippet?)))
            .collect()
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_span() {
        // a whole game on one line, its illegal move 6,000 characters in
        let filler = "{".to_string() + &"ж".repeat(6_000) + "}";
        let pdn = format!("[Event \"x\"]\n1. c3-d4 {filler} f6-e5 2. b2-c3 e5:c3 *\n");
        let all = snippets(&pdn);
        let (column, snip) = all
            .iter()
            .find(|(_, s)| s.line_text.contains("b2-c3"))
            .expect("the illegal move is shown");
        assert!(*column > 6_000);
        assert!(
            snip.line_text.chars().count() <= 80 + 160 + 2,
            "{}",
            snip.line_text
        );
        assert!(snip.line_text.starts_with('…') && !snip.line_text.ends_with('…'));
        // the caret still points at the move
        let shown: String = snip
            .line_text
            .chars()
            .skip(snip.column - 1)
            .take(5)
            .collect();
        assert_eq!((shown.as_str(), snip.width), ("b2-c3", 5));
        // short lines are shown whole, as before
        let short = snippets("[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n");
        assert!(short.iter().all(|(_, s)| !s.line_text.contains('…')));
        assert!(
            short
                .iter()
                .any(|(_, s)| s.line_text == "1. c3-d4 f6-e5 2. b2-c3 *")
        );
    }

    #[test]
    fn a_game_starting_far_into_a_line_does_not_copy_the_line() {
        // the second game starts after 200,000 characters of the first on the same line:
        // its snippets stand for them with a few blanks, not 200,000
        let pdn = format!(
            "[Event \"a\"]\n1. {}*[Event \"b\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n",
            "c3-d4 d6-c5 ".repeat(200_000 / 12)
        );
        for (_, snip) in snippets(&pdn) {
            assert!(
                snip.line_text.chars().count() < 400,
                "{} chars",
                snip.line_text.len()
            );
        }
    }

    #[test]
    fn diagnostics_are_located_as_from_the_games_start() {
        // games of every line shape: generated, on one long line, CR LF and lone CR line
        // ends, starting mid-line in the file, with multibyte text
        let mut text = Vec::new();
        crate::generate::Generator::new(3)
            .write_games(&mut text, 40)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        let one_line = text.replace('\n', " ");
        let mut games = Vec::new();
        for (k, t) in [
            text.clone(),
            one_line.clone(),
            text.replace('\n', "\r\n"),
            text.replace('\n', "\r"),
            format!("x {}", &text[..20_000.min(text.len())]),
        ]
        .iter()
        .enumerate()
        {
            for raw in GameSplitter::new(t.as_bytes(), Default::default()).unwrap() {
                let mut raw = raw.unwrap();
                if k == 4 {
                    raw.start.column = 7;
                }
                games.push(raw);
            }
        }
        let mut raw = games[0].clone();
        raw.text = format!(
            "{}{}",
            "ж".repeat(3000),
            one_line.chars().take(9000).collect::<String>()
        );
        games.push(raw);
        let mut rng = crate::generate::SplitMix64::new(17);
        let mut located = 0;
        for raw in &games {
            let mut locator = Locator::new("t.pdn", raw.source(), false);
            let boundaries: Vec<usize> = (0..=raw.text.len())
                .filter(|&k| raw.text.is_char_boundary(k))
                .collect();
            // in text order mostly, now and then back
            let mut at = 0;
            for _ in 0..60 {
                let step = rng.below(raw.text.len() as u64 / 20 + 2) as usize;
                at = if rng.below(8) == 0 {
                    rng.below(raw.text.len() as u64 + 1) as usize
                } else {
                    at + step
                };
                let start = *boundaries
                    .iter()
                    .find(|&&k| k >= at.min(raw.text.len()))
                    .unwrap();
                let len = rng.below(40) as usize;
                let end = *boundaries
                    .iter()
                    .find(|&&k| k >= (start + len).min(raw.text.len()))
                    .unwrap();
                let span = (rng.below(10) > 0).then(|| Span::new(start, end));
                let d = || Diagnostic::new(&codes::ILLEGAL_MOVE, "x".to_string());
                let got = locator.locate(d(), span);
                let want = locate_oracle("t.pdn", raw, d(), span);
                assert_eq!(
                    format!("{got:?}"),
                    format!("{want:?}"),
                    "{span:?} in game {}",
                    raw.index
                );
                located += 1;
            }
        }
        assert!(located > 5_000, "{located}");
    }

    /// `Locator::locate` as it was, each position counted from the game's start: the oracle.
    fn locate_oracle(
        path: &str,
        raw: &RawGame,
        mut d: Diagnostic,
        span: Option<Span>,
    ) -> Diagnostic {
        d.path = path.to_string();
        d.game = Some(raw.index as usize);
        let span = span.unwrap_or_else(|| {
            let at = raw.stray_prefix.min(raw.text.len());
            Span::new(at, at)
        });
        let start = raw.position(span.start);
        d.line = start.line as usize;
        d.column = start.column as usize;
        // The source line: from the last line break before the span to the next one.
        let at = span.start.min(raw.text.len());
        let line_start = raw.text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line_end = raw.text[at..]
            .find(['\n', '\r'])
            .map_or(raw.text.len(), |i| at + i);
        let line_text = &raw.text[line_start..line_end];
        let end = span.end.clamp(at, line_end);
        let width = raw.text[at..end].chars().count().max(1);
        // The first line of a game may start mid-line in the file: what came before it on that
        // line is shown as blanks, so that columns are the file's.
        let blanks = if line_start == 0 && raw.start.column > 1 {
            raw.start.column as usize - 1
        } else {
            0
        };
        let column = blanks + raw.text[line_start..at].chars().count() + 1;
        let line_chars = blanks + line_text.chars().count();
        // A long line (a whole game or file on one line) is shown as a window around the
        // span, so that a diagnostic never holds a copy of megabytes.
        let (from, to) = if line_chars <= SNIPPET_WHOLE_LINE {
            (1, line_chars)
        } else {
            (
                column.saturating_sub(SNIPPET_BEFORE).max(1),
                (column + SNIPPET_AFTER).min(line_chars),
            )
        };
        let mut shown = String::new();
        if from > 1 {
            shown.push('…');
        }
        shown.extend(std::iter::repeat_n(
            ' ',
            blanks.min(to).saturating_sub(from - 1),
        ));
        shown.extend(
            line_text
                .chars()
                .skip((from - 1).saturating_sub(blanks))
                .take(to.saturating_sub(blanks.max(from - 1))),
        );
        if to < line_chars {
            shown.push('…');
        }
        d.snippet = Some(Snippet {
            line_text: shown,
            column: column + 1 - from + usize::from(from > 1),
            width: width.min(to + 1 - column.min(to)).max(1),
        });
        d
    }
}
