//! `PatchlabError`s: the one shape every function of the module throws.

use js_sys::{Error, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The longest quoted string or word a message shows whole.
pub(super) const MESSAGE_WORD: usize = 200;

/// A `PatchlabError` with `kind` and `message`; add properties with
/// [`ErrorBuilder::set`].
pub(super) struct ErrorBuilder(Error);

impl ErrorBuilder {
    /// A `PatchlabError` of `kind`; in its `message`, every quoted string
    /// or word longer than [`MESSAGE_WORD`] characters is cut, with its
    /// length (`crate::text::cut_long`): the error's own properties
    /// (`path`, `cause`, ...) keep them whole.
    pub(super) fn new(kind: &str, message: &str) -> ErrorBuilder {
        let error = Error::new(&crate::text::cut_long(message, MESSAGE_WORD));
        error.set_name("PatchlabError");
        let builder = ErrorBuilder(error);
        builder.set("kind", kind)
    }

    pub(super) fn set(self, key: &str, value: impl Into<JsValue>) -> ErrorBuilder {
        let _ = Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }

    pub(super) fn set_opt<T: Into<JsValue>>(self, key: &str, value: Option<T>) -> ErrorBuilder {
        match value {
            Some(value) => self.set(key, value),
            None => self,
        }
    }

    pub(super) fn build(self) -> JsValue {
        self.0.into()
    }
}

pub(super) fn bad_argument(message: impl AsRef<str>) -> JsValue {
    ErrorBuilder::new("bad-argument", message.as_ref()).build()
}

/// The message of a thrown JS value.
pub(super) fn thrown(err: &JsValue) -> String {
    err.dyn_ref::<Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| err.as_string())
        .unwrap_or_default()
}
