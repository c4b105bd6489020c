//! JSON written by hand, byte for byte as serde_json writes it, where serde's way costs
//! too much for what is written: a diagnostic line of `lint --format jsonl` (one per game
//! in most real files, whose games lack a tag), a game of `convert --to jsonl`. Each
//! writer is held to the serde version of its output by a test.

/// Appends `s` as a JSON string, escaped as serde_json escapes it: `"` and `\`, and the
/// control characters below U+0020 (`\b \t \n \f \r` by name, the rest as `\u00XX`);
/// everything else as it is.
pub(crate) fn push_string(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    // (nearly every string needs no escape: copied whole, its last bytes tested as a
    // word too, where a byte loop took a tenth of a diagnostic's line)
    let clean = clean_prefix(bytes);
    if clean == bytes.len() {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut plain = 0;
    for (i, &b) in bytes.iter().enumerate().skip(clean) {
        let named = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\t' => b't',
            b'\r' => b'r',
            0x08 => b'b',
            0x0c => b'f',
            0x00..=0x1f => 0,
            _ => continue,
        };
        out.extend_from_slice(&bytes[plain..i]);
        plain = i + 1;
        if named != 0 {
            out.extend_from_slice(&[b'\\', named]);
        } else {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let code = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ];
            out.extend_from_slice(&code);
        }
    }
    out.extend_from_slice(&bytes[plain..]);
    out.push(b'"');
}

/// How many first bytes of `b` are known to need no escape (no byte below 0x20, `"` or
/// `\`), tested eight at a time: all of them when none does. A string shorter than a word
/// is tested padded with spaces, a longer one's last bytes in a last word overlapping the
/// one before (whose bytes passed, so what fails it comes after the words that passed).
#[inline]
fn clean_prefix(b: &[u8]) -> usize {
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"));
    if b.len() < 8 {
        let mut padded = [b' '; 8];
        padded[..b.len()].copy_from_slice(b);
        return if needs_escape(u64::from_le_bytes(padded)) {
            0
        } else {
            b.len()
        };
    }
    let mut clean = 0;
    while clean + 8 <= b.len() {
        if needs_escape(word(clean)) {
            return clean;
        }
        clean += 8;
    }
    if needs_escape(word(b.len() - 8)) {
        clean
    } else {
        b.len()
    }
}

/// Whether one of the eight bytes of `word` is below 0x20, `"` or `\` (the bit tricks
/// for "some byte is zero" and "some byte is less than": exact for whether any is).
#[inline(always)]
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let below_space = word.wrapping_sub(0x20 * ONES) & !word & HIGH != 0;
    below_space
        || has_zero(word ^ (u64::from(b'"') * ONES))
        || has_zero(word ^ (u64::from(b'\\') * ONES))
}

/// Appends an integer as JSON writes it.
#[inline]
pub(crate) fn push_number(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends an integer, or `null`.
#[inline]
pub(crate) fn push_optional_number(out: &mut Vec<u8>, n: Option<impl itoa::Integer>) {
    match n {
        Some(n) => push_number(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        // every character below U+0080, among others, in random strings
        let mut rng = crate::generate::SplitMix64::new(12);
        let pieces = [
            "a", "Ж", "€", "𝄞", "\u{7f}", "\u{2028}", "/", " ", "abcdefgh",
        ];
        for round in 0..5_000 {
            let mut s = String::new();
            for _ in 0..rng.below(30) {
                if rng.below(3) == 0 {
                    s.push_str("0123456789"); // (runs long enough for the word test)
                }
                if rng.below(2) == 0 {
                    s.push(char::from(rng.below(0x80) as u8));
                } else {
                    s.push_str(pieces[rng.below(pieces.len() as u64) as usize]);
                }
            }
            let mut ours = Vec::new();
            push_string(&mut ours, &s);
            assert_eq!(
                ours,
                serde_json::to_vec(&s).unwrap(),
                "round {round}: {s:?}"
            );
        }
        let mut numbers = Vec::new();
        push_optional_number(&mut numbers, Some(u64::MAX));
        push_optional_number(&mut numbers, None::<u32>);
        push_number(&mut numbers, 0usize);
        assert_eq!(numbers, b"18446744073709551615null0");
    }
}
