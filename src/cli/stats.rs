//! `pdnkit stats`: totals, results, draws, lengths, openings, players and final material
//! over many files at once.

use super::files;
use super::pipeline::{self, OnePassGame, Piece};
use super::{Cli, common};
use pdnkit::check::{CheckOptions, DiagnosedGames, Diagnoser};
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::stats::{self, GroupBy, Stats, StatsOptions};
use std::cell::RefCell;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
    let check = CheckOptions {
        // (the counts need no diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.common.check_options()?
    };
    let options = StatsOptions {
        depth: args.depth,
        by: args.by.map(GroupBy::from),
    };
    let pool = common::thread_pool(args.common.jobs)?;
    let (inputs, input_errors) = files::expand(&args.paths);
    let mut failures = 0usize;
    let mut total = Stats::new(options);
    for e in &input_errors {
        failures += 1;
        eprintln!("pdnkit: cannot read {}: {}", e.path, e.message);
    }

    let progress = common::progress_bar(inputs.len() as u64, "counting");
    // Games are counted where they are checked, into tallies of a batch or a block (the
    // pipeline's places in the output order: what the other commands emit game by game),
    // merged here in any order to the same counts.
    let work = |batch: pipeline::Batch| {
        let mut checker = Diagnoser::default();
        checker.keep_first_plies(options.depth);
        let mut tally = Stats::new(options);
        for raw in batch.games {
            tally.add_checked(&batch.path, checker.check(&batch.path, raw, &batch.options));
        }
        vec![tally]
    };
    // (a tally holds about a key or two of text a game: its opening and players)
    let weigh = |tally: &Stats| tally.games() as usize * 128;
    let one_pass = StatsOnePass { options };
    let mut games = 0u64;
    // whether the current input could not be read to its end
    let mut failed = false;
    pipeline::run(
        &pool,
        &inputs,
        &check,
        work,
        weigh,
        Some(&one_pass),
        |piece| {
            match piece {
                Piece::Start => {}
                Piece::Games(tallies) => {
                    for tally in tallies {
                        games += tally.games();
                        total.merge(tally);
                    }
                    if !progress.is_hidden() {
                        progress.set_message(format!("counting ({games} games)"));
                    }
                }
                // (a file that is not PDN is not read on: it counts as unreadable)
                Piece::Problem { diagnostic, io } if io || diagnostic.rule == &codes::NOT_PDN => {
                    failed = true;
                    failures += 1;
                    let d = &diagnostic;
                    progress.suspend(|| match io {
                        true => eprintln!("pdnkit: {}", d.message),
                        false => eprintln!(
                            "pdnkit: cannot read {}: {}:{}: {}: {}",
                            d.path, d.line, d.column, d.rule.name, d.message
                        ),
                    });
                }
                Piece::Problem { diagnostic, .. } => total.add_read_diagnostic(&diagnostic),
                Piece::End(read) => {
                    total.add_file(read.encoding, read.bytes, std::mem::take(&mut failed));
                    progress.inc(1);
                }
            }
            Ok(())
        },
    )?;
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

/// The counts of the games of a reading, handed on as tallies of [`TALLY_GAMES`] games
/// (so that a huge file read in one pass shows its progress) and at its end.
struct StatsOnePass {
    options: StatsOptions,
}

/// Games a tally of a reading holds.
const TALLY_GAMES: u64 = 512;

impl OnePassGame<Stats> for StatsOnePass {
    /// The reading's path (the key of `--by file`), and its games counted since the last
    /// tally (`None` once it has ended).
    type Reading = (String, RefCell<Option<Stats>>);

    fn start<R: io::Read>(&self, path: &str, games: &mut DiagnosedGames<R>) -> Self::Reading {
        games.keep_first_plies(self.options.depth);
        (
            path.to_string(),
            RefCell::new(Some(Stats::new(self.options))),
        )
    }

    fn next<R: io::Read>(
        &self,
        (path, counted): &Self::Reading,
        games: &mut DiagnosedGames<R>,
    ) -> Option<Result<Stats, Diagnostic>> {
        let mut counted = counted.borrow_mut();
        let tally = counted.as_mut()?;
        loop {
            match games.next_checked(|g| tally.add_checked(path, g)) {
                Some(Ok(())) if tally.games() < TALLY_GAMES => {}
                Some(Ok(())) => {
                    return Some(Ok(std::mem::replace(tally, Stats::new(self.options))));
                }
                Some(Err(d)) => return Some(Err(d)),
                None => return counted.take().filter(|t| t.games() > 0).map(Ok),
            }
        }
    }

    fn rebase(&self, _: &mut Stats, _: u64) {}
}
