//! Inputs shared by the integration-test binaries.

/// A game over the reader's 4 MiB limit (about 5 MB of moves, ending `*`), which is
/// skipped with `P107 game-too-large`, followed by an empty line. What comes after it
/// is read as usual.
#[allow(dead_code)]
pub fn game_too_large_to_read() -> String {
    let mut text = String::from("[Event \"huge\"]\n1. ");
    text.push_str(&"c3-d4 d6-c5 ".repeat(420_000));
    text.push_str("*\n\n");
    text
}

use pdnkit::pdn::{Game, GameBuilder, Reader, ReaderOptions};

/// Every game of `bytes` that could be read, as the reader builds it, with its text as
/// decoded (problems of the input, such as a game too large, are left out).
#[allow(dead_code)]
pub fn games_with_text(bytes: &[u8]) -> Vec<(Game, String)> {
    let mut reader = Reader::new(bytes, ReaderOptions::default()).unwrap();
    let mut builder = GameBuilder::default();
    let mut out = Vec::new();
    while let Some(item) = reader.read_game(&mut builder) {
        if let Ok(game) = item {
            out.push((game, reader.game().text.to_string()));
        }
    }
    out
}

/// Every game of `text` that could be read.
#[allow(dead_code)]
pub fn games(text: &str) -> Vec<Game> {
    games_with_text(text.as_bytes())
        .into_iter()
        .map(|(g, _)| g)
        .collect()
}

use pdnkit::check::CheckOptions;
use pdnkit::check::checker::{GameReport, Keep};
use pdnkit::diag::Diagnostic;
use pdnkit::run::{Checked, Event, RunOptions, Task, run_reader};

/// A task that keeps all a checker can keep of each game: every main-line ply, every
/// move's resolution and the tree.
struct KeepAll;

impl Task for KeepAll {
    type Output = (GameReport, Vec<Diagnostic>);
    fn keep(&self) -> Keep {
        Keep {
            plies: usize::MAX,
            moves: true,
            tree: true,
            tags_only: false,
            positions: false,
        }
    }
    fn game(&self, g: Checked<'_>) -> Self::Output {
        (std::mem::take(g.report), g.diagnostics)
    }
}

/// Every game of `text` checked with `options` on this thread: its report, all kept, and
/// its diagnostics (the problems of the input, no game's, left out).
#[allow(dead_code)]
pub fn checked(text: &str, options: &CheckOptions) -> Vec<(GameReport, Vec<Diagnostic>)> {
    let options = RunOptions {
        check: *options,
        ..RunOptions::default()
    };
    let mut games = Vec::new();
    run_reader("t.pdn", text.as_bytes(), &options, &KeepAll, |e| {
        if let Event::Game(g) = e {
            games.push(g);
        }
        Ok(())
    })
    .expect("reading from memory cannot fail");
    games
}
