//! The page frame: header, navigation among the views, theme switch,
//! keyboard help, footer.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::browser;
use super::build_view::BuildView;
use super::learn_view::LearnView;
use super::race_view::RaceView;
use super::route::{Route, View};
use super::scale_view::ScaleView;
use super::theme::Theme;

const THEME_KEY: &str = "patchlab.theme";

fn current_route() -> Route {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    Route::parse(&hash)
}

/// The whole playground.
#[component]
pub fn App() -> Html {
    let route = use_state(current_route);
    let theme = use_state(|| Theme::parse(&browser::load(THEME_KEY).unwrap_or_default()));
    let help = use_state(|| false);
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                route.set(current_route())
            });
            move || drop(listener)
        });
    }
    use_effect_with(*theme, |theme| {
        browser::apply_theme(theme.attribute());
        let _ = browser::save(THEME_KEY, theme.as_str());
    });
    {
        let help = help.clone();
        let theme = theme.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::document(), "keydown", move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if event.key() == "Escape" {
                    help.set(false);
                } else if event.key() == "?" && !browser::typing() {
                    event.prevent_default();
                    help.set(!*help);
                } else if event.alt_key() && event.code() == "KeyT" {
                    event.prevent_default();
                    theme.set(theme.next());
                }
            });
            move || drop(listener)
        });
    }
    let view = route.view;
    let cycle_theme = {
        let theme = theme.clone();
        Callback::from(move |_: MouseEvent| theme.set(theme.next()))
    };
    let toggle_help = {
        let help = help.clone();
        Callback::from(move |_: MouseEvent| help.set(!*help))
    };
    html! {
        <div class="shell">
            <a class="skip-link" href="#main" onclick={skip_to_main()}>{ "Skip to content" }</a>
            <header class="site-header">
                <div class="brand-row">
                    <a class="brand" href={View::Build.href()}>
                        <span class="brand-mark" aria-hidden="true">{ "{ }" }</span>
                        <span class="brand-name">{ "patchlab" }</span>
                    </a>
                    <p class="tagline">
                        { "Conflict-narrow Kubernetes JSON Patches: what each strategy sends, tests and risks." }
                    </p>
                    <span class="spacer"></span>
                    <button type="button" class="link" onclick={toggle_help} aria-expanded={help.to_string()} title="?">{ "Keyboard shortcuts" }</button>
                    <button type="button" class="theme-switch" onclick={cycle_theme} title="Alt+T">{ theme.label() }</button>
                </div>
                <Nav current={view} />
            </header>
            <main id="main" class="main" tabindex="-1">
                { match view {
                    View::Build => html! { <BuildView query={AttrValue::from(route.query.clone())} /> },
                    View::Race => html! { <RaceView query={AttrValue::from(route.query.clone())} /> },
                    View::Scale => html! { <ScaleView /> },
                    View::Learn => html! { <LearnView query={AttrValue::from(route.query.clone())} /> },
                } }
            </main>
            if *help {
                <Help onclose={{ let help = help.clone(); Callback::from(move |_| help.set(false)) }} />
            }
            <footer class="site-footer">
                <span>{ format!("patchlab v{}", crate::VERSION) }</span>
                <span aria-hidden="true">{ " · " }</span>
                <a href={crate::SOURCE_URL} rel="noopener">{ "Source" }</a>
                <span aria-hidden="true">{ " · " }</span>
                <span>{ "Runs entirely in your browser; nothing is sent anywhere." }</span>
            </footer>
        </div>
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

#[derive(PartialEq, Properties)]
struct NavProps {
    current: View,
}

#[component]
fn Nav(props: &NavProps) -> Html {
    html! {
        <nav class="views" aria-label="Views">
            <ul>
                { for View::ALL.into_iter().map(|view| {
                    let current = (view == props.current).then_some("page");
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

#[derive(PartialEq, Properties)]
struct HelpProps {
    onclose: Callback<()>,
}

const SHORTCUTS: [(&str, &str); 9] = [
    ("?", "Show or hide this list"),
    ("Esc", "Close this list"),
    ("Alt+S", "Swap old and new"),
    ("Alt+F", "Format both editors"),
    ("Alt+Z", "Undo the last reset or example load"),
    ("Alt+L", "Copy a link to this state"),
    ("Alt+1 … Alt+6", "Copy the payload of column 1 … 6"),
    ("Alt+T", "Switch theme: system, light, dark"),
    (
        "Tab in an editor",
        "Insert two spaces (Esc first to move focus on)",
    ),
];

#[component]
fn Help(props: &HelpProps) -> Html {
    let close = props.onclose.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title">
            <div class="dialog">
                <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
                <table>
                    <tbody>
                        { for SHORTCUTS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
                <button type="button" class="primary" onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}

/// Mounts the playground on the page. Installs a panic hook first, so a bug
/// shows a banner (with a way back to the work) instead of a dead page.
pub fn start() {
    super::crash::install();
    // `#/debug/panic` crashes the app on purpose, to see (and test) what a
    // bug looks like to the user in the very build that ships.
    let panic_on_purpose = || {
        let hash = gloo::utils::window().location().hash().unwrap_or_default();
        if hash == super::crash::PANIC_ROUTE {
            panic!("a panic on purpose ({hash})");
        }
    };
    EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
        panic_on_purpose()
    })
    .forget();
    gloo::timers::callback::Timeout::new(0, panic_on_purpose).forget();
    yew::Renderer::<App>::new().render();
}
