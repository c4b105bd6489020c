//! Temporary files that must not outlive an interrupted run.
//!
//! `convert -o` writes through a temporary file (a folder for a Parquet dataset) that is
//! renamed over the target when done; on an error it is removed when dropped. A signal (Ctrl-C, `kill`, a closed terminal)
//! skips destructors, so files registered here are removed on SIGINT, SIGTERM or SIGHUP by
//! a thread that waits for them, which then says so on stderr and exits with 128 + the
//! signal's number, the status a shell gives a command the signal ended (130, 143, 129).
//! The watch starts on first registration; commands that create no file keep the default
//! signal behaviour, and a signal ignored when pdnkit started (`nohup`, a background job
//! of a script) stays ignored.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

static FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

/// Removes `path` if the process is interrupted before [`forget`] (or [`commit`]).
pub fn remove_on_signal(path: &Path) {
    INSTALL.call_once(watch_signals);
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

/// Starts the thread that waits for the signals, and returns once they are caught. If the
/// thread cannot start, or the signals cannot be caught, the default behaviour stays: the
/// temporary file may then be left behind on a signal.
#[cfg(unix)]
fn watch_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let (caught, ready) = std::sync::mpsc::sync_channel(1);
    let watch = move || {
        // (caught on this thread: were the thread not to start, signals caught would be
        // ignored)
        let watched = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&s| !ignored(s));
        let signals = signal_hook::iterator::Signals::new(watched);
        let _ = caught.send(());
        if let Some(signal) = signals.ok().and_then(|mut s| s.forever().next()) {
            interrupted(signal);
        }
    };
    let started = std::thread::Builder::new()
        .name("signals".into())
        .spawn(watch);
    if started.is_ok() {
        let _ = ready.recv();
    }
}

#[cfg(not(unix))]
fn watch_signals() {}

/// Whether `signal` is ignored (as `nohup` leaves SIGHUP, and a shell SIGINT for a
/// background job): catching it would undo what the caller asked for.
#[cfg(unix)]
#[allow(unsafe_code)]
fn ignored(signal: i32) -> bool {
    // SAFETY: with no new action, sigaction only writes the current one into `current`,
    // a zeroed sigaction (a valid value of the plain C struct)
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// Removes the files registered and exits with 128 + `signal`.
#[cfg(unix)]
fn interrupted(signal: i32) -> ! {
    // Holding the lock until exit: a rename in `commit` either finished before (the file
    // is complete and no longer registered) or never happens.
    let files = lock();
    for f in files.iter() {
        // (a file, or the folder of a dataset)
        let _ = std::fs::remove_file(f).or_else(|_| std::fs::remove_dir_all(f));
    }
    // (said from a thread of its own, waited for a moment: a standard error nobody reads
    // must not keep the process from exiting)
    let name = signal_hook::low_level::signal_name(signal).unwrap_or("a signal");
    let (said, done) = std::sync::mpsc::sync_channel(1);
    let say = move || {
        eprintln!("pdnkit: interrupted by {name}");
        let _ = said.send(());
    };
    if std::thread::Builder::new().spawn(say).is_ok() {
        let _ = done.recv_timeout(std::time::Duration::from_millis(500));
    }
    std::process::exit(128 + signal);
}
