//! The batch comparison's other side: the same JSON lines as
//! `patchlab apply --batch --semantics rfc`, applied with the `json-patch`
//! crate (parse the line, apply, write `{"ok": DOC}` or `{"error": ...}`).
//!
//! `cargo build --release --example json_patch_batch`, then
//! `target/release/examples/json_patch_batch < cases.jsonl > /dev/null`.

use std::io::{self, BufRead, BufWriter, Write};

use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
struct Line {
    doc: Value,
    patch: json_patch::Patch,
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        match serde_json::from_str::<Line>(&line) {
            Ok(Line { mut doc, patch }) => match json_patch::patch(&mut doc, &patch) {
                Ok(()) => {
                    out.write_all(b"{\"ok\":")?;
                    serde_json::to_writer(&mut out, &doc)?;
                    out.write_all(b"}\n")?;
                }
                Err(err) => {
                    serde_json::to_writer(
                        &mut out,
                        &json!({"error": {"message": err.to_string()}}),
                    )?;
                    out.write_all(b"\n")?;
                }
            },
            Err(err) => {
                serde_json::to_writer(&mut out, &json!({"error": {"message": err.to_string()}}))?;
                out.write_all(b"\n")?;
            }
        }
    }
    out.flush()
}
