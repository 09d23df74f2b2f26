//! Components shared by the views: the code editor, the one `<select>`,
//! the notice bar, copy, undo and share buttons, the modal dialog,
//! glossary links, findings and the conflict surface.
//!
//! They compile for wasm32 and for native tests (which render them to
//! HTML with Yew's server renderer); the code editor, which reads and
//! writes the browser's text area, for wasm32 only.
//!
//! A leaf with no hooks of its own is a function that takes its props
//! (`select(&yew::props!(SelectProps { .. }))`), not a component: each
//! component brings Yew's per-component machinery into every module that
//! renders it. Components are kept for what holds hooks (the editor, the
//! dialog, glossary links) and for the views' memo boundaries (a column,
//! the fields table).

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
mod plural;
mod select;
mod surface;
mod toolbar;
mod writers;

pub use callback::ReformSome;
pub use copy::{copy_button, copy_fallback, Copied, CopyButtonProps, CopyFallbackProps, UseCopy};
// The views (wasm32 only) use these; natively, only the tests do.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use diagnostics::{
    diagnostics, fix_button_id, severity_class, with_code, Diag, DiagnosticsProps,
};
pub use dialog::Dialog;
#[cfg(target_arch = "wasm32")]
pub use editor::{Editor, TabMode};
pub use example_select::{example_select, ExampleSelectProps};
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use glossary::{glossary_dialog, GlossaryContext, GlossaryDialogProps, TermHelp};
pub use kubernetes::{kubernetes_select, KubernetesSelectProps};
pub use notice::{notice_bar, NoticeBarProps};
pub use ops::{op_class, op_line};
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use plural::counted;
pub use select::{select, Choice, SelectProps};
pub use surface::{conflict_surface, ConflictSurfaceProps};
pub use toolbar::{share_button, undo_button, ShareButtonProps, UndoButtonProps};
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use writers::writer_class;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
