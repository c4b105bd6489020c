//! Column chunks encoded here rather than by the Arrow writer, for `moves`, the table of
//! a row per ply (most of a dataset's rows): the writer hashes every value of a
//! dictionary column and copies every value through Arrow builders, and for this table
//! that is most of what a dataset costs. Here each value is written once into the page
//! it goes to, in the encoding that suits it, known in advance:
//!
//! - squares and sides as indices into a fixed dictionary (the Russian board's 32 square
//!   names first, then those of larger boards; `white` and `black`): a dictionary page,
//!   then the indices bit-packed (5 bits a square on a page of Russian moves);
//! - integers `DELTA_BINARY_PACKED` (a game's id repeats, plies count up: a bit or two a
//!   value);
//! - moves as text in a dictionary of the chunk's moves (a few thousand in a row group
//!   of a million), else `DELTA_LENGTH_BYTE_ARRAY` (the lengths delta-encoded, then the
//!   bytes); booleans bit-packed;
//! - the levels of a list (the captured squares) bit-packed.
//!
//! Pages are version 1 data pages, compressed with zstd, and the chunks are appended to
//! the file's row group with their metadata (and statistics of the columns asked for).
//! Every reader of Parquet reads these encodings (they are the ones Spark writes).

use std::cell::RefCell;
use std::io;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

/// The zstd level of the pages: one of zstd's fast levels (the file says only "zstd",
/// which is read at any level). The pages are mostly moves as text, compressed at about
/// twice the speed of level 1 for a tenth more bytes.
const ZSTD_LEVEL: i32 = -3;

/// A column chunk being written: its data pages, one after another, and what its
/// metadata says of them. Its dictionary, if any, is written before them when the chunk
/// is appended to its row group (a dictionary of text grows as pages are made).
pub struct Chunk {
    descr: ColumnDescPtr,
    /// The data pages.
    out: TrackedWrite<Vec<u8>>,
    compressed: i64,
    uncompressed: i64,
    values: i64,
    rows: u64,
    encodings: Vec<Encoding>,
    /// The least and greatest value, for a column with statistics.
    min_max: Option<(i64, i64)>,
    /// The dictionary's values (`PLAIN`) and how many.
    pub dictionary: Vec<u8>,
    pub dictionary_len: u32,
}

impl Chunk {
    /// A chunk of the column `descr`, with `dictionary` (its values) if given.
    pub fn new(descr: ColumnDescPtr, dictionary: Option<&[&str]>) -> Chunk {
        let mut plain = Vec::new();
        for v in dictionary.unwrap_or_default() {
            push_plain(&mut plain, v.as_bytes());
        }
        Chunk {
            descr,
            out: TrackedWrite::new(Vec::new()),
            compressed: 0,
            uncompressed: 0,
            values: 0,
            rows: 0,
            encodings: Vec::new(),
            min_max: None,
            dictionary: plain,
            dictionary_len: dictionary.map_or(0, |d| d.len() as u32),
        }
    }

    /// The rows of the chunk's data pages so far (of a column without levels: its values).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Bytes the chunk holds.
    pub fn held(&self) -> usize {
        self.out.bytes_written() + self.dictionary.capacity()
    }

    /// Notes values of a column with statistics.
    pub fn see(&mut self, min: i64, max: i64) {
        self.min_max = Some(match self.min_max {
            Some((a, b)) => (a.min(min), b.max(max)),
            None => (min, max),
        });
    }

    /// Writes a data page of `num_values` values (levels counted) whose body is `body`
    /// (levels and values, uncompressed), its values encoded as `encoding`.
    pub fn page(&mut self, body: &[u8], num_values: usize, encoding: Encoding) -> io::Result<()> {
        let page = Page::DataPage {
            buf: Bytes::from(compress(body)?),
            num_values: num_values as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let (compressed, uncompressed) = write_page(&mut self.out, page, body.len())?;
        self.compressed += compressed;
        self.uncompressed += uncompressed;
        if !self.encodings.contains(&encoding) {
            self.encodings.push(encoding);
        }
        self.values += num_values as i64;
        self.rows += num_values as u64;
        Ok(())
    }

    /// Appends the chunk (`rows` rows) to `row_group`, its dictionary first, and empties
    /// it for the next (a dictionary given at the start is kept).
    pub fn append_to<W: io::Write + Send>(
        &mut self,
        row_group: &mut SerializedRowGroupWriter<'_, W>,
        rows: u64,
    ) -> io::Result<()> {
        let mut out = TrackedWrite::new(Vec::new());
        let (mut compressed, mut uncompressed) = (self.compressed, self.uncompressed);
        let mut encodings = self.encodings.clone();
        let dictionary_page_offset = if self.encodings.contains(&Encoding::RLE_DICTIONARY) {
            let page = Page::DictionaryPage {
                buf: Bytes::from(compress(&self.dictionary)?),
                num_values: self.dictionary_len,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            };
            let (c, u) = write_page(&mut out, page, self.dictionary.len())?;
            compressed += c;
            uncompressed += u;
            encodings.push(Encoding::PLAIN);
            Some(0)
        } else {
            None
        };
        if !encodings.contains(&Encoding::RLE) {
            // (the levels' encoding, whether or not there are levels, as Arrow's writer says)
            encodings.push(Encoding::RLE);
        }
        let data_page_offset = out.bytes_written() as i64;
        let pages = std::mem::replace(&mut self.out, TrackedWrite::new(Vec::new()));
        io::Write::write_all(&mut out, &pages.into_inner().map_err(io::Error::other)?)?;
        let mut builder = ColumnChunkMetaData::builder(self.descr.clone())
            // (the level is not written in the file; Parquet's names go from 1)
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_encodings(encodings)
            .set_total_compressed_size(compressed)
            .set_total_uncompressed_size(uncompressed)
            .set_num_values(self.values)
            .set_data_page_offset(data_page_offset)
            .set_dictionary_page_offset(dictionary_page_offset);
        if let Some((min, max)) = self.min_max {
            builder = builder.set_statistics(match self.descr.physical_type() {
                parquet::basic::Type::INT32 => {
                    Statistics::int32(Some(min as i32), Some(max as i32), None, Some(0), false)
                }
                _ => Statistics::int64(Some(min), Some(max), None, Some(0), false),
            });
        }
        let metadata = builder.build().map_err(io::Error::other)?;
        let bytes = out.bytes_written() as u64;
        let data = Bytes::from(out.into_inner().map_err(io::Error::other)?);
        let close = ColumnCloseResult {
            bytes_written: bytes,
            rows_written: rows,
            metadata,
            bloom_filter: None,
            column_index: None,
            offset_index: None,
        };
        row_group
            .append_column(&data, close)
            .map_err(io::Error::other)?;
        self.compressed = 0;
        self.uncompressed = 0;
        self.values = 0;
        self.rows = 0;
        self.encodings.clear();
        self.min_max = None;
        Ok(())
    }
}

/// Writes a page (its body compressed) to `out`; its compressed and uncompressed size,
/// header included.
fn write_page(
    out: &mut TrackedWrite<Vec<u8>>,
    page: Page,
    uncompressed: usize,
) -> io::Result<(i64, i64)> {
    let spec = SerializedPageWriter::new(out)
        .write_page(CompressedPage::new(page, uncompressed))
        .map_err(io::Error::other)?;
    Ok((spec.compressed_size as i64, spec.uncompressed_size as i64))
}

/// A dictionary of short texts (a chunk's moves): each text's index, found by the text
/// packed into an integer. Texts longer than [`TextDictionary::MAX_TEXT`] bytes, or more
/// than [`TextDictionary::MAX_LEN`] texts, do not fit: a page with such a text is written
/// plainly.
#[derive(Default)]
pub struct TextDictionary {
    index: foldhash::HashMap<u128, u32>,
}

impl TextDictionary {
    pub const MAX_TEXT: usize = 15;
    pub const MAX_LEN: usize = 1 << 16;

    /// The index of each of `texts` (one after another, each `lengths` long) in `chunk`'s
    /// dictionary, texts not there added, into `indices`; `false` (and the dictionary as
    /// it was) when some text does not fit.
    pub fn indices(
        &mut self,
        chunk: &mut Chunk,
        texts: &[u8],
        lengths: &[i64],
        indices: &mut Vec<u32>,
    ) -> bool {
        indices.clear();
        let (before, before_len) = (chunk.dictionary.len(), chunk.dictionary_len);
        let mut start = 0;
        for &len in lengths {
            let text = &texts[start..start + len as usize];
            start += len as usize;
            if text.len() > Self::MAX_TEXT || self.index.len() >= Self::MAX_LEN {
                // (undo what this page added)
                self.index.retain(|_, &mut i| i < before_len);
                chunk.dictionary.truncate(before);
                chunk.dictionary_len = before_len;
                return false;
            }
            let mut key = [0u8; 16];
            key[..text.len()].copy_from_slice(text);
            key[15] = text.len() as u8;
            let next = self.index.len() as u32;
            let i = *self
                .index
                .entry(u128::from_le_bytes(key))
                .or_insert_with(|| {
                    push_plain(&mut chunk.dictionary, text);
                    chunk.dictionary_len += 1;
                    next
                });
            indices.push(i);
        }
        true
    }

    /// Empties the dictionary (for the next chunk).
    pub fn clear(&mut self) {
        self.index = Default::default();
    }

    /// About the bytes the dictionary holds.
    pub fn held(&self) -> usize {
        self.index.capacity() * 24
    }
}

thread_local! {
    /// The compressor of the pages written on this thread (one for every table and
    /// partition: it holds its tables between pages).
    static COMPRESSOR: RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { RefCell::new(None) };
}

/// `body` compressed at the level of the pages.
fn compress(body: &[u8]) -> io::Result<Vec<u8>> {
    COMPRESSOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        let mut zstd = match slot.take() {
            Some(zstd) => zstd,
            None => zstd::bulk::Compressor::new(ZSTD_LEVEL)?,
        };
        let compressed = zstd.compress(body);
        *slot = Some(zstd);
        compressed
    })
}

/// Appends a `PLAIN` byte array: its length (4 bytes, little-endian), its bytes.
pub fn push_plain(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// Appends `n` as ULEB128.
fn push_uleb(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends `n` zigzag-encoded as ULEB128.
fn push_zigzag(out: &mut Vec<u8>, n: i64) {
    push_uleb(out, ((n << 1) ^ (n >> 63)) as u64);
}

/// Appends `values` bit-packed at `width` bits each, least significant bit first, padded
/// with zeros to `count` values (at least `values.len()`), in whole bytes.
fn push_bits(out: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u32, count: usize) {
    let mut buffer: u128 = 0;
    let mut bits = 0;
    let mut written = 0;
    for v in values {
        buffer |= u128::from(v) << bits;
        bits += width;
        written += 1;
        while bits >= 8 {
            out.push(buffer as u8);
            buffer >>= 8;
            bits -= 8;
        }
    }
    bits += width * (count.saturating_sub(written)) as u32;
    while bits > 0 {
        out.push(buffer as u8);
        buffer >>= 8;
        bits = bits.saturating_sub(8);
    }
}

/// The bits needed for `n`.
fn width_of(n: u64) -> u32 {
    64 - n.leading_zeros()
}

/// Appends `values` (each below `1 << width`) in the RLE / bit-packing hybrid encoding,
/// as bit-packed runs of at most 63 groups of 8 (what every reader takes).
pub fn push_hybrid<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    for run in values.chunks(63 * 8) {
        let groups = run.len().div_ceil(8);
        push_uleb(out, ((groups as u64) << 1) | 1);
        push_bits(out, run.iter().map(|&v| v.into()), width, groups * 8);
    }
}

/// Appends levels (of a data page version 1): their length in 4 bytes, then the hybrid
/// encoding at `width`.
pub fn push_levels(out: &mut Vec<u8>, levels: &[u8], width: u32) {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    push_hybrid(out, levels, width);
    let len = (out.len() - start - 4) as u32;
    out[start..start + 4].copy_from_slice(&len.to_le_bytes());
}

/// Appends dictionary indices: the bit width in a byte, then the hybrid encoding.
pub fn push_indices<T: Copy + Into<u64>>(out: &mut Vec<u8>, indices: &[T], width: u32) {
    out.push(width as u8);
    push_hybrid(out, indices, width);
}

/// The bits of indices into a dictionary of `len` values.
pub fn index_width(len: u32) -> u32 {
    width_of(u64::from(len.saturating_sub(1)))
}

/// Appends booleans `PLAIN`: bit-packed, a bit each.
pub fn push_booleans(out: &mut Vec<u8>, values: &[bool]) {
    push_bits(out, values.iter().map(|&b| u64::from(b)), 1, values.len());
}

/// Appends `values` `DELTA_BINARY_PACKED`: blocks of 128 deltas, in 4 miniblocks of 32
/// bit-packed at the width each needs above the block's least delta.
pub fn push_delta(out: &mut Vec<u8>, values: &[i64]) {
    const BLOCK: usize = 128;
    const MINIBLOCKS: usize = 4;
    const MINIBLOCK: usize = BLOCK / MINIBLOCKS;
    push_uleb(out, BLOCK as u64);
    push_uleb(out, MINIBLOCKS as u64);
    push_uleb(out, values.len() as u64);
    push_zigzag(out, values.first().copied().unwrap_or(0));
    let deltas: Vec<i64> = values.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    for block in deltas.chunks(BLOCK) {
        let min = block.iter().copied().min().unwrap_or(0);
        push_zigzag(out, min);
        let mut widths = [0u32; MINIBLOCKS];
        for (i, mini) in block.chunks(MINIBLOCK).enumerate() {
            let max = mini.iter().map(|&d| d.wrapping_sub(min) as u64).max();
            widths[i] = width_of(max.unwrap_or(0));
        }
        out.extend(widths.iter().map(|&w| w as u8));
        for (i, mini) in block.chunks(MINIBLOCK).enumerate() {
            let values = mini.iter().map(|&d| d.wrapping_sub(min) as u64);
            push_bits(out, values, widths[i], MINIBLOCK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_packed_least_significant_first_and_padded() {
        let mut out = Vec::new();
        push_bits(&mut out, [1u64, 2, 3].into_iter(), 3, 8);
        // 001 010 011 then five zeros: 0b11_010_001, 0b0000000_0, 0
        assert_eq!(out, [0b1101_0001, 0b0000_0000, 0]);
        out.clear();
        push_booleans(
            &mut out,
            &[true, false, true, true, false, false, false, false, true],
        );
        assert_eq!(out, [0b0000_1101, 0b0000_0001]);
    }

    #[test]
    fn hybrid_runs_are_bit_packed_groups_of_eight() {
        let mut out = Vec::new();
        push_hybrid(&mut out, &[1u8, 0, 1], 1);
        assert_eq!(out, [0b11, 0b101]);
        let mut long = Vec::new();
        push_hybrid(&mut long, &[1u8; 600], 1);
        // 63 groups, then 12 (504 + 96 values)
        assert_eq!(long[0], (63 << 1) | 1);
        assert_eq!(long[64], (12 << 1) | 1);
        assert_eq!(long.len(), 2 + 63 + 12);
    }

    #[test]
    fn delta_encoding_of_a_run() {
        let mut out = Vec::new();
        push_delta(&mut out, &[7, 8, 9, 10]);
        // header 128, 4, 4 values, first 7 (zigzag 14); min delta 1 (zigzag 2); widths 0
        assert_eq!(out, [0x80, 0x01, 4, 4, 14, 2, 0, 0, 0, 0]);
    }
}
