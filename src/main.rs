//! The `patchlab` binary: the playground entry point on `wasm32`, the CLI natively.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

/// The CLI allocates and frees a tree per batch line: mimalloc does that
/// in about half the instructions of the system allocator (see
/// docs/performance.md, batch apply).
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}
