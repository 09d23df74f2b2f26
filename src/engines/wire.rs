//! The protocol's messages as JSON text ([`crate::engines`] shows them),
//! written and read by both sides; the page reads a message's header
//! first, then hands the text to the asker of its name, which reads the
//! members of its own question's answer: a module holds the readers of
//! the answers it asks for, and no others.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

use super::Question;

/// A question as the page sends it (`seq`: the client's number, so it can
/// tell a late answer from the latest; none in a [`Seed`]'s key).
#[derive(Serialize)]
#[serde(bound = "")]
pub struct Asking<'a, Q: Question> {
    /// [`Question::NAME`].
    pub ask: &'static str,
    /// The view's revision.
    pub rev: &'a Q::Rev,
    /// The question.
    pub question: &'a Q,
    /// The client's number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u32>,
}

impl<'a, Q: Question> Asking<'a, Q> {
    /// Question `question` at `rev`, numbered `seq`.
    pub fn new(rev: &'a Q::Rev, question: &'a Q, seq: Option<u32>) -> Self {
        Asking {
            ask: Q::NAME,
            rev,
            question,
            seq,
        }
    }

    /// As JSON text.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A question as the worker reads it, once it knows its name.
#[derive(Deserialize)]
#[serde(bound = "")]
pub struct Received<Q: Question> {
    /// The view's revision.
    pub rev: Q::Rev,
    /// The question.
    pub question: Q,
}

/// What every message to the worker says besides its question.
#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Incoming {
    /// The name of the question asked.
    pub ask: Option<String>,
    /// The client's number of it.
    pub seq: Option<u32>,
    /// Stop questions of this name, waiting or running.
    pub cancel: Option<String>,
    /// Stop them and free what the engines keep for them.
    pub forget: Option<String>,
}

/// An answer (or a part of one, or a refusal) as the worker sends it.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct Reply<'a, Q: Question> {
    /// [`Question::NAME`].
    pub answered: &'static str,
    /// The revision asked at.
    pub rev: &'a Q::Rev,
    /// The answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<&'a Q::Answer>,
    /// Why there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<&'a Q::Refusal>,
    /// More parts follow.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub more: bool,
    /// The client's number of the question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u32>,
}

impl<'a, Q: Question> Reply<'a, Q> {
    /// The reply to question `seq` at `rev`: `said`, more to come or not.
    pub fn new(
        rev: &'a Q::Rev,
        said: Result<&'a Q::Answer, &'a Q::Refusal>,
        more: bool,
        seq: Option<u32>,
    ) -> Self {
        Reply {
            answered: Q::NAME,
            rev,
            answer: said.ok(),
            refused: said.err(),
            more,
            seq,
        }
    }

    /// As JSON text.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The worker's other messages.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub enum Notice {
    /// It listens (sent once, first: a message sent before is lost).
    #[serde(rename = "ready")]
    Ready(bool),
    /// It could not read a message (a page of another version).
    #[serde(rename = "misread")]
    Misread(String),
}

impl Notice {
    /// As JSON text: `{"ready":true}`, `{"misread":"..."}`.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What every message from the worker says besides its answer.
#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Header {
    /// The name of the question answered.
    pub answered: Option<String>,
    /// The client's number of it.
    pub seq: Option<u32>,
    /// More parts follow.
    #[serde(default)]
    pub more: bool,
    /// The worker listens.
    #[serde(default)]
    pub ready: bool,
    /// Why the worker could not read a message.
    pub misread: Option<String>,
}

impl Header {
    /// Reads the header of a message (its other members skipped).
    ///
    /// # Errors
    ///
    /// serde_json's error when the text is not a message.
    pub fn read(text: &str) -> Result<Header, serde_json::Error> {
        let header: Header = serde_json::from_str(text)?;
        let known = header.ready || header.misread.is_some() || header.answered.is_some();
        if !known {
            return Err(serde_json::Error::custom("not a message of the engines"));
        }
        Ok(header)
    }
}

/// An answer as its asker reads it.
#[derive(Deserialize)]
#[serde(bound = "")]
struct Answering<Q: Question> {
    rev: Q::Rev,
    #[serde(default, deserialize_with = "present")]
    answer: Option<Q::Answer>,
    refused: Option<Q::Refusal>,
}

/// A member that is there, `null` or not (absent: `None`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// What a reply to `Q` says: the answer, or why there is none.
pub type Said<Q> = Result<<Q as Question>::Answer, <Q as Question>::Refusal>;

/// The revision and the answer (or refusal) of a reply to `Q`.
///
/// # Errors
///
/// serde_json's error when it is neither.
pub fn read<Q: Question>(text: &str) -> Result<(Q::Rev, Said<Q>), serde_json::Error> {
    let reply: Answering<Q> = if Q::READ_THROUGH_VALUE {
        serde_json::from_value(serde_json::from_str::<serde_json::Value>(text)?)?
    } else {
        serde_json::from_str(text)?
    };
    match (reply.answer, reply.refused) {
        (Some(answer), None) => Ok((reply.rev, Ok(answer))),
        (None, Some(refused)) => Ok((reply.rev, Err(refused))),
        _ => Err(serde_json::Error::custom(
            "a reply holds an answer or a refusal",
        )),
    }
}

/// The page's side of the channels: numbers questions, and tells an
/// answer to the latest question of its name from a late one.
#[derive(Debug, Default)]
pub struct Latest {
    next: u32,
    latest: BTreeMap<&'static str, u32>,
}

impl Latest {
    /// The number of a new question of `name` (it replaces earlier ones).
    pub fn issue(&mut self, name: &'static str) -> u32 {
        self.next = self.next.wrapping_add(1).max(1);
        self.latest.insert(name, self.next);
        self.next
    }

    /// True when `seq` is the latest question of `name`.
    pub fn is_latest(&self, name: &str, seq: u32) -> bool {
        self.latest.get(name) == Some(&seq)
    }

    /// Forgets the questions of `name`: none of their answers is taken.
    pub fn forget(&mut self, name: &str) {
        self.latest.remove(name);
    }
}

/// An answer computed at build time: the pre-rendered page
/// (`scripts/prerender.mjs`) carries the first question its view asked
/// and the worker's reply, as server-rendered pages carry their initial
/// data, so the first answer is shown as soon as the view runs. It
/// answers only the very same question (texts, revision, everything).
///
/// The data block holds two lines, each the message's JSON text without
/// its `seq`, with `<` written `\u003c` (so no text closes the HTML
/// element); the question is compared as text.
pub struct Seed;

impl Seed {
    /// The data block for `question` at `rev` and its `answer`.
    pub fn text<Q: Question>(rev: &Q::Rev, question: &Q, answer: &Q::Answer) -> String {
        let escape = |text: String| text.replace('<', "\\u003c");
        format!(
            "{}\n{}",
            escape(Asking::new(rev, question, None).text()),
            escape(Reply::<Q>::new(rev, Ok(answer), false, None).text())
        )
    }

    /// The answer in `text` (a data block), when it answers `question` at
    /// `rev`.
    ///
    /// # Errors
    ///
    /// serde_json's error when the answer's line is not an answer; `None`
    /// (not an error) when the question is another.
    pub fn answer_for<Q: Question>(
        text: &str,
        rev: &Q::Rev,
        question: &Q,
    ) -> Result<Option<Rc<Q::Answer>>, serde_json::Error> {
        let (asked, answer) = text.trim().split_once('\n').unwrap_or((text, ""));
        let this = Asking::new(rev, question, None)
            .text()
            .replace('<', "\\u003c");
        if asked != this {
            return Ok(None);
        }
        match read::<Q>(answer)? {
            (answered, Ok(answer)) if answered == *rev => Ok(Some(Rc::new(answer))),
            _ => Err(serde_json::Error::custom(
                "the seed answers another question",
            )),
        }
    }
}
