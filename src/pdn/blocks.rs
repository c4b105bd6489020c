//! Cutting a long UTF-8 input into blocks that can be read apart, in parallel: each
//! starts with a line that starts a tag pair, where the game splitter would start a
//! game afresh if the text before it ends cleanly (see [`GameSplitter::at`] and
//! [`GameSplitter::ended_clean`]). Whether it did is known only once the block before
//! is read; a reader of blocks checks it and reads on sequentially where it did not.
//!
//! [`GameSplitter::at`]: super::GameSplitter::at
//! [`GameSplitter::ended_clean`]: super::GameSplitter::ended_clean

use memchr::memmem;

use super::split::{count_newlines, tag_pair_start};
use super::token::{is_delimiter, parse_result};

/// How many cut places [`find_cut`] looks at, from the last one back, for one after a
/// result token.
const CUTS_LOOKED_AT: usize = 64;

/// Where to end a block of `b` at or after `min`: the start of the last line (at or after
/// `min`, not the first byte; lines end with LF, or with CR where `b` has no LF) that
/// starts a tag pair (`[`, a name, a `"`, all in `b`),
/// preferring among the last few one that follows a result token and blanks: there the
/// splitter has ended a game and the cut is clean, unless the result was written in a
/// comment or a variation. Where no tag line follows a result, the last line that starts
/// with `1.` after one (a file of games without tags: the block before ends cleanly when
/// its last game ended there, [`GameSplitter::ended_between_games`]); then the last tag
/// line whose line before is no tag line (the first tag of a game: where games end
/// without results, the splitter cuts there); then the last tag line. `None` when there
/// is none of these.
///
/// [`GameSplitter::ended_between_games`]: super::GameSplitter::ended_between_games
pub fn find_cut(b: &[u8], min: usize) -> Option<usize> {
    let min = min.max(1);
    // (lines end with CR in a file without a line feed: old Mac files)
    let eol = if memchr::memchr(b'\n', b).is_some() {
        b'\n'
    } else {
        b'\r'
    };
    // (the last tag line after a line that is no tag line: where games end without a
    // result, the first of a game's tags, where the splitter cuts; else the last one)
    let (mut first_of_tags, mut fallback) = (None, None);
    let mut end = b.len();
    for _ in 0..CUTS_LOOKED_AT {
        let Some(at) = last_line_starting_with(b'[', &b[..end], min, eol) else {
            break;
        };
        end = at - 1;
        let (name, quote) = tag_pair_start(b, at);
        if name.is_empty() || b.get(quote) != Some(&b'"') {
            continue;
        }
        if follows_a_result(&b[..at]) {
            return Some(at);
        }
        fallback.get_or_insert(at);
        if first_of_tags.is_none() && !follows_a_tag_line(&b[..at]) {
            first_of_tags = Some(at);
        }
        if end < min {
            break;
        }
    }
    first_move_after_a_result(b, min, eol)
        .or(first_of_tags)
        .or(fallback)
}

/// The position of the last `first` in `b` at or after `min` (at least 1) that starts a
/// line (follows `eol`). A search for the byte (vectorised by memchr), the byte before
/// each checked: in a file of games without tags there is no `[` to find, and the
/// search for the two bytes `eol`, `[` (memchr's two-way search backwards, byte by byte)
/// took 4% of `lint -j2`'s instructions, on the thread that cuts the blocks.
fn last_line_starting_with(first: u8, b: &[u8], min: usize, eol: u8) -> Option<usize> {
    let mut end = b.len();
    while end > min {
        let at = memchr::memrchr(first, &b[min..end])? + min;
        if b[at - 1] == eol {
            return Some(at);
        }
        end = at;
    }
    None
}

/// Whether the last line of `b` that is not blank ends with `]` (is a tag line, nearly
/// always: movetext has no brackets).
fn follows_a_tag_line(b: &[u8]) -> bool {
    b.iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b']')
}

/// The start of the last line of `b` at or after `min` (at least 1) that starts with `1.`
/// and follows a result token and blanks, among the last few such lines.
fn first_move_after_a_result(b: &[u8], min: usize, eol: u8) -> Option<usize> {
    let line_start = [eol, b'1', b'.'];
    let mut end = b.len();
    for _ in 0..CUTS_LOOKED_AT {
        let at = memmem::rfind(&b[min - 1..end], &line_start)? + min;
        if follows_a_result(&b[..at]) {
            return Some(at);
        }
        end = at - 1;
        if end < min {
            break;
        }
    }
    None
}

/// Whether `b` ends with a result token (`1-0`, `*`…) and blanks.
pub(crate) fn follows_a_result(b: &[u8]) -> bool {
    let end = b.len()
        - b.iter()
            .rev()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
    let start = b[..end]
        .iter()
        .rposition(|&c| is_delimiter(c))
        .map_or(0, |k| k + 1);
    (start == 0 || matches!(b[start - 1], b' ' | b'\t' | b'\n' | b'\r'))
        && std::str::from_utf8(&b[start..end]).is_ok_and(|t| parse_result(t).is_some())
}

/// The line breaks in `b` (CR LF, LF and a lone CR each end a line, as the splitter
/// counts them; a CR at the end counts as a lone one): how many lines a block of text
/// moves the next one down, when the next does not start with LF.
pub fn line_breaks(b: &[u8]) -> u64 {
    let (newlines, cr) = count_newlines(b);
    if !cr {
        return newlines;
    }
    let lone_crs = b
        .iter()
        .enumerate()
        .filter(|&(k, &c)| c == b'\r' && b.get(k + 1) != Some(&b'\n'))
        .count();
    newlines + lone_crs as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_at_a_tag_line_after_a_result_when_there_is_one() {
        let text =
            b"[A \"1\"]\n1. c3-d4 1-0\n\n[B \"2\"]\n1. c3-d4 {x\n[C \"3\"]\n} *\n[D \"4\"]\n";
        let at = |s: &str| {
            text.windows(s.len())
                .position(|w| w == s.as_bytes())
                .unwrap()
        };
        // the last tag line follows `*` and a line break
        assert_eq!(find_cut(text, 1), Some(at("[D")));
        // before it, `[C` follows a comment's text: `[B`, after `1-0`, is preferred
        let before_d = &text[..at("[D")];
        assert_eq!(find_cut(before_d, 1), Some(at("[B")));
        // none at or after `min` after a result: the last tag line there
        assert_eq!(find_cut(before_d, at("[C")), Some(at("[C")));
        // a `[` that starts no tag pair, or the first byte, is no cut
        assert_eq!(find_cut(b"[A \"1\"]\n[x]\n[ \"y\"]\n", 0), None);
        assert_eq!(find_cut(b"1-0\n[A \"", 0), Some(4));
        assert_eq!(find_cut(b"x\n[A \"", 0), Some(2));
        // CR line ends, where there is no LF
        assert_eq!(find_cut(b"1-0\r[A \"", 0), Some(4));
        assert_eq!(find_cut(b"1-0\r[A \"\n", 0), None);
        assert_eq!(find_cut(b"1-0\n[A ", 0), None);
    }

    #[test]
    fn cuts_games_without_tags_at_a_first_move_after_a_result() {
        let text = b"1. c3-d4 f6-g5 1-0\n\n1. a3-b4 {\n1. x} *\n1. e3-f4 b6-a5 0-1\n1. g3-h4 *\n";
        let at = |s: &str| {
            text.windows(s.len())
                .rposition(|w| w == s.as_bytes())
                .unwrap()
        };
        // the last `1.` line after a result
        assert_eq!(find_cut(text, 1), Some(at("1. g3")));
        // before it, `1. x` follows a comment's text: `1. e3`, after `*`, is preferred
        assert_eq!(find_cut(&text[..at("1. g3")], 1), Some(at("1. e3")));
        assert_eq!(find_cut(&text[..at("1. e3")], 1), Some(at("1. a3")));
        // the first byte is no cut, nor `12.`, nor a move after no result
        assert_eq!(find_cut(&text[..at("1. a3")], 1), None);
        assert_eq!(find_cut(b"1-0\n12. c3-d4", 1), None);
        assert_eq!(find_cut(b"1. c3-d4\n1. e3-f4", 1), None);
        // a tag line after a result comes first; one after no result comes last
        assert_eq!(find_cut(b"1-0\n1. c3-d4 *\n[A \"", 1), Some(15));
        assert_eq!(find_cut(b"1-0\n1. c3-d4\n[A \"", 1), Some(4));
        // games without results: the first tag line of a game, after its moves
        let text = b"[A \"1\"]\n[B \"2\"]\n1. c3-d4\n\n[A \"3\"]\n[B \"4\"]\n1. e3-f4\n";
        assert_eq!(find_cut(text, 1), Some(26));
        assert_eq!(&text[26..33], b"[A \"3\"]");
        // and when every tag line follows one, the last of them
        assert_eq!(find_cut(b"[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n", 1), Some(16));
        // CR line ends, where there is no LF
        assert_eq!(find_cut(b"* \r\r1. c3-d4", 1), Some(4));
    }

    #[test]
    fn finds_the_last_line_start_as_a_search_for_both_bytes_does() {
        // random text of line ends, `[` (starting lines or not) and other bytes, searched
        // from every end and minimum: the same answer as a search for the pair
        let mut rng = crate::generate::SplitMix64::new(5);
        for _ in 0..300 {
            let len = rng.below(60) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| [b'\n', b'\r', b'[', b'x', b'1'][rng.below(5) as usize])
                .collect();
            for eol in [b'\n', b'\r'] {
                for min in 1..=len {
                    for end in 0..=len {
                        let pair = (end > min)
                            .then(|| memmem::rfind(&text[min - 1..end], &[eol, b'[']))
                            .flatten()
                            .map(|found| found + min);
                        assert_eq!(
                            last_line_starting_with(b'[', &text[..end], min, eol),
                            pair,
                            "{text:?} min {min} end {end}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn counts_line_breaks_as_the_splitter_does() {
        assert_eq!(line_breaks(b"a\nb\r\nc\rd\n"), 4);
        assert_eq!(line_breaks(b"abc"), 0);
        assert_eq!(line_breaks(b"\r\n\r\n"), 2);
    }
}
