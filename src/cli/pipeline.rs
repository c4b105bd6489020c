//! The streaming check pipeline shared by the commands that read games.
//!
//! One reader thread walks the inputs in order, decodes and splits each into raw games,
//! and cuts them into batches. Batches are checked on the rayon pool; results come back to
//! the caller's `emit` strictly in input order (file by file, game by game). At most four
//! places per thread in that order are out at once (a batch, a group of small files of at
//! most 1.5 MiB, or a finished piece), and a batch of games takes one place per
//! [`BATCH_BYTES`] of text it holds (all of them at most): a game of megabytes is out
//! alone, where four of them a thread took 85-106 MB in `convert --to jsonl -j2`. So
//! memory stays bounded whatever the size of a file, of its games, or the number of
//! files, and one huge file is spread over all threads.
//!
//! A small file (up to [`WHOLE_FILE_BYTES`]) is not read by the reader thread: a worker
//! reads, splits and checks it whole, with the small files next to it (about a batch's
//! worth), and their pieces come back together. With many small files the reader thread
//! then only hands out names, instead of reading every byte on a core the workers need
//! (on two cores it held `-j2` to 1.7× `-j1`).
//!
//! With one thread (`-j1`) there is no reader thread: reading, checking and `emit` take
//! turns on the calling thread, so `-j1` really uses one core.

use super::files::Input;
use pdnkit::check::{CheckOptions, CheckedGames};
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::pdn::RawGame;
use pdnkit::replay::ReplayOptions;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Games per batch, and text bytes per batch: whichever is reached first.
const BATCH_GAMES: usize = 256;
const BATCH_BYTES: usize = 512 * 1024;

/// Files up to this size are read and checked whole by one worker, together with the
/// small files next to them up to [`BATCH_BYTES`] or [`BATCH_FILES`] files.
const WHOLE_FILE_BYTES: u64 = 1 << 20;
const BATCH_FILES: usize = 64;

/// A file read whole may have grown since its size was taken (a record still being
/// written); past this size its reading stops with an error ([`Bounded`]).
const GROWN_FILE_BYTES: u64 = 4 * WHOLE_FILE_BYTES;

/// A file read whole by a worker, which keeps all of the file's pieces until the end: so
/// that memory stays bounded, reading past `left` more bytes is an error (reported as
/// `E102 io-error`, the run goes on), not a file read without bound.
struct Bounded {
    file: std::fs::File,
    left: u64,
}

impl Read for Bounded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // one byte more tells a file that grew from one that ends here
            return match self.file.read(&mut [0u8; 1])? {
                0 => Ok(0),
                _ => Err(io::Error::other(format!(
                    "it grew past {GROWN_FILE_BYTES} bytes while being read; check it again"
                ))),
            };
        }
        let n = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let got = self.file.read(&mut buf[..n])?;
        self.left -= got as u64;
        Ok(got)
    }
}

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

/// Reads every game of every input and calls `work` on each batch of raw games of one
/// input (on a worker thread; `work` returns one result per game, in order), then `emit`
/// on the results in order (on the calling thread). Returns the first error `emit`
/// returned; the remaining work is then abandoned.
pub fn run<T, W, E>(
    pool: &rayon::ThreadPool,
    inputs: &[Input],
    options: &CheckOptions,
    work: W,
    mut emit: E,
) -> io::Result<()>
where
    T: Send,
    W: Fn(Batch) -> Vec<T> + Sync,
    E: FnMut(Piece<T>) -> io::Result<()>,
{
    if pool.current_num_threads() <= 1 {
        return run_inline(inputs, options, work, emit);
    }
    let max_in_flight = 4 * pool.current_num_threads().max(1);
    let cancelled = AtomicBool::new(false);
    // tokens bound the places in the output order taken and not yet emitted, a place
    // taking a token per `BATCH_BYTES` of its games' text (up to all of them)
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(max_in_flight);
    let (out_tx, out_rx) = mpsc::channel::<(u64, usize, Vec<Piece<T>>)>();
    let weight = |bytes: u64| -> usize {
        let places = bytes.div_ceil(BATCH_BYTES as u64).max(1);
        usize::try_from(places).map_or(max_in_flight, |p| p.min(max_in_flight))
    };

    std::thread::scope(|scope| {
        let cancelled = &cancelled;
        let work = &work;
        scope.spawn(move || {
            pool.in_place_scope(|tasks| {
                let seq = Cell::new(0u64);
                // The next place in the output order, once `tokens` tokens are free;
                // `None` when the run was cancelled.
                let place = |tokens: usize| -> Option<u64> {
                    for _ in 0..tokens {
                        if cancelled.load(Ordering::Relaxed) || token_tx.send(()).is_err() {
                            return None;
                        }
                    }
                    let n = seq.get();
                    seq.set(n + 1);
                    Some(n)
                };
                // Sends a finished piece, or hands a batch to the pool; false when cancelled.
                let mut send = |job: Job<T>| -> bool {
                    let tokens = match &job {
                        Job::Done(_) => 1,
                        Job::Batch(batch) => {
                            weight(batch.games.iter().map(|g| g.text.len() as u64).sum())
                        }
                    };
                    let Some(n) = place(tokens) else {
                        return false;
                    };
                    match job {
                        Job::Done(p) => out_tx.send((n, tokens, vec![p])).is_ok(),
                        Job::Batch(batch) => {
                            let out_tx = out_tx.clone();
                            tasks.spawn(move |_| {
                                let games = vec![Piece::Games(work(batch))];
                                let _ = out_tx.send((n, tokens, games));
                            });
                            true
                        }
                    }
                };
                // Consecutive small files, read and checked together by one worker: one
                // place in the output order for all their pieces.
                let mut group: Vec<usize> = Vec::new();
                let mut group_bytes = 0u64;
                // (a group holds small files: one place, as an ordinary batch)
                let flush = |group: &mut Vec<usize>| -> bool {
                    if group.is_empty() {
                        return true;
                    }
                    let tokens = 1;
                    let Some(n) = place(tokens) else {
                        return false;
                    };
                    let files = std::mem::take(group);
                    let out_tx = out_tx.clone();
                    tasks.spawn(move |_| {
                        let mut pieces = Vec::new();
                        for i in files {
                            let mut keep = |job: Job<T>| {
                                pieces.push(job.run(work));
                                !cancelled.load(Ordering::Relaxed)
                            };
                            let limit = Some(GROWN_FILE_BYTES);
                            let going_on = read_input(i, &inputs[i], limit, options, &mut keep);
                            if !going_on {
                                break;
                            }
                        }
                        let _ = out_tx.send((n, tokens, pieces));
                    });
                    true
                };
                for (i, input) in inputs.iter().enumerate() {
                    let going_on = match small_file_size(input) {
                        Some(size) => {
                            group.push(i);
                            group_bytes += size;
                            let full =
                                group_bytes >= BATCH_BYTES as u64 || group.len() >= BATCH_FILES;
                            if full {
                                group_bytes = 0;
                            }
                            !full || flush(&mut group)
                        }
                        None => {
                            group_bytes = 0;
                            flush(&mut group) && read_input(i, input, None, options, &mut send)
                        }
                    };
                    if !going_on {
                        break;
                    }
                }
                flush(&mut group);
            })
        });

        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        let mut outcome = Ok(());
        for (n, tokens, pieces) in out_rx {
            if outcome.is_err() {
                for _ in 0..tokens {
                    let _ = token_rx.try_recv();
                }
                continue;
            }
            pending.insert(n, (tokens, pieces));
            'ready: while let Some((tokens, pieces)) = pending.remove(&next) {
                next += 1;
                for _ in 0..tokens {
                    let _ = token_rx.recv();
                }
                for piece in pieces {
                    if let Err(e) = emit(piece) {
                        cancelled.store(true, Ordering::Relaxed);
                        outcome = Err(e);
                        // let the reader finish quickly: free every token it may wait on
                        while token_rx.try_recv().is_ok() {}
                        break 'ready;
                    }
                }
            }
        }
        outcome
    })
}

/// The size of `input` when it is a file small enough to be read and checked whole by
/// one worker.
fn small_file_size(input: &Input) -> Option<u64> {
    match input {
        Input::Stdin => None,
        Input::File(path) => std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file() && m.len() <= WHOLE_FILE_BYTES)
            .map(|m| m.len()),
    }
}

/// [`run`] on the calling thread alone.
fn run_inline<T, W, E>(
    inputs: &[Input],
    options: &CheckOptions,
    work: W,
    mut emit: E,
) -> io::Result<()>
where
    W: Fn(Batch) -> Vec<T>,
    E: FnMut(Piece<T>) -> io::Result<()>,
{
    let mut outcome = Ok(());
    let mut send = |job: Job<T>| -> bool {
        outcome = emit(job.run(&work));
        outcome.is_ok()
    };
    for (i, input) in inputs.iter().enumerate() {
        if !read_input(i, input, None, options, &mut send) {
            break;
        }
    }
    outcome
}

/// Consecutive games of one input, to be checked together.
pub struct Batch {
    /// Index of the input in the list given to [`run`].
    pub input: usize,
    /// The input's name, for diagnostics.
    pub path: String,
    /// The games, in file order.
    pub games: Vec<RawGame>,
    /// How to replay them.
    pub options: ReplayOptions,
}

enum Job<T> {
    Done(Piece<T>),
    Batch(Batch),
}

impl<T> Job<T> {
    /// The piece: as it is, or the batch checked by `work`.
    fn run(self, work: &impl Fn(Batch) -> Vec<T>) -> Piece<T> {
        match self {
            Job::Done(piece) => piece,
            Job::Batch(batch) => Piece::Games(work(batch)),
        }
    }
}

/// Reads one input into pieces; false when the run was cancelled.
fn read_input<T>(
    i: usize,
    input: &Input,
    limit: Option<u64>,
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
            Ok(f) => match limit {
                Some(limit) => Box::new(Bounded {
                    file: f,
                    left: limit,
                }),
                None => Box::new(f),
            },
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
            || send(Job::Batch(Batch {
                input: i,
                path: label.clone(),
                games: std::mem::take(batch),
                options: replay_options,
            }))
    };
    while let Some(item) = games.next_raw() {
        match item {
            Ok(raw) => {
                // a batch holds at most `BATCH_BYTES` of text, or one larger game
                let full = batch_bytes + raw.text.len() > BATCH_BYTES;
                if full && !flush(&mut batch, &mut batch_bytes, send) {
                    return false;
                }
                batch_bytes += raw.text.len();
                batch.push(raw);
                if batch.len() >= BATCH_GAMES && !flush(&mut batch, &mut batch_bytes, send) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_read_whole_stops_with_an_error_past_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.pdn");
        let read = |len: usize, left: u64| {
            std::fs::write(&path, vec![b' '; len]).unwrap();
            let file = std::fs::File::open(&path).unwrap();
            let mut out = Vec::new();
            let result = Bounded { file, left }.read_to_end(&mut out);
            (result.map_err(|e| e.to_string()), out.len())
        };
        // up to the bound (exactly there too) the file is read
        assert_eq!(read(1000, 5000), (Ok(1000), 1000));
        assert_eq!(read(5000, 5000), (Ok(5000), 5000));
        // past it, an error after the bound's bytes
        let (result, got) = read(5001, 5000);
        assert!(result.unwrap_err().contains("grew past"));
        assert_eq!(got, 5000);
    }
}
