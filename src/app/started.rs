//! Which of the playground's modules started in this page (the page
//! module, the Learn, Scale and Race modules, the full app:
//! docs/performance.md, "First load"). A module that gave the page up
//! cannot start again (its glue initialises once), so the one that asks
//! for it starts the full app in its place ([`super::full_app`]); and a
//! module that arrives after the full app stays idle
//! ([`super::boot::start`]).

/// The page module's name (feature `build-only`).
pub const PAGE: &str = "page";
/// The Learn module's (feature `learn-only`).
pub const LEARN: &str = "learn";
/// The Scale module's (feature `scale-only`).
pub const SCALE: &str = "scale";
/// The Race module's (feature `race-only`).
pub const RACE: &str = "race";
/// The full app's (every view).
pub const FULL: &str = "full";

/// This build's name, which [`record`] adds to the page's list.
pub const MODULE: &str = if cfg!(feature = "build-only") {
    PAGE
} else if cfg!(feature = "learn-only") {
    LEARN
} else if cfg!(feature = "scale-only") {
    SCALE
} else if cfg!(feature = "race-only") {
    RACE
} else {
    FULL
};

/// The window property listing the modules started in this page, their
/// names separated by spaces.
pub const STARTED: &str = "patchlabStarted";

fn list() -> Option<String> {
    js_sys::Reflect::get(&gloo::utils::window(), &STARTED.into())
        .ok()
        .and_then(|list| list.as_string())
}

/// Whether `module` (the name of its build) started in this page.
pub fn started(module: &str) -> bool {
    list().is_some_and(|list| list.split(' ').any(|m| m == module))
}

/// Adds this build to the list, as it starts.
pub fn record() {
    let list = list().map_or_else(|| MODULE.to_owned(), |list| format!("{list} {MODULE}"));
    let _ = js_sys::Reflect::set(&gloo::utils::window(), &STARTED.into(), &list.into());
}
