//! Where text is in its file: lines and columns, and a game's text with its place.

use memchr::{memchr, memrchr, memrchr2};

use super::char_count;
use super::error::Span;

/// A place in the file: 1-based line, and 1-based column counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line (CRLF, LF and a lone CR each end a line).
    pub line: u64,
    /// 1-based column, in characters (rustc style).
    pub column: u64,
}

impl Position {
    /// Line 1, column 1.
    pub const START: Position = Position { line: 1, column: 1 };
}

/// Counts lines and columns over text that arrives in pieces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineCounter {
    pub(crate) at: Position,
    /// The last piece ended with `\r`: a `\n` first in the next piece is the same break.
    prev_cr: bool,
    /// A piece had a `\r`: the text is taken to have more (a file's line ends are alike).
    cr_seen: bool,
}

impl LineCounter {
    /// A counter at `at`.
    pub(crate) fn new(at: Position) -> LineCounter {
        LineCounter {
            at,
            prev_cr: false,
            cr_seen: false,
        }
    }

    /// Moves past `s`.
    pub(crate) fn advance(&mut self, s: &str) {
        let b = s.as_bytes();
        let Some(&last_byte) = b.last() else {
            return;
        };
        self.cr_seen = self.cr_seen || memchr(b'\r', b).is_some();
        let newlines = bytecount::count(b, b'\n') as u64;
        let (breaks, last_break) = if self.cr_seen {
            let crs = bytecount::count(b, b'\r') as u64;
            (crs + newlines - crlf_pairs(b), memrchr2(b'\n', b'\r', b))
        } else {
            (newlines, memrchr(b'\n', b))
        };
        // (a `\n` first after a `\r` that ended the last piece is the same break)
        let continued = self.prev_cr && b[0] == b'\n';
        self.at.line += breaks - u64::from(continued);
        match last_break {
            Some(k) => self.at.column = 1 + char_count(&s[k + 1..]) as u64,
            None => self.at.column += char_count(s) as u64,
        }
        self.prev_cr = last_byte == b'\r';
    }
}

/// The CR LF pairs in `b` (found from each CR: about one a line).
fn crlf_pairs(b: &[u8]) -> u64 {
    memchr::memchr_iter(b'\r', b)
        .filter(|&k| b.get(k + 1) == Some(&b'\n'))
        .count() as u64
}

/// The line breaks in `b` (CR LF counted once), for the block cutter.
pub fn line_breaks(b: &[u8]) -> u64 {
    let newlines = bytecount::count(b, b'\n') as u64;
    if memchr(b'\r', b).is_none() {
        return newlines;
    }
    bytecount::count(b, b'\r') as u64 + newlines - crlf_pairs(b)
}

/// One game's text and where it is in its file, as the reader gives it.
#[derive(Clone, Copy, Debug)]
pub struct GameSource<'a> {
    /// 1-based index of the game in its file.
    pub index: u64,
    /// The game's text (decoded to UTF-8): from its first character to where it ends.
    pub text: &'a str,
    /// Where the text starts in the file.
    pub start: Position,
    /// The byte offset of the text's first character in the input (as read, before
    /// decoding; a byte order mark counts). Exact for UTF-8, UTF-16 and the single-byte
    /// encodings; after bytes of a UTF-8 input that were not valid (and were replaced by
    /// U+FFFD) it counts the replaced text, not the bytes it stands for.
    pub offset: u64,
    /// Bytes at the start of `text` that are stray lines before the tags (reported as
    /// `stray-text`).
    pub stray_prefix: usize,
}

impl<'a> GameSource<'a> {
    /// The file position of byte `at` of the text (clamped to the text).
    pub fn position(&self, at: usize) -> Position {
        self.positions().position(at)
    }

    /// Positions of both ends of a span.
    pub fn span_positions(&self, span: Span) -> (Position, Position) {
        let mut p = self.positions();
        (p.position(span.start), p.position(span.end))
    }

    /// A reader of the positions of many bytes of the text, each found from the last one
    /// asked when asked in text order.
    pub fn positions(&self) -> Positions<'a> {
        Positions {
            text: self.text,
            start: self.start,
            at: 0,
            counter: LineCounter::new(self.start),
        }
    }
}

/// The positions of bytes of a game's text, from [`GameSource::positions`].
pub struct Positions<'a> {
    text: &'a str,
    start: Position,
    /// The byte the counter is at.
    at: usize,
    counter: LineCounter,
}

impl Positions<'_> {
    /// The file position of byte `at` of the text (clamped to the text): found from the
    /// byte asked before if `at` is not before it, so that the positions of a game's
    /// diagnostics cost one pass over it.
    pub fn position(&mut self, at: usize) -> Position {
        let text = self.text;
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        if at < self.at {
            self.at = 0;
            self.counter = LineCounter::new(self.start);
        }
        self.counter.advance(&text[self.at..at]);
        self.at = at;
        self.counter.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines and columns one break at a time.
    fn by_lines(s: &str) -> Position {
        let mut at = Position::START;
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' if chars.peek() == Some(&'\n') => {}
                '\r' | '\n' => {
                    at.line += 1;
                    at.column = 1;
                }
                _ => at.column += 1,
            }
        }
        at
    }

    #[test]
    fn lines_are_counted_alike_in_any_pieces() {
        let mut rng = pdnkit_gen::SplitMix64::new(3);
        for _ in 0..3_000 {
            let len = rng.below(60) as usize;
            let text: String = (0..len)
                .map(|_| *rng.pick(&['a', '\n', '\r', 'ж', ' ']))
                .collect();
            let mut counter = LineCounter::new(Position::START);
            let mut k = 0;
            while k < text.len() {
                let mut end = (k + rng.below(7) as usize + 1).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                counter.advance(&text[k..end]);
                k = end;
            }
            assert_eq!(counter.at, by_lines(&text), "{text:?}");
            let breaks = by_lines(&text).line - 1;
            assert_eq!(line_breaks(text.as_bytes()), breaks, "{text:?}");
        }
    }
}
