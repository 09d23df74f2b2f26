//! The Scale view: a mass live migration under each preset, charted while
//! the sliders move. The state (inputs and the run) is a pure reducer
//! ([`state`]); the simulation runs in the engines' Web Worker
//! ([`crate::engines::scale`]) and streams its counts in as actions. The
//! charts and the progress line compile for wasm32, and for native tests,
//! which render them to HTML.

mod state;

#[cfg(any(target_arch = "wasm32", test))]
mod charts;
#[cfg(any(target_arch = "wasm32", test))]
mod progress;
#[cfg(target_arch = "wasm32")]
mod view;

pub use state::{Run, ScaleAction, ScaleLink, ScaleState, VMI_STEPS};
#[cfg(target_arch = "wasm32")]
pub use view::ScaleView;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod render_tests;
