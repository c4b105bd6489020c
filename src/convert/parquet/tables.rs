//! The four tables of a Parquet dataset: their Arrow schemas (the stable columns of
//! `schemas/parquet.json`, described in `docs/parquet.md`) and the builders their rows are
//! appended to, a batch at a time.
//!
//! Integers are signed (Spark reads an unsigned 64-bit column as a decimal), a day is a
//! `DATE` (Arrow `Date32`), lists and maps use the names the Parquet specification gives
//! their inner fields (`element`; `key_value`, `key`, `value`), which every engine reads.

use std::fs::File;
use std::io::{self, BufWriter};
use std::sync::{Arc, LazyLock};

use arrow_array::builder::{
    ArrayBuilder, Date32Builder, Float64Builder, Int8Builder, Int32Builder, Int64Builder,
    ListBuilder, MapBuilder, MapFieldNames, StringBuilder,
};
use arrow_array::{ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use parquet::arrow::ArrowSchemaConverter;
use parquet::basic::Encoding;
use parquet::schema::types::SchemaDescriptor;

use super::encode::{self, Chunk, TextDictionary};
use super::files::Writer;
use crate::Color;

/// The tables, in the order they are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    Games,
    Moves,
    Diagnostics,
    Positions,
}

impl Table {
    /// The table's name: its file `NAME.parquet`, or its folder when partitioned.
    pub fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Moves => "moves",
            Table::Diagnostics => "diagnostics",
            Table::Positions => "positions",
        }
    }

    /// The table's Arrow schema.
    pub fn schema(self) -> SchemaRef {
        match self {
            Table::Games => GAMES.clone(),
            Table::Moves => MOVES.clone(),
            Table::Diagnostics => DIAGNOSTICS.clone(),
            Table::Positions => POSITIONS.clone(),
        }
    }
}

fn string(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8, nullable)
}

fn int64(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Int64, nullable)
}

fn int32(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Int32, nullable)
}

/// The `element` of a list of squares.
fn element() -> Field {
    Field::new("element", DataType::Utf8, false)
}

/// The names of a map's fields.
fn map_names() -> MapFieldNames {
    MapFieldNames {
        entry: "key_value".into(),
        key: "key".into(),
        value: "value".into(),
    }
}

/// The map of tags: every name, with its value (values of a name written twice joined by
/// a line break).
fn tags_type() -> DataType {
    let names = map_names();
    let entries = Fields::from(vec![
        Field::new(names.key, DataType::Utf8, false),
        Field::new(names.value, DataType::Utf8, true),
    ]);
    DataType::Map(
        Arc::new(Field::new(names.entry, DataType::Struct(entries), false)),
        false,
    )
}

static GAMES: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        int64("game_id", false),
        string("path", false),
        int64("game", false),
        int64("line", false),
        string("event", true),
        string("site", true),
        Field::new("date", DataType::Date32, true),
        string("date_raw", true),
        string("round", true),
        string("white", true),
        string("black", true),
        string("result", true),
        Field::new("score", DataType::Float64, true),
        string("gametype", true),
        string("variant", true),
        Field::new("tags", tags_type(), true),
        int32("plies", true),
        string("status", false),
        string("first_error", true),
        int32("first_error_ply", true),
        string("draw_basis", true),
        string("start_fen", true),
        string("final_fen", true),
        string("first_moves", true),
    ]))
});

static MOVES: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        int64("game_id", false),
        int32("ply", false),
        int32("move_number", false),
        string("side", false),
        string("written", false),
        string("move", false),
        string("from", false),
        string("to", false),
        Field::new("captured", DataType::List(Arc::new(element())), false),
        Field::new("capture", DataType::Boolean, false),
        Field::new("promotes", DataType::Boolean, false),
    ]))
});

static DIAGNOSTICS: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        int64("game_id", true),
        string("path", false),
        int64("game", true),
        int64("line", false),
        int64("column", false),
        string("code", false),
        string("name", false),
        string("severity", false),
        string("message", false),
        int32("ply", true),
        string("move", true),
    ]))
});

static POSITIONS: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        int64("game_id", false),
        int32("ply", false),
        string("fen", false),
        string("side_to_move", false),
        Field::new("white_men", DataType::Int8, false),
        Field::new("white_kings", DataType::Int8, false),
        Field::new("black_men", DataType::Int8, false),
        Field::new("black_kings", DataType::Int8, false),
        Field::new("score", DataType::Float64, true),
    ]))
});

/// Rows appended to a table's columns, and how they are written to its files.
pub(crate) trait Rows: Send + Sized {
    /// The table.
    const TABLE: Table;

    /// Rows appended since the last batch.
    fn len(&self) -> usize;

    /// Whether no row was appended since the last batch.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The columns of the rows appended (the builders are left empty), for a table
    /// written by Arrow's writer.
    fn columns(&mut self) -> Vec<ArrayRef> {
        Vec::new()
    }

    /// A writer of the table to `file`.
    fn writer(file: BufWriter<File>) -> io::Result<Writer> {
        Writer::arrow(file, Self::TABLE)
    }

    /// Encodes the rows appended into the row group in progress of `writer`.
    fn encode(&mut self, writer: &mut Writer) -> io::Result<()> {
        let columns = self.columns();
        // (the builders make exactly the schema's types)
        let batch =
            RecordBatch::try_new(Self::TABLE.schema(), columns).map_err(io::Error::other)?;
        match writer {
            Writer::Arrow(w) => w.write(&batch).map_err(io::Error::other),
            Writer::Chunks(_) => Err(io::Error::other("not a table of chunks")),
        }
    }

    /// Ends the row group in progress, written out to the file.
    fn end_group(&mut self, writer: &mut Writer) -> io::Result<()> {
        match writer {
            Writer::Arrow(w) => w.flush().map_err(io::Error::other),
            Writer::Chunks(_) => Err(io::Error::other("not a table of chunks")),
        }
    }

    /// The bytes the row group in progress holds.
    fn held(&self, writer: &Writer) -> usize {
        match writer {
            Writer::Arrow(w) => w.memory_size(),
            Writer::Chunks(_) => 0,
        }
    }
}

/// Declares the rows of a table written by Arrow's writer: one builder a column, in the
/// schema's order (each made empty by its expression), the first being `game_id`.
macro_rules! arrow_rows {
    ($(#[$doc:meta])* $name:ident: $table:ident { $($field:ident: $ty:ty = $init:expr,)* }) => {
        $(#[$doc])*
        pub(crate) struct $name {
            $(pub $field: $ty,)*
        }

        impl Rows for $name {
            const TABLE: Table = Table::$table;

            fn len(&self) -> usize {
                self.game_id.len()
            }

            fn columns(&mut self) -> Vec<ArrayRef> {
                vec![$(Arc::new(self.$field.finish()) as ArrayRef,)*]
            }
        }

        impl $name {
            pub fn new() -> Self {
                $name {
                    $($field: $init,)*
                }
            }
        }
    };
}

arrow_rows! {
    /// A row of `games`, as the dataset writer appends it.
    GamesRows: Games {
        game_id: Int64Builder = Int64Builder::with_capacity(0),
        path: StringBuilder = StringBuilder::with_capacity(0, 0),
        game: Int64Builder = Int64Builder::with_capacity(0),
        line: Int64Builder = Int64Builder::with_capacity(0),
        event: StringBuilder = StringBuilder::with_capacity(0, 0),
        site: StringBuilder = StringBuilder::with_capacity(0, 0),
        date: Date32Builder = Date32Builder::with_capacity(0),
        date_raw: StringBuilder = StringBuilder::with_capacity(0, 0),
        round: StringBuilder = StringBuilder::with_capacity(0, 0),
        white: StringBuilder = StringBuilder::with_capacity(0, 0),
        black: StringBuilder = StringBuilder::with_capacity(0, 0),
        result: StringBuilder = StringBuilder::with_capacity(0, 0),
        score: Float64Builder = Float64Builder::with_capacity(0),
        gametype: StringBuilder = StringBuilder::with_capacity(0, 0),
        variant: StringBuilder = StringBuilder::with_capacity(0, 0),
        tags: MapBuilder<StringBuilder, StringBuilder> = MapBuilder::with_capacity(
            Some(map_names()),
            StringBuilder::with_capacity(0, 0),
            StringBuilder::with_capacity(0, 0),
            0,
        ),
        plies: Int32Builder = Int32Builder::with_capacity(0),
        status: StringBuilder = StringBuilder::with_capacity(0, 0),
        first_error: StringBuilder = StringBuilder::with_capacity(0, 0),
        first_error_ply: Int32Builder = Int32Builder::with_capacity(0),
        draw_basis: StringBuilder = StringBuilder::with_capacity(0, 0),
        start_fen: StringBuilder = StringBuilder::with_capacity(0, 0),
        final_fen: StringBuilder = StringBuilder::with_capacity(0, 0),
        first_moves: StringBuilder = StringBuilder::with_capacity(0, 0),
    }
}

/// Rows of `moves`, kept as the values of their pages and encoded here
/// ([`super::encode`]): a row per ply, most of a dataset.
pub(crate) struct MovesRows {
    /// The column chunks of the row group in progress, in the schema's order.
    chunks: Vec<Chunk>,
    /// The squares' names, by index (for the Arrow columns of [`Rows::columns`]).
    squares: Vec<String>,
    /// Each name's index.
    square_indices: std::collections::HashMap<String, u8>,
    pub game_id: Vec<i64>,
    pub ply: Vec<i64>,
    pub move_number: Vec<i64>,
    /// Indices into the sides' dictionary ([`Color::index`]).
    pub side: Vec<u8>,
    /// Text, one value after another, and the length of each.
    pub written: Vec<u8>,
    pub written_lengths: Vec<i64>,
    pub text: Vec<u8>,
    pub text_lengths: Vec<i64>,
    /// Indices into the squares' dictionary ([`Square::index`](crate::rules::Square::index)).
    pub from: Vec<u8>,
    pub to: Vec<u8>,
    /// The captured squares of every row, and the list's levels: a row with no capture
    /// has one entry (repetition 0, definition 0), one with k squares k entries (the first
    /// of repetition 0, the rest 1; definition 1).
    pub captured: Vec<u8>,
    pub captured_rep: Vec<u8>,
    pub captured_def: Vec<u8>,
    pub capture: Vec<bool>,
    pub promotes: Vec<bool>,
    /// The dictionaries of `written` and `move`, and their indices of a page.
    dictionaries: [TextDictionary; 2],
    indices: Vec<u32>,
    /// A page's body, made here before it is compressed.
    body: Vec<u8>,
}

/// The leaf columns of `moves`, as its Parquet schema has them.
static MOVES_COLUMNS: LazyLock<SchemaDescriptor> = LazyLock::new(|| {
    ArrowSchemaConverter::new()
        .convert(&MOVES)
        .expect("a schema Parquet can hold")
});

impl MovesRows {
    /// Empty rows, whose squares are named `squares` (by index).
    pub fn new(square_names: &[String]) -> MovesRows {
        let squares: Vec<&str> = square_names.iter().map(String::as_str).collect();
        let sides = [Color::White.name(), Color::Black.name()];
        debug_assert_eq!(Color::Black.index(), 1);
        let chunks = (MOVES_COLUMNS.columns().iter())
            .map(|column| {
                let dictionary = match column.path().parts()[0].as_str() {
                    "side" => Some(&sides[..]),
                    "from" | "to" | "captured" => Some(&squares[..]),
                    _ => None,
                };
                Chunk::new(column.clone(), dictionary)
            })
            .collect();
        MovesRows {
            chunks,
            squares: square_names.to_vec(),
            square_indices: (square_names.iter().enumerate())
                .map(|(i, name)| (name.clone(), i as u8))
                .collect(),
            game_id: Vec::new(),
            ply: Vec::new(),
            move_number: Vec::new(),
            side: Vec::new(),
            written: Vec::new(),
            written_lengths: Vec::new(),
            text: Vec::new(),
            text_lengths: Vec::new(),
            from: Vec::new(),
            to: Vec::new(),
            captured: Vec::new(),
            captured_rep: Vec::new(),
            captured_def: Vec::new(),
            capture: Vec::new(),
            promotes: Vec::new(),
            dictionaries: Default::default(),
            indices: Vec::new(),
            body: Vec::new(),
        }
    }

    /// The index of the square named `name` in the squares' dictionary (0 for a name
    /// that is in none: a square of no board).
    pub fn square_index(&self, name: &str) -> u8 {
        self.square_indices.get(name).copied().unwrap_or(0)
    }

    /// Writes a page of the text column `k` (`written` or `move`): indices into the
    /// chunk's dictionary, or the texts themselves when they do not fit in it.
    fn text_page(&mut self, k: usize) -> io::Result<()> {
        let (texts, lengths) = match k {
            4 => (&self.written, &self.written_lengths),
            _ => (&self.text, &self.text_lengths),
        };
        let chunk = &mut self.chunks[k];
        if self.dictionaries[k - 4].indices(chunk, texts, lengths, &mut self.indices) {
            let width = encode::index_width(chunk.dictionary_len);
            encode::push_indices(&mut self.body, &self.indices, width);
            self.page(k, lengths.len(), Encoding::RLE_DICTIONARY)
        } else {
            encode::push_delta(&mut self.body, lengths);
            self.body.extend_from_slice(texts);
            self.page(k, lengths.len(), Encoding::DELTA_LENGTH_BYTE_ARRAY)
        }
    }

    /// The bytes of the rows' and pages' buffers.
    fn capacity(&self) -> usize {
        let ints = [&self.game_id, &self.ply, &self.move_number]
            .iter()
            .chain([&self.written_lengths, &self.text_lengths].iter())
            .map(|v| v.capacity() * 8)
            .sum::<usize>();
        let bytes = [
            &self.side,
            &self.written,
            &self.text,
            &self.from,
            &self.to,
            &self.captured,
            &self.captured_rep,
            &self.captured_def,
            &self.body,
        ]
        .iter()
        .map(|v| v.capacity())
        .sum::<usize>();
        ints + bytes
            + self.capture.capacity()
            + self.promotes.capacity()
            + self.indices.capacity() * 4
    }

    /// Frees the buffers of the rows and the pages (all empty between row groups).
    fn release(&mut self) {
        for v in [&mut self.game_id, &mut self.ply, &mut self.move_number] {
            *v = Vec::new();
        }
        self.written_lengths = Vec::new();
        self.text_lengths = Vec::new();
        for v in [
            &mut self.side,
            &mut self.written,
            &mut self.text,
            &mut self.from,
            &mut self.to,
            &mut self.captured,
            &mut self.captured_rep,
            &mut self.captured_def,
            &mut self.body,
        ] {
            *v = Vec::new();
        }
        self.capture = Vec::new();
        self.promotes = Vec::new();
        self.indices = Vec::new();
    }

    /// Writes the column `k`'s page made in `body`, of `values` values in `encoding`.
    fn page(&mut self, k: usize, values: usize, encoding: Encoding) -> io::Result<()> {
        self.chunks[k].page(&self.body, values, encoding)?;
        self.body.clear();
        Ok(())
    }
}

impl Rows for MovesRows {
    const TABLE: Table = Table::Moves;

    fn len(&self) -> usize {
        self.game_id.len()
    }

    fn writer(file: BufWriter<File>) -> io::Result<Writer> {
        Writer::chunks(file, Self::TABLE)
    }

    /// The rows as Arrow columns (for batches held in memory; the files are written from
    /// the same values by [`Self::encode`]).
    fn columns(&mut self) -> Vec<ArrayRef> {
        let names = |indices: &[u8], names: &[String]| -> ArrayRef {
            let name = |i: u8| names.get(usize::from(i)).map_or("", String::as_str);
            Arc::new(StringArray::from_iter_values(
                indices.iter().map(|&i| name(i)),
            ))
        };
        // (the texts were appended from `str`s, whole)
        let texts = |bytes: &[u8], lengths: &[i64]| -> ArrayRef {
            let mut start = 0;
            Arc::new(StringArray::from_iter_values(lengths.iter().map(|&n| {
                let end = start + n as usize;
                let text = bytes.get(start..end).unwrap_or_default();
                start = end;
                std::str::from_utf8(text).unwrap_or_default()
            })))
        };
        let int32 = |v: &[i64]| -> ArrayRef {
            Arc::new(Int32Array::from_iter_values(v.iter().map(|&n| n as i32)))
        };
        // (a row's entries: the first of repetition 0, a square where defined)
        let mut captured = ListBuilder::new(StringBuilder::new()).with_field(Arc::new(element()));
        let mut squares = self.captured.iter();
        for (k, (&rep, &def)) in self.captured_rep.iter().zip(&self.captured_def).enumerate() {
            if rep == 0 && k > 0 {
                captured.append(true);
            }
            if def == 1 {
                let name = squares
                    .next()
                    .and_then(|&i| self.squares.get(usize::from(i)));
                captured
                    .values()
                    .append_value(name.map_or("", String::as_str));
            }
        }
        if !self.captured_rep.is_empty() {
            captured.append(true);
        }
        let sides = [
            Color::White.name().to_string(),
            Color::Black.name().to_string(),
        ];
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(std::mem::take(&mut self.game_id))),
            int32(&self.ply),
            int32(&self.move_number),
            names(&self.side, &sides),
            texts(&self.written, &self.written_lengths),
            texts(&self.text, &self.text_lengths),
            names(&self.from, &self.squares),
            names(&self.to, &self.squares),
            Arc::new(captured.finish()),
            Arc::new(BooleanArray::from(std::mem::take(&mut self.capture))),
            Arc::new(BooleanArray::from(std::mem::take(&mut self.promotes))),
        ];
        self.release();
        columns
    }

    /// A page of each column.
    fn encode(&mut self, _writer: &mut Writer) -> io::Result<()> {
        use Encoding::{DELTA_BINARY_PACKED, PLAIN, RLE_DICTIONARY};
        let rows = self.len();
        if rows == 0 {
            return Ok(());
        }
        // (squares: 5 bits for the Russian board's 32, more on a page with squares of
        // larger boards; sides: 2, 1 bit)
        let squares = (self.from.iter()).chain(&self.to).chain(&self.captured);
        let square_bits = encode::index_width(u32::from(*squares.max().unwrap_or(&0)) + 1).max(5);
        for k in 0..3 {
            let ints = [&self.game_id, &self.ply, &self.move_number][k];
            if k < 2 {
                // (statistics of the game's id and the ply, for skipping row groups)
                let min = ints.iter().copied().min().unwrap_or(0);
                let max = ints.iter().copied().max().unwrap_or(0);
                self.chunks[k].see(min, max);
            }
            encode::push_delta(&mut self.body, ints);
            self.page(k, rows, DELTA_BINARY_PACKED)?;
        }
        encode::push_indices(&mut self.body, &self.side, 1);
        self.page(3, rows, RLE_DICTIONARY)?;
        self.text_page(4)?;
        self.text_page(5)?;
        encode::push_indices(&mut self.body, &self.from, square_bits);
        self.page(6, rows, RLE_DICTIONARY)?;
        encode::push_indices(&mut self.body, &self.to, square_bits);
        self.page(7, rows, RLE_DICTIONARY)?;
        encode::push_levels(&mut self.body, &self.captured_rep, 1);
        encode::push_levels(&mut self.body, &self.captured_def, 1);
        encode::push_indices(&mut self.body, &self.captured, square_bits);
        let entries = self.captured_rep.len();
        self.page(8, entries, RLE_DICTIONARY)?;
        encode::push_booleans(&mut self.body, &self.capture);
        self.page(9, rows, PLAIN)?;
        encode::push_booleans(&mut self.body, &self.promotes);
        self.page(10, rows, PLAIN)?;
        self.game_id.clear();
        self.ply.clear();
        self.move_number.clear();
        self.side.clear();
        self.written.clear();
        self.written_lengths.clear();
        self.text.clear();
        self.text_lengths.clear();
        self.from.clear();
        self.to.clear();
        self.captured.clear();
        self.captured_rep.clear();
        self.captured_def.clear();
        self.capture.clear();
        self.promotes.clear();
        Ok(())
    }

    fn end_group(&mut self, writer: &mut Writer) -> io::Result<()> {
        let Writer::Chunks(file) = writer else {
            return Err(io::Error::other("not a table of Arrow batches"));
        };
        let mut group = file.next_row_group().map_err(io::Error::other)?;
        let rows = self.chunks[0].rows();
        for chunk in &mut self.chunks {
            chunk.append_to(&mut group, rows)?;
        }
        for (k, dictionary) in self.dictionaries.iter_mut().enumerate() {
            dictionary.clear();
            self.chunks[4 + k].dictionary.clear();
            self.chunks[4 + k].dictionary_len = 0;
        }
        group.close().map_err(io::Error::other)?;
        // (a partition's rows may not come back for long: its memory goes with its group)
        self.release();
        Ok(())
    }

    fn held(&self, _writer: &Writer) -> usize {
        let chunks: usize = self.chunks.iter().map(Chunk::held).sum();
        let dictionaries: usize = self.dictionaries.iter().map(TextDictionary::held).sum();
        chunks + dictionaries + self.capacity()
    }
}

arrow_rows! {
    /// Rows of `diagnostics`.
    DiagnosticsRows: Diagnostics {
        game_id: Int64Builder = Int64Builder::with_capacity(0),
        path: StringBuilder = StringBuilder::with_capacity(0, 0),
        game: Int64Builder = Int64Builder::with_capacity(0),
        line: Int64Builder = Int64Builder::with_capacity(0),
        column: Int64Builder = Int64Builder::with_capacity(0),
        code: StringBuilder = StringBuilder::with_capacity(0, 0),
        name: StringBuilder = StringBuilder::with_capacity(0, 0),
        severity: StringBuilder = StringBuilder::with_capacity(0, 0),
        message: StringBuilder = StringBuilder::with_capacity(0, 0),
        ply: Int32Builder = Int32Builder::with_capacity(0),
        move_text: StringBuilder = StringBuilder::with_capacity(0, 0),
    }
}

arrow_rows! {
    /// Rows of `positions`.
    PositionsRows: Positions {
        game_id: Int64Builder = Int64Builder::with_capacity(0),
        ply: Int32Builder = Int32Builder::with_capacity(0),
        fen: StringBuilder = StringBuilder::with_capacity(0, 0),
        side_to_move: StringBuilder = StringBuilder::with_capacity(0, 0),
        white_men: Int8Builder = Int8Builder::with_capacity(0),
        white_kings: Int8Builder = Int8Builder::with_capacity(0),
        black_men: Int8Builder = Int8Builder::with_capacity(0),
        black_kings: Int8Builder = Int8Builder::with_capacity(0),
        score: Float64Builder = Float64Builder::with_capacity(0),
    }
}
