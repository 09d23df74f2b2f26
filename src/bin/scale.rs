//! The `scale` binary: the shell and the Scale view (feature `scale-only`),
//! what a cold visit to Scale downloads; the simulator runs in the Scale
//! worker. Trunk builds it with `data-type="worker"` for its
//! `no-modules` glue, which `scripts/postbuild.mjs` renames
//! (`patchlab_scale`) so that it can sit next to the other modules'; the
//! boot script starts it for `#/scale`, another module when Scale opens
//! (`patchlab::app::modules`). It only runs in a browser page.

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("scale is the playground's Scale module; it runs in a browser page");
    std::process::ExitCode::from(2)
}
