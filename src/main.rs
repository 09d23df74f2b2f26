//! The `patchlab` binary: the CLI. The playground's builds are the
//! binaries of `src/bin/` (`src/lib.rs`, the table of builds).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

/// The CLI allocates and frees a tree per batch line: mimalloc does that
/// in about half the instructions of the system allocator (see
/// docs/performance.md, batch apply).
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

/// No CLI in a browser: the page module is the `page` binary.
#[cfg(target_arch = "wasm32")]
fn main() {}
