//! The playground's state in a link: versioned, compressed, and read with
//! budgets so a hostile link cannot hurt.
//!
//! A link's fragment is `#/build?s=1.<base64url(deflate(json))>`: the digit
//! before the dot is the format version. Version 1 is the only one so far;
//! a future version adds a reader here, so old links keep working.

use std::collections::BTreeMap;
use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::input::Format;
use crate::strategy::{Preset, Strategy};

/// The newest format this build writes and reads.
pub const VERSION: u32 = 1;
/// The longest fragment accepted, in bytes.
pub const MAX_FRAGMENT: usize = 512 * 1024;
/// The most bytes a link may decompress to: two objects at the input
/// budget, with room for JSON escapes.
pub const MAX_DECOMPRESSED: usize = 10 * 1024 * 1024;
/// The longest state kept in browser storage (the browser's quota, about
/// 5 MiB per site, is the real limit).
pub const MAX_STORED: usize = 8 * 1024 * 1024;
/// The most result columns.
pub const MAX_COLUMNS: usize = 6;
/// The most per-field overrides.
pub const MAX_OVERRIDES: usize = 200;

/// One result column: a preset and its per-field overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// The preset.
    pub preset: Preset,
    /// Strategy overrides by pointer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, Strategy>,
}

/// What a Build view link holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildLink {
    /// The old object's text.
    pub old: String,
    /// The new object's text.
    pub new: String,
    /// The editors' format.
    pub format: Format,
    /// The result columns.
    pub columns: Vec<Column>,
    /// The example it started from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Longer than accepted: the length and the limit ([`MAX_FRAGMENT`]
    /// for links).
    TooLong(usize, usize),
    /// Made by a newer patchlab.
    FutureVersion(u32),
    /// Not a patchlab link, or damaged.
    Malformed(String),
    /// Over a budget once decoded.
    OverBudget(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::TooLong(n, max) => write!(
                f,
                "This link is {n} bytes long, more than the {max} bytes patchlab accepts."
            ),
            LinkError::FutureVersion(v) => write!(
                f,
                "This link was made by a newer patchlab (link format {v}); this one reads formats up to {VERSION}. Open it with the newer version."
            ),
            LinkError::Malformed(why) => write!(f, "This link is damaged or not a patchlab link: {why}."),
            LinkError::OverBudget(why) => write!(f, "This link holds more than patchlab accepts: {why}."),
        }
    }
}

impl std::error::Error for LinkError {}

/// Encodes a link's state as the `s=` value.
pub fn encode(link: &BuildLink) -> String {
    encode_value(link)
}

/// Encodes any serializable state as an `s=` value.
pub fn encode_value<T: Serialize>(value: &T) -> String {
    let json = serde_json::to_vec(value).unwrap_or_default();
    // Best compression for link-sized states; fast for megabytes, which
    // are encoded on every (debounced) edit.
    let level = if json.len() > 256 * 1024 { 1 } else { 9 };
    let packed = miniz_oxide::deflate::compress_to_vec(&json, level);
    format!("{VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Decodes an `s=` value.
///
/// # Errors
///
/// [`LinkError`] for an oversized, future-version, damaged or over-budget
/// link. Decoding never panics.
pub fn decode(value: &str) -> Result<BuildLink, LinkError> {
    let link: BuildLink = decode_value(value)?;
    check(&link)?;
    Ok(link)
}

/// Decodes an `s=` value into any state, with the same version rules and
/// size budgets as [`decode`] (the caller checks its own budgets).
///
/// # Errors
///
/// [`LinkError`]; never panics.
pub fn decode_value<T: serde::de::DeserializeOwned>(value: &str) -> Result<T, LinkError> {
    decode_within(value, MAX_FRAGMENT)
}

/// Decodes a state saved in browser storage: an encoded link, which may be
/// longer than a link can be ([`MAX_STORED`]); the same budgets otherwise.
///
/// # Errors
///
/// [`LinkError`]; never panics.
pub fn decode_stored(value: &str) -> Result<BuildLink, LinkError> {
    let link: BuildLink = decode_within(value, MAX_STORED)?;
    check(&link)?;
    Ok(link)
}

fn decode_within<T: serde::de::DeserializeOwned>(value: &str, max: usize) -> Result<T, LinkError> {
    if value.len() > max {
        return Err(LinkError::TooLong(value.len(), max));
    }
    let (version, data) = value
        .split_once('.')
        .ok_or_else(|| LinkError::Malformed("no format version".into()))?;
    let version: u32 = version
        .parse()
        .map_err(|_| LinkError::Malformed(format!("format version {version:?} is not a number")))?;
    match version {
        1 => decode_v1(data),
        v if v > VERSION => Err(LinkError::FutureVersion(v)),
        v => Err(LinkError::Malformed(format!("unknown format version {v}"))),
    }
}

fn decode_v1<T: serde::de::DeserializeOwned>(data: &str) -> Result<T, LinkError> {
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| LinkError::Malformed(format!("not base64url ({e})")))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_DECOMPRESSED)
        .map_err(|e| {
            if matches!(e.status, miniz_oxide::inflate::TINFLStatus::HasMoreOutput) {
                LinkError::OverBudget(format!("more than {MAX_DECOMPRESSED} bytes once unpacked"))
            } else {
                LinkError::Malformed("not compressed data".into())
            }
        })?;
    serde_json::from_slice(&json).map_err(|e| LinkError::Malformed(e.to_string()))
}

/// The budgets of a decoded link.
///
/// # Errors
///
/// [`LinkError::OverBudget`] naming the budget.
pub fn check(link: &BuildLink) -> Result<(), LinkError> {
    if link.columns.is_empty() || link.columns.len() > MAX_COLUMNS {
        return Err(LinkError::OverBudget(format!(
            "{} result columns (1 to {MAX_COLUMNS})",
            link.columns.len()
        )));
    }
    let overrides: usize = link.columns.iter().map(|c| c.overrides.len()).sum();
    if overrides > MAX_OVERRIDES {
        return Err(LinkError::OverBudget(format!(
            "{overrides} field overrides (at most {MAX_OVERRIDES})"
        )));
    }
    for path in link.columns.iter().flat_map(|c| c.overrides.keys()) {
        crate::pointer::Pointer::parse(path)
            .map_err(|e| LinkError::Malformed(format!("override path {path:?}: {e}")))?;
    }
    Ok(())
}

/// The `s=` value in a route's query (`s=...&x=...`).
pub fn state_param(query: &str) -> Option<&str> {
    query.split('&').find_map(|pair| pair.strip_prefix("s="))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> BuildLink {
        BuildLink {
            old: "metadata:\n  labels:\n    a: '1'\n".into(),
            new: "metadata:\n  labels:\n    a: '1'\n    kubevirt.io/x: <script>alert(1)</script>\n"
                .into(),
            format: Format::Yaml,
            columns: vec![
                Column {
                    preset: Preset::KubevirtHead,
                    overrides: BTreeMap::new(),
                },
                Column {
                    preset: Preset::KubevirtPr18139,
                    overrides: BTreeMap::from([("/metadata/labels".into(), Strategy::WholeMap)]),
                },
            ],
            example: Some("migration-race".into()),
        }
    }

    #[test]
    fn objects_at_the_input_budget_fit_in_storage() {
        // Two objects at the input budget, with little repetition.
        let object = |seed: u64| -> String {
            let mut x = seed;
            let mut text = String::from("data:\n");
            while text.len() < crate::input::Budget::OBJECT_BYTES - 64 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(&format!("  k{:016x}: \"{:016x}\"\n", x, x >> 7));
            }
            text
        };
        let link = BuildLink {
            old: object(1),
            new: object(2),
            format: Format::Yaml,
            columns: vec![Column::default()],
            example: None,
        };
        let encoded = encode(&link);
        assert!(
            encoded.len() > MAX_FRAGMENT,
            "too big for a link: {}",
            encoded.len()
        );
        assert!(
            encoded.len() < MAX_STORED,
            "small enough to store: {}",
            encoded.len()
        );
        assert_eq!(
            decode(&encoded),
            Err(LinkError::TooLong(encoded.len(), MAX_FRAGMENT))
        );
        assert_eq!(decode_stored(&encoded).unwrap(), link);
    }

    #[test]
    fn round_trip_and_compression() {
        let link = link();
        let encoded = encode(&link);
        assert!(encoded.starts_with("1."));
        assert!(encoded
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.'));
        assert_eq!(decode(&encoded).unwrap(), link);
        let big = BuildLink {
            old: "a: b\n".repeat(10_000),
            ..link
        };
        assert!(encode(&big).len() < 2_000, "repetitive text compresses");
        assert_eq!(state_param("x=1&s=1.abc"), Some("1.abc"));
    }

    #[test]
    fn hostile_links_are_refused_with_a_message() {
        assert!(matches!(decode("2.abc"), Err(LinkError::FutureVersion(2))));
        assert!(decode("2.abc")
            .unwrap_err()
            .to_string()
            .contains("newer patchlab"));
        assert!(matches!(decode("abc"), Err(LinkError::Malformed(_))));
        assert!(matches!(decode("x.abc"), Err(LinkError::Malformed(_))));
        assert!(matches!(decode("1.!!!"), Err(LinkError::Malformed(_))));
        assert!(matches!(decode("1.AAAA"), Err(LinkError::Malformed(_))));
        assert!(matches!(
            decode(&"1.".repeat(MAX_FRAGMENT)),
            Err(LinkError::TooLong(_, MAX_FRAGMENT))
        ));
        // A zip bomb: 64 MB of zeros packs into a few KB.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 * 1024 * 1024], 9);
        let bomb = format!("1.{}", URL_SAFE_NO_PAD.encode(bomb));
        assert!(bomb.len() < MAX_FRAGMENT);
        assert!(
            matches!(decode(&bomb), Err(LinkError::OverBudget(_))),
            "{:?}",
            decode(&bomb)
        );
        // Valid data over a budget.
        let many = BuildLink {
            columns: vec![Column::default(); 7],
            ..link()
        };
        assert!(matches!(
            decode(&encode(&many)),
            Err(LinkError::OverBudget(_))
        ));
        let bad_path = BuildLink {
            columns: vec![Column {
                preset: Preset::Naive,
                overrides: BTreeMap::from([("nope".into(), Strategy::Blind)]),
            }],
            ..link()
        };
        assert!(matches!(
            decode(&encode(&bad_path)),
            Err(LinkError::Malformed(_))
        ));
        // Unknown fields: a damaged or foreign link, not silently half-read.
        let json =
            br#"{"old":"","new":"","format":"json","columns":[{"preset":"naive"}],"script":"x"}"#;
        let foreign = format!(
            "1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 6))
        );
        assert!(matches!(decode(&foreign), Err(LinkError::Malformed(_))));
    }
}
