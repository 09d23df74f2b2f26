//! The page frame: header, navigation among the views, theme switch, the
//! shortcuts dialog, the glossary, footer.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::browser;
#[cfg(holds = "build")]
use super::build::BuildView;
#[cfg(holds = "check")]
use super::check::CheckView;
use super::components::{glossary_dialog, Dialog, GlossaryContext, GlossaryDialogProps};
use super::hooks::{use_shortcuts, ShortcutSettings};
#[cfg(holds = "learn")]
use super::learn::LearnView;
#[cfg(holds = "race")]
use super::race::RaceView;
use super::route::{Route, View};
#[cfg(holds = "scale")]
use super::scale::ScaleView;
use super::shortcuts::{Shortcut, EDITOR_KEYS};
use super::theme::Theme;
use crate::vocabulary::Term;

const THEME_KEY: &str = "patchlab.theme";
const SHORTCUTS_KEY: &str = "patchlab.shortcuts";

fn current_route() -> Route {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    Route::parse(&hash)
}

/// Which dialog is open.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Open {
    None,
    Shortcuts,
    Glossary(Option<Term>),
}

/// The whole playground.
#[component]
pub fn App() -> Html {
    let route = use_route();
    let theme = use_state(|| Theme::parse(&browser::load(THEME_KEY).unwrap_or_default()));
    let settings = use_state(|| ShortcutSettings {
        enabled: browser::load(SHORTCUTS_KEY).as_deref() != Some("off"),
    });
    let open = use_state(|| Open::None);
    use_effect_with(*theme, |theme| {
        browser::apply_theme(theme.attribute());
        let _ = browser::save(THEME_KEY, theme.as_str());
    });
    let view = route.view();
    {
        let (open, theme) = (open.clone(), theme.clone());
        use_shortcuts(
            view,
            Callback::from(move |shortcut| match shortcut {
                Shortcut::Help => open.set(if *open == Open::Shortcuts {
                    Open::None
                } else {
                    Open::Shortcuts
                }),
                Shortcut::Theme => theme.set(theme.next()),
                _ => {}
            }),
        );
    }
    let cycle_theme = {
        let theme = theme.clone();
        Callback::from(move |_: MouseEvent| theme.set(theme.next()))
    };
    let show = |what: Open| {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(what))
    };
    let close = {
        let open = open.clone();
        Callback::from(move |()| open.set(Open::None))
    };
    let glossary = GlossaryContext {
        open: {
            let open = open.clone();
            Callback::from(move |term| open.set(Open::Glossary(term)))
        },
    };
    let on_settings = {
        let settings = settings.clone();
        Callback::from(move |enabled: bool| {
            let _ = browser::save(SHORTCUTS_KEY, if enabled { "on" } else { "off" });
            settings.set(ShortcutSettings { enabled });
        })
    };
    html! {
        <ContextProvider<GlossaryContext> context={glossary}>
        <ContextProvider<ShortcutSettings> context={*settings}>
        <div class="shell">
            <a class="skip-link" href="#main" onclick={skip_to_main()}>{ "Skip to content" }</a>
            { header(&HeaderProps { view, theme: *theme, onglossary: show(Open::Glossary(None)), onshortcuts: show(Open::Shortcuts), ontheme: cycle_theme }) }
            <main id="main" class="main" tabindex="-1">
                { page(&route) }
            </main>
            { match *open {
                Open::None => html! {},
                Open::Shortcuts => help(&HelpProps { view, enabled: settings.enabled, onsettings: on_settings, onclose: close.clone() }),
                Open::Glossary(term) => glossary_dialog(&yew::props!(GlossaryDialogProps { term, onclose: close.clone() })),
            } }
            { footer() }
        </div>
        </ContextProvider<ShortcutSettings>>
        </ContextProvider<GlossaryContext>>
    }
}

/// The route of the address, followed as it changes.
#[hook]
fn use_route() -> UseStateHandle<Route> {
    let route = use_state(current_route);
    let handle = route.clone();
    use_effect_with((), move |_| {
        let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
            let next = current_route();
            // A view's module has no inflater: a link opened in the page
            // is unpacked by the browser before its route is taken.
            // (Learn's module opens no packed state: the view's does.)
            #[cfg(not(any(module = "all", module = "learn")))]
            {
                let route = handle.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some(packed) = next.packed() {
                        crate::app::link::unpack(packed).await;
                    }
                    // Unless another address came meanwhile (it has its own).
                    if current_route() == next {
                        route.set(next);
                    }
                });
            }
            #[cfg(any(module = "all", module = "learn"))]
            handle.set(next);
        });
        move || drop(listener)
    });
    route
}

/// The footer: the version, the source, and that nothing leaves the page.
fn footer() -> Html {
    html! {
        <footer class="site-footer">
            <span>{ format!("patchlab v{}", crate::VERSION) }</span>
            <span aria-hidden="true">{ " · " }</span>
            <a href={crate::SOURCE_URL} rel="noopener">{ "Source" }</a>
            <span aria-hidden="true">{ " · " }</span>
            <span>{ "Runs entirely in your browser; nothing is sent anywhere." }</span>
        </footer>
    }
}

/// The page of a route: its view, or (in a module without it) the loading
/// of the module that has it.
fn page(route: &Route) -> Html {
    match route {
        #[cfg(holds = "build")]
        Route::Build(packed) => {
            html! { <BuildView packed={packed.clone().map(AttrValue::from)} /> }
        }
        Route::NotFound(fragment) => not_found(fragment),
        #[cfg(holds = "check")]
        Route::Check(packed) => {
            html! { <CheckView packed={packed.clone().map(AttrValue::from)} /> }
        }
        #[cfg(holds = "race")]
        Route::Race(packed) => html! { <RaceView packed={packed.clone().map(AttrValue::from)} /> },
        #[cfg(holds = "scale")]
        Route::Scale(packed) => {
            html! { <ScaleView packed={packed.clone().map(AttrValue::from)} /> }
        }
        #[cfg(holds = "learn")]
        Route::Learn(at) => html! { <LearnView at={at.clone()} /> },
        #[cfg(not(module = "all"))]
        _ => html! { <super::modules::Loading view={route.view()} /> },
    }
}

/// Focuses `<main>` without touching the fragment, which holds the route.
fn skip_to_main() -> Callback<MouseEvent> {
    Callback::from(|event: MouseEvent| {
        event.prevent_default();
        if let Some(main) = gloo::utils::document().get_element_by_id("main") {
            if let Ok(main) = main.dyn_into::<web_sys::HtmlElement>() {
                let _ = main.focus();
            }
        }
    })
}

struct HeaderProps {
    view: Option<View>,
    theme: Theme,
    onglossary: Callback<MouseEvent>,
    onshortcuts: Callback<MouseEvent>,
    ontheme: Callback<MouseEvent>,
}

fn header(props: &HeaderProps) -> Html {
    html! {
        <header class="site-header">
            <a class="brand" href={View::Build.href()}>
                <span class="brand-mark" aria-hidden="true">{ "{ }" }</span>
                <span class="brand-name">{ "patchlab" }</span>
            </a>
            { nav(props.view) }
            <p class="tagline">
                { "Conflict-narrow Kubernetes JSON Patches: what each strategy sends, tests and risks." }
            </p>
            <div class="header-tools">
                <button type="button" class="link" onclick={props.onglossary.clone()}>{ "Glossary" }</button>
                <button type="button" class="link keys-link" onclick={props.onshortcuts.clone()}>
                    { "Keyboard shortcuts" }<kbd class="shortcut-hint" aria-hidden="true">{ "?" }</kbd>
                </button>
                <button type="button" class="theme-switch" onclick={props.ontheme.clone()}>
                    { props.theme.label() }<kbd class="shortcut-hint" aria-hidden="true">{ "t" }</kbd>
                </button>
            </div>
        </header>
    }
}

fn nav(current: Option<View>) -> Html {
    html! {
        <nav class="views" aria-label="Views">
            <ul>
                { for View::ALL.into_iter().map(|view| {
                    let current = (Some(view) == current).then_some("page");
                    html! {
                        <li>
                            <a href={view.href()} aria-current={current}>{ view.title() }</a>
                        </li>
                    }
                }) }
            </ul>
        </nav>
    }
}

/// A link to a page that does not exist: say so, and offer the views.
fn not_found(fragment: &str) -> Html {
    html! {
        <section class="view not-found" aria-labelledby="view-title">
            <h1 id="view-title">{ "No such page" }</h1>
            <p>{ "This link asks for " }<code>{ fragment.to_owned() }</code>{ ", which patchlab does not have. It may be mistyped, or come from a newer version." }</p>
            <ul class="view-list">
                { for View::ALL.into_iter().map(|view| html! {
                    <li><a href={view.href()}>{ view.title() }</a>{ ": " }{ view.summary() }</li>
                }) }
            </ul>
        </section>
    }
}

struct HelpProps {
    view: Option<View>,
    enabled: bool,
    onsettings: Callback<bool>,
    onclose: Callback<()>,
}

/// The keys of the current view, the editors' keys where there are
/// editors, and the switch for single-key shortcuts.
fn help(props: &HelpProps) -> Html {
    let title = match props.view {
        Some(view) => format!("Keyboard shortcuts: {}", view.title()),
        None => "Keyboard shortcuts".to_owned(),
    };
    let toggle = {
        let (enabled, onsettings) = (props.enabled, props.onsettings.clone());
        Callback::from(move |_: Event| onsettings.emit(!enabled))
    };
    html! {
        <Dialog title={title} onclose={props.onclose.clone()}>
            <p class="muted">{ "Single keys, when the focus is not in a text field." }</p>
            <table class="shortcuts">
                <tbody>
                    { for Shortcut::for_view(props.view).into_iter().map(|s| html! {
                        <tr><th scope="row"><kbd>{ s.keys() }</kbd></th><td>{ s.what() }</td></tr>
                    }) }
                </tbody>
            </table>
            if matches!(props.view, Some(View::Build | View::Check)) {
                <h3>{ "In a code editor" }</h3>
                <table class="shortcuts">
                    <tbody>
                        { for EDITOR_KEYS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
            }
            <label class="check">
                <input type="checkbox" checked={props.enabled} onchange={toggle} />
                { "Single-key shortcuts on (off: only ? works)" }
            </label>
        </Dialog>
    }
}

/// Crashes the app on purpose when the page shows `#/debug/panic` (and it
/// still holds the page: a page module that `handed_over` does nothing),
/// to see (and test) what a bug looks like in the very build that ships.
pub fn crash_on_purpose(handed_over: bool) {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    if hash == super::crash::PANIC_ROUTE && !handed_over {
        panic!("a panic on purpose ({hash})");
    }
}
