use std::time::{Duration, Instant};

use super::*;

fn explained(text: &str) -> Explanation {
    explain(&Request::text(text)).unwrap()
}

#[test]
fn retry_on_conflict_retries_exactly_the_409_classes() {
    for class in ErrorClass::ALL {
        let r = retry(class);
        assert_eq!(
            r.retry_on_conflict,
            class.codes() == [409],
            "{class}: RetryOnConflict retries what IsConflict says is a 409 Conflict"
        );
        assert!(r.advice.ends_with('.'), "{class}");
        assert!(fix(class).ends_with('.'), "{class}");
        let sources = sources(class);
        assert!(!sources.is_empty(), "{class}");
        for s in sources {
            assert!(s.url().starts_with("https://github.com/"), "{class}: {s:?}");
        }
    }
    // The classes the issue names: a 415 never helps, a failed test
    // helps only after a re-read.
    assert_eq!(retry(ErrorClass::SmpCustomResource).helps, Helps::No);
    assert_eq!(retry(ErrorClass::TestFailed).helps, Helps::AfterReread);
    assert_eq!(retry(ErrorClass::Transient).helps, Helps::Later);
}

#[test]
fn inputs_over_budget_or_empty_are_errors() {
    let big = "x".repeat(MAX_TEXT_BYTES + 1);
    assert_eq!(
        explain(&Request::text(&big)),
        Err(ExplainError::TextTooLarge {
            size: MAX_TEXT_BYTES + 1
        })
    );
    assert_eq!(explain(&Request::text(" \n\t")), Err(ExplainError::Empty));
    // The patch and the object are optional: unreadable, they are
    // reported beside the explanation, never instead of it.
    let e = explain(&Request {
        patch: Some("[{\"op\":"),
        object: Some("[1]"),
        content_type: Some("bogus"),
        ..Request::text("Error from server (NotFound): pods \"x\" not found")
    })
    .unwrap();
    assert_eq!(e.class, Some(ErrorClass::NotFound));
    let unread: Vec<&str> = e.unread.iter().map(|u| u.input).collect();
    assert_eq!(unread, ["content-type", "patch", "object"]);
    assert_eq!(e.unread[1].line, Some(1));
    assert_eq!(
        e.unread[2].message,
        "object: expected a Kubernetes object (a JSON object), found an array"
    );
    assert!(text(&e).contains("not read: patch: "), "{}", text(&e));
}

#[test]
fn hostile_texts_are_read_without_panic() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = explained(&deep);
    assert!(!e.recognised);
    let deep_object = format!("{}1{}", "{\"a\":".repeat(50_000), "}".repeat(50_000));
    assert!(!explained(&deep_object).recognised);
    for text in [
        "{",
        "\"",
        "b'",
        "Body: \"",
        "body=\"\\u12",
        "(4",
        "HTTP-Code: ",
        "message: '",
        "Failure executing: ",
        "Exception: (",
        "\u{feff}{}",
        "E0101 x.go:1] ",
    ] {
        let _ = explained(text);
    }
}

/// A 12 MB trace line (a request body logged whole) and 100,000 JSON log
/// lines: one pass each, well within a generous time box.
#[test]
fn big_texts_stay_near_linear() {
    let ops: Vec<String> = (0..200_000)
        .map(|i| format!("{{\"op\":\"add\",\"path\":\"/metadata/labels/k{i}\",\"value\":\"v\"}}"))
        .collect();
    let body = format!("[{}]", ops.join(","));
    assert!(body.len() > 10_000_000);
    let text = format!(
        "I0101 00:00:00.000000 1 request.go:1351] \"Request Body\" body={}\nI0101 00:00:00.000001 1 round_trippers.go:581] Response Status: 413 Request Entity Too Large in 3 milliseconds\nError from server (RequestEntityTooLarge): Request entity too large: limit is 3145728",
        crate::gojson::quote(&body)
    );
    let start = Instant::now();
    let e = explained(&text);
    assert_eq!(e.class, Some(ErrorClass::TooLarge));
    println!("explain: {:?}", start.elapsed());
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );

    let line = r#"{"level":"info","msg":"synced","controller":"vmi","name":"x"}"#;
    let mut log = vec![line; 100_000].join("\n");
    log.push_str("\n{\"level\":\"error\",\"msg\":\"Reconciler error\",\"error\":\"virtualmachineinstances.kubevirt.io \\\"x\\\" not found\"}");
    let start = Instant::now();
    let e = explained(&log);
    assert_eq!(e.class, Some(ErrorClass::NotFound));
    println!("explain: {:?}", start.elapsed());
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn audit_events_give_the_target_and_the_patch() {
    let event = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Request","stage":"ResponseComplete","requestURI":"/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/testvmi","verb":"patch","user":{"username":"u"},"objectRef":{"resource":"virtualmachineinstances","namespace":"default","name":"testvmi","apiGroup":"kubevirt.io","apiVersion":"v1"},"responseStatus":{"metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422},"requestObject":[{"op":"remove","path":"/metadata/labels/a"}]}"#;
    let e = explained(event);
    assert_eq!(e.shape, Shape::AuditEvent);
    assert_eq!(
        e.target.resource.as_deref(),
        Some("virtualmachineinstances")
    );
    assert_eq!(e.target.namespace.as_deref(), Some("default"));
    assert_eq!(e.target.name.as_deref(), Some("testvmi"));
    assert_eq!(e.seen.verb.as_deref(), Some("patch"));
    // The patch it carries is a lone remove: of the bare 422's causes,
    // only a missing path fits.
    assert_eq!(e.class, Some(ErrorClass::MissingPath));
    assert_eq!(
        e.decided_by.as_deref(),
        Some("the message and the ops of the patch")
    );
    assert!(e.check_link.is_some());
}

#[test]
fn the_wording_dates_the_release() {
    let old = explained(
        r#"The virtualmachineinstances "x" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"#,
    );
    assert_eq!(old.class, Some(ErrorClass::MissingResourceVersion));
    assert!(old
        .details
        .releases
        .as_deref()
        .unwrap()
        .starts_with("1.33 or older"));
    let new = explained(
        r#"virtualmachineinstances.kubevirt.io "x" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update"#,
    );
    assert!(new
        .details
        .releases
        .as_deref()
        .unwrap()
        .starts_with("1.34 or newer"));
    assert!(new.summary.contains("1.34 or newer"));
}

#[test]
fn a_patch_that_pins_resource_version_explains_a_409() {
    let text = r#"Error from server (Conflict): Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again"#;
    let undecided = explained(text);
    assert_eq!(undecided.class, None);
    assert!(undecided
        .would_decide
        .unwrap()
        .contains("metadata.resourceVersion"));
    let pinned = explain(&Request {
        patch: Some(r#"[{"op":"test","path":"/metadata/resourceVersion","value":"41"},{"op":"replace","path":"/spec/x","value":1}]"#),
        ..Request::text(text)
    })
    .unwrap();
    assert_eq!(pinned.class, Some(ErrorClass::RvPrecondition));
    assert!(pinned.retry.unwrap().retry_on_conflict);
    let merge = explain(&Request {
        patch: Some(r#"{"metadata":{"labels":{"a":"1"}}}"#),
        ..Request::text(text)
    })
    .unwrap();
    assert_eq!(merge.class, Some(ErrorClass::UpdateConflict));
}

#[test]
fn content_types_decide_a_415_and_a_bare_422() {
    let bare = "the server rejected our request due to an error in our request";
    let smp = explain(&Request {
        content_type: Some("strategic"),
        ..Request::text(bare)
    })
    .unwrap();
    assert_eq!(smp.class, Some(ErrorClass::SmpMergeKey));
    let json = explain(&Request {
        content_type: Some("application/json-patch+json"),
        ..Request::text(bare)
    })
    .unwrap();
    assert_eq!(json.candidates.len(), 4);
    let status_415 = r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"x","reason":"UnsupportedMediaType","code":415}"#;
    assert_eq!(explained(status_415).class, None);
    let merge_415 = explain(&Request {
        content_type: Some("application/json"),
        ..Request::text(status_415)
    })
    .unwrap();
    assert_eq!(merge_415.class, Some(ErrorClass::ContentType));
}

/// A decode error names the character where the patch stops being
/// readable: in the patch given (JSON, as kube-apiserver reads it), or in
/// the one kubectl quotes (YAML, as kubectl reads `-p`).
#[test]
fn a_decode_error_names_the_character() {
    let e = explain(&Request {
        patch: Some("{\"spec\": {\"replicas\": 2,}}"),
        ..Request::text("Error from server (BadRequest): error decoding patch: invalid character '}' looking for beginning of object key string")
    })
    .unwrap();
    assert_eq!(e.class, Some(ErrorClass::DecodeError));
    let at = e.decode_at.as_ref().unwrap();
    assert_eq!(
        (at.line, at.column, at.character),
        (1, 25, Some('}')),
        "{at:?}"
    );
    assert!(e.summary.contains("at the character '}'"), "{}", e.summary);
    assert_eq!(e.unread[0].input, "patch");
    let e = explain(&Request::text(
        "error: unable to parse \"[{'op': 'replace', 'path': '/spec/x', 'value': true]\": yaml: did not find expected ',' or '}'",
    ))
    .unwrap();
    assert_eq!(e.class, Some(ErrorClass::DecodeError));
    let at = e.decode_at.unwrap();
    assert_eq!(at.what, "the patch kubectl quotes");
    assert_eq!(at.line, 1, "{at:?}");
    assert!(at.character.is_some(), "{at:?}");
}
