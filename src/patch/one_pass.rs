//! The payload decoder's fast path: the array read once, each op's members
//! and values built while reading (the general decoder scans the payload
//! three times: the array, each element, each member).
//!
//! It reads only the usual payload: an array of objects whose members are
//! `op`, `path`, `from` and `value`, each at most once, with a known `op`,
//! string `path` and `from`, and a `from` where `move` and `copy` need it.
//! On anything else it gives up, and [`super::decode_as`] reads the payload
//! the general way, which gives the error, the malformed op or the same ops:
//! for a usual payload both ways agree, whatever the dialect.

use serde_json::Value;

use super::{Decoded, OpKind, Operation};
use crate::json::Reader;

/// Reads the payload array starting at byte `at` of `text` (after
/// whitespace); returns the ops and the offset just past the array, or
/// `None` when the payload is not a usual one (see the module docs).
pub fn decode_at(text: &str, at: usize) -> Option<(Decoded, usize)> {
    let mut reader = Reader::at(text, at);
    let decoded = decode_from(&mut reader)?;
    Some((decoded, reader.offset()))
}

/// As [`decode_at`], from where `reader` is; the reader is left just past
/// the array.
pub fn decode_from(reader: &mut Reader<'_>) -> Option<Decoded> {
    if !reader.eat(b'[') {
        return None;
    }
    let mut ops = Vec::new();
    if !reader.eat(b']') {
        loop {
            ops.push(op(reader)?);
            if reader.eat(b']') {
                break;
            }
            if !reader.eat(b',') {
                return None;
            }
        }
    }
    Some(Decoded {
        count: ops.len(),
        ops,
        malformed: None,
        warnings: Vec::new(),
    })
}

/// One op object.
fn op(reader: &mut Reader<'_>) -> Option<Operation> {
    if !reader.eat(b'{') {
        return None;
    }
    let mut kind = None;
    let mut path = None;
    let mut from = None;
    let mut value: Option<(Value, usize, usize)> = None;
    loop {
        let key = reader.string()?;
        if !reader.eat(b':') {
            return None;
        }
        match key.as_ref() {
            "op" if kind.is_none() => kind = Some(OpKind::parse(&reader.string()?)?),
            "path" if path.is_none() => path = Some(reader.string()?.into_owned()),
            "from" if from.is_none() => from = Some(reader.string()?.into_owned()),
            "value" if value.is_none() => {
                reader.skip_ws();
                let start = reader.offset();
                let read = reader.value()?;
                value = Some((read, start, reader.offset()));
            }
            // A repeated or unknown member: the general way.
            _ => return None,
        }
        if reader.eat(b'}') {
            break;
        }
        if !reader.eat(b',') {
            return None;
        }
    }
    let op = kind?;
    let from = if op.takes_from() { Some(from?) } else { None };
    let (value, raw) = match value {
        Some((value, start, end)) if op.takes_value() => {
            let raw = match op {
                OpKind::Test => Some(Box::from(reader.text().get(start..end)?)),
                _ => None,
            };
            (Some(value), raw)
        }
        _ => (None, None),
    };
    Some(Operation {
        op,
        path: path?,
        from,
        value,
        raw,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{decode_general, Dialect};
    use super::decode_at;

    /// Whatever the one pass reads, the general decoder reads alike in
    /// both dialects (ops, their values and the kept bytes of `test`
    /// values); where it gives up, the general decoder answers.
    #[test]
    fn one_pass_reads_as_the_general_decoder_or_gives_up() {
        let usual = [
            "[]",
            " [ ] ",
            r#"[{"op":"add","path":"/a","value":{"b":[1,-2,2.5,"t\u00e9",null]}}]"#,
            r#"[{"value":1.0,"path":"/a","op":"test"},{"op":"remove","path":"/b"}]"#,
            r#"[{"op":"test","path":"/a","value": 1e2 }]"#,
            r#"[{"op":"move","from":"/a","path":"/b"},{"op":"copy","path":"/c","from":"/b"}]"#,
            r#"[{"op":"remove","path":"/a","value":[1]},{"op":"add","path":"/m~1n","from":"/x"}]"#,
            r#"[{"op":"add","path":"/a"}]"#,
            r#"[{"op":"replace","path":"/a","value":null}]"#,
            r#"[{"op":"add","p\u0061th":"/\u00e9","value":"x"}]"#,
        ];
        for payload in usual {
            let (fast, end) = decode_at(payload, 0).unwrap_or_else(|| panic!("{payload}"));
            assert_eq!(payload[end..].trim(), "", "{payload}");
            for dialect in [Dialect::Rfc, Dialect::Go] {
                let general = decode_general(payload, dialect).unwrap();
                assert_eq!(fast.ops, general.ops, "{payload}");
                assert!(general.malformed.is_none(), "{payload}");
                assert_eq!(fast.count, general.count, "{payload}");
                let raws =
                    |d: &super::Decoded| d.ops.iter().map(|op| op.raw.clone()).collect::<Vec<_>>();
                assert_eq!(raws(&fast), raws(&general), "{payload}");
            }
        }
        let unusual = [
            "null",
            "{}",
            "[null]",
            "[1]",
            r#"[{"op":"add","path":"/a","value":1},]"#,
            r#"[{"op":"add","op":"remove","path":"/a"}]"#,
            r#"[{"op":"frob","path":"/a"}]"#,
            r#"[{"op":"move","path":"/a"}]"#,
            r#"[{"op":"add","path":1,"value":1}]"#,
            r#"[{"op":"add","path":"/a","value":1,"comment":"x"}]"#,
            r#"[{"op":"add","path":"/a","value":1e400}]"#,
            r#"[{"op":"add","path":"/\ud800","value":1}]"#,
        ];
        for payload in unusual {
            assert!(decode_at(payload, 0).is_none(), "{payload}");
        }
    }
}
