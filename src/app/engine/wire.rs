//! The page's reading of [`FromEngine`] and [`RoundTripResult`], written
//! out: the same JSON as their derived `Serialize`, read through one plain
//! struct each, so serde never buffers a message (its derive for a tagged
//! enum does, since the tag may come last, and that instantiates every
//! type of an answer a second time, for the buffer).

use std::rc::Rc;

use serde::de::Error;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{BuildAnswer, FromEngine, RequestKind, RoundTripResult};

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum MessageType {
    Ready,
    Built,
    Linted,
    Converted,
    Failed,
}

/// Every variant's members, each optional; which must be there depends
/// on `type`.
#[derive(Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind_of_message: MessageType,
    id: Option<u32>,
    answer: Option<Rc<BuildAnswer>>,
    /// `Some(Value::Null)` for `"report": null`, `None` when absent.
    #[serde(default, deserialize_with = "present")]
    report: Option<Value>,
    kind: Option<RequestKind>,
    message: Option<String>,
    old: Option<String>,
    new: Option<String>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn required<T, E: Error>(value: Option<T>, field: &'static str) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(field))
}

impl<'de> Deserialize<'de> for FromEngine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FromEngine, D::Error> {
        let m = Message::deserialize(d)?;
        Ok(match m.kind_of_message {
            MessageType::Ready => FromEngine::Ready,
            MessageType::Built => FromEngine::Built {
                id: required(m.id, "id")?,
                answer: required(m.answer, "answer")?,
            },
            MessageType::Linted => FromEngine::Linted {
                id: required(m.id, "id")?,
                report: required(m.report, "report")?,
            },
            MessageType::Converted => FromEngine::Converted {
                id: required(m.id, "id")?,
                old: required(m.old, "old")?,
                new: required(m.new, "new")?,
            },
            MessageType::Failed => FromEngine::Failed {
                id: required(m.id, "id")?,
                kind: m.kind,
                message: required(m.message, "message")?,
            },
        })
    }
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
        ] {
            let text = message.to_json();
            assert_eq!(FromEngine::from_json(&text).unwrap(), message, "{text}");
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
            (r#"{"type":"sent","id":1}"#, "unknown variant `sent`"),
            (r#"{"id":1}"#, "missing field `type`"),
        ] {
            let error = FromEngine::from_json(text).unwrap_err().to_string();
            assert!(error.contains(why), "{text}: {error}");
        }
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
