//! `pdnkit stats`: totals, results, draws, lengths, openings, players and final material
//! over many files at once.

use super::files::{self, Input};
use super::{Cli, common};
use pdnkit::check::CheckOptions;
use pdnkit::stats::{self, Counter, GroupBy, Stats, StatsOptions};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Output format of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// aligned text tables with a histogram, for people
    Table,
    /// one JSON object, schema `pdnkit-stats/1` (documented, stable)
    Json,
    /// the grouped table (see --by) as CSV with a header row
    Csv,
}

/// `--by`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ByArg {
    Event,
    Player,
    Year,
    Opening,
    File,
}

impl From<ByArg> for GroupBy {
    fn from(b: ByArg) -> GroupBy {
        match b {
            ByArg::Event => GroupBy::Event,
            ByArg::Player => GroupBy::Player,
            ByArg::Year => GroupBy::Year,
            ByArg::Opening => GroupBy::Opening,
            ByArg::File => GroupBy::File,
        }
    }
}

/// Summarise PDN files: totals, results, draws by basis, game lengths, openings, players,
/// final material, per group.
///
/// Games are judged as `pdnkit lint` judges them. Exit status: 0, or 2 on a usage or I/O
/// error (a missing or unreadable file is reported on stderr and the others still counted).
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// Files or directories (searched recursively for *.pdn in any case); `-` or nothing
    /// reads standard input.
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,

    /// Group results by event, player, year (of the Date tag), opening or file.
    #[arg(long, value_enum)]
    pub by: Option<ByArg>,

    /// Opening length in plies (0: no openings).
    #[arg(long, value_name = "PLIES", default_value_t = stats::DEFAULT_DEPTH)]
    pub depth: usize,

    /// Longest lists (openings, players, final material, diagnostics) cut to N entries;
    /// 0 shows all. Groups are never cut.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,

    /// Do not print the summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub common: common::ReadArgs,
}

pub fn run(args: &StatsArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let check = args.common.check_options()?;
    let options = StatsOptions {
        depth: args.depth,
        by: args.by.map(GroupBy::from),
    };
    let pool = common::thread_pool(args.common.jobs)?;
    let (inputs, input_errors) = files::expand(&args.paths);
    let mut failures = 0usize;
    for e in &input_errors {
        failures += 1;
        eprintln!("pdnkit: cannot read {}: {}", e.path, e.message);
    }

    let progress = common::progress_bar(inputs.len() as u64, "counting");
    // games counted so far, shown beside the files so that one huge file shows progress
    let games = AtomicU64::new(0);
    let on_batch = |n: u64| {
        let total = games.fetch_add(n, Ordering::Relaxed) + n;
        progress.set_message(format!("counting ({total} games)"));
    };
    let mut emit = |(label, error): (String, Option<io::Error>)| -> io::Result<()> {
        progress.inc(1);
        if let Some(e) = &error {
            failures += 1;
            progress.suspend(|| eprintln!("pdnkit: cannot read {label}: {e}"));
        }
        Ok(())
    };
    // Each thread counts into its own counter, merged once at the end (counts merge in
    // any order to the same stats): a small file among others is counted straight into
    // it, a big one on every thread free and merged into it.
    let threads = pool.current_num_threads();
    let counters: Vec<_> = (0..=threads)
        .map(|_| Mutex::new(Counter::new(options)))
        .collect();
    common::for_each_ordered(
        &pool,
        &inputs,
        |input| {
            let slot = rayon::current_thread_index().map_or(threads, |i| i.min(threads));
            // (a counter is held only while no other input can start on its thread; a
            // panic poisons it and ends the run with the panic)
            let counter = || counters[slot].lock().unwrap_or_else(|e| e.into_inner());
            let alone = inputs.len() > 1 && input.small_file_size().is_some();
            let error = count_one(input, (&check, &options, alone), counter, &on_batch);
            (input.label(), error)
        },
        &mut emit,
    )?;
    let mut total = Stats::new(options);
    for counter in counters {
        total.merge(
            counter
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .into_stats(),
        );
    }
    progress.finish_and_clear();

    let report = total.report(args.top);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        StatsFormat::Table => stats::render::write_table(&mut out, &report)?,
        StatsFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &report).map_err(io::Error::from)?;
            writeln!(out)?;
        }
        StatsFormat::Csv => stats::render::write_csv(&mut out, &report)?,
    }
    out.flush()?;

    if !args.quiet {
        eprintln!(
            "pdnkit: {} file{}, {} game{}, {} not replayed; {:.2}s",
            report.totals.files,
            if report.totals.files == 1 { "" } else { "s" },
            report.totals.games,
            if report.totals.games == 1 { "" } else { "s" },
            report.totals.not_replayed,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if failures > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// Counts one input into this thread's `counter`: `alone` on this thread only (a small
/// file among others, each counted on its own thread), else on every thread free.
/// Returns why reading stopped early, if it did.
fn count_one<'c>(
    input: &Input,
    (check, options, alone): (&CheckOptions, &StatsOptions, bool),
    counter: impl Fn() -> MutexGuard<'c, Counter>,
    on_batch: &(impl Fn(u64) + Sync),
) -> Option<io::Error> {
    let label = input.label();
    let read = |r: &mut dyn io::Read| match alone {
        true => counter().count(&label, r, check, on_batch),
        false => {
            // (counted on the pool, where this thread may start another input while it
            // waits: its counter is not held meanwhile)
            let file = stats::stats_reader_with_progress(&label, r, check, options, on_batch);
            counter().merge(file.stats);
            file.error
        }
    };
    match input {
        // not `lock()`: a thread waiting for its batch may start another input, and a
        // second `-` would then wait for a lock its own thread holds
        Input::Stdin => read(&mut io::stdin()),
        Input::File(path) => match std::fs::File::open(path) {
            Ok(mut file) => read(&mut file),
            Err(e) => {
                counter().count_unreadable();
                Some(e)
            }
        },
    }
}
