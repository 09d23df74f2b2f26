//! The few browser services the playground uses, each failing softly:
//! storage that may be full or missing, the clipboard, the URL.

use wasm_bindgen::JsCast;
use web_sys::Storage;

fn storage() -> Option<Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// Reads a key from localStorage; `None` when absent or unavailable.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Writes a key to localStorage.
///
/// # Errors
///
/// A message when storage is unavailable (private mode) or full.
pub fn save(key: &str, value: &str) -> Result<(), String> {
    let storage = storage().ok_or_else(|| "browser storage is unavailable".to_owned())?;
    storage
        .set_item(key, value)
        .map_err(|_| "browser storage is full or refused the write".to_owned())
}

/// Replaces the URL fragment without a history entry or a `hashchange`.
pub fn replace_fragment(fragment: &str) {
    let window = gloo::utils::window();
    let current = window.location().hash().unwrap_or_default();
    if current == fragment {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(fragment));
    }
}

/// The page's URL with `fragment`, for sharing.
pub fn url_with(fragment: &str) -> String {
    let location = gloo::utils::window().location();
    let base = location.href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}{fragment}")
}

/// Copies text to the clipboard.
///
/// # Errors
///
/// A message when the browser refuses (no permission, insecure context).
pub async fn copy(text: String) -> Result<(), String> {
    let clipboard = gloo::utils::window().navigator().clipboard();
    let promise = clipboard.write_text(&text);
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| "the browser did not allow copying".to_owned())
}

/// Sets `data-theme` on the root element (`None` follows the system).
pub fn apply_theme(theme: Option<&str>) {
    if let Some(root) = gloo::utils::document().document_element() {
        match theme {
            Some(theme) => {
                let _ = root.set_attribute("data-theme", theme);
            }
            None => {
                let _ = root.remove_attribute("data-theme");
            }
        }
    }
}

/// True when keyboard focus is in a text field (shortcuts stay out of it).
pub fn typing() -> bool {
    gloo::utils::document()
        .active_element()
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            tag == "textarea"
                || tag == "input"
                || tag == "select"
                || el
                    .dyn_ref::<web_sys::HtmlElement>()
                    .is_some_and(|h| h.is_content_editable())
        })
        .unwrap_or(false)
}
