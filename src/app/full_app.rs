//! Fetching the full app from the page module (docs/performance.md, "First
//! load"): in place of a view the page module does not have, [`Loading`]
//! fetches the full app's glue and loader, says so, and says why when it
//! fails. The full app then takes the page over ([`super::boot`]).

use std::cell::Cell;

use gloo::events::EventListener;
use yew::prelude::*;

/// Sent by `views_loader.js` when the full app could not start.
pub const FAILED_EVENT: &str = "patchlab:views-failed";

thread_local! {
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
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
