//! From what was read to a class: the messages are matched against the
//! texts Kubernetes, kubectl and evanphx/json-patch write (each signature
//! cites where its text is built; see docs/explain.md), most specific
//! first; where no text matches, the status code and reason decide what
//! they can.

use super::details::{add_conflict, Details, FieldProblem};
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
    // A text recognised as no failure of the write keeps no class.
    if verdict.candidates.is_empty() && verdict.details.outside.is_none() {
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
