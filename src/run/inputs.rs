//! Turning the paths a user gives into the list of inputs to read.

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

/// Expands PATHs: files are taken as given (whatever their extension), directories are
/// walked recursively for `*.pdn` (any case) in sorted order, `-` is standard input, and no
/// PATH at all means standard input.
pub fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<InputError>) {
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
            Ok(meta) if meta.is_dir() => walk(path, &mut inputs, &mut errors),
            Ok(_) => inputs.push(Input::File(path.clone())),
            Err(e) => errors.push(InputError {
                path: path.display().to_string(),
                message: e.to_string(),
            }),
        }
    }
    (inputs, errors)
}

fn walk(dir: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<InputError>) {
    // follow_links so that linked folders of an archive are read; walkdir detects loops
    // and reports them as errors instead of recursing forever.
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name();
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_file() && is_pdn(e.path()) => {
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

fn is_pdn(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_extension_any_case() {
        assert!(is_pdn(Path::new("a.pdn")));
        assert!(is_pdn(Path::new("a.PDN")));
        assert!(is_pdn(Path::new("dir/a.Pdn")));
        assert!(!is_pdn(Path::new("a.pgn")));
        assert!(!is_pdn(Path::new("pdn")));
    }

    #[test]
    fn no_paths_means_stdin() {
        let (inputs, errors) = expand(&[]);
        assert_eq!(inputs, vec![Input::Stdin]);
        assert!(errors.is_empty());
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
        let (inputs, errors) = expand(&[dir.path().to_path_buf(), missing]);
        let names: Vec<_> = inputs
            .iter()
            .map(|i| match i {
                Input::File(p) => p.strip_prefix(dir.path()).unwrap().display().to_string(),
                Input::Stdin => "-".into(),
            })
            .collect();
        assert_eq!(names, ["a.PDN", "b.pdn", "sub/c.pdn"]);
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
        let (inputs, errors) = expand(&[dir.path().to_path_buf()]);
        assert_eq!(inputs.len(), 1);
        assert!(
            errors.iter().any(|e| e.message.contains("loop")),
            "{errors:?}"
        );
    }
}
