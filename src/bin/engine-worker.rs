//! The `engine-worker` binary: the Web Worker that runs patchlab's engines
//! for the playground (Trunk builds it with `data-type="worker"`; see
//! `patchlab::app::engine_worker`). It only runs in a browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    patchlab::app::engine_worker::serve_worker();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("engine-worker runs in a browser's Web Worker; natively, use `patchlab diff` and `patchlab lint`");
    std::process::ExitCode::from(2)
}
