//! Command-line front end. Each subcommand lives in its own module; all real work is done
//! by the library. Exit codes: 0 clean, 1 findings, 2 usage or I/O error.

mod common;
mod completions;
mod convert;
mod duplicates;
mod interrupt;
mod lint;
mod moves;
mod output;
mod perft;
mod rule;
mod select;
mod show;
mod split;
mod stats;

use clap::{Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal};
use std::process::ExitCode;

/// Read, validate, convert and summarise PDN game records of Russian draughts.
#[derive(Parser, Debug)]
#[command(name = "pdnkit", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// When to colour output: auto (only on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check PDN files: syntax, every move of every line, results, draw rules, tags.
    Lint(lint::LintArgs),
    /// Convert PDN files to CSV, JSON Lines or canonical PDN.
    Convert(convert::ConvertArgs),
    /// Select the games that meet some criteria: tags, result, date, length, status,
    /// findings, opening, position, pattern, material.
    Select(Box<select::SelectArgs>),
    /// Show the position at a ply: ASCII board, SVG diagram or FEN.
    Show(show::ShowArgs),
    /// Summarise PDN files: totals, results, draws, lengths, openings, players, material.
    Stats(stats::StatsArgs),
    /// Find the games that are copies of each other, whatever their notation or file.
    Duplicates(duplicates::DuplicatesArgs),
    /// Split PDN files into one file per event, year, player or round, or per N games.
    Split(split::SplitArgs),
    /// Count leaf positions of the move tree (move-generator self-test and benchmark).
    Perft(perft::PerftArgs),
    /// List the legal moves of positions as JSON Lines (from, to, captured, route).
    Moves(moves::MovesArgs),
    /// Explain a diagnostic: `pdnkit rule illegal-move`, `pdnkit rule M101`, or `--all`.
    Rule(rule::RuleArgs),
    /// Print a shell completion script: bash, zsh, fish, powershell or elvish.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff), or write one for each command into a folder.
    Man(completions::ManArgs),
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && std::env::var_os("NO_COLOR").is_none(),
        }
    }

    /// Whether to colour standard output.
    pub fn stdout(self) -> bool {
        self.enabled(io::stdout().is_terminal())
    }
}

/// Parses the command line and runs it. A broken pipe (e.g. `pdnkit lint … | head`) is
/// not an error.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Lint(args) => lint::run(args, &cli),
        Command::Perft(args) => perft::run(args, &cli),
        Command::Rule(args) => rule::run(args, &cli),
        Command::Stats(args) => stats::run(args, &cli),
        Command::Convert(args) => convert::run(args, &cli),
        Command::Select(args) => select::run(args, &cli),
        Command::Show(args) => show::run(args, &cli),
        Command::Duplicates(args) => duplicates::run(args, &cli),
        Command::Split(args) => split::run(args, &cli),
        Command::Moves(args) => moves::run(args, &cli),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
    };
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
