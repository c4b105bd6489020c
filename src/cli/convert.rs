//! `pdnkit convert`: PDN to CSV, JSON Lines or canonical PDN, streaming game by game.

use super::files::{self, Input};
use super::interrupt;
use super::pipeline::{self, OnePass, OnePassGame, Piece};
use super::{Cli, common};
use pdnkit::check::{CheckOptions, Checked, CheckedGame, DiagnosedGames, Diagnoser, check_game};
use pdnkit::convert::GameStatus;
use pdnkit::convert::json::push_game_json;
use pdnkit::convert::repdn::{PdnOptions, write_pdn_renotating};
use pdnkit::convert::table::{self, TagUnion};
use pdnkit::diag::{Diagnostic, Severity};
use pdnkit::rules::notation::{CaptureSeparator, CaptureStyle, SquareStyle, Style};
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `--to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// one row per game (or per ply with --per-move), RFC 4180, UTF-8
    Csv,
    /// one JSON object per game: tags, the whole move tree resolved, status, diagnostics
    Jsonl,
    /// canonical PDN
    Pdn,
}

/// `--notation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Notation {
    /// c3-d4, c3:e5
    Algebraic,
    /// 22-18, 22:15
    Numeric,
}

/// `--captures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Captures {
    /// from and to, plus intermediate squares only where needed to be unambiguous (PDN 3.0)
    Short,
    /// every landing square
    Full,
}

/// `--separator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Separator {
    /// c3:e5 (PDN 3.0 for Russian)
    #[value(name = ":", alias = "colon")]
    Colon,
    /// c3xe5
    #[value(name = "x", alias = "cross")]
    Cross,
}

/// `--strip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strip {
    Comments,
    Variations,
    Nags,
}

/// Convert PDN files to CSV, JSON Lines or canonical PDN.
///
/// Games are judged exactly as `pdnkit lint` judges them and read one at a time, so memory
/// stays bounded whatever the size of the input.
///
/// Exit status: 0 when every input was converted (also when some games are illegal or
/// unparsed; see --strict), 1 with --strict when some game is not `ok` or was not read (too
/// large, or binary data), 2 on a usage or I/O error (then an -o file is not written).
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Files or directories (searched recursively for *.pdn in any case); `-` or nothing
    /// reads standard input.
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum)]
    pub to: Target,

    /// Write to this file instead of standard output (atomically: through a temporary
    /// file in the same directory, renamed when done; a link is written through, a device
    /// or FIFO directly). Refuses to overwrite an input.
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
    #[arg(long, value_enum, default_value_t = Notation::Algebraic)]
    pub notation: Notation,

    /// How much of a capture's route to write.
    #[arg(long, value_enum, default_value_t = Captures::Short)]
    pub captures: Captures,

    /// Capture separator.
    #[arg(long, value_enum, default_value_t = Separator::Colon)]
    pub separator: Separator,

    /// pdn: leave these out (comma separated or repeated).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub strip: Vec<Strip>,

    /// Exit 1 when some game is illegal or unparsed, or could not be read (a game too large,
    /// a binary file: reported on stderr, nothing written for it).
    #[arg(long)]
    pub strict: bool,

    /// Do not print the summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub common: common::ReadArgs,
}

impl ConvertArgs {
    fn style(&self) -> Style {
        Style {
            squares: match self.notation {
                Notation::Algebraic => SquareStyle::Algebraic,
                Notation::Numeric => SquareStyle::Numeric,
            },
            captures: match self.captures {
                Captures::Short => CaptureStyle::Minimal,
                Captures::Full => CaptureStyle::Full,
            },
            separator: match self.separator {
                Separator::Colon => CaptureSeparator::Colon,
                Separator::Cross => CaptureSeparator::Cross,
            },
        }
    }

    fn check_usage(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            !self.per_move || self.to == Target::Csv,
            "--per-move needs --to csv"
        );
        anyhow::ensure!(
            self.tags.is_empty() || (self.to == Target::Csv && !self.per_move),
            "--tags needs --to csv (without --per-move); jsonl always has every tag"
        );
        anyhow::ensure!(
            self.strip.is_empty() || self.to == Target::Pdn,
            "--strip needs --to pdn"
        );
        Ok(())
    }
}

/// Where the output goes; a file output is a temporary file until [`Output::commit`].
struct Output {
    writer: Box<dyn Write>,
    file: Option<(PathBuf, PathBuf)>,
}

impl Output {
    fn open(target: Option<&Path>, inputs: &[Input]) -> anyhow::Result<Output> {
        let Some(out) = target else {
            return Ok(Output {
                writer: Box::new(BufWriter::new(io::stdout().lock())),
                file: None,
            });
        };
        if let Ok(canon) = out.canonicalize() {
            for input in inputs {
                if let Input::File(p) = input {
                    if p.canonicalize().is_ok_and(|c| c == canon) {
                        anyhow::bail!(
                            "refusing to overwrite input file {} with the output",
                            p.display()
                        );
                    }
                }
            }
        }
        // A symbolic link is written through (the link stays, its target gets the output);
        // what is not a regular file (a device such as /dev/null, a FIFO) is written to
        // as it is: renaming a file over it would replace it.
        let resolved = match std::fs::symlink_metadata(out) {
            Ok(m) if m.file_type().is_symlink() => out.canonicalize().ok(),
            _ => None,
        };
        let out = resolved.as_deref().unwrap_or(out);
        match std::fs::metadata(out) {
            Ok(m) if m.is_dir() => anyhow::bail!("-o {}: a directory", out.display()),
            Ok(m) if !m.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(out)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
                return Ok(Output {
                    writer: Box::new(BufWriter::new(file)),
                    file: None,
                });
            }
            _ => {}
        }
        let dir = match out.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = out
            .file_name()
            .ok_or_else(|| anyhow::anyhow!("-o {}: not a file name", out.display()))?
            .to_string_lossy()
            .into_owned();
        let (tmp, file) = create_temp(&dir, &format!(".{name}"))
            .map_err(|e| anyhow::anyhow!("cannot write in {}: {e}", dir.display()))?;
        interrupt::remove_on_signal(&tmp);
        Ok(Output {
            writer: Box::new(BufWriter::new(file)),
            file: Some((tmp, out.to_path_buf())),
        })
    }

    /// Flushes, and for a file renames the temporary file over the target.
    fn commit(mut self) -> io::Result<()> {
        self.writer.flush()?;
        drop(std::mem::replace(&mut self.writer, Box::new(io::sink())));
        if let Some((tmp, target)) = self.file.take() {
            if let Err(e) = interrupt::commit(&tmp, &target) {
                // not renamed: the temporary file goes, as on any other error
                self.file = Some((tmp, target));
                return Err(e);
            }
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.file.take() {
            let _ = std::fs::remove_file(&tmp);
            interrupt::forget(&tmp);
        }
    }
}

/// A new file `PREFIX.pdnkit-PID-N.tmp` in `dir`, created exclusively.
fn create_temp(dir: &Path, prefix: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for n in 0..1000u32 {
        let path = dir.join(format!("{prefix}.pdnkit-{pid}-{n}.tmp"));
        match File::options().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free temporary file name"))
}

/// Standard input copied to a temporary file (for --tags all, which reads its input
/// twice); removed on drop.
struct Spooled(PathBuf);

impl Drop for Spooled {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        interrupt::forget(&self.0);
    }
}

fn spool_stdin() -> io::Result<Spooled> {
    let (path, mut file) = create_temp(&std::env::temp_dir(), "pdnkit-stdin")?;
    interrupt::remove_on_signal(&path);
    let spooled = Spooled(path);
    io::copy(&mut io::stdin().lock(), &mut file)?;
    Ok(spooled)
}

#[derive(Default)]
struct Counts {
    files: usize,
    games: usize,
    ok: usize,
    illegal: usize,
    unparsed: usize,
    /// Errors of the reader that leave games out (a game too large, binary data).
    not_read: usize,
}

impl Counts {
    fn add(&mut self, status: GameStatus) {
        self.games += 1;
        match status {
            GameStatus::Ok => self.ok += 1,
            GameStatus::Illegal => self.illegal += 1,
            GameStatus::Unparsed => self.unparsed += 1,
        }
    }
}

thread_local! {
    /// Where a worker writes a game's JSON (see [`Formatter::game`]).
    static JSON_SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The largest JSON buffer a worker keeps from game to game.
const MAX_JSON_SCRATCH: usize = 4 << 20;

/// How each game is written; shared by the worker threads.
struct Formatter<'a> {
    args: &'a ConvertArgs,
    style: Style,
    pdn: PdnOptions,
    tag_columns: Vec<String>,
}

impl Formatter<'_> {
    /// One game's output (without the blank line that separates PDN games), formatted on
    /// a worker thread so that the main thread only writes bytes in order.
    fn game(&self, path: &str, g: &mut CheckedGame) -> io::Result<Vec<u8>> {
        match self.args.to {
            Target::Csv if self.args.per_move => csv_bytes(table::ply_rows(path, g, self.style)),
            Target::Csv => csv_bytes([table::game_row(path, g, self.style, &self.tag_columns)]),
            Target::Jsonl => JSON_SCRATCH.with_borrow_mut(|scratch| {
                // written into this thread's buffer, then copied out at its size: grown in
                // a vector of its own, the JSON of a long game was a run of ever larger
                // blocks, made and freed for each game
                scratch.clear();
                // A game of megabytes is megabytes of comment (its moves are at most
                // MAX_GAME_MOVES), which its JSON holds about as written: room for that at
                // once, not grown to twice the size by doubling.
                scratch.reserve(g.raw.text.len() / 8 * 9);
                push_game_json(scratch, path, g, self.style);
                scratch.push(b'\n');
                // (a buffer grown past the largest kept goes out itself, not copied)
                Ok(if scratch.capacity() > MAX_JSON_SCRATCH {
                    std::mem::take(scratch)
                } else {
                    scratch.to_vec()
                })
            }),
            Target::Pdn => {
                // about the game's text: a game of megabytes is not grown into twice its size
                let mut text = String::with_capacity(g.raw.text.len() / 8 * 9 + 256);
                // (the game is done with after this: its moves are re-notated in place)
                write_pdn_renotating(&mut text, g, &self.pdn);
                Ok(text.into_bytes())
            }
        }
    }

    /// A game's CSV row, without its number (see [`Converted`]), from what the quick lane
    /// kept of it (every ply) or from the full check; `number_at`: [`number_at`] of
    /// `path`.
    fn csv_game_row(&self, path: &str, checked: Checked<'_>, number_at: usize) -> Converted {
        let (status, mut row, index) = match checked {
            Checked::Quick(g) => {
                let row = table::quick_game_row(path, &g, self.style, &self.tag_columns);
                (GameStatus::Ok, row, g.raw.index)
            }
            Checked::Full(g) => {
                let status = GameStatus::of(&g);
                let row = table::game_row(path, &g, self.style, &self.tag_columns);
                let index = g.raw.index;
                // (a long game's main line is kept for the next one: see Game::recycle)
                g.game.recycle();
                (status, row, index)
            }
        };
        // (the number is the second cell: left empty, written in on output)
        row[1].clear();
        Converted {
            status,
            bytes: csv_bytes([row]),
            number: Some((number_at, index)),
        }
    }
}

/// A converted game: how it fared, and its bytes. A CSV game row is held without its game
/// number, which is written in at `number` as the row is output: the blocks of a big file
/// are read apart, each numbering its games from 1 until the games before it are counted
/// ([`OnePass::rebase`]).
struct Converted {
    status: GameStatus,
    bytes: io::Result<Vec<u8>>,
    /// Where the number goes in `bytes`, and the number.
    number: Option<(usize, u64)>,
}

impl Converted {
    /// Writes the bytes, the number in its place.
    fn write_to(self, out: &mut impl Write) -> io::Result<()> {
        let bytes = self.bytes?;
        match self.number {
            Some((at, n)) => {
                out.write_all(&bytes[..at])?;
                out.write_all(itoa::Buffer::new().format(n).as_bytes())?;
                out.write_all(&bytes[at..])
            }
            None => out.write_all(&bytes),
        }
    }
}

/// Where the game number goes in the CSV game rows of the input `path`: after the first
/// cell, the path as CSV writes it, and its comma.
fn number_at(path: &str) -> usize {
    let mut row = Vec::new();
    // (`path,` and the row's end; a path is never empty, so never quoted for that)
    push_csv_record(&mut row, &[path, ""]);
    row.len() - 2
}

/// `convert --to csv`'s one-pass reading ([`OnePassGame`]) of game rows: most games are read, checked and made
/// rows in one pass over their text, and a big file is read in blocks on every thread.
struct CsvRowsOnePass<'a> {
    formatter: &'a Formatter<'a>,
    /// The input read from standard input, spooled to this file (rows say `-`).
    spooled: Option<&'a Path>,
}

impl OnePassGame<Converted> for CsvRowsOnePass<'_> {
    /// The path the rows say, and where their game numbers go.
    type Reading = (String, usize);

    fn start<R: io::Read>(&self, path: &str, games: &mut DiagnosedGames<R>) -> (String, usize) {
        games.keep_first_plies(usize::MAX);
        let label = match self.spooled {
            Some(spooled) if Path::new(path) == spooled => "-".to_string(),
            _ => path.to_string(),
        };
        let at = number_at(&label);
        (label, at)
    }

    fn next<R: io::Read>(
        &self,
        (label, at): &(String, usize),
        games: &mut DiagnosedGames<R>,
    ) -> Option<Result<Converted, Diagnostic>> {
        games.next_checked(|checked| self.formatter.csv_game_row(label, checked, *at))
    }

    fn rebase(&self, converted: &mut Converted, games: u64) {
        if let Some((_, n)) = &mut converted.number {
            *n += games;
        }
    }
}

/// CSV rows as bytes (the header, game rows and per-move rows), byte for byte as the csv
/// crate writes them: RFC 4180 with CRLF row ends.
///
/// Written here: the csv crate's writer, made for each game and given a field at a
/// time, each field's bytes looked up one by one for a quote, was a tenth of `convert
/// --to csv`'s instructions (a test holds the two to the same bytes). Unlike it, rows of
/// different lengths are not refused: the rows made here all have the columns of
/// their header.
fn csv_bytes(rows: impl IntoIterator<Item = Vec<String>>) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    for row in rows {
        push_csv_record(&mut out, &row);
    }
    Ok(out)
}

/// Whether a field holds a comma, a quote or a line break. Sixteen bytes at a time, each
/// compared with the four and no exit inside, which the compiler makes vector compares
/// of: memchr, called twice a field, cost more in calls than the short fields' bytes.
fn needs_csv_quotes(bytes: &[u8]) -> bool {
    let special = |b: u8| u8::from((b == b',') | (b == b'"') | (b == b'\r') | (b == b'\n'));
    let mut chunks = bytes.chunks_exact(16);
    for chunk in chunks.by_ref() {
        if chunk.iter().fold(0, |found, &b| found | special(b)) != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| special(b) != 0)
}

/// Appends one record: fields separated by commas, each quoted only when it holds a
/// comma, a quote or a line break (its quotes then doubled), and a CR LF. As the csv
/// crate does, a record of one empty field (or none) is written `""`, so that it is not
/// read as a blank line.
fn push_csv_record(out: &mut Vec<u8>, fields: &[impl AsRef<str>]) {
    if fields.len() <= 1 && fields.iter().all(|f| f.as_ref().is_empty()) {
        out.extend_from_slice(b"\"\"\r\n");
        return;
    }
    // (the record's room at once, not grown field by field: its quotes, rare, may grow it)
    out.reserve(fields.iter().map(|f| f.as_ref().len() + 1).sum::<usize>() + 2);
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let bytes = field.as_ref().as_bytes();
        if !needs_csv_quotes(bytes) {
            out.extend_from_slice(bytes);
            continue;
        }
        out.push(b'"');
        let mut rest = bytes;
        while let Some(quote) = memchr::memchr(b'"', rest) {
            out.extend_from_slice(&rest[..=quote]);
            out.push(b'"');
            rest = &rest[quote + 1..];
        }
        out.extend_from_slice(rest);
        out.push(b'"');
    }
    out.extend_from_slice(b"\r\n");
}

/// CSV as the csv crate writes it, RFC 4180 with CRLF row ends: what [`csv_bytes`] is
/// held to.
#[cfg(test)]
fn csv_builder() -> csv::WriterBuilder {
    let mut b = csv::WriterBuilder::new();
    b.terminator(csv::Terminator::CRLF);
    b
}

pub fn run(args: &ConvertArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    args.check_usage()?;
    let options = CheckOptions {
        // (no output of convert shows a diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.common.check_options()?
    };
    let (mut inputs, input_errors) = files::expand(&args.paths);
    for e in &input_errors {
        eprintln!("pdnkit: error: {}: {}", e.path, e.message);
    }

    // --tags all reads the input twice: standard input is kept in a temporary file.
    let all_tags = args.tags.iter().any(|t| t == "all");
    let mut _spooled = None;
    if all_tags && inputs.contains(&Input::Stdin) {
        let s = spool_stdin()?;
        for i in inputs.iter_mut().filter(|i| **i == Input::Stdin) {
            *i = Input::File(s.0.clone());
        }
        _spooled = Some(s);
    }
    let label = |input: &Input| match (input, &_spooled) {
        (Input::File(p), Some(s)) if *p == s.0 => "-".to_string(),
        _ => input.label(),
    };

    let tag_columns = if all_tags {
        let mut union = TagUnion::default();
        for input in &inputs {
            if let Input::File(p) = input {
                let file = File::open(p)
                    .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", label(input)))?;
                table::collect_tag_names(file, options.encoding, &mut union)
                    .map_err(|e| anyhow::anyhow!("reading {}: {e}", label(input)))?;
            }
        }
        union.into_names()
    } else {
        args.tags.clone()
    };

    let mut output = Output::open(args.output.as_deref(), &inputs)?;
    let style = args.style();
    let formatter = Formatter {
        args,
        style,
        pdn: PdnOptions {
            style,
            comments: !args.strip.contains(&Strip::Comments),
            variations: !args.strip.contains(&Strip::Variations),
            nags: !args.strip.contains(&Strip::Nags),
        },
        tag_columns,
    };
    if args.to == Target::Csv {
        let mut header = Vec::new();
        if args.per_move {
            push_csv_record(&mut header, &table::PLY_COLUMNS);
        } else {
            push_csv_record(&mut header, &table::game_header(&formatter.tag_columns));
        }
        output.writer.write_all(&header)?;
    }

    // Games are checked and formatted in parallel, in batches; the bytes are written here
    // in input order (the same output whatever -j).
    let pool = common::thread_pool(args.common.jobs)?;
    let labels: Vec<String> = inputs.iter().map(label).collect();
    let mut counts = Counts::default();
    let mut io_failures = input_errors.len();
    let mut first = true;
    let progress = common::progress_bar(inputs.len() as u64, "converting");
    // A game row of the CSV needs no tree: the games the quick lane proves are written
    // from what it kept (every ply), the others from the full check.
    let quick_rows = args.to == Target::Csv && !args.per_move;
    let work = |batch: pipeline::Batch| {
        let label = &labels[batch.input];
        if quick_rows {
            let mut checker = Diagnoser::default();
            checker.keep_first_plies(usize::MAX);
            let at = number_at(label);
            return batch
                .games
                .into_iter()
                .map(|raw| {
                    let checked = checker.check(&batch.path, raw, &batch.options);
                    formatter.csv_game_row(label, checked, at)
                })
                .collect();
        }
        batch
            .games
            .into_iter()
            .map(|raw| {
                let mut g = check_game(&batch.path, raw, &batch.options);
                let converted = Converted {
                    status: GameStatus::of(&g),
                    bytes: formatter.game(label, &mut g),
                    number: None,
                };
                // (a long game's main line is kept for the next one: see Game::recycle)
                g.game.recycle();
                converted
            })
            .collect()
    };
    // what a converted game holds is its bytes
    let weigh = |c: &Converted| c.bytes.as_ref().map_or(0, Vec::len);
    let one_pass = CsvRowsOnePass {
        formatter: &formatter,
        spooled: _spooled.as_ref().map(|s| s.0.as_path()),
    };
    let one_pass = quick_rows.then_some(&one_pass as &dyn OnePass<Converted>);
    pipeline::run(&pool, &inputs, &options, work, weigh, one_pass, |piece| {
        match piece {
            Piece::Start => counts.files += 1,
            Piece::Games(results) => {
                for converted in results {
                    counts.add(converted.status);
                    if args.to == Target::Pdn && !std::mem::take(&mut first) {
                        output.writer.write_all(b"\n")?;
                    }
                    converted.write_to(&mut output.writer)?;
                }
            }
            // a file-level problem (not PDN, a game too large to read, unreadable):
            // said on stderr; only a failed read spoils the output
            Piece::Problem { diagnostic: d, io } => {
                progress.suspend(|| {
                    eprintln!(
                        "pdnkit: {}: {}:{}:{}: {} ({})",
                        d.severity, d.path, d.line, d.column, d.message, d.rule.name
                    )
                });
                io_failures += usize::from(io);
                // (text outside any game, a warning, is no game left out)
                counts.not_read += usize::from(!io && d.severity == Severity::Error);
            }
            Piece::End(_) => progress.inc(1),
        }
        Ok(())
    })?;
    progress.finish_and_clear();

    if io_failures == 0 {
        output.commit()?;
    } else {
        // a partial output file is not written; standard output got what could be read
        output.writer.flush()?;
        drop(output);
    }
    if !args.quiet {
        eprintln!(
            "pdnkit: {} game{} from {} file{} ({} ok, {} illegal, {} unparsed{}){}; {:.2}s",
            counts.games,
            plural(counts.games),
            counts.files,
            plural(counts.files),
            counts.ok,
            counts.illegal,
            counts.unparsed,
            match counts.not_read {
                0 => String::new(),
                n => format!(", {n} not read"),
            },
            match (&args.output, io_failures) {
                (Some(o), 0) => format!(" written to {}", o.display()),
                (Some(o), _) => format!("; {} not written", o.display()),
                _ => String::new(),
            },
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if io_failures > 0 {
        ExitCode::from(2)
    } else if args.strict && (counts.ok < counts.games || counts.not_read > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_records_are_written_as_the_csv_crate_writes_them() {
        // fields of the bytes CSV treats apart, others, and non-ASCII text; records of
        // zero to five fields, one empty field alone among them
        let mut rng = pdnkit::generate::SplitMix64::new(9);
        let pieces = [
            ",", "\"", "\r", "\n", "\r\n", " ", "a", "1. c3-d4", "Ёж", "'", "\t", "",
        ];
        for _ in 0..5_000 {
            let width = rng.below(6) as usize;
            let rows: Vec<Vec<String>> = (0..1 + rng.below(3))
                .map(|_| {
                    (0..width)
                        .map(|_| {
                            (0..rng.below(5))
                                .map(|_| *rng.pick(&pieces))
                                .collect::<String>()
                        })
                        .collect()
                })
                .collect();
            let mut w = csv_builder().from_writer(Vec::new());
            for row in &rows {
                w.write_record(row).unwrap();
            }
            let expected = w.into_inner().unwrap();
            assert_eq!(csv_bytes(rows.clone()).unwrap(), expected, "{rows:?}");
        }
    }

    #[test]
    fn temp_files_are_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let (a, _) = create_temp(dir.path(), ".x").unwrap();
        let (b, _) = create_temp(dir.path(), ".x").unwrap();
        assert_ne!(a, b);
    }
}
