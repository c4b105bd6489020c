//! How `pdnkit fix --unsafe-fixes` does on games with one slip of the pen (generated:
//! `pdnkit_gen::slipped`): for each kind of slip, how many games are repaired to the move
//! played, left as they were because several moves fit or none does, and repaired to
//! another move (which must be none).
//!
//!   cargo run --release -p pdnkit-gen --bin pdnkit-repairs -- --games 1000

use clap::Parser;

#[derive(Parser)]
struct Args {
    /// Games of each kind of slip.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    let args = Args::parse();
    let start = std::time::Instant::now();
    println!(
        "| slip | games | repaired to the move played | several fit | none fits | repaired wrongly | not found |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (kind, t) in pdnkit_gen::measure(args.seed, args.games) {
        let pct = |n: u64| 100.0 * n as f64 / t.games.max(1) as f64;
        println!(
            "| {} | {} | {} ({:.1}%) | {} ({:.1}%) | {} ({:.1}%) | {} | {} |",
            kind.name(),
            t.games,
            t.repaired,
            pct(t.repaired),
            t.several,
            pct(t.several),
            t.none,
            pct(t.none),
            t.wrong,
            t.missed
        );
    }
    eprintln!("{:.2}s", start.elapsed().as_secs_f64());
}
