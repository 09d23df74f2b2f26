//! The explanation panel, rendered natively (see `app::render_test`).

use std::rc::Rc;

use super::explain_panel::{explain_panel, ExplainPanelProps};
use super::*;
use crate::app::render_test::{count, render_view, text};
use crate::app::view_state::ViewState;
use crate::engines::explain::PanelAnswer;
use crate::engines::{Failure, Unavailable};

const BARE_422: &str =
    "The request is invalid: the server rejected our request due to an error in our request";
const PATCH: &str = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#;
const OBJECT: &str = r#"{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}"#;

fn panel(patch: &str, object: &str, error: &str) -> String {
    let explained = explain_error(error, patch, object, None).expect("an error text");
    let answer = Rc::new(Some(ExplainView::of(&explained)));
    render_view(explain_panel(&yew::props!(ExplainPanelProps {
        answer: Some(Ok(answer)),
        waiting: false
    })))
}

#[test]
fn a_decided_class_shows_its_label_the_replay_and_the_retry_verdict() {
    let html = panel(PATCH, OBJECT, BARE_422);
    let read = text(&html);
    assert!(
        read.starts_with("The error you got A test op failed test-failed"),
        "{read}"
    );
    assert!(read.contains("Op 0"), "the replay names the op: {read}");
    assert!(read.contains("/metadata/labels"), "{read}");
    // Replayed on the view's object, the same patch fails again: no
    // retry of it helps; the rewrite offered was replayed first.
    assert!(
        read.contains("Retrying never helps: the request itself must change. RetryOnConflict does not retry it."),
        "{read}"
    );
    assert!(
        read.contains("replayed on the object given: it applies"),
        "{read}"
    );
    assert!(read.contains("What to do"), "{read}");
    assert!(
        read.ends_with("From the error text with the patch and the current object of this view."),
        "{read}"
    );
    assert_eq!(count(&html, "<li>"), count(&html, "</li>"));
}

#[test]
fn an_undecided_text_lists_the_candidates_and_what_would_decide() {
    let html = panel("", "", BARE_422);
    let read = text(&html);
    assert!(read.contains("Undecided: one of "), "{read}");
    assert!(read.contains("What would decide:"), "{read}");
    assert!(count(&html, r#"<ul class="candidates">"#) == 1);
    assert!(read.contains("From the error text alone"), "{read}");
    // Counts pluralised: a list of several classes says "classes".
    assert!(read.contains(" classes"), "{read}");
}

#[test]
fn an_unreadable_patch_is_said_and_left_out() {
    let html = panel("[{", "", BARE_422);
    let read = text(&html);
    assert!(
        read.contains("The patch could not be read (its editor says where), so explain went without it (patch: "),
        "{read}"
    );
    assert!(read.contains("line 1"), "{read}");
}

#[test]
fn a_text_no_tool_prints_is_not_recognised() {
    let html = panel("", "", "hello world");
    assert!(text(&html).contains("Not recognised"), "{}", text(&html));
}

#[test]
fn the_state_renders_the_panel_of_its_error() {
    let state = CheckState::from_link(CheckLink {
        error: Rc::from(BARE_422),
        ..CheckLink::example(FIRST_EXAMPLE).unwrap()
    });
    let (rev, question) = state.wants_explain().unwrap();
    let answered = state.reduce(CheckAction::Explained(
        crate::engines::tests::through_the_wire(rev, question),
    ));
    let html = render_view(explain_panel(&yew::props!(ExplainPanelProps {
        answer: answered.explanation(),
        waiting: answered.explaining()
    })));
    let read = text(&html);
    assert!(read.starts_with("The error you got"), "{read}");
    assert!(
        read.ends_with("From the error text with the patch of this view."),
        "{read}"
    );
}

#[test]
fn while_waiting_the_panel_says_so_and_keeps_the_last_answer_marked_stale() {
    let waiting = |answer: Option<PanelAnswer>| {
        render_view(explain_panel(&yew::props!(ExplainPanelProps {
            answer,
            waiting: true
        })))
    };
    let first = waiting(None);
    assert!(first.contains(r#"aria-busy="true""#), "{first}");
    assert!(text(&first).contains("Explaining…"), "{first}");
    let explained = explain_error(BARE_422, "", "", None).unwrap();
    let kept = waiting(Some(Ok(Rc::new(Some(ExplainView::of(&explained))))));
    assert!(kept.contains("explain-panel stale"), "{kept}");
    let read = text(&kept);
    assert!(
        read.starts_with("The error you got Explaining the changed texts… Undecided: one of "),
        "the status line above the answer kept: {read}"
    );
    assert!(!read.contains("the first time"), "{read}");
    // A failure of earlier texts is not shown again while waiting.
    let failed = waiting(Some(Err(Failure::Unavailable(Unavailable::Stopped))));
    assert!(!failed.contains("role=\"alert\""), "{failed}");
    assert!(
        text(&failed).contains("Explaining… (the first time"),
        "{failed}"
    );
}

#[test]
fn engines_that_did_not_load_are_said() {
    let html = render_view(explain_panel(&yew::props!(ExplainPanelProps {
        answer: Some(Err(Failure::Unavailable(Unavailable::NotStarted(
            "blocked".into()
        )))),
        waiting: false
    })));
    assert!(html.contains(r#"role="alert""#));
    assert!(
        text(&html).contains("explain could not run: the engine worker could not start (blocked)")
    );
}

#[test]
fn the_view_crosses_as_json_and_reads_back_the_same() {
    for (patch, object, error) in [
        (PATCH, OBJECT, BARE_422),
        ("", "", BARE_422),
        ("[{", "", BARE_422),
        ("", "", "hello world"),
        ("", "", &"x".repeat(crate::explain::MAX_TEXT_BYTES + 1)),
    ] {
        let view = ExplainView::of(&explain_error(error, patch, object, None).unwrap());
        let text = serde_json::to_string(&view).unwrap();
        let back: ExplainView = serde_json::from_str(&text).unwrap();
        assert_eq!(back, view, "{text}");
    }
}

/// A pasted log with more than one error: the panel explains one and
/// lists each other line, with its class or as not read.
#[test]
fn every_other_error_line_is_listed_with_its_class_or_as_not_read() {
    let log = "Error from server (Conflict): Operation cannot be fulfilled on pods \"a\": the object has been modified; please apply your changes to the latest version and try again\nretrying...\nError from server (NotFound): pods \"b\" not found\nerror: something no tool prints\n";
    let html = panel("", "", log);
    let read = text(&html);
    assert!(read.contains("Also in the pasted text"), "{read}");
    assert!(
        read.contains("Line 3 is another error, Not found (not-found): Error from server (NotFound): pods \"b\" not found"),
        "{read}"
    );
    assert!(
        read.contains("Line 4 looks like an error no known wording matches, so it is not explained: error: something no tool prints"),
        "{read}"
    );
    assert!(!read.contains("retrying..."), "{read}");
    assert!(
        read.contains("Line 1 of the pasted text, read as kubectl, Conflict"),
        "{read}"
    );
    // No sentence said twice.
    assert!(
        !read.contains("RetryOnConflict retries it. RetryOnConflict retries it"),
        "{read}"
    );
    // In another order, what was seen comes from the explained line.
    let reversed = "Error from server (NotFound): pods \"b\" not found\nError from server (Conflict): Operation cannot be fulfilled on pods \"a\": the object has been modified; please apply your changes to the latest version and try again\n";
    let read = text(&panel("", "", reversed));
    assert!(!read.contains("NotFound; "), "{read}");
    // One message alone lists nothing.
    assert_eq!(count(&panel("", "", BARE_422), "explain-others"), 0);
}

#[test]
fn a_webhook_certificate_is_no_failure_of_the_patch() {
    let error = r#"Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": Post "https://kyverno-svc.kyverno.svc:443/validate?timeout=10s": x509: certificate signed by unknown authority"#;
    let html = panel("", "", error);
    let read = text(&html);
    assert!(read.contains("Not a failure of the patch itself"), "{read}");
    assert!(
        read.contains("serving certificate does not verify"),
        "{read}"
    );
    assert!(!read.contains("Undecided"), "{read}");
}
