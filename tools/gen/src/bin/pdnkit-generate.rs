//! `pdnkit-generate`: write random legal games, for benchmarks and tests.

use clap::Parser;
use pdnkit_gen::{Amount, Generator};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Write random legal Russian draughts games (deterministic for a seed), for benchmarks.
///
/// With `--files K`, OUTPUT is a directory and the games are spread over K files
/// (`0000.pdn`, `0001.pdn`, …) in order.
#[derive(Parser, Debug)]
#[command(name = "pdnkit-generate")]
struct Args {
    /// Number of games (default 1000 unless --size-mb is given).
    #[arg(long)]
    games: Option<u64>,

    /// Write games until at least this many megabytes (10^6 bytes) are written.
    #[arg(long, conflicts_with = "games")]
    size_mb: Option<u64>,

    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Output file (or directory with --files); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,

    /// Spread the games over this many files in the OUTPUT directory.
    #[arg(long, requires = "output")]
    files: Option<u32>,

    /// Print what was written on stderr.
    #[arg(short, long)]
    verbose: bool,
}

fn main() -> io::Result<()> {
    let args = Args::parse();
    let amount = match args.size_mb {
        Some(mb) => Amount::Bytes(mb * 1_000_000),
        None => Amount::Games(args.games.unwrap_or(1000)),
    };
    let mut generator = Generator::new(args.seed);
    match (&args.output, args.files) {
        (Some(dir), Some(files)) => generator.write_files(dir, files, amount)?,
        (Some(path), None) => {
            let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
            generator.write(&mut out, amount)?;
            out.flush()?;
        }
        (None, _) => {
            let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
            generator.write(&mut out, amount)?;
            out.flush()?;
        }
    }
    if args.verbose {
        let s = generator.stats();
        eprintln!(
            "generated {} games, {} plies, {} bytes; {} wins, {} draws by rule",
            s.games, s.plies, s.bytes, s.wins, s.rule_draws
        );
    }
    Ok(())
}
