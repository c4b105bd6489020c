//! The `pdnkit` binary: a thin layer over the library (see `src/cli`).

// (unsafe code only where a C API is called: the allocator's options, and the query of a
// signal's disposition in cli::interrupt)
#![deny(unsafe_code)]

mod cli;

// Games are allocated by the reader thread and freed by the workers: mimalloc takes that
// in its stride where the system allocator locks (see Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    #[cfg(feature = "mimalloc")]
    allocator::purge_sooner();
    cli::run()
}

#[cfg(feature = "mimalloc")]
#[allow(unsafe_code)]
mod allocator {
    use libmimalloc_sys::{mi_option_set, mi_option_t};

    /// `mi_option_purge_delay` in mimalloc's option enum (libmimalloc-sys has no constant
    /// for it).
    const PURGE_DELAY: mi_option_t = 15;

    /// The delay pdnkit sets, in milliseconds: mimalloc 2's default, and the one mimalloc
    /// 3's header still names (its options table says 1000).
    const PURGE_DELAY_MS: i64 = 10;

    /// Gives freed memory back to the system after 10 ms instead of a second, unless the
    /// user set `MIMALLOC_PURGE_DELAY`.
    ///
    /// Why: with two threads, games of thousands of items (up to the reader's limits) make
    /// and drop megabytes of growing vectors each, and a second's worth of that would stay
    /// resident, several times what one thread holds. Ordinary archives hardly free memory
    /// in large pieces and see no difference in time; pathological inputs pay for it in
    /// page faults.
    pub fn purge_sooner() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            // SAFETY: sets an integer option; mimalloc reads it at each purge
            unsafe { mi_option_set(PURGE_DELAY, PURGE_DELAY_MS as _) };
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use libmimalloc_sys::mi_option_get;

        fn purge_delay() -> i64 {
            // SAFETY: reads an integer option
            unsafe { mi_option_get(PURGE_DELAY) as i64 }
        }

        #[test]
        fn the_option_set_is_the_purge_delay() {
            if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
                // the user's value is kept; the test below cannot tell the option apart
                return;
            }
            // mimalloc 3's default for option 15 is the purge delay's (a mimalloc update
            // that moves the option fails here, not silently)
            assert_eq!(purge_delay(), 1000);
            purge_sooner();
            assert_eq!(purge_delay(), PURGE_DELAY_MS);
        }
    }
}
