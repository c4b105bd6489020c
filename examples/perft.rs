//! Times perft from the start position (or a FEN):
//! `cargo run --release --example perft -- 10 ["W:W21-32:B1-12"]`.

use std::time::Instant;

use pdnkit::rules::{Position, perft::perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(10);
    let pos = match args.next() {
        Some(fen) => match fen
            .parse()
            .map_err(|e| format!("{e}"))
            .and_then(|s| Position::from_setup(&s).map_err(|e| format!("{e}")))
        {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(2);
            }
        },
        None => Position::start(),
    };
    let t = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes}  {secs:.3} s  {:.1} M nodes/s",
        nodes as f64 / secs / 1e6
    );
}
