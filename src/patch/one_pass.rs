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
    if !reader.eat(b'[') {
        return None;
    }
    let mut ops = Vec::new();
    if !reader.eat(b']') {
        loop {
            ops.push(op(&mut reader)?);
            if reader.eat(b']') {
                break;
            }
            if !reader.eat(b',') {
                return None;
            }
        }
    }
    let decoded = Decoded {
        count: ops.len(),
        ops,
        malformed: None,
        warnings: Vec::new(),
    };
    Some((decoded, reader.offset()))
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
