//! The Check view: paste a JSON patch, a merge patch or a `kubectl patch`
//! command (and, optionally, the current object) and see what
//! [`crate::lint`] finds, on the ops themselves, with the explanation and
//! the fix beside the patch. The state is a pure reducer ([`state`]); the
//! components (wasm only) render it and send actions.

mod examples;
mod state;

#[cfg(target_arch = "wasm32")]
mod findings;
#[cfg(target_arch = "wasm32")]
mod fix;
#[cfg(target_arch = "wasm32")]
mod report;
#[cfg(target_arch = "wasm32")]
mod view;

pub use examples::{example, examples, Example, Expected, FIRST_EXAMPLE};
#[cfg(target_arch = "wasm32")]
pub(crate) use findings::{Diag, Diagnostics};
pub use state::{
    editor_error, fix_text, plan_findings, CheckAction, CheckLink, CheckState, Checked,
    CheckedPatch, Comparison, Counts, FixKey, ObjectRead, OpRow, Snapshot, MAX_SHOWN_OPS, MAX_TEXT,
};
#[cfg(target_arch = "wasm32")]
pub use view::CheckView;

#[cfg(test)]
mod tests;
