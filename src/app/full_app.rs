//! Fetching the module that holds a view this one does not
//! (docs/performance.md, "First load"): in place of the view, [`Loading`]
//! starts that module, says so, and says why when it fails. The module then
//! takes the page over ([`super::boot`]).
//!
//! - Build: the page module, through the boot script's
//!   `patchlabStartPage` (its file names carry a hash only the boot script
//!   knows; it also starts the engines).
//! - Learn: the Learn module (`learn.js`, `learn_loader.js`).
//! - Scale: the Scale module (`scale.js`, `scale_loader.js`).
//! - Race: the Race module (`race.js`, `race_loader.js`).
//! - Check: the full app (`views.js`, `views_loader.js`).
//!
//! A module that ran in this page and gave it up cannot start again: the
//! full app, which holds every view, is fetched in its place.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::route::View;

/// Sent by a module's loader when the module could not start.
pub const FAILED_EVENT: &str = "patchlab:views-failed";
/// The boot script's function that starts the page module (a promise).
const START_PAGE: &str = "patchlabStartPage";

/// The module that holds a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Module {
    Page,
    Learn,
    Scale,
    Race,
    Full,
}

impl Module {
    /// The module to start for `view`: the full app in place of one that
    /// ran in this page and gave it up (it cannot start again).
    fn holding(view: Option<View>) -> Module {
        let module = match view {
            Some(View::Build) => Module::Page,
            Some(View::Learn) => Module::Learn,
            Some(View::Scale) => Module::Scale,
            Some(View::Race) => Module::Race,
            _ => Module::Full,
        };
        match module.name() {
            Some(name) if super::started::started(name) => Module::Full,
            _ => module,
        }
    }

    /// Its name in [`super::started`] (the full app never gives the page
    /// up).
    fn name(self) -> Option<&'static str> {
        use super::started::{LEARN, PAGE, RACE, SCALE};
        match self {
            Module::Page => Some(PAGE),
            Module::Learn => Some(LEARN),
            Module::Scale => Some(SCALE),
            Module::Race => Some(RACE),
            Module::Full => None,
        }
    }

    /// Its glue and loader, added as scripts (not the page module).
    fn scripts(self) -> (&'static str, &'static str) {
        match self {
            Module::Learn => ("./learn.js", "./learn_loader.js"),
            Module::Scale => ("./scale.js", "./scale_loader.js"),
            Module::Race => ("./race.js", "./race_loader.js"),
            _ => ("./views.js", "./views_loader.js"),
        }
    }
}

/// Starts `module`, once: the page module through the boot script (which
/// starts it once), the others by adding their glue and, once it ran, their
/// loader (scripts from this origin only, as the CSP allows), unless the
/// page already has that glue (asked for by this module or by one before
/// it: a glue runs once per page). A glue that failed to load is removed,
/// so that asking again retries.
fn start(module: Module, failed: Callback<String>) {
    let failed = move |why: String| failed.emit(why);
    if module == Module::Page {
        let started = js_sys::Reflect::get(&gloo::utils::window(), &START_PAGE.into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call0(&wasm_bindgen::JsValue::NULL).ok())
            .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
        let Some(started) = started else {
            failed("this page has no boot script to start it".to_owned());
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(error) = wasm_bindgen_futures::JsFuture::from(started).await {
                failed(
                    error
                        .dyn_ref::<js_sys::Error>()
                        .map_or_else(|| format!("{error:?}"), |e| String::from(e.message())),
                );
            }
        });
        return;
    }
    let (glue_src, loader_src) = module.scripts();
    let document = gloo::utils::document();
    if let Ok(Some(_)) = document.query_selector(&format!("script[src=\"{glue_src}\"]")) {
        return;
    }
    let script = |src: &str| {
        document
            .create_element("script")
            .ok()
            .and_then(|e| e.dyn_into::<web_sys::HtmlScriptElement>().ok())
            .inspect(|s| s.set_src(src))
    };
    let (Some(glue), Some(loader), Some(head)) =
        (script(glue_src), script(loader_src), document.head())
    else {
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
        let element = glue.clone();
        EventListener::once(&glue, "error", move |_| {
            element.remove();
            failed(format!("{glue_src} did not load"));
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
    pub view: Option<View>,
}

/// In place of a view this module does not hold: starts the module that
/// holds it (which then takes the page over) and says so, or why not.
#[component]
pub fn Loading(props: &LoadingProps) -> Html {
    let failure = use_state(|| None::<String>);
    {
        let failure = failure.clone();
        use_effect_with(props.view, move |view| {
            failure.set(None);
            let onfailed = {
                let failure = failure.clone();
                Callback::from(move |why| failure.set(Some(why)))
            };
            let listener = {
                let onfailed = onfailed.clone();
                EventListener::new(&gloo::utils::window(), FAILED_EVENT, move |event| {
                    let why = event
                        .dyn_ref::<web_sys::CustomEvent>()
                        .and_then(|e| e.detail().as_string())
                        .unwrap_or_default();
                    onfailed.emit(why);
                })
            };
            start(Module::holding(*view), onfailed);
            move || drop(listener)
        });
    }
    let name = props.view.map_or("this view", View::title);
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
