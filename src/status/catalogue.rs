//! Every answer the modelled server can give, enumerated: each
//! constructor of [`Status`] with representative arguments, and the
//! classes of failure that produce it. `explain` is tested against this
//! list (every answer, as kubectl, client-go and a `Status` JSON show it,
//! is explained back to its classes), so a new constructor belongs here.

use crate::gojson;
use crate::vocabulary::ErrorClass;

use super::{ApplyConflict, Resource, Status};

/// One answer of the modelled server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The [`Status`] constructor that builds it.
    pub constructor: &'static str,
    /// The answer.
    pub status: Status,
    /// The classes of failure that get this answer (more than one when the
    /// answer cannot tell them apart).
    pub classes: &'static [ErrorClass],
}

/// `answer!(constructor(arguments) => classes)`: the answer that
/// `Status::constructor` builds, named after it.
macro_rules! answer {
    ($constructor:ident($($argument:expr),*) => $classes:expr) => {
        Answer {
            constructor: stringify!($constructor),
            status: Status::$constructor($($argument),*),
            classes: $classes,
        }
    };
}

/// Every answer, with representative arguments: a KubeVirt VMI and a core
/// Pod, Go's own decode error texts (from [`gojson`]), one and several
/// apply conflicts.
pub fn answers() -> Vec<Answer> {
    use ErrorClass as C;
    let vmi = Resource {
        plural: "virtualmachineinstances".into(),
        group: "kubevirt.io".into(),
    };
    let pod = Resource {
        plural: "pods".into(),
        group: String::new(),
    };
    // The handler's strict decode, with Go's texts.
    let decode = [
        r#"[{"op":"add","path": }]"#,
        "[1]",
        r#""x""#,
        r#"[{"op":1}]"#,
    ]
    .map(|body| (gojson::check_json_patch(body), &[C::DecodeError]));
    let content_type = [
        gojson::check_json_patch(r#"{"op":"add"}"#),
        gojson::check_merge_patch(r#"[{"op":"add"}]"#),
    ]
    .map(|result| (result, &[C::ContentType]));
    let mut out: Vec<Answer> = (decode.into_iter().chain(content_type))
        .filter_map(|(result, classes)| Some(answer!(decoding_patch(result.err()?) => classes)))
        .collect();
    let handler = r#""virt-handler" using kubevirt.io/v1"#;
    let conflict = |field: &str, manager: &str| ApplyConflict {
        field: field.into(),
        manager: manager.into(),
    };
    let one = [conflict(".metadata.labels.kubevirt.io/nodeName", handler)];
    let three = [
        conflict(".metadata.labels.a", handler),
        conflict(".spec.x", r#""an-applier""#),
        conflict(".metadata.finalizers[=\"x\"]", handler),
    ];
    out.extend([
        answer!(body_too_large() => &[C::TooLarge]),
        answer!(too_many_ops(10_001) => &[C::TooManyOps]),
        answer!(json_patch_failed() => &ErrorClass::BARE_422),
        answer!(panicked(None) => &[C::EnginePanic]),
        answer!(panicked(Some(("PATCH", &vmi, "testvmi"))) => &[C::EnginePanic]),
        answer!(name_mismatch("other", "testvmi") => &[C::NameMismatch]),
        answer!(namespace_mismatch() => &[C::NameMismatch]),
        answer!(invalid_merge_patch() => &[C::DecodeError]),
    ]);
    for resource in [&vmi, &pod] {
        let stale = &[C::UpdateConflict, C::RvPrecondition];
        out.push(answer!(not_found(resource, "testvmi") => &[C::NotFound]));
        out.push(answer!(stale(resource, "testvmi") => stale));
    }
    for json_values in [false, true] {
        let rv = &[C::MissingResourceVersion];
        out.push(answer!(missing_resource_version(&vmi, "testvmi", json_values) => rv));
    }
    out.extend([
        answer!(apply_conflicts(&one) => &[C::SsaConflict]),
        answer!(apply_conflicts(&three) => &[C::SsaConflict]),
    ]);
    let why = "the configuration is not an object";
    out.push(answer!(bad_apply_configuration(why) => &[C::DecodeError]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_is_a_failure_with_a_class_of_its_code() {
        let all = answers();
        assert!(all.len() >= 20, "{}", all.len());
        for a in &all {
            assert!(a.status.code >= 400, "{a:?}");
            assert!(!a.classes.is_empty());
            for class in a.classes {
                assert!(
                    class.codes().contains(&a.status.code),
                    "{} answers {} but {class} comes with {:?}",
                    a.constructor,
                    a.status.code,
                    class.codes()
                );
            }
        }
        // The Go texts came out of gojson, as the server writes them.
        assert!(all.iter().any(|a| a.status.message
            == "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"));
    }
}
