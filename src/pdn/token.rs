//! Tokens of PDN movetext and tag pairs, and the byte-level recognisers shared by the
//! reader and the block cutter (they must agree on what a result token is, or blocks would
//! be cut where the reader does not end games).

use std::borrow::Cow;

use super::error::Span;

/// A move number as written: `12.` (White's move follows) or `12...` / `12. ...` (Black's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The number (saturating at `u32::MAX`; leading zeros as in `01.` are accepted).
    pub number: u32,
    /// Whether it was written with an ellipsis, i.e. the second player's move follows.
    pub black: bool,
}

pub use crate::outcome::Outcome;

/// The scoring scale a result was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResultScale {
    /// One point per game: `1-0`, `0-1`, `1/2-1/2` (the PDN "Default" result type).
    OnePoint,
    /// Two points per game: `2-0`, `0-2`, `1-1` (the PDN "International" result type).
    TwoPoint,
    /// `0-0` and `*` are the same on both scales.
    Either,
}

/// A result token as found in the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResultToken<'a> {
    /// Who won.
    pub outcome: Outcome,
    /// The scale it was written in.
    pub scale: ResultScale,
    /// The token as written.
    pub raw: &'a str,
}

/// Parses a whole token as a result: `1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 * ½-½ 0.5-0.5`.
///
/// The token must be complete (cut at a delimiter, see [`is_delimiter`]): that is what tells
/// the result `1-1` from the move `1-18`.
pub fn parse_result(token: &str) -> Option<ResultToken<'_>> {
    use Outcome::*;
    use ResultScale::*;
    let (outcome, scale) = match token {
        "1-0" => (WhiteWins, OnePoint),
        "0-1" => (BlackWins, OnePoint),
        "1/2-1/2" | "½-½" | "0.5-0.5" => (Draw, OnePoint),
        "2-0" => (WhiteWins, TwoPoint),
        "0-2" => (BlackWins, TwoPoint),
        "1-1" => (Draw, TwoPoint),
        "0-0" => (BothLose, Either),
        "*" => (Unknown, Either),
        _ => return None,
    };
    Some(ResultToken {
        outcome,
        scale,
        raw: token,
    })
}

/// Whether a result token may start at `b[i]`, judged from its first two bytes (a byte
/// past the end counts as a delimiter): when this says no, [`parse_result`] fails on the
/// whole token, so callers skip looking for its end. Move numbers (`12.`), which start
/// like results, are turned away here.
#[inline]
pub fn may_start_result(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(b'*' | 0xc2) => true,
        Some(&c @ b'0'..=b'2') => match b.get(i + 1) {
            Some(b'-' | b'/') => true,
            Some(b'.') => c == b'0', // `0.5-0.5`
            _ => false,
        },
        _ => false,
    }
}

/// A tag pair as written, value still escaped: [`RawTag::value`] decodes it on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawTag<'a> {
    /// The name as written (any case; not validated).
    pub name: &'a str,
    /// The text between the quotes, escapes not decoded.
    pub raw_value: &'a str,
    /// Whether the value holds a backslash (only then is there anything to decode).
    pub escaped: bool,
    /// The whole `[Name "value"]`.
    pub span: Span,
    /// The text between the quotes (what a fix of the value replaces).
    pub value_span: Span,
}

impl<'a> RawTag<'a> {
    /// The value with `\"` and `\\` decoded. Other backslashes are kept as written, because
    /// real files hold text like `D\'Almeida` whose author meant the backslash to vanish
    /// or not: we cannot know, so we do not guess.
    pub fn value(&self) -> Cow<'a, str> {
        if !self.escaped {
            return Cow::Borrowed(self.raw_value);
        }
        unescape(self.raw_value)
    }
}

/// Decodes `\"` and `\\` in a tag value; other backslashes stay.
pub fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.clone().next() {
                Some(n @ ('"' | '\\')) => {
                    out.push(n);
                    chars.next();
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Escapes `"` and `\` for writing a tag value.
pub fn escape(value: &str) -> Cow<'_, str> {
    if !value.contains(['"', '\\']) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// Bytes that end a token: whitespace and PDN punctuation.
#[inline(always)]
pub const fn is_delimiter(b: u8) -> bool {
    // a table lookup: the reader asks this for nearly every byte of the movetext
    DELIMITERS[b as usize]
}

const DELIMITERS: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b" \t\n\r\x0b\x0c{}()[];\"\\";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// Some programs write a literal `\r` (backslash, `r`) at line ends; it is read as blank.
#[inline]
pub fn is_literal_cr(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'r')
}

/// Horizontal or vertical ASCII whitespace (by table: it is asked of nearly every byte).
#[inline]
pub fn is_space(b: u8) -> bool {
    SPACES[usize::from(b)]
}

/// [`is_space`] for each byte value.
static SPACES: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = matches!(k as u8, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
        k += 1;
    }
    t
};

/// Whether `b` may be part of a tag name in the plain shape the reader looks for first
/// (`[Event "…"]`): an ASCII letter, digit or `_`. A table lookup: it is
/// asked for every byte of every tag name.
#[inline]
pub(crate) const fn is_tag_name_byte(b: u8) -> bool {
    TAG_NAME_BYTES[b as usize]
}

const TAG_NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = b.is_ascii_alphanumeric() || b == b'_';
        i += 1;
    }
    table
};

/// The end of the token starting at `i`: the first delimiter at or after `i`.
#[inline]
pub fn token_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && !is_delimiter(b[i]) {
        i += 1;
    }
    i
}

/// A move number `\d+\.+` at `i`: returns its end and the number with the side it announces.
/// A following separate ellipsis (`1. ...`) is included.
#[inline]
pub fn lex_move_number(b: &[u8], i: usize) -> Option<(usize, MoveNumber)> {
    let (j, number) = number_and_dot(b, i)?;
    // the common `12. c3-d4` and `12.c3-d4`: one dot, and no ellipsis can follow
    let not_dot_or_blank = |c: Option<&u8>| c.is_some_and(|&c| !matches!(c, b'.' | b' ' | b'\t'));
    let next = b.get(j + 1);
    if not_dot_or_blank(next) || (next == Some(&b' ') && not_dot_or_blank(b.get(j + 2))) {
        let black = false;
        return Some((j + 1, MoveNumber { number, black }));
    }
    Some(dots_and_ellipsis(b, j, number))
}

/// The digits at `i` and the dot after them: where the dot is, and the number.
#[inline]
fn number_and_dot(b: &[u8], i: usize) -> Option<(usize, u32)> {
    let mut j = i;
    let mut number: u32 = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        number = number
            .saturating_mul(10)
            .saturating_add(u32::from(b[j] - b'0'));
        j += 1;
    }
    (j > i && j < b.len() && b[j] == b'.').then_some((j, number))
}

/// [`lex_move_number`] from the first dot at `j` on, for any shape.
fn dots_and_ellipsis(b: &[u8], mut j: usize, number: u32) -> (usize, MoveNumber) {
    let dots = j;
    while j < b.len() && b[j] == b'.' {
        j += 1;
    }
    let mut black = j - dots >= 2;
    if !black {
        // `1. ...`: an ellipsis after spaces on the same line still belongs to the number
        let mut k = j;
        while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
            k += 1;
        }
        if k > j && b[k..].starts_with(b"...") {
            let mut e = k + 3;
            while e < b.len() && b[e] == b'.' {
                e += 1;
            }
            if e == b.len() || is_delimiter(b[e]) {
                black = true;
                j = e;
            }
        }
    }
    (j, MoveNumber { number, black })
}

#[inline]
fn is_separator(b: u8) -> bool {
    matches!(b, b'-' | b'x' | b'X' | b':')
}

/// One square at `i`: a letter (not `x`) and one or two digits, or one or two digits.
#[inline]
fn square(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let c = *b.get(i)?;
    let (start, alpha) = if c.is_ascii_alphabetic() && c != b'x' && c != b'X' {
        (i + 1, true)
    } else {
        (i, false)
    };
    let mut j = start;
    while j < b.len() && j - start < 2 && b[j].is_ascii_digit() {
        j += 1;
    }
    if j == start {
        return None;
    }
    // three digits in a row is not a square (but `3228` is handled by the caller)
    if j < b.len() && b[j].is_ascii_digit() {
        return None;
    }
    Some((j, alpha))
}

/// A parenthesised strength mark such as `(?)` or `(!?!!!)` at `i`; returns its end.
#[inline]
pub fn paren_strength(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'(') {
        return None;
    }
    let mut j = i + 1;
    while j < b.len() && (b[j] == b'!' || b[j] == b'?') {
        j += 1;
    }
    (j > i + 1 && b.get(j) == Some(&b')')).then_some(j + 1)
}

/// A move at `i`, as one token: `c3-d4`, `c3:e5:g7`, `C3xB4`, `22-18`, `09-13`, `1- 6`,
/// `35x 4`, `29-18-27`, `a3b4`, `3228`. Returns the end of the move and the end of the glued
/// strength marks after it (`!?`, `(?)`, `*`), or `None` when this is not a move or the
/// token does not end at a delimiter (then it is garbage, not a move).
#[inline]
pub fn lex_move(b: &[u8], i: usize) -> Option<(usize, usize)> {
    match lex_plain_move(b, i) {
        Some(end) => Some((end, end)),
        None => lex_move_general(b, i),
    }
}

/// The common shapes of [`lex_move`], `c3-d4`, `22-18` and `9-14` (two plain squares
/// around a separator, then a delimiter), without its loops: the end of the move, or
/// `None` for any other shape (which may still be a move). A test compares the two
/// readings. What this accepts is never a move number (those have a `.` after the digits).
#[inline]
pub fn lex_plain_move(b: &[u8], i: usize) -> Option<usize> {
    let plain_square = |j: usize| match (b.get(j), b.get(j + 1)) {
        (Some(b'a'..=b'h'), Some(b'1'..=b'8')) => Some(j + 2),
        (Some(b'0'..=b'9'), Some(b'0'..=b'9')) => Some(j + 2),
        (Some(b'0'..=b'9'), _) => Some(j + 1),
        _ => None,
    };
    let sep = plain_square(i)?;
    if !b.get(sep).is_some_and(|&c| is_separator(c)) {
        return None;
    }
    let end = plain_square(sep + 1)?;
    // (`(` opens a glued strength mark such as `(?)` as well as a variation)
    b.get(end)
        .is_none_or(|&e| is_delimiter(e) && e != b'(')
        .then_some(end)
}

/// [`lex_move`] for any shape.
fn lex_move_general(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut end;
    // four digits with no separator: `3228` = 32-28
    let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 4 {
        end = i + 4;
    } else {
        let (e, alpha) = square(b, i)?;
        end = e;
        let mut squares = 1;
        loop {
            if end < b.len() && is_separator(b[end]) {
                let mut j = end + 1;
                // right-aligned squares: `1- 6`, `35x 4`
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                match square(b, j) {
                    Some((e, _)) => {
                        end = e;
                        squares += 1;
                    }
                    None => break,
                }
            } else if squares == 1 && alpha {
                // `a3b4`
                match square(b, end) {
                    Some((e, true)) => {
                        end = e;
                        squares += 1;
                    }
                    _ => break,
                }
            } else {
                break;
            }
        }
        if squares < 2 {
            return None;
        }
    }
    let move_end = end;
    loop {
        match b.get(end) {
            Some(b'!' | b'?') => {
                while end < b.len() && (b[end] == b'!' || b[end] == b'?') {
                    end += 1;
                }
            }
            Some(b'*') => end += 1,
            Some(b'(') => match paren_strength(b, end) {
                Some(e) => end = e,
                None => break,
            },
            _ => break,
        }
    }
    if end == b.len() || is_delimiter(b[end]) || b[end] == b'$' {
        Some((move_end, end))
    } else {
        None
    }
}

/// An unknown-move placeholder at `i`: `- -` (as one token) or a lone `-`.
pub fn lex_placeholder(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'-') {
        return None;
    }
    let mut j = i + 1;
    if j < b.len() && !is_delimiter(b[j]) {
        return None;
    }
    while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
        j += 1;
    }
    if b.get(j) == Some(&b'-') && (j + 1 == b.len() || is_delimiter(b[j + 1])) {
        return Some(j + 1);
    }
    Some(i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_move_number_reads_as_any_other() {
        // every string of up to seven bytes over digits, dots, blanks and a move's bytes
        for s in pdnkit_gen::every_string(b"12. \t.c-", 1..=7) {
            let general = number_and_dot(&s, 0).map(|(j, n)| dots_and_ellipsis(&s, j, n));
            assert_eq!(
                lex_move_number(&s, 0),
                general,
                "{:?}",
                String::from_utf8_lossy(&s)
            );
        }
    }

    /// What may follow a move token: nothing, delimiters, marks, NAGs, more squares,
    /// variations, comments.
    const TAILS: [&[u8]; 11] = [
        b"",
        b" ",
        b"!",
        b"$1",
        b"5",
        b":e5",
        b"(?)",
        b"(1. c3-d4)",
        b"\n",
        b"*",
        b"{c}",
    ];

    /// Checks that `lex_move` (with its shortcut) and `lex_move_general` read every
    /// `first sep second tail` alike, with and without a blank before; returns how many.
    fn shortcut_agrees(firsts: &[Vec<u8>], seps: &[&[u8]], seconds: &[Vec<u8>]) -> usize {
        let mut checked = 0;
        for first in firsts {
            for sep in seps {
                for second in seconds {
                    for tail in TAILS {
                        for lead in [0, 1] {
                            let mut text = vec![b' '; lead];
                            for part in [first.as_slice(), sep, second, tail] {
                                text.extend_from_slice(part);
                            }
                            if text.len() == lead {
                                continue;
                            }
                            assert_eq!(
                                lex_move(&text, lead),
                                lex_move_general(&text, lead),
                                "{:?}",
                                String::from_utf8_lossy(&text)
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn the_plain_move_shape_is_read_as_in_general() {
        // two-byte squares from letters and digits on either side of a separator
        let squares: Vec<Vec<u8>> = [b'a', b'h', b'i', b'x', b'2', b'0']
            .iter()
            .flat_map(|&f| [b'1', b'8', b'9', b'0', b'3'].map(|r| vec![f, r]))
            .collect();
        let seps: [&[u8]; 5] = [b"-", b"x", b":", b"X", b"."];
        assert!(shortcut_agrees(&squares, &seps, &squares) > 10_000);
    }

    #[test]
    fn the_plain_move_shortcut_agrees_with_the_general_reading_for_any_square_shape() {
        // squares of every length and kind, separators glued or followed by a blank
        let squares: Vec<Vec<u8>> = [
            &b""[..],
            b"1",
            b"9",
            b"0",
            b"12",
            b"32",
            b"05",
            b"123",
            b"a1",
            b"h8",
            b"c3",
            b"a12",
            b"z9",
            b"C3",
            b"x3",
            b"a",
        ]
        .iter()
        .map(|s| s.to_vec())
        .collect();
        let seps: [&[u8]; 6] = [b"-", b"x", b":", b"X", b".", b"- "];
        let checked = shortcut_agrees(&squares, &seps, &squares);
        assert!(checked > 30_000, "{checked}");
    }

    #[test]
    fn a_token_turned_away_as_a_result_is_none() {
        // every token of up to three bytes from a small alphabet, and the results
        let alphabet = b"012*-/.5x ";
        let mut tokens: Vec<Vec<u8>> = vec![b"1/2-1/2".to_vec(), "½-½".into(), b"0.5-0.5".to_vec()];
        for &a in alphabet {
            tokens.push(vec![a]);
            for &b in alphabet {
                tokens.push(vec![a, b]);
                for &c in alphabet {
                    tokens.push(vec![a, b, c]);
                }
            }
        }
        for t in tokens {
            let Ok(text) = std::str::from_utf8(&t) else {
                continue;
            };
            let end = t.iter().position(|&c| is_delimiter(c)).unwrap_or(t.len());
            if parse_result(&text[..end]).is_some() {
                assert!(may_start_result(&t, 0), "{text:?}");
            }
        }
    }

    #[test]
    fn delimiters_are_whitespace_and_pdn_punctuation() {
        for b in 0..=255u8 {
            let expected = matches!(
                b,
                b' ' | b'\t'
                    | b'\n'
                    | b'\r'
                    | 0x0b
                    | 0x0c
                    | b'{'
                    | b'}'
                    | b'('
                    | b')'
                    | b'['
                    | b']'
                    | b';'
                    | b'"'
                    | b'\\'
            );
            assert_eq!(is_delimiter(b), expected, "byte {b:#04x}");
        }
    }

    fn mv(s: &str) -> Option<(&str, &str)> {
        let (m, e) = lex_move(s.as_bytes(), 0)?;
        Some((&s[..m], &s[m..e]))
    }

    #[test]
    fn moves_are_single_tokens() {
        for s in [
            "c3-d4",
            "c3:e5",
            "c3xe5",
            "C3-B4",
            "c3:e5:g7",
            "22-18",
            "22x15",
            "09-13",
            "1- 6",
            "35x 4",
            "29-18-27",
            "a3b4",
            "3228",
            "1-18",
            "20-25",
            "h6xh6",
            "17x22x4x5",
        ] {
            assert_eq!(mv(s), Some((s, "")), "{s}");
        }
        assert_eq!(mv("27-20*"), Some(("27-20", "*")));
        assert_eq!(mv("19-23(!?!!!)"), Some(("19-23", "(!?!!!)")));
        assert_eq!(mv("32-28!? x"), Some(("32-28", "!?")));
        assert_eq!(mv("e3-d4 ?"), Some(("e3-d4", "")));
        assert_eq!(mv("c3-d4{c}"), Some(("c3-d4", "")));
        assert_eq!(mv("c3-d4)"), Some(("c3-d4", "")));
        assert_eq!(mv("c3-d4$1"), Some(("c3-d4", "")));
        assert_eq!(mv("35-30\\r\n"), Some(("35-30", "")));
        for s in ["3", "c3", "c3-", "c3-d4z", "x3-d4", "123-4", "e3-f4.", "1."] {
            assert_eq!(mv(s), None, "{s}");
        }
    }

    #[test]
    fn results_are_whole_tokens() {
        for (s, o) in [
            ("1-0", Outcome::WhiteWins),
            ("0-2", Outcome::BlackWins),
            ("1-1", Outcome::Draw),
            ("½-½", Outcome::Draw),
            ("0.5-0.5", Outcome::Draw),
            ("1/2-1/2", Outcome::Draw),
            ("0-0", Outcome::BothLose),
            ("*", Outcome::Unknown),
        ] {
            assert_eq!(parse_result(s).unwrap().outcome, o);
        }
        assert_eq!(parse_result("2-0").unwrap().scale, ResultScale::TwoPoint);
        assert!(parse_result("1-18").is_none());
        assert!(parse_result("20-25").is_none());
    }

    #[test]
    fn move_numbers() {
        let n = |s: &str| lex_move_number(s.as_bytes(), 0).map(|(e, m)| (e, m.number, m.black));
        assert_eq!(n("1."), Some((2, 1, false)));
        assert_eq!(n("01. c3"), Some((3, 1, false)));
        assert_eq!(n("1...h6"), Some((4, 1, true)));
        assert_eq!(n("12. ... h6"), Some((7, 12, true)));
        assert_eq!(n("1.32-28"), Some((2, 1, false)));
        assert_eq!(n("1"), None);
        assert_eq!(n("99999999999999."), Some((15, u32::MAX, false)));
    }

    #[test]
    fn escapes() {
        assert_eq!(
            unescape(r#"a \"b\" \\ D\'Almeida"#),
            r#"a "b" \ D\'Almeida"#
        );
        assert_eq!(unescape(r"trailing\"), r"trailing\");
        for v in [r#"x"y\z"#, r"\\", "", "\\\""] {
            assert_eq!(unescape(&escape(v)), v);
        }
    }

    #[test]
    fn placeholders() {
        assert_eq!(lex_placeholder(b"- - 2.", 0), Some(3));
        assert_eq!(lex_placeholder(b"-", 0), Some(1));
        assert_eq!(lex_placeholder(b"-x", 0), None);
    }
}
