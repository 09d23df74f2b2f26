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
        ..patchlab::sim::migrate::MigrateOptions::default()
    };
    let result = patchlab::sim::migrate::migrate(&options).expect("runs");
    assert_eq!(serde_json::to_value(&result).expect("serializes"), golden);
}

fn element<T: JsCast>(root: &Element, selector: &str) -> T {
    root.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .dyn_into::<T>()
        .unwrap_or_else(|_| panic!("{selector} has another type"))
}

fn texts(root: &Element, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).expect("valid selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

/// The Build view in a real browser: the first visit's columns, then a
/// preset change and an edit that breaks the YAML.
#[wasm_bindgen_test]
async fn build_view_columns_react_to_presets_and_edits() {
    if let Ok(Some(storage)) = gloo::utils::window().local_storage() {
        let _ = storage.clear();
    }
    let root = mount_point("#/build");
    yew::Renderer::<patchlab::app::App>::with_root(root.clone()).render();
    settle().await;

    assert_eq!(
        texts(&root, "[aria-label^='Column 1'] .op-kind"),
        ["test", "replace"]
    );
    assert_eq!(texts(&root, "[aria-label^='Column 2'] .op-kind"), ["add"]);

    let select: web_sys::HtmlSelectElement =
        element(&root, "select[aria-label='Preset for column 2']");
    select.set_value("naive");
    select
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    settle().await;
    assert_eq!(
        texts(&root, "[aria-label^='Column 2'] .op-kind"),
        ["replace"]
    );

    let editor: web_sys::HtmlTextAreaElement = element(&root, "textarea[aria-label='New object']");
    editor.set_value("metadata:\n  labels: [\n");
    editor
        .dispatch_event(&web_sys::InputEvent::new("input").expect("event"))
        .expect("dispatch");
    settle().await;
    let error = text_of(&root, "#new-object-error");
    assert!(error.starts_with("line "), "{error}");
    assert_eq!(
        texts(&root, "[aria-label^='Column 2'] .op-kind"),
        ["replace"],
        "the last good result stays"
    );
    root.remove();
}

/// The banner the panic hook shows (a real panic cannot run here: it
/// leaves the instance panicking; the e2e suite crashes the release build).
#[wasm_bindgen_test]
fn the_crash_banner_offers_a_way_back_to_the_work() {
    mount_point("#/build?s=1.private-objects");
    patchlab::app::crash::show(
        "<img src=x id=injected> on purpose",
        Some("src/app/x.rs:1:2"),
    );
    // Shown once, however many panics follow.
    patchlab::app::crash::show("a second panic", None);

    let document = gloo::utils::document();
    assert_eq!(document.query_selector_all(".crash").unwrap().length(), 1);
    let banner = document
        .get_element_by_id("crash")
        .expect("the crash banner");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(text_of(&banner, "h2"), "patchlab hit a bug and stopped");
    let reload: Element = element(&banner, "p a");
    assert_eq!(
        reload.get_attribute("href").as_deref(),
        Some("?reload#/build?s=1.private-objects")
    );
    let report: web_sys::HtmlTextAreaElement = element(&banner, "textarea");
    assert!(report.read_only());
    let report = report.value();
    assert!(
        report.starts_with(&format!(
            "patchlab {} panicked at src/app/x.rs:1:2:\n<img src=x id=injected> on purpose\n",
            patchlab::VERSION
        )),
        "{report}"
    );
    assert!(report.contains("\nView: #/build\n"), "{report}");
    assert!(
        !report.contains("private-objects"),
        "the report leaves the state out"
    );
    assert!(
        document.get_element_by_id("injected").is_none(),
        "the message stays text"
    );
    banner.remove();
}

/// The Check view in a real browser: the first visit's finding on op 0,
/// its fix beside the patch, then an edit that is checked at once. The
/// Build view's kubevirt-main column carries the same warning.
#[wasm_bindgen_test]
async fn check_view_shows_findings_on_the_ops_and_the_fix() {
    if let Ok(Some(storage)) = gloo::utils::window().local_storage() {
        let _ = storage.clear();
    }
    let root = mount_point("#/check");
    yew::Renderer::<patchlab::app::App>::with_root(root.clone()).render();
    settle().await;

    assert_eq!(text_of(&root, "h1"), "Check");
    assert_eq!(text_of(&root, "nav a[aria-current='page']"), "Check");
    assert_eq!(texts(&root, ".check-ops .op-index"), ["op 0", "op 1"]);
    assert_eq!(
        texts(&root, ".check-ops .op .rule"),
        ["whole-map-test"],
        "one finding, on op 0"
    );
    assert_eq!(text_of(&root, ".counts strong"), "1 warning");

    let use_fix: HtmlElement = element(&root, "button.use-fix");
    use_fix.click();
    settle().await;
    assert!(text_of(&root, "#fix-title").contains("whole-map-test"));
    assert_eq!(
        texts(&root, ".fix-panel .side:last-child .diff-add").len(),
        1,
        "the per-key add"
    );
    assert_eq!(
        gloo::utils::document()
            .active_element()
            .and_then(|e| e.get_attribute("id"))
            .as_deref(),
        Some("fix-title"),
        "focus moves to the fix"
    );

    let editor: web_sys::HtmlTextAreaElement = element(&root, "textarea#check-patch");
    editor.set_value(r#"[{"op":"remove","path":"/metadata/finalizers/1"}]"#);
    editor
        .dispatch_event(&web_sys::InputEvent::new("input").expect("event"))
        .expect("dispatch");
    settle().await;
    assert_eq!(texts(&root, ".check-ops .op .rule"), ["index-without-test"]);
    assert!(
        root.query_selector(".fix-panel").unwrap().is_none(),
        "the fix shown was for a finding that is gone"
    );

    let build: HtmlElement = element(&root, "nav a[href='#/build']");
    build.click();
    settle().await;
    assert_eq!(
        texts(&root, "[aria-label^='Column 1'] .rule"),
        ["whole-map-test"]
    );
    root.remove();
}
