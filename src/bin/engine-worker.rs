//! The `engine-worker` binary: the Web Worker that answers the questions
//! of `patchlab::engines::TABLE` for the playground (Trunk builds it with
//! `data-type="worker"`). A release build also instantiates the same
//! module in the page, where small questions are answered by [`answer`].
//! It only runs in a browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    patchlab::engines::worker::serve();
}

/// Answers one question (JSON text) on the calling thread.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn answer(question: &str) -> String {
    patchlab::engines::worker::answer_in_page(question)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("engine-worker runs in a browser's Web Worker; natively, use `patchlab diff` and `patchlab lint`");
    std::process::ExitCode::from(2)
}
