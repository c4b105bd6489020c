//! `pdnkit completions SHELL` and `pdnkit man`: what users of command-line tools expect to
//! install beside the binary, made from the same clap definitions as `--help`.

use super::Cli;
use anyhow::Context;
use clap::CommandFactory;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Print a completion script for a shell to standard output.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "Examples:
  pdnkit completions bash > ~/.local/share/bash-completion/completions/pdnkit
  pdnkit completions zsh > ~/.zfunc/_pdnkit
  pdnkit completions fish > ~/.config/fish/completions/pdnkit.fish")]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Print the manual page of pdnkit (roff, for `man -l -`), or with --dir write one page
/// for pdnkit and one for each command (`pdnkit-lint.1`, …) into a folder.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "Examples:
  pdnkit man | man -l -
  pdnkit man --dir /usr/local/share/man/man1")]
pub struct ManArgs {
    /// Write `pdnkit.1` and `pdnkit-COMMAND.1` into this folder instead.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn completions(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "pdnkit", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

pub fn man(args: &ManArgs) -> anyhow::Result<ExitCode> {
    let command = Cli::command();
    let Some(dir) = &args.dir else {
        let mut out = std::io::stdout().lock();
        clap_mangen::Man::new(command).render(&mut out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    };
    clap_mangen::generate_to(command, dir)
        .with_context(|| format!("{}: cannot write the manual pages", dir.display()))?;
    Ok(ExitCode::SUCCESS)
}
