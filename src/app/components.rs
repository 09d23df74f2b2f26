//! Components shared by the views: the code editor, the one `<select>`,
//! the notice bar, copy, undo and share buttons, the modal dialog,
//! glossary links, findings and the conflict surface.
//!
//! They compile for wasm32 and for native tests (which render them to
//! HTML with Yew's server renderer); the code editor, which reads and
//! writes the browser's text area, for wasm32 only.

mod callback;
mod copy;
mod diagnostics;
mod dialog;
#[cfg(target_arch = "wasm32")]
mod editor;
mod example_select;
mod glossary;
mod kubernetes;
mod notice;
mod ops;
mod select;
mod surface;
mod toolbar;

pub use callback::ReformSome;
pub use copy::{Copied, CopyButton, CopyFallback, UseCopy};
// The views (wasm32 only) use these; natively, only the tests do.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use diagnostics::{fix_button_id, severity_class, with_code, Diag, Diagnostics};
pub use dialog::Dialog;
#[cfg(target_arch = "wasm32")]
pub use editor::{Editor, TabMode};
pub use example_select::ExampleSelect;
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use glossary::{GlossaryContext, GlossaryDialog, TermHelp};
pub use kubernetes::KubernetesSelect;
pub use notice::NoticeBar;
pub use ops::{op_class, op_line};
pub use select::{Choice, Select};
pub use surface::ConflictSurface;
pub use toolbar::{ShareButton, UndoButton};

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
