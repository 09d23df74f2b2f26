//! The browser playground.
//!
//! Everything that decides what the page shows is plain Rust, compiled and
//! unit-tested natively: the routes ([`route`]), links and saved state
//! ([`link`]), notices, shortcuts, and one pure state module per view
//! ([`build`], [`check`], [`race`], [`scale`], [`learn`]). The Yew components that
//! render them, and the hooks that talk to the browser, compile only for
//! `wasm32`.

pub mod build;
pub mod bundled;
pub mod check;
pub mod crash;
pub mod edit_history;
pub mod highlight;
pub mod learn;
pub mod link;
pub mod notice;
pub mod paste_guard;
pub mod race;
pub mod route;
pub mod scale;
pub mod shortcuts;
pub mod text_diff;
pub mod theme;

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
pub mod full_app;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
pub mod scale_worker;
#[cfg(target_arch = "wasm32")]
mod shell;

#[cfg(target_arch = "wasm32")]
pub use shell::{start, App};
