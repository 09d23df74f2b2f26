//! YAML read by another module. The playground's Check module carries no
//! YAML reader (about 24 KB gzip of saphyr and [`super::yaml`], #27): the
//! YAML texts its linter reads (a YAML patch, the `-p` argument of a
//! `kubectl patch` command, the current object) are read by the engines'
//! module, and lint runs again with their values.
//!
//! [`reading`] runs a closure (a lint run) with every YAML text it reads
//! taken from a [`ReadTexts`]: a text found there reads as it was read
//! elsewhere, and one not found is not read at all, in any build (so a
//! native test sees what the browser does), but asked for: it reads as
//! an error ([`UNREAD`]) and is listed in [`Asked::unread`]. Outside
//! [`reading`], YAML is read here, where a reader is compiled in.
//!
//! ```
//! use std::rc::Rc;
//! use patchlab::input::{self, elsewhere::{self, ReadTexts}, Budget};
//!
//! let text = "metadata:\n  name: web\n";
//! let mut read = ReadTexts::default();
//! let (first, asked) = elsewhere::reading(&Rc::new(read.clone()), || input::parse(text, &Budget::default()));
//! assert!(first.is_err());
//! assert_eq!(asked.unread, [Rc::from(text)]);
//!
//! // Read elsewhere (here, by the reader of this build), then taken.
//! read.insert(Rc::from(text), input::parse(text, &Budget::default()).map(|(v, _)| v));
//! let (second, asked) = elsewhere::reading(&Rc::new(read), || input::parse(text, &Budget::default()));
//! assert_eq!(second.unwrap().0["metadata"]["name"], "web");
//! assert!(asked.unread.is_empty());
//! assert_eq!(asked.used, [Rc::from(text)]);
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use super::InputError;

/// The message of a YAML text that was asked for and is not read yet.
pub const UNREAD: &str = "this YAML is not read yet";

/// What a text reads as: its value, or why it is not YAML.
pub type Read = Result<Value, InputError>;

/// YAML texts read elsewhere, each with its value or why it is not YAML.
/// (A handful at a time: the texts one check reads, and the bundled
/// examples'; a list, searched in order, costs less code than a map.)
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadTexts {
    // Each value shared: a copy of the list (a state's next) copies none.
    texts: Vec<(Rc<str>, Rc<Read>)>,
}

impl ReadTexts {
    /// Records what `text` reads as.
    pub fn insert(&mut self, text: Rc<str>, read: Result<Value, InputError>) {
        let read = Rc::new(read);
        match self.texts.iter_mut().find(|(t, _)| *t == text) {
            Some((_, held)) => *held = read,
            None => self.texts.push((text, read)),
        }
    }

    /// What `text` reads as, when it was read.
    pub fn get(&self, text: &str) -> Option<&Result<Value, InputError>> {
        self.texts
            .iter()
            .find(|(t, _)| &**t == text)
            .map(|(_, read)| &**read)
    }

    /// How many texts are held.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// True when none is.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// Keeps only `texts` (the ones a run used: a text typed over is
    /// never read again, and is not kept).
    pub fn keep_only(&mut self, texts: &[Rc<str>]) {
        self.texts.retain(|(text, _)| texts.contains(text));
    }
}

/// The YAML texts a run of [`reading`] read, in order, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// Read from the [`ReadTexts`] given.
    pub used: Vec<Rc<str>>,
    /// Not there: they read as [`UNREAD`] and are to be read elsewhere.
    pub unread: Vec<Rc<str>>,
}

struct Scope {
    read: Rc<ReadTexts>,
    asked: Asked,
}

thread_local! {
    static SCOPE: RefCell<Option<Scope>> = const { RefCell::new(None) };
}

/// Runs `f` with its YAML read from `read` (see the module's text), and
/// says which texts it read and which it could not.
pub fn reading<R>(read: &Rc<ReadTexts>, f: impl FnOnce() -> R) -> (R, Asked) {
    /// Puts the scope that was there back, even if `f` unwinds.
    struct Restore(Option<Scope>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            SCOPE.with(|scope| *scope.borrow_mut() = outer);
        }
    }
    let outer = SCOPE.with(|scope| {
        scope.borrow_mut().replace(Scope {
            read: Rc::clone(read),
            asked: Asked::default(),
        })
    });
    let restore = Restore(outer);
    let result = f();
    let asked = SCOPE
        .with(|scope| scope.borrow_mut().take())
        .map(|scope| scope.asked)
        .unwrap_or_default();
    drop(restore);
    (result, asked)
}

/// Inside [`reading`], what `text` reads as (or [`UNREAD`], asked for);
/// `None` outside.
pub(super) fn lookup(text: &str) -> Option<Result<Value, InputError>> {
    SCOPE.with(|scope| {
        let mut scope = scope.borrow_mut();
        let scope = scope.as_mut()?;
        let (found, list) = match scope.read.get(text) {
            Some(read) => (read.clone(), &mut scope.asked.used),
            None => (unread(), &mut scope.asked.unread),
        };
        if !list.iter().any(|t| &**t == text) {
            list.push(Rc::from(text));
        }
        Some(found)
    })
}

/// The error of a text asked for and not read yet.
pub fn unread() -> Result<Value, InputError> {
    Err(InputError {
        message: UNREAD.to_owned(),
        line: None,
        column: None,
    })
}
