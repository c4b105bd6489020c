//! Options and machinery shared by the subcommands that read PDN files.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pdnkit::check::CheckOptions;
use pdnkit::config::Config;
use pdnkit::draw::Edition;
use pdnkit::rules::Variant;
use pdnkit::run::{self, Discovery, Event, Input, InputError, RunOptions, Task};
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// `-j`, for the commands that read many games: lint, convert and stats.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct JobsArgs {
    /// Worker threads (default, or 0: one per core). At most 1024; no more than four per
    /// core are started, nor more than the inputs can keep busy.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

/// The inputs of a command that reads games, and how it reads them: the PATHs, `-q`, `-j`,
/// the options of reading and judging, and which files of a folder are read.
#[derive(clap::Args, Debug)]
pub struct InputArgs {
    /// Files or directories (searched recursively for *.pdn in any case, hidden names
    /// skipped; see --include, --exclude); `-` is standard input. No PATH is standard
    /// input, or the current folder when standard input is a terminal.
    pub paths: Vec<PathBuf>,

    /// Print nothing on stderr but problems: no summary line, no progress bar (nor the
    /// index of split).
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub jobs: JobsArgs,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub walk: WalkArgs,
}

/// Options about how to read and judge games, shared by every command that reads them.
#[derive(clap::Args, Debug, Clone)]
pub struct ReadArgs {
    /// Text encoding of the input (e.g. utf-8, windows-1251, ibm866, koi8-r, windows-1252,
    /// utf-16le). Default: detect (UTF-8 and UTF-16 by BOM or validity, else guess among
    /// the Cyrillic and Western code pages).
    #[arg(long, value_name = "LABEL")]
    pub encoding: Option<String>,

    /// Read every input as text, even one dense with NUL or control bytes (which is
    /// otherwise refused as binary data, `P108`).
    #[arg(long)]
    pub text: bool,

    /// Replay every game by this variant's rules, whatever its tags say: a name
    /// (russian, international, english, brazilian, pool, czech, italian, spanish,
    /// portuguese, canadian, turkish, thai, frisian) or a GameType number. Default: the
    /// variant its GameType or Variant tag names, else the one its board shows (V102),
    /// else Russian.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<Variant>,

    /// Draw-rule edition to judge Russian games' draws and results by: `russia` (6.1.8,
    /// current Russian federation rules) or `fmjd` (7.2, the older FMJD-style rules).
    /// Other variants' games follow their federation's rules (docs/VARIANTS.md).
    /// [default: russia]
    #[arg(long = "rules", value_enum)]
    pub edition: Option<Edition>,

    /// Skip games larger than this (as `P107 game-too-large`): bytes, or with a unit, `K`,
    /// `M`, `G` (powers of 1024: `512K`, `4MiB`). Each thread holds a game a few times
    /// over while it works on it. [default: 4M]
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_game_bytes: Option<u64>,

    /// Skip games with more moves than this, all lines together (as `P107
    /// game-too-large`): a game with a finding is held as a tree of a few hundred bytes a
    /// move. [default: 20000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_game_moves: Option<u64>,

    /// Skip games with more tags, comments, NAGs, setups and variations than this, all
    /// together (as `P107 game-too-large`): each is a node of a game's tree. [default:
    /// 10000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_game_items: Option<u64>,

    /// Read this config file, instead of looking for pdnkit.toml or .pdnkit.toml from the
    /// current folder upward.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Read no config file.
    #[arg(long, conflicts_with = "config")]
    pub isolated: bool,
}

/// Which files of the folders given are read: lint, convert and stats.
#[derive(clap::Args, Debug, Clone)]
pub struct WalkArgs {
    /// Skip the files and folders GLOB matches when walking a folder: by name, or by path
    /// below the folder walked or the config file's folder (else the current one); in
    /// any case; repeatable. Replaces the config file's `exclude`.
    #[arg(long, value_name = "GLOB", value_parser = check_glob)]
    pub exclude: Vec<String>,

    /// Read the files GLOB matches when walking a folder, instead of *.pdn (matched as
    /// --exclude; repeatable).
    #[arg(long, value_name = "GLOB", value_parser = check_glob)]
    pub include: Vec<String>,
}

impl ReadArgs {
    /// The config file that applies: `--config`'s, none with `--isolated`, else the one
    /// found from the current folder upward (the default when there is none).
    pub fn config(&self) -> anyhow::Result<Config> {
        let config = match (&self.config, self.isolated) {
            (_, true) => None,
            (Some(path), false) => Some(Config::load(path)?),
            // (a current folder that is gone has no config file above it)
            (None, false) => match std::env::current_dir() {
                Ok(here) => Config::discover(&here)?,
                Err(_) => None,
            },
        };
        Ok(config.unwrap_or_default())
    }

    /// The library options these arguments describe, with what `config` sets and they
    /// do not.
    pub fn check_options(&self, config: &Config) -> anyhow::Result<CheckOptions> {
        let mut options = CheckOptions {
            encoding: config.encoding,
            ..CheckOptions::default()
        };
        if let Some(label) = &self.encoding {
            options.encoding = Some(
                encoding_rs::Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| {
                    anyhow::anyhow!("unknown encoding `{label}` (try utf-8, windows-1251, ibm866, koi8-r, windows-1252, utf-16le)")
                })?,
            );
        }
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        options.max_game_bytes = self.max_game_bytes.map(size);
        options.max_game_moves = self.max_game_moves.map(size);
        options.max_game_items = self.max_game_items.map(size);
        options.variant = self.variant;
        options.text = self.text;
        options.edition = self.edition.or(config.rules).unwrap_or_default();
        Ok(options)
    }
}

/// The largest `-j`: a value over it is a mistake (a thread each would cost gigabytes of
/// stacks and buffers, and no machine pdnkit reads archives on gives a thousand cores work
/// through one output).
const MAX_JOBS: usize = 1024;

/// Threads started per core at most, whatever `-j` says: a worker reads and replays, so
/// one a core keeps the machine busy, and a few more cover one that waits for the disk.
const THREADS_PER_CORE: usize = 4;

/// `-j N`: 0 (one per core) to [`MAX_JOBS`].
fn parse_jobs(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of threads"))?;
    match n {
        n if n > MAX_JOBS => Err(format!(
            "{n} threads: at most {MAX_JOBS} (0, or no -j, for one per core)"
        )),
        n => Ok(n),
    }
}

/// A size in bytes: a number, or with a unit `K`, `M`, `G` (`KB`, `KiB`… alike: powers of
/// 1024, as memory is counted), at least 1.
fn parse_bytes(text: &str) -> Result<u64, String> {
    let bytes = parse_size::Config::new()
        .with_binary()
        .parse_size(text.trim())
        .map_err(|e| format!("`{text}` is not a size ({e}): say 4194304, 512K or 4MiB"))?;
    match bytes {
        0 => Err("a size of at least 1 byte".to_string()),
        n => Ok(n),
    }
}

/// `--include`, `--exclude`: a glob that compiles.
fn check_glob(text: &str) -> Result<String, String> {
    run::inputs::glob(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// The inputs of a command that reads games (lint, convert, stats) and how to read them.
pub struct Inputs {
    /// What the paths of the command line expand to.
    pub inputs: Vec<Input>,
    /// The name of each input in the output and on stderr.
    pub labels: Vec<String>,
    /// The paths that could not be expanded.
    pub errors: Vec<InputError>,
    /// How to check, and `-j` threads (one per core by default, at most
    /// [`THREADS_PER_CORE`] per core; the run loop starts no more workers than its inputs
    /// have jobs for).
    pub options: RunOptions,
    started: Instant,
    /// `-q`: no progress bar either.
    quiet: bool,
}

/// The bytes the run has read of its inputs, for the progress bar.
static BYTES_READ: AtomicU64 = AtomicU64::new(0);

/// How long a run goes without a progress bar (a run shorter than this shows none).
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

impl Inputs {
    /// The inputs of `paths`, to be checked with `check` on the threads `jobs` asks for.
    /// Folders are walked for the files of `--include` and without those of `--exclude`
    /// (or the config's `exclude`); with no PATH, standard input, or the current folder
    /// when standard input is a terminal (nobody is typing a game in). Finding no file
    /// to read where folders were walked is an error: nothing checked is not clean.
    pub fn new(
        paths: &[PathBuf],
        jobs: JobsArgs,
        walk: &WalkArgs,
        config: &Config,
        check: CheckOptions,
    ) -> anyhow::Result<Inputs> {
        let started = Instant::now();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let threads =
            (jobs.jobs.filter(|&n| n > 0)).map_or(cores, |n| n.min(cores * THREADS_PER_CORE));
        let exclude = match walk.exclude.is_empty() {
            true => &config.exclude,
            false => &walk.exclude,
        };
        // (paths are matched below the config file's folder, else the current one)
        let root = config.root().map(Path::to_path_buf);
        let root = root.or_else(|| std::env::current_dir().ok());
        let discovery = Discovery::new(&walk.include, exclude, root.as_deref())?;
        let here = paths.is_empty() && io::stdin().is_terminal();
        let (inputs, errors) = match here {
            true => run::inputs::expand_current_folder(&discovery),
            false => run::expand(paths, &discovery),
        };
        if inputs.is_empty() && errors.is_empty() {
            let quoted: Vec<String> = match here {
                true => vec!["the current folder".to_string()],
                false => paths.iter().map(|p| format!("`{}`", p.display())).collect(),
            };
            anyhow::bail!(
                "no PDN files found under {} (looked for {}; see --include, --exclude)",
                quoted.join(", "),
                discovery.include_patterns().join(", ")
            );
        }
        Ok(Inputs {
            labels: inputs.iter().map(Input::label).collect(),
            inputs,
            errors,
            options: RunOptions {
                check,
                threads,
                progress: Some(&BYTES_READ),
            },
            started,
            quiet: false,
        })
    }

    /// The inputs the arguments `args` name (see [`Inputs::new`]), quiet with `-q`.
    pub fn of(args: &InputArgs, config: &Config, check: CheckOptions) -> anyhow::Result<Inputs> {
        let inputs = Inputs::new(&args.paths, args.jobs, &args.walk, config, check)?;
        Ok(inputs.quiet(args.quiet))
    }

    /// With `quiet`, no progress bar.
    pub fn quiet(self, quiet: bool) -> Inputs {
        Inputs { quiet, ..self }
    }

    /// Runs `task` over the inputs with a progress bar on a terminal: what the inputs go
    /// through (`what`: "checking"), the inputs done and, every 1,024 games, the games.
    /// `sink` is given each event with the label of its input and the bar, to print above
    /// it (`suspend`).
    pub fn run<T: Task>(
        &self,
        task: &T,
        what: &'static str,
        mut sink: impl FnMut(&str, Event<T::Output>, &ProgressBar) -> io::Result<()>,
    ) -> io::Result<()> {
        let progress = self.progress_bar(what);
        let (mut current, mut label, mut games) = (self.labels.iter(), "", 0u64);
        let result = run::run(&self.inputs, &self.options, task, |event| {
            match &event {
                Event::Start => label = current.next().map_or("", String::as_str),
                Event::Game(_) => {
                    games += 1;
                    if !progress.is_hidden() && games % 1024 == 0 {
                        progress.set_message(format!("{what} ({games} games)"));
                    }
                }
                Event::Problem(_) => {}
                Event::End(_) => progress.inc(1),
            }
            sink(label, event, &progress)
        });
        progress.finish_and_clear();
        result
    }

    /// The progress bar of a run, on a terminal, shown once the run has gone on for
    /// [`PROGRESS_AFTER`] (none with `-q`): for one file, its bytes read against its size,
    /// the percent, the rate and the time left, with a steady tick; for standard input the
    /// bytes read; for many inputs, the inputs done.
    fn progress_bar(&self, what: &'static str) -> ProgressBar {
        let inputs = &self.inputs;
        if self.quiet || !io::stderr().is_terminal() || inputs.is_empty() {
            return ProgressBar::hidden();
        }
        let size = match &inputs[..] {
            [Input::File(path)] => std::fs::metadata(path)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
            _ => None,
        };
        let (len, template, bytes) = match (inputs.len(), size) {
            (1, Some(size)) => (
                Some(size),
                "{msg} {bar:30} {binary_bytes}/{binary_total_bytes} ({percent}%), {binary_bytes_per_sec}, ETA {eta}",
                true,
            ),
            (1, None) => (None, "{spinner} {msg}: {binary_bytes}, {elapsed}", true),
            (n, _) => (
                Some(n as u64),
                "{msg} {bar:40} {pos}/{len} files, {elapsed}",
                false,
            ),
        };
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        bar.set_style(ProgressStyle::with_template(template).expect("the templates are valid"));
        bar.set_message(what);
        // (shown after a while, and moved by the bytes read, whether or not games come)
        let after = std::env::var("PDNKIT_PROGRESS_AFTER_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(PROGRESS_AFTER, Duration::from_millis);
        let shown = bar.clone();
        let started = Instant::now();
        BYTES_READ.store(0, Ordering::Relaxed);
        let spawned = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || {
                while !shown.is_finished() {
                    if shown.is_hidden() && started.elapsed() >= after {
                        shown.set_draw_target(ProgressDrawTarget::stderr());
                        shown.enable_steady_tick(Duration::from_millis(200));
                    }
                    if bytes {
                        shown.set_position(BYTES_READ.load(Ordering::Relaxed));
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
        // (without the thread, no bar: nothing else is lost)
        match spawned {
            Ok(_) => bar,
            Err(_) => ProgressBar::hidden(),
        }
    }

    /// Seconds since the command started, for its summary line.
    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

/// A temporary file, removed when dropped (and on Ctrl-C or a termination signal).
pub struct TempFile(pub PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        super::interrupt::forget(&self.0);
    }
}

/// A new temporary file in the system's folder for them, named after `prefix`, opened
/// for reading and writing.
pub fn temp_file(prefix: &str) -> io::Result<(TempFile, std::fs::File)> {
    let (path, _) = super::output::create_temp(&std::env::temp_dir(), prefix)?;
    super::interrupt::remove_on_signal(&path);
    let temp = TempFile(path);
    let file = std::fs::File::options()
        .read(true)
        .write(true)
        .open(&temp.0)?;
    Ok((temp, file))
}

/// Copies each input of `inputs` that cannot be read twice (standard input, a pipe, a
/// FIFO, a process substitution) to a temporary file, which the input becomes (its label
/// stays the name it was given): for the commands that read their inputs twice. The
/// files are removed when the guards given back are dropped.
pub fn spool_once_readable(inputs: &mut Inputs) -> anyhow::Result<Vec<TempFile>> {
    let mut spooled = Vec::new();
    for (input, label) in inputs.inputs.iter_mut().zip(&inputs.labels) {
        if rereadable(input) {
            continue;
        }
        let copy = |from: &mut dyn io::Read| -> io::Result<TempFile> {
            let (temp, mut file) = temp_file("pdnkit-input")?;
            io::copy(from, &mut file)?;
            Ok(temp)
        };
        let temp = match input {
            Input::Stdin => copy(&mut io::stdin().lock()),
            Input::File(p) => std::fs::File::open(&*p).and_then(|mut f| copy(&mut f)),
        }
        .map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
        *input = Input::File(temp.0.clone());
        spooled.push(temp);
    }
    Ok(spooled)
}

/// Whether `input` can be read twice: a regular file (not standard input, a pipe or a
/// FIFO, which give their bytes once).
fn rereadable(input: &Input) -> bool {
    match input {
        Input::Stdin => false,
        Input::File(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file()),
    }
}

/// For `--unique`: the copies among the inputs, found by two passes of their own before
/// the command's run (which says what is wrong with the inputs: these passes do not).
/// Inputs that cannot be read twice are copied to temporary files first, removed when the
/// guards given back are dropped.
pub fn copies(inputs: &mut Inputs) -> anyhow::Result<(pdnkit::duplicates::Copies, Vec<TempFile>)> {
    let spooled = spool_once_readable(inputs)?;
    let (_temp, spool) = temp_file("pdnkit-duplicates")?;
    let mut groups = pdnkit::duplicates::find(&inputs.inputs, &inputs.options, spool, |_| {})?;
    Ok((groups.copies()?, spooled))
}

/// `s` after a count other than one.
pub fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

/// The exit status of a command that reads inputs: 2 when some input could not be read,
/// else 1 when it found what it fails for, else 0.
pub fn exit_code(io_failures: usize, failed: bool) -> ExitCode {
    match (io_failures, failed) {
        (0, false) => ExitCode::SUCCESS,
        (0, true) => ExitCode::from(1),
        _ => ExitCode::from(2),
    }
}

/// Says a problem of an input on stderr, for a command whose output is not diagnostics,
/// above the progress bar: one that could not be read as [`io_error`] does, any other as
/// `pdnkit: SEVERITY: PATH:LINE:COLUMN: message (name)`. Whether it left the input unread
/// (unreadable, or not PDN).
pub fn say_problem(d: &pdnkit::diag::Diagnostic, progress: &indicatif::ProgressBar) -> bool {
    use pdnkit::diag::codes::{IO_ERROR, NOT_PDN};
    progress.suspend(|| match d.rule == &IO_ERROR {
        true => io_error(&d.path, &d.message),
        false => eprintln!(
            "pdnkit: {}: {}: {} ({})",
            d.severity,
            d.place(),
            d.message,
            d.rule.name
        ),
    });
    d.rule == &IO_ERROR || d.rule == &NOT_PDN
}

/// Says that the input `path` could not be read, and why, in the one wording of every
/// command (as clap says a usage error): `error: PATH: reason`.
pub fn io_error(path: &str, reason: &str) {
    eprintln!("error: {path}: {reason}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_bytes_or_powers_of_1024() {
        for (text, bytes) in [
            ("100", 100),
            ("512K", 512 << 10),
            ("4MiB", 4 << 20),
            ("4M", 4 << 20),
            ("1 G", 1 << 30),
            ("2kb", 2048),
        ] {
            assert_eq!(parse_bytes(text), Ok(bytes), "{text}");
        }
        for bad in ["0", "abc", "-1", "4Q"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_jobs("0"), Ok(0));
        assert!(parse_jobs("1025").is_err());
    }
}
