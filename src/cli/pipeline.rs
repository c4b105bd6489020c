//! The streaming check pipeline shared by the commands that read games.
//!
//! One reader thread walks the inputs in order, decodes and splits each into raw games,
//! and cuts them into batches. Batches are checked on the rayon pool; results come back to
//! the caller's `emit` strictly in input order (file by file, game by game). At most four
//! places per thread in that order are out at once (a batch, a group of small files, or a
//! finished piece), and a batch of games takes one place per [`BATCH_BYTES`] it is
//! expected to hold (all of them at most): a game of megabytes is out alone, where four
//! of them a thread took 85-106 MB in `convert --to jsonl -j2`.
//!
//! What a batch holds is its text until it is checked, then its results until they are
//! emitted, and results may be far larger than the text: JSON Lines are twenty times the
//! PDN. So the pipeline keeps the [`Expansion`] of the batches checked so far (bytes of
//! results per byte of text, as the caller's `weigh` counts them) and cuts batches to
//! hold about [`BATCH_BYTES`] of results: `convert --to jsonl -j2` held 68-80 MB of JSON
//! on an ordinary 100 MB archive for a slow reader when batches were cut by text alone. So memory stays
//! bounded whatever the size of a file, of its games, of their results, or the number of
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
//!
//! A command that can read and check in one pass ([`OnePass`]: `lint`, `convert --to
//! csv`, `stats`) does so wherever one thread reads and checks an input: every input at
//! `-j1`, the small files a worker reads whole. And with more threads the reader thread does not split its big UTF-8
//! files into games at all: it cuts them into blocks at tag lines, which the workers read
//! and check apart, one place in the order each (see [`super::blocks`]).

use super::blocks::{
    self, BlockDone, BlockEmitter, BlockJob, BlockSource, Blocks, Emit, Rest, StreamRest,
    StreamWatch,
};
use super::files::{Input, WHOLE_FILE_BYTES};
use pdnkit::check::{CheckOptions, CheckedGames, DiagnosedGames};
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::pdn::BlockStart;
use pdnkit::pdn::RawGame;
use pdnkit::replay::ReplayOptions;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Games per batch, and text bytes per batch: whichever is reached first. (With 256 games
/// a batch, about 180 KiB of an ordinary archive, `lint -j2` on one big file handed over
/// three times as many batches as now, and was 1.5% slower.)
const BATCH_GAMES: usize = 1024;
const BATCH_BYTES: usize = 512 * 1024;

/// Files up to [`WHOLE_FILE_BYTES`] are read and checked whole by one worker, together
/// with the small files next to them up to [`BATCH_BYTES`] or [`BATCH_FILES`] files.
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

/// How many bytes of results the batches checked so far gave per byte of their text, to
/// cut the next batches so that their results hold about [`BATCH_BYTES`].
#[derive(Default)]
struct Expansion {
    text: AtomicU64,
    results: AtomicU64,
}

impl Expansion {
    /// Notes a checked batch: `text` bytes of games gave `results` bytes of results.
    fn observe(&self, text: u64, results: u64) {
        self.text.fetch_add(text, Ordering::Relaxed);
        self.results.fetch_add(results, Ordering::Relaxed);
    }

    /// The text a batch (or a group of small files) may hold. Results no larger than the
    /// text leave it at [`BATCH_BYTES`]; before any batch is checked it is a sixteenth
    /// of that, so that the first batches out cannot hold much whatever they expand to.
    fn batch_text(&self) -> u64 {
        let (text, results) = (
            self.text.load(Ordering::Relaxed),
            self.results.load(Ordering::Relaxed),
        );
        if text == 0 {
            return BATCH_BYTES as u64 / 16;
        }
        // BATCH_BYTES × text / results, in 128 bits (the sums may be large)
        let bytes = (BATCH_BYTES as u128 * u128::from(text)) / u128::from(results.max(1));
        u64::try_from(bytes)
            .unwrap_or(u64::MAX)
            .clamp(MIN_BATCH_TEXT, BATCH_BYTES as u64)
    }

    /// The places in the output order a batch of `text` bytes is expected to hold: one
    /// per [`BATCH_BYTES`] of the larger of its text and its expected results.
    fn places(&self, text: u64, max: usize) -> usize {
        let held = text.saturating_mul(BATCH_BYTES as u64) / self.batch_text().max(1);
        let places = held.div_ceil(BATCH_BYTES as u64).max(1);
        usize::try_from(places).map_or(max, |p| p.min(max))
    }
}

/// The least text a batch holds however much its results expand (a game's worth).
const MIN_BATCH_TEXT: u64 = 4 * 1024;

/// What the pipeline hands to `emit`, in input order.
pub enum Piece<T> {
    /// The next input was opened.
    Start,
    /// The results of consecutive games of the current input.
    Games(Vec<T>),
    /// A located problem of the current input that is not a game (unreadable, not PDN, a
    /// game too large to read, stray text); `io` when reading failed.
    Problem { diagnostic: Diagnostic, io: bool },
    /// The current input is done, read as this says.
    End(InputRead),
}

/// How an input was read (given with its [`Piece::End`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputRead {
    /// The encoding its text was read in; `None` when reading could not start.
    pub encoding: Option<&'static str>,
    /// The bytes read.
    pub bytes: u64,
}

/// A command's way to read an input and check its games as it goes, in one pass over
/// most of their text (`lint` and `convert --to csv`, with [`DiagnosedGames`]: see
/// [`OnePassGame`]) rather than cut them first and check them after. The pipeline uses it where the thread that reads an
/// input also checks it (every input with one thread, the small files a worker reads
/// whole with more), and to check a big UTF-8 file in blocks on every thread (see
/// [`super::blocks`]).
pub trait OnePass<T>: Sync {
    /// Reads and checks `input`: a whole input (`start` `None`), or a block of a UTF-8
    /// input from `start` on, read apart (its game numbers count from 1).
    fn read<'s>(
        &'s self,
        path: &str,
        input: Box<dyn Read + 's>,
        options: &CheckOptions,
        start: Option<BlockStart>,
    ) -> io::Result<Box<dyn OnePassGames<T> + 's>>;

    /// [`read`](Self::read) for a block of valid UTF-8 already in memory (read where it
    /// is, without copying).
    fn read_text<'s>(
        &'s self,
        path: &str,
        text: String,
        options: &CheckOptions,
        start: BlockStart,
    ) -> io::Result<Box<dyn OnePassGames<T> + 's>>;

    /// Moves the game numbers in `result` on by `games` (for a block's results).
    fn rebase(&self, result: &mut T, games: u64);
}

/// The items of a [`OnePass`] reading (a game's result, or a located problem), and how
/// the reading ended.
pub trait OnePassGames<T>: Iterator<Item = Result<T, Diagnostic>> {
    /// As [`pdnkit::check::CheckedGames::games_indexed`].
    fn games_indexed(&self) -> u64;
    /// As [`pdnkit::check::CheckedGames::ended_clean`].
    fn ended_clean(&self) -> bool;
    /// As [`pdnkit::check::CheckedGames::ended_between_games`].
    fn ended_between_games(&self) -> bool;
    /// As [`pdnkit::check::CheckedGames::take_buffer`].
    fn take_buffer(&mut self) -> String;
    /// As [`pdnkit::check::CheckedGames::encoding`].
    fn encoding(&self) -> &'static encoding_rs::Encoding;
}

/// What a command makes of the games it reads in one pass with [`DiagnosedGames`]: every
/// such command is a [`OnePass`] (the readings of whole inputs and of blocks are made
/// once, below).
pub trait OnePassGame<T>: Sync {
    /// What a reading of one input keeps from its start (made by [`start`](Self::start)).
    type Reading: 'static;

    /// Starts reading the input named `path` with `games`.
    fn start<R: Read>(&self, path: &str, games: &mut DiagnosedGames<R>) -> Self::Reading;

    /// The reading's next item: what the command makes of the next game, or a located
    /// problem.
    fn next<R: Read>(
        &self,
        reading: &Self::Reading,
        games: &mut DiagnosedGames<R>,
    ) -> Option<Result<T, Diagnostic>>;

    /// As [`OnePass::rebase`].
    fn rebase(&self, result: &mut T, games: u64);
}

impl<T: 'static, P: OnePassGame<T>> OnePass<T> for P {
    fn read<'s>(
        &'s self,
        path: &str,
        input: Box<dyn Read + 's>,
        options: &CheckOptions,
        start: Option<BlockStart>,
    ) -> io::Result<Box<dyn OnePassGames<T> + 's>> {
        let games = match start {
            None => DiagnosedGames::new(path, input, options)?,
            Some(start) => DiagnosedGames::at(path, input, options, start)?,
        };
        Ok(Box::new(Reading::new(self, path, games)))
    }

    fn read_text<'s>(
        &'s self,
        path: &str,
        text: String,
        options: &CheckOptions,
        start: BlockStart,
    ) -> io::Result<Box<dyn OnePassGames<T> + 's>> {
        let games = DiagnosedGames::at_text(path, text, options, start)?;
        Ok(Box::new(Reading::new(self, path, games)))
    }

    fn rebase(&self, result: &mut T, games: u64) {
        OnePassGame::rebase(self, result, games);
    }
}

/// A reading of a [`OnePassGame`] command: its games, and what it keeps of the input.
struct Reading<'s, P: OnePassGame<T>, T, R: Read> {
    command: &'s P,
    reading: P::Reading,
    games: DiagnosedGames<R>,
}

impl<'s, P: OnePassGame<T>, T, R: Read> Reading<'s, P, T, R> {
    fn new(command: &'s P, path: &str, mut games: DiagnosedGames<R>) -> Self {
        let reading = command.start(path, &mut games);
        Reading {
            command,
            reading,
            games,
        }
    }
}

impl<P: OnePassGame<T>, T, R: Read> Iterator for Reading<'_, P, T, R> {
    type Item = Result<T, Diagnostic>;

    fn next(&mut self) -> Option<Self::Item> {
        self.command.next(&self.reading, &mut self.games)
    }
}

impl<P: OnePassGame<T>, T, R: Read> OnePassGames<T> for Reading<'_, P, T, R> {
    fn games_indexed(&self) -> u64 {
        self.games.games().games_indexed()
    }

    fn ended_clean(&self) -> bool {
        self.games.games().ended_clean()
    }

    fn ended_between_games(&self) -> bool {
        self.games.games().ended_between_games()
    }

    fn take_buffer(&mut self) -> String {
        self.games.take_buffer()
    }

    fn encoding(&self) -> &'static encoding_rs::Encoding {
        self.games.encoding()
    }
}

/// Reads every game of every input and calls `work` on each batch of raw games of one
/// input (on a worker thread; `work` returns one result per game, in order), then `emit`
/// on the results in order (on the calling thread). `weigh` tells about how many bytes a
/// result holds, to bound what is held (see [`Expansion`]). Where one thread both reads
/// and checks an input, `one_pass` (if given) does both instead of the splitter and
/// `work`. Returns the first error `emit` returned; the remaining work is then
/// abandoned.
pub fn run<T, W, G, E>(
    pool: &rayon::ThreadPool,
    inputs: &[Input],
    options: &CheckOptions,
    work: W,
    weigh: G,
    one_pass: Option<&dyn OnePass<T>>,
    mut emit: E,
) -> io::Result<()>
where
    T: Send,
    W: Fn(Batch) -> Vec<T> + Sync,
    G: Fn(&T) -> usize + Sync,
    E: FnMut(Piece<T>) -> io::Result<()>,
{
    let expansion = Expansion::default();
    let check = Check {
        work: &work,
        weigh: &weigh,
        expansion: &expansion,
    };
    if pool.current_num_threads() <= 1 {
        return run_inline(inputs, options, &check, one_pass, emit);
    }
    let max_in_flight = 4 * pool.current_num_threads().max(1);
    let cancelled = AtomicBool::new(false);
    // tokens bound the places in the output order taken and not yet emitted, a place
    // taking a token per `BATCH_BYTES` it is expected to hold (up to all of them)
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(max_in_flight);
    let (out_tx, out_rx) = mpsc::channel::<(u64, usize, Out<T>)>();
    // an input whose rest the emitter reads itself (see `super::blocks`)
    let abandoned = AtomicUsize::new(0);
    // how far the blocks of standard input are emitted (see `super::blocks`)
    let watch = StreamWatch::default();
    // the buffers of blocks checked, back to the reader thread for the next blocks (new
    // ones, all of them faulted in page by page, took 2% of `lint -j2`)
    let (recycle_tx, recycle_rx) = mpsc::channel::<Vec<u8>>();

    std::thread::scope(|scope| {
        let cancelled = &cancelled;
        let check = &check;
        let expansion = &expansion;
        let abandoned = &abandoned;
        let watch = &watch;
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
                        Job::Batch(batch) => expansion.places(batch.text_bytes(), max_in_flight),
                    };
                    let Some(n) = place(tokens) else {
                        return false;
                    };
                    match job {
                        Job::Done(p) => out_tx.send((n, tokens, Out::Pieces(vec![p]))).is_ok(),
                        Job::Batch(batch) => {
                            let out_tx = out_tx.clone();
                            tasks.spawn(move |_| {
                                let games = vec![Piece::Games(check.batch(batch))];
                                let _ = out_tx.send((n, tokens, Out::Pieces(games)));
                            });
                            true
                        }
                    }
                };
                // Consecutive small files, read and checked together by one worker: one
                // place in the output order for all their pieces.
                let mut group: Vec<usize> = Vec::new();
                let mut group_bytes = 0u64;
                // (a group holds all its files' results until its end: it takes the places
                // a batch of its size would)
                let flush = |group: &mut Vec<usize>, bytes: &mut u64| -> bool {
                    let bytes = std::mem::take(bytes);
                    if group.is_empty() {
                        return true;
                    }
                    let tokens = expansion.places(bytes, max_in_flight);
                    let Some(n) = place(tokens) else {
                        return false;
                    };
                    let files = std::mem::take(group);
                    let out_tx = out_tx.clone();
                    tasks.spawn(move |_| {
                        let mut pieces = Vec::new();
                        for i in files {
                            let mut keep = |job: Job<T>| {
                                pieces.push(job.run(check));
                                !cancelled.load(Ordering::Relaxed)
                            };
                            let source = Source::Open(Some(GROWN_FILE_BYTES));
                            let going_on = read_input(
                                i, &inputs[i], source, options, check, one_pass, &mut keep,
                            );
                            if !going_on {
                                break;
                            }
                        }
                        let _ = out_tx.send((n, tokens, Out::Pieces(pieces)));
                    });
                    true
                };
                // A block of a big file, checked by a worker.
                let send_block = |job: BlockJob| -> bool {
                    let Some(one_pass) = one_pass else {
                        return false;
                    };
                    let text = job.text.len();
                    let tokens = expansion.places(text, max_in_flight);
                    let Some(n) = place(tokens) else {
                        return false;
                    };
                    let out_tx = out_tx.clone();
                    let recycle = recycle_tx.clone();
                    tasks.spawn(move |_| {
                        let check_with = (options, one_pass, check.weigh as &dyn Fn(&T) -> usize);
                        let done = blocks::check_block(job, check_with, abandoned, &recycle);
                        expansion.observe(text, done.held(check.weigh));
                        let _ = out_tx.send((n, tokens, Out::Block(done)));
                    });
                    true
                };
                for (i, input) in inputs.iter().enumerate() {
                    let going_on = match input.small_file_size() {
                        Some(size) => {
                            // a group ends before the file that would take it past a batch's
                            // text (as a batch ends before such a game), or at BATCH_FILES
                            let past = group_bytes + size > expansion.batch_text();
                            if past && !flush(&mut group, &mut group_bytes) {
                                break;
                            }
                            group.push(i);
                            group_bytes += size;
                            group.len() < BATCH_FILES || flush(&mut group, &mut group_bytes)
                        }
                        None => {
                            flush(&mut group, &mut group_bytes)
                                && read_big(
                                    i,
                                    input,
                                    options,
                                    check,
                                    (
                                        one_pass,
                                        BlockReading {
                                            abandoned,
                                            recycled: &recycle_rx,
                                            watch,
                                        },
                                    ),
                                    &mut send,
                                    &send_block,
                                )
                        }
                    };
                    if !going_on {
                        break;
                    }
                }
                flush(&mut group, &mut group_bytes);
            })
        });

        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        let mut blocks = BlockEmitter::default();
        let mut outcome = Ok(());
        for (n, tokens, pieces) in out_rx {
            if outcome.is_err() {
                for _ in 0..tokens {
                    let _ = token_rx.try_recv();
                }
                continue;
            }
            pending.insert(n, (tokens, pieces));
            while let Some((tokens, out)) = pending.remove(&next) {
                next += 1;
                for _ in 0..tokens {
                    let _ = token_rx.recv();
                }
                let emitted = match out {
                    Out::Pieces(pieces) => pieces.into_iter().try_for_each(&mut emit),
                    Out::Block(done) => match one_pass {
                        Some(one_pass) => {
                            let reading = (options, one_pass, check.weigh as &dyn Fn(&T) -> usize);
                            let mut read_rest = |rest: Rest<'_>, emit: &mut Emit<'_, T>| {
                                read_rest_in_batches(pool, &rest, options, check, one_pass, emit)
                            };
                            blocks.emit(
                                done,
                                reading,
                                (abandoned, watch),
                                &mut emit,
                                &mut read_rest,
                            )
                        }
                        None => Ok(()),
                    },
                };
                if let Err(e) = emitted {
                    cancelled.store(true, Ordering::Relaxed);
                    outcome = Err(e);
                    // let the reader finish quickly: free every token it may wait on, and
                    // tell it that no block of a stream will be emitted
                    watch.close();
                    while token_rx.try_recv().is_ok() {}
                    break;
                }
            }
        }
        outcome
    })
}

/// What a checked place in the output order holds.
enum Out<T> {
    /// Pieces to emit as they are.
    Pieces(Vec<Piece<T>>),
    /// A block of a big file, to emit in its file's order (see [`super::blocks`]).
    Block(BlockDone<T>),
}

/// What the reader thread shares with the rest of the run about the blocks it cuts (see
/// [`blocks::read_blocks`]).
#[derive(Clone, Copy)]
struct BlockReading<'a> {
    /// The input whose rest the emitting thread reads itself (its index + 1).
    abandoned: &'a AtomicUsize,
    /// The buffers of blocks checked, back for the next blocks.
    recycled: &'a mpsc::Receiver<Vec<u8>>,
    /// How far the blocks of standard input are emitted.
    watch: &'a StreamWatch,
}

/// Reads a big input on the reader thread: a file, or standard input, cut into blocks
/// that workers read and check in one pass, when the command can ([`OnePass`]) and the
/// input is in an encoding that can be cut; else split here into batches of games. False
/// when the run was cancelled.
fn read_big<T, W, G>(
    i: usize,
    input: &Input,
    options: &CheckOptions,
    check: &Check<'_, W, G>,
    (one_pass, shared): (Option<&dyn OnePass<T>>, BlockReading<'_>),
    send: &mut impl FnMut(Job<T>) -> bool,
    send_block: &dyn Fn(BlockJob) -> bool,
) -> bool
where
    G: Fn(&T) -> usize,
{
    let source = match (one_pass, input) {
        (Some(_), Input::File(path)) => BlockSource::File(path),
        (Some(_), Input::Stdin) => BlockSource::Stream(Box::new(io::stdin()), shared.watch),
        (None, _) => return read_input(i, input, Source::Open(None), options, check, None, send),
    };
    let label = input.label();
    let block_text = || check.expansion.batch_text() as usize;
    let mut send_piece = |piece: Piece<T>| send(Job::Done(piece));
    let mut send_block = |job: BlockJob| send_block(job);
    let read = blocks::read_blocks(
        i,
        (&label, source),
        options,
        &block_text,
        (shared.abandoned, shared.recycled),
        &mut send_piece,
        &mut send_block,
    );
    match read {
        Blocks::Sent(going_on) => going_on,
        Blocks::NotCut(reader) => {
            read_input(i, input, Source::Opened(reader), options, check, None, send)
        }
        Blocks::ReadOn(rest) => read_stream_rest(i, &label, rest, options, check, send),
    }
}

/// Reads the rest of a stream in order from the start of a block that did not end cleanly
/// (see [`BlockSource::Stream`]), on the reader thread: its games cut here, in batches
/// for the workers, numbered on from the blocks' before. False when the run was cancelled.
fn read_stream_rest<T, W, G>(
    i: usize,
    label: &str,
    rest: StreamRest,
    options: &CheckOptions,
    check: &Check<'_, W, G>,
    send: &mut impl FnMut(Job<T>) -> bool,
) -> bool {
    let options = CheckOptions {
        encoding: Some(rest.encoding),
        ..*options
    };
    let read = Rc::new(Cell::new(0));
    let reader = Counted {
        inner: rest.reader,
        read: Rc::clone(&read),
    };
    let end = |read: &Cell<u64>| {
        Job::Done(Piece::End(InputRead {
            encoding: Some(rest.encoding.name()),
            bytes: rest.offset + read.get(),
        }))
    };
    let mut games = match CheckedGames::at(label, reader, &options, rest.start) {
        Ok(games) => games,
        Err(e) => return send(Job::Done(io_problem(label, &e))) && send(end(&read)),
    };
    let going_on = send_batches(
        (i, label, rest.games_before),
        &mut games,
        check.expansion,
        send,
    );
    going_on && send(end(&read))
}

/// The problem of an input named `label` that cannot be read (a file, its rest read
/// again, standard input).
pub(super) fn io_problem<T>(label: &str, e: &io::Error) -> Piece<T> {
    let mut diagnostic = Diagnostic::new(&codes::IO_ERROR, format!("cannot read {label}: {e}"));
    diagnostic.path = label.to_string();
    Piece::Problem {
        diagnostic,
        io: true,
    }
}

/// [`run`] on the calling thread alone.
fn run_inline<T, W, G, E>(
    inputs: &[Input],
    options: &CheckOptions,
    check: &Check<'_, W, G>,
    one_pass: Option<&dyn OnePass<T>>,
    mut emit: E,
) -> io::Result<()>
where
    W: Fn(Batch) -> Vec<T>,
    G: Fn(&T) -> usize,
    E: FnMut(Piece<T>) -> io::Result<()>,
{
    let mut outcome = Ok(());
    let mut send = |job: Job<T>| -> bool {
        outcome = emit(job.run(check));
        outcome.is_ok()
    };
    for (i, input) in inputs.iter().enumerate() {
        let source = Source::Open(None);
        if !read_input(i, input, source, options, check, one_pass, &mut send) {
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

impl Batch {
    /// The bytes of text its games hold.
    fn text_bytes(&self) -> u64 {
        self.games.iter().map(|g| g.text.len() as u64).sum()
    }
}

/// What checks a batch: the caller's `work` and `weigh`, and the expansion they show.
struct Check<'a, W, G> {
    work: &'a W,
    weigh: &'a G,
    expansion: &'a Expansion,
}

impl<W, G> Check<'_, W, G> {
    /// The results of `batch`, its expansion noted.
    fn batch<T>(&self, batch: Batch) -> Vec<T>
    where
        W: Fn(Batch) -> Vec<T>,
        G: Fn(&T) -> usize,
    {
        let text = batch.text_bytes();
        let results = (self.work)(batch);
        let held = results.iter().map(|r| (self.weigh)(r) as u64).sum();
        self.expansion.observe(text, held);
        results
    }
}

enum Job<T> {
    Done(Piece<T>),
    Batch(Batch),
}

impl<T> Job<T> {
    /// The piece: as it is, or the batch checked.
    fn run<W, G>(self, check: &Check<'_, W, G>) -> Piece<T>
    where
        W: Fn(Batch) -> Vec<T>,
        G: Fn(&T) -> usize,
    {
        match self {
            Job::Done(piece) => piece,
            Job::Batch(batch) => Piece::Games(check.batch(batch)),
        }
    }
}

/// How [`read_input`] comes to its reader.
enum Source {
    /// It opens the input; a file with a bound on the bytes it may read ([`Bounded`]).
    Open(Option<u64>),
    /// The reader is given (the input was opened, and its first bytes read, already).
    Opened(Box<dyn Read + Send>),
}

/// Reads one input into pieces (with `one_pass` if given); false when the run was
/// cancelled.
fn read_input<T, W, G>(
    i: usize,
    input: &Input,
    source: Source,
    options: &CheckOptions,
    check: &Check<'_, W, G>,
    one_pass: Option<&dyn OnePass<T>>,
    send: &mut impl FnMut(Job<T>) -> bool,
) -> bool
where
    G: Fn(&T) -> usize,
{
    let expansion = check.expansion;
    let label = input.label();
    let reader: Box<dyn Read> = match (source, input) {
        (Source::Opened(reader), _) => reader,
        (Source::Open(_), Input::Stdin) => Box::new(io::stdin()),
        (Source::Open(limit), Input::File(path)) => match std::fs::File::open(path) {
            Ok(f) => match limit {
                Some(limit) => Box::new(Bounded {
                    file: f,
                    left: limit,
                }),
                None => Box::new(f),
            },
            Err(e) => {
                let end = Piece::End(InputRead::default());
                return send(Job::Done(io_problem(&label, &e))) && send(Job::Done(end));
            }
        },
    };
    let read = Rc::new(Cell::new(0));
    let reader = Box::new(Counted {
        inner: reader,
        read: Rc::clone(&read),
    });
    // (where reading could not start: the bytes of the start read, in no encoding)
    let unread = |read: &Cell<u64>| {
        Job::Done(Piece::End(InputRead {
            encoding: None,
            bytes: read.get(),
        }))
    };
    if let Some(one_pass) = one_pass {
        return match one_pass.read(&label, reader, options, None) {
            Ok(items) => send_one_pass(items, check, &read, send),
            Err(e) => send(Job::Done(io_problem(&label, &e))) && send(unread(&read)),
        };
    }
    let mut games = match CheckedGames::new(&label, reader, options) {
        Ok(g) => g,
        Err(e) => return send(Job::Done(io_problem(&label, &e))) && send(unread(&read)),
    };
    if !send(Job::Done(Piece::Start)) {
        return false;
    }
    if !send_batches((i, &label, 0), &mut games, expansion, send) {
        return false;
    }
    let end = InputRead {
        encoding: Some(games.encoding().name()),
        bytes: read.get(),
    };
    send(Job::Done(Piece::End(end)))
}

/// Reads the rest of a big file again from the start of a block that did not end cleanly
/// (see [`BlockEmitter::emit`]), on the thread that emits: its games cut here, in batches
/// that the pool checks (most of the work: such blocks come of files of games without
/// moves or results, where cutting a game is cheap and checking it is not), their results
/// emitted here in order, game numbers moved on by the blocks' before. A few batches
/// at a time are in flight. Read on this thread alone, a file of games without moves was
/// no faster with two threads than with one.
fn read_rest_in_batches<T, W, G>(
    pool: &rayon::ThreadPool,
    rest: &Rest<'_>,
    options: &CheckOptions,
    check: &Check<'_, W, G>,
    one_pass: &dyn OnePass<T>,
    emit: &mut Emit<'_, T>,
) -> io::Result<()>
where
    T: Send,
    W: Fn(Batch) -> Vec<T> + Sync,
    G: Fn(&T) -> usize + Sync,
{
    let options = rest.options(options);
    let games = rest
        .open()
        .and_then(|file| CheckedGames::at(rest.label, file, &options, rest.start));
    let mut games = match games {
        Ok(games) => games,
        Err(e) => return emit(io_problem(rest.label, &e)),
    };
    let before = rest.games_before;
    let most_in_flight = 2 * pool.current_num_threads().max(1);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Piece<T>)>();
    // the pieces in file order: those checked, waiting for the ones before them
    let mut ready = BTreeMap::new();
    let (mut placed, mut emitted) = (0u64, 0u64);
    let mut outcome = Ok(());
    pool.in_place_scope(|tasks| {
        // emits what is ready in order, waiting for pieces until at most `in_flight` are
        // not emitted
        let mut emit_ready = |ready: &mut BTreeMap<u64, Piece<T>>, placed: u64, in_flight: u64| {
            loop {
                while let Some(piece) = ready.remove(&emitted) {
                    emitted += 1;
                    if outcome.is_ok() {
                        outcome = emit(piece);
                    }
                }
                if placed - emitted <= in_flight {
                    return outcome.is_ok();
                }
                match done_rx.recv() {
                    Ok((n, piece)) => {
                        ready.insert(n, piece);
                    }
                    Err(_) => return false,
                }
            }
        };
        let mut send = |job: Job<T>| -> bool {
            let n = placed;
            placed += 1;
            match job {
                Job::Batch(batch) => {
                    let done_tx = done_tx.clone();
                    tasks.spawn(move |_| {
                        let mut results = check.batch(batch);
                        for result in &mut results {
                            one_pass.rebase(result, before);
                        }
                        let _ = done_tx.send((n, Piece::Games(results)));
                    });
                }
                Job::Done(mut piece) => {
                    if let Piece::Problem { diagnostic, .. } = &mut piece {
                        diagnostic.game = diagnostic.game.map(|g| g + before as usize);
                    }
                    ready.insert(n, piece);
                }
            }
            emit_ready(&mut ready, placed, most_in_flight as u64)
        };
        send_batches(
            (rest.input, rest.label, 0),
            &mut games,
            check.expansion,
            &mut send,
        );
        emit_ready(&mut ready, placed, 0);
    });
    outcome
}

/// Sends the games of input `i` (named `label`) in batches, and its file-level problems
/// in their place among them, game numbers moved on by `games_before`; false when the
/// run was cancelled.
fn send_batches<T, R: Read>(
    (i, label, games_before): (usize, &str, u64),
    games: &mut CheckedGames<R>,
    expansion: &Expansion,
    send: &mut impl FnMut(Job<T>) -> bool,
) -> bool {
    let replay_options = *games.replay_options();
    let mut batch = Vec::new();
    let mut batch_bytes = 0;
    // the text the batch being filled may hold, as the batches checked so far expanded
    let mut batch_text = expansion.batch_text();
    let flush =
        |batch: &mut Vec<RawGame>, batch_bytes: &mut u64, send: &mut dyn FnMut(Job<T>) -> bool| {
            *batch_bytes = 0;
            batch.is_empty()
                || send(Job::Batch(Batch {
                    input: i,
                    path: label.to_string(),
                    games: std::mem::take(batch),
                    options: replay_options,
                }))
        };
    while let Some(item) = games.next_raw() {
        match item {
            Ok(mut raw) => {
                raw.index += games_before;
                // a batch holds at most `batch_text` of text, or one larger game
                let full = batch_bytes + raw.text.len() as u64 > batch_text;
                if full && !flush(&mut batch, &mut batch_bytes, send) {
                    return false;
                }
                if batch.is_empty() {
                    batch_text = expansion.batch_text();
                }
                batch_bytes += raw.text.len() as u64;
                batch.push(raw);
                if batch.len() >= BATCH_GAMES && !flush(&mut batch, &mut batch_bytes, send) {
                    return false;
                }
            }
            Err(mut d) => {
                if !flush(&mut batch, &mut batch_bytes, send) {
                    return false;
                }
                d.game = d.game.map(|g| g + games_before as usize);
                let io = d.rule == &codes::IO_ERROR;
                if !send(Job::Done(Piece::Problem { diagnostic: d, io })) {
                    return false;
                }
            }
        }
    }
    flush(&mut batch, &mut batch_bytes, send)
}

/// A reader that counts the bytes read through it.
struct Counted {
    inner: Box<dyn Read>,
    read: Rc<Cell<u64>>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// Sends the items of a [`OnePass`] reading as pieces (results in runs of at most
/// [`BATCH_GAMES`]); false when the run was cancelled.
/// The expansion of the results is noted as for a batch, the bytes `read` so far
/// standing for their text (so that groups of small files are cut as when they are
/// checked in batches).
fn send_one_pass<T, W, G>(
    mut items: Box<dyn OnePassGames<T> + '_>,
    check: &Check<'_, W, G>,
    read: &Cell<u64>,
    send: &mut impl FnMut(Job<T>) -> bool,
) -> bool
where
    G: Fn(&T) -> usize,
{
    if !send(Job::Done(Piece::Start)) {
        return false;
    }
    let mut results = Vec::new();
    let (mut noted, mut held) = (0, 0);
    let mut flush = |results: &mut Vec<T>, held: &mut u64, send: &mut dyn FnMut(Job<T>) -> bool| {
        check
            .expansion
            .observe(read.get() - noted, std::mem::take(held));
        noted = read.get();
        results.is_empty() || send(Job::Done(Piece::Games(std::mem::take(results))))
    };
    for item in items.by_ref() {
        match item {
            Ok(result) => {
                held += (check.weigh)(&result) as u64;
                results.push(result);
                // (as a batch: so many games, or a batch's worth of results; games with
                // hundreds of thousands of findings were held 37 at a time, 9.3 GB)
                let full = results.len() >= BATCH_GAMES || held >= BATCH_BYTES as u64;
                if full && !flush(&mut results, &mut held, send) {
                    return false;
                }
            }
            Err(diagnostic) => {
                let io = diagnostic.rule == &codes::IO_ERROR;
                if !flush(&mut results, &mut held, send)
                    || !send(Job::Done(Piece::Problem { diagnostic, io }))
                {
                    return false;
                }
            }
        }
    }
    let end = InputRead {
        encoding: Some(items.encoding().name()),
        bytes: read.get(),
    };
    flush(&mut results, &mut held, send) && send(Job::Done(Piece::End(end)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_cut_to_hold_about_a_batch_of_results() {
        let kib = |n: u64| n * 1024;
        let e = Expansion::default();
        // nothing checked yet: small batches, one place each
        assert_eq!(e.batch_text(), kib(32));
        assert_eq!(e.places(kib(32), 8), 1);
        // results smaller than the text: batches of 512 KiB of text
        e.observe(kib(1000), kib(10));
        assert_eq!(e.batch_text(), kib(512));
        assert_eq!(e.places(kib(512), 8), 1);
        assert_eq!(e.places(kib(1500), 8), 3);
        // results twenty times the text (JSON Lines): a twentieth of that text, and a game
        // of text beyond it takes the places its results will
        let e = Expansion::default();
        e.observe(kib(100), kib(2000));
        assert_eq!(e.batch_text(), kib(512) / 20);
        assert_eq!(e.places(kib(512) / 20, 8), 1);
        assert_eq!(e.places(kib(100), 8), 4);
        assert_eq!(e.places(kib(4000), 8), 8);
        // however large the expansion, a batch holds a game's worth of text
        e.observe(1, 1 << 40);
        assert_eq!(e.batch_text(), MIN_BATCH_TEXT);
    }

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
