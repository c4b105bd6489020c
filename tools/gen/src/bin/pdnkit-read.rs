//! `pdnkit-read`: the reader alone, for benchmarks. Reads every input's games through a
//! counting visitor (no `Game` tree, no replay), on one thread, and prints the number of
//! games and moves. `bench/run.sh` times it against `wc -l`.

use pdnkit::pdn::{MoveCount, Reader, ReaderOptions};
use pdnkit::run::{self, Input};
use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

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

/// Reads the files or directories named (`-` or nothing: standard input) and prints their
/// games and moves; exits 2 when a path could not be expanded.
fn main() -> io::Result<ExitCode> {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (inputs, errors) = run::expand(&paths, &run::Discovery::default());
    for e in &errors {
        eprintln!("pdnkit-read: {}: {}", e.path, e.message);
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
