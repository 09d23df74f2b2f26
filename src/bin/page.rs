//! The page module (`src/lib.rs`, the table of builds): the shell and
//! Build, in a browser page.

#[cfg(target_arch = "wasm32")]
fn main() {
    patchlab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("page is the playground's page module; it runs in a browser page");
    std::process::ExitCode::from(2)
}
