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

fn answer(constructor: &'static str, status: Status, classes: &'static [ErrorClass]) -> Answer {
    Answer {
        constructor,
        status,
        classes,
    }
}

/// Every answer, with representative arguments: a KubeVirt VMI and a core
/// Pod, Go's own decode error texts (from [`gojson`]), one and several
/// apply conflicts.
pub fn answers() -> Vec<Answer> {
    // A table: every Status constructor with representative arguments and its classes.
    let vmi = Resource {
        plural: "virtualmachineinstances".into(),
        group: "kubevirt.io".into(),
    };
    let pod = Resource {
        plural: "pods".into(),
        group: String::new(),
    };
    let mut out = Vec::new();
    // The handler's strict decode, with Go's texts.
    for body in [
        "[{\"op\":\"add\",\"path\": }]",
        "[1]",
        "\"x\"",
        "[{\"op\":1}]",
    ] {
        if let Err(err) = gojson::check_json_patch(body) {
            out.push(answer(
                "decoding_patch",
                Status::decoding_patch(err),
                &[ErrorClass::DecodeError],
            ));
        }
    }
    for (body, merge) in [("{\"op\":\"add\"}", false), ("[{\"op\":\"add\"}]", true)] {
        let err = if merge {
            gojson::check_merge_patch(body).err()
        } else {
            gojson::check_json_patch(body).err()
        };
        if let Some(err) = err {
            out.push(answer(
                "decoding_patch",
                Status::decoding_patch(err),
                &[ErrorClass::ContentType],
            ));
        }
    }
    out.push(answer(
        "body_too_large",
        Status::body_too_large(),
        &[ErrorClass::TooLarge],
    ));
    out.push(answer(
        "too_many_ops",
        Status::too_many_ops(10_001),
        &[ErrorClass::TooManyOps],
    ));
    out.push(answer(
        "json_patch_failed",
        Status::json_patch_failed(),
        &ErrorClass::BARE_422,
    ));
    out.push(answer(
        "panicked",
        Status::panicked(None),
        &[ErrorClass::EnginePanic],
    ));
    out.push(answer(
        "panicked",
        Status::panicked(Some(("PATCH", &vmi, "testvmi"))),
        &[ErrorClass::EnginePanic],
    ));
    out.push(answer(
        "name_mismatch",
        Status::name_mismatch("other", "testvmi"),
        &[ErrorClass::NameMismatch],
    ));
    out.push(answer(
        "namespace_mismatch",
        Status::namespace_mismatch(),
        &[ErrorClass::NameMismatch],
    ));
    out.push(answer(
        "invalid_merge_patch",
        Status::invalid_merge_patch(),
        &[ErrorClass::DecodeError],
    ));
    for resource in [&vmi, &pod] {
        out.push(answer(
            "not_found",
            Status::not_found(resource, "testvmi"),
            &[ErrorClass::NotFound],
        ));
        out.push(answer(
            "stale",
            Status::stale(resource, "testvmi"),
            &[ErrorClass::UpdateConflict, ErrorClass::RvPrecondition],
        ));
    }
    for json_values in [false, true] {
        out.push(answer(
            "missing_resource_version",
            Status::missing_resource_version(&vmi, "testvmi", json_values),
            &[ErrorClass::MissingResourceVersion],
        ));
    }
    let handler = r#""virt-handler" using kubevirt.io/v1"#;
    let one = [ApplyConflict {
        field: ".metadata.labels.kubevirt.io/nodeName".into(),
        manager: handler.into(),
    }];
    out.push(answer(
        "apply_conflicts",
        Status::apply_conflicts(&one),
        &[ErrorClass::SsaConflict],
    ));
    let three = [
        ApplyConflict {
            field: ".metadata.labels.a".into(),
            manager: handler.into(),
        },
        ApplyConflict {
            field: ".spec.x".into(),
            manager: r#""an-applier""#.into(),
        },
        ApplyConflict {
            field: ".metadata.finalizers[=\"x\"]".into(),
            manager: handler.into(),
        },
    ];
    out.push(answer(
        "apply_conflicts",
        Status::apply_conflicts(&three),
        &[ErrorClass::SsaConflict],
    ));
    out.push(answer(
        "bad_apply_configuration",
        Status::bad_apply_configuration("the configuration is not an object"),
        &[ErrorClass::DecodeError],
    ));
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
