//! `pdnkit stats`: totals, results, draws, lengths, openings, players and final material
//! over many files at once.

use super::output::Output;
use super::{Cli, common};
use pdnkit::check::CheckOptions;
use pdnkit::duplicates::Numbered;
use pdnkit::run::Event;
use pdnkit::stats::chart::Chart;
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
    /// one self-contained page: the tables and charts (grouped by year unless --by says
    /// otherwise)
    Html,
    /// one chart (see --chart) as a standalone SVG picture
    Svg,
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
  pdnkit stats archive/ --format html -o stats.html
  pdnkit stats archive/ --format svg --chart lengths -o lengths.svg

Exit status: 0, or 2 on a usage or I/O error (a missing or unreadable file is reported on
stderr and the others still counted).")]
pub struct StatsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,

    /// Group results by event, player, year (of the Date tag), opening or file. The
    /// pictures (`html`, `svg`) group by year unless told otherwise.
    #[arg(long, value_enum)]
    pub by: Option<GroupBy>,

    /// The chart of `--format svg`.
    #[arg(long, value_enum)]
    pub chart: Option<Chart>,

    /// Write to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,

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

    #[command(flatten)]
    pub input: common::InputArgs,
}

pub fn run(args: &StatsArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let chart = match (args.format, args.chart) {
        (StatsFormat::Svg, Some(chart)) => Some(chart),
        (StatsFormat::Svg, None) => anyhow::bail!(
            "--format svg draws one chart: give --chart (lengths, results, openings or players)"
        ),
        (_, Some(_)) => anyhow::bail!("--chart goes with --format svg"),
        (_, None) => None,
    };
    let pictures = matches!(args.format, StatsFormat::Html | StatsFormat::Svg);
    let config = args.input.read.config()?;
    let check = CheckOptions {
        // (the counts need no diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.input.read.check_options(&config)?
    };
    let options = StatsOptions {
        depth: args.depth,
        // (the chart of results is by year unless told otherwise)
        by: args.by.or(pictures.then_some(GroupBy::Year)),
    };
    let mut inputs = common::Inputs::of(&args.input, &config, check)?;
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
    let mut output = match &args.output {
        Some(out) => Output::file(out, &inputs.inputs)?,
        None => Output::stdout(),
    };
    let out = &mut output.writer;
    match args.format {
        StatsFormat::Table => stats::render::write_table(out, &report)?,
        StatsFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(io::Error::from)?;
            writeln!(out)?;
        }
        StatsFormat::Csv => stats::render::write_csv(&mut *out, &report)?,
        StatsFormat::Html => stats::html::write_html(out, &report)?,
        StatsFormat::Svg => {
            if let Some(chart) = chart {
                out.write_all(chart.svg(&report).as_bytes())?;
            }
        }
    }
    output.commit()?;

    if !args.input.quiet {
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
