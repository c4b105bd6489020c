//! A reader for the plain shape most games of an archive have: tag pairs, then move
//! numbers, moves, `{…}` comments, variations and one result, nothing else.
//!
//! It gives a [`Visitor`] exactly the events the general parser
//! ([`super::parser::visit_game_text`]) gives for the same text, with less work per token:
//! no error recovery, no lookahead for the rarer constructs, and one dispatch on the first
//! byte of each token. At anything outside that shape (a NAG, a strength mark, an escape,
//! a setup command, a syntax error of any kind) it stops and says so, and the caller reads
//! the game again with the general parser. The events already given are then meaningless,
//! so only visitors that start afresh at `begin_game` can be driven by it; the check's
//! quick lane is one. A test compares the two readers event by event on every game of the
//! fixtures, the corpus, generated and corrupted archives.

use memchr::memchr2;

use super::error::Span;
use super::parser::{MAX_VARIATION_DEPTH, missing_terminator};
use super::split::{is_blank_in_line, tag_pair_start, tag_string_run_end};
use super::token::{
    MoveNumber, RawTag, is_delimiter, is_space, is_tag_name_byte, lex_move, lex_move_number,
    lex_plain_move, may_start_result, paren_strength, parse_result, token_end,
};
#[cfg(test)]
use super::visitor::MoveCount;
use super::visitor::{Skip, Visitor};
use crate::rules::Square;
use crate::rules::notation::{
    ALGEBRAIC_SQUARES, NO_SQUARE, NUMERIC_SQUARES, ONE_DIGIT_SQUARES, PlainSquares,
};

/// A [`Visitor`] to which the plain reader can hand a move's squares, read while it
/// recognised the token.
pub(crate) trait PlainVisitor: Visitor {
    /// A move token of two plain squares (`c3-d4`, `22:18`): [`Visitor::mv`] with the
    /// squares that [`crate::rules::notation::plain_squares`] reads from `text`, read as
    /// the token was recognised. By default, `mv`.
    fn plain_move(&mut self, _squares: PlainSquares, text: &str, span: Span) {
        self.mv(text, span);
    }
}

// (the splitter's tests drive the reader with it)
#[cfg(test)]
impl PlainVisitor for MoveCount {}

/// Why [`visit_plain`] did not finish a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The text has something the plain reader does not read: read it with the general
    /// parser (from `begin_game`).
    NotPlain,
}

/// Reads `text` (one game's text, without a stray prefix) if it has the plain shape,
/// giving `visitor` the general parser's events. `done(visitor)` is asked before each
/// token of the movetext: when it says the rest of the game cannot change the visitor's
/// output, the reading ends there with `end_game`. (Where a line starts does not matter:
/// the `%` comment that depends on it is not plain.)
pub(crate) fn visit_plain<V: PlainVisitor>(
    text: &str,
    visitor: &mut V,
    done: impl Fn(&V) -> bool,
) -> Result<V::Output, Stop> {
    read_plain::<V, false>(text, visitor, done, true).map(|(output, _)| output)
}

/// [`visit_plain`] over text that goes on past the game: `text` starts with the game's
/// first tag pair (or, for a game without tags, its first move number), and the game ends
/// at its result token, or where it has none at the next line that starts a tag pair
/// after its moves (the game's tags read; then the general parser's error for the missing
/// result ends the events), as [`super::GameSplitter`] ends it. Returns the visitor's
/// output and where the game ends: the byte after its result, or the start of that tag
/// line; the text after that is not read. `at_end` says that `text` ends where the input
/// does (else a result token at its very end might go on past it).
///
/// A game is read so only where the splitter would cut exactly there and nowhere
/// before, so that a caller can take it for the splitter's next game (what
/// [`super::GameSplitter::next_fused`] does). To that end, on top of the plain shape,
/// it stops ([`Stop::NotPlain`]) at:
/// - a tag pair after an empty line (the splitter may end a game of tags alone there);
/// - a comment that holds a `[` (the splitter ends a game at a tag line, in a comment
///   too);
/// - a result token glued to the token before it (the splitter reads the two as one);
/// - a tag line after moves in a game without tags, or inside a variation;
/// - `done(visitor)` before the result: where the game ends is then not known.
pub(crate) fn visit_plain_game<V: PlainVisitor>(
    text: &str,
    visitor: &mut V,
    done: impl Fn(&V) -> bool,
    at_end: bool,
) -> Result<(V::Output, usize), Stop> {
    read_plain::<V, true>(text, visitor, done, at_end)
}

/// [`visit_plain`] and, when `GAME`, [`visit_plain_game`]: returns the output and where
/// the reading ended.
#[inline(always)]
fn read_plain<V: PlainVisitor, const GAME: bool>(
    text: &str,
    visitor: &mut V,
    done: impl Fn(&V) -> bool,
    at_end: bool,
) -> Result<(V::Output, usize), Stop> {
    let b = text.as_bytes();
    let mut i = 0;
    let skip_blanks = |mut i: usize| {
        // most tokens end at one space before the next (every blank is at most b' ')
        if b.get(i) == Some(&b' ') && b.get(i + 1).is_some_and(|&c| c > b' ') {
            return i + 1;
        }
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        i
    };
    visitor.begin_game();
    let mut tags_read = false;
    // the tag pairs: `[Name "value"]`, the value without escapes or line breaks
    loop {
        let blanks = i;
        i = skip_blanks(i);
        if b.get(i) != Some(&b'[') {
            break;
        }
        if GAME && blanks > 0 && line_breaks(&b[blanks..i]) >= 2 {
            return Err(Stop::NotPlain);
        }
        let start = i;
        let name_start = i + 1;
        let mut j = name_start;
        while j < b.len() && is_tag_name_byte(b[j]) {
            j += 1;
        }
        let name_end = j;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if name_end == name_start || j == name_end || b.get(j) != Some(&b'"') {
            return Err(Stop::NotPlain);
        }
        let value_start = j + 1;
        // no escape and no line break before the closing quote (values are short: a byte
        // loop, as the splitter reads them, cost less than two searches)
        let value_end = tag_string_run_end(b, value_start);
        if b.get(value_end) != Some(&b'"') {
            return Err(Stop::NotPlain);
        }
        j = value_end + 1;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if b.get(j) != Some(&b']') {
            return Err(Stop::NotPlain);
        }
        i = j + 1;
        tags_read = true;
        visitor.tag(RawTag {
            name: &text[name_start..name_end],
            raw_value: &text[value_start..value_end],
            span: Span::new(start, i),
        });
    }
    // the movetext
    let mut in_movetext = false;
    let mut depth = 0;
    let mut result_seen = false;
    macro_rules! movetext {
        () => {
            if !in_movetext {
                in_movetext = true;
                visitor.begin_movetext();
            }
        };
    }
    loop {
        if done(visitor) {
            if GAME {
                return Err(Stop::NotPlain);
            }
            return Ok((visitor.end_game(), i));
        }
        i = skip_blanks(i);
        // the two tokens nearly every ply has, read from a window of eight bytes
        if !result_seen {
            if let Some(window) = b.get(i..i + 8).and_then(|w| <&[u8; 8]>::try_from(w).ok()) {
                match common_token(window) {
                    Common::Move(len) => {
                        movetext!();
                        visitor.mv(ascii_token(text, i, i + len), Span::new(i, i + len));
                        i += len;
                        continue;
                    }
                    Common::Squares(len, squares) => {
                        movetext!();
                        let (token, span) = (ascii_token(text, i, i + len), Span::new(i, i + len));
                        visitor.plain_move(squares, token, span);
                        i += len;
                        continue;
                    }
                    Common::Number(len, number) => {
                        movetext!();
                        let n = MoveNumber {
                            number,
                            black: false,
                        };
                        visitor.move_number(n, Span::new(i, i + len));
                        i += len;
                        continue;
                    }
                    Common::Other => {}
                }
            }
        }
        let Some(&c) = b.get(i) else { break };
        let start = i;
        match c {
            // (moves and move numbers first: most tokens are)
            b'a'..=b'z' | b'A'..=b'Z' if !result_seen => {
                movetext!();
                i = plain_move(text, start, visitor)?;
            }
            b'0'..=b'9' | b'*' | 0xc2 if !result_seen => {
                movetext!();
                // A move number `7.` or `12.` (a dot after one or two digits, the first not
                // `0`): no result starts so and no move is lexed so, so neither is tried.
                if c != b'0' && (b.get(start + 1) == Some(&b'.') || b.get(start + 2) == Some(&b'.'))
                {
                    if let Some((end, n)) = lex_move_number(b, start) {
                        visitor.move_number(n, Span::new(start, end));
                        i = end;
                        continue;
                    }
                }
                if may_start_result(b, start) {
                    let end = token_end(b, start);
                    if let Some(r) = parse_result(&text[start..end]) {
                        if depth > 0 {
                            return Err(Stop::NotPlain);
                        }
                        if GAME {
                            // (a game starts with a tag pair: `start` is not 0)
                            let glued = !b
                                .get(start.wrapping_sub(1))
                                .is_some_and(|&c| is_delimiter(c));
                            if glued || (end == b.len() && !at_end) {
                                return Err(Stop::NotPlain);
                            }
                            visitor.result(r, Span::new(start, end));
                            return Ok((visitor.end_game(), end));
                        }
                        result_seen = true;
                        visitor.result(r, Span::new(start, end));
                        i = end;
                        continue;
                    }
                }
                if let Some(end) = lex_plain_move(b, start) {
                    visitor.mv(ascii_token(text, start, end), Span::new(start, end));
                    i = end;
                } else if let Some((end, n)) = lex_move_number(b, start) {
                    visitor.move_number(n, Span::new(start, end));
                    i = end;
                } else {
                    i = plain_move(text, start, visitor)?;
                }
            }
            b'{' => {
                // a comment does not start the movetext (as in the general parser)
                let end = match memchr2(b'{', b'}', &b[start + 1..]) {
                    Some(o) if b[start + 1 + o] == b'}' => start + 1 + o,
                    _ => return Err(Stop::NotPlain),
                };
                if GAME && memchr::memchr(b'[', &b[start + 1..end]).is_some() {
                    return Err(Stop::NotPlain);
                }
                visitor.comment(&text[start + 1..end], Span::new(start, end + 1));
                i = end + 1;
            }
            b'[' if GAME && in_movetext && depth == 0 && tags_read => {
                // A game without a result ends at a line that starts a tag pair, where the
                // splitter cuts it (the line's start; blanks before the `[` in the line)
                let line = start
                    - b[..start]
                        .iter()
                        .rev()
                        .take_while(|&&c| is_blank_in_line(c))
                        .count();
                let (name, quote) = tag_pair_start(b, start);
                let at_line_start = line > 0 && matches!(b[line - 1], b'\n' | b'\r');
                if !at_line_start || name.is_empty() || b.get(quote) != Some(&b'"') {
                    return Err(Stop::NotPlain);
                }
                visitor.syntax_error(missing_terminator(&text[..line]));
                return Ok((visitor.end_game(), line));
            }
            _ if result_seen => return Err(Stop::NotPlain),
            // strength marks written apart (`c3-d4 !?`) and NAGs (`$2`), common in
            // annotated games
            b'!' | b'?' => {
                movetext!();
                let end = start
                    + b[start..]
                        .iter()
                        .take_while(|&&c| c == b'!' || c == b'?')
                        .count();
                visitor.strength(ascii_token(text, start, end), Span::new(start, end));
                i = end;
            }
            b'$' => {
                let digits = b[start + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                let end = start + 1 + digits;
                // (no number, or one past 65535: a syntax error)
                let Ok(nag) = ascii_token(text, start + 1, end).parse::<u16>() else {
                    return Err(Stop::NotPlain);
                };
                movetext!();
                visitor.nag(nag, Span::new(start, end));
                i = end;
            }
            b'(' => {
                if paren_strength(b, start).is_some() || depth >= MAX_VARIATION_DEPTH {
                    return Err(Stop::NotPlain);
                }
                movetext!();
                i += 1;
                match visitor.begin_variation(Span::new(start, start + 1)) {
                    Skip(false) => depth += 1,
                    // the general parser would skip it; the visitor has said what it needs
                    Skip(true) if done(visitor) && !GAME => return Ok((visitor.end_game(), i)),
                    Skip(true) => return Err(Stop::NotPlain),
                }
            }
            b')' => {
                if depth == 0 {
                    return Err(Stop::NotPlain);
                }
                movetext!();
                i += 1;
                depth -= 1;
                visitor.end_variation(Span::new(start, start + 1));
            }
            _ => return Err(Stop::NotPlain),
        }
    }
    if GAME || depth > 0 {
        return Err(Stop::NotPlain);
    }
    if !result_seen {
        // (as the general parser ends such a game; a game read whole ends at its result)
        if !in_movetext {
            visitor.begin_movetext();
        }
        visitor.syntax_error(missing_terminator(text));
    }
    Ok((visitor.end_game(), i))
}

/// The line breaks in `blanks` (CR LF counted once), as the splitter counts them.
fn line_breaks(blanks: &[u8]) -> usize {
    let mut breaks = 0;
    for (k, &c) in blanks.iter().enumerate() {
        match c {
            b'\n' => breaks += 1,
            b'\r' if blanks.get(k + 1) != Some(&b'\n') => breaks += 1,
            _ => {}
        }
    }
    breaks
}

/// What [`common_token`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Common {
    /// A move of two plain squares, `c3-d4`, `c3:e5`, `22-18` or `22-9`, this long.
    Move(usize),
    /// Such a move, with the squares [`crate::rules::notation::plain_squares`] reads of
    /// it (when it reads any).
    Squares(usize, PlainSquares),
    /// A move number with one dot, `7.` or `12.`, this long, and its number.
    Number(usize, u32),
    /// Anything else: the general dispatch reads it.
    Other,
}

/// The token at the start of `w` (the next eight bytes of the movetext) when it is one
/// of the shapes most tokens have, read as the general dispatch of [`visit_plain`] reads
/// it, with no bounds to check: the squares of a move as [`lex_plain_move`] reads them
/// (but for the results shaped as such, `1-0`, `2-0` and `1-1`), and a move number as
/// [`lex_move_number`] reads it when no ellipsis can follow. A move's squares are read
/// too, by table, as [`crate::rules::notation::plain_squares`] reads them. A test compares
/// the readings on random windows made of pieces of these shapes.
#[inline(always)]
fn common_token(w: &[u8; 8]) -> Common {
    let file = |c: u8| c.wrapping_sub(b'a') < 8;
    let rank = |c: u8| c.wrapping_sub(b'1') < 8;
    let digit = |c: u8| c.wrapping_sub(b'0') < 10;
    let separator = |c: u8| matches!(c, b'-' | b'x' | b'X' | b':');
    // (a move ends at a delimiter, but not at the `(` of a glued strength mark)
    let ends = |c: u8| is_delimiter(c) && c != b'(';
    let [a, b, c, d, e, f, ..] = *w;
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

/// `text[start..end]` for a token the lexer read as ASCII: its first and last bytes are
/// ASCII, so both ends are character boundaries. Without the boundary checks of string
/// slicing, which were an outlined call per move (1% of `lint`).
#[inline(always)]
fn ascii_token(text: &str, start: usize, end: usize) -> &str {
    let b = &text.as_bytes()[start..end];
    if !(b.first().is_some_and(u8::is_ascii) && b.last().is_some_and(u8::is_ascii)) {
        // (never for a token the lexer read; the checked slicing keeps it sound anyway)
        return text.get(start..end).unwrap_or_default();
    }
    // SAFETY: `text` is UTF-8, and `b` starts and ends with an ASCII byte (tested just
    // above): an ASCII byte is a whole character, so `b` starts and ends at character
    // boundaries, and a slice of UTF-8 between boundaries is UTF-8.
    unsafe { std::str::from_utf8_unchecked(b) }
}

/// A move at `start`, and the strength marks glued to it (`c3-d4!?`) as the general parser
/// gives them; returns its end.
#[inline(always)]
fn plain_move<V: Visitor>(text: &str, start: usize, visitor: &mut V) -> Result<usize, Stop> {
    let (end, marks_end) = lex_move(text.as_bytes(), start).ok_or(Stop::NotPlain)?;
    visitor.mv(ascii_token(text, start, end), Span::new(start, end));
    if marks_end > end {
        let marks = ascii_token(text, end, marks_end);
        visitor.strength(marks, Span::new(end, marks_end));
    }
    Ok(marks_end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Generator, SplitMix64};
    use crate::pdn::game::GameBuilder;
    use crate::pdn::parser::visit_text;
    use crate::pdn::token::{MoveNumber, ResultToken};
    use crate::pdn::{CommentKind, GameSplitter, SyntaxError};
    use crate::rules::notation::plain_squares;

    /// Every event with its span, as text.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Visitor for Log {
        type Output = Vec<String>;
        fn begin_game(&mut self) {
            self.0.clear();
            self.0.push("begin".into());
        }
        fn tag(&mut self, t: RawTag<'_>) {
            self.0.push(format!("tag {t:?}"));
        }
        fn begin_movetext(&mut self) {
            self.0.push("movetext".into());
        }
        fn move_number(&mut self, n: MoveNumber, s: Span) {
            self.0.push(format!("number {n:?} {s:?}"));
        }
        fn mv(&mut self, t: &str, s: Span) {
            self.0.push(format!("mv {t} {s:?}"));
        }
        fn strength(&mut self, t: &str, s: Span) {
            self.0.push(format!("mark {t} {s:?}"));
        }
        fn nag(&mut self, n: u16, s: Span) {
            self.0.push(format!("nag {n} {s:?}"));
        }
        fn comment(&mut self, t: &str, s: Span) {
            self.0.push(format!("comment {t:?} {s:?}"));
        }
        fn line_comment(&mut self, k: CommentKind, t: &str, s: Span) {
            self.0.push(format!("line comment {k:?} {t:?} {s:?}"));
        }
        fn begin_variation(&mut self, s: Span) -> Skip {
            self.0.push(format!("( {s:?}"));
            Skip(false)
        }
        fn end_variation(&mut self, s: Span) {
            self.0.push(format!(") {s:?}"));
        }
        fn setup(&mut self, f: &str, s: Span) {
            self.0.push(format!("setup {f} {s:?}"));
        }
        fn result(&mut self, r: ResultToken<'_>, s: Span) {
            self.0.push(format!("result {r:?} {s:?}"));
        }
        fn syntax_error(&mut self, e: SyntaxError) {
            self.0.push(format!("error {e:?}"));
        }
        fn end_game(&mut self) -> Vec<String> {
            self.0.push("end".into());
            std::mem::take(&mut self.0)
        }
    }

    impl PlainVisitor for Log {
        fn plain_move(&mut self, squares: PlainSquares, t: &str, s: Span) {
            // the squares are those the resolver would read, and the event is `mv`'s
            assert_eq!(Some(squares), plain_squares(t), "{t}");
            self.mv(t, s);
        }
    }

    /// Reads every game of `bytes` both ways; returns (games, games read plainly). A
    /// game's tree (`RawGame::to_game`, which takes the plain reader where it can) is the
    /// general parser's too.
    fn compare(bytes: &[u8]) -> (usize, usize) {
        let (mut games, mut plain) = (0, 0);
        for raw in GameSplitter::new(bytes, Default::default())
            .unwrap()
            .filter_map(Result::ok)
        {
            let tree = raw.visit(&mut GameBuilder::for_text(raw.text.len()));
            assert_eq!(raw.to_game(), tree, "game {} at {:?}", raw.index, raw.start);
            if raw.stray_prefix > 0 || raw.decoding_replaced {
                continue;
            }
            games += 1;
            let general = visit_text(&raw.text, &mut Log::default());
            if let Ok(events) = visit_plain(&raw.text, &mut Log::default(), |_| false) {
                plain += 1;
                assert_eq!(events, general, "game {} at {:?}", raw.index, raw.start);
            }
        }
        (games, plain)
    }

    #[test]
    fn tokens_are_cut_as_str_slicing_cuts_them() {
        let text = "1. c3-d4 ж5-b6 *";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let want = text.get(start..end).unwrap_or_default();
                assert_eq!(ascii_token(text, start, end), want, "{start}..{end}");
            }
        }
    }

    /// What the general dispatch of [`visit_plain`] reads at the start of `b`, in the
    /// terms of [`common_token`] (`Other` for everything but a move or a move number).
    fn dispatched(b: &[u8]) -> Common {
        let c = b[0];
        if c.is_ascii_alphabetic() {
            return match lex_move(b, 0) {
                Some((end, marks)) if end == marks => Common::Move(end),
                _ => Common::Other,
            };
        }
        if !c.is_ascii_digit() {
            return Common::Other;
        }
        let number = |(end, n): (usize, MoveNumber)| match n.black {
            false => Common::Number(end, n.number),
            true => Common::Other,
        };
        if c != b'0' && (b[1] == b'.' || b[2] == b'.') {
            if let Some(found) = lex_move_number(b, 0) {
                return number(found);
            }
        }
        if may_start_result(b, 0)
            && parse_result(std::str::from_utf8(&b[..token_end(b, 0)]).unwrap_or("")).is_some()
        {
            return Common::Other;
        }
        if let Some(end) = lex_plain_move(b, 0) {
            return Common::Move(end);
        }
        lex_move_number(b, 0).map_or(Common::Other, number)
    }

    /// `common` in the terms of [`dispatched`], which knows no squares.
    fn as_dispatched(common: Common) -> Common {
        match common {
            Common::Squares(len, _) => Common::Move(len),
            other => other,
        }
    }

    /// A move's squares, when [`common_token`] gives them, are those the resolver reads
    /// of the token; when it gives none, the resolver reads none either.
    fn squares_read_alike(common: Common, b: &[u8]) {
        let (len, squares) = match common {
            Common::Squares(len, squares) => (len, Some(squares)),
            Common::Move(len) => (len, None),
            _ => return,
        };
        let token = std::str::from_utf8(&b[..len]).unwrap();
        assert_eq!(squares, plain_squares(token), "{token}");
    }

    #[test]
    fn common_tokens_are_read_as_the_general_dispatch_reads_them() {
        // windows of fragments of the shapes, at random
        let fragments: &[&[u8]] = &[
            b"c3", b"h8", b"a1", b"b9", b"i2", b"C3", b"d4", b"e5", b"22", b"09", b"13", b"32",
            b"33", b"9", b"5", b"0", b"1", b"2", b"-", b":", b"x", b"X", b".", b"...", b" ", b"\t",
            b"\n", b"(", b"{", b"*", b"/", b"1-0", b"0-1", b"2-0", b"!",
        ];
        let mut rng = SplitMix64::new(5);
        let (mut moves, mut numbers, mut with_squares) = (0, 0, 0);
        for _ in 0..400_000 {
            let mut b = Vec::new();
            while b.len() < 12 {
                let fragment: &&[u8] = rng.pick(fragments);
                b.extend_from_slice(fragment);
            }
            let window: &[u8; 8] = b[..8].try_into().unwrap();
            let common = common_token(window);
            match common {
                Common::Move(_) | Common::Squares(..) => moves += 1,
                Common::Number(..) => numbers += 1,
                Common::Other => continue,
            }
            let text = String::from_utf8_lossy(&b);
            assert_eq!(as_dispatched(common), dispatched(&b), "{text:?}");
            squares_read_alike(common, &b);
            if matches!(common, Common::Squares(..)) {
                with_squares += 1;
            }
        }
        for text in [
            "c3-d4 ", "22-18\n", "29-3 x", "12. c3", "7.c3-d4", "1. 22-9 ", "9-13 ", "5-9)",
            "1x10\n", "3:7 ",
        ] {
            let mut b = [b' '; 12];
            b[..text.len()].copy_from_slice(text.as_bytes());
            let common = common_token(b[..8].try_into().unwrap());
            assert!(
                matches!(common, Common::Squares(..) | Common::Number(..)),
                "{text}"
            );
            assert_eq!(as_dispatched(common), dispatched(&b), "{text}");
            squares_read_alike(common, &b);
        }
        // tokens shaped like moves, of squares good and bad (light, off the board, `0`)
        let squares: &[&[u8]] = &[
            b"c3", b"d4", b"b8", b"g1", b"c4", b"a2", b"i3", b"22", b"32", b"10", b"33", b"09",
            b"40", b"9", b"1", b"2", b"0", b"5",
        ];
        let separators: &[&[u8]] = &[b"-", b"x", b":", b"X", b"/", b"."];
        let tails: &[&[u8]] = &[b" ", b"\n", b"(", b")", b"{", b"x", b"!", b"0", b"5", b"."];
        for _ in 0..100_000 {
            let mut b = Vec::new();
            for part in [squares, separators, squares, tails, tails] {
                let piece: &&[u8] = rng.pick(part);
                b.extend_from_slice(piece);
            }
            b.resize(12, b' ');
            let common = common_token(b[..8].try_into().unwrap());
            let text = String::from_utf8_lossy(&b);
            if common != Common::Other {
                assert_eq!(as_dispatched(common), dispatched(&b), "{text:?}");
                squares_read_alike(common, &b);
                if matches!(common, Common::Squares(..)) {
                    with_squares += 1;
                }
            }
        }
        // results that look like one-digit squares are left to the general dispatch
        for text in ["1-0 ", "2-0\n", "1-1 ", "0-1 ", "0-2 ", "0-0 "] {
            let b = format!("{text}       ");
            assert_eq!(
                common_token(b.as_bytes()[..8].try_into().unwrap()),
                Common::Other
            );
        }
        // the window does not hold every such token, but most
        assert!(
            moves > 1_000 && numbers > 1_000 && with_squares > 1_000,
            "{moves} moves ({with_squares} with squares), {numbers} numbers"
        );
    }

    #[test]
    fn reads_plain_games_as_the_general_parser_does() {
        let text = "[Event \"x\"]\n[Site \"a b\"]\n\n1. c3-d4 {c} f6-g5 (1... b6-a5 2. d4-c5) \
                    2. g3-f4 22-18 3. d4:f6:h8 1/2-1/2";
        assert_eq!(compare(text.as_bytes()), (1, 1));
        // a game without a result ends with the general parser's error for it
        for no_result in [
            "[Event \"x\"]\n1. c3-d4 f6-g5",
            "[Event \"x\"]\n1. c3-d4 f6-g5 {c}\n\n\n",
            "[Event \"x\"]\n",
            "[Event \"x\"]\n{c}",
            "1. c3-d4",
        ] {
            assert_eq!(compare(no_result.as_bytes()), (1, 1), "{no_result}");
            let events = visit_plain(no_result, &mut Log::default(), |_| false).unwrap();
            assert!(
                events[events.len() - 2].contains("MissingTerminator"),
                "{events:?}"
            );
        }
        // strength marks and NAGs, glued to a move or apart
        for marked in [
            "[Event \"x\"]\n1. c3-d4! f6-g5?! 2. g3-h4 !? 22-18?? $4 *",
            "[Event \"x\"]\n1. c3-d4 $1 f6-g5$2 $65535 (1... b6-a5 $3 !) *",
            "[Event \"x\"]\n! 1. c3-d4 $0 *",
            "[Event \"x\"]\n1. c3-d4!* 1-0",
        ] {
            assert_eq!(compare(marked.as_bytes()), (1, 1), "{marked}");
        }
        for odd in [
            "[Event \"x\"]\n1. c3-d4 $65536 *",
            "[Event \"x\"]\n1. c3-d4 $ *",
            "[Event \"x\"]\n1. c3-d4 (?) *",
            "[Event \"x\"]\n1. c3-d4 *!",
            "[Event \"x\\\"\"]\n1. c3-d4 *",
            "[Event \"x\"]\n1. c3-d4 (1. e3-f4 *",
            "[Event \"x\"]\n1. c3-d4 ; note\n*",
            "[Event \"x\"]\n1. c3-d4 { a { b } *",
            "1. c3-d4 *",
        ] {
            let raw = GameSplitter::new(odd.as_bytes(), Default::default())
                .unwrap()
                .next()
                .unwrap()
                .unwrap();
            let plain = visit_plain(&raw.text, &mut Log::default(), |_| false);
            // the tagless game is plain; everything else stops
            assert_eq!(plain.is_ok(), odd.starts_with('1'), "{odd}");
        }
    }

    #[test]
    fn a_tree_keeps_what_the_plain_reader_does_not_see() {
        // bytes replaced in decoding (in a comment, which the plain reader reads) and
        // words before the first tag are in the text, and the tree notes them as the
        // general parser does
        let mut bytes = b"[Event \"x\"]\n1. c3-d4 {\xff} f6-g5 *\n\n".to_vec();
        bytes.extend_from_slice(b"stray words\n[Event \"y\"]\n1. c3-d4 *\n");
        let options = crate::pdn::ReaderOptions {
            encoding: Some(encoding_rs::UTF_8),
            ..Default::default()
        };
        let raws: Vec<_> = GameSplitter::new(&bytes[..], options)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(raws[0].decoding_replaced && raws[1].stray_prefix > 0);
        for raw in &raws {
            let tree = raw.visit(&mut GameBuilder::for_text(raw.text.len()));
            assert!(!tree.errors.is_empty(), "{:?}", raw.text);
            assert_eq!(raw.to_game(), tree, "{:?}", raw.text);
        }
    }

    #[test]
    fn generated_and_corrupted_archives_read_alike() {
        let mut text = Vec::new();
        Generator::new(17).write_games(&mut text, 300).unwrap();
        let (games, plain) = compare(&text);
        // generated games have nothing but the plain shape
        assert_eq!((games, plain), (300, 300));
        let mut rng = SplitMix64::new(9);
        let alphabet = b"abcdefgh12345678-:x.(){}*?!/ 0\n\"[]\\$%;\r\t";
        let mut read_plainly = 0;
        for _ in 0..300 {
            let copy = rng.corrupted(&text[..20_000], 4, alphabet);
            read_plainly += compare(&copy).1;
        }
        assert!(read_plainly > 300 * 10, "{read_plainly}");
    }

    #[test]
    fn fixtures_and_corpus_read_alike() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("fixtures")];
        let corpus = root.join("../shared/corpus");
        if corpus.is_dir() {
            dirs.push(corpus);
        } else {
            eprintln!("note: ../shared/corpus not found; only the fixtures are compared");
        }
        let (mut games, mut plain) = (0, 0);
        for dir in dirs {
            for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
                let entry = entry.unwrap();
                if entry.file_type().is_file() {
                    let (g, p) = compare(&std::fs::read(entry.path()).unwrap());
                    games += g;
                    plain += p;
                }
            }
        }
        assert!(games > 0 && plain > 0, "{games} games, {plain} plain");
    }
}
