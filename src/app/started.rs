//! Which of the playground's modules started in this page (the page
//! module, the Learn, Scale, Race and Check modules:
//! docs/performance.md, "First load"), and how to start one again: a
//! module that gave the page up keeps its instance, and its glue cannot
//! initialise twice, so it offers a function that mounts it again
//! ([`restart`], used by [`super::modules`]).

/// The page module's name, as in `src/lib.rs`'s table of builds.
pub const PAGE: &str = "page";
/// The Learn module's.
pub const LEARN: &str = "learn";
/// The Scale module's.
pub const SCALE: &str = "scale";
/// The Race module's.
pub const RACE: &str = "race";
/// The Check module's.
pub const CHECK: &str = "check";
/// A build with every view (the browser tests').
pub const ALL: &str = "all";

/// This build's name (`cfg(module)`), which [`record`] adds to the page's list.
pub const MODULE: &str = if cfg!(module = "page") {
    PAGE
} else if cfg!(module = "learn") {
    LEARN
} else if cfg!(module = "scale") {
    SCALE
} else if cfg!(module = "race") {
    RACE
} else if cfg!(module = "check") {
    CHECK
} else {
    ALL
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
#[cfg(not(module = "all"))]
pub fn started(module: &str) -> bool {
    list().is_some_and(|list| list.split(' ').any(|m| m == module))
}

/// Adds this build to the list, as it starts.
pub fn record() {
    let list = list().map_or_else(|| MODULE.to_owned(), |list| format!("{list} {MODULE}"));
    let _ = js_sys::Reflect::set(&gloo::utils::window(), &STARTED.into(), &list.into());
}

/// The window property holding, by module name, the function that starts
/// a module again after it gave the page up (each partial module offers
/// its own as it starts: `super::boot`).
pub const RESTART: &str = "patchlabRestart";

/// Offers `restart` as this build's way to start again.
pub fn offer_restart(restart: &wasm_bindgen::JsValue) {
    let window = gloo::utils::window();
    let table = js_sys::Reflect::get(&window, &RESTART.into())
        .ok()
        .filter(wasm_bindgen::JsValue::is_object)
        .unwrap_or_else(|| {
            let table: wasm_bindgen::JsValue = js_sys::Object::new().into();
            let _ = js_sys::Reflect::set(&window, &RESTART.into(), &table);
            table
        });
    let _ = js_sys::Reflect::set(&table, &MODULE.into(), restart);
}

/// Starts `module` again (it ran in this page and gave it up); false when
/// it offered no way to.
#[cfg(not(module = "all"))]
pub fn restart(module: &str) -> bool {
    use wasm_bindgen::JsCast;
    js_sys::Reflect::get(&gloo::utils::window(), &RESTART.into())
        .ok()
        .filter(wasm_bindgen::JsValue::is_object)
        .and_then(|table| js_sys::Reflect::get(&table, &module.into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|f| f.call0(&wasm_bindgen::JsValue::NULL).is_ok())
}
