//! `pdnkit lint`: replay every game and report what is wrong.

use super::output::Output;
use super::{Cli, common};
use pdnkit::check::CheckOptions;
use pdnkit::config::Config;
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::emit::{Format, Renderer, RunSummary};
use pdnkit::diag::{Diagnostic, Rule, Severity, SeverityCounts};
use pdnkit::duplicates::Numbered;
use pdnkit::run::{Checked, Event, Input, Task};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check PDN files: syntax, every move of every line, results, draw claims and tags.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "Examples:
  pdnkit lint games.pdn
  pdnkit lint archive/ --select M,R --format concise
  pdnkit lint archive/ --statistics --severity info
  pdnkit lint games.pdn --format sarif > report.sarif
  pdnkit lint archive/ --format html -o report.html   # a page with boards
  pdnkit lint old/ new/ --unique    # also every copy of another game (C101)
  pdnkit rule M101                 # what a code means

Exit status: 0 when no error was found, 1 when errors were found, 2 on a usage or I/O
error (a missing or unreadable file is reported and the other files are still checked).")]
pub struct LintArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Full)]
    pub format: Format,

    /// Write to this file instead of standard output (replaced when the report is
    /// complete).
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Report only these diagnostics: codes (M101), names (illegal-move) or code prefixes
    /// (M, T1); comma separated or repeated. One that matches no rule is a usage error.
    #[arg(long, value_delimiter = ',', value_parser = codes::check_selector)]
    pub select: Vec<String>,

    /// Do not report these diagnostics (same forms as --select); applied after --select.
    #[arg(long, value_delimiter = ',', value_parser = codes::check_selector)]
    pub ignore: Vec<String>,

    /// The least serious findings shown: `error`, `warning` (errors and warnings), or
    /// `info` (everything, such as a draw by agreement, which is no problem).
    /// [default: warning]
    #[arg(long, value_enum)]
    pub severity: Option<Severity>,

    /// Also report each game that is a copy of another game of the inputs, but the copy
    /// kept (`C101 duplicate-game`; see `pdnkit duplicates`). The inputs are read once
    /// more first.
    #[arg(long)]
    pub unique: bool,

    /// Also report each capture written with more or fewer landing squares than STYLE
    /// writes (`M108`, info: shown with --severity info), with its fix: `full` every
    /// landing square, `short` the fewest that name the capture.
    #[arg(long, value_enum, value_name = "STYLE")]
    pub captures: Option<pdnkit::rules::notation::CaptureStyle>,

    /// Print how many findings each rule has, instead of the findings.
    #[arg(long)]
    pub statistics: bool,

    /// Exit 0 even when errors are found (I/O and usage errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,

    #[command(flatten)]
    pub input: common::InputArgs,
}

pub fn run(args: &LintArgs, cli: &Cli) -> anyhow::Result<ExitCode> {
    let config = args.input.read.config()?;
    // (--select and --ignore replace the config file's)
    let or_config = |given: &Vec<String>, config: &Option<Vec<String>>| match given.is_empty() {
        true => config.clone().unwrap_or_default(),
        false => given.clone(),
    };
    let select = or_config(&args.select, &config.select);
    let least = (args.severity.or(config.severity)).unwrap_or(Severity::Warning);
    let ignore = or_config(&args.ignore, &config.ignore);
    let selected = |rule: &Rule| {
        (select.is_empty() || select.iter().any(|s| codes::selector_matches(s, rule)))
            && !ignore.iter().any(|s| codes::selector_matches(s, rule))
    };
    let check = CheckOptions {
        // (only the reports for people show the source lines and the boards)
        omit_snippets_and_boards: !for_people(args.format),
        // (the checker does not make what is not reported)
        report: RuleSet::matching(selected),
        captures: args.captures,
        // (what is not shown is only counted)
        least_shown: Some(least),
        ..args.input.read.check_options(&config)?
    };
    let mut inputs = common::Inputs::of(&args.input, &config, check)?;
    // (a copy is looked for only when its finding is to be reported)
    let (copies, _spooled) = match args.unique && selected(&codes::DUPLICATE_GAME) {
        true => common::copies(&mut inputs)?,
        false => Default::default(),
    };
    let lint = Numbered(Lint::new(&inputs, &config));

    let mut output = match &args.output {
        Some(out) => Output::file(out, &inputs.inputs)?,
        None => Output::stdout(),
    };
    // (colours only for a terminal, never in a file or a page)
    let color = args.output.is_none() && args.format != Format::Html && cli.color.stdout();
    let mut renderer = Renderer::new(&mut output.writer, args.format, color);
    renderer.begin()?;

    let mut totals = Totals::default();
    let mut io_failures = 0usize;
    let full = for_people(args.format);
    // a finding reported: shown (or counted for --statistics) when serious enough
    let mut report = |totals: &mut Totals, mut d: Diagnostic| -> io::Result<()> {
        totals.severities.add(d.severity);
        if d.severity > least {
            totals.hidden += 1;
        } else if args.statistics {
            *totals.per_rule.entry(d.rule.code).or_insert(0) += 1;
        } else {
            if full {
                add_show_hint(&mut d);
            }
            renderer.diagnostic(&d)?;
        }
        Ok(())
    };
    for e in &inputs.errors {
        io_failures += 1;
        let mut d = Diagnostic::new(&codes::IO_ERROR, e.message.clone());
        d.path = e.path.clone();
        // (about the whole input: no place in it)
        (d.line, d.column) = (0, 0);
        if selected(d.rule) {
            report(&mut totals, d)?;
        }
    }

    inputs.run(&lint, "checking", |label, event, _| {
        match event {
            Event::Start => totals.files += 1,
            Event::Game((id, (has_errors, diagnostics))) => {
                totals.games += 1;
                totals.games_with_errors += usize::from(has_errors);
                // (the copy's finding is at its first line: before the others)
                let copy = copies.finding(&inputs.labels, totals.files - 1, id.game, id.line);
                if let Some(d) = copy.filter(|d| lint.0.kept(label).contains(d.rule)) {
                    report(&mut totals, d)?;
                }
                for d in diagnostics {
                    report(&mut totals, d)?;
                }
            }
            // (the problems of a whole input, met outside the checker, are filtered here)
            Event::Problem(d) => {
                io_failures += usize::from(d.rule == &codes::IO_ERROR);
                if selected(d.rule) && lint.0.kept(label).contains(d.rule) {
                    report(&mut totals, d)?;
                }
            }
            Event::End(_) => {}
        }
        Ok(())
    })?;
    if args.statistics {
        print_statistics(&totals, args.format)?;
    } else {
        renderer.finish_run(&RunSummary {
            files: Some(totals.files),
            games: Some(totals.games),
        })?;
    }
    drop(renderer);
    output.commit()?;

    if !args.input.quiet {
        let counts = &totals.severities;
        let hidden = match totals.hidden {
            0 => String::new(),
            n => format!(" ({n} less serious not shown; --severity info shows them)"),
        };
        eprintln!(
            "pdnkit: {} file{}, {} game{}, {} with errors; {} error{}, {} warning{}, {} info{hidden}; {:.2}s",
            totals.files,
            common::plural(totals.files),
            totals.games,
            common::plural(totals.games),
            totals.games_with_errors,
            counts.errors,
            common::plural(counts.errors),
            counts.warnings,
            common::plural(counts.warnings),
            counts.infos,
            inputs.elapsed()
        );
    }
    let failed = totals.severities.errors > 0 && !args.exit_zero;
    Ok(common::exit_code(io_failures, failed))
}

/// What `lint` makes of a game: whether it has an error, and its diagnostics but those
/// the config's `per-file-ignores` drop.
struct Lint {
    /// The rules reported in an input (by its label), where `per-file-ignores` drops some.
    kept: HashMap<String, RuleSet>,
}

impl Lint {
    fn new(inputs: &common::Inputs, config: &Config) -> Lint {
        let ignores = &config.per_file_ignores;
        let kept = (inputs.inputs.iter().zip(&inputs.labels))
            .filter_map(|(input, label)| match input {
                Input::File(path) if !ignores.is_empty() => Some((label, ignores.kept(path))),
                _ => None,
            })
            .filter(|(_, kept)| *kept != RuleSet::ALL)
            .map(|(label, kept)| (label.clone(), kept))
            .collect();
        Lint { kept }
    }

    /// The rules reported in the input labelled `label`.
    fn kept(&self, label: &str) -> RuleSet {
        self.kept.get(label).copied().unwrap_or(RuleSet::ALL)
    }
}

impl Task for Lint {
    type Output = (bool, Vec<Diagnostic>);

    fn game(&self, mut game: Checked<'_>) -> Self::Output {
        if !self.kept.is_empty() {
            let kept = self.kept(game.path);
            game.diagnostics.retain(|d| kept.contains(d.rule));
        }
        (game.has_errors, game.diagnostics)
    }

    fn rebase(&self, (_, diagnostics): &mut Self::Output, games: u64) {
        for d in diagnostics {
            d.game = d.game.map(|g| g + games as usize);
        }
    }

    /// Diagnostics held while they wait for their turn: a short game can have many, each
    /// far larger than its text.
    fn weight(&self, (_, diagnostics): &Self::Output) -> usize {
        diagnostics
            .iter()
            .map(|d| {
                std::mem::size_of::<Diagnostic>()
                    + d.message.len()
                    + d.path.len()
                    + d.move_text.as_ref().map_or(0, String::len)
                    + d.snippet.as_ref().map_or(0, |s| s.line_text.len())
                    + d.notes.iter().map(String::len).sum::<usize>()
            })
            .sum()
    }
}

/// Whether `format` is for people: it shows the source lines and the boards.
fn for_people(format: Format) -> bool {
    matches!(format, Format::Full | Format::Html)
}

/// For a diagnostic that shows the board before a main-line move, the `pdnkit show`
/// command that draws that position.
fn add_show_hint(d: &mut Diagnostic) {
    if let (Some(_), Some(game), Some(ply)) = (&d.board, d.game, d.ply) {
        let path = if d
            .path
            .contains(|c: char| c.is_whitespace() || c == '\'' || c == '"')
        {
            format!("'{}'", d.path.replace('\'', "'\\''"))
        } else {
            d.path.clone()
        };
        d.notes.push(format!(
            "see it: pdnkit show {path} --game {game} --ply {} (--format svg for a diagram)",
            ply.saturating_sub(1)
        ));
    }
}

#[derive(Default)]
struct Totals {
    files: usize,
    games: usize,
    games_with_errors: usize,
    /// Findings reported, shown or not.
    severities: SeverityCounts,
    /// Findings less serious than `--severity`.
    hidden: usize,
    /// With `--statistics`: the findings shown, by code.
    per_rule: std::collections::BTreeMap<&'static str, usize>,
}

/// `--statistics`: the count of findings of each rule, most first (as JSON with `--format
/// json` or `jsonl`, else as a table).
fn print_statistics(totals: &Totals, format: Format) -> io::Result<()> {
    let mut rows: Vec<(&Rule, usize)> = (totals.per_rule.iter())
        .filter_map(|(code, &n)| Some((codes::find(code)?, n)))
        .collect();
    rows.sort_by_key(|&(rule, n)| (std::cmp::Reverse(n), rule.code));
    let mut out = io::BufWriter::new(io::stdout().lock());
    let json = |rule: &Rule, n| serde_json::json!({"code": rule.code, "name": rule.name, "severity": rule.severity, "count": n});
    match format {
        Format::Json => {
            let all: Vec<_> = rows.iter().map(|&(rule, n)| json(rule, n)).collect();
            serde_json::to_writer_pretty(&mut out, &all)?;
            writeln!(out)?;
        }
        Format::JsonLines => {
            for &(rule, n) in &rows {
                serde_json::to_writer(&mut out, &json(rule, n))?;
                writeln!(out)?;
            }
        }
        _ => {
            let width = rows.first().map_or(1, |(_, n)| n.to_string().len());
            for (rule, n) in rows {
                writeln!(
                    out,
                    "{n:>width$}  {}  {:<8} {}",
                    rule.code,
                    rule.severity.as_str(),
                    rule.name
                )?;
            }
        }
    }
    out.flush()
}
