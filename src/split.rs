//! Cutting a collection into files: one per value of a tag (the event, the year of the
//! date, White, Black, the round) or one per N games, each game's text as it was read.
//!
//! A game is written verbatim: its text as the reader gives it (decoded to UTF-8, without
//! stray lines before its tags), the games of a file one after the other with a blank line
//! between them. A file's name is made from its value ([`safe_name`]: safe on any file
//! system) and made unique by a number ([`Namer`]: also when two names differ only in case,
//! as they would clash on a file system that ignores case). Files are written as games
//! come, a few open at once ([`OPEN_FILES`]), so that any number of values can be split
//! into.
//!
//! ```
//! use pdnkit::split::{safe_name, Namer};
//! assert_eq!(safe_name("Moscow ch: round 1/2"), "Moscow ch_ round 1_2");
//! assert_eq!(safe_name("CON"), "CON_");
//! let mut namer = Namer::default();
//! assert_eq!(namer.name("Moscow"), "Moscow.pdn");
//! assert_eq!(namer.name("moscow"), "moscow-2.pdn");
//! ```

use crate::check::checker::{GameReport, Keep};
use crate::diag::Diagnostic;
use crate::run::{Checked, Input, Task};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What a collection is split by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// The `Event` tag.
    Event,
    /// The year of the `Date` tag.
    Year,
    /// The `White` tag.
    White,
    /// The `Black` tag.
    Black,
    /// The `Round` tag.
    Round,
    /// Files of this many games each (the last may hold fewer).
    Games(u64),
}

impl FromStr for SplitBy {
    type Err = String;

    /// `event`, `year`, `white`, `black`, `round` (in any case), or a number of games.
    fn from_str(s: &str) -> Result<SplitBy, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "event" => SplitBy::Event,
            "year" => SplitBy::Year,
            "white" => SplitBy::White,
            "black" => SplitBy::Black,
            "round" => SplitBy::Round,
            n => match n.parse::<u64>() {
                Ok(n) if n > 0 => SplitBy::Games(n),
                _ => {
                    return Err(format!(
                        "`{s}`: say event, year, white, black, round, or a number of games (at least 1)"
                    ));
                }
            },
        })
    }
}

impl SplitBy {
    /// The name of what is split by, in the name of the file of games without a value
    /// (`no-event.pdn`).
    fn name(self) -> &'static str {
        match self {
            SplitBy::Event => "event",
            SplitBy::Year => "year",
            SplitBy::White => "white",
            SplitBy::Black => "black",
            SplitBy::Round => "round",
            SplitBy::Games(_) => "games",
        }
    }

    /// The value game `report` goes under; `None` when it has none (the tag is missing,
    /// empty or `?`, or the date has no year). A value is trimmed; values that differ in
    /// any other way (case, inner spaces) are different values.
    pub fn value(self, report: &GameReport) -> Option<String> {
        let tag = |name| {
            report
                .tag(name)
                .map(str::trim)
                .filter(|v| !matches!(*v, "" | "?"))
        };
        let value = match self {
            SplitBy::Event => tag("Event")?,
            SplitBy::White => tag("White")?,
            SplitBy::Black => tag("Black")?,
            SplitBy::Round => tag("Round")?,
            SplitBy::Year => {
                let year = match crate::date::parse_date(tag("Date")?) {
                    crate::date::DateValue::Date(d) | crate::date::DateValue::Range(d, _) => d.year,
                    _ => None,
                };
                return year.map(|y| format!("{y:04}"));
            }
            SplitBy::Games(_) => return None,
        };
        Some(value.to_string())
    }
}

/// The longest name made from a value, in bytes, before the number that makes it unique
/// and `.pdn` (file systems allow 255).
pub const MAX_NAME_BYTES: usize = 100;

/// A file name made from `value`, safe on any file system: the characters no system
/// allows or some treat apart (`/ \ : * ? " < > |`, control characters) become `_`, as do
/// leading dots (a hidden file) and trailing dots and spaces (which Windows drops);
/// runs of white space become one space; a name Windows reserves for a device (`CON`,
/// `NUL`, `COM1`, `LPT1`, …, with or without an extension) gets a `_`; the name is cut to
/// [`MAX_NAME_BYTES`]; an empty one is `_`.
pub fn safe_name(value: &str) -> String {
    let mut name = String::with_capacity(value.len());
    for word in value.split_whitespace() {
        if !name.is_empty() {
            name.push(' ');
        }
        for c in word.chars() {
            let bad =
                matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') || c.is_control();
            name.push(if bad { '_' } else { c });
        }
    }
    if name.len() > MAX_NAME_BYTES {
        let mut end = MAX_NAME_BYTES;
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
    }
    // (a hidden name would be skipped when the folder is read back; Windows drops
    // trailing dots and spaces)
    let leading = name.len() - name.trim_start_matches('.').len();
    name.replace_range(..leading, &"_".repeat(leading));
    let kept = name.trim_end_matches(['.', ' ']).len();
    let trailing = name.len() - kept;
    name.truncate(kept);
    name.push_str(&"_".repeat(trailing));
    if name.is_empty() {
        name.push('_');
    }
    let stem = name.split('.').next().unwrap_or("").to_ascii_uppercase();
    let reserved = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit());
    if reserved {
        name.insert(stem.len(), '_');
    }
    name
}

/// Gives file names unique in a folder, also where case is ignored: the first `base`
/// is `base.pdn`, the next ones (in any case) `base-2.pdn`, `base-3.pdn`, ….
#[derive(Clone, Debug, Default)]
pub struct Namer {
    /// The names given, in lower case.
    taken: HashSet<String>,
}

impl Namer {
    /// A name not given yet for the [`safe_name`] `base`.
    pub fn name(&mut self, base: &str) -> String {
        let mut n = 1;
        loop {
            let name = match n {
                1 => format!("{base}.pdn"),
                n => format!("{base}-{n}.pdn"),
            };
            if self.taken.insert(name.to_lowercase()) {
                return name;
            }
            n += 1;
        }
    }
}

/// A game to write: its value and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The value it goes under (none for [`SplitBy::Games`]).
    pub value: Option<String>,
    /// Its text as read; `None` for a game the reader skipped without keeping its text.
    pub text: Option<String>,
}

/// The task of `split`: each game's value and text. Only the tags are replayed (the
/// reader skips the movetext, which is written as read).
pub struct SplitTask {
    pub by: SplitBy,
}

impl Task for SplitTask {
    type Output = Piece;

    fn keep(&self) -> Keep {
        Keep {
            tags_only: true,
            ..Keep::default()
        }
    }

    fn game(&self, g: Checked<'_>) -> Piece {
        let text = &g.source.text[g.source.stray_prefix.min(g.source.text.len())..];
        Piece {
            value: self.by.value(g.report),
            text: Some(text.to_string()),
        }
    }

    fn weight(&self, piece: &Piece) -> usize {
        piece.text.as_ref().map_or(0, String::len)
    }

    /// A game skipped (too large): its text when the reader kept it, under no value (its
    /// tags were not read).
    fn unread(&self, problem: &Diagnostic, text: Option<&str>) -> Option<Piece> {
        problem.game?;
        Some(Piece {
            value: None,
            text: text.map(str::to_string),
        })
    }
}

/// The files open at once at most: the others are closed and opened again to add to.
pub const OPEN_FILES: usize = 32;

/// A file written, as the index lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Its path.
    pub path: PathBuf,
    /// The value of its games (`None`: the games without one); for [`SplitBy::Games`], its
    /// number (`1`, `2`, …).
    pub value: Option<String>,
    /// The games written to it.
    pub games: u64,
}

/// Why a split cannot start, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// The folder holds files already, and overwriting was not asked for.
    #[error("{0} is not empty (--force writes into it, replacing the files of the same names)")]
    NotEmpty(PathBuf),
    /// A file to write is an input.
    #[error("{0} is an input: refusing to write over it")]
    Input(PathBuf),
    /// A file or the folder could not be made or written.
    #[error("cannot write {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// Writes the games of a split into a folder (see the module documentation).
pub struct Splitter {
    dir: PathBuf,
    by: SplitBy,
    files: Vec<Written>,
    /// The file of each value.
    of_value: HashMap<Option<String>, usize>,
    namer: Namer,
    /// Files open: (file, writer), the most recently written last.
    open: Vec<(usize, BufWriter<File>)>,
    /// Files created (the others are created at their first game, replacing what was
    /// there).
    created: Vec<bool>,
    /// Games written, for [`SplitBy::Games`].
    games: u64,
    inputs: Vec<PathBuf>,
    /// Games that could not be written (skipped by the reader without their text).
    pub lost: u64,
}

impl Splitter {
    /// A split into `dir` (made when missing), refused when `dir` holds anything and
    /// `force` is not set (with it, a file of the same name as one written is replaced;
    /// the others stay). No file written may be one of `inputs`.
    pub fn new(
        dir: &Path,
        by: SplitBy,
        force: bool,
        inputs: &[Input],
    ) -> Result<Splitter, SplitError> {
        let io = |source| SplitError::Io {
            path: dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        if !force && std::fs::read_dir(dir).map_err(io)?.next().is_some() {
            return Err(SplitError::NotEmpty(dir.to_path_buf()));
        }
        let inputs = inputs
            .iter()
            .filter_map(|i| match i {
                Input::File(p) => p.canonicalize().ok(),
                Input::Stdin => None,
            })
            .collect();
        Ok(Splitter {
            dir: dir.to_path_buf(),
            by,
            files: Vec::new(),
            of_value: HashMap::new(),
            namer: Namer::default(),
            open: Vec::new(),
            created: Vec::new(),
            games: 0,
            inputs,
            lost: 0,
        })
    }

    /// Writes a game to the file of its value.
    pub fn write(&mut self, piece: Piece) -> Result<(), SplitError> {
        let Some(text) = piece.text else {
            self.lost += 1;
            return Ok(());
        };
        let file = self.file_for(piece.value);
        let first = self.files[file].games == 0;
        let writer = self.writer(file)?;
        let text = text.trim_end();
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let result = (|| {
            if !first {
                writer.write_all(eol.as_bytes())?;
            }
            writer.write_all(text.as_bytes())?;
            writer.write_all(eol.as_bytes())
        })();
        let path = &self.files[file].path;
        result.map_err(|source| SplitError::Io {
            path: path.clone(),
            source,
        })?;
        self.files[file].games += 1;
        self.games += 1;
        Ok(())
    }

    /// The file a game of `value` goes to (made when it is the first).
    fn file_for(&mut self, value: Option<String>) -> usize {
        let key = match self.by {
            SplitBy::Games(n) => Some((self.games / n + 1).to_string()),
            _ => value,
        };
        if let Some(&file) = self.of_value.get(&key) {
            return file;
        }
        let name = match (&key, self.by) {
            (Some(part), SplitBy::Games(_)) => self.namer.name(&format!("part-{:0>4}", part)),
            (Some(value), _) => self.namer.name(&safe_name(value)),
            (None, by) => self.namer.name(&format!("no-{}", by.name())),
        };
        self.files.push(Written {
            path: self.dir.join(name),
            value: key.clone(),
            games: 0,
        });
        self.created.push(false);
        self.of_value.insert(key, self.files.len() - 1);
        self.files.len() - 1
    }

    /// The open writer of `file`: created at its first game, else opened again to add to
    /// when it was closed; the file written least recently is closed when too many are
    /// open.
    fn writer(&mut self, file: usize) -> Result<&mut BufWriter<File>, SplitError> {
        if let Some(at) = self.open.iter().position(|(f, _)| *f == file) {
            let entry = self.open.remove(at);
            self.open.push(entry);
        } else {
            if self.open.len() >= OPEN_FILES {
                let (old, mut w) = self.open.remove(0);
                w.flush().map_err(|source| SplitError::Io {
                    path: self.files[old].path.clone(),
                    source,
                })?;
            }
            let path = &self.files[file].path;
            let io = |source| SplitError::Io {
                path: path.clone(),
                source,
            };
            let opened = if self.created[file] {
                File::options().append(true).open(path)
            } else {
                if let Ok(canon) = path.canonicalize() {
                    if self.inputs.contains(&canon) {
                        return Err(SplitError::Input(path.clone()));
                    }
                }
                File::create(path)
            };
            let f = opened.map_err(io)?;
            self.created[file] = true;
            self.open.push((file, BufWriter::new(f)));
        }
        Ok(&mut self.open.last_mut().expect("just opened").1)
    }

    /// Flushes every file; the files written, in the order they were made.
    pub fn finish(mut self) -> Result<Vec<Written>, SplitError> {
        for (file, mut w) in self.open.drain(..) {
            w.flush().map_err(|source| SplitError::Io {
                path: self.files[file].path.clone(),
                source,
            })?;
        }
        Ok(self.files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_on_any_file_system() {
        for (value, name) in [
            ("Moscow", "Moscow"),
            ("a/b\\c:d*e?f\"g<h>i|j", "a_b_c_d_e_f_g_h_i_j"),
            ("tab\there\u{7}", "tab here_"),
            ("..hidden", "__hidden"),
            ("trailing. . ", "trailing___"),
            ("con", "con_"),
            ("NUL.txt", "NUL_.txt"),
            ("com1", "com1_"),
            ("COM", "COM"),
            ("Lpt9.pdn", "Lpt9_.pdn"),
            ("Чемпионат России", "Чемпионат России"),
            ("", "_"),
            ("   ", "_"),
            ("?", "_"),
        ] {
            assert_eq!(safe_name(value), name, "{value:?}");
        }
        let long = "я".repeat(200);
        let name = safe_name(&long);
        assert!(name.len() <= MAX_NAME_BYTES && name.chars().all(|c| c == 'я'));
    }

    #[test]
    fn names_are_unique_whatever_the_case() {
        let mut namer = Namer::default();
        assert_eq!(namer.name("Event"), "Event.pdn");
        assert_eq!(namer.name("EVENT"), "EVENT-2.pdn");
        assert_eq!(namer.name("event"), "event-3.pdn");
        assert_eq!(namer.name("Event-2"), "Event-2-2.pdn");
        assert_eq!(namer.name("Иванов"), "Иванов.pdn");
        assert_eq!(namer.name("ИВАНОВ"), "ИВАНОВ-2.pdn");
    }

    #[test]
    fn what_a_split_is_by() {
        assert_eq!("Event".parse(), Ok(SplitBy::Event));
        assert_eq!("100".parse(), Ok(SplitBy::Games(100)));
        assert!("0".parse::<SplitBy>().is_err());
        assert!("site".parse::<SplitBy>().is_err());
    }

    #[test]
    fn many_values_are_written_through_few_open_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let mut s = Splitter::new(&out, SplitBy::Event, false, &[]).unwrap();
        for round in 0..3 {
            for v in 0..(OPEN_FILES * 2) {
                let text = format!("[Event \"e{v}\"]\n{round}. c3-d4 *\n\n");
                s.write(Piece {
                    value: Some(format!("e{v}")),
                    text: Some(text),
                })
                .unwrap();
            }
        }
        let files = s.finish().unwrap();
        assert_eq!(files.len(), OPEN_FILES * 2);
        let text = std::fs::read_to_string(out.join("e7.pdn")).unwrap();
        assert_eq!(
            text,
            "[Event \"e7\"]\n0. c3-d4 *\n\n[Event \"e7\"]\n1. c3-d4 *\n\n[Event \"e7\"]\n2. c3-d4 *\n"
        );
        // a folder that is not empty is refused without force
        assert!(matches!(
            Splitter::new(&out, SplitBy::Event, false, &[]),
            Err(SplitError::NotEmpty(_))
        ));
        assert!(Splitter::new(&out, SplitBy::Event, true, &[]).is_ok());
    }
}
