//! "Paste the error you got": the reducer asks explain about the error
//! text with the view's patch and object (the engines answer: here the
//! tests answer the request themselves, as the engines do), takes the
//! answer of its current texts only, the link carries the error, and old
//! links still open.

use std::rc::Rc;

use super::*;
use crate::app::link::{self, LinkError};
use crate::app::view_state::ViewState;
use crate::engines::tests::through_the_wire;
use crate::engines::{Answered, Failure, Unavailable};
use crate::kube::KubeVersion;
use crate::vocabulary::ErrorClass;

const BARE_422: &str =
    "The request is invalid: the server rejected our request due to an error in our request";
const PATCH: &str = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#;
const OBJECT: &str = r#"{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}"#;

fn link(patch: &str, object: &str, error: &str) -> CheckLink {
    CheckLink {
        patch: Rc::from(patch),
        object: Rc::from(object),
        error: Rc::from(error),
        kubernetes: None,
        semantics: crate::apply::Semantics::Kube,
        example: None,
        fix: None,
    }
}

fn edit(state: &CheckState, action: CheckAction) -> CheckState {
    let mut next = state.reduce(action);
    next.settle();
    next
}

/// What explain makes of the state's question (the engines' side).
fn explained(state: &CheckState) -> Explained {
    let (_, question) = state.wants_explain().expect("an error text to explain");
    explain_error(
        &question.error,
        &question.patch,
        &question.object,
        question.kubernetes,
    )
    .expect("not blank")
}

fn answer(state: &CheckState) -> crate::explain::Explanation {
    explained(state).answer.expect("explain answered")
}

/// The engines' answer to `asked`, as the view takes it.
fn answer_to((rev, question): &(u64, Explain)) -> CheckAction {
    CheckAction::Explained(through_the_wire(*rev, question.clone()))
}

/// The state once the engines answered its question.
fn answered(state: &CheckState) -> CheckState {
    state.reduce(answer_to(&state.wants_explain().expect("a question")))
}

/// The panel's texts the state holds.
fn view_of(state: &CheckState) -> ExplainView {
    let answer = state.explained.shown().expect("an answer taken");
    Option::clone(answer).expect("an error text")
}

#[test]
fn no_error_text_no_explanation() {
    let state = CheckState::default();
    assert_eq!(state.wants_explain(), None);
    assert!(!state.explaining());
    let blank = edit(&state, CheckAction::EditError(Rc::from("  \n ")));
    assert_eq!(blank.wants_explain(), None, "blank is none");
    assert!(!blank.explaining());
}

#[test]
fn the_answer_of_the_current_texts_is_taken_and_a_late_one_dropped() {
    let state = CheckState::from_link(link(PATCH, OBJECT, BARE_422));
    assert!(state.explaining(), "asked as the view opens");
    let request = state.wants_explain().unwrap();
    assert_eq!(request.0, state.rev);
    let question = &request.1;
    assert_eq!(
        (
            &*question.error,
            &*question.patch,
            &*question.object,
            question.kubernetes
        ),
        (BARE_422, PATCH, OBJECT, None)
    );
    let first = answered(&state);
    assert!(!first.explaining());
    assert_eq!(first.wants_explain(), None, "answered: nothing to ask");
    let view = view_of(&first);
    assert_eq!(
        view.class.as_ref().map(|c| c.1.as_str()),
        Some("test-failed")
    );

    // An edit of the object asks again; the earlier answer stays shown
    // (the panel marks it stale) until the new one arrives.
    let edited = edit(&first, CheckAction::EditObject(Rc::from("")));
    assert!(edited.explaining());
    assert_eq!(edited.explained, first.explained);
    // The answer to the earlier request arrives late: dropped.
    let late = edited.reduce(answer_to(&request));
    assert!(late.explaining());
    assert_eq!(late.explained, first.explained);
    let now = answered(&edited);
    assert_eq!(view_of(&now).class, None, "without the object: undecided");

    // The engines could not load: said, for these texts.
    let failed = edited.reduce(CheckAction::Explained(Answered {
        rev: edited.rev,
        answer: Err(Failure::Unavailable(Unavailable::NotStarted("no".into()))),
        more: false,
    }));
    assert!(!failed.explaining());
    assert!(failed.explanation().unwrap().is_err());
}

#[test]
fn an_answer_stays_the_answer_of_its_texts_across_undo() {
    let state = answered(&CheckState::from_link(link(PATCH, OBJECT, BARE_422)));
    // Undo renumbers revisions ("after"): up to date stays up to date.
    let cleared = state.reduce(CheckAction::Clear);
    let undone = cleared.reduce(CheckAction::Undo);
    assert_eq!(&*undone.error, BARE_422);
    assert!(!undone.explaining(), "the answer kept is still this text's");
    // A state behind stays behind.
    let behind = edit(&state, CheckAction::EditError(Rc::from("hello")));
    let other = behind.reduce(CheckAction::Clear).reduce(CheckAction::Undo);
    assert!(other.explaining());
}

#[test]
fn a_bare_422_with_the_patch_and_object_names_the_failing_op() {
    let state = CheckState::from_link(link(PATCH, OBJECT, ""));
    let state = edit(&state, CheckAction::EditError(Rc::from(BARE_422)));
    let explained = explained(&state);
    assert!(explained.with_patch && explained.with_object);
    assert!(explained.unused.is_empty());
    let e = answer(&state);
    assert_eq!(e.class, Some(ErrorClass::TestFailed));
    let replay = e.replay.as_ref().unwrap();
    assert_eq!(
        (replay.index, replay.path.as_deref()),
        (Some(0), Some("/metadata/labels"))
    );
    assert!(!e.retry.as_ref().unwrap().retry_on_conflict);

    // The same text without the object cannot decide: candidates.
    let alone = edit(&state, CheckAction::EditObject(Rc::from("")));
    let e = answer(&alone);
    assert_eq!(e.class, None);
    assert!(e
        .candidates
        .iter()
        .any(|c| c.class == ErrorClass::TestFailed));
    assert!(e.would_decide.is_some());
    assert!(!self::explained(&alone).with_object);
}

#[test]
fn a_409_is_explained_from_the_text_alone_and_retry_on_conflict_retries_it() {
    let text = "Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"vmi\": the object has been modified; please apply your changes to the latest version and try again";
    let state = edit(
        &CheckState::from_link(link("", "", "")),
        CheckAction::EditError(Rc::from(text)),
    );
    let e = answer(&state);
    assert!(e.recognised);
    // A 409 from an Update or from a resourceVersion precondition: either
    // way RetryOnConflict retries it.
    assert!(!e.candidates.is_empty());
    for c in &e.candidates {
        assert!(matches!(
            c.class,
            ErrorClass::UpdateConflict | ErrorClass::RvPrecondition
        ));
        assert!(c.retry.retry_on_conflict);
    }
}

#[test]
fn an_unreadable_patch_or_object_is_left_out_and_said_so() {
    let state = CheckState::from_link(link("[{", "metadata: [", BARE_422)).checked_here();
    let explained = explained(&state);
    assert_eq!(explained.unused, vec![Unused::Patch, Unused::Object]);
    assert!(!explained.with_patch && !explained.with_object);
    assert_eq!(answer(&state).class, None, "the text alone: undecided");
    // Lint still says what is wrong with the patch.
    assert!(matches!(state.checked().patch, Some(Err(_))));
}

#[test]
fn the_release_is_kept_and_replayed_on() {
    let state = CheckState::from_link(link(PATCH, OBJECT, BARE_422)).checked_here();
    assert_eq!(answer(&state).release, KubeVersion::NEWEST);
    let old: KubeVersion = "1.30".parse().unwrap();
    let on_old = state.reduce(CheckAction::SetKubernetes(old));
    assert_eq!(on_old.kubernetes, Some(old));
    assert!(
        !on_old.stale(),
        "lint's findings stay those of the texts: the release is explain's"
    );
    assert_eq!(on_old.wants_check(), None, "lint is not asked again");
    let typed = on_old.reduce(CheckAction::EditError("x".into()));
    assert!(!typed.stale() && typed.wants_check().is_none());
    assert!(on_old.explaining(), "and asked of explain");
    assert_eq!(answer(&on_old).release, old);
    assert_eq!(on_old.link().kubernetes, Some(old));
    // The newest is the default and stays out of links.
    let back = on_old.reduce(CheckAction::SetKubernetes(KubeVersion::NEWEST));
    assert_eq!(back.kubernetes, None);
    assert_eq!(back.link(), state.link());
}

#[test]
fn the_link_carries_the_error_and_release_and_old_links_still_open() {
    let mut with_error = link(PATCH, OBJECT, BARE_422);
    with_error.kubernetes = Some("1.29".parse().unwrap());
    let decoded = link::decode::<CheckLink>(&link::encode(&with_error)).unwrap();
    assert_eq!(decoded, with_error);
    let opened = CheckState::from_link(decoded);
    assert_eq!(&*opened.error, BARE_422);
    assert_eq!(answer(&opened).class, Some(ErrorClass::TestFailed));

    // A link from before the fields: no error, the newest release.
    let old = link::encode(&serde_json::json!({"patch": PATCH, "object": OBJECT}));
    let decoded = link::decode::<CheckLink>(&old).unwrap();
    assert_eq!((&*decoded.error, decoded.kubernetes), ("", None));
    // No error text, no field: links stay as short as before.
    let value = serde_json::to_value(link(PATCH, OBJECT, "")).unwrap();
    assert_eq!(value.get("error"), None);
    assert_eq!(value.get("kubernetes"), None);
    // Unknown fields are still refused.
    let foreign = link::encode(&serde_json::json!({"patch": "[]", "err": "x"}));
    assert!(matches!(
        link::decode::<CheckLink>(&foreign),
        Err(LinkError::NotPatchlab(_))
    ));
    // An error text over the budget is refused like a patch.
    let huge = link("[]", "", &"x".repeat(MAX_TEXT + 1));
    assert!(matches!(
        link::decode::<CheckLink>(&link::encode(&huge)),
        Err(LinkError::OverBudget(why)) if why.starts_with("an error text of")
    ));
}

#[test]
fn a_pasted_error_is_work_and_clear_empties_it() {
    let example = CheckState::default();
    assert!(!example.is_work());
    let pasted = edit(&example, CheckAction::EditError(Rc::from(BARE_422)));
    assert!(pasted.is_work(), "an error pasted over an example is work");
    let cleared = pasted.reduce(CheckAction::Clear);
    assert_eq!(&*cleared.error, "");
    assert_eq!(cleared.wants_explain(), None);
    assert!(!cleared.explaining());
    let undone = cleared.reduce(CheckAction::Undo);
    assert_eq!(&*undone.error, BARE_422, "Undo brings the error back");
}
