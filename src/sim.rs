//! A deterministic simulator of kube-apiserver with concurrent writers.

pub mod rng;
pub mod server;
pub mod timeline;
pub mod writer;
