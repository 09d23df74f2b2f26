//! The browser playground.
//!
//! State and routing are plain Rust, compiled and unit-tested natively;
//! the Yew components that render them compile only for `wasm32`.

pub mod route;

#[cfg(target_arch = "wasm32")]
mod shell;

#[cfg(target_arch = "wasm32")]
pub use shell::{start, App};
