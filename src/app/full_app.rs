//! One app, two builds (docs/performance.md, "First load"). The page module
//! (the `patchlab` binary with feature `build-only`) holds the shell and the
//! Build view: what a first visit to Build downloads. The full app (the
//! `views` binary: every view) is what a visit to Check, Race, Scale or
//! Learn starts with, and what the page module fetches when the user opens
//! one of those views: it then takes the page over ([`take_over`]), and the
//! page module gives it up (its app is destroyed, its root removed).
//!
//! The two never render at the same time: each Yew instance numbers its
//! elements' listeners on its own, so two apps in one tree would take each
//! other's events. Work is never lost in the change: every view keeps its
//! state in the link and in storage, written when it changes and when the
//! view ends (`use_link_sync`).

use std::cell::{Cell, RefCell};

use gloo::events::EventListener;
use yew::prelude::*;

use super::shell::App;

/// The element the app mounts on (made fresh by each mount).
pub const ROOT_ID: &str = "app";
/// Sent by the full app as it starts: the page module gives the page up.
pub const HANDOFF_EVENT: &str = "patchlab:handoff";
/// Sent by `views_loader.js` when the full app could not start.
pub const FAILED_EVENT: &str = "patchlab:views-failed";

thread_local! {
    static HANDLE: RefCell<Option<yew::AppHandle<App>>> = const { RefCell::new(None) };
    static HANDED_OVER: Cell<bool> = const { Cell::new(false) };
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
}

/// True once this module gave the page to the full app.
pub fn handed_over() -> bool {
    HANDED_OVER.with(Cell::get)
}

/// Mounts [`App`] on a fresh `#app` at the start of `<body>`. In the page
/// module, also listens for the full app's [`HANDOFF_EVENT`] (outside Yew:
/// the listener must outlive the app it destroys).
pub fn mount() {
    let document = gloo::utils::document();
    if let Some(old) = document.get_element_by_id(ROOT_ID) {
        old.remove();
    }
    let (Ok(root), Some(body)) = (document.create_element("div"), document.body()) else {
        web_sys::console::error_1(&"patchlab: no document body to mount on".into());
        return;
    };
    root.set_id(ROOT_ID);
    let _ = body.prepend_with_node_1(&root);
    let handle = yew::Renderer::<App>::with_root(root).render();
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
    super::shell::start();
}

/// Adds the full app's glue and, once it ran, its loader (`index.html`
/// copies `www/views_loader.js`); scripts from this origin only, as the CSP
/// allows. At most once, unless it failed.
fn fetch_full_app(onfailed: Callback<String>) {
    if REQUESTED.with(|r| r.replace(true)) {
        return;
    }
    let failed = move |why: String| {
        REQUESTED.with(|r| r.set(false));
        onfailed.emit(why);
    };
    let document = gloo::utils::document();
    let script = |src: &str| {
        document
            .create_element("script")
            .ok()
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlScriptElement>(e).ok())
            .inspect(|s| s.set_src(src))
    };
    let (Some(glue), Some(loader), Some(head)) = (
        script("./views.js"),
        script("./views_loader.js"),
        document.head(),
    ) else {
        failed("the page refused a script element".to_owned());
        return;
    };
    {
        let head = head.clone();
        EventListener::once(&glue, "load", move |_| {
            let _ = head.append_child(&loader);
        })
        .forget();
    }
    {
        let failed = failed.clone();
        EventListener::once(&glue, "error", move |_| {
            failed("./views.js did not load".to_owned())
        })
        .forget();
    }
    if head.append_child(&glue).is_err() {
        failed("the page refused the script".to_owned());
    }
}

/// What [`Loading`] shows.
#[derive(PartialEq, Properties)]
pub struct LoadingProps {
    /// The view asked for.
    pub view: Option<super::route::View>,
}

/// In the page module, in place of a view it does not have: fetches the
/// full app (which then takes the page over) and says so, or why not.
#[component]
pub fn Loading(props: &LoadingProps) -> Html {
    let failure = use_state(|| None::<String>);
    {
        let failure = failure.clone();
        use_effect_with((), move |_| {
            let onfailed = {
                let failure = failure.clone();
                Callback::from(move |why| failure.set(Some(why)))
            };
            let listener = {
                let onfailed = onfailed.clone();
                EventListener::new(&gloo::utils::window(), FAILED_EVENT, move |event| {
                    let why = wasm_bindgen::JsCast::dyn_ref::<web_sys::CustomEvent>(event)
                        .and_then(|e| e.detail().as_string())
                        .unwrap_or_default();
                    REQUESTED.with(|r| r.set(false));
                    onfailed.emit(why);
                })
            };
            fetch_full_app(onfailed);
            move || drop(listener)
        });
    }
    let name = props.view.map_or("this view", super::route::View::title);
    html! {
        <section class="view module-loading" aria-labelledby="view-title">
            <h1 id="view-title">{ name }</h1>
            if let Some(why) = &*failure {
                <p class="parse-error" role="alert">{ format!("{name} could not be loaded ({why}). Check the connection and reload the page; your work is kept.") }</p>
            } else {
                <p class="muted" role="status">{ format!("Loading {name}…") }</p>
            }
        </section>
    }
}
