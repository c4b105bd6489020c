//! The reader: one pass over a file's decoded text that finds where each game ends and
//! gives a [`Visitor`] its tokens on the way.
//!
//! A game ends at its result token (outside comments and variations), at a line that
//! starts a tag pair once its movetext has started (or while a `{` comment is still open,
//! so that an unclosed comment cannot swallow the rest of the file), at a tag section that
//! repeats one of its tag names after an empty line (a game of tags without moves, which
//! PDN 3.0 allows), or at the end of the input. Text before a game's first tag that holds
//! no move is no game's (`stray-text`).
//!
//! Memory is bounded: the buffer holds one game (at most [`ReaderOptions::max_game_bytes`]
//! of it; a larger game is read on to its end without keeping its text, and reported as
//! `game-too-large`) and one chunk of input.
//!
//! ```
//! use pdnkit::pdn::{GameBuilder, Reader, ReaderOptions};
//! let text = "[Event \"Test\"]\n1. c3-d4 f6-g5 2. b2-c3 1-0\n";
//! let mut reader = Reader::new(text.as_bytes(), ReaderOptions::default()).unwrap();
//! let game = reader.read_game(&mut GameBuilder::default()).unwrap().unwrap();
//! assert_eq!(game.tags[0].value, "Test");
//! assert_eq!(game.moves.moves.len(), 3);
//! let pos = reader.game().position(game.moves.moves[1].span.start);
//! assert_eq!((pos.line, pos.column), (2, 10));
//! ```

use std::io::Read;

use encoding_rs::Encoding;
use memchr::{memchr, memchr2, memchr3};
use nom::IResult;
use nom::Parser as _;
use nom::bytes::complete::{tag_no_case, take_till};
use nom::character::complete::{char, digit1, space0};
use nom::sequence::{delimited, preceded};

use super::boundary;
use super::error::{ReadError, Span, SyntaxError, SyntaxErrorKind as K};
use super::game::{CommentKind, MAX_GAME_ERRORS};
use super::input::Decoder;
use super::source::Units;
use super::source::{GameSource, LineCounter, Position};
use super::token::{
    MoveNumber, RawTag, is_delimiter, is_literal_cr, is_space, is_tag_name_byte, lex_move,
    lex_move_number, lex_placeholder, lex_plain_move, may_start_result, paren_strength,
    parse_result, token_end,
};
use super::visitor::{Skip, Visitor};
use crate::rules::Square;
use crate::rules::notation::{
    ALGEBRAIC_SQUARES, NO_SQUARE, NUMERIC_SQUARES, ONE_DIGIT_SQUARES, PlainSquares,
};

/// Options of the reader.
#[derive(Clone, Copy, Debug)]
pub struct ReaderOptions {
    /// Use this encoding instead of detecting one.
    pub encoding: Option<&'static Encoding>,
    /// Read the input as text whatever its bytes: never refuse it as binary data.
    pub text: bool,
    /// Games larger than this (in bytes of UTF-8 text) are reported as `game-too-large`
    /// and skipped. A game is held a few times over while it is read, checked and
    /// written (the reader's buffer, a tree's comments), on every thread.
    pub max_game_bytes: usize,
    /// Games with more moves than this (all lines together) are reported as
    /// `game-too-large` and skipped too: a tree holds a few hundred bytes a move, and 14
    /// MB of text hold 2.4 million moves. Real games have a few hundred moves with their
    /// variations.
    pub max_game_moves: usize,
    /// Games with more tags, comments, NAGs, setups and variations than this (together,
    /// in all lines) are reported as `game-too-large` and skipped too: each becomes a
    /// node of a tree, up to a few hundred bytes from two bytes of text. Real games have
    /// at most a few thousand.
    pub max_game_items: usize,
}

/// The default of [`ReaderOptions::max_game_bytes`]: 4 MiB (real games take a few
/// kilobytes; the corpus's largest is under 100 KB).
pub const MAX_GAME_BYTES: usize = 4 << 20;

/// The default of [`ReaderOptions::max_game_moves`].
pub const MAX_GAME_MOVES: usize = 20_000;

/// The default of [`ReaderOptions::max_game_items`].
pub const MAX_GAME_ITEMS: usize = 10_000;

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            encoding: None,
            text: false,
            max_game_bytes: MAX_GAME_BYTES,
            max_game_moves: MAX_GAME_MOVES,
            max_game_items: MAX_GAME_ITEMS,
        }
    }
}

/// The deepest variation nesting the reader follows; deeper variations are reported
/// (`variation-too-deep`) and skipped, so that no input can exhaust the stack of code that
/// walks the game tree recursively.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// Where a block of a longer input starts, for a [`Reader`] that reads the block apart
/// from the text before it ([`Reader::at`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockStart {
    /// The 1-based line of the block's first byte (the block starts a line).
    pub line: u64,
    /// Whether bytes before the block were malformed and replaced (which makes any
    /// U+FFFD in a game count as a replacement).
    pub replaced_before: bool,
    /// The bytes of the input before the block (for [`GameSource::offset`]).
    pub offset: u64,
}

/// Bytes of text a token may take without being checked against the end of the buffer:
/// the reader reads on before a token that starts closer than this to the end of what it
/// has (unless the input ends there).
const LOOKAHEAD: usize = 4096;

/// Bytes past a token's end that its lexer may look at.
const PEEK: usize = 16;

/// Bytes after a result token looked at for text on its line
/// ([`Parser::text_after_result`]); less than [`LOOKAHEAD`].
const NEAR_RESULT: usize = 256;

/// Reads the games of one input, one at a time; see the module documentation.
pub struct Reader<R> {
    dec: Decoder<R>,
    opts: ReaderOptions,
    buf: String,
    /// Where the item being read (or the last one read) starts in `buf`.
    start: usize,
    /// Where the last item read ends in `buf`.
    end: usize,
    eof: bool,
    done: bool,
    /// The file position of `buf[start]`.
    counter: LineCounter,
    /// The file position where the item being read (or the last one) starts.
    item_start: Position,
    /// The input's byte offset of `buf[start]`, and of the item being read (or the last
    /// one), and how decoded text counts in input bytes.
    offset: u64,
    item_offset: u64,
    units: Units,
    next_index: u64,
    /// The last game read: its index and stray prefix (its text is `buf[start..end]`).
    index: u64,
    stray_prefix: usize,
    /// Bytes before the input were malformed (for a block read apart).
    replaced_before: bool,
    /// The last problem's item (a game skipped, stray text) is held whole in
    /// `buf[start..end]`.
    held_whole: bool,
}

/// How a game's text ended, as the parse found it (offsets in the item's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Right after its result token, at this offset.
    Result(usize),
    /// At the start of a line that starts a tag pair: the next game's, or (for text
    /// before a first tag) its own.
    Line(usize),
    /// At the end of the input.
    Input,
    /// The probe saw what it looks for, here.
    Probed,
}

/// What a step of the parse needs next.
enum Step {
    /// More input (the buffer ends before the next token can be read whole).
    More,
    /// The text ended so.
    Ended(End),
}

impl<R: Read> Reader<R> {
    /// Starts reading: detects the encoding from a prefix (unless `opts.encoding` is set).
    pub fn new(input: R, opts: ReaderOptions) -> std::io::Result<Reader<R>> {
        let dec = Decoder::with_options(input, opts.encoding, opts.text)?;
        let (offset, units) = (dec.bom_len() as u64, Units::of(dec.encoding()));
        Ok(Reader {
            dec,
            opts,
            buf: String::new(),
            start: 0,
            end: 0,
            eof: false,
            done: false,
            counter: LineCounter::new(Position::START),
            item_start: Position::START,
            offset,
            item_offset: offset,
            units,
            next_index: 1,
            index: 0,
            stray_prefix: 0,
            replaced_before: false,
            held_whole: false,
        })
    }

    /// A reader of a block of text that starts a line of a longer input, in that input's
    /// encoding (UTF-8 when `opts.encoding` is `None`: it is not detected from the block):
    /// it gives the items a reader of the whole input gives for the block's games when
    /// the block starts where a game surely starts (see [`super::boundary`]), their indices
    /// counted from 1 in the block.
    pub fn at(input: R, opts: ReaderOptions, start: BlockStart) -> std::io::Result<Self> {
        let opts = ReaderOptions {
            encoding: Some(opts.encoding.unwrap_or(encoding_rs::UTF_8)),
            ..opts
        };
        let mut reader = Reader::new(input, opts)?;
        reader.counter.at.line = start.line;
        reader.replaced_before = start.replaced_before;
        reader.offset += start.offset;
        Ok(reader)
    }

    /// [`at`](Self::at) for a block whose text is already decoded (`text`), followed by
    /// what `input` holds: the text is read where it is, not copied.
    /// A byte order mark that starts it is dropped, as the decoder drops it.
    pub fn at_text(
        input: R,
        mut text: String,
        opts: ReaderOptions,
        start: BlockStart,
    ) -> std::io::Result<Self> {
        let mut bom = 0;
        if text.starts_with('\u{feff}') {
            bom = '\u{feff}'.len_utf8();
            text.drain(..bom);
        }
        let mut reader = Reader::at(input, opts, start)?;
        reader.offset += bom as u64;
        reader.buf = text;
        Ok(reader)
    }

    /// The encoding used to decode the input.
    pub fn encoding(&self) -> &'static Encoding {
        self.dec.encoding()
    }

    /// The guess of a legacy encoding, when the encoding was guessed (a caller reporting
    /// problems says it: [`super::input::Guess::read_error`]).
    pub fn guess(&self) -> Option<super::input::Guess> {
        self.dec.guess()
    }

    /// How many game indices were given so far (to games, and to games too large).
    pub fn games_indexed(&self) -> u64 {
        self.next_index - 1
    }

    /// The input read from.
    pub fn into_inner(self) -> R {
        self.dec.into_inner()
    }

    /// The game last read by [`read_game`](Self::read_game): its text and place (the
    /// text is empty when the last item was not a game).
    pub fn game(&self) -> GameSource<'_> {
        GameSource {
            index: self.index,
            text: self.buf.get(self.start..self.end).unwrap_or_default(),
            start: self.item_start,
            offset: self.item_offset,
            units: self.units,
            stray_prefix: self.stray_prefix,
        }
    }

    /// The text of the item the last problem was about (a game skipped for its number of
    /// moves or items, text outside any game), as read, when the reader held it whole:
    /// not for an item larger than [`ReaderOptions::max_game_bytes`], which is read past
    /// without being kept.
    pub fn skipped_text(&self) -> Option<&str> {
        if self.held_whole {
            self.buf.get(self.start..self.end)
        } else {
            None
        }
    }

    /// Reads the next game, giving `visitor` its events: the visitor's output, or a
    /// problem of the input that is no game's (a game too large to read, text outside any
    /// game, binary data, a read error). `None` at the end of the input. After an I/O
    /// error or binary data, the reading ends.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, ReadError>> {
        self.held_whole = false;
        if self.done {
            return None;
        }
        if self.dec.is_binary() {
            self.done = true;
            return Some(Err(ReadError::At {
                kind: K::NotPdn,
                game_index: None,
                line: 1,
                column: 1,
                message: "binary data (dense with NUL or control bytes), not a PDN file; \
                          --text reads it as text"
                    .into(),
            }));
        }
        match self.next_item(visitor) {
            Ok(Some(item)) => Some(item),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e.into()))
            }
        }
    }

    /// Moves past the last item and the blanks after it; `false` at the end of the input.
    fn pass_blanks(&mut self) -> std::io::Result<bool> {
        self.advance(self.start, self.end);
        self.start = self.end;
        self.index = 0;
        self.stray_prefix = 0;
        loop {
            let rest = &self.buf.as_bytes()[self.start..];
            // (the blanks the reader skips within a game, and the block cutter between
            // games: vertical tab among them)
            let blanks = rest.iter().take_while(|&&c| is_space(c)).count();
            // (ASCII is UTF-8)
            self.advance(self.start, self.start + blanks);
            self.start += blanks;
            self.end = self.start;
            if self.start < self.buf.len() {
                self.item_start = self.counter.at;
                self.item_offset = self.offset;
                return Ok(true);
            }
            if self.eof {
                return Ok(false);
            }
            self.refill(None)?;
        }
    }

    /// Moves the line counter and the input offset past `buf[from..to]`.
    fn advance(&mut self, from: usize, to: usize) {
        let text = &self.buf[from..to];
        self.counter.advance(text);
        self.offset += self.units.bytes(text);
    }

    /// Reads more input, first dropping the text before the item being read (and, of an
    /// item too large to hold, what was read of it).
    fn refill(&mut self, state: Option<&mut State>) -> std::io::Result<()> {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.end = self.end.saturating_sub(self.start);
            self.start = 0;
        }
        if let Some(st) = state {
            if !st.too_large && st.pos > self.opts.max_game_bytes {
                // too large to hold: read on to its end without keeping it
                st.too_large = true;
                st.events = false;
            }
            if st.too_large {
                let drop = st.droppable(self.buf.as_bytes());
                if drop > 0 {
                    self.advance(0, drop);
                    st.moved_back(&self.buf.as_bytes()[..drop]);
                    self.buf.drain(..drop);
                }
            }
        }
        // A game past 1 MiB may grow to the limit: room for that at once rather than in
        // doublings, each of which copies the text.
        let most = (self.opts.max_game_bytes).saturating_add(4 * super::input::CHUNK);
        if self.buf.len() > 1 << 20 && self.buf.capacity() < most {
            self.buf.reserve_exact(most - self.buf.len());
        }
        if self.dec.read_into(&mut self.buf)? == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// Reads what comes next: a game or a problem; `None` at the end of the input.
    fn next_item<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> std::io::Result<Option<Result<V::Output, ReadError>>> {
        if !self.pass_blanks()? {
            return Ok(None);
        }
        // A game that starts with a tag (most do) is read at once; text before a first tag
        // is probed first: without a move it is no game's.
        if self.buf.as_bytes()[self.start] == b'[' {
            return self.read_game_from(visitor, 0, None).map(Some);
        }
        let mut probe = State::new(Mode::Probe, self.counter.at.column == 1);
        probe.probe_bytes = self.opts.max_game_bytes;
        let end = self.parse(&mut probe, &mut Quiet)?;
        let first = if self.next_index == 1 {
            "comments before the first game"
        } else {
            "comments outside any game"
        };
        let stray = match end {
            _ if probe.too_large && (probe.in_movetext || probe.tags_seen) => {
                let index = self.next_index;
                self.next_index += 1;
                return Ok(Some(Err(self.problem(
                    K::GameTooLarge,
                    Some(index),
                    &self.larger_than(),
                ))));
            }
            _ if probe.too_large => {
                let max = self.opts.max_game_bytes;
                format!("{first}, larger than {max} bytes")
            }
            End::Probed => return self.read_game_from(visitor, 0, None).map(Some),
            // (a line where a game surely starts ends the text before it, an item of its
            // own, as a block cut there ends)
            End::Line(at)
                if probe.in_movetext
                    && !probe.in_comment()
                    && !boundary::starts_game(&self.buf.as_bytes()[self.start..], at) =>
            {
                let note = SyntaxError::new(
                    K::StrayText,
                    Span::new(0, at),
                    "text before the first tag holds no moves; skipped",
                );
                return self.read_game_from(visitor, at, Some(note)).map(Some);
            }
            _ if !probe.in_movetext => first.to_string(),
            _ => "text with no tags and no moves".to_string(),
        };
        let item = &self.buf[self.start..self.end];
        if self.replaced() && !probe.too_large && item.trim().chars().all(|c| c == '\u{fffd}') {
            // what decoding made of malformed bytes (the odd last byte of UTF-16, say)
            let what = "bytes that are not valid in the file's encoding, replaced by U+FFFD";
            return Ok(Some(Err(self.problem(K::DecodingReplaced, None, what))));
        }
        self.held_whole = !probe.too_large;
        Ok(Some(Err(self.problem(K::StrayText, None, &stray))))
    }

    /// Reads the game at `start` from byte `from` of its text (after a stray prefix,
    /// reported as `note`), giving `visitor` its events.
    fn read_game_from<V: Visitor>(
        &mut self,
        visitor: &mut V,
        from: usize,
        note: Option<SyntaxError>,
    ) -> std::io::Result<Result<V::Output, ReadError>> {
        let starts_line = self.counter.at.column == 1;
        let mut st = State::new(Mode::Play, starts_line || from > 0);
        st.limits = (self.opts.max_game_moves, self.opts.max_game_items);
        st.pos = from;
        st.errors.extend(note);
        visitor.begin_game();
        self.parse(&mut st, visitor)?;
        let index = self.next_index;
        self.next_index += 1;
        if st.too_large || self.end - self.start > self.opts.max_game_bytes {
            return Ok(Err(self.problem(
                K::GameTooLarge,
                Some(index),
                &self.larger_than(),
            )));
        }
        let (max_moves, max_items) = (self.opts.max_game_moves, self.opts.max_game_items);
        let over = if st.moves > max_moves {
            Some(format!("game with more than {max_moves} moves"))
        } else if st.items > max_items {
            Some(format!(
                "game with more than {max_items} tags, comments, NAGs, setups and variations"
            ))
        } else {
            None
        };
        if let Some(what) = over {
            self.held_whole = true;
            return Ok(Err(self.problem(K::GameTooLarge, Some(index), &what)));
        }
        self.index = index;
        self.stray_prefix = from;
        let text = &self.buf[self.start..self.end];
        st.finish(text, visitor, self.replaced());
        Ok(Ok(visitor.end_game()))
    }

    /// Parses the item at `start` until it ends, giving `visitor` the events `st` lets
    /// through, reading on as needed; sets `end`.
    fn parse<V: Visitor>(&mut self, st: &mut State, visitor: &mut V) -> std::io::Result<End> {
        loop {
            let step = {
                let text = &self.buf[self.start..];
                Parser {
                    text,
                    b: text.as_bytes(),
                    eof: self.eof,
                    st: &mut *st,
                    v: &mut *visitor,
                }
                .run()
            };
            match step {
                Step::More => self.refill(Some(st))?,
                Step::Ended(end) => {
                    self.end = self.start
                        + match end {
                            End::Result(at) | End::Line(at) => at,
                            End::Input | End::Probed => self.buf.len() - self.start,
                        };
                    st.end = end;
                    return Ok(end);
                }
            }
        }
    }

    /// Whether malformed input was replaced by U+FFFD (so that a U+FFFD in the text stands
    /// for bytes that were not valid).
    fn replaced(&self) -> bool {
        self.dec.replacements() > 0 || self.replaced_before
    }

    /// A problem of the item being read, where it starts: a game too large (`index`), or
    /// stray text.
    fn problem(&self, kind: K, game_index: Option<u64>, what: &str) -> ReadError {
        ReadError::At {
            kind,
            game_index,
            line: self.item_start.line,
            column: self.item_start.column,
            message: format!("{what}; skipped"),
        }
    }

    /// What `game-too-large` says of a game over the size limit.
    fn larger_than(&self) -> String {
        format!("game larger than {} bytes", self.opts.max_game_bytes)
    }
}

/// A visitor that takes nothing (for the probe of text before a first tag).
struct Quiet;

impl Visitor for Quiet {
    type Output = ();
    fn end_game(&mut self) {}
}

/// Of an item too large to hold, a token cut by the end of the buffer: what is read on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Partial {
    None,
    /// To the next delimiter.
    Token,
    /// To the line's end.
    Line,
}

/// What the parse of an item is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Reading a game, its events for the visitor.
    Play,
    /// Looking at text that does not start with a tag, without events, for a move or a
    /// result (then it is a game) or a tag (then the text before it may be stray).
    Probe,
}

/// The state of the parse of one item.
struct State {
    mode: Mode,
    /// The next byte to read (in the item's text).
    pos: usize,
    /// Whether events go to the visitor (not in a probe, nor once a game is too large or
    /// over the limits).
    events: bool,
    /// The text starts a line (for `%` comments and tag lines at its very start).
    starts_line: bool,
    /// Whether the movetext has started (any token but tags and comments).
    in_movetext: bool,
    /// Whether `begin_movetext` was given.
    movetext_begun: bool,
    tags_seen: bool,
    /// Where the names of the game's tags are (for a tag section that starts a game
    /// without moves: see [`repeats_a_tag_name`]).
    /// The variation nesting followed (at most [`MAX_VARIATION_DEPTH`]).
    depth: usize,
    /// Where each variation open for the visitor started, for the error of one unclosed.
    open: Vec<usize>,
    /// Inside a variation whose events are not given (the visitor skipped it, or it is
    /// too deep): the nesting inside it (0: not inside one).
    skip: usize,
    /// That variation is too deep: its moves are not counted either.
    too_deep: bool,
    /// Whether each line open (the main line first) has a move yet (a strength mark
    /// before the first move of a line is an error).
    line_moves: Vec<bool>,
    /// Moves and other items (tags, comments, NAGs, setups, variations) counted for the
    /// limits of [`ReaderOptions`], and those limits (past them no more events are given).
    moves: usize,
    items: usize,
    limits: (usize, usize),
    /// Of the probe of text before a first tag: a tag line further than this from the
    /// start ends the text before it (too large to belong to the game as its prefix).
    probe_bytes: usize,
    /// Of an item too large to hold: a token cut by the end of the buffer, read on.
    partial: Partial,
    /// Syntax errors found, in text order (given to the visitor at the end of the game),
    /// at most [`MAX_GAME_ERRORS`] and one that says so.
    errors: Vec<SyntaxError>,
    /// A `{` comment is open at `pos`: where it started, and whether a tag line can end
    /// it at `pos` (the byte before is a line break).
    comment: Option<usize>,
    /// The result token, once read.
    result: Option<Span>,
    /// The probe found a move or a result.
    found_move: bool,
    /// The item is larger than the buffer may hold: read on without its text.
    too_large: bool,
    /// Of an item too large: the line at `pos` holds only blanks before it (its start
    /// was dropped).
    blank_line_before: bool,
    end: End,
}

impl State {
    fn new(mode: Mode, starts_line: bool) -> State {
        State {
            mode,
            pos: 0,
            events: mode == Mode::Play,
            starts_line,
            in_movetext: false,
            movetext_begun: false,
            tags_seen: false,
            depth: 0,
            open: Vec::new(),
            skip: 0,
            too_deep: false,
            line_moves: vec![false],
            moves: 0,
            items: 0,
            limits: (usize::MAX, usize::MAX),
            probe_bytes: usize::MAX,
            partial: Partial::None,
            errors: Vec::new(),
            comment: None,
            result: None,
            found_move: false,
            too_large: false,
            blank_line_before: false,
            end: End::Input,
        }
    }

    /// Whether a `{` comment is open where the text ended.
    fn in_comment(&self) -> bool {
        self.comment.is_some()
    }

    /// Whether the events of the text at `pos` go to the visitor.
    #[inline(always)]
    fn visible(&self) -> bool {
        self.events && self.skip == 0
    }

    /// Records a syntax error (when events are given).
    fn error(&mut self, kind: K, start: usize, end: usize, message: impl Into<String>) {
        if !self.visible() {
            return;
        }
        match self.errors.len() {
            n if n < MAX_GAME_ERRORS => self
                .errors
                .push(SyntaxError::new(kind, Span::new(start, end), message)),
            n if n == MAX_GAME_ERRORS => self.errors.push(SyntaxError::new(
                K::TooManyErrors,
                Span::new(start, end),
                format!(
                    "more than {MAX_GAME_ERRORS} syntax errors in this game: the rest are not reported"
                ),
            )),
            _ => {}
        }
    }

    /// How much of `b` (the item's text so far, too large to hold) may be dropped: what
    /// is read, but for the start of the current line when it is near.
    fn droppable(&self, b: &[u8]) -> usize {
        const NEAR: usize = 4096;
        let pos = self.pos.min(b.len());
        let from = pos.saturating_sub(NEAR);
        match memchr::memrchr2(b'\n', b'\r', &b[from..pos]) {
            Some(k) => from + k + 1,
            None => pos,
        }
    }

    /// The text's first bytes, `dropped`, were dropped.
    fn moved_back(&mut self, dropped: &[u8]) {
        let drop = dropped.len();
        self.pos -= drop;
        self.comment = self.comment.map(|c| c.saturating_sub(drop));
        // (what the dropped text says of the line it leaves open)
        let line = memchr::memrchr2(b'\n', b'\r', dropped);
        let blanks = |b: &[u8]| b.iter().all(|&c| matches!(c, b' ' | b'\t' | 0x0b | 0x0c));
        self.blank_line_before = match line {
            Some(k) => blanks(&dropped[k + 1..]),
            None => self.blank_line_before && blanks(dropped),
        };
        self.starts_line = line == Some(drop - 1);
    }

    /// A move whose events are not given: counted (but in a variation too deep), or the
    /// move a probe looks for.
    #[cold]
    fn quiet_move(&mut self) -> Option<Step> {
        if self.skip > 0 && self.too_deep {
            return None;
        }
        self.count_move();
        if self.mode == Mode::Probe && self.skip == 0 {
            self.found_move = true;
            return Some(Step::Ended(End::Probed));
        }
        None
    }

    /// Counts a move; past the limit, no more events.
    fn count_move(&mut self) {
        self.moves += 1;
        if self.moves > self.limits.0 {
            self.events = false;
        }
    }

    /// Counts an item (a tag, comment, NAG, setup or variation); past the limit, no more
    /// events.
    fn count_item(&mut self) {
        self.items += 1;
        if self.items > self.limits.1 {
            self.events = false;
        }
    }

    /// Ends the game for the visitor: closes what is open, says what is missing, gives
    /// the errors (with one for each U+FFFD that replaced malformed input, when `replaced`).
    fn finish<V: Visitor>(&mut self, text: &str, v: &mut V, replaced: bool) {
        let len = text.len();
        if let Some(start) = self.comment.take() {
            self.error(
                K::UnterminatedComment,
                start,
                len,
                "comment not closed before the end of the game",
            );
            // (an item as any comment: counted against the limit)
            self.count_item();
            if self.visible() {
                v.comment(&text[start + 1..len], Span::new(start, len));
            }
        }
        if self.skip > 0 || !self.open.is_empty() {
            let from = self.open.first().copied().unwrap_or(len);
            self.skip = 0;
            self.error(K::UnbalancedVariation, from, from + 1, "`(` not closed");
        }
        while self.open.pop().is_some() {
            v.end_variation(Span::new(len, len));
        }
        if !self.movetext_begun {
            self.movetext_begun = true;
            // (the game ends here: there is nothing left to skip)
            let _ = v.begin_movetext();
        }
        if self.result.is_none() {
            // where the game's text ends, not after the blank lines that follow it
            let end = text.trim_end().len();
            self.error(
                K::MissingTerminator,
                end,
                end,
                "game ends without a result or `*`",
            );
        }
        // (a game's text holds U+FFFD where malformed input was replaced: each is said)
        if replaced {
            for (at, c) in text.match_indices('\u{fffd}') {
                self.error(
                    K::DecodingReplaced,
                    at,
                    at + c.len(),
                    "bytes that are not valid in the file's encoding were replaced by U+FFFD",
                );
            }
        }
        for e in self.errors.drain(..) {
            v.syntax_error(e);
        }
    }
}

fn setup_command(i: &str) -> IResult<&str, &str> {
    delimited(
        (char('/'), space0, tag_no_case("FEN"), space0, char('"')),
        take_till(|c| c == '"' || c == '\n' || c == '\r'),
        (char('"'), space0, char('/')),
    )
    .parse(i)
}

fn nag_token(i: &str) -> IResult<&str, &str> {
    preceded(char('$'), digit1).parse(i)
}

/// One step of the parse of an item: the text read so far, the state, the visitor.
struct Parser<'t, 's, V> {
    text: &'t str,
    b: &'t [u8],
    eof: bool,
    st: &'s mut State,
    v: &'s mut V,
}

impl<V: Visitor> Parser<'_, '_, V> {
    /// Whether a token that ends at `end` (its lexer having looked up to `PEEK` bytes
    /// further) was read whole: else more input is needed first.
    #[inline(always)]
    fn whole(&self, end: usize) -> bool {
        self.eof || end + PEEK < self.b.len()
    }

    /// More input is needed for the token at `pos`; of an item too large to hold, the
    /// token is read on as `partial` says when it is long (its start is not kept).
    fn more(&mut self, partial: Partial) -> Option<Step> {
        if self.st.too_large && self.b.len() - self.st.pos > LOOKAHEAD {
            self.st.partial = partial;
            self.st.pos = self.b.len();
        }
        Some(Step::More)
    }

    #[inline(always)]
    fn movetext(&mut self) {
        // (events never come back within an item: once the movetext started, nothing is
        // left to do here)
        if !self.st.in_movetext {
            self.st.in_movetext = true;
            if self.st.events {
                self.st.movetext_begun = true;
                if self.v.begin_movetext() == Skip(true) {
                    // (read on to the game's end, as a game too large is read)
                    self.st.events = false;
                }
            }
        }
    }

    /// Whether `i` starts a line, for a `%` comment: right after a line break.
    fn at_line_start(&self, i: usize) -> bool {
        if i == 0 {
            self.st.starts_line
        } else {
            matches!(self.b[i - 1], b'\n' | b'\r')
        }
    }

    /// Whether only blanks stand between the line's start and `i` (for a tag line), and
    /// where that line starts.
    fn line_start_before(&self, i: usize) -> Option<usize> {
        let b = self.b;
        let mut k = i;
        loop {
            if k == 0 {
                return (self.st.starts_line || self.st.blank_line_before).then_some(0);
            }
            match b[k - 1] {
                b'\n' | b'\r' => return Some(k),
                b' ' | b'\t' | 0x0b | 0x0c => k -= 1,
                b'r' if k >= 2 && b[k - 2] == b'\\' => k -= 2,
                _ => return None,
            }
        }
    }

    /// Whether the move number `1.` at `i` starts a game although a variation is open:
    /// after a line that ends with a result (see `boundary`), as the block cutter cuts.
    /// (Outside variations and comments the game already ended at that result.)
    fn first_move_of_a_game(&self, i: usize) -> bool {
        self.st.depth > 0 && i > 0 && boundary::starts_game(self.b, i)
    }

    /// Reads tokens until the item ends or the buffer does.
    fn run(&mut self) -> Step {
        if self.st.partial != Partial::None {
            let pos = self.st.pos;
            let end = match self.st.partial {
                Partial::Token => token_end(self.b, pos),
                _ => self.line_end(pos),
            };
            self.st.pos = end;
            if end == self.b.len() && !self.eof {
                return Step::More;
            }
            self.st.partial = Partial::None;
        }
        if self.st.comment.is_some() {
            if let Some(step) = self.comment_on() {
                return step;
            }
        }
        let len = self.b.len();
        // (a token is read only with LOOKAHEAD bytes after it, or at the end of the input)
        let more_from = match self.eof {
            true => usize::MAX,
            false => (len + 1).saturating_sub(LOOKAHEAD),
        };
        loop {
            let i = self.st.pos;
            if i >= more_from {
                return Step::More;
            }
            if i >= len {
                return Step::Ended(End::Input);
            }
            let c = self.b[i];
            if is_space(c) {
                self.st.pos += 1;
                continue;
            }
            // the two tokens nearly every ply has, read from a window of eight bytes
            if let Some(window) = self.b.get(i..i + 8) {
                match common_token(window) {
                    Common::Move(len) => {
                        self.movetext();
                        if let Some(step) = self.emit_whole_move(i, i + len, i + len, None) {
                            return step;
                        }
                        self.pass_a_space();
                        continue;
                    }
                    Common::Squares(len, squares) => {
                        self.movetext();
                        if let Some(step) = self.emit_whole_move(i, i + len, i + len, Some(squares))
                        {
                            return step;
                        }
                        self.pass_a_space();
                        continue;
                    }
                    Common::Number(len, number) => {
                        if number == 1 && self.first_move_of_a_game(i) {
                            self.st.pos = i;
                            return Step::Ended(End::Line(i));
                        }
                        self.movetext();
                        if self.st.visible() {
                            let n = MoveNumber {
                                number,
                                black: false,
                            };
                            self.v.move_number(n, Span::new(i, i + len));
                        }
                        self.st.pos = i + len;
                        self.pass_a_space();
                        continue;
                    }
                    Common::Other => {}
                }
            }
            if is_literal_cr(self.b, i) {
                self.st.pos += 2;
                continue;
            }
            let step = match c {
                b'{' => {
                    self.st.comment = Some(i);
                    self.st.pos = i + 1;
                    self.comment_on()
                }
                b'%' if self.at_line_start(i) => self.line_comment(CommentKind::Percent),
                b';' => self.line_comment(CommentKind::Semicolon),
                b'[' => self.bracket(),
                b'(' => self.open_paren(),
                b')' => self.close_paren(),
                b'$' => self.nag(),
                b'/' => self.setup(),
                b'!' | b'?' => self.marks(),
                b'"' => self.quoted(),
                _ => self.word(),
            };
            if let Some(step) = step {
                return step;
            }
        }
    }

    /// Passes the space after a common token (most tokens have one after them): the
    /// buffer holds the byte after such a token.
    #[inline(always)]
    fn pass_a_space(&mut self) {
        if self.b[self.st.pos] == b' ' {
            self.st.pos += 1;
        }
    }

    /// Reads on in the `{` comment open at `pos`: `None` once it is closed.
    fn comment_on(&mut self) -> Option<Step> {
        let b = self.b;
        let start = self.st.comment.expect("a comment is open");
        let mut i = self.st.pos;
        loop {
            let Some(o) = memchr3(b'}', b'\n', b'\r', &b[i..]) else {
                // (the nested `{` of the bytes passed are found when the comment ends)
                if !self.eof {
                    self.st.pos = self.nested_braces(i, b.len());
                    return Some(Step::More);
                }
                self.nested_braces(i, b.len());
                self.st.pos = b.len();
                return Some(Step::Ended(End::Input));
            };
            let k = i + o;
            self.nested_braces(i, k);
            if b[k] == b'}' {
                self.st.comment = None;
                self.st.pos = k + 1;
                self.st.count_item();
                if self.st.visible() {
                    self.v
                        .comment(&self.text[start + 1..k], Span::new(start, k + 1));
                }
                return None;
            }
            // a line break: a tag line after it ends the comment, unclosed, and so does
            // the first move of a game after a result (see `boundary`)
            let next = k + 1;
            if next + 1 >= b.len() && !self.eof {
                self.st.pos = k;
                return Some(Step::More);
            }
            if b.get(next) == Some(&b'1') && next > 0 && boundary::starts_game(b, next) {
                self.st.pos = next;
                return Some(Step::Ended(End::Line(next)));
            }
            if b.get(next) == Some(&b'[') {
                match self.tag_line_at(next) {
                    None => {
                        self.st.pos = k;
                        return Some(Step::More);
                    }
                    Some(true) => {
                        if let Some(step) = self.tag_line(next, next) {
                            return Some(step);
                        }
                    }
                    Some(false) => {}
                }
            }
            i = next;
        }
    }

    /// Reports the `{` in `b[from..to]` (inside a comment).
    fn nested_braces(&mut self, from: usize, to: usize) -> usize {
        let mut i = from;
        while let Some(o) = memchr(b'{', &self.b[i..to]) {
            let k = i + o;
            self.st.error(
                K::NestedComment,
                k,
                k + 1,
                "`{` inside a comment: PDN comments do not nest",
            );
            i = k + 1;
        }
        to
    }

    fn line_comment(&mut self, kind: CommentKind) -> Option<Step> {
        let start = self.st.pos;
        let Some(o) = memchr2(b'\n', b'\r', &self.b[start..]) else {
            if !self.eof {
                return self.more(Partial::Line);
            }
            self.emit_line_comment(kind, start, self.b.len());
            return None;
        };
        self.emit_line_comment(kind, start, start + o);
        None
    }

    fn emit_line_comment(&mut self, kind: CommentKind, start: usize, end: usize) {
        self.st.count_item();
        if self.st.visible() {
            self.v
                .line_comment(kind, &self.text[start + 1..end], Span::new(start, end));
        }
        self.st.pos = end;
    }

    /// Whether the `[` at `i` starts a tag pair (`[`, blanks, a name, blanks, `"`);
    /// `None` when the buffer ends before that can be told.
    fn tag_line_at(&self, i: usize) -> Option<bool> {
        let (name, quote) = tag_pair_start(self.b, i);
        if quote >= self.b.len() {
            return if self.eof { Some(false) } else { None };
        }
        Some(!name.is_empty() && self.b[quote] == b'"')
    }

    /// A line starting at `line` whose `[` at `bracket` starts a tag pair: where a game
    /// may end. `Some` when the item ends there.
    fn tag_line(&mut self, line: usize, bracket: usize) -> Option<Step> {
        let st = &mut *self.st;
        let ends = if st.in_movetext || st.comment.is_some() {
            // (a tag line right at the item's start ends nothing)
            line > 0 || st.too_large
        } else if st.too_large || line > st.probe_bytes {
            // (of text too large to hold, or to be a game's prefix: a tag line ends what
            // holds no tags)
            !st.tags_seen && line > 0
        } else {
            st.tags_seen
                && empty_line_before(self.b, 0, line)
                && repeats_a_tag_name(self.b, 0, line, bracket)
        };
        if !ends {
            return None;
        }
        if st.mode == Mode::Probe && !st.tags_seen && !st.too_large {
            // the text before the first tag line ends here (see `Reader::next_item`)
            st.pos = line;
            return Some(Step::Ended(End::Line(line)));
        }
        st.pos = line;
        Some(Step::Ended(End::Line(line)))
    }

    /// A `[`: a tag pair, or the line where a game ends.
    fn bracket(&mut self) -> Option<Step> {
        let i = self.st.pos;
        if let Some(line) = self.line_start_before(i) {
            match self.tag_line_at(i) {
                None => return Some(Step::More),
                Some(true) => {
                    if let Some(step) = self.tag_line(line, i) {
                        return Some(step);
                    }
                }
                Some(false) => {}
            }
        }
        self.tag()
    }

    fn line_end(&self, from: usize) -> usize {
        memchr2(b'\n', b'\r', &self.b[from..]).map_or(self.b.len(), |o| from + o)
    }

    /// Of a result token ending at `end`: where text on the rest of its line starts and
    /// that line ends, when there is text that starts no game (not a tag, a comment, nor
    /// a first move number `1.`). Looked for within the next [`NEAR_RESULT`] bytes, which
    /// the buffer holds whatever its cut (so that a block read apart ends as the whole
    /// input does).
    fn text_after_result(&self, end: usize) -> Option<(usize, usize)> {
        let b = self.b;
        let limit = b.len().min(end + NEAR_RESULT);
        let mut k = end;
        // (blanks, and the literal `\r` some programs end lines with)
        while k < limit && (matches!(b[k], b' ' | b'\t') || is_literal_cr(b, k)) {
            k += if b[k] == b'\\' { 2 } else { 1 };
        }
        if k >= limit {
            return None;
        }
        let starts_item =
            matches!(b[k], b'\n' | b'\r' | b'[' | b'{' | b';' | b'%') || b[k..].starts_with(b"1.");
        (!starts_item).then(|| (k, self.line_end(k)))
    }

    fn skip_blanks(&self, mut i: usize) -> usize {
        while i < self.b.len() && (self.b[i] == b' ' || self.b[i] == b'\t') {
            i += 1;
        }
        i
    }

    /// A tag pair `[Name "value"]` at `pos`: read in one pass from its `[` to its `]`
    /// (the end of its line is looked for only when it is not closed so).
    fn tag(&mut self) -> Option<Step> {
        let start = self.st.pos;
        let b = self.b;
        // (a tag that runs to the end of the buffer is read again with more)
        let cut = |this: &mut Self| {
            if this.eof {
                None
            } else {
                this.more(Partial::Line)
            }
        };
        let mut i = self.skip_blanks(start + 1);
        let name_start = i;
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'"' | b']' | b'[') {
            i += 1;
        }
        let name_end = i;
        i = self.skip_blanks(i);
        if i >= b.len() && !self.eof {
            return self.more(Partial::Line);
        }
        if name_end == name_start || b.get(i) != Some(&b'"') {
            // skip to the `]` on this line, or to the line end
            let le = self.line_end(start);
            if le == b.len() && !self.eof {
                return self.more(Partial::Line);
            }
            let end = memchr(b']', &b[start..le]).map_or(le, |o| start + o + 1);
            self.st.error(
                K::MalformedTag,
                start,
                end,
                "a tag pair is `[Name \"value\"]`",
            );
            self.after_tag(false);
            self.st.pos = end;
            return None;
        }
        let value_start = i + 1;
        // the value, to its closing quote: a backslash escapes the next byte unless that
        // ends the line; the value may not span lines (a CR before the quote ends it too)
        let mut j = value_start;
        let mut escaped = false;
        let value_end = loop {
            // (the plain bytes of the value at once: most values have nothing else)
            while j < b.len() && !VALUE_STOPS[usize::from(b[j])] {
                j += 1;
            }
            match b.get(j) {
                None => break None,
                Some(b'"') => break Some(j),
                Some(b'\\') => {
                    escaped = true;
                    j += if matches!(b.get(j + 1), Some(b'\n' | b'\r') | None) {
                        1
                    } else {
                        2
                    };
                }
                Some(b'\n' | b'\r') => break None,
                Some(_) => j += 1,
            }
        };
        let Some(value_end) = value_end.filter(|&k| k < b.len()) else {
            let le = self.line_end(start);
            if le == b.len() && !self.eof {
                return cut(self);
            }
            self.st.error(
                K::UnterminatedString,
                start,
                le,
                "tag value not closed by `\"` on its line",
            );
            self.emit_tag(
                start,
                le,
                (name_start, name_end),
                (value_start, le),
                escaped,
            );
            self.st.pos = le;
            return None;
        };
        let mut k = self.skip_blanks(value_end + 1);
        if k >= b.len() && !self.eof {
            return self.more(Partial::Line);
        }
        if b.get(k) == Some(&b']') {
            k += 1;
        } else {
            // what follows on the line, to a `]`, is the tag's (strings in it read as such)
            let le = self.line_end(start);
            if le == b.len() && !self.eof {
                return self.more(Partial::Line);
            }
            k = tag_tail_end(&b[..le], value_end + 1);
            self.st
                .error(K::MalformedTag, start, k, "tag pair not closed by `]`");
        }
        self.emit_tag(
            start,
            k,
            (name_start, name_end),
            (value_start, value_end),
            escaped,
        );
        self.st.pos = k;
        None
    }

    /// What a tag pair (or what tried to be one) changes: a first tag of text before a
    /// game's tags ends the probe.
    fn after_tag(&mut self, pair: bool) {
        let _ = pair;
        if !self.st.in_movetext {
            self.st.tags_seen = true;
        }
    }

    fn emit_tag(
        &mut self,
        start: usize,
        end: usize,
        name: (usize, usize),
        value: (usize, usize),
        escaped: bool,
    ) {
        if self.st.in_movetext {
            self.st.error(
                K::TagInMovetext,
                start,
                end,
                "tag pair after the movetext started; ignored",
            );
            return;
        }
        self.st.tags_seen = true;
        self.st.count_item();
        if self.st.visible() {
            self.v.tag(RawTag {
                name: &self.text[name.0..name.1],
                raw_value: &self.text[value.0..value.1],
                escaped,
                span: Span::new(start, end),
                value_span: Span::new(value.0, value.1),
            });
        }
    }

    fn open_paren(&mut self) -> Option<Step> {
        let start = self.st.pos;
        if let Some(end) = paren_strength(self.b, start) {
            self.movetext();
            self.strength(start, end);
            return None;
        }
        self.movetext();
        self.st.pos += 1;
        let st = &mut *self.st;
        if st.skip > 0 {
            st.skip += 1;
            return None;
        }
        if st.depth >= MAX_VARIATION_DEPTH {
            st.error(
                K::VariationTooDeep,
                start,
                start + 1,
                format!("variations nested deeper than {MAX_VARIATION_DEPTH}; skipped"),
            );
            st.skip = 1;
            st.too_deep = true;
            return None;
        }
        st.count_item();
        st.depth += 1;
        if !st.events {
            return None;
        }
        match self.v.begin_variation(Span::new(start, start + 1)) {
            Skip(true) => {
                self.st.skip = 1;
                self.st.depth -= 1;
            }
            Skip(false) => {
                self.st.open.push(start);
                self.st.line_moves.push(false);
            }
        }
        None
    }

    fn close_paren(&mut self) -> Option<Step> {
        let start = self.st.pos;
        self.movetext();
        self.st.pos += 1;
        let st = &mut *self.st;
        if st.skip > 0 {
            st.skip -= 1;
            if st.skip == 0 {
                st.too_deep = false;
            }
        } else if st.depth == 0 {
            st.error(
                K::UnbalancedVariation,
                start,
                start + 1,
                "`)` without a matching `(`",
            );
        } else {
            st.depth -= 1;
            if st.events {
                st.open.pop();
                st.line_moves.pop();
                self.v.end_variation(Span::new(start, start + 1));
            }
        }
        None
    }

    fn nag(&mut self) -> Option<Step> {
        self.movetext();
        let start = self.st.pos;
        match nag_token(&self.text[start..]) {
            Ok((rest, digits)) => {
                let end = self.text.len() - rest.len();
                if !self.whole(end) {
                    return self.more(Partial::Token);
                }
                match digits.parse::<u16>() {
                    Ok(n) => {
                        self.st.count_item();
                        if self.st.visible() {
                            self.v.nag(n, Span::new(start, end));
                        }
                    }
                    Err(_) => self
                        .st
                        .error(K::InvalidNag, start, end, "NAG number above 65535"),
                }
                self.st.pos = end;
                None
            }
            Err(_) => self.unexpected(K::InvalidNag, "`$` without a number:"),
        }
    }

    fn setup(&mut self) -> Option<Step> {
        self.movetext();
        let start = self.st.pos;
        match setup_command(&self.text[start..]) {
            Ok((rest, fen)) => {
                let end = self.text.len() - rest.len();
                if !self.whole(end) {
                    return self.more(Partial::Line);
                }
                self.st.count_item();
                if self.st.visible() {
                    self.v.setup(fen, Span::new(start, end));
                }
                self.st.pos = end;
                None
            }
            Err(_) if !self.whole(self.line_end(start)) => self.more(Partial::Line),
            Err(_) => self.unexpected(K::MalformedSetup, "setup command is `/FEN \"…\"/`, found"),
        }
    }

    fn marks(&mut self) -> Option<Step> {
        self.movetext();
        let start = self.st.pos;
        let end = start
            + self.b[start..]
                .iter()
                .take_while(|&&c| c == b'!' || c == b'?')
                .count();
        if !self.whole(end) {
            return self.more(Partial::Token);
        }
        self.strength(start, end);
        None
    }

    /// A strength mark at `start..end`.
    fn strength(&mut self, start: usize, end: usize) {
        self.st.pos = end;
        if !self.st.visible() {
            return;
        }
        if self.st.line_moves.last() == Some(&true) {
            self.v
                .strength(&self.text[start..end], Span::new(start, end));
        } else {
            let mark = &self.text[start..end];
            self.st.error(
                K::StrengthWithoutMove,
                start,
                end,
                format!("strength mark `{mark}` with no move before it; ignored"),
            );
        }
    }

    /// A `"` in the movetext: what it quotes, to the next `"` on its line, is no moves
    /// (nor results) but one unexpected token.
    fn quoted(&mut self) -> Option<Step> {
        self.movetext();
        let start = self.st.pos;
        let end = match memchr3(b'"', b'\n', b'\r', &self.b[start + 1..]) {
            Some(o) if self.b[start + 1 + o] == b'"' => start + o + 2,
            Some(o) => start + 1 + o,
            None if !self.eof => return self.more(Partial::Line),
            None => self.b.len(),
        };
        if self.st.visible() {
            let shown: String = self.text[start..end].chars().take(40).collect();
            self.st.error(
                K::UnexpectedToken,
                start,
                end,
                format!("not a move, move number, result or annotation: `{shown}`"),
            );
        }
        self.st.pos = end;
        None
    }

    /// Skips a token that is not PDN: at least one character, up to the next delimiter.
    fn unexpected(&mut self, kind: K, what: &str) -> Option<Step> {
        let start = self.st.pos;
        let mut end = token_end(self.b, start);
        if !self.whole(end) {
            return self.more(Partial::Token);
        }
        if end == start {
            end = start + self.text[start..].chars().next().map_or(1, char::len_utf8);
        }
        if self.st.visible() {
            let shown: String = self.text[start..end].chars().take(40).collect();
            self.st.error(kind, start, end, format!("{what} `{shown}`"));
        }
        self.st.pos = end;
        None
    }

    fn word(&mut self) -> Option<Step> {
        self.movetext();
        let b = self.b;
        let start = self.st.pos;
        // a letter starts neither a result nor a move number: most such tokens are moves
        if b[start].is_ascii_alphabetic() {
            if let Some((move_end, marks_end)) = lex_move(b, start) {
                return self.emit_move(start, move_end, marks_end, None);
            }
        }
        let maybe_result = may_start_result(b, start);
        let result_end = maybe_result.then(|| token_end(b, start));
        if let Some(end) = result_end {
            if !self.whole(end) {
                return self.more(Partial::Token);
            }
            if let Some(r) = parse_result(&self.text[start..end]) {
                // text after the result on its line that starts no game is the game's
                let after = self.text_after_result(end);
                if let Some((_, line_end)) = after {
                    if line_end == b.len() && !self.eof {
                        return self.more(Partial::Line);
                    }
                }
                self.st.pos = end;
                let st = &mut *self.st;
                if st.skip > 0 {
                    return None;
                }
                if st.depth > 0 {
                    st.error(
                        K::ResultInVariation,
                        start,
                        end,
                        "result token inside a variation; ignored",
                    );
                    return None;
                }
                if st.mode == Mode::Probe {
                    st.found_move = true;
                    return Some(Step::Ended(End::Probed));
                }
                st.result = Some(Span::new(start, end));
                if st.events {
                    self.v.result(r, Span::new(start, end));
                }
                if let Some((from, line_end)) = after {
                    let shown: String = self.text[from..line_end].chars().take(40).collect();
                    let message = format!("text after the result on its line: `{shown}`; skipped");
                    self.st.error(K::TextAfterResult, from, line_end, message);
                    self.st.pos = line_end;
                    return Some(Step::Ended(End::Result(line_end)));
                }
                return Some(Step::Ended(End::Result(end)));
            }
        }
        // a plainly written numeric move (`22-18`), before asking for a move number
        if let Some(end) = lex_plain_move(b, start) {
            return self.emit_move(start, end, end, None);
        }
        if let Some((e, n)) = lex_move_number(b, start) {
            if !self.whole(e) {
                return self.more(Partial::Token);
            }
            if n.number == 1 && self.first_move_of_a_game(start) {
                return Some(Step::Ended(End::Line(start)));
            }
            if self.st.visible() {
                self.v.move_number(n, Span::new(start, e));
            }
            self.st.pos = e;
            return None;
        }
        if let Some((move_end, marks_end)) = lex_move(b, start) {
            return self.emit_move(start, move_end, marks_end, None);
        }
        if let Some(e) = lex_placeholder(b, start) {
            return self.emit_move(start, e, e, None);
        }
        let end = result_end.unwrap_or_else(|| token_end(b, start));
        if !self.whole(end) {
            return self.more(Partial::Token);
        }
        if b[start] == b'.' && end > start && b[start..end].iter().all(|&c| c == b'.') {
            // a stray ellipsis (`1. ... h6` across a line break): harmless
            self.st.pos = end;
            return None;
        }
        self.unexpected(
            K::UnexpectedToken,
            "not a move, move number, result or annotation:",
        )
    }

    /// Gives the visitor the move `start..move_end` (whose squares are `squares`, when
    /// they were read with it) and the marks up to `marks_end`.
    #[inline(always)]
    fn emit_move(
        &mut self,
        start: usize,
        move_end: usize,
        marks_end: usize,
        squares: Option<PlainSquares>,
    ) -> Option<Step> {
        if !self.whole(marks_end) {
            return self.more(Partial::Token);
        }
        self.emit_whole_move(start, move_end, marks_end, squares)
    }

    /// [`emit_move`](Self::emit_move) for a move known to be read whole (a common token:
    /// the buffer holds [`LOOKAHEAD`] bytes past its start).
    #[inline(always)]
    fn emit_whole_move(
        &mut self,
        start: usize,
        move_end: usize,
        marks_end: usize,
        squares: Option<PlainSquares>,
    ) -> Option<Step> {
        let st = &mut *self.st;
        st.pos = marks_end;
        // (events go to the visitor only when playing, not in a probe)
        if !st.visible() {
            return st.quiet_move();
        }
        st.count_move();
        if !st.events {
            return None;
        }
        if let Some(line) = st.line_moves.last_mut() {
            *line = true;
        }
        let (text, span) = (&self.text[start..move_end], Span::new(start, move_end));
        match squares {
            Some(squares) => self.v.plain_mv(squares, text, span),
            None => self.v.mv(text, span),
        }
        if marks_end > move_end {
            self.v.strength(
                &self.text[move_end..marks_end],
                Span::new(move_end, marks_end),
            );
        }
        None
    }
}

/// The bytes that end the plain run of a tag value: its closing quote, an escape, a line
/// break.
static VALUE_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

/// What [`common_token`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Common {
    /// A move of two plain squares (`c3-d4`, `c3:e5`, `22-18`, `22-9`), this long.
    Move(usize),
    /// Such a move, with the squares [`crate::rules::notation::plain_squares`] reads of
    /// it (when it reads any).
    Squares(usize, PlainSquares),
    /// A move number with one dot (`7.`, `12.`), this long, and its number.
    Number(usize, u32),
    /// Anything else: the general dispatch reads it.
    Other,
}

/// The token at the start of `w` (the next eight bytes of the text) when it has one of
/// the shapes most tokens have, read as the general dispatch reads it but without its
/// tests: a move as [`lex_plain_move`] reads it (but for the results shaped so, `1-0`,
/// `2-0`, `1-1`), a move number as [`lex_move_number`] reads it when no ellipsis can
/// follow. A test compares the two readings on every short text of these shapes.
#[inline(always)]
fn common_token(w: &[u8]) -> Common {
    let file = |c: u8| c.wrapping_sub(b'a') < 8;
    let rank = |c: u8| c.wrapping_sub(b'1') < 8;
    let digit = |c: u8| c.wrapping_sub(b'0') < 10;
    let separator = |c: u8| matches!(c, b'-' | b'x' | b'X' | b':');
    // (a move ends at a delimiter, but not at the `(` of a glued strength mark)
    let ends = |c: u8| is_delimiter(c) && c != b'(';
    let &[a, b, c, d, e, f, ..] = w else {
        return Common::Other;
    };
    // a move of `len` bytes, with its squares as `plain_squares` reads them, when it reads
    // them (`X` is not one of its separators)
    let squares = |len: usize, from: u8, separator: u8, to: u8| {
        if from == NO_SQUARE || to == NO_SQUARE || separator == b'X' {
            return Common::Move(len);
        }
        let squares = PlainSquares {
            from: Square::new_unchecked(from),
            to: Square::new_unchecked(to),
            capture: separator != b'-',
        };
        Common::Squares(len, squares)
    };
    if file(a) {
        if !(rank(b) && separator(c) && file(d) && rank(e) && ends(f)) {
            return Common::Other;
        }
        // (a file and a rank are below 8: the mask only tells the compiler so)
        let square = |file: u8, rank: u8| {
            ALGEBRAIC_SQUARES[usize::from((file - b'a') | (rank - b'1') << 3) & 63]
        };
        return squares(5, square(a, b), c, square(d, e));
    }
    if !digit(a) {
        return Common::Other;
    }
    let value = |c: u8| u32::from(c - b'0');
    // `12.` or `7.` (not `0`), then no dot or blank, or one space and then no dot or blank
    let single = |next: u8, after: u8| {
        let plain = |c: u8| !matches!(c, b'.' | b' ' | b'\t');
        plain(next) || (next == b' ' && plain(after))
    };
    if a != b'0' && b == b'.' && single(c, d) {
        return Common::Number(2, value(a));
    }
    // the square numbered by one digit or two, by table (the remainders only tell the
    // compiler that digits index within it)
    let one_digit = |x: u8| ONE_DIGIT_SQUARES[usize::from(x - b'0') % 10];
    let two_digits =
        |x: u8, y: u8| NUMERIC_SQUARES[usize::from((x - b'0') * 10 + (y - b'0')) % 100];
    if separator(b) {
        // a one-digit first square, `9-13` or `5-9` (not `0`, which no move starts with)
        if a == b'0' || !digit(c) {
            return Common::Other;
        }
        let from = one_digit(a);
        let (len, to) = if digit(d) {
            if !ends(e) {
                return Common::Other;
            }
            (4, two_digits(c, d))
        } else {
            // `1-0`, `2-0` and `1-1` are results (the others start with `0`)
            let result = b == b'-' && matches!((a, c), (b'1' | b'2', b'0') | (b'1', b'1'));
            if !ends(d) || result {
                return Common::Other;
            }
            (3, one_digit(c))
        };
        return squares(len, from, b, to);
    }
    if !digit(b) {
        return Common::Other;
    }
    if a != b'0' && c == b'.' && single(d, e) {
        return Common::Number(3, value(a) * 10 + value(b));
    }
    if !separator(c) || !digit(d) {
        return Common::Other;
    }
    let from = two_digits(a, b);
    let (len, to) = match (digit(e), e, f) {
        (true, _, f) if ends(f) => (5, two_digits(d, e)),
        (false, e, _) if ends(e) => (4, one_digit(d)),
        _ => return Common::Other,
    };
    squares(len, from, c, to)
}

/// Where a tag pair whose `]` does not follow its value ends, from `i` after the value:
/// after the next `]` outside a string, or at the end of `b` (its line).
fn tag_tail_end(b: &[u8], mut i: usize) -> usize {
    while let Some(o) = memchr2(b']', b'"', &b[i..]) {
        let k = i + o;
        if b[k] == b']' {
            return k + 1;
        }
        // a string, to its closing quote (a backslash escapes the byte after it)
        i = k + 1;
        loop {
            match memchr2(b'"', b'\\', &b[i..]) {
                Some(o) if b[i + o] == b'\\' => i += o + 2,
                Some(o) => {
                    i += o + 1;
                    break;
                }
                None => return b.len(),
            }
            if i >= b.len() {
                return b.len();
            }
        }
    }
    b.len()
}

/// Whether an empty line comes before the line starting at `at` (and after `start`): two
/// line breaks among the blanks before it (CR LF is one). With [`repeats_a_tag_name`], how
/// a game of tags without moves is told from the next: an empty line, then a tag section
/// that repeats one of its names. An empty line inside one tag section, which real files
/// have (`[PlyCount]` set apart), repeats none; a name repeated without an empty line is a
/// duplicate tag.
fn empty_line_before(b: &[u8], start: usize, at: usize) -> bool {
    let mut breaks = 0;
    let mut k = at;
    while k > start && (is_space(b[k - 1])) {
        k -= 1;
        match b[k] {
            b'\n' => breaks += 1,
            b'\r' if b.get(k + 1) != Some(&b'\n') => breaks += 1,
            _ => {}
        }
    }
    breaks >= 2
}

/// Whether the tag pair whose `[` is at `bracket` has the name of one in `b[start..at]`.
fn repeats_a_tag_name(b: &[u8], start: usize, at: usize, bracket: usize) -> bool {
    let name = tag_name_at(b, bracket).unwrap_or_default();
    !name.is_empty()
        && memchr::memchr_iter(b'[', &b[start..at])
            .any(|o| tag_name_at(b, start + o).is_some_and(|n| n == name))
}

/// The name of the tag pair whose `[` is at `bracket` (`[`, blanks, the name, blanks, `"`),
/// if one starts there.
fn tag_name_at(b: &[u8], bracket: usize) -> Option<&[u8]> {
    let (name, quote) = tag_pair_start(b, bracket);
    (!name.is_empty() && b.get(quote) == Some(&b'"')).then(|| &b[name])
}

/// How a tag pair starts from its `[` at `bracket`: the range of its name, after blanks,
/// and where the blanks after the name end (at its value's opening quote, in a tag
/// pair); blanks and name are read at most 96 bytes from the bracket.
pub(crate) fn tag_pair_start(b: &[u8], bracket: usize) -> (std::ops::Range<usize>, usize) {
    let limit = b.len().min(bracket + 96);
    let blanks = |mut j: usize| {
        while j < limit && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        j
    };
    let from = blanks(bracket + 1);
    let mut to = from;
    while to < limit && is_tag_name_byte(b[to]) {
        to += 1;
    }
    (from..to, blanks(to))
}

/// Reads the first game of `text` (UTF-8, starting a line), giving `visitor` its events.
pub fn visit_text<V: Visitor>(text: &str, visitor: &mut V) -> Option<V::Output> {
    let opts = ReaderOptions {
        encoding: Some(encoding_rs::UTF_8),
        text: true,
        max_game_bytes: usize::MAX / 2,
        max_game_moves: usize::MAX,
        max_game_items: usize::MAX,
    };
    let mut reader = Reader::new(text.as_bytes(), opts).ok()?;
    reader.read_game(visitor)?.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the general dispatch of [`Parser::word`] reads at the start of `b`.
    fn general(b: &[u8]) -> Common {
        let end = token_end(b, 0);
        if may_start_result(b, 0)
            && std::str::from_utf8(&b[..end]).is_ok_and(|t| parse_result(t).is_some())
        {
            return Common::Other;
        }
        if b[0].is_ascii_alphabetic() {
            return match lex_move(b, 0) {
                Some((m, e)) if m == e => Common::Move(m),
                _ => Common::Other,
            };
        }
        if let Some(end) = lex_plain_move(b, 0) {
            return Common::Move(end);
        }
        match lex_move_number(b, 0) {
            Some((e, n)) if !n.black => Common::Number(e, n.number),
            _ => Common::Other,
        }
    }

    #[test]
    fn common_tokens_are_read_as_the_general_dispatch_reads_them() {
        let mut checked = 0;
        for s in pdnkit_gen::every_string(b"1209ch-x:. (\n", 1..=6) {
            let mut w = s.clone();
            w.resize(8, b' ');
            let common = match common_token(&w) {
                Common::Squares(len, squares) => {
                    let text = std::str::from_utf8(&w[..len]).unwrap();
                    assert_eq!(crate::rules::notation::plain_squares(text), Some(squares));
                    Common::Move(len)
                }
                other => other,
            };
            if common != Common::Other {
                assert_eq!(common, general(&w), "{:?}", String::from_utf8_lossy(&w));
                checked += 1;
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
