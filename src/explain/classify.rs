//! From what was read to a class: the messages are matched against the
//! texts Kubernetes, kubectl and evanphx/json-patch write (each signature
//! cites where its text is built; see docs/explain.md), most specific
//! first; where no text matches, the status code and reason decide what
//! they can.

use serde::Serialize;

use super::read::{ReadCause, Reading};
use super::signatures::SIGNATURES;
use crate::vocabulary::ErrorClass;

/// The media types kube-apiserver's PATCH handler takes for a custom
/// resource (apiextensions-apiserver `pkg/apiserver/customresource_handler.go`,
/// `supportedTypes`, 1.25 to 1.36; `application/apply-patch+cbor` joins
/// with the `CBORServingAndStorage` feature gate).
pub const CUSTOM_RESOURCE_PATCH_TYPES: [&str; 3] = [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
];

/// The strategic merge patch media type.
pub const STRATEGIC: &str = "application/strategic-merge-patch+json";

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
}

/// The classifier's verdict on the text alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Every class the text is consistent with, likeliest first (empty:
    /// not recognised).
    pub candidates: Vec<ErrorClass>,
    /// The Kubernetes (or client) text that matched, as its source writes it.
    pub matched: Option<&'static str>,
    /// What the text says beyond its class.
    pub details: Details,
}

pub(super) fn nothing(_: &str, _: &mut Details) {}

use ErrorClass as C;

/// Classifies what was read: the first signature (in table order) whose
/// text one of the messages holds, as written or with its runs of
/// whitespace collapsed (a message a terminal or a YAML dump wrapped).
pub fn classify(r: &Reading) -> Verdict {
    let mut verdict = Verdict::default();
    let collapsed: Vec<String> = r.texts.iter().map(|t| collapse(t)).collect();
    'outer: for signature in SIGNATURES {
        for (text, flat) in r.texts.iter().zip(&collapsed) {
            let found = if text.contains(signature.text) {
                Some(text.as_str())
            } else if flat.contains(signature.text) {
                Some(flat.as_str())
            } else {
                None
            };
            if let Some(text) = found {
                verdict.candidates = signature.classes.to_vec();
                verdict.matched = Some(signature.text);
                (signature.extract)(text, &mut verdict.details);
                break 'outer;
            }
        }
    }
    if verdict.candidates.is_empty() {
        verdict.candidates = by_code(r.code, r.reason.as_deref());
    }
    refine(r, &mut verdict);
    verdict
}

/// The text with every run of whitespace as one space.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What the code and reason alone allow, where no text matched.
fn by_code(code: Option<u16>, reason: Option<&str>) -> Vec<ErrorClass> {
    let code = code.or(match reason {
        Some("BadRequest") => Some(400),
        Some("Forbidden") => Some(403),
        Some("NotFound") => Some(404),
        Some("Conflict") => Some(409),
        Some("RequestEntityTooLarge") => Some(413),
        Some("UnsupportedMediaType") => Some(415),
        Some("Invalid") => Some(422),
        Some("TooManyRequests") => Some(429),
        Some("InternalError") => Some(500),
        Some("ServiceUnavailable") => Some(503),
        Some("Timeout") => Some(504),
        _ => None,
    });
    match code {
        Some(400) => vec![
            C::DecodeError,
            C::ContentType,
            C::NameMismatch,
            C::SmpMergeKey,
        ],
        Some(403) => vec![C::Forbidden, C::AdmissionDenied],
        Some(404) => vec![C::NotFound],
        Some(409) => vec![C::UpdateConflict, C::RvPrecondition, C::SsaConflict],
        Some(413) => vec![C::TooLarge, C::TooManyOps],
        Some(415) => vec![C::SmpCustomResource, C::ContentType],
        // A 422 whose message is lost (a client that kept the code):
        // validation answers most 422s; a failed op's has its own message.
        Some(422) => {
            let mut v = vec![C::Invalid, C::Immutable];
            v.extend(ErrorClass::BARE_422);
            v.push(C::SmpMergeKey);
            v
        }
        Some(429 | 503 | 504) => vec![C::Transient],
        Some(500) => vec![C::EnginePanic, C::SmpMergeKey, C::Transient],
        _ => Vec::new(),
    }
}

/// Narrows the candidates with what the reading says besides the message.
fn refine(r: &Reading, v: &mut Verdict) {
    // Structured causes (a Status JSON) say more than the message.
    if !r.causes.is_empty() {
        if v.details.fields.is_empty()
            && v.candidates
                .iter()
                .any(|c| matches!(c, C::Invalid | C::Immutable))
        {
            v.details.fields = fields_of_causes(&r.causes);
        }
        if v.candidates.contains(&C::SsaConflict) && v.details.managers.is_empty() {
            managers_of_causes(&r.causes, &mut v.details);
        }
    }
    // A 415: the list of media types the resource takes.
    if v.candidates.contains(&C::SmpCustomResource)
        && (v.candidates.len() > 1 || !v.details.accepted.is_empty())
    {
        let sent = r.content_type.as_deref();
        let smp_sent = sent.is_none_or(|t| t.starts_with(STRATEGIC));
        let builtin = v.details.accepted.iter().any(|t| t == STRATEGIC);
        v.candidates = if v.details.accepted.is_empty() {
            if smp_sent {
                vec![C::SmpCustomResource, C::ContentType]
            } else {
                vec![C::ContentType]
            }
        } else if !builtin && smp_sent {
            vec![C::SmpCustomResource]
        } else {
            vec![C::ContentType]
        };
    }
    // A stale resourceVersion: a PATCH pinned it, a PUT carried it.
    if v.candidates
        .starts_with(&[C::UpdateConflict, C::RvPrecondition])
    {
        match r.verb.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("patch") => v.candidates = vec![C::RvPrecondition],
            Some("update" | "put") => v.candidates = vec![C::UpdateConflict],
            _ => {}
        }
    }
    // A bare 422 of a strategic merge patch is one of its two 422 errors.
    if v.candidates == ErrorClass::BARE_422 {
        match r.content_type.as_deref() {
            Some(t) if t.starts_with(STRATEGIC) => v.candidates = vec![C::SmpMergeKey],
            Some(t) if t.starts_with("application/json-patch") => {}
            _ => v.candidates.push(C::SmpMergeKey),
        }
    }
    // An Invalid whose causes say "field is immutable".
    if v.candidates == [C::Invalid]
        && v.details
            .fields
            .iter()
            .any(|f| f.message.contains("field is immutable"))
    {
        v.candidates = vec![C::Immutable];
    }
}

fn fields_of_causes(causes: &[ReadCause]) -> Vec<FieldProblem> {
    causes
        .iter()
        .map(|c| FieldProblem {
            field: c.field.clone(),
            message: c.message.clone(),
        })
        .collect()
}

fn managers_of_causes(causes: &[ReadCause], details: &mut Details) {
    for cause in causes {
        if let Some(manager) = cause.message.strip_prefix("conflict with ") {
            add_conflict(details, manager, &cause.field);
        }
    }
}

fn add_conflict(details: &mut Details, manager: &str, field: &str) {
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

#[cfg(test)]
mod tests {
    use super::super::read::read;
    use super::*;

    fn verdict(text: &str) -> Verdict {
        classify(&read(text))
    }

    #[test]
    fn ssa_conflicts_name_managers_and_fields() {
        let v = verdict("Apply failed with 1 conflict: conflict with \"virt-handler\" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName");
        assert_eq!(v.candidates, [C::SsaConflict]);
        assert_eq!(v.details.managers.len(), 1);
        let m = &v.details.managers[0];
        assert_eq!(m.name, "virt-handler");
        assert_eq!(m.operation, "Update");
        assert_eq!(m.fields, [".metadata.labels.kubevirt.io/nodeName"]);
        let v = verdict("Apply failed with 3 conflicts: conflicts with \"an-applier\":\n- .spec.x\nconflicts with \"virt-handler\" using kubevirt.io/v1 at 2024-05-01T10:00:00Z:\n- .metadata.labels.a\n- .metadata.labels.b");
        assert_eq!(v.details.managers.len(), 2);
        assert_eq!(v.details.managers[0].operation, "Apply");
        assert_eq!(
            v.details.managers[1].fields,
            [".metadata.labels.a", ".metadata.labels.b"]
        );
    }

    #[test]
    fn invalid_aggregates_split_into_fields() {
        let v = verdict("Deployment.apps \"web\" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{\"a\":\"b\"}: `selector` does not match template `labels`]");
        assert_eq!(v.candidates, [C::Invalid]);
        let fields: Vec<&str> = v.details.fields.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "spec.replicas",
                "spec.selector",
                "spec.template.metadata.labels"
            ]
        );
        let v = verdict("Deployment.apps \"web\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"b\"}}: field is immutable");
        assert_eq!(v.candidates, [C::Immutable]);
        assert_eq!(v.details.fields[0].field, "spec.selector");
    }

    #[test]
    fn media_types_tell_custom_resources_from_built_ins() {
        let cr = "Error from server (UnsupportedMediaType): the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";
        assert_eq!(verdict(cr).candidates, [C::SmpCustomResource]);
        let builtin = "Error from server (UnsupportedMediaType): the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json";
        assert_eq!(verdict(builtin).candidates, [C::ContentType]);
    }

    #[test]
    fn evanphx_texts_name_paths() {
        let v = verdict("testing value /metadata/labels failed: test failed");
        assert_eq!(
            (v.candidates.as_slice(), v.details.path.as_deref()),
            (&[C::TestFailed][..], Some("/metadata/labels"))
        );
        let v =
            verdict("add operation does not apply: doc is missing path: \"/a/b\": missing value");
        assert_eq!(v.details.path.as_deref(), Some("/a/b"));
        let v =
            verdict("replace operation does not apply: doc is missing key: /spec/x: missing value");
        assert_eq!(
            (v.candidates[0], v.details.path.as_deref()),
            (C::MissingPath, Some("/spec/x"))
        );
        let v = verdict("error in remove for path: '/a/5': Unable to access invalid index: 5: invalid index referenced");
        assert_eq!((v.candidates[0], v.details.index), (C::BadIndex, Some(5)));
    }
}
