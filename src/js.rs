//! The JavaScript API: the core as an ES module other pages import
//! (`make pkg` builds it into `pkg/`; feature `js`, wasm32 only).
//!
//! Documents cross the boundary as JSON text (`JSON.stringify` on the way
//! in, `JSON.parse` on the way out): V8's JSON is faster than walking a
//! JS object value by value, and results built by `JSON.parse` have every
//! key as an own property (`__proto__` included). Before a value is
//! written as JSON, a walk in JS refuses what JSON would change (`NaN`,
//! `Infinity`, `undefined`) and measures it against the depth and size
//! budgets, so nothing huge is ever built or copied. Options are read from
//! their object's own properties, typed and within budget. Every failure
//! is thrown as a JS `Error` named `PatchlabError` with a `kind` and,
//! where they apply, the op `index`, `op`, `path`, `cause`, HTTP `status`,
//! `line` and `column`. Nothing here panics on input: every parser has a
//! size and depth budget.
//!
//! One file per part, as the CLI is split: [`convert`] (arguments in,
//! results out), [`error`] (the `PatchlabError` shape), [`boundary`] (the
//! walks that run in JS: is a value exact as JSON, a diff's objects
//! without their equal members), [`build`] (pointer escaping and
//! KubeVirt's payload), [`apply`] (patches and merge patches on
//! documents), [`diff`], [`sim`] (the simulator), [`explain`] (error
//! texts), [`info`] (presets, Kubernetes releases,
//! version), and the TypeScript declarations in [`types`].

mod apply;
mod boundary;
mod build;
mod convert;
mod diff;
mod error;
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
    bad_argument, checked_string, cluster_of, document, json_text, to_js, type_name, value_to_js,
    ErrorBuilder, OptionsReader,
};
