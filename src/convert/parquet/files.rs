//! A table's Parquet files: one file, or with partitions a folder per partition value
//! (`games/year=1950/part-0.parquet`, Hive's layout, which Spark, DuckDB and Polars read
//! as partitions), written as rows come, a row group at a time.
//!
//! Rows are appended to a partition's builders; every [`BATCH_ROWS`] rows they go to its
//! Parquet writer as a batch, which encodes and compresses them into the row group in
//! progress. What the builders and the writers hold is kept to a table's budget: over it,
//! the partition holding most ends its row group (written out to its file). A partition's
//! file is opened when its first batch is written, so that values seen a few rows at a
//! time gather in memory first; at most [`MAX_OPEN`] files are open, and to open another
//! the one used least recently is closed: its value's next rows go to its next part
//! (`part-1.parquet`, …). All of it depends only on the rows, so the same input gives the
//! same files.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::DataType;
use parquet::arrow::{ArrowSchemaConverter, ArrowWriter, add_encoded_arrow_schema_to_metadata};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use super::tables::{Rows, Table};
use super::{SCHEMA_KEY, SCHEMA_VERSION};

/// Rows put into a batch at a time.
pub const BATCH_ROWS: usize = 16384;

/// Bytes of a partition's builders that make a batch, however few rows they hold.
const BATCH_BYTES: usize = 4 << 20;

/// Rows of a row group, at most (the engines read a file's row groups in parallel).
const ROW_GROUP_ROWS: usize = 1 << 20;

/// Files open at once of a table, at most (four tables: far below the 1,024 files a
/// process may commonly open).
pub const MAX_OPEN: usize = 128;

/// What a part holds however few its rows (its builders, empty), and what its file adds
/// when it has one open (its buffer, its writer), counted in the table's budget, which
/// thus bounds the number of parts in memory.
const PART_BYTES: usize = 4 << 10;
const FILE_BYTES: usize = FILE_BUFFER + (16 << 10);

/// Row groups of a partition's file, at most: the next go to its next file. A file holds
/// its row groups' metadata until it is closed, and the row groups of many partitions
/// held to one budget are small.
const MAX_GROUPS: usize = 16;

/// The buffer of a file being written.
const FILE_BUFFER: usize = 32 << 10;

/// The folder name of a partition whose value is null or empty, as Hive and Spark write
/// it (DuckDB and Spark read it as null).
pub const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// The Parquet writer of a table's file: Arrow's, or the file writer itself for a table
/// whose column chunks are encoded here ([`super::encode`]).
pub enum Writer {
    Arrow(ArrowWriter<BufWriter<File>>),
    Chunks(SerializedFileWriter<BufWriter<File>>),
}

impl Writer {
    /// A writer of table `table`'s Arrow batches to `file`.
    pub fn arrow(file: BufWriter<File>, table: Table) -> io::Result<Writer> {
        let writer = ArrowWriter::try_new(file, table.schema(), Some(properties(table)))
            .map_err(io::Error::other)?;
        Ok(Writer::Arrow(writer))
    }

    /// A writer of table `table`'s column chunks to `file`: the Parquet schema Arrow's
    /// writer would make of its Arrow schema, which is in the metadata as Arrow's writer
    /// puts it (so that Arrow readers read the same types).
    pub fn chunks(file: BufWriter<File>, table: Table) -> io::Result<Writer> {
        let descr = ArrowSchemaConverter::new()
            .convert(&table.schema())
            .map_err(io::Error::other)?;
        let mut properties = properties(table);
        add_encoded_arrow_schema_to_metadata(&table.schema(), &mut properties);
        let writer = SerializedFileWriter::new(file, descr.root_schema_ptr(), Arc::new(properties))
            .map_err(io::Error::other)?;
        Ok(Writer::Chunks(writer))
    }

    /// The file, completed with its footer.
    fn finish(self) -> io::Result<BufWriter<File>> {
        match self {
            Writer::Arrow(w) => w.into_inner(),
            Writer::Chunks(w) => w.into_inner(),
        }
        .map_err(io::Error::other)
    }
}

/// A partition value's rows being written: its builders, and its file once it has one.
struct Part<R> {
    /// The partition value (empty without partitions).
    value: String,
    rows: R,
    /// Bytes appended to the builders since the last batch (as the appender counts them).
    bytes: usize,
    /// The file, opened when the first batch is written.
    writer: Option<Writer>,
    /// Rows in the row group in progress.
    group_rows: usize,
    /// Row groups written to the file.
    groups: usize,
    /// What the writer holds of the row group in progress.
    writer_bytes: usize,
    /// When the part was last appended to (for closing the one used least recently).
    used: u64,
}

/// The files of one table.
pub struct TableFiles<R: Rows> {
    /// The dataset's folder.
    root: PathBuf,
    /// The partition key (`year`, `event`, `gametype`), if partitioned.
    key: Option<&'static str>,
    /// The parts in memory.
    parts: Vec<Part<R>>,
    /// The index in `parts` of each value's part.
    index: HashMap<String, usize>,
    /// The parts that have a file open.
    files_open: usize,
    /// The parts of each folder (its name in lower case) written so far: the next part's
    /// number.
    written: HashMap<String, u32>,
    /// What the parts hold, and its limit.
    held: usize,
    budget: usize,
    clock: u64,
    /// Makes a new part's rows.
    make: Box<dyn Fn() -> R + Send>,
    /// Held in memory instead of written: the batches made ([`TableFiles::in_memory`]).
    batches: Option<Vec<RecordBatch>>,
}

impl<R: Rows> TableFiles<R> {
    /// The files of table `R` under `root`, partitioned by `key` if given, holding at most
    /// about `budget` bytes in memory; `make` makes a part's empty rows.
    pub fn new(
        root: &Path,
        key: Option<&'static str>,
        budget: usize,
        make: impl Fn() -> R + Send + 'static,
    ) -> TableFiles<R> {
        TableFiles {
            make: Box::new(make),
            root: root.to_path_buf(),
            key,
            parts: Vec::new(),
            index: HashMap::new(),
            files_open: 0,
            written: HashMap::new(),
            held: 0,
            budget,
            clock: 0,
            batches: None,
        }
    }

    /// The table's rows held in memory as Arrow record batches, a batch every
    /// [`BATCH_ROWS`] rows, instead of written to files (without partitions).
    pub fn in_memory(make: impl Fn() -> R + Send + 'static) -> TableFiles<R> {
        TableFiles {
            batches: Some(Vec::new()),
            ..TableFiles::new(Path::new(""), None, usize::MAX, make)
        }
    }

    /// The batches of a table held in memory ([`TableFiles::in_memory`]), the rows still
    /// in the builders made the last one; none for a table written to files.
    pub fn into_batches(mut self) -> io::Result<Vec<RecordBatch>> {
        if self.batches.is_none() {
            return Ok(Vec::new());
        }
        while !self.parts.is_empty() {
            self.close_part(self.parts.len() - 1)?;
        }
        Ok(self.batches.unwrap_or_default())
    }

    /// Appends rows to the partition `value` (ignored without partitions; `None` is the
    /// null partition): `append` appends them and says about how many bytes they hold.
    pub fn append(
        &mut self,
        value: Option<&str>,
        append: impl FnOnce(&mut R) -> usize,
    ) -> io::Result<()> {
        let value = match (self.key, value) {
            (None, _) => "",
            (Some(_), Some(v)) if !v.is_empty() => v,
            (Some(_), _) => NULL_PARTITION,
        };
        let k = match self.index.get(value) {
            Some(&k) => k,
            None => self.new_part(value),
        };
        self.clock += 1;
        let part = &mut self.parts[k];
        part.used = self.clock;
        let bytes = append(&mut part.rows);
        part.bytes += bytes;
        self.held += bytes;
        if part.rows.len() >= BATCH_ROWS || part.bytes >= BATCH_BYTES {
            self.flush(k, false)?;
        }
        while self.held > self.budget {
            // (the part holding most rows, in its builders or its row group in progress,
            // ends its row group; when none holds any, what is held is the parts' own,
            // and the one used least recently goes)
            let held = |p: &Part<R>| p.bytes + p.writer_bytes;
            let rows = (0..self.parts.len())
                .filter(|&k| self.parts[k].bytes > 0 || self.parts[k].group_rows > 0)
                .max_by_key(|&k| (held(&self.parts[k]), k));
            match rows {
                Some(k) => self.flush(k, true)?,
                None => match (0..self.parts.len()).min_by_key(|&k| self.parts[k].used) {
                    Some(lru) => self.close_part(lru)?,
                    None => break,
                },
            }
        }
        Ok(())
    }

    /// A new part of `value`, without a file yet; its index in `parts`.
    fn new_part(&mut self, value: &str) -> usize {
        self.parts.push(Part {
            value: value.to_string(),
            rows: (self.make)(),
            bytes: 0,
            writer: None,
            group_rows: 0,
            groups: 0,
            writer_bytes: 0,
            used: self.clock,
        });
        self.held += PART_BYTES;
        self.index.insert(value.to_string(), self.parts.len() - 1);
        self.parts.len() - 1
    }

    /// [`Self::write_batch`], then closes a partition's file that holds [`MAX_GROUPS`]
    /// row groups (a file keeps the metadata of its row groups until it is closed).
    fn flush(&mut self, k: usize, end_group: bool) -> io::Result<()> {
        let k = self.write_batch(k, end_group)?;
        if self.key.is_some() && self.parts[k].groups >= MAX_GROUPS {
            self.close_part(k)?;
        }
        Ok(())
    }

    /// Writes the builders of part `k` to its file as a batch (opening the file if it has
    /// none), and with `end_group` ends its row group; the part's index after (closing
    /// another part to open the file moves the last one).
    fn write_batch(&mut self, k: usize, end_group: bool) -> io::Result<usize> {
        if let Some(batches) = &mut self.batches {
            let part = &mut self.parts[k];
            if !part.rows.is_empty() {
                let columns = part.rows.columns();
                // (the rows make exactly the schema's types)
                let batch =
                    RecordBatch::try_new(R::TABLE.schema(), columns).map_err(io::Error::other)?;
                batches.push(batch);
            }
            self.held -= part.bytes;
            part.bytes = 0;
            return Ok(k);
        }
        let k = self.file_of(k)?;
        let part = &mut self.parts[k];
        let Some(writer) = part.writer.as_mut() else {
            return Err(io::Error::other("a part without its file"));
        };
        part.group_rows += part.rows.len();
        if !part.rows.is_empty() {
            part.rows.encode(writer)?;
        }
        if (end_group || part.group_rows >= ROW_GROUP_ROWS) && part.group_rows > 0 {
            part.rows.end_group(writer)?;
            part.group_rows = 0;
            part.groups += 1;
        }
        let now = part.rows.held(writer);
        self.held = self.held - (part.bytes + part.writer_bytes) + now;
        part.bytes = 0;
        part.writer_bytes = now;
        Ok(k)
    }

    /// Opens the next file of part `k`'s value if it has none, first closing the part
    /// used least recently that has one when [`MAX_OPEN`] are open; the part's index after.
    fn file_of(&mut self, mut k: usize) -> io::Result<usize> {
        if self.parts[k].writer.is_some() {
            return Ok(k);
        }
        if self.files_open >= MAX_OPEN {
            let lru = (0..self.parts.len())
                .filter(|&j| self.parts[j].writer.is_some())
                .min_by_key(|&j| self.parts[j].used);
            if let Some(lru) = lru {
                let last = self.parts.len() - 1;
                self.close_part(lru)?;
                if k == last {
                    k = lru;
                }
            }
        }
        let value = &self.parts[k].value;
        let folder = self.key.map(|key| partition_folder(key, value));
        // (parts are numbered by folder, in any case: values cut to the same name, or
        // that differ only in case on a file system that ignores it, share a folder and
        // never a file)
        let folded = folder.as_deref().unwrap_or_default().to_lowercase();
        let number = self.written.entry(folded).or_insert(0);
        let path = match &folder {
            None => self.root.join(format!("{}.parquet", R::TABLE.name())),
            Some(folder) => {
                let dir = self.root.join(R::TABLE.name()).join(folder);
                std::fs::create_dir_all(&dir)?;
                dir.join(format!("part-{number}.parquet"))
            }
        };
        *number += 1;
        let file = BufWriter::with_capacity(FILE_BUFFER, File::create(&path)?);
        self.parts[k].writer = Some(R::writer(file)?);
        self.files_open += 1;
        self.held += FILE_BYTES;
        Ok(k)
    }

    /// Writes what part `k` holds, closes its file and forgets it (the value's next rows
    /// make a new part, and go to its next file).
    fn close_part(&mut self, k: usize) -> io::Result<()> {
        let part = &self.parts[k];
        let k = match part.writer.is_some() || !part.rows.is_empty() {
            true => self.write_batch(k, true)?,
            false => k,
        };
        let part = self.parts.swap_remove(k);
        self.held -= part.bytes + part.writer_bytes + PART_BYTES;
        self.index.remove(&part.value);
        if k < self.parts.len() {
            self.index.insert(self.parts[k].value.clone(), k);
        }
        let Some(writer) = part.writer else {
            return Ok(());
        };
        self.files_open -= 1;
        self.held -= FILE_BYTES;
        let mut file = writer.finish()?;
        io::Write::flush(&mut file)?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()
    }

    /// Writes what is held and closes every file. A table with no rows still gets one
    /// file (in the null partition when partitioned), so that the dataset can be read.
    pub fn finish(mut self) -> io::Result<()> {
        if self.parts.is_empty() && self.written.is_empty() {
            let value = if self.key.is_some() {
                NULL_PARTITION
            } else {
                ""
            };
            let k = self.new_part(value);
            self.file_of(k)?;
        }
        while !self.parts.is_empty() {
            self.close_part(self.parts.len() - 1)?;
        }
        Ok(())
    }
}

/// The writer properties of a table: zstd, and no timestamp nor anything of the run in
/// the metadata. The large tables (`moves`, `positions`: a row per ply) are written
/// plainly, for speed: without dictionaries (their values would be hashed one by one),
/// their integers delta-encoded, statistics (for skipping row groups) only of `game_id`
/// and `ply`; zstd then does what dictionaries would.
fn properties(table: Table) -> WriterProperties {
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        // (the row groups are ended by the rows they hold, here)
        .set_max_row_group_row_count(None)
        .set_created_by(format!("pdnkit {}", env!("CARGO_PKG_VERSION")))
        .set_key_value_metadata(Some(vec![
            KeyValue::new(SCHEMA_KEY.to_string(), SCHEMA_VERSION.to_string()),
            KeyValue::new("pdnkit.table".to_string(), table.name().to_string()),
        ]));
    if matches!(table, Table::Moves | Table::Positions) {
        builder = builder
            .set_dictionary_enabled(false)
            .set_statistics_enabled(EnabledStatistics::None);
        for field in table.schema().fields() {
            let path = ColumnPath::from(field.name().as_str());
            if matches!(field.name().as_str(), "game_id" | "ply") {
                builder =
                    builder.set_column_statistics_enabled(path.clone(), EnabledStatistics::Chunk);
            }
            match (field.name().as_str(), field.data_type()) {
                ("side" | "side_to_move" | "from" | "to", _) => {
                    builder = builder.set_column_dictionary_enabled(path, true)
                }
                (_, DataType::Int64 | DataType::Int32) => {
                    builder = builder.set_column_encoding(path, Encoding::DELTA_BINARY_PACKED)
                }
                (_, DataType::Utf8) => {
                    builder = builder.set_column_encoding(path, Encoding::DELTA_LENGTH_BYTE_ARRAY)
                }
                (_, DataType::List(_)) => {
                    let element = ColumnPath::new(vec![
                        field.name().clone(),
                        "list".into(),
                        "element".into(),
                    ]);
                    builder =
                        builder.set_column_encoding(element, Encoding::DELTA_LENGTH_BYTE_ARRAY)
                }
                _ => {}
            }
        }
    }
    builder.build()
}

/// The folder of a partition: `KEY=VALUE`, VALUE escaped as Spark escapes it (`%2F` for
/// `/`, …; other characters, Cyrillic among them, as they are), and cut so that the name
/// stays within the 255 bytes a file name may have.
pub fn partition_folder(key: &str, value: &str) -> String {
    let mut name = format!("{key}=");
    if value == NULL_PARTITION {
        name.push_str(value);
        return name;
    }
    for c in value.chars() {
        let escaped = c < ' '
            || matches!(
                c,
                '"' | '#'
                    | '%'
                    | '\''
                    | '*'
                    | '/'
                    | ':'
                    | '='
                    | '?'
                    | '\\'
                    | '\u{7f}'
                    | '{'
                    | '['
                    | ']'
                    | '^'
                    | '<'
                    | '>'
                    | '|'
            );
        let len = if escaped { 3 } else { c.len_utf8() };
        if name.len() + len > 255 {
            break;
        }
        if escaped {
            name.push_str(&format!("%{:02X}", c as u32));
        } else {
            name.push(c);
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_folders_escape_as_spark_does() {
        assert_eq!(partition_folder("year", "1950"), "year=1950");
        assert_eq!(
            partition_folder("event", "A/B=c: 1%"),
            "event=A%2FB%3Dc%3A 1%25"
        );
        assert_eq!(partition_folder("event", "Кубок"), "event=Кубок");
        assert_eq!(
            partition_folder("event", NULL_PARTITION),
            "event=__HIVE_DEFAULT_PARTITION__"
        );
        let long = partition_folder("event", &"я".repeat(300));
        assert!(long.len() <= 255 && long.len() >= 253, "{}", long.len());
    }
}
