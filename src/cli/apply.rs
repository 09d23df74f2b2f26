//! `patchlab apply`: one document and one patch, or a batch of JSON lines.

use std::io::{self, BufRead, Write};

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

use patchlab::apply::{apply_decoded, ApplyError, Semantics};
use patchlab::gojson;
use patchlab::input::{Budget, Format};
use patchlab::patch;

use super::{parse_semantics, Failure, Source};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which engine's rules: kube (kube-apiserver, evanphx/json-patch v4) or rfc (strict RFC 6902).
    #[arg(long, default_value = "kube", value_parser = parse_semantics)]
    semantics: Semantics,
    /// Read JSON lines {"doc": ..., "patch": ...} from stdin; write one line per input:
    /// {"ok": DOC} or {"error": {"index", "op", "path", "message", "status"}}.
    #[arg(long, conflicts_with_all = ["doc", "patch"])]
    batch: bool,
    /// Print the document on one line.
    #[arg(long)]
    compact: bool,
    /// The document: a JSON or YAML file, or - for stdin.
    #[arg(required_unless_present = "batch")]
    doc: Option<Source>,
    /// The patch: a JSON or YAML file holding a list of ops, or - for stdin.
    #[arg(required_unless_present = "batch")]
    patch: Option<Source>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    if args.batch {
        let stdin = io::stdin();
        return batch(&mut stdin.lock(), out, args.semantics);
    }
    let (Some(doc), Some(patch)) = (args.doc, args.patch) else {
        return Err(Failure::new("apply needs DOC and PATCH (or --batch)"));
    };
    if doc.is_stdin() && patch.is_stdin() {
        return Err(Failure::new("DOC and PATCH cannot both be read from stdin"));
    }
    let (_, mut document, _) = doc.parse()?;
    let (text, value, format) = patch.parse()?;
    // A YAML patch is sent as the JSON Go would encode (what kubectl does);
    // a JSON patch is sent as written, byte for byte.
    let payload = match format {
        Format::Json => text,
        Format::Yaml => gojson::to_string(&value),
    };
    let decoded =
        patch::decode(&payload).map_err(|err| Failure::new(format!("{}: {err}", patch.name())))?;
    apply_decoded(&mut document, &decoded, args.semantics)
        .map_err(|err| Failure::new(describe(&err)))?;
    let text = if args.compact {
        serde_json::to_string(&document)
    } else {
        serde_json::to_string_pretty(&document)
    };
    writeln!(out, "{}", text.unwrap_or_default())?;
    Ok(())
}

/// The error as the CLI prints it: location and cause, then the response.
fn describe(err: &ApplyError) -> String {
    match err.response() {
        Some(response) => format!("{err}\nthe server would answer: {response}"),
        None => err.to_string(),
    }
}

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    doc: Option<&'a RawValue>,
    #[serde(borrow)]
    patch: Option<&'a RawValue>,
}

/// Reads JSON lines and writes one result line per input line, in order.
pub fn batch(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    semantics: Semantics,
) -> Result<(), Failure> {
    let limit = Budget::cli().max_bytes;
    let mut line = Vec::new();
    loop {
        line.clear();
        let (read, too_long) = read_line(input, &mut line, limit)?;
        if read == 0 {
            break;
        }
        let result = if too_long {
            Err(protocol_error(format!("line longer than {limit} bytes")))
        } else {
            run_line(&line, semantics)
        };
        match result {
            Ok(doc) => {
                out.write_all(b"{\"ok\":")?;
                serde_json::to_writer(&mut *out, &doc).map_err(io::Error::from)?;
                out.write_all(b"}\n")?;
            }
            Err(error) => {
                serde_json::to_writer(&mut *out, &json!({ "error": error }))
                    .map_err(io::Error::from)?;
                out.write_all(b"\n")?;
            }
        }
    }
    Ok(())
}

/// Reads up to a newline; keeps at most `limit` bytes and reports whether
/// the line was longer (the rest of it is skipped).
fn read_line(
    input: &mut dyn BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<(usize, bool)> {
    let mut total = 0;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((total, total > limit));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..=at], true),
            None => (buf, false),
        };
        let n = chunk.len();
        if line.len() < limit {
            let keep = n.min(limit + 1 - line.len());
            line.extend_from_slice(&chunk[..keep]);
        }
        total += n;
        input.consume(n);
        if done {
            return Ok((total, total > limit + 1));
        }
    }
}

fn protocol_error(message: String) -> Value {
    json!({ "index": null, "op": null, "path": null, "message": message })
}

/// A line read in one pass: the document built as a tree while the line
/// is read (not kept as text and parsed again), the patch kept as its
/// bytes (the payload as sent).
struct OnePass<'a> {
    doc: Option<Value>,
    patch: Option<&'a RawValue>,
}

/// The members of a line the batch reads.
enum Member {
    Doc,
    Patch,
    Other,
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Member, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Member;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Member, E> {
                Ok(match name {
                    "doc" => Member::Doc,
                    "patch" => Member::Patch,
                    _ => Member::Other,
                })
            }
        }
        deserializer.deserialize_identifier(Name)
    }
}

impl<'de> Deserialize<'de> for OnePass<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OnePass<'de>, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = OnePass<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OnePass<'de>, A::Error> {
                let mut line = OnePass {
                    doc: None,
                    patch: None,
                };
                let (mut doc, mut patch) = (false, false);
                while let Some(member) = map.next_key::<Member>()? {
                    match member {
                        Member::Doc if doc => return Err(de::Error::duplicate_field("doc")),
                        Member::Patch if patch => return Err(de::Error::duplicate_field("patch")),
                        Member::Doc => {
                            doc = true;
                            line.doc = map.next_value()?;
                        }
                        Member::Patch => {
                            patch = true;
                            line.patch = map.next_value()?;
                        }
                        Member::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(line)
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// The line's document and patch: in one pass when it can. Anything
/// unusual (a syntax error, a line that is an array, a missing member, a
/// document too deep to nest in the line) is read again the plain way,
/// which gives the error, or the same result: any line the one pass
/// reads, the plain way reads alike.
fn read_members(text: &str) -> Result<(Value, &RawValue), Value> {
    if let Ok(OnePass {
        doc: Some(doc),
        patch: Some(patch),
    }) = serde_json::from_str(text)
    {
        return Ok((doc, patch));
    }
    let parsed: Line<'_> = serde_json::from_str(text)
        .map_err(|err| protocol_error(format!("line is not a JSON object: {err}")))?;
    let (Some(doc), Some(patch)) = (parsed.doc, parsed.patch) else {
        return Err(protocol_error("line lacks \"doc\" or \"patch\"".to_owned()));
    };
    let document: Value =
        serde_json::from_str(doc.get()).map_err(|err| protocol_error(format!("doc: {err}")))?;
    Ok((document, patch))
}

fn run_line(line: &[u8], semantics: Semantics) -> Result<Value, Value> {
    let text = std::str::from_utf8(line)
        .map_err(|_| protocol_error("line is not valid UTF-8".to_owned()))?;
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return Err(protocol_error("empty line".to_owned()));
    }
    let (mut document, patch) = read_members(text)?;
    // The patch is the bytes as written; a JSON string holds the payload text.
    let owned;
    let payload = if patch.get().starts_with('"') {
        owned = serde_json::from_str::<String>(patch.get())
            .map_err(|err| protocol_error(format!("patch: {err}")))?;
        owned.as_str()
    } else {
        patch.get()
    };
    let result = patch::decode(payload)
        .map_err(|err| ApplyError::from_payload(err, semantics))
        .and_then(|decoded| apply_decoded(&mut document, &decoded, semantics));
    match result {
        Ok(()) => Ok(document),
        Err(err) => Err(error_json(&err)),
    }
}

fn error_json(err: &ApplyError) -> Value {
    let mut error = json!({
        "index": err.index,
        "op": err.op.map(|op| op.as_str()),
        "path": err.path,
        "message": err.cause.to_string(),
    });
    if let Some(response) = err.response() {
        error["status"] = json!(response.code);
    }
    error
}
