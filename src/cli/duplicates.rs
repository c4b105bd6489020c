//! `pdnkit duplicates`: the groups of games that are copies of each other.

use super::{Cli, common};
use pdnkit::check::CheckOptions;
use pdnkit::diag::codes::RuleSet;
use pdnkit::duplicates::{Finder, Group, Kind, Member, ROSTER};
use pdnkit::run::Event;
use std::io::{self, Write};
use std::process::ExitCode;

/// Output format of `duplicates`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DuplicatesFormat {
    /// each group with the place and the roster tags of its games, for people
    Text,
    /// one JSON object per game of a group, schema `pdnkit-duplicates/1`
    Jsonl,
}

/// Find the games that are copies of each other, whatever their notation, encoding or file.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Two games are copies when their main lines are the same moves from the same
start position, however they are written (numeric or algebraic squares, short or full
captures, any encoding, any file). A group is of the kind `same-game` (the same roster
tags: Event, Site, Date, Round, White, Black, Result, compared trimmed and without case, a
Date as a date, a Result as an outcome), `same-moves` (some of them differ) or `prefix` (a
line of at least 20 plies is the start of a longer one's: an unfinished copy). The copy to
keep is the one with the longest line, then the richest (most tags, comments and
variations), then the first. A line that stops at an illegal move is compared by the moves
it replayed and then the squares of the moves written after it; a game without moves takes
no part.

The inputs are read twice, in memory of about 40 bytes a game: standard input is first
copied to a temporary file.

Examples:
  pdnkit duplicates archive/
  pdnkit duplicates old.pdn new.pdn --format jsonl | jq 'select(.keep | not)'

Exit status: 0 when no copy was found, 1 when some was, 2 on a usage or I/O error."
)]
pub struct DuplicatesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = DuplicatesFormat::Text)]
    pub format: DuplicatesFormat,

    #[command(flatten)]
    pub input: common::InputArgs,
}

pub fn run(args: &DuplicatesArgs, cli: &Cli) -> anyhow::Result<ExitCode> {
    let config = args.input.read.config()?;
    let check = CheckOptions {
        omit_snippets_and_boards: true,
        report: RuleSet::EMPTY,
        ..args.input.read.check_options(&config)?
    };
    let mut inputs = common::Inputs::of(&args.input, &config, check)?;
    let mut failures = inputs.errors.len();
    for e in &inputs.errors {
        common::io_error(&e.path, &e.message);
    }
    let _spooled = common::spool_once_readable(&mut inputs)?;

    let mut finder = Finder::new();
    let task = finder.task();
    inputs.run(&task, "reading", |_, event, progress| {
        finder.event(&event);
        if let Event::Problem(d) = event {
            failures += usize::from(common::say_problem(&d, progress));
        }
        Ok(())
    })?;
    let games = finder.games();
    let (_temp, spool) = common::temp_file("pdnkit-duplicates")?;
    let mut groups = finder
        .index()?
        .confirm(&inputs.inputs, &inputs.options, spool)?;

    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut count, mut copies) = (0u64, 0usize);
    let color = cli.color.stdout();
    groups.visit(|group, members| {
        count += 1;
        copies += members.len() - 1;
        match args.format {
            DuplicatesFormat::Jsonl => write_jsonl(&mut out, &inputs.labels, group, members),
            DuplicatesFormat::Text => {
                write_text(&mut out, &inputs.labels, group, members, color, count > 1)
            }
        }
    })?;
    out.flush()?;

    if !args.input.quiet {
        eprintln!(
            "pdnkit: {count} group{} of copies, {copies} cop{} to drop, among {games} game{} of {} file{}; {:.2}s",
            common::plural(count),
            if copies == 1 { "y" } else { "ies" },
            common::plural(games),
            inputs.labels.len(),
            common::plural(inputs.labels.len()),
            inputs.elapsed()
        );
    }
    Ok(common::exit_code(failures, count > 0))
}

/// One line per game: `{"schema", "group", "kind", "path", "game", "line", "keep"}`.
fn write_jsonl(
    out: &mut impl Write,
    labels: &[String],
    group: Group,
    members: &[Member],
) -> io::Result<()> {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        schema: &'static str,
        group: u64,
        kind: Kind,
        path: &'a str,
        game: u64,
        line: u64,
        keep: bool,
    }
    for m in members {
        let line = Line {
            schema: "pdnkit-duplicates/1",
            group: group.id,
            kind: m.kind,
            path: &labels[m.entry.input as usize],
            game: m.entry.game,
            line: m.entry.line,
            keep: m.keep,
        };
        serde_json::to_writer(&mut *out, &line)?;
        writeln!(out)?;
    }
    Ok(())
}

/// A group for people: its kind, then a line per game with its place and roster tags, the
/// copy kept marked.
fn write_text(
    out: &mut impl Write,
    labels: &[String],
    group: Group,
    members: &[Member],
    color: bool,
    blank_before: bool,
) -> io::Result<()> {
    let (bold, dim, reset) = match color {
        true => ("\x1b[1m", "\x1b[2m", "\x1b[0m"),
        false => ("", "", ""),
    };
    if blank_before {
        writeln!(out)?;
    }
    writeln!(
        out,
        "{bold}group {}: {}, {} games{reset}",
        group.id,
        group.kind.name(),
        members.len()
    )?;
    for m in members {
        let what = match m.keep {
            true => "keep",
            false => m.kind.name(),
        };
        let tags: Vec<String> = (ROSTER.iter().zip(&m.entry.roster))
            .filter_map(|(name, value)| {
                let value = value.as_ref()?;
                Some(format!(
                    "[{name} {}]",
                    serde_json::Value::from(value.as_str())
                ))
            })
            .collect();
        writeln!(
            out,
            "  {what:<10}  {}:{} (game {})  {dim}{}{reset}",
            labels[m.entry.input as usize],
            m.entry.line,
            m.entry.game,
            tags.join(" ")
        )?;
    }
    Ok(())
}
