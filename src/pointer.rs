//! JSON Pointer (RFC 6901): a borrowed [`Pointer`] and an owned
//! [`PointerBuf`], like `Path` and `PathBuf`, plus reference-token escaping
//! exactly as KubeVirt's `EscapeJSONPointer`.
//!
//! ```
//! use patchlab::pointer::{escape, Pointer, PointerBuf};
//!
//! // KubeVirt escapes a label key before using it in a path.
//! assert_eq!(escape("kubevirt.io/nodeName"), "kubevirt.io~1nodeName");
//!
//! let labels = Pointer::parse("/metadata/labels").unwrap();
//! let key = labels.join("kubevirt.io/nodeName");
//! assert_eq!(key.as_str(), "/metadata/labels/kubevirt.io~1nodeName");
//! assert_eq!(key.last().unwrap().decoded(), "kubevirt.io/nodeName");
//! assert_eq!(key.parent(), Some(labels));
//! ```

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

mod trie;

pub use trie::{NodeId, PathTrie};

/// Escapes one reference token: `~` becomes `~0` first, then `/` becomes
/// `~1`. This is KubeVirt's `EscapeJSONPointer`: it adds no leading `/`.
///
/// ```
/// use patchlab::pointer::escape;
/// assert_eq!(escape("a~b/c"), "a~0b~1c");
/// assert_eq!(escape("plain"), "plain");
/// ```
pub fn escape(token: &str) -> Cow<'_, str> {
    if !token.contains(['~', '/']) {
        return Cow::Borrowed(token);
    }
    Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
}

/// Unescapes one reference token: `~1` becomes `/`, then `~0` becomes `~`.
///
/// # Errors
///
/// A `~` not followed by `0` or `1` is an [`InvalidEscape`] naming its byte
/// offset within the token.
///
/// ```
/// use patchlab::pointer::unescape;
/// assert_eq!(unescape("a~0b~1c").unwrap(), "a~b/c");
/// assert_eq!(unescape("~01").unwrap(), "~1");
/// assert!(unescape("~2").is_err());
/// ```
pub fn unescape(token: &str) -> Result<Cow<'_, str>, InvalidEscape> {
    validate_token(token)?;
    Ok(decode_valid(token))
}

/// A `~` in a reference token that is not followed by `0` or `1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidEscape {
    /// Byte offset of the `~` within the token.
    pub offset: usize,
}

impl fmt::Display for InvalidEscape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid escape at byte {}: '~' must be followed by '0' or '1'",
            self.offset
        )
    }
}

impl std::error::Error for InvalidEscape {}

fn validate_token(token: &str) -> Result<(), InvalidEscape> {
    let bytes = token.as_bytes();
    let mut i = 0;
    while let Some(found) = bytes[i..].iter().position(|&b| b == b'~') {
        let at = i + found;
        match bytes.get(at + 1) {
            Some(b'0' | b'1') => i = at + 2,
            _ => return Err(InvalidEscape { offset: at }),
        }
    }
    Ok(())
}

/// Decodes a token already known to be valid.
fn decode_valid(token: &str) -> Cow<'_, str> {
    if !token.contains('~') {
        return Cow::Borrowed(token);
    }
    Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
}

/// Why a string is not a JSON Pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ParseErrorKind {
    /// A non-empty pointer must start with `/`.
    NoLeadingSlash,
    /// A `~` not followed by `0` or `1`.
    InvalidEscape,
}

/// A string that is not a valid JSON Pointer, with where it went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// Byte offset of the problem in the whole pointer string.
    pub offset: usize,
    /// Zero-based index of the reference token holding the problem.
    pub position: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParseErrorKind::NoLeadingSlash => {
                f.write_str("a JSON Pointer must be empty or start with '/'")
            }
            ParseErrorKind::InvalidEscape => write!(
                f,
                "invalid escape in token {} at byte {}: '~' must be followed by '0' or '1'",
                self.position, self.offset
            ),
        }
    }
}

impl std::error::Error for ParseError {}

fn validate(s: &str) -> Result<(), ParseError> {
    if s.is_empty() {
        return Ok(());
    }
    if !s.starts_with('/') {
        return Err(ParseError {
            kind: ParseErrorKind::NoLeadingSlash,
            offset: 0,
            position: 0,
        });
    }
    // Every `~` followed by `0` or `1`: valid (the usual case, one pass);
    // otherwise find the token at fault below.
    let bytes = s.as_bytes();
    let mut at = 0;
    loop {
        match bytes.get(at) {
            None => return Ok(()),
            Some(b'~') if matches!(bytes.get(at + 1), Some(b'0' | b'1')) => at += 2,
            Some(b'~') => break,
            Some(_) => at += 1,
        }
    }
    let mut start = 1;
    for (position, token) in s[1..].split('/').enumerate() {
        if let Err(err) = validate_token(token) {
            return Err(ParseError {
                kind: ParseErrorKind::InvalidEscape,
                offset: start + err.offset,
                position,
            });
        }
        start += token.len() + 1;
    }
    Ok(())
}

/// A borrowed, validated JSON Pointer, such as `/metadata/labels`.
/// The empty pointer `""` refers to the whole document.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Pointer(str);

impl Pointer {
    /// The empty pointer, which refers to the whole document.
    pub fn root() -> &'static Pointer {
        Pointer::new_unchecked("")
    }

    /// Validates `s` as a JSON Pointer.
    ///
    /// # Errors
    ///
    /// [`ParseError`] when `s` is not empty and lacks the leading `/`, or
    /// holds a `~` not followed by `0` or `1`.
    pub fn parse(s: &str) -> Result<&Pointer, ParseError> {
        validate(s)?;
        Ok(Pointer::new_unchecked(s))
    }

    fn new_unchecked(s: &str) -> &Pointer {
        // SAFETY: `Pointer` is `repr(transparent)` over `str`, so the two
        // references have the same layout and lifetime.
        unsafe { &*(s as *const str as *const Pointer) }
    }

    /// The pointer as written (escaped).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for the empty pointer (the whole document).
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The reference tokens, in order.
    pub fn tokens(&self) -> Tokens<'_> {
        Tokens {
            rest: if self.0.is_empty() {
                None
            } else {
                Some(&self.0[1..])
            },
        }
    }

    /// The number of reference tokens.
    pub fn count(&self) -> usize {
        self.0.bytes().filter(|&b| b == b'/').count()
    }

    /// The pointer without its last token; `None` for the root.
    pub fn parent(&self) -> Option<&Pointer> {
        self.split_back().map(|(parent, _)| parent)
    }

    /// The last token; `None` for the root.
    pub fn last(&self) -> Option<Token<'_>> {
        self.split_back().map(|(_, last)| last)
    }

    /// The parent and the last token; `None` for the root.
    pub fn split_back(&self) -> Option<(&Pointer, Token<'_>)> {
        let slash = self.0.rfind('/')?;
        Some((
            Pointer::new_unchecked(&self.0[..slash]),
            Token(&self.0[slash + 1..]),
        ))
    }

    /// True when `prefix` is this pointer or one of its ancestors, token by
    /// token: `/a/b` starts with `/a`, `/a/b2` does not start with `/a/b`.
    pub fn starts_with(&self, prefix: &Pointer) -> bool {
        self.0.starts_with(&prefix.0)
            && (self.0.len() == prefix.0.len() || self.0.as_bytes()[prefix.0.len()] == b'/')
    }

    /// An owned copy.
    pub fn to_buf(&self) -> PointerBuf {
        PointerBuf(self.0.to_owned())
    }

    /// This pointer with one more token, escaped from the raw `key`.
    pub fn join(&self, key: &str) -> PointerBuf {
        let mut buf = self.to_buf();
        buf.push_back(key);
        buf
    }
}

impl Pointer {
    /// The pointer as a URI fragment (RFC 6901 section 6): `#` followed by
    /// the pointer with every byte outside RFC 3986's unreserved and
    /// sub-delimiter sets percent-encoded.
    ///
    /// ```
    /// use patchlab::pointer::Pointer;
    /// assert_eq!(Pointer::parse("/c%d").unwrap().to_uri_fragment(), "#/c%25d");
    /// ```
    pub fn to_uri_fragment(&self) -> String {
        let mut out = String::with_capacity(self.0.len() + 1);
        out.push('#');
        for &b in self.0.as_bytes() {
            let keep = b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'-' | b'.'
                        | b'_'
                        | b'~'
                        | b'/'
                        | b'!'
                        | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                        | b':'
                        | b'@'
                        | b'?'
                );
            if keep {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }
}

impl PointerBuf {
    /// Reads a URI fragment representation (RFC 6901 section 6): a leading
    /// `#`, then a percent-encoded pointer.
    ///
    /// # Errors
    ///
    /// A message for a missing `#`, a bad percent escape, bytes that are not
    /// UTF-8 once decoded, or an invalid pointer.
    ///
    /// ```
    /// use patchlab::pointer::PointerBuf;
    /// assert_eq!(PointerBuf::from_uri_fragment("#/a~1b").unwrap().as_str(), "/a~1b");
    /// assert_eq!(PointerBuf::from_uri_fragment("#/%20").unwrap().as_str(), "/ ");
    /// ```
    pub fn from_uri_fragment(fragment: &str) -> Result<PointerBuf, String> {
        let rest = fragment
            .strip_prefix('#')
            .ok_or_else(|| format!("{fragment:?}: a URI fragment starts with '#'"))?;
        let bytes = rest.as_bytes();
        let mut decoded = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let hex = rest
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("{fragment:?}: bad percent escape at byte {}", i + 1))?;
                decoded.push(hex);
                i += 3;
            } else {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
        let text = String::from_utf8(decoded)
            .map_err(|_| format!("{fragment:?}: the decoded pointer is not UTF-8"))?;
        PointerBuf::parse(text).map_err(|e| format!("{fragment:?}: {e}"))
    }
}

impl Pointer {
    /// The value this pointer refers to in `doc` (RFC 6901 evaluation):
    /// object members by key, array elements by index without leading
    /// zeros; `None` when any step is missing.
    ///
    /// ```
    /// use patchlab::pointer::Pointer;
    /// let doc = serde_json::json!({"a/b": [10, 20]});
    /// assert_eq!(Pointer::parse("/a~1b/1").unwrap().resolve(&doc), Some(&serde_json::json!(20)));
    /// ```
    pub fn resolve<'v>(&self, doc: &'v serde_json::Value) -> Option<&'v serde_json::Value> {
        let mut current = doc;
        for token in self.tokens() {
            current = match current {
                serde_json::Value::Object(map) => map.get(token.decoded().as_ref())?,
                serde_json::Value::Array(items) => match token.to_index() {
                    Ok(Index::Num(i)) => items.get(i)?,
                    _ => return None,
                },
                _ => return None,
            };
        }
        Some(current)
    }

    /// The value this pointer refers to in `doc`, mutable; `None` when any
    /// step is missing (the same evaluation as [`Pointer::resolve`]).
    ///
    /// ```
    /// use patchlab::pointer::Pointer;
    /// let mut doc = serde_json::json!({"a": [1, 2]});
    /// *Pointer::parse("/a/1").unwrap().resolve_mut(&mut doc).unwrap() = 3.into();
    /// assert_eq!(doc, serde_json::json!({"a": [1, 3]}));
    /// ```
    pub fn resolve_mut<'v>(
        &self,
        doc: &'v mut serde_json::Value,
    ) -> Option<&'v mut serde_json::Value> {
        let mut current = doc;
        for token in self.tokens() {
            current = match current {
                serde_json::Value::Object(map) => map.get_mut(token.decoded().as_ref())?,
                serde_json::Value::Array(items) => match token.to_index() {
                    Ok(Index::Num(i)) => items.get_mut(i)?,
                    _ => return None,
                },
                _ => return None,
            };
        }
        Some(current)
    }

    /// Sets the value at this pointer, the way a writer sets a field of a
    /// Kubernetes object: parents that are missing or `null` become
    /// objects; an existing array element is replaced, and `-` (or the
    /// length) appends. Returns the value it replaced, if any.
    ///
    /// # Errors
    ///
    /// [`AssignError`] naming the parent that cannot hold a child: a
    /// scalar, or an array with no such position.
    ///
    /// ```
    /// use patchlab::pointer::Pointer;
    /// let mut doc = serde_json::json!({"metadata": {}});
    /// let key = Pointer::parse("/metadata/labels/kubevirt.io~1nodeName").unwrap();
    /// assert_eq!(key.assign(&mut doc, "node02".into()), Ok(None));
    /// assert_eq!(doc["metadata"]["labels"]["kubevirt.io/nodeName"], "node02");
    /// assert_eq!(key.assign(&mut doc, "node03".into()), Ok(Some("node02".into())));
    /// ```
    pub fn assign(
        &self,
        doc: &mut serde_json::Value,
        value: serde_json::Value,
    ) -> Result<Option<serde_json::Value>, AssignError> {
        let Some((parent, last)) = self.split_back() else {
            return Ok(Some(std::mem::replace(doc, value)));
        };
        let mut current = doc;
        // `self.0[..offset]` points at `current`.
        let mut offset = 0;
        for token in parent.tokens() {
            if current.is_null() {
                *current = serde_json::Value::Object(serde_json::Map::new());
            }
            let here = offset;
            offset += 1 + token.encoded().len();
            current = match current {
                serde_json::Value::Object(map) => map
                    .entry(token.decoded().into_owned())
                    .or_insert(serde_json::Value::Null),
                serde_json::Value::Array(items) => match token.to_index() {
                    Ok(Index::Num(i)) if i < items.len() => &mut items[i],
                    _ => {
                        return Err(AssignError::new(
                            &self.0[..here],
                            "an array without that position",
                        ))
                    }
                },
                other => return Err(AssignError::new(&self.0[..here], crate::text::kind(other))),
            };
        }
        if current.is_null() {
            *current = serde_json::Value::Object(serde_json::Map::new());
        }
        match current {
            serde_json::Value::Object(map) => Ok(map.insert(last.decoded().into_owned(), value)),
            serde_json::Value::Array(items) => match last.to_index() {
                Ok(Index::Num(i)) if i < items.len() => {
                    Ok(Some(std::mem::replace(&mut items[i], value)))
                }
                Ok(Index::Num(i)) if i == items.len() => {
                    items.push(value);
                    Ok(None)
                }
                Ok(Index::Next) => {
                    items.push(value);
                    Ok(None)
                }
                _ => Err(AssignError::new(
                    parent.as_str(),
                    "an array without that position",
                )),
            },
            other => Err(AssignError::new(parent.as_str(), crate::text::kind(other))),
        }
    }

    /// Removes the value at this pointer and returns it; `None` (and `doc`
    /// unchanged) when there is nothing there. The root cannot be removed.
    ///
    /// ```
    /// use patchlab::pointer::Pointer;
    /// let mut doc = serde_json::json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
    /// let a = Pointer::parse("/metadata/labels/a").unwrap();
    /// assert_eq!(a.delete(&mut doc), Some("1".into()));
    /// assert_eq!(a.delete(&mut doc), None);
    /// assert_eq!(doc, serde_json::json!({"metadata": {"labels": {"b": "2"}}}));
    /// ```
    pub fn delete(&self, doc: &mut serde_json::Value) -> Option<serde_json::Value> {
        let (parent, last) = self.split_back()?;
        match parent.resolve_mut(doc)? {
            serde_json::Value::Object(map) => map.remove(last.decoded().as_ref()),
            serde_json::Value::Array(items) => match last.to_index() {
                Ok(Index::Num(i)) if i < items.len() => Some(items.remove(i)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Why [`Pointer::assign`] could not set a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignError {
    /// The parent that cannot hold the child (`""`: the document).
    pub parent: String,
    /// What it is.
    pub found: &'static str,
}

impl AssignError {
    fn new(parent: &str, found: &'static str) -> AssignError {
        AssignError {
            parent: parent.to_owned(),
            found,
        }
    }
}

impl fmt::Display for AssignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parent = if self.parent.is_empty() {
            "the document"
        } else {
            &self.parent
        };
        write!(f, "cannot set a value under {parent}: it is {}", self.found)
    }
}

impl std::error::Error for AssignError {}

impl fmt::Debug for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Pointer {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl ToOwned for Pointer {
    type Owned = PointerBuf;
    fn to_owned(&self) -> PointerBuf {
        self.to_buf()
    }
}

impl PartialEq<str> for Pointer {
    fn eq(&self, other: &str) -> bool {
        &self.0 == other
    }
}

impl PartialEq<&str> for Pointer {
    fn eq(&self, other: &&str) -> bool {
        &self.0 == *other
    }
}

/// An owned, validated JSON Pointer.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PointerBuf(String);

impl PointerBuf {
    /// The empty pointer (the whole document).
    pub fn new() -> PointerBuf {
        PointerBuf(String::new())
    }

    /// Validates and takes ownership of `s`.
    ///
    /// # Errors
    ///
    /// As [`Pointer::parse`].
    pub fn parse(s: impl Into<String>) -> Result<PointerBuf, ParseError> {
        let s = s.into();
        validate(&s)?;
        Ok(PointerBuf(s))
    }

    /// Builds a pointer from raw (unescaped) tokens.
    ///
    /// ```
    /// use patchlab::pointer::PointerBuf;
    /// let p = PointerBuf::from_tokens(["metadata", "annotations", "a/b"]);
    /// assert_eq!(p.as_str(), "/metadata/annotations/a~1b");
    /// ```
    pub fn from_tokens<I, S>(tokens: I) -> PointerBuf
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut buf = PointerBuf::new();
        for token in tokens {
            buf.push_back(token.as_ref());
        }
        buf
    }

    /// Appends one raw (unescaped) token.
    pub fn push_back(&mut self, key: &str) {
        self.0.push('/');
        self.0.push_str(&escape(key));
    }

    /// Removes the last token and returns it decoded; `None` at the root.
    pub fn pop_back(&mut self) -> Option<String> {
        let slash = self.0.rfind('/')?;
        let token = decode_valid(&self.0[slash + 1..]).into_owned();
        self.0.truncate(slash);
        Some(token)
    }

    /// The borrowed form.
    pub fn as_pointer(&self) -> &Pointer {
        Pointer::new_unchecked(&self.0)
    }

    /// The escaped string.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for PointerBuf {
    type Target = Pointer;
    fn deref(&self) -> &Pointer {
        self.as_pointer()
    }
}

impl Borrow<Pointer> for PointerBuf {
    fn borrow(&self) -> &Pointer {
        self.as_pointer()
    }
}

impl AsRef<Pointer> for PointerBuf {
    fn as_ref(&self) -> &Pointer {
        self.as_pointer()
    }
}

impl fmt::Debug for PointerBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for PointerBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for PointerBuf {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        PointerBuf::parse(s)
    }
}

impl From<&Pointer> for PointerBuf {
    fn from(p: &Pointer) -> Self {
        p.to_buf()
    }
}

impl PartialEq<Pointer> for PointerBuf {
    fn eq(&self, other: &Pointer) -> bool {
        self.0 == other.0
    }
}

impl PartialEq<&str> for PointerBuf {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl serde::Serialize for PointerBuf {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for PointerBuf {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        PointerBuf::parse(s).map_err(serde::de::Error::custom)
    }
}

/// Iterator over the tokens of a [`Pointer`].
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;
    fn next(&mut self) -> Option<Token<'a>> {
        let rest = self.rest?;
        match rest.find('/') {
            Some(slash) => {
                self.rest = Some(&rest[slash + 1..]);
                Some(Token(&rest[..slash]))
            }
            None => {
                self.rest = None;
                Some(Token(rest))
            }
        }
    }
}

/// One reference token of a valid pointer, kept in its escaped form.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token<'a>(&'a str);

impl<'a> Token<'a> {
    /// The token as written in the pointer (`a~1b`).
    pub fn encoded(&self) -> &'a str {
        self.0
    }

    /// The token's value (`a/b`); borrowed when it holds no escapes.
    pub fn decoded(&self) -> Cow<'a, str> {
        decode_valid(self.0)
    }

    /// Reads the token as an array index under RFC 6901/6902 rules.
    ///
    /// # Errors
    ///
    /// [`IndexError`] for anything but `-` or a decimal number without
    /// leading zeros that fits in `usize`.
    ///
    /// ```
    /// use patchlab::pointer::{Index, Pointer};
    /// let p = Pointer::parse("/0/-/01").unwrap();
    /// let t: Vec<_> = p.tokens().map(|t| t.to_index()).collect();
    /// assert_eq!(t[0], Ok(Index::Num(0)));
    /// assert_eq!(t[1], Ok(Index::Next));
    /// assert!(t[2].is_err());
    /// ```
    pub fn to_index(&self) -> Result<Index, IndexError> {
        parse_index(self.0)
    }
}

impl fmt::Debug for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// An array position named by a reference token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Index {
    /// A position `0..`.
    Num(usize),
    /// `-`: the position after the last element.
    Next,
}

/// Why a token is not an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// Not `-` and not made of decimal digits.
    NotANumber(String),
    /// More than one digit starting with `0`.
    LeadingZero(String),
    /// Too large for this machine's `usize`.
    Overflow(String),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::NotANumber(t) => write!(f, "array index {t:?} is not a number"),
            IndexError::LeadingZero(t) => {
                write!(f, "array index {t:?} has a leading zero")
            }
            IndexError::Overflow(t) => write!(f, "array index {t:?} is too large"),
        }
    }
}

impl std::error::Error for IndexError {}

/// Parses an array index token under RFC 6901: `-`, `0`, or digits without
/// a leading zero.
pub(crate) fn parse_index(token: &str) -> Result<Index, IndexError> {
    if token == "-" {
        return Ok(Index::Next);
    }
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(IndexError::NotANumber(token.to_owned()));
    }
    if token.len() > 1 && token.starts_with('0') {
        return Err(IndexError::LeadingZero(token.to_owned()));
    }
    token
        .parse::<usize>()
        .map(Index::Num)
        .map_err(|_| IndexError::Overflow(token.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_matches_kubevirt() {
        let cases = [
            ("", ""),
            ("plain", "plain"),
            ("kubevirt.io/nodeName", "kubevirt.io~1nodeName"),
            ("a~b/c", "a~0b~1c"),
            ("~1", "~01"),
            ("/~", "~1~0"),
            ("~~//", "~0~0~1~1"),
            ("ünï/cödé", "ünï~1cödé"),
        ];
        for (raw, escaped) in cases {
            assert_eq!(escape(raw), escaped, "escape({raw:?})");
            assert_eq!(unescape(escaped).unwrap(), raw, "unescape({escaped:?})");
        }
    }

    #[test]
    fn unescape_rejects_bad_escapes_with_offset() {
        assert_eq!(unescape("ab~"), Err(InvalidEscape { offset: 2 }));
        assert_eq!(unescape("~0~2"), Err(InvalidEscape { offset: 2 }));
        assert_eq!(unescape("~x"), Err(InvalidEscape { offset: 0 }));
    }

    /// RFC 6901 section 5: every pointer of the example resolves to the
    /// listed token values.
    #[test]
    fn rfc6901_section5_tokens() {
        let cases: [(&str, &[&str]); 12] = [
            ("", &[]),
            ("/foo", &["foo"]),
            ("/foo/0", &["foo", "0"]),
            ("/", &[""]),
            ("/a~1b", &["a/b"]),
            ("/c%d", &["c%d"]),
            ("/e^f", &["e^f"]),
            ("/g|h", &["g|h"]),
            ("/i\\j", &["i\\j"]),
            ("/k\"l", &["k\"l"]),
            ("/ ", &[" "]),
            ("/m~0n", &["m~n"]),
        ];
        for (s, tokens) in cases {
            let p = Pointer::parse(s).unwrap();
            let got: Vec<_> = p.tokens().map(|t| t.decoded().into_owned()).collect();
            assert_eq!(got, tokens, "{s:?}");
            assert_eq!(p.count(), tokens.len());
            assert_eq!(PointerBuf::from_tokens(tokens).as_str(), s);
        }
    }

    /// RFC 6901 section 6: the same pointers as URI fragments.
    #[test]
    fn rfc6901_section6_uri_fragments() {
        let cases = [
            ("#", ""),
            ("#/foo", "/foo"),
            ("#/foo/0", "/foo/0"),
            ("#/", "/"),
            ("#/a~1b", "/a~1b"),
            ("#/c%25d", "/c%d"),
            ("#/e%5Ef", "/e^f"),
            ("#/g%7Ch", "/g|h"),
            ("#/i%5Cj", "/i\\j"),
            ("#/k%22l", "/k\"l"),
            ("#/%20", "/ "),
            ("#/m~0n", "/m~0n"),
        ];
        for (fragment, pointer) in cases {
            let parsed = PointerBuf::from_uri_fragment(fragment).unwrap();
            assert_eq!(parsed.as_str(), pointer, "{fragment}");
            assert_eq!(parsed.to_uri_fragment(), fragment, "{pointer:?}");
        }
        assert!(PointerBuf::from_uri_fragment("/foo").is_err());
        assert!(PointerBuf::from_uri_fragment("#/%zz").is_err());
        assert!(PointerBuf::from_uri_fragment("#/%ff").is_err());
        assert!(PointerBuf::from_uri_fragment("#foo").is_err());
    }

    #[test]
    fn parse_errors_name_position_and_offset() {
        let err = Pointer::parse("foo").unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::NoLeadingSlash);
        assert_eq!(
            err.to_string(),
            "a JSON Pointer must be empty or start with '/'"
        );

        let err = Pointer::parse("/a/b~2c").unwrap_err();
        assert_eq!(
            err,
            ParseError {
                kind: ParseErrorKind::InvalidEscape,
                offset: 4,
                position: 1
            }
        );
        assert_eq!(
            err.to_string(),
            "invalid escape in token 1 at byte 4: '~' must be followed by '0' or '1'"
        );
        assert!(Pointer::parse("/trailing~").is_err());
    }

    #[test]
    fn parent_last_split_and_join() {
        let p = Pointer::parse("/metadata/labels/a~1b").unwrap();
        let (parent, last) = p.split_back().unwrap();
        assert_eq!(parent.as_str(), "/metadata/labels");
        assert_eq!(last.encoded(), "a~1b");
        assert_eq!(last.decoded(), "a/b");
        assert_eq!(parent.join("a/b"), *p);
        assert_eq!(
            Pointer::parse("/x").unwrap().parent(),
            Some(Pointer::root())
        );
        assert_eq!(Pointer::root().parent(), None);
        assert_eq!(Pointer::root().last(), None);
    }

    #[test]
    fn push_and_pop_are_inverse() {
        let mut buf = PointerBuf::new();
        for key in ["a", "", "b/c", "~"] {
            buf.push_back(key);
        }
        assert_eq!(buf.as_str(), "/a//b~1c/~0");
        assert_eq!(buf.pop_back().as_deref(), Some("~"));
        assert_eq!(buf.pop_back().as_deref(), Some("b/c"));
        assert_eq!(buf.pop_back().as_deref(), Some(""));
        assert_eq!(buf.pop_back().as_deref(), Some("a"));
        assert_eq!(buf.pop_back(), None);
        assert!(buf.is_root());
    }

    #[test]
    fn starts_with_is_token_wise() {
        let p = Pointer::parse("/a/b").unwrap();
        assert!(p.starts_with(Pointer::root()));
        assert!(p.starts_with(Pointer::parse("/a").unwrap()));
        assert!(p.starts_with(p));
        assert!(!p.starts_with(Pointer::parse("/a/b2").unwrap()));
        assert!(!Pointer::parse("/a/b2")
            .unwrap()
            .starts_with(Pointer::parse("/a/b").unwrap()));
    }

    #[test]
    fn index_rules() {
        assert_eq!(parse_index("0"), Ok(Index::Num(0)));
        assert_eq!(parse_index("10"), Ok(Index::Num(10)));
        assert_eq!(parse_index("-"), Ok(Index::Next));
        assert!(matches!(parse_index("01"), Err(IndexError::LeadingZero(_))));
        assert!(matches!(parse_index("00"), Err(IndexError::LeadingZero(_))));
        assert!(matches!(parse_index("1e0"), Err(IndexError::NotANumber(_))));
        assert!(matches!(parse_index("-1"), Err(IndexError::NotANumber(_))));
        assert!(matches!(parse_index("+1"), Err(IndexError::NotANumber(_))));
        assert!(matches!(parse_index(""), Err(IndexError::NotANumber(_))));
        assert!(matches!(
            parse_index("99999999999999999999999999"),
            Err(IndexError::Overflow(_))
        ));
    }

    #[test]
    fn serde_round_trip_validates() {
        let p: PointerBuf = serde_json::from_str("\"/a~1b\"").unwrap();
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"/a~1b\"");
        assert!(serde_json::from_str::<PointerBuf>("\"a\"").is_err());
    }

    /// What was there, or the error.
    type Assigned = Result<Option<&'static str>, &'static str>;

    /// Assigning `1`: the document, the pointer, the document after, and
    /// what was there or the error.
    const ASSIGNS: &[(&str, &str, &str, Assigned)] = &[
        ("{}", "/a", r#"{"a": 1}"#, Ok(None)),
        (
            r#"{"a": null}"#,
            "/a/b/c",
            r#"{"a": {"b": {"c": 1}}}"#,
            Ok(None),
        ),
        (r#"{"a": 2}"#, "/a", r#"{"a": 1}"#, Ok(Some("2"))),
        (
            r#"{"l": [0, 2]}"#,
            "/l/1",
            r#"{"l": [0, 1]}"#,
            Ok(Some("2")),
        ),
        (r#"{"l": [0]}"#, "/l/-", r#"{"l": [0, 1]}"#, Ok(None)),
        (r#"{"l": [0]}"#, "/l/1", r#"{"l": [0, 1]}"#, Ok(None)),
        (
            r#"{"l": [0]}"#,
            "/l/5",
            r#"{"l": [0]}"#,
            Err("cannot set a value under /l: it is an array without that position"),
        ),
        (
            r#"{"a": "s"}"#,
            "/a/b",
            r#"{"a": "s"}"#,
            Err("cannot set a value under /a: it is a string"),
        ),
        (
            r#"{"a": 3}"#,
            "/a/b/c",
            r#"{"a": 3}"#,
            Err("cannot set a value under /a: it is a number"),
        ),
    ];

    #[test]
    fn assign() {
        use serde_json::json;
        let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        for &(doc, pointer, after, result) in ASSIGNS {
            let mut doc = parse(doc);
            let p = Pointer::parse(pointer).unwrap();
            let got = p.assign(&mut doc, json!(1)).map_err(|e| e.to_string());
            let result = result.map(|old| old.map(parse)).map_err(str::to_owned);
            assert_eq!(got, result, "{pointer}");
            assert_eq!(doc, parse(after), "{pointer}");
        }
        let mut doc = json!({"a": 1});
        assert_eq!(
            Pointer::root().assign(&mut doc, json!([])),
            Ok(Some(json!({"a": 1})))
        );
        assert_eq!(doc, json!([]));
    }

    #[test]
    fn delete_and_resolve_mut() {
        use serde_json::json;
        let mut doc = json!({"l": [1, 2, 3], "m": {"k~/": null}});
        assert_eq!(
            Pointer::parse("/l/0").unwrap().delete(&mut doc),
            Some(json!(1))
        );
        assert_eq!(Pointer::parse("/l/-").unwrap().delete(&mut doc), None);
        assert_eq!(
            Pointer::parse("/m/k~0~1").unwrap().delete(&mut doc),
            Some(json!(null))
        );
        assert_eq!(Pointer::parse("/x/y").unwrap().delete(&mut doc), None);
        assert_eq!(Pointer::root().delete(&mut doc), None);
        assert_eq!(doc, json!({"l": [2, 3], "m": {}}));
        let mut doc = json!({"a": {"b": 1}});
        *Pointer::parse("/a/b")
            .unwrap()
            .resolve_mut(&mut doc)
            .unwrap() = json!(2);
        assert_eq!(doc, json!({"a": {"b": 2}}));
        assert!(Pointer::parse("/a/b/c")
            .unwrap()
            .resolve_mut(&mut doc)
            .is_none());
    }
}
