//! The JavaScript API: the core as an ES module other pages import
//! (`make pkg` builds it into `pkg/`; feature `js`, wasm32 only).
//!
//! Documents cross the boundary as JSON text (`JSON.stringify` on the way
//! in, `JSON.parse` on the way out): V8's JSON is faster than walking a
//! JS object value by value, its own stack guard turns a cyclic or
//! absurdly deep object into an error instead of a crash, and the text is
//! measured against the input budget before anything is copied. Options
//! and results use `serde-wasm-bindgen`. Every failure is thrown as a JS
//! `Error` named `PatchlabError` with a `kind` and, where they apply, the
//! op `index`, `op`, `path`, `cause`, HTTP `status`, `line` and `column`.
//! Nothing here panics on input: every parser has a size and depth budget.
//!
//! One file per part, as the CLI is split: [`convert`] (arguments in,
//! results and errors out), [`build`] (pointer escaping and KubeVirt's
//! payload), [`apply`] (patches and merge patches on documents), [`diff`],
//! [`sim`] (the simulator), [`explain`] (error texts), [`info`] (presets, Kubernetes releases,
//! version), and the TypeScript declarations in [`types`].

mod apply;
mod build;
mod convert;
mod diff;
mod info;
mod sim;
mod strategic;
mod types;

pub mod explain;
pub mod lint;

pub use apply::{apply_merge_patch, apply_patch, apply_patch_json};
pub use build::{build_patch, escape_json_pointer};
pub use diff::diff;
pub use info::{kube_versions, presets, version};
pub use sim::{migrate, simulate};
pub use strategic::apply_strategic_merge_patch;

// What the lint module (`js/lint.rs`) reads from its parent.
use convert::{
    bad_argument, checked_string, document, json_text, options, to_js, type_name, value_to_js,
    ErrorBuilder,
};
