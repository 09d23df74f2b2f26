//! `patchlab apply`: one document and one patch (a JSON patch, a merge
//! patch or a strategic merge patch), or a batch of JSON lines.

use std::io::{self, BufRead, Write};

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use patchlab::apply::{self, apply_decoded, strategic, ApplyError, Cause, Engine, Semantics};
use patchlab::gojson;
use patchlab::input::{Budget, Format};
use patchlab::json;
use patchlab::kube::KubeVersion;
use patchlab::schema;

use super::{parse_semantics, ClusterArgs, Failure, Source};

mod line;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which rules: kube (kube-apiserver: the PATCH handler and its evanphx/json-patch
    /// engine) or rfc (strict RFC 6902, and RFC 7386 for --merge).
    #[arg(long, default_value = "kube", value_parser = parse_semantics)]
    semantics: Semantics,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// The patch type: json (a JSON Patch, RFC 6902: a list of ops), merge (a JSON merge
    /// patch: objects merge, null deletes, lists are replaced whole) or strategic (a
    /// strategic merge patch, kubectl patch's default: lists merge by their schema's merge
    /// key; built-in kinds only, a custom resource answers 415).
    #[arg(long = "type", value_enum, default_value_t = PatchType::Json)]
    patch_type: PatchType,
    /// Same as --type merge.
    #[arg(long, conflicts_with = "patch_type")]
    merge: bool,
    /// For --type strategic: the kind patched, as a kind (Pod) or a kubectl resource name
    /// (pods, po, deploy, deployments.apps, vmi); default: the document's own kind.
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
    /// For --type strategic: the kind's apiVersion (v1, apps/v1); default: the
    /// document's, or the one of the --kind resource.
    #[arg(long = "api-version", value_name = "VERSION")]
    api_version: Option<String>,
    /// Read JSON lines {"doc": ..., "patch": ...} (or "merge": BODY instead of "patch")
    /// from stdin; write one line per input: {"ok": DOC} or {"error": {...}}. With
    /// --type strategic, "patch" holds a strategic merge patch.
    #[arg(long, conflicts_with_all = ["doc", "patch", "merge"])]
    batch: bool,
    /// Print the document on one line.
    #[arg(long)]
    compact: bool,
    /// Print numbers as read (1.0 stays 1.0, -0 stays -0, 1e21 stays 1e21,
    /// 12345678901234567890123 keeps its digits) instead of as the server writes them
    /// (Go: 1, 0, 1e+21, 1.2345678901234568e+22); the default under --semantics rfc,
    /// where no server stores anything. Also for --batch.
    #[arg(long)]
    literal_numbers: bool,
    /// The document: a JSON or YAML file, or - for stdin.
    #[arg(required_unless_present = "batch")]
    doc: Option<Source>,
    /// The patch: a JSON or YAML file holding a list of ops (or, with --type merge or
    /// strategic, a patch object), or - for stdin.
    #[arg(required_unless_present = "batch")]
    patch: Option<Source>,
}

/// `--type`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PatchType {
    /// `application/json-patch+json`.
    #[default]
    Json,
    /// `application/merge-patch+json`.
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
}

/// How a batch line's "patch" member is read, the release, and how
/// numbers are printed.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    engine: Engine,
    patch_type: PatchType,
    version: KubeVersion,
    /// Numbers as the server writes them (kube), or as read.
    stored_numbers: bool,
}

/// The document as the CLI prints it: numbers as the server writes them
/// (`stored`), or as read.
fn document_text(document: &Value, stored: bool, pretty: bool) -> String {
    if stored {
        return gojson::to_string_stored(document, pretty);
    }
    let text = if pretty {
        serde_json::to_string_pretty(document)
    } else {
        serde_json::to_string(document)
    };
    text.unwrap_or_default()
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    let engine = args.cluster.engine(args.semantics);
    let patch_type = if args.merge {
        PatchType::Merge
    } else {
        args.patch_type
    };
    if patch_type == PatchType::Strategic && args.semantics == Semantics::Rfc {
        return Err(Failure::new(
            "a strategic merge patch has no RFC: use --semantics kube",
        ));
    }
    let mode = Mode {
        engine,
        patch_type,
        version: args.cluster.cluster().version,
        stored_numbers: engine.is_kube() && !args.literal_numbers,
    };
    if args.batch {
        // Own buffer: it tells whether the next line is already here.
        let mut input = io::BufReader::with_capacity(64 * 1024, io::stdin().lock());
        return batch(&mut input, out, mode);
    }
    let (Some(doc), Some(patch)) = (args.doc, args.patch) else {
        return Err(Failure::new("apply needs DOC and PATCH (or --batch)"));
    };
    if doc.is_stdin() && patch.is_stdin() {
        return Err(Failure::new("DOC and PATCH cannot both be read from stdin"));
    }
    let (doc_text, mut document, doc_format) = doc.parse()?;
    let (text, value, format) = patch.parse()?;
    // A YAML patch is sent as the JSON Go would encode (what kubectl does);
    // a JSON patch is sent as written, byte for byte.
    let payload = match format {
        Format::Json => text,
        Format::Yaml => gojson::to_string(&value),
    };
    let warnings = if patch_type == PatchType::Merge {
        apply::apply_merge(&mut document, &payload, engine)
            .map_err(|err| Failure::new(describe(&err, &patch, &payload)))?
    } else if patch_type == PatchType::Strategic {
        let table = schema::for_release(mode.version);
        let target =
            table.target_named(args.kind.as_deref(), args.api_version.as_deref(), &document);
        strategic::apply_body(&mut document, &payload, &target, mode.version)
            .map_err(|err| Failure::new(describe(&err, &patch, &payload)))?
    } else {
        let decoded = apply::decode(&payload, engine)
            .map_err(|err| Failure::new(describe(&err, &patch, &payload)))?;
        apply_decoded(&mut document, &decoded, engine)
            .map_err(|err| Failure::new(describe(&err, &patch, &payload)))?;
        decoded.warnings
    };
    for warning in warnings {
        // kubectl prints the server's Warning headers so.
        eprintln!("Warning: {}", super::terminal::printable(&warning));
    }
    let printed = if mode.stored_numbers {
        document_text(&document, true, !args.compact)
    } else {
        as_read(
            &document,
            [
                (doc_format == Format::Json).then_some(&doc_text[..]),
                Some(&payload),
            ],
            !args.compact,
        )
    };
    writeln!(out, "{printed}")?;
    Ok(())
}

/// The document with its numbers as the JSON `texts` spell them (see
/// [`json::Spellings`]); a note on stderr for numbers two texts read as
/// one.
fn as_read<const N: usize>(document: &Value, texts: [Option<&str>; N], pretty: bool) -> String {
    let mut spellings = json::Spellings::default();
    for text in texts.into_iter().flatten() {
        spellings.read(text);
    }
    for number in spellings.ambiguous() {
        eprintln!("note: two texts read as the number {number}: printed as serde_json writes it");
    }
    spellings.to_string(document, pretty)
}

/// The error as the CLI prints it: location and cause, then the response.
/// A body the server cannot decode also gets its line and column (Go's
/// message names none).
fn describe(err: &ApplyError, source: &Source, payload: &str) -> String {
    let mut text = match &err.cause {
        Cause::Decode(gojson::DecodeError::Syntax(syntax)) => {
            match serde_json::from_str::<&RawValue>(payload) {
                Err(at) => format!(
                    "{}: line {}, column {}: {syntax}",
                    source.name(),
                    at.line(),
                    at.column()
                ),
                Ok(_) => format!("{}: {syntax}", source.name()),
            }
        }
        Cause::Payload(_) | Cause::Decode(_) | Cause::Unsupported(_) if err.index.is_none() => {
            format!("{}: {err}", source.name())
        }
        _ => err.to_string(),
    };
    if let Some(response) = err.response() {
        text.push_str(&format!("\nthe server would answer: {response}"));
    }
    text
}

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    doc: Option<&'a RawValue>,
    #[serde(borrow)]
    patch: Option<&'a RawValue>,
    // Optional also in the array form of a line (`[doc, patch]`).
    #[serde(borrow, default)]
    merge: Option<&'a RawValue>,
}

/// Reads JSON lines and writes one result line per input line, in order.
///
/// A line ends at a newline, at the end of the input, or where it holds a
/// complete JSON object or array and no more input has arrived (a harness
/// that sends its last line without a newline and waits gets its answer;
/// a newline arriving later ends that same line). Each answer goes out as
/// soon as the input read so far is answered.
pub fn batch<R: io::Read>(
    input: &mut io::BufReader<R>,
    out: &mut dyn Write,
    mode: Mode,
) -> Result<(), Failure> {
    let limit = Budget::cli().max_bytes;
    let mut line = Vec::new();
    let mut after_value = false;
    // One result line is built here and written at once.
    let mut buf = Vec::new();
    let mut scratch = Vec::new();
    loop {
        line.clear();
        buf.clear();
        let (read, too_long) = read_line(input, &mut line, limit, &mut after_value)?;
        if read == 0 {
            break;
        }
        let result = if too_long {
            Err(protocol_error(format!("line longer than {limit} bytes")))
        } else {
            run_line(&line, mode, &mut scratch)
        };
        match result {
            Ok((doc, warnings)) => {
                buf.extend_from_slice(b"{\"ok\":");
                if mode.stored_numbers {
                    buf.extend_from_slice(document_text(&doc, true, false).as_bytes());
                } else {
                    let line = std::str::from_utf8(&line).ok();
                    buf.extend_from_slice(as_read(&doc, [line], false).as_bytes());
                }
                if !warnings.is_empty() {
                    buf.extend_from_slice(b",\"warnings\":[");
                    for (i, warning) in warnings.iter().enumerate() {
                        if i > 0 {
                            buf.push(b',');
                        }
                        json::write_str(&mut buf, warning);
                    }
                    buf.push(b']');
                }
                buf.extend_from_slice(b"}\n");
                out.write_all(&buf)?;
            }
            Err(error) => {
                out.write_all(b"{\"error\":")?;
                match error {
                    LineError::Protocol(message) => serde_json::to_writer(
                        &mut *out,
                        &BadLine {
                            index: None,
                            op: None,
                            path: None,
                            kind: "bad-line",
                            message,
                        },
                    ),
                    LineError::Apply(err) => serde_json::to_writer(&mut *out, &*err),
                }
                .map_err(io::Error::from)?;
                out.write_all(b"}\n")?;
            }
        }
        // Reading on may wait for the writer, who may wait for this answer.
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
    Ok(())
}

/// Where a line's JSON stands as its bytes go by: enough to tell the
/// byte that closes its top-level object or array.
#[derive(Default)]
struct Shape {
    depth: usize,
    in_string: bool,
    escaped: bool,
    opened: bool,
    /// Not an object or array, or already closed: no early end.
    done: bool,
}

impl Shape {
    /// Takes one byte (not a newline); true when it closes the line's
    /// top-level object or array.
    fn step(&mut self, b: u8) -> bool {
        if self.done {
            return false;
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return false;
        }
        match b {
            b' ' | b'\t' | b'\r' => {}
            b'{' | b'[' if !self.opened => {
                self.opened = true;
                self.depth = 1;
            }
            _ if !self.opened => self.done = true,
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth -= 1;
                if self.depth == 0 {
                    self.done = true;
                    return true;
                }
            }
            _ => {}
        }
        false
    }
}

fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// Reads one line (see [`batch`]): up to a newline, or up to the end of a
/// complete object or array when nothing follows it yet. Keeps at most
/// `limit` bytes and reports whether the line was longer (the rest of it
/// is skipped). `after_value` marks a line ended early: the blanks and
/// the newline that then arrive still belong to it.
fn read_line<R: io::Read>(
    input: &mut io::BufReader<R>,
    line: &mut Vec<u8>,
    limit: usize,
    after_value: &mut bool,
) -> io::Result<(usize, bool)> {
    while *after_value {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((0, false));
        }
        let blanks = buf.iter().take_while(|b| is_blank(b)).count();
        if blanks < buf.len() {
            let newline = usize::from(buf[blanks] == b'\n');
            input.consume(blanks + newline);
            *after_value = false;
        } else {
            input.consume(blanks);
        }
    }
    let mut shape = Shape::default();
    let mut total = 0;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((total, total > limit));
        }
        // A newline in the buffer ends the line there: an early end needs
        // only blanks after the closing byte. The shape is followed only
        // through bytes with no newline after them.
        let end = match memchr::memchr(b'\n', buf) {
            Some(at) => Some((at + 1, false)),
            None => {
                let mut end = None;
                for (i, &b) in buf.iter().enumerate() {
                    if shape.step(b) {
                        let rest = &buf[i + 1..];
                        let blanks = rest.iter().take_while(|b| is_blank(b)).count();
                        if blanks == rest.len() {
                            end = Some((i + 1 + blanks, true));
                            break;
                        }
                    }
                }
                end
            }
        };
        let (n, done, early) = match end {
            Some((n, early)) => (n, true, early),
            None => (buf.len(), false, false),
        };
        if line.len() < limit {
            let keep = n.min(limit + 1 - line.len());
            line.extend_from_slice(&buf[..keep]);
        }
        total += n;
        input.consume(n);
        if done {
            *after_value = early;
            let newline = usize::from(!early);
            return Ok((total, total > limit + newline));
        }
    }
}

/// A line the protocol cannot read, in the shape of an error report.
#[derive(serde::Serialize)]
struct BadLine {
    index: Option<usize>,
    op: Option<&'static str>,
    path: Option<&'static str>,
    kind: &'static str,
    message: String,
}

/// Why a batch line has no result document.
enum LineError {
    /// The line cannot be read (not an apply error).
    Protocol(String),
    /// The patch failed.
    Apply(Box<ApplyError>),
}

fn protocol_error(message: String) -> LineError {
    LineError::Protocol(message)
}

/// A line read in one pass: the document built as a tree while the line
/// is read (not kept as text and parsed again), the patch kept as its
/// bytes (the payload as sent).
struct OnePass<'a> {
    doc: Option<Value>,
    patch: Option<&'a RawValue>,
    merge: Option<&'a RawValue>,
}

/// The members of a line the batch reads.
enum Member {
    Doc,
    Patch,
    Merge,
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
                    "merge" => Member::Merge,
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
                    merge: None,
                };
                let (mut doc, mut patch, mut merge) = (false, false, false);
                while let Some(member) = map.next_key::<Member>()? {
                    match member {
                        Member::Doc if doc => return Err(de::Error::duplicate_field("doc")),
                        Member::Patch if patch => return Err(de::Error::duplicate_field("patch")),
                        Member::Merge if merge => return Err(de::Error::duplicate_field("merge")),
                        Member::Doc => {
                            doc = true;
                            line.doc = map.next_value()?;
                        }
                        Member::Patch => {
                            patch = true;
                            line.patch = map.next_value()?;
                        }
                        Member::Merge => {
                            merge = true;
                            line.merge = map.next_value()?;
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

/// The line's document, body and whether the body is a merge patch: in
/// one pass when it can. Anything unusual (a syntax error, a line that is
/// an array, a missing or extra member, a document too deep to nest in the
/// line) is read again the plain way, which gives the error, or the same
/// result: any line the one pass reads, the plain way reads alike.
fn read_members(text: &str) -> Result<(Value, &RawValue, bool), LineError> {
    match serde_json::from_str(text) {
        Ok(OnePass {
            doc: Some(doc),
            patch: Some(patch),
            merge: None,
        }) => return Ok((doc, patch, false)),
        Ok(OnePass {
            doc: Some(doc),
            patch: None,
            merge: Some(merge),
        }) => return Ok((doc, merge, true)),
        _ => {}
    }
    let parsed: Line<'_> = serde_json::from_str(text)
        .map_err(|err| protocol_error(format!("line is not a JSON object: {err}")))?;
    let (doc, body, merge) = match (parsed.doc, parsed.patch, parsed.merge) {
        (Some(doc), Some(patch), None) => (doc, patch, false),
        (Some(doc), None, Some(merge)) => (doc, merge, true),
        (_, Some(_), Some(_)) => {
            return Err(protocol_error(
                "line has both \"patch\" and \"merge\"".to_owned(),
            ))
        }
        _ => {
            return Err(protocol_error(
                "line lacks \"doc\", or \"patch\" or \"merge\"".to_owned(),
            ))
        }
    };
    let document: Value =
        serde_json::from_str(doc.get()).map_err(|err| protocol_error(format!("doc: {err}")))?;
    Ok((document, body, merge))
}

fn run_line(
    line: &[u8],
    mode: Mode,
    scratch: &mut Vec<(String, Value)>,
) -> Result<(Value, Vec<String>), LineError> {
    let engine = mode.engine;
    let text = std::str::from_utf8(line)
        .map_err(|_| protocol_error("line is not valid UTF-8".to_owned()))?;
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return Err(protocol_error("empty line".to_owned()));
    }
    if mode.patch_type == PatchType::Json {
        if let Some(usual) = line::read(text, scratch) {
            let mut document = usual.doc;
            return apply::decode_given(usual.payload, Some(usual.decoded), engine)
                .and_then(|decoded| {
                    apply_decoded(&mut document, &decoded, engine).map(|()| decoded.warnings)
                })
                .map(|warnings| (document, warnings))
                .map_err(|err| LineError::Apply(Box::new(err)));
        }
    }
    let (mut document, body, merge) = read_members(text)?;
    // The body is the bytes as written; a JSON string holds the payload
    // text. A merge patch that is itself a string is not expressible so
    // (write it as "\"text\"" inside a string).
    let owned;
    let payload = if body.get().starts_with('"') {
        owned = serde_json::from_str::<String>(body.get())
            .map_err(|err| protocol_error(format!("patch: {err}")))?;
        owned.as_str()
    } else {
        body.get()
    };
    let result = if merge || mode.patch_type == PatchType::Merge {
        apply::apply_merge(&mut document, payload, engine)
    } else if mode.patch_type == PatchType::Strategic {
        let target = schema::for_release(mode.version).target_of(&document);
        strategic::apply_body(&mut document, payload, &target, mode.version)
    } else {
        apply::decode(payload, engine).and_then(|decoded| {
            apply_decoded(&mut document, &decoded, engine).map(|()| decoded.warnings)
        })
    };
    match result {
        Ok(warnings) => Ok((document, warnings)),
        Err(err) => Err(LineError::Apply(Box::new(err))),
    }
}
