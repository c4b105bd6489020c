//! The quick lane of [`super::diagnose`]: proves a game clean straight from the parser's
//! tokens, without building a [`crate::pdn::Game`] tree or keeping a record per ply.
//!
//! Most games of an archive have nothing to report, and for them the full check spends
//! most of its time allocating the tree and the replay records that nobody reads. This
//! visitor replays the main line and every variation as the tokens arrive, with the same
//! rules and the same helpers as [`crate::replay`], and gives up at the first thing that
//! would become a diagnostic (or that it does not follow: setup commands, leading
//! variations, ambiguous or oddly written moves). A game it gives up on is checked by the
//! full path, so the diagnostics are always exactly those of [`super::check_game`]. The
//! kinds of finding it reports itself are made by the full check's own helpers: the draw
//! verdict's, the tags' (most real files lack a tag: [`super::tags::check_tags_up_to`] on
//! the tags read again), and the reader's error for a game without a result token.
//! `tests/diagnose.rs` and the `replay` fuzz target hold the two together.

use std::borrow::Cow;

use super::tags::{self, TagScreen, Unmade, check_tags_reporting};
use super::{GameSummary, KeptPly, MAX_GAME_FINDINGS, Reporting, syntax_rule};
use crate::Color;
use crate::diag::{Rule, codes};
use crate::draw::{DrawTracker, Outcome, Verdict};
use crate::pdn::Visitor;
use crate::pdn::plain::{PlainVisitor, visit_plain, visit_plain_game};
use crate::pdn::token::unescape;
use crate::pdn::{
    CommentKind, MoveNumber, RawGame, RawTag, ResultToken, Skip, Span, SyntaxError, SyntaxErrorKind,
};
use crate::replay::{
    Finding, ReplayOptions, Status, contradicted_by, draw_findings, draw_view, follow_ply,
    number_fits, recorded_from, results_disagree, start_of, variant_for, variation_start_numbered,
};
use crate::rules::Position;
use crate::rules::notation::{PlainSquares, resolve_unique, resolve_unique_written};

/// Reusable state of the quick lane (buffers survive from game to game).
#[derive(Default)]
pub(super) struct QuickLane {
    options: ReplayOptions,
    /// Tag names and decoded values, back to back; `tags` holds their ranges.
    tag_text: String,
    tags: Vec<(usize, usize, usize, Span)>,
    /// Where in `tags` the first of each of [`NOTED`] is, for the lookups of every game.
    noted: [Option<u32>; NOTED.len()],
    /// Whether `tags` keeps every tag (for [`super::QuickGame`]'s accessors), or only
    /// those of [`NOTED`] (enough for the check itself).
    pub(super) keep_tags: bool,
    /// Whether the tags read so far are clean, screened one at a time as they come.
    screen: TagScreen,
    /// What the screen found in the tags, once they are all read: their findings are
    /// made once the moves are proved (see [`Proved::tag_findings`]).
    tags_found: TagsFound,
    /// The game ended without a result token (the one syntax error the lane follows).
    missing_terminator: Option<SyntaxError>,
    /// The line being read.
    line: Frame,
    /// The lines it is a variation of, outermost first: `outer[0]` is the main line when
    /// a variation is read, else `line` is.
    outer: Vec<Frame>,
    /// The main line's draw tracker (kept from game to game for its memory); it follows
    /// this game once `start` is set.
    tracker: Option<DrawTracker>,
    plies: u32,
    /// Where each main-line move was written.
    main_spans: Vec<Span>,
    terminator: Option<(Outcome, Span)>,
    /// Something the full check must look at.
    gave_up: bool,
    /// See [`QuickLane::refused`].
    refused: bool,
    /// How many first main-line plies to keep in `opening`.
    pub(super) opening_depth: usize,
    /// The first main-line plies (up to `opening_depth`).
    opening: Vec<KeptPly>,
    /// The main line's start position, once its first move is read.
    start: Option<Position>,
    /// Where the text being read lies in memory: its address and length (see `places`).
    text: (usize, usize),
    /// Where each tag of the game is in that text, in file order, so that a game whose
    /// tags have findings keeps them all from there ([`QuickLane::keep_all_tags`]) rather
    /// than reading them again (in most real files that is every game).
    places: Vec<TagPlace>,
    /// Whether every tag of the game is in `places` (a tag the reader gave from another
    /// text would not be).
    placed_all: bool,
}

/// Where a tag is in the text of its game: its name and its value as written, by byte
/// ranges, and its span.
#[derive(Clone, Copy)]
struct TagPlace {
    name: (u32, u32),
    raw_value: (u32, u32),
    span: Span,
}

/// What the screen found in a game's tags.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum TagsFound {
    /// Nothing to report (or no rule about tags is reported).
    #[default]
    Nothing,
    /// Nothing but these missing roster tags (see [`TagScreen::only_missing`]): their one
    /// finding is made from them, the tags not read again.
    MissingRoster(u8),
    /// Something else: [`check_tags_reporting`] looks at all the tags.
    ToCheck,
}

/// The tags the lane looks up in every game, whose places it notes as they are read.
const NOTED: [&str; 3] = ["GameType", "FEN", "Result"];

/// What the quick lane proved of a game.
pub(super) struct Proved {
    /// The summary; `has_errors` says only whether a finding not reported was an error
    /// (the caller, which locates the findings, adds theirs).
    pub summary: GameSummary,
    /// The reader's error for a game without a result token, if it has none.
    pub missing_terminator: Option<SyntaxError>,
    /// The draw verdict's findings (often none).
    pub findings: Vec<Finding>,
    /// The findings about the tags (most games have none), as the full check makes them:
    /// rule, message and the span of the tag concerned (`None`: the whole tag section).
    /// With `findings`, all the full check would report.
    pub tag_findings: Vec<(&'static Rule, String, Option<Span>)>,
    /// The tag findings counted past [`MAX_GAME_FINDINGS`] and not made.
    pub unmade: Unmade,
    /// The main line's start and end positions.
    pub start: Position,
    pub end: Position,
    /// The recorded outcome.
    pub outcome: Outcome,
}

impl Proved {
    /// Whether the game has something to report.
    pub fn has_findings(&self) -> bool {
        !self.findings.is_empty()
            || !self.tag_findings.is_empty()
            || self.missing_terminator.is_some()
    }
}

/// How a game ends, as [`QuickLane::finish`] finds it.
pub(super) struct Ending {
    verdict: Verdict,
    /// Where the result is written: the terminator, else the Result tag.
    result_span: Option<Span>,
    start: Position,
    end: Position,
    outcome: Outcome,
}

/// One line being replayed.
#[derive(Clone, Copy)]
struct Frame {
    /// The position before the next move (meaningless until `started`).
    pos: Position,
    /// The full-move number of the next move.
    move_number: u32,
    /// A move number waiting for its move.
    number: Option<MoveNumber>,
    /// Moves played in this line.
    moves: u32,
    /// Whether `pos` and `move_number` are known: the main line starts at its first move
    /// (a FEN without side to move takes it from that move's number), a variation at its
    /// first move too (its written number tells where it starts, see
    /// [`crate::replay::variation_start`]).
    started: bool,
    /// For a variation: the position before and after the move it is an alternative to,
    /// and that move's number.
    alternative_to: Option<(Position, Position, u32)>,
    /// The position before the last move of this line, and its number.
    last: Option<(Position, u32)>,
    /// `pos.has_captures()`, when already known.
    captures: Option<bool>,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame::new(None)
    }
}

impl Frame {
    fn new(alternative_to: Option<(Position, Position, u32)>) -> Frame {
        Frame {
            pos: Position::start(),
            move_number: 1,
            number: None,
            moves: 0,
            started: false,
            alternative_to,
            last: None,
            captures: None,
        }
    }
}

impl QuickLane {
    /// Reads and checks the game at the start of `text` (which goes on past it) in one
    /// pass, if it can prove that the full check finds nothing but what the draw verdict
    /// says: its length, and what it proved (summary index 0: the caller knows it).
    /// `None` when the game must be cut and checked the usual way. `at_end`: `text` ends
    /// where the input does. See [`crate::pdn::plain::visit_plain_game`] for where such a
    /// game ends. `keep_tags` as in [`QuickLane::keep_tags`].
    pub(super) fn check_game_text(
        &mut self,
        text: &str,
        at_end: bool,
        options: &ReplayOptions,
        keep_tags: bool,
    ) -> Option<(usize, Proved)> {
        self.options = *options;
        self.keep_tags = keep_tags;
        self.text = (text.as_ptr() as usize, text.len());
        // (what the lane gives up on, or proves nothing of, depends on the game's events
        // alone, and the events up to there are those of the game the splitter cuts; a
        // game proved leaves `refused` as it is: it is asked only of a game that is not)
        match visit_plain_game(text, self, |lane| lane.gave_up, at_end) {
            Ok((Some(ending), len)) => {
                self.keep_all_tags(&text[..len], None);
                Some((len, self.proved(ending, text, 0)))
            }
            Ok((None, _)) => {
                self.refused = true;
                None
            }
            Err(_) => {
                self.refused = self.gave_up;
                None
            }
        }
    }

    /// Whether the last [`check_game_text`](Self::check_game_text) that proved nothing
    /// read enough of the game to know that [`check`](Self::check) proves nothing of it
    /// either: the lane gave up on it (an illegal move, a tag to report…), or read it
    /// whole and proved nothing (a game without moves). Else the plain reader stopped at
    /// a shape it does not read, which the general parser may.
    pub(super) fn refused(&self) -> bool {
        self.refused
    }

    /// Checks `raw` if it can prove that the full check finds nothing but what the draw
    /// verdict says; `None` when the full check must run.
    pub(super) fn check(&mut self, raw: &RawGame, options: &ReplayOptions) -> Option<Proved> {
        self.options = *options;
        self.text = (raw.text.as_ptr() as usize, raw.text.len());
        // the plain reader when the game has the plain shape (most do), else the parser;
        // once the lane has given up, the rest of the game is not read
        let plain = if raw.stray_prefix == 0 && !raw.decoding_replaced {
            visit_plain(&raw.text, self, |lane| lane.gave_up).ok()
        } else {
            None
        };
        let (ending, general) = match plain {
            Some(ending) => (ending, None),
            None => (raw.visit(self), Some(raw)),
        };
        let ending = ending?;
        self.keep_all_tags(&raw.text, general);
        Some(self.proved(ending, &raw.text, raw.index as usize))
    }

    /// Whether the tags are screened at all: some rule about them is reported.
    fn screens_tags(&self) -> bool {
        self.options.report.meets(&tags::RULES)
    }

    /// What the lane proved of game `index`, read from `text`, that ended so.
    fn proved(&self, ending: Ending, text: &str, index: usize) -> Proved {
        let spans = &self.main_spans;
        // (the findings of rules not reported are not made: whether one was an error is
        // all that is kept of them)
        let mut reporting = Reporting::new(&self.options);
        let findings = draw_findings(
            &ending.verdict,
            |rule| reporting.keeps(rule, rule.severity),
            self.plies,
            |p| {
                let span = spans[p as usize - 1];
                // the parser hands moves over as slices of the game text at their span
                (span, text[span.start..span.end].to_string())
            },
            ending.result_span,
        )
        .collect();
        // (the tags are all kept when they have something to report: see `AllTags`)
        let (tag_findings, unmade) = match self.tags_found {
            TagsFound::ToCheck => {
                let report = &self.options.report;
                let (made, unmade) =
                    check_tags_reporting(self.tags(), MAX_GAME_FINDINGS + 1, report);
                let made = made.into_iter().map(|f| {
                    let span = f.tag.map(|i| self.tags[i].3);
                    (f.rule, f.message, span)
                });
                (made.collect(), unmade)
            }
            TagsFound::MissingRoster(missing)
                if self.options.report.contains(&codes::MISSING_TAG) =>
            {
                let f = tags::missing_roster(missing);
                (vec![(f.rule, f.message, None)], Unmade::default())
            }
            _ => (Vec::new(), Unmade::default()),
        };
        let missing_terminator = (self.missing_terminator.as_ref()).filter(|e| {
            let (rule, severity) = syntax_rule(e);
            reporting.keeps(rule, severity)
        });
        let summary = GameSummary {
            index,
            status: Status::Complete,
            plies: self.plies,
            draw_basis: ending.verdict.basis,
            has_errors: reporting.unreported_errors,
        };
        Proved {
            summary,
            missing_terminator: missing_terminator.cloned(),
            findings,
            tag_findings,
            unmade,
            start: ending.start,
            end: ending.end,
            outcome: ending.outcome,
        }
    }

    /// The tags of the last game read, in file order: (name, decoded value).
    pub(super) fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|&(start, middle, end, _)| {
            (&self.tag_text[start..middle], &self.tag_text[middle..end])
        })
    }

    /// Where the result token of the last game is written, if it has one.
    pub(super) fn terminator_span(&self) -> Option<Span> {
        self.terminator.map(|(_, span)| span)
    }

    /// The first tag called `name` of the last game read (decoded).
    pub(super) fn tag_value(&self, name: &str) -> Option<&str> {
        self.first_tag(name).map(|(value, _)| value)
    }

    /// The decoded value and the span of the first tag called `name`.
    fn first_tag(&self, name: &str) -> Option<(&str, Span)> {
        let found = match NOTED.iter().position(|&n| n == name) {
            Some(k) => self.noted[k].map(|at| &self.tags[at as usize]),
            None => self
                .tags
                .iter()
                .find(|&&(start, middle, _, _)| &self.tag_text[start..middle] == name),
        };
        found.map(|&(_, middle, end, span)| (&self.tag_text[middle..end], span))
    }

    /// The first main-line plies of the last game (up to `opening_depth`).
    pub(super) fn first_plies(&self) -> &[KeptPly] {
        &self.opening
    }

    /// Sets up the main line at its first move (once a game: apart from the move handler).
    #[cold]
    #[inline(never)]
    fn start_main_line(&mut self, first_written: Option<MoveNumber>) {
        if variant_for(self.tag_value("GameType")).is_err() && !self.options.force_russian {
            self.gave_up = true; // an unsupported variant is reported
            return;
        }
        let Ok((pos, number)) = start_of(self.tag_value("FEN"), first_written) else {
            self.gave_up = true;
            return;
        };
        let (material, key) = draw_view(&pos);
        match &mut self.tracker {
            Some(t) => t.restart(self.options.edition, material, key),
            None => self.tracker = Some(DrawTracker::new(self.options.edition, material, key)),
        }
        if let Some(t) = &mut self.tracker {
            t.set_first_move_number(number);
        }
        self.start = Some(pos);
        // (only the main line starts without an alternative: `line` is the main line)
        let main = &mut self.line;
        main.pos = pos;
        main.move_number = number;
        main.started = true;
    }

    /// Replays the move `text` written at `span` (`written_squares`: its squares, when
    /// the reader has read them), or gives up.
    #[inline(always)]
    fn play(&mut self, text: &str, span: Span, written_squares: Option<PlainSquares>) {
        if self.gave_up {
            return;
        }
        let main_line = self.outer.is_empty();
        let f = &mut self.line;
        let written = f.number.take();
        if !f.started {
            match f.alternative_to {
                None => {
                    self.start_main_line(written);
                    if self.gave_up {
                        return;
                    }
                }
                Some((before, after, number)) => {
                    (f.pos, f.move_number) =
                        variation_start_numbered(written, before, Some(after), number);
                    f.started = true;
                }
            }
        }
        let f = &mut self.line;
        // (a `- -` placeholder names no square, so it does not resolve below)
        if written.is_some_and(|n| !number_fits(n, &f.pos, f.move_number)) {
            self.gave_up = true;
            return;
        }
        let captures = f.captures.take();
        // (no resolution record to build and drop for most moves)
        let mut short_names_it = true;
        let resolved = match written_squares {
            Some(w) => resolve_unique_written(&f.pos, w, text, captures, &mut short_names_it),
            None => resolve_unique(&f.pos, text, captures, &mut short_names_it),
        };
        let Some(mv) = resolved else {
            self.gave_up = true;
            return;
        };
        // (the position before the move is kept where a variation will look for it, and
        // read there: not copied out first)
        let (before, number) = f.last.insert((f.pos, f.move_number));
        let number = *number;
        f.pos.play_unchecked(&mv);
        f.moves += 1;
        if before.turn() == Color::Black {
            f.move_number += 1;
        }
        if main_line {
            if self.opening.len() < self.opening_depth {
                self.opening.push(KeptPly {
                    before: *before,
                    mv,
                    number,
                    short_names_it,
                });
            }
            self.plies += 1;
            self.main_spans.push(span);
            f.captures = follow_ply(self.tracker.as_mut(), before, &mv, &f.pos);
        }
    }

    /// How the game ends, when nothing but the draw verdict is to be reported.
    fn finish(&mut self) -> Option<Ending> {
        let main = self.outer.first().unwrap_or(&self.line);
        // A game without moves has its own findings (empty game); the full check says them.
        if self.gave_up || main.moves == 0 {
            return None;
        }
        let end = main.pos;
        let end_has_moves = end.has_legal_moves();
        if let Some(t) = &mut self.tracker {
            t.settle(|| end_has_moves);
        }
        let result = self.first_tag("Result");
        let result_tag = result.map(|(value, _)| value);
        let terminator = self.terminator.map(|(outcome, _)| outcome);
        if let (Some(tag), Some(term)) = (result_tag.and_then(Outcome::from_pdn), terminator) {
            if results_disagree(tag, term) {
                return None;
            }
        }
        let recorded = recorded_from(result_tag, terminator);
        if contradicted_by(&end, end_has_moves, recorded).is_some() {
            return None;
        }
        // the main line started (it has moves), so the tracker follows this game
        let start = self.start?;
        Some(Ending {
            verdict: self.tracker.as_ref()?.verdict(recorded, self.plies),
            result_span: (self.terminator.map(|(_, span)| span)).or(result.map(|(_, span)| span)),
            start,
            end,
            outcome: recorded,
        })
    }
}

impl QuickLane {
    /// Makes [`tags`](Self::tags) hold every tag of the game just proved, when its tags
    /// have findings to make and only some were kept: reads them again from `text`, as
    /// its moves were read (by the plain reader, or by the parser over `general`).
    fn keep_all_tags(&mut self, text: &str, general: Option<&RawGame>) {
        if self.tags_found != TagsFound::ToCheck || self.keep_tags {
            return;
        }
        if self.placed_all && self.keep_placed_tags(text) {
            return;
        }
        match general {
            Some(raw) => raw.visit(&mut AllTags(self)),
            None => {
                let _ = visit_plain(text, &mut AllTags(self), |_| true);
            }
        }
    }

    /// [`keep_all_tags`](Self::keep_all_tags) from where the tags were read (`places`), in
    /// `text`; false (having kept some, or none) when one of them is not in it.
    fn keep_placed_tags(&mut self, text: &str) -> bool {
        self.tag_text.clear();
        self.tags.clear();
        self.noted = [None; NOTED.len()];
        let places = std::mem::take(&mut self.places);
        let slice = |(start, end): (u32, u32)| text.get(start as usize..end as usize);
        let mut all = true;
        for place in &places {
            let (Some(name), Some(raw_value)) = (slice(place.name), slice(place.raw_value)) else {
                all = false;
                break;
            };
            let noted = NOTED.iter().position(|&n| n == name);
            self.keep_tag(name, &unescape(raw_value), place.span, noted);
        }
        self.places = places;
        all
    }

    /// Notes where `tag` is in the text being read (see `places`).
    #[inline(always)]
    fn place(&mut self, tag: &RawTag<'_>) {
        let (text, len) = self.text;
        // (the reader's slices are of the text it was given: their offsets in it; an
        // address before the text wraps round, past its length or, with the length
        // added, below its start)
        let name = (tag.name.as_ptr() as usize).wrapping_sub(text);
        let name_end = name.wrapping_add(tag.name.len());
        let value = (tag.raw_value.as_ptr() as usize).wrapping_sub(text);
        let value_end = value.wrapping_add(tag.raw_value.len());
        if name <= name_end && name_end <= len && value <= value_end && value_end <= len {
            // (a text longer than `u32::MAX` has `placed_all` false from the start)
            self.places.push(TagPlace {
                name: (name as u32, name_end as u32),
                raw_value: (value as u32, value_end as u32),
                span: tag.span,
            });
        } else {
            self.placed_all = false;
        }
    }

    /// Keeps a tag for [`tags`](Self::tags) and [`first_tag`](Self::first_tag); `noted`:
    /// its place in [`NOTED`], if it is there.
    fn keep_tag(&mut self, name: &str, value: &str, span: Span, noted: Option<usize>) {
        if let Some(k) = noted {
            self.noted[k].get_or_insert(self.tags.len() as u32);
        }
        let start = self.tag_text.len();
        self.tag_text.push_str(name);
        let middle = self.tag_text.len();
        self.tag_text.push_str(value);
        self.tags.push((start, middle, self.tag_text.len(), span));
    }
}

/// Reads a game's tags again, every one of them, into the lane that proved its moves
/// without keeping them (see [`QuickLane::keep_tags`]): for a game whose tags have
/// something to report, which is read twice rather than keeping every tag of every game.
struct AllTags<'a>(&'a mut QuickLane);

impl Visitor for AllTags<'_> {
    type Output = ();

    fn begin_game(&mut self) {
        let lane = &mut *self.0;
        lane.tag_text.clear();
        lane.tags.clear();
        lane.noted = [None; NOTED.len()];
    }

    fn tag(&mut self, tag: RawTag<'_>) {
        let noted = NOTED.iter().position(|&n| n == tag.name);
        self.0.keep_tag(tag.name, &tag.value(), tag.span, noted);
    }

    fn begin_variation(&mut self, _span: Span) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {}
}

impl PlainVisitor for AllTags<'_> {}

impl PlainVisitor for QuickLane {
    #[inline(always)]
    fn plain_move(&mut self, squares: PlainSquares, text: &str, span: Span) {
        self.play(text, span, Some(squares));
    }
}

impl Visitor for QuickLane {
    type Output = Option<Ending>;

    fn begin_game(&mut self) {
        self.tag_text.clear();
        self.tags.clear();
        self.places.clear();
        self.placed_all = u32::try_from(self.text.1).is_ok();
        self.screen.clear();
        self.tags_found = TagsFound::Nothing;
        self.missing_terminator = None;
        self.noted = [None; NOTED.len()];
        self.line = Frame::new(None);
        self.outer.clear();
        self.plies = 0;
        self.main_spans.clear();
        self.opening.clear();
        self.start = None;
        self.terminator = None;
        self.gave_up = false;
    }

    fn tag(&mut self, tag: RawTag<'_>) {
        let screens = self.screens_tags();
        // (a tag not kept is placed for the findings about the tags, if they are made)
        if !self.keep_tags && screens {
            self.place(&tag);
        }
        let noted = NOTED.iter().position(|&n| n == tag.name);
        if noted.is_none() && !self.keep_tags {
            // screened, not kept: its value is decoded only if the screen looks at it
            if screens {
                self.screen.add(tag.name, || tag.value());
            }
            return;
        }
        let value = tag.value();
        if screens {
            self.screen.add(tag.name, || Cow::Borrowed(&value));
        }
        self.keep_tag(tag.name, &value, tag.span, noted);
    }

    fn begin_movetext(&mut self) {
        // The tags are all read. Real files often lack a tag: the moves of a game whose
        // tags have something to report are still replayed here, and the tags checked
        // as the full check checks them once the moves are proved.
        // (when only roster tags are missing, the screen knows the finding: the tags need
        // not be read again for it)
        self.tags_found = if !self.screens_tags() || self.screen.clean() {
            TagsFound::Nothing
        } else if let Some(missing) = self.screen.only_missing() {
            TagsFound::MissingRoster(missing)
        } else {
            TagsFound::ToCheck
        };
    }

    fn move_number(&mut self, number: MoveNumber, _span: Span) {
        self.line.number = Some(number);
    }

    fn mv(&mut self, text: &str, span: Span) {
        self.play(text, span, None);
    }

    fn strength(&mut self, _mark: &str, _span: Span) {
        // a mark with no move before it in its line is a syntax finding
        if self.line.moves == 0 {
            self.gave_up = true;
        }
    }

    fn comment(&mut self, _text: &str, _span: Span) {}

    fn line_comment(&mut self, _kind: CommentKind, _text: &str, _span: Span) {}

    fn begin_variation(&mut self, _span: Span) -> Skip {
        let f = &self.line;
        let alternative_to = f.last.map(|(before, number)| (before, f.pos, number));
        // a variation before the first move of its line is left to the full check
        if alternative_to.is_none() {
            self.gave_up = true;
        }
        if self.gave_up {
            return Skip(true);
        }
        let outer = std::mem::replace(&mut self.line, Frame::new(alternative_to));
        self.outer.push(outer);
        Skip(false)
    }

    fn end_variation(&mut self, _span: Span) {
        if let Some(outer) = self.outer.pop() {
            self.line = outer;
        }
    }

    fn setup(&mut self, _fen: &str, _span: Span) {
        self.gave_up = true;
    }

    fn result(&mut self, result: ResultToken<'_>, span: Span) {
        self.terminator = Some((result.outcome, span));
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        // Some real files end no game with a result: the reader says so at the end of
        // the game, after every move (so it is the only syntax error of a game the lane
        // proves), and the full check reports just that.
        if error.kind == SyntaxErrorKind::MissingTerminator && self.missing_terminator.is_none() {
            self.missing_terminator = Some(error);
        } else {
            self.gave_up = true;
        }
    }

    fn end_game(&mut self) -> Self::Output {
        self.finish()
    }
}
