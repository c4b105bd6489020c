//! `pdnkit lint`: replay every game and report what is wrong.

use super::files;
use super::pipeline::{self, OnePassGame, Piece};
use super::{Cli, common};
use pdnkit::check::{CheckOptions, Diagnosed, DiagnosedGames, Diagnoser};
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::render::{Format, Renderer};
use pdnkit::diag::{Diagnostic, Rule, SeverityCounts};
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Output format of `lint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LintFormat {
    /// rustc-like, with the source line, a caret under the token, and the board for rule errors
    Full,
    /// one line each: path:line:col: CODE [severity] message
    Concise,
    /// one JSON object per diagnostic (fields: path, game, line, column, code, name, severity, message, ply, move)
    Jsonl,
    /// the same objects as one JSON array
    Json,
    /// GitHub Actions workflow annotations
    Github,
    /// SARIF 2.1.0 for code-scanning tools
    Sarif,
}

impl From<LintFormat> for Format {
    fn from(f: LintFormat) -> Format {
        match f {
            LintFormat::Full => Format::Full,
            LintFormat::Concise => Format::Concise,
            LintFormat::Jsonl => Format::JsonLines,
            LintFormat::Json => Format::Json,
            LintFormat::Github => Format::Github,
            LintFormat::Sarif => Format::Sarif,
        }
    }
}

/// Check PDN files: syntax, every move of every line, results, draw claims and tags.
///
/// Exit status: 0 when no error was found, 1 when errors were found, 2 on a usage or I/O
/// error (a missing or unreadable file is reported and the other files are still checked).
#[derive(clap::Args, Debug)]
pub struct LintArgs {
    /// Files or directories (searched recursively for *.pdn in any case); `-` or nothing
    /// reads standard input.
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Full)]
    pub format: LintFormat,

    /// Report only these diagnostics: codes (M101), names (illegal-move) or code prefixes
    /// (M, T1); comma separated or repeated.
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,

    /// Do not report these diagnostics (same forms as --select); applied after --select.
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,

    /// Exit 0 even when errors are found (I/O and usage errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Do not print the summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub common: common::ReadArgs,
}

pub fn run(args: &LintArgs, cli: &Cli) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let selected = |rule: &Rule| {
        (args.select.is_empty() || args.select.iter().any(|s| codes::selector_matches(s, rule)))
            && !args.ignore.iter().any(|s| codes::selector_matches(s, rule))
    };
    let options = CheckOptions {
        // (only the report for people shows the source lines and the boards)
        omit_snippets_and_boards: args.format != LintFormat::Full,
        // (the checker does not make what is not reported: `lint --select M` on real
        // files, where most games lack a tag, no longer pays for those findings)
        report: RuleSet::matching(selected),
        ..args.common.check_options()?
    };
    let pool = common::thread_pool(args.common.jobs)?;
    let (inputs, input_errors) = files::expand(&args.paths);

    // (the problems of a whole input, met outside the checker, are filtered here)
    let keep = |d: &Diagnostic| selected(d.rule);

    let stdout = io::stdout();
    let color = cli.color.stdout();
    let mut renderer = Renderer::new(io::BufWriter::new(stdout.lock()), args.format.into(), color);
    renderer.begin()?;

    let mut totals = Totals::default();
    let mut io_failures = 0usize;
    for e in &input_errors {
        io_failures += 1;
        let mut d = Diagnostic::new(&codes::IO_ERROR, e.message.clone());
        d.path = e.path.clone();
        totals.count(&d);
        if keep(&d) {
            renderer.diagnostic(&d)?;
        }
    }

    let progress = common::progress_bar(inputs.len() as u64, "checking");
    // Workers keep only what is reported: the selected diagnostics and whether the game
    // has an error (counted whatever the selection: see `ReplayOptions::report`).
    let full = args.format == LintFormat::Full;
    // (the `pdnkit show` hints are added where the results are put in order: a block of a
    // big file knows its game numbers only then)
    // (the checker made only the selected ones: `options.report`)
    let report = |game: Diagnosed| (game.summary.has_errors, game.diagnostics);
    let work = |batch: pipeline::Batch| {
        let mut checker = Diagnoser::default();
        let options = batch.options;
        let path = batch.path;
        batch
            .games
            .into_iter()
            .map(|raw| report(checker.diagnose(&path, raw, &options)))
            .collect()
    };
    let weigh = |(_, kept): &(bool, Vec<Diagnostic>)| kept.iter().map(held_bytes).sum();
    // most games read and checked in one pass over their text
    let one_pass = LintOnePass { report: &report };
    pipeline::run(
        &pool,
        &inputs,
        &options,
        work,
        weigh,
        Some(&one_pass),
        |piece| {
            match piece {
                Piece::Start => totals.files += 1,
                Piece::Games(results) => {
                    if !progress.is_hidden() {
                        progress.set_message(format!("checking ({} games)", totals.games));
                    }
                    for (has_errors, diagnostics) in results {
                        totals.games += 1;
                        totals.games_with_errors += usize::from(has_errors);
                        for mut d in diagnostics {
                            if full {
                                add_show_hint(&mut d);
                            }
                            totals.count(&d);
                            renderer.diagnostic(&d)?;
                        }
                    }
                }
                Piece::Problem { diagnostic, io } => {
                    io_failures += usize::from(io);
                    totals.count(&diagnostic);
                    if keep(&diagnostic) {
                        renderer.diagnostic(&diagnostic)?;
                    }
                }
                Piece::End(_) => progress.inc(1),
            }
            Ok(())
        },
    )?;
    progress.finish_and_clear();
    renderer.finish()?;

    if !args.quiet {
        eprintln!(
            "pdnkit: {} file{}, {} game{}, {} with errors; {} error{}, {} warning{}, {} info; {:.2}s",
            totals.files,
            plural(totals.files),
            totals.games,
            plural(totals.games),
            totals.games_with_errors,
            totals.severities.errors,
            plural(totals.severities.errors),
            totals.severities.warnings,
            plural(totals.severities.warnings),
            totals.severities.infos,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if io_failures > 0 {
        ExitCode::from(2)
    } else if totals.severities.errors > 0 && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What `lint` keeps of a game: whether it has an error, and its selected diagnostics.
type Report = (bool, Vec<Diagnostic>);

/// `lint`'s one-pass reading ([`OnePassGame`]): each game's diagnostics, kept by `report`.
struct LintOnePass<'r, F> {
    report: &'r F,
}

impl<F: Fn(Diagnosed) -> Report + Sync> OnePassGame<Report> for LintOnePass<'_, F> {
    type Reading = ();

    fn start<R: io::Read>(&self, _: &str, _: &mut DiagnosedGames<R>) {}

    fn next<R: io::Read>(
        &self,
        (): &(),
        games: &mut DiagnosedGames<R>,
    ) -> Option<Result<Report, Diagnostic>> {
        Some(games.next()?.map(self.report))
    }

    fn rebase(&self, (_, diagnostics): &mut Report, games: u64) {
        for d in diagnostics {
            d.game = d.game.map(|g| g + games as usize);
        }
    }
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
    severities: SeverityCounts,
}

impl Totals {
    fn count(&mut self, d: &Diagnostic) {
        self.severities.add(d.severity);
    }
}

/// About how many bytes a diagnostic holds (its strings and itself), for the pipeline's
/// bound on the results held.
fn held_bytes(d: &Diagnostic) -> usize {
    let texts = [
        Some(&d.message),
        Some(&d.path),
        d.move_text.as_ref(),
        d.board.as_ref(),
    ];
    std::mem::size_of::<Diagnostic>()
        + texts.iter().flatten().map(|t| t.len()).sum::<usize>()
        + d.snippet.as_ref().map_or(0, |s| s.line_text.len())
        + d.notes.iter().map(String::len).sum::<usize>()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
