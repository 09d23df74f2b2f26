//! The `engine-worker` binary: the Web Worker that runs patchlab's engines
//! (and Scale's simulator, on a channel of its own) for the playground (Trunk builds it with `data-type="worker"`; see
//! `patchlab::app::engine_worker`). A release build also instantiates the
//! same module in the page, where the Build view calls [`answer`] for small
//! objects. It only runs in a browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    // Scale's simulator is served on the channels the page hands over.
    patchlab::app::engine_worker::serve_worker(patchlab::app::scale_worker::serve_channel);
}

/// Answers one engine request (JSON text) on the calling thread.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn answer(request: &str) -> String {
    patchlab::app::engine_worker::answer_text(request)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("engine-worker runs in a browser's Web Worker; natively, use `patchlab diff` and `patchlab lint`");
    std::process::ExitCode::from(2)
}
