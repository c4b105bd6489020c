//! `pdnkit generate` (hidden): write random legal games, for benchmarks and tests.

use super::Cli;
use pdnkit::generate::Generator;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Write random legal Russian draughts games (deterministic for a seed), for benchmarks.
///
/// With `--files K`, OUTPUT is a directory and the games are spread over K files
/// (`0000.pdn`, `0001.pdn`, …) in order.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Number of games (default 1000 unless --size-mb is given).
    #[arg(long)]
    pub games: Option<u64>,

    /// Write games until at least this many megabytes (10^6 bytes) are written.
    #[arg(long, conflicts_with = "games")]
    pub size_mb: Option<u64>,

    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Output file (or directory with --files); standard output when absent.
    #[arg(short, long)]
    pub output: Option<PathBuf>,

    /// Spread the games over this many files in the OUTPUT directory.
    #[arg(long, requires = "output")]
    pub files: Option<u32>,

    /// Print what was written on stderr.
    #[arg(short, long)]
    pub verbose: bool,
}

fn write_to(gen_: &mut Generator, out: &mut dyn Write, args: &GenerateArgs) -> io::Result<()> {
    match (args.games, args.size_mb) {
        (_, Some(mb)) => gen_.write_bytes(out, mb * 1_000_000),
        (games, None) => gen_.write_games(out, games.unwrap_or(1000)),
    }
}

pub fn run(args: &GenerateArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let mut generator = Generator::new(args.seed);
    match (&args.output, args.files) {
        (Some(dir), Some(files)) => {
            let files = files.max(1);
            std::fs::create_dir_all(dir)?;
            // Games first into memory-sized chunks: the total is known only as a count or
            // a size, so each file gets its share of it.
            let (per_file_games, per_file_bytes) = match (args.games, args.size_mb) {
                (_, Some(mb)) => (None, Some((mb * 1_000_000).div_ceil(files as u64))),
                (g, None) => (Some(g.unwrap_or(1000).div_ceil(files as u64)), None),
            };
            let total_games = args.games.unwrap_or(1000);
            for i in 0..files {
                let mut out = BufWriter::new(File::create(dir.join(format!("{i:04}.pdn")))?);
                match (per_file_games, per_file_bytes) {
                    (Some(n), _) => {
                        let left = total_games.saturating_sub(generator.stats().games);
                        generator.write_games(&mut out, n.min(left))?
                    }
                    (None, Some(b)) => generator.write_bytes(&mut out, b)?,
                    _ => unreachable!(),
                }
                out.flush()?;
            }
        }
        (Some(path), None) => {
            let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
            write_to(&mut generator, &mut out, args)?;
            out.flush()?;
        }
        (None, _) => {
            let stdout = io::stdout();
            let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
            write_to(&mut generator, &mut out, args)?;
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
    Ok(ExitCode::SUCCESS)
}
