//! `pdnkit stats`: totals, results, draws, lengths, openings, players and final material
//! over many files at once.

use super::{Cli, common};
use pdnkit::check::CheckOptions;
use pdnkit::duplicates::Numbered;
use pdnkit::run::Event;
use pdnkit::stats::{self, Counter, GroupBy, StatsOptions, StatsTask};
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

/// Summarise PDN files: totals, results, draws by basis, game lengths, openings, players,
/// final material, per group.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "Games are judged as `pdnkit lint` judges them.

Examples:
  pdnkit stats archive/
  pdnkit stats archive/ --by year --top 0
  pdnkit stats archive/ --format json | jq '.players[:5]'
  pdnkit stats old/ new/ --unique     # each game once, however many copies

Exit status: 0, or 2 on a usage or I/O error (a missing or unreadable file is reported on
stderr and the others still counted).")]
pub struct StatsArgs {
    /// Files or directories (searched recursively for *.pdn in any case, hidden names
    /// skipped; see --include, --exclude); `-` is standard input. No PATH is standard
    /// input, or the current folder when standard input is a terminal.
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,

    /// Group results by event, player, year (of the Date tag), opening or file.
    #[arg(long, value_enum)]
    pub by: Option<GroupBy>,

    /// Opening length in plies (0: no openings).
    #[arg(long, value_name = "PLIES", default_value_t = stats::DEFAULT_DEPTH)]
    pub depth: usize,

    /// Longest lists (openings, players, final material, diagnostics) cut to N entries;
    /// 0 shows all. Groups are never cut.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,

    /// Count each game once: of a group of copies (see `pdnkit duplicates`), only the one
    /// kept. The inputs are read once more first.
    #[arg(long)]
    pub unique: bool,

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

pub fn run(args: &StatsArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let config = args.common.config()?;
    let check = CheckOptions {
        // (the counts need no diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.common.check_options(&config)?
    };
    let options = StatsOptions {
        depth: args.depth,
        by: args.by,
    };
    let mut inputs =
        common::Inputs::new(&args.paths, args.jobs, &args.walk, &config, check)?.quiet(args.quiet);
    let mut failures = inputs.errors.len();
    for e in &inputs.errors {
        common::io_error(&e.path, &e.message);
    }

    let (copies, _spooled) = match args.unique {
        true => common::copies(&mut inputs)?,
        false => Default::default(),
    };

    let mut counter = Counter::new(options);
    let (mut input, mut dropped) = (0usize, 0usize);
    inputs.run(
        &Numbered(StatsTask { options }),
        "counting",
        |label, event, progress| {
            let event = match event {
                Event::Start => {
                    input += 1;
                    Event::Start
                }
                Event::Game((id, _)) if copies.is_copy(input - 1, id.game) => {
                    dropped += 1;
                    return Ok(());
                }
                Event::Game((_, game)) => Event::Game(game),
                Event::Problem(d) => Event::Problem(d),
                Event::End(read) => Event::End(read),
            };
            if let Some(d) = counter.event(label, event) {
                failures += 1;
                common::say_problem(&d, progress);
            }
            Ok(())
        },
    )?;

    let report = counter.stats.report(args.top);
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
        let copies = match args.unique {
            true => format!(
                ", {dropped} cop{} not counted",
                if dropped == 1 { "y" } else { "ies" }
            ),
            false => String::new(),
        };
        eprintln!(
            "pdnkit: {} file{}, {} game{}, {} not replayed{copies}; {:.2}s",
            report.totals.files,
            common::plural(report.totals.files),
            report.totals.games,
            common::plural(report.totals.games),
            report.totals.not_replayed,
            inputs.elapsed()
        );
    }
    Ok(common::exit_code(failures, false))
}
