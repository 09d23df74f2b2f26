//! The `race` binary: the shell and the Race view (feature `race-only`),
//! what a cold visit to Race downloads (a shared Race link): the
//! simulator, the apply and strategy engines Race replays its timeline
//! with, and none of the other views. Trunk builds it with `data-type="worker"` for its
//! `no-modules` glue, which `scripts/postbuild.mjs` renames
//! (`patchlab_race`) so that it can sit next to the other modules'; the
//! boot script starts it for `#/race`, another module when Race opens
//! (`patchlab::app::modules`). It only runs in a browser page.

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("race is the playground's Race module; it runs in a browser page");
    std::process::ExitCode::from(2)
}
