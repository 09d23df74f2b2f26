//! The `scale-worker` binary: the Scale view's Web Worker (Trunk builds it
//! with `data-type="worker"`; see `patchlab::app::scale_worker`). It only
//! runs in a browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    patchlab::app::scale_worker::serve_worker();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("scale-worker runs in a browser's Web Worker; natively, use `patchlab migrate`");
    std::process::ExitCode::from(2)
}
