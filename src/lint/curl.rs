//! A `curl` line that sends a PATCH to the API server, as the Kubernetes
//! docs write them (`curl --header "Content-Type: application/json-patch+json"
//! --request PATCH --data '[...]' http://localhost:8001/api/v1/nodes/n/status`,
//! through `kubectl proxy`): the body is sent byte for byte as written,
//! with the content type the header names, to the object the URL names.
//!
//! curl's flags (curl(1)): `-X`/`--request` the method, `-H`/`--header` a
//! header, `-d`/`--data`/`--data-raw`/`--data-binary`/`--data-ascii` the
//! body (`@file` reads a file); with a body and no `-X`, curl sends POST,
//! and with no Content-Type header, `application/x-www-form-urlencoded`.

use super::dropped;
use super::kinds;
use super::read::{self, BodyKind, Hint, Input, LintError, Origin, PatchFiles};
use super::rules::{message, Rule};
use super::shell::{self, Token};
use crate::input::Budget;

/// True when the text's first command is `curl`.
pub fn is_curl(text: &str) -> bool {
    let first = text.trim_start();
    let first = first.strip_prefix("$ ").unwrap_or(first);
    let word = first.split_whitespace().next().unwrap_or("");
    word.rsplit('/').next() == Some("curl")
}

/// What a curl command sends.
#[derive(Default)]
struct Request {
    method: Option<String>,
    content_type: Option<String>,
    body: Option<(String, usize)>,
    url: Option<String>,
    /// The body's expansions (a value set elsewhere).
    expansions: Vec<String>,
}

/// Reads the PATCH a curl command sends.
pub(super) fn read(
    text: &str,
    budget: &Budget,
    files: Option<PatchFiles<'_>>,
) -> Result<Input, LintError> {
    let text = text.trim_start();
    let text = text.strip_prefix("$ ").unwrap_or(text);
    let tokens = shell::split(text).map_err(|err| LintError::Command {
        message: format!("the shell cannot split this text: {}", err.message),
        line: Some(err.line),
    })?;
    let request = request(&tokens);
    let kind = match request.content_type.as_deref().map(str::to_ascii_lowercase) {
        Some(t) if t.starts_with("application/json-patch+json") => BodyKind::JsonPatch,
        Some(t) if t.starts_with("application/merge-patch+json") => BodyKind::MergePatch,
        Some(t) if t.starts_with("application/strategic-merge-patch+json") => {
            BodyKind::StrategicMergePatch
        }
        Some(t) if t.starts_with("application/apply-patch") => {
            return Err(LintError::Unsupported(BodyKind::Apply))
        }
        other => {
            let sent = other.unwrap_or_else(|| "application/x-www-form-urlencoded".to_owned());
            let message = message!(CommandFails "curl-type", sent);
            return Err(judged(Rule::CommandFails, message, BodyKind::JsonPatch));
        }
    };
    let method = request.method.as_deref().unwrap_or(match request.body {
        Some(_) => "POST",
        None => "GET",
    });
    if !method.eq_ignore_ascii_case("PATCH") {
        return Err(LintError::Command {
            message: format!("curl sends {method}, not PATCH: lint reads patches (-X PATCH)"),
            line: None,
        });
    }
    let Some((body, line)) = request.body else {
        return Err(LintError::Command {
            message: "curl sends no body: give the patch with -d or --data-binary".to_owned(),
            line: None,
        });
    };
    if request.expansions.contains(&body) {
        let value = body.clone();
        let message = message!(BodyUnknown "value", value);
        return Err(judged(Rule::BodyUnknown, message, kind));
    }
    let body = match body.strip_prefix('@') {
        Some(file) => open(file, files, line)?,
        None => body,
    };
    let mut input = read::body(&body, budget).map_err(|err| match err {
        LintError::Judged { hints, .. } => LintError::Judged {
            hints,
            line: Some(line),
            column: None,
            kind,
        },
        other => other,
    })?;
    // curl sends the bytes: YAML is not decoded as JSON by the server.
    if input.origin == Origin::Yaml {
        let answer = read::server_answer(kind, &body).unwrap_or_default();
        let content = kind.content_type();
        let place = String::new();
        let message = message!(UndecodableBody "body", content, place, answer);
        return Err(judged(Rule::UndecodableBody, message, kind));
    }
    if (kind == BodyKind::JsonPatch) != (input.kind == BodyKind::JsonPatch) {
        let answer = read::server_answer(kind, &body).unwrap_or_default();
        let content = kind.content_type();
        let sent = "the body as written".to_owned();
        let message = message!(UndecodableBody "shape", sent, content, answer);
        return Err(judged(Rule::UndecodableBody, message, kind));
    }
    input.kind = kind;
    let url = request.url.unwrap_or_default();
    input.resource = resource_of(&url);
    let target_kind = input.resource.as_ref().and_then(|r| r.kind.as_deref());
    let subresource = subresource_of(&url);
    let dropped = dropped::dropped(target_kind, kind, &input.payload, subresource.as_deref());
    input.hints.extend(dropped);
    input.origin = Origin::Curl { url };
    Ok(input)
}

fn judged(rule: Rule, message: String, kind: BodyKind) -> LintError {
    LintError::Judged {
        hints: vec![Hint { rule, message }],
        line: None,
        column: None,
        kind,
    }
}

/// The file `-d @file` reads, through the caller's opener.
fn open(file: &str, files: Option<PatchFiles<'_>>, line: usize) -> Result<String, LintError> {
    let Some(files) = files else {
        return Err(LintError::Command {
            message: format!("the body is the file {file}: lint cannot open files here: paste its contents with -d, or run `patchlab lint` where the file is"),
            line: Some(line),
        });
    };
    files(file).map_err(|err| LintError::Command {
        message: format!("-d @{file}: {err}"),
        line: Some(line),
    })
}

/// The method, Content-Type, body and URL of the first curl command.
fn request(tokens: &[Token]) -> Request {
    let mut request = Request::default();
    let mut words = tokens
        .iter()
        .take_while(|t| matches!(t, Token::Word { .. }))
        .filter_map(|t| match t {
            Token::Word {
                text,
                line,
                expansions,
                ..
            } => Some((text.as_str(), *line, expansions)),
            Token::Op { .. } => None,
        })
        .skip(1);
    while let Some((word, line, expansions)) = words.next() {
        let mut value = |short: &str, long: &[&str]| -> Option<(String, usize, Vec<String>)> {
            if long.contains(&word) || word == short {
                return words.next().map(|(v, l, e)| (v.to_owned(), l, e.clone()));
            }
            let attached = word
                .strip_prefix(short)
                .filter(|v| !v.is_empty() && short.len() == 2)?;
            Some((attached.to_owned(), line, expansions.clone()))
        };
        if let Some((method, ..)) = value("-X", &["--request"]) {
            request.method = Some(method);
        } else if let Some((header, ..)) = value("-H", &["--header"]) {
            if let Some((name, v)) = header.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-type") {
                    request.content_type = Some(v.trim().to_owned());
                }
            }
        } else if let Some((body, l, e)) = value(
            "-d",
            &["--data", "--data-raw", "--data-binary", "--data-ascii"],
        ) {
            request.body = Some((body, l));
            request.expansions = e;
        } else if word.starts_with("http://")
            || word.starts_with("https://")
            || word.contains("/api")
        {
            request.url = Some(word.to_owned());
        }
    }
    request
}

/// The subresource an API path names (`status`, `finalize`), after the
/// object's name.
fn subresource_of(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let api = parts.iter().position(|p| *p == "api" || *p == "apis")?;
    let skip = if parts[api] == "api" { 2 } else { 3 };
    let rest = parts.get(api + skip..)?;
    let rest = match rest {
        // A Namespace's own subresource: /api/v1/namespaces/x/finalize.
        ["namespaces", _, sub] => return Some((*sub).to_owned()),
        ["namespaces", _, more @ ..] if !more.is_empty() => more,
        other => other,
    };
    (rest.len() >= 3).then(|| rest[2].to_owned())
}

/// The resource an API path names: `/api/v1/nodes/n/status`,
/// `/apis/apps/v1/namespaces/ns/deployments/web`.
fn resource_of(url: &str) -> Option<kinds::Resource> {
    let path = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest.find('/').map_or("", |at| &rest[at..]));
    let path = path.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let rest = match parts.as_slice() {
        ["api", _version, rest @ ..] => rest,
        ["apis", _group, _version, rest @ ..] => rest,
        _ => return None,
    };
    let rest = match rest {
        ["namespaces", _, _] => &rest[..2],
        ["namespaces", _ns, rest @ ..] if !rest.is_empty() => rest,
        other => other,
    };
    kinds::resource(rest.first()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_curl_reads_as_the_patch_it_sends() {
        let text = "curl --header \"Content-Type: application/json-patch+json\" \\\n--request PATCH \\\n--data '[{\"op\": \"add\", \"path\": \"/status/capacity/example.com~1dongle\", \"value\": \"4\"}]' \\\nhttp://localhost:8001/api/v1/nodes/k8s-node-1/status";
        assert!(is_curl(text));
        let input = read(text, &Budget::default(), None).unwrap();
        assert_eq!(input.kind, BodyKind::JsonPatch);
        assert_eq!(input.resource.unwrap().kind.as_deref(), Some("Node"));
        assert!(matches!(input.origin, Origin::Curl { ref url } if url.ends_with("/status")));
        // To /status: the status write is kept; to the Node itself, dropped.
        assert!(input.hints.is_empty(), "{:?}", input.hints);
        let main = text.replace("k8s-node-1/status", "k8s-node-1");
        let input = read(&main, &Budget::default(), None).unwrap();
        assert_eq!(input.hints[0].rule, Rule::WriteDropped);
        assert_eq!(
            subresource_of("http://h/api/v1/namespaces/x/finalize").as_deref(),
            Some("finalize")
        );
        assert_eq!(
            subresource_of("http://h/api/v1/namespaces/x/pods/p/status").as_deref(),
            Some("status")
        );
        assert_eq!(
            subresource_of("http://h/apis/apps/v1/namespaces/x/deployments/d"),
            None
        );
        assert_eq!(
            resource_of("http://h/api/v1/namespaces/x/finalize")
                .unwrap()
                .kind
                .as_deref(),
            Some("Namespace")
        );
        let merge = "curl -k -XPATCH -H 'Content-Type: application/merge-patch+json' https://api:6443/apis/apps/v1/namespaces/default/deployments/web -d '{\"spec\":{\"replicas\":3}}'";
        let input = read(merge, &Budget::default(), None).unwrap();
        assert_eq!(input.kind, BodyKind::MergePatch);
        assert_eq!(input.resource.unwrap().kind.as_deref(), Some("Deployment"));
    }

    #[test]
    fn what_curl_sends_wrong_is_the_servers_answer() {
        let judged = |text: &str| match read(text, &Budget::default(), None) {
            Err(LintError::Judged { hints, .. }) => (hints[0].rule, hints[0].message.clone()),
            other => panic!("{text}: {other:?}"),
        };
        // No Content-Type: curl's form encoding, which PATCH refuses.
        let (rule, message) =
            judged("curl -X PATCH -d '{\"a\":1}' http://localhost:8001/api/v1/nodes/n");
        assert_eq!(rule, Rule::CommandFails);
        assert!(
            message.contains("application/x-www-form-urlencoded"),
            "{message}"
        );
        assert!(message.contains("415"), "{message}");
        // A trailing comma: Go's decoder refuses it.
        let (rule, message) = judged("curl -X PATCH -H 'Content-Type: application/json-patch+json' -d '[{\"op\":\"remove\",\"path\":\"/a\",}]' http://h/api/v1/nodes/n");
        assert_eq!(rule, Rule::UndecodableBody);
        assert!(message.contains("invalid character '}'"), "{message}");
        // A body set elsewhere: a note.
        let (rule, _) = judged("curl -X PATCH -H 'Content-Type: application/merge-patch+json' -d \"$BODY\" http://h/api/v1/nodes/n");
        assert_eq!(rule, Rule::BodyUnknown);
        // Not a PATCH: said.
        let err = read(
            "curl -H 'Content-Type: application/json-patch+json' -d '[]' http://h/api/v1/nodes/n",
            &Budget::default(),
            None,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("curl sends POST, not PATCH"),
            "{err}"
        );
    }
}
