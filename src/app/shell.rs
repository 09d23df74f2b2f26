//! The page frame: header, navigation among the views, footer.

use gloo::events::EventListener;
use yew::prelude::*;

use super::route::{Route, View};

fn current_route() -> Route {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    Route::parse(&hash)
}

/// The whole playground.
#[component]
pub fn App() -> Html {
    let route = use_state(current_route);
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                route.set(current_route())
            });
            move || drop(listener)
        });
    }
    let view = route.view;
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
                </div>
                <Nav current={view} />
            </header>
            <main id="main" class="main" tabindex="-1">
                <Placeholder {view} />
            </main>
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
            if let Ok(main) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(main) {
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
struct PlaceholderProps {
    view: View,
}

/// A view that is not built yet says, in one line, what it will do.
#[component]
fn Placeholder(props: &PlaceholderProps) -> Html {
    let view = props.view;
    html! {
        <section class="view placeholder" aria-labelledby="view-title">
            <h1 id="view-title">{ view.title() }</h1>
            <p class="summary">{ view.summary() }</p>
            <p class="status">{ "This view is not built yet." }</p>
        </section>
    }
}

/// Mounts the playground on the page. Installs a panic hook first, so a bug
/// shows up in the console instead of a silent abort.
pub fn start() {
    console_error_panic_hook::set_once();
    yew::Renderer::<App>::new().render();
}
