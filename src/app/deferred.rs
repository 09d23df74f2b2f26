//! Work a view derives from big texts, done off the keystroke: small texts
//! are brought up to date in the reducer ([`ViewState::settle`]), so an
//! edit costs one render; big ones wait for a pause in typing and then run
//! as a [`Job`] in pieces (the hook `use_deferred`), so the page keeps
//! responding. The job owns what it works on; the reducer only takes in
//! what it found, so it stays a pure function.

use super::view_state::ViewState;

/// Texts up to this many bytes (all editors together) are brought up to
/// date in the reducer, on every keystroke; bigger ones by a [`Job`].
pub const INSTANT_BYTES: usize = 20_000;

/// The pause in typing before a job starts, in milliseconds.
pub const PAUSE_MS: u32 = 300;

/// Work done in pieces.
pub trait Job: 'static {
    /// What it found.
    type Done;
    /// Does one piece (about a frame's worth); true while work remains.
    fn step(&mut self) -> bool;
    /// What it found (called once `step` returned false).
    fn finish(self) -> Self::Done;
}

/// A view state with work too big for the reducer.
pub trait Deferred: ViewState {
    /// The work.
    type Job: Job;
    /// What the work is for (revisions): a job runs again when it changes.
    type Key: Clone + PartialEq + 'static;
    /// The key of the current content.
    fn key(&self) -> Self::Key;
    /// The job that brings the state up to date, when one is needed and
    /// the reducer does not do it (big texts only).
    fn job(&self) -> Option<Self::Job>;
    /// True when the change from `before` to `now` was typing (the job then
    /// waits for a pause); other changes (a column, an engine) start at once.
    fn typed(before: &Self::Key, now: &Self::Key) -> bool;
    /// The action that takes in what a job found.
    fn done(found: <Self::Job as Job>::Done) -> Self::Action;
}
