//! The run loop: inputs → blocks → workers → an ordered sink.
//!
//! [`run`] reads every input, checks every game with the [`Checker`], and hands each
//! checked game to a [`Task`] (what `lint`, `convert` and `stats` make of a game); the
//! task's outputs reach the caller's sink strictly in input order (file by file, game by
//! game), whatever the number of threads.
//!
//! With one thread, the calling thread reads, checks and calls the sink in turn. With
//! more, a reader thread walks the inputs: a small file becomes one job, read whole by a
//! worker; a big one is read by the reader thread and cut into blocks where a game surely
//! starts ([`crate::pdn::boundary::find_cut`]), each a job; an input that cannot be cut (UTF-16, or no
//! place to cut in a long stretch) is read on by one worker to its end. A job is handed
//! over only to a free worker, and streams its outputs through a channel of its own; the
//! calling thread empties the jobs' channels in order. The outputs done and waiting for
//! their turn are held to a budget of bytes (a worker waits while it is spent, unless its
//! job is the one being put out), so memory stays bounded whatever the input.
//!
//! ```
//! use pdnkit::run::{run, Checked, Event, Input, RunOptions, Task};
//! /// The codes of each game's findings.
//! struct Codes;
//! impl Task for Codes {
//!     type Output = Vec<&'static str>;
//!     fn game(&self, game: Checked<'_>) -> Self::Output {
//!         game.diagnostics.iter().map(|d| d.rule.code).collect()
//!     }
//! }
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.pdn");
//! let roster = "[Event \"e\"][Site \"s\"][Date \"2024.01.01\"][Round \"1\"][White \"w\"][Black \"b\"]";
//! let games = format!("{roster}[Result \"*\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n\n{roster}[Result \"*\"]\n1. c3-d4 *\n");
//! std::fs::write(&path, games).unwrap();
//! let mut found = Vec::new();
//! run(&[Input::File(path)], &RunOptions::default(), &Codes, |e| {
//!     if let Event::Game(codes) = e {
//!         found.push(codes);
//!     }
//!     Ok(())
//! })
//! .unwrap();
//! // the first game does not capture d4:f6, as it must; the second is clean
//! assert_eq!(found, [vec!["M101"], vec![]]);
//! ```

pub mod inputs;

pub use inputs::{Discovery, Input, InputError, expand};

use crate::check::checker::{Checker, GameReport, Keep};
use crate::check::{CheckOptions, diagnose};
use crate::diag::{Diagnostic, Severity, codes};
use crate::pdn::reader::BlockStart;
use crate::pdn::{GameSource, ReadError, Reader, ReaderOptions};
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Condvar, Mutex};

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// How games are read and checked.
    pub check: CheckOptions,
    /// Worker threads (1: everything on the calling thread).
    pub threads: usize,
    /// A count the run adds every byte it reads from its inputs to (for a progress bar:
    /// the bytes of a file read so far, against its size).
    pub progress: Option<&'static AtomicU64>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            check: CheckOptions::default(),
            threads: 1,
            progress: None,
        }
    }
}

/// One checked game, as a [`Task`] gets it.
pub struct Checked<'a> {
    /// The input's name (as in diagnostics).
    pub path: &'a str,
    /// The game's text and place.
    pub source: GameSource<'a>,
    /// What the checker found and kept (the task may take from it).
    pub report: &'a mut GameReport,
    /// The diagnostics of the rules reported, located, in text order.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether some finding is an error (reported or not).
    pub has_errors: bool,
}

/// What a command makes of each checked game.
pub trait Task: Sync {
    /// The output of one game.
    type Output: Send;

    /// What the checker keeps of each game for [`game`](Self::game).
    fn keep(&self) -> Keep {
        Keep::default()
    }

    /// The output of one game.
    fn game(&self, game: Checked<'_>) -> Self::Output;

    /// Moves the game numbers in `output` on by `games`: a block of a long input read
    /// apart numbers its games from 1, and is told how many came before once they are
    /// counted.
    fn rebase(&self, _output: &mut Self::Output, _games: u64) {}

    /// About how many bytes `output` holds, when that can be much more than the game's
    /// text (converted text): outputs waiting for their turn are kept to a budget of
    /// text and of this.
    fn weight(&self, _output: &Self::Output) -> usize {
        0
    }

    /// The output, if any, for an item the reader gives no game for: a game it skipped
    /// (too large: `problem.game` is its number) or text outside any game, with the
    /// item's text as read when the reader still held it ([`Reader::skipped_text`]).
    /// It follows the problem's [`Event::Problem`] as an [`Event::Game`].
    fn unread(&self, _problem: &Diagnostic, _text: Option<&str>) -> Option<Self::Output> {
        None
    }
}

/// How an input was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputRead {
    /// The encoding its text was read in (WHATWG name); `None` when reading could not
    /// start.
    pub encoding: Option<&'static str>,
    /// The bytes read.
    pub bytes: u64,
    /// Reading failed (the input could not be opened, or not read to its end).
    pub failed: bool,
}

/// What the sink gets, in input order.
pub enum Event<T> {
    /// An input starts.
    Start,
    /// The output of the next game.
    Game(T),
    /// A located problem of the current input that is no game's (unreadable, not PDN, a
    /// game too large to read, stray text). Made whatever [`CheckOptions::report`] says:
    /// the caller shows those it selects.
    Problem(Diagnostic),
    /// The current input is done.
    End(InputRead),
}

/// Reads and checks every game of `inputs`, giving `task` each one, and `sink` the
/// outputs in input order. Stops at the first error `sink` returns.
pub fn run<T: Task>(
    inputs: &[Input],
    options: &RunOptions,
    task: &T,
    mut sink: impl FnMut(Event<T::Output>) -> io::Result<()>,
) -> io::Result<()> {
    if options.threads > 1 {
        if let Some(result) = parallel(inputs, options, task, &mut sink) {
            return result;
        }
        // (no thread could be started, or the inputs are one job: read on this one)
    }
    {
        let mut worker = Worker::new(options, task);
        for input in inputs {
            let label = input.label();
            sink(Event::Start)?;
            let size = input.size();
            let mut read = match input.open().map(|r| counted(r, options)) {
                Ok(reader) => worker.read_all(&label, reader, &mut sink)?,
                Err(e) => {
                    sink(Event::Problem(io_error(&label, &e, "cannot read")))?;
                    InputRead {
                        failed: true,
                        ..InputRead::default()
                    }
                }
            };
            if let Some(d) = shrank(&label, size, &mut read) {
                sink(Event::Problem(d))?;
            }
            sink(Event::End(read))?;
        }
        Ok(())
    }
}

/// The `io-error` of an input read to its end (not failed) in fewer bytes than the
/// `size` it had when it was opened: it was cut while it was read, and its last game may be
/// cut with it. Marks `read` failed.
fn shrank(label: &str, size: Option<u64>, read: &mut InputRead) -> Option<Diagnostic> {
    let size = size?;
    if read.failed || read.bytes >= size {
        return None;
    }
    read.failed = true;
    let message = format!(
        "{label} was cut while it was read: {} of its {size} bytes were there; its last game may be cut",
        read.bytes
    );
    let mut d = Diagnostic::new(&codes::IO_ERROR, message);
    d.path = label.to_string();
    Some(d)
}

impl Input {
    /// The size of a regular file (what reading it to its end should give).
    fn size(&self) -> Option<u64> {
        match self {
            Input::File(p) => std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
            Input::Stdin => None,
        }
    }

    /// Opens the input for reading.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        match self {
            Input::Stdin => Ok(Box::new(io::stdin())),
            Input::File(path) => Ok(Box::new(std::fs::File::open(path)?)),
        }
    }
}

/// Reads and checks every game of one input, `input` named `label`, on the calling thread,
/// giving `task` each game and `sink` the outputs in order (without the input's
/// [`Event::Start`] and [`Event::End`]); how the input was read.
pub fn run_reader<T: Task>(
    label: &str,
    input: impl Read,
    options: &RunOptions,
    task: &T,
    mut sink: impl FnMut(Event<T::Output>) -> io::Result<()>,
) -> io::Result<InputRead> {
    Worker::new(options, task).read_all(label, input, &mut sink)
}

/// The `io-error` diagnostic of the input `label`.
fn io_error(label: &str, e: &io::Error, what: &str) -> Diagnostic {
    let mut d = Diagnostic::new(&codes::IO_ERROR, format!("{what}: {e}"));
    d.path = label.to_string();
    // (about the whole input: no place in it)
    (d.line, d.column) = (0, 0);
    d
}

/// What a worker hands on of an input.
enum Piece<T> {
    /// The outputs of games, and the bytes of text and output they stand for.
    Games(Vec<T>, usize),
    Problem(Diagnostic),
}

/// Games a worker of [`parallel`] hands on together: up to this many, or as many as
/// make this many bytes of text and output ([`Task::weight`]), so that a batch of long
/// games, or of games whose output is large, is cut short.
const BATCH_GAMES: usize = 64;
const BATCH_BYTES: usize = 64 * 1024;

/// How a worker's reading of an input (or a block of one) ended.
struct Read_ {
    read: InputRead,
    /// Game indices given (to games and games too large).
    games: u64,
}

/// A thread's checker and task.
struct Worker<'t, T> {
    task: &'t T,
    options: CheckOptions,
    checker: Checker,
}

impl<'t, T: Task> Worker<'t, T> {
    fn new(options: &RunOptions, task: &'t T) -> Self {
        Worker {
            task,
            options: options.check,
            checker: Checker::new(options.check.replay_options(), task.keep()),
        }
    }

    /// [`read`](Self::read) of a whole input, its outputs given to `sink` one by one.
    fn read_all(
        &mut self,
        label: &str,
        input: impl Read,
        sink: &mut impl FnMut(Event<T::Output>) -> io::Result<()>,
    ) -> io::Result<InputRead> {
        // (one game at a time: the sink is at hand)
        let reader = Reader::new(Counted::new(input, 0), self.options.reader_options());
        let done = self.read(label, reader, 1, |piece| match piece {
            Piece::Games(games, _) => games.into_iter().try_for_each(|g| sink(Event::Game(g))),
            Piece::Problem(d) => sink(Event::Problem(d)),
        })?;
        Ok(done.read)
    }

    /// Reads the input `label` with `reader`, handing `out` the outputs in batches of up
    /// to `batch_games` games and the problems.
    fn read<R: Read>(
        &mut self,
        label: &str,
        reader: io::Result<Reader<Counted<R>>>,
        batch_games: usize,
        mut out: impl FnMut(Piece<T::Output>) -> io::Result<()>,
    ) -> io::Result<Read_> {
        let mut reader = match reader {
            Ok(r) => r,
            Err(e) => {
                out(Piece::Problem(io_error(label, &e, "cannot read")))?;
                let read = InputRead {
                    failed: true,
                    ..InputRead::default()
                };
                return Ok(Read_ { read, games: 0 });
            }
        };
        // a guessed encoding is said before the games read in it
        if let Some(guess) = reader.guess() {
            out(Piece::Problem(read_error(label, guess.read_error())))?;
        }
        let replay = self.options.replay_options();
        let mut batch = Vec::new();
        let mut batch_bytes = 0;
        let mut failed = false;
        while let Some(item) = self.checker.read_game(&mut reader) {
            match item {
                Ok(()) => {
                    let source = reader.game();
                    let report = self.checker.report_mut();
                    let (diagnostics, unreported) = diagnose(label, source, report, &replay);
                    let has_errors =
                        unreported || diagnostics.iter().any(|d| d.severity == Severity::Error);
                    let game = Checked {
                        path: label,
                        source,
                        report,
                        diagnostics,
                        has_errors,
                    };
                    let output = self.task.game(game);
                    batch_bytes += source.text.len() + self.task.weight(&output);
                    batch.push(output);
                    if batch.len() >= batch_games || batch_bytes >= BATCH_BYTES {
                        out(Piece::Games(std::mem::take(&mut batch), batch_bytes))?;
                        batch_bytes = 0;
                    }
                }
                Err(e) => {
                    if !batch.is_empty() {
                        out(Piece::Games(std::mem::take(&mut batch), batch_bytes))?;
                        batch_bytes = 0;
                    }
                    failed |= matches!(e, ReadError::Io(_));
                    let problem = read_error(label, e);
                    let unread = self.task.unread(&problem, reader.skipped_text());
                    out(Piece::Problem(problem))?;
                    if let Some(output) = unread {
                        batch_bytes += self.task.weight(&output);
                        batch.push(output);
                    }
                }
            }
        }
        if !batch.is_empty() {
            out(Piece::Games(batch, batch_bytes))?;
        }
        let games = reader.games_indexed();
        let encoding = Some(reader.encoding().name());
        let bytes = reader.into_inner().bytes;
        let read = InputRead {
            encoding,
            bytes,
            failed,
        };
        Ok(Read_ { read, games })
    }
}

/// The located diagnostic of a problem of the input `label` that is no game's.
fn read_error(label: &str, e: ReadError) -> Diagnostic {
    let mut d = match e {
        ReadError::Io(io) => Diagnostic::new(&codes::IO_ERROR, format!("reading {label}: {io}")),
        ReadError::At {
            kind,
            game_index,
            line,
            column,
            message,
        } => {
            let mut d = Diagnostic::new(codes::of_read_error(kind), message);
            d.game = game_index.map(|g| g as usize);
            d.line = line as usize;
            d.column = column as usize;
            d
        }
    };
    d.path = label.to_string();
    d
}

/// `reader`, each byte read through it added to the run's progress count, when it has one.
fn counted(reader: Box<dyn Read + Send>, options: &RunOptions) -> Box<dyn Read + Send> {
    match options.progress {
        Some(count) => Box::new(Progress(reader, count)),
        None => reader,
    }
}

/// A reader that adds the bytes read through it to a progress count.
struct Progress<R>(R, &'static AtomicU64);

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A reader that counts the bytes read through it.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R> Counted<R> {
    /// `inner`, counted from `bytes` read before.
    fn new(inner: R, bytes: usize) -> Self {
        Counted {
            inner,
            bytes: bytes as u64,
        }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// A job for a worker: a whole input, or a block of one.
struct Job<T> {
    /// Its place in the order of jobs, from 0.
    id: u64,
    label: Arc<str>,
    source: Source,
    results: Sender<Message<T>>,
}

/// The bytes of the outputs done and waiting for their turn (the text of their games and
/// [`Task::weight`]), shared by the workers and the thread that puts outputs out: a
/// worker waits while they are over [`AHEAD_BYTES`], unless its job is the one being put
/// out (which must go on for the others to be put out after it).
struct Budget {
    state: Mutex<BudgetState>,
    changed: Condvar,
}

struct BudgetState {
    waiting: usize,
    /// The job being put out.
    current: u64,
    /// The outputs are put out no more: nobody waits.
    closed: bool,
}

/// Bytes of outputs done that may wait for their turn: with ordinary games (output no
/// larger than their text) many blocks, so that each worker goes on with the next; with
/// converted text many times as large (JSON Lines: twenty), about six.
const AHEAD_BYTES: usize = 16 << 20;

impl Budget {
    fn new() -> Budget {
        Budget {
            state: Mutex::new(BudgetState {
                waiting: 0,
                current: 0,
                closed: false,
            }),
            changed: Condvar::new(),
        }
    }

    /// Counts `bytes` of outputs of job `job`, once there is room.
    fn take(&self, job: u64, bytes: usize) {
        let Ok(mut s) = self.state.lock() else { return };
        while !s.closed && s.current != job && s.waiting > 0 && s.waiting + bytes > AHEAD_BYTES {
            s = match self.changed.wait(s) {
                Ok(s) => s,
                Err(_) => return,
            };
        }
        s.waiting += bytes;
    }

    /// `bytes` of outputs were put out.
    fn give(&self, bytes: usize) {
        if let Ok(mut s) = self.state.lock() {
            s.waiting = s.waiting.saturating_sub(bytes);
        }
        self.changed.notify_all();
    }

    /// Job `job`'s outputs are put out now.
    fn start(&self, job: u64) {
        if let Ok(mut s) = self.state.lock() {
            s.current = job;
        }
        self.changed.notify_all();
    }

    /// Nothing more is put out.
    fn close(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.closed = true;
        }
        self.changed.notify_all();
    }
}

enum Source {
    /// A file to open and read whole.
    File(std::path::PathBuf),
    /// A block of an input in `encoding`, starting at `start`.
    Block {
        bytes: Vec<u8>,
        start: BlockStart,
        encoding: &'static encoding_rs::Encoding,
    },
    /// The rest of an input, to read on to its end: the whole input, or what follows
    /// the blocks cut before (from `start`, in its encoding).
    Rest {
        input: Box<dyn Read + Send>,
        start: Option<(BlockStart, &'static encoding_rs::Encoding)>,
    },
}

/// What a job hands to the thread that puts outputs in order.
enum Message<T> {
    Piece(Piece<T>),
    /// The job is done: how its reading ended.
    Done {
        read: InputRead,
        games: u64,
    },
}

/// What the reader thread hands to the thread that puts outputs in order, in input order.
enum Slot<T> {
    /// An input starts: its name and size (of a regular file), to tell whether it was
    /// read whole.
    Start(Arc<str>, Option<u64>),
    /// A job's id and messages.
    Job(u64, Receiver<Message<T>>),
    /// A problem the reader thread met (the input cannot be opened or read).
    Problem(Diagnostic),
    /// The input is done; what the reader thread read of it itself.
    End(InputRead),
}

/// Bytes a block holds at least, and at most before its input is read on by one worker.
/// (A block's outputs wait while the block before it is put out, and are freed at once
/// when its turn comes: blocks of 512 KiB made 10 MB of JSON Lines freed at a time,
/// which the allocator gave back to the system before the workers could use it again,
/// 200,000 page faults in `convert --to jsonl -j2` of the 100 MB archive.)
const BLOCK_BYTES: usize = 128 * 1024;
const MAX_BLOCK_BYTES: usize = 4 << 20;

/// The places in the order of outputs the reader thread may fill ahead of the thread
/// that puts them out (an input's start and end take one each, a job one): what lets the
/// workers go on with small files while the output waits. (What the jobs' outputs hold
/// is bounded by the [`Budget`].)
const SLOTS_AHEAD: usize = 64;

/// Files up to this size are one job, read whole by a worker.
const WHOLE_FILE_BYTES: u64 = 1 << 20;

/// Runs on worker threads; `None`, before anything reached `sink`, when the inputs are
/// one job or not even one worker could be started (the system's limit on threads):
/// then the caller reads on its own thread. Fewer workers start when the system gives
/// no more, and no more start than the inputs have jobs for.
fn parallel<T: Task>(
    inputs: &[Input],
    options: &RunOptions,
    task: &T,
    sink: &mut impl FnMut(Event<T::Output>) -> io::Result<()>,
) -> Option<io::Result<()>> {
    let threads = jobs_at_most(inputs, options.threads);
    if threads <= 1 {
        return None;
    }
    // (a job is handed over when a worker is free to take it: the blocks waiting are the
    // reader thread's one, not a queue of megabytes)
    let (job_tx, job_rx) = sync_channel::<Job<T::Output>>(0);
    let job_rx = Mutex::new(job_rx);
    let (slot_tx, slot_rx) = sync_channel::<Slot<T::Output>>(SLOTS_AHEAD);
    let budget = Budget::new();
    std::thread::scope(|scope| {
        let mut workers = 0;
        for _ in 0..threads {
            let (job_rx, budget) = (&job_rx, &budget);
            let work = move || {
                let mut worker = Worker::new(options, task);
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    run_job(&mut worker, job, budget);
                }
            };
            if std::thread::Builder::new()
                .spawn_scoped(scope, work)
                .is_err()
            {
                break;
            }
            workers += 1;
        }
        // (a closure not started is dropped with the channel ends it holds: the workers
        // started see the jobs' channel closed, and end)
        let cut = move || cut_inputs(inputs, options, job_tx, slot_tx);
        if workers == 0
            || std::thread::Builder::new()
                .spawn_scoped(scope, cut)
                .is_err()
        {
            return None;
        }
        // the outputs in order
        let result = order(slot_rx, task, &budget, sink);
        // (on an error of the sink, the channels close, nobody waits, the threads end)
        budget.close();
        Some(result)
    })
}

/// `threads`, or fewer when the inputs cannot have that many jobs at once: a small file
/// is one job, a big one a job a block; standard input and what is no regular file may
/// be cut into any number of blocks.
fn jobs_at_most(inputs: &[Input], threads: usize) -> usize {
    let mut jobs = 0usize;
    for input in inputs {
        jobs = jobs.saturating_add(match input.size() {
            Some(size) if size <= WHOLE_FILE_BYTES => 1,
            Some(size) => usize::try_from(size / BLOCK_BYTES as u64 + 1).unwrap_or(usize::MAX),
            None => usize::MAX,
        });
        if jobs >= threads {
            return threads;
        }
    }
    jobs
}

fn run_job<T: Task>(worker: &mut Worker<'_, T>, job: Job<T::Output>, budget: &Budget) {
    let Job {
        id,
        label,
        source,
        results,
    } = job;
    let send = |piece| {
        if let Piece::Games(_, bytes) = &piece {
            budget.take(id, *bytes);
        }
        results
            .send(Message::Piece(piece))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
    };
    let options = worker.options.reader_options();
    let at = |encoding| ReaderOptions {
        encoding: Some(encoding),
        ..options
    };
    let done = match source {
        Source::File(path) => {
            // (a file small enough to be one job: the bar of many files counts it whole)
            let reader =
                std::fs::File::open(&path).and_then(|f| Reader::new(Counted::new(f, 0), options));
            worker.read(&label, reader, BATCH_GAMES, send)
        }
        Source::Block {
            bytes,
            start,
            encoding,
        } => {
            let len = bytes.len();
            // (UTF-8 text, as most blocks are, is read where it is)
            let text = match encoding == encoding_rs::UTF_8 {
                true => String::from_utf8(bytes).map_err(|e| e.into_bytes()),
                false => Err(bytes),
            };
            let reader = match text {
                Ok(text) => Reader::at_text(
                    Counted::new(io::Cursor::new(Vec::new()), len),
                    text,
                    at(encoding),
                    start,
                ),
                Err(bytes) => {
                    Reader::at(Counted::new(io::Cursor::new(bytes), 0), at(encoding), start)
                }
            };
            worker.read(&label, reader, BATCH_GAMES, send)
        }
        Source::Rest { input, start } => {
            let reader = match start {
                None => Reader::new(Counted::new(input, 0), options),
                Some((start, encoding)) => Reader::at(Counted::new(input, 0), at(encoding), start),
            };
            worker.read(&label, reader, BATCH_GAMES, send)
        }
    };
    if let Ok(done) = done {
        let _ = results.send(Message::Done {
            read: done.read,
            games: done.games,
        });
    }
}

/// The reader thread: turns the inputs into jobs, and tells the orderer in which order.
fn cut_inputs<T>(
    inputs: &[Input],
    options: &RunOptions,
    jobs: SyncSender<Job<T>>,
    slots: SyncSender<Slot<T>>,
) {
    let next_id = std::cell::Cell::new(0u64);
    for input in inputs {
        let label: Arc<str> = input.label().into();
        if slots
            .send(Slot::Start(label.clone(), input.size()))
            .is_err()
        {
            return;
        }
        let job = |source: Source| {
            // (its batches wait in its channel until the jobs before it are put out)
            let (tx, rx) = channel();
            let id = next_id.get();
            next_id.set(id + 1);
            let job = Job {
                id,
                label: label.clone(),
                source,
                results: tx,
            };
            (job, rx)
        };
        let send = |source: Source| -> bool {
            let (j, rx) = job(source);
            slots.send(Slot::Job(j.id, rx)).is_ok() && jobs.send(j).is_ok()
        };
        // a small file is read whole by a worker
        if let Input::File(path) = input {
            let small =
                std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= WHOLE_FILE_BYTES);
            if small {
                if !send(Source::File(path.clone()))
                    || slots.send(Slot::End(InputRead::default())).is_err()
                {
                    return;
                }
                continue;
            }
        }
        let read = match input.open().map(|r| counted(r, options)) {
            Ok(reader) => cut_input(&label, reader, options, &send, &slots),
            Err(e) => {
                let _ = slots.send(Slot::Problem(io_error(&label, &e, "cannot read")));
                InputRead {
                    failed: true,
                    ..InputRead::default()
                }
            }
        };
        if slots.send(Slot::End(read)).is_err() {
            return;
        }
    }
}

/// Cuts one input into block jobs (see the module documentation); what the reader thread
/// read of it itself that is not in a job's count.
fn cut_input<T>(
    label: &str,
    mut input: Box<dyn Read + Send>,
    options: &RunOptions,
    send: &dyn Fn(Source) -> bool,
    slots: &SyncSender<Slot<T>>,
) -> InputRead {
    let mut buf: Vec<u8> = Vec::new();
    let failed = |e: io::Error| {
        let _ = slots.send(Slot::Problem(io_error(label, &e, "reading")));
        InputRead {
            failed: true,
            ..InputRead::default()
        }
    };
    let eof = match fill(&mut input, &mut buf, crate::pdn::input::DETECT_PREFIX) {
        Ok(eof) => eof,
        Err(e) => return failed(e),
    };
    let encoding =
        crate::pdn::input::cuttable_encoding(&buf, eof, options.check.encoding, options.check.text);
    let Some(encoding) = encoding else {
        // (UTF-16 or binary: read on whole by one worker)
        send(Source::Rest {
            input: Box::new(io::Cursor::new(buf).chain(input)),
            start: None,
        });
        return InputRead::default();
    };
    // (the blocks are read in the encoding found here: a guess is said here)
    if options.check.encoding.is_none() {
        if let Some(guess) = crate::pdn::input::guess(&buf, eof) {
            let _ = slots.send(Slot::Problem(read_error(label, guess.read_error())));
        }
    }
    let utf8 = encoding == encoding_rs::UTF_8;
    let mut start = BlockStart {
        line: 1,
        replaced_before: false,
        offset: 0,
    };
    let mut eof = eof;
    loop {
        // read at least a block's worth past where a cut may be
        while buf.len() < BLOCK_BYTES * 2 && !eof {
            match fill(&mut input, &mut buf, BLOCK_BYTES * 2) {
                Ok(e) => eof = e,
                Err(e) => return failed(e),
            }
        }
        if eof && buf.len() <= BLOCK_BYTES * 2 {
            send(Source::Block {
                bytes: buf,
                start,
                encoding,
            });
            return InputRead::default();
        }
        // the last sure cut, looked for further and further when there is none
        let cut = loop {
            if let Some(cut) = crate::pdn::boundary::find_cut(&buf, BLOCK_BYTES) {
                break Some(cut);
            }
            if buf.len() >= MAX_BLOCK_BYTES || eof {
                break None;
            }
            let want = buf.len() + BLOCK_BYTES;
            // (room for the longest block at once, not copied into each larger one; what
            // is not filled is not touched)
            buf.reserve_exact((MAX_BLOCK_BYTES + BLOCK_BYTES).saturating_sub(buf.len()));
            match fill(&mut input, &mut buf, want) {
                Ok(e) => eof = e,
                Err(e) => return failed(e),
            }
        };
        let Some(cut) = cut else {
            if eof {
                send(Source::Block {
                    bytes: buf,
                    start,
                    encoding,
                });
            } else {
                // no place to cut: the rest is read on by one worker
                send(Source::Rest {
                    input: Box::new(io::Cursor::new(buf).chain(input)),
                    start: Some((start, encoding)),
                });
            }
            return InputRead::default();
        };
        let rest = buf.split_off(cut);
        let next = BlockStart {
            line: start.line + crate::pdn::source::line_breaks(&buf),
            replaced_before: start.replaced_before
                || (utf8 && simdutf8::basic::from_utf8(&buf).is_err()),
            offset: start.offset + buf.len() as u64,
        };
        if !send(Source::Block {
            bytes: std::mem::replace(&mut buf, rest),
            start,
            encoding,
        }) {
            return InputRead::default();
        }
        start = next;
    }
}

/// Reads from `input` until `buf` holds `want` bytes or the input ends; whether it ended.
fn fill(input: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    // (room for exactly what is wanted: a buffer grown by doubling to 8 MiB for a 4 MiB
    // stretch stays resident a while after it is freed)
    buf.reserve_exact(want.saturating_sub(buf.len()));
    while buf.len() < want {
        let have = buf.len();
        buf.resize(want, 0);
        let got = loop {
            match input.read(&mut buf[have..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => break r,
            }
        };
        match got {
            Ok(0) => {
                buf.truncate(have);
                return Ok(true);
            }
            Ok(n) => buf.truncate(have + n),
            Err(e) => {
                buf.truncate(have);
                return Err(e);
            }
        }
    }
    Ok(false)
}

/// Empties the jobs' channels in order into `sink`.
fn order<T: Task>(
    slots: Receiver<Slot<T::Output>>,
    task: &T,
    budget: &Budget,
    sink: &mut impl FnMut(Event<T::Output>) -> io::Result<()>,
) -> io::Result<()> {
    // what the current input's jobs read, and the games of its blocks before this one
    let mut read = InputRead::default();
    let mut games = 0u64;
    let mut input: (Arc<str>, Option<u64>) = (Arc::from(""), None);
    for slot in slots {
        match slot {
            Slot::Start(label, size) => {
                read = InputRead::default();
                games = 0;
                input = (label, size);
                sink(Event::Start)?;
            }
            Slot::Problem(d) => {
                read.failed |= d.rule == &codes::IO_ERROR;
                sink(Event::Problem(d))?;
            }
            Slot::Job(id, messages) => {
                budget.start(id);
                for message in messages {
                    match message {
                        Message::Piece(Piece::Games(outputs, bytes)) => {
                            for mut output in outputs {
                                if games > 0 {
                                    task.rebase(&mut output, games);
                                }
                                sink(Event::Game(output))?;
                            }
                            budget.give(bytes);
                        }
                        Message::Piece(Piece::Problem(mut d)) => {
                            read.failed |= d.rule == &codes::IO_ERROR;
                            d.game = d.game.map(|g| g + games as usize);
                            sink(Event::Problem(d))?;
                        }
                        Message::Done { read: r, games: g } => {
                            games += g;
                            read.bytes += r.bytes;
                            read.failed |= r.failed;
                            read.encoding = read.encoding.or(r.encoding);
                        }
                    }
                }
            }
            Slot::End(r) => {
                read.failed |= r.failed;
                read.bytes += r.bytes;
                if let Some(d) = shrank(&input.0, input.1, &mut read) {
                    sink(Event::Problem(d))?;
                }
                sink(Event::End(read))?;
            }
        }
    }
    Ok(())
}

/// What checking one game found, besides its diagnostics.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// 1-based index in the file.
    pub index: usize,
    /// How far the main line replayed.
    pub status: crate::replay::Status,
    /// Main-line plies played.
    pub plies: u32,
    /// The basis of a drawn result, when the game is recorded as a draw.
    pub draw_basis: Option<crate::draw::DrawBasis>,
    /// Whether some diagnostic of this game is an error.
    pub has_errors: bool,
}

/// Everything found in one input, by [`check_reader`].
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    /// The input's name as given.
    pub path: String,
    /// The encoding it was read in (WHATWG name), when it could be read.
    pub encoding: Option<&'static str>,
    /// Games read.
    pub games: usize,
    /// Games with at least one error.
    pub games_with_errors: usize,
    /// Per-game summaries, in file order.
    pub summaries: Vec<GameSummary>,
    /// Diagnostics in report order (game, then position).
    pub diagnostics: Vec<Diagnostic>,
    /// The input could not be read (or only partly).
    pub io_failed: bool,
}

/// The [`Task`] of [`check_reader`].
struct Summarize;

impl Task for Summarize {
    type Output = (GameSummary, Vec<Diagnostic>);

    fn game(&self, g: Checked<'_>) -> Self::Output {
        let summary = GameSummary {
            index: g.source.index as usize,
            status: g.report.status,
            plies: g.report.plies,
            draw_basis: g.report.draw.as_ref().and_then(|v| v.basis),
            has_errors: g.has_errors,
        };
        (summary, g.diagnostics)
    }
}

/// Checks one input (`input`, named `path`) on the calling thread: every game's summary
/// and diagnostics, and the problems of the input. Never panics on input; an I/O error
/// becomes an `io-error` diagnostic, and what was read before it is still checked.
///
/// ```
/// use pdnkit::check::CheckOptions;
/// let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n";
/// let report = pdnkit::run::check_reader("game.pdn", pdn.as_bytes(), &CheckOptions::default());
/// assert_eq!(report.games, 1);
/// let illegal = report.diagnostics.iter().find(|d| d.rule.name == "illegal-move").unwrap();
/// assert_eq!((illegal.line, illegal.column, illegal.ply), (2, 19, Some(3)));
/// ```
pub fn check_reader(path: &str, input: impl Read, options: &CheckOptions) -> FileReport {
    let mut report = FileReport {
        path: path.to_string(),
        ..FileReport::default()
    };
    let options = RunOptions {
        check: *options,
        threads: 1,
        progress: None,
    };
    let read = run_reader(path, input, &options, &Summarize, |event| {
        match event {
            Event::Game((summary, diagnostics)) => {
                report.games += 1;
                report.games_with_errors += usize::from(summary.has_errors);
                report.summaries.push(summary);
                report.diagnostics.extend(diagnostics);
            }
            Event::Problem(d) => {
                report.io_failed |= d.rule == &codes::IO_ERROR;
                report.diagnostics.push(d);
            }
            Event::Start | Event::End(_) => {}
        }
        Ok(())
    });
    match read {
        Ok(read) => {
            report.encoding = read.encoding;
            report.io_failed |= read.failed;
        }
        Err(e) => {
            report.io_failed = true;
            report.diagnostics.push(io_error(path, &e, "cannot read"));
        }
    }
    report
}
