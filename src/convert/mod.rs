//! Converting checked games to other forms, one writer per format: CSV rows ([`csv`]),
//! JSON objects ([`jsonl`]) and canonical PDN ([`pdn`]). [`Converter`] is the
//! [`crate::run::Task`] `pdnkit convert` runs: it judges every game exactly as
//! `pdnkit lint` does, and writes it in a worker thread; a [`Writer`] puts the games'
//! bytes out in order.
//!
//! Every writer starts from the [`Checker`](crate::check::checker::Checker)'s report: the
//! main line's plies, and for the whole tree (JSON, PDN) the resolution of every move in
//! text order, which [`Resolutions`] hands out as the tree is walked in that order.

pub mod csv;
pub mod jsonl;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod pdn;
pub mod played;

use std::cell::Cell;
use std::sync::Mutex;

use crate::check::CheckOptions;
use crate::check::checker::{GameReport, Keep, MoveInfo};
use crate::date::{DateValue, parse_date};
use crate::diag::{Diagnostic, Severity, codes};
use crate::draw::DrawBasis;
use crate::replay::Status;
use crate::rules::notation::{CaptureSeparator, CaptureStyle, SquareStyle, Style};
use crate::rules::{Playable, Position, Variant};
use crate::run::{Checked, Event, RunOptions, Task, run_reader};
use std::io::{self, Read, Write};

/// The status of a converted game, as written in the `status` column/field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Read without syntax errors and every main-line move replayed.
    Ok,
    /// The main line stops at an illegal, ambiguous or unreadable move, or the start
    /// position (FEN) is invalid.
    Illegal,
    /// The main line stops at a placeholder for an unknown move (a warning): nothing is
    /// wrong, but the rest is not replayed.
    Incomplete,
    /// The game has syntax errors (severity error), or its GameType is not replayed.
    Unparsed,
    /// The reader skipped the game (larger than its limits): its record holds its number,
    /// this status and the reason; PDN output has its text as read, when it was held.
    Skipped,
}

impl GameStatus {
    /// The status of a checked game.
    pub fn of(report: &GameReport) -> GameStatus {
        if report.has_syntax_errors() || report.status == Status::Unsupported {
            GameStatus::Unparsed
        } else if report.status == Status::Complete {
            GameStatus::Ok
        } else if report.status == Status::Placeholder {
            GameStatus::Incomplete
        } else {
            GameStatus::Illegal
        }
    }

    /// `ok`, `illegal`, `incomplete`, `unparsed` or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Ok => "ok",
            GameStatus::Illegal => "illegal",
            GameStatus::Incomplete => "incomplete",
            GameStatus::Unparsed => "unparsed",
            GameStatus::Skipped => "skipped",
        }
    }
}

/// The canonical notation: algebraic squares, PDN 3.0 minimal captures, `:`.
pub const CANONICAL: Style = Style {
    squares: SquareStyle::Algebraic,
    captures: CaptureStyle::Minimal,
    separator: CaptureSeparator::Colon,
};

/// The resolutions of a game's moves, handed out in text order (the order of a walk of
/// its tree: each move of a line after the variations in its `before` and before those in
/// its `after`, then those in the line's `trailing`).
pub struct Resolutions<'a, P: Playable = Position> {
    moves: &'a [Option<MoveInfo<P>>],
    next: Cell<usize>,
}

impl<P: Playable> Default for Resolutions<'_, P> {
    fn default() -> Self {
        Resolutions {
            moves: &[],
            next: Cell::new(0),
        }
    }
}

impl<'a, P: Playable> Resolutions<'a, P> {
    /// The resolutions `moves` (a report's, kept with [`Keep::moves`]).
    pub fn new(moves: &'a [Option<MoveInfo<P>>]) -> Resolutions<'a, P> {
        Resolutions {
            moves,
            next: Cell::new(0),
        }
    }

    /// The next move's resolution.
    pub fn next(&self) -> Option<&'a MoveInfo<P>> {
        let k = self.next.get();
        self.next.set(k + 1);
        self.moves.get(k).and_then(Option::as_ref)
    }
}

/// The notation a game of `variant` is written in: `style`, with its squares and capture
/// separator as `given` says; what is not given, for a Russian game `style`'s, for
/// another as its players write it: squares by their numbers (or, on the Turkish board,
/// their names; Czech: by their names) and captures with `x`.
pub fn style_for(
    style: Style,
    given: (Option<SquareStyle>, Option<CaptureSeparator>),
    variant: Variant,
) -> Style {
    if variant == Variant::Russian {
        return style;
    }
    let squares = match variant {
        Variant::Czech => SquareStyle::Algebraic,
        _ => SquareStyle::Numeric,
    };
    Style {
        squares: given.0.unwrap_or(squares),
        separator: given.1.unwrap_or(CaptureSeparator::Cross),
        ..style
    }
}

/// The first error-severity diagnostic of a game, as `CODE` or `CODE@PLY`.
pub fn first_error(diagnostics: &[Diagnostic]) -> Option<String> {
    diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| match d.ply {
            Some(p) => format!("{}@{p}", d.rule.code),
            None => d.rule.code.to_string(),
        })
}

/// A draw basis in words for a CSV cell: `rule 6.1.8.6 at ply 57`, `repetition at ply 40`,
/// `agreement at move 12`, `early agreement at move 12`.
pub fn draw_basis_text(basis: &DrawBasis) -> String {
    match basis {
        DrawBasis::Rule { rule, ply } => format!("rule {} at ply {ply}", rule.id()),
        DrawBasis::Repetition { ply } => format!("repetition at ply {ply}"),
        DrawBasis::Agreement { move_number, early } => format!(
            "{}agreement at move {move_number}",
            if *early { "early " } else { "" }
        ),
    }
}

/// A `Date` tag value in ISO 8601: `1965-01-01`, `1965-03`, `1965`, or an interval
/// `2004-10-27/2004-11-01`; `None` when it is unknown or cannot be read.
pub fn iso_date(raw: &str) -> Option<String> {
    match parse_date(raw) {
        DateValue::Date(d) => d.iso(),
        DateValue::Range(a, b) => match (a.iso(), b.iso()) {
            (Some(a), Some(b)) => Some(format!("{a}/{b}")),
            (a, _) => a,
        },
        DateValue::Unknown | DateValue::NotADay | DateValue::Unreadable => None,
    }
}

/// The output format of [`Converter`].
#[derive(Clone, Debug)]
pub enum Format {
    /// CSV, one row per game with these `tag:NAME` columns ([`csv::GAME_COLUMNS`]).
    CsvGames(Vec<String>),
    /// CSV, one row per main-line ply ([`csv::PLY_COLUMNS`]).
    CsvPlies,
    /// JSON Lines, one object per game ([`jsonl`]).
    Jsonl,
    /// Canonical PDN ([`pdn`]).
    Pdn(pdn::PdnOptions),
    /// The rows of a Parquet dataset ([`parquet`]), which a
    /// [`parquet::Dataset`] writes.
    #[cfg(feature = "parquet")]
    Parquet(parquet::ParquetOptions),
}

/// The [`Task`] of `pdnkit convert`: each game in `format`, its moves in `style`.
pub struct Converter {
    /// The format.
    pub format: Format,
    /// The notation of the moves written.
    pub style: Style,
    /// The square notation and capture separator asked for (`--notation`,
    /// `--separator`), which games of other variants than Russian are written with too;
    /// `None`: theirs ([`style_for`]).
    pub given: (Option<SquareStyle>, Option<CaptureSeparator>),
    /// How CSV is written.
    pub csv: csv::CsvOptions,
    /// Buffers of games put out, cleared, for the next games to be written into: a game
    /// is converted by a worker and freed by the thread that puts it out, a block's games
    /// at once, and memory freed that way went back to the system (mimalloc purges after
    /// 10 ms, see main.rs) before the workers could use it again, to be faulted in anew.
    spare: Mutex<Spare>,
}

/// The buffers a [`Converter`] keeps, and the bytes they hold.
#[derive(Default)]
struct Spare {
    buffers: Vec<(Vec<u8>, Vec<usize>)>,
    bytes: usize,
}

/// The bytes of the buffers kept, at most (the JSON Lines of a block's games are about
/// 2.5 MB), and of one buffer kept (a game's JSON is some 15 KB; a larger buffer is freed).
const SPARE_BYTES: usize = 4 << 20;
const SPARE_BUFFER_BYTES: usize = 64 << 10;

/// One game converted (or text outside any game, kept in PDN output): its status, and its
/// bytes as they are written out.
pub struct Converted {
    /// How the game fared; `None` for text outside any game.
    pub status: Option<GameStatus>,
    /// Its number in its file.
    pub game: u64,
    /// Its bytes, but for what starts each of its records (the path and the game number,
    /// written in order by [`Converted::write_to`]): CSV rows after their second field,
    /// a JSON object after its `{`; PDN whole.
    body: Vec<u8>,
    /// Where each record of `body` ends.
    ends: Vec<usize>,
    /// The game's `decoding-replaced` diagnostics: its text is not the input's bytes
    /// there, which a user must be told of whatever the format.
    pub replaced: Vec<Diagnostic>,
    /// Parquet: the game's rows.
    #[cfg(feature = "parquet")]
    rows: Option<Box<parquet::GameRows>>,
}

impl Task for Converter {
    type Output = Converted;

    fn keep(&self) -> Keep {
        match self.format {
            Format::CsvGames(_) | Format::CsvPlies => Keep {
                plies: usize::MAX,
                ..Keep::default()
            },
            Format::Jsonl | Format::Pdn(_) => Keep {
                moves: true,
                tree: true,
                ..Keep::default()
            },
            #[cfg(feature = "parquet")]
            Format::Parquet(_) => Keep {
                plies: usize::MAX,
                ..Keep::default()
            },
        }
    }

    fn game(&self, g: Checked<'_>) -> Converted {
        let status = GameStatus::of(g.report);
        let replaced = (g.diagnostics.iter())
            .filter(|d| d.rule == &codes::DECODING_REPLACED)
            .cloned()
            .collect();
        let style = style_for(self.style, self.given, g.report.variant);
        #[cfg(feature = "parquet")]
        if let Format::Parquet(options) = &self.format {
            let mut g = g;
            let rows = parquet::GameRows::new(&mut g, style, options);
            return Converted {
                status: Some(status),
                game: g.source.index,
                body: Vec::new(),
                ends: Vec::new(),
                replaced,
                rows: Some(Box::new(rows)),
            };
        }
        let (mut body, mut ends) = self.buffers();
        match &self.format {
            Format::CsvGames(tags) => {
                csv::push_game_row(&mut body, self.csv.delimiter, &g, style, tags);
                ends.push(body.len());
            }
            Format::CsvPlies => {
                csv::push_ply_rows(&mut body, &mut ends, self.csv.delimiter, &g, style)
            }
            Format::Jsonl => {
                // (room for the common case at once: the text of comments and tags, and
                // 230-250 bytes for each move of the tree; grown by doubling, a game
                // left blocks of every size behind, and copied itself several times;
                // exactly, or a buffer kept for game after game would double in each)
                body.reserve_exact(g.source.text.len() + 256 * g.report.moves.len() + 1024);
                jsonl::push_game(&mut body, &g, style);
                ends.push(body.len());
            }
            Format::Pdn(options) => {
                pdn::push_game(&mut body, g.source, g.report, options, style);
                ends.push(body.len());
            }
            #[cfg(feature = "parquet")]
            Format::Parquet(_) => {}
        }
        Converted {
            status: Some(status),
            game: g.source.index,
            body,
            ends,
            replaced,
            #[cfg(feature = "parquet")]
            rows: None,
        }
    }

    /// A game skipped by the reader gets a record saying so (and in PDN its text as read,
    /// when the reader held it); text outside any game is kept in PDN output.
    fn unread(&self, problem: &Diagnostic, text: Option<&str>) -> Option<Converted> {
        let (mut body, mut ends) = (Vec::new(), Vec::new());
        let skipped = problem.rule == &codes::GAME_TOO_LARGE;
        #[cfg(feature = "parquet")]
        let mut rows = None;
        match (&self.format, problem.game) {
            (Format::Pdn(_), _) => {
                if !skipped && problem.rule != &codes::STRAY_TEXT {
                    return None;
                }
                let text = text?;
                body.extend_from_slice(text.as_bytes());
                if !text.ends_with('\n') {
                    body.push(b'\n');
                }
                ends.push(body.len());
            }
            (Format::CsvGames(tags), Some(_)) if skipped => {
                csv::push_skipped_row(&mut body, self.csv.delimiter, problem, tags.len());
                ends.push(body.len());
            }
            (Format::Jsonl, Some(_)) if skipped => {
                jsonl::push_skipped(&mut body, problem);
                ends.push(body.len());
            }
            #[cfg(feature = "parquet")]
            (Format::Parquet(_), Some(_)) if skipped => {
                rows = Some(Box::new(parquet::GameRows::skipped(problem)));
            }
            _ => return None,
        }
        Some(Converted {
            status: skipped.then_some(GameStatus::Skipped),
            game: problem.game.unwrap_or(0) as u64,
            body,
            ends,
            replaced: Vec::new(),
            #[cfg(feature = "parquet")]
            rows,
        })
    }

    fn rebase(&self, output: &mut Converted, games: u64) {
        output.game += games;
    }

    fn weight(&self, output: &Converted) -> usize {
        #[cfg(feature = "parquet")]
        if let Some(rows) = &output.rows {
            return rows.weight();
        }
        // (what its buffer holds: one kept from a larger game is more than its bytes)
        output.body.capacity()
    }
}

impl Converter {
    /// A converter to `format`, its moves in `style`.
    pub fn new(format: Format, style: Style) -> Converter {
        Converter {
            format,
            style,
            given: (None, None),
            csv: csv::CsvOptions::default(),
            spare: Mutex::default(),
        }
    }

    /// The converter, writing games of other variants than Russian with the square
    /// notation and separator given (see [`Converter::given`]).
    pub fn with_given(
        self,
        squares: Option<SquareStyle>,
        separator: Option<CaptureSeparator>,
    ) -> Converter {
        let given = (squares, separator);
        Converter { given, ..self }
    }

    /// The converter, writing CSV as `options` say.
    pub fn with_csv(self, options: csv::CsvOptions) -> Converter {
        Converter {
            csv: options,
            ..self
        }
    }

    /// Empty buffers for a game's bytes and the ends of its records: kept ones if any.
    fn buffers(&self) -> (Vec<u8>, Vec<usize>) {
        let Ok(mut spare) = self.spare.lock() else {
            return Default::default();
        };
        let buffers = spare.buffers.pop().unwrap_or_default();
        spare.bytes -= buffers.0.capacity();
        buffers
    }

    /// Keeps the buffers of a game put out for another, while those kept hold less than
    /// [`SPARE_BYTES`].
    fn keep(&self, game: Converted) {
        let (mut body, mut ends) = (game.body, game.ends);
        let Ok(mut spare) = self.spare.lock() else {
            return;
        };
        if spare.bytes + body.capacity() <= SPARE_BYTES && body.capacity() <= SPARE_BUFFER_BYTES {
            body.clear();
            ends.clear();
            spare.bytes += body.capacity();
            spare.buffers.push((body, ends));
        }
    }

    /// What starts each record of the input `path`: its path as the first CSV field and
    /// a comma, or a JSON object's opening up to its game number.
    pub fn record_start(&self, path: &str) -> Vec<u8> {
        match self.format {
            Format::CsvGames(_) | Format::CsvPlies => csv::field(path, self.csv.delimiter),
            Format::Jsonl => {
                let mut out = b"{\"schema\":\"pdnkit-game/1\",\"path\":".to_vec();
                // (writing a string into a vector cannot fail)
                let _ = serde_json::to_writer(&mut out, path);
                out.extend_from_slice(b",\"game\":");
                out
            }
            Format::Pdn(_) => Vec::new(),
            #[cfg(feature = "parquet")]
            Format::Parquet(_) => Vec::new(),
        }
    }

    /// The header of the output (the CSV column names, after a byte order mark when
    /// asked), if it has one.
    pub fn header(&self) -> Vec<u8> {
        let delimiter = self.csv.delimiter;
        let mut header = match (&self.format, self.csv.bom) {
            (Format::CsvGames(_) | Format::CsvPlies, true) => "\u{feff}".as_bytes().to_vec(),
            _ => Vec::new(),
        };
        match &self.format {
            Format::CsvGames(tags) => header.extend(csv::game_header(tags, delimiter)),
            Format::CsvPlies => header.extend(csv::record(delimiter, csv::PLY_COLUMNS.iter())),
            _ => {}
        }
        header
    }
}

impl Converted {
    /// Writes the game's records, each started with `start` (see
    /// [`Converter::record_start`]) and its game number.
    fn write_to(&self, out: &mut impl Write, start: &[u8]) -> io::Result<()> {
        if start.is_empty() {
            return out.write_all(&self.body);
        }
        let mut number = itoa::Buffer::new();
        let number = number.format(self.game).as_bytes();
        let mut from = 0;
        for &end in &self.ends {
            out.write_all(start)?;
            out.write_all(number)?;
            out.write_all(&self.body[from..end])?;
            from = end;
        }
        Ok(())
    }
}

/// Puts converted games out in the order given: the header first, then each game's
/// records, started with the name of the input they come from.
pub struct Writer<'c, W: Write> {
    converter: &'c Converter,
    out: W,
    start: Vec<u8>,
    games: u64,
}

impl<'c, W: Write> Writer<'c, W> {
    /// A writer to `out`; writes the header.
    pub fn new(converter: &'c Converter, mut out: W) -> io::Result<Self> {
        out.write_all(&converter.header())?;
        Ok(Writer {
            converter,
            out,
            start: Vec::new(),
            games: 0,
        })
    }

    /// The games that follow come from the input named `path`.
    pub fn start_input(&mut self, path: &str) {
        self.start = self.converter.record_start(path);
    }

    /// Writes one game (its buffers are kept for the next games converted).
    pub fn game(&mut self, game: Converted) -> io::Result<()> {
        // PDN games are set apart by an empty line
        if matches!(self.converter.format, Format::Pdn(_)) && self.games > 0 {
            self.out.write_all(b"\n")?;
        }
        self.games += 1;
        game.write_to(&mut self.out, &self.start)?;
        self.converter.keep(game);
        Ok(())
    }

    /// The output, flushed.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Converts every game of one input (`input`, named `path`) on the calling thread and
/// writes them, header first, to `out`: what `pdnkit convert` writes for that input. The
/// status of each game, in order (games the reader skipped as `Skipped`).
///
/// ```
/// use pdnkit::check::CheckOptions;
/// use pdnkit::convert::{Converter, Format, GameStatus, convert_reader};
/// let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n";
/// let converter = Converter::new(Format::CsvPlies, Default::default());
/// let mut csv = Vec::new();
/// let statuses = convert_reader("a.pdn", pdn.as_bytes(), &converter, &CheckOptions::default(), &mut csv).unwrap();
/// assert_eq!(statuses, [GameStatus::Ok]);
/// let csv = String::from_utf8(csv).unwrap();
/// assert_eq!(csv.lines().count(), 5); // the header and four plies
/// assert!(csv.lines().nth(3).unwrap().contains("d4:f6"));
/// ```
pub fn convert_reader(
    path: &str,
    input: impl Read,
    converter: &Converter,
    options: &CheckOptions,
    out: impl Write,
) -> io::Result<Vec<GameStatus>> {
    let options = RunOptions {
        check: *options,
        threads: 1,
        progress: None,
    };
    let mut writer = Writer::new(converter, out)?;
    writer.start_input(path);
    let mut statuses = Vec::new();
    run_reader(path, input, &options, converter, |event| {
        if let Event::Game(game) = event {
            statuses.extend(game.status);
            writer.game(game)?;
        }
        Ok(())
    })?;
    writer.finish()?;
    Ok(statuses)
}
