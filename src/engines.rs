//! patchlab's engines as the playground asks them: one protocol of
//! questions and answers between a view and the engines' Web Worker.
//!
//! A question is a type that implements [`Question`]: its name, the
//! revision of the view it is asked at, its answer, why it may be refused,
//! and how the engines answer it. Each has a file of its own here, and a
//! line in [`TABLE`], which the worker serves:
//!
//! | question | asked by | answer |
//! |---|---|---|
//! | [`build::Build`] | Build | every result column and the Fields table |
//! | [`convert::Convert`] | Build | both texts rewritten in JSON or YAML |
//! | [`check::Check`] | Check | lint of a patch against an object, as shown |
//! | [`explain::Explain`] | Check | the panel's texts for a pasted error |
//! | [`read_yaml::ReadYaml`] | Race | texts read as YAML |
//! | [`race::Race`] | Race | a replay of a timeline, with compare mode |
//! | [`explore::Explore`] | Race | every interleaving of a timeline |
//! | [`scale::Scale`] | Scale | a mass migration, in parts as it runs |
//!
//! On the wire every message is JSON text. The page asks
//! `{"ask":"build","rev":R,"question":Q,"seq":7}`, the worker answers
//! `{"answered":"build","rev":R,"answer":A,"seq":7}` (`"more":true` when
//! parts follow), or `{"answered":..,"refused":E,..}` when the question
//! cannot be answered. `{"cancel":"scale"}` stops a question of a name
//! waiting or running; `{"forget":"scale"}` also frees what the engines
//! keep for it. The worker says `{"ready":true}` once it listens, and
//! `{"misread":".."}` for a message it cannot read.
//!
//! One revision scheme serves every view: a view asks at its own revision
//! ([`Question::Rev`]), the answer comes back with it ([`Answered`]), and
//! the view keeps it in an [`Asked`], which takes an answer to the
//! revision it wants and nothing else. A newer question replaces a
//! waiting or running one of its name ([`worker::Worker`]); the client
//! drops late answers ([`wire::Latest`]).
//!
//! Adding a question: a file with its type and `impl Question`, and its
//! line in [`TABLE`] (`Entry::of::<owners::Owners>()`). A table may also
//! be made elsewhere (a test's), with the same lines.
//!
//! ```
//! use patchlab::engines::{build::{Build, Column}, worker::Worker, TABLE};
//! use patchlab::strategy::Preset;
//!
//! let question = Build {
//!     old: r#"{"metadata":{"labels":{}}}"#.into(),
//!     new: r#"{"metadata":{"labels":{"a":"b"}}}"#.into(),
//!     columns: vec![Column::of(Preset::KubevirtMain)],
//!     kubernetes: Default::default(),
//! };
//! let mut worker = Worker::new(TABLE);
//! let answer = worker.answer_now(question).unwrap();
//! let results = answer.results.clone().expect("both sides parse");
//! // kubevirt-main writes labels as a whole map, guarded by a test of it.
//! assert_eq!(results.columns[0].ops[0].op, "test");
//! assert_eq!(results.columns[0].ops[0].path, "/metadata/labels");
//! ```

use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::fmt::{self, Debug, Display};
use std::rc::Rc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub mod build;
pub mod check;
pub mod convert;
pub mod explain;
pub mod explore;
pub mod race;
pub mod read_yaml;
pub mod scale;
pub mod wire;
pub mod worker;

#[cfg(target_arch = "wasm32")]
pub mod client;

#[cfg(test)]
pub(crate) mod tests;

/// The questions the engines' worker answers, one line each.
pub const TABLE: &[Entry] = &[
    Entry::of::<build::Build>(),
    Entry::of::<convert::Convert>(),
    Entry::of::<check::Check>(),
    Entry::of::<explain::Explain>(),
    Entry::of::<read_yaml::ReadYaml>(),
    Entry::of::<race::Race>(),
    Entry::of::<explore::Explore>(),
    Entry::of::<scale::Scale>(),
];

/// One question the engines answer.
pub trait Question: Serialize + DeserializeOwned + 'static {
    /// Its name on the wire (`build`); one question per name.
    const NAME: &'static str;
    /// True when it is answered in parts ([`Question::start`]): never on
    /// the page's own thread.
    const IN_PARTS: bool = false;
    /// True when the page reads its answers through a `serde_json::Value`
    /// (the Race module reads every JSON text that way, its bundled
    /// answers included: one reader of an answer's types, not two).
    const READ_THROUGH_VALUE: bool = false;
    /// The revision of the view it is asked at.
    type Rev: Copy + PartialEq + Debug + Serialize + DeserializeOwned + 'static;
    /// What the engines answer.
    type Answer: Debug + Serialize + DeserializeOwned + 'static;
    /// Why the engines refuse it ([`Never`]: they never do).
    type Refusal: Clone + PartialEq + Debug + Display + Serialize + DeserializeOwned + 'static;

    /// The bytes of text it carries: a small question is answered on the
    /// page's own thread when the engines are there
    /// ([`worker::IN_PAGE_BYTES`]).
    fn bytes(&self) -> usize {
        usize::MAX
    }

    /// Its answer, or why there is none.
    ///
    /// # Errors
    ///
    /// [`Question::Refusal`]: why the engines refuse it.
    fn answer(self, caches: &mut Caches) -> Result<Self::Answer, Self::Refusal>;

    /// Starts answering it: the whole answer at once, unless it is
    /// answered in parts.
    fn start(self, caches: &mut Caches) -> Start<Self>
    where
        Self: Sized,
    {
        Start::Whole(self.answer(caches))
    }

    /// Frees what the engines keep for questions of this name (the view
    /// that asks them ended).
    fn forget(_caches: &mut Caches) {}
}

/// How a question starts to be answered.
pub enum Start<Q: Question> {
    /// The whole answer, or why there is none.
    Whole(Result<Q::Answer, Q::Refusal>),
    /// The answer comes in parts.
    Parts(Box<dyn Parts<Q>>),
}

/// A question answered in parts (Scale's run): each call does about
/// [`PART_MS`] of work.
pub trait Parts<Q: Question> {
    /// The next part, and whether it is the last; `clock` reads
    /// milliseconds.
    fn next(&mut self, caches: &mut Caches, clock: &dyn Fn() -> f64) -> (Q::Answer, bool);

    /// Gives back to `caches` what it borrowed (it ended, was replaced or
    /// cancelled).
    fn end(self: Box<Self>, caches: &mut Caches);
}

/// Texts up to this many bytes (all of a view's editors together) are
/// asked about on every keystroke; bigger ones after [`PAUSE_MS`] without
/// typing, so an edit costs one render and the page keeps responding.
pub const INSTANT_BYTES: usize = 20_000;

/// The pause in typing before big texts are asked about, in milliseconds.
pub const PAUSE_MS: u32 = 300;

/// The work a part aims at, in milliseconds: the worker reads its
/// messages between parts.
pub const PART_MS: f64 = 25.0;

/// A line of a table of questions: a question's name and its answering,
/// with the question's type erased (what the worker needs of it).
#[derive(Clone, Copy)]
pub struct Entry {
    /// [`Question::NAME`].
    pub name: &'static str,
    pub(crate) start: fn(&str, Option<u32>, &mut Caches) -> worker::Started,
    pub(crate) forget: fn(&mut Caches),
}

impl Entry {
    /// The line of question `Q`.
    pub const fn of<Q: Question>() -> Entry {
        Entry {
            name: Q::NAME,
            start: worker::start::<Q>,
            forget: Q::forget,
        }
    }
}

impl Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Entry").field(&self.name).finish()
    }
}

/// What the engines keep between questions (a parse of each side, warm
/// tables), each question's own, by type.
#[derive(Default)]
pub struct Caches {
    kept: BTreeMap<TypeId, Box<dyn Any>>,
}

impl Caches {
    /// The cache of type `T`, made on first use.
    pub fn get<T: Default + 'static>(&mut self) -> &mut T {
        let kept = self
            .kept
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()));
        // The entry of `TypeId::of::<T>()` always holds a `T`.
        match kept.downcast_mut::<T>() {
            Some(kept) => kept,
            None => unreachable!("a cache of another type"),
        }
    }

    /// Frees the cache of type `T`.
    pub fn free<T: 'static>(&mut self) {
        self.kept.remove(&TypeId::of::<T>());
    }

    /// True when a cache of type `T` is kept.
    pub fn holds<T: 'static>(&self) -> bool {
        self.kept.contains_key(&TypeId::of::<T>())
    }
}

/// A refusal that never happens: the [`Question::Refusal`] of questions
/// the engines always answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Never {}

impl Display for Never {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// Why a question came back without its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure<R> {
    /// The engines refused it ([`Question::Refusal`]).
    Refused(R),
    /// The engines could not answer.
    Unavailable(Unavailable),
}

impl<R: Display> Display for Failure<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Refused(why) => Display::fmt(why, f),
            Failure::Unavailable(why) => Display::fmt(why, f),
        }
    }
}

/// Why the engines could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The browser did not start their worker (its words).
    NotStarted(String),
    /// Their worker stopped, or its module did not load.
    Stopped,
    /// Their answer could not be read (a worker of another version).
    Unreadable(String),
    /// They could not read a question (a worker of another version).
    Misread(String),
    /// Another module of the page saw them fail (its words).
    Earlier(String),
}

impl Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::NotStarted(why) => write!(f, "the engine worker could not start ({why})"),
            Unavailable::Stopped => f.write_str(
                "the engine worker stopped or did not start (check the connection and reload the page)",
            ),
            Unavailable::Unreadable(why) => write!(
                f,
                "unreadable answer from the engine worker (reload the page): {why}"
            ),
            Unavailable::Misread(why) => write!(
                f,
                "the engine worker could not read a request (reload the page): {why}"
            ),
            Unavailable::Earlier(why) => f.write_str(why),
        }
    }
}

/// An answer as a view takes it: the revision asked at, and the answer or
/// why there is none.
pub struct Answered<Q: Question> {
    /// The revision the question was asked at.
    pub rev: Q::Rev,
    /// The answer, or why there is none.
    pub answer: Result<Rc<Q::Answer>, Failure<Q::Refusal>>,
    /// True when more parts follow ([`Question::IN_PARTS`]).
    pub more: bool,
}

impl<Q: Question> Clone for Answered<Q> {
    fn clone(&self) -> Self {
        Answered {
            rev: self.rev,
            answer: self.answer.clone(),
            more: self.more,
        }
    }
}

impl<Q: Question> Debug for Answered<Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Answered")
            .field("rev", &self.rev)
            .field("answer", &self.answer)
            .field("more", &self.more)
            .finish()
    }
}

/// Equal when they answer the same revision the same way (an answer is
/// the engines' for its revision: compared by address).
impl<Q: Question> PartialEq for Answered<Q> {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.answer, &other.answer) {
            (Ok(a), Ok(b)) => Rc::ptr_eq(a, b),
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        self.rev == other.rev && self.more == other.more && same
    }
}

/// What a view asked of the engines, by revision: their latest answer
/// (maybe to an earlier revision: shown dimmed while they answer the
/// current one) and why they could not answer a revision.
pub struct Asked<Q: Question> {
    /// The latest answer, with the revision it answers.
    pub latest: Option<(Q::Rev, Rc<Q::Answer>)>,
    /// Why the engines could not answer a revision.
    pub failed: Option<(Q::Rev, Failure<Q::Refusal>)>,
}

impl<Q: Question> Default for Asked<Q> {
    fn default() -> Self {
        Asked {
            latest: None,
            failed: None,
        }
    }
}

impl<Q: Question> Clone for Asked<Q> {
    fn clone(&self) -> Self {
        Asked {
            latest: self.latest.clone(),
            failed: self.failed.clone(),
        }
    }
}

impl<Q: Question> Debug for Asked<Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Asked")
            .field("latest", &self.latest.as_ref().map(|(rev, _)| rev))
            .field("failed", &self.failed)
            .finish()
    }
}

/// Equal when they answer and failed on the same revisions (the same
/// revision, the same answer).
impl<Q: Question> PartialEq for Asked<Q> {
    fn eq(&self, other: &Self) -> bool {
        self.latest.as_ref().map(|(rev, _)| rev) == other.latest.as_ref().map(|(rev, _)| rev)
            && self.failed == other.failed
    }
}

impl<Q: Question> Asked<Q> {
    /// An answer taken already (one computed at build time).
    pub fn answered(rev: Q::Rev, answer: Rc<Q::Answer>) -> Self {
        Asked {
            latest: Some((rev, answer)),
            failed: None,
        }
    }

    /// The latest answer, whichever revision it answers.
    pub fn shown(&self) -> Option<&Rc<Q::Answer>> {
        self.latest.as_ref().map(|(_, answer)| answer)
    }

    /// True when the latest answer is to revision `rev`.
    pub fn answers(&self, rev: Q::Rev) -> bool {
        self.latest
            .as_ref()
            .is_some_and(|(answered, _)| *answered == rev)
    }

    /// Why the engines could not answer revision `rev`.
    pub fn failed_on(&self, rev: Q::Rev) -> Option<&Failure<Q::Refusal>> {
        self.failed
            .as_ref()
            .filter(|(failed, _)| *failed == rev)
            .map(|(_, why)| why)
    }

    /// True when revision `rev` is to be asked: not answered, not failed.
    pub fn wanted(&self, rev: Q::Rev) -> bool {
        !self.answers(rev) && self.failed_on(rev).is_none()
    }

    /// Renumbers what it holds with `map` (a state brought back by Undo
    /// takes new revisions, and its answers and failures move with them).
    pub fn renumber(&mut self, map: impl Fn(Q::Rev) -> Q::Rev) {
        let revs = self.latest.iter_mut().map(|(rev, _)| rev);
        for rev in revs.chain(self.failed.iter_mut().map(|(rev, _)| rev)) {
            *rev = map(*rev);
        }
    }

    /// Takes what the engines said while revision `rev` is wanted: an
    /// answer to it, or why they could not answer it. Anything about
    /// another revision is late: dropped. Returns true when taken.
    pub fn take(&mut self, rev: Q::Rev, said: Answered<Q>) -> bool {
        if said.rev != rev {
            return false;
        }
        match said.answer {
            Ok(answer) => {
                self.latest = Some((rev, answer));
                self.failed = None;
            }
            Err(why) => self.failed = Some((rev, why)),
        }
        true
    }
}
