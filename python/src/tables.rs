//! `pdnkit.lint` and the Arrow tables (`games_table`, `moves_table`): runs of the library
//! over files, with the interpreter released.

use arrow_pyarrow::{IntoPyArrow, Table as PyTable};
use pdnkit::check::CheckOptions;
use pdnkit::convert::parquet::tables::Table;
use pdnkit::convert::parquet::{Dataset, ParquetOptions};
use pdnkit::convert::{Converter, Format};
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::{Diagnostic, Rule, Severity};
use pdnkit::run::{self, Checked, Discovery, Event, Input, RunOptions, Task};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::diagnostics_to_py;

/// What the functions of paths say of another argument.
const EXPECTED: &str = "expected a path or a list of paths";

/// The task of `lint`: the diagnostics of each game.
struct Lint;

impl Task for Lint {
    type Output = Vec<Diagnostic>;

    fn game(&self, game: Checked<'_>) -> Vec<Diagnostic> {
        game.diagnostics
    }

    fn rebase(&self, diagnostics: &mut Vec<Diagnostic>, games: u64) {
        for d in diagnostics {
            d.game = d.game.map(|g| g + games as usize);
        }
    }
}

/// The selectors of `select` or `ignore`, each checked as `--select` checks it.
fn selectors(given: Option<Vec<String>>) -> PyResult<Vec<String>> {
    let given = given.unwrap_or_default();
    for s in &given {
        codes::check_selector(s).map_err(PyValueError::new_err)?;
    }
    Ok(given)
}

/// The diagnostics of the games of `paths` (files, or folders read for their `*.pdn`
/// files) as dicts with the fields of `pdnkit lint --format jsonl` (`schema`, `path`,
/// `game`, `line`, `column`, `code`, `name`, `severity`, `message`, `ply`, `move`,
/// `fix`), in input order.
///
/// `select` and `ignore` take codes (`M101`), names (`illegal-move`) or code prefixes
/// (`M`, `T1`), as `--select` and `--ignore` do; `severity` is the least serious shown
/// (`error`, `warning`, `info`). No configuration file is read (as `--isolated`).
#[pyfunction]
#[pyo3(signature = (paths, select=None, ignore=None, rules="russia", severity="warning", encoding=None))]
pub fn lint<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    rules: &str,
    severity: &str,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let paths = crate::paths_of(paths, EXPECTED)?;
    let (select, ignore) = (selectors(select)?, selectors(ignore)?);
    let least: Severity = clap::ValueEnum::from_str(severity, true).map_err(|_| {
        PyValueError::new_err(format!(
            "unknown severity `{severity}` (error, warning, info)"
        ))
    })?;
    let selected = |rule: &Rule| {
        (select.is_empty() || select.iter().any(|s| codes::selector_matches(s, rule)))
            && !ignore.iter().any(|s| codes::selector_matches(s, rule))
    };
    let options = RunOptions {
        check: CheckOptions {
            encoding: crate::encoding(encoding)?,
            edition: crate::edition(rules)?,
            omit_snippets_and_boards: true,
            report: RuleSet::matching(selected),
            // (those below `severity` only counted, as `pdnkit lint` does; dropped below)
            least_shown: Some(least),
            ..CheckOptions::default()
        },
        threads: crate::threads(),
        ..RunOptions::default()
    };
    let found = py.detach(|| {
        guarded_run(|| {
            let (inputs, errors) = run::expand(&paths, &Discovery::default());
            let mut found = Vec::new();
            // (an input that cannot be found: about the whole input, no place in it)
            for e in errors {
                let mut d = Diagnostic::new(&codes::IO_ERROR, e.message);
                d.path = e.path;
                (d.line, d.column) = (0, 0);
                found.push(d);
            }
            run::run(&inputs, &options, &Lint, |event| {
                match event {
                    Event::Game(diagnostics) => found.extend(diagnostics),
                    Event::Problem(d) => found.push(d),
                    Event::Start | Event::End(_) => {}
                }
                Ok(())
            })?;
            found.retain(|d| selected(d.rule) && d.severity <= least);
            Ok(found)
        })
    });
    let found = found.map_err(|e| crate::pdn_error(py, "E102", &e, None, None))?;
    diagnostics_to_py(py, &found)
}

/// Runs `f` (a run of the library), its panic an error instead.
fn guarded_run<T>(f: impl FnOnce() -> std::io::Result<T>) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("pdnkit failed".to_string()),
    }
}

/// The tables `convert --format parquet` writes (`games`, `moves`, `diagnostics`, and
/// `positions` when asked), of the games of `paths`, as pyarrow Tables by name (what
/// `pdnkit.games_table` and `pdnkit.moves_table` give).
#[pyfunction]
#[pyo3(signature = (paths, names, notation="algebraic", positions=false, rules="russia", encoding=None))]
pub fn tables<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    names: Vec<String>,
    notation: &str,
    positions: bool,
    rules: &str,
    encoding: Option<&str>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let inputs = crate::inputs(py, &crate::paths_of(paths, EXPECTED)?)?;
    let style = crate::style(notation)?;
    let options = RunOptions {
        check: CheckOptions {
            encoding: crate::encoding(encoding)?,
            edition: crate::edition(rules)?,
            omit_snippets_and_boards: true,
            ..CheckOptions::default()
        },
        threads: crate::threads(),
        ..RunOptions::default()
    };
    let parquet = ParquetOptions {
        positions,
        partition_by: None,
    };
    let made = py.detach(|| {
        guarded_run(|| {
            let converter = Converter::new(Format::Parquet(parquet), style);
            let mut dataset = Dataset::in_memory(parquet, style);
            let labels: Vec<String> = inputs.iter().map(Input::label).collect();
            let mut next = labels.iter();
            run::run(&inputs, &options, &converter, |event| match event {
                Event::Start => {
                    dataset.start_input(next.next().map_or("", String::as_str));
                    Ok(())
                }
                Event::Game(game) => dataset.game(&game),
                Event::Problem(d) => dataset.problem(&d),
                Event::End(_) => Ok(()),
            })?;
            dataset.into_batches()
        })
    });
    let made = made.map_err(|e| crate::pdn_error(py, "E102", &e, None, None))?;
    let mut out = Vec::new();
    for name in &names {
        let Some((table, batches)) = made.iter().find(|(t, _)| t.name() == name) else {
            return Err(PyValueError::new_err(format!("no table `{name}`")));
        };
        let schema = Table::schema(*table);
        let table = PyTable::try_new(batches.clone(), schema)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        out.push(table.into_pyarrow(py)?);
    }
    Ok(out)
}
