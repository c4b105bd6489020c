//! `pdnkit moves`: the legal moves of positions as JSON Lines, for other programs (the
//! differential check against another implementation, `bench/differential.py`).

use super::Cli;
use pdnkit::pdn::fen::Setup;
use pdnkit::rules::{FenStyle, Position};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// List the legal moves of positions as JSON Lines: one object per FEN with the moves as
/// (from, to, captured squares, one route), squares in the numeric (GameType 25) scheme.
///
/// `{"fen":"W:W21-32:B1-12","moves":[{"from":21,"to":17,"captured":[],"route":[21,17]},…]}`;
/// a FEN that is not a position gives `{"fen":…,"error":"…"}`. Distinct moves are distinct
/// (from, to, captured set), as perft counts them.
#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    /// Positions (PDN FEN, numeric or algebraic); none reads one FEN per line from
    /// standard input.
    #[arg(long)]
    pub fen: Vec<String>,
}

pub fn run(args: &MovesArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut errors = false;
    let mut one = |fen: &str, out: &mut dyn Write| -> std::io::Result<()> {
        let line = match position(fen) {
            Ok(pos) => {
                let moves: Vec<_> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| {
                        let route = pos.routes(m).into_iter().next();
                        serde_json::json!({
                            "from": m.from().numeric(),
                            "to": m.to().numeric(),
                            "captured": m.captured().into_iter().map(|s| s.numeric()).collect::<Vec<_>>(),
                            "route": route.map(|r| r.squares().iter().map(|s| s.numeric()).collect::<Vec<_>>()),
                        })
                    })
                    .collect();
                serde_json::json!({"fen": pos.to_fen(FenStyle::Numeric), "moves": moves})
            }
            Err(e) => {
                errors = true;
                serde_json::json!({"fen": fen, "error": e})
            }
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")
    };
    if args.fen.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line?;
            if !line.trim().is_empty() {
                one(line.trim(), &mut out)?;
            }
        }
    } else {
        for fen in &args.fen {
            one(fen, &mut out)?;
        }
    }
    out.flush()?;
    Ok(if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn position(text: &str) -> Result<Position, String> {
    let setup: Setup = text.parse().map_err(|e| format!("{e}"))?;
    Position::from_setup(&setup).map_err(|e| e.to_string())
}
