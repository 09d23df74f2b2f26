//! # patchlab
//!
//! Understand and produce conflict-narrow Kubernetes JSON Patches.
//!
//! The crate is the core of the patchlab playground and CLI. Data flows one
//! way: pointer -> patch -> apply -> strategy -> sim. The browser UI lives in
//! [`app`]; its components compile only for `wasm32`, its state is plain Rust.
#![warn(missing_docs)]

pub mod app;
pub mod apply;
pub mod claims;
pub mod gojson;
pub mod input;
#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub mod js;
pub mod kube;
pub mod lint;
pub mod patch;
pub mod pointer;
#[cfg(not(target_arch = "wasm32"))]
pub mod scan;
pub mod sim;
pub mod status;
pub mod strategy;
pub mod vocabulary;

/// The crate version, shown in the playground footer and `patchlab --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where the source code lives, linked from the playground footer.
pub const SOURCE_URL: &str = env!("CARGO_PKG_REPOSITORY");
