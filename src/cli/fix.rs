//! `pdnkit fix`: applies the fixes `lint` proposes, in place (atomically), to another
//! file, or as a diff.

use super::output::Output;
use super::{Cli, common};
use anyhow::Context;
use pdnkit::check::CheckOptions;
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::fix::Applicability;
use pdnkit::diag::{Rule, Severity};
use pdnkit::fix::{Fixing, MAX_PASSES, Patcher, edits};
use pdnkit::run::{self, Event, Input, RunOptions};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Fix what can be fixed: the safe fixes, and with --unsafe-fixes the repairs of moves.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Safe fixes cannot change what was played: a move number (M104), a capture
separator (M105), a missing Result tag or terminator from the other (T101, P109), a date
written in PDN's form (T106), with --captures each capture written short or in full
(M108), and with --fill-roster `?` for the other roster tags missing. Unsafe fixes may
change what the record says: an illegal move (M101, or a square off the board, M106)
replaced by the one legal move that lets the rest of the main line replay, when exactly
one does; an ambiguous capture (M103) written with the squares that the rest of the game
needs; a date whose day and month could be either way round, read day first (T106). `pdnkit lint` shows each fix as `help:` (or as `fix` in JSON).

Every byte no fix touches stays as it was (comments, spacing, line ends, the encoding); a
file with nothing to fix is not written. What a fix lets be checked (the moves after a
repaired one) is checked again and fixed in turn, so that fixing is idempotent. An input whose bytes were not all valid in its encoding (E101) is not
fixed.

Examples:
  pdnkit fix archive/                   # the safe fixes, in place
  pdnkit fix games.pdn --unsafe-fixes --diff
  pdnkit fix old.pdn --unsafe-fixes -o mended.pdn
  cat games.pdn | pdnkit fix - > fixed.pdn

Exit status: 0 when no finding of error or warning severity is left unfixed, 1 when some
is (`pdnkit lint` lists them), 2 on a usage or I/O error."
)]
pub struct FixArgs {
    /// Also apply the unsafe fixes: those that change a move.
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Also write `?` for each roster tag missing (Event, Site, Date, Round, White,
    /// Black; `*` for a Result the movetext does not give), so that the roster is whole.
    #[arg(long)]
    pub fill_roster: bool,

    /// Also write each capture in this style (`M108`): `full` with every landing square,
    /// `short` with the fewest that name it.
    #[arg(long, value_enum, value_name = "STYLE")]
    pub captures: Option<pdnkit::rules::notation::CaptureStyle>,

    /// Print a unified diff of what would change, and write nothing.
    #[arg(long)]
    pub diff: bool,

    /// Write the fixed file here instead of in place (one input only; atomically, as
    /// convert -o). Refuses to overwrite an input.
    #[arg(short = 'o', long, value_name = "OUT", conflicts_with = "diff")]
    pub output: Option<PathBuf>,

    /// Fix (and count as left) only these diagnostics: codes, names or code prefixes, as
    /// lint --select takes them.
    #[arg(long, value_delimiter = ',', value_parser = codes::check_selector)]
    pub select: Vec<String>,

    /// Neither fix nor count these diagnostics (same forms as --select).
    #[arg(long, value_delimiter = ',', value_parser = codes::check_selector)]
    pub ignore: Vec<String>,

    #[command(flatten)]
    pub input: common::InputArgs,
}

/// What fixing the inputs came to.
#[derive(Default)]
struct Totals {
    files: usize,
    files_fixed: usize,
    safe: usize,
    unsafe_: usize,
    /// Findings of error or warning severity left.
    left: usize,
    /// Unsafe fixes not applied (no --unsafe-fixes).
    unsafe_left: usize,
    failures: usize,
}

pub fn run(args: &FixArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let config = args.input.read.config()?;
    let (select, ignore) = (&args.select, &args.ignore);
    let selected = |rule: &Rule| {
        (select.is_empty() || select.iter().any(|s| codes::selector_matches(s, rule)))
            && !ignore.iter().any(|s| codes::selector_matches(s, rule))
    };
    let check = CheckOptions {
        omit_snippets_and_boards: true,
        // (E101 is always looked for: an input with replaced bytes is not fixed)
        report: RuleSet::matching(|r| selected(r) || r == &codes::DECODING_REPLACED),
        fill_roster: args.fill_roster,
        captures: args.captures,
        ..args.input.read.check_options(&config)?
    };
    let mut inputs = common::Inputs::of(&args.input, &config, check)?;
    anyhow::ensure!(
        args.output.is_none() || inputs.inputs.len() == 1,
        "-o writes one file: give one input"
    );
    let mut totals = Totals {
        failures: inputs.errors.len(),
        ..Totals::default()
    };
    for e in &inputs.errors {
        common::io_error(&e.path, &e.message);
    }
    let originals: Vec<Input> = inputs.inputs.clone();
    // (standard input is read once: it is kept in a temporary file for the passes)
    let _spooled = common::spool_once_readable(&mut inputs)?;
    let fixing = Fixing {
        unsafe_fixes: args.unsafe_fixes,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for ((input, original), label) in inputs.inputs.iter().zip(&originals).zip(&inputs.labels) {
        totals.files += 1;
        match fix_input(input, label, &inputs.options, &fixing, &mut totals) {
            Ok(Some(fixed)) => {
                let written = deliver(args, original, label, input, &fixed, &mut out);
                if let Err(e) = written {
                    common::io_error(label, &format!("{e:#}"));
                    totals.failures += 1;
                }
            }
            Ok(None) => totals.failures += 1,
            Err(e) => {
                common::io_error(label, &e.to_string());
                totals.failures += 1;
            }
        }
    }
    out.flush()?;
    if !args.input.quiet {
        let mut line = format!(
            "pdnkit: {} fix{} applied ({} safe, {} unsafe) in {} of {} file{}{}; {} finding{} left",
            totals.safe + totals.unsafe_,
            if totals.safe + totals.unsafe_ == 1 {
                ""
            } else {
                "es"
            },
            totals.safe,
            totals.unsafe_,
            totals.files_fixed,
            totals.files,
            common::plural(totals.files),
            if args.diff {
                " (shown, not written)"
            } else {
                ""
            },
            totals.left,
            common::plural(totals.left),
        );
        if totals.unsafe_left > 0 {
            line += &format!(
                ", {} with an unsafe fix (--unsafe-fixes applies it)",
                totals.unsafe_left
            );
        }
        eprintln!("{line}; {:.2}s", inputs.elapsed());
    }
    Ok(match (totals.failures, totals.left) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(1),
        _ => ExitCode::from(2),
    })
}

/// Fixes one input, pass after pass, each into a temporary file written as the games are
/// checked: the last one, or `None` when the input could not be read (said).
fn fix_input(
    input: &Input,
    label: &str,
    options: &RunOptions,
    fixing: &Fixing,
    totals: &mut Totals,
) -> io::Result<Option<Fixed>> {
    let mut current: Option<common::TempFile> = None;
    let mut encoding = encoding_rs::UTF_8;
    for pass in 0..MAX_PASSES {
        let source = match &current {
            Some(temp) => Input::File(temp.0.clone()),
            None => input.clone(),
        };
        let mut patch: Option<(common::TempFile, Patch)> = None;
        let (mut unread, mut replaced) = (false, false);
        let (mut left, mut unsafe_left, mut safe, mut unsafe_) = (0, 0, 0, 0);
        run::run(std::slice::from_ref(&source), options, fixing, |event| {
            match event {
                Event::Game(g) if !replaced => {
                    replaced = g.replaced;
                    left += g.unfixed;
                    unsafe_left += g.unsafe_unfixed;
                    let (edits, taken) = edits(&g.fixes);
                    // (a fix left out for overlapping another is tried on the next pass)
                    for (fix, _) in g.fixes.iter().zip(&taken).filter(|(_, t)| **t) {
                        match fix.applicability {
                            Applicability::Safe => safe += 1,
                            Applicability::Unsafe => unsafe_ += 1,
                        }
                    }
                    if edits.is_empty() || replaced {
                        return Ok(());
                    }
                    if patch.is_none() {
                        if pass == 0 {
                            encoding = encoding_of(&source, options)?;
                        }
                        let (temp, file) = common::temp_file("pdnkit-fix")?;
                        let reader = BufReader::new(open(&source)?);
                        patch = Some((temp, Patcher::new(reader, BufWriter::new(file), encoding)));
                    }
                    let (_, patcher) = patch.as_mut().expect("opened");
                    edits.iter().try_for_each(|e| patcher.edit(e))?;
                }
                // (said once: on the first pass)
                Event::Problem(d) if d.severity == Severity::Error && pass == 0 => {
                    let d = pdnkit::diag::Diagnostic {
                        path: label.to_string(),
                        ..d
                    };
                    unread |= common::say_problem(&d, &indicatif::ProgressBar::hidden());
                }
                Event::End(read) => unread |= read.failed,
                _ => {}
            }
            Ok(())
        })?;
        if unread {
            return Ok(None);
        }
        if replaced {
            eprintln!(
                "pdnkit: {label}: not fixed: some of its bytes are not valid in its encoding and were replaced in reading (E101); `pdnkit lint` shows where"
            );
            totals.left += left;
            return Ok(Some(Fixed {
                temp: None,
                encoding,
            }));
        }
        let Some((temp, patcher)) = patch else {
            // nothing more to fix: what is left is left
            totals.left += left;
            totals.unsafe_left += unsafe_left;
            break;
        };
        patcher.finish()?;
        (totals.safe, totals.unsafe_) = (totals.safe + safe, totals.unsafe_ + unsafe_);
        if current.is_none() {
            totals.files_fixed += 1;
        }
        current = Some(temp);
        if pass + 1 == MAX_PASSES {
            totals.left += left;
        }
    }
    Ok(Some(Fixed {
        temp: current,
        encoding,
    }))
}

/// The writer of one pass: the input read again, the fixed text to a temporary file.
type Patch = Patcher<BufReader<File>, BufWriter<File>>;

/// The encoding `input` is read in (as the checker reads it).
fn encoding_of(input: &Input, options: &RunOptions) -> io::Result<&'static encoding_rs::Encoding> {
    let check = &options.check;
    let decoder = pdnkit::pdn::Decoder::with_options(open(input)?, check.encoding, check.text)?;
    Ok(decoder.encoding())
}

/// An input fixed: the fixed text in a temporary file (none when nothing was fixed), and
/// the input's encoding.
struct Fixed {
    temp: Option<common::TempFile>,
    encoding: &'static encoding_rs::Encoding,
}

/// Opens a file input again (standard input was spooled to a file).
fn open(input: &Input) -> io::Result<File> {
    match input {
        Input::File(path) => File::open(path),
        Input::Stdin => Err(io::Error::other("standard input cannot be read twice")),
    }
}

/// Puts the fixed text of `original` (read as `input`) where it goes: a diff on stdout,
/// the -o file, standard output for standard input, or the file itself.
fn deliver(
    args: &FixArgs,
    original: &Input,
    label: &str,
    input: &Input,
    fixed: &Fixed,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let fixed_path = fixed.temp.as_ref().map(|t| &t.0);
    if args.diff {
        if let Some(new) = fixed_path {
            let old = std::fs::read(match input {
                Input::File(p) => p,
                Input::Stdin => unreachable!("standard input is spooled"),
            })?;
            let new = std::fs::read(new)?;
            write_diff(out, label, &old, &new, fixed.encoding)?;
        }
        return Ok(());
    }
    // what to copy: the fixed text, or the input as it is
    let from = match (fixed_path, input) {
        (Some(p), _) | (None, Input::File(p)) => p.clone(),
        (None, Input::Stdin) => unreachable!("standard input is spooled"),
    };
    let mut output = match (&args.output, original) {
        (Some(out), _) => Output::file(out, std::slice::from_ref(original))?,
        (None, Input::Stdin) => {
            io::copy(&mut File::open(&from)?, out)?;
            return Ok(());
        }
        // nothing to fix: the file is left as it is
        (None, Input::File(_)) if fixed_path.is_none() => return Ok(()),
        (None, Input::File(path)) => Output::replacing(path)?,
    };
    io::copy(&mut File::open(&from)?, &mut output.writer)
        .with_context(|| format!("cannot write {label}"))?;
    output.commit()
}

/// A unified diff of `old` and `new` (decoded from `encoding`), three lines of context,
/// with the input's name.
fn write_diff(
    out: &mut impl Write,
    label: &str,
    old: &[u8],
    new: &[u8],
    encoding: &'static encoding_rs::Encoding,
) -> io::Result<()> {
    let (old, new) = (encoding.decode(old).0, encoding.decode(new).0);
    let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
    write!(
        out,
        "{}",
        diff.unified_diff()
            .context_radius(3)
            .header(&format!("a/{label}"), &format!("b/{label}"))
    )
}
