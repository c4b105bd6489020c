//! `pdnkit convert`: PDN to CSV, JSON Lines or canonical PDN, streaming game by game.

use super::output::Output;
use super::{Cli, common};
use anyhow::Context;
use pdnkit::check::CheckOptions;
use pdnkit::convert::csv::CsvOptions;
use pdnkit::convert::pdn::PdnOptions;
use pdnkit::convert::{Converter, Format, GameStatus, Writer, csv};
use pdnkit::diag::codes;
use pdnkit::pdn::{RawTag, Reader, Skip, Span, Visitor};
use pdnkit::rules::notation::{CaptureSeparator, CaptureStyle, SquareStyle, Style};
use pdnkit::run::{Event, Input, RunOptions};
use std::fs::File;
use std::io;
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
}

/// `--strip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strip {
    Comments,
    Variations,
    Nags,
}

/// Convert PDN files to CSV, JSON Lines or canonical PDN.
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

Exit status: 0 when every game was converted in full (also when some are illegal: their
moves are written as far as they replay and the rest as written; see --strict), 1 when
some game was skipped or unparsed or an input was not read (binary data), and with
--strict also when some game is not `ok`; 2 on a usage or I/O error (then an -o file is
not written)."
)]
pub struct ConvertArgs {
    /// Files or directories (searched recursively for *.pdn in any case, hidden names
    /// skipped; see --include, --exclude); `-` is standard input. No PATH is standard
    /// input, or the current folder when standard input is a terminal.
    pub paths: Vec<PathBuf>,

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
    /// Refuses to overwrite an input.
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
    #[arg(long, value_enum, default_value_t = SquareStyle::Algebraic)]
    pub notation: SquareStyle,

    /// How much of a capture's route to write.
    #[arg(long, value_enum, default_value_t = CaptureStyle::Minimal)]
    pub captures: CaptureStyle,

    /// Capture separator.
    #[arg(long, value_enum, default_value_t = CaptureSeparator::Colon)]
    pub separator: CaptureSeparator,

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

    /// Exit 1 also when some game is illegal or incomplete (not `ok`).
    #[arg(long, conflicts_with = "exit_zero")]
    pub strict: bool,

    /// Exit 0 even when some game was skipped or unparsed or an input was not read (they
    /// are still reported on stderr); I/O errors still exit 2.
    #[arg(long)]
    pub exit_zero: bool,

    /// Do not print the summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub jobs: common::JobsArgs,

    #[command(flatten)]
    pub common: common::ReadArgs,

    #[command(flatten)]
    pub walk: common::WalkArgs,
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
            squares: self.notation,
            captures: self.captures,
            separator: self.separator,
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
    let config = args.common.config()?;
    let check = CheckOptions {
        // (no output of convert shows a diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.common.check_options(&config)?
    };
    let mut inputs =
        common::Inputs::new(&args.paths, args.jobs, &args.walk, &config, check)?.quiet(args.quiet);
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

    let mut output = match &args.output {
        Some(out) => Output::file(out, &inputs.inputs)?,
        None => Output::stdout(),
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
            style,
            comments: !args.strip.contains(&Strip::Comments),
            variations: !args.strip.contains(&Strip::Variations),
            nags: !args.strip.contains(&Strip::Nags),
        }),
    };
    let csv = CsvOptions {
        delimiter: args.delimiter,
        bom: args.bom,
    };
    let converter = Converter::new(format, style).with_csv(csv);
    let mut writer = Writer::new(&converter, &mut output.writer).with_context(writing)?;

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
    writer.finish().with_context(writing)?;

    if io_failures == 0 {
        output.commit()?;
    } else {
        // a partial output file is not written; standard output got what could be read
        output.writer.flush().with_context(writing)?;
        drop(output);
    }
    if !args.quiet {
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
