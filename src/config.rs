//! The configuration file: `pdnkit.toml` or `.pdnkit.toml`, as ruff has `ruff.toml`.
//!
//! [`Config::find`] looks for it from a folder upward to the filesystem root (the first
//! found wins; in one folder `.pdnkit.toml` before `pdnkit.toml`), [`Config::load`] reads
//! and validates it. Every key is optional; a key the file does not know is an error, and
//! so is a selector that matches no rule, a glob that does not parse or an encoding label
//! that names none, each said with the file, line and column.
//!
//! ```toml
//! select = ["M", "R", "D"]          # as --select: codes, names or code prefixes
//! ignore = ["missing-tag"]          # as --ignore
//! severity = "warning"              # the least severity reported: error, warning or info
//! rules = "fmjd"                    # the draw-rule edition, as --rules
//! encoding = "windows-1251"         # as --encoding
//! exclude = ["old", "drafts/*.pdn"] # skipped when a folder is walked, as --exclude
//!
//! [per-file-ignores]                # diagnostics not reported for some files
//! "problems/*.pdn" = ["T", "D104"]
//! ```
//!
//! The paths of `exclude` and `per-file-ignores` are relative to the file's folder (its
//! [`root`](Config::root)); a glob also matches a file or folder by its name alone.
//! What the command line says overrides the file; applying that is the caller's.
//!
//! ```
//! use pdnkit::config::Config;
//! use pdnkit::diag::codes;
//! use std::path::Path;
//! let config = Config::parse(
//!     "select = [\"M\"]\n[per-file-ignores]\n\"studies/*\" = [\"illegal-move\"]\n",
//!     Path::new("/archive/pdnkit.toml"),
//! )
//! .unwrap();
//! assert_eq!(config.select.as_deref(), Some(&["M".to_string()][..]));
//! let kept = config.per_file_ignores.kept(Path::new("/archive/studies/a.pdn"));
//! assert!(!kept.contains(&codes::ILLEGAL_MOVE));
//! assert!(kept.contains(&codes::MISSING_TAG));
//!
//! let typo = Config::parse("selekt = [\"M\"]", Path::new("pdnkit.toml")).unwrap_err();
//! assert!(typo.to_string().starts_with("pdnkit.toml:1:1: unknown field `selekt`"));
//! ```

use crate::diag::Severity;
use crate::diag::codes::{self, RuleSet};
use crate::draw::Edition;
use crate::run::inputs::{self, relative_to};
use globset::GlobSet;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The names of the configuration file, in the order they are looked for in a folder.
pub const FILE_NAMES: [&str; 2] = [".pdnkit.toml", "pdnkit.toml"];

/// A configuration, as read from a file (or the default: no file, every key unset).
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file it was read from.
    pub path: Option<PathBuf>,
    /// Its folder, absolute.
    root: Option<PathBuf>,
    /// `select`: selectors of the diagnostics reported (codes, names or code prefixes,
    /// each matching some rule); `None` when the key is absent.
    pub select: Option<Vec<String>>,
    /// `ignore`: selectors of the diagnostics not reported.
    pub ignore: Option<Vec<String>>,
    /// `severity`: the least severity reported.
    pub severity: Option<Severity>,
    /// `rules`: the draw-rule edition.
    pub rules: Option<Edition>,
    /// `encoding`: the text encoding of the inputs, instead of detecting it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// `exclude`: globs of files and folders skipped when a folder is walked (each
    /// compiles, see [`inputs::glob`]).
    pub exclude: Vec<String>,
    /// `per-file-ignores`: the diagnostics not reported for the files some glob matches.
    pub per_file_ignores: PerFileIgnores,
}

/// What went wrong reading a configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{}: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The file is not TOML, has a key it should not, or a value that is wrong.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Invalid {
        path: PathBuf,
        /// Where (1-based; the start of the file when the parser gave no place).
        line: usize,
        column: usize,
        message: String,
    },
}

/// The file as written: what serde reads, before the values are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    select: Option<Spanned<Vec<Spanned<String>>>>,
    ignore: Option<Vec<Spanned<String>>>,
    severity: Option<Spanned<String>>,
    rules: Option<Edition>,
    encoding: Option<Spanned<String>>,
    exclude: Option<Vec<Spanned<String>>>,
    per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
}

impl Config {
    /// The configuration file that applies in `dir`: the first of [`FILE_NAMES`] found in
    /// `dir` or the nearest folder above it, up to the filesystem root.
    pub fn find(dir: &Path) -> Option<PathBuf> {
        dir.ancestors()
            .flat_map(|d| FILE_NAMES.iter().map(move |name| d.join(name)))
            .find(|p| p.is_file())
    }

    /// The configuration of the file [`find`](Self::find) finds from `dir`, if any.
    pub fn discover(dir: &Path) -> Result<Option<Config>, ConfigError> {
        Config::find(dir).map(|p| Config::load(&p)).transpose()
    }

    /// Reads and checks the file at `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Config::parse(&text, path)
    }

    /// Checks `text`, the contents of the file at `path` (named in errors; its folder is
    /// the root of the globs).
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let invalid = |span: Option<Range<usize>>, message: String| {
            let (line, column) = line_column(text, span.map_or(0, |s| s.start));
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                message,
            }
        };
        let raw: RawConfig =
            toml::from_str(text).map_err(|e| invalid(e.span(), e.message().to_string()))?;
        let selectors = |key: &str, list: Vec<Spanned<String>>| {
            list.into_iter()
                .map(|s| {
                    codes::check_selector(s.get_ref())
                        .map_err(|why| invalid(Some(s.span()), format!("{key}: {why}")))
                })
                .collect::<Result<Vec<_>, _>>()
        };

        let select = match raw.select {
            Some(list) if list.get_ref().is_empty() => {
                return Err(invalid(
                    Some(list.span()),
                    "select: an empty list selects no rule (leave the key out to select \
                     every rule)"
                        .to_string(),
                ));
            }
            Some(list) => Some(selectors("select", list.into_inner())?),
            None => None,
        };
        let ignore = raw.ignore.map(|l| selectors("ignore", l)).transpose()?;
        let severity = raw
            .severity
            .map(|s| {
                parse_severity(s.get_ref()).ok_or_else(|| {
                    let message = format!(
                        "severity: `{}` is none of error, warning, info",
                        s.get_ref()
                    );
                    invalid(Some(s.span()), message)
                })
            })
            .transpose()?;
        let encoding = raw
            .encoding
            .map(|s| {
                encoding_rs::Encoding::for_label(s.get_ref().trim().as_bytes()).ok_or_else(|| {
                    let message = format!(
                        "encoding: unknown label `{}` (try utf-8, windows-1251, ibm866, \
                         koi8-r, windows-1252, utf-16le)",
                        s.get_ref()
                    );
                    invalid(Some(s.span()), message)
                })
            })
            .transpose()?;
        let exclude = (raw.exclude.unwrap_or_default().into_iter())
            .map(|g| match inputs::glob(g.get_ref()) {
                Ok(_) => Ok(g.into_inner()),
                Err(e) => Err(invalid(Some(g.span()), format!("exclude: {e}"))),
            })
            .collect::<Result<Vec<_>, _>>()?;

        // (the file's folder: what its paths are relative to, wherever the command runs)
        let root = std::path::absolute(path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let mut per_file = PerFileIgnores {
            root: root.clone(),
            ..PerFileIgnores::default()
        };
        let mut globs = GlobSet::builder();
        for (pattern, list) in raw.per_file_ignores.unwrap_or_default() {
            let glob = inputs::glob(pattern.get_ref())
                .map_err(|e| invalid(Some(pattern.span()), format!("per-file-ignores: {e}")))?;
            let key = format!("per-file-ignores: `{}`", pattern.get_ref());
            globs.add(glob);
            per_file
                .patterns
                .push((pattern.into_inner(), selectors(&key, list)?));
        }
        per_file.globs = globs.build().map_err(|e| invalid(None, e.to_string()))?;

        Ok(Config {
            path: Some(path.to_path_buf()),
            root,
            select,
            ignore,
            severity,
            rules: raw.rules,
            encoding,
            exclude,
            per_file_ignores: per_file,
        })
    }

    /// The folder of the file (absolute), against which the paths of its globs are
    /// matched.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }
}

/// `per-file-ignores`: for each glob, the diagnostics not reported in the files it
/// matches. A file several globs match has the diagnostics of all of them ignored.
#[derive(Clone, Default)]
pub struct PerFileIgnores {
    /// The folder relative to which the globs' paths are read.
    root: Option<PathBuf>,
    globs: GlobSet,
    /// The table as written: the glob and its selectors.
    patterns: Vec<(String, Vec<String>)>,
}

impl PerFileIgnores {
    /// Whether there is no glob.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The globs and their selectors, as in the file.
    pub fn patterns(&self) -> &[(String, Vec<String>)] {
        &self.patterns
    }

    /// The rules still reported in `path` (every rule when no glob matches it). `path`
    /// is matched by its name, and by its path below the root (an absolute path, or one
    /// relative to the current folder; when it is not below the root, as it is given).
    pub fn kept(&self, path: &Path) -> RuleSet {
        if self.is_empty() {
            return RuleSet::ALL;
        }
        let below = self
            .root
            .as_deref()
            .and_then(|root| relative_to(path, root));
        let candidates = [
            path.file_name().map(Path::new),
            below.as_deref().or(Some(path)),
        ];
        let mut matched: Vec<usize> = (candidates.into_iter().flatten())
            .flat_map(|c| self.globs.matches(c))
            .collect();
        if matched.is_empty() {
            return RuleSet::ALL;
        }
        matched.sort_unstable();
        matched.dedup();
        let ignored = |rule: &codes::Rule| {
            (matched.iter()).any(|&i| {
                let selectors = &self.patterns[i].1;
                selectors.iter().any(|s| codes::selector_matches(s, rule))
            })
        };
        RuleSet::matching(|r| !ignored(r))
    }
}

impl fmt::Debug for PerFileIgnores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PerFileIgnores")
            .field("root", &self.root)
            .field("patterns", &self.patterns)
            .finish()
    }
}

/// `error`, `warning` or `info`, in any case.
fn parse_severity(text: &str) -> Option<Severity> {
    [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .find(|s| s.as_str().eq_ignore_ascii_case(text.trim()))
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("/p/pdnkit.toml"))
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn every_key() {
        let c = parse(
            "select = [\"M\", \"illegal-move\"]\nignore = [\"T1\"]\nseverity = \"Info\"\n\
             rules = \"fmjd\"\nencoding = \"cp1251\"\nexclude = [\"old\"]\n\
             [per-file-ignores]\n\"x/*.pdn\" = [\"D\"]\n",
        )
        .unwrap();
        assert_eq!(c.root(), Some(Path::new("/p")));
        assert_eq!(c.select.unwrap(), ["M", "illegal-move"]);
        assert_eq!(c.ignore.unwrap(), ["T1"]);
        assert_eq!(c.severity, Some(Severity::Info));
        assert_eq!(c.rules, Some(Edition::Fmjd));
        assert_eq!(c.encoding, Some(encoding_rs::WINDOWS_1251));
        assert_eq!(c.exclude, ["old"]);
        assert_eq!(c.per_file_ignores.patterns()[0].0, "x/*.pdn");
    }

    #[test]
    fn an_empty_file_sets_nothing() {
        let c = parse("").unwrap();
        assert!(c.select.is_none() && c.ignore.is_none() && c.severity.is_none());
        assert!(c.rules.is_none() && c.encoding.is_none() && c.exclude.is_empty());
        assert!(c.per_file_ignores.is_empty());
    }

    #[test]
    fn unknown_keys_are_errors_with_their_place() {
        let e = error("select = [\"M\"]\n\nselekt = [\"M\"]\n");
        assert!(
            e.starts_with("/p/pdnkit.toml:3:1: unknown field `selekt`, expected one of"),
            "{e}"
        );
        assert!(e.contains("`select`"), "{e}");
    }

    #[test]
    fn wrong_values_are_errors_with_their_place() {
        let e = error("ignore = [\"M\", \"illegal-mov\"]");
        assert!(e.starts_with("/p/pdnkit.toml:1:16: ignore: no rule"), "{e}");
        assert!(e.contains("did you mean illegal-move?"), "{e}");
        let e = error("\nrules = \"usa\"");
        assert!(
            e.starts_with("/p/pdnkit.toml:2:9: unknown variant `usa`"),
            "{e}"
        );
        let e = error("severity = \"fatal\"");
        assert!(e.contains("1:12: severity: `fatal` is none of"), "{e}");
        let e = error("encoding = \"klingon\"");
        assert!(e.contains("1:12: encoding: unknown label `klingon`"), "{e}");
        let e = error("exclude = [\"a[\"]");
        assert!(e.contains("1:12: exclude: "), "{e}");
        let e = error("select = []");
        assert!(
            e.contains("1:10: select: an empty list selects no rule"),
            "{e}"
        );
        let e = error("select = \"M\"");
        assert!(e.contains("1:10: invalid type: string"), "{e}");
        let e = error("select = [\n");
        assert!(e.starts_with("/p/pdnkit.toml:1:11: unclosed array"), "{e}");
    }

    #[test]
    fn per_file_ignores_errors_name_the_glob_and_its_line() {
        let e = error("[per-file-ignores]\n\"a/*\" = [\"T\"]\n'b/*' = [\"Z9\"]\n");
        assert!(
            e.starts_with("/p/pdnkit.toml:3:10: per-file-ignores: `b/*`: no rule"),
            "{e}"
        );
        let e = error("[per-file-ignores]\n\"a/*\" = \"T\"\n");
        assert!(
            e.contains("2:9: invalid type: string \"T\", expected a sequence"),
            "{e}"
        );
        let e = error("[per-file-ignores]\n\"a[\" = [\"T\"]\n");
        assert!(e.contains("2:1: per-file-ignores: "), "{e}");
    }

    #[test]
    fn per_file_ignores_match_below_the_root_and_by_name() {
        let c = parse(
            "[per-file-ignores]\n\"studies/*.pdn\" = [\"M\"]\n\"*.PDN\" = [\"T101\"]\n\
             \"x.pdn\" = [\"D\"]\n",
        )
        .unwrap();
        let p = &c.per_file_ignores;
        let kept = p.kept(Path::new("/p/studies/a.pdn"));
        assert!(!kept.contains(&codes::ILLEGAL_MOVE));
        assert!(
            !kept.contains(&codes::MISSING_TAG),
            "T101 by *.PDN, any case"
        );
        assert!(kept.contains(&codes::EARLY_DRAW_AGREEMENT));
        // `*` does not cross a folder: studies/deep/a.pdn is not studies/*.pdn
        assert!(
            p.kept(Path::new("/p/studies/deep/a.pdn"))
                .contains(&codes::ILLEGAL_MOVE)
        );
        // a name alone matches anywhere
        assert!(
            !p.kept(Path::new("/q/r/x.pdn"))
                .contains(&codes::EARLY_DRAW_AGREEMENT)
        );
        assert_eq!(
            Config::default().per_file_ignores.kept(Path::new("a.pdn")),
            RuleSet::ALL
        );
    }

    #[test]
    fn found_upward_the_nearest_first() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(Config::find(&deep), None);
        std::fs::write(dir.path().join("pdnkit.toml"), "").unwrap();
        assert_eq!(Config::find(&deep), Some(dir.path().join("pdnkit.toml")));
        std::fs::write(dir.path().join("a/pdnkit.toml"), "").unwrap();
        std::fs::write(dir.path().join("a/.pdnkit.toml"), "").unwrap();
        assert_eq!(Config::find(&deep), Some(dir.path().join("a/.pdnkit.toml")));
        // a folder of that name is no file
        std::fs::create_dir(deep.join("pdnkit.toml")).unwrap();
        assert_eq!(Config::find(&deep), Some(dir.path().join("a/.pdnkit.toml")));
    }
}
