//! The `check` binary: the shell and the Check view (feature
//! `check-only`), what a cold visit to Check downloads: no engine (lint and
//! explain run in the engines' module, fetched when first needed; the
//! bundled examples come with their answers) and none of the other views. Trunk builds it with `data-type="worker"` for its
//! `no-modules` glue, which `scripts/postbuild.mjs` renames
//! (`patchlab_check`) so that it can sit next to the other modules'; the
//! boot script starts it for `#/check`, another module when Check opens
//! (`patchlab::app::modules`). It only runs in a browser page.

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("check is the playground's Check module; it runs in a browser page");
    std::process::ExitCode::from(2)
}
