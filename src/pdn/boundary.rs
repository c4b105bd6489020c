//! Where a game surely starts, decided from the bytes around the place alone: what lets a
//! long input be cut into blocks read apart, in parallel, that give exactly the games the
//! whole input gives ([`find_cut`]).
//!
//! A line starts a game when it starts, at its first byte, with a tag pair's `[`
//! (`[Name "…`) or with the first move number `1.`, and the last line before it that is not
//! blank ends with a result token and holds nothing that could make that token something
//! else: no `;` (a line comment), no `"` (a string), no `[` or `]` (a tag), and it does
//! not start with `%`. Whatever came before that line, the reader ends a game there: at
//! the result token itself, or, when the token was inside an open variation or comment,
//! at the line, which ends them (reported as unclosed).

use super::token::{is_delimiter, parse_result};

/// Whether a game surely starts at `at` in `b` (see the module documentation); `b` holds
/// the text before `at` back to the last line that is not blank (or all of it).
pub fn starts_game(b: &[u8], at: usize) -> bool {
    at > 0
        && matches!(b[at - 1], b'\n' | b'\r')
        && (starts_tag_pair(&b[at..]) || b[at..].starts_with(b"1."))
        && follows_a_result(&b[..at])
}

/// The start of the last line of `b` at or after `min` where a game surely starts; `None`
/// when there is none.
pub fn find_cut(b: &[u8], min: usize) -> Option<usize> {
    let min = min.max(1);
    // (line breaks from the end: the line after each is a candidate)
    let mut end = b.len();
    while end >= min {
        let line_break = min - 1 + memchr::memrchr2(b'\n', b'\r', &b[min - 1..end])?;
        let at = line_break + 1;
        if matches!(b.get(at), Some(b'[' | b'1')) && starts_game(b, at) {
            return Some(at);
        }
        end = line_break;
    }
    None
}

/// Whether `b` starts with a tag pair's opening: `[`, blanks, a name, blanks, `"`.
fn starts_tag_pair(b: &[u8]) -> bool {
    if b.first() != Some(&b'[') {
        return false;
    }
    let (name, quote) = super::reader::tag_pair_start(b, 0);
    !name.is_empty() && b.get(quote) == Some(&b'"')
}

/// Whether the last line of `b` that is not blank ends with a result token, and holds
/// nothing that could make it something else.
fn follows_a_result(b: &[u8]) -> bool {
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let Some(last) = b.iter().rposition(|&c| !blank(c)) else {
        return false;
    };
    // (the line may be megabytes of comment: searched for with memchr)
    let line_start = memchr::memrchr2(b'\n', b'\r', &b[..last]).map_or(0, |k| k + 1);
    let line = &b[line_start..=last];
    if line.first() == Some(&b'%')
        || memchr::memchr3(b';', b'"', b'[', line).is_some()
        || memchr::memchr(b']', line).is_some()
    {
        return false;
    }
    let token_start = line
        .iter()
        .rposition(|&c| is_delimiter(c))
        .map_or(0, |k| k + 1);
    std::str::from_utf8(&line[token_start..]).is_ok_and(|t| parse_result(t).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_only_before_a_tag_line_after_a_result() {
        let text =
            b"[Event \"a\"]\n1. c3-d4 *\n\n[Event \"b\"]\n1. c3-d4 1-0\n[Event \"c\"]\n1. e3-f4";
        let b = &text[..];
        let second = b.windows(10).position(|w| w == b"[Event \"b\"").unwrap();
        let third = b.windows(10).position(|w| w == b"[Event \"c\"").unwrap();
        assert_eq!(find_cut(b, 1), Some(third));
        assert_eq!(find_cut(&b[..third], 1), Some(second));
        assert_eq!(find_cut(&b[..second], 1), None);
        assert_eq!(find_cut(b, third + 1), None);
    }

    #[test]
    fn cuts_before_a_first_move_after_a_result() {
        let b = &b"1. c3-d4 f6-g5 1-0\n1. c3-d4 *\n\n1. e3-f4 d6-c5\n2. f4-e5 *\n10. c3-d4"[..];
        let second = b.windows(8).position(|w| w == b"1. c3-d4").unwrap() + 19;
        assert_eq!(&b[second..second + 8], b"1. c3-d4");
        let third = b.windows(8).position(|w| w == b"1. e3-f4").unwrap();
        assert_eq!(find_cut(b, 1), Some(third));
        assert_eq!(find_cut(&b[..third], 1), Some(second));
        // not after a line that ends with no result, nor before `2.` or `10.`
        assert_eq!(find_cut(&b[..second], 1), None);
        // nor before a line that starts with `1` but not `1.` (a tag pair starts with `[`)
        assert_eq!(find_cut(b"1-0\n11vent \"x\"]\n", 1), None);
    }

    #[test]
    fn a_result_that_may_be_in_a_comment_string_or_tag_is_no_cut() {
        for before in [
            "; 1-0",
            "% 1-0",
            "[Note \"x 1-0",
            "\"quoted 1-0",
            "1. c3-d4 1-0x",
            "1. c3-d4 11-0",
        ] {
            for next in ["[Event \"b\"]", "1. c3-d4"] {
                let text = format!("[Event \"a\"]\n{before}\n\n{next}\n");
                assert_eq!(find_cut(text.as_bytes(), 1), None, "{before} {next}");
            }
        }
        for before in [
            "1. c3-d4 1-0",
            "  *  ",
            "{ a comment } 0-1",
            "( 1. c3-d4 ) 1/2-1/2",
        ] {
            let text = format!("[Event \"a\"]\n{before}\n\n[Event \"b\"]\n");
            assert!(find_cut(text.as_bytes(), 1).is_some(), "{before}");
        }
        // (an indented line does not end an open comment)
        assert_eq!(find_cut(b"1-0\n  [Event \"b\"]\n", 1), None);
        assert_eq!(find_cut(b"1-0\n  1. c3-d4\n", 1), None);
    }
}
