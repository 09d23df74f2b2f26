//! The page's reading of [`FromEngine`] and [`RoundTripResult`], written
//! out: the same JSON as their derived `Serialize`, read through plain
//! structs, so serde never buffers a message (its derive for a tagged
//! enum does, since the tag may come last, and that instantiates every
//! type of an answer a second time, for the buffer).
//!
//! A message is read in two passes over its text: its [`Header`] (type,
//! number, kind, failure message), then the members of its type. The
//! engine client reads the header of every message and hands the text to
//! the asker of its kind, which reads the members it expects: a module
//! that never asks for a Build answer never holds its reader (the Check
//! module asks only for lint and explanations: no reader of Build's answers).

use std::rc::Rc;

use serde::de::Error;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::checked::Checked;
use super::explained::ExplainView;
use super::raced::{Explored, Raced};
use super::{BuildAnswer, FromEngine, ReadText, RequestKind, RoundTripResult};

/// The type of a message from the engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MessageType {
    /// [`FromEngine::Ready`].
    Ready,
    /// [`FromEngine::Built`].
    Built,
    /// [`FromEngine::Linted`].
    Linted,
    /// [`FromEngine::Converted`].
    Converted,
    /// [`FromEngine::Explained`].
    Explained,
    /// [`FromEngine::YamlRead`].
    YamlRead,
    /// [`FromEngine::Checked`].
    Checked,
    /// [`FromEngine::Raced`].
    Raced,
    /// [`FromEngine::Explored`].
    Explored,
    /// [`FromEngine::Failed`].
    Failed,
}

impl MessageType {
    /// Every type with its name in a message (as its `Deserialize` reads
    /// it: a test keeps the two the same).
    const NAMED: [(&'static str, MessageType); 10] = [
        ("ready", MessageType::Ready),
        ("built", MessageType::Built),
        ("linted", MessageType::Linted),
        ("converted", MessageType::Converted),
        ("explained", MessageType::Explained),
        ("yaml-read", MessageType::YamlRead),
        ("checked", MessageType::Checked),
        ("raced", MessageType::Raced),
        ("explored", MessageType::Explored),
        ("failed", MessageType::Failed),
    ];
}

/// Every kind of request with its name in a message (as its
/// `Deserialize` reads it: a test keeps the two the same).
const KINDS: [(&str, RequestKind); 8] = [
    ("build", RequestKind::Build),
    ("lint", RequestKind::Lint),
    ("convert", RequestKind::Convert),
    ("explain", RequestKind::Explain),
    ("read-yaml", RequestKind::ReadYaml),
    ("check", RequestKind::Check),
    ("race", RequestKind::Race),
    ("explore", RequestKind::Explore),
];

/// The value of `key` among `names`: absent or `null` is `None`.
fn named<T: Copy>(
    message: &Value,
    key: &'static str,
    names: &[(&'static str, T)],
) -> Result<Option<T>, serde_json::Error> {
    match message.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(name)) => names
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| Some(*t))
            .ok_or_else(|| serde_json::Error::custom(format!("unknown variant `{name}`"))),
        Some(_) => Err(serde_json::Error::custom(format!("`{key}` is not a name"))),
    }
}

/// What every message says besides its answer: its type, the number and
/// kind of the request answered, and why it failed.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Header {
    /// The message's type.
    #[serde(rename = "type")]
    pub of: MessageType,
    /// The request's number (none in `ready`).
    pub id: Option<u32>,
    /// The kind of request a failure answers.
    pub kind: Option<RequestKind>,
    /// Why a request failed.
    pub message: Option<String>,
}

impl Header {
    /// Reads the header of a message (its other members are skipped).
    ///
    /// # Errors
    ///
    /// serde_json's error when the text is not a message.
    pub fn read(text: &str) -> Result<Header, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// [`Header::read`] through a [`Value`]: the whole message is read
    /// first, so it suits small messages only, in a module that reads
    /// every JSON text that way already (Race, Check: 5 KB of code less
    /// than the reader of [`Header::read`]). The same headers, the same
    /// errors (a test reads every message both ways).
    ///
    /// # Errors
    ///
    /// serde_json's error when the text is not a message.
    pub fn read_value(text: &str) -> Result<Header, serde_json::Error> {
        let message: Value = serde_json::from_str(text)?;
        let Value::Object(_) = &message else {
            return Err(serde_json::Error::custom("a message is an object"));
        };
        let of = named(&message, "type", &MessageType::NAMED)?
            .ok_or_else(|| serde_json::Error::missing_field("type"))?;
        let id = match message.get("id") {
            None | Some(Value::Null) => None,
            Some(id) => Some(
                id.as_u64()
                    .and_then(|id| u32::try_from(id).ok())
                    .ok_or_else(|| serde_json::Error::custom("`id` is not a request number"))?,
            ),
        };
        let text = match message.get("message") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.clone()),
            Some(_) => return Err(serde_json::Error::custom("`message` is not a text")),
        };
        Ok(Header {
            of,
            id,
            kind: named(&message, "kind", &KINDS)?,
            message: text,
        })
    }

    /// Reads the header of a message and checks that it holds what every
    /// message of its type holds (a number, but in `ready`; a message in
    /// `failed`), so a damaged answer is an error, as it was when one
    /// reader read the whole message, and not an answer nobody waits for.
    ///
    /// # Errors
    ///
    /// serde_json's error when the text is not a message or misses one of
    /// those members.
    pub fn read_checked(text: &str) -> Result<Header, serde_json::Error> {
        Header::read(text)?.checked()
    }

    /// [`Header::read_checked`] through a [`Value`] ([`Header::read_value`]).
    ///
    /// # Errors
    ///
    /// As [`Header::read_checked`].
    pub fn read_value_checked(text: &str) -> Result<Header, serde_json::Error> {
        Header::read_value(text)?.checked()
    }

    fn checked(self) -> Result<Header, serde_json::Error> {
        let header = self;
        if header.of != MessageType::Ready {
            header.required_id::<serde_json::Error>()?;
        }
        if header.of == MessageType::Failed && header.message.is_none() {
            return Err(serde_json::Error::missing_field("message"));
        }
        Ok(header)
    }

    /// The number of the request answered (0 when none).
    pub fn id(&self) -> u32 {
        self.id.unwrap_or(0)
    }

    /// The kind of request answered.
    pub fn answers(&self) -> Option<RequestKind> {
        match self.of {
            MessageType::Ready => None,
            MessageType::Built => Some(RequestKind::Build),
            MessageType::Linted => Some(RequestKind::Lint),
            MessageType::Converted => Some(RequestKind::Convert),
            MessageType::Explained => Some(RequestKind::Explain),
            MessageType::YamlRead => Some(RequestKind::ReadYaml),
            MessageType::Checked => Some(RequestKind::Check),
            MessageType::Raced => Some(RequestKind::Race),
            MessageType::Explored => Some(RequestKind::Explore),
            MessageType::Failed => self.kind,
        }
    }

    fn required_id<E: Error>(&self) -> Result<u32, E> {
        required(self.id, "id")
    }

    /// The whole message of this header, its members read from `text`.
    ///
    /// # Errors
    ///
    /// serde_json's error when a member of its type is missing or wrong.
    pub fn message(self, text: &str) -> Result<FromEngine, serde_json::Error> {
        Ok(match self.of {
            MessageType::Ready => FromEngine::Ready,
            MessageType::Built => FromEngine::Built {
                id: self.required_id()?,
                answer: built(text)?,
            },
            MessageType::Linted => FromEngine::Linted {
                id: self.required_id()?,
                report: linted(text)?,
            },
            MessageType::Converted => {
                let (old, new) = converted(text)?;
                FromEngine::Converted {
                    id: self.required_id()?,
                    old,
                    new,
                }
            }
            MessageType::Explained => FromEngine::Explained {
                id: self.required_id()?,
                view: explained(text)?,
            },
            MessageType::YamlRead => FromEngine::YamlRead {
                id: self.required_id()?,
                values: yaml_read(text)?,
            },
            MessageType::Checked => FromEngine::Checked {
                id: self.required_id()?,
                checked: checked(text)?,
            },
            MessageType::Raced => FromEngine::Raced {
                id: self.required_id()?,
                raced: raced(text)?,
            },
            MessageType::Explored => FromEngine::Explored {
                id: self.required_id()?,
                explored: explored(text)?,
            },
            MessageType::Failed => FromEngine::Failed {
                id: self.required_id()?,
                kind: self.kind,
                message: required(self.message, "message")?,
            },
        })
    }
}

/// A member that must be there, `null` or not: `Some(None)` for `null`,
/// `None` when absent.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

fn required<T, E: Error>(value: Option<T>, field: &'static str) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(field))
}

#[derive(Deserialize)]
struct Built {
    answer: Rc<BuildAnswer>,
}

/// The answer of a `built` message.
///
/// # Errors
///
/// serde_json's error when it is missing or wrong.
pub fn built(text: &str) -> Result<Rc<BuildAnswer>, serde_json::Error> {
    serde_json::from_str::<Built>(text).map(|m| m.answer)
}

#[derive(Deserialize)]
struct Linted {
    #[serde(default, deserialize_with = "present")]
    report: Option<Value>,
}

/// The report of a `linted` message (`null` when the body held nothing
/// to lint).
///
/// # Errors
///
/// serde_json's error when it is missing or wrong.
pub fn linted(text: &str) -> Result<Value, serde_json::Error> {
    required(serde_json::from_str::<Linted>(text)?.report, "report")
}

#[derive(Deserialize)]
struct Converted {
    old: String,
    new: String,
}

/// Both texts of a `converted` message.
///
/// # Errors
///
/// serde_json's error when they are missing or wrong.
pub fn converted(text: &str) -> Result<(String, String), serde_json::Error> {
    serde_json::from_str::<Converted>(text).map(|m| (m.old, m.new))
}

#[derive(Deserialize)]
struct CheckedMessage {
    checked: Rc<Checked>,
}

/// What lint made of Check's texts, in a `checked` message.
///
/// # Errors
///
/// serde_json's error when it is missing or wrong.
pub fn checked(text: &str) -> Result<Rc<Checked>, serde_json::Error> {
    serde_json::from_str::<CheckedMessage>(text).map(|m| m.checked)
}

#[derive(Deserialize)]
struct Explained {
    #[serde(default, deserialize_with = "present")]
    view: Option<Option<Rc<ExplainView>>>,
}

/// The panel's texts of an `explained` message (`None`: the error text
/// was blank).
///
/// # Errors
///
/// serde_json's error when they are missing or wrong.
pub fn explained(text: &str) -> Result<Option<Rc<ExplainView>>, serde_json::Error> {
    required(serde_json::from_str::<Explained>(text)?.view, "view")
}

/// The member `key` of a message, read through a [`Value`] (as the Race
/// module reads every JSON text: a reader of its own from text would
/// cost it code).
fn member<T: serde::de::DeserializeOwned>(
    text: &str,
    key: &'static str,
) -> Result<T, serde_json::Error> {
    let mut message: Value = serde_json::from_str(text)?;
    let member = message
        .get_mut(key)
        .map(Value::take)
        .ok_or_else(|| serde_json::Error::missing_field(key))?;
    serde_json::from_value(member)
}

/// The replay of a `raced` message.
///
/// # Errors
///
/// serde_json's error when it is missing or wrong.
pub fn raced(text: &str) -> Result<Rc<Raced>, serde_json::Error> {
    member::<Raced>(text, "raced").map(Rc::new)
}

/// The exploration of an `explored` message.
///
/// # Errors
///
/// serde_json's error when it is missing or wrong.
pub fn explored(text: &str) -> Result<Rc<Explored>, serde_json::Error> {
    member::<Explored>(text, "explored").map(Rc::new)
}

/// The values of a `yaml-read` message, in the order of the texts asked.
/// Read as a [`Value`] first, then as values: the Race module, which asks
/// for them, reads every JSON text that way (links, its scenarios), and a
/// reader of its own from text would cost it 5 KB of code.
///
/// # Errors
///
/// serde_json's error when they are missing or wrong.
pub fn yaml_read(text: &str) -> Result<Vec<ReadText>, serde_json::Error> {
    let mut message: Value = serde_json::from_str(text)?;
    let Some(Value::Array(values)) = message.get_mut("values").map(Value::take) else {
        return Err(serde_json::Error::missing_field("values"));
    };
    values
        .into_iter()
        .map(ReadText::from_value)
        .collect::<Option<Vec<ReadText>>>()
        .ok_or_else(|| serde_json::Error::missing_field("value"))
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Is {
    Exact,
    Refused,
    Differs,
    NotApplicable,
}

#[derive(Deserialize)]
struct Check {
    is: Is,
    why: Option<String>,
}

impl<'de> Deserialize<'de> for RoundTripResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RoundTripResult, D::Error> {
        let c = Check::deserialize(d)?;
        Ok(match c.is {
            Is::Exact => RoundTripResult::Exact,
            Is::NotApplicable => RoundTripResult::NotApplicable,
            Is::Refused => RoundTripResult::Refused(required(c.why, "why")?),
            Is::Differs => RoundTripResult::Differs(required(c.why, "why")?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header read through a `Value` is the header read directly, and
    /// fails where it fails: on every message type and request kind, and
    /// on damaged headers.
    #[test]
    fn both_header_readers_read_the_same() {
        for (name, of) in MessageType::NAMED {
            assert_eq!(
                serde_json::from_value::<MessageType>(name.into()).unwrap(),
                of
            );
        }
        for (name, kind) in KINDS {
            assert_eq!(
                serde_json::from_value::<RequestKind>(name.into()).unwrap(),
                kind
            );
        }
        assert_eq!(KINDS.len(), RequestKind::ALL.len());
        let mut texts: Vec<String> = Vec::new();
        for (name, _) in MessageType::NAMED {
            for (kind, _) in KINDS {
                texts.push(format!(
                    r#"{{"type":"{name}","id":3,"kind":"{kind}","message":"m","x":[1]}}"#
                ));
            }
            texts.push(format!(r#"{{"type":"{name}"}}"#));
            texts.push(format!(
                r#"{{"type":"{name}","id":null,"kind":null,"message":null}}"#
            ));
        }
        texts.extend(
            [
                r#"{"type":"sent","id":1}"#,
                r#"{"id":1}"#,
                r#"{"type":1}"#,
                r#"{"type":"built","id":-1}"#,
                r#"{"type":"built","id":4294967296}"#,
                r#"{"type":"built","id":"1"}"#,
                r#"{"type":"failed","id":1,"kind":"paint","message":"m"}"#,
                r#"{"type":"failed","id":1,"message":7}"#,
                r#"[]"#,
                r#"7"#,
                r#"{"type":"built""#,
            ]
            .map(String::from),
        );
        for text in &texts {
            let direct = Header::read_checked(text);
            let valued = Header::read_value_checked(text);
            match (&direct, &valued) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                (Err(_), Err(_)) => {}
                _ => panic!("{text}: {direct:?} and {valued:?}"),
            }
        }
        let error = Header::read_value(r#"{"type":"sent","id":1}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("unknown variant `sent`"), "{error}");
    }

    /// Each message and check reads back as written, whatever the order
    /// of its members; a missing member or an unknown type is an error.
    #[test]
    fn messages_read_back_in_any_member_order() {
        let failed = FromEngine::Failed {
            id: 7,
            kind: Some(RequestKind::Lint),
            message: "no".into(),
        };
        for message in [
            FromEngine::Ready,
            FromEngine::Linted {
                id: 2,
                report: serde_json::json!({"findings": []}),
            },
            FromEngine::Linted {
                id: 2,
                report: Value::Null,
            },
            failed.clone(),
            FromEngine::Converted {
                id: 3,
                old: "{}".into(),
                new: "a: 1\n".into(),
            },
            FromEngine::Failed {
                id: 0,
                kind: None,
                message: String::new(),
            },
            FromEngine::Explained { id: 4, view: None },
            FromEngine::Explained {
                id: 5,
                view: Some(Rc::new(ExplainView {
                    class: Some(("A test op failed".into(), "test-failed".into())),
                    fix: vec!["send `add`".into()],
                    sources: vec![("https://x".into(), "a b (c)".into())],
                    ..Default::default()
                })),
            },
            FromEngine::YamlRead {
                id: 6,
                values: vec![ReadText::Value(serde_json::json!({"a": 1}))],
            },
        ] {
            let text = message.to_json();
            assert_eq!(FromEngine::from_json(&text).unwrap(), message, "{text}");
            assert_eq!(
                Header::read_value_checked(&text).unwrap(),
                Header::read_checked(&text).unwrap(),
                "{text}"
            );
        }
        assert_eq!(
            FromEngine::from_json(r#"{"message":"no","kind":"lint","id":7,"type":"failed"}"#)
                .unwrap(),
            failed
        );
        assert_eq!(
            FromEngine::from_json(r#"{"id":7,"type":"failed","message":"no","kind":null}"#)
                .unwrap(),
            FromEngine::Failed {
                id: 7,
                kind: None,
                message: "no".into()
            }
        );
        for (text, why) in [
            (r#"{"type":"built","id":1}"#, "missing field `answer`"),
            (r#"{"type":"linted","id":1}"#, "missing field `report`"),
            (
                r#"{"type":"converted","id":1,"old":""}"#,
                "missing field `new`",
            ),
            (r#"{"type":"failed","message":"x"}"#, "missing field `id`"),
            (r#"{"type":"explained","id":1}"#, "missing field `view`"),
            (r#"{"type":"sent","id":1}"#, "unknown variant `sent`"),
            (r#"{"id":1}"#, "missing field `type`"),
        ] {
            let error = FromEngine::from_json(text).unwrap_err().to_string();
            assert!(error.contains(why), "{text}: {error}");
        }
        // The header alone: every other member skipped, the kind answered.
        let header =
            Header::read(r#"{"view":{"recognised":true},"id":9,"type":"explained"}"#).unwrap();
        assert_eq!(
            (header.of, header.id(), header.answers()),
            (MessageType::Explained, 9, Some(RequestKind::Explain))
        );
        let failed =
            Header::read(r#"{"type":"failed","id":3,"kind":"build","message":"m"}"#).unwrap();
        assert_eq!(failed.answers(), Some(RequestKind::Build));
        // Checked: a number in every message but `ready`, a message in a
        // failure; damaged answers are errors, not answers nobody awaits.
        assert!(Header::read_checked(r#"{"type":"ready"}"#).is_ok());
        for (text, why) in [
            (r#"{"type":"explained","view":null}"#, "missing field `id`"),
            (r#"{"type":"built","answer":{}}"#, "missing field `id`"),
            (
                r#"{"type":"failed","id":3,"kind":"build"}"#,
                "missing field `message`",
            ),
        ] {
            let error = Header::read_checked(text).unwrap_err().to_string();
            assert!(error.contains(why), "{text}: {error}");
            assert!(Header::read(text).is_ok(), "the header alone reads: {text}");
        }
        // Each asker reads its own members, and only those.
        assert!(explained(r#"{"type":"built","id":1,"answer":{}}"#)
            .unwrap_err()
            .to_string()
            .contains("missing field `view`"));
        assert_eq!(
            explained(r#"{"type":"explained","id":1,"view":null}"#).unwrap(),
            None
        );
        assert_eq!(
            converted(r#"{"new":"b","type":"converted","old":"a","id":2}"#).unwrap(),
            ("a".to_owned(), "b".to_owned())
        );
        for check in [
            RoundTripResult::Exact,
            RoundTripResult::NotApplicable,
            RoundTripResult::Refused("422".into()),
            RoundTripResult::Differs("/a".into()),
        ] {
            let text = serde_json::to_string(&check).unwrap();
            let back: RoundTripResult = serde_json::from_str(&text).unwrap();
            assert_eq!(back, check, "{text}");
        }
        let back: RoundTripResult = serde_json::from_str(r#"{"why":"w","is":"differs"}"#).unwrap();
        assert_eq!(back, RoundTripResult::Differs("w".into()));
        assert!(serde_json::from_str::<RoundTripResult>(r#"{"is":"refused"}"#).is_err());
    }
}
