//! The Scale view: a mass live migration under each preset, charted. The
//! state (inputs and the run) is a pure reducer ([`state`]); the view runs
//! the simulation in slices and sends what it finds as actions.

mod state;

#[cfg(target_arch = "wasm32")]
mod charts;
#[cfg(target_arch = "wasm32")]
mod view;

pub use state::{Run, ScaleAction, ScaleLink, ScaleState, MAX_VMS};
#[cfg(target_arch = "wasm32")]
pub use view::ScaleView;
