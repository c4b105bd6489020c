//! Where a long input may be cut into blocks that are read apart, in parallel: before a
//! line that surely starts a game, decided from the bytes around the cut alone.
//!
//! A line that starts a tag pair with its `[` (`[Name "…`) starts a game when the last
//! line before it that is not blank ends with a result token and holds nothing that could
//! make that token something else: no `;` (a line comment), no `"` (a string), no `[` or
//! `]` (a tag), and it does not start with `%`. Whatever came before that line, the reader
//! ends a game there: at the result token itself, or, when the token was inside an open
//! variation or comment (the game's movetext has started, or a comment is open), at the
//! tag line. Blocks are cut only there, so that a block read apart gives exactly the games
//! the whole input gives.

use crate::pdn::token::{is_delimiter, parse_result};

/// The start of the last line of `b` at or after `min` where a game surely starts (see the
/// module documentation); `None` when there is none.
pub fn find_cut(b: &[u8], min: usize) -> Option<usize> {
    let mut end = b.len();
    while end > min.max(1) {
        let at = memchr::memrchr(b'[', &b[min.max(1)..end])? + min.max(1);
        end = at;
        if matches!(b[at - 1], b'\n' | b'\r')
            && starts_tag_pair(&b[at..])
            && follows_a_result(&b[..at])
        {
            return Some(at);
        }
    }
    None
}

/// Whether `b` starts with a tag pair's opening: `[`, blanks, a name, blanks, `"`.
fn starts_tag_pair(b: &[u8]) -> bool {
    let (name, quote) = crate::pdn::reader::tag_pair_start(b, 0);
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
    fn a_result_that_may_be_in_a_comment_string_or_tag_is_no_cut() {
        for before in [
            "; 1-0",
            "% 1-0",
            "[Note \"x 1-0",
            "\"quoted 1-0",
            "1. c3-d4 1-0x",
            "1. c3-d4 11-0",
        ] {
            let text = format!("[Event \"a\"]\n{before}\n\n[Event \"b\"]\n");
            assert_eq!(find_cut(text.as_bytes(), 1), None, "{before}");
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
        // (an indented tag line does not end an open comment)
        assert_eq!(find_cut(b"1-0\n  [Event \"b\"]\n", 1), None);
    }
}
