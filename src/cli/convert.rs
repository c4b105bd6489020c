//! `pdnkit convert`: PDN to CSV, JSON Lines, canonical PDN or a Parquet dataset, streaming
//! game by game.

use super::output::Output;
use super::{Cli, common};
use anyhow::Context;
use pdnkit::check::CheckOptions;
use pdnkit::convert::csv::CsvOptions;
#[cfg(feature = "parquet")]
use pdnkit::convert::parquet::{Dataset, ParquetOptions, PartitionBy};
use pdnkit::convert::pdn::PdnOptions;
use pdnkit::convert::{Converted, Converter, Format, GameStatus, Writer, csv};
use pdnkit::diag::codes;
use pdnkit::pdn::{RawTag, Reader, Skip, Span, Visitor};
use pdnkit::rules::notation::{CaptureSeparator, CaptureStyle, SquareStyle, Style};
use pdnkit::run::{Event, Input, RunOptions};
use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// one row per game (or per ply with --per-move), RFC 4180, UTF-8
    Csv,
    /// one JSON object per game: tags, the whole move tree resolved, status, diagnostics
    Jsonl,
    /// canonical PDN
    Pdn,
    /// a folder of Parquet tables (games, moves, diagnostics; positions): -o DIR
    #[cfg(feature = "parquet")]
    Parquet,
}

/// `--strip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strip {
    Comments,
    Variations,
    Nags,
}

/// Convert PDN files to CSV, JSON Lines, canonical PDN or a Parquet dataset.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Games are judged exactly as `pdnkit lint` judges them and read one at a time, so
memory stays bounded whatever the size of the input. Nothing is left out without a word:
a game the reader skips (too large) still gets its record, with status `skipped` and the
reason (in PDN its text as read, when it was held), and text outside any game is kept in
PDN output.

Examples:
  pdnkit convert archive/ --format csv --tags all -o games.csv
  pdnkit convert games.pdn --format jsonl | jq 'select(.status != \"ok\") | .first_error'
  pdnkit convert games.pdn --format pdn --notation numeric --captures full
  pdnkit convert archive/ --format parquet --partition-by year -o dataset/

Exit status: 0 when every game was converted in full (also when some are illegal: their
moves are written as far as they replay and the rest as written; see --strict), 1 when
some game was skipped or unparsed or an input was not read (binary data), and with
--strict also when some game is not `ok`; 2 on a usage or I/O error (then an -o file is
not written)."
)]
pub struct ConvertArgs {
    /// Output format (`--to` is the same option).
    #[arg(
        long = "format",
        visible_alias = "to",
        value_name = "FORMAT",
        value_enum
    )]
    pub to: Target,

    /// Write to this file instead of standard output (atomically: through a temporary
    /// file in the same directory, synced and renamed when done, with the mode and owner of
    /// the file it replaces; a link is written through, a device or FIFO directly).
    /// Refuses to overwrite an input. parquet: the dataset's folder (required; new, empty,
    /// or a dataset, which is replaced).
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// csv: one row per main-line ply instead of one per game.
    #[arg(long)]
    pub per_move: bool,

    /// csv: add a `tag:NAME` column per tag: `all` (every tag name found anywhere in the
    /// input) or a comma-separated list of names.
    #[arg(long, value_delimiter = ',', value_name = "all|NAME,...")]
    pub tags: Vec<String>,

    /// Square notation of the moves written (pdn, and the moves of csv and jsonl).
    /// [default: algebraic for Russian and Czech games; the others' numbers, as their
    /// players write them]
    #[arg(long, value_enum)]
    pub notation: Option<SquareStyle>,

    /// How much of a capture's route to write.
    #[arg(long, value_enum, default_value_t = CaptureStyle::Minimal)]
    pub captures: CaptureStyle,

    /// Capture separator. [default: `:` for Russian games, `x` for the others]
    #[arg(long, value_enum)]
    pub separator: Option<CaptureSeparator>,

    /// pdn: leave these out (comma separated or repeated).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub strip: Vec<Strip>,

    /// csv: the character between fields: `,` (default), `;` (for spreadsheets whose
    /// decimal separator is the comma), `tab` (TSV), or any other ASCII character.
    #[arg(long, value_name = "CHAR", value_parser = delimiter, default_value = ",")]
    pub delimiter: u8,

    /// csv: start with a UTF-8 byte order mark, which Excel needs to show Cyrillic names.
    #[arg(long)]
    pub bom: bool,

    /// parquet: also write positions.parquet, every position of every main line.
    #[cfg(feature = "parquet")]
    #[arg(long)]
    pub positions: bool,

    /// parquet: Hive-style folders (games/year=1950/part-0.parquet, …) by this.
    #[cfg(feature = "parquet")]
    #[arg(long, value_enum, value_name = "KEY")]
    pub partition_by: Option<PartitionBy>,

    /// Exit 1 also when some game is illegal or incomplete (not `ok`).
    #[arg(long, conflicts_with = "exit_zero")]
    pub strict: bool,

    /// Exit 0 even when some game was skipped or unparsed or an input was not read (they
    /// are still reported on stderr); I/O errors still exit 2.
    #[arg(long)]
    pub exit_zero: bool,

    #[command(flatten)]
    pub input: common::InputArgs,
}

/// `--delimiter`: one ASCII character (not a quote, nor a line break), or `tab`.
fn delimiter(text: &str) -> Result<u8, String> {
    match text {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        _ => match text.as_bytes() {
            [c] if c.is_ascii() && !matches!(c, b'"' | b'\n' | b'\r') => Ok(*c),
            _ => Err(format!(
                "`{text}` is not one ASCII character (or `tab`) other than a quote or a line break"
            )),
        },
    }
}

impl ConvertArgs {
    fn style(&self) -> Style {
        Style {
            squares: self.notation.unwrap_or(SquareStyle::Algebraic),
            captures: self.captures,
            separator: self.separator.unwrap_or(CaptureSeparator::Colon),
        }
    }

    fn check_usage(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            !self.per_move || self.to == Target::Csv,
            "--per-move needs --format csv"
        );
        anyhow::ensure!(
            self.tags.is_empty() || (self.to == Target::Csv && !self.per_move),
            "--tags needs --format csv (without --per-move); jsonl always has every tag"
        );
        anyhow::ensure!(
            self.strip.is_empty() || self.to == Target::Pdn,
            "--strip needs --format pdn"
        );
        anyhow::ensure!(
            (self.delimiter == b',' && !self.bom) || self.to == Target::Csv,
            "--delimiter and --bom need --format csv"
        );
        #[cfg(feature = "parquet")]
        {
            let parquet = self.to == Target::Parquet;
            anyhow::ensure!(
                (!self.positions && self.partition_by.is_none()) || parquet,
                "--positions and --partition-by need --format parquet"
            );
            anyhow::ensure!(
                self.output.is_some() || !parquet,
                "--format parquet writes a folder of tables: give it with -o DIR"
            );
        }
        Ok(())
    }
}

#[derive(Default)]
struct Counts {
    files: usize,
    games: usize,
    ok: usize,
    illegal: usize,
    incomplete: usize,
    unparsed: usize,
    skipped: usize,
    /// Inputs the reader left (binary data).
    not_read: usize,
}

impl Counts {
    /// Whether some game was not converted in full, or some input not read.
    fn lost_some(&self) -> bool {
        self.unparsed + self.skipped + self.not_read > 0
    }

    fn add(&mut self, status: GameStatus) {
        self.games += 1;
        match status {
            GameStatus::Ok => self.ok += 1,
            GameStatus::Illegal => self.illegal += 1,
            GameStatus::Incomplete => self.incomplete += 1,
            GameStatus::Unparsed => self.unparsed += 1,
            GameStatus::Skipped => self.skipped += 1,
        }
    }
}

pub fn run(args: &ConvertArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    args.check_usage()?;
    let config = args.input.read.config()?;
    let check = CheckOptions {
        // (no output of convert shows a diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.input.read.check_options(&config)?
    };
    let mut inputs = common::Inputs::of(&args.input, &config, check)?;
    for e in &inputs.errors {
        common::io_error(&e.path, &e.message);
    }

    // --tags all reads the input twice: what cannot be read twice (standard input, a pipe,
    // a FIFO, a process substitution) is first copied to a temporary file, read once.
    let all_tags = args.tags.iter().any(|t| t == "all");
    let _spooled = match all_tags {
        true => common::spool_once_readable(&mut inputs)?,
        false => Vec::new(),
    };

    let tag_columns = if all_tags {
        let mut union = csv::TagUnion::default();
        for input in &inputs.inputs {
            if let Input::File(p) = input {
                // (an input that cannot be read is reported by the conversion itself)
                if let Ok(file) = File::open(p) {
                    collect_tag_names(file, &inputs.options, &mut union);
                }
            }
        }
        union.into_names()
    } else {
        args.tags.clone()
    };

    let writing = || match &args.output {
        Some(out) => format!("cannot write {}", out.display()),
        None => "cannot write to standard output".to_string(),
    };
    let style = args.style();
    let format = match args.to {
        Target::Csv if args.per_move => Format::CsvPlies,
        Target::Csv => Format::CsvGames(tag_columns),
        Target::Jsonl => Format::Jsonl,
        Target::Pdn => Format::Pdn(PdnOptions {
            comments: !args.strip.contains(&Strip::Comments),
            variations: !args.strip.contains(&Strip::Variations),
            nags: !args.strip.contains(&Strip::Nags),
        }),
        #[cfg(feature = "parquet")]
        Target::Parquet => Format::Parquet(ParquetOptions {
            positions: args.positions,
            partition_by: args.partition_by,
        }),
    };
    let csv = CsvOptions {
        delimiter: args.delimiter,
        bom: args.bom,
    };
    let converter = (Converter::new(format, style))
        .with_csv(csv)
        .with_given(args.notation, args.separator);
    let (output, mut writer) = Sink::open(args, &converter, &inputs.inputs)?;

    // Games are checked and written in parallel; the bytes are put out here in input
    // order (the same output whatever -j).
    let mut counts = Counts::default();
    let mut io_failures = inputs.errors.len();
    inputs
        .run(&converter, "converting", |label, event, progress| {
            let say = |d: &pdnkit::diag::Diagnostic| {
                common::say_problem(d, progress);
            };
            match event {
                Event::Start => {
                    counts.files += 1;
                    writer.start_input(label);
                }
                Event::Game(converted) => {
                    // (a game skipped is counted from its problem: not every format has a
                    // record for it)
                    if let Some(status) = converted.status.filter(|s| *s != GameStatus::Skipped) {
                        counts.add(status);
                    }
                    converted.replaced.iter().for_each(say);
                    writer.game(converted)?;
                }
                // a file-level problem (not PDN, a game too large to read, unreadable):
                // said on stderr; only a failed read spoils the output
                Event::Problem(d) => {
                    say(&d);
                    writer.problem(&d)?;
                    let io = d.rule == &codes::IO_ERROR;
                    io_failures += usize::from(io);
                    // (text outside any game, a warning, is no game left out)
                    counts.not_read += usize::from(d.rule == &codes::NOT_PDN);
                    if d.rule == &codes::GAME_TOO_LARGE {
                        counts.games += 1;
                        counts.skipped += 1;
                    }
                }
                Event::End(_) => {}
            }
            Ok(())
        })
        .with_context(writing)?;
    let written = writer.finish().with_context(writing)?;
    output
        .done(written, io_failures == 0)
        .with_context(writing)?;
    if !args.input.quiet {
        eprintln!(
            "pdnkit: {} game{} from {} file{} ({} ok, {} illegal, {}{} unparsed{}{}){}; {:.2}s",
            counts.games,
            common::plural(counts.games),
            counts.files,
            common::plural(counts.files),
            counts.ok,
            counts.illegal,
            match counts.incomplete {
                0 => String::new(),
                n => format!("{n} incomplete, "),
            },
            counts.unparsed,
            match counts.skipped {
                0 => String::new(),
                n => format!(", {n} skipped"),
            },
            match counts.not_read {
                0 => String::new(),
                n => format!(", {n} not read"),
            },
            match (&args.output, io_failures) {
                (Some(o), 0) => format!(" written to {}", o.display()),
                (Some(o), _) => format!("; {} not written", o.display()),
                _ => String::new(),
            },
            inputs.elapsed()
        );
    }
    let failed = counts.lost_some() || (args.strict && counts.ok < counts.games);
    Ok(common::exit_code(io_failures, failed && !args.exit_zero))
}

/// Adds the tag names of every game of `input` to `union` (a pass that reads tags only,
/// for `--tags all`: the header must be known before the first row). What cannot be read
/// has no tag names; the conversion itself reports it.
fn collect_tag_names(input: impl io::Read, options: &RunOptions, union: &mut csv::TagUnion) {
    struct Names<'a>(&'a mut csv::TagUnion);
    impl Visitor for Names<'_> {
        type Output = ();
        fn tag(&mut self, tag: RawTag<'_>) {
            self.0.add(tag.name);
        }
        fn begin_variation(&mut self, _: Span) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self) {}
    }
    let Ok(mut reader) = Reader::new(input, options.check.reader_options()) else {
        return;
    };
    let mut names = Names(union);
    // (a game that cannot be read has no tags to add; the reader goes on after it)
    while reader.read_game(&mut names).is_some() {}
}

/// Where the converted games go: text to a stream, or the tables of a dataset.
enum Sink<'c> {
    Text(Writer<'c, Box<dyn Write>>),
    #[cfg(feature = "parquet")]
    Parquet(Box<Dataset>),
}

/// The output the [`Sink`] writes to, until it is done.
enum Destination {
    Stream(Output),
    #[cfg(feature = "parquet")]
    Folder(super::output::Folder),
}

impl<'c> Sink<'c> {
    /// The output of `args`, and the sink that writes `converter`'s games to it.
    fn open(
        args: &ConvertArgs,
        converter: &'c Converter,
        inputs: &[Input],
    ) -> anyhow::Result<(Destination, Sink<'c>)> {
        #[cfg(feature = "parquet")]
        if let (Format::Parquet(options), Some(out)) = (&converter.format, &args.output) {
            use pdnkit::convert::parquet::tables::Table;
            let tables = [
                Table::Games,
                Table::Moves,
                Table::Diagnostics,
                Table::Positions,
            ];
            let names = tables.map(Table::name);
            let folder = super::output::Folder::create(out, &names, inputs)?;
            let dataset = Dataset::create(&folder.path, *options, converter.style)
                .with_context(|| format!("cannot write {}", out.display()))?;
            return Ok((
                Destination::Folder(folder),
                Sink::Parquet(Box::new(dataset)),
            ));
        }
        let mut output = match &args.output {
            Some(out) => Output::file(out, inputs)?,
            None => Output::stdout(),
        };
        let stream = std::mem::replace(&mut output.writer, Box::new(io::sink()));
        let writer = Writer::new(converter, stream).with_context(|| match &args.output {
            Some(out) => format!("cannot write {}", out.display()),
            None => "cannot write to standard output".to_string(),
        })?;
        Ok((Destination::Stream(output), Sink::Text(writer)))
    }

    fn start_input(&mut self, label: &str) {
        match self {
            Sink::Text(w) => w.start_input(label),
            #[cfg(feature = "parquet")]
            Sink::Parquet(d) => d.start_input(label),
        }
    }

    fn game(&mut self, game: Converted) -> io::Result<()> {
        match self {
            Sink::Text(w) => w.game(game),
            #[cfg(feature = "parquet")]
            Sink::Parquet(d) => d.game(&game),
        }
    }

    /// A problem of the input that is no game's (a dataset has a row for it).
    fn problem(&mut self, _problem: &pdnkit::diag::Diagnostic) -> io::Result<()> {
        match self {
            Sink::Text(_) => Ok(()),
            #[cfg(feature = "parquet")]
            Sink::Parquet(d) => d.problem(_problem),
        }
    }

    /// Writes what is held; the stream written to, if any.
    fn finish(self) -> io::Result<Option<Box<dyn Write>>> {
        match self {
            Sink::Text(w) => w.finish().map(Some),
            #[cfg(feature = "parquet")]
            Sink::Parquet(d) => d.finish().map(|()| None),
        }
    }
}

impl Destination {
    /// Commits the output when `complete` (a file renamed over its target, a folder
    /// likewise); otherwise a file or folder is not written, and standard output gets
    /// what could be read.
    fn done(self, stream: Option<Box<dyn Write>>, complete: bool) -> anyhow::Result<()> {
        match self {
            Destination::Stream(mut output) => {
                if let Some(stream) = stream {
                    output.writer = stream;
                }
                if complete {
                    output.commit()?;
                } else {
                    output.writer.flush()?;
                }
                Ok(())
            }
            #[cfg(feature = "parquet")]
            Destination::Folder(folder) => match complete {
                true => folder.commit(),
                false => Ok(()),
            },
        }
    }
}
