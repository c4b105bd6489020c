//! Streaming input: bytes from any [`Read`] to UTF-8 text in bounded chunks.
//!
//! The encoding is chosen once, from a prefix of the input: a BOM (UTF-8, UTF-16LE/BE)
//! wins; then UTF-8, when the prefix is UTF-8 but for a few stray bytes (each replaced by
//! U+FFFD, which the reader reports); otherwise one of the legacy encodings seen in
//! Russian draughts files (Windows-1251, IBM866, KOI8-R) or Windows-1252, picked by
//! `chardetng` and restricted to these, with how sure the guess is ([`Guess`]). An input
//! is binary, not text, only when it is dense with NUL or control bytes. An override skips detection. Memory stays bounded whatever the size
//! of the input: the prefix is at most [`DETECT_PREFIX`] bytes and each read is
//! [`CHUNK`] bytes. encoding_rs decodes; UTF-8 input is only checked (by `simdutf8`) and
//! taken as it is, until a malformed byte hands it to encoding_rs too.

use std::io::{self, Read};

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{
    Encoding, IBM866, KOI8_R, KOI8_U, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252,
};

/// How many bytes are examined to choose the encoding.
pub const DETECT_PREFIX: usize = 256 * 1024;
/// How many bytes are read and decoded at a time.
pub const CHUNK: usize = 64 * 1024;

/// A legacy encoding guessed from the text (there is no BOM and it is not UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The encoding chosen.
    pub encoding: &'static Encoding,
    /// The characters beyond ASCII the guess was made from.
    pub letters: usize,
    /// Whether the text tells its encoding clearly: enough such characters, and the
    /// choice well ahead of the other candidates.
    pub sure: bool,
}

impl Guess {
    /// The guess in words, for a diagnostic.
    pub fn describe(&self) -> String {
        let how = if self.sure {
            "a clear guess"
        } else {
            "an uncertain guess: if names look wrong, give --encoding"
        };
        format!(
            "no byte order mark and not UTF-8: read as {}, guessed from {} character{} beyond ASCII ({how})",
            self.encoding.name(),
            self.letters,
            if self.letters == 1 { "" } else { "s" }
        )
    }
}

impl Guess {
    /// The problem that reports the guess, at the start of the input: `encoding-guessed`,
    /// or `encoding-uncertain` when the guess is not sure.
    pub fn read_error(&self) -> super::ReadError {
        super::ReadError::At {
            kind: if self.sure {
                super::SyntaxErrorKind::EncodingGuessed
            } else {
                super::SyntaxErrorKind::EncodingUncertain
            },
            game_index: None,
            line: 1,
            column: 1,
            message: self.describe(),
        }
    }
}

/// What the prefix says about the input, before any decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Text(&'static Encoding),
    Guessed(Guess),
    Binary,
}

impl Verdict {
    /// The encoding of a text verdict.
    fn encoding(self) -> Option<&'static Encoding> {
        match self {
            Verdict::Text(e) => Some(e),
            Verdict::Guessed(g) => Some(g.encoding),
            Verdict::Binary => None,
        }
    }
}

/// Decodes a byte stream to UTF-8 text chunk by chunk.
pub struct Decoder<R> {
    input: R,
    /// Bytes read (the detection prefix, then each chunk): `pending[start..end]` are not
    /// yet decoded. The vector keeps its length between reads, so that a read does not
    /// zero its chunk again.
    pending: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    decoder: encoding_rs::Decoder,
    encoding: &'static Encoding,
    guess: Option<Guess>,
    binary: bool,
    replacements: u64,
    finished: bool,
    /// UTF-8 input is checked and copied as it is, without `decoder`, until a malformed
    /// byte (then `decoder` takes over from that character on): simdutf8 validates
    /// faster than encoding_rs decodes.
    direct: bool,
    /// In the direct path, `pending[start..end]` is a character cut by the end of a read:
    /// read more before checking it again.
    cut: bool,
    /// The bytes of the byte order mark dropped at the start of the input.
    bom: usize,
}

impl<R: Read> Decoder<R> {
    /// Reads the detection prefix and chooses the encoding (or takes `encoding`).
    pub fn new(input: R, encoding: Option<&'static Encoding>) -> io::Result<Decoder<R>> {
        Decoder::with_options(input, encoding, false)
    }

    /// [`Decoder::new`], and with `text` the input is text whatever its bytes (never
    /// binary).
    pub fn with_options(
        mut input: R,
        encoding: Option<&'static Encoding>,
        text: bool,
    ) -> io::Result<Decoder<R>> {
        let mut pending = Vec::with_capacity(CHUNK);
        // with an override a small first read is enough; detection wants a real sample
        let want = if encoding.is_some() {
            CHUNK
        } else {
            DETECT_PREFIX
        };
        // Read up to `want` bytes, or to the end: `read_to_end` grows the buffer as the
        // bytes come, where zero-filling `want` bytes first cost more than reading a small
        // file (most files of a collection are a few kilobytes).
        let got = input.by_ref().take(want as u64).read_to_end(&mut pending)?;
        let eof = got < want;
        let verdict = match encoding {
            Some(e) => Verdict::Text(e),
            None => detect(&pending, eof, text),
        };
        let (encoding, guess, binary) = match verdict {
            Verdict::Text(e) => (e, None, false),
            Verdict::Guessed(g) => (g.encoding, Some(g), false),
            Verdict::Binary => (UTF_8, None, true),
        };
        // the BOM is not text (the decoder drops it too)
        let direct = encoding == UTF_8;
        let start = if direct && pending.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        // (the decoder drops a byte order mark of its own encoding only)
        let bom = match Encoding::for_bom(&pending) {
            Some((e, n)) if e == encoding && !binary => n,
            _ => 0,
        };
        Ok(Decoder {
            input,
            start,
            end: pending.len(),
            pending,
            eof,
            // the BOM is dropped by the decoder: it is not text
            decoder: encoding.new_decoder_with_bom_removal(),
            encoding,
            guess,
            binary,
            replacements: 0,
            finished: false,
            direct,
            cut: false,
            bom,
        })
    }

    /// The bytes of the byte order mark dropped at the start of the input (0 without one).
    pub fn bom_len(&self) -> usize {
        self.bom
    }

    /// The encoding in use.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The guess of a legacy encoding, when the encoding was guessed.
    pub fn guess(&self) -> Option<Guess> {
        self.guess
    }

    /// Whether the prefix looked binary (dense with NUL or control bytes): not PDN.
    pub fn is_binary(&self) -> bool {
        self.binary
    }

    /// The input read from.
    pub fn into_inner(self) -> R {
        self.input
    }

    /// How many decode calls so far replaced malformed bytes with U+FFFD.
    pub fn replacements(&self) -> u64 {
        self.replacements
    }

    /// Appends the next decoded chunk to `out`; returns the number of bytes appended,
    /// 0 at the end of the input.
    pub fn read_into(&mut self, out: &mut String) -> io::Result<usize> {
        if self.direct {
            let n = self.read_utf8_into(out)?;
            if n > 0 || self.finished {
                return Ok(n);
            }
        }
        loop {
            if self.finished {
                return Ok(0);
            }
            if self.start == self.end && !self.eof {
                if self.pending.len() < CHUNK {
                    self.pending.resize(CHUNK, 0);
                }
                let got = read_some(&mut self.input, &mut self.pending[..CHUNK])?;
                (self.start, self.end) = (0, got);
                if got == 0 {
                    self.eof = true;
                }
            }
            let last = self.eof;
            let before = out.len();
            let pending = &self.pending[self.start..self.end];
            let need = self
                .decoder
                .max_utf8_buffer_length(pending.len())
                .unwrap_or(pending.len() * 3 + 16);
            out.reserve(need);
            let (_, read, replaced) = self.decoder.decode_to_string(pending, out, last);
            if replaced {
                self.replacements += 1;
            }
            self.start += read;
            if last && self.start == self.end {
                self.finished = true;
            }
            let n = out.len() - before;
            if n > 0 || self.finished {
                return Ok(n);
            }
        }
    }
}

impl<R: Read> Decoder<R> {
    /// [`Decoder::read_into`] for UTF-8 input while it is valid: each read is checked and
    /// appended whole, but for a character it cuts, which waits for the next read. At a
    /// malformed byte (or a character cut by the end of the input) the valid text before
    /// it is appended and `decoder`, fresh, goes on from there: at a character boundary
    /// its state is a fresh one, so it replaces exactly what it would have replaced
    /// decoding everything. Returns 0 without `finished` when `decoder` is to go on.
    fn read_utf8_into(&mut self, out: &mut String) -> io::Result<usize> {
        loop {
            if self.finished {
                return Ok(0);
            }
            if (self.start == self.end || self.cut) && !self.eof {
                // the cut character (at most three bytes) goes before the next read
                let left = self.end - self.start;
                self.pending.copy_within(self.start..self.end, 0);
                if self.pending.len() < left + CHUNK {
                    self.pending.resize(left + CHUNK, 0);
                }
                let got = read_some(&mut self.input, &mut self.pending[left..left + CHUNK])?;
                (self.start, self.end) = (0, left + got);
                if got == 0 {
                    self.eof = true;
                }
            }
            let bytes = &self.pending[self.start..self.end];
            // (valid text, whether the rest is malformed)
            let (valid, malformed) = match simdutf8::compat::from_utf8(bytes) {
                Ok(text) => {
                    self.cut = false;
                    (text, false)
                }
                Err(e) => {
                    // (the bytes up to `valid_up_to` are UTF-8: read again, on this rare
                    // path, rather than trusted)
                    let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
                    self.cut = e.error_len().is_none() && !self.eof;
                    (valid, !self.cut)
                }
            };
            out.push_str(valid);
            self.start += valid.len();
            if malformed {
                // encoding_rs decodes (and replaces) from here on
                self.direct = false;
                self.cut = false;
                self.decoder = UTF_8.new_decoder_without_bom_handling();
                return Ok(valid.len());
            }
            if self.eof && self.start == self.end {
                self.finished = true;
            }
            if !valid.is_empty() || self.finished {
                return Ok(valid.len());
            }
        }
    }
}

/// Reads into `buf` (some bytes, as [`Read::read`]), retrying on interruption.
fn read_some<R: Read>(input: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// The guess a [`Decoder`] makes of an input starting with `prefix` (its first
/// [`DETECT_PREFIX`] bytes, or all of it when `eof`), when it guesses a legacy encoding.
pub fn guess(prefix: &[u8], eof: bool) -> Option<Guess> {
    match detect(&prefix[..prefix.len().min(DETECT_PREFIX)], eof, true) {
        Verdict::Guessed(g) => Some(g),
        _ => None,
    }
}

/// The encoding a [`Decoder`] reads an input starting with `prefix` in (as [`guess`] is
/// asked), when text in it can be cut anywhere between two bytes and
/// each piece decoded apart to what the whole would decode to: UTF-8 (whose text is cut
/// at character boundaries by whoever cuts it: between lines, say), or a legacy
/// single-byte encoding that decodes every byte. `None` for UTF-16 and
/// binary input (with `text`, no input is binary).
pub fn cuttable_encoding(
    prefix: &[u8],
    eof: bool,
    encoding: Option<&'static Encoding>,
    text: bool,
) -> Option<&'static Encoding> {
    let encoding = match encoding {
        Some(e) => e,
        None => detect(&prefix[..prefix.len().min(DETECT_PREFIX)], eof, text).encoding()?,
    };
    (encoding == UTF_8 || decodes_every_byte(encoding)).then_some(encoding)
}

/// Whether `encoding` is a legacy single-byte encoding in which every byte decodes to a
/// character of its own (Windows-1251, KOI8-R, IBM866, Windows-1252: every legacy
/// encoding [`Decoder`] detects), ASCII as it is: text in it can be cut between any two
/// bytes and the pieces decoded apart to exactly the text the whole decodes to.
fn decodes_every_byte(encoding: &'static Encoding) -> bool {
    let high: Vec<u8> = (0x80..=0xff).collect();
    encoding.is_single_byte()
        && encoding.is_ascii_compatible()
        && !encoding.decode_without_bom_handling(&high).1
}

/// The verdict on an input starting with `prefix` (all of it when `eof`); with `text`,
/// never binary.
fn detect(prefix: &[u8], eof: bool, text: bool) -> Verdict {
    if let Some((enc, bom)) = Encoding::for_bom(prefix) {
        // UTF-16 text is full of NULs; after a UTF-8 BOM they still mean binary data
        if enc == UTF_8 && !text && looks_binary(&prefix[bom..]) {
            return Verdict::Binary;
        }
        return Verdict::Text(enc);
    }
    // NULs: UTF-16 without a BOM, binary data, or a few stray NULs in text (text without
    // them, nearly every file, is not asked about UTF-16)
    if memchr::memchr(0, prefix).is_some() {
        if let Some(enc) = utf16_without_bom(prefix) {
            return Verdict::Text(enc);
        }
    }
    if !text && looks_binary(prefix) {
        return Verdict::Binary;
    }
    // (simdutf8, as the decoder: this reads the whole of every small file)
    match simdutf8::compat::from_utf8(prefix) {
        Ok(_) => return Verdict::Text(UTF_8),
        // only a character cut by the end of the sample
        Err(e) if e.error_len().is_none() && !eof => {
            return Verdict::Text(UTF_8);
        }
        Err(_) if mostly_utf8(prefix) => return Verdict::Text(UTF_8),
        Err(_) => {}
    }
    Verdict::Guessed(guess_legacy(prefix, eof))
}

/// Whether `prefix`, which is not valid UTF-8, is UTF-8 text with a few stray bytes: its
/// characters beyond ASCII are mostly well-formed UTF-8 sequences. Text in a legacy
/// encoding hardly ever is: in Windows-1251 and KOI8-R a letter is a lead byte of UTF-8
/// but is seldom followed by a continuation byte, so nearly every letter is malformed.
fn mostly_utf8(prefix: &[u8]) -> bool {
    let (mut valid, mut invalid) = (0usize, 0usize);
    for chunk in prefix.utf8_chunks() {
        valid += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    // (the last sequence may be a character cut by the end of the sample: not counted)
    if prefix
        .utf8_chunks()
        .last()
        .is_some_and(|c| !c.invalid().is_empty())
    {
        invalid -= 1;
    }
    valid > 0 && valid >= 4 * invalid
}

/// UTF-16 without a byte order mark, told by its NULs: PDN is mostly ASCII, so at least
/// half of the high bytes of its code units are NUL (all of them in ASCII text, fewer
/// where Cyrillic names are), and hardly any low byte is (binary data with many NULs has
/// them in both); and its ASCII units are text, not mostly control codes (as a table of
/// small 16-bit numbers would be).
fn utf16_without_bom(prefix: &[u8]) -> Option<&'static Encoding> {
    let units = prefix.len() / 2;
    if units < 16 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for unit in prefix.chunks_exact(2) {
        even += usize::from(unit[0] == 0);
        odd += usize::from(unit[1] == 0);
    }
    let little = odd > even;
    let (high, low) = if little { (odd, even) } else { (even, odd) };
    if high * 2 < units || low * 100 > units {
        return None;
    }
    let ascii: Vec<u8> = prefix
        .chunks_exact(2)
        .filter_map(|unit| {
            let (lo, hi) = if little {
                (unit[0], unit[1])
            } else {
                (unit[1], unit[0])
            };
            (hi == 0 && lo != 0).then_some(lo)
        })
        .collect();
    (!looks_binary(&ascii)).then_some(if little { UTF_16LE } else { UTF_16BE })
}

/// More than 1 in 20 bytes being NUL or other C0 controls but whitespace and the DOS
/// end-of-file mark: not a text file. (A few stray NULs in a text leave it text: its
/// games are read, and the game that holds them reports them.)
fn looks_binary(prefix: &[u8]) -> bool {
    // (without branches, so that the compiler counts sixteen bytes at a time: this reads
    // the whole of every small file)
    let count = |control: fn(u8) -> bool| -> usize {
        prefix
            .chunks(255)
            .map(|c| usize::from(c.iter().map(|&b| u8::from(control(b))).sum::<u8>()))
            .sum()
    };
    // Text has few bytes below a space at all (its line breaks and tabs): when they are
    // few, so are the control codes among them, and those need not be told apart.
    if count(|b| b < 0x20) * 20 <= prefix.len() {
        return false;
    }
    let control =
        |b: u8| (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r') & (b != 0x0c) & (b != 0x1a);
    count(control) * 20 > prefix.len()
}

/// Chooses among Windows-1251, IBM866, KOI8-R and Windows-1252.
///
/// chardetng knows many more encodings; what it answers is mapped back to our candidates:
/// its Cyrillic answers (or any answer when the bytes look Cyrillic in some candidate) go
/// to a letter-frequency score among the three Cyrillic encodings, the rest to
/// Windows-1252, the usual Latin code page of old Western draughts software.
fn guess_legacy(prefix: &[u8], eof: bool) -> Guess {
    // (only the words with a byte above ASCII tell: see `words_beyond_ascii`)
    let prefix = &words_beyond_ascii(prefix);
    let letters = prefix.iter().filter(|&&b| b >= 0x80).count();
    let guess = chardetng_guess(prefix, eof);
    let mut scores = [WINDOWS_1251, KOI8_R, IBM866].map(|e| (cyrillic_score(prefix, e), e));
    scores.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    let [(best_score, best), (second, _), _] = scores;
    // sure: a dozen characters, a Cyrillic choice well ahead of the next (between
    // Windows-1251 and KOI8-R, which swap the cases, by about the share of lower case),
    // and its letters the likeliest in Russian text by far (the case alone misleads on
    // text mostly in capitals: KOI8-R `СССР` is Windows-1251 `ууут`)
    let likeliest = |chosen: &'static Encoding| {
        let mine = letter_likelihood(prefix, chosen);
        [WINDOWS_1251, KOI8_R, IBM866]
            .into_iter()
            .filter(|&e| e != chosen)
            .all(|e| mine >= 1.25 * letter_likelihood(prefix, e))
    };
    let clear = |chosen| {
        letters >= 12 && best_score - second >= (letters as i64 / 5).max(4) && likeliest(chosen)
    };
    let guessed = |encoding: &'static Encoding, sure: bool| Guess {
        encoding,
        letters,
        sure,
    };
    if guess == WINDOWS_1251 || guess == IBM866 || guess == KOI8_R {
        return guessed(guess, guess == best && clear(guess));
    }
    if guess == KOI8_U {
        return guessed(KOI8_R, best == KOI8_R && clear(KOI8_R));
    }
    let cyrillic_guess = matches!(guess.name(), "ISO-8859-5" | "x-mac-cyrillic");
    if cyrillic_guess || (guess != WINDOWS_1252 && best_score > 0) {
        guessed(best, clear(best))
    } else {
        guessed(WINDOWS_1252, letters >= 12 && best_score <= 0)
    }
}

/// chardetng's guess for `bytes` (the whole input when `eof`), UTF-8 and ISO-2022-JP
/// left out.
fn chardetng_guess(bytes: &[u8], eof: bool) -> &'static Encoding {
    let mut det = EncodingDetector::new(Iso2022JpDetection::Deny);
    det.feed(bytes, eof);
    det.guess(None, Utf8Detection::Deny)
}

/// The words of `bytes` that hold a byte above ASCII, each with the space or line feed
/// before and after it, in order: what the guess of a legacy encoding is made from.
/// chardetng reads every byte, slowly, but a pair of ASCII bytes never counts for
/// or against an encoding (its documentation says so): the pairs with a byte above ASCII
/// are all kept, and the words joined meet blank to blank. Nor does [`cyrillic_score`]
/// count ASCII. A PDN file's bytes above ASCII are in a few tag values and comments, so
/// this is a small part of the prefix. A test compares the guesses from the words and
/// from the whole on 10,000 texts in ten encodings.
fn words_beyond_ascii(bytes: &[u8]) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut at = 0;
    while let Some(found) = bytes[at..].iter().position(|&b| b >= 0x80) {
        let high = at + found;
        // from the blank before the word, through the blank after it
        let start = bytes[at..high]
            .iter()
            .rposition(|&b| b == b' ' || b == b'\n')
            .map_or(at, |k| at + k);
        let end = bytes[high..]
            .iter()
            .position(|&b| b == b' ' || b == b'\n')
            .map_or(bytes.len(), |k| high + k + 1);
        kept.extend_from_slice(&bytes[start..end]);
        at = end;
    }
    kept
}

/// How likely the Cyrillic letters of `prefix` read in `enc` are in Russian text: the mean
/// frequency of each (in letters per thousand, case aside); 0 without letters.
fn letter_likelihood(prefix: &[u8], enc: &'static Encoding) -> f64 {
    // а б в г д е ж з и й к л м н о п р с т у ф х ц ч ш щ ъ ы ь э ю я
    const PER_MILLE: [f64; 32] = [
        80.0, 16.0, 45.0, 17.0, 30.0, 85.0, 9.0, 16.0, 74.0, 12.0, 35.0, 44.0, 32.0, 67.0, 110.0,
        28.0, 47.0, 55.0, 63.0, 26.0, 3.0, 10.0, 5.0, 14.0, 7.0, 4.0, 0.4, 19.0, 17.0, 3.0, 6.0,
        20.0,
    ];
    let (text, _) = enc.decode_without_bom_handling(prefix);
    let (mut sum, mut n) = (0.0, 0usize);
    for c in text.chars().flat_map(char::to_lowercase) {
        let k = match c {
            'ё' => 5,
            'а'..='я' => c as usize - 'а' as usize,
            _ => continue,
        };
        sum += PER_MILLE[k];
        n += 1;
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// Lower-case Cyrillic letters count double (running text is mostly lower case, which is
/// what tells Windows-1251 from KOI8-R), upper case once; box drawing and other non-letters
/// above ASCII (what CP866 or a wrong guess produces) count against.
fn cyrillic_score(prefix: &[u8], enc: &'static Encoding) -> i64 {
    let (text, _) = enc.decode_without_bom_handling(prefix);
    let mut score = 0i64;
    for c in text.chars().filter(|c| !c.is_ascii()) {
        score += match c {
            'а'..='я' | 'ё' => 2,
            'А'..='Я' | 'Ё' => 1,
            _ => -2,
        };
    }
    score
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_control_count_is_the_plain_count() {
        // random prefixes of every length up to 2,000 bytes, from text to noise, around the
        // 1-in-20 threshold: the same verdict as counting one byte at a time (half of them
        // full of the low bytes text may have, half with as few as text has, where the
        // count of all low bytes decides)
        let mut rng = pdnkit_gen::SplitMix64::new(8);
        let mut binary = 0;
        for len in 1..2000usize {
            let noise = rng.below(12);
            let text: &[u8] = if len % 2 == 0 {
                b"c3-d4 \t\n\r\x0c\x1a\xd0\x90"
            } else {
                b"1. c3-d4 f6:h4 {a b} 2. 22-18\r\n"
            };
            let prefix: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.below(100) < noise {
                        rng.below(0x20) as u8
                    } else {
                        *rng.pick(text)
                    }
                })
                .filter(|&b| b != 0)
                .collect();
            let plain = prefix
                .iter()
                .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))
                .count();
            assert_eq!(
                super::looks_binary(&prefix),
                plain * 20 > prefix.len(),
                "{prefix:?}"
            );
            binary += usize::from(super::looks_binary(&prefix));
        }
        assert!(binary > 100 && binary < 1900, "{binary}");
    }

    use super::*;

    fn decode_all(bytes: &[u8], enc: Option<&'static Encoding>) -> (String, &'static Encoding) {
        let mut d = Decoder::new(bytes, enc).unwrap();
        let mut s = String::new();
        while d.read_into(&mut s).unwrap() > 0 {}
        (s, d.encoding())
    }

    const RUSSIAN: &str = "[Event \"Чемпионат СССР\"]\n[White \"Абациев В.\"]\n[Black \"Гантварг Анатолий\"]\n[Site \"Москва, Ленинград\"]\n1. c3-d4 f6-g5 *\n";

    #[test]
    fn legacy_cyrillic_encodings_are_detected() {
        for enc in [WINDOWS_1251, IBM866, KOI8_R] {
            let (bytes, _, _) = enc.encode(RUSSIAN);
            let (text, used) = decode_all(&bytes, None);
            assert_eq!(used, enc, "{}", enc.name());
            assert_eq!(text, RUSSIAN);
        }
    }

    #[test]
    fn the_words_beyond_ascii_give_the_guess_of_the_whole() {
        use super::{chardetng_guess, guess_legacy, words_beyond_ascii};
        // texts of ASCII lines and lines with words in one of the legacy encodings (and
        // others chardetng knows) among ASCII ones, cut anywhere, with or without their
        // end: chardetng guesses alike from the whole and from the words that have bytes
        // above ASCII (joining them without their blanks fails this)
        let mut rng = pdnkit_gen::SplitMix64::new(77);
        let words = [
            "Кубок",
            "Москвы",
            "Козлова",
            "Ольга",
            "ничья",
            "ход",
            "ЁЛКА",
            "ёж",
            "Gérard",
            "Müller",
            "Besançon",
            "Łódź",
            "Ελλάδα",
            "שלום",
            "Ağaç",
            "€",
            "—",
            "№",
            "«x»",
            "Ivan",
            "Kuznetsov",
            "a1",
            "(1963)",
            "{",
            "\t",
            "x\"",
            "Ab",
        ];
        let encodings = [
            WINDOWS_1251,
            IBM866,
            KOI8_R,
            WINDOWS_1252,
            encoding_rs::WINDOWS_1250,
            encoding_rs::ISO_8859_5,
            encoding_rs::WINDOWS_1253,
            encoding_rs::WINDOWS_1255,
            encoding_rs::WINDOWS_1254,
            encoding_rs::X_MAC_CYRILLIC,
        ];
        let ascii = [
            "1. c3-d4 f6-g5 2. g3-f4 *",
            "[Round \"3\"]",
            "",
            "{a note} 12. 22-18",
            "x\ty",
        ];
        let (mut same_guesses, mut seen) = (0, std::collections::HashSet::new());
        for round in 0..5_000 {
            let encoding = encodings[rng.below(encodings.len() as u64) as usize];
            let mut text = String::new();
            for _ in 0..1 + rng.below(40) {
                if rng.below(3) == 0 {
                    text.push_str("[White \"");
                    for _ in 0..1 + rng.below(4) {
                        text.push_str(words[rng.below(words.len() as u64) as usize]);
                        text.push(if rng.below(4) == 0 { ',' } else { ' ' });
                    }
                    text.push_str("\"]");
                } else {
                    text.push_str(ascii[rng.below(ascii.len() as u64) as usize]);
                }
                text.push_str(if rng.below(8) == 0 { "\r\n" } else { "\n" });
            }
            let (bytes, _, _) = encoding.encode(&text);
            let cut = rng.below(bytes.len() as u64 + 1) as usize;
            let bytes = &bytes[..cut];
            for eof in [false, true] {
                let whole = chardetng_guess(bytes, eof);
                let lines = chardetng_guess(&words_beyond_ascii(bytes), eof);
                assert_eq!(
                    whole.name(),
                    lines.name(),
                    "round {round} ({}, eof {eof})",
                    encoding.name()
                );
                seen.insert(whole.name());
                same_guesses += 1;
            }
            // (and the choice among our candidates made of it)
            let _ = guess_legacy(bytes, true);
        }
        assert_eq!(same_guesses, 10_000);
        assert!(seen.len() >= 6, "{seen:?}");
    }

    #[test]
    fn latin_falls_back_to_windows_1252() {
        let s = "[White \"Gérard Müller\"]\n[Site \"Besançon\"]\n1. 32-28 *\n";
        let (bytes, _, _) = WINDOWS_1252.encode(s);
        let (text, used) = decode_all(&bytes, None);
        assert_eq!(used, WINDOWS_1252);
        assert_eq!(text, s);
    }

    #[test]
    fn boms_and_utf16() {
        let mut le = vec![0xff, 0xfe];
        let mut be = vec![0xfe, 0xff];
        for u in RUSSIAN.encode_utf16() {
            le.extend(u.to_le_bytes());
            be.extend(u.to_be_bytes());
        }
        for (bytes, enc) in [(le, UTF_16LE), (be, UTF_16BE)] {
            assert_eq!(decode_all(&bytes, None), (RUSSIAN.to_string(), enc));
        }
        let mut utf8 = b"\xef\xbb\xbf".to_vec();
        utf8.extend(RUSSIAN.as_bytes());
        assert_eq!(decode_all(&utf8, None), (RUSSIAN.to_string(), UTF_8));
        assert_eq!(decode_all(RUSSIAN.as_bytes(), None).1, UTF_8);
    }

    #[test]
    fn utf16_without_bom_is_detected_and_binary_data_is_not_taken_for_it() {
        let game = format!("{RUSSIAN}[Event \"x\"]\n1. c3-d4 f6-g5 2. g3-f4 g7-f6 *\n");
        for text in [game.as_str(), "[Event \"x\"]\n1. c3-d4 *\n"] {
            let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
            for (bytes, enc) in [(le, UTF_16LE), (be, UTF_16BE)] {
                let (decoded, used) = decode_all(&bytes, None);
                assert_eq!((decoded.as_str(), used), (text, enc));
            }
        }
        // 16-bit numbers (high bytes NUL, low bytes control codes), NULs on both sides
        let numbers: Vec<u8> = (0..4000u16)
            .flat_map(|n| (n % 31 + 1).to_le_bytes())
            .collect();
        let sparse: Vec<u8> = (0..4000u32).flat_map(|n| n.to_le_bytes()).collect();
        for bytes in [numbers, sparse] {
            assert!(Decoder::new(&bytes[..], None).unwrap().is_binary());
        }
    }

    #[test]
    fn override_and_binary() {
        let (bytes, _, _) = IBM866.encode(RUSSIAN);
        let (text, used) = decode_all(&bytes, Some(IBM866));
        assert_eq!((text.as_str(), used), (RUSSIAN, IBM866));
        assert!(
            Decoder::new(&b"PK\x03\x04\x00\x00binary"[..], None)
                .unwrap()
                .is_binary()
        );
        assert!(!Decoder::new(&b""[..], None).unwrap().is_binary());
    }

    #[test]
    fn large_input_is_read_in_chunks() {
        let game = "[Event \"x\"]\n1. c3-d4 f6-g5 *\n";
        let big = game.repeat(3 * DETECT_PREFIX / game.len());
        let (text, _) = decode_all(big.as_bytes(), None);
        assert_eq!(text, big);
    }

    /// Gives at most `most` bytes a read, as a pipe may.
    struct Trickle<'a> {
        bytes: &'a [u8],
        rng: pdnkit_gen::SplitMix64,
        most: u64,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = (1 + self.rng.below(self.most) as usize)
                .min(buf.len())
                .min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn utf8_read_in_any_pieces_decodes_as_encoding_rs_does() {
        // characters of one to four bytes, cut anywhere by the reads, and now and then a
        // malformed byte, a cut sequence or a BOM: the text and whether something was
        // replaced are those of decoding everything at once
        let mut rng = pdnkit_gen::SplitMix64::new(21);
        let pieces: [&[u8]; 12] = [
            b"c3-d4 ",
            "Ж".as_bytes(),
            "ё".as_bytes(),
            "€".as_bytes(),
            "𝄞".as_bytes(),
            b"\n",
            b"\xef\xbb\xbf",
            b"\xff",
            b"\xd0",
            b"\xe2\x82",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
        ];
        for round in 0..60 {
            let malformed = round % 3 != 0;
            let len = 70_000 + rng.below(300_000) as usize;
            let mut bytes = Vec::with_capacity(len + 4);
            if round % 5 == 0 {
                bytes.extend(b"\xef\xbb\xbf");
            }
            while bytes.len() < len {
                let piece = pieces[rng.below(if malformed { 12 } else { 7 }) as usize];
                // the malformed ones rarely, so that long valid runs come between
                if piece[0] >= 0xc0 && piece.len() < 4 && piece[0] != 0xef && rng.below(500) != 0
                    || piece == b"\xff" && rng.below(500) != 0
                {
                    continue;
                }
                bytes.extend(piece);
            }
            if round % 4 == 1 {
                bytes.extend(b"\xf0\x9d"); // a character cut by the end of the input
            }
            let (want, _, replaced) = UTF_8.decode(&bytes);
            for most in [3, 700, 70_000] {
                let input = Trickle {
                    bytes: &bytes,
                    rng: pdnkit_gen::SplitMix64::new(round),
                    most,
                };
                let mut d = Decoder::new(input, Some(UTF_8)).unwrap();
                let mut got = String::new();
                while d.read_into(&mut got).unwrap() > 0 {}
                assert!(got == want, "round {round}, reads of at most {most}");
                assert_eq!(d.replacements() > 0, replaced, "round {round}");
            }
        }
    }

    #[test]
    fn invalid_utf8_after_the_prefix_is_replaced_and_counted() {
        let mut bytes = "a".repeat(DETECT_PREFIX + 10).into_bytes();
        bytes.push(0xff);
        let mut d = Decoder::new(&bytes[..], None).unwrap();
        let mut s = String::new();
        while d.read_into(&mut s).unwrap() > 0 {}
        assert!(s.ends_with('\u{fffd}'));
        assert_eq!(d.replacements(), 1);
    }

    #[test]
    fn legacy_encodings_can_be_cut_and_utf16_cannot() {
        use super::cuttable_encoding;
        use encoding_rs::{IBM866, KOI8_R, UTF_16LE, WINDOWS_1251, WINDOWS_1252};
        for encoding in [UTF_8, WINDOWS_1251, KOI8_R, IBM866, WINDOWS_1252] {
            assert_eq!(
                cuttable_encoding(b"", true, Some(encoding), false),
                Some(encoding)
            );
        }
        assert_eq!(cuttable_encoding(b"", true, Some(UTF_16LE), false), None);
        // detected: binary data cannot be cut either
        assert_eq!(
            cuttable_encoding(b"[Event \"x\"]\n", true, None, false),
            Some(UTF_8)
        );
        assert_eq!(
            cuttable_encoding(b"\0\0\0\0\x01\x02", true, None, false),
            None
        );
    }
}
