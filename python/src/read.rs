//! `pdnkit.read`: the games of files, bytes or a binary file object, as `Game`s.
//!
//! The library's run loop reads and checks on a thread of its own and sends the games'
//! [`GameData`] in batches over a channel of a few: the thread waits while Python has not
//! taken them, so memory stays bounded whatever the input, and stops when the iterator is
//! dropped (its next send fails).

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Mutex, OnceLock};

use compact_str::CompactString;
use pdnkit::check::CheckOptions;
use pdnkit::check::checker::Keep;
use pdnkit::convert::GameStatus;
use pdnkit::convert::played::Notated;
use pdnkit::convert::style_for;
use pdnkit::diag::Diagnostic;
use pdnkit::diag::codes;
use pdnkit::pdn::{Annotation, Line};
use pdnkit::rules::notation::{Style, push_move};
use pdnkit::rules::{AnyPosition, Variant};
use pdnkit::run::{self, Checked, Event, Input, RunOptions, Task};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::{diagnostic_error, diagnostics_to_py, guarded};

/// Games (and problems) sent at a time: a thread woken for each game would cost more
/// than checking it.
const BATCH: usize = 32;

/// Batches the reading thread may have ready before Python takes them.
const AHEAD: usize = 4;

/// What `read` keeps of a game, made on the reading thread.
struct GameData {
    path: String,
    number: u64,
    line: u64,
    tags: Vec<(CompactString, CompactString)>,
    moves: Vec<String>,
    unplayed: Vec<String>,
    result: Option<String>,
    status: &'static str,
    diagnostics: Vec<Diagnostic>,
    /// The variant the game was replayed by.
    variant: Variant,
    /// The start of the main line and the position after each ply played, written as
    /// FEN when asked for.
    start: Option<AnyPosition>,
    after: Vec<AnyPosition>,
    /// The game's text, whose tree is built when its variations or comments are asked
    /// for (not for every game read for its moves).
    text: String,
}

/// What a game's tree gives: the variations of the main line's moves (the ply each
/// replaces and its moves as written) and its comments (the plies before each, and the
/// text).
type Annotations = (Vec<(u32, Vec<String>)>, Vec<(u32, String)>);

/// The task of `read`: a game's data, its moves written in `style`.
struct Collect {
    style: Style,
}

impl Task for Collect {
    type Output = GameData;

    fn keep(&self) -> Keep {
        Keep {
            plies: usize::MAX,
            ..Keep::default()
        }
    }

    fn game(&self, g: Checked<'_>) -> GameData {
        let r = &mut *g.report;
        let mut moves = Vec::with_capacity(r.mainline.len());
        let mut after = Vec::with_capacity(r.mainline.len());
        for p in &r.mainline {
            let mut text = String::with_capacity(8);
            push_move(&mut text, &p.before, &p.mv, self.style);
            moves.push(text);
            // (not the move replayed from the start: a setup command may set up another
            // position before it)
            after.push(AnyPosition::Russian(p.after));
        }
        // (another variant's moves by its numbers, as its players write them)
        let style = style_for(self.style, (None, None), r.variant);
        for p in &r.variant_line.mainline {
            let mut text = String::with_capacity(8);
            p.played().push_text(&mut text, style);
            moves.push(text);
            after.push(AnyPosition::Other(Box::new(p.after)));
        }
        let result = (r.tag("Result").map(str::to_string))
            .or_else(|| r.result.as_ref().map(|t| t.raw.clone()));
        GameData {
            path: g.path.to_string(),
            number: g.source.index,
            line: g.source.start.line,
            tags: (r.tags.iter())
                .map(|t| (t.name.clone(), t.value.clone()))
                .collect(),
            moves,
            unplayed: r.unplayed.iter().map(|m| m.to_string()).collect(),
            result,
            status: GameStatus::of(r).as_str(),
            diagnostics: g.diagnostics,
            variant: r.variant,
            start: r.any_start(),
            after,
            text: g.source.text.to_string(),
        }
    }

    fn rebase(&self, output: &mut GameData, games: u64) {
        output.number += games;
        for d in &mut output.diagnostics {
            d.game = d.game.map(|n| n + games as usize);
        }
    }
}

/// The variations and comments of the main line `line`: each with the main-line plies
/// before it (a variation replaces the move after them).
fn main_line_annotations(line: &Line) -> Annotations {
    let (mut variations, mut comments) = (Vec::new(), Vec::new());
    let mut note = |annotation: &Annotation, plies: u32, replaces: u32| match annotation {
        Annotation::Comment(c) => comments.push((plies, c.text.clone())),
        Annotation::Variation(v) => {
            let moves = v.moves.iter().map(|m| m.text.to_string()).collect();
            variations.push((replaces, moves));
        }
        _ => {}
    };
    for (i, m) in line.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        // (before a move: alternatives written before the line's first move replace it)
        for a in m.before() {
            note(a, ply - 1, ply);
        }
        for a in m.after() {
            note(a, ply, ply);
        }
    }
    let plies = line.moves.len() as u32;
    for a in &line.trailing {
        note(a, plies, plies);
    }
    (variations, comments)
}

/// What the reading thread sends.
enum Item {
    Game(Box<GameData>),
    Problem(Diagnostic),
    /// Reading stopped on an error of the reader of a Python file object.
    Failed(String),
}

/// A Python binary file object as a [`Read`]: its `read(n)`, called with the interpreter
/// held (the thread that waits for the games releases it).
struct PyReader {
    file: Py<PyAny>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .file
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let bytes = chunk
                .cast_bound::<PyBytes>(py)
                .map_err(|_| io::Error::other("the file must be opened in binary mode ('rb')"))?
                .as_bytes();
            // (a file object may return more than asked)
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// Where the games come from.
enum Source {
    Inputs(Vec<Input>),
    Bytes(Vec<u8>),
    File(Py<PyAny>, String),
}

/// Runs the run loop over `source`, sending what it gives on `tx` until it is done or
/// nobody takes what it sends.
fn produce(source: Source, options: RunOptions, style: Style, tx: SyncSender<Vec<Item>>) {
    let task = Collect { style };
    let mut batch = Vec::with_capacity(BATCH);
    let send = |e: Event<GameData>| -> io::Result<()> {
        // (an input's last games go at its end, not with the next input's)
        let end = matches!(e, Event::End(_));
        match e {
            Event::Game(g) => batch.push(Item::Game(Box::new(g))),
            Event::Problem(d) => batch.push(Item::Problem(d)),
            Event::Start | Event::End(_) => {}
        }
        if batch.is_empty() || (batch.len() < BATCH && !end) {
            return Ok(());
        }
        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
        tx.send(full).map_err(|_| io::Error::other("no reader"))
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match source {
        Source::Inputs(inputs) => run::run(&inputs, &options, &task, send),
        Source::Bytes(bytes) => {
            run::run_reader("<bytes>", &bytes[..], &options, &task, send).map(|_| ())
        }
        Source::File(file, label) => {
            run::run_reader(&label, PyReader { file }, &options, &task, send).map(|_| ())
        }
    }));
    let mut last = std::mem::take(&mut batch);
    match run {
        Ok(Ok(())) => {}
        Ok(Err(e)) => last.push(Item::Failed(e.to_string())),
        Err(_) => last.push(Item::Failed("pdnkit failed while reading".to_string())),
    }
    // (when nobody takes them, the iterator is gone)
    if !last.is_empty() {
        let _ = tx.send(last);
    }
}

/// An iterator of the games read (what `pdnkit.read` returns).
#[pyclass(module = "pdnkit")]
pub struct Games {
    rx: Mutex<Receiver<Vec<Item>>>,
    /// The items of the last batch not yet taken.
    pending: std::collections::VecDeque<Item>,
    problems: Vec<Diagnostic>,
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        loop {
            if self.pending.is_empty() {
                let rx = &self.rx;
                match py.detach(|| rx.lock().ok().and_then(|rx| rx.recv().ok())) {
                    Some(batch) => self.pending.extend(batch),
                    None => return Ok(None),
                }
            }
            match self.pending.pop_front() {
                None => {}
                Some(Item::Game(data)) => {
                    let annotations = OnceLock::new();
                    return Ok(Some(Game {
                        data: *data,
                        annotations,
                    }));
                }
                // (an input that could not be read is an error; the other problems of an
                // input that are no game's are kept in `problems`)
                Some(Item::Problem(d)) if d.rule == &codes::IO_ERROR => {
                    return Err(diagnostic_error(py, &d));
                }
                Some(Item::Problem(d)) => self.problems.push(d),
                Some(Item::Failed(message)) => {
                    return Err(crate::pdn_error(py, "E102", &message, None, None));
                }
            }
        }
    }

    /// The problems met so far that are no game's (a game too large to read, text
    /// outside any game, an encoding guessed), as diagnostics.
    #[getter]
    fn problems<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        diagnostics_to_py(py, &self.problems)
    }
}

/// The games of `source`, checked as `pdnkit lint` checks them, one at a time.
///
/// `source` is a path, a list of paths (a folder is read for its `*.pdn` files), `bytes`,
/// or a file opened in binary mode. Files of any size are read in bounded memory.
/// `encoding` overrides detection (`utf-8`, `windows-1251`, `cp866`...); `notation` writes
/// `Game.moves` with `algebraic` (`c3-d4`) or `numeric` (`22-18`) squares; `rules` is the
/// draw-rule edition (`russia` or `fmjd`).
///
/// An input that cannot be read raises `PdnError` (`E102`) when it is reached; the other
/// problems that are no game's (text outside any game, a game too large) are in the
/// iterator's `problems`.
#[pyfunction]
#[pyo3(signature = (source, encoding=None, notation="algebraic", rules="russia"))]
pub fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    notation: &str,
    rules: &str,
) -> PyResult<Games> {
    let style = crate::style(notation)?;
    let mut options = RunOptions {
        check: CheckOptions {
            encoding: crate::encoding(encoding)?,
            edition: crate::edition(rules)?,
            ..CheckOptions::default()
        },
        ..RunOptions::default()
    };
    let source = if let Ok(bytes) = source.cast::<PyBytes>() {
        Source::Bytes(bytes.as_bytes().to_vec())
    } else if source.hasattr("read")? && !source.is_instance_of::<PyString>() {
        let label = match source.getattr("name") {
            Ok(name) => name.str()?.to_string(),
            Err(_) => "<file>".to_string(),
        };
        Source::File(source.clone().unbind(), label)
    } else {
        let expected = "read() takes a path, a list of paths, bytes or a binary file";
        let inputs = crate::inputs(py, &crate::paths_of(source, expected)?)?;
        options.threads = crate::threads();
        Source::Inputs(inputs)
    };
    let (tx, rx) = sync_channel(AHEAD);
    std::thread::Builder::new()
        .name("pdnkit-read".into())
        .spawn(move || produce(source, options, style, tx))
        .map_err(|e| crate::pdn_error(py, "E102", &e.to_string(), None, None))?;
    Ok(Games {
        rx: Mutex::new(rx),
        pending: Default::default(),
        problems: Vec::new(),
    })
}

/// A game read and checked.
#[pyclass(module = "pdnkit", frozen)]
pub struct Game {
    data: GameData,
    annotations: OnceLock<Annotations>,
}

impl Game {
    /// The variations and comments of the main line, from the game's tree built once.
    fn annotations(&self, py: Python<'_>) -> PyResult<&Annotations> {
        if let Some(made) = self.annotations.get() {
            return Ok(made);
        }
        let text = &self.data.text;
        let made = guarded(py, || {
            main_line_annotations(&pdnkit::pdn::Game::parse(text).moves)
        })?;
        Ok(self.annotations.get_or_init(|| made))
    }
}

#[pymethods]
impl Game {
    /// The tags, name to value (a name written twice keeps its first value).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tags = PyDict::new(py);
        for (name, value) in &self.data.tags {
            if !tags.contains(name.as_str())? {
                tags.set_item(name.as_str(), value.as_str())?;
            }
        }
        Ok(tags)
    }

    /// The variant the game was replayed by (`russian`, `international`, …; for a game
    /// not replayed, the one it was found to be of).
    #[getter]
    fn variant(&self) -> &'static str {
        self.data.variant.name()
    }

    /// The main line's moves replayed, in the notation asked for (a game of another
    /// variant as its players write it).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.data.moves)
    }

    /// The main line's moves after those replayed, as written: from a move that is not
    /// legal (or cannot be read) on, and every move of a game that is not replayed
    /// (`status` `unparsed`).
    #[getter]
    fn unplayed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.data.unplayed)
    }

    /// The result: the Result tag's, else the terminator's (`1-0`, `0-1`, `1/2-1/2`, `*`),
    /// or None.
    #[getter]
    fn result(&self) -> Option<&str> {
        self.data.result.as_deref()
    }

    /// `ok`, `illegal` (the main line stops at a bad move), `incomplete` (at an unknown
    /// move), `unparsed` (syntax errors, or a variant not replayed).
    #[getter]
    fn status(&self) -> &'static str {
        self.data.status
    }

    /// Every finding of the game (each severity), as dicts of the fields of
    /// `pdnkit lint --format jsonl`.
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        diagnostics_to_py(py, &self.data.diagnostics)
    }

    /// The input's name, as in diagnostics.
    #[getter]
    fn path(&self) -> &str {
        &self.data.path
    }

    /// The game's number in its input (from 1).
    #[getter]
    fn number(&self) -> u64 {
        self.data.number
    }

    /// The line of the input where the game starts.
    #[getter]
    fn line(&self) -> u64 {
        self.data.line
    }

    /// The variations of the main line: (ply, moves) pairs, the main-line ply each
    /// replaces and its moves as written (variations inside them are not listed).
    #[getter]
    fn variations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.annotations(py)?.0)
    }

    /// The comments of the main line: (plies, text) pairs, the main-line plies before each.
    #[getter]
    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.annotations(py)?.1)
    }

    /// The FEN of the start and of the position after each move of `moves`.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let data = &self.data;
        let fens = guarded(py, || {
            let Some(start) = &data.start else {
                return Vec::new();
            };
            (std::iter::once(start).chain(&data.after))
                .map(|pos| pos.to_fen())
                .collect::<Vec<_>>()
        })?;
        PyList::new(py, fens)
    }

    fn __repr__(&self) -> String {
        let tag = |name: &str| {
            (self.data.tags.iter())
                .find(|(n, _)| n == name)
                .map_or("?", |(_, v)| v.as_str())
        };
        format!(
            "<Game {}#{} {} - {} {} ({} moves, {})>",
            self.data.path,
            self.data.number,
            tag("White"),
            tag("Black"),
            self.data.result.as_deref().unwrap_or("*"),
            self.data.moves.len(),
            self.data.status
        )
    }
}
