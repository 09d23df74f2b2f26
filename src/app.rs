//! The browser playground.
//!
//! State and routing are plain Rust, compiled and unit-tested natively;
//! the Yew components that render them compile only for `wasm32`.

pub mod build;
pub mod crash;
pub mod highlight;
pub mod learn;
pub mod race;
pub mod route;
pub mod share;
pub mod theme;

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod build_view;
#[cfg(target_arch = "wasm32")]
mod editor;
#[cfg(target_arch = "wasm32")]
mod learn_view;
#[cfg(target_arch = "wasm32")]
mod race_view;
#[cfg(target_arch = "wasm32")]
mod scale_view;
#[cfg(target_arch = "wasm32")]
pub mod scale_worker;
#[cfg(target_arch = "wasm32")]
mod shell;

#[cfg(target_arch = "wasm32")]
pub use shell::{start, App};
