//! The Check view: paste a JSON patch, a merge patch or a `kubectl patch`
//! command (and, optionally, the current object) and see what
//! [`crate::lint`] finds, on the ops themselves, with the explanation and
//! the fix beside the patch. Lint runs where the engines are
//! ([`crate::engines::check`]); the bundled examples come with their
//! answers. The state is a pure reducer ([`state`]); the
//! components render it and send actions (they compile for wasm32, and
//! for native tests, which render them to HTML).

mod examples;
mod link;
mod state;

#[cfg(any(target_arch = "wasm32", test))]
mod explain_panel;
#[cfg(any(target_arch = "wasm32", test))]
mod findings;
#[cfg(target_arch = "wasm32")]
mod fix;
#[cfg(any(target_arch = "wasm32", test))]
mod report;
#[cfg(target_arch = "wasm32")]
mod view;

pub use crate::engines::explain::{
    explain_error, helps_text, retry_on_conflict_text, CandidateView, Explain, ExplainView,
    Explained, RetryView, Unused,
};
pub use examples::{example, examples, Example, Expected, FIRST_EXAMPLE};
pub use link::{CheckLink, FixKey, MAX_TEXT};
pub use state::{
    Check, CheckAction, CheckState, Checked, CheckedFinding, CheckedFix, CheckedPatch, Comparison,
    Counts, ListedOp, ObjectRead, OpRow, MAX_SHOWN_OPS,
};
#[cfg(target_arch = "wasm32")]
pub use view::CheckView;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod explain_render_tests;
#[cfg(test)]
mod explain_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod render_tests;
#[cfg(test)]
mod tests;
