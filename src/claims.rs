//! Claims: statements a text makes about a computed result, as data, so a
//! test can check them against the engine that shows the result.
//!
//! A claim names a value in the result's facts (a JSON document) by a
//! JSON Pointer and says what it must be: exactly a value, or a bound.
//!
//! ```
//! use patchlab::claims::Claims;
//! use serde_json::json;
//!
//! let facts = json!({"current": {"status": 422, "failed": "test /metadata/labels"},
//!                    "writers": {"virt-handler": {"lost_updates": 2}}});
//! let claims: Claims = serde_json::from_value(json!({
//!     "/current/status": 422,
//!     "/current/failed": {"contains": "/metadata/labels"},
//!     "/writers/virt-handler/lost_updates": {"at_least": 1},
//! })).unwrap();
//! assert!(claims.check(&facts).is_empty());
//! let wrong: Claims = serde_json::from_value(json!({"/current/status": 200})).unwrap();
//! assert_eq!(wrong.check(&facts)[0].to_string(), "/current/status: expected 200, found 422");
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a claimed value must be: an object of comparison keys only
/// (`{at_least: 1}`) is a [`Compare`]; anything else is matched exactly.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Expect {
    /// A bound or a property.
    Compare(Compare),
    /// Exactly this value.
    Exactly(Value),
}

impl<'de> Deserialize<'de> for Expect {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const KEYS: [&str; 5] = ["at_least", "at_most", "contains", "lacks", "length"];
        let value = Value::deserialize(deserializer)?;
        match &value {
            Value::Object(map)
                if !map.is_empty() && map.keys().all(|k| KEYS.contains(&k.as_str())) =>
            {
                serde_json::from_value(value)
                    .map(Expect::Compare)
                    .map_err(serde::de::Error::custom)
            }
            _ => Ok(Expect::Exactly(value)),
        }
    }
}

/// A bound or a property of a claimed value (at least one field set).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compare {
    /// A number at least this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<f64>,
    /// A number at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<f64>,
    /// A string containing this, or a list with an element equal to (or a
    /// string element containing) this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<String>,
    /// A string or list lacking this (the opposite of `contains`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lacks: Option<String>,
    /// A list or string of this length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
}

/// Claims by JSON Pointer into the facts (`/writers/virt-handler/lost_updates`,
/// `/columns/0/ops`; a key with `/` is written `~1`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Claims(pub BTreeMap<String, Expect>);

/// A claim the facts do not bear out.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimFailure {
    /// The claim's path.
    pub path: String,
    /// What was claimed, in words.
    pub expected: String,
    /// What the facts hold there (`None`: nothing).
    pub found: Option<Value>,
}

impl fmt::Display for ClaimFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.found {
            Some(found) => write!(
                f,
                "{}: expected {}, found {found}",
                self.path, self.expected
            ),
            None => write!(
                f,
                "{}: expected {}, found nothing there",
                self.path, self.expected
            ),
        }
    }
}

impl Claims {
    /// True when there are no claims.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The claims that `facts` contradict (none when all hold).
    pub fn check(&self, facts: &Value) -> Vec<ClaimFailure> {
        self.0
            .iter()
            .filter_map(|(path, expect)| {
                let found = lookup(facts, path);
                match holds(expect, found) {
                    Ok(()) => None,
                    Err(expected) => Some(ClaimFailure {
                        path: path.clone(),
                        expected,
                        found: found.cloned(),
                    }),
                }
            })
            .collect()
    }
}

/// The value a claim's pointer names (`None` for an invalid pointer).
pub fn lookup<'a>(facts: &'a Value, path: &str) -> Option<&'a Value> {
    crate::pointer::Pointer::parse(path).ok()?.resolve(facts)
}

fn holds(expect: &Expect, found: Option<&Value>) -> Result<(), String> {
    match expect {
        Expect::Exactly(value) => match found {
            Some(found) if found == value => Ok(()),
            _ => Err(value.to_string()),
        },
        Expect::Compare(compare) => {
            let number = found.and_then(Value::as_f64);
            let mut wanted = Vec::new();
            let mut ok = true;
            if let Some(min) = compare.at_least {
                wanted.push(format!("at least {min}"));
                ok &= number.is_some_and(|n| n >= min);
            }
            if let Some(max) = compare.at_most {
                wanted.push(format!("at most {max}"));
                ok &= number.is_some_and(|n| n <= max);
            }
            if let Some(part) = &compare.contains {
                wanted.push(format!("something containing {part:?}"));
                ok &= found.is_some_and(|v| contains(v, part));
            }
            if let Some(part) = &compare.lacks {
                wanted.push(format!("something without {part:?}"));
                ok &= found.is_some_and(|v| !contains(v, part));
            }
            if let Some(length) = compare.length {
                wanted.push(format!("{length} long"));
                ok &= found.is_some_and(|v| match v {
                    Value::Array(items) => items.len() == length,
                    Value::String(s) => s.chars().count() == length,
                    _ => false,
                });
            }
            if wanted.is_empty() {
                return Err("a comparison (at_least, at_most, contains, lacks or length)".into());
            }
            if ok {
                Ok(())
            } else {
                Err(wanted.join(" and "))
            }
        }
    }
}

fn contains(value: &Value, part: &str) -> bool {
    match value {
        Value::String(s) => s.contains(part),
        Value::Array(items) => items.iter().any(|item| match item {
            Value::String(s) => s.contains(part),
            other => serde_json::to_string(other).is_ok_and(|text| text == part),
        }),
        Value::Object(map) => map.contains_key(part),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(v: Value) -> Claims {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn every_kind_of_claim_holds_or_names_the_difference() {
        let facts =
            json!({"n": 5, "s": "test /metadata/labels", "l": ["a", "bc"], "o": {"k": null}});
        let ok = claims(json!({
            "/n": 5, "/s": {"contains": "labels"}, "/l": {"contains": "bc", "lacks": "z", "length": 2},
            "/o/k": null, "/l/1": "bc", "n": {"at_least": 0}
        }));
        let failures = ok.check(&facts);
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert_eq!(
            failures[0].to_string(),
            "n: expected at least 0, found nothing there"
        );
        let bad = claims(
            json!({"/n": {"at_least": 6, "at_most": 9}, "/l": {"length": 3}, "/x": {}, "/e": []}),
        );
        let failures: Vec<String> = bad.check(&facts).iter().map(ToString::to_string).collect();
        assert_eq!(
            failures,
            [
                "/e: expected [], found nothing there",
                "/l: expected 3 long, found [\"a\",\"bc\"]",
                "/n: expected at least 6 and at most 9, found 5",
                "/x: expected {}, found nothing there",
            ]
        );
    }
}
