//! The packing of a state into a link: `<version>.<base64url(deflate(json))>`,
//! the text after `?s=` in a playground link. Here, below every layer,
//! so the core (`explain`'s Check links) and the playground
//! ([`crate::app::link`], which adds decoding with budgets) write one
//! format.
//!
//! ```
//! let packed = patchlab::share::pack(&serde_json::json!({"patch": "[]"}));
//! assert!(packed.starts_with("1."));
//! ```

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::Serialize;

/// The newest link format this build writes.
pub const VERSION: u32 = 1;

/// The longest link fragment the playground opens, in bytes
/// ([`crate::limits::LINK_FRAGMENT`]).
pub const MAX_FRAGMENT: usize = crate::limits::LINK_FRAGMENT;

/// Packs any serializable state as an `s=` value (format [`VERSION`]).
pub fn pack<T: Serialize>(value: &T) -> String {
    let json = serde_json::to_vec(value).unwrap_or_default();
    // Best compression for link-sized states; fast for megabytes, which
    // the playground encodes on every (debounced) edit.
    let level = if json.len() > 256 * 1024 { 1 } else { 9 };
    packed(&miniz_oxide::deflate::compress_to_vec(&json, level))
}

/// The `s=` value of a state already deflated (raw deflate of its JSON):
/// what [`pack`] writes after compressing, for a compressor elsewhere (the
/// playground's views have the browser's).
pub fn packed(deflated: &[u8]) -> String {
    format!("{VERSION}.{}", URL_SAFE_NO_PAD.encode(deflated))
}
