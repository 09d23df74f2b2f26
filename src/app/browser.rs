//! The few browser services the playground uses, each failing softly:
//! storage that may be full or missing, the clipboard, the URL.

use wasm_bindgen::JsCast;
use web_sys::Storage;

fn storage() -> Option<Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

thread_local! {
    /// What [`keep`] could not write to storage, read once by [`load`].
    static KEPT: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reads a key from localStorage; `None` when absent or unavailable. A
/// value [`keep`] held in memory (storage refused it) comes first, once.
pub fn load(key: &str) -> Option<String> {
    let kept = KEPT.with(|k| {
        let mut kept = k.borrow_mut();
        let at = kept.iter().position(|(k, _)| k == key)?;
        Some(kept.remove(at).1)
    });
    kept.or_else(|| storage()?.get_item(key).ok().flatten())
}

/// What [`load`] would give for a key, leaving what memory holds for it
/// there.
#[cfg(not(any(module = "all", module = "learn")))]
pub fn peek(key: &str) -> Option<String> {
    let kept = KEPT.with(|k| {
        let kept = k.borrow();
        kept.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    });
    kept.or_else(|| storage()?.get_item(key).ok().flatten())
}

/// Writes a key to localStorage, or, when storage refuses it, holds it in
/// memory for the next [`load`] of that key (work handed from one part of
/// the page to another is never dropped).
pub fn keep(key: &str, value: &str) {
    if save(key, value).is_err() {
        KEPT.with(|k| k.borrow_mut().push((key.to_owned(), value.to_owned())));
    }
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

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `CompressionStream` (web-sys has it among its
    /// unstable APIs only).
    type CompressionStream;

    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, wasm_bindgen::JsValue>;

    #[wasm_bindgen(method, getter)]
    fn readable(this: &CompressionStream) -> web_sys::ReadableStream;

    #[wasm_bindgen(method, getter)]
    fn writable(this: &CompressionStream) -> web_sys::WritableStream;
}

/// The browser's words for a failure (an `Error`'s message, a thrown
/// string), or `otherwise`.
fn words(e: &wasm_bindgen::JsValue, otherwise: &str) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| otherwise.to_owned())
}

/// `bytes` piped through a transform stream (the browser's compressor or
/// decompressor, given by its two ends).
fn piped(
    bytes: &[u8],
    readable: &web_sys::ReadableStream,
    writable: &web_sys::WritableStream,
) -> Result<web_sys::ReadableStream, wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)?;
    let pair = web_sys::ReadableWritablePair::new(readable, writable);
    Ok(blob.stream().pipe_through(&pair))
}

/// Why the browser could not compress: its words (no `CompressionStream`,
/// or the stream failed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressionFailed(pub String);

/// `bytes` compressed as raw deflate (RFC 1951) by the browser
/// (`CompressionStream("deflate-raw")`: Chrome 103, Firefox 113, Safari
/// 16.4), so no view module carries a compressor for its links.
///
/// # Errors
///
/// [`CompressionFailed`] with the browser's words when it has no such
/// stream or it failed.
pub async fn deflate_raw(bytes: &[u8]) -> Result<Vec<u8>, CompressionFailed> {
    let why =
        |e: wasm_bindgen::JsValue| CompressionFailed(words(&e, "the browser could not compress"));
    let stream = CompressionStream::new("deflate-raw").map_err(why)?;
    let body = piped(bytes, &stream.readable(), &stream.writable()).map_err(why)?;
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&body)).map_err(why)?;
    let buffer = wasm_bindgen_futures::JsFuture::from(response.array_buffer().map_err(why)?)
        .await
        .map_err(why)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[cfg(not(any(module = "all", module = "learn")))]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `DecompressionStream` (web-sys has it among its
    /// unstable APIs only).
    type DecompressionStream;

    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, wasm_bindgen::JsValue>;

    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> web_sys::ReadableStream;

    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> web_sys::WritableStream;

    /// A stream's default reader (`ReadableStream.getReader()`).
    type StreamReader;

    #[wasm_bindgen(method)]
    fn read(this: &StreamReader) -> js_sys::Promise;

    #[wasm_bindgen(method)]
    fn cancel(this: &StreamReader) -> js_sys::Promise;
}

/// The bytes of base64url text (RFC 4648 section 5, padding optional),
/// read by the browser (`atob`): the view modules carry no base64 decoder.
/// `None` when it is not base64url.
#[cfg(not(any(module = "all", module = "learn")))]
pub fn base64url_bytes(text: &str) -> Option<Vec<u8>> {
    if text.contains(['+', '/']) {
        return None;
    }
    let standard: String = text
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    let binary = gloo::utils::window().atob(&standard).ok()?;
    // `atob` gives one character per byte (U+0000 to U+00FF).
    binary.chars().map(|c| u8::try_from(c).ok()).collect()
}

/// Why the browser could not decompress.
#[cfg(not(any(module = "all", module = "learn")))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecompressionFailed {
    /// Not raw deflate data (or no `DecompressionStream`): the browser's words.
    NotDeflate(String),
    /// More than the limit asked for, once decompressed (reading stopped there).
    TooBig,
}

/// Raw deflate (RFC 1951) decompressed by the browser
/// (`DecompressionStream("deflate-raw")`, as widely available as
/// [`deflate_raw`]), read piece by piece and stopped past `limit` bytes
/// (a small link may unpack to gigabytes): no view module carries an
/// inflater for its links.
///
/// # Errors
///
/// [`DecompressionFailed`]: not deflate data, or too big.
#[cfg(not(any(module = "all", module = "learn")))]
pub async fn inflate_raw(bytes: &[u8], limit: usize) -> Result<Vec<u8>, DecompressionFailed> {
    use wasm_bindgen_futures::JsFuture;
    let why = |e: wasm_bindgen::JsValue| {
        DecompressionFailed::NotDeflate(words(&e, "the browser could not decompress"))
    };
    let stream = DecompressionStream::new("deflate-raw").map_err(why)?;
    let reader: StreamReader = piped(bytes, &stream.readable(), &stream.writable())
        .map_err(why)?
        .get_reader()
        .unchecked_into();
    let mut out = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(why)?;
        let done = js_sys::Reflect::get(&chunk, &"done".into()).map_err(why)?;
        if done.is_truthy() {
            return Ok(out);
        }
        let value = js_sys::Reflect::get(&chunk, &"value".into()).map_err(why)?;
        let value: js_sys::Uint8Array = value.unchecked_into();
        if out.len() + value.length() as usize > limit {
            let _ = reader.cancel();
            return Err(DecompressionFailed::TooBig);
        }
        let at = out.len();
        out.resize(at + value.length() as usize, 0);
        value.copy_to(&mut out[at..]);
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

/// The byte offset of a UTF-16 offset in `text` (clamped).
pub fn utf16_to_byte(text: &str, units: usize) -> usize {
    let mut count = 0;
    for (byte, c) in text.char_indices() {
        if count >= units {
            return byte;
        }
        count += c.len_utf16();
    }
    text.len()
}

/// Scrolls the element with `id` into view, if it is not visible.
pub fn reveal(id: &str) {
    if let Some(el) = gloo::utils::document().get_element_by_id(id) {
        let rect = el.get_bounding_client_rect();
        let height = gloo::utils::window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        if rect.top() < 0.0 || rect.top() > height - 80.0 {
            el.scroll_into_view();
        }
    }
}

/// Scrolls the page so that element `id` is at the top of the window.
pub fn scroll_to(id: &str) {
    if let Some(el) = gloo::utils::document().get_element_by_id(id) {
        el.scroll_into_view();
    }
}

/// True while a modal dialog is open.
pub fn dialog_open() -> bool {
    gloo::utils::document()
        .query_selector("dialog[open]")
        .ok()
        .flatten()
        .is_some()
}

/// True when keyboard focus is in a text field (shortcuts stay out of it),
/// or anywhere inside an editor (its coloured layer included, should focus
/// ever land there).
pub fn typing() -> bool {
    gloo::utils::document()
        .active_element()
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            tag == "textarea"
                || el.closest(".editor .code").ok().flatten().is_some()
                || (tag == "input"
                    && !matches!(
                        el.get_attribute("type").as_deref(),
                        Some("button" | "checkbox" | "radio" | "submit" | "reset")
                    ))
                || tag == "select"
                || el
                    .dyn_ref::<web_sys::HtmlElement>()
                    .is_some_and(|h| h.is_content_editable())
        })
        .unwrap_or(false)
}
