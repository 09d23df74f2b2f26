//! `escapeJsonPointer` and `buildPatch`.

use wasm_bindgen::prelude::*;

use super::convert::{
    bad_argument, json_text, payload_error, string_arg, type_name, ErrorBuilder, OptionsReader,
};
use crate::patch::{Encoding, PatchSet};
use crate::pointer::{self, PointerBuf};

/// Escapes one reference token for a JSON Pointer: `~` to `~0` first, then
/// `/` to `~1`, exactly as KubeVirt's `EscapeJSONPointer`.
#[wasm_bindgen(js_name = escapeJsonPointer, unchecked_return_type = "string")]
pub fn escape_json_pointer(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> Result<JsValue, JsValue> {
    let token = string_arg(&token, "token")?;
    Ok(JsValue::from_str(&pointer::escape(&token)))
}

/// The payload of a list of ops, byte for byte as KubeVirt's builder
/// (`GeneratePayload`) writes it: keys `op`, `path`, `from`, `value`, Go's
/// JSON encoding. Every path (and `from`) must be a JSON Pointer; an empty
/// list is an error, as in KubeVirt.
#[wasm_bindgen(js_name = buildPatch, unchecked_return_type = "string")]
pub fn build_patch(
    #[wasm_bindgen(unchecked_param_type = "Operation[]")] ops: JsValue,
    #[wasm_bindgen(unchecked_param_type = "BuildOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = OptionsReader::new(options, "options", &["encoding"])?;
    let encoding = match opts.string("encoding")?.as_deref() {
        None | Some("go") => Encoding::Go,
        Some("plain") => Encoding::Plain,
        Some(other) => {
            return Err(bad_argument(format!(
                "options.encoding must be \"go\" or \"plain\", found {other:?}"
            )))
        }
    };
    let found = type_name(&ops);
    if found != "an array" {
        return Err(bad_argument(format!(
            "ops must be an array of operations, found {found}"
        )));
    }
    let text = json_text(&ops, "ops")?;
    let set = PatchSet::parse(&text).map_err(|e| payload_error(&e, None))?;
    for (index, op) in set.iter().enumerate() {
        for (field, path) in [("path", Some(&op.path)), ("from", op.from.as_ref())] {
            let Some(path) = path else { continue };
            if let Err(err) = PointerBuf::parse(path.as_str()) {
                return Err(ErrorBuilder::new(
                    "invalid-pointer",
                    &format!("op {index}: {field} {path:?} is not a JSON Pointer: {err}"),
                )
                .set("index", index as u32)
                .set("op", op.op.as_str())
                .set("path", path.as_str())
                .set("cause", err.to_string())
                .build());
            }
        }
    }
    set.payload_with(encoding)
        .map(|payload| JsValue::from_str(&payload))
        .map_err(|e| ErrorBuilder::new("empty-patch", &e.to_string()).build())
}
