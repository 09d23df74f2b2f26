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
//! - Check: the Check module (`check.js`, `check_loader.js`).
//!
//! A module that ran in this page and gave it up is started again from
//! what the page holds ([`super::started::restart`]): each module is
//! fetched at most once per page.

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
    Check,
}

impl Module {
    /// The module that holds `view` (the page module for an unknown one:
    /// it holds Build, where an unknown route leads).
    fn holding(view: Option<View>) -> Module {
        match view {
            Some(View::Build) | None => Module::Page,
            Some(View::Learn) => Module::Learn,
            Some(View::Scale) => Module::Scale,
            Some(View::Race) => Module::Race,
            Some(View::Check) => Module::Check,
        }
    }

    /// Its name in [`super::started`].
    fn name(self) -> &'static str {
        use super::started::{CHECK, LEARN, PAGE, RACE, SCALE};
        match self {
            Module::Page => PAGE,
            Module::Learn => LEARN,
            Module::Scale => SCALE,
            Module::Race => RACE,
            Module::Check => CHECK,
        }
    }

    /// Its glue and loader, added as scripts; none for the page module,
    /// which the boot script starts.
    fn scripts(self) -> Option<(&'static str, &'static str)> {
        match self {
            Module::Page => None,
            Module::Learn => Some(("./learn.js", "./learn_loader.js")),
            Module::Scale => Some(("./scale.js", "./scale_loader.js")),
            Module::Race => Some(("./race.js", "./race_loader.js")),
            Module::Check => Some(("./check.js", "./check_loader.js")),
        }
    }
}

/// Starts `module`: again, if it ran in this page and gave it up (its
/// instance is still here); else the page module through the boot script
/// (which starts it once), the others by adding their glue and, once it
/// ran, their loader (scripts from this origin only, as the CSP allows),
/// unless the page already has that glue (asked for by this module or by
/// one before it: a glue runs once per page). A glue that failed to load
/// is removed, so that asking again retries.
fn start(module: Module, failed: Callback<String>) {
    let failed = move |why: String| failed.emit(why);
    if super::started::started(module.name()) {
        if !super::started::restart(module.name()) {
            failed("it ran in this page and cannot start again".to_owned());
        }
        return;
    }
    // The page module: through the boot script.
    let Some((glue_src, loader_src)) = module.scripts() else {
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
    };
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
