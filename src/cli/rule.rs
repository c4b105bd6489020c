//! `pdnkit rule`: explain diagnostics.

use super::Cli;
use pdnkit::diag::codes;
use std::io::Write;
use std::process::ExitCode;

/// Explain a diagnostic: its code, name, severity, what it means and an example.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "Examples:
  pdnkit rule M101
  pdnkit rule illegal-move --json
  pdnkit rule --all

Exit status: 0, or 2 when no rule has the code or name (the nearest are named).")]
pub struct RuleArgs {
    /// A code (`M101`) or name (`illegal-move`).
    #[arg(required_unless_present = "all")]
    pub name: Option<String>,

    /// Every diagnostic: one line each (code, name, severity, summary), or with --json
    /// everything about each.
    #[arg(long, conflicts_with = "name")]
    pub all: bool,

    /// JSON instead: one object (with --all, one per line) with the code, name,
    /// severity, summary, explanation and example.
    #[arg(long)]
    pub json: bool,
}

/// A rule as JSON (`schemas/rule.schema.json`): its schema, then the rule's fields.
#[derive(serde::Serialize)]
struct Json<'a> {
    schema: &'static str,
    #[serde(flatten)]
    rule: &'a codes::Rule,
}

impl<'a> From<&'a codes::Rule> for Json<'a> {
    fn from(rule: &'a codes::Rule) -> Self {
        Json {
            schema: "pdnkit-rule/1",
            rule,
        }
    }
}

pub fn run(args: &RuleArgs, _cli: &Cli) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.all {
        for r in codes::ALL {
            if args.json {
                serde_json::to_writer(&mut out, &Json::from(*r))?;
                writeln!(out)?;
            } else {
                writeln!(
                    out,
                    "{:<5} {:<30} {:<8} {}",
                    r.code, r.name, r.severity, r.summary
                )?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let key = args.name.as_deref().unwrap_or_default();
    let Some(r) = codes::find(key) else {
        let hint = codes::nearest_hint(key);
        eprintln!("error: no rule has the code or name `{key}`{hint}");
        return Ok(ExitCode::from(2));
    };
    if args.json {
        serde_json::to_writer_pretty(&mut out, &Json::from(r))?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{} {} ({})", r.code, r.name, r.severity)?;
    writeln!(out)?;
    writeln!(out, "{}", r.summary)?;
    if !r.explanation.is_empty() {
        writeln!(out)?;
        writeln!(out, "{}", r.explanation)?;
    }
    if !r.example.is_empty() {
        writeln!(out)?;
        writeln!(out, "Example:")?;
        for line in r.example.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
