//! The Build view: edit an old and a new object and compare, side by side,
//! what each strategy sends. The state is a pure reducer ([`state`]); the
//! work that takes time is the engines' ([`recompute`], in a Web Worker); the components
//! render the state and send actions (they compile for wasm32, and for
//! native tests, which render them to HTML).

mod examples;
mod link;
pub mod preview;
mod recompute;
mod state;

#[cfg(any(target_arch = "wasm32", test))]
mod fields;
#[cfg(any(target_arch = "wasm32", test))]
mod results;
#[cfg(any(target_arch = "wasm32", test))]
mod toolbar;
#[cfg(target_arch = "wasm32")]
mod view;

pub use examples::{example, examples, Example, FIRST_EXAMPLE};
pub use link::{BuildLink, Column, MAX_COLUMNS, MAX_OVERRIDES};
pub use recompute::{
    Built, ColumnResult, FieldRow, FindingResult, OpResult, Results, Revs, RoundTripResult,
    RuleText, TextSide, Texts,
};
pub use state::{BuildAction, BuildState};
#[cfg(target_arch = "wasm32")]
pub use view::BuildView;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod render_tests;
#[cfg(test)]
mod tests;
