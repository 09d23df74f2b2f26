//! The `learn` binary: the shell and the Learn view (feature `learn-only`),
//! what a lesson link downloads. Its live cards are computed when the
//! playground is built (`patchlab::app::learn::live`), so it carries no
//! engine. Trunk builds it with `data-type="worker"` for its
//! `no-modules` glue, which `scripts/postbuild.mjs` renames
//! (`patchlab_learn`) so that it can sit next to the other modules'; the
//! boot script starts it for `#/learn`, another module when Learn opens
//! (`patchlab::app::modules`). It only runs in a browser page.

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("learn is the playground's Learn module; it runs in a browser page");
    std::process::ExitCode::from(2)
}
