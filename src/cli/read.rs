//! `pdnkit read` (hidden): the reader alone, for benchmarks. Splits every input into games
//! and parses each through a counting visitor (no `Game` tree, no replay), on one thread,
//! and prints the number of games and moves. `bench/run.sh` times it against `wc -l`.

use super::Cli;
use super::files::{self, Input};
use pdnkit::pdn::{GameSplitter, MoveCount, ReaderOptions};
use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

/// Read PDN files (split into games and parse each, no replay) and count games and moves.
#[derive(clap::Args, Debug)]
pub struct ReadArgs {
    /// Files or directories; `-` or nothing reads standard input.
    pub paths: Vec<PathBuf>,
}

fn count<R: io::Read>(input: R, games: &mut u64, moves: &mut u64) -> io::Result<()> {
    for raw in GameSplitter::new(input, ReaderOptions::default())? {
        let Ok(raw) = raw else { continue };
        *games += 1;
        *moves += raw.visit(&mut MoveCount::default()) as u64;
    }
    Ok(())
}

pub fn run(args: &ReadArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let (inputs, errors) = files::expand(&args.paths);
    for e in &errors {
        eprintln!("pdnkit: {}: {}", e.path, e.message);
    }
    let (mut games, mut moves) = (0, 0);
    for input in &inputs {
        match input {
            Input::Stdin => count(io::stdin().lock(), &mut games, &mut moves)?,
            Input::File(p) => count(File::open(p)?, &mut games, &mut moves)?,
        }
    }
    println!("{games} games, {moves} moves");
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}
