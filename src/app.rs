//! The browser playground.
//!
//! Everything that decides what the page shows is plain Rust, compiled and
//! unit-tested natively: the routes ([`route`]), links and saved state
//! ([`link`]), how every view starts, keeps replaced work for Undo and
//! reduces its actions ([`view_state`]), how big texts wait for a pause in
//! typing ([`deferred`]), notices, shortcuts, and one pure state module per view
//! ([`build`], [`check`], [`race`], [`scale`], [`learn`]). The Yew
//! components that render them compile for `wasm32` and, in tests,
//! natively, where Yew's server renderer renders them to HTML
//! (`render_test`); the hooks that talk to the browser, the views that use
//! them and the page frame compile only for `wasm32`.

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
pub mod view_state;

#[cfg(target_arch = "wasm32")]
pub mod boot;
#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(any(target_arch = "wasm32", test))]
mod components;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(all(target_arch = "wasm32", not(module = "all")))]
mod modules;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod render_test;
#[cfg(target_arch = "wasm32")]
mod shell;
#[cfg(target_arch = "wasm32")]
mod started;

#[cfg(target_arch = "wasm32")]
pub use boot::start;
#[cfg(target_arch = "wasm32")]
pub use shell::App;
