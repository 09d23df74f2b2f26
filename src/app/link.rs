//! A view's state in a link and in browser storage: versioned, compressed,
//! and read with budgets so a hostile link cannot hurt. One format for
//! every view.
//!
//! A link's fragment is `#/build?s=1.<base64url(deflate(json))>`: the digit
//! before the dot is the format version. Version 1 is the only one so far;
//! a future version adds a reader here, so old links keep working. Browser
//! storage keeps the same packed text (up to [`MAX_STORED`]).

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::notice::Notice;
use super::route::{Packed, Route, View};

/// The newest format this build writes and reads.
pub const VERSION: u32 = crate::share::VERSION;
/// The longest fragment accepted, in bytes.
pub const MAX_FRAGMENT: usize = crate::share::MAX_FRAGMENT;
/// The most bytes a link may decompress to: two objects at the input
/// budget, with room for JSON escapes.
pub const MAX_DECOMPRESSED: usize = 10 * 1024 * 1024;
/// The longest state kept in browser storage (the browser's quota, about
/// 5 MiB per site, is the real limit).
pub const MAX_STORED: usize = 8 * 1024 * 1024;

/// Where browser storage keeps `view`'s state: each
/// [`Shareable::STORAGE_KEY`] (`tests/storage_keys.rs` holds them to it),
/// found from the view alone where a state is unpacked before its view's
/// type is known.
pub fn storage_key(view: View) -> String {
    format!("patchlab.{}", view.slug())
}

/// A view state that travels in links and is kept in browser storage.
pub trait Shareable: Serialize + DeserializeOwned + Clone + PartialEq + 'static {
    /// The view it belongs to.
    const VIEW: View;
    /// Its key in browser storage.
    const STORAGE_KEY: &'static str;

    /// Budgets beyond size (column counts, valid paths, ...).
    ///
    /// # Errors
    ///
    /// [`LinkError::OverBudget`] or [`LinkError::NotPatchlab`].
    fn check(&self) -> Result<(), LinkError> {
        Ok(())
    }

    /// The route that opens this state.
    fn route(&self) -> Route {
        Route::with_state(Self::VIEW, Some(encode(self)))
    }
}

/// Why a link (or saved state) cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Longer than accepted: the length and the limit.
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Made by a newer patchlab.
    FutureVersion(u32),
    /// Cut off or damaged on the way: not base64url, not compressed data,
    /// or not JSON.
    Damaged(String),
    /// Intact, but not a state of this view (another view's link, or
    /// something else entirely).
    NotPatchlab(String),
    /// Over a budget once decoded.
    OverBudget(String),
}

impl LinkError {
    /// The technical detail, for a "details" disclosure and bug reports.
    pub fn detail(&self) -> Option<&str> {
        match self {
            LinkError::Damaged(why) | LinkError::NotPatchlab(why) | LinkError::OverBudget(why) => {
                Some(why)
            }
            _ => None,
        }
    }
}

impl From<&LinkError> for Notice {
    /// The notice for a link that could not be opened: what is wrong, and
    /// that nothing was changed.
    fn from(error: &LinkError) -> Notice {
        Notice::error(format!(
            "{error} Nothing was changed, and the link is still in the address bar."
        ))
        .with_detail(error.detail())
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::TooLong { len, max } => write!(
                f,
                "This link is too long for patchlab ({} KiB; at most {} KiB).",
                len.div_ceil(1024),
                max / 1024
            ),
            LinkError::FutureVersion(v) => write!(
                f,
                "This link was made by a newer version of patchlab (link format {v}; this page reads up to {VERSION}). Open it with the page it came from."
            ),
            LinkError::Damaged(_) => f.write_str(
                "This link looks cut off or damaged: copy it again from where you got it, all of it.",
            ),
            LinkError::NotPatchlab(_) => f.write_str(
                "This link does not hold a state of this page: it may belong to another view, or to something other than patchlab.",
            ),
            LinkError::OverBudget(why) => write!(f, "This link holds more than patchlab accepts: {why}."),
        }
    }
}

impl std::error::Error for LinkError {}

/// Packs any serializable state as an `s=` value ([`crate::share::pack`]).
pub fn encode<T: Serialize>(value: &T) -> Packed {
    crate::share::pack(value)
}

/// Unpacks a link's `s=` value.
///
/// # Errors
///
/// [`LinkError`] for an oversized, future-version, damaged, foreign or
/// over-budget link. Decoding never panics.
pub fn decode<T: Shareable>(value: &str) -> Result<T, LinkError> {
    decode_within(value, MAX_FRAGMENT)
}

/// Unpacks a state saved in browser storage, which may be longer than a
/// link ([`MAX_STORED`]); JSON text from earlier versions is read too.
///
/// # Errors
///
/// [`LinkError`]; never panics.
pub fn decode_stored<T: Shareable>(value: &str) -> Result<T, LinkError> {
    if value.starts_with('{') {
        let state: T = from_json(value).map_err(|e| LinkError::NotPatchlab(e.to_string()))?;
        state.check()?;
        return Ok(state);
    }
    decode_within(value, MAX_STORED)
}

fn decode_within<T: Shareable>(value: &str, max: usize) -> Result<T, LinkError> {
    if value.len() > max {
        return Err(LinkError::TooLong {
            len: value.len(),
            max,
        });
    }
    let (version, data) = value
        .split_once('.')
        .ok_or_else(|| LinkError::Damaged("no format version".into()))?;
    let version: u32 = version
        .parse()
        .map_err(|_| LinkError::Damaged(format!("format version {version:?} is not a number")))?;
    let state: T = match version {
        1 => decode_v1(data)?,
        v if v > VERSION => return Err(LinkError::FutureVersion(v)),
        v => return Err(LinkError::Damaged(format!("unknown format version {v}"))),
    };
    state.check()?;
    Ok(state)
}

fn decode_v1<T: DeserializeOwned>(data: &str) -> Result<T, LinkError> {
    let json = unpack_v1(data)?;
    from_json(&json).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            LinkError::Damaged(e.to_string())
        } else {
            LinkError::NotPatchlab(e.to_string())
        }
    })
}

/// The bytes of a version 1 link's data: base64url, then raw deflate.
#[cfg(any(module = "all", not(target_arch = "wasm32")))]
fn packed_bytes(data: &str) -> Result<Vec<u8>, LinkError> {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| LinkError::Damaged(format!("not base64url ({e})")))
}

#[cfg(not(all(target_arch = "wasm32", module = "learn")))]
fn too_much() -> LinkError {
    LinkError::OverBudget(format!("more than {MAX_DECOMPRESSED} bytes once unpacked"))
}

#[cfg(not(all(target_arch = "wasm32", module = "learn")))]
fn utf8(json: Vec<u8>) -> Result<String, LinkError> {
    String::from_utf8(json).map_err(|e| LinkError::Damaged(format!("not UTF-8 text ({e})")))
}

/// The JSON text of a version 1 link's data, inflated here.
#[cfg(any(module = "all", not(target_arch = "wasm32")))]
fn unpack_v1(data: &str) -> Result<std::rc::Rc<str>, LinkError> {
    let json =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed_bytes(data)?, MAX_DECOMPRESSED)
            .map_err(|e| {
                if matches!(e.status, miniz_oxide::inflate::TINFLStatus::HasMoreOutput) {
                    too_much()
                } else {
                    LinkError::Damaged("not compressed data".into())
                }
            })?;
    utf8(json).map(std::rc::Rc::from)
}

/// The JSON text of a version 1 link's data, as the browser inflated it
/// ahead of reading ([`unpack`]): the view modules carry no inflater.
/// Every way a packed text reaches a view unpacks it first: the route and
/// the saved state before a view mounts, a link opened in the page before
/// its route is taken, a link this page wrote as it is written.
#[cfg(all(target_arch = "wasm32", not(module = "all")))]
fn unpack_v1(data: &str) -> Result<std::rc::Rc<str>, LinkError> {
    unpacked::get(data).unwrap_or_else(|| Err(LinkError::Damaged("not unpacked yet".into())))
}

/// Unpacks a packed state (`1.<data>`; anything else is left alone) with
/// the browser's inflater, so that reading it ([`decode`],
/// [`decode_stored`]) needs none.
#[cfg(all(target_arch = "wasm32", not(any(module = "all", module = "learn"))))]
pub async fn unpack(value: &str) {
    // The version read as `decode_within` reads it: only 1 is packed.
    let Some((version, data)) = value.split_once('.') else {
        return;
    };
    if version.parse() != Ok(1u32) {
        return;
    }
    // (Longer than a stored state: `decode_within` refuses it unread.)
    if value.len() > MAX_STORED || unpacked::get(data).is_some() {
        return;
    }
    use crate::app::browser::{base64url_bytes, inflate_raw, DecompressionFailed};
    let json = match base64url_bytes(data.trim_end_matches('=')) {
        Some(bytes) => match inflate_raw(&bytes, MAX_DECOMPRESSED).await {
            Ok(json) => utf8(json),
            Err(DecompressionFailed::TooBig) => Err(too_much()),
            Err(DecompressionFailed::NotDeflate(_)) => {
                Err(LinkError::Damaged("not compressed data".into()))
            }
        },
        None => Err(LinkError::Damaged("not base64url".into())),
    };
    unpacked::keep(data, json.map(std::rc::Rc::from));
}

/// Unpacks what a view mounting now opens with: the route's link and the
/// state saved for its view (Build's on the bare address).
#[cfg(all(target_arch = "wasm32", not(any(module = "all", module = "learn"))))]
pub async fn unpack_start() {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    let route = Route::parse(&hash);
    if let Some(packed) = route.packed() {
        unpack(packed).await;
    }
    let view = route.view().unwrap_or(View::Build);
    if let Some(saved) = crate::app::browser::peek(&storage_key(view)) {
        unpack(&saved).await;
    }
}

/// The texts unpacked so far (the newest [`unpacked::KEPT`]).
#[cfg(all(target_arch = "wasm32", not(module = "all")))]
mod unpacked {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::LinkError;

    /// How many are kept: the address and the saved state a view opened
    /// with, and the last links this page wrote (the address bar holds
    /// the last one: Share link copies it in the click when it holds the
    /// state). Few: a state may be megabytes of JSON.
    pub(super) const KEPT: usize = 4;

    type Unpacked = Result<Rc<str>, LinkError>;

    thread_local! {
        static TEXTS: RefCell<Vec<(Rc<str>, Unpacked)>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn get(data: &str) -> Option<Unpacked> {
        TEXTS.with(|t| {
            t.borrow()
                .iter()
                .find(|(d, _)| &**d == data)
                .map(|(_, u)| u.clone())
        })
    }

    pub(super) fn keep(data: &str, unpacked: Unpacked) {
        TEXTS.with(|t| {
            let mut texts = t.borrow_mut();
            texts.retain(|(d, _)| &**d != data);
            if texts.len() >= KEPT {
                drop(texts.remove(0));
            }
            texts.push((Rc::from(data), unpacked));
        });
    }

    /// What this page packs is kept as it is written.
    pub(super) fn written(packed: &str, json: &str) {
        if let Some(data) = packed.strip_prefix("1.") {
            keep(data, Ok(Rc::from(json)));
        }
    }
}

/// A state from JSON text, read as a `Value` first and then as `T`:
/// every view's state is then read by one deserializer, the one that
/// reads scenarios and writers from YAML, instead of one more per kind of
/// source (a string, bytes). Each state type's derived reader is
/// monomorphised once per deserializer; in the Race module two more
/// copies would cost tens of kilobytes of code. Links and stored states are a
/// few kilobytes: the extra step costs microseconds.
fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let value: serde_json::Value = serde_json::from_str(text)?;
    serde_json::from_value(value)
}

/// What a view opens with, from the link it was opened with (if any) and
/// what browser storage holds (if anything). What each case leads to is
/// one policy for every view: [`super::view_state::begin`].
#[derive(Clone, Debug, PartialEq)]
pub enum Start<T> {
    /// Nothing given: the view's default.
    Fresh,
    /// The saved state.
    Saved(T),
    /// The link's state; `saved` is the work it replaces, if any differs.
    Link {
        /// The link's state.
        link: T,
        /// The saved state it replaces.
        saved: Option<T>,
    },
    /// The link could not be opened: the saved state (or the default) with
    /// why; the address bar keeps the link so it can be repaired.
    BrokenLink {
        /// Why.
        error: LinkError,
        /// The saved state.
        saved: Option<T>,
    },
    /// The saved state could not be read (and is ignored).
    BrokenSaved(LinkError),
}

impl<T: Shareable> Start<T> {
    /// Decides how a view starts.
    pub fn new(packed: Option<&str>, stored: Option<&str>) -> Start<T> {
        let saved = || stored.map(decode_stored::<T>);
        match packed.map(decode::<T>) {
            Some(Ok(link)) => {
                let saved = saved().and_then(Result::ok).filter(|s| *s != link);
                Start::Link { link, saved }
            }
            Some(Err(error)) => Start::BrokenLink {
                error,
                saved: saved().and_then(Result::ok),
            },
            None => match saved() {
                None => Start::Fresh,
                Some(Ok(state)) => Start::Saved(state),
                Some(Err(error)) => Start::BrokenSaved(error),
            },
        }
    }
}

/// Where a state goes after a change: the address bar (when it fits in a
/// link) and storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The fragment for the address bar.
    pub fragment: String,
    /// The packed state for storage.
    pub stored: Packed,
    /// True when the state is too big for a link (the fragment then holds
    /// no state).
    pub too_big_for_a_link: bool,
}

/// Where `state` goes.
pub fn place<T: Shareable>(state: &T) -> Placement {
    placement::<T>(encode(state))
}

/// A state as JSON text: what a link packs, and what browser storage
/// also takes as it is ([`decode_stored`]) when it must be written at once.
pub fn json_of<T: Serialize>(state: &T) -> String {
    serde_json::to_string(state).unwrap_or_default()
}

/// Where `state` goes, packed by the browser's compressor
/// ([`crate::app::browser::deflate_raw`]; the same format as [`place`]).
/// A view's module carries no compressor of its own: writing its link
/// waits for the browser, a few milliseconds.
///
/// # Errors
///
/// Why the browser could not compress (it has no `CompressionStream`).
#[cfg(target_arch = "wasm32")]
pub async fn place_async<T: Shareable>(state: &T) -> Result<Placement, CannotPack> {
    let json = json_of(state);
    let deflated = crate::app::browser::deflate_raw(json.as_bytes())
        .await
        .map_err(|failed| CannotPack { why: failed.0 })?;
    let packed = crate::share::packed(&deflated);
    #[cfg(not(module = "all"))]
    unpacked::written(&packed, &json);
    Ok(placement::<T>(packed))
}

/// Where a state packed as `packed` goes.
fn placement<T: Shareable>(packed: Packed) -> Placement {
    let too_big = packed.len() > MAX_FRAGMENT;
    let fragment = Route::with_state(T::VIEW, (!too_big).then(|| packed.clone())).to_fragment();
    Placement {
        fragment,
        stored: packed,
        too_big_for_a_link: too_big,
    }
}

/// The notice for a state too big for a link.
pub fn too_big_for_a_link(bytes: usize) -> String {
    format!(
        "This is too big for a link ({} KiB packed; a link holds {} KiB), so the page's link no \
         longer carries it and Share link is off: it is saved in this browser only.",
        bytes.div_ceil(1024),
        MAX_FRAGMENT / 1024
    )
}

/// The address of `view` without a state (where a state that cannot be
/// packed leaves the address bar).
pub fn bare_fragment(view: View) -> String {
    Route::with_state(view, None).to_fragment()
}

/// Why a state could not be packed into a link: the browser has no
/// `CompressionStream`, or it failed ([`crate::app::browser::deflate_raw`]).
/// Shown as the notice that says so: no link, the work still saved in the
/// browser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CannotPack {
    /// The browser's words.
    pub why: String,
}

impl fmt::Display for CannotPack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "This browser cannot pack the page's state into a link ({}): the page's link does \
             not carry your work, and Share link cannot make one. Your work is saved in this browser.",
            self.why
        )
    }
}

impl std::error::Error for CannotPack {}

/// Whether a link write scheduled when the address bar showed
/// `scheduled_over` may replace what it shows `now`: only while it still
/// shows `view` (a write due just as the user opened another view must not
/// take them back), and only when the address did not change in between (a
/// link opened in the meantime is read by the page, not overwritten by the
/// state it replaces).
#[must_use]
pub fn may_replace_address(view: View, scheduled_over: &str, now: &str) -> bool {
    scheduled_over == now && Route::parse(now).view() == Some(view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    use serde::Deserialize;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Demo {
        text: String,
        #[serde(default)]
        n: usize,
    }

    impl Shareable for Demo {
        const VIEW: View = View::Race;
        const STORAGE_KEY: &'static str = "patchlab.demo";
        fn check(&self) -> Result<(), LinkError> {
            if self.n > 3 {
                return Err(LinkError::OverBudget(format!(
                    "{} things (at most 3)",
                    self.n
                )));
            }
            Ok(())
        }
    }

    fn demo(text: &str) -> Demo {
        Demo {
            text: text.to_owned(),
            n: 1,
        }
    }

    #[test]
    fn round_trip_compression_and_route() {
        let state = demo("<script>alert(1)</script>");
        let packed = encode(&state);
        assert!(packed.starts_with("1."));
        assert!(packed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.'));
        assert_eq!(decode::<Demo>(&packed), Ok(state.clone()));
        assert_eq!(
            Route::parse(&state.route().to_fragment()).packed(),
            Some(packed.as_str())
        );
        assert!(encode(&demo(&"a: b\n".repeat(10_000))).len() < 2_000);
        let placed = place(&state);
        assert_eq!(placed.fragment, format!("#/race?s={packed}"));
        assert!(!placed.too_big_for_a_link);
    }

    #[test]
    fn a_state_that_cannot_be_packed_says_what_it_means_for_the_work() {
        let error = CannotPack {
            why: "CompressionStream is not defined".into(),
        };
        assert_eq!(
            error.to_string(),
            "This browser cannot pack the page's state into a link (CompressionStream is not \
             defined): the page's link does not carry your work, and Share link cannot make one. \
             Your work is saved in this browser."
        );
        assert_eq!(bare_fragment(View::Race), "#/race");
    }

    #[test]
    fn hostile_and_damaged_links_are_refused_in_plain_words() {
        assert_eq!(decode::<Demo>("2.abc"), Err(LinkError::FutureVersion(2)));
        assert!(decode::<Demo>("2.abc")
            .unwrap_err()
            .to_string()
            .contains("newer version of patchlab"));
        for damaged in ["abc", "x.abc", "1.!!!", "1.AAAA"] {
            let err = decode::<Demo>(damaged).unwrap_err();
            assert!(matches!(err, LinkError::Damaged(_)), "{damaged}: {err:?}");
            assert_eq!(
                err.to_string(),
                "This link looks cut off or damaged: copy it again from where you got it, all of it."
            );
        }
        // A link cut in the middle is damaged, not foreign.
        let packed = encode(&demo(&"some text ".repeat(50)));
        let cut = &packed[..packed.len() / 2];
        assert!(matches!(decode::<Demo>(cut), Err(LinkError::Damaged(_))));
        assert!(matches!(
            decode::<Demo>(&"1.".repeat(MAX_FRAGMENT)),
            Err(LinkError::TooLong {
                max: MAX_FRAGMENT,
                ..
            })
        ));
        // A zip bomb: 64 MB of spaces packs into a few KB.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 * 1024 * 1024], 9);
        let bomb = format!("1.{}", URL_SAFE_NO_PAD.encode(bomb));
        assert!(bomb.len() < MAX_FRAGMENT);
        assert!(matches!(
            decode::<Demo>(&bomb),
            Err(LinkError::OverBudget(_))
        ));
        // Valid data over a budget of the view.
        let many = Demo {
            text: String::new(),
            n: 7,
        };
        assert_eq!(
            decode::<Demo>(&encode(&many)).unwrap_err().to_string(),
            "This link holds more than patchlab accepts: 7 things (at most 3)."
        );
        // Another view's state or unknown fields: not this page's link.
        let foreign = encode(&serde_json::json!({"text": "", "script": "x"}));
        assert!(matches!(
            decode::<Demo>(&foreign),
            Err(LinkError::NotPatchlab(_))
        ));
    }

    #[test]
    fn a_link_wins_over_saved_work_and_keeps_it() {
        let link = encode(&demo("link"));
        let saved = encode(&demo("saved"));
        assert_eq!(Start::<Demo>::new(None, None), Start::Fresh);
        assert_eq!(
            Start::<Demo>::new(None, Some(&saved)),
            Start::Saved(demo("saved"))
        );
        assert_eq!(
            Start::<Demo>::new(Some(&link), Some(&saved)),
            Start::Link {
                link: demo("link"),
                saved: Some(demo("saved"))
            }
        );
        // The same state saved: nothing to keep.
        assert_eq!(
            Start::<Demo>::new(Some(&link), Some(&link)),
            Start::Link {
                link: demo("link"),
                saved: None
            }
        );
        assert!(matches!(
            Start::<Demo>::new(Some("1.!!"), Some(&saved)),
            Start::BrokenLink { saved: Some(_), .. }
        ));
        assert!(matches!(
            Start::<Demo>::new(None, Some("1.!!")),
            Start::BrokenSaved(LinkError::Damaged(_))
        ));
        // Earlier versions stored JSON text.
        assert_eq!(
            Start::<Demo>::new(None, Some(r#"{"text":"old"}"#)),
            Start::Saved(Demo {
                text: "old".into(),
                n: 0
            })
        );
    }

    #[test]
    fn states_too_big_for_a_link_stay_in_storage() {
        let mut x = 1u64;
        let text: String = (0..80_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                format!("{:016x}", x)
            })
            .collect();
        let state = demo(&text);
        let placed = place(&state);
        assert!(placed.too_big_for_a_link);
        assert_eq!(placed.fragment, "#/race");
        assert!(placed.stored.len() < MAX_STORED);
        assert!(matches!(
            decode::<Demo>(&placed.stored),
            Err(LinkError::TooLong { .. })
        ));
        assert_eq!(decode_stored::<Demo>(&placed.stored), Ok(state));
    }

    #[test]
    fn a_link_write_replaces_only_the_address_it_was_scheduled_over() {
        // Nothing changed since: the state's link is written.
        assert!(may_replace_address(View::Race, "#/race", "#/race"));
        assert!(may_replace_address(
            View::Race,
            "#/race?s=AAA",
            "#/race?s=AAA"
        ));
        // A link opened while the write waited is the page's to read: the
        // state it replaces must not overwrite it.
        assert!(!may_replace_address(View::Race, "#/race", "#/race?s=BBB"));
        assert!(!may_replace_address(
            View::Race,
            "#/race?s=AAA",
            "#/race?s=BBB"
        ));
        // Another view opened: the write must not take the user back.
        assert!(!may_replace_address(View::Race, "#/race", "#/check"));
        assert!(!may_replace_address(View::Race, "#/check", "#/check"));
        // Build is the page with no fragment.
        assert!(may_replace_address(View::Build, "", ""));
    }
}
