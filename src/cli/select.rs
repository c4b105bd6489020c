//! `pdnkit select`: the games that meet some criteria, verbatim or converted.

use super::output::Output;
use super::{Cli, common};
use anyhow::Context;
use pdnkit::check::CheckOptions;
use pdnkit::convert::pdn::PdnOptions;
use pdnkit::convert::{self, Converter, Writer};
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::{Diagnostic, Severity};
use pdnkit::duplicates::Copies;
use pdnkit::run::{Checked, Event, Task};
use pdnkit::select::{
    At, Criterion, DateRange, Exact, GameClass, MatchRecord, Material, Opening, Pattern, PlyRange,
    Query, ResultTag, Selected, Selector, TagTest,
};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SelectFormat {
    /// each game's text as it is in the input (decoded to UTF-8), games set apart by an
    /// empty line
    Original,
    /// canonical PDN, as `convert --format pdn` writes it
    Pdn,
    /// one row per game, as `convert --format csv` writes it
    Csv,
    /// one JSON object per game, as `convert --format jsonl` writes it
    Jsonl,
    /// one JSON object per game selected: where it is (path, game, line, offset) and the
    /// ply at which the board criteria are met (schemas/select-match.schema.json)
    Matches,
}

/// `--at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AtArg {
    /// at any ply of the main line, the start included
    Any,
    /// at the end of a main line that replays to its end
    End,
}

/// Select the games that meet every criterion given, and write them out.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Every criterion given must be met. Lists (--result, --status, --code: comma
separated or repeated) are met by any of their values; every other option, repeated, must
be met each time (--tag 'Round >= 3' --tag 'Round <= 5').

Tag tests (--tag 'NAME OP VALUE'): OP is = != ~ (a regular expression, found anywhere in
the value; `(?i)` for any case) < <= > >=. A Date (or any tag whose name ends in Date)
compares as dates: a partial date stands for every day it may be and a test holds when it
holds for all of them (`Date = 1965` holds for 1965.03.12, `Date < 1965.06` does not hold
for 1965.??.??). Two numbers compare as numbers (`Round = 3` holds for 03); anything else
as text. A game without the tag fails every test; `NAME` alone needs the tag, `!NAME` its
absence. --white, --black, --player (either colour) and --event hold when the tag
contains the text, in any case.

--status: clean (replayed to its end, no finding of error severity), flawed (replayed to
its end, but with an error: the result, a draw rule, a variation, a syntax error),
illegal (the main line stops at an illegal or unreadable move, or an invalid FEN),
ambiguous (it stops at a capture written short that the rest of the line does not
decide), incomplete (it stops at a placeholder move), unparsed (syntax errors, or a
variant pdnkit does not replay). --code: games with a finding of that rule (a code,
name or code prefix, as lint --select takes), whatever its severity.

--opening: the main line starts from the start position with these moves, written in any
notation pdnkit reads (compared as moves: `22-18` is `c3-d4`). --position FEN: the main
line reaches exactly this position (every piece, and the side to move). --pattern: a FEN
of some squares: those listed hold those pieces, those of an `E` list are empty, the
others hold anything; the side to move may be `?` or left out (`Wc3,Kh8:Bd6:Ee5,f4`).
--material: White's pieces, `v`, Black's: kings K and men M with their counts (`3K v K`,
`K2M v 2K`, `0` for none). Position, pattern and material are looked for at every ply of
the main line (before and after each ply played), or with --at end only in its final
position. Openings, positions and patterns are read on each game's board, in its
variant's numbering: `--opening 32-28` finds International games.

Examples:
  pdnkit select archive/ --player Тимковский --result 2-0 > timkovsky-wins.pdn
  pdnkit select archive/ --tag 'Date < 1970' --event чемпионат --count
  pdnkit select archive/ --opening '1. c3-d4 f6-g5 2. b2-c3' --format csv -o games.csv
  pdnkit select archive/ --material '3K v K' --at end --format matches
  pdnkit select archive/ --pattern 'W:WKa1:Ec3,d4' --status clean
  pdnkit select archive/ --status illegal,ambiguous --code M101
  pdnkit select old/ new/ --white Ivanov --unique     # each game once

Exit status: 0 when some game was selected, 1 when none was, 2 on a usage or I/O error
(then an -o file is not written)."
)]
pub struct SelectArgs {
    /// A tag test: 'NAME OP VALUE' (OP: = != ~ < <= > >=), 'NAME' (present) or '!NAME'
    /// (absent); repeatable, each must hold.
    #[arg(long, value_name = "TEST", value_parser = parse::<TagTest>)]
    pub tag: Vec<TagTest>,

    /// White's name contains NAME (any case).
    #[arg(long, value_name = "NAME")]
    pub white: Vec<String>,

    /// Black's name contains NAME (any case).
    #[arg(long, value_name = "NAME")]
    pub black: Vec<String>,

    /// White's or Black's name contains NAME (any case).
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,

    /// The Event contains TEXT (any case).
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,

    /// The Result tag is one of these, in either scale (2-0 is 1-0, 1-1 is 1/2-1/2).
    #[arg(long, value_name = "RESULT", value_delimiter = ',', value_parser = parse::<ResultTag>)]
    pub result: Vec<ResultTag>,

    /// The Date lies within FROM..TO, both included (1960..1969, 1965.03.., ..1970, 1965).
    #[arg(long, value_name = "FROM..TO", value_parser = parse::<DateRange>)]
    pub date: Vec<DateRange>,

    /// The main line has this many plies written, both ends included (40.., ..20,
    /// 30..60, 40).
    #[arg(long, value_name = "RANGE", value_parser = parse::<PlyRange>)]
    pub plies: Vec<PlyRange>,

    /// The game is one of these: clean, flawed, illegal, ambiguous, incomplete, unparsed.
    #[arg(long, value_name = "STATUS", value_delimiter = ',', value_parser = parse::<GameClass>)]
    pub status: Vec<GameClass>,

    /// The game has a finding of one of these rules: codes (M101), names (illegal-move)
    /// or code prefixes (M, D1).
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = codes::check_selector)]
    pub code: Vec<String>,

    /// The main line starts with these moves, from the start position.
    #[arg(long, value_name = "MOVES", value_parser = parse::<Opening>)]
    pub opening: Vec<Opening>,

    /// The main line reaches exactly this position (FEN: pieces and side to move).
    #[arg(long, value_name = "FEN", value_parser = parse::<Exact>)]
    pub position: Vec<Exact>,

    /// The main line reaches a position with these pieces on these squares (and these
    /// squares empty: an `E` list), read on each game's board and in its numbering.
    #[arg(long, value_name = "FEN", value_parser = parse::<Pattern>)]
    pub pattern: Vec<Pattern>,

    /// The main line reaches this material, White first: '3K v K', 'K2M v 2K'.
    #[arg(long, value_name = "MATERIAL", value_parser = parse::<Material>)]
    pub material: Vec<Material>,

    /// Where --position, --pattern and --material look.
    #[arg(long, value_enum, default_value_t = AtArg::Any)]
    pub at: AtArg,

    /// Output format (`--to` is the same option).
    #[arg(
        long = "format",
        visible_alias = "to",
        value_name = "FORMAT",
        value_enum,
        default_value_t = SelectFormat::Original
    )]
    pub format: SelectFormat,

    /// Leave out the copies of other games of the inputs (see `pdnkit duplicates`): of
    /// each group of copies only the one kept is looked at, so the selection is made
    /// from the collection without its copies. The inputs are read once more first.
    #[arg(long)]
    pub unique: bool,

    /// Print the number of games selected, nothing else.
    #[arg(short = 'c', long, conflicts_with = "format")]
    pub count: bool,

    /// Write to this file instead of standard output (atomically, as convert -o).
    /// Refuses to overwrite an input.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub input: common::InputArgs,
}

/// A criterion's value read with its `FromStr`; the reason it is not one.
fn parse<T: std::str::FromStr<Err = pdnkit::select::ParseCriterionError>>(
    text: &str,
) -> Result<T, String> {
    text.parse::<T>().map_err(|e| e.reason)
}

impl SelectArgs {
    /// The query the criteria make.
    fn query(&self) -> Query {
        let mut criteria: Vec<Criterion> = self.tag.iter().cloned().map(Criterion::Tag).collect();
        let contains = |name: &str, texts: &[String]| -> Vec<Criterion> {
            (texts.iter())
                .map(|t| Criterion::Tag(TagTest::contains(name, t)))
                .collect()
        };
        criteria.extend(contains("White", &self.white));
        criteria.extend(contains("Black", &self.black));
        criteria.extend(contains("Event", &self.event));
        criteria.extend(self.player.iter().map(|p| {
            Criterion::AnyTag(vec![
                TagTest::contains("White", p),
                TagTest::contains("Black", p),
            ])
        }));
        if !self.result.is_empty() {
            criteria.push(Criterion::Result(self.result.iter().map(|r| r.0).collect()));
        }
        criteria.extend(self.date.iter().copied().map(Criterion::Date));
        criteria.extend(self.plies.iter().copied().map(Criterion::Plies));
        if !self.status.is_empty() {
            criteria.push(Criterion::Status(self.status.clone()));
        }
        if !self.code.is_empty() {
            criteria.push(Criterion::Code(self.code.clone()));
        }
        criteria.extend(self.opening.iter().cloned().map(Criterion::Opening));
        criteria.extend(self.position.iter().cloned().map(Criterion::Position));
        criteria.extend(self.pattern.iter().cloned().map(Criterion::Pattern));
        criteria.extend(self.material.iter().copied().map(Criterion::Material));
        let at = match self.at {
            AtArg::Any => At::Any,
            AtArg::End => At::End,
        };
        Query::new(criteria, at)
    }
}

/// The inner task of `--format original`: the game's text, and its `decoding-replaced`
/// diagnostics (its text is not the input's bytes there).
struct Original;

struct OriginalGame {
    text: String,
    replaced: Vec<Diagnostic>,
}

impl Task for Original {
    type Output = OriginalGame;

    fn keep(&self) -> pdnkit::check::checker::Keep {
        pdnkit::select::Verbatim.keep()
    }

    fn game(&self, game: Checked<'_>) -> OriginalGame {
        let replaced = (game.diagnostics.iter())
            .filter(|d| d.rule == &codes::DECODING_REPLACED)
            .cloned()
            .collect();
        OriginalGame {
            text: game.source.text.to_string(),
            replaced,
        }
    }

    fn weight(&self, output: &OriginalGame) -> usize {
        output.text.len()
    }
}

/// What a run found.
#[derive(Default)]
struct Counts {
    files: usize,
    games: u64,
    selected: u64,
    io_failures: usize,
}

pub fn run(args: &SelectArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let config = args.input.read.config()?;
    let query = args.query();
    let converted = match args.format {
        SelectFormat::Pdn => Some(convert::Format::Pdn(PdnOptions::default())),
        SelectFormat::Csv => Some(convert::Format::CsvGames(Vec::new())),
        SelectFormat::Jsonl => Some(convert::Format::Jsonl),
        SelectFormat::Original | SelectFormat::Matches => None,
    };
    let mut check = CheckOptions {
        // (no output of select shows a diagnostic's source line or board)
        omit_snippets_and_boards: true,
        ..args.input.read.check_options(&config)?
    };
    // Findings are made only when a criterion or the output needs them (convert's
    // formats hold the status and the diagnostics): the positions and the tags are the
    // same without them. Replaced bytes are said of every game put out.
    if !query.needs_findings() && (converted.is_none() || args.count) {
        check.report = RuleSet::EMPTY.with(codes::DECODING_REPLACED.code);
    }
    let mut inputs = common::Inputs::of(&args.input, &config, check)?;
    let mut counts = Counts {
        io_failures: inputs.errors.len(),
        ..Counts::default()
    };
    for e in &inputs.errors {
        common::io_error(&e.path, &e.message);
    }
    let (copies, _spooled) = match args.unique {
        true => common::copies(&mut inputs)?,
        false => Default::default(),
    };
    let run = Run {
        inputs: &inputs,
        copies: &copies,
    };
    let mut output = match &args.output {
        Some(out) => Output::file(out, &inputs.inputs)?,
        None => Output::stdout(),
    };
    let writing = || match &args.output {
        Some(out) => format!("cannot write {}", out.display()),
        None => "cannot write to standard output".to_string(),
    };

    if args.count {
        run.drive(&Selector::new(&query, ()), &mut counts, |_, _, _| Ok(()))?;
        writeln!(output.writer, "{}", counts.selected).with_context(writing)?;
    } else if let Some(format) = converted {
        let converter = Converter::new(format, convert::CANONICAL);
        let selector = Selector::new(&query, converter);
        let mut writer = Writer::new(selector.inner(), &mut output.writer).with_context(writing)?;
        let mut current = String::new();
        run.drive(&selector, &mut counts, |label, selected, progress| {
            if current != label {
                current = label.to_string();
                writer.start_input(label);
            }
            say_replaced(&selected.output.replaced, progress);
            writer.game(selected.output)
        })
        .with_context(writing)?;
        writer.finish().with_context(writing)?;
    } else if args.format == SelectFormat::Matches {
        let out = &mut output.writer;
        run.drive(&Selector::new(&query, ()), &mut counts, |label, s, _| {
            serde_json::to_writer(&mut *out, &MatchRecord::new(label, &s))?;
            out.write_all(b"\n")
        })
        .with_context(writing)?;
    } else {
        let out = &mut output.writer;
        let mut first = true;
        run.drive(
            &Selector::new(&query, Original),
            &mut counts,
            |_, s, progress| {
                say_replaced(&s.output.replaced, progress);
                // (games apart by an empty line, in the text's own line ends)
                let text = &s.output.text;
                let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
                if !std::mem::take(&mut first) {
                    out.write_all(eol.as_bytes())?;
                }
                out.write_all(text.as_bytes())?;
                if !text.ends_with('\n') {
                    out.write_all(eol.as_bytes())?;
                }
                Ok(())
            },
        )
        .with_context(writing)?;
    }

    if counts.io_failures == 0 {
        output.commit()?;
    } else {
        // a partial output file is not written; standard output got what could be read
        output.writer.flush().with_context(writing)?;
        drop(output);
    }
    if !args.input.quiet {
        eprintln!(
            "pdnkit: {} of {} game{} selected from {} file{}{}{}; {:.2}s",
            counts.selected,
            counts.games,
            common::plural(counts.games),
            counts.files,
            common::plural(counts.files),
            match args.unique {
                true => format!(
                    ", {} cop{} left out",
                    copies.len(),
                    if copies.len() == 1 { "y" } else { "ies" }
                ),
                false => String::new(),
            },
            match (&args.output, counts.io_failures) {
                (Some(o), 0) => format!(", written to {}", o.display()),
                (Some(o), _) => format!("; {} not written", o.display()),
                _ => String::new(),
            },
            inputs.elapsed()
        );
    }
    let none = counts.selected == 0;
    Ok(common::exit_code(counts.io_failures, none))
}

/// Says a problem on stderr: an I/O error as every command says one, others as lint's
/// concise format does.
/// Says on stderr the bytes replaced in decoding a game put out.
fn say_replaced(replaced: &[Diagnostic], progress: &indicatif::ProgressBar) {
    for d in replaced {
        common::say_problem(d, progress);
    }
}

/// The inputs of a run and, with `--unique`, the copies among them.
struct Run<'a> {
    inputs: &'a common::Inputs,
    copies: &'a Copies,
}

/// Runs `selector` over the inputs, giving `each` every game selected (but the copies
/// left out) with the label of its input, in input order; counts in `counts`. Problems
/// of error severity that are no game's (an input not read, a game too large to judge)
/// are said on stderr.
impl Run<'_> {
    fn drive<T: Task>(
        &self,
        selector: &Selector<'_, T>,
        counts: &mut Counts,
        mut each: impl FnMut(&str, Selected<T::Output>, &indicatif::ProgressBar) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut input = 0;
        self.inputs
            .run(selector, "selecting", |label, event, progress| {
                match event {
                    Event::Start => {
                        counts.files += 1;
                        input += 1;
                    }
                    Event::Game(game) => {
                        counts.games += 1;
                        let game = game.filter(|s| !self.copies.is_copy(input - 1, s.game));
                        if let Some(selected) = game {
                            counts.selected += 1;
                            each(label, selected, progress)?;
                        }
                    }
                    // (an input not read, or not PDN, fails the run as in convert)
                    Event::Problem(d) if d.severity == Severity::Error => {
                        counts.io_failures += usize::from(common::say_problem(&d, progress));
                    }
                    Event::Problem(_) => {}
                    Event::End(_) => {}
                }
                Ok(())
            })
    }
}
