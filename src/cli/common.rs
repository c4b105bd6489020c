//! Options and machinery shared by the subcommands that read PDN files.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pdnkit::check::CheckOptions;
use pdnkit::draw::Edition;
use pdnkit::rules::Variant;
use pdnkit::run::RunOptions;
use std::io::IsTerminal;

/// Options about how to read and judge games, shared by lint, convert and stats.
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

    /// Rules to replay games with when the GameType tag is missing or to override it.
    /// Default: from GameType, Russian when it is missing.
    #[arg(long, value_enum)]
    pub variant: Option<Variant>,

    /// Draw-rule edition to judge draws and results by: `russia` (6.1.8, current Russian
    /// federation rules) or `fmjd` (7.2, the older FMJD-style rules).
    #[arg(long = "rules", value_enum, default_value_t = Edition::Russia)]
    pub edition: Edition,

    /// Worker threads (default: one per core). At most 1024; no more than four per core
    /// are started, nor more than the inputs can keep busy.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,

    /// Skip games larger than this many bytes (as `P107 game-too-large`). Each thread
    /// holds a game a few times over while it works on it. [default: 4194304, 4 MiB]
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
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
}

impl ReadArgs {
    /// The library options these arguments describe.
    pub fn check_options(&self) -> anyhow::Result<CheckOptions> {
        let mut options = CheckOptions::default();
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
        options.force_russian = self.variant == Some(Variant::Russian);
        options.text = self.text;
        options.edition = self.edition;
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

/// `-j N`: 1 to [`MAX_JOBS`].
fn parse_jobs(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of threads"))?;
    match n {
        0 => Err("at least 1 thread".to_string()),
        n if n > MAX_JOBS => Err(format!(
            "{n} threads: at most {MAX_JOBS} (leave out -j for one per core)"
        )),
        n => Ok(n),
    }
}

/// The run options of these arguments: how to check, and `-j` threads (one per core by
/// default, at most [`THREADS_PER_CORE`] per core). The run loop starts no more workers
/// than its inputs have jobs for.
pub fn run_options(args: &ReadArgs, check: CheckOptions) -> anyhow::Result<RunOptions> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = args.jobs.map_or(cores, |n| n.min(cores * THREADS_PER_CORE));
    Ok(RunOptions { check, threads })
}

/// `s` after a count other than one.
pub fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

pub fn progress_bar(len: u64, what: &'static str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || len == 0 {
        return ProgressBar::hidden();
    }
    let bar = if len >= 2 {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} files, {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}, {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    };
    bar.set_message(what);
    bar
}
