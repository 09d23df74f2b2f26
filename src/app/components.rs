//! Components shared by the views: the code editor, the notice bar, copy
//! buttons, the modal dialog, glossary links.

mod copy;
mod dialog;
mod editor;
mod example_select;
mod glossary;
mod kubernetes;
mod notice;

pub use copy::{use_copy, CopyButton, CopyFallback, UseCopy};
pub use dialog::Dialog;
pub use editor::{Editor, TabMode};
pub use example_select::ExampleSelect;
pub use glossary::{GlossaryContext, GlossaryDialog, TermHelp};
pub use kubernetes::KubernetesSelect;
pub use notice::NoticeBar;
