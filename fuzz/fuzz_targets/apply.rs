//! Payload decoding, pointer parsing and apply under both semantics, on
//! arbitrary bytes. Besides "never panic", it checks atomicity: a failed
//! patch leaves the document exactly as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchlab::apply::{apply_decoded, Semantics};
use patchlab::{input, patch, pointer};

fuzz_target!(|data: &[u8]| {
    // The input is a document and a payload separated by the first NUL;
    // without one, a fixed Kubernetes-like document is used.
    let (doc_bytes, payload_bytes) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&br#"{"metadata":{"labels":{"a":"1","k/x":"2"},"finalizers":["f",null]},"l":[1,[2],{"x":null}]}"#[..], data),
    };
    let Ok(payload) = std::str::from_utf8(payload_bytes) else {
        return;
    };
    let _ = pointer::Pointer::parse(payload);
    let _ = patch::PatchSet::parse(payload);
    let Ok(doc_text) = std::str::from_utf8(doc_bytes) else {
        return;
    };
    let Ok((doc, _)) = input::parse(doc_text, &input::Budget::default()) else {
        return;
    };
    let Ok(decoded) = patch::decode(payload) else {
        return;
    };
    for semantics in [Semantics::Kube, Semantics::Rfc] {
        let mut work = doc.clone();
        match apply_decoded(&mut work, &decoded, semantics) {
            Ok(()) => {}
            Err(err) => {
                assert_eq!(
                    serde_json::to_string(&work).ok(),
                    serde_json::to_string(&doc).ok(),
                    "document changed by a failed patch: {err}"
                );
                let _ = err.to_string();
                let _ = err.response();
            }
        }
    }
});
