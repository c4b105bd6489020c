//! `pdnkit perft`: count the leaves of the move tree (the move generator's self-test).

use super::Cli;
use pdnkit::rules::fen::Setup;
use pdnkit::rules::notation::{CaptureStyle, Style, format_move};
use pdnkit::rules::perft::{DivideEntry, Node, perft, perft_divide};
use pdnkit::rules::{EveryRoute, Position, Variant, VariantPosition};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Count the positions DEPTH plies below a position (distinct moves: from, to, captured set).
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "From the start position the counts are 7, 49, 302, 1469, 7482, 37986, 190146, 929899,
4570586, 22444032, 110917189, … (RULES.md §2); for the other variants see docs/VARIANTS.md.

Examples:
  pdnkit perft 8
  pdnkit perft --fen 'W:W21-32:B1-12' --divide 3
  pdnkit perft --variant international 6

Exit status: 0, or 2 on a usage error (a FEN that is no position)."
)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,

    /// Start from this position (PDN FEN, numeric or algebraic) instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,

    /// Print the count below each legal move of the root, then the total.
    #[arg(long)]
    pub divide: bool,

    /// Also print the time taken and nodes per second on stderr.
    #[arg(long)]
    pub time: bool,

    /// The variant: russian, international, brazilian, english (american), pool, czech,
    /// italian, spanish, portuguese, canadian, turkish, thai, frisian, or a GameType
    /// number (20 is international).
    #[arg(long, default_value = "russian")]
    pub variant: Variant,

    /// Count a capture once per route: two routes that take the same pieces between the
    /// same squares (a ring both ways round) are two moves, as pydraughts counts them and
    /// the published Frisian figures do.
    #[arg(long)]
    pub routes: bool,
}

pub fn run(args: &PerftArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    if args.variant != Variant::Russian || args.routes {
        let position = match args.fen.as_deref() {
            None => Ok(VariantPosition::start(args.variant)),
            Some(text) => variant_position(text, args.variant),
        };
        let name = |_: bool, e: &DivideEntry<_>| e.notation.clone();
        return match position {
            Ok(p) if args.routes => count(&EveryRoute(p), args, name),
            Ok(p) => count(&p, args, name),
            Err(e) => {
                eprintln!("pdnkit: {e}");
                Ok(ExitCode::from(2))
            }
        };
    }
    let position = match args.fen.as_deref().map(position) {
        None => Position::start(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("pdnkit: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    // Two distinct moves can share a short notation (RULES.md §3): those are written in full.
    let full = |shared: bool, e: &DivideEntry<_>| {
        if shared {
            let style = Style {
                captures: CaptureStyle::Full,
                ..Style::default()
            };
            format_move(&position, &e.mv, style)
        } else {
            e.notation.clone()
        }
    };
    count(&position, args, full)
}

/// Counts and prints perft of `position` (and the divide), `name` writing a root move
/// given whether another root move shares its short notation.
fn count<N: Node>(
    position: &N,
    args: &PerftArgs,
    name: impl Fn(bool, &DivideEntry<N::Move>) -> String,
) -> anyhow::Result<ExitCode>
where
    N::Move: Clone,
{
    let started = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = if args.divide && args.depth > 0 {
        let entries = perft_divide(position, args.depth);
        for e in &entries {
            let shared = entries.iter().filter(|o| o.notation == e.notation).count() > 1;
            writeln!(out, "{} {}", name(shared, e), e.nodes)?;
        }
        let total: u64 = entries.iter().map(|e| e.nodes).sum();
        writeln!(out)?;
        total
    } else {
        perft(position, args.depth)
    };
    writeln!(out, "{total}")?;
    if args.time {
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "perft({}) = {total} in {secs:.3} s, {:.1} M nodes/s",
            args.depth,
            total as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The position of `--fen` in `variant`, or why there is none.
fn variant_position(text: &str, variant: Variant) -> Result<VariantPosition, String> {
    let setup: Setup = text
        .parse()
        .map_err(|e| format!("invalid FEN `{text}`: {e}"))?;
    VariantPosition::from_setup(&setup, variant)
        .map_err(|e| format!("impossible position `{text}`: {e}"))
}

/// The position of `--fen`, or why there is none.
fn position(text: &str) -> Result<Position, String> {
    let setup: Setup = text
        .parse()
        .map_err(|e| format!("invalid FEN `{text}`: {e}"))?;
    Position::from_setup(&setup).map_err(|e| format!("impossible position `{text}`: {e}"))
}
