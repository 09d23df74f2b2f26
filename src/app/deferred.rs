//! How big texts wait: small texts are brought up to date on every
//! keystroke, big ones after a pause in typing, so an edit costs one render
//! and the page keeps responding (Build's and Check's engines are asked
//! after [`PAUSE_MS`] once the texts pass [`INSTANT_BYTES`]).

/// Texts up to this many bytes (all editors together) are brought up to
/// date on every keystroke; bigger ones after a pause in typing.
pub const INSTANT_BYTES: usize = 20_000;

/// The pause in typing before big texts are worked on, in milliseconds.
pub const PAUSE_MS: u32 = 300;
