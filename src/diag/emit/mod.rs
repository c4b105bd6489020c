//! `lint`'s output formats: one [`Emitter`] per format, each in its file, streamed
//! diagnostic by diagnostic through a [`Renderer`].
//!
//! A renderer is driven as `begin`, then `diagnostic` for each finding in report order,
//! then `finish`; every format writes only to the writer it is given, and holds nothing
//! but what it needs between findings (SARIF, one JSON document, keeps the text that
//! follows its results).

mod concise;
mod full;
mod github;
pub mod html;
mod json;
mod sarif;

use super::{Diagnostic, Severity};
use std::io::{self, Write};

pub use json::JsonDiagnostic;

/// Output formats of `pdnkit lint` (its `--format`: the comments are its help).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// rustc-like, with the source line, a caret under the token, and the board for rule errors
    Full,
    /// One line each: `path:line:col: CODE [severity] message`.
    #[value(help = "one line each: path:line:col: CODE [severity] message")]
    Concise,
    /// one JSON object per diagnostic (fields: path, game, line, column, code, name,
    /// severity, message, ply, move, fix)
    #[value(name = "jsonl")]
    JsonLines,
    /// the same objects as one JSON array
    Json,
    /// GitHub Actions workflow annotations
    Github,
    /// SARIF 2.1.0 for code-scanning tools
    Sarif,
    /// one self-contained HTML page: a summary with filters, the source lines, and a board
    /// for each rule error
    Html,
}

/// What a run read, for the formats that sum it up (`html`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Inputs read, when known.
    pub files: Option<usize>,
    /// Games read, when known.
    pub games: Option<usize>,
}

/// How one output format writes diagnostics.
pub trait Emitter {
    /// What opens the output.
    fn begin(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// One diagnostic; `first` when it is the first one written.
    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, first: bool) -> io::Result<()>;

    /// What closes the output, after `written` diagnostics of the run `run`.
    fn finish(
        &mut self,
        _out: &mut dyn Write,
        _written: usize,
        _run: &RunSummary,
    ) -> io::Result<()> {
        Ok(())
    }
}

/// The emitter of `format`; `color` adds ANSI colours to the formats for people.
pub fn emitter(format: Format, color: bool) -> Box<dyn Emitter> {
    let paint = Paint(color);
    match format {
        Format::Full => Box::new(full::Full(paint)),
        Format::Concise => Box::new(concise::Concise(paint)),
        Format::JsonLines => Box::new(json::JsonLines::default()),
        Format::Json => Box::new(json::JsonArray::default()),
        Format::Github => Box::new(github::Github),
        Format::Sarif => Box::new(sarif::Sarif::default()),
        Format::Html => Box::new(html::Html::default()),
    }
}

/// Streams diagnostics to a writer in one format.
pub struct Renderer<W: Write> {
    out: W,
    emitter: Box<dyn Emitter>,
    written: usize,
}

impl<W: Write> Renderer<W> {
    /// A renderer; `color` adds ANSI colours to the human formats (the caller decides,
    /// normally only when the output is a terminal).
    pub fn new(out: W, format: Format, color: bool) -> Self {
        Renderer {
            out,
            emitter: emitter(format, color),
            written: 0,
        }
    }

    /// Writes whatever opens the output.
    pub fn begin(&mut self) -> io::Result<()> {
        self.emitter.begin(&mut self.out)
    }

    /// Writes one diagnostic.
    pub fn diagnostic(&mut self, d: &Diagnostic) -> io::Result<()> {
        self.emitter
            .diagnostic(&mut self.out, d, self.written == 0)?;
        self.written += 1;
        Ok(())
    }

    /// Writes whatever closes the output and flushes.
    pub fn finish(&mut self) -> io::Result<()> {
        self.finish_run(&RunSummary::default())
    }

    /// Writes whatever closes the output, summing up the run `run` where the format
    /// does, and flushes.
    pub fn finish_run(&mut self, run: &RunSummary) -> io::Result<()> {
        self.emitter.finish(&mut self.out, self.written, run)?;
        self.out.flush()
    }
}

/// ANSI styles, or none.
#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    const BOLD: &str = "\x1b[1m";
    const BLUE: &str = "\x1b[1;34m";

    /// The opening and closing of `style` (empty without colour).
    fn style(self, style: &'static str) -> (&'static str, &'static str) {
        if self.0 { (style, "\x1b[0m") } else { ("", "") }
    }

    /// The style of a severity.
    fn severity(self, s: Severity) -> (&'static str, &'static str) {
        self.style(match s {
            Severity::Error => "\x1b[1;31m",
            Severity::Warning => "\x1b[1;33m",
            Severity::Info => "\x1b[1;36m",
        })
    }
}
