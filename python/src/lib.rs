//! The module `pdnkit._pdnkit`: the library of pdnkit from Python, a thin layer over it.
//! `python/pdnkit/__init__.py` re-exports what is public, and `__init__.pyi` types it.
//!
//! Reading runs the library's run loop on a thread of its own and hands the games over a
//! bounded channel (`read.rs`), so that a file of any size is read in bounded memory and
//! the games reach Python as they are checked; `lint` and the tables run it with the
//! interpreter released. Nothing the library does reaches Python as a panic: each call
//! into it is `guarded`.

// (Rust's allocations only: the reading thread makes each game's data, Python's frees it)
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod board;
mod read;
mod tables;

use std::path::PathBuf;

use pdnkit::diag::emit::JsonDiagnostic;
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::draw::Edition;
use pdnkit::rules::notation::{CaptureSeparator, CaptureStyle, SquareStyle, Style};
use pdnkit::run::{self, Discovery, Input};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The exception `pdnkit.PdnError` (defined in Python, with its docstring) for a problem
/// with `code` (a rule's code, such as `F101`), at `line` and `column` when it has a place.
pub(crate) fn pdn_error(
    py: Python<'_>,
    code: &str,
    message: &str,
    line: Option<usize>,
    column: Option<usize>,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("pdnkit")?.getattr("PdnError")?;
        let error = class.call1((message, code, line, column))?;
        Ok(PyErr::from_value(error))
    })();
    made.unwrap_or_else(|e| e)
}

/// The `PdnError` of a located diagnostic (its place, when it has one).
pub(crate) fn diagnostic_error(py: Python<'_>, d: &Diagnostic) -> PyErr {
    let place = |n: usize| (n > 0).then_some(n);
    pdn_error(
        py,
        d.rule.code,
        &format!("{}: {}", d.path, d.message),
        place(d.line),
        place(d.column),
    )
}

/// Runs `f`, a call into the library; a panic becomes a `PdnError` (code `internal`)
/// instead of crossing into Python.
pub(crate) fn guarded<T>(py: Python<'_>, f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let what = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        pdn_error(
            py,
            "internal",
            &format!("pdnkit failed: {what}"),
            None,
            None,
        )
    })
}

/// The diagnostics as Python dicts of the fields of `lint --format jsonl`, made by the
/// library's JSON type and read back by Python's `json`.
pub(crate) fn diagnostics_to_py<'py>(
    py: Python<'py>,
    diagnostics: &[Diagnostic],
) -> PyResult<Bound<'py, PyAny>> {
    if diagnostics.is_empty() {
        return Ok(PyList::empty(py).into_any());
    }
    let mut json = Vec::with_capacity(256 * diagnostics.len());
    json.push(b'[');
    for (i, d) in diagnostics.iter().enumerate() {
        if i > 0 {
            json.push(b',');
        }
        serde_json::to_writer(&mut json, &JsonDiagnostic::from(d))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    json.push(b']');
    let text = String::from_utf8_lossy(&json);
    py.import("json")?.call_method1("loads", (text.as_ref(),))
}

/// The draw-rule edition named `rules` (`russia` or `fmjd`).
pub(crate) fn edition(rules: &str) -> PyResult<Edition> {
    rules
        .parse()
        .map_err(|e: pdnkit::draw::ParseDrawError| PyValueError::new_err(e.to_string()))
}

/// The text encoding named `name` (a WHATWG label: `utf-8`, `windows-1251`, `cp866`…).
pub(crate) fn encoding(name: Option<&str>) -> PyResult<Option<&'static encoding_rs::Encoding>> {
    match name {
        None => Ok(None),
        Some(name) => encoding_rs::Encoding::for_label(name.as_bytes())
            .map(Some)
            .ok_or_else(|| PyValueError::new_err(format!("unknown encoding `{name}`"))),
    }
}

/// How moves are written: `notation`'s squares (`algebraic`, `numeric`), captures by
/// their first and last squares and the landing squares between that they need, `:`
/// (what `pdnkit convert` writes by default).
pub(crate) fn style(notation: &str) -> PyResult<Style> {
    let squares: SquareStyle = clap::ValueEnum::from_str(notation, true).map_err(|_| {
        PyValueError::new_err(format!(
            "unknown notation `{notation}` (algebraic, numeric)"
        ))
    })?;
    Ok(Style {
        squares,
        captures: CaptureStyle::Minimal,
        separator: CaptureSeparator::Colon,
    })
}

/// The paths given: one (str or os.PathLike) or a list of them; else a TypeError that
/// says `expected`.
pub(crate) fn paths_of(paths: &Bound<'_, PyAny>, expected: &str) -> PyResult<Vec<PathBuf>> {
    match paths.extract::<PathBuf>() {
        Ok(path) => Ok(vec![path]),
        Err(_) => (paths.extract::<Vec<PathBuf>>())
            .map_err(|_| PyTypeError::new_err(expected.to_string())),
    }
}

/// The inputs of `paths` (folders walked for their `*.pdn` files); the first path that
/// cannot be read raises `PdnError` (`E102`).
pub(crate) fn inputs(py: Python<'_>, paths: &[PathBuf]) -> PyResult<Vec<Input>> {
    let (inputs, errors) = guarded(py, || run::expand(paths, &Discovery::default()))?;
    match errors.into_iter().next() {
        None => Ok(inputs),
        Some(e) => {
            let mut d = Diagnostic::new(&codes::IO_ERROR, e.message);
            d.path = e.path;
            Err(diagnostic_error(py, &d))
        }
    }
}

/// The threads of a run over files: one per core.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[pymodule]
fn _pdnkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<read::Game>()?;
    m.add_class::<read::Games>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<board::Move>()?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(tables::lint, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables, m)?)?;
    Ok(())
}
