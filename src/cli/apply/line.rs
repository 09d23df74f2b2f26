//! A batch line read in one pass: one scanner over the line finds the
//! document and the patch, builds the document's tree and decodes the
//! patch's ops while it reads (`patchlab::json::Reader`,
//! `patchlab::patch::decode_at`).
//!
//! It reads only the usual line, `{"doc": DOC, "patch": [OPS]}` (members in
//! either order, each once), with a document and
//! ops the fast readers take. On anything else it gives up, and the batch
//! reads the line the general way, which gives the error or the same
//! result.

use serde_json::Value;

use patchlab::json::Reader;
use patchlab::patch::{self, Decoded};

/// A usual line: the document, the patch as sent and its ops.
pub struct Usual<'a> {
    pub doc: Value,
    pub payload: &'a str,
    pub decoded: Decoded,
}

/// Reads a usual line (see the module docs). `scratch` is the reader's
/// scratch space, kept from line to line.
pub fn read<'a>(text: &'a str, scratch: &mut Vec<(String, Value)>) -> Option<Usual<'a>> {
    let mut reader = Reader::with_scratch(text, 0, std::mem::take(scratch));
    let usual = members(&mut reader);
    *scratch = reader.into_scratch();
    usual
}

fn members<'a>(reader: &mut Reader<'a>) -> Option<Usual<'a>> {
    if !reader.eat(b'{') {
        return None;
    }
    let mut doc = None;
    let mut patch = None;
    loop {
        let key = reader.string()?;
        if !reader.eat(b':') {
            return None;
        }
        match key.as_ref() {
            "doc" if doc.is_none() => doc = Some(reader.value()?),
            "patch" if patch.is_none() => {
                reader.skip_ws();
                let start = reader.offset();
                let decoded = patch::decode_from(reader)?;
                patch = Some((reader.text().get(start..reader.offset())?, decoded));
            }
            _ => return None,
        }
        if reader.eat(b'}') {
            break;
        }
        if !reader.eat(b',') {
            return None;
        }
    }
    if !reader.end() {
        return None;
    }
    let (payload, decoded) = patch?;
    // A `null` document reads as a missing one the plain way (serde's
    // `Option`): that way gives its error.
    let doc = doc.filter(|doc| !doc.is_null())?;
    Some(Usual {
        doc,
        payload,
        decoded,
    })
}
