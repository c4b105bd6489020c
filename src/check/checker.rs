//! The checker: a [`Visitor`] that replays a game against the rules as the reader reads
//! it (every move of the main line and of every variation, the move numbers, the tags,
//! the result, the draw rules) and gives a [`GameReport`]. It is the only way a game is
//! checked: `lint`, `convert`, `stats` and `show` all read its report, and ask it to keep
//! what they need besides (the main line's plies, every move's resolution, the game tree).
//!
//! An ambiguous capture is resolved by the rest of its line (RULES.md §3): the checker
//! keeps the events of that line until it ends, then plays them on. So is a variation
//! written before the first move of its line, which starts where that move does.

use compact_str::CompactString;

use super::tags::{TagCheck, TagIssue, Unmade};
use crate::Color;
use crate::diag::Rule;
use crate::diag::codes;
use crate::diag::fix::{Applicability, Proposal};
use crate::diagram::{Coord, DrawnPly};
use crate::draw::{DrawTracker, Edition, Outcome, Verdict};
use crate::pdn::{
    CommentKind, Game, GameBuilder, GameResult, MoveNumber, RawTag, ReadError, Reader, ResultToken,
    Skip, Span, SyntaxError, SyntaxErrorKind, Visitor,
};
use crate::replay::{
    Finding, Ply, ReplayOptions, Status, contradicted_by, draw_view, follow_ply,
    follow_variant_ply, game_type_of_variant, is_placeholder, larger_board, larger_board_of_fen,
    number_fits, recorded_from, results_disagree, second_to_move, side_written, start_of,
    variant_draw_view, variant_for, variant_name, variation_start_numbered,
};
use crate::rules::fen::FenSquare;
use crate::rules::game_type::{self, GameType};
use crate::rules::notation::{
    CaptureSeparator, CaptureStyle, MoveText, ParseMoveError, PlainSquares, SquareStyle, Style,
};
use crate::rules::{
    AnyPosition, Dialect, Move, Named, Playable, Position, Variant, VariantPosition,
};

/// What a [`Checker`] keeps of each game besides its findings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keep {
    /// How many main-line plies to keep in [`GameReport::mainline`] (`usize::MAX`: all).
    pub plies: usize,
    /// Keep the resolution of every move, in text order ([`GameReport::moves`]).
    pub moves: bool,
    /// Build the game's tree in the same pass ([`GameReport::game`]).
    pub tree: bool,
    /// Read the tags only: the reader skips the movetext, nothing is replayed, and the
    /// report holds the tags, their findings and the syntax errors of the tag section (a
    /// task that asks only about tags is done at the reader's pace).
    pub tags_only: bool,
    /// Keep every position the main line reaches ([`GameReport::positions`]): what a
    /// search for a position needs, at a fraction of the cost of the plies.
    pub positions: bool,
}

/// A tag as the checker keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagEntry {
    /// The name as written.
    pub name: CompactString,
    /// The value, escapes decoded (inline up to 24 bytes: most values take no allocation).
    pub value: CompactString,
    /// The whole `[Name "value"]`.
    pub span: Span,
    /// The text between the quotes.
    pub value_span: Span,
}

/// A move of the game resolved against the rules (on a Russian [`Position`], or on a
/// [`VariantPosition`] in a game of another variant).
#[derive(Clone, Copy, Debug)]
pub struct MoveInfo<P: Playable = Position> {
    /// The position before the move.
    pub before: P,
    /// The legal move.
    pub mv: P::Move,
    /// Its full-move number.
    pub move_number: u32,
    /// The main-line ply (1-based) of a main-line move, `None` in a variation.
    pub ply: Option<u32>,
    /// Whether the move is known to be named by its first and last squares alone.
    pub short_names_it: bool,
}

/// What checking one game found.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    /// The tags in file order.
    pub tags: Vec<TagEntry>,
    /// How far the main line replayed.
    pub status: Status,
    /// The position the main line starts from (once it is set up).
    pub start: Option<Position>,
    /// The full-move number of the first move.
    pub first_move_number: u32,
    /// The position at the end of the replayed main line.
    pub end: Option<Position>,
    /// Main-line plies played.
    pub plies: u32,
    /// Main-line moves written (played or not).
    pub written_plies: u32,
    /// The recorded outcome (the Result tag when readable, else the terminator).
    pub outcome: Outcome,
    /// The result token that ends the movetext.
    pub result: Option<GameResult>,
    /// The draw verdict, when the main line replayed completely (its findings are made
    /// where the game is located: [`super::diagnose`]).
    pub draw: Option<Verdict>,
    /// Where each main-line ply played was written.
    pub main_spans: Vec<Span>,
    /// The reader's syntax errors, in text order.
    pub syntax_errors: Vec<SyntaxError>,
    /// Findings about the tags, in file order (the missing roster tags last), at most
    /// one more than [`super::MAX_GAME_FINDINGS`]; the rest counted in `tags_unmade`.
    pub tag_findings: Vec<Finding>,
    /// Tag findings counted and not made.
    pub tags_unmade: Unmade,
    /// The other findings (moves, results, draws), in text order.
    pub findings: Vec<Finding>,
    /// Some finding of a rule not reported was an error.
    pub unreported_errors: bool,
    /// The first main-line plies played, as many as [`Keep::plies`] asks.
    pub mainline: Vec<Ply>,
    /// With [`Keep::positions`]: every position the main line reaches, each with the
    /// main-line ply after which it is reached: the start (0), the position after each
    /// ply played, and one a setup command in the main line sets up (after the plies
    /// before it).
    pub positions: Vec<(u32, Position)>,
    /// The main-line moves written after the replay stopped, as written.
    pub unplayed: Vec<CompactString>,
    /// With [`Keep::moves`]: every move's resolution, in text order (`None` for a move
    /// not played: illegal, ambiguous, unreadable, after such a move in its line).
    pub moves: Vec<Option<MoveInfo>>,
    /// With [`Keep::tree`]: the game's tree.
    pub game: Option<Game>,
    /// The movetext has no result but the Result tag gives one that the final position
    /// does not contradict: the terminator a fix may write.
    pub terminator_from_tag: Option<CompactString>,
    /// The variant whose rules the game was replayed by (Russian for a game whose GameType
    /// names a game pdnkit has no rules for).
    pub variant: Variant,
    /// Of a game of a variant other than Russian, what [`start`](Self::start),
    /// [`end`](Self::end), [`mainline`](Self::mainline), [`positions`](Self::positions)
    /// and [`moves`](Self::moves) hold for a Russian one (which stay empty).
    pub variant_line: VariantLine,
}

/// What a [`GameReport`] keeps of the main line of a game of a variant other than Russian,
/// on [`VariantPosition`]s, as [`Keep`] asks.
#[derive(Clone, Debug, Default)]
pub struct VariantLine {
    /// The position the main line starts from (once it is set up).
    pub start: Option<VariantPosition>,
    /// The position at the end of the replayed main line.
    pub end: Option<VariantPosition>,
    /// The first main-line plies played.
    pub mainline: Vec<Ply<VariantPosition>>,
    /// Every position the main line reaches, with its ply.
    pub positions: Vec<(u32, VariantPosition)>,
    /// Every move's resolution, in text order.
    pub moves: Vec<Option<MoveInfo<VariantPosition>>>,
}

impl VariantLine {
    fn clear(&mut self) {
        (self.start, self.end) = (None, None);
        self.mainline.clear();
        self.positions.clear();
        self.moves.clear();
    }
}

/// A position a [`Checker`] replays games on, and where a [`GameReport`] keeps what is
/// played on it: a Russian [`Position`] in the report's own fields, a [`VariantPosition`]
/// in its [`VariantLine`]. Besides, the draw rules the variant's games are judged by.
trait Recorded: Playable {
    fn start(r: &mut GameReport) -> &mut Option<Self>;
    fn end(r: &mut GameReport) -> &mut Option<Self>;
    fn mainline(r: &mut GameReport) -> &mut Vec<Ply<Self>>;
    fn positions(r: &mut GameReport) -> &mut Vec<(u32, Self)>;
    fn move_infos(r: &mut GameReport) -> &mut Vec<Option<MoveInfo<Self>>>;
    /// A draw tracker for a game from this position (`reuse`: one to restart), its first
    /// move numbered `first_move_number`, after `start.0` plies of the main line and, by
    /// `start.1`, from the start position; `None` where no draw rule is followed.
    fn draw_tracker(
        &self,
        reuse: Option<DrawTracker>,
        edition: Edition,
        first_move_number: u32,
        start: (u32, bool),
    ) -> Option<DrawTracker>;
    /// Follows a ply for the draw tracker; whether the position after it has a capture,
    /// when that came out (see [`follow_ply`]).
    fn follow(
        tracker: Option<&mut DrawTracker>,
        before: &Self,
        mv: &Self::Move,
        after: &Self,
    ) -> Option<bool>;
}

/// A draw tracker (`reuse`: one restarted) of `edition` from a position of `view`'s
/// material and key, in a game whose first player is `first.0`, its first move numbered
/// `first.1`, after `start.0` plies of the main line and, by `start.1`, from the start
/// position.
fn started(
    reuse: Option<DrawTracker>,
    edition: Edition,
    (material, key): (crate::draw::Material, crate::draw::PositionKey),
    (first_player, first_move_number): (Color, u32),
    (start_ply, from_start): (u32, bool),
) -> DrawTracker {
    let mut tracker = match reuse {
        Some(mut t) => {
            t.restart(edition, material, key);
            t
        }
        None => DrawTracker::new(edition, material, key),
    };
    tracker.set_first_player(first_player);
    tracker.set_first_move_number(first_move_number);
    tracker.set_from_start(from_start);
    match start_ply {
        0 => tracker,
        ply => tracker.with_start_ply(ply),
    }
}

impl Recorded for Position {
    #[inline(always)]
    fn start(r: &mut GameReport) -> &mut Option<Self> {
        &mut r.start
    }
    #[inline(always)]
    fn end(r: &mut GameReport) -> &mut Option<Self> {
        &mut r.end
    }
    #[inline(always)]
    fn mainline(r: &mut GameReport) -> &mut Vec<Ply<Self>> {
        &mut r.mainline
    }
    #[inline(always)]
    fn positions(r: &mut GameReport) -> &mut Vec<(u32, Self)> {
        &mut r.positions
    }
    #[inline(always)]
    fn move_infos(r: &mut GameReport) -> &mut Vec<Option<MoveInfo<Self>>> {
        &mut r.moves
    }
    fn draw_tracker(
        &self,
        reuse: Option<DrawTracker>,
        edition: Edition,
        first_move_number: u32,
        start: (u32, bool),
    ) -> Option<DrawTracker> {
        let view = draw_view(self);
        let first = (Color::White, first_move_number);
        Some(started(reuse, edition, view, first, start))
    }
    #[inline(always)]
    fn follow(
        tracker: Option<&mut DrawTracker>,
        before: &Self,
        mv: &Move,
        after: &Self,
    ) -> Option<bool> {
        follow_ply(tracker, before, mv, after)
    }
}

impl Recorded for VariantPosition {
    fn start(r: &mut GameReport) -> &mut Option<Self> {
        &mut r.variant_line.start
    }
    fn end(r: &mut GameReport) -> &mut Option<Self> {
        &mut r.variant_line.end
    }
    fn mainline(r: &mut GameReport) -> &mut Vec<Ply<Self>> {
        &mut r.variant_line.mainline
    }
    fn positions(r: &mut GameReport) -> &mut Vec<(u32, Self)> {
        &mut r.variant_line.positions
    }
    fn move_infos(r: &mut GameReport) -> &mut Vec<Option<MoveInfo<Self>>> {
        &mut r.variant_line.moves
    }
    /// A variant's games are judged by its federation's draw rules, where pdnkit knows
    /// them ([`Edition::of_variant`]).
    fn draw_tracker(
        &self,
        reuse: Option<DrawTracker>,
        russian: Edition,
        first_move_number: u32,
        start: (u32, bool),
    ) -> Option<DrawTracker> {
        let edition = Edition::of_variant(self.variant(), russian)?;
        let view = variant_draw_view(self);
        let first = (self.first_to_move(), first_move_number);
        Some(started(reuse, edition, view, first, start))
    }
    fn follow(
        tracker: Option<&mut DrawTracker>,
        before: &Self,
        mv: &Self::Move,
        after: &Self,
    ) -> Option<bool> {
        follow_variant_ply(tracker?, before, mv, after);
        None
    }
}

impl GameReport {
    /// The decoded value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Whether some syntax error is of error severity.
    pub fn has_syntax_errors(&self) -> bool {
        self.syntax_errors
            .iter()
            .any(|e| codes::of_read_error(e.kind).severity == crate::diag::Severity::Error)
    }

    /// Whether the game counts as replayed: its main line replayed completely and no
    /// syntax error of error severity.
    pub fn replayed(&self) -> bool {
        self.status == Status::Complete && !self.has_syntax_errors()
    }

    /// The position the main line starts from, of whichever variant (once set up).
    pub fn any_start(&self) -> Option<AnyPosition> {
        (self.start.map(AnyPosition::Russian)).or_else(|| self.variant_line.start.map(|p| p.any()))
    }

    /// The main-line plies kept ([`Keep::plies`]), of whichever variant, as boards draw
    /// them.
    pub fn drawn_plies(&self) -> Vec<DrawnPly> {
        fn drawn<P: Playable>(p: &Ply<P>, squares: Vec<Coord>) -> DrawnPly {
            DrawnPly {
                after: p.after.any(),
                squares,
                move_number: p.move_number,
                side: p.side,
                written: p.written.clone(),
                second: second_to_move(&p.before),
            }
        }
        let russian = (self.mainline.iter())
            .map(|p| drawn(p, crate::diagram::move_squares(&p.before, &p.mv)));
        let other = (self.variant_line.mainline.iter())
            .map(|p| drawn(p, crate::diagram::variant_move_squares(&p.before, &p.mv)));
        russian.chain(other).collect()
    }
}

/// An event of the reader kept while a line waits to be played on (see the module
/// documentation).
#[derive(Clone, Debug)]
enum Event {
    Number(MoveNumber, Span),
    Move(CompactString, Span),
    Setup(String, Span),
    Begin,
    End,
}

/// Why the checker keeps events instead of playing them.
#[derive(Clone, Copy, Debug)]
enum Wait {
    /// An ambiguous move of the line at this depth of the line stack: until the line ends.
    Ambiguous { depth: usize },
    /// A variation written before the first move of the line at this depth, which starts
    /// where that move is played: until that move (or the line's end).
    Leading { depth: usize },
}

/// A line being replayed.
#[derive(Clone, Debug)]
struct Frame<P: Playable> {
    /// The position before the next move, and its full-move number (meaningless until
    /// it is set up).
    pos: P,
    move_number: u32,
    /// Whether the line is followed, and how far.
    state: LineState,
    /// A move number waiting for its move.
    number: Option<(MoveNumber, Span)>,
    /// The number and side of the last move as written or inferred (for a setup's side).
    last_written: Option<(u32, Color)>,
    /// Of a variation: the number and side of the move it replaces.
    replaces: Option<(u32, Color)>,
    /// Of a variation: the move it is an alternative to (position before, after if it
    /// was played, its number).
    alternative_to: Option<(P, Option<P>, u32)>,
    /// The last move of the line, where its variations start: the position before it,
    /// its number, and whether it was played (then `pos` is the position after it).
    last: Option<(P, u32, bool)>,
    /// Moves read in this line.
    moves: u32,
    /// Setup commands waiting for the next move.
    setups: Vec<(String, Span)>,
    /// `pos.has_captures()`, when already known.
    captures: Option<bool>,
    /// An ambiguous move of this line waiting for the rest of the line.
    ambiguous: Option<Box<Ambiguous<P>>>,
}

/// Where a line's replay stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineState {
    /// Not set up yet (before its first move).
    Unstarted,
    /// Set up, every move so far played.
    Playing,
    /// Stopped at a bad move; how many moves were read after it.
    Stopped(u32),
    /// Its events are not followed (a variation of a move after a stop, or of a main line
    /// that could not be set up).
    Ignored,
}

/// An ambiguous move and where it was written.
#[derive(Clone, Debug)]
struct Ambiguous<P: Playable> {
    /// The position before it.
    before: P,
    candidates: Vec<P::Move>,
    text: CompactString,
    span: Span,
    /// Its main-line ply.
    ply: Option<u32>,
}

impl<P: Playable> Frame<P> {
    fn new(start: P, alternative_to: Option<(P, Option<P>, u32)>) -> Frame<P> {
        Frame {
            pos: start,
            move_number: 1,
            state: LineState::Unstarted,
            number: None,
            last_written: None,
            replaces: None,
            alternative_to,
            last: None,
            moves: 0,
            setups: Vec::new(),
            captures: None,
            ambiguous: None,
        }
    }

    /// A line whose events are not followed.
    fn ignored(start: P) -> Frame<P> {
        Frame {
            state: LineState::Ignored,
            ..Frame::new(start, None)
        }
    }

    /// The number and side of the next move, written with `number` (or not), as written or
    /// inferred (as the game tree infers them): White for `N.`, Black for `N...`, which in
    /// a variant where Black moves first name the other sides ([`side_written`]).
    #[inline(always)]
    fn next_written_after(&self, number: Option<(MoveNumber, Span)>) -> Option<(u32, Color)> {
        if let Some((n, _)) = number {
            let side = if n.black { Color::Black } else { Color::White };
            return Some((n.number, side));
        }
        match self.last_written {
            Some((n, Color::White)) => Some((n, Color::Black)),
            Some((n, Color::Black)) => Some((n.saturating_add(1), Color::White)),
            None if self.moves == 0 => self.replaces,
            None => None,
        }
    }
}

/// How many candidates of an ambiguous move the look-ahead may branch into, level by level
/// (each level multiplies the work; real games have one ambiguity in hundreds).
const LOOKAHEAD_AMBIGUITIES: u32 = 4;

/// What a repair may try for one game: candidates (the legal moves where the main line
/// stopped) times the plies after the stop each is replayed against. Past it the
/// candidates are tried against fewer plies, which can only leave more of them fitting
/// (and so no repair), never a wrong one.
pub const REPAIR_BUDGET: usize = 20_000;

/// Where the main line stopped at a move that names squares but is not legal there (or
/// names a square off the board): what a repair needs.
#[derive(Clone, Debug)]
struct MainStop<P> {
    before: P,
    text: CompactString,
    span: Span,
}

/// Replays games as they are read; see the module documentation. One per thread: it
/// keeps its buffers from game to game.
///
/// It reads the tags of every game with the replayer of Russian positions, which knows
/// once they are read which variant the game is of; the movetext of a game of another
/// variant goes to the replayer of [`VariantPosition`]s, the same code made for them.
pub struct Checker {
    russian: Replayer<Position>,
    other: Replayer<VariantPosition>,
    /// The game being read is replayed by `other` (which holds its report).
    on_other: bool,
    builder: Option<GameBuilder>,
    /// The game just read showed, by a square of its moves, that it is of a larger board's
    /// variant: it is to be read again as that one.
    again: Option<Guess>,
    /// The variant the game being read is replayed as, its tags not saying it.
    guessed: Option<Guess>,
}

/// Why a game is not replayed (`V101`), and where.
type Unsupported = (String, Option<Span>);

/// The variant a game is replayed as, how its moves are written, and what is said of the
/// choice.
struct Chosen {
    variant: Variant,
    dialect: Dialect,
    /// The variant was guessed (`V102`).
    guess: Option<Guess>,
    /// The GameType's fields are not PDN's or are not all followed (`V103`): words, and
    /// the tag's place.
    fields: Option<(String, Span)>,
}

impl Chosen {
    /// `variant`, as said by `--variant`, a tag, or nothing (Russian), written as PDN's
    /// GameType table gives it.
    fn said(variant: Variant) -> Chosen {
        Chosen {
            variant,
            dialect: variant.dialect(),
            guess: None,
            fields: None,
        }
    }
}

/// How a game of `variant` whose GameType value is `value` is written, and V103's words
/// when its fields are not PDN's or say what pdnkit does not follow.
fn written_as(variant: Variant, value: &str) -> (Dialect, Option<String>) {
    let standard = variant.dialect();
    // (the words are made only for a finding: most games say their GameType's number only)
    let name = || variant_name(&variant.game_type().to_string());
    let table = || variant.game_type_value();
    match game_type::parse(value) {
        // (an empty value is Russian's, as no GameType is: nothing to say of fields)
        Ok(GameType { fields: None, .. }) | Err(game_type::GameTypeError::NoNumber) => {
            (standard, None)
        }
        Ok(GameType {
            fields: Some(fields),
            ..
        }) => {
            let (dialect, unfollowed) = game_type::dialect_of(variant, &fields);
            let words = (!unfollowed.is_empty()).then(|| {
                format!(
                    "GameType \"{value}\" is not followed in full: {}; the game is replayed as {}, those fields as PDN's `{}` has them",
                    unfollowed.join("; "),
                    name(),
                    table()
                )
            });
            (dialect, words)
        }
        Err(_) => (
            standard,
            Some(format!(
                "GameType \"{value}\": the fields after the number are not PDN's (`Type,StartColour,Width,Height,Notation[,Invert]`); only the number is read, and the game is replayed as {} written as PDN's `{}`",
                name(),
                table()
            )),
        ),
    }
}

/// The variant a game that does not say its own is replayed as, and why (`V102`).
#[derive(Clone, Debug)]
struct Guess {
    variant: Variant,
    message: String,
    span: Span,
}

impl Checker {
    /// A checker with these options, keeping `keep` of each game.
    pub fn new(options: ReplayOptions, keep: Keep) -> Checker {
        Checker {
            russian: Replayer::new(options, keep),
            other: Replayer::new(options, keep),
            on_other: false,
            builder: keep.tree.then(GameBuilder::default),
            again: None,
            guessed: None,
        }
    }

    /// The report of the last game read.
    pub fn report(&self) -> &GameReport {
        match self.on_other {
            false => &self.russian.report,
            true => &self.other.report,
        }
    }

    /// The report of the last game read, to take things from.
    pub fn report_mut(&mut self) -> &mut GameReport {
        match self.on_other {
            false => &mut self.russian.report,
            true => &mut self.other.report,
        }
    }

    /// The options games are checked with.
    pub fn options(&self) -> &ReplayOptions {
        &self.russian.options
    }

    /// Reads the next game of `reader` and checks it, as [`Reader::read_game`] does. A
    /// game that does not say its variant and whose moves name a square beyond the Russian
    /// board is read again as the variant of that board (most likely International), with
    /// a finding that says so.
    pub fn read_game<R: std::io::Read>(
        &mut self,
        reader: &mut Reader<R>,
    ) -> Option<Result<(), ReadError>> {
        let item = reader.read_game(self)?;
        if let (Ok(()), Some(guess)) = (&item, self.again.take()) {
            let source = reader.game();
            // (text before the tags would be read as a game of its own)
            if source.stray_prefix == 0 {
                self.guessed = Some(guess);
                crate::pdn::visit_text(source.text, self);
                self.guessed = None;
            }
        }
        Some(item)
    }
}

/// The replay of games on positions of type `P`: Russian's own, or any variant's.
struct Replayer<P: Recorded> {
    options: ReplayOptions,
    keep: Keep,
    report: GameReport,
    /// The variant whose rules the game is replayed by.
    variant: Variant,
    /// How the game is written: who moves first, how the squares are numbered.
    dialect: Dialect,
    /// The lines being read: the main line first, then the variations open in it.
    lines: Vec<Frame<P>>,
    tracker: Option<DrawTracker>,
    wait: Option<Wait>,
    log: Vec<Event>,
    /// The tags read so far, checked.
    tag_check: TagCheck,
    /// The main line is set up (or could not be: `report.status` says why).
    main_set_up: bool,
    /// `report.end` is the main line's position (set when the game ends: a ply does not
    /// copy it out).
    end_at_main: bool,
    /// The main line stopped at an illegal move (for a repair, when the game ends).
    main_stop: Option<Box<MainStop<P>>>,
    /// A finding of the moves, results or draws not reported was an error: noted in the
    /// report when the game ends, unless the game turns out to be of another variant (its
    /// findings as Russian go, reported or not).
    replay_error_unreported: bool,
    /// A move named a square of a larger board, in a game that does not say its variant:
    /// the variant of that board.
    larger_board: Option<Guess>,
    /// The game's GameType names a game pdnkit has no rules for: V101's words and where
    /// (decided once its tags are read, [`Checker::choose_variant`]).
    unsupported: Option<Unsupported>,
}

impl<P: Recorded> Replayer<P> {
    fn new(options: ReplayOptions, keep: Keep) -> Replayer<P> {
        Replayer {
            options,
            keep,
            report: GameReport::default(),
            variant: Variant::Russian,
            dialect: Variant::Russian.dialect(),
            lines: Vec::new(),
            tracker: None,
            wait: None,
            log: Vec::new(),
            tag_check: TagCheck::default(),
            main_set_up: false,
            end_at_main: false,
            main_stop: None,
            replay_error_unreported: false,
            larger_board: None,
            unsupported: None,
        }
    }

    /// The start position of the variant (where a line not yet set up stands).
    #[inline(always)]
    fn start(&self) -> P {
        P::start_of(self.variant, self.dialect)
    }

    /// Whether a finding of `rule` is made (notes it when it is an error that is not).
    fn keeps(&mut self, rule: &'static Rule) -> bool {
        let keep = self.options.report.contains(rule);
        let unreported = !keep && rule.severity == crate::diag::Severity::Error;
        match rule.code.as_bytes()[0] {
            b'M' | b'R' | b'D' => self.replay_error_unreported |= unreported,
            _ => self.report.unreported_errors |= unreported,
        }
        keep
    }

    fn finding(&mut self, f: Finding) {
        if self.keeps(f.rule) {
            self.report.findings.push(f);
        }
    }

    /// A finding about tag `i` (`None`: the whole tag section): made, or past the limit
    /// only counted.
    fn tag_finding(
        &mut self,
        rule: &'static Rule,
        i: Option<usize>,
        message: impl FnOnce() -> String,
    ) {
        if !self.options.report.contains(rule) {
            return;
        }
        if i.is_some() && self.report.tag_findings.len() > super::MAX_GAME_FINDINGS {
            self.report.tags_unmade.findings += 1;
            self.report.tags_unmade.errors +=
                usize::from(rule.severity == crate::diag::Severity::Error);
            return;
        }
        let span = i.map(|i| self.report.tags[i].span);
        self.report
            .tag_findings
            .push(Finding::new(rule, message(), span));
    }

    /// Checks the tag just read (the last of `report.tags`).
    fn check_tag(&mut self) {
        if !self.options.report.meets(&super::tags::RULES) {
            return;
        }
        let i = self.report.tags.len() - 1;
        if let Some(issue) = self.tag_check.check(&self.report.tags) {
            let tags = &self.report.tags;
            let first = match issue {
                TagIssue::Duplicate(first) => tags[first].value.as_str(),
                _ => "",
            };
            let (name, value) = (tags[i].name.as_str(), tags[i].value.as_str());
            // (made only when it is reported and shown: past the limit a game's findings
            // are counted, and one not shown needs no words)
            let made_in_full = self.options.shows(issue.rule())
                && self.options.report.contains(issue.rule())
                && self.report.tag_findings.len() <= super::MAX_GAME_FINDINGS;
            // (a date's PDN form is read once, for the message and the fix)
            let form = (made_in_full && issue == TagIssue::NonstandardDate)
                .then(|| crate::date::pdn_form(value))
                .flatten();
            let message = made_in_full.then(|| issue.message(name, value, first, form.as_ref()));
            let made = self.report.tag_findings.len();
            self.tag_finding(issue.rule(), Some(i), || message.unwrap_or_default());
            if let Some(form) = form.filter(|_| self.report.tag_findings.len() > made) {
                self.date_fix(i, form);
            }
        }
    }

    /// The fix of a nonstandard-date finding (the last tag finding, about tag `i`): the
    /// value in PDN's form, unsafe when its day and month could be either way round.
    fn date_fix(&mut self, i: usize, form: crate::date::PdnForm) {
        let (applicability, message) = match form.certain {
            true => (
                Applicability::Safe,
                format!("write the date as {}", form.text),
            ),
            false => (
                Applicability::Unsafe,
                format!("write the date as {}, reading the day first", form.text),
            ),
        };
        let span = self.report.tags[i].value_span;
        if let Some(f) = self.report.tag_findings.last_mut() {
            f.fix = Some(Box::new(Proposal::replace(
                applicability,
                message,
                span,
                form.text,
            )));
        }
    }

    /// Sets up the main line (once): its start position and first move number, the draw
    /// tracker. `first` is the number written before its first move.
    fn set_up_main(&mut self, first: Option<MoveNumber>) {
        if self.main_set_up {
            return;
        }
        self.main_set_up = true;
        if let Some((message, span)) = self.unsupported.take() {
            self.finding(Finding::new(&codes::UNSUPPORTED_VARIANT, message, span));
            self.report.status = Status::Unsupported;
            self.lines[0].state = LineState::Ignored;
            return;
        }
        let noted = self.tag_check.noted();
        let fen = noted.fen.map(|i| &self.report.tags[i]);
        let fen_span = fen.map(|t| t.span);
        let fen = fen.map(|t| t.value.as_str());
        let (start, number) = match start_of::<P>(fen, self.variant, self.dialect, first) {
            Ok(start) => start,
            Err(message) => {
                self.finding(Finding::new(&codes::INVALID_FEN, message, fen_span));
                self.report.status = Status::InvalidSetup;
                self.lines[0].state = LineState::Ignored;
                return;
            }
        };
        *P::start(&mut self.report) = Some(start);
        if self.keep.positions {
            P::positions(&mut self.report).push((0, start));
        }
        self.end_at_main = true;
        self.report.first_move_number = number;
        let from_start = start == self.start() && number == 1;
        let edition = self.options.edition;
        self.tracker = start.draw_tracker(self.tracker.take(), edition, number, (0, from_start));
        let main = &mut self.lines[0];
        main.pos = start;
        main.move_number = number;
        main.state = LineState::Playing;
    }

    /// The variant the game's tags say it is of (its GameType, else its Variant tag, else
    /// a FEN tag naming a square beyond the Russian board: then guessed, V102),
    /// `--variant` whatever they say, Russian when nothing does; or V101's words, and
    /// where, for a variant pdnkit does not replay.
    fn chosen_variant(&self) -> Result<Chosen, Unsupported> {
        let noted = self.tag_check.noted();
        let tag = |i: Option<usize>| i.map(|i| &self.report.tags[i]);
        if let Some(v) = self.options.variant {
            // (a GameType of the variant forced still says how the game is written)
            let game_type = tag(noted.game_type).filter(|t| variant_for(Some(&t.value)) == Ok(v));
            return Ok(match game_type {
                Some(t) => Chosen {
                    dialect: written_as(v, &t.value).0,
                    ..Chosen::said(v)
                },
                None => Chosen::said(v),
            });
        }
        let not_replayed =
            "the game is read but not replayed (--variant NAME replays it by a variant's rules)";
        if let Some(t) = tag(noted.game_type) {
            let variant = variant_for(Some(&t.value)).map_err(|number| {
                let name = variant_name(&number);
                let message = format!("GameType {number} ({name}) is not replayed; {not_replayed}");
                (message, Some(t.span))
            });
            let variant = variant?;
            let (dialect, fields) = written_as(variant, &t.value);
            return Ok(Chosen {
                variant,
                dialect,
                guess: None,
                fields: fields.map(|message| (message, t.span)),
            });
        }
        if let Some(t) = tag(noted.variant) {
            if let Some(v) = (game_type_of_variant(&t.value))
                .and_then(|n| Variant::from_game_type(n.parse().ok()?))
            {
                return Ok(Chosen::said(v));
            }
        }
        let fen = tag(noted.fen);
        let larger = fen.and_then(|fen| Some((fen, larger_board_of_fen(&fen.value)?)));
        let Some((fen, (square, number))) = larger else {
            return Ok(Chosen::said(Variant::Russian));
        };
        let variant =
            Variant::from_game_type(number.parse().unwrap_or(20)).unwrap_or(Variant::International);
        let message = format!(
            "the game does not say its variant, and its FEN names square {square}, beyond the board of Russian draughts: it is replayed as {} (a GameType tag such as \"{number}\" says so)",
            variant_name(number)
        );
        let span = fen.span;
        Ok(Chosen {
            guess: Some(Guess {
                variant,
                message,
                span,
            }),
            ..Chosen::said(variant)
        })
    }

    /// Whether the game leaves its variant to be guessed: no GameType, no Variant tag that
    /// names a variant, no `--variant`.
    fn variant_unsaid(&self) -> bool {
        let noted = self.tag_check.noted();
        let variant_tag = noted.variant.map(|i| self.report.tags[i].value.as_str());
        self.options.variant.is_none()
            && noted.game_type.is_none()
            && variant_tag.and_then(game_type_of_variant).is_none()
    }

    /// Whether a main-line move naming `square` shows the game to be of a larger board: a
    /// square of one, in a game replayed as Russian because it says no variant, whose
    /// main line replayed no move (every move of another board's game fails at once as
    /// Russian; after Russian moves it is a slip, an unreadable move).
    fn guesses_from(&self, square: FenSquare) -> bool {
        self.variant == Variant::Russian
            && self.report.plies == 0
            && larger_board(square).is_some()
            && self.variant_unsaid()
    }

    /// What V101 says of a game that names `square`, beyond the Russian board, when it
    /// cannot be read again as the variant of that board.
    fn larger_board_message(what: &str, square: FenSquare, number: &str) -> String {
        format!(
            "{what} names square {square}, which is not on the board of Russian draughts: most likely {} (a GameType tag such as \"{number}\" says which variant); the game is read but not replayed (--variant NAME replays it by a variant's rules)",
            variant_name(number)
        )
    }

    /// A move named `square`, beyond the Russian board, in a game that does not say its
    /// variant: it is of another one (most likely of the board of GameType `number`). What
    /// was found of its moves as Russian goes; the game is not replayed further here, and
    /// the [`Checker`] reads it again as that variant.
    fn of_a_larger_board(&mut self, text: &str, span: Span, square: FenSquare) {
        let r = &mut self.report;
        r.findings
            .retain(|f| !matches!(f.rule.code.as_bytes()[0], b'M' | b'R' | b'D'));
        self.replay_error_unreported = false;
        // (the moves played as Russian are moves written, as those of any game not replayed)
        let later = std::mem::take(&mut r.unplayed);
        let played = P::mainline(r).drain(..).map(|p| p.written);
        let unplayed = played.chain(later).collect();
        r.unplayed = unplayed;
        P::positions(r).clear();
        P::move_infos(r).iter_mut().for_each(|m| *m = None);
        r.main_spans.clear();
        (r.plies, r.status) = (0, Status::Unsupported);
        (*P::start(r), *P::end(r)) = (None, None);
        self.end_at_main = false;
        self.wait = None;
        self.log.clear();
        self.lines
            .iter_mut()
            .for_each(|f| f.state = LineState::Ignored);
        let number = larger_board(square).unwrap_or("20");
        let variant =
            Variant::from_game_type(number.parse().unwrap_or(20)).unwrap_or(Variant::International);
        let guess = format!(
            "the game does not say its variant, and move `{text}` names square {square}, beyond the board of Russian draughts: it is replayed as {} (a GameType tag such as \"{number}\" says so)",
            variant_name(number)
        );
        self.larger_board = Some(Guess {
            variant,
            message: guess,
            span,
        });
        let message = Self::larger_board_message(&format!("move `{text}`"), square, number);
        self.finding(Finding::new(
            &codes::UNSUPPORTED_VARIANT,
            message,
            Some(span),
        ));
    }

    /// The nesting of the variations kept in the log (open ones count).
    fn log_depth(&self) -> i64 {
        (self.log.iter())
            .map(|e| match e {
                Event::Begin => 1,
                Event::End => -1,
                _ => 0,
            })
            .sum()
    }

    /// Keeps `event` while the checker waits (see [`Wait`]); `false` when it is to be
    /// played now. A move or the end of the line waited on for its first move ends the
    /// wait first.
    fn kept(&mut self, event: impl FnOnce() -> Event) -> bool {
        let Some(wait) = self.wait else {
            return false;
        };
        if let Wait::Leading { depth } = wait {
            if self.log_depth() == 0 && self.lines.len() - 1 == depth {
                match event() {
                    e @ Event::Begin => self.log.push(e),
                    // (the line's own number and setups, before its first move)
                    Event::Number(..) | Event::Setup(..) => return false,
                    Event::Move(..) | Event::End => {
                        self.resume(wait);
                        return false;
                    }
                }
                return true;
            }
        }
        self.log.push(event());
        true
    }

    /// The wait is over: decides what it waited for, then plays the kept events.
    fn resume(&mut self, wait: Wait) {
        self.wait = None;
        match wait {
            Wait::Ambiguous { depth } => self.decide_ambiguous(depth),
            Wait::Leading { depth } => {
                let first = self.lines[depth].number.map(|(n, _)| n);
                if depth == 0 {
                    self.set_up_main(first);
                } else {
                    self.start_variation(depth, first);
                }
            }
        }
        let log = std::mem::take(&mut self.log);
        for e in log {
            match e {
                Event::Number(n, span) => self.number(n, span),
                Event::Move(text, span) => self.play(&text, span, None),
                Event::Setup(fen, span) => self.setup_command(fen, span),
                Event::Begin => self.begin(),
                Event::End => self.end(),
            }
        }
    }

    #[inline(always)]
    fn number(&mut self, n: MoveNumber, span: Span) {
        // (most numbers: nothing waits)
        if self.wait.is_some() && self.kept(|| Event::Number(n, span)) {
            return;
        }
        if let Some(f) = self.lines.last_mut() {
            f.number = Some((n, span));
        }
    }

    fn setup_command(&mut self, fen: String, span: Span) {
        if self.kept(|| Event::Setup(fen.clone(), span)) {
            return;
        }
        if let Some(f) = self.lines.last_mut() {
            f.setups.push((fen, span));
        }
    }

    fn begin(&mut self) {
        if self.kept(|| Event::Begin) {
            return;
        }
        let depth = self.lines.len() - 1;
        let f = &self.lines[depth];
        let frame = if matches!(f.state, LineState::Ignored | LineState::Stopped(1..)) {
            // (a variation of a move after the line stopped is not followed)
            Frame::ignored(self.start())
        } else if f.moves == 0 {
            // written before the line's first move: it starts where that move does
            if f.state == LineState::Unstarted {
                self.wait = Some(Wait::Leading { depth });
                self.log.push(Event::Begin);
                return;
            }
            Frame {
                pos: f.pos,
                move_number: f.move_number,
                state: LineState::Playing,
                ..Frame::new(f.pos, None)
            }
        } else {
            let alternative_to =
                (f.last).map(|(before, number, played)| (before, played.then_some(f.pos), number));
            Frame {
                replaces: f.last_written,
                ..Frame::new(f.pos, alternative_to)
            }
        };
        self.lines.push(frame);
    }

    fn end(&mut self) {
        if let Some(wait @ Wait::Ambiguous { depth }) = self.wait {
            if self.log_depth() == 0 && self.lines.len() - 1 == depth {
                // the line waited on ends: decide, play it on, then end it
                self.resume(wait);
                self.end();
                return;
            }
        }
        if self.kept(|| Event::End) {
            return;
        }
        if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    /// Sets up the variation at `depth` before its first move (written with `first`).
    fn start_variation(&mut self, depth: usize, first: Option<MoveNumber>) {
        let f = &mut self.lines[depth];
        if f.state != LineState::Unstarted {
            return;
        }
        match f.alternative_to {
            Some((before, after, number)) => {
                (f.pos, f.move_number) = variation_start_numbered(first, before, after, number);
                f.state = LineState::Playing;
            }
            None => f.state = LineState::Ignored,
        }
    }

    /// The rest of the line at `depth` is read: decides its ambiguous move by it.
    fn decide_ambiguous(&mut self, depth: usize) {
        let Some(amb) = self.lines[depth].ambiguous.take() else {
            return;
        };
        // the moves of the rest of this line (its variations apart), each with whether a
        // setup command comes before it
        let mut rest: Vec<(CompactString, bool)> = Vec::new();
        let (mut nesting, mut setup) = (0i64, false);
        for e in &self.log {
            match e {
                Event::Begin => nesting += 1,
                Event::End => nesting -= 1,
                Event::Setup(..) if nesting == 0 => setup = true,
                Event::Move(text, _) if nesting == 0 => {
                    rest.push((text.clone(), setup));
                    setup = false;
                }
                _ => {}
            }
        }
        let pos = amb.before;
        let fitting: Vec<P::Move> = (amb.candidates.iter().copied())
            .filter(|c| replays_legally(&pos.then(c), &rest, LOOKAHEAD_AMBIGUITIES))
            .collect();
        let names: Vec<String> = amb.candidates.iter().map(|c| pos.full(c)).collect();
        let finding = |rule: &'static Rule, message: String| {
            let mut f = Finding::new(rule, message, Some(amb.span));
            f.move_text = Some(amb.text.to_string());
            f.ply = amb.ply;
            f
        };
        if let [only] = fitting[..] {
            let message = format!(
                "`{}` could be {}; only {} fits the rest of the game",
                amb.text,
                names.join(" or "),
                pos.full(&only)
            );
            let mut f = finding(&codes::AMBIGUOUS_MOVE_RESOLVED, message);
            f.fix = naming_uniquely(&pos, &only, &amb.text).map(|named| {
                Box::new(Proposal::replace(
                    Applicability::Unsafe,
                    format!(
                        "write `{}` as `{named}`, the capture the rest of the game needs",
                        amb.text
                    ),
                    amb.span,
                    named,
                ))
            });
            self.finding(f);
            self.played(depth, &amb.text, amb.span, Some(only), false);
        } else {
            let why = if fitting.is_empty() {
                "none of them fits the rest of the game".to_string()
            } else {
                format!("{} of them fit the rest of the game", fitting.len())
            };
            let message = format!("`{}` could be {}; {why}", amb.text, names.join(" or "));
            let mut f = finding(&codes::AMBIGUOUS_MOVE, message);
            f.board = Some(pos.any());
            self.finding(f);
            self.played(depth, &amb.text, amb.span, None, false);
        }
    }

    /// Plays the move `text` written at `span` in the current line (`squares`: its
    /// squares, when the reader read them).
    #[inline(always)]
    fn play(&mut self, text: &str, span: Span, squares: Option<PlainSquares>) {
        // most moves: in a line that is set up and goes on, with nothing before them
        let depth = self.lines.len() - 1;
        let f = &mut self.lines[depth];
        if self.wait.is_none() && f.state == LineState::Playing && f.setups.is_empty() {
            let number = f.number.take();
            f.last_written = f.next_written_after(number);
            if depth == 0 {
                self.report.written_plies += 1;
            }
            return self.resolve_and_play(depth, text, span, squares, number);
        }
        self.play_slowly(text, span, squares);
    }

    /// [`play`](Self::play) for any move: kept while waiting, the line set up first, a
    /// stopped line's move skipped, setups applied.
    #[cold]
    #[inline(never)]
    fn play_slowly(&mut self, text: &str, span: Span, squares: Option<PlainSquares>) {
        if self.kept(|| Event::Move(text.into(), span)) {
            return;
        }
        let depth = self.lines.len() - 1;
        if depth == 0 {
            self.report.written_plies += 1;
        }
        let f = &mut self.lines[depth];
        let number = f.number.take();
        let written = f.next_written_after(number);
        f.last_written = written;
        if f.state == LineState::Unstarted {
            if depth == 0 {
                self.set_up_main(number.map(|(n, _)| n));
            } else {
                self.start_variation(depth, number.map(|(n, _)| n));
            }
        }
        let f = &mut self.lines[depth];
        if matches!(f.state, LineState::Ignored | LineState::Stopped(_)) {
            return self.skip_move(depth, text, span);
        }
        // setup commands before this move re-set the position
        // (the side a number names: `N.` the variant's first to move, `N...` the other)
        let side =
            written.map(|(_, side)| side_written(self.dialect.first(), side == Color::Black));
        if !f.setups.is_empty() && !self.apply_setups(depth, side) {
            return self.skip_move(depth, text, span);
        }
        self.resolve_and_play(depth, text, span, squares, number);
    }

    /// Resolves the move `text` in the line at `depth` (which is set up) and plays it, or
    /// says why not.
    #[inline(always)]
    fn resolve_and_play(
        &mut self,
        depth: usize,
        text: &str,
        span: Span,
        squares: Option<PlainSquares>,
        number: Option<(MoveNumber, Span)>,
    ) {
        let f = &mut self.lines[depth];
        let (pos, expected) = (f.pos, f.move_number);
        let captures = f.captures.take();
        let ply = (depth == 0).then_some(self.report.plies + 1);
        if let Some((n, number_span)) = number {
            if !number_fits(n, &pos, expected) {
                self.wrong_number(n, number_span, text, &pos, expected, ply);
            }
        }
        // the ordinary writing of a legal move (most moves), played at once
        if let Some(mv) = pos.read_plain(text, squares, captures) {
            if self.options.captures.is_some() && P::captures(&mv) {
                self.capture_route(&pos, &mv, text, span, ply);
            }
            return self.advance(depth, pos, expected, mv, text, span, true);
        }
        let named = pos.read(text, captures);
        self.resolve_hard(depth, text, span, pos, named, ply);
    }

    /// Plays a move that is not the ordinary writing of a legal move, as `named` says (a
    /// capture written with more squares, say), or says why it cannot: a placeholder, an
    /// unreadable, illegal or ambiguous move, a separator that does not fit.
    #[cold]
    #[inline(never)]
    fn resolve_hard(
        &mut self,
        depth: usize,
        text: &str,
        span: Span,
        pos: P,
        named: Result<Named<P>, ParseMoveError>,
        ply: Option<u32>,
    ) {
        let finding = |rule: &'static Rule, message: String| {
            let mut f = Finding::new(rule, message, Some(span));
            f.move_text = Some(text.to_string());
            f.ply = ply;
            f
        };
        if is_placeholder(text) {
            let message =
                "placeholder for an unknown move; the rest of this line cannot be replayed";
            self.finding(finding(&codes::PLACEHOLDER_MOVE, message.into()));
            let replaying = self.report.status == Status::Complete;
            self.played(depth, text, span, None, false);
            if replaying && self.report.status == Status::Illegal {
                self.report.status = Status::Placeholder;
            }
            return;
        }
        let named = match named {
            Ok(named) => named,
            Err(e) => {
                let message = format!("cannot read move `{text}`: {e}");
                self.finding(finding(&codes::UNREADABLE_MOVE, message));
                return self.played(depth, text, span, None, false);
            }
        };
        match named {
            Named::Unique {
                mv,
                separator_mismatch,
                named_by_ends,
            } => {
                let capture = P::captures(&mv);
                if separator_mismatch {
                    let what = if capture {
                        "a capture written with `-`"
                    } else {
                        "a quiet move written with a capture separator"
                    };
                    let message = format!("`{text}` is {what}; read as {}", pos.full(&mv));
                    let mut f = finding(&codes::CAPTURE_WRITTEN_AS_MOVE, message);
                    let mended = with_separators_of(text, capture, self.variant);
                    f.fix = Some(Box::new(Proposal::replace(
                        Applicability::Safe,
                        format!("write `{text}` as `{mended}`"),
                        span,
                        mended,
                    )));
                    self.finding(f);
                }
                if self.options.captures.is_some() && capture {
                    self.capture_route(&pos, &mv, text, span, ply);
                }
                self.played(depth, text, span, Some(mv), named_by_ends);
            }
            // a square of a larger board, in a game that does not say its variant
            Named::OffBoard(square) if depth == 0 && self.guesses_from(square) => {
                self.of_a_larger_board(text, span, square);
                self.skip_move(depth, text, span);
            }
            // a square that is no square of the board: the move cannot be read
            Named::OffBoard(square) | Named::LightSquare(square) => {
                let why = match named {
                    Named::OffBoard(_) => "is not on the board",
                    _ => "is a light square",
                };
                let message = format!("cannot read move `{text}`: square {square} {why}");
                self.finding(finding(&codes::UNREADABLE_MOVE, message));
                self.stopped_at(depth, pos, text, span);
                self.played(depth, text, span, None, false);
            }
            Named::Illegal(why) => {
                let message = format!("`{text}` is illegal: {why}");
                let mut f = finding(&codes::ILLEGAL_MOVE, message);
                f.board = Some(pos.any());
                self.finding(f);
                self.stopped_at(depth, pos, text, span);
                self.played(depth, text, span, None, false);
            }
            Named::Ambiguous(candidates) => {
                // decided once the rest of the line is read
                self.lines[depth].ambiguous = Some(Box::new(Ambiguous {
                    before: pos,
                    candidates,
                    text: text.into(),
                    span,
                    ply,
                }));
                self.wait = Some(Wait::Ambiguous { depth });
            }
        }
    }

    /// Applies the setup commands waiting in the line at `depth` before its next move
    /// (played by `side`, when its number says so); `false` when one cannot be set up
    /// (the line stops).
    fn apply_setups(&mut self, depth: usize, side: Option<Color>) -> bool {
        let setups = std::mem::take(&mut self.lines[depth].setups);
        for (fen, setup_span) in setups {
            match P::set_up(&fen, self.variant, self.dialect, side) {
                Ok((p, fullmove)) => {
                    // (the end of the main line stays where it was until a move is played
                    // from the position set up)
                    if depth == 0 && std::mem::take(&mut self.end_at_main) {
                        *P::end(&mut self.report) = Some(self.lines[0].pos);
                    }
                    if depth == 0 && self.keep.positions {
                        let plies = self.report.plies;
                        P::positions(&mut self.report).push((plies, p));
                    }
                    let f = &mut self.lines[depth];
                    f.pos = p;
                    f.captures = None;
                    if let Some(n) = fullmove {
                        f.move_number = n;
                    }
                    if depth == 0 {
                        let (edition, number) = (self.options.edition, f.move_number);
                        let start = (self.report.plies, false);
                        self.tracker = p.draw_tracker(None, edition, number, start);
                    }
                }
                Err(message) => {
                    self.finding(Finding::new(&codes::INVALID_FEN, message, Some(setup_span)));
                    self.stop(depth);
                    return false;
                }
            }
        }
        true
    }

    /// A move of a line that is not followed (ignored, or after its stop).
    fn skip_move(&mut self, depth: usize, text: &str, span: Span) {
        // (a line stopped at a move illegal in Russian draughts may go on with squares of a
        // larger board)
        if depth == 0 && matches!(self.lines[depth].state, LineState::Stopped(_)) {
            let squares = text.parse::<MoveText>().map(|t| t.squares);
            let larger = squares
                .ok()
                .and_then(|s| s.into_iter().find(|&q| self.guesses_from(q)));
            if let Some(square) = larger {
                self.of_a_larger_board(text, span, square);
            }
        }
        let f = &mut self.lines[depth];
        f.moves += 1;
        if let LineState::Stopped(after) = &mut f.state {
            *after += 1;
        }
        if depth == 0 {
            self.report.unplayed.push(text.into());
        }
        if self.keep.moves {
            P::move_infos(&mut self.report).push(None);
        }
    }

    /// The line at `depth` stops at a bad move.
    fn stop(&mut self, depth: usize) {
        self.lines[depth].state = LineState::Stopped(0);
        if depth == 0 {
            self.report.status = Status::Illegal;
        }
    }

    /// The move written `text` at `span` in the line at `depth` was resolved to `mv` (or
    /// to nothing: the line stops there).
    #[inline(always)]
    fn played(
        &mut self,
        depth: usize,
        text: &str,
        span: Span,
        mv: Option<P::Move>,
        short_names_it: bool,
    ) {
        let f = &mut self.lines[depth];
        let (before, number) = (f.pos, f.move_number);
        let Some(mv) = mv else {
            f.moves += 1;
            f.last = Some((before, number, false));
            self.stop(depth);
            if depth == 0 {
                self.report.unplayed.push(text.into());
            }
            if self.keep.moves {
                P::move_infos(&mut self.report).push(None);
            }
            return;
        };
        self.advance(depth, before, number, mv, text, span, short_names_it);
    }

    /// [`played`](Self::played) for a move played: `mv`, written `text` at `span`, from
    /// `before` (the line's position) as move `number`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn advance(
        &mut self,
        depth: usize,
        before: P,
        number: u32,
        mv: P::Move,
        text: &str,
        span: Span,
        short_names_it: bool,
    ) {
        // (the position after it made in registers, not read back from the frame)
        let after = before.then(&mv);
        let f = &mut self.lines[depth];
        f.moves += 1;
        f.last = Some((before, number, true));
        f.pos = after;
        f.move_number = number + u32::from(second_to_move(&before));
        let ply = (depth == 0).then_some(self.report.plies + 1);
        if self.keep.moves {
            P::move_infos(&mut self.report).push(Some(MoveInfo {
                before,
                mv,
                move_number: number,
                ply,
                short_names_it,
            }));
        }
        if depth != 0 {
            return;
        }
        self.end_at_main = true;
        let r = &mut self.report;
        r.plies += 1;
        r.main_spans.push(span);
        if self.keep.positions {
            let plies = r.plies;
            P::positions(r).push((plies, after));
        }
        let (plies, mainline) = (r.plies, P::mainline(r));
        if mainline.len() < self.keep.plies {
            mainline.push(Ply {
                ply: plies,
                move_number: number,
                side: before.to_move(),
                written: text.into(),
                span,
                mv,
                before,
                after,
                short_names_it,
            });
        }
        self.lines[0].captures = P::follow(self.tracker.as_mut(), &before, &mv, &after);
    }

    /// A move number that does not fit the side to move (`N.` before White's move N,
    /// `N...` before Black's).
    #[cold]
    #[inline(never)]
    fn wrong_number(
        &mut self,
        number: MoveNumber,
        number_span: Span,
        text: &str,
        pos: &P,
        expected: u32,
        ply: Option<u32>,
    ) {
        let want = match second_to_move(pos) {
            false => format!("{expected}."),
            true => format!("{expected}..."),
        };
        let mut f = Finding::new(
            &codes::WRONG_MOVE_NUMBER,
            format!(
                "move `{text}` is written as move {}{} but is {} move {expected} (`{want}`)",
                number.number,
                if number.black { "..." } else { "." },
                match pos.to_move() {
                    Color::White => "White's",
                    Color::Black => "Black's",
                }
            ),
            Some(number_span),
        );
        f.move_text = Some(text.to_string());
        f.ply = ply;
        f.fix = Some(Box::new(Proposal::replace(
            Applicability::Safe,
            format!("number it `{want}`"),
            number_span,
            want,
        )));
        self.finding(f);
    }

    /// The game is read: what waits, the result, the draw verdict.
    fn finish(&mut self) {
        if self.keep.tags_only {
            return;
        }
        while let Some(wait) = self.wait {
            self.resume(wait);
        }
        self.set_up_main(None);
        if self.end_at_main {
            *P::end(&mut self.report) = Some(self.lines[0].pos);
        }
        let noted = self.tag_check.noted();
        let r = &mut self.report;
        let result_tag = noted.result.map(|i| &r.tags[i]);
        let terminator = r.result.as_ref().map(|t| t.outcome);
        r.outcome = recorded_from(result_tag.map(|t| t.value.as_str()), terminator);
        if r.written_plies == 0 && !r.tags.is_empty() && r.status == Status::Complete {
            let empty = "the game has tags but no moves".to_string();
            self.tag_finding(&codes::EMPTY_GAME, None, || empty);
        }
        let r = &self.report;
        if matches!(r.status, Status::Unsupported | Status::InvalidSetup) {
            return self.sort_findings();
        }
        let result_tag = noted.result.map(|i| &r.tags[i]);
        let result_span = (r.result.as_ref().map(|t| t.span)).or(result_tag.map(|t| t.span));
        // RULES.md §4: the Result tag against the terminator, and both against the board
        if let (Some(t), Some(term)) = (result_tag, &r.result) {
            if let Some(tag_outcome) = Outcome::from_pdn(&t.value) {
                if results_disagree(tag_outcome, term.outcome) {
                    let message = format!(
                        "the Result tag says \"{}\" ({tag_outcome}) but the movetext ends with `{}` ({})",
                        t.value, term.raw, term.outcome
                    );
                    let span = term.span;
                    self.finding(Finding::new(&codes::RESULT_MISMATCH, message, Some(span)));
                }
            }
        }
        self.missing_tags_fix();
        if self.report.status != Status::Complete {
            self.propose_repair();
            return self.sort_findings();
        }
        let end = (*P::end(&mut self.report)).unwrap_or_else(|| self.start());
        let end_has_moves = end.can_move();
        let outcome = self.report.outcome;
        let contradicted = contradicted_by(&end, end_has_moves, outcome);
        if let Some(loser) = contradicted {
            let name = |c: Color| match c {
                Color::White => "White",
                Color::Black => "Black",
            };
            let message = format!(
                "the game is recorded as {outcome}, but at the end {} is to move and has no legal move, so {} won",
                name(loser),
                name(loser.opponent())
            );
            let mut f = Finding::new(&codes::RESULT_CONTRADICTS_POSITION, message, result_span);
            f.board = Some(end.any());
            self.finding(f);
        }
        if let Some(tracker) = &mut self.tracker {
            tracker.settle(|| end_has_moves);
            self.report.draw = Some(tracker.verdict(outcome, self.report.plies));
        }
        // the Result tag's result, for a movetext of moves without one (and with no other
        // syntax error: it goes after the game's text), when the board agrees (whether or
        // not its finding is reported)
        let r = &self.report;
        let readable =
            (r.syntax_errors.iter()).all(|e| e.kind == SyntaxErrorKind::MissingTerminator);
        if r.result.is_none() && contradicted.is_none() && r.written_plies > 0 && readable {
            let tag = noted.result.map(|i| &r.tags[i]);
            let value = tag.filter(|t| Outcome::from_pdn(&t.value).is_some());
            self.report.terminator_from_tag = value.map(|t| t.value.trim().into());
        }
        self.sort_findings();
    }

    /// The missing-tag finding's fix: the Result tag from the result the movetext ends
    /// with, and with [`ReplayOptions::fill_roster`] `?` for the other roster tags missing
    /// (`*` for a Result the movetext does not give), on lines after the last tag.
    fn missing_tags_fix(&mut self) {
        let fill = self.options.fill_roster;
        let missing: Vec<&'static str> = self.tag_check.missing_roster_names().collect();
        let r = &mut self.report;
        let Some(f) = (r.tag_findings.iter_mut()).find(|f| f.rule == &codes::MISSING_TAG) else {
            return;
        };
        // (a game without tags is left without: where its movetext starts is not known)
        let Some(last) = r.tags.last() else {
            return;
        };
        let terminator = r.result.as_ref().map(|t| t.raw.as_str());
        let mut content = String::new();
        for name in missing {
            let value = match (name, terminator) {
                ("Result", Some(raw)) => raw,
                ("Result", None) if fill => "*",
                ("Date", _) if fill => "????.??.??",
                (_, _) if fill && name != "Result" => "?",
                _ => continue,
            };
            content.push_str(&format!("\n[{name} \"{value}\"]"));
        }
        if content.is_empty() {
            return;
        }
        let message = match fill {
            true => "add the roster tags missing (`?` where nothing says their value)".into(),
            false => format!(
                "add the tag [Result \"{}\"], the result the movetext ends with",
                terminator.unwrap_or_default()
            ),
        };
        let at = last.span.end;
        f.fix = Some(Box::new(Proposal::replace(
            Applicability::Safe,
            message,
            Span::new(at, at),
            content,
        )));
    }

    /// The capture `mv`, written `text` (unambiguously) in `pos`, checked against the
    /// capture style asked for ([`ReplayOptions::captures`]): written with another number
    /// of squares, a finding whose fix writes it so.
    #[cold]
    fn capture_route(&mut self, pos: &P, mv: &P::Move, text: &str, span: Span, ply: Option<u32>) {
        let Some(wanted) = self.options.captures else {
            return;
        };
        if !self.options.report.contains(&codes::CAPTURE_ROUTE) {
            return;
        }
        let squares = |t: &str| t.split(['-', ':', 'x', 'X']).count();
        let named = pos.write(
            mv,
            Style {
                captures: wanted,
                ..style_of(text, self.variant)
            },
        );
        if squares(&named) == squares(text) {
            return;
        }
        let (how, asked) = match wanted {
            CaptureStyle::Full => ("without all its landing squares", "full"),
            _ => ("with more squares than name it", "short"),
        };
        let message =
            format!("`{text}` is a capture written {how}; `--captures {asked}` writes `{named}`");
        let mut f = Finding::new(&codes::CAPTURE_ROUTE, message, Some(span));
        f.move_text = Some(text.to_string());
        f.ply = ply;
        f.fix = Some(Box::new(Proposal::replace(
            Applicability::Safe,
            format!("write `{text}` as `{named}`"),
            span,
            named,
        )));
        self.finding(f);
    }

    /// Notes where the main line stops at a move that names squares, for
    /// [`propose_repair`](Self::propose_repair).
    fn stopped_at(&mut self, depth: usize, before: P, text: &str, span: Span) {
        let first = self.report.status == Status::Complete;
        if depth == 0 && first {
            self.main_stop = Some(Box::new(MainStop {
                before,
                text: text.into(),
                span,
            }));
        }
    }

    /// The main line stopped at a move that is not legal (or names a square off the
    /// board): proposes as its fix the one legal move there that lets every later move of
    /// the main line replay, or says how many do. The move played is among those that
    /// fit (the rest was played after it), so when one fits, it is the move played.
    fn propose_repair(&mut self) {
        let Some(stop) = self.main_stop.take() else {
            return;
        };
        // (a setup command after the stop sets up a position of its own)
        if self.report.status != Status::Illegal || !self.lines[0].setups.is_empty() {
            return;
        }
        let r = &mut self.report;
        let Some(finding) = (r.findings.iter_mut())
            .find(|f| f.span == Some(stop.span) && f.rule.code.starts_with('M'))
        else {
            return;
        };
        let candidates = stop.before.legal();
        if candidates.is_empty() {
            return;
        }
        // (the stop's own move is the first unplayed one)
        let plies = (REPAIR_BUDGET / candidates.len()).min(r.unplayed.len().saturating_sub(1));
        let rest: Vec<(CompactString, bool)> = (r.unplayed.iter().skip(1).take(plies))
            .map(|t| (t.clone(), false))
            .collect();
        let fitting: Vec<P::Move> = (candidates.iter().copied())
            .filter(|c| replays_legally(&stop.before.then(c), &rest, LOOKAHEAD_AMBIGUITIES))
            .collect();
        let style = style_of(&stop.text, self.variant);
        match fitting[..] {
            [only] => {
                let named = stop.before.write(&only, style);
                finding.fix = Some(Box::new(Proposal::replace(
                    Applicability::Unsafe,
                    format!(
                        "replace `{}` with `{named}`: the rest of the game then replays",
                        stop.text
                    ),
                    stop.span,
                    named,
                )));
            }
            [] => finding.notes.push(
                "no legal move here lets the rest of the game replay: no fix is proposed".into(),
            ),
            _ => {
                const SHOWN: usize = 8;
                let mut names: Vec<String> = (fitting.iter().take(SHOWN))
                    .map(|m| stop.before.write(m, style))
                    .collect();
                if fitting.len() > SHOWN {
                    names.push("…".into());
                }
                finding.notes.push(format!(
                    "{} legal moves here let the rest of the game replay ({}): no fix is proposed",
                    fitting.len(),
                    names.join(", ")
                ));
            }
        }
    }

    fn sort_findings(&mut self) {
        self.report.unreported_errors |= std::mem::take(&mut self.replay_error_unreported);
        // A game without GameType that fails at once as Russian is most likely another
        // variant: say how to tell pdnkit.
        if self.variant == Variant::Russian && self.tag_check.noted().game_type.is_none() {
            for f in &mut self.report.findings {
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
        (self.report.findings).sort_by_key(|f| f.span.map_or(0, |s| s.start));
    }
}

/// The events of the reader, as the [`Checker`] hands them on.
impl<P: Recorded> Replayer<P> {
    fn begin_game(&mut self) {
        self.main_stop = None;
        self.replay_error_unreported = false;
        self.larger_board = None;
        self.unsupported = None;
        let r = &mut self.report;
        r.tags.clear();
        r.status = Status::Complete;
        r.start = None;
        r.first_move_number = 1;
        r.end = None;
        r.plies = 0;
        r.written_plies = 0;
        r.outcome = Outcome::Unknown;
        r.result = None;
        r.draw = None;
        r.syntax_errors.clear();
        r.tag_findings.clear();
        r.tags_unmade = Unmade::default();
        r.findings.clear();
        r.unreported_errors = false;
        r.mainline.clear();
        r.positions.clear();
        r.unplayed.clear();
        r.terminator_from_tag = None;
        r.moves.clear();
        r.main_spans.clear();
        r.variant = Variant::Russian;
        r.variant_line.clear();
        self.variant = Variant::Russian;
        self.dialect = Variant::Russian.dialect();
        self.lines.clear();
        self.lines.push(Frame::new(self.start(), None));
        self.wait = None;
        self.log.clear();
        self.tag_check.clear();
        self.main_set_up = false;
        self.end_at_main = false;
    }

    fn tag(&mut self, tag: RawTag<'_>) {
        self.report.tags.push(TagEntry {
            name: tag.name.into(),
            value: CompactString::from(tag.value()),
            span: tag.span,
            value_span: tag.value_span,
        });
        self.tag_check.note(self.report.tags.len() - 1, tag.name);
        self.check_tag();
    }

    /// The tags are read: the finding about the whole tag section.
    fn begin_movetext(&mut self) {
        if self.options.report.meets(&super::tags::RULES)
            && self.options.report.contains(&codes::MISSING_TAG)
        {
            if let Some(message) = self.tag_check.missing_roster() {
                let f = Finding::new(&codes::MISSING_TAG, message, None);
                self.report.tag_findings.push(f);
            }
        }
    }

    /// Takes over the game `from` has read the tags of, to replay it as `variant`.
    fn take_over<Q: Recorded>(
        &mut self,
        from: &mut Replayer<Q>,
        variant: Variant,
        dialect: Dialect,
    ) {
        std::mem::swap(&mut self.report, &mut from.report);
        self.tag_check.clone_from(&from.tag_check);
        self.main_stop = None;
        self.replay_error_unreported = false;
        self.larger_board = None;
        self.report.variant = variant;
        self.report.variant_line.clear();
        self.variant = variant;
        self.dialect = dialect;
        self.lines.clear();
        self.lines.push(Frame::new(self.start(), None));
        self.wait = None;
        self.log.clear();
        self.main_set_up = false;
        self.end_at_main = false;
    }

    fn result(&mut self, result: ResultToken<'_>, span: Span) {
        self.report.result = Some(GameResult {
            outcome: result.outcome,
            scale: result.scale,
            raw: result.raw.to_owned(),
            span,
        });
    }

    fn end_game(&mut self) {
        self.finish();
        self.report.syntax_errors.sort_by_key(|e| e.span.start);
    }
}

/// Hands the event the checker got to the tree builder, when a tree is kept, and to the
/// replayer of the game.
macro_rules! forward {
    ($self:ident . $event:ident ( $($arg:expr),* )) => {
        if let Some(b) = &mut $self.builder {
            b.$event($($arg),*);
        }
    };
    ($self:ident . $event:ident ( $($arg:expr),* ) => $replay:ident ( $($rarg:expr),* )) => {
        forward!($self.$event($($arg),*));
        match $self.on_other {
            false => $self.russian.$replay($($rarg),*),
            true => on_other(&mut $self.other, |o| o.$replay($($rarg),*)),
        }
    };
}

/// Does `f` to the replayer of other variants' games, apart from the reader's loop: the
/// Russian replayer's code is inlined into that loop, and would be spread out by this one's
/// (a slower loop, by more instruction cache misses).
#[cold]
#[inline(never)]
fn on_other<R>(
    other: &mut Replayer<VariantPosition>,
    f: impl FnOnce(&mut Replayer<VariantPosition>) -> R,
) -> R {
    f(other)
}

impl Checker {
    /// The variant the game whose tags are read is replayed as: what its tags (or
    /// `--variant`) say, else what a FEN tag or, read again, a move shows (`V102`).
    fn choose_variant(&mut self) {
        let russian = &mut self.russian;
        // (a guess from a move, for the game read again, comes first)
        let chosen = match (self.guessed.clone(), russian.chosen_variant()) {
            (Some(guess), _) => {
                let variant = guess.variant;
                Chosen {
                    guess: Some(guess),
                    ..Chosen::said(variant)
                }
            }
            (None, Ok(chosen)) => chosen,
            (None, Err(unsupported)) => {
                russian.unsupported = Some(unsupported);
                Chosen::said(Variant::Russian)
            }
        };
        let variant = chosen.variant;
        russian.report.variant = variant;
        let fields = (chosen.fields)
            .map(|(message, span)| Finding::new(&codes::GAME_TYPE_FIELDS, message, Some(span)));
        if variant == Variant::Russian {
            if let Some(f) = fields {
                russian.finding(f);
            }
            return;
        }
        let dialect = chosen.dialect;
        on_other(&mut self.other, |o| {
            o.take_over(&mut self.russian, variant, dialect)
        });
        self.on_other = true;
        let guess =
            (chosen.guess).map(|g| Finding::new(&codes::GUESSED_VARIANT, g.message, Some(g.span)));
        for f in guess.into_iter().chain(fields) {
            on_other(&mut self.other, |o| o.finding(f));
        }
    }
}

impl Visitor for Checker {
    type Output = ();

    fn begin_game(&mut self) {
        if std::mem::take(&mut self.on_other) {
            // (the Russian replayer keeps the report's buffers from game to game)
            std::mem::swap(&mut self.russian.report, &mut self.other.report);
        }
        // (the last game's tree, not taken by the task, lends its memory to this one's)
        if let (Some(b), Some(game)) = (&mut self.builder, self.russian.report.game.take()) {
            b.reuse(game);
        }
        self.russian.begin_game();
        forward!(self.begin_game());
    }

    fn tag(&mut self, tag: RawTag<'_>) {
        forward!(self.tag(tag));
        self.russian.tag(tag);
    }

    fn begin_movetext(&mut self) -> Skip {
        forward!(self.begin_movetext());
        self.russian.begin_movetext();
        self.choose_variant();
        Skip(self.russian.keep.tags_only)
    }

    #[inline(always)]
    fn move_number(&mut self, number: MoveNumber, span: Span) {
        forward!(self.move_number(number, span));
        match self.on_other {
            false => self.russian.number(number, span),
            true => on_other(&mut self.other, |o| o.number(number, span)),
        }
    }

    fn mv(&mut self, text: &str, span: Span) {
        forward!(self.mv(text, span));
        match self.on_other {
            false => self.russian.play(text, span, None),
            true => on_other(&mut self.other, |o| o.play(text, span, None)),
        }
    }

    #[inline(always)]
    fn plain_mv(&mut self, squares: PlainSquares, text: &str, span: Span) {
        forward!(self.mv(text, span));
        match self.on_other {
            false => self.russian.play(text, span, Some(squares)),
            true => on_other(&mut self.other, |o| o.play(text, span, Some(squares))),
        }
    }

    fn strength(&mut self, mark: &str, span: Span) {
        forward!(self.strength(mark, span));
    }

    fn nag(&mut self, nag: u16, span: Span) {
        forward!(self.nag(nag, span));
    }

    fn comment(&mut self, text: &str, span: Span) {
        forward!(self.comment(text, span));
    }

    fn line_comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        forward!(self.line_comment(kind, text, span));
    }

    fn begin_variation(&mut self, span: Span) -> Skip {
        forward!(self.begin_variation(span) => begin());
        Skip(false)
    }

    fn end_variation(&mut self, span: Span) {
        forward!(self.end_variation(span) => end());
    }

    fn setup(&mut self, fen: &str, span: Span) {
        forward!(self.setup(fen, span) => setup_command(fen.to_string(), span));
    }

    fn result(&mut self, result: ResultToken<'_>, span: Span) {
        forward!(self.result(result, span) => result(result, span));
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        forward!(self.syntax_error(error.clone()));
        self.report_mut().syntax_errors.push(error);
    }

    fn end_game(&mut self) {
        match self.on_other {
            false => self.russian.end_game(),
            true => on_other(&mut self.other, |o| o.end_game()),
        }
        self.again = self.russian.larger_board.take();
        if let Some(b) = &mut self.builder {
            let game = b.end_game();
            self.report_mut().game = Some(game);
        }
    }
}

/// Whether `moves` (each with whether a setup command comes before it) replay legally from
/// `pos`, trying every candidate of an ambiguous move, `budget` levels deep.
fn replays_legally<P: Playable>(pos: &P, moves: &[(CompactString, bool)], budget: u32) -> bool {
    let mut pos = *pos;
    for (i, (text, setup)) in moves.iter().enumerate() {
        if *setup || is_placeholder(text) {
            // a setup command or a placeholder ends what can be checked
            return true;
        }
        if let Some(mv) = pos.read_plain(text, None, None) {
            pos.play(&mv);
            continue;
        }
        match pos.read(text, None) {
            Ok(Named::Unique { mv, .. }) => pos.play(&mv),
            Ok(Named::Ambiguous(candidates)) => {
                if budget == 0 {
                    return true;
                }
                return candidates
                    .iter()
                    .any(|c| replays_legally(&pos.then(c), &moves[i + 1..], budget - 1));
            }
            _ => return false,
        }
    }
    true
}

/// The notation of a move as written in a game of `variant`: numeric or algebraic squares,
/// `x` or `:` between the squares of a capture (`:` only where Russian's notation uses
/// it), and its route in full when it was written with more than two squares (else with
/// the fewest that name it).
fn style_of(text: &str, variant: Variant) -> Style {
    let numeric = text.trim_start().starts_with(|c: char| c.is_ascii_digit());
    let squares = text.split(['-', ':', 'x', 'X']).count();
    Style {
        squares: if numeric {
            SquareStyle::Numeric
        } else {
            SquareStyle::Algebraic
        },
        captures: if squares > 2 {
            CaptureStyle::Full
        } else {
            CaptureStyle::Minimal
        },
        separator: if text.contains(['x', 'X']) || variant != Variant::Russian {
            CaptureSeparator::Cross
        } else {
            CaptureSeparator::Colon
        },
    }
}

/// `text` (a move whose squares are right) with the separators of a capture (`:` in a
/// Russian game, `x` in another, or `x` as `text` used it) or of a quiet move (`-`).
fn with_separators_of(text: &str, capture: bool, variant: Variant) -> String {
    let separator = match (capture, text.contains(['x', 'X'])) {
        (false, _) => '-',
        (true, false) if variant == Variant::Russian => ':',
        (true, _) => 'x',
    };
    text.chars()
        .map(|c| match c {
            '-' | ':' | 'x' | 'X' => separator,
            c => c,
        })
        .collect()
}

/// `mv` (legal in `pos`, written `text` ambiguously) written with the squares that name it
/// alone, in the notation of `text`; `None` when no writing does (two captures with the
/// same landing squares).
fn naming_uniquely<P: Playable>(pos: &P, mv: &P::Move, text: &str) -> Option<String> {
    let named = pos.write(mv, style_of(text, pos.variant_of()));
    let unique =
        matches!(pos.read(&named, None), Ok(Named::Unique { mv: m, .. }) if P::same(&m, mv));
    (unique && named != text).then_some(named)
}

/// Checking in tests: a text's first game through the reader and the checker.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::check::{CheckOptions, diagnose};
    use crate::diag::Diagnostic;
    use crate::pdn::Reader;

    /// The report of the first game of `text`, and its located diagnostics.
    pub(crate) fn check(
        text: &str,
        options: &CheckOptions,
        keep: Keep,
    ) -> (GameReport, Vec<Diagnostic>) {
        let mut reader = Reader::new(text.as_bytes(), options.reader_options()).unwrap();
        let mut checker = Checker::new(options.replay_options(), keep);
        checker.read_game(&mut reader).unwrap().unwrap();
        let (diagnostics, _) = diagnose(
            "t.pdn",
            reader.game(),
            checker.report(),
            &options.replay_options(),
        );
        (checker.report().clone(), diagnostics)
    }

    /// A game of these tags and one move, as text.
    pub(crate) fn with_tags(tags: &[(&str, &str)]) -> String {
        let mut text = String::new();
        for (name, value) in tags {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        text.push_str("\n1. c3-d4 *\n");
        text
    }
}
