//! The Scale view: a mass live migration under each preset, charted while
//! the sliders move. The state (inputs and the run) is a pure reducer
//! ([`state`]); the simulation runs in a Web Worker
//! ([`super::scale_worker`]) and streams its counts in as actions.

mod state;

#[cfg(target_arch = "wasm32")]
mod charts;
#[cfg(target_arch = "wasm32")]
mod view;

pub use state::{Run, ScaleAction, ScaleLink, ScaleState, VMI_STEPS};
#[cfg(target_arch = "wasm32")]
pub use view::ScaleView;
