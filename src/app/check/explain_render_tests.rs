//! The explanation panel, rendered natively (see `app::render_test`).

use std::rc::Rc;

use super::explain_panel::{explain_panel, ExplainPanelProps};
use super::*;
use crate::app::render_test::{count, render_view, text};

const BARE_422: &str =
    "The request is invalid: the server rejected our request due to an error in our request";
const PATCH: &str = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#;
const OBJECT: &str = r#"{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}"#;

fn panel(patch: &str, object: &str, error: &str) -> String {
    let explained = explain_error(error, patch, object, None).expect("an error text");
    render_view(explain_panel(&yew::props!(ExplainPanelProps { explained })))
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
    assert!(
        read.contains("Retrying helps only after a re-read and a rebuilt request. RetryOnConflict does not retry it."),
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
    assert!(text(&html).contains(
        "The patch could not be read (its editor says where), so explain went without it."
    ));
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
    let explained = state.checked.explained.clone().unwrap();
    let html = render_view(explain_panel(&yew::props!(ExplainPanelProps { explained })));
    assert!(text(&html).starts_with("The error you got"));
}
