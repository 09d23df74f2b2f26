//! The Race view: concurrent writers step by step, in swimlanes, with each
//! request and response, the object as it changes, compare mode, the
//! interleaving explorer and an editable timeline. The state is a pure
//! reducer ([`state`]); the components (wasm only) render it.

mod scenarios;
mod state;

#[cfg(target_arch = "wasm32")]
mod lanes;
#[cfg(target_arch = "wasm32")]
mod step_card;
#[cfg(target_arch = "wasm32")]
mod tables;
#[cfg(target_arch = "wasm32")]
mod timeline_editor;
#[cfg(target_arch = "wasm32")]
mod view;

pub use scenarios::{library, scenario, FIRST_SCENARIO};
pub use state::{
    CompareRow, IntentsError, IntentsText, OpenError, RaceAction, RaceLink, RaceState, Source,
};
#[cfg(target_arch = "wasm32")]
pub use view::RaceView;

#[cfg(test)]
mod tests;
