//! `pdnkit read` (hidden): the reader alone, for benchmarks. Reads every input's games
//! through a counting visitor (no `Game` tree, no replay), on one thread,
//! and prints the number of games and moves. `bench/run.sh` times it against `wc -l`.

use super::Cli;
use pdnkit::pdn::{MoveCount, Reader, ReaderOptions};
use pdnkit::run::{self, Input};
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
    let mut reader = Reader::new(input, ReaderOptions::default())?;
    let mut counter = MoveCount::default();
    while let Some(item) = reader.read_game(&mut counter) {
        let Ok(n) = item else { continue };
        *games += 1;
        *moves += n as u64;
    }
    Ok(())
}

pub fn run(args: &ReadArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let (inputs, errors) = run::expand(&args.paths);
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
