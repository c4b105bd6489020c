//! The streaming check pipeline shared by the commands that read games.
//!
//! One reader thread walks the inputs in order, decodes and splits each into raw games,
//! and cuts them into batches. Batches are checked on the rayon pool; results come back to
//! the caller's `emit` strictly in input order (file by file, game by game). At most
//! `MAX_IN_FLIGHT` pieces are out at once, so memory stays bounded whatever the size of a
//! file or the number of files, and one huge file is spread over all threads.

use super::files::Input;
use pdnkit::check::{CheckOptions, CheckedGame, CheckedGames, check_game};
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::pdn::RawGame;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Games per batch, and text bytes per batch: whichever is reached first.
const BATCH_GAMES: usize = 256;
const BATCH_BYTES: usize = 512 * 1024;

/// What the pipeline hands to `emit`, in input order.
pub enum Piece<T> {
    /// The next input was opened.
    Start,
    /// The results of consecutive games of the current input.
    Games(Vec<T>),
    /// A located problem of the current input that is not a game (unreadable, not PDN, a
    /// game too large to read, stray text); `io` when reading failed.
    Problem { diagnostic: Diagnostic, io: bool },
    /// The current input is done.
    End,
}

/// Checks every game of every input and calls `work` on each checked game (on a worker
/// thread), then `emit` on the results in order (on the calling thread). Returns the
/// first error `emit` returned; the remaining work is then abandoned.
pub fn run<T, W, E>(
    pool: &rayon::ThreadPool,
    inputs: &[Input],
    options: &CheckOptions,
    work: W,
    mut emit: E,
) -> io::Result<()>
where
    T: Send,
    W: Fn(usize, CheckedGame) -> T + Sync,
    E: FnMut(Piece<T>) -> io::Result<()>,
{
    let max_in_flight = 4 * pool.current_num_threads().max(1);
    let cancelled = AtomicBool::new(false);
    // tokens bound the pieces between the reader and `emit`
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(max_in_flight);
    let (out_tx, out_rx) = mpsc::channel::<(u64, Piece<T>)>();

    std::thread::scope(|scope| {
        let cancelled = &cancelled;
        let work = &work;
        scope.spawn(move || {
            pool.in_place_scope(|tasks| {
                let mut seq = 0u64;
                // Sends a finished piece, or hands a batch to the pool; false when cancelled.
                let mut send = |piece: Job<T>| -> bool {
                    if cancelled.load(Ordering::Relaxed) || token_tx.send(()).is_err() {
                        return false;
                    }
                    let n = seq;
                    seq += 1;
                    match piece {
                        Job::Done(p) => out_tx.send((n, p)).is_ok(),
                        Job::Batch {
                            input,
                            path,
                            games,
                            options,
                        } => {
                            let out_tx = out_tx.clone();
                            tasks.spawn(move |_| {
                                let results = games
                                    .into_iter()
                                    .map(|raw| work(input, check_game(&path, raw, &options)))
                                    .collect();
                                let _ = out_tx.send((n, Piece::Games(results)));
                            });
                            true
                        }
                    }
                };
                for (i, input) in inputs.iter().enumerate() {
                    if !read_input(i, input, options, &mut send) {
                        break;
                    }
                }
            })
        });

        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        let mut outcome = Ok(());
        for (n, piece) in out_rx {
            if outcome.is_err() {
                let _ = token_rx.try_recv();
                continue;
            }
            pending.insert(n, piece);
            while let Some(piece) = pending.remove(&next) {
                next += 1;
                let _ = token_rx.recv();
                if let Err(e) = emit(piece) {
                    cancelled.store(true, Ordering::Relaxed);
                    outcome = Err(e);
                    // let the reader finish quickly: free every token it may wait on
                    while token_rx.try_recv().is_ok() {}
                    break;
                }
            }
        }
        outcome
    })
}

enum Job<T> {
    Done(Piece<T>),
    Batch {
        input: usize,
        path: String,
        games: Vec<RawGame>,
        options: pdnkit::replay::ReplayOptions,
    },
}

/// Reads one input into pieces; false when the run was cancelled.
fn read_input<T>(
    i: usize,
    input: &Input,
    options: &CheckOptions,
    send: &mut impl FnMut(Job<T>) -> bool,
) -> bool {
    let label = input.label();
    let io_problem = |e: io::Error| {
        let mut d = Diagnostic::new(&codes::IO_ERROR, format!("cannot read {label}: {e}"));
        d.path = label.clone();
        Job::Done(Piece::Problem {
            diagnostic: d,
            io: true,
        })
    };
    let reader: Box<dyn Read> = match input {
        Input::Stdin => Box::new(io::stdin()),
        Input::File(path) => match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => return send(io_problem(e)) && send(Job::Done(Piece::End)),
        },
    };
    let mut games = match CheckedGames::new(&label, reader, options) {
        Ok(g) => g,
        Err(e) => return send(io_problem(e)) && send(Job::Done(Piece::End)),
    };
    if !send(Job::Done(Piece::Start)) {
        return false;
    }
    let replay_options = *games.replay_options();
    let mut batch = Vec::new();
    let mut batch_bytes = 0;
    let flush = |batch: &mut Vec<RawGame>,
                 batch_bytes: &mut usize,
                 send: &mut dyn FnMut(Job<T>) -> bool| {
        *batch_bytes = 0;
        batch.is_empty()
            || send(Job::Batch {
                input: i,
                path: label.clone(),
                games: std::mem::take(batch),
                options: replay_options,
            })
    };
    while let Some(item) = games.next_raw() {
        match item {
            Ok(raw) => {
                batch_bytes += raw.text.len();
                batch.push(raw);
                if (batch.len() >= BATCH_GAMES || batch_bytes >= BATCH_BYTES)
                    && !flush(&mut batch, &mut batch_bytes, send)
                {
                    return false;
                }
            }
            Err(d) => {
                if !flush(&mut batch, &mut batch_bytes, send) {
                    return false;
                }
                let io = d.rule == &codes::IO_ERROR;
                if !send(Job::Done(Piece::Problem { diagnostic: d, io })) {
                    return false;
                }
            }
        }
    }
    flush(&mut batch, &mut batch_bytes, send) && send(Job::Done(Piece::End))
}
