//! The Check view's report, rendered natively (see `app::render_test`).

use std::rc::Rc;

use yew::prelude::*;

use super::findings::{op_list, OpListProps};
use super::report::{apply_outcome, ApplyOutcomeProps, SummaryProps};
use super::*;
use crate::app::render_test::{count, element, opening, render_view, text};
use crate::app::view_state::ViewState;

fn summary(checked: &Rc<Checked>) -> String {
    render_view(super::report::summary(&yew::props!(SummaryProps {
        checked: Rc::clone(checked),
    })))
}

fn outcome(checked: &Rc<Checked>) -> String {
    render_view(apply_outcome(&yew::props!(ApplyOutcomeProps {
        checked: Rc::clone(checked),
    })))
}

fn ops(state: &CheckState) -> String {
    render_view(op_list(&yew::props!(OpListProps {
        checked: state.findings(),
        shown: state.fix.clone(),
        onfix: Callback::noop(),
    })))
}

fn with(state: &CheckState, action: CheckAction) -> CheckState {
    state.reduce(action).checked_here()
}

#[test]
fn the_summary_counts_findings_and_says_how_the_patch_was_read() {
    let state = CheckState::default();
    let html = summary(&state.findings());
    assert_eq!(
        opening(&html, "counts").unwrap(),
        r#"<p class="counts sev-warning">"#
    );
    assert_eq!(
        text(&html),
        "1 warning Read a JSON patch of 2 ops: 237 bytes, sent as written."
    );
    let blank = with(&state, CheckAction::Clear);
    assert!(text(&summary(&blank.findings())).starts_with("Paste a JSON patch"));
    let broken = with(&state, CheckAction::EditPatch("[{".into()));
    let html = summary(&broken.findings());
    assert!(opening(&html, "check-summary").unwrap().contains("bad"));
    assert_eq!(
        text(&html),
        "The patch could not be read: the patch editor says what and where."
    );
    // Nothing at note level or above: said so.
    let clean = with(
        &state,
        CheckAction::EditPatch(r#"[{"op":"remove","path":"/spec/x"}]"#.into()),
    );
    let counts = text(&summary(&clean.findings()));
    assert!(
        counts.contains(" at note level or above: no hazard lint knows of."),
        "{counts}"
    );
}

#[test]
fn ops_carry_their_findings_and_a_fix_button_pressed_while_its_fix_shows() {
    let state = CheckState::default();
    let html = ops(&state);
    assert!(opening(&html, r#"aria-label="Operations and their findings""#).is_some());
    assert_eq!(count(&html, r#"<li class="op "#), 2);
    let first = element(&html, r#"class="op op-test sev-warning""#).unwrap();
    assert_eq!(
        text(element(first, r#"class="op-line""#).unwrap()),
        "op 0 test /metadata/labels line 2"
    );
    assert!(first.contains(r#"<code class="rule">whole-map-test</code>"#));
    let button = opening(first, r#"id="use-fix-0""#).unwrap();
    assert!(button.contains(r#"aria-pressed="false""#));
    // The second op has no finding: no severity class, no list.
    let second = element(&html, r#"class="op op-replace""#).unwrap();
    assert_eq!(count(second, "diagnostics"), 0);
    // The fix shown: its button says so.
    let shown = with(&state, CheckAction::ShowFirstFix);
    let html = ops(&shown);
    let button = element(&html, r#"id="use-fix-0""#).unwrap();
    assert!(button.contains(r#"aria-pressed="true""#));
    assert_eq!(text(button), "Fix shown");
}

#[test]
fn the_outcome_says_whether_it_applies_now_and_what_other_writers_risk() {
    let state = CheckState::default();
    let html = outcome(&state.findings());
    let now = element(&html, r#"aria-labelledby="outcome-title""#).unwrap();
    assert!(text(now).starts_with("Does it apply now? Paste the current object"));
    let surface = element(&html, r#"aria-labelledby="surface-title""#).unwrap();
    assert_eq!(count(surface, "<li>"), 1);
    assert!(surface.contains("<code>/metadata/labels</code>"));
    // With an object it does not apply to: which op, why, and the answer.
    let object = "metadata:\n  labels:\n    kubevirt.io/nodeName: node02\n";
    let failing = with(&state, CheckAction::EditObject(object.into()));
    let now = text(&outcome(&failing.findings()));
    assert!(
        now.contains("✗ Does not apply now (kube-apiserver): op 0 (/metadata/labels) fails."),
        "{now}"
    );
    assert!(now.contains("The server answers 422 Invalid"), "{now}");
    let object = "metadata:\n  labels:\n    kubevirt.io/nodeName: node01\n";
    let applying = with(&state, CheckAction::EditObject(object.into()));
    let html = outcome(&applying.findings());
    assert!(opening(&html, r#"class="ok""#).is_some());
    assert!(text(&html).contains("✓ Applies now (kube-apiserver)."));
    // A patch that cannot be read: nothing to say here.
    let broken = with(&state, CheckAction::EditPatch("[{".into()));
    assert_eq!(outcome(&broken.findings()), "");
}
