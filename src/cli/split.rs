//! `pdnkit split`: one file per event, year, player or round, or per N games.

use super::{Cli, common};
use pdnkit::check::CheckOptions;
use pdnkit::diag::codes::RuleSet;
use pdnkit::run::Event;
use pdnkit::split::{SplitBy, SplitTask, Splitter, Written};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output format of the index of `split`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitFormat {
    /// a line per file on stderr, for people
    Text,
    /// a JSON object per file on stdout, schema `pdnkit-split/1`
    Jsonl,
}

/// Split PDN files into one file per event, year, player or round, or per N games.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Each game is written as it was read (decoded to UTF-8), the games of a file in
input order with a blank line between them. A file is named after its value, made safe for
any file system (no / \\ : * ? \" < > |, no control characters, no leading dot nor trailing
dots and spaces, no device name such as CON, at most 100 bytes) and numbered when two
values give the same name or names that differ only in case (`Moscow.pdn`,
`moscow-2.pdn`); the games without a value go to `no-event.pdn` (`no-year.pdn`, …), and
with a number N the files are `part-0001.pdn`, `part-0002.pdn`, …. Values are trimmed
and otherwise compared as written; a year is the year of the Date tag.

Examples:
  pdnkit split archive/ --by event -o events/
  pdnkit split big.pdn --by 1000 -o parts/ --format jsonl

Exit status: 0 when every game was written, 1 when a game the reader skipped (too large)
could not be (its text was not kept), 2 on a usage or I/O error (the path is said)."
)]
pub struct SplitArgs {
    /// What to split by: event, year, white, black, round, or a number of games a file.
    #[arg(long, value_name = "event|year|white|black|round|N", value_parser = parse_by)]
    pub by: SplitBy,

    /// The folder to write the files into (made when missing). It must be empty, unless
    /// --force.
    #[arg(short = 'o', long, value_name = "DIR")]
    pub output: PathBuf,

    /// Write into a folder that is not empty: a file of the same name as one written is
    /// replaced, the others are left as they are.
    #[arg(long)]
    pub force: bool,

    /// The index of the files written: a line per file on stderr, or JSON Lines on stdout.
    #[arg(long, value_enum, default_value_t = SplitFormat::Text)]
    pub format: SplitFormat,

    #[command(flatten)]
    pub input: common::InputArgs,
}

fn parse_by(text: &str) -> Result<SplitBy, String> {
    text.parse()
}

pub fn run(args: &SplitArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let config = args.input.read.config()?;
    let check = CheckOptions {
        omit_snippets_and_boards: true,
        report: RuleSet::EMPTY,
        ..args.input.read.check_options(&config)?
    };
    let inputs = common::Inputs::of(&args.input, &config, check)?;
    let mut failures = inputs.errors.len();
    for e in &inputs.errors {
        common::io_error(&e.path, &e.message);
    }
    let mut splitter = Splitter::new(&args.output, args.by, args.force, &inputs.inputs)?;
    let mut failed = None;
    inputs
        .run(
            &SplitTask { by: args.by },
            "splitting",
            |_, event, progress| {
                match event {
                    Event::Game(piece) => {
                        if let Err(e) = splitter.write(piece) {
                            failed = Some(e);
                            return Err(io::Error::other("stopped"));
                        }
                    }
                    Event::Problem(d) => failures += usize::from(common::say_problem(&d, progress)),
                    Event::Start | Event::End(_) => {}
                }
                Ok(())
            },
        )
        .map_err(|e| match failed.take() {
            Some(failure) => anyhow::Error::from(failure),
            None => e.into(),
        })?;
    let lost = splitter.lost;
    let files = splitter.finish()?;

    let games: u64 = files.iter().map(|f| f.games).sum();
    match args.format {
        SplitFormat::Jsonl => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            for f in &files {
                serde_json::to_writer(&mut out, &index_line(f, args.by))?;
                writeln!(out)?;
            }
            out.flush()?;
        }
        SplitFormat::Text if !args.input.quiet => {
            for f in &files {
                let value = match (&f.value, args.by) {
                    (Some(n), SplitBy::Games(_)) => format!("part {n}"),
                    (Some(v), _) => format!("{:?}", v),
                    (None, _) => "no value".to_string(),
                };
                eprintln!(
                    "{}: {} game{} ({value})",
                    f.path.display(),
                    f.games,
                    common::plural(f.games)
                );
            }
        }
        SplitFormat::Text => {}
    }
    if !args.input.quiet {
        let lost = match lost {
            0 => String::new(),
            n => format!(", {n} skipped by the reader not written"),
        };
        eprintln!(
            "pdnkit: {games} game{} written to {} file{} in {}{lost}; {:.2}s",
            common::plural(games),
            files.len(),
            common::plural(files.len()),
            args.output.display(),
            inputs.elapsed()
        );
    }
    Ok(common::exit_code(failures, lost > 0))
}

/// `{"schema", "path", "value", "games"}`: the value is a string, `null` for the games
/// without one, or the part's number with `--by N`.
fn index_line(f: &Written, by: SplitBy) -> impl serde::Serialize {
    #[derive(serde::Serialize)]
    struct Line {
        schema: &'static str,
        path: String,
        value: serde_json::Value,
        games: u64,
    }
    let value = match (&f.value, by) {
        (Some(n), SplitBy::Games(_)) => serde_json::Value::from(n.parse::<u64>().unwrap_or(0)),
        (Some(v), _) => serde_json::Value::from(v.as_str()),
        (None, _) => serde_json::Value::Null,
    };
    Line {
        schema: "pdnkit-split/1",
        path: f.path.display().to_string(),
        value,
        games: f.games,
    }
}
