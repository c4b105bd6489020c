//! Applying fixes (`pdnkit fix`): which of the fixes the checker proposes to take, and
//! the input written again with them.
//!
//! [`Fixing`] is the [`Task`] that gives, for each checked game, the fixes to apply (the
//! safe ones, and the unsafe ones when asked) and how many findings are left. [`edits`]
//! orders a game's edits and drops a fix that overlaps one before it (it is tried again
//! on the next pass); [`Patcher`] copies the input byte for byte but for the edited
//! ranges, as the games come in input order, the new text written in the input's
//! encoding, so that every byte no fix touches stays as it was: comments, spacing, line
//! ends, the encoding itself. Checking and writing are one pass over the input, and
//! nothing of a game is kept once its edits are made.
//!
//! A fix may let more of a game be checked (a move repaired lets the moves after it
//! replay), and those may have fixes of their own: `pdnkit fix` checks what it wrote
//! again, up to [`MAX_PASSES`] times, so that fixing twice changes nothing the second
//! time.
//!
//! Edits are located by input offsets, which are exact unless bytes of the input were
//! not valid in its encoding and were replaced in reading (`E101`): such an input is
//! not fixed ([`GameFixes::replaced`]).

use crate::diag::Severity;
use crate::diag::codes;
use crate::diag::fix::{Applicability, Edit, Fix};
use crate::run::{Checked, Task};
use encoding_rs::Encoding;
use std::io::{self, Read, Write};

/// How many times `pdnkit fix` checks an input again after fixing it.
pub const MAX_PASSES: usize = 8;

/// The task that collects the fixes of each game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fixing {
    /// Apply the unsafe fixes too (those that change a move).
    pub unsafe_fixes: bool,
}

/// The fixes of one game, and what stays unfixed.
#[derive(Clone, Debug, Default)]
pub struct GameFixes {
    /// The fixes to apply, in text order.
    pub fixes: Vec<Fix>,
    /// The findings of error or warning severity left as they are (no fix, or an unsafe
    /// one not asked for).
    pub unfixed: usize,
    /// Of those, the findings with an unsafe fix (not asked for).
    pub unsafe_unfixed: usize,
    /// Bytes of the game were replaced in decoding (`E101`): its input cannot be fixed.
    pub replaced: bool,
}

impl Task for Fixing {
    type Output = GameFixes;

    fn game(&self, game: Checked<'_>) -> GameFixes {
        let mut out = GameFixes::default();
        for d in game.diagnostics {
            out.replaced |= d.rule == &codes::DECODING_REPLACED;
            let applicability = d.fix.as_ref().map(|f| f.applicability);
            match d.fix {
                Some(fix) if self.unsafe_fixes || fix.applicability == Applicability::Safe => {
                    out.fixes.push(*fix)
                }
                _ if d.severity <= Severity::Warning => {
                    out.unfixed += 1;
                    out.unsafe_unfixed += usize::from(applicability == Some(Applicability::Unsafe));
                }
                _ => {}
            }
        }
        out
    }
}

/// Writes an input again with edits, as they come in input order: the bytes before each
/// copied from the input, its text written in the input's encoding.
pub struct Patcher<R, W> {
    input: R,
    out: W,
    encoding: &'static Encoding,
    /// The input's bytes read (copied or skipped) so far.
    at: u64,
    /// The edits made.
    pub edits: usize,
}

impl<R: Read, W: Write> Patcher<R, W> {
    /// A patcher copying `input` (from its start) to `out`.
    pub fn new(input: R, out: W, encoding: &'static Encoding) -> Patcher<R, W> {
        Patcher {
            input,
            out,
            encoding,
            at: 0,
            edits: 0,
        }
    }

    /// Makes `edit` (which starts at or after the end of the edit before it).
    pub fn edit(&mut self, edit: &Edit) -> io::Result<()> {
        let before = edit.start.checked_sub(self.at).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "edits out of input order")
        })?;
        io::copy(&mut self.input.by_ref().take(before), &mut self.out)?;
        let skip = edit.end - edit.start;
        if io::copy(&mut self.input.by_ref().take(skip), &mut io::sink())? != skip {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the input ends before an edit: it changed since it was checked",
            ));
        }
        self.out.write_all(&encoded(&edit.content, self.encoding))?;
        self.at = edit.end;
        self.edits += 1;
        Ok(())
    }

    /// Copies the rest of the input; the writer.
    pub fn finish(mut self) -> io::Result<W> {
        io::copy(&mut self.input, &mut self.out)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The edits of `fixes` in input order, without the fixes that have an edit overlapping
/// one before it (or inserting at the same place); whether each fix was taken.
pub fn edits<'a>(fixes: impl IntoIterator<Item = &'a Fix>) -> (Vec<Edit>, Vec<bool>) {
    let mut all: Vec<(usize, &Edit)> = Vec::new();
    let mut count = 0;
    for (k, fix) in fixes.into_iter().enumerate() {
        all.extend(fix.edits.iter().map(|e| (k, e)));
        count = k + 1;
    }
    all.sort_by_key(|(k, e)| (e.start, e.end, *k));
    // a fix is taken whole or not at all
    let mut dropped = vec![false; count];
    let mut end = None;
    for (k, e) in &all {
        if end.is_some_and(|end| e.start < end || (e.start == end && e.start == e.end)) {
            dropped[*k] = true;
        }
        end = Some(end.map_or(e.end, |x: u64| x.max(e.end)));
    }
    let kept = (all.into_iter())
        .filter(|(k, _)| !dropped[*k])
        .map(|(_, e)| e.clone())
        .collect();
    (kept, dropped.iter().map(|d| !d).collect())
}

/// `text` in `encoding` (UTF-16 with its byte order; an unmappable character, which no
/// fix writes, as a numeric character reference as encoding_rs does).
fn encoded(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    if encoding == encoding_rs::UTF_16LE {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    } else if encoding == encoding_rs::UTF_16BE {
        text.encode_utf16().flat_map(u16::to_be_bytes).collect()
    } else {
        encoding.encode(text).0.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: u64, end: u64, content: &str) -> Edit {
        Edit {
            start,
            end,
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            content: content.into(),
        }
    }

    fn fix(edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Safe,
            message: String::new(),
            edits,
        }
    }

    /// `input` with `edits` made, as `pdnkit fix` writes it.
    fn apply(
        input: &mut &[u8],
        out: &mut Vec<u8>,
        edits: &[Edit],
        encoding: &'static Encoding,
    ) -> io::Result<()> {
        let mut patcher = Patcher::new(input, out, encoding);
        for e in edits {
            patcher.edit(e)?;
        }
        patcher.finish().map(drop)
    }

    #[test]
    fn overlapping_fixes_are_left_out_whole() {
        let fixes = [
            fix(vec![edit(10, 12, "a")]),
            fix(vec![edit(0, 2, "b"), edit(11, 13, "c")]),
            fix(vec![edit(20, 20, "d")]),
            fix(vec![edit(20, 20, "e")]),
        ];
        let (kept, taken) = edits(&fixes);
        let kept: Vec<&str> = kept.iter().map(|e| e.content.as_str()).collect();
        assert_eq!(
            (kept, taken),
            (vec!["a", "d"], vec![true, false, true, false])
        );
    }

    #[test]
    fn apply_keeps_every_byte_no_edit_touches_in_the_encoding() {
        let (input, _, _) = encoding_rs::WINDOWS_1251.encode("{Москва}\r\n1. c3-d4 *\r\n");
        let at = input.iter().position(|&b| b == b'c').unwrap() as u64;
        let mut out = Vec::new();
        let edits = [edit(at + 2, at + 3, ":"), edit(at + 5, at + 5, " f6-g5")];
        apply(&mut &input[..], &mut out, &edits, encoding_rs::WINDOWS_1251).unwrap();
        let (text, _, _) = encoding_rs::WINDOWS_1251.decode(&out);
        assert_eq!(text, "{Москва}\r\n1. c3:d4 f6-g5 *\r\n");
        let mut out = Vec::new();
        let utf16: Vec<u8> = "1. c3-d4"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        apply(
            &mut &utf16[..],
            &mut out,
            &[edit(10, 12, ":")],
            encoding_rs::UTF_16LE,
        )
        .unwrap();
        assert_eq!(
            String::from_utf16_lossy(
                &out.chunks(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect::<Vec<_>>()
            ),
            "1. c3:d4"
        );
    }
}
