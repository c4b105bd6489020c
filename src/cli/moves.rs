//! `pdnkit moves`: the legal moves of positions as JSON Lines, for other programs (the
//! differential check against another implementation, `bench/differential.py`).

use super::Cli;
use pdnkit::rules::fen::Setup;
use pdnkit::rules::notation::{CaptureStyle, SquareStyle, Style, format_move};
use pdnkit::rules::{FenStyle, Position, Square, Variant, VariantPosition};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// List the legal moves of positions as JSON Lines: one object per FEN with each move as
/// written in PDN (its fewest unambiguous squares) and as from, to, captured squares and
/// one route, squares numbered (in the numbering of `--variant`, GameType 25 by default) or
/// algebraic (`--notation`).
///
/// `{"schema":"pdnkit-moves/1","fen":"W:W21-32:B1-12","moves":[{"move":"21-17","from":21,"to":17,"captured":[],"route":[21,17]},…]}`
/// (`schemas/moves.schema.json`); a FEN that is not a position gives
/// `{"schema":…,"fen":…,"error":"…"}` and the next line is read (a line that is not UTF-8
/// is read with its bad bytes replaced; one longer than 64 KiB is skipped, its start
/// shown). Distinct moves are distinct (from, to, captured set), as perft counts them.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "Examples:
  pdnkit moves --fen 'W:W21-32:B1-12'
  pdnkit moves --notation algebraic < positions.txt | jq -r '.moves[].move'

Exit status: 0; 1 when some FEN is not a position; 2 on an I/O error.")]
pub struct MovesArgs {
    /// Positions (PDN FEN, numeric or algebraic); none reads one FEN per line from
    /// standard input.
    #[arg(long)]
    pub fen: Vec<String>,

    /// How squares are written in the moves (FENs are always numbered).
    #[arg(long, value_enum, default_value_t = SquareStyle::Numeric)]
    pub notation: SquareStyle,

    /// The variant whose rules and numbering apply: russian, international, brazilian,
    /// english (american), pool, czech, italian, spanish, portuguese, canadian, turkish,
    /// thai, frisian, or a GameType number. Moves of the other variants are written with
    /// their start and end squares (every landing when two share those).
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
}

/// The schema and version of each line.
const SCHEMA: &str = "pdnkit-moves/1";

pub fn run(args: &MovesArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut errors = false;
    let notation = args.notation;
    let square = |s: Square| match notation {
        SquareStyle::Numeric => serde_json::json!(s.numeric()),
        SquareStyle::Algebraic => serde_json::json!(s.to_string()),
    };
    let style = Style {
        squares: notation,
        captures: CaptureStyle::Minimal,
        ..Style::default()
    };
    // writes the line of one FEN; says whether it is no position
    let one = |fen: &str, out: &mut dyn Write| -> std::io::Result<bool> {
        let line = match position(fen) {
            _ if args.variant != Variant::Russian => variant_line(fen, args.variant, notation),
            Ok(pos) => {
                let moves: Vec<_> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| {
                        let route = pos.routes(m).into_iter().next();
                        serde_json::json!({
                            "move": format_move(&pos, m, style),
                            "from": square(m.from()),
                            "to": square(m.to()),
                            "captured": m.captured().into_iter().map(square).collect::<Vec<_>>(),
                            "route": route.map(|r| r.squares().iter().copied().map(square).collect::<Vec<_>>()),
                        })
                    })
                    .collect();
                serde_json::json!({"schema": SCHEMA, "fen": pos.to_fen(FenStyle::Numeric), "moves": moves})
            }
            Err(e) => serde_json::json!({"schema": SCHEMA, "fen": fen, "error": e}),
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
        Ok(line.get("error").is_some())
    };
    if args.fen.is_empty() {
        let mut input = std::io::stdin().lock();
        let mut line = Vec::new();
        while let Some(whole) = read_line_at_most(&mut input, MAX_LINE, &mut line)? {
            let text = String::from_utf8_lossy(&line);
            let fen = text.trim();
            if !whole {
                errors = true;
                let shown: String = fen.chars().take(SHOWN).collect();
                let e = format!("a line longer than {MAX_LINE} bytes is no FEN; skipped");
                let line = serde_json::json!({"schema": SCHEMA, "fen": shown, "error": e});
                serde_json::to_writer(&mut out, &line)?;
                out.write_all(b"\n")?;
            } else if !fen.is_empty() {
                errors |= one(fen, &mut out)?;
            }
        }
    } else {
        for fen in &args.fen {
            errors |= one(fen, &mut out)?;
        }
    }
    out.flush()?;
    Ok(if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The longest line read as a FEN (a FEN lists at most 32 squares: a few hundred bytes), so
/// that memory stays bounded whatever the input; and how many characters of a longer one
/// its error shows.
const MAX_LINE: usize = 64 * 1024;
const SHOWN: usize = 80;

/// Reads the next line (without its line break) into `line`, keeping at most `max` bytes:
/// `Some(false)` when the line was longer (the rest of it is read and dropped), `None` at
/// the end of the input.
fn read_line_at_most(
    input: &mut impl BufRead,
    max: usize,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let (mut any, mut whole) = (false, true);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(whole));
        }
        any = true;
        let (part, found) = match memchr::memchr(b'\n', buf) {
            Some(at) => (&buf[..at], true),
            None => (buf, false),
        };
        let room = max.saturating_sub(line.len());
        whole &= part.len() <= room;
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len() + usize::from(found);
        input.consume(used);
        if found {
            return Ok(Some(whole));
        }
    }
}

/// The line of one FEN of a variant other than Russian.
fn variant_line(fen: &str, variant: Variant, notation: SquareStyle) -> serde_json::Value {
    let pos = match VariantPosition::from_fen(fen, variant) {
        Ok(pos) => pos,
        Err(e) => return serde_json::json!({"schema": SCHEMA, "fen": fen, "error": e.to_string()}),
    };
    let square = |i: u8| match notation {
        SquareStyle::Numeric => serde_json::json!(pos.number(i)),
        SquareStyle::Algebraic => serde_json::json!(pos.square_name(i)),
    };
    let list = pos.legal_moves();
    let moves: Vec<_> = list
        .iter()
        .map(|m| {
            serde_json::json!({
                "move": pos.move_text(m, &list),
                "from": square(m.from()),
                "to": square(m.to()),
                "captured": m.captured().map(square).collect::<Vec<_>>(),
                "route": m.route().iter().map(|&i| square(i)).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({"schema": SCHEMA, "fen": pos.to_fen(), "moves": moves})
}

fn position(text: &str) -> Result<Position, String> {
    let setup: Setup = text.parse().map_err(|e| format!("{e}"))?;
    Position::from_setup(&setup).map_err(|e| e.to_string())
}
