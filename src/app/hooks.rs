//! Hooks: what the views do with the browser, each named for what it does.

mod copy;
mod link_sync;
mod shortcuts;
mod tab_mode;
mod view;

pub use copy::use_copy;
pub use link_sync::use_link_sync;
pub use shortcuts::{use_shortcuts, ShortcutSettings};
pub use tab_mode::use_tab_mode;
pub use view::{use_share, use_view, ViewHandle};
