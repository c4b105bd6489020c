//! Streaming input: bytes from any [`Read`] to UTF-8 text in bounded chunks.
//!
//! The encoding is chosen once, from a prefix of the input: a BOM (UTF-8, UTF-16LE/BE)
//! wins; then valid UTF-8; otherwise one of the legacy encodings seen in Russian draughts
//! files (Windows-1251, IBM866, KOI8-R) or Windows-1252, picked by `chardetng` and
//! restricted to these. An override skips detection. Memory stays bounded whatever the size
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

/// How the encoding was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodingSource {
    /// Given by the caller.
    Override,
    /// A byte order mark.
    Bom,
    /// The prefix is valid UTF-8 (ASCII included).
    Utf8,
    /// Guessed among the legacy encodings.
    Detected,
}

/// What the prefix says about the input, before any decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Text(&'static Encoding, EncodingSource),
    Binary,
}

/// Decodes a byte stream to UTF-8 text chunk by chunk.
pub struct Decoder<R> {
    input: R,
    /// Bytes read (the detection prefix, then each chunk): `pending[start..end]` are not
    /// yet decoded. The vector keeps its length between reads, so that a read does not
    /// zero its chunk again (1% of `lint` on a big file).
    pending: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    decoder: encoding_rs::Decoder,
    encoding: &'static Encoding,
    source: EncodingSource,
    binary: bool,
    replacements: u64,
    finished: bool,
    /// UTF-8 input is checked and copied as it is, without `decoder`, until a malformed
    /// byte (then `decoder` takes over from that character on). encoding_rs validated and
    /// copied at two instructions a byte, 2.4% of `lint`.
    direct: bool,
    /// In the direct path, `pending[start..end]` is a character cut by the end of a read:
    /// read more before checking it again.
    cut: bool,
    /// A legacy single-byte encoding is decoded by its table, not by `decoder` (the same
    /// text, faster; and as the blocks of a file read in parallel are decoded).
    single_byte: Option<Box<SingleByte>>,
}

impl<R: Read> Decoder<R> {
    /// Reads the detection prefix and chooses the encoding (or takes `encoding`).
    pub fn new(mut input: R, encoding: Option<&'static Encoding>) -> io::Result<Decoder<R>> {
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
            Some(e) => Verdict::Text(e, EncodingSource::Override),
            None => detect(&pending, eof),
        };
        let (encoding, source, binary) = match verdict {
            Verdict::Text(e, s) => (e, s, false),
            Verdict::Binary => (UTF_8, EncodingSource::Utf8, true),
        };
        // the BOM is not text (the decoder drops it too)
        let direct = encoding == UTF_8;
        let start = if direct && pending.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
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
            source,
            binary,
            replacements: 0,
            finished: false,
            direct,
            cut: false,
            single_byte: SingleByte::new(encoding).map(Box::new),
        })
    }

    /// The encoding in use.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// How it was chosen.
    pub fn encoding_source(&self) -> EncodingSource {
        self.source
    }

    /// Whether the prefix looked binary (NUL bytes or mostly control bytes): not PDN.
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
        if self.single_byte.is_some() {
            return self.read_single_byte_into(out);
        }
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
    /// [`Decoder::read_into`] in a legacy single-byte encoding: each read decoded whole
    /// (no byte is malformed, and no character is cut).
    fn read_single_byte_into(&mut self, out: &mut String) -> io::Result<usize> {
        if self.start == self.end && !self.eof {
            if self.pending.len() < CHUNK {
                self.pending.resize(CHUNK, 0);
            }
            let got = read_some(&mut self.input, &mut self.pending[..CHUNK])?;
            (self.start, self.end) = (0, got);
            self.eof = got == 0;
        }
        let before = out.len();
        if let Some(single) = &self.single_byte {
            single.decode_into(&self.pending[self.start..self.end], out);
        }
        self.start = self.end;
        self.finished = self.eof;
        Ok(out.len() - before)
    }

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
                    let (valid, _) = bytes.split_at(e.valid_up_to());
                    // SAFETY: the check says the bytes up to `valid_up_to` are UTF-8
                    let valid = unsafe { std::str::from_utf8_unchecked(valid) };
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

/// Whether an input starting with `prefix` (its first [`DETECT_PREFIX`] bytes, or all of
/// it when `eof`) is read as UTF-8 text by a [`Decoder`] given `encoding`: by the
/// override, or by detection, and not refused as binary.
pub fn read_as_utf8(prefix: &[u8], eof: bool, encoding: Option<&'static Encoding>) -> bool {
    match encoding {
        Some(e) => e == UTF_8,
        None => {
            matches!(detect(&prefix[..prefix.len().min(DETECT_PREFIX)], eof), Verdict::Text(e, _) if e == UTF_8)
        }
    }
}

/// The encoding a [`Decoder`] reads an input starting with `prefix` in (as
/// [`read_as_utf8`] is asked), when text in it can be cut anywhere between two bytes and
/// each piece decoded apart to what the whole would decode to: UTF-8 (whose text is cut
/// at character boundaries by whoever cuts it: between lines, say), or a legacy
/// single-byte encoding that decodes every byte ([`SingleByte`]). `None` for UTF-16 and
/// binary input.
pub fn cuttable_encoding(
    prefix: &[u8],
    eof: bool,
    encoding: Option<&'static Encoding>,
) -> Option<&'static Encoding> {
    let encoding = match encoding {
        Some(e) => e,
        None => match detect(&prefix[..prefix.len().min(DETECT_PREFIX)], eof) {
            Verdict::Text(e, _) => e,
            Verdict::Binary => return None,
        },
    };
    (encoding == UTF_8 || SingleByte::new(encoding).is_some()).then_some(encoding)
}

/// A legacy single-byte encoding in which every byte decodes to a character of its own
/// (Windows-1251, KOI8-R, IBM866, Windows-1252: every legacy encoding [`Decoder`] detects):
/// bytes below 0x80 to themselves, and no byte is malformed. Text in it can be cut
/// between any two bytes and the pieces decoded apart, on different threads, to exactly
/// the text the whole decodes to; the length each piece decodes to is known without
/// decoding it ([`decoded_len`](Self::decoded_len)), so that each knows where its text
/// starts in the whole.
///
/// It decodes by its own table, made by encoding_rs: a word of eight ASCII bytes at a
/// time, else byte by byte. encoding_rs switched between its ASCII and its table loop at
/// every Cyrillic name of the tags, 6.5% of `lint -j2` on an archive in Windows-1251.
#[derive(Clone, Copy)]
pub struct SingleByte {
    encoding: &'static Encoding,
    /// The UTF-8 each byte decodes to: its bytes, then their number in the last one.
    utf8: [[u8; 4]; 256],
    /// Whether every byte from 0xC0 up decodes to two bytes of UTF-8: the letters of
    /// Windows-1251 and KOI8-R (Cyrillic) and of Windows-1252 (Latin). A word of them and
    /// ASCII is then measured by counting its high bytes, not by looking each one up.
    upper_two: bool,
}

impl SingleByte {
    /// `None` when `encoding` is not single-byte, does not keep ASCII as it is, or has a
    /// byte it does not decode (which it would replace).
    pub fn new(encoding: &'static Encoding) -> Option<SingleByte> {
        if !encoding.is_single_byte() || !encoding.is_ascii_compatible() {
            return None;
        }
        // (two calls of encoding_rs for the table, not one a byte: it is made for every
        // file, and a folder may hold thousands of small ones)
        let low: Vec<u8> = (0..0x80).collect();
        let high: Vec<u8> = (0x80..=0xff).collect();
        let (ascii, ascii_malformed) = encoding.decode_without_bom_handling(&low);
        let (text, malformed) = encoding.decode_without_bom_handling(&high);
        if ascii_malformed || malformed || ascii.as_bytes() != low || text.chars().count() != 128 {
            return None;
        }
        let mut utf8 = [[0; 4]; 256];
        for (byte, one) in (0..=0xffu8).zip(ascii.chars().chain(text.chars())) {
            // (a character of four UTF-8 bytes would not leave room for the count)
            if one.len_utf8() > 3 {
                return None;
            }
            let entry = &mut utf8[usize::from(byte)];
            entry[3] = one.encode_utf8(&mut entry[..3]).len() as u8;
        }
        let upper_two = utf8[0xc0..].iter().all(|entry| entry[3] == 2);
        Some(SingleByte {
            encoding,
            utf8,
            upper_two,
        })
    }

    /// The encoding.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// How many bytes of UTF-8 `bytes` decode to.
    pub fn decoded_len(&self, bytes: &[u8]) -> u64 {
        // one byte each, and what the high bytes take beyond it
        let beyond = |b: u8| u64::from(self.utf8[usize::from(b)][3] - 1);
        let mut extra = 0;
        // (32 bytes at a time: in PDN most are ASCII, the runs of a game's moves)
        let mut chunks = bytes.chunks_exact(32);
        for chunk in chunks.by_ref() {
            let words: [u64; 4] = std::array::from_fn(|i| {
                u64::from_ne_bytes(chunk[8 * i..8 * i + 8].try_into().expect("eight bytes"))
            });
            if (words[0] | words[1] | words[2] | words[3]) & HIGH_BITS == 0 {
                continue;
            }
            for (word, bits) in chunk.chunks_exact(8).zip(words) {
                let high = bits & HIGH_BITS;
                if high == 0 {
                    continue;
                }
                // (bytes 0x80-0xBF: bit 7 set, bit 6 clear; a byte's bit 6 shifted left
                // by one lands on its own bit 7)
                let below_c0 = high & !(bits << 1);
                extra += if self.upper_two && below_c0 == 0 {
                    // (a Cyrillic name in the tags: every letter two bytes)
                    u64::from(high.count_ones())
                } else {
                    word.iter().map(|&b| beyond(b)).sum()
                };
            }
        }
        let rest: u64 = chunks.remainder().iter().map(|&b| beyond(b)).sum();
        bytes.len() as u64 + extra + rest
    }

    /// `bytes` decoded, appended to `out`.
    pub fn decode_into(&self, bytes: &[u8], out: &mut String) {
        let mut utf8 = std::mem::take(out).into_bytes();
        utf8.reserve(bytes.len() * 2);
        let words_end = bytes.len() - bytes.len() % 8;
        let mut at = 0;
        while at < words_end {
            // a run of ASCII words copied in one piece (most of PDN)
            let run = at;
            while at < words_end && is_ascii_word(&bytes[at..at + 8]) {
                at += 8;
            }
            utf8.extend_from_slice(&bytes[run..at]);
            if at < words_end {
                // then a word with a high byte
                self.push_decoded(&bytes[at..at + 8], &mut utf8);
                at += 8;
            }
        }
        self.push_decoded(&bytes[words_end..], &mut utf8);
        // SAFETY: `out`'s text, then whole characters, each as `char::encode_utf8` wrote it
        *out = unsafe { String::from_utf8_unchecked(utf8) };
    }

    /// Up to eight bytes decoded by the table, appended to `out`: each byte's four table
    /// bytes copied whole into a buffer, and its end moved on by the byte's length, one
    /// fixed-size copy a byte (eight bytes are at most 24 of UTF-8, and the last copy
    /// ends at most 4 bytes later).
    #[inline(always)]
    fn push_decoded(&self, bytes: &[u8], out: &mut Vec<u8>) {
        let mut buf = [0u8; 28];
        let mut end = 0;
        for &b in bytes {
            let entry = &self.utf8[usize::from(b)];
            buf[end..end + 4].copy_from_slice(entry);
            end += usize::from(entry[3]);
        }
        out.extend_from_slice(&buf[..end]);
    }
}

/// Whether the eight bytes of `word` are ASCII.
#[inline(always)]
fn is_ascii_word(word: &[u8]) -> bool {
    let word = u64::from_ne_bytes(word.try_into().expect("eight bytes"));
    word & HIGH_BITS == 0
}

/// The top bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

fn detect(prefix: &[u8], eof: bool) -> Verdict {
    if let Some((enc, bom)) = Encoding::for_bom(prefix) {
        // UTF-16 text is full of NULs; after a UTF-8 BOM they still mean binary data
        if enc == UTF_8 && looks_binary(&prefix[bom..]) {
            return Verdict::Binary;
        }
        return Verdict::Text(enc, EncodingSource::Bom);
    }
    // NULs: UTF-16 without a BOM, or binary data (text without them, nearly every file,
    // is not asked about UTF-16, and its prefix is searched for a NUL once)
    if memchr::memchr(0, prefix).is_some() {
        return match utf16_without_bom(prefix) {
            Some(enc) => Verdict::Text(enc, EncodingSource::Detected),
            None => Verdict::Binary,
        };
    }
    if mostly_controls(prefix) {
        return Verdict::Binary;
    }
    // (simdutf8, as the decoder: this reads the whole of every small file)
    match simdutf8::compat::from_utf8(prefix) {
        Ok(_) => return Verdict::Text(UTF_8, EncodingSource::Utf8),
        // only a character cut by the end of the sample
        Err(e) if e.error_len().is_none() && !eof => {
            return Verdict::Text(UTF_8, EncodingSource::Utf8);
        }
        Err(_) => {}
    }
    Verdict::Text(guess_legacy(prefix, eof), EncodingSource::Detected)
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

/// NUL bytes, or more than 1 in 20 bytes being C0 controls other than whitespace and the
/// DOS end-of-file mark: not a text file.
fn looks_binary(prefix: &[u8]) -> bool {
    memchr::memchr(0, prefix).is_some() || mostly_controls(prefix)
}

/// More than 1 in 20 bytes being C0 controls other than whitespace and the DOS
/// end-of-file mark (asked of text already known to have no NUL).
fn mostly_controls(prefix: &[u8]) -> bool {
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
fn guess_legacy(prefix: &[u8], eof: bool) -> &'static Encoding {
    // (only the words with a byte above ASCII tell: see `words_beyond_ascii`)
    let prefix = &words_beyond_ascii(prefix);
    let guess = chardetng_guess(prefix, eof);
    if guess == WINDOWS_1251 || guess == IBM866 || guess == KOI8_R {
        return guess;
    }
    if guess == KOI8_U {
        return KOI8_R;
    }
    let cyrillic_guess = matches!(guess.name(), "ISO-8859-5" | "x-mac-cyrillic");
    let best = [WINDOWS_1251, KOI8_R, IBM866]
        .into_iter()
        .max_by_key(|e| cyrillic_score(prefix, e))
        .expect("non-empty");
    if cyrillic_guess || (guess != WINDOWS_1252 && cyrillic_score(prefix, best) > 0) {
        best
    } else {
        WINDOWS_1252
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
/// chardetng reads every byte, at 30-40 MB/s, but a pair of ASCII bytes never counts for
/// or against an encoding (its documentation says so): the pairs with a byte above ASCII
/// are all kept, and the words joined meet blank to blank. Nor does [`cyrillic_score`]
/// count ASCII. A PDN file's bytes above ASCII are in a few tag values and comments: a
/// folder of small files in Windows-1251 was read 8.5 times slower than the same files
/// in UTF-8, the guess taking 86% of the time (1.6 times now). A test compares the
/// guesses from the words and from the whole on 10,000 texts in ten encodings.
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
        let mut rng = crate::generate::SplitMix64::new(8);
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

    fn decode_all(
        bytes: &[u8],
        enc: Option<&'static Encoding>,
    ) -> (String, &'static Encoding, EncodingSource) {
        let mut d = Decoder::new(bytes, enc).unwrap();
        let mut s = String::new();
        while d.read_into(&mut s).unwrap() > 0 {}
        (s, d.encoding(), d.encoding_source())
    }

    const RUSSIAN: &str = "[Event \"Чемпионат СССР\"]\n[White \"Абациев В.\"]\n[Black \"Гантварг Анатолий\"]\n[Site \"Москва, Ленинград\"]\n1. c3-d4 f6-g5 *\n";

    #[test]
    fn legacy_cyrillic_encodings_are_detected() {
        for enc in [WINDOWS_1251, IBM866, KOI8_R] {
            let (bytes, _, _) = enc.encode(RUSSIAN);
            let (text, used, source) = decode_all(&bytes, None);
            assert_eq!(used, enc, "{}", enc.name());
            assert_eq!(source, EncodingSource::Detected);
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
        let mut rng = crate::generate::SplitMix64::new(77);
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
        let (text, used, _) = decode_all(&bytes, None);
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
        for bytes in [le, be] {
            let (text, _, source) = decode_all(&bytes, None);
            assert_eq!((text.as_str(), source), (RUSSIAN, EncodingSource::Bom));
        }
        let mut utf8 = b"\xef\xbb\xbf".to_vec();
        utf8.extend(RUSSIAN.as_bytes());
        assert_eq!(decode_all(&utf8, None).0, RUSSIAN);
        assert_eq!(decode_all(RUSSIAN.as_bytes(), None).2, EncodingSource::Utf8);
    }

    #[test]
    fn utf16_without_bom_is_detected_and_binary_data_is_not_taken_for_it() {
        let game = format!("{RUSSIAN}[Event \"x\"]\n1. c3-d4 f6-g5 2. g3-f4 g7-f6 *\n");
        for text in [game.as_str(), "[Event \"x\"]\n1. c3-d4 *\n"] {
            let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
            for (bytes, enc) in [(le, UTF_16LE), (be, UTF_16BE)] {
                let (decoded, used, source) = decode_all(&bytes, None);
                assert_eq!((decoded.as_str(), used), (text, enc));
                assert_eq!(source, EncodingSource::Detected);
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
        let (text, used, source) = decode_all(&bytes, Some(IBM866));
        assert_eq!(
            (text.as_str(), used, source),
            (RUSSIAN, IBM866, EncodingSource::Override)
        );
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
        let (text, _, _) = decode_all(big.as_bytes(), None);
        assert_eq!(text, big);
    }

    /// Gives at most `most` bytes a read, as a pipe may.
    struct Trickle<'a> {
        bytes: &'a [u8],
        rng: crate::generate::SplitMix64,
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
        let mut rng = crate::generate::SplitMix64::new(21);
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
                    rng: crate::generate::SplitMix64::new(round),
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
    fn legacy_text_cut_anywhere_decodes_to_the_whole_and_its_length_is_known() {
        use super::{SingleByte, cuttable_encoding};
        use encoding_rs::{IBM866, KOI8_R, UTF_16LE, WINDOWS_1251, WINDOWS_1252};
        // every byte, in random order and runs (ASCII runs longer than a word too), and
        // words of letters (bytes from 0xC0 up, the Cyrillic of Windows-1251 and KOI8-R)
        // beside ASCII and beside other high bytes
        let mut rng = crate::generate::SplitMix64::new(31);
        let mut bytes = Vec::new();
        while bytes.len() < 40_000 {
            match rng.below(6) {
                0 | 1 => bytes.extend(b"1. c3-d4 f6-e5 2. b2-c3 "),
                2 => {
                    bytes.extend(b"[White \"");
                    for _ in 0..rng.below(20) {
                        bytes.push(0xc0 + rng.below(64) as u8);
                    }
                    bytes.extend(b", ");
                }
                _ => {}
            }
            bytes.push(rng.below(256) as u8);
        }
        for encoding in [WINDOWS_1251, KOI8_R, IBM866, WINDOWS_1252] {
            let single = SingleByte::new(encoding).expect("every byte decodes");
            let (whole, malformed) = encoding.decode_without_bom_handling(&bytes);
            assert!(!malformed);
            for _ in 0..50 {
                let cut = rng.below(bytes.len() as u64 + 1) as usize;
                let (a, b) = bytes.split_at(cut);
                let mut text = String::new();
                single.decode_into(a, &mut text);
                assert_eq!(
                    single.decoded_len(a),
                    text.len() as u64,
                    "{}",
                    encoding.name()
                );
                single.decode_into(b, &mut text);
                assert_eq!(text, whole, "{} cut at {cut}", encoding.name());
            }
            let prefix = "[Event \"Кубок\"]\n".repeat(20);
            let (prefix, _, _) = encoding.encode(&prefix);
            if encoding != WINDOWS_1252 {
                assert_eq!(cuttable_encoding(&prefix, true, None), Some(encoding));
            }
            assert_eq!(
                cuttable_encoding(b"[Event \"x\"]", true, Some(encoding)),
                Some(encoding)
            );
        }
        // the decoder reads such files by the same table, in reads of any size, a UTF-8
        // BOM's bytes (no BOM of these encodings) as text
        let mut bom_first = b"\xef\xbb\xbf".to_vec();
        bom_first.extend(&bytes);
        for encoding in [WINDOWS_1251, KOI8_R, IBM866, WINDOWS_1252] {
            let (whole, _) = encoding.decode_without_bom_handling(&bom_first);
            for most in [3, 700, 70_000] {
                let input = Trickle {
                    bytes: &bom_first,
                    rng: crate::generate::SplitMix64::new(most),
                    most,
                };
                let mut d = super::Decoder::new(input, Some(encoding)).unwrap();
                let mut got = String::new();
                while d.read_into(&mut got).unwrap() > 0 {}
                assert!(got == whole, "{}, reads of at most {most}", encoding.name());
                assert_eq!(d.replacements(), 0);
            }
        }
        // UTF-8 is cut by its lines; UTF-16 and binary input are not cut
        assert_eq!(
            cuttable_encoding(b"[Event \"x\"]\n", true, None),
            Some(encoding_rs::UTF_8)
        );
        assert!(
            SingleByte::new(UTF_16LE).is_none() && SingleByte::new(encoding_rs::UTF_8).is_none()
        );
        assert_eq!(cuttable_encoding(b"\xff\xfe[\0E\0", true, None), None);
        assert_eq!(
            cuttable_encoding(&[0u8, 1, 2, 3, 0, 0, 9, 0, 1, 2], true, None),
            None
        );
    }
}
