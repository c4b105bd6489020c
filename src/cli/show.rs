//! `pdnkit show`: the position at a ply of a game, as an ASCII board, an SVG diagram or a
//! FEN.

use super::output::Output;
use super::{Cli, common};
use pdnkit::check::checker::Keep;
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::diagram::{Diagram, DrawnPly};
use pdnkit::html::viewer::{ViewedGame, write_viewer};
use pdnkit::replay::Status;
use pdnkit::rules::AnyPosition;
use pdnkit::run::{self, Checked, Event, Input, RunOptions, Task};
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ShowFormat {
    /// a board for the terminal (w/b men, W/B kings, the last move's squares bracketed)
    Ascii,
    /// an SVG diagram: board, coordinates, pieces, kings marked, the last move as an arrow
    Svg,
    /// the position as a FEN (numeric squares)
    Fen,
    /// a page to step through the game (board, moves, comments, variations); --ply
    /// is the ply it opens at
    Html,
}

/// Show the position at a ply of a game.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "`--ply 0` is the start position, `--ply K` the position after the K-th main-line ply.
The default is the last position that could be reached: for a game stopped by an illegal
move, the position before that move (the one `lint` complains about).

Examples:
  pdnkit show games.pdn --game 2
  pdnkit show games.pdn --game 2 --ply 2 --format svg > board.svg
  pdnkit show games.pdn --game 5 --format fen
  pdnkit show games.pdn --game 2 --format html -o game.html   # open game.html#ply=12

Exit status: 0 shown, 2 when the file cannot be read or the game or ply does not exist."
)]
pub struct ShowArgs {
    /// The PDN file (`-` for standard input).
    pub file: PathBuf,

    /// 1-based game number in the file.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: usize,

    /// Main-line ply: the position after it (0 = start). Default: the last one.
    #[arg(long, value_name = "K")]
    pub ply: Option<u32>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Ascii)]
    pub format: ShowFormat,

    /// Write to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub common: common::ReadArgs,
}

pub fn run(args: &ShowArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.game >= 1, "--game counts from 1");
    let options = args.common.check_options(&args.common.config()?)?;
    let label = args.file.display().to_string();
    let reader: Box<dyn Read> = if args.file.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(&args.file).map_err(|e| anyhow::anyhow!("{label}: {e}"))?)
    };
    // (games are numbered as `lint` and `convert` number them: a game too large to read
    // keeps its number)
    let task = Show {
        game: args.game,
        count: AtomicUsize::new(0),
        tree: args.format == ShowFormat::Html,
    };
    let run_options = RunOptions {
        check: options,
        threads: 1,
        progress: None,
    };
    let mut found = None;
    let mut problem = None;
    run::run_reader(&label, reader, &run_options, &task, |event| {
        match event {
            Event::Game(Some(shown)) => found = Some(shown),
            Event::Game(None) => {}
            Event::Problem(d)
                if d.game == Some(args.game)
                    || d.rule == &codes::IO_ERROR
                    || d.rule == &codes::NOT_PDN =>
            {
                problem.get_or_insert(d);
            }
            Event::Problem(_) | Event::Start | Event::End(_) => {}
        }
        Ok(())
    })?;
    if let Some(d) = problem.filter(|_| found.is_none()) {
        if d.game == Some(args.game) {
            anyhow::bail!(
                "game {} of {label} cannot be shown: {} ({} {})",
                args.game,
                d.message,
                d.rule.code,
                d.rule.name
            );
        }
        if d.rule == &codes::IO_ERROR {
            anyhow::bail!("{}", d.message);
        }
        anyhow::bail!("{label}: {} ({} {})", d.message, d.rule.code, d.rule.name);
    }
    let Some(g) = found else {
        let count = task.count.load(Ordering::Relaxed);
        anyhow::bail!(
            "{label} has {count} game{}; there is no game {}",
            common::plural(count),
            args.game
        );
    };
    let Some(start) = g.start else {
        anyhow::bail!(
            "game {} of {label} cannot be set up ({:?}): {}",
            args.game,
            g.status,
            g.diagnostics
                .first()
                .map_or(String::new(), |d| d.message.clone())
        );
    };
    let played = g.mainline.len() as u32;
    let ply = args.ply.unwrap_or(played);
    if ply > played {
        let why = g
            .diagnostics
            .iter()
            .find(|d| d.ply == Some(played + 1))
            .map(|d| format!(" ({}: {})", d.rule.code, d.message))
            .unwrap_or_default();
        anyhow::bail!(
            "game {} of {label} has {played} replayed pl{}; there is no ply {ply}{why}",
            args.game,
            if played == 1 { "y" } else { "ies" }
        );
    }
    let (position, last) = match ply {
        0 => (start.clone(), None),
        k => {
            let p = &g.mainline[k as usize - 1];
            (p.after.clone(), Some(p))
        }
    };
    let mut diagram = Diagram::from(&position);
    if let Some(p) = last {
        diagram.last_move = p.squares.clone();
    }
    let mut output = match &args.output {
        Some(out) => Output::file(out, &[Input::File(args.file.clone())])?,
        None => Output::stdout(),
    };
    let out = &mut output.writer;
    match args.format {
        ShowFormat::Html => {
            let title = format!("{label}, game {}", args.game);
            let stopped = (played < g.written_plies)
                .then(|| g.diagnostics.iter().find(|d| d.ply == Some(played + 1)))
                .flatten()
                .map(|d| format!("{} {}: {}", d.rule.code, d.rule.name, d.message));
            let game = ViewedGame {
                title: &title,
                start,
                plies: &g.mainline,
                tree: g.tree.as_ref(),
                stopped,
                // (the page opens at the ply asked for, else at the start)
                opens_at: args.ply.unwrap_or(0),
            };
            write_viewer(out, &game)?;
        }
        ShowFormat::Fen => writeln!(out, "{}", position.to_fen())?,
        ShowFormat::Svg => out.write_all(diagram.svg().as_bytes())?,
        ShowFormat::Ascii => {
            match last {
                Some(p) => {
                    let dots = if p.second { "..." } else { "." };
                    writeln!(
                        out,
                        "game {}, after ply {ply}: {}{dots} {}",
                        args.game, p.move_number, p.written
                    )?
                }
                None => writeln!(out, "game {}, start position", args.game)?,
            }
            out.write_all(diagram.ascii().as_bytes())?;
            if ply == played && ply < g.written_plies {
                if let Some(d) = g.diagnostics.iter().find(|d| d.ply == Some(played + 1)) {
                    writeln!(out, "next: {} {}: {}", d.rule.code, d.rule.name, d.message)?;
                }
            }
        }
    }
    output.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// The game asked for, as `show` needs it.
struct Shown {
    start: Option<AnyPosition>,
    status: Status,
    mainline: Vec<DrawnPly>,
    written_plies: u32,
    diagnostics: Vec<Diagnostic>,
    tree: Option<pdnkit::pdn::Game>,
}

/// Keeps the game `game` of a file.
struct Show {
    game: usize,
    count: AtomicUsize,
    /// Keep the game's tree (comments, NAGs, variations).
    tree: bool,
}

impl Task for Show {
    type Output = Option<Shown>;

    fn keep(&self) -> Keep {
        Keep {
            plies: usize::MAX,
            tree: self.tree,
            ..Keep::default()
        }
    }

    fn game(&self, g: Checked<'_>) -> Option<Shown> {
        let index = g.source.index as usize;
        self.count.fetch_max(index, Ordering::Relaxed);
        (index == self.game).then(|| Shown {
            start: g.report.any_start(),
            status: g.report.status,
            mainline: g.report.drawn_plies(),
            written_plies: g.report.written_plies,
            diagnostics: g.diagnostics,
            tree: g.report.game.take(),
        })
    }
}
