//! Readers for what users paste: kubectl's one-liners, client-go and
//! controller-runtime log lines (klog, zap, JSON), a `Status` JSON, an
//! audit event, kubectl `-v=8` traces, evanphx/json-patch's own texts,
//! and the exceptions of the Python, Java and JavaScript clients. Each
//! reader pulls out what it can (status code, reason, message, causes,
//! verb, URL, the request's content type and body); the classifier then
//! matches the messages against the texts Kubernetes writes.
//!
//! Shapes, and where each comes from (written from the code, not copied):
//!
//! | shape | source |
//! |---|---|
//! | `Error from server (Reason): msg`, `The request is invalid: msg`, `The Kind "n" is invalid: ...`, `error: msg` | kubectl `pkg/cmd/util/helpers.go` `checkErr`, `StandardErrorMessage` |
//! | the bare message (`%v` of a `StatusError`) | apimachinery `pkg/api/errors/errors.go` `StatusError.Error` |
//! | `{"kind":"Status",...}` | apimachinery `metav1.Status`; apiserver `responsewriters.ErrorToAPIStatus` |
//! | `{"kind":"Event","apiVersion":"audit.k8s.io/v1",...}` | apiserver `pkg/apis/audit/v1` `Event` (`responseStatus`, `requestObject`) |
//! | `"Request Body" body=...`, `PATCH https://... 422`, `Content-Type: ...` | client-go `rest/request.go` `logBody`, `transport/round_trippers.go` |
//! | `"Reconciler error"` (zap JSON or console, klog) | controller-runtime `pkg/internal/controller/controller.go` |
//! | `(422)\nReason: ...\nHTTP response body: {...}` | kubernetes (PyPI) `client/exceptions.py` `ApiException.__str__` |
//! | `HTTP-Code: 422\nMessage: ...\nBody: ...` | @kubernetes/client-node `gen/apis/exception.js` `ApiException` |
//! | `body: { kind: 'Status', ... }` (Node's `util.inspect`) | @kubernetes/client-node 0.x `HttpError` |
//! | `Failure executing: PATCH at: URL. Message: ... Received status: Status(... code=422, ... reason=Invalid, ...)` | fabric8 kubernetes-client `KubernetesClientException.requestFailure` |
//! | `HTTP response code: 422\nHTTP response body: ...` | kubernetes-client/java `ApiException.getMessage` |

use serde::Serialize;
use serde_json::Value;

use crate::limits::{
    EXPLAIN_JSON_VALUES as MAX_JSON_VALUES, EXPLAIN_NODES as MAX_NODES,
    EXPLAIN_STRINGS as MAX_STRINGS,
};

/// The largest error text read ([`crate::limits::EXPLAIN_TEXT_BYTES`]).
pub const MAX_TEXT_BYTES: usize = crate::limits::EXPLAIN_TEXT_BYTES;

/// What the text looks like: which tool printed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// kubectl's rendering of a server error (`Error from server ...`,
    /// `The request is invalid: ...`).
    Kubectl,
    /// kubectl's own error, the request never answered by a server
    /// (`error: ...`).
    KubectlClient,
    /// A `metav1.Status` as JSON.
    StatusJson,
    /// An audit event (`audit.k8s.io/v1`).
    AuditEvent,
    /// kubectl or client-go at `-v=8`: the request and response logged.
    VerboseTrace,
    /// A controller's log line (klog, zap console or JSON).
    LogLine,
    /// The Python client's `ApiException`.
    Python,
    /// A Java client's exception (fabric8 or the official client).
    Java,
    /// The JavaScript client's error.
    JavaScript,
    /// A Go panic trace.
    GoPanic,
    /// A bare message (client-go's `%v` of an error, or evanphx/json-patch's
    /// own text).
    Plain,
}

impl Shape {
    /// The shape's kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Kubectl => "kubectl",
            Shape::KubectlClient => "kubectl-client",
            Shape::StatusJson => "status-json",
            Shape::AuditEvent => "audit-event",
            Shape::VerboseTrace => "verbose-trace",
            Shape::LogLine => "log-line",
            Shape::Python => "python",
            Shape::Java => "java",
            Shape::JavaScript => "javascript",
            Shape::GoPanic => "go-panic",
            Shape::Plain => "plain",
        }
    }
}

/// One `StatusCause` as read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReadCause {
    /// `reason` (`FieldValueInvalid`, `FieldManagerConflict`, ...).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// `message`.
    pub message: String,
    /// `field`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

/// The object a request was about, as far as the text names it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The API group (empty: the core group).
    pub group: Option<String>,
    /// The plural resource (`virtualmachineinstances`).
    pub resource: Option<String>,
    /// The namespace.
    pub namespace: Option<String>,
    /// The object's name.
    pub name: Option<String>,
}

impl Target {
    fn is_empty(&self) -> bool {
        self.group.is_none()
            && self.resource.is_none()
            && self.namespace.is_none()
            && self.name.is_none()
    }
}

/// Everything read out of an error text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    /// What printed it.
    pub shape: Option<Shape>,
    /// The HTTP status code, when the text says.
    pub code: Option<u16>,
    /// The Status reason (`Invalid`, `Conflict`, ...), when the text says.
    pub reason: Option<String>,
    /// The Status message, when the text holds one apart.
    pub message: Option<String>,
    /// `details.causes`.
    pub causes: Vec<ReadCause>,
    /// `details.kind` (or the kind kubectl names: `The Deployment "x" is invalid`).
    pub kind: Option<String>,
    /// The HTTP verb (`PATCH`, `PUT`, or the audit verb `patch`, `update`).
    pub verb: Option<String>,
    /// The request URL or URI.
    pub url: Option<String>,
    /// The object.
    pub target: Target,
    /// The content type the request was sent with.
    pub content_type: Option<String>,
    /// The request body the text holds (an audit event's `requestObject`,
    /// a `-v=8` trace's request body).
    pub request_body: Option<String>,
    /// Who sent it (an audit event's user).
    pub user: Option<String>,
    /// Every message to match against, most specific first.
    pub texts: Vec<String>,
    /// A Status was read (the first one wins).
    status_seen: bool,
}

impl Reading {
    fn set_shape(&mut self, shape: Shape) {
        if self.shape.is_none() {
            self.shape = Some(shape);
        }
    }

    fn push_text(&mut self, text: &str) {
        let text = text.trim();
        if !text.is_empty()
            && self.texts.len() < MAX_STRINGS
            && !self.texts.iter().any(|t| t == text)
        {
            self.texts.push(text.to_owned());
        }
    }

    /// True when a Status (from JSON or a client's rendering of one) was
    /// read.
    pub fn has_status(&self) -> bool {
        self.code.is_some() || self.reason.is_some()
    }
}

/// Reads an error text (see the module docs). Never fails: what it does
/// not recognise stays text to match.
pub fn read(text: &str) -> Reading {
    let mut r = Reading::default();
    let trimmed = text.trim();
    // A whole JSON document: a Status, an audit event, a JSON log line.
    let mut whole_json = false;
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
            whole_json = true;
            visit(&value, &mut r, 0);
        }
    }
    // The clients' own framing first: it names the shape, and a Status
    // inside is theirs.
    read_clients(text, &mut r);
    if !whole_json {
        read_lines(text, &mut r);
    }
    read_kubectl(trimmed, &mut r);
    read_request_words(text, &mut r);
    if let Some(url) = r.url.clone() {
        let target = target_of_url(&url);
        if !target.is_empty() {
            merge_target(&mut r.target, target);
        }
    }
    if r.reason.is_none() && r.message.is_none() {
        if trimmed.contains("panic:") && trimmed.contains("goroutine ") {
            r.set_shape(Shape::GoPanic);
        } else if trimmed.starts_with("error: ") {
            r.set_shape(Shape::KubectlClient);
        }
    }
    if let Some(message) = r.message.clone() {
        r.texts.insert(0, message);
    }
    // The raw text last, with JSON and Go string escapes undone so a
    // message inside a log line's JSON matches as written.
    r.push_text(&unescape_loosely(trimmed));
    r.set_shape(Shape::Plain);
    r
}

/// JSON values inside lines: a JSON log per line, a body after a marker.
fn read_lines(text: &str, r: &mut Reading) {
    let mut values = 0;
    let mut in_request_headers = false;
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        // kubectl -v=8: the request line, its headers and bodies.
        if t.contains("Reconciler error")
            || (is_klog_line(t) && !t.contains("round_trippers.go:") && !t.contains("request.go:"))
        {
            r.set_shape(Shape::LogLine);
        }
        if let Some(rest) = after(t, "round_trippers.go:") {
            read_round_tripper(rest, r, &mut in_request_headers);
        }
        if t.contains("\"Request Body\"") || t.contains("Request Body:") {
            if let Some(body) =
                klog_body(t).or_else(|| after(t, "Request Body: ").map(str::to_owned))
            {
                r.set_shape(Shape::VerboseTrace);
                if !body.trim().is_empty() && r.request_body.is_none() {
                    r.request_body = Some(body.trim().to_owned());
                }
            }
            continue;
        }
        let json_start = if t.contains("\"Response Body\"") {
            r.set_shape(Shape::VerboseTrace);
            klog_body(t)
        } else {
            None
        }
        .or_else(|| {
            [
                "HTTP response body: ",
                "Response Body: ",
                "Body: ",
                "body: ",
            ]
            .iter()
            .find_map(|m| after(t, m))
            .map(str::to_owned)
        })
        .or_else(|| t.find('{').map(|i| t[i..].to_owned()));
        let Some(candidate) = json_start else {
            continue;
        };
        if values >= MAX_JSON_VALUES {
            continue;
        }
        let candidate = python_bytes(&candidate);
        if let Some(value) = first_json(&candidate) {
            values += 1;
            visit(&value, r, 0);
        }
    }
}

/// `... round_trippers.go:470] PATCH https://host/apis/... 422 Unprocessable Entity in 5 milliseconds`,
/// `Response Status: 422 Unprocessable Entity in 5 milliseconds`, request headers.
fn read_round_tripper(rest: &str, r: &mut Reading, in_request_headers: &mut bool) {
    let Some((_, msg)) = rest.split_once("] ") else {
        return;
    };
    let msg = msg.trim();
    r.set_shape(Shape::VerboseTrace);
    if msg.starts_with("Request Headers:") {
        *in_request_headers = true;
        return;
    }
    if msg.starts_with("Response Headers:") || msg.starts_with("Response Status:") {
        *in_request_headers = false;
        if let Some(status) = msg.strip_prefix("Response Status:") {
            if let Some(code) = leading_code(status.trim()) {
                r.code.get_or_insert(code);
            }
        }
        return;
    }
    if *in_request_headers {
        if let Some(value) = msg.strip_prefix("Content-Type:") {
            r.content_type.get_or_insert(value.trim().to_owned());
        }
        return;
    }
    for verb in ["PATCH", "PUT", "POST", "GET", "DELETE"] {
        if let Some(rest) = msg.strip_prefix(verb).and_then(|s| s.strip_prefix(' ')) {
            let url = rest.split_whitespace().next().unwrap_or("");
            if url.contains("://") || url.starts_with('/') {
                if verb == "PATCH" || verb == "PUT" || r.verb.is_none() {
                    r.verb = Some(verb.to_owned());
                    r.url = Some(url.to_owned());
                }
                let after_url = rest[url.len()..].trim();
                if let Some(code) = leading_code(after_url) {
                    r.code = Some(code);
                }
            }
        }
    }
}

/// `E0612 08:14:02.441017       1 controller.go:324] ...`: klog's header.
fn is_klog_line(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() > 6
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' '
        && line.contains(".go:")
        && line.contains("] ")
}

/// The value of klog's `body=` key: `body="..."` (Go-quoted) or the
/// `body=<` block on the following lines (not seen in one line: the
/// caller gets nothing).
fn klog_body(line: &str) -> Option<String> {
    let start = line.find("body=\"")? + 5;
    go_unquote(&line[start..]).map(|(s, _)| s)
}

/// Python 2-style `b'...'` bodies (older clients printed bytes).
fn python_bytes(text: &str) -> String {
    match text.strip_prefix("b'") {
        Some(rest) => {
            let end = rest.rfind('\'').unwrap_or(rest.len());
            rest[..end].replace("\\\\", "\\").replace("\\'", "'")
        }
        None => text.to_owned(),
    }
}

/// The first JSON value at the start of `text` (trailing text ignored).
/// A JSON string that itself holds a JSON object (a client that
/// stringified the body) is read through.
fn first_json(text: &str) -> Option<Value> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = stream.next()?.ok()?;
    match value {
        Value::String(inner) if inner.trim_start().starts_with('{') => {
            serde_json::from_str(inner.trim()).ok()
        }
        other => Some(other),
    }
}

fn visit(value: &Value, r: &mut Reading, depth: usize) {
    let mut budget = MAX_NODES;
    visit_inner(value, r, depth, &mut budget);
}

fn visit_inner(value: &Value, r: &mut Reading, depth: usize, budget: &mut usize) {
    if *budget == 0 || depth > 64 {
        return;
    }
    *budget -= 1;
    match value {
        Value::Object(map) => {
            let kind = map.get("kind").and_then(Value::as_str);
            let api_version = map.get("apiVersion").and_then(Value::as_str).unwrap_or("");
            if kind == Some("Status") || (kind.is_none() && looks_like_status(map)) {
                read_status(value, r);
                r.set_shape(Shape::StatusJson);
                return;
            }
            if api_version.starts_with("audit.k8s.io") {
                match kind {
                    Some("Event") => {
                        read_audit(value, r);
                        return;
                    }
                    Some("EventList") => {
                        let items = map.get("items").and_then(Value::as_array);
                        let failed = items.and_then(|items| {
                            items.iter().find(|e| {
                                e.pointer("/responseStatus/code")
                                    .and_then(Value::as_u64)
                                    .is_some_and(|c| c >= 400)
                            })
                        });
                        if let Some(event) = failed {
                            read_audit(event, r);
                        }
                        return;
                    }
                    _ => {}
                }
            }
            // A log line (zap, klog JSON, KubeVirt's JSON logs): its
            // strings are messages; a Status may sit inside.
            if depth == 0 && (map.contains_key("msg") || map.contains_key("level")) {
                r.set_shape(Shape::LogLine);
            }
            for (key, v) in map {
                match v {
                    Value::String(s) if key != "stacktrace" && s.len() < 1 << 20 => {
                        if s.trim_start().starts_with('{') {
                            if let Some(inner) = first_json(s.trim_start()) {
                                visit_inner(&inner, r, depth + 1, budget);
                                continue;
                            }
                        }
                        r.push_text(s);
                    }
                    Value::Object(_) | Value::Array(_) => visit_inner(v, r, depth + 1, budget),
                    _ => {}
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                visit_inner(item, r, depth + 1, budget);
            }
        }
        Value::String(s) => r.push_text(s),
        _ => {}
    }
}

/// A Status without `kind` (a client that kept only some fields):
/// `code` and `message` and a `status` or `reason`.
fn looks_like_status(map: &serde_json::Map<String, Value>) -> bool {
    map.get("code").is_some_and(Value::is_u64)
        && map.get("message").is_some_and(Value::is_string)
        && (map.get("status").and_then(Value::as_str) == Some("Failure")
            || map.get("reason").is_some_and(Value::is_string))
}

fn read_status(status: &Value, r: &mut Reading) {
    if r.status_seen {
        return;
    }
    r.status_seen = true;
    let text = |p: &str| status.pointer(p).and_then(Value::as_str).map(str::to_owned);
    r.code = status
        .get("code")
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok())
        .or(r.code);
    r.reason = text("/reason")
        .filter(|s| !s.is_empty())
        .or(r.reason.take());
    r.message = text("/message");
    r.kind = text("/details/kind")
        .filter(|s| !s.is_empty())
        .or(r.kind.take());
    let name = text("/details/name").filter(|s| !s.is_empty());
    if name.is_some() {
        r.target.name = name;
    }
    if let Some(group) = text("/details/group").filter(|s| !s.is_empty()) {
        r.target.group = Some(group);
    }
    if let Some(causes) = status.pointer("/details/causes").and_then(Value::as_array) {
        for cause in causes.iter().take(1000) {
            let get = |k: &str| {
                cause
                    .get(k)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned()
            };
            r.causes.push(ReadCause {
                reason: get("reason"),
                message: get("message"),
                field: get("field"),
            });
        }
    }
}

fn read_audit(event: &Value, r: &mut Reading) {
    r.set_shape(Shape::AuditEvent);
    let text = |p: &str| event.pointer(p).and_then(Value::as_str).map(str::to_owned);
    r.verb = text("/verb").or(r.verb.take());
    r.url = text("/requestURI").or(r.url.take());
    r.user = text("/user/username");
    merge_target(
        &mut r.target,
        Target {
            group: text("/objectRef/apiGroup"),
            resource: text("/objectRef/resource"),
            namespace: text("/objectRef/namespace"),
            name: text("/objectRef/name"),
        },
    );
    if let Some(status) = event.get("responseStatus") {
        read_status(status, r);
    }
    // The stage of an event written while the panic filter recovered
    // (audit `StagePanic`).
    if text("/stage").as_deref() == Some("Panic") {
        r.push_text("apiserver panic'd");
    }
    if let Some(body) = event.get("requestObject") {
        r.request_body = Some(body.to_string());
    }
}

fn merge_target(into: &mut Target, from: Target) {
    into.group = into.group.take().or(from.group);
    into.resource = into.resource.take().or(from.resource);
    into.namespace = into.namespace.take().or(from.namespace);
    into.name = into.name.take().or(from.name);
}

/// The object a request URL names:
/// `/apis/GROUP/VERSION/namespaces/NS/RESOURCE/NAME` or
/// `/api/v1/namespaces/NS/RESOURCE/NAME` (query and host dropped).
pub fn target_of_url(url: &str) -> Target {
    let path = match url.find("://") {
        Some(i) => url[i + 3..].find('/').map_or("", |j| &url[i + 3 + j..]),
        None => url,
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let (group, rest) = match parts.as_slice() {
        ["api", _version, rest @ ..] => (Some(String::new()), rest),
        ["apis", group, _version, rest @ ..] => (Some((*group).to_owned()), rest),
        _ => return Target::default(),
    };
    let (namespace, rest) = match rest {
        ["namespaces", ns, rest @ ..] if !rest.is_empty() => (Some((*ns).to_owned()), rest),
        _ => (None, rest),
    };
    Target {
        group,
        resource: rest.first().map(|s| (*s).to_owned()),
        namespace,
        name: rest.get(1).map(|s| (*s).to_owned()),
    }
}

/// The message of the handler's generic 422 (apimachinery
/// `NewGenericServerResponse`).
const GENERIC_422: &str = "the server rejected our request due to an error in our request";

fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// kubectl's renderings (`checkErr`): `Error from server (Reason): msg`,
/// `Error from server: msg`, `The request is invalid: msg`,
/// `The Kind "name" is invalid: field: msg` (or `* field: msg` lines).
fn read_kubectl(text: &str, r: &mut Reading) {
    let line_start = text
        .find("Error from server")
        .or_else(|| text.find("The request is invalid"))
        .or_else(|| {
            text.find("The ").filter(|&i| {
                text[i..]
                    .lines()
                    .next()
                    .is_some_and(|l| l.contains("\" is invalid"))
            })
        });
    let Some(start) = line_start else { return };
    let rest = &text[start..];
    if let Some(after) = rest.strip_prefix("Error from server") {
        r.set_shape(Shape::Kubectl);
        if let Some(inner) = after.strip_prefix(" (") {
            if let Some((reason, msg)) = inner.split_once("): ") {
                r.reason.get_or_insert(reason.to_owned());
                if r.message.is_none() {
                    r.message = Some(msg.trim().to_owned());
                }
            }
        } else if let Some(msg) = after.strip_prefix(": ") {
            if r.message.is_none() {
                r.message = Some(msg.trim().to_owned());
            }
        }
        return;
    }
    r.set_shape(Shape::Kubectl);
    r.reason.get_or_insert_with(|| "Invalid".to_owned());
    r.code.get_or_insert(422);
    if let Some(msg) = rest.strip_prefix("The request is invalid") {
        let msg = msg.strip_prefix(": ").unwrap_or(msg).trim();
        if r.message.is_none() && !msg.is_empty() {
            r.message = Some(msg.to_owned());
        }
        return;
    }
    // `The  "" is invalid` alone: kubectl 1.15 and older printed an
    // Invalid with an empty kind and name so (kubectl release-1.16
    // `pkg/cmd/util/helpers.go` `checkErr` prints "The request is invalid"
    // instead): the handler's generic 422 (NewGenericServerResponse).
    let first = rest.lines().next().unwrap_or("");
    if collapse_spaces(first) == "The \"\" is invalid" && rest.trim() == first.trim() {
        r.message.get_or_insert_with(|| GENERIC_422.to_owned());
        return;
    }
    read_kubectl_invalid(rest, r);
}

/// `The Kind "name" is invalid: field: msg` (or `* field: msg` lines).
fn read_kubectl_invalid(rest: &str, r: &mut Reading) {
    let head = rest.strip_prefix("The ").unwrap_or(rest);
    if let Some((kind, after_kind)) = head.split_once(" \"") {
        if r.kind.is_none() && !kind.is_empty() {
            r.kind = Some(kind.to_owned());
        }
        if let Some((name, _)) = after_kind.split_once("\" is invalid") {
            r.target.name.get_or_insert_with(|| name.to_owned());
        }
    }
    if let Some((_, causes)) = rest.split_once(" is invalid: ") {
        let lines: Vec<&str> = causes
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if r.causes.is_empty() {
            let bulleted = lines.iter().any(|l| l.starts_with("* "));
            let items: Vec<&str> = if bulleted {
                lines.iter().filter_map(|l| l.strip_prefix("* ")).collect()
            } else {
                lines.first().copied().into_iter().collect()
            };
            for item in items {
                if let Some((field, message)) = item.split_once(": ") {
                    r.causes.push(ReadCause {
                        reason: String::new(),
                        message: message.to_owned(),
                        field: field.to_owned(),
                    });
                }
            }
        }
        if r.message.is_none() {
            r.message = Some(rest.trim().to_owned());
        }
    }
}

/// What the words around the message say of the request: its verb
/// (kubectl apply's `error when applying patch`, `pkg/cmd/apply/apply.go`;
/// kubectl replace's `error when replacing`, `pkg/cmd/replace/replace.go`;
/// Helm's `cannot patch %q with kind %s`, `pkg/kube/client.go`; an HTTP
/// verb standing alone in a tool's log, `PATCH` or `PUT`; kubectl
/// annotate's and label's `--resource-version`, which pins the version in
/// the patch they send), its content type (a request header,
/// `Content-Type: application/...-patch+...`, as CPython's `http.client`
/// debug output prints it) and its body (`send: b'[...]'`).
fn read_request_words(text: &str, r: &mut Reading) {
    if r.verb.is_none() {
        // kubectl apply's patch error ends `to:\nResource: ..., GroupVersionKind:
        // ...\nfor: "FILE": ...` (`cmdutil.AddSourceToErr`).
        let apply_tail = text.contains("GroupVersionKind: ") && text.contains("for: ");
        let patch = [
            "error when applying patch",
            "cannot patch \"",
            "--resource-version",
        ]
        .iter()
        .any(|w| text.contains(w))
            || apply_tail
            || has_word(text, "PATCH");
        let update = text.contains("error when replacing") || has_word(text, "PUT");
        if patch != update {
            r.verb = Some(if patch { "PATCH" } else { "PUT" }.to_owned());
        }
    }
    if r.content_type.is_none() {
        if let Some(rest) = after(text, "Content-Type: application/") {
            let t: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.'))
                .collect();
            if t.contains("patch") {
                r.content_type = Some(format!("application/{t}"));
            }
        }
    }
    if r.request_body.is_none() {
        if let Some(rest) = after(text, "send: b'") {
            if rest.starts_with(['[', '{']) {
                r.request_body = Some(python_bytes(&format!("b'{rest}")));
            }
        }
    }
}

/// True when `word` stands alone in `text` (no letter or digit either side).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The Python, Java and JavaScript clients' renderings.
fn read_clients(text: &str, r: &mut Reading) {
    read_python_java(text, r);
    read_bare_codes(text, r);
    read_javascript(text, r);
    read_fabric8(text, r);
}

/// The Python client's `ApiException` and the official Java client's.
fn read_python_java(text: &str, r: &mut Reading) {
    // Python: `...Exception: (422)` (or `(422)` alone) then `Reason: ...`.
    let python_code = after(text, "Exception: (")
        .and_then(leading_code)
        .or_else(|| {
            text.lines()
                .map(str::trim)
                .find(|l| l.len() == 5 && l.starts_with('(') && l.ends_with(')'))
                .and_then(|l| leading_code(&l[1..]))
        });
    if text.contains("HTTP response code:") {
        r.set_shape(Shape::Java);
    } else if python_code.is_some() || text.contains("HTTP response body:") {
        r.set_shape(Shape::Python);
    }
    if let Some(code) = python_code {
        r.code.get_or_insert(code);
    }
}

/// The Java and Python exceptions that carry only a code: the official
/// Java client before 8.0, OkHttp, aiohttp.
fn read_bare_codes(text: &str, r: &mut Reading) {
    // kubernetes-client/java before 8.0: `ApiException: Conflict` (the
    // HTTP reason phrase as the message); OkHttp's `Response{protocol=...,
    // code=422, message=Unprocessable Entity, url=...}`.
    if let Some(rest) = after(text, "ApiException: ") {
        let phrase = rest.lines().next().unwrap_or("").trim();
        if let Some(code) = code_of_phrase(phrase) {
            r.set_shape(Shape::Java);
            r.code.get_or_insert(code);
        }
    }
    // aiohttp's `ClientResponseError: 422, message='Unprocessable Entity',
    // url=...` (`client_exceptions.py` `ClientResponseError.__str__`), as
    // kopf and kubernetes_asyncio raise it.
    if let Some(rest) = after(text, "ClientResponseError: ") {
        if let Some(code) = leading_code(rest) {
            r.set_shape(Shape::Python);
            r.code.get_or_insert(code);
        }
    }
    if let Some(rest) = after(text, "Response{protocol=").and_then(|t| after(t, ", code=")) {
        r.set_shape(Shape::Java);
        if let Some(code) = leading_code(rest) {
            r.code.get_or_insert(code);
        }
    }
    if let Some(rest) = after(text, "HTTP response code: ") {
        r.set_shape(Shape::Java);
        if let Some(code) = leading_code(rest) {
            r.code.get_or_insert(code);
        }
    }
    if let Some(rest) = after(text, "\nReason: ") {
        let phrase = rest.lines().next().unwrap_or("").trim();
        if let Some(code) = code_of_phrase(phrase) {
            r.code.get_or_insert(code);
        }
    }
}

/// The JavaScript client's errors.
fn read_javascript(text: &str, r: &mut Reading) {
    // JavaScript (client-node 1.x and later).
    if let Some(rest) = after(text, "HTTP-Code: ") {
        r.set_shape(Shape::JavaScript);
        if let Some(code) = leading_code(rest) {
            r.code.get_or_insert(code);
        }
    }
    // JavaScript (client-node 0.x, `util.inspect` of the body).
    if text.contains("HttpError") || text.contains("statusCode: ") {
        if let Some(message) = inspect_string(text, "message: ") {
            r.set_shape(Shape::JavaScript);
            if r.message.is_none() {
                r.message = Some(message);
            }
            if let Some(reason) = inspect_string(text, "reason: ") {
                r.reason.get_or_insert(reason);
            }
            for key in ["statusCode: ", "code: "] {
                if let Some(code) = after(text, key).and_then(leading_code) {
                    r.code.get_or_insert(code);
                }
            }
        }
    }
}

/// fabric8's `KubernetesClientException`.
fn read_fabric8(text: &str, r: &mut Reading) {
    // fabric8: `Failure executing: PATCH at: URL. Message: ... Received status: Status(...)`.
    if let Some(rest) = after(text, "Failure executing: ") {
        r.set_shape(Shape::Java);
        if let Some((verb, rest)) = rest.split_once(" at: ") {
            r.verb.get_or_insert_with(|| verb.trim().to_owned());
            let url = rest
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches('.');
            r.url.get_or_insert_with(|| url.to_owned());
        }
        if let Some(msg) = after(rest, ". Message: ") {
            let end = msg.find(". Received status: ").unwrap_or(msg.len());
            if r.message.is_none() {
                r.message = Some(msg[..end].trim_end_matches('.').to_owned());
            }
        }
        if let Some(code) = after(rest, " code=").and_then(leading_code) {
            r.code.get_or_insert(code);
        }
        if let Some(reason) = after(rest, ", reason=") {
            // The Status's own reason is the last one (causes come first).
            let last = rest.rfind(", reason=").map_or(reason, |i| &rest[i + 9..]);
            let word: String = last
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            if !word.is_empty() && word != "null" {
                r.reason.get_or_insert(word);
            }
        }
    }
}

/// `key: 'value'` in Node's `util.inspect` output.
fn inspect_string(text: &str, key: &str) -> Option<String> {
    let rest = after(text, key)?;
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = &rest[1..];
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(match next {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
            }
            c if c == quote => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// The text after the first `marker`.
fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    text.find(marker).map(|i| &text[i + marker.len()..])
}

/// A leading three-digit HTTP status code (`422 ...`, `422)`).
fn leading_code(text: &str) -> Option<u16> {
    let digits: String = text
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    if digits.len() != 3 {
        return None;
    }
    digits.parse().ok().filter(|c| (100..600).contains(c))
}

/// The HTTP reason phrase's code (`Unprocessable Entity` is 422).
pub fn code_of_phrase(phrase: &str) -> Option<u16> {
    Some(match phrase {
        "Bad Request" => 400,
        "Unauthorized" => 401,
        "Forbidden" => 403,
        "Not Found" => 404,
        "Method Not Allowed" => 405,
        "Conflict" => 409,
        "Request Entity Too Large" | "Payload Too Large" | "Content Too Large" => 413,
        "Unsupported Media Type" => 415,
        "Unprocessable Entity" | "Unprocessable Content" => 422,
        "Too Many Requests" => 429,
        "Internal Server Error" => 500,
        "Service Unavailable" => 503,
        "Gateway Timeout" => 504,
        _ => return None,
    })
}

/// Unquotes a Go-quoted string at the start of `text` (which starts with
/// `"`): returns the string and the bytes consumed.
pub fn go_unquote(text: &str) -> Option<(String, usize)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, i + 2)),
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'u' | 'x' => {
                        let len = if e == 'u' { 4 } else { 2 };
                        let hex: String = (0..len)
                            .filter_map(|_| chars.next().map(|(_, h)| h))
                            .collect();
                        if let Some(ch) =
                            u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                        {
                            out.push(ch);
                        }
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
    }
    None
}

/// Undoes `\"`, `\\` and `\n` so a message quoted inside a log line
/// matches as written (a loose pass: the text is only matched against).
fn unescape_loosely(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('"') => {
                    out.push('"');
                    chars.next();
                }
                Some('\\') => {
                    out.push('\\');
                    chars.next();
                }
                Some('n') => {
                    out.push('\n');
                    chars.next();
                }
                Some('t') => {
                    out.push('\t');
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_object() {
        let t = target_of_url(
            "https://10.0.0.1:6443/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/testvmi?fieldManager=x",
        );
        assert_eq!(t.group.as_deref(), Some("kubevirt.io"));
        assert_eq!(t.resource.as_deref(), Some("virtualmachineinstances"));
        assert_eq!(t.namespace.as_deref(), Some("default"));
        assert_eq!(t.name.as_deref(), Some("testvmi"));
        let t = target_of_url("/api/v1/namespaces/kube-system/pods/p1/status");
        assert_eq!(t.group.as_deref(), Some(""));
        assert_eq!(t.resource.as_deref(), Some("pods"));
        assert_eq!(t.name.as_deref(), Some("p1"));
        assert_eq!(target_of_url("/healthz"), Target::default());
    }

    #[test]
    fn go_strings_unquote() {
        assert_eq!(
            go_unquote(r#""a\"b\n\u00e9" rest"#),
            Some(("a\"b\né".to_owned(), 14))
        );
        assert_eq!(go_unquote("\"open"), None);
    }

    #[test]
    fn kubectl_forms() {
        let r = read("Error from server (Conflict): Operation cannot be fulfilled on pods \"x\": the object has been modified; please apply your changes to the latest version and try again");
        assert_eq!(r.shape, Some(Shape::Kubectl));
        assert_eq!(r.reason.as_deref(), Some("Conflict"));
        assert!(r
            .message
            .as_deref()
            .unwrap()
            .starts_with("Operation cannot"));
        let r = read("The Deployment \"web\" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* spec.template.spec.containers: Required value");
        assert_eq!(r.kind.as_deref(), Some("Deployment"));
        assert_eq!(r.target.name.as_deref(), Some("web"));
        assert_eq!(r.causes.len(), 2);
        assert_eq!(r.causes[1].field, "spec.template.spec.containers");
        assert_eq!(r.code, Some(422));
    }
}
