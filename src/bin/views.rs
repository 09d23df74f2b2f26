//! The `views` binary: the full playground (every view), which a visit to
//! Check starts with and which takes the page over from another module
//! when Check opens, or a view whose module already gave the page up (Trunk builds it with
//! `data-type="worker"` for its `no-modules` glue, started by
//! `www/views_loader.js`; see `patchlab::app::boot`). It only runs in a
//! browser page.

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("views is the playground's full app; it runs in a browser page");
    std::process::ExitCode::from(2)
}
