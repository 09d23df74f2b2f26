//! Hooks: what the views do with the browser, each named for what it does.

mod link_sync;
mod recompute;
mod shortcuts;
mod tab_mode;
mod view_state;

pub use link_sync::use_link_sync;
pub use recompute::{use_piecewise_recompute, INSTANT_BYTES};
pub use shortcuts::{use_shortcuts, ShortcutSettings};
pub use tab_mode::use_tab_mode;
pub use view_state::{use_share, use_view_state};
