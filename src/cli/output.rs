//! Where `convert` writes: standard output, or an `-o` file replaced atomically.
//!
//! A regular file is written as a temporary file beside it, given the mode (and, where
//! the system allows, the owner) of the file it replaces, synced, and renamed over it
//! when every input was read; the folder is synced after the rename, so that a crash
//! leaves the old file or the new one, whole. A symbolic link is followed: the file it
//! names is replaced and the link stays. What is not a regular file (a device such as
//! `/dev/null`, a FIFO) is written to as it is: renaming a file over it would replace it.

use super::interrupt;
use anyhow::Context;
use pdnkit::run::Input;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where the output goes; a file output is a temporary file until [`Output::commit`].
pub struct Output {
    pub writer: Box<dyn Write>,
    file: Option<Temp>,
}

/// The temporary file of an `-o` output, until it is renamed over its target.
struct Temp {
    path: PathBuf,
    target: PathBuf,
    /// The file the writer writes to (through a handle of its own): synced before the
    /// rename.
    file: File,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Output {
        Output {
            writer: Box::new(BufWriter::new(io::stdout().lock())),
            file: None,
        }
    }

    /// The file `out`, written through a temporary file unless it is no regular file.
    /// None of `inputs` may be the output.
    pub fn file(out: &Path, inputs: &[Input]) -> anyhow::Result<Output> {
        if let Ok(canon) = out.canonicalize() {
            let files = inputs.iter().filter_map(|i| match i {
                Input::File(p) => Some(p),
                Input::Stdin => None,
            });
            if let Some(p) = files
                .into_iter()
                .find(|p| p.canonicalize().is_ok_and(|c| c == canon))
            {
                anyhow::bail!(
                    "refusing to overwrite input file {} with the output",
                    p.display()
                );
            }
        }
        Output::replacing(out)
    }

    /// The file `out`, replaced as [`file`](Self::file) replaces it, whatever it is an
    /// input of (`pdnkit fix` writes a file over itself).
    pub fn replacing(out: &Path) -> anyhow::Result<Output> {
        let cannot = || format!("cannot write {}", out.display());
        let target = follow_links(out).with_context(cannot)?;
        let replaced = match std::fs::metadata(&target) {
            Ok(m) if m.is_dir() => anyhow::bail!("-o {}: a directory", out.display()),
            Ok(m) if !m.is_file() => {
                let file = File::options()
                    .write(true)
                    .open(&target)
                    .with_context(cannot)?;
                return Ok(Output {
                    writer: Box::new(BufWriter::new(file)),
                    file: None,
                });
            }
            Ok(m) => Some(m),
            Err(_) => None,
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| anyhow::anyhow!("-o {}: not a file name", out.display()))?;
        let (path, file) = create_temp(&dir, &temp_prefix(name)).with_context(cannot)?;
        interrupt::remove_on_signal(&path);
        let temp = Temp { path, target, file };
        if let Some(m) = replaced {
            keep_owner_and_mode(&temp.file, &m).with_context(cannot)?;
        }
        let writer = temp.file.try_clone().with_context(cannot)?;
        Ok(Output {
            writer: Box::new(BufWriter::new(writer)),
            file: Some(temp),
        })
    }

    /// Flushes, and for a file syncs the temporary file, renames it over the target and
    /// syncs the folder.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let named = |target: &Path| format!("cannot write {}", target.display());
        let flushed = self.writer.flush();
        drop(std::mem::replace(&mut self.writer, Box::new(io::sink())));
        let Some(temp) = self.file.take() else {
            return Ok(flushed?);
        };
        // (on an error the temporary file is removed as the output is dropped)
        let synced = flushed.and_then(|()| temp.file.sync_all());
        if let Err(e) = synced.and_then(|()| interrupt::commit(&temp.path, &temp.target)) {
            let target = temp.target.clone();
            self.file = Some(temp);
            return Err(e).with_context(|| named(&target));
        }
        sync_folder(&temp.target).with_context(|| named(&temp.target))
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(temp) = self.file.take() {
            let _ = std::fs::remove_file(&temp.path);
            interrupt::forget(&temp.path);
        }
    }
}

/// `path` with symbolic links followed to the name they give, which need not exist yet
/// (the file is created there, as a shell's `>` does), so that the file is replaced and
/// not the link.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // (the limit of Linux's path resolution)
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&path)?;
                // (a relative link is relative to its folder; joining an absolute one
                // gives it)
                path = path
                    .parent()
                    .map_or_else(|| to.clone(), |dir| dir.join(&to));
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The start of a temporary file's name for the file `name`: a dot and the first 32 bytes
/// of the name, so that a temporary name stays within the 255 bytes a file name may have
/// however long the target's is, and says whose it is.
fn temp_prefix(name: &std::ffi::OsStr) -> String {
    let name = name.to_string_lossy();
    let mut end = name.len().min(32);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}", &name[..end])
}

/// A new file `PREFIX.pdnkit-PID-N.tmp` in `dir`, created exclusively.
pub fn create_temp(dir: &Path, prefix: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for n in 0..1000u32 {
        let path = dir.join(format!("{prefix}.pdnkit-{pid}-{n}.tmp"));
        match File::options().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free temporary file name"))
}

/// Gives `file` the permissions of the file it is to replace, and its owner and group
/// where the system allows (as root; a group of the user's own otherwise).
#[cfg(unix)]
fn keep_owner_and_mode(file: &File, replaced: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt, fchown};
    let ours = file.metadata()?;
    if (ours.uid(), ours.gid()) != (replaced.uid(), replaced.gid()) {
        // (not allowed to give the file away: at least its group, which may be allowed)
        let _ = fchown(file, Some(replaced.uid()), Some(replaced.gid()))
            .or_else(|_| fchown(file, None, Some(replaced.gid())));
    }
    // (after the owner: a change of owner clears the set-user-ID bit)
    let mode = replaced.permissions().mode() & 0o7777;
    file.set_permissions(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, replaced: &std::fs::Metadata) -> io::Result<()> {
    file.set_permissions(replaced.permissions())
}

/// Syncs the folder of `path`, where a file was just renamed to it, so that the rename
/// outlives a crash. A file system that cannot sync a folder has nothing to sync.
fn sync_folder(path: &Path) -> io::Result<()> {
    if !cfg!(unix) {
        return Ok(());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match File::open(dir).and_then(|d| d.sync_all()) {
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
            ) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// The folder of an `-o` dataset (Parquet): written as a temporary folder beside it,
/// renamed to it when every input was read. What it replaces must be a folder that is
/// empty or holds a dataset (only the tables' files and folders), so that nothing else is
/// ever removed.
pub struct Folder {
    /// The temporary folder written into.
    pub path: PathBuf,
    target: PathBuf,
    /// Whether the temporary folder is still there (not renamed).
    pending: bool,
}

impl Folder {
    /// A temporary folder for the dataset `out`, whose current content, if any, is
    /// checked to be a dataset made of `tables` (names of files and folders) and to hold
    /// none of `inputs`.
    pub fn create(out: &Path, tables: &[&str], inputs: &[Input]) -> anyhow::Result<Folder> {
        let cannot = || format!("cannot write {}", out.display());
        let target = follow_links(out).with_context(cannot)?;
        if let Ok(canon) = target.canonicalize() {
            for input in inputs {
                if let Input::File(p) = input {
                    anyhow::ensure!(
                        !p.canonicalize().is_ok_and(|c| c.starts_with(&canon)),
                        "refusing to replace {}, which holds the input {}",
                        out.display(),
                        p.display()
                    );
                }
            }
        }
        match std::fs::metadata(&target) {
            Ok(m) if !m.is_dir() => {
                anyhow::bail!("-o {}: not a folder (a dataset is a folder)", out.display())
            }
            Ok(_) => {
                for entry in std::fs::read_dir(&target).with_context(cannot)? {
                    let name = entry.with_context(cannot)?.file_name();
                    let name = name.to_string_lossy();
                    let path = target.join(&*name);
                    let known = tables.iter().any(|t| {
                        (name == *t && only_parquet(&path))
                            || name.strip_suffix(".parquet").is_some_and(|n| n == *t)
                    });
                    anyhow::ensure!(
                        known,
                        "-o {}: a folder that holds more than a dataset ({name}); give a new or empty folder",
                        out.display()
                    );
                }
            }
            Err(_) => {}
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| anyhow::anyhow!("-o {}: not a folder name", out.display()))?;
        let prefix = temp_prefix(name);
        let pid = std::process::id();
        for n in 0..1000u32 {
            let path = dir.join(format!("{prefix}.pdnkit-{pid}-{n}.tmp"));
            match std::fs::create_dir(&path) {
                Ok(()) => {
                    interrupt::remove_on_signal(&path);
                    return Ok(Folder {
                        path,
                        target,
                        pending: true,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e).with_context(cannot),
            }
        }
        Err(io::Error::other("no free temporary folder name")).with_context(cannot)
    }

    /// Renames the temporary folder to the target (a dataset there is replaced) and syncs
    /// the folder it is in.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let cannot = || format!("cannot write {}", self.target.display());
        // (a folder cannot be renamed over one that is not empty: the old one is moved
        // aside first, then removed)
        let old = self.path.with_extension("old");
        let replaced = self.target.exists();
        if replaced {
            std::fs::rename(&self.target, &old).with_context(cannot)?;
        }
        if let Err(e) = interrupt::commit(&self.path, &self.target) {
            if replaced {
                let _ = std::fs::rename(&old, &self.target);
            }
            return Err(e).with_context(cannot);
        }
        self.pending = false;
        if replaced {
            std::fs::remove_dir_all(&old).with_context(cannot)?;
        }
        sync_folder(&self.target).with_context(cannot)
    }
}

/// Whether the folder `dir` holds Parquet files only (in folders of any depth).
fn only_parquet(dir: &Path) -> bool {
    walkdir::WalkDir::new(dir).into_iter().all(|e| {
        e.is_ok_and(|e| {
            e.file_type().is_dir() || e.file_name().to_string_lossy().ends_with(".parquet")
        })
    })
}

impl Drop for Folder {
    fn drop(&mut self) {
        if self.pending {
            let _ = std::fs::remove_dir_all(&self.path);
            interrupt::forget(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_files_are_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let (a, _) = create_temp(dir.path(), ".x").unwrap();
        let (b, _) = create_temp(dir.path(), ".x").unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn a_temporary_name_is_short_whatever_the_name() {
        let long = "é".repeat(127);
        let prefix = temp_prefix(std::ffi::OsStr::new(&long));
        assert_eq!(prefix, format!(".{}", "é".repeat(16)));
        assert_eq!(temp_prefix(std::ffi::OsStr::new("out.csv")), ".out.csv");
    }
}
