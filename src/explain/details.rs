//! What a message says beyond its class: the paths, managers, fields,
//! media types, webhook, identity, op count, decode error and releases
//! each signature's extractor reads out of the matching text.

use serde::Serialize;

/// One field manager in a server-side apply conflict and the fields it
/// owns that the apply would change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Manager {
    /// The manager as the server prints it (`"virt-handler" using kubevirt.io/v1`).
    pub manager: String,
    /// Its name alone (`virt-handler`).
    pub name: String,
    /// How it wrote: `Apply`, or `Update` (with the API version) for a
    /// writer that used Update or a patch.
    pub operation: &'static str,
    /// The fields, as structured-merge-diff prints them (`.metadata.labels.app`).
    pub fields: Vec<String>,
}

/// One field the server names in a 422 Invalid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldProblem {
    /// The field path (`spec.replicas`).
    pub field: String,
    /// What is wrong (`Invalid value: -1: must be ...`).
    pub message: String,
}

/// What the text says beyond its class.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Details {
    /// The path of the failing op (evanphx's own texts name it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The array index of a bad-index failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    /// Server-side apply conflicts, per manager.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub managers: Vec<Manager>,
    /// The fields of a 422 Invalid.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldProblem>,
    /// The media types a 415 lists.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accepted: Vec<String>,
    /// The admission webhook that refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook: Option<String>,
    /// The user an RBAC denial names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// The op count a 413 names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op_count: Option<u64>,
    /// The Go decode error of a 400.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_error: Option<String>,
    /// Releases the text's own wording narrows the cluster to
    /// (`0x0` is printed up to 1.33, `0` from 1.34).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub releases: Option<String>,
    /// A text recognised as no failure of the write itself (a webhook's
    /// certificate that does not verify): what it is, and what helps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<&'static str>,
}

pub(super) fn nothing(_: &str, _: &mut Details) {}

/// A TLS certificate that does not verify (Go's crypto/x509 and
/// crypto/tls texts): no class of a write's failure.
pub(super) fn certificate(text: &str, details: &mut Details) {
    details.outside = Some(match text.contains("failed calling webhook") {
        true => "The API server could not call the admission webhook: the webhook's serving certificate does not verify against the CA bundle registered for it (its clientConfig.caBundle), so nothing about the patch was judged. Retrying fails the same way until the certificate or the caBundle is fixed (a CA injector such as cert-manager's, or the webhook's own rotation, re-run); with failurePolicy Ignore the write would have gone through.",
        false => "The client could not verify the API server's (or a proxy's) TLS certificate against the CA it trusts (the kubeconfig's certificate-authority-data), so no request was made. Retrying fails the same way until the kubeconfig's CA or the server's certificate is fixed.",
    });
    webhook_name(text, details);
}
pub(super) fn add_conflict(details: &mut Details, manager: &str, field: &str) {
    let manager = manager.trim();
    if let Some(m) = details.managers.iter_mut().find(|m| m.manager == manager) {
        if !field.is_empty() && !m.fields.iter().any(|f| f == field) {
            m.fields.push(field.to_owned());
        }
        return;
    }
    let (name, operation) = match super::read::go_unquote(manager) {
        Some((name, used)) => {
            let rest = &manager[used..];
            (
                name,
                if rest.contains(" using ") {
                    "Update"
                } else {
                    "Apply"
                },
            )
        }
        None => (manager.to_owned(), "Apply"),
    };
    details.managers.push(Manager {
        manager: manager.to_owned(),
        name,
        operation,
        fields: if field.is_empty() {
            Vec::new()
        } else {
            vec![field.to_owned()]
        },
    });
}

/// `Apply failed with 1 conflict: conflict with M: F` or `Apply failed
/// with N conflicts: conflicts with M:\n- F\n...` (managedfields
/// `internal/conflict.go` `getConflictMessage`, `printManager`).
pub(super) fn ssa_managers(text: &str, d: &mut Details) {
    let Some(start) = text.find("Apply failed with ") else {
        return;
    };
    let body = &text[start..];
    if let Some(rest) = body
        .split_once("1 conflict: conflict with ")
        .map(|(_, r)| r)
    {
        let line = rest.lines().next().unwrap_or("");
        if let Some((manager, field)) = split_manager(line) {
            add_conflict(d, manager, field);
        }
        return;
    }
    let mut current: Option<String> = None;
    for line in body.lines() {
        let line = line.trim();
        let line = line.find("conflicts with ").map_or(line, |i| &line[i..]);
        if let Some(manager) = line
            .strip_prefix("conflicts with ")
            .and_then(|m| m.strip_suffix(':'))
        {
            current = Some(manager.to_owned());
            add_conflict(d, manager, "");
        } else if let (Some(field), Some(manager)) = (line.strip_prefix("- "), current.as_deref()) {
            add_conflict(d, manager, field);
        } else if current.is_some() {
            break;
        }
    }
}

/// `"name" [with subresource "s"] [using v1 [at TIME]]: FIELD`.
fn split_manager(line: &str) -> Option<(&str, &str)> {
    let (_, used) = super::read::go_unquote(line)?;
    let rest = &line[used..];
    let colon = rest.find(": ")?;
    Some((&line[..used + colon], &rest[colon + 2..]))
}

pub(super) fn accepted_types(text: &str, d: &mut Details) {
    let marker = "accepted media types include: ";
    if let Some(i) = text.find(marker) {
        let list = text[i + marker.len()..].lines().next().unwrap_or("");
        d.accepted = list
            .split(", ")
            .map(|t| {
                t.trim()
                    .trim_end_matches(['.', ',', '"', '\'', ')'])
                    .to_owned()
            })
            .filter(|t| t.starts_with("application/"))
            .collect();
    }
}

pub(super) fn op_count(text: &str, d: &mut Details) {
    if let Some(i) = text.find(", got ") {
        let digits: String = text[i + 6..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        d.op_count = digits.parse().ok();
    }
}

pub(super) fn webhook_name(text: &str, d: &mut Details) {
    for marker in ["admission webhook \"", "failed calling webhook \""] {
        if let Some(i) = text.find(marker) {
            if let Some((name, _)) = super::read::go_unquote(&text[i + marker.len() - 1..]) {
                d.webhook = Some(name);
                return;
            }
        }
    }
}

pub(super) fn release_of_rv_value(text: &str, d: &mut Details) {
    if text.contains("Invalid value: 0x0: must be specified") {
        d.releases = Some("1.33 or older (the bad value printed with Go's %#v)".to_owned());
    } else if text.contains("Invalid value: 0: must be specified") {
        d.releases = Some("1.34 or newer (the bad value printed as JSON)".to_owned());
    }
    invalid_fields(text, d);
}

pub(super) fn decode_error(text: &str, d: &mut Details) {
    let start = text
        .find("error decoding patch: ")
        .map(|i| i + "error decoding patch: ".len())
        .or_else(|| text.find("json: "));
    if let Some(i) = start {
        d.decode_error = Some(text[i..].lines().next().unwrap_or("").trim().to_owned());
    }
}

/// `testing value /path failed`.
pub(super) fn evanphx_test_path(text: &str, d: &mut Details) {
    if let Some(i) = text.find("testing value ") {
        let rest = &text[i + "testing value ".len()..];
        if let Some(end) = rest.find(" failed") {
            d.path = Some(rest[..end].to_owned());
        }
    }
}

/// `... is missing path: "/a/b": missing value` (quoted or not).
pub(super) fn evanphx_missing_path(text: &str, d: &mut Details) {
    for marker in [
        "is missing path: ",
        "doc is missing key: ",
        "doc is missing from path: ",
        "doc is missing destination path: ",
    ] {
        if let Some(i) = text.find(marker) {
            let rest = &text[i + marker.len()..];
            let path = match super::read::go_unquote(rest) {
                Some((p, _)) => p,
                None => rest.split(": ").next().unwrap_or("").trim().to_owned(),
            };
            if path.starts_with('/') || path.is_empty() {
                d.path = Some(path);
            }
            return;
        }
    }
}

pub(super) fn evanphx_index(text: &str, d: &mut Details) {
    if let Some(i) = text.find("invalid index: ") {
        let rest = &text[i + "invalid index: ".len()..];
        let number: String = rest
            .chars()
            .enumerate()
            .take_while(|(n, c)| c.is_ascii_digit() || (*n == 0 && *c == '-'))
            .map(|(_, c)| c)
            .collect();
        d.index = number.parse().ok();
    }
}

pub(super) fn rbac_user(text: &str, d: &mut Details) {
    if let Some(i) = text.find("User \"") {
        if let Some((user, _)) = super::read::go_unquote(&text[i + 5..]) {
            d.user = Some(user);
        }
    }
}

/// The fields of `X "n" is invalid: f: msg` or `...: [f1: m1, f2: m2]`
/// (apimachinery `NewInvalid`: one error as is, several as an aggregate
/// in brackets), and kubectl's `* f: m` lines.
pub(super) fn invalid_fields(text: &str, d: &mut Details) {
    if !d.fields.is_empty() {
        return;
    }
    let Some(i) = text
        .find(" is invalid: ")
        .map(|i| i + " is invalid: ".len())
        .or_else(|| {
            text.find("The request is invalid: ")
                .map(|i| i + "The request is invalid: ".len())
        })
    else {
        return;
    };
    let rest = text[i..].trim_start();
    let bullets: Vec<&str> = rest
        .lines()
        .filter_map(|l| l.trim().strip_prefix("* "))
        .collect();
    let items: Vec<String> = if !bullets.is_empty() {
        bullets.into_iter().map(str::to_owned).collect()
    } else if let Some(inner) = rest.lines().next().and_then(|l| l.strip_prefix('[')) {
        split_aggregate(inner.strip_suffix(']').unwrap_or(inner))
    } else {
        vec![rest.lines().next().unwrap_or("").to_owned()]
    };
    for item in items {
        if let Some((field, message)) = item.split_once(": ") {
            if !field.contains(' ') || field.starts_with("metadata") {
                d.fields.push(FieldProblem {
                    field: field.to_owned(),
                    message: message.to_owned(),
                });
            }
        }
    }
}

/// The error type names of apimachinery's `field.ErrorType.String`.
const FIELD_ERROR_TYPES: [&str; 11] = [
    "Invalid value",
    "Required value",
    "Unsupported value",
    "Forbidden",
    "Not found",
    "Duplicate value",
    "Too long",
    "Too many",
    "Too few",
    "Too short",
    "Internal error",
];

/// Splits `f1: Invalid value: x, f2: Required value` at each `, ` that
/// starts a new `field: <type>` item.
fn split_aggregate(inner: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut start = 0;
    let bytes = inner.as_bytes();
    let mut i = 0;
    while let Some(pos) = inner[i..].find(", ") {
        let at = i + pos;
        let next = &inner[at + 2..];
        let starts_item = next.split_once(": ").is_some_and(|(field, body)| {
            !field.contains(' ') && FIELD_ERROR_TYPES.iter().any(|t| body.starts_with(t))
        });
        if starts_item {
            items.push(inner[start..at].to_owned());
            start = at + 2;
        }
        i = at + 2;
        if i >= bytes.len() {
            break;
        }
    }
    items.push(inner[start..].to_owned());
    items
}
