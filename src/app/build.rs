//! The Build view: edit an old and a new object and compare, side by side,
//! what each strategy sends. The state is a pure reducer ([`state`]); the
//! work that takes time is a job in pieces ([`recompute`]); the components
//! (wasm only) render the state and send actions.

mod examples;
mod recompute;
mod state;

#[cfg(target_arch = "wasm32")]
mod column;
#[cfg(target_arch = "wasm32")]
mod fields;
#[cfg(target_arch = "wasm32")]
mod view;

pub use examples::{example, examples, Example, FIRST_EXAMPLE};
pub use recompute::{Computed, RecomputeJob, PIECE_CHARS};
pub use state::{
    BuildAction, BuildLink, BuildState, Column, ColumnResult, Editor, FieldRow, Revs, MAX_COLUMNS,
    MAX_OVERRIDES,
};
#[cfg(target_arch = "wasm32")]
pub use view::BuildView;

#[cfg(test)]
mod tests;
