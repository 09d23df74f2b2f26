//! The Learn view: guided walkthroughs, one step at a time, each with a
//! live card computed by the real engines ([`live`], shipped computed) and
//! a link that opens it in Build, Race or Scale. The data lives in
//! `www/learn/`.

pub mod facts;
pub mod live;
mod walkthroughs;

#[cfg(any(target_arch = "wasm32", test))]
mod pages;
#[cfg(target_arch = "wasm32")]
mod view;

#[cfg(target_arch = "wasm32")]
pub use view::LearnView;
pub use walkthroughs::{walkthrough, walkthroughs, Aspect, LessonStep, Open, Walkthrough};

#[cfg(all(test, not(target_arch = "wasm32")))]
mod render_tests;
