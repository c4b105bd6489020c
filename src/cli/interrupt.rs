//! Temporary files that must not outlive an interrupted run.
//!
//! `convert -o` writes through a temporary file that is renamed over the target when done;
//! on an error it is removed when dropped. A signal (Ctrl-C, `kill`, a closed terminal)
//! skips destructors, so files registered here are removed by a signal handler, which then
//! exits with 128 + 2 (the shell's status for SIGINT). The handler is installed on first
//! registration; commands that create no file keep the default signal behaviour.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

static FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

/// Removes `path` if the process is interrupted before [`forget`] (or [`commit`]).
pub fn remove_on_signal(path: &Path) {
    INSTALL.call_once(|| {
        // If no handler can be installed the default behaviour stays: the temporary file
        // may then be left behind on a signal, as before.
        let _ = ctrlc::set_handler(|| {
            // Holding the lock until exit: a rename in `commit` either finished before
            // (the file is complete and no longer registered) or never happens.
            let files = FILES.lock().unwrap_or_else(|e| e.into_inner());
            for f in files.iter() {
                let _ = std::fs::remove_file(f);
            }
            std::process::exit(130);
        });
    });
    lock().push(path.to_path_buf());
}

/// Stops watching `path` (it was removed or renamed).
pub fn forget(path: &Path) {
    lock().retain(|p| p != path);
}

/// Renames a registered temporary file over `target`, atomically with respect to the
/// signal handler.
pub fn commit(tmp: &Path, target: &Path) -> std::io::Result<()> {
    let mut files = lock();
    std::fs::rename(tmp, target)?;
    files.retain(|p| p != tmp);
    Ok(())
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    FILES.lock().unwrap_or_else(|e| e.into_inner())
}
