//! Starting the playground, and handing the page over. One app, a module
//! per view (`src/lib.rs`, the table of builds): the page module holds the
//! shell and Build, the Learn module the shell and Learn, and so on. The
//! boot script starts the one a visit's route needs. A module without a
//! view fetches the one that has it when the user opens it
//! ([`super::modules`]): that one takes the page over as it starts
//! ([`start`]), and the module gives it up (its app is destroyed, its root
//! removed; its instance stays, and it mounts again when its view opens
//! later).
//!
//! Two never render at the same time: each Yew instance numbers its
//! elements' listeners on its own, so two apps in one tree would take each
//! other's events. Work is never lost in the change: every view keeps its
//! state in the link and in storage, written when it changes and when the
//! view ends (`use_link_sync`).

use std::cell::{Cell, RefCell};

use gloo::events::EventListener;

use super::shell::{crash_on_purpose, App};

/// The element the app mounts on (made fresh by each mount).
pub const ROOT_ID: &str = "app";
/// Sent by every module as it starts: a module that runs gives the page up.
pub const HANDOFF_EVENT: &str = "patchlab:handoff";

thread_local! {
    static HANDLE: RefCell<Option<yew::AppHandle<App>>> = const { RefCell::new(None) };
    static HANDED_OVER: Cell<bool> = const { Cell::new(false) };
    /// Whether this module listens for [`HANDOFF_EVENT`] (once per page).
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// True once this module gave the page to another.
pub fn handed_over() -> bool {
    HANDED_OVER.with(Cell::get)
}

/// Mounts the playground on the page, after asking a module that runs (if
/// one does) to give the page up. Installs a panic hook first, so a bug
/// shows a banner (with a way back to the work) instead of a dead page.
///
/// In a module that holds some of the views (not `module = "all"`), the app
/// gives the page up in turn when another module starts, and offers a way
/// to start it again.
pub fn start() {
    take_page();
    super::started::record();
    super::crash::install();
    // `#/debug/panic` crashes the app on purpose, to see (and test) what a
    // bug looks like to the user in the very build that ships.
    let check = || crash_on_purpose(handed_over());
    EventListener::new(&gloo::utils::window(), "hashchange", move |_| check()).forget();
    gloo::timers::callback::Timeout::new(0, check).forget();
    mount();
    if cfg!(not(module = "all")) {
        offer_restart();
    }
}

/// Asks the module that runs (if one does) to give the page up.
fn take_page() {
    if let Ok(event) = web_sys::Event::new(HANDOFF_EVENT) {
        let _ = gloo::utils::window().dispatch_event(&event);
    }
}

/// Lets another module start this one again once it gave the page up
/// ([`super::started::restart`]): its instance, its memory and its workers
/// stay in the page, so it mounts a fresh app without fetching anything.
fn offer_restart() {
    let restart = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
        // In a task of its own: the caller is another module's app, in the
        // middle of its own work, and taking the page destroys that app.
        gloo::timers::callback::Timeout::new(0, || {
            if handed_over() {
                take_page();
                HANDED_OVER.with(|h| h.set(false));
                super::started::record();
                mount();
            }
        })
        .forget();
    });
    super::started::offer_restart(restart.as_ref());
    restart.forget();
}

/// Mounts [`App`] (see [`mount_now`]); in a view's module, once the
/// browser has unpacked the states the view opens with (the module has
/// no inflater: [`super::link::unpack_start`]).
fn mount() {
    if cfg!(not(module = "all")) {
        listen_for_handoff();
    }
    // (Learn's module has no packed state to open.)
    #[cfg(not(any(module = "all", module = "learn")))]
    wasm_bindgen_futures::spawn_local(async {
        // Until the address stops changing under the unpacking (a link
        // pasted, Back pressed meanwhile).
        let address = || gloo::utils::window().location().hash().unwrap_or_default();
        let mut unpacked = None;
        while unpacked.as_ref() != Some(&address()) {
            unpacked = Some(address());
            super::link::unpack_start().await;
        }
        // Another module took the page meanwhile: it is its now.
        if !handed_over() {
            mount_now();
        }
    });
    #[cfg(any(module = "all", module = "learn"))]
    mount_now();
}

/// In a module with some of the views: gives the page up when another
/// module starts (listening from before this one mounts: outside Yew,
/// the listener outlives the app it destroys). Once per page.
fn listen_for_handoff() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    EventListener::new(&gloo::utils::window(), HANDOFF_EVENT, |_| {
        HANDED_OVER.with(|h| h.set(true));
        if let Some(handle) = HANDLE.with(|h| h.borrow_mut().take()) {
            handle.destroy();
        }
    })
    .forget();
}

/// Mounts [`App`] on a fresh `#app` at the start of `<body>`; in a module
/// with some of the views, keeps its handle for [`listen_for_handoff`].
fn mount_now() {
    let document = gloo::utils::document();
    let mut caret = None;
    if let Some(old) = document.get_element_by_id(ROOT_ID) {
        // The pre-rendered Build view: what was typed into its editors is
        // what the Build view opens with. (Only a visit to Build shows it,
        // and only a module with Build boots there: the others drop it
        // unread, and carry neither Build's examples nor their reader.)
        if cfg!(holds = "build") && old.has_attribute("data-prerendered") {
            caret = super::build::preview::adopt(&old);
        }
        old.remove();
    }
    let (Ok(root), Some(body)) = (document.create_element("div"), document.body()) else {
        web_sys::console::error_1(&"patchlab: no document body to mount on".into());
        return;
    };
    root.set_id(ROOT_ID);
    let _ = body.prepend_with_node_1(&root);
    let handle = yew::Renderer::<App>::with_root(root).render();
    // The app renders in a later task: `restore` waits for its editor.
    if let Some(caret) = caret {
        caret.restore();
    }
    if cfg!(not(module = "all")) {
        HANDLE.with(|h| *h.borrow_mut() = Some(handle));
    }
}
