//! One big file checked on every thread, in one pass over most of its text: the reader
//! thread cuts the file into blocks at lines that start a tag pair (after a result when
//! it can, see [`pdnkit::pdn::blocks::find_cut`]), without reading the games; workers
//! read and check each block apart ([`OnePass::read`] from the block's start); the
//! results come back in order, their game numbers moved on by the games of the blocks
//! before.
//!
//! A block read apart gives the items the whole file gives for its games only where the
//! block before it ended cleanly ([`pdnkit::pdn::GameSplitter::ended_clean`]): a block
//! ending in a game's header, or in comments that belong to the next game, does not.
//! That is known once the block is checked, so where a block did not end cleanly, the
//! rest of the file is read again from that block's start by the thread that puts the
//! results in order (which cuts its games, the workers checking them in batches), and
//! the blocks after it are dropped. Real archives hardly ever come to that; files of
//! games without moves or results (no place to cut where a game surely ends) do.
//!
//! Files in a legacy single-byte encoding (Windows-1251, KOI8-R, IBM866, Windows-1252:
//! old Russian archives) are cut the same way, as bytes (the lines and tokens looked at
//! are ASCII), and each block is decoded by its worker; the reader thread only counts
//! how long each block's text will be, for where the next starts in the decoded text.
//! Files in UTF-16 are not cut at all.

use super::pipeline::{InputRead, OnePass, Piece, io_problem};
use pdnkit::check::CheckOptions;
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::pdn::BlockStart;
use pdnkit::pdn::blocks::{find_cut, line_breaks};
use pdnkit::pdn::input::{DETECT_PREFIX, SingleByte, cuttable_encoding};
use std::collections::VecDeque;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

/// The least text a block holds (however much the results of the text expand).
const MIN_BLOCK: usize = 64 * 1024;

/// The most a block holds while no place to cut it is found: then the file is read on
/// sequentially from the block's start. (Real games take kilobytes; with 8 MiB, blocks
/// of games of 4 MB of comment took `lint -j2` from 37 to 43 MB.)
const MAX_BLOCK: usize = 2 << 20;

/// The results emitted together, at most (about a batch's).
const MAX_HELD_RESULTS: usize = 512 * 1024;

/// The largest block buffer given back to the reader thread for the next blocks.
const MAX_RECYCLED: usize = 2 << 20;

/// The most bytes of results a worker holds for one block: past them (results hundreds
/// of times the text, on text far from ordinary), it gives up the block and the file is
/// read on sequentially from its start, its results emitted as they come.
const MAX_BLOCK_RESULTS: u64 = 8 << 20;

/// A block of a file to check.
pub(super) struct BlockJob {
    /// Index of the input.
    pub input: usize,
    /// Its name in diagnostics, and its path (`None`: a stream, see [`BlockSource`]).
    pub label: String,
    pub path: Option<PathBuf>,
    /// The block's bytes.
    pub text: BlockText,
    /// The file's encoding (the blocks are decoded in it, not each detected apart).
    pub encoding: &'static encoding_rs::Encoding,
    pub start: BlockStart,
    /// Where the block starts in the file (past a BOM it differs from `start.offset`).
    pub file_offset: u64,
    /// The file ends with this block.
    pub last: bool,
    /// No tag line was found to cut at: the file is to be read on sequentially from the
    /// block's start (`text` is empty).
    pub forced: bool,
    /// The next block starts with a tag line (else with a game's movetext, see
    /// [`find_cut`]): what the block must end with for the next to be read apart.
    pub next_at_tag_line: bool,
}

/// A block's bytes: UTF-8 text (nearly always), or not.
pub(super) enum BlockText {
    Valid(String),
    /// Of a UTF-8 file, with malformed bytes.
    Malformed(Vec<u8>),
    /// Of a file in a legacy single-byte encoding, to be decoded.
    SingleByte(Vec<u8>, Arc<SingleByte>),
}

impl BlockText {
    /// How many bytes it has.
    pub fn len(&self) -> u64 {
        match self {
            BlockText::Valid(text) => text.len() as u64,
            BlockText::Malformed(bytes) | BlockText::SingleByte(bytes, _) => bytes.len() as u64,
        }
    }
}

/// A block checked.
pub(super) struct BlockDone<T> {
    pub input: usize,
    label: String,
    path: Option<PathBuf>,
    encoding: &'static encoding_rs::Encoding,
    start: BlockStart,
    file_offset: u64,
    /// The items, game numbers counted from 1 in the block.
    items: Vec<Result<T, Diagnostic>>,
    /// The game numbers the block took.
    games: u64,
    /// The next block can be read apart (or there is none).
    clean: bool,
}

impl<T> BlockDone<T> {
    /// The bytes of results it holds, by `weigh`.
    pub fn held(&self, weigh: &dyn Fn(&T) -> usize) -> u64 {
        let results = self.items.iter().filter_map(|item| item.as_ref().ok());
        results.map(|r| weigh(r) as u64).sum()
    }
}

/// Checks a block (on a worker).
/// How a block is checked: the options, the command's reading, and the weight of its
/// results (see [`super::pipeline::run`]).
pub(super) type Checking<'a, T> = (
    &'a CheckOptions,
    &'a dyn OnePass<T>,
    &'a dyn Fn(&T) -> usize,
);

pub(super) fn check_block<T>(
    job: BlockJob,
    checking: Checking<'_, T>,
    abandoned: &AtomicUsize,
    recycle: &mpsc::Sender<Vec<u8>>,
) -> BlockDone<T> {
    check_block_holding(job, checking, abandoned, recycle, MAX_BLOCK_RESULTS)
}

/// [`check_block`], giving the block up past `most` bytes of results.
fn check_block_holding<T>(
    job: BlockJob,
    (options, one_pass, weigh): Checking<'_, T>,
    abandoned: &AtomicUsize,
    recycle: &mpsc::Sender<Vec<u8>>,
    most: u64,
) -> BlockDone<T> {
    let BlockJob {
        input,
        label,
        path,
        text,
        encoding,
        start,
        file_offset,
        last,
        forced,
        next_at_tag_line,
    } = job;
    let options = &CheckOptions {
        encoding: Some(encoding),
        ..*options
    };
    // a block after one that did not end cleanly is not read: the rest of its file is
    // read again in order, and its results dropped
    let games = match text {
        _ if forced || abandoned.load(Ordering::Relaxed) == input + 1 => {
            Err(io::Error::other("read in order"))
        }
        BlockText::Valid(text) => one_pass.read_text(&label, text, options, start),
        BlockText::Malformed(ref bytes) => {
            one_pass.read(&label, Box::new(&bytes[..]), options, Some(start))
        }
        BlockText::SingleByte(bytes, single) => {
            let mut text = String::new();
            single.decode_into(&bytes, &mut text);
            one_pass.read_text(&label, text, options, start)
        }
    };
    let (items, games, clean) = match games {
        Ok(mut games) => {
            let (mut items, mut held) = (Vec::new(), 0);
            for item in games.by_ref() {
                held += item.as_ref().map_or(0, |r| weigh(r) as u64);
                items.push(item);
                if held > most {
                    break;
                }
            }
            let ended_so = if next_at_tag_line {
                games.ended_clean()
            } else {
                games.ended_between_games()
            };
            let clean = held <= most && (last || ended_so);
            if !clean {
                items.clear();
            }
            // (a buffer grown for a game of megabytes is freed, not kept for ordinary
            // blocks; nor is one whose reader thread is gone)
            let buffer = games.take_buffer().into_bytes();
            if buffer.capacity() <= MAX_RECYCLED {
                let _ = recycle.send(buffer);
            }
            (items, games.games_indexed(), clean)
        }
        // (reading bytes in memory does not fail; if it did, the file is read again)
        Err(_) => (Vec::new(), 0, false),
    };
    BlockDone {
        input,
        label,
        path,
        encoding,
        start,
        file_offset,
        items,
        games,
        clean,
    }
}

/// What [`read_blocks`] did with an input.
pub(super) enum Blocks {
    /// It was cut into blocks (or could not be opened): all is sent, true unless the run
    /// was cancelled.
    Sent(bool),
    /// It is not read in an encoding that can be cut (it is UTF-16, or not text): read
    /// it the usual way, from this reader (which gives the bytes read so far again).
    NotCut(Box<dyn Read + Send>),
    /// A block of a stream did not end cleanly: the stream is to be read on in order
    /// from that block's start, on the reader thread (the input's start and its blocks
    /// up to there are sent).
    ReadOn(StreamRest),
}

/// Where [`read_blocks`] reads a big input from.
pub(super) enum BlockSource<'a> {
    /// A file. Where a block does not end cleanly, the thread that emits reads the rest
    /// again from the file ([`Rest`]).
    File(&'a Path),
    /// A stream (standard input), which can be read once only: the reader thread keeps
    /// a copy of each block until the thread that emits has emitted it, and where one
    /// did not end cleanly it reads the rest in order itself, from the copies kept and
    /// the stream ([`Blocks::ReadOn`]). The emitting thread tells how far it came in the
    /// [`StreamWatch`].
    Stream(Box<dyn Read + Send>, &'a StreamWatch),
}

/// The rest of a stream, from the start of a block that did not end cleanly.
pub(super) struct StreamRest {
    /// Its bytes from there (the copies of the blocks sent, then the stream).
    pub reader: Box<dyn Read + Send>,
    /// Its encoding (not detected again from the block's text).
    pub encoding: &'static encoding_rs::Encoding,
    /// Where the block starts, in the decoded text and in the stream.
    pub start: BlockStart,
    pub offset: u64,
    /// The games of the blocks before it: the rest's game numbers are moved on by as many.
    pub games_before: u64,
}

/// How far the thread that emits came with the blocks of a stream (see
/// [`BlockSource::Stream`]), for the reader thread, which keeps their copies until then.
#[derive(Default)]
pub(super) struct StreamWatch {
    seen: Mutex<Watched>,
    changed: Condvar,
}

/// What [`StreamWatch`] tells of the input being emitted.
#[derive(Clone, Copy, Default)]
struct Watched {
    input: usize,
    /// The blocks emitted, each one ended cleanly, and their games.
    blocks: u64,
    games: u64,
    /// The block after them did not end cleanly.
    unclean: bool,
    /// The thread that emits has stopped (the run was cancelled): nothing more comes.
    closed: bool,
}

impl StreamWatch {
    fn tell(&self, change: impl FnOnce(&mut Watched)) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut seen);
        self.changed.notify_all();
    }

    /// Block `blocks - 1` of input `input` ended cleanly and is emitted; the blocks so
    /// far hold `games` games.
    pub fn emitted(&self, input: usize, blocks: u64, games: u64) {
        self.tell(|seen| {
            *seen = Watched {
                input,
                blocks,
                games,
                ..*seen
            }
        });
    }

    /// Block `blocks` of input `input` did not end cleanly (`games` in the blocks before).
    pub fn unclean(&self, input: usize, blocks: u64, games: u64) {
        self.tell(|seen| {
            *seen = Watched {
                input,
                blocks,
                games,
                unclean: true,
                ..*seen
            }
        });
    }

    /// Nothing more will be emitted.
    pub fn close(&self) {
        self.tell(|seen| seen.closed = true);
    }

    /// What is known of input `input` now; with `until`, once its first `until` blocks
    /// are emitted, or one of them did not end cleanly.
    fn look(&self, input: usize, until: Option<u64>) -> Watched {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let now = if seen.input == input {
                *seen
            } else {
                Watched {
                    input,
                    closed: seen.closed,
                    ..Watched::default()
                }
            };
            let known = now.closed || now.unclean || until.is_none_or(|n| now.blocks >= n);
            if known {
                return now;
            }
            seen = self.changed.wait(seen).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A copy of a block of a stream, kept until it is emitted (see [`BlockSource::Stream`]).
struct KeptBlock {
    start: BlockStart,
    offset: u64,
    bytes: Vec<u8>,
}

/// Cuts the input `source` into blocks (on the reader thread): `send` takes its pieces
/// (start, problems, end), `send_block` its blocks; `block_text` says how much text a
/// block is to hold now. Stops sending blocks of a file once `abandoned` names this input
/// (its rest is being read sequentially), and those of a stream once one did not end
/// cleanly; takes buffers for the blocks from `recycled`.
pub(super) fn read_blocks<T>(
    i: usize,
    (label, source): (&str, BlockSource<'_>),
    options: &CheckOptions,
    block_text: &dyn Fn() -> usize,
    (abandoned, recycled): (&AtomicUsize, &mpsc::Receiver<Vec<u8>>),
    send: &mut dyn FnMut(Piece<T>) -> bool,
    send_block: &mut dyn FnMut(BlockJob) -> bool,
) -> Blocks {
    let problem = |e: io::Error| io_problem(label, &e);
    let (mut file, path, watch): (Box<dyn Read + Send>, _, _) = match source {
        BlockSource::File(path) => match std::fs::File::open(path) {
            Ok(f) => (Box::new(f), Some(path), None),
            Err(e) => {
                return Blocks::Sent(send(problem(e)) && send(Piece::End(InputRead::default())));
            }
        },
        BlockSource::Stream(stream, watch) => (stream, None, Some(watch)),
    };
    let mut buf = Vec::new();
    let mut eof = match fill(&mut file, &mut buf, DETECT_PREFIX.max(block_text())) {
        Ok(eof) => eof,
        Err(e) => {
            let end = InputRead {
                encoding: None,
                bytes: buf.len() as u64,
            };
            return Blocks::Sent(send(problem(e)) && send(Piece::End(end)));
        }
    };
    let Some(encoding) = cuttable_encoding(&buf, eof, options.encoding) else {
        return Blocks::NotCut(Box::new(io::Cursor::new(buf).chain(file)));
    };
    // (`None`: UTF-8)
    let single_byte = SingleByte::new(encoding).map(Arc::new);
    if !send(Piece::Start) {
        return Blocks::Sent(false);
    }
    let bom = if single_byte.is_none() && buf.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let (mut line, mut file_offset, mut replaced) = (1, 0u64, false);
    // where the next block starts in the decoded text (in UTF-8, at its byte offset past
    // the BOM, and past what the malformed bytes before it grew into as U+FFFD)
    let (mut text_offset, mut grown) = (0u64, 0u64);
    // (read in the encoding the file read whole would be read in: the blocks are read so)
    let read_so_far = |file_offset: u64, buf: &[u8]| InputRead {
        encoding: Some(encoding.name()),
        bytes: file_offset + buf.len() as u64,
    };
    // a stream's blocks not emitted yet, and how many blocks came before the first
    let (mut kept, mut blocks_before_kept) = (VecDeque::<KeptBlock>::new(), 0u64);
    loop {
        let target = block_text().max(MIN_BLOCK);
        // a cut in the second half of `target` bytes, or as far as needed to find one
        let mut cut = None;
        loop {
            if !eof && buf.len() < target {
                match fill(&mut file, &mut buf, target) {
                    Ok(at_end) => eof = at_end,
                    Err(e) => {
                        let end = Piece::End(read_so_far(file_offset, &buf));
                        return Blocks::Sent(send(problem(e)) && send(end));
                    }
                }
            }
            if eof && buf.len() <= target + target / 2 {
                break;
            }
            cut = find_cut(&buf, target / 2).map(|at| (at, false));
            if cut.is_some() || eof {
                break;
            }
            if buf.len() >= MAX_BLOCK {
                cut = Some((0, true));
                break;
            }
            let want = buf.len() + target;
            match fill(&mut file, &mut buf, want) {
                Ok(at_end) => eof = at_end,
                Err(e) => {
                    let end = Piece::End(read_so_far(file_offset, &buf));
                    return Blocks::Sent(send(problem(e)) && send(end));
                }
            }
        }
        let (len, forced) = cut.unwrap_or((buf.len(), false));
        let last = cut.is_none();
        let next_at_tag_line = buf.get(len) == Some(&b'[');
        // the rest goes on in a buffer of a block checked, if one is back (a block cut
        // nowhere is sent empty: its input is read again from there)
        let text = if forced {
            Vec::new()
        } else {
            let mut next = recycled.try_recv().unwrap_or_default();
            next.clear();
            next.extend_from_slice(&buf[len..]);
            buf.truncate(len);
            std::mem::replace(&mut buf, next)
        };
        let start = BlockStart {
            line,
            offset: text_offset,
            replaced_before: replaced,
        };
        if watch.is_some() {
            kept.push_back(KeptBlock {
                start,
                offset: file_offset,
                bytes: text.clone(),
            });
        }
        line += line_breaks(&text);
        let len = text.len() as u64;
        let text = if let Some(single) = &single_byte {
            text_offset += single.decoded_len(&text);
            BlockText::SingleByte(text, Arc::clone(single))
        } else if simdutf8::basic::from_utf8(&text).is_ok() {
            // SAFETY: the check just above says the bytes are UTF-8 (it is several times
            // faster than the one of `String::from_utf8`, 2% of `lint -j2`)
            BlockText::Valid(unsafe { String::from_utf8_unchecked(text) })
        } else {
            replaced = true;
            // (a rare file: its block decoded here once more, to count what it grows by)
            let decoded = String::from_utf8_lossy(&text).len() as u64;
            grown += decoded.saturating_sub(len);
            BlockText::Malformed(text)
        };
        if single_byte.is_none() {
            text_offset = (file_offset + len).saturating_sub(bom) + grown;
        }
        if let Some(path) = path
            && abandoned.load(Ordering::Relaxed) == i + 1
        {
            return Blocks::Sent(send(Piece::End(read_on(path, file_offset, encoding))));
        }
        let job = BlockJob {
            input: i,
            label: label.to_string(),
            path: path.map(Path::to_path_buf),
            text,
            encoding,
            start,
            file_offset,
            last,
            forced,
            next_at_tag_line,
        };
        if !send_block(job) {
            return Blocks::Sent(false);
        }
        file_offset += len;
        if let Some(watch) = watch {
            // (after a block cut nowhere, or the last, its fate is waited for)
            let sent = blocks_before_kept + kept.len() as u64;
            let seen = watch.look(i, (forced || last).then_some(sent));
            if seen.closed {
                return Blocks::Sent(false);
            }
            while blocks_before_kept < seen.blocks && kept.pop_front().is_some() {
                blocks_before_kept += 1;
            }
            if seen.unclean {
                return Blocks::ReadOn(read_stream_on(kept, buf, file, encoding, seen.games));
            }
        } else if let Some(path) = path
            && forced
        {
            // (after a block cut anywhere, the file is read on from its start in order)
            return Blocks::Sent(send(Piece::End(read_on(path, file_offset, encoding))));
        }
        if last {
            break;
        }
    }
    Blocks::Sent(send(Piece::End(read_so_far(file_offset, &[]))))
}

/// The rest of a stream from the first of the `kept` blocks (which did not end cleanly):
/// their bytes, then the bytes read past them (`buf`), then the stream.
fn read_stream_on(
    kept: VecDeque<KeptBlock>,
    buf: Vec<u8>,
    stream: Box<dyn Read + Send>,
    encoding: &'static encoding_rs::Encoding,
    games_before: u64,
) -> StreamRest {
    let (start, offset) = kept
        .front()
        .map_or((BlockStart::default(), 0), |k| (k.start, k.offset));
    let mut bytes = Vec::with_capacity(kept.iter().map(|k| k.bytes.len()).sum());
    for k in kept {
        bytes.extend_from_slice(&k.bytes);
    }
    let reader = io::Cursor::new(bytes)
        .chain(io::Cursor::new(buf))
        .chain(stream);
    StreamRest {
        reader: Box::new(reader),
        encoding,
        start,
        offset,
        games_before,
    }
}

/// How a file is read whose rest the emitting thread reads from where its blocks stop
/// (see [`BlockEmitter`]): to its end as it is now, in `encoding`.
fn read_on(path: &Path, blocks: u64, encoding: &'static encoding_rs::Encoding) -> InputRead {
    let size = std::fs::metadata(path).map_or(blocks, |m| m.len().max(blocks));
    InputRead {
        encoding: Some(encoding.name()),
        bytes: size,
    }
}

/// Reads from `file` until `buf` holds `want` bytes or the file ends; true at its end.
fn fill(file: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    if buf.len() >= want {
        return Ok(false);
    }
    let need = (want - buf.len()) as u64;
    // (room for all of it at once: growing as it comes copied the text again and again)
    buf.reserve(want - buf.len());
    let got = file.take(need).read_to_end(buf)?;
    Ok((got as u64) < need)
}

/// Puts checked blocks in order (on the thread that emits): their game numbers moved on,
/// or, after a block that did not end cleanly, the rest of its file read again.
#[derive(Default)]
pub(super) struct BlockEmitter {
    /// The input whose blocks are being emitted, and the games of its blocks so far.
    input: Option<usize>,
    games_before: u64,
    /// The rest of that input was read sequentially: its further blocks are dropped.
    read_through: bool,
    /// The blocks of that input emitted.
    blocks: u64,
}

impl BlockEmitter {
    /// Emits the results of `done`, the next block in order. Where it did not end
    /// cleanly, `read_rest` reads the rest of its file again from its start; the rest of
    /// a stream is read by the reader thread, which `watch` tells (as it tells it of
    /// every block of a stream emitted).
    pub fn emit<T>(
        &mut self,
        done: BlockDone<T>,
        checking: Checking<'_, T>,
        (abandoned, watch): (&AtomicUsize, &StreamWatch),
        emit: &mut Emit<'_, T>,
        read_rest: &mut dyn FnMut(Rest<'_>, &mut Emit<'_, T>) -> io::Result<()>,
    ) -> io::Result<()> {
        if self.input != Some(done.input) {
            *self = BlockEmitter {
                input: Some(done.input),
                ..BlockEmitter::default()
            };
        }
        if self.read_through {
            return Ok(());
        }
        if !done.clean {
            // the rest of the input, from this block on, as one reading
            self.read_through = true;
            abandoned.store(done.input + 1, Ordering::Relaxed);
            let Some(path) = &done.path else {
                watch.unclean(done.input, self.blocks, self.games_before);
                return Ok(());
            };
            let rest = Rest {
                input: done.input,
                label: &done.label,
                path,
                encoding: done.encoding,
                start: done.start,
                file_offset: done.file_offset,
                games_before: self.games_before,
            };
            return read_rest(rest, emit);
        }
        let (games, stream) = (done.games, done.path.is_none());
        self.emit_items(done.items, checking, emit)?;
        self.games_before += games;
        self.blocks += 1;
        if stream {
            watch.emitted(done.input, self.blocks, self.games_before);
        }
        Ok(())
    }

    /// Emits `items` of the current input, their game numbers moved on.
    fn emit_items<T>(
        &self,
        items: impl IntoIterator<Item = Result<T, Diagnostic>>,
        (_, one_pass, weigh): Checking<'_, T>,
        emit: &mut dyn FnMut(Piece<T>) -> io::Result<()>,
    ) -> io::Result<()> {
        let (mut results, mut held) = (Vec::new(), 0);
        for item in items {
            match item {
                Ok(mut result) => {
                    one_pass.rebase(&mut result, self.games_before);
                    held += weigh(&result);
                    results.push(result);
                    // (what a batch holds)
                    if results.len() >= 1024 || held >= MAX_HELD_RESULTS {
                        held = 0;
                        emit(Piece::Games(std::mem::take(&mut results)))?;
                    }
                }
                Err(mut diagnostic) => {
                    if !results.is_empty() {
                        emit(Piece::Games(std::mem::take(&mut results)))?;
                    }
                    diagnostic.game = diagnostic.game.map(|g| g + self.games_before as usize);
                    let io = diagnostic.rule == &codes::IO_ERROR;
                    emit(Piece::Problem { diagnostic, io })?;
                }
            }
        }
        if !results.is_empty() {
            emit(Piece::Games(results))?;
        }
        Ok(())
    }
}

/// What emits the pieces of the output, in order.
pub(super) type Emit<'a, T> = dyn FnMut(Piece<T>) -> io::Result<()> + 'a;

/// The rest of a file to read again, in order, from the start of a block that did not
/// end cleanly (what the thread that emits does, see [`BlockEmitter::emit`]).
pub(super) struct Rest<'a> {
    /// The input's index, name and path.
    pub input: usize,
    pub label: &'a str,
    pub path: &'a Path,
    /// Its encoding (not detected again from the block's text).
    pub encoding: &'static encoding_rs::Encoding,
    /// Where the block starts, in the decoded text and in the file.
    pub start: BlockStart,
    pub file_offset: u64,
    /// The games of the blocks before it: the rest's game numbers, counted from 1 in the
    /// rest, are moved on by as many.
    pub games_before: u64,
}

impl Rest<'_> {
    /// The file, open at the block's start.
    pub fn open(&self) -> io::Result<std::fs::File> {
        let mut file = std::fs::File::open(self.path)?;
        file.seek(io::SeekFrom::Start(self.file_offset))?;
        Ok(file)
    }

    /// The options to read it with: in its encoding.
    pub fn options(&self, options: &CheckOptions) -> CheckOptions {
        CheckOptions {
            encoding: Some(self.encoding),
            ..*options
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::pipeline::OnePassGame;
    use pdnkit::check::DiagnosedGames;

    /// A reading whose result is a game's plies.
    struct Plies;

    impl OnePassGame<u32> for Plies {
        type Reading = ();
        fn start<R: Read>(&self, _: &str, _: &mut DiagnosedGames<R>) {}
        fn next<R: Read>(
            &self,
            (): &(),
            games: &mut DiagnosedGames<R>,
        ) -> Option<Result<u32, Diagnostic>> {
            Some(games.next()?.map(|d| d.summary.plies))
        }
        fn rebase(&self, _: &mut u32, _: u64) {}
    }

    #[test]
    fn a_block_is_given_up_past_its_bound_on_results() {
        let mut text = Vec::new();
        pdnkit::generate::Generator::new(5)
            .write_games(&mut text, 30)
            .unwrap();
        let job = || BlockJob {
            input: 0,
            label: "t.pdn".into(),
            path: Some("t.pdn".into()),
            text: BlockText::Valid(String::from_utf8(text.clone()).unwrap()),
            encoding: encoding_rs::UTF_8,
            start: BlockStart {
                line: 1,
                ..BlockStart::default()
            },
            file_offset: 0,
            last: false,
            forced: false,
            next_at_tag_line: true,
        };
        let options = CheckOptions::default();
        let weigh = |_: &u32| 1000;
        let checking: Checking<'_, u32> = (&options, &Plies, &weigh);
        let (abandoned, (recycle, _recycled)) = (AtomicUsize::new(0), mpsc::channel());
        // within the bound: every game, and the block ends cleanly after its last result
        let done = check_block_holding(job(), checking, &abandoned, &recycle, 30_000);
        assert_eq!((done.items.len(), done.games, done.clean), (30, 30, true));
        // past it: nothing kept, and the file is to be read on from the block's start
        let done = check_block_holding(job(), checking, &abandoned, &recycle, 29_999);
        assert!(done.items.is_empty() && !done.clean);
        // a block of an input being read on in order is not read
        abandoned.store(1, Ordering::Relaxed);
        let done = check_block_holding(job(), checking, &abandoned, &recycle, 30_000);
        assert!(done.items.is_empty() && !done.clean);
    }
}
