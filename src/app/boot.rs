//! Starting the playground, and handing the page over. One app, two builds
//! (docs/performance.md, "First load"): the page module (the `patchlab`
//! binary with feature `build-only`) holds the shell and the Build view,
//! what a first visit to Build downloads. The full app (the `views` binary:
//! every view) is what a visit to Check, Race, Scale or Learn starts with,
//! and what the page module fetches when the user opens one of those views
//! ([`super::full_app`]): it then takes the page over ([`take_over`]), and
//! the page module gives it up (its app is destroyed, its root removed).
//!
//! The two never render at the same time: each Yew instance numbers its
//! elements' listeners on its own, so two apps in one tree would take each
//! other's events. Work is never lost in the change: every view keeps its
//! state in the link and in storage, written when it changes and when the
//! view ends (`use_link_sync`).

use std::cell::{Cell, RefCell};

use gloo::events::EventListener;

use super::shell::{crash_on_purpose, App};

/// The element the app mounts on (made fresh by each mount).
pub const ROOT_ID: &str = "app";
/// Sent by the full app as it starts: the page module gives the page up.
pub const HANDOFF_EVENT: &str = "patchlab:handoff";

thread_local! {
    static HANDLE: RefCell<Option<yew::AppHandle<App>>> = const { RefCell::new(None) };
    static HANDED_OVER: Cell<bool> = const { Cell::new(false) };
}

/// True once this module gave the page to the full app.
pub fn handed_over() -> bool {
    HANDED_OVER.with(Cell::get)
}

/// Mounts the playground on the page. Installs a panic hook first, so a bug
/// shows a banner (with a way back to the work) instead of a dead page.
///
/// In the page module (feature `build-only`), the app gives the page up to
/// the full app when that one starts.
pub fn start() {
    super::crash::install();
    // `#/debug/panic` crashes the app on purpose, to see (and test) what a
    // bug looks like to the user in the very build that ships.
    let check = || crash_on_purpose(handed_over());
    EventListener::new(&gloo::utils::window(), "hashchange", move |_| check()).forget();
    gloo::timers::callback::Timeout::new(0, check).forget();
    mount();
}

/// Mounts [`App`] on a fresh `#app` at the start of `<body>`. In the page
/// module, also listens for the full app's [`HANDOFF_EVENT`] (outside Yew:
/// the listener must outlive the app it destroys).
fn mount() {
    let document = gloo::utils::document();
    let mut caret = None;
    if let Some(old) = document.get_element_by_id(ROOT_ID) {
        // The pre-rendered Build view: what was typed into its editors is
        // what the Build view opens with.
        if old.has_attribute("data-prerendered") {
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
    if cfg!(feature = "build-only") {
        HANDLE.with(|h| *h.borrow_mut() = Some(handle));
        EventListener::new(&gloo::utils::window(), HANDOFF_EVENT, |_| {
            HANDED_OVER.with(|h| h.set(true));
            if let Some(handle) = HANDLE.with(|h| h.borrow_mut().take()) {
                handle.destroy();
            }
        })
        .forget();
    }
}

/// The full app's entry point: asks the page module (if it runs) to give
/// up the page, then starts like the page module does.
pub fn take_over() {
    if let Ok(event) = web_sys::Event::new(HANDOFF_EVENT) {
        let _ = gloo::utils::window().dispatch_event(&event);
    }
    start();
}
