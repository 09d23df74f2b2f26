//! The Race view: concurrent writers step by step, in swimlanes, with each
//! request and response, the object as it changes, compare mode, the
//! interleaving explorer and an editable timeline. The state is a pure
//! reducer ([`state`]); its view and view functions render it (they compile for
//! wasm32, and for native tests, which render them to HTML).

mod answers;
mod scenarios;
mod state;
mod writer_edit;

#[cfg(any(target_arch = "wasm32", test))]
mod lanes;
#[cfg(any(target_arch = "wasm32", test))]
mod player;
#[cfg(any(target_arch = "wasm32", test))]
mod step_card;
#[cfg(any(target_arch = "wasm32", test))]
mod story_card;
#[cfg(any(target_arch = "wasm32", test))]
mod tables;
#[cfg(any(target_arch = "wasm32", test))]
mod timeline_editor;
#[cfg(target_arch = "wasm32")]
mod view;

pub use scenarios::{library, scenario, FIRST_SCENARIO};
pub use state::{
    CompareRow, IntentsError, IntentsText, OpenError, RaceAction, RaceLink, RaceState, Source,
};
#[cfg(target_arch = "wasm32")]
pub use view::RaceView;
pub use writer_edit::{overrides_text, WriterEdit};

#[cfg(all(test, not(target_arch = "wasm32")))]
mod render_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod ui2_tests;
#[cfg(test)]
mod writer_edit_tests;
