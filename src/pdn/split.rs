//! The game splitter: a decoded stream cut into independent raw games.
//!
//! A game ends at a result token or `*` (outside comments, tag strings and variations), at
//! a line that starts a tag pair once movetext has started (or while a `{` comment is still
//! open, so that an unclosed comment cannot swallow the rest of the file), or at the end of
//! the input. The splitter only looks at structure; parsing is left to
//! [`RawGame::visit`], so games can be parsed in parallel (e.g. rayon over batches).
//!
//! Memory is bounded: the buffer holds at most one game (capped by
//! [`ReaderOptions::max_game_bytes`]) plus one chunk of input.

use std::io::Read;

use encoding_rs::Encoding;
use memchr::{memchr2, memchr3, memrchr, memrchr2};

use super::char_count;
use super::error::{ReadError, Span, SyntaxError, SyntaxErrorKind};
use super::game::{CommentKind, Game, GameBuilder};
use super::input::{Decoder, EncodingSource};
use super::parser::{has_moves, visit_game_text};
use super::token::{
    RawTag, is_delimiter, is_literal_cr, is_tag_name_byte, may_start_result, parse_result,
};
use super::visitor::{Skip, Visitor};

pub use super::reader::{MAX_GAME_BYTES, MAX_GAME_ITEMS, MAX_GAME_MOVES, ReaderOptions};

/// A place in the file: 1-based line, and 1-based column counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line (CRLF, LF and a lone CR each end a line).
    pub line: u64,
    /// 1-based column, in characters (rustc style).
    pub column: u64,
}

/// One game's text, cut from the file, with where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based index of the game in the file.
    pub index: u64,
    /// The text of the game (decoded to UTF-8).
    pub text: String,
    /// Where the text starts in the file.
    pub start: Position,
    /// Byte offset of the start in the decoded (UTF-8) text of the file; equal to the
    /// offset in the file for UTF-8 input without BOM.
    pub offset: u64,
    /// Bytes at the start of `text` that are stray lines before the tags (reported as
    /// `stray-text` by the parser).
    pub stray_prefix: usize,
    /// Whether malformed input bytes in this game were replaced by U+FFFD.
    pub decoding_replaced: bool,
}

impl RawGame {
    /// The game `game` that [`GameSplitter::next_fused`]'s reader read whole, as the
    /// splitter would have cut it, with `text` (the game's text from its first tag pair).
    pub(crate) fn fused<T>(game: &FusedGame<T>, text: String) -> RawGame {
        RawGame {
            index: game.index,
            text,
            start: game.start,
            offset: game.offset,
            stray_prefix: 0,
            decoding_replaced: false,
        }
    }

    /// The game's text and place as a [`super::GameSource`].
    pub fn source(&self) -> super::GameSource<'_> {
        super::GameSource {
            index: self.index,
            text: &self.text,
            start: super::source::Position {
                line: self.start.line,
                column: self.start.column,
            },
            stray_prefix: self.stray_prefix,
        }
    }

    /// The file position of byte `at` of [`RawGame::text`] (clamped to the text).
    pub fn position(&self, at: usize) -> Position {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let mut c = self.start_counter();
        c.advance(&self.text[..at]);
        Position {
            line: c.line,
            column: c.column,
        }
    }

    /// A reader of the positions of many bytes of this game, each found from the last
    /// one asked when asked in text order (what [`position`](Self::position) does from
    /// the game's start each time).
    pub fn positions(&self) -> Positions<'_> {
        Positions {
            raw: self,
            at: 0,
            counter: self.start_counter(),
        }
    }

    fn start_counter(&self) -> LineCounter {
        LineCounter {
            line: self.start.line,
            column: self.start.column,
            prev_cr: false,
            cr_seen: false,
        }
    }

    /// Positions of both ends of a span.
    pub fn span_positions(&self, span: Span) -> (Position, Position) {
        (self.position(span.start), self.position(span.end))
    }

    /// Parses the game, calling the visitor.
    pub fn visit<V: Visitor>(&self, visitor: &mut V) -> V::Output {
        let note = if self.decoding_replaced {
            let at = self.text.find('\u{fffd}').unwrap_or(0);
            Some(SyntaxError::new(
                SyntaxErrorKind::DecodingReplaced,
                Span::new(at, at + '\u{fffd}'.len_utf8().min(self.text.len() - at)),
                "bytes that are not valid in the file's encoding were replaced by U+FFFD",
            ))
        } else {
            None
        };
        visit_game_text(
            &self.text,
            self.stray_prefix,
            self.start.column == 1,
            note,
            visitor,
        )
    }

    /// Parses the game into a [`Game`] tree.
    pub fn to_game(&self) -> Game {
        // A game of the plain shape (most of an archive) is read by the plain reader,
        // which gives the general parser's events with less work a token: the tree of a
        // game the check's quick lane does not take (an illegal move, a draw claim to
        // judge) is read so, and so is every game `convert` writes as PDN or JSON.
        // (one builder for both readers: it starts afresh at `begin_game`)
        let mut builder = GameBuilder::for_text(self.text.len());
        if self.stray_prefix == 0 && !self.decoding_replaced {
            if let Ok(game) = super::plain::visit_plain(&self.text, &mut builder, |_| false) {
                return game;
            }
        }
        self.visit(&mut builder)
    }
}

/// The positions of bytes of a [`RawGame`], from [`RawGame::positions`].
pub struct Positions<'a> {
    raw: &'a RawGame,
    /// The byte the counter is at.
    at: usize,
    counter: LineCounter,
}

impl Positions<'_> {
    /// The file position of byte `at` of the game's text (clamped to the text), as
    /// [`RawGame::position`] gives it: found from the byte asked before if `at` is not
    /// before it, so that the positions of a game's diagnostics cost one pass over it.
    pub fn position(&mut self, at: usize) -> Position {
        let text = &self.raw.text;
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        if at < self.at {
            self.at = 0;
            self.counter = self.raw.start_counter();
        }
        self.counter.advance(&text[self.at..at]);
        self.at = at;
        Position {
            line: self.counter.line,
            column: self.counter.column,
        }
    }
}

/// Line and column counting over text that may arrive in pieces.
#[derive(Clone, Copy, Debug)]
struct LineCounter {
    line: u64,
    column: u64,
    /// The last piece ended with `\r`: a `\n` first in the next piece is the same break.
    prev_cr: bool,
    /// A piece had a `\r`: the text is taken to have more (a file's line ends are alike),
    /// and its breaks are counted at once as breaks of any kind.
    cr_seen: bool,
}

impl LineCounter {
    fn advance(&mut self, s: &str) {
        let b = s.as_bytes();
        let Some(&last_byte) = b.last() else {
            return;
        };
        // Most text has no `\r`: then the breaks are the `\n`s, counted sixteen bytes at a
        // time, and the column follows the last one (a search per line cost 2.5
        // instructions a byte, 2% of `lint`). Text with `\r` (CR LF from Windows tools,
        // common in real files) has its breaks counted so too, in a second pass: a search
        // per break made every line of such a file cost two calls, 11% of `lint` on the
        // benchmark archive written with CR LF.
        let newlines = if self.cr_seen {
            None
        } else {
            let (newlines, cr) = count_newlines(b);
            self.cr_seen = cr;
            (!cr).then_some(newlines)
        };
        let (breaks, last_break) = match newlines {
            Some(newlines) => (newlines, memrchr(b'\n', b)),
            None => (count_line_breaks(b), memrchr2(b'\n', b'\r', b)),
        };
        // (a `\n` first after a `\r` that ended the last piece is the same break)
        let continued = self.prev_cr && b[0] == b'\n';
        self.line += breaks - u64::from(continued);
        match last_break {
            Some(k) => self.column = 1 + char_count(&s[k + 1..]) as u64,
            None => self.column += char_count(s) as u64,
        }
        self.prev_cr = last_byte == b'\r';
    }

    /// [`advance`](Self::advance) over ASCII whitespace (the blank lines between games,
    /// mostly two bytes: the SIMD count and the searches of `advance` cost more than
    /// looking at them).
    fn advance_blanks(&mut self, b: &[u8]) {
        debug_assert!(b.iter().all(u8::is_ascii_whitespace));
        if b.contains(&b'\r') {
            // (ASCII is UTF-8)
            self.advance(std::str::from_utf8(b).unwrap_or_default());
            return;
        }
        let continued = self.prev_cr && b.first() == Some(&b'\n');
        let mut after_break = None;
        for (k, &c) in b.iter().enumerate() {
            if c == b'\n' {
                self.line += 1;
                after_break = Some(b.len() - k - 1);
            }
        }
        self.line -= u64::from(continued);
        match after_break {
            Some(rest) => self.column = 1 + rest as u64,
            None => self.column += b.len() as u64,
        }
        self.prev_cr = false;
    }

    /// [`advance`](Self::advance) for any text, one line break at a time: what the tests
    /// hold the counts of [`advance`](Self::advance) to.
    #[cfg(test)]
    fn advance_by_lines(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut i = 0;
        let mut last_break = None;
        while let Some(o) = memchr2(b'\n', b'\r', &b[i..]) {
            let k = i + o;
            let crlf = b[k] == b'\n'
                && if k == 0 {
                    self.prev_cr
                } else {
                    b[k - 1] == b'\r'
                };
            if !crlf {
                self.line += 1;
            }
            last_break = Some(k);
            i = k + 1;
        }
        match last_break {
            Some(k) => self.column = 1 + s[k + 1..].chars().count() as u64,
            None => self.column += s.chars().count() as u64,
        }
        if !b.is_empty() {
            self.prev_cr = b[b.len() - 1] == b'\r';
        }
    }
}

/// The number of `\n` bytes in `b`, and whether it has a `\r`.
pub(crate) fn count_newlines(b: &[u8]) -> (u64, bool) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (asked just above)
            unsafe { avx2::count_newlines(b) }
        } else {
            sse2::count_newlines(b)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let newlines = b.iter().filter(|&&c| c == b'\n').count() as u64;
        (newlines, b.contains(&b'\r'))
    }
}

/// The line breaks in `b`: every `\r`, and every `\n` but one right after a `\r` (a
/// CR LF pair is one break). A `\n` first in `b` is counted: whether a `\r` came before
/// it is the caller's to know.
pub(crate) fn count_line_breaks(b: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (asked just above)
            unsafe { avx2::count_line_breaks(b) }
        } else {
            sse2::count_line_breaks(b)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        count_line_breaks_bytewise(b, false)
    }
}

/// [`count_line_breaks`] a byte at a time; `after_cr`: the byte before `b` is a `\r` (a
/// `\n` first in `b` is then not counted).
fn count_line_breaks_bytewise(b: &[u8], after_cr: bool) -> u64 {
    let mut prev_cr = after_cr;
    let mut breaks = 0;
    for &c in b {
        breaks += u64::from(c == b'\r' || (c == b'\n' && !prev_cr));
        prev_cr = c == b'\r';
    }
    breaks
}

/// `line_start` when the line started before the buffer.
const NO_LINE: usize = usize::MAX;

// Byte classes of the scanner (bits of [`CLASS`]).
/// A token delimiter ([`is_delimiter`]).
const DELIMITER: u8 = 1;
/// Ends a run of bytes inside `[…]`, outside its string.
const TAG_STOP: u8 = 2;
/// Ends a run of bytes inside a tag's string.
const TAG_STRING_STOP: u8 = 4;
/// Ends a run of bytes inside a movetext string.
const MOVE_STRING_STOP: u8 = 8;
/// A blank inside a line.
const BLANK: u8 = 16;
/// Starts a token that cannot be a result, a comment or anything else the scanner
/// looks at: not a delimiter, not `%`, and not a result's first byte.
const PLAIN_TOKEN_START: u8 = 32;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut class = 0;
        if is_delimiter(b) {
            class |= DELIMITER;
        } else if !matches!(b, b'%' | b'0'..=b'2' | b'*' | 0xc2) {
            class |= PLAIN_TOKEN_START;
        }
        if matches!(b, b'\n' | b'\r' | b'"' | b']') {
            class |= TAG_STOP;
        }
        if matches!(b, b'\n' | b'\r' | b'"' | b'\\') {
            class |= TAG_STRING_STOP;
        }
        if matches!(b, b'\n' | b'\r' | b'"') {
            class |= MOVE_STRING_STOP;
        }
        if matches!(b, b' ' | b'\t' | 0x0b | 0x0c) {
            class |= BLANK;
        }
        t[c] = class;
        c += 1;
    }
    t
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Normal,
    /// Inside `{…}`.
    Comment,
    /// Inside a `%` or `;` comment, until the line end.
    LineComment,
    /// Inside `[…]`, outside its string.
    Tag,
    /// Inside a tag's `"…"`.
    TagString,
    /// Inside a `"…"` in movetext (a setup command's FEN).
    MoveString,
    /// Inside a token too long to be a result.
    Token,
}

enum Scan {
    /// The game ends at this buffer position.
    Cut(usize),
    /// More input is needed to decide at the current position.
    NeedMore,
}

/// Where the game being skipped for its size started.
#[derive(Clone, Copy, Debug)]
struct Skipping {
    index: u64,
    start: Position,
}

/// The end of a tag pair after its `]`, from the opening quote of its value at `quote`,
/// when the value has no quote, backslash or line break and the `]` follows its closing
/// quote: where the scanner's TagString and Tag states would end it, one byte at a time
/// (a test compares the two). `None` for any other shape, or when the buffer ends first.
#[inline]
fn simple_tag_end(b: &[u8], quote: usize) -> Option<usize> {
    let j = tag_string_run_end(b, quote + 1);
    (b.get(j) == Some(&b'"') && b.get(j + 1) == Some(&b']')).then_some(j + 2)
}

/// Whether an empty line comes before the line starting at `at` (and after `start`): two
/// line breaks among the blanks before it (CR LF is one). With [`repeats_a_tag_name`], how
/// a header-only game (tags and no moves, which PDN 3.0 allows) is told from the next: an
/// empty line, then a tag section that repeats one of its names. An empty line inside one
/// tag section, which real files have (`[PlyCount]` set apart), repeats none; a name
/// repeated without an empty line is a duplicate tag.
#[inline(always)]
fn empty_line_before(b: &[u8], start: usize, at: usize) -> bool {
    // most tag lines follow a `]` and a line feed: told from the byte before the feed
    // (a CR there, of CR LF or a line of its own, is told by counting)
    b.get(at.wrapping_sub(2))
        .is_some_and(|&c| is_blank_or_break(c))
        && line_breaks_before(b, start, at) >= 2
}

/// Whether `c` is a blank inside a line, as the scanner tells them (a line whose bytes
/// before a `[` are such blanks starts a tag pair there).
#[inline(always)]
pub(super) fn is_blank_in_line(c: u8) -> bool {
    CLASS[usize::from(c)] & BLANK != 0
}

#[inline(always)]
fn is_blank_or_break(c: u8) -> bool {
    CLASS[usize::from(c)] & BLANK != 0 || c == b'\n' || c == b'\r'
}

/// The line breaks among the blanks right before `at` (CR LF counted once).
#[cold]
#[inline(never)]
fn line_breaks_before(b: &[u8], start: usize, at: usize) -> usize {
    let mut breaks = 0;
    let mut k = at;
    while k > start && is_blank_or_break(b[k - 1]) {
        k -= 1;
        match b[k] {
            b'\n' => breaks += 1,
            b'\r' if b.get(k + 1) != Some(&b'\n') => breaks += 1,
            _ => {}
        }
    }
    breaks
}

/// Whether the tag pair whose `[` is at `bracket` has the name of one in `b[start..at]`.
#[cold]
#[inline(never)]
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
#[inline(always)]
pub(crate) fn tag_pair_start(b: &[u8], bracket: usize) -> (std::ops::Range<usize>, usize) {
    // (one bound for both limits, tested once a byte)
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

/// The end of a tag value's plain run from `i`: the first `"`, backslash or line break
/// at or after `i`, or the end (the plain reader asks it too).
#[inline]
pub(super) fn tag_string_run_end(b: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::tag_string_run_end(b, i)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        skip_until(b, i, TAG_STRING_STOP)
    }
}

/// The first byte at or after `i` of a class in `stop` (bits of [`CLASS`]), or the end.
#[inline]
fn skip_until(b: &[u8], mut i: usize, stop: u8) -> usize {
    while i < b.len() && CLASS[usize::from(b[i])] & stop == 0 {
        i += 1;
    }
    i
}

/// The end of the run of blanks and plain tokens starting at `i` in the movetext: the
/// first delimiter other than a blank, or the first token start the scanner must look at
/// (`%`, or a byte a result can start with, [`may_start_result`]); `i` is a token start.
/// Also says whether the run holds a token. What [`GameSplitter::scan`] does with these
/// bytes one by one, sixteen at a time where the CPU can (a test compares the two).
#[inline]
fn plain_run_end(b: &[u8], i: usize) -> (usize, bool) {
    #[cfg(target_arch = "x86_64")]
    {
        let (j, tokens, at_start) = if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (asked just above)
            unsafe { avx2::plain_run(b, i) }
        } else {
            sse2::plain_run(b, i)
        };
        let (end, more) = plain_run_end_scalar(b, j, at_start);
        (end, tokens || more)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        plain_run_end_scalar(b, i, true)
    }
}

/// Whether a token starting at `i` is one the scanner need not look at: not a delimiter,
/// not `%`, and not something a result can start with. A token starting with a digit no
/// result starts with (`12.`, `22-18`: two bytes tell) is as plain as one starting with a
/// letter.
#[inline]
fn plain_token_start(b: &[u8], i: usize) -> bool {
    CLASS[usize::from(b[i])] & PLAIN_TOKEN_START != 0
        || (matches!(b[i], b'0'..=b'2') && i + 1 < b.len() && !may_start_result(b, i))
}

/// [`plain_run_end`] one byte at a time, from `i`, which is a token start if `at_start`.
fn plain_run_end_scalar(b: &[u8], mut i: usize, mut at_start: bool) -> (usize, bool) {
    let mut tokens = false;
    while i < b.len() {
        let class = CLASS[usize::from(b[i])];
        if class & BLANK != 0 {
            at_start = true;
            i += 1;
            continue;
        }
        if class & DELIMITER != 0 {
            break;
        }
        if at_start && !plain_token_start(b, i) {
            break;
        }
        at_start = false;
        tokens = true;
        i += 1;
    }
    (i, tokens)
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    //! [`super::plain_run_end`] sixteen bytes at a time (SSE2 is part of every x86-64).
    use std::arch::x86_64::*;

    /// The delimiters ([`crate::pdn::token::is_delimiter`]) that are not blanks (a test
    /// holds the two together).
    pub(super) const NON_BLANK_DELIMITERS: [u8; 11] = [
        b'\n', b'\r', b'{', b'}', b'(', b')', b'[', b']', b';', b'"', b'\\',
    ];

    /// [`super::tag_string_run_end`] sixteen bytes at a time: a tag's value (a dozen
    /// bytes, mostly) is then one block, where the byte loop took four instructions a
    /// byte, every tag read twice (by the splitter, then by the plain reader).
    pub(super) fn tag_string_run_end(b: &[u8], mut i: usize) -> usize {
        while i + 16 <= b.len() {
            // SAFETY: `i + 16 <= b.len()`: the 16 bytes read are in bounds; SSE2 is
            // always there on x86-64.
            let stops = unsafe {
                let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
                let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
                let any = _mm_or_si128(
                    _mm_or_si128(eq(b'"'), eq(b'\\')),
                    _mm_or_si128(eq(b'\n'), eq(b'\r')),
                );
                _mm_movemask_epi8(any) as u32
            };
            if stops != 0 {
                return i + stops.trailing_zeros() as usize;
            }
            i += 16;
        }
        super::skip_until(b, i, super::TAG_STRING_STOP)
    }

    /// The sum of the 16 byte counters of `counts` (two sums of eight, added up).
    #[inline]
    fn byte_sum(counts: __m128i) -> u64 {
        // SAFETY: SSE2 is always there on x86-64.
        unsafe {
            let sums = _mm_sad_epu8(counts, _mm_setzero_si128());
            _mm_cvtsi128_si64(sums) as u64
                + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)) as u64
        }
    }

    /// [`super::count_newlines`]: per block, the byte-wise `\n` matches (-1 each) are
    /// subtracted from counters that a sum of absolute differences adds up every 255
    /// blocks, before a byte counter could overflow; the `\r` matches are or-ed.
    pub(super) fn count_newlines(b: &[u8]) -> (u64, bool) {
        let blocks = b.len() / 16;
        let mut total = 0u64;
        let mut cr = false;
        let mut block = 0;
        while block < blocks {
            let until = (block + 255).min(blocks);
            // SAFETY: every block read is `b[16 * k..16 * k + 16]` with `k < blocks`, in
            // bounds; SSE2 is always there on x86-64.
            unsafe {
                let (newline, return_) = (_mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b'\r' as i8));
                let mut counts = _mm_setzero_si128();
                let mut returns = _mm_setzero_si128();
                for k in block..until {
                    let v = _mm_loadu_si128(b.as_ptr().add(16 * k).cast());
                    counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(v, newline));
                    returns = _mm_or_si128(returns, _mm_cmpeq_epi8(v, return_));
                }
                total += byte_sum(counts);
                cr |= _mm_movemask_epi8(returns) != 0;
            }
            block = until;
        }
        let tail = &b[16 * blocks..];
        let newlines = total + tail.iter().filter(|&&c| c == b'\n').count() as u64;
        (newlines, cr || tail.contains(&b'\r'))
    }

    /// [`super::count_line_breaks`]: per block, the `\r`s and the `\n`s that do not follow
    /// a `\r` (the byte before each byte read by a second load, one byte back), added up
    /// as [`count_newlines`] adds up its matches. The first byte is left to the byte loop,
    /// which has no byte before it to read.
    pub(super) fn count_line_breaks(b: &[u8]) -> u64 {
        let Some(after_first) = b.len().checked_sub(1) else {
            return 0;
        };
        let blocks = after_first / 16;
        let mut total = super::count_line_breaks_bytewise(&b[..1], false);
        let mut block = 0;
        while block < blocks {
            let until = (block + 255).min(blocks);
            // SAFETY: every block read is `b[1 + 16 * k..1 + 16 * k + 16]` and the one a
            // byte before it, with `k < blocks`: in bounds; SSE2 is always there on x86-64.
            unsafe {
                let (newline, return_) = (_mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b'\r' as i8));
                let mut counts = _mm_setzero_si128();
                for k in block..until {
                    let at = b.as_ptr().add(1 + 16 * k);
                    let v = _mm_loadu_si128(at.cast());
                    let before = _mm_loadu_si128(at.sub(1).cast());
                    let lone_newline = _mm_andnot_si128(
                        _mm_cmpeq_epi8(before, return_),
                        _mm_cmpeq_epi8(v, newline),
                    );
                    // (a byte is a `\r` or a lone `\n`, not both: one count a block at most)
                    let breaks = _mm_or_si128(_mm_cmpeq_epi8(v, return_), lone_newline);
                    counts = _mm_sub_epi8(counts, breaks);
                }
                total += byte_sum(counts);
            }
            block = until;
        }
        let rest = 1 + 16 * blocks;
        total + super::count_line_breaks_bytewise(&b[rest..], b[rest - 1] == b'\r')
    }

    /// Runs while a whole block of sixteen bytes (and the byte after it) is plain; returns
    /// where it stopped, whether it passed a token, and whether that place is a token
    /// start. The scalar loop goes on from there.
    #[inline]
    pub(super) fn plain_run(b: &[u8], mut i: usize) -> (usize, bool, bool) {
        let mut at_start = true;
        let mut tokens = false;
        while i + 17 <= b.len() {
            // SAFETY: `i + 17 <= b.len()`, so both unaligned 16-byte loads are in bounds;
            // SSE2 is always there on x86-64.
            let (blank, stop) = unsafe {
                let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
                let next = _mm_loadu_si128(b.as_ptr().add(i + 1).cast());
                let eq = |x: __m128i, c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
                let blank = _mm_or_si128(
                    _mm_or_si128(eq(v, b' '), eq(v, b'\t')),
                    _mm_or_si128(eq(v, 0x0b), eq(v, 0x0c)),
                );
                let mut delimiter = _mm_setzero_si128();
                for c in NON_BLANK_DELIMITERS {
                    delimiter = _mm_or_si128(delimiter, eq(v, c));
                }
                // a byte `0`..=`2`: v - '0' is at most 2 (unsigned)
                let digit = _mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8));
                let low_digit = _mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(2)), digit);
                // what `may_start_result` says yes to, and `%`
                let dash_or_slash = _mm_or_si128(eq(next, b'-'), eq(next, b'/'));
                let zero_dot = _mm_and_si128(eq(v, b'0'), eq(next, b'.'));
                let special = _mm_or_si128(
                    _mm_or_si128(_mm_and_si128(low_digit, dash_or_slash), zero_dot),
                    _mm_or_si128(_mm_or_si128(eq(v, b'*'), eq(v, 0xc2)), eq(v, b'%')),
                );
                let bits = |x: __m128i| _mm_movemask_epi8(x) as u32;
                let blank = bits(blank);
                let starts = (blank << 1) | u32::from(at_start);
                (blank, bits(delimiter) | (bits(special) & starts))
            };
            if stop != 0 {
                let k = stop.trailing_zeros();
                tokens |= !blank & ((1 << k) - 1) != 0;
                // the scalar loop looks at the stop byte again, knowing whether it starts
                // a token
                let at = if k == 0 {
                    at_start
                } else {
                    blank & (1 << (k - 1)) != 0
                };
                return (i + k as usize, tokens, at);
            }
            tokens |= !blank & 0xffff != 0;
            at_start = blank & 0x8000 != 0;
            i += 16;
        }
        (i, tokens, at_start)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The scans of [`super::sse2`] thirty-two bytes at a time, on CPUs with AVX2 (asked at
    //! run time). The movetext scan classifies the bytes by two table lookups (one per
    //! half-byte) instead of a comparison per byte value: the SSE2 scan was 4% of `lint`.
    use std::arch::x86_64::*;

    // Bits of the two tables: a byte is in a class when the entry of its low half-byte
    // and that of its high half-byte share a bit. Each bit stands for the bytes of a
    // rectangle (high half-bytes × low half-bytes). A few bytes outside the classes fall
    // in a rectangle too (`=`, `<`, `|`, 0xC5, 0xCA): they only stop the run early, and
    // the byte-by-byte scan goes on from there.
    /// `\t`, VT, FF.
    const CTRL_BLANK: u8 = 1;
    /// `\n`, `\r`.
    const CTRL_BREAK: u8 = 2;
    /// The space.
    const SPACE: u8 = 4;
    /// `"`, `(`, `)`.
    const PUNCT: u8 = 8;
    /// `%`, `*`, 0xC2 (and `"`, 0xC5, 0xCA).
    const TOKEN_STOP: u8 = 16;
    /// `0`, `1`, `2`.
    const LOW_DIGIT: u8 = 32;
    /// `;`, `[`, `\\`, `]`, `{`, `}` (and `<`, `=`, `|`).
    const BRACKET: u8 = 64;
    /// `0`.
    const ZERO: u8 = 128;

    const fn tables() -> ([u8; 16], [u8; 16]) {
        let (mut low, mut high) = ([0u8; 16], [0u8; 16]);
        let rectangles: [(u8, &[u8], &[u8]); 8] = [
            (CTRL_BLANK, &[0x0], &[0x9, 0xb, 0xc]),
            (CTRL_BREAK, &[0x0], &[0xa, 0xd]),
            (SPACE, &[0x2], &[0x0]),
            (PUNCT, &[0x2], &[0x2, 0x8, 0x9]),
            (TOKEN_STOP, &[0x2, 0xc], &[0x2, 0x5, 0xa]),
            (LOW_DIGIT, &[0x3], &[0x0, 0x1, 0x2]),
            (BRACKET, &[0x3, 0x5, 0x7], &[0xb, 0xc, 0xd]),
            (ZERO, &[0x3], &[0x0]),
        ];
        let mut r = 0;
        while r < rectangles.len() {
            let (bit, highs, lows) = rectangles[r];
            let mut k = 0;
            while k < highs.len() {
                high[highs[k] as usize] |= bit;
                k += 1;
            }
            k = 0;
            while k < lows.len() {
                low[lows[k] as usize] |= bit;
                k += 1;
            }
            r += 1;
        }
        (low, high)
    }

    const TABLES: ([u8; 16], [u8; 16]) = tables();

    /// The class bits of every byte of `v`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn classes(v: __m256i) -> __m256i {
        // SAFETY: the tables are 16 bytes, as the loads read
        let (low, high) = unsafe {
            (
                _mm256_broadcastsi128_si256(_mm_loadu_si128(TABLES.0.as_ptr().cast())),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(TABLES.1.as_ptr().cast())),
            )
        };
        let nibble = _mm256_set1_epi8(0x0f);
        let lo = _mm256_and_si256(v, nibble);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
        _mm256_and_si256(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi))
    }

    /// The bytes whose classes include one of `bits`, one bit each.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn any_of(c: __m256i, bits: u8) -> u32 {
        let none = _mm256_cmpeq_epi8(
            _mm256_and_si256(c, _mm256_set1_epi8(bits as i8)),
            _mm256_setzero_si256(),
        );
        !(_mm256_movemask_epi8(none) as u32)
    }

    /// The sum of the 32 byte counters of `counts` (four sums of eight, added up).
    #[target_feature(enable = "avx2")]
    fn byte_sum(counts: __m256i) -> u64 {
        let sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
        let lanes = [
            _mm256_extract_epi64::<0>(sums),
            _mm256_extract_epi64::<1>(sums),
            _mm256_extract_epi64::<2>(sums),
            _mm256_extract_epi64::<3>(sums),
        ];
        lanes.iter().map(|&lane| lane as u64).sum()
    }

    /// [`super::sse2::count_newlines`] thirty-two bytes at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn count_newlines(b: &[u8]) -> (u64, bool) {
        let blocks = b.len() / 32;
        let mut total = 0u64;
        let mut cr = false;
        let mut block = 0;
        let (newline, return_) = (_mm256_set1_epi8(b'\n' as i8), _mm256_set1_epi8(b'\r' as i8));
        while block < blocks {
            // (byte counters of at most 255 before they are added up)
            let until = (block + 255).min(blocks);
            let mut counts = _mm256_setzero_si256();
            let mut returns = _mm256_setzero_si256();
            for k in block..until {
                // SAFETY: `b[32 * k..32 * k + 32]` with `k < blocks` is in bounds
                let v = unsafe { _mm256_loadu_si256(b.as_ptr().add(32 * k).cast()) };
                counts = _mm256_sub_epi8(counts, _mm256_cmpeq_epi8(v, newline));
                returns = _mm256_or_si256(returns, _mm256_cmpeq_epi8(v, return_));
            }
            total += byte_sum(counts);
            cr |= _mm256_movemask_epi8(returns) != 0;
            block = until;
        }
        let rest = b.len() % 32;
        if rest == 0 {
            return (total, cr);
        }
        if blocks == 0 {
            let newlines = b.iter().filter(|&&c| c == b'\n').count() as u64;
            return (newlines, b.contains(&b'\r'));
        }
        // the last 32 bytes, of which the first `32 - rest` are counted already
        // SAFETY: `b.len() >= 32` (there is a block), so the load is in bounds
        let v = unsafe { _mm256_loadu_si256(b.as_ptr().add(b.len() - 32).cast()) };
        let bits =
            |c: __m256i| (_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c)) as u32) >> (32 - rest);
        (
            total + u64::from(bits(newline).count_ones()),
            cr || bits(return_) != 0,
        )
    }

    /// [`super::sse2::count_line_breaks`] thirty-two bytes at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn count_line_breaks(b: &[u8]) -> u64 {
        let Some(after_first) = b.len().checked_sub(1) else {
            return 0;
        };
        let blocks = after_first / 32;
        let mut total = super::count_line_breaks_bytewise(&b[..1], false);
        let mut block = 0;
        let (newline, return_) = (_mm256_set1_epi8(b'\n' as i8), _mm256_set1_epi8(b'\r' as i8));
        while block < blocks {
            let until = (block + 255).min(blocks);
            let mut counts = _mm256_setzero_si256();
            for k in block..until {
                // SAFETY: `b[1 + 32 * k..1 + 32 * k + 32]` and the 32 bytes a byte before
                // it, with `k < blocks`, are in bounds
                let (v, before) = unsafe {
                    let at = b.as_ptr().add(1 + 32 * k);
                    (
                        _mm256_loadu_si256(at.cast()),
                        _mm256_loadu_si256(at.sub(1).cast()),
                    )
                };
                let lone_newline = _mm256_andnot_si256(
                    _mm256_cmpeq_epi8(before, return_),
                    _mm256_cmpeq_epi8(v, newline),
                );
                let breaks = _mm256_or_si256(_mm256_cmpeq_epi8(v, return_), lone_newline);
                counts = _mm256_sub_epi8(counts, breaks);
            }
            total += byte_sum(counts);
            block = until;
        }
        let rest = 1 + 32 * blocks;
        total + super::count_line_breaks_bytewise(&b[rest..], b[rest - 1] == b'\r')
    }

    /// [`super::sse2::plain_run`], the same answer.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn plain_run(b: &[u8], mut i: usize) -> (usize, bool, bool) {
        let mut at_start = true;
        let mut tokens = false;
        while i + 33 <= b.len() {
            // SAFETY: `i + 33 <= b.len()`, so both unaligned 32-byte loads are in bounds
            let (v, next) = unsafe {
                (
                    _mm256_loadu_si256(b.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(b.as_ptr().add(i + 1).cast()),
                )
            };
            let c = classes(v);
            let blank = any_of(c, CTRL_BLANK | SPACE);
            let delimiter = any_of(c, CTRL_BREAK | PUNCT | BRACKET);
            let eq = |x: __m256i, c: u8| {
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(c as i8))) as u32
            };
            // what `may_start_result` says yes to, and `%`
            let dash_or_slash = eq(next, b'-') | eq(next, b'/');
            let special = any_of(c, TOKEN_STOP)
                | (any_of(c, LOW_DIGIT) & dash_or_slash)
                | (any_of(c, ZERO) & eq(next, b'.'));
            let starts = (blank << 1) | u32::from(at_start);
            let stop = delimiter | (special & starts);
            if stop != 0 {
                let k = stop.trailing_zeros();
                tokens |= !blank & ((1u32 << k) - 1) != 0;
                // the scalar loop looks at the stop byte again, knowing whether it starts
                // a token
                let at = if k == 0 {
                    at_start
                } else {
                    blank & (1 << (k - 1)) != 0
                };
                return (i + k as usize, tokens, at);
            }
            tokens |= blank != u32::MAX;
            at_start = blank & (1 << 31) != 0;
            i += 32;
        }
        (i, tokens, at_start)
    }
}

/// Cuts a byte stream into [`RawGame`]s; an iterator of `Result<RawGame, ReadError>`.
///
/// Errors are `not-pdn` (then iteration ends), `game-too-large` (the game is skipped and
/// iteration goes on), `stray-text` for text after the last game, and I/O errors (then
/// iteration ends).
pub struct GameSplitter<R> {
    dec: Decoder<R>,
    opts: ReaderOptions,
    buf: String,
    /// Decoded-text offset of `buf[0]`.
    buf_offset: u64,
    eof: bool,
    done: bool,
    /// Scan position in `buf`.
    pos: usize,
    game_start: usize,
    /// Position in the file of `buf[game_start]`.
    counter: LineCounter,
    next_index: u64,
    // scan state of the current game
    state: State,
    depth: usize,
    movetext: bool,
    tags_seen: bool,
    /// Only blanks since the last line break.
    blank_line: bool,
    /// Buffer position of the current line's start (may precede `game_start`).
    line_start: usize,
    stray_prefix: usize,
    skipping: Option<Skipping>,
    /// Once the input is read: whether it ended where a tag line after it would have
    /// ended what it holds (see [`GameSplitter::ended_clean`]).
    ended_clean: Option<bool>,
    /// Once the input is read: whether it ended between two games (see
    /// [`GameSplitter::ended_between_games`]).
    ended_between_games: bool,
}

/// Where a block of a longer input starts, for a [`GameSplitter`] that reads the block
/// apart from the text before it ([`GameSplitter::at`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockStart {
    /// The 1-based line of the block's first byte (the block starts a line).
    pub line: u64,
    /// The byte offset of the block in the decoded text (as [`RawGame::offset`]).
    pub offset: u64,
    /// Whether bytes before the block were malformed and replaced (which makes any
    /// U+FFFD in a game count as a replacement, see [`RawGame::decoding_replaced`]).
    pub replaced_before: bool,
}

impl BlockStart {
    /// Where a block of UTF-8 input starts whose input before it is `before` (a BOM
    /// included): on the line after `before`'s line breaks, at the length of the text
    /// `before` decodes to (a malformed byte becomes U+FFFD, three bytes of it; the BOM
    /// is no text), after a replacement if `before` had a malformed byte.
    pub fn after_utf8(before: &[u8]) -> BlockStart {
        let text = before.strip_prefix(b"\xef\xbb\xbf").unwrap_or(before);
        let decoded = String::from_utf8_lossy(text);
        BlockStart {
            line: 1 + super::blocks::line_breaks(before),
            offset: decoded.len() as u64,
            replaced_before: matches!(decoded, std::borrow::Cow::Owned(_)),
        }
    }
}

impl<R: Read> GameSplitter<R> {
    /// Starts reading: detects the encoding from a prefix (unless `opts.encoding` is set).
    pub fn new(input: R, opts: ReaderOptions) -> std::io::Result<GameSplitter<R>> {
        let dec = Decoder::new(input, opts.encoding)?;
        Ok(GameSplitter {
            dec,
            opts,
            buf: String::new(),
            buf_offset: 0,
            eof: false,
            done: false,
            pos: 0,
            game_start: 0,
            counter: LineCounter {
                line: 1,
                column: 1,
                prev_cr: false,
                cr_seen: false,
            },
            next_index: 1,
            state: State::Normal,
            depth: 0,
            movetext: false,
            tags_seen: false,
            blank_line: true,
            line_start: 0,
            stray_prefix: 0,
            skipping: None,
            ended_clean: None,
            ended_between_games: false,
        })
    }

    /// A splitter for a block of text that starts a line of a longer input: it gives
    /// the items a splitter reading the whole input would give for the block's games, as
    /// long as the text before the block ended cleanly ([`ended_clean`](Self::ended_clean))
    /// and the block ends so too, or where the input does (their game indices count from
    /// 1 in the block). So a long input cut at tag lines can be read in parallel. The
    /// block is in the whole input's encoding, `opts.encoding` (UTF-8 when `None`: it is
    /// not detected from the block), one that can be cut between lines
    /// ([`super::input::cuttable_encoding`]).
    pub fn at(input: R, opts: ReaderOptions, start: BlockStart) -> std::io::Result<Self> {
        let opts = ReaderOptions {
            encoding: Some(opts.encoding.unwrap_or(encoding_rs::UTF_8)),
            ..opts
        };
        let mut splitter = GameSplitter::new(input, opts)?;
        splitter.counter.line = start.line;
        splitter.buf_offset = start.offset;
        if start.replaced_before {
            splitter.dec.note_replacement_before();
        }
        Ok(splitter)
    }

    /// How many game indices were given so far (to games, and to games too large).
    pub fn games_indexed(&self) -> u64 {
        self.next_index - 1
    }

    /// Once every item is read: whether a line starting a tag pair right after the input
    /// would have ended what the input holds, as the input's end did, and started a game
    /// afresh (no game is cut short, no text before it joins it). Then a block of a
    /// longer input that follows it can be read apart ([`GameSplitter::at`]). `false` until
    /// the end, and for any other ending (tags without moves, comments or text that would
    /// join the next game, a game being skipped as too large).
    pub fn ended_clean(&self) -> bool {
        self.ended_clean == Some(true)
    }

    /// Once every item is read: whether the input ended between two games, nothing after
    /// its last item but blanks, so that any text after it would start afresh (a game
    /// without tags too, which [`ended_clean`](Self::ended_clean) does not say). Then a
    /// block that follows it and starts with a game's movetext (a file of games without
    /// tags, cut after a result) can be read apart. `false` until the end.
    pub fn ended_between_games(&self) -> bool {
        self.ended_between_games
    }

    /// Once every item is read: whether the input that follows, starting with `next`,
    /// can be read apart ([`GameSplitter::at`]): where it starts with a tag line, when
    /// this one [ended cleanly](Self::ended_clean); otherwise (a game's movetext, as in
    /// a file of games without tags cut after a result) when it [ended between
    /// games](Self::ended_between_games). A result inside an unclosed variation ends no
    /// game, though a tag line after it would start one.
    pub fn ended_before(&self, next: &[u8]) -> bool {
        if next.first() == Some(&b'[') {
            self.ended_clean()
        } else {
            self.ended_between_games()
        }
    }

    /// Takes the buffer the text was read into, for its memory, once every item is read
    /// (a block read in memory is then all there: see [`GameSplitter::at_text`]).
    pub fn take_buffer(&mut self) -> String {
        if !self.done {
            return String::new();
        }
        std::mem::take(&mut self.buf)
    }

    /// Whether some malformed input bytes were replaced by U+FFFD so far.
    pub fn replaced(&self) -> bool {
        self.dec.replacements() > 0
    }

    /// [`ended_clean`](Self::ended_clean) for the state at the end of the input, before the
    /// last item is taken: the cases in which [`scan`](Self::scan) cuts at a tag line.
    fn clean_end(&self) -> bool {
        if self.between_games() {
            return true;
        }
        if self.skipping.is_some() {
            return false;
        }
        let pending = &self.buf[self.game_start..];
        let stray = self.state == State::Normal && !self.tags_seen && !has_moves(pending);
        (self.movetext || self.state == State::Comment) && !stray
    }

    /// [`ended_between_games`](Self::ended_between_games) for the state at the end of the
    /// input: nothing after the last item but blanks, and no game being skipped.
    fn between_games(&self) -> bool {
        self.skipping.is_none()
            && self.buf[self.game_start..]
                .bytes()
                .all(|c| c.is_ascii_whitespace())
    }

    /// The encoding used to decode the input.
    pub fn encoding(&self) -> &'static Encoding {
        self.dec.encoding()
    }

    /// How the encoding was chosen.
    pub fn encoding_source(&self) -> EncodingSource {
        self.dec.encoding_source()
    }

    fn reset_game_state(&mut self) {
        self.state = State::Normal;
        self.depth = 0;
        self.movetext = false;
        self.tags_seen = false;
        self.stray_prefix = 0;
    }

    fn position_of_start(&self) -> Position {
        Position {
            line: self.counter.line,
            column: self.counter.column,
        }
    }

    /// Reads more input into the buffer, first dropping what is no longer needed: the
    /// previous games, and while skipping a too-large game, what was scanned of it (but
    /// the start of the current line, unless absurdly far, for a tag-line cut).
    fn refill(&mut self) -> std::io::Result<()> {
        let drop = if self.skipping.is_some() {
            let keep = if self.line_start != NO_LINE
                && self.line_start <= self.pos
                && self.pos - self.line_start < 4096
            {
                self.line_start
            } else {
                self.pos
            };
            keep.max(self.game_start)
        } else {
            self.game_start
        };
        if drop > 0 {
            self.counter.advance(&self.buf[self.game_start..drop]);
            self.buf.drain(..drop);
            self.buf_offset += drop as u64;
            self.pos -= drop;
            self.game_start = 0;
            self.line_start = if self.line_start == NO_LINE || self.line_start < drop {
                NO_LINE
            } else {
                self.line_start - drop
            };
        }
        // A game past 1 MiB may grow to the limit: reserve that at once rather than in
        // doublings, each of which copies the text and leaves the old block to free (with
        // mimalloc, freed a little later): a 1 GB line then peaks at 20 MB, not 60.
        let most = self
            .opts
            .max_game_bytes
            .saturating_add(4 * super::input::CHUNK);
        if self.buf.len() > 1 << 20 && self.buf.capacity() < most {
            self.buf.reserve_exact(most - self.buf.len());
        }
        if self.dec.read_into(&mut self.buf)? == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// Whether the `[` at `i` starts a tag line (`[Name "`), and then where its value's
    /// opening quote is; `None` when the buffer ends before that can be told.
    fn tag_line_at(&self, i: usize) -> Option<Option<usize>> {
        let b = self.buf.as_bytes();
        let (name, j) = tag_pair_start(b, i);
        if j >= b.len() {
            return if self.eof { Some(None) } else { None };
        }
        Some((!name.is_empty() && b[j] == b'"').then_some(j))
    }

    fn scan(&mut self) -> Scan {
        let len = self.buf.len();
        let mut i = self.pos;
        let b = self.buf.as_bytes();
        while i < len {
            let c = b[i];
            match self.state {
                State::LineComment => match memchr2(b'\n', b'\r', &b[i..]) {
                    Some(o) => {
                        i += o;
                        self.state = State::Normal;
                    }
                    None => i = len,
                },
                State::Token => {
                    while i < len && !is_delimiter(b[i]) {
                        i += 1;
                    }
                    if i < len {
                        self.state = State::Normal;
                    }
                }
                State::Tag | State::TagString | State::MoveString => {
                    // bytes with nothing to do in this state, skipped in a tight loop
                    let stop = match self.state {
                        State::Tag => TAG_STOP,
                        State::TagString => TAG_STRING_STOP,
                        _ => MOVE_STRING_STOP,
                    };
                    if CLASS[usize::from(c)] & stop == 0 {
                        i = skip_until(b, i + 1, stop);
                        continue;
                    }
                    let in_string = self.state != State::Tag;
                    match c {
                        b'\n' | b'\r' => self.state = State::Normal,
                        b'\\' if self.state == State::TagString => {
                            if i + 1 >= len && !self.eof {
                                self.pos = i;
                                return Scan::NeedMore;
                            }
                            i += if i + 1 < len && !matches!(b[i + 1], b'\n' | b'\r') {
                                2
                            } else {
                                1
                            };
                        }
                        b'"' => {
                            self.state = match self.state {
                                State::Tag => State::TagString,
                                State::TagString => State::Tag,
                                _ => State::Normal,
                            };
                            i += 1;
                        }
                        b']' if !in_string => {
                            self.state = State::Normal;
                            i += 1;
                        }
                        _ => i += 1,
                    }
                }
                // the most common bytes of movetext: blanks, and tokens that cannot be a
                // result (what the arm below does for them, without its tests)
                State::Normal if CLASS[usize::from(c)] & BLANK != 0 || plain_token_start(b, i) => {
                    // a run of them, in one go
                    let (end, tokens) = plain_run_end(b, i);
                    if tokens {
                        self.blank_line = false;
                        self.movetext = true;
                    }
                    // a token cut by the end of the buffer goes on after the refill
                    if end == len && CLASS[usize::from(b[end - 1])] & BLANK == 0 {
                        self.state = State::Token;
                    }
                    i = end;
                }
                State::Comment | State::Normal => {
                    if c == b'\n' || c == b'\r' {
                        self.blank_line = true;
                        self.line_start = i + 1;
                        i += 1;
                        continue;
                    }
                    if c == b'[' && self.blank_line {
                        match self.tag_line_at(i) {
                            None => {
                                self.pos = i;
                                return Scan::NeedMore;
                            }
                            Some(None) => {}
                            Some(Some(quote)) => {
                                let at = if self.line_start == NO_LINE {
                                    self.game_start
                                } else {
                                    self.line_start.max(self.game_start)
                                };
                                let can_cut = at > self.game_start || self.skipping.is_some();
                                // (a skipped text with neither tags nor moves yet is no
                                // game's: the tag line starts one, which is not skipped)
                                if (self.movetext
                                    || self.state == State::Comment
                                    || (self.skipping.is_some() && !self.tags_seen))
                                    && can_cut
                                {
                                    let stray = self.skipping.is_none()
                                        && self.state == State::Normal
                                        && !self.tags_seen
                                        && !has_moves(&self.buf[self.game_start..at]);
                                    if !stray {
                                        self.pos = at;
                                        return Scan::Cut(at);
                                    }
                                    self.stray_prefix = at - self.game_start;
                                    self.movetext = false;
                                    self.depth = 0;
                                } else if self.tags_seen
                                    && !self.movetext
                                    && self.skipping.is_none()
                                    && empty_line_before(b, self.game_start, at)
                                    && repeats_a_tag_name(b, self.game_start, at, i)
                                {
                                    // the game before has tags and no moves
                                    self.pos = at;
                                    return Scan::Cut(at);
                                }
                                self.tags_seen = true;
                                self.blank_line = false;
                                // most tag lines are read whole here; what this does not
                                // read, the Tag state does
                                match simple_tag_end(b, quote) {
                                    Some(end) => i = end,
                                    None => {
                                        self.state = State::Tag;
                                        i += 1;
                                    }
                                }
                                continue;
                            }
                        }
                    }
                    if self.state == State::Comment {
                        self.blank_line = false;
                        match memchr3(b'}', b'\n', b'\r', &b[i..]) {
                            Some(o) if b[i + o] == b'}' => {
                                i += o + 1;
                                self.state = State::Normal;
                            }
                            Some(o) => i += o,
                            None => i = len,
                        }
                        continue;
                    }
                    if matches!(c, b' ' | b'\t' | 0x0b | 0x0c) {
                        i += 1;
                        continue;
                    }
                    if c == b'\\' {
                        if i + 1 >= len && !self.eof {
                            self.pos = i;
                            return Scan::NeedMore;
                        }
                        if is_literal_cr(b, i) {
                            i += 2;
                            continue;
                        }
                    }
                    self.blank_line = false;
                    match c {
                        b'{' => {
                            self.state = State::Comment;
                            i += 1;
                        }
                        b'%' if i == self.line_start => self.state = State::LineComment,
                        b';' => self.state = State::LineComment,
                        b'[' => {
                            self.state = State::Tag;
                            if !self.movetext {
                                self.tags_seen = true;
                            }
                            i += 1;
                        }
                        b'"' => {
                            self.movetext = true;
                            self.state = State::MoveString;
                            i += 1;
                        }
                        b'(' | b')' | b'}' | b']' => {
                            self.movetext = true;
                            if c == b'(' {
                                self.depth += 1;
                            } else if c == b')' {
                                self.depth = self.depth.saturating_sub(1);
                            }
                            i += 1;
                        }
                        // a result starts with a digit, `*` or `½` (0xC2 0xBD); anything
                        // else (`c3-d4`, `$1`) is skipped without a lookahead
                        // (`12.` starts like `1-0`: two bytes tell them apart)
                        _ if !matches!(c, b'0'..=b'2' | b'*' | 0xc2)
                            || (i + 1 < len && !may_start_result(b, i)) =>
                        {
                            self.movetext = true;
                            self.state = State::Token;
                            i += 1;
                        }
                        _ => {
                            self.movetext = true;
                            // results are at most 7 bytes: look that far for the token end
                            let limit = (i + 9).min(len);
                            let end = (i..limit).find(|&k| is_delimiter(b[k]));
                            match end {
                                None if limit == len && !self.eof => {
                                    self.pos = i;
                                    return Scan::NeedMore;
                                }
                                None if limit < len => self.state = State::Token,
                                _ => {
                                    let e = end.unwrap_or(len);
                                    if self.depth == 0 && parse_result(&self.buf[i..e]).is_some() {
                                        self.pos = e;
                                        return Scan::Cut(e);
                                    }
                                    // a lone delimiter that has no case above (`\\`) still moves on
                                    i = e.max(i + 1);
                                }
                            }
                        }
                    }
                }
            }
        }
        self.pos = i;
        Scan::NeedMore
    }

    /// Moves the start of the next game past the blanks read before it, while nothing else
    /// was: they are no game's (as [`Self::take`] says too), so they must not count
    /// towards its size. Else a run of blank lines longer than the size limit between two
    /// games was taken for the start of a too-large game, whose skipping then went on
    /// through the next game, which has no cut before its result; and the buffer held
    /// the whole run.
    fn pass_leading_blanks(&mut self) {
        // (comments may follow the blanks: they are read, and still no game's)
        if self.skipping.is_some() || self.movetext || self.tags_seen || self.stray_prefix > 0 {
            return;
        }
        self.pass_blanks(self.pos);
    }

    /// Moves the start of the next game past the blanks at it, up to `end`, counting their
    /// lines; returns how many bytes it passed.
    fn pass_blanks(&mut self, end: usize) -> usize {
        let read = &self.buf.as_bytes()[self.game_start..end];
        let lead = read.iter().take_while(|c| c.is_ascii_whitespace()).count();
        if lead > 0 {
            self.counter.advance_blanks(&read[..lead]);
            self.game_start += lead;
        }
        lead
    }

    /// Turns `buf[game_start..end]` into the next item and moves past it.
    fn take(&mut self, end: usize) -> Option<Result<RawGame, ReadError>> {
        // the blank lines after the previous game belong to no game: a game starts at its
        // first non-blank character, which is where a person would say it starts
        if self.skipping.is_none() {
            let lead = self.pass_blanks(end);
            self.stray_prefix = self.stray_prefix.saturating_sub(lead);
        }
        let start = self.position_of_start();
        let text = &self.buf[self.game_start..end];
        let offset = self.buf_offset + self.game_start as u64;
        let skipped = self.skipping.take();
        let item = if let Some(s) = skipped.filter(|_| self.movetext || self.tags_seen) {
            Some(Err(game_too_large(
                s.index,
                s.start,
                &larger_than(self.opts.max_game_bytes),
            )))
        } else if let Some(s) = skipped {
            // comments outside any game, too many to hold: the index taken for the game
            // they might have begun is the next game's
            self.next_index = s.index;
            let what = if s.index == 1 {
                "comments before the first game"
            } else {
                "comments outside any game"
            };
            let limit = self.opts.max_game_bytes;
            Some(Err(stray_text(
                s.start,
                &format!("{what}, larger than {limit} bytes"),
            )))
        } else if !self.movetext && !self.tags_seen {
            // only whitespace and comments: not a game
            // before the first game, between games or after the last: say which is known
            let what = if self.next_index == 1 {
                "comments before the first game"
            } else {
                "comments outside any game"
            };
            (!text.trim().is_empty()).then(|| Err(stray_text(start, what)))
        } else if !self.tags_seen && !has_moves(text) {
            Some(Err(stray_text(start, "text with no tags and no moves")))
        } else {
            let index = self.next_index;
            self.next_index += 1;
            let bytes = self.opts.max_game_bytes;
            if text.len() > bytes {
                // (a game larger than the limit that came in one read was not seen growing
                // past it: its end was found first)
                Some(Err(game_too_large(index, start, &larger_than(bytes))))
            } else {
                let decoding_replaced = self.dec.replacements() > 0 && text.contains('\u{fffd}');
                let game = RawGame {
                    index,
                    text: text.to_owned(),
                    start,
                    offset,
                    stray_prefix: self.stray_prefix,
                    decoding_replaced,
                };
                Some(match self.opts.over_count(&game) {
                    Some(what) => Err(game_too_large(index, start, &what)),
                    None => Ok(game),
                })
            }
        };
        self.counter.advance(&self.buf[self.game_start..end]);
        self.game_start = end;
        self.pos = end;
        self.reset_game_state();
        item
    }
}

/// A game's moves and its other nodes (tags, comments, NAGs, setups, variations), in all
/// its lines, as the tree would hold them.
#[derive(Default)]
struct TreeSize {
    moves: usize,
    items: usize,
}

impl Visitor for TreeSize {
    type Output = (usize, usize);
    fn begin_game(&mut self) {
        *self = TreeSize::default();
    }
    fn tag(&mut self, _tag: RawTag<'_>) {
        self.items += 1;
    }
    fn mv(&mut self, _text: &str, _span: Span) {
        self.moves += 1;
    }
    fn nag(&mut self, _nag: u16, _span: Span) {
        self.items += 1;
    }
    fn comment(&mut self, _text: &str, _span: Span) {
        self.items += 1;
    }
    fn line_comment(&mut self, _kind: CommentKind, _text: &str, _span: Span) {
        self.items += 1;
    }
    fn begin_variation(&mut self, _span: Span) -> Skip {
        self.items += 1;
        Skip(false)
    }
    fn setup(&mut self, _fen: &str, _span: Span) {
        self.items += 1;
    }
    fn end_game(&mut self) -> (usize, usize) {
        (self.moves, self.items)
    }
}

impl ReaderOptions {
    /// Whether a game of `len` bytes might be over the move or item limit, so that it
    /// must be counted: a move and the delimiter after it take two bytes at the very
    /// least, an item one (each `(` of `(((` opens a variation), so ordinary games are
    /// never counted.
    fn may_be_over_count(&self, len: usize) -> bool {
        len / 2 >= self.max_game_moves || len >= self.max_game_items
    }

    /// What `game-too-large` says of `game` if it has more moves or other nodes than these
    /// limits allow. Counted only for a text long enough to hold that many, so that
    /// ordinary games cost nothing; the count reads the game without keeping anything.
    fn over_count(&self, game: &RawGame) -> Option<String> {
        if !self.may_be_over_count(game.text.len()) {
            return None;
        }
        let (moves, items) = game.visit(&mut TreeSize::default());
        let (max_moves, max_items) = (self.max_game_moves, self.max_game_items);
        if moves > max_moves {
            Some(format!("game with more than {max_moves} moves"))
        } else if items > max_items {
            Some(format!(
                "game with more than {max_items} tags, comments, NAGs, setups and variations"
            ))
        } else {
            None
        }
    }
}

/// What `game-too-large` says of a game over a size limit of `bytes`.
fn larger_than(bytes: usize) -> String {
    format!("game larger than {bytes} bytes")
}

/// Game `index`, starting `at`, is skipped as too large (`what` it is).
fn game_too_large(index: u64, at: Position, what: &str) -> ReadError {
    ReadError::At {
        kind: SyntaxErrorKind::GameTooLarge,
        game_index: Some(index),
        line: at.line,
        column: at.column,
        message: format!("{what}; skipped"),
    }
}

fn stray_text(at: Position, what: &str) -> ReadError {
    ReadError::At {
        kind: SyntaxErrorKind::StrayText,
        game_index: None,
        line: at.line,
        column: at.column,
        message: format!("{what}; skipped"),
    }
}

impl GameSplitter<std::io::Empty> {
    /// [`GameSplitter::at`] for a block already in memory as text: the splitter reads it
    /// where it is, without copying or checking it again.
    pub fn at_text(
        mut text: String,
        opts: ReaderOptions,
        start: BlockStart,
    ) -> std::io::Result<Self> {
        let mut splitter = GameSplitter::at(std::io::empty(), opts, start)?;
        // (the decoder drops a BOM: it is not text)
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        splitter.buf = text;
        splitter.eof = true;
        Ok(splitter)
    }
}

/// What [`GameSplitter::next_fused`] gives for a game.
pub(crate) enum Split<T> {
    /// A game cut by the splitter, as [`GameSplitter::next`] gives it.
    Raw(RawGame),
    /// A game read whole by the caller's reader.
    Fused(FusedGame<T>),
}

/// A game that [`GameSplitter::next_fused`]'s reader read whole: where it is, and what
/// the reader made of it.
pub(crate) struct FusedGame<T> {
    /// As [`RawGame::index`].
    pub index: u64,
    /// As [`RawGame::start`].
    pub start: Position,
    /// As [`RawGame::offset`].
    pub offset: u64,
    /// The length of its text.
    #[cfg_attr(not(test), allow(dead_code))]
    pub len: usize,
    /// What the reader gave.
    pub value: T,
}

/// How much text [`GameSplitter::next_fused`] wants in the buffer from a game's start
/// before it offers the game to its reader (unless the input ends first): a game cut by
/// the end of the buffer cannot be read whole, and goes the splitter's way. (Games take
/// under 2 KB as a rule; what is left is moved to the buffer's start at each read: with
/// 16 KiB, a quarter of every 64 KiB read was moved again.)
const FUSED_LOOKAHEAD: usize = 4 * 1024;

impl<R: Read> GameSplitter<R> {
    /// [`next`](Iterator::next), where a game may be read whole by the caller's `read`
    /// instead, in the same pass (one reading of the text instead of two): at the start of
    /// each game, `read` is given the text from the game's first tag pair to the end of
    /// the buffer, and whether the input ends there. When it returns the game's length and
    /// a value, that game is [`Split::Fused`], else the splitter reads it as usual.
    ///
    /// `read` must end the game exactly where the splitter would: it is meant for
    /// [`super::plain::visit_plain_game`], which makes sure of that, and tests compare the
    /// two readings game by game. Only input decoded without a replacement so far is
    /// offered, so that [`RawGame::decoding_replaced`] would be false.
    pub(crate) fn next_fused<T>(
        &mut self,
        read: &mut impl FnMut(&str, bool) -> Option<(usize, T)>,
    ) -> Option<Result<Split<T>, ReadError>> {
        self.next_item::<T, true>(read)
    }

    /// Whether nothing of the next game is read yet: it may be offered whole.
    fn at_fresh_game(&self) -> bool {
        self.pos <= self.game_start
            && self.state == State::Normal
            && self.depth == 0
            && !self.movetext
            && !self.tags_seen
            && self.stray_prefix == 0
            && self.skipping.is_none()
    }

    /// Offers the game at `game_start` (after its leading blanks) to `read`; on success
    /// moves past it as [`take`](Self::take) would have.
    fn read_fused<T>(
        &mut self,
        read: &mut impl FnMut(&str, bool) -> Option<(usize, T)>,
    ) -> Option<FusedGame<T>> {
        // (the blanks before the game are passed only for a game read: a game too large
        // is reported where its blanks start)
        let rest = &self.buf.as_bytes()[self.game_start..];
        let lead = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
        let text = &self.buf[self.game_start + lead..];
        // (a game starts with its tags, or without tags at its first move number)
        let starts_a_game = text.starts_with('[') || text.starts_with("1.");
        if !starts_a_game || self.dec.replacements() > 0 {
            return None;
        }
        let (len, value) = read(text, self.eof)?;
        // (over a limit, the splitter reports the game)
        if len > self.opts.max_game_bytes || self.opts.may_be_over_count(len) {
            return None;
        }
        self.pass_blanks(self.game_start + lead);
        let end = self.game_start + len;
        let game = FusedGame {
            index: self.next_index,
            start: self.position_of_start(),
            offset: self.buf_offset + self.game_start as u64,
            len,
            value,
        };
        // the scan's state after the result token, as the scan would have left it
        let text = &self.buf[self.game_start..end];
        if let Some(k) = memrchr2(b'\n', b'\r', text.as_bytes()) {
            self.line_start = self.game_start + k + 1;
        }
        self.blank_line = false;
        self.counter.advance(text);
        self.next_index += 1;
        self.game_start = end;
        self.pos = end;
        self.reset_game_state();
        Some(game)
    }

    /// [`next`](Iterator::next) and, when `FUSED`, [`next_fused`](Self::next_fused).
    #[inline(always)]
    fn next_item<T, const FUSED: bool>(
        &mut self,
        read: &mut impl FnMut(&str, bool) -> Option<(usize, T)>,
    ) -> Option<Result<Split<T>, ReadError>> {
        if self.done {
            return None;
        }
        if self.dec.is_binary() {
            self.done = true;
            return Some(Err(ReadError::At {
                kind: SyntaxErrorKind::NotPdn,
                game_index: None,
                line: 1,
                column: 1,
                message: "binary data (NUL or control bytes), not a PDN file".into(),
            }));
        }
        loop {
            if FUSED && self.at_fresh_game() {
                if self.buf.len() - self.game_start < FUSED_LOOKAHEAD && !self.eof {
                    if let Err(e) = self.refill() {
                        self.done = true;
                        return Some(Err(e.into()));
                    }
                    continue;
                }
                if let Some(game) = self.read_fused(read) {
                    return Some(Ok(Split::Fused(game)));
                }
            }
            match self.scan() {
                Scan::Cut(end) => {
                    if let Some(item) = self.take(end) {
                        return Some(item.map(Split::Raw));
                    }
                }
                Scan::NeedMore if self.eof => {
                    self.done = true;
                    self.ended_clean = Some(self.clean_end());
                    self.ended_between_games = self.between_games();
                    let end = self.buf.len();
                    return self.take(end).map(|item| item.map(Split::Raw));
                }
                Scan::NeedMore => {
                    self.pass_leading_blanks();
                    if self.skipping.is_none()
                        && self.buf.len() - self.game_start > self.opts.max_game_bytes
                    {
                        // (reported where it starts, past its blanks, as a game cut
                        // is: not where the buffer happened to end)
                        let lead = self.pass_blanks(self.pos);
                        self.stray_prefix = self.stray_prefix.saturating_sub(lead);
                        self.skipping = Some(Skipping {
                            index: self.next_index,
                            start: self.position_of_start(),
                        });
                        self.next_index += 1;
                    }
                    if let Err(e) = self.refill() {
                        self.done = true;
                        return Some(Err(e.into()));
                    }
                }
            }
        }
    }
}

impl<R: Read> Iterator for GameSplitter<R> {
    type Item = Result<RawGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.next_item::<std::convert::Infallible, false>(&mut |_, _| None)?;
        Some(item.map(|split| match split {
            Split::Raw(game) => game,
            Split::Fused(fused) => match fused.value {},
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::MoveCount;

    fn split(text: &str) -> Vec<Result<RawGame, ReadError>> {
        GameSplitter::new(text.as_bytes(), ReaderOptions::default())
            .unwrap()
            .collect()
    }

    fn texts(text: &str) -> Vec<String> {
        split(text)
            .into_iter()
            .map(|g| g.map(|g| g.text).unwrap_or_else(|e| format!("ERR {e}")))
            .collect()
    }

    #[test]
    fn cuts_at_terminators_and_tag_lines() {
        let t = "[A \"1\"]\n1. c3-d4 1-0\n[B \"2\"]\n1. 22-18 { * 1-0 [x] } ( 2-0 ) 2. 18-22\n[C \"3\"]\n1-18 27-20* 1/2-1/2";
        assert_eq!(
            texts(t),
            vec![
                "[A \"1\"]\n1. c3-d4 1-0",
                "[B \"2\"]\n1. 22-18 { * 1-0 [x] } ( 2-0 ) 2. 18-22\n",
                "[C \"3\"]\n1-18 27-20* 1/2-1/2",
            ]
        );
    }

    #[test]
    fn strings_and_line_comments_do_not_split() {
        let t = "% 1-0 here\n[Event \"a \\\" 1-0 \\\\\" ] [Site \"*\"]\n1. a3b4 ; 0-1 no\n*";
        assert_eq!(texts(t), vec![t]);
    }

    #[test]
    fn unterminated_comment_ends_at_a_tag_line() {
        let t = "[A \"1\"]\n1. c3-d4 { open\n[B \"2\"]\n1. e3-f4 *";
        let games = split(t);
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap().to_game();
        assert_eq!(g.errors[0].kind, SyntaxErrorKind::UnterminatedComment);
    }

    #[test]
    fn stray_lines_before_tags_are_a_prefix() {
        let t = "3\n1\n[Ident \"a\"]\n1. h4-f6 e7-g5\n[Site \"x\"]\n1. c3-d4 *";
        let games: Vec<RawGame> = split(t).into_iter().map(Result::unwrap).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].stray_prefix, 4);
        let g = games[0].to_game();
        assert_eq!(g.errors[0].kind, SyntaxErrorKind::StrayText);
        assert_eq!(
            games[0].position(g.errors[0].span.end),
            Position { line: 3, column: 1 }
        );
        assert_eq!(g.moves.moves.len(), 2);
        assert_eq!(games[1].start, Position { line: 5, column: 1 });
    }

    #[test]
    fn trailing_whitespace_and_comments() {
        assert_eq!(texts("1. c3-d4 *\n\n  \n"), vec!["1. c3-d4 *"]);
        let items = split("1. c3-d4 *\n{ the end }\n");
        assert_eq!(items.len(), 2);
        assert_eq!(
            items[1].as_ref().unwrap_err().kind(),
            Some(SyntaxErrorKind::StrayText)
        );
        assert!(split("").is_empty());
    }

    #[test]
    fn positions_are_line_and_character_column() {
        let t = "[Event \"Тест\"]\r\n1. c3-d4 *\r\n\r[Event \"б\"]\r1. ж c3-d4 *";
        let games: Vec<RawGame> = split(t).into_iter().map(Result::unwrap).collect();
        assert_eq!(games[0].start, Position { line: 1, column: 1 });
        assert_eq!(
            games[0].position(games[0].text.find("c3").unwrap()),
            Position { line: 2, column: 4 }
        );
        assert_eq!(games[1].start, Position { line: 4, column: 1 });
        let g = games[1].to_game();
        let e = &g.errors[0];
        assert_eq!(e.kind, SyntaxErrorKind::UnexpectedToken);
        assert_eq!(
            games[1].position(e.span.start),
            Position { line: 5, column: 4 }
        );
        assert_eq!(games[1].offset as usize, t.find("[Event \"б").unwrap());
    }

    #[test]
    fn lines_are_counted_alike_in_any_pieces() {
        // the newline-only shortcut against the line-by-line count, over text with and
        // without `\r`, multi-byte characters, and pieces cut anywhere (a `\r\n` too)
        let mut rng = crate::generate::SplitMix64::new(31);
        let alphabet = ["\n", "\r", "\r\n", "a", " ", "ж", "1. c3-d4 ", "{\n}"];
        for n in 0..400 {
            let len = (rng.next_u64() % 10_000) as usize;
            let mut text = String::new();
            while text.len() < len {
                let pick = rng.next_u64() as usize % alphabet.len();
                // half the texts without `\r`, the shortcut's case
                if n % 2 == 0 || !alphabet[pick].contains('\r') {
                    text.push_str(alphabet[pick]);
                }
            }
            // (a counter that saw a `\r` before counts any text as text with `\r`s)
            let start = LineCounter {
                line: 1,
                column: 1,
                prev_cr: false,
                cr_seen: n % 4 == 1,
            };
            let (mut fast, mut slow) = (start, start);
            let mut at = 0;
            while at < text.len() {
                let mut end = (at + 1 + rng.next_u64() as usize % 700).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                fast.advance(&text[at..end]);
                slow.advance_by_lines(&text[at..end]);
                assert_eq!(
                    (fast.line, fast.column, fast.prev_cr),
                    (slow.line, slow.column, slow.prev_cr),
                    "{n} {end}"
                );
                at = end;
            }
            #[cfg(target_arch = "x86_64")]
            {
                let want = (
                    text.bytes().filter(|&c| c == b'\n').count() as u64,
                    text.contains('\r'),
                );
                assert_eq!(sse2::count_newlines(text.as_bytes()), want);
                // (each line break is one, a CR LF too, wherever the blocks start)
                let mut counter = start;
                counter.advance_by_lines(&text);
                let breaks = counter.line - start.line;
                assert_eq!(sse2::count_line_breaks(text.as_bytes()), breaks);
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2 (asked just above)
                    assert_eq!(unsafe { avx2::count_newlines(text.as_bytes()) }, want);
                    // SAFETY: as above
                    assert_eq!(unsafe { avx2::count_line_breaks(text.as_bytes()) }, breaks);
                }
                assert_eq!(count_line_breaks_bytewise(text.as_bytes(), false), breaks);
            }
        }
    }

    #[test]
    fn blanks_are_counted_as_any_text() {
        // the blanks before a game, after text that ended with `\r` or not
        let mut rng = crate::generate::SplitMix64::new(32);
        for n in 0..2000 {
            let len = 1 + rng.below(8) as usize;
            let blanks: Vec<u8> = (0..len).map(|_| *rng.pick(b"\n\n \t\r\x0c")).collect();
            let mut fast = LineCounter {
                line: 1 + rng.below(5),
                column: 1 + rng.below(5),
                prev_cr: n % 3 == 0,
                cr_seen: n % 5 == 0,
            };
            let mut slow = fast;
            fast.advance_blanks(&blanks);
            slow.advance_by_lines(std::str::from_utf8(&blanks).unwrap());
            assert_eq!(
                (fast.line, fast.column, fast.prev_cr),
                (slow.line, slow.column, slow.prev_cr),
                "{blanks:?}"
            );
        }
    }

    #[test]
    fn simple_tag_values_end_where_the_tag_states_end_them() {
        // the TagString and Tag states of the scanner, byte by byte, from the value's
        // opening quote: where the tag pair ends (after `]`), if it ends at a `]`
        fn by_states(b: &[u8]) -> Option<usize> {
            let (mut i, mut in_string) = (1, true);
            while i < b.len() {
                match (b[i], in_string) {
                    (b'\n' | b'\r', _) => return None,
                    (b'\\', true) => i += 1,
                    (b'"', _) => in_string = !in_string,
                    (b']', false) => return Some(i + 1),
                    _ => {}
                }
                i += 1;
            }
            None
        }
        let mut rng = crate::generate::SplitMix64::new(5);
        let mut read = 0;
        for _ in 0..20_000 {
            let mut line = b"\"".to_vec();
            for _ in 0..rng.below(10) {
                line.push(*rng.pick(b"ab ]\"\\\n\r["));
            }
            let ends: [&[u8]; 5] = [b"\"]", b"\" ]", b"\"", b"]", b"\"]\n"];
            let end: &&[u8] = rng.pick(&ends);
            line.extend_from_slice(end);
            if let Some(end) = simple_tag_end(&line, 0) {
                assert_eq!(
                    Some(end),
                    by_states(&line),
                    "{:?}",
                    String::from_utf8_lossy(&line)
                );
                read += 1;
            }
        }
        assert!(read > 1_000, "{read}");
    }

    #[test]
    fn tag_values_end_at_the_byte_the_byte_loop_stops_at() {
        // runs of every length up to 80 between stop bytes (so that blocks of sixteen and
        // the tail both meet them), read from every offset
        let mut rng = crate::generate::SplitMix64::new(7);
        let mut blocks = 0;
        for _ in 0..3_000 {
            let len = rng.below(81) as usize;
            let b: Vec<u8> = (0..len)
                .map(|_| match rng.below(40) {
                    0 => *rng.pick(b"\"\\\n\r"),
                    _ => *rng.pick("ab ]é{1".as_bytes()),
                })
                .collect();
            for i in 0..=len {
                let end = tag_string_run_end(&b, i);
                assert_eq!(end, skip_until(&b, i, TAG_STRING_STOP), "{b:?} from {i}");
                blocks += usize::from(end >= i + 16);
            }
        }
        assert!(blocks > 10_000, "{blocks}");
    }

    #[test]
    fn backslash_in_movetext_does_not_hang() {
        assert_eq!(texts(" !}\\[%%c3-d4[}é\nc3-d4").len(), 1);
    }

    #[test]
    fn binary_input_is_not_pdn() {
        let items: Vec<_> = GameSplitter::new(&b"\x00\x01\x02[Event"[..], ReaderOptions::default())
            .unwrap()
            .collect();
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            Some(SyntaxErrorKind::NotPdn)
        );
    }

    /// The parts of a located reader error (kind, game, line, column, message); panics
    /// on anything else.
    fn located(
        item: &Result<RawGame, ReadError>,
    ) -> (SyntaxErrorKind, Option<u64>, u64, u64, &str) {
        match item {
            Err(ReadError::At {
                kind,
                game_index,
                line,
                column,
                message,
            }) => (*kind, *game_index, *line, *column, message),
            other => panic!("{other:?}"),
        }
    }

    /// A game limit of 100,000 bytes, for texts that are too large to hold without
    /// being many megabytes.
    fn small_limit() -> ReaderOptions {
        ReaderOptions {
            max_game_bytes: 100_000,
            ..ReaderOptions::default()
        }
    }

    #[test]
    fn too_large_games_are_skipped() {
        let big = format!(
            "[Event \"big\"]\n1. {}*\n[Event \"small\"]\n1. c3-d4 *",
            "c3-d4 {comment} ".repeat(100_000)
        );
        let opts = small_limit();
        let items: Vec<_> = GameSplitter::new(big.as_bytes(), opts).unwrap().collect();
        assert_eq!(items.len(), 2, "{items:?}");
        let (kind, game_index, line, column, _) = located(&items[0]);
        assert_eq!(
            (kind, game_index, line, column),
            (SyntaxErrorKind::GameTooLarge, Some(1), 1, 1)
        );
        let g = items[1].as_ref().unwrap();
        assert_eq!((g.index, g.start.line), (2, 3));
        assert_eq!(g.to_game().tag("Event"), Some("small"));
    }

    #[test]
    fn games_with_more_moves_than_the_limit_are_skipped() {
        // ten moves (four in a variation) pass a limit of ten; eleven do not, however
        // short their text; the next game is read and numbered as usual
        let opts = ReaderOptions {
            max_game_moves: 10,
            ..ReaderOptions::default()
        };
        let ten =
            "1. c3-d4 f6-g5 (1... b6-a5 2. d4-c5 d6:b4 3. a3:c5) 2. g3-h4 b6-a5 3. b2-c3 g5-f4 *";
        let eleven = "1-5 1-5 1-5 1-5 1-5 1-5 1-5 1-5 1-5 1-5 1-5 *";
        let text = format!("[Event \"a\"]\n{ten}\n\n{eleven}\n\n[Event \"c\"]\n{ten}\n");
        let items: Vec<_> = GameSplitter::new(text.as_bytes(), opts).unwrap().collect();
        assert_eq!(items.len(), 3, "{items:?}");
        assert_eq!(items[0].as_ref().unwrap().index, 1);
        assert_eq!(
            located(&items[1]),
            (
                SyntaxErrorKind::GameTooLarge,
                Some(2),
                4,
                1,
                "game with more than 10 moves; skipped"
            )
        );
        let g = items[2].as_ref().unwrap();
        assert_eq!((g.index, g.start.line), (3, 6));
        // and by default, a game far over the limit in a few hundred kilobytes
        let many = format!("[Event \"d\"]\n{}*\n", "1-5 ".repeat(MAX_GAME_MOVES + 1));
        let items = split(&many);
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            Some(SyntaxErrorKind::GameTooLarge)
        );
    }

    #[test]
    fn games_with_more_items_than_the_limit_are_skipped() {
        // tags, comments (all three kinds), NAGs, setups and variations count alike: ten
        // pass a limit of ten, eleven do not; moves are counted apart
        let opts = ReaderOptions {
            max_game_items: 10,
            ..ReaderOptions::default()
        };
        let ten = "[Event \"a\"]\n[Site \"b\"]\n1. c3-d4 {x} $1 (1. a3-b4 ; y\n) f6-g5 $2\n\
                   % z\n/FEN \"W:W21:B1\"/ 1. 21-17 {w} *\n";
        let eleven = ten.replace("{w}", "{w} {v}");
        let text = format!("{ten}\n{eleven}\n{ten}");
        let items: Vec<_> = GameSplitter::new(text.as_bytes(), opts).unwrap().collect();
        assert_eq!(items.len(), 3, "{items:?}");
        assert_eq!(items[0].as_ref().unwrap().index, 1);
        let (kind, game, line, _, message) = located(&items[1]);
        assert_eq!(
            (kind, game, line),
            (SyntaxErrorKind::GameTooLarge, Some(2), 8)
        );
        assert_eq!(
            message,
            "game with more than 10 tags, comments, NAGs, setups and variations; skipped"
        );
        assert_eq!(items[2].as_ref().unwrap().index, 3);
        // an item may take a single byte: each `(` of an unclosed run opens a variation
        let nested = format!("-\n{}", "(".repeat(11));
        let items: Vec<_> = GameSplitter::new(nested.as_bytes(), opts)
            .unwrap()
            .collect();
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            Some(SyntaxErrorKind::GameTooLarge),
            "{items:?}"
        );
        // and alike when games may be read whole (`next_fused`)
        for piece in [1, 4096] {
            fused_split_alike(text.as_bytes(), opts, piece);
        }
        // and by default, a game of empty comments far over the limit in a few kilobytes
        let many = format!(
            "[Event \"d\"]\n1. c3-d4 {}*\n",
            "{}".repeat(MAX_GAME_ITEMS + 1)
        );
        let items = split(&many);
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            Some(SyntaxErrorKind::GameTooLarge)
        );
    }

    #[test]
    fn header_only_games_are_games_of_their_own() {
        // PDN 3.0 allows a game with tags and no moves: the next game's tag section comes
        // after an empty line and repeats a name
        for br in ["\n", "\r\n", "\r"] {
            let t = "[Event \"a\"]\n[White \"X\"]\n\n[Event \"b\"]\n[White \"Y\"]\n \t\n\
                     [Event \"c\"]\n\n1. c3-d4 *\n"
                .replace('\n', br);
            assert_eq!(
                texts(&t),
                [
                    "[Event \"a\"]\n[White \"X\"]\n\n".replace('\n', br),
                    "[Event \"b\"]\n[White \"Y\"]\n \t\n".replace('\n', br),
                    "[Event \"c\"]\n\n1. c3-d4 *".replace('\n', br),
                ],
                "{br:?}"
            );
        }
        // an empty line inside one tag section (a tag set apart, as real files have), a
        // name repeated without an empty line (a duplicate tag), several tags on a line:
        // one game each
        for one in [
            "[Event \"a\"]\n[Result \"0-1\"]\n\n[PlyCount \"87\"]\n\n1. c3-d4 *",
            "[Event \"a\"]\n[White \"X\"]\n[Event \"again\"]\n\n1. c3-d4 *",
            "[Event \"a\"][White \"X\"]\n\n[Site \"s\"][Round \"1\"]\n1. c3-d4 *",
            "[Event \"a [Site \\\"x\\\"]\"]\n\n[Site \"s\"]\n1. c3-d4 *",
        ] {
            for br in ["\n", "\r\n", "\r"] {
                let one = one.replace('\n', br);
                assert_eq!(texts(&one), std::slice::from_ref(&one), "{one:?}");
            }
        }
    }

    #[test]
    fn blank_lines_between_games_count_towards_no_game() {
        let opts = small_limit();
        let game = "[Event \"x\"]\n1. c3-d4 *\n";
        for blanks in ["\n", "\r\n", " \t", "\r"] {
            // more blanks than a game may hold, between two games, before the first and
            // after the last
            let run = blanks.repeat(300_000 / blanks.len());
            let lines = (run.matches('\n').count() + run.matches('\r').count()
                - run.matches("\r\n").count()) as u64;
            let text = format!("{run}{game}{run}{game}{run}");
            let items: Vec<_> = GameSplitter::new(text.as_bytes(), opts).unwrap().collect();
            let starts: Vec<_> = items
                .iter()
                .map(|g| g.as_ref().map(|g| (g.index, g.start.line)).ok())
                .collect();
            let first = 1 + lines;
            assert_eq!(
                starts,
                [Some((1, first)), Some((2, first + 2 + lines))],
                "{blanks:?}"
            );
            if lines == 0 {
                // on the line of the blanks, after them
                let g = items[1].as_ref().unwrap();
                assert_eq!(g.start.column, 1 + run.len() as u64);
            }
            // only blanks: no game, nothing to report
            let items: Vec<_> = GameSplitter::new(run.as_bytes(), opts).unwrap().collect();
            assert!(items.is_empty(), "{blanks:?}: {items:?}");
        }
    }

    #[test]
    fn comments_between_games_too_long_to_hold_are_stray_text() {
        let opts = small_limit();
        let game = "[Event \"x\"]\n1. c3-d4 *\n";
        // (the limit is checked when the buffer is refilled: past the first read, of up
        // to `DETECT_PREFIX` bytes)
        let long = "x".repeat(400_000);
        let blanks = "\n".repeat(400_000);
        for between in [
            format!("{{{long}}}\n"),
            format!("{{note}}{blanks}"),
            format!("% escape\n{blanks}"),
            format!("; {long}\n"),
        ] {
            let text = format!("{game}{between}{game}");
            let items: Vec<_> = GameSplitter::new(text.as_bytes(), opts).unwrap().collect();
            let kinds: Vec<_> = items
                .iter()
                .map(|g| match g {
                    Ok(g) => Ok(g.index),
                    Err(e) => Err((e.kind(), e.to_string().contains("larger than 100000"))),
                })
                .collect();
            // the next game is read, and numbered as if the comments were short
            assert_eq!(
                kinds,
                [Ok(1), Err((Some(SyntaxErrorKind::StrayText), true)), Ok(2)],
                "{}",
                &between[..20]
            );
            assert_eq!(
                items[2].as_ref().unwrap().start.line,
                3 + between.matches('\n').count() as u64
            );
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_block_scan_knows_the_delimiters() {
        for b in 0..=255u8 {
            assert_eq!(
                sse2::NON_BLANK_DELIMITERS.contains(&b),
                is_delimiter(b) && CLASS[usize::from(b)] & BLANK == 0,
                "{b:#04x}"
            );
        }
    }

    #[test]
    fn the_block_scan_agrees_with_the_byte_scan() {
        // random movetext-like bytes, every start position: the same end and the same word
        // on tokens, sixteen bytes at a time or one by one
        let alphabet = b"ac39012-/.:x *\t\x0b\n\r{}()[];\"\\%\xc2\xbd";
        let mut rng = crate::generate::SplitMix64::new(41);
        let mut checked = 0;
        for _ in 0..3000 {
            let len = 1 + rng.below(80) as usize;
            // mostly plain bytes, so that runs get long
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.chance(85) {
                        *rng.pick(b"abch3456789-:x. ")
                    } else {
                        *rng.pick(alphabet)
                    }
                })
                .collect();
            for i in 0..text.len() {
                assert_eq!(
                    plain_run_end(&text, i),
                    plain_run_end_scalar(&text, i, true),
                    "{:?} from {i}",
                    String::from_utf8_lossy(&text)
                );
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_two_block_scans_agree() {
        // longer texts than above, so that runs pass whole blocks of 32, and now and then
        // any byte at all (those the AVX2 tables put in a class by accident among them)
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("note: no AVX2 on this CPU; only the SSE2 scan runs here");
            return;
        }
        let alphabet = b"ac39012-/.:x *\t\x0b\x0c\n\r{}()[];\"\\%\xc2\xbd<=|\xc5\xca";
        let mut rng = crate::generate::SplitMix64::new(43);
        let mut passed_blocks = 0;
        for round in 0..3000 {
            let len = 1 + rng.below(200) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| match rng.below(100) {
                    0..=89 => *rng.pick(b"abch3456789-:x. "),
                    90..=97 => *rng.pick(alphabet),
                    _ if round % 2 == 0 => rng.below(256) as u8,
                    _ => b' ',
                })
                .collect();
            for i in 0..text.len() {
                // SAFETY: the CPU has AVX2 (asked above)
                let wide = unsafe { avx2::plain_run(&text, i) };
                let narrow = sse2::plain_run(&text, i);
                // where each stops may differ (a block ends elsewhere); what the scalar
                // scan then makes of it may not
                let finish = |(j, tokens, at_start): (usize, bool, bool)| {
                    let (end, more) = plain_run_end_scalar(&text, j, at_start);
                    (end, tokens || more)
                };
                assert_eq!(
                    finish(wide),
                    finish(narrow),
                    "{:?} from {i}",
                    String::from_utf8_lossy(&text)
                );
                assert_eq!(finish(wide), plain_run_end_scalar(&text, i, true));
                passed_blocks += usize::from(wide.0 >= i + 32);
            }
        }
        assert!(passed_blocks > 10_000, "{passed_blocks}");
    }

    #[test]
    fn corrupted_archives_split_alike_in_any_chunks() {
        // The scanner keeps its state across reads (a token, a tag string, a comment cut
        // by the end of the buffer): reading in small pieces of varying size must give
        // the same games as reading at once, whatever the bytes.
        struct Pieces<'a> {
            rest: &'a [u8],
            rng: crate::generate::SplitMix64,
        }
        impl Read for Pieces<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = (1 + self.rng.below(13) as usize)
                    .min(buf.len())
                    .min(self.rest.len());
                buf[..n].copy_from_slice(&self.rest[..n]);
                self.rest = &self.rest[n..];
                Ok(n)
            }
        }
        // Past the first read (64 KiB with the encoding given) the pieces are small. The
        // crafted games have tokens that end like a result: cut after their first byte,
        // the rest must not be taken for one.
        let mut text = Vec::new();
        crate::generate::Generator::new(23)
            .write_games(&mut text, 120)
            .unwrap();
        for _ in 0..40 {
            text.extend_from_slice(b"[Event \"x\"]\n1. x1-0 ab0-1 Z1/2-1/2 q* 2. c3-d4 1-0\n\n");
        }
        assert!(text.len() > crate::pdn::input::CHUNK + 10_000);
        let options = ReaderOptions {
            encoding: Some(encoding_rs::UTF_8),
            ..ReaderOptions::default()
        };
        let mut rng = crate::generate::SplitMix64::new(3);
        let alphabet = b"ac1290-x:.*(){}[]\"%; \n\r\t";
        for round in 0..40 {
            let copy = rng.corrupted(&text, 6, alphabet);
            let whole: Vec<String> = GameSplitter::new(&copy[..], options)
                .unwrap()
                .map(|g| format!("{g:?}"))
                .collect();
            let pieces = Pieces {
                rest: &copy,
                rng: crate::generate::SplitMix64::new(round),
            };
            let pieced: Vec<String> = GameSplitter::new(pieces, options)
                .unwrap()
                .map(|g| format!("{g:?}"))
                .collect();
            assert_eq!(pieced, whole, "round {round}");
        }
    }

    #[test]
    fn chunk_boundaries_do_not_matter() {
        // a reader that returns one byte at a time exercises every lookahead path
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() || buf.is_empty() {
                    return Ok(0);
                }
                buf[0] = self.0[0];
                self.0 = &self.0[1..];
                Ok(1)
            }
        }
        let t =
            "[A \"x\\\"y\"]\r\n1. c3-d4 1/2-1/2\r\n[B \"2\"]\r\n1. a3b4 {c}\r\n[C \"3\"]\n3228 ½-½";
        let a: Vec<RawGame> = GameSplitter::new(Trickle(t.as_bytes()), ReaderOptions::default())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let b: Vec<RawGame> = split(t).into_iter().map(Result::unwrap).collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
    }

    /// `games` generated games of `seed`.
    fn generated(seed: u64, games: u64) -> Vec<u8> {
        let mut text = Vec::new();
        crate::generate::Generator::new(seed)
            .write_games(&mut text, games)
            .unwrap();
        text
    }

    /// The bytes corrupted archives are made of: the splitter's structure, and tokens.
    const CORRUPTING: &[u8] = b"ac1290-x:.*(){}[]\"%; \n\r\t\\";

    /// Splits `bytes` (read in pieces of `piece` bytes) both ways, the fused reader being
    /// the plain game reader: every game read whole must be the splitter's next game, to
    /// the byte, and everything else the same item. Returns (games, games read whole).
    fn fused_split_alike(bytes: &[u8], options: ReaderOptions, piece: usize) -> (usize, usize) {
        struct Pieces<'a>(&'a [u8], usize);
        impl Read for Pieces<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.1.min(buf.len()).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let want: Vec<String> = GameSplitter::new(bytes, options)
            .unwrap()
            .map(|g| format!("{g:?}"))
            .collect();
        let mut splitter = GameSplitter::new(Pieces(bytes, piece), options).unwrap();
        let mut read = |text: &str, at_end: bool| {
            let visitor = &mut MoveCount::default();
            let (_, len) =
                super::super::plain::visit_plain_game(text, visitor, |_| false, at_end).ok()?;
            Some((len, text[..len].to_string()))
        };
        let (mut got, mut fused) = (Vec::new(), 0);
        while let Some(item) = splitter.next_fused(&mut read) {
            got.push(match item {
                Ok(Split::Fused(g)) => {
                    fused += 1;
                    let raw = RawGame {
                        index: g.index,
                        text: g.value,
                        start: g.start,
                        offset: g.offset,
                        stray_prefix: 0,
                        decoding_replaced: false,
                    };
                    assert_eq!(raw.text.len(), g.len);
                    format!("{:?}", Ok::<_, ReadError>(raw))
                }
                Ok(Split::Raw(raw)) => format!("{:?}", Ok::<_, ReadError>(raw)),
                Err(e) => format!("{:?}", Err::<RawGame, _>(e)),
            });
        }
        assert_eq!(got.len(), want.len());
        for (k, (got, want)) in got.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "item {k} (pieces of {piece})");
        }
        (want.len(), fused)
    }

    #[test]
    fn games_read_whole_are_the_games_the_splitter_cuts() {
        let text = generated(29, 400);
        let utf8 = utf8_options();
        // generated games have the plain shape: all but those cut by the end of a read
        fused_alike_on_games(&text);
        // each shape the splitter cuts elsewhere than at the result, or not at all
        fused_alike_on_crafted(&[
            "[A \"1\"]\n1. c3-d4 12.1-0 f6-g5 *\n",
            "[A \"1\"]\n1. c3-d4*\n[B \"2\"]\n1. c3-d4 *",
            "[A \"1\"]\n\n[A \"2\"]\n1. c3-d4 *\n",
            "[A \"1\"]\r\n\r\n[A \"2\"]\r\n1. c3-d4 *\r\n",
            "[A \"1\"]\n1. c3-d4 {x\n[B \"2\"]\n} f6-g5 *\n",
            "[A \"1\"]\n1. c3-d4 {[B \"2\"]} f6-g5 *\n",
            "[A \"1\"]\n1. c3-d4 (1. e3-f4 1-0) f6-g5 *",
            "[A \"1\"]\n1. c3-d4 1-0x 0-1",
            "[A \"1\"]\n1. c3-d4 1-0",
            "[A \"1\"]\n1. c3-d4 1-0\n%c\n[B \"2\"] 1. a1-b2 0-1 ; c\n",
            "  \n\n[A \"1\"]\n1. c3-d4 2-0 \x0b[B \"2\"]\n1. c3-d4 0-2[C \"3\"] 1-1",
            "[A \"1\"] [B \"2\"]\n1. c3-d4 ½-½ [C \"3\"]\n1. c3-d4 0.5-0.5",
        ]);
        // limits: games over them are the splitter's to report
        let small = ReaderOptions {
            max_game_bytes: 800,
            max_game_moves: 400,
            ..utf8
        };
        let (games, fused) = fused_split_alike(&text, small, usize::MAX);
        assert!(games == 400 && fused > 0 && fused < 390, "{games} {fused}");
        // after a byte replaced, nothing is read whole
        let mut bad = b"[A \"\xff\"]\n1. c3-d4 *\n".to_vec();
        bad.extend_from_slice(&text);
        assert_eq!(fused_split_alike(&bad, utf8, usize::MAX).1, 0);
    }

    /// The reader's options with the encoding told, not detected.
    fn utf8_options() -> ReaderOptions {
        ReaderOptions {
            encoding: Some(encoding_rs::UTF_8),
            ..ReaderOptions::default()
        }
    }

    /// [`fused_split_alike`] on 400 games of one shape (all but a few read whole), read
    /// at once and in pieces.
    fn fused_alike_on_games(text: &[u8]) {
        let (games, fused) = fused_split_alike(text, utf8_options(), usize::MAX);
        assert_eq!(games, 400);
        assert!(fused > 390, "{fused}");
        for piece in [1, 7, 4096] {
            fused_split_alike(text, utf8_options(), piece);
        }
    }

    /// [`fused_split_alike`] on crafted texts, in pieces of 1 and 3 bytes and at once,
    /// the encoding told and detected.
    fn fused_alike_on_crafted(crafted: &[&str]) {
        for odd in crafted {
            for piece in [1, 3, usize::MAX] {
                fused_split_alike(odd.as_bytes(), utf8_options(), piece);
                fused_split_alike(odd.as_bytes(), ReaderOptions::default(), piece);
            }
        }
    }

    /// [`fused_split_alike`] on 200 corrupted copies of `text`, read at once or in
    /// pieces; most of their games are read whole.
    fn fused_alike_on_corrupted(text: &[u8], seed: u64) {
        let mut rng = crate::generate::SplitMix64::new(seed);
        let mut fused = 0;
        for round in 0..200 {
            let copy = rng.corrupted(text, 1 + round % 8, CORRUPTING);
            let piece = [usize::MAX, 1 + round % 97][round % 2];
            fused += fused_split_alike(&copy, ReaderOptions::default(), piece).1;
        }
        assert!(fused > 200 * 40, "{fused}");
    }

    #[test]
    fn corrupted_games_read_whole_are_the_games_the_splitter_cuts() {
        fused_alike_on_corrupted(&generated(31, 80), 8);
    }

    #[test]
    fn games_without_results_read_whole_are_the_games_the_splitter_cuts() {
        // each game's result token taken off: a game ends at the next one's first tag
        let text = String::from_utf8(generated(61, 400)).unwrap();
        let text = text.replace(" 1-0\n", "\n").replace(" 0-1\n", "\n");
        let text = text.replace(" 1/2-1/2\n", "\n").replace(" *\n", "\n");
        // (the last game, at the end of the input, is the splitter's)
        fused_alike_on_games(text.as_bytes());
        fused_alike_on_crafted(&[
            "[A \"1\"]\n1. c3-d4\n[B \"2\"]\n1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4 {c}\n\n \t\x0b[B \"2\"]\n1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4 [B \"2\"]\n1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4 (1. e3-f4\n[B \"2\"]\n*",
            "[A \"1\"]\n1. c3-d4 (1. e3-f4)\n[B \"2\"]\n*",
            "[A \"1\"]\r\n1. c3-d4\r\n[B \"2\"]\r\n1. c3-d4 *",
            "[A \"1\"]\r1. c3-d4\r[B \"2\"]\r1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4\n[B 2]\n1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4\n[ B  \"2\"]\n1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4\n[B",
            "[A \"1\"]\n1. c3-d4\n[B \"",
            "[A \"1\"]\n1.\n[B \"2\"]\n*",
            "[A \"1\"]\n{c}\n[B \"2\"]\n*",
            "1. c3-d4\n[B \"2\"]\n1. c3-d4 *",
            "[A \"1\"]\n1. c3-d4 f6-g5 2. ; c\n[B \"2\"]\n*",
        ]);
        let text = String::from_utf8(generated(67, 80)).unwrap();
        fused_alike_on_corrupted(text.replace(" *\n", "\n").as_bytes(), 10);
    }

    #[test]
    fn games_without_tags_read_whole_are_the_games_the_splitter_cuts() {
        fused_alike_on_games(&without_tags(&generated(53, 400)));
        fused_alike_on_crafted(&[
            "1. c3-d4 12.1-0 f6-g5 *\n",
            "1. c3-d4*\n1. c3-d4 *",
            "1. c3-d4\n1. e3-f4 *\n",
            "1.\n\n[A \"1\"]\n1. c3-d4 *\n",
            "1. c3-d4 {x\n[B \"2\"]\n} f6-g5 *\n",
            "1. c3-d4 (1. e3-f4 1-0) f6-g5 *",
            "1. c3-d4 1-0x 0-1",
            "1. c3-d4 1-0",
            "1. c3-d4 1-0 {after}\n1. e3-f4 *",
            "1. c3-d4 1-0\n%c\n1. a1-b2 0-1 ; c\n",
            "3\n1\n1. c3-d4 *\n",
            "1-0 1. c3-d4 *\n1.c3d4 1-0",
        ]);
        fused_alike_on_corrupted(&without_tags(&generated(59, 80)), 9);
    }

    /// Reads `bytes` whole, and in blocks cut at `cuts` (each read apart by
    /// [`GameSplitter::at`]); where every block but the last ended cleanly, the blocks'
    /// items, their game indices moved on by the games before, must be the items of
    /// the whole. Returns whether they did.
    fn blocks_alike(bytes: &[u8], cuts: &[usize]) -> bool {
        let options = ReaderOptions::default();
        // (blocks are read so only from input read as UTF-8)
        let prefix = &bytes[..bytes.len().min(super::super::input::DETECT_PREFIX)];
        let eof = prefix.len() == bytes.len();
        assert!(super::super::input::read_as_utf8(prefix, eof, None));
        let whole: Vec<String> = GameSplitter::new(bytes, options)
            .unwrap()
            .map(|g| format!("{g:?}"))
            .collect();
        let mut bounds = vec![0];
        bounds.extend_from_slice(cuts);
        bounds.push(bytes.len());
        let (mut items, mut games) = (Vec::new(), 0);
        for pair in bounds.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let start = BlockStart::after_utf8(&bytes[..from]);
            let mut splitter = GameSplitter::at(&bytes[from..to], options, start).unwrap();
            for item in splitter.by_ref() {
                let item = item
                    .map(|mut g| {
                        g.index += games;
                        g
                    })
                    .map_err(|e| e.moved_on(games));
                items.push(format!("{item:?}"));
            }
            games += splitter.games_indexed();
            if to < bytes.len() && !splitter.ended_before(&bytes[to..]) {
                return false;
            }
        }
        assert_eq!(items.len(), whole.len(), "cuts {cuts:?}");
        for (k, (got, want)) in items.iter().zip(&whole).enumerate() {
            assert_eq!(got, want, "item {k}, cuts {cuts:?}");
        }
        true
    }

    /// The starts of the lines of `b` that start a tag pair after a result token and
    /// blanks (where blocks are cut when they can be).
    fn tag_lines(b: &[u8]) -> Vec<usize> {
        (1..b.len())
            .filter(|&k| {
                b[k - 1] == b'\n' && b[k] == b'[' && {
                    let (name, quote) = tag_pair_start(b, k);
                    !name.is_empty()
                        && b.get(quote) == Some(&b'"')
                        && super::super::blocks::follows_a_result(&b[..k])
                }
            })
            .collect()
    }

    /// [`blocks_alike`] on `text` cut at every third of its 199 `cuts` alone, then at
    /// every `step`th together: every block ends cleanly.
    fn blocks_alike_at(text: &[u8], cuts: &[usize], step: usize) {
        assert_eq!(cuts.len(), 199);
        for &at in cuts.iter().step_by(3) {
            assert!(blocks_alike(text, &[at]));
        }
        let together: Vec<usize> = cuts.iter().copied().step_by(step).collect();
        assert!(blocks_alike(text, &together));
    }

    /// Each crafted ending, after `text` repeated past the encoding's prefix (unless it
    /// starts with a BOM) and before `next`, ends its block cleanly or says it does not,
    /// as `crafted` says.
    fn crafted_endings_alike(text: &[u8], crafted: &[(&[u8], bool)], next: &[u8]) {
        // (after valid text longer than the prefix the encoding is told from: a malformed
        // byte after it is replaced)
        let mut valid = Vec::new();
        while valid.len() <= super::super::input::DETECT_PREFIX {
            valid.extend_from_slice(text);
        }
        for &(first, clean) in crafted {
            let mut bytes = if first.starts_with(b"\xef") {
                Vec::new()
            } else {
                valid.clone()
            };
            bytes.extend_from_slice(first);
            let cut = bytes.len();
            bytes.extend_from_slice(next);
            let got = blocks_alike(&bytes, &[cut]);
            assert_eq!(got, clean, "{:?}", String::from_utf8_lossy(first));
        }
    }

    /// [`blocks_alike`] on 300 corrupted copies of `text`, each cut at one to four of the
    /// places `places` finds in it: more than half of them end every block cleanly.
    fn corrupted_blocks_alike(text: &[u8], seed: u64, places: fn(&[u8]) -> Vec<usize>) {
        let mut rng = crate::generate::SplitMix64::new(seed);
        let (mut clean, mut tried) = (0, 0);
        for round in 0..300 {
            let copy = rng.corrupted(text, 1 + round % 10, CORRUPTING);
            let lines = places(&copy);
            if lines.is_empty() || !super::super::input::read_as_utf8(&copy, true, None) {
                continue;
            }
            let cuts: Vec<usize> = (0..1 + round % 4)
                .map(|_| *rng.pick(&lines))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            tried += 1;
            clean += usize::from(blocks_alike(&copy, &cuts));
        }
        assert!(clean > tried / 2, "{clean} of {tried}");
    }

    #[test]
    fn blocks_read_apart_give_the_items_of_the_whole() {
        let text = generated(37, 200);
        // at every tag line of generated games (each ends with its result)
        blocks_alike_at(&text, &tag_lines(&text), 50);
        // crafted endings: each block ends cleanly or says it does not
        let crafted: &[(&[u8], bool)] = &[
            (b"[A \"1\"]\n1. c3-d4 1-0\n\n", true),
            (b"[A \"1\"]\n1. c3-d4\n", true),
            (b"[A \"1\"]\n1. c3-d4 {open\n", true),
            (b"[A \"1\"]\n1. c3-d4 (2. e3-f4\n", true),
            (b"[A \"1\"]\n1. c3-d4 1-0 {after}\n", false),
            (b"[A \"1\"]\n[B \"2\"]\n", false),
            (b"[A \"1\"]\n1. c3-d4 1-0\n% note\n", false),
            (b"[A \"1\"]\n1. c3-d4 1-0\n; note\n", false),
            (b"[A \"1\"]\n1. c3-d4 1-0\nstray words\n", false),
            (b"[A \"1\"]\n1. c3-d4 1-0\n12\n", false),
            (b"[A \"1 1-0\n", false),
            (b"[A \"1\"]\n1. c3-d4 1-0\n\xff\n", false),
            (b"\xef\xbb\xbf[A \"1\"]\n1. c3-d4 1-0\r\n", true),
            (b"[A \"1\"]\r1. c3-d4 1-0\r\n", true),
        ];
        let next = b"[B \"2\"]\n1. e3-f4 { \xff } 0-1\n\n[C \"3\"]\n1. a3-b4 *\n";
        crafted_endings_alike(&text, crafted, next);
    }

    /// The starts of the lines of `b` that start with `1.` after a result token and blanks
    /// (where a file of games without tags is cut).
    fn first_move_lines(b: &[u8]) -> Vec<usize> {
        (1..b.len())
            .filter(|&k| {
                b[k - 1] == b'\n'
                    && b[k..].starts_with(b"1.")
                    && super::super::blocks::follows_a_result(&b[..k])
            })
            .collect()
    }

    /// `text` without its tag lines.
    fn without_tags(text: &[u8]) -> Vec<u8> {
        let lines = text.split_inclusive(|&c| c == b'\n');
        lines
            .filter(|l| !l.starts_with(b"["))
            .flatten()
            .copied()
            .collect()
    }

    #[test]
    fn blocks_of_games_without_tags_read_apart_give_the_items_of_the_whole() {
        let text = without_tags(&generated(43, 200));
        blocks_alike_at(&text, &first_move_lines(&text), 40);
        // crafted endings before a block that starts with a game's first move: only one
        // that ends between games (a result, then blanks) lets it be read apart
        let crafted: &[(&[u8], bool)] = &[
            (b"1. c3-d4 1-0\n\n", true),
            (b"[A \"1\"]\n1. c3-d4 1-0\n", true),
            (b"1. c3-d4 1-0\r\n", true),
            (b"1. c3-d4\n", false),
            (b"1. c3-d4 {1-0\n", false),
            (b"1. c3-d4 (1-0\n", false),
            (b"1. c3-d4 1-0 {after}\n", false),
            (b"1. c3-d4 1-0\n% note\n", false),
            (b"1. c3-d4 1-0\n3\n", false),
            (b"[A \"1\"]\n", false),
            (b"1. c3-d4 1-0\n[A \"1\"]\n", false),
        ];
        let next = b"1. e3-f4 { \xff } 0-1\n\n1. a3-b4 *\n";
        crafted_endings_alike(&text, crafted, next);
        // corrupted: where the block before says it ended between games, the items agree
        corrupted_blocks_alike(&without_tags(&generated(47, 60)), 14, first_move_lines);
    }

    #[test]
    fn corrupted_blocks_read_apart_give_the_items_of_the_whole() {
        corrupted_blocks_alike(&generated(41, 60), 12, tag_lines);
    }
}
