//! Browser tests: mount the playground in headless Chromium and use it.
//! Run with `cargo test --target wasm32-unknown-unknown` (see the Makefile).
#![cfg(target_arch = "wasm32")]

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element to mount into, and the page's fragment reset to `hash`.
fn mount_point(hash: &str) -> Element {
    let window = gloo::utils::window();
    window.location().set_hash(hash).expect("set hash");
    let document = gloo::utils::document();
    let root = document.create_element("div").expect("create div");
    document
        .body()
        .expect("body")
        .append_child(&root)
        .expect("append");
    root
}

/// Lets queued browser events (such as `hashchange`) run, then renders.
async fn settle() {
    TimeoutFuture::new(20).await;
    yew::scheduler::flush().await;
}

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn shell_renders_and_navigates_by_fragment() {
    let root = mount_point("#/build");
    yew::Renderer::<patchlab::app::App>::with_root(root.clone()).render();
    settle().await;

    assert_eq!(text_of(&root, ".brand-name"), "patchlab");
    assert_eq!(text_of(&root, "h1"), "Build");
    assert!(text_of(&root, "footer").contains(patchlab::VERSION));
    let current = text_of(&root, "nav a[aria-current='page']");
    assert_eq!(current, "Build");

    let race: HtmlElement = root
        .query_selector("nav a[href='#/race']")
        .expect("selector")
        .expect("a Race link")
        .dyn_into()
        .expect("an HTML element");
    race.click();
    settle().await;

    assert_eq!(gloo::utils::window().location().hash().unwrap(), "#/race");
    assert_eq!(text_of(&root, "h1"), "Race");
    assert_eq!(text_of(&root, "nav a[aria-current='page']"), "Race");
    assert!(text_of(&root, ".summary").contains("concurrent writers"));
    root.remove();
}

/// The mass migration gives the same numbers in wasm as natively: the golden
/// file was written by the native CLI (`patchlab migrate --vms 50 --seed 3
/// --format json`) and a native test checks it too.
#[wasm_bindgen_test]
fn migrate_is_deterministic_across_platforms() {
    let golden: serde_json::Value =
        serde_json::from_str(include_str!("golden/migrate-50-seed-3.json")).expect("golden JSON");
    let options = patchlab::sim::migrate::MigrateOptions {
        vms: 50,
        seed: 3,
        presets: Vec::new(),
    };
    let result = patchlab::sim::migrate::migrate(&options).expect("runs");
    assert_eq!(serde_json::to_value(&result).expect("serializes"), golden);
}
