//! The `pdnkit` binary: a thin layer over the library (see `src/cli`).

mod cli;

// Games are allocated by the reader thread and freed by the workers: mimalloc takes that
// in its stride where the system allocator locks (see Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
