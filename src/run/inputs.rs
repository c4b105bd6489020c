//! Turning the paths a user gives into the list of inputs to read.

use globset::{Glob, GlobBuilder, GlobSet};
use std::path::{Path, PathBuf};

/// One input: a file or standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name used in diagnostics: the path as found, `-` for standard input.
    pub fn label(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::File(p) => p.display().to_string(),
        }
    }
}

/// A path that could not be turned into inputs (missing, unreadable directory, link loop).
#[derive(Debug)]
pub struct InputError {
    pub path: String,
    pub message: String,
}

/// Which files a folder walked gives, and which of its files and folders are skipped.
///
/// Globs match in any case, and `*` does not cross a `/` (`**` does). A file is read when
/// an include glob matches it, and a file or folder is skipped when an exclude glob does
/// (a folder skipped with all it holds); either matches by the name, by the path below
/// the folder walked, or by the path below the [root](Discovery::new). Hidden files and
/// folders (names starting with `.`) are skipped too. None of this applies to a path
/// given: a file named is read whatever its name, a folder named is walked.
#[derive(Clone, Debug)]
pub struct Discovery {
    include: GlobSet,
    exclude: GlobSet,
    include_patterns: Vec<String>,
    root: Option<PathBuf>,
}

impl Discovery {
    /// The files read when no include glob is given: `*.pdn`, in any case.
    pub const DEFAULT_INCLUDE: &'static str = "*.pdn";

    /// Reads the files `include` matches (`*.pdn` when it is empty) and skips what
    /// `exclude` matches; paths below `root` are matched relative to it too.
    pub fn new(
        include: &[String],
        exclude: &[String],
        root: Option<&Path>,
    ) -> Result<Discovery, globset::Error> {
        let default = [Discovery::DEFAULT_INCLUDE.to_string()];
        let include = if include.is_empty() {
            &default[..]
        } else {
            include
        };
        let set = |patterns: &[String]| {
            let mut set = GlobSet::builder();
            for p in patterns {
                set.add(glob(p)?);
            }
            set.build()
        };
        Ok(Discovery {
            include: set(include)?,
            exclude: set(exclude)?,
            include_patterns: include.to_vec(),
            root: root.map(absolute),
        })
    }

    /// The include globs (`*.pdn` by default), for a message that no file matched.
    pub fn include_patterns(&self) -> &[String] {
        &self.include_patterns
    }

    /// Whether an entry at `below` (its path below the folder walked, `walked` the
    /// absolute path of that folder) matches `set`.
    fn matches(&self, set: &GlobSet, walked: &Path, below: &Path) -> bool {
        if set.is_empty() {
            return false;
        }
        let name = below.file_name().map(Path::new);
        name.is_some_and(|name| set.is_match(name))
            || set.is_match(below)
            || (self.root.as_deref()).is_some_and(|root| {
                let path = walked.join(below);
                path.strip_prefix(root).is_ok_and(|p| set.is_match(p))
            })
    }
}

impl Default for Discovery {
    /// `*.pdn` files, nothing excluded but hidden names.
    fn default() -> Discovery {
        Discovery::new(&[], &[], None).expect("the default glob is valid")
    }
}

/// A glob as [`Discovery`] and the configuration's `per-file-ignores` read it: in any
/// case, `*` not crossing a `/`, a trailing `/` (a folder, as in .gitignore) dropped.
pub fn glob(pattern: &str) -> Result<Glob, globset::Error> {
    let trimmed = pattern.trim();
    let pattern = trimmed
        .strip_suffix('/')
        .filter(|p| !p.is_empty())
        .unwrap_or(trimmed);
    GlobBuilder::new(pattern)
        .case_insensitive(true)
        .literal_separator(true)
        .build()
}

/// `path` relative to the folder `root`, when it is below it (both taken as absolute
/// against the current folder).
pub fn relative_to(path: &Path, root: &Path) -> Option<PathBuf> {
    absolute(path)
        .strip_prefix(absolute(root))
        .ok()
        .map(Path::to_path_buf)
}

/// `path` made absolute against the current folder (as given when that fails).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Expands PATHs: files are taken as given (whatever their name), folders are walked
/// recursively in sorted order for the files `discovery` includes, `-` is standard input,
/// and no PATH at all means standard input.
pub fn expand(paths: &[PathBuf], discovery: &Discovery) -> (Vec<Input>, Vec<InputError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    if paths.is_empty() {
        inputs.push(Input::Stdin);
    }
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, discovery, &mut inputs, &mut errors),
            Ok(_) => inputs.push(Input::File(path.clone())),
            Err(e) => errors.push(InputError {
                path: path.display().to_string(),
                message: e.to_string(),
            }),
        }
    }
    (inputs, errors)
}

/// The files of the current folder, walked as [`expand`] walks a folder, named by their
/// path below it (`a.pdn`, not `./a.pdn`): what a command reads with no PATH when its
/// standard input is a terminal.
pub fn expand_current_folder(discovery: &Discovery) -> (Vec<Input>, Vec<InputError>) {
    let here = Path::new(".");
    let (mut inputs, mut errors) = (Vec::new(), Vec::new());
    walk(here, discovery, &mut inputs, &mut errors);
    for input in &mut inputs {
        if let Input::File(p) = input {
            if let Ok(below) = p.strip_prefix(here) {
                *p = below.to_path_buf();
            }
        }
    }
    (inputs, errors)
}

fn walk(dir: &Path, discovery: &Discovery, inputs: &mut Vec<Input>, errors: &mut Vec<InputError>) {
    let walked = absolute(dir);
    let below =
        |e: &walkdir::DirEntry| e.path().strip_prefix(dir).unwrap_or(e.path()).to_path_buf();
    // follow_links so that linked folders of an archive are read; walkdir detects loops
    // and reports them as errors instead of recursing forever.
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        // (the folder given is walked whatever its name)
        .filter_entry(|e| {
            e.depth() == 0
                || !(is_hidden(e.file_name())
                    || discovery.matches(&discovery.exclude, &walked, &below(e)))
        });
    for entry in walker {
        match entry {
            Ok(e)
                if e.file_type().is_file()
                    && discovery.matches(&discovery.include, &walked, &below(&e)) =>
            {
                inputs.push(Input::File(e.into_path()))
            }
            Ok(_) => {}
            Err(e) => errors.push(InputError {
                path: e
                    .path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| dir.display().to_string()),
                message: if e.loop_ancestor().is_some() {
                    "directory symlink loop; not followed".to_string()
                } else {
                    e.io_error()
                        .map(|io| io.to_string())
                        .unwrap_or_else(|| e.to_string())
                },
            }),
        }
    }
}

/// A hidden file or folder: its name starts with `.` (`.git`, `.pdnkit.toml`).
fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().starts_with(b".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path, inputs: &[Input]) -> Vec<String> {
        (inputs.iter())
            .map(|i| match i {
                Input::File(p) => p.strip_prefix(dir).unwrap_or(p).display().to_string(),
                Input::Stdin => "-".into(),
            })
            .collect()
    }

    fn files(dir: &Path, files: &[&str]) {
        for f in files {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
    }

    fn discovery(include: &[&str], exclude: &[&str], root: Option<&Path>) -> Discovery {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Discovery::new(&strings(include), &strings(exclude), root).unwrap()
    }

    #[test]
    fn pdn_files_in_any_case_by_default() {
        let d = Discovery::default();
        let walked = Path::new("/w");
        for yes in ["a.pdn", "a.PDN", "dir/a.Pdn"] {
            assert!(d.matches(&d.include, walked, Path::new(yes)), "{yes}");
        }
        for no in ["a.pgn", "pdn", "a.pdn.txt"] {
            assert!(!d.matches(&d.include, walked, Path::new(no)), "{no}");
        }
    }

    #[test]
    fn no_paths_means_stdin() {
        let (inputs, errors) = expand(&[], &Discovery::default());
        assert_eq!(inputs, vec![Input::Stdin]);
        assert!(errors.is_empty());
    }

    #[test]
    fn hidden_files_and_folders_are_skipped_unless_given() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        files(
            d,
            &[
                ".git/a.pdn",
                ".b.pdn",
                "c.pdn",
                "sub/.hidden/d.pdn",
                "sub/e.pdn",
            ],
        );
        let (inputs, _) = expand(&[d.to_path_buf()], &Discovery::default());
        assert_eq!(names(d, &inputs), ["c.pdn", "sub/e.pdn"]);
        // a hidden folder or file named is read
        let (inputs, _) = expand(&[d.join(".git"), d.join(".b.pdn")], &Discovery::default());
        assert_eq!(names(d, &inputs), [".git/a.pdn", ".b.pdn"]);
    }

    #[test]
    fn include_and_exclude_globs() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        files(
            d,
            &[
                "a.pdn",
                "b.txt",
                "old/c.pdn",
                "new/old/d.pdn",
                "new/e.PDN",
                "new/f.txt",
            ],
        );
        let walk = |disc: &Discovery| names(d, &expand(&[d.to_path_buf()], disc).0);
        // an excluded folder is skipped whole, matched by its name anywhere
        assert_eq!(
            walk(&discovery(&[], &["old"], None)),
            ["a.pdn", "new/e.PDN"]
        );
        // or by its path below the folder walked (a trailing / is a folder's)
        let only_top = discovery(&[], &["old/"], None);
        assert_eq!(walk(&only_top), ["a.pdn", "new/e.PDN"]);
        assert_eq!(
            walk(&discovery(&[], &["new/old"], None)),
            ["a.pdn", "new/e.PDN", "old/c.pdn"]
        );
        // `*` stays in its folder; `**` does not
        assert_eq!(
            walk(&discovery(&[], &["new/*.pdn"], None)),
            ["a.pdn", "new/old/d.pdn", "old/c.pdn"]
        );
        assert_eq!(
            walk(&discovery(&[], &["new/**/*.pdn"], None)),
            ["a.pdn", "old/c.pdn"]
        );
        // include replaces *.pdn
        assert_eq!(
            walk(&discovery(&["*.txt"], &[], None)),
            ["b.txt", "new/f.txt"]
        );
        assert_eq!(
            walk(&discovery(&["new/*"], &[], None)),
            ["new/e.PDN", "new/f.txt"]
        );
        // below a root: the folder walked is the root's folder `new`
        let rooted = discovery(&[], &["new/e.pdn"], Some(d));
        assert_eq!(
            names(d, &expand(&[d.join("new")], &rooted).0),
            ["new/old/d.pdn"]
        );
        // a file named is read, excluded or not
        let (inputs, _) = expand(
            &[d.join("old/c.pdn"), d.join("b.txt")],
            &discovery(&[], &["old"], None),
        );
        assert_eq!(names(d, &inputs), ["old/c.pdn", "b.txt"]);
    }

    #[test]
    fn bad_globs_are_refused() {
        assert!(glob("a[").is_err());
        assert!(Discovery::new(&["{a".to_string()], &[], None).is_err());
    }

    #[test]
    fn relative_paths_below_a_root() {
        assert_eq!(
            relative_to(Path::new("/a/b/c.pdn"), Path::new("/a")),
            Some(PathBuf::from("b/c.pdn"))
        );
        assert_eq!(relative_to(Path::new("/x/c.pdn"), Path::new("/a")), None);
    }

    #[test]
    fn walks_directories_sorted_and_reports_missing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("b.pdn"), "").unwrap();
        std::fs::write(dir.path().join("a.PDN"), "").unwrap();
        std::fs::write(dir.path().join("sub/c.pdn"), "").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "").unwrap();
        let missing = dir.path().join("missing.pdn");
        let (inputs, errors) = expand(&[dir.path().to_path_buf(), missing], &Discovery::default());
        assert_eq!(names(dir.path(), &inputs), ["a.PDN", "b.pdn", "sub/c.pdn"]);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].path.ends_with("missing.pdn"));
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loop_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink(dir.path(), dir.path().join("sub/loop")).unwrap();
        std::fs::write(dir.path().join("a.pdn"), "").unwrap();
        let (inputs, errors) = expand(&[dir.path().to_path_buf()], &Discovery::default());
        assert_eq!(inputs.len(), 1);
        assert!(
            errors.iter().any(|e| e.message.contains("loop")),
            "{errors:?}"
        );
    }
}
