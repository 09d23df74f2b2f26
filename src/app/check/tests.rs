use std::collections::BTreeSet;
use std::rc::Rc;

use super::*;
use crate::app::view_state::ViewState;

/// Test-only: the engines' answer taken at once, as a step of a chain
/// (the view asks them for small texts at once, for big ones after a
/// pause in typing).
trait CheckedNow {
    fn checked_now(&self) -> CheckState;
}

impl CheckedNow for CheckState {
    fn checked_now(&self) -> CheckState {
        self.checked_here()
    }
}
use crate::app::link::{self, LinkError, Shareable, Start};
use crate::engines::tests::through_the_wire;

/// The engines' answer to `asked`, through the wire, as the view takes it.
fn answer_of((rev, question): &(u64, Check)) -> CheckAction {
    CheckAction::Checked(through_the_wire(*rev, question.clone()))
}
use crate::app::route::{Route, View};
use crate::app::text_diff::LineTag;
use crate::apply::Semantics;
use crate::lint::{Rule, Severity};

fn state_of(id: &str) -> CheckState {
    CheckState::from_link(CheckLink::example(id).unwrap()).checked_here()
}

fn findings(state: &CheckState) -> BTreeSet<(String, Option<usize>, Option<String>)> {
    state
        .checked()
        .ok()
        .unwrap()
        .report
        .findings
        .iter()
        .map(|f| (f.rule.to_string(), f.index, f.path.clone()))
        .collect()
}

fn edit(state: &CheckState, text: &str) -> CheckState {
    state
        .reduce(CheckAction::EditPatch(text.into()))
        .checked_now()
}

#[test]
fn every_example_shows_exactly_the_findings_it_promises() {
    assert_eq!(examples().len(), 6);
    for example in examples() {
        let state = state_of(example.id);
        assert!(!state.stale(), "{}", example.id);
        let expected: BTreeSet<_> = example
            .expect
            .iter()
            .map(|e| (e.rule.clone(), e.index, e.path.clone()))
            .collect();
        assert_eq!(findings(&state), expected, "{}", example.id);
        assert_eq!(state.title().0, example.title);
        assert_eq!(state.patch_error(), None, "{}", example.id);
        assert_eq!(state.object_error(), None, "{}", example.id);
        let object = if example.object.is_some() {
            ObjectRead::Read
        } else {
            ObjectRead::Blank
        };
        assert_eq!(state.checked().object, object, "{}", example.id);
    }
}

#[test]
fn a_first_visit_shows_the_seed_whole_map_test_and_its_per_key_fix() {
    let state = CheckState::default();
    assert_eq!(state.example.as_deref(), Some(FIRST_EXAMPLE));
    assert!(!state.stale(), "the example comes with its answer");
    let patch = state.checked().ok().unwrap();
    let (rows, left_out) = (&patch.rows, patch.left_out);
    assert_eq!((rows.len(), left_out), (2, 0));
    assert_eq!(rows[0].line, Some(2), "ops start on lines 2 and 3");
    assert_eq!(rows[1].line, Some(3));
    assert_eq!(rows[0].findings.len(), 1);
    assert_eq!(
        patch.report.findings[rows[0].findings[0]].rule,
        Rule::WholeMapTest
    );
    assert!(rows[1].findings.is_empty());
    assert_eq!(
        patch.counts(),
        Counts {
            errors: 0,
            warnings: 1,
            notes: 0
        }
    );
    assert_eq!(patch.counts().summary(), "1 warning");
    assert_eq!(
        patch.read_as,
        format!(
            "Read a JSON patch of 2 ops: {} bytes, sent as written.",
            state.patch.len()
        )
    );

    assert_eq!(state.comparison(), None, "no fix shown yet");
    let shown = state.reduce(CheckAction::ShowFirstFix);
    assert_eq!(
        shown.fix,
        Some(FixKey {
            rule: "whole-map-test".into(),
            index: Some(0),
            path: Some("/metadata/labels".into())
        })
    );
    let comparison = shown.comparison().unwrap();
    assert_eq!(
        comparison.payload,
        r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#
    );
    // Both ops of the original go, the per-key add comes.
    assert_eq!(
        comparison
            .original
            .iter()
            .map(|(t, _)| *t)
            .collect::<Vec<_>>(),
        [LineTag::Removed, LineTag::Removed]
    );
    assert_eq!(
        comparison.original[0].1,
        r#"{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}}"#,
        "as written, without whitespace"
    );
    assert_eq!(comparison.fixed.len(), 1);
    assert_eq!(comparison.fixed[0].0, LineTag::Added);
    // The link carries the fix shown.
    let reopened = CheckState::from_link(link::decode(&link::encode(&shown.link())).unwrap());
    assert_eq!(reopened.comparison(), Some(comparison));
    assert_eq!(shown.reduce(CheckAction::HideFix).comparison(), None);
}

#[test]
fn adopting_a_fix_puts_it_in_the_editor_clears_the_warning_and_can_be_undone() {
    let state = state_of("float-test").reduce(CheckAction::ShowFirstFix);
    let comparison = state.comparison().unwrap();
    assert_eq!(comparison.finding.rule, Rule::TestNeverMatches);
    // Only the test op changes: the replace stays.
    assert_eq!(
        comparison.original,
        [
            (
                LineTag::Removed,
                r#"{"op":"test","path":"/spec/replicas","value":1.0}"#.to_owned()
            ),
            (
                LineTag::Same,
                r#"{"op":"replace","path":"/spec/replicas","value":2}"#.to_owned()
            ),
        ]
    );
    let adopted = state.reduce(CheckAction::AdoptFix);
    assert!(adopted.stale(), "the engines check the fix");
    let adopted = adopted.checked_now();
    assert_eq!(
        &*adopted.patch,
        "[\n  {\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":1},\n  {\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":2}\n]\n"
    );
    assert_eq!(adopted.fix, None);
    assert!(!adopted.stale());
    assert_eq!(
        findings(&adopted),
        BTreeSet::new(),
        "the fix applies cleanly"
    );
    let outcome = adopted
        .checked()
        .ok()
        .unwrap()
        .report
        .outcome
        .clone()
        .unwrap();
    assert!(outcome.applies);
    assert_eq!(adopted.title().0, "Your patch");
    let notice = adopted.notice.clone().unwrap();
    assert!(
        notice.text.contains("test-never-matches"),
        "{}",
        notice.text
    );
    assert_eq!(notice.undo.as_deref(), Some("Undo"));
    let undone = adopted.reduce(CheckAction::Undo);
    assert_eq!(undone.patch, state.patch);
    assert_eq!(undone.fix, state.fix, "the fix is shown again");
    assert_eq!(undone.title().0, "A test of 1.0");
}

#[test]
fn the_fix_in_the_editor_sends_the_same_ops_as_the_copied_payload() {
    for example in examples() {
        let state = state_of(example.id).reduce(CheckAction::ShowFirstFix);
        let Some(comparison) = state.comparison() else {
            continue;
        };
        let adopted = state.reduce(CheckAction::AdoptFix);
        assert_ne!(adopted.patch, state.patch, "{}", example.id);
        let from_editor = crate::patch::decode(&adopted.patch).unwrap().ops;
        let copied = crate::patch::decode(&comparison.payload).unwrap().ops;
        assert_eq!(from_editor, copied, "{}", example.id);
    }
}

#[test]
fn edits_wait_for_a_check_then_update_and_keep_the_fix_while_its_finding_lasts() {
    let state = CheckState::default().reduce(CheckAction::ShowFirstFix);
    let typed = state.reduce(CheckAction::EditPatch(
        r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"replace","path":"/metadata/labels","value":{"a":"1","b":"2"}}]"#.into(),
    ));
    assert!(typed.stale());
    assert_eq!(
        typed.checked(),
        state.checked(),
        "the last findings stay meanwhile"
    );
    let checked = typed.checked_now();
    assert!(!checked.stale());
    let rows = &checked.checked().ok().unwrap().rows;
    assert_eq!(
        rows.iter().map(|r| r.line).collect::<Vec<_>>(),
        [Some(1), Some(1)]
    );
    let comparison = checked.comparison().unwrap();
    assert_eq!(
        comparison.payload,
        r#"[{"op":"add","path":"/metadata/labels/b","value":"2"}]"#
    );
    // A patch without the finding shows no fix (the key stays, harmless).
    let clean = edit(
        &checked,
        r#"[{"op":"add","path":"/metadata/labels/b","value":"2"}]"#,
    );
    assert_eq!(clean.comparison(), None);
    assert_eq!(clean.title().0, "Your patch");
    assert_eq!(
        clean.title().1.as_deref(),
        Some("Started from the example “The seed's whole-map test”.")
    );
}

#[test]
fn a_kubectl_command_is_read_from_its_quoting() {
    let state = state_of("unescaped-label");
    let patch = state.checked().ok().unwrap();
    assert!(
        patch.rows.iter().all(|r| r.line.is_none()),
        "the editor holds a command line"
    );
    assert!(
        patch.read_as.starts_with(
            "Read a JSON patch of 1 op from the -p argument of `kubectl patch vmi testvmi`: "
        ),
        "{}",
        patch.read_as
    );
    let fixed = state
        .reduce(CheckAction::ShowFirstFix)
        .comparison()
        .unwrap();
    assert_eq!(
        fixed.payload,
        r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1nodeName","value":"node02"}]"#
    );
    // A command lint cannot use says what, in kubectl's words, and on
    // which line.
    let broken = edit(
        &state,
        "kubectl patch vmi testvmi \\\n  --type=yaml -p '{}'",
    );
    let error = broken.patch_error().unwrap();
    assert_eq!(error.line, Some(2));
    assert!(
        error
            .message
            .contains("--type must be one of [json merge strategic]"),
        "{error}"
    );
    // A strategic merge patch is read, and to a VMI it is answered 415.
    let strategic = edit(
        &state,
        "kubectl patch vmi testvmi \\\n  --type=strategic -p '{\"metadata\":{\"labels\":{\"a\":\"b\"}}}'",
    );
    let patch = strategic.checked().ok().unwrap();
    assert_eq!(patch.kind, crate::lint::BodyKind::StrategicMergePatch);
    assert_eq!(patch.report.findings[0].rule, Rule::SmpCustomResource);
    assert!(
        patch.read_as.contains("strategic merge patch"),
        "{}",
        patch.read_as
    );
    // A syntax error inside -p marks the editor's line it is on, and says
    // where inside the argument.
    let broken = edit(&state, "kubectl patch vmi a \\\n --type=json \\\n -p '[{'");
    let error = broken.patch_error().unwrap();
    assert_eq!(error.line, Some(3));
    assert!(
        error
            .to_string()
            .contains("from line 3 of the command; line 1, column 3 of the patch"),
        "{error}"
    );
}

#[test]
fn unreadable_text_says_where_and_a_bad_object_does_not_stop_the_patch() {
    let state = edit(
        &CheckState::default(),
        "[\n  {\"op\": \"add\", \"path\": \"/a\" \"value\": 1}\n]",
    );
    let error = state.patch_error().unwrap();
    assert_eq!(error.line, Some(2));
    assert!(error.to_string().starts_with("line 2, column"), "{error}");
    let yaml = edit(&CheckState::default(), "- op: add\n  path: [\n");
    assert!(yaml.patch_error().unwrap().line.is_some());
    let scalar = edit(&CheckState::default(), "42");
    assert!(scalar
        .patch_error()
        .unwrap()
        .message
        .contains("found a number"));
    let blank = edit(&CheckState::default(), "  \n");
    assert_eq!(blank.checked().patch, None);
    assert_eq!(blank.patch_error(), None);

    let bad_object = state_of("finalizer-by-index")
        .reduce(CheckAction::EditObject("metadata: [".into()))
        .checked_now();
    assert!(bad_object.object_error().is_some());
    let patch = bad_object.checked().ok().unwrap();
    assert_eq!(patch.report.outcome, None, "checked without the object");
    assert!(findings(&bad_object).contains(&(
        "index-without-test".to_owned(),
        Some(0),
        Some("/metadata/finalizers/0".to_owned())
    )));
    let not_an_object = bad_object
        .reduce(CheckAction::EditObject("[1, 2]".into()))
        .checked_now();
    assert!(not_an_object
        .object_error()
        .unwrap()
        .message
        .contains("found an array"));
}

#[test]
fn the_engine_switch_asks_the_engines_again() {
    let state = state_of("float-test");
    assert_eq!(
        state.checked().ok().unwrap().report.semantics,
        Semantics::Kube
    );
    let rfc = state.reduce(CheckAction::SetSemantics(Semantics::Rfc));
    assert!(rfc.stale());
    assert_eq!(
        rfc.wants_check().map(|r| r.1.semantics),
        Some(Semantics::Rfc)
    );
    let rfc = rfc.checked_now();
    assert!(!rfc.stale());
    let report = &rfc.checked().ok().unwrap().report;
    assert_eq!(report.semantics, Semantics::Rfc);
    assert!(
        report.outcome.as_ref().unwrap().applies,
        "1.0 == 1 by value"
    );
    assert_eq!(rfc.title().0, "Your patch", "the example is kube");
    // The same engine again changes nothing.
    assert_eq!(rfc.reduce(CheckAction::SetSemantics(Semantics::Rfc)), rfc);
    // Back to the example's engine: its bundled answer, at once.
    let kube = rfc.reduce(CheckAction::SetSemantics(Semantics::Kube));
    assert!(!kube.stale());
    assert_eq!(
        kube.checked().ok().unwrap().report.semantics,
        Semantics::Kube
    );
}

#[test]
fn a_merge_patch_fix_is_shown_beside_the_body() {
    let state = state_of("merge-drops-finalizer").reduce(CheckAction::ShowFirstFix);
    let patch = state.checked().ok().unwrap();
    assert_eq!(
        (patch.rows.clone(), patch.left_out),
        (Vec::new(), 0),
        "no ops in a merge patch"
    );
    assert_eq!(patch.body_findings().count(), 1);
    let comparison = state.comparison().unwrap();
    assert_eq!(comparison.finding.rule, Rule::MergeReplacesList);
    assert!(comparison.original.iter().all(|(t, _)| *t == LineTag::Same));
    assert_eq!(comparison.original[0].1, "{");
    assert!(comparison.fixed.iter().all(|(t, _)| *t == LineTag::Added));
    assert_eq!(comparison.fixed.len(), 2, "test, then replace");
}

#[test]
fn long_patches_list_only_the_ops_with_findings() {
    let ops: Vec<String> = (0..MAX_SHOWN_OPS + 50)
        .map(|i| format!(r#"{{"op":"test","path":"/spec/k{i}","value":"v"}}"#))
        .chain([r#"{"op":"remove","path":"/metadata/finalizers/0"}"#.to_owned()])
        .collect();
    let state = edit(&CheckState::default(), &format!("[{}]", ops.join(",")));
    let patch = state.checked().ok().unwrap();
    let (rows, left_out) = (&patch.rows, patch.left_out);
    let with_findings: Vec<usize> = rows.iter().map(|r| r.index).collect();
    assert_eq!(with_findings, [MAX_SHOWN_OPS + 50]);
    assert_eq!(left_out, MAX_SHOWN_OPS + 50);
    assert_eq!(
        patch.report.findings[rows[0].findings[0]].severity,
        Severity::Warning
    );
    assert_eq!(
        patch.written[rows[0].index],
        r#"{"op":"remove","path":"/metadata/finalizers/0"}"#
    );
    assert_eq!(
        rows[0].op,
        Some(ListedOp {
            op: "remove".to_owned(),
            path: "/metadata/finalizers/0".to_owned(),
            from: None
        })
    );
}

#[test]
fn a_malformed_op_is_listed_with_its_finding() {
    let state = edit(
        &CheckState::default(),
        r#"[{"op":"add","path":"/a","value":1},{"op":"upsert","path":"/b","value":2}]"#,
    );
    let patch = state.checked().ok().unwrap();
    let rows = &patch.rows;
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].value.as_deref(), Some("1"));
    assert!(rows[1].op.is_none(), "not an op the server can read");
    assert_eq!(
        rows[1].value.as_deref(),
        Some(r#"{"op":"upsert","path":"/b","value":2}"#),
        "shown as sent"
    );
    assert_eq!(
        patch.report.findings[rows[1].findings[0]].rule,
        Rule::MalformedOp
    );
}

#[test]
fn loading_over_work_keeps_it_for_undo_and_clear_empties_both_editors() {
    let fresh = CheckState::default();
    let other = fresh.reduce(CheckAction::LoadExample("float-test".into()));
    assert_eq!(
        other.notice, None,
        "an example as bundled is no work to keep"
    );
    assert_eq!(other.undo, None);
    let typed = edit(&other, "[]");
    let loaded = typed.reduce(CheckAction::LoadExample("seed-whole-map".into()));
    assert!(loaded.undo.is_some());
    assert!(loaded
        .notice
        .as_ref()
        .unwrap()
        .text
        .starts_with("Loaded the example “The seed's whole-map test”."));
    assert_eq!(&*loaded.reduce(CheckAction::Undo).patch, "[]");
    let missing = fresh.reduce(CheckAction::LoadExample("nope".into()));
    assert_eq!(
        missing.notice.unwrap().text,
        "There is no example \"nope\"."
    );

    let cleared = other.reduce(CheckAction::Clear);
    assert!(!cleared.stale(), "nothing to ask the engines about");
    assert_eq!(cleared.wants_check(), None);
    assert_eq!((&*cleared.patch, &*cleared.object), ("", ""));
    assert_eq!(cleared.checked().patch, None);
    assert_eq!(cleared.checked().object, ObjectRead::Blank);
    assert_eq!(cleared.title(), ("Your patch".to_owned(), None));
    let nothing = cleared.reduce(CheckAction::ShowFirstFix);
    assert_eq!(nothing.fix, None);
    assert_eq!(
        nothing.notice.unwrap().text,
        "No finding here comes with a fix to use."
    );
}

#[test]
fn links_round_trip_are_budgeted_and_start_like_every_view() {
    let link = CheckState::default()
        .reduce(CheckAction::SetSemantics(Semantics::Rfc))
        .reduce(CheckAction::ShowFirstFix)
        .link();
    let json = serde_json::to_value(&link).unwrap();
    assert_eq!(json["semantics"], "rfc");
    assert_eq!(json["fix"]["rule"], "whole-map-test");
    assert!(json.get("object").is_none(), "an empty object is left out");
    assert_eq!(
        link::decode::<CheckLink>(&link::encode(&link)),
        Ok(link.clone())
    );
    assert!(Route::parse(&link.route().to_fragment()).packed().is_some());
    assert_eq!(link.route().view(), Some(View::Check));
    // Kube is the default and stays out of links.
    let kube = CheckLink::example(FIRST_EXAMPLE).unwrap();
    assert!(serde_json::to_value(&kube)
        .unwrap()
        .get("semantics")
        .is_none());

    let huge = CheckLink {
        patch: Rc::from("[]"),
        object: Rc::from(" ".repeat(MAX_TEXT + 1)),
        ..kube.clone()
    };
    assert!(matches!(
        link::decode::<CheckLink>(&link::encode(&huge)),
        Err(LinkError::OverBudget(why)) if why == format!("an object of {} bytes (at most {MAX_TEXT})", MAX_TEXT + 1)
    ));
    let foreign = link::encode(&serde_json::json!({"patch": "[]", "old": "{}"}));
    assert!(matches!(
        link::decode::<CheckLink>(&foreign),
        Err(LinkError::NotPatchlab(_))
    ));
    let bad_engine = link::encode(&serde_json::json!({"patch": "[]", "semantics": "etcd"}));
    assert!(matches!(
        link::decode::<CheckLink>(&bad_engine),
        Err(LinkError::NotPatchlab(why)) if why.contains("unknown semantics \"etcd\": use kube or rfc")
    ));

    // A link over saved work keeps the work for Undo.
    let saved = CheckLink {
        patch: Rc::from("[]"),
        ..kube.clone()
    };
    let opened = CheckState::start(Start::Link {
        link: link.clone(),
        saved: Some(saved.clone()),
    });
    assert_eq!(opened.link(), link);
    assert!(opened.undo.is_some());
    assert_eq!(&*opened.reduce(CheckAction::Undo).patch, "[]");
    // ...but not a bundled example as bundled.
    let over_example = CheckState::start(Start::Link {
        link: link.clone(),
        saved: Some(kube.clone()),
    });
    assert_eq!(over_example.undo, None);
    // A broken link keeps the saved work and says why.
    let broken = CheckState::start(Start::new(Some("1.!!"), Some(&link::encode(&saved))));
    assert_eq!(&*broken.patch, "[]");
    assert!(broken.notice.unwrap().text.contains("cut off or damaged"));
    let unreadable = CheckState::start(Start::new(None, Some("1.!!")));
    assert_eq!(unreadable.example.as_deref(), Some(FIRST_EXAMPLE));
    assert!(unreadable
        .notice
        .unwrap()
        .text
        .starts_with("Your saved patch could not be read"));
    assert_eq!(CheckState::start(Start::Fresh), CheckState::default());
}

#[test]
fn hostile_texts_and_links_never_panic() {
    let deep = "[".repeat(10_000);
    let texts = [
        "",
        "[",
        "kubectl",
        "kubectl patch",
        "$ kubectl patch x --type=json -p '",
        "kubectl patch x --type=json -p \\",
        "[{}]",
        "[null, 1, \"x\"]",
        r#"{"a":null}"#,
        "~",
        "- op: test\n  path: ~\n",
        deep.as_str(),
        r#"[{"op":"move","from":"/a","path":"/a/b"},{"op":"copy","from":"","path":"/x"}]"#,
        r#"[{"op":"test","path":"","value":{}},{"op":"replace","path":"/a/-1","value":1}]"#,
    ];
    for text in texts {
        for object in ["", text, "{}", "metadata: {labels: {a: b}}"] {
            let state = CheckState::default()
                .reduce(CheckAction::EditObject(object.into()))
                .reduce(CheckAction::EditPatch(text.into()))
                .checked_now()
                .reduce(CheckAction::ShowFirstFix)
                .reduce(CheckAction::AdoptFix)
                .checked_now()
                .reduce(CheckAction::Undo)
                .checked_now();
            let _ = (
                state.comparison(),
                state.patch_error(),
                state.object_error(),
            );
            if let Some(patch) = state.checked().ok() {
                let _ = (patch.body_findings().count(), patch.counts());
                for row in &patch.rows {
                    assert!(row
                        .findings
                        .iter()
                        .all(|n| *n < patch.report.findings.len()));
                }
            }
        }
        let _ = CheckState::start(Start::new(Some(text), Some(text)));
    }
}

#[test]
fn every_edit_asks_the_engines_and_only_the_answer_to_the_current_texts_is_taken() {
    let state = CheckState::default();
    assert_eq!(state.wants_check(), None, "the example comes answered");
    let typed = state.reduce(CheckAction::EditPatch(
        r#"[{"op":"remove","path":"/a"}]"#.into(),
    ));
    let mut settled = typed.clone();
    settled.settle();
    assert_eq!(settled, typed, "nothing is checked in the page");
    let asked = typed.wants_check().expect("asked of the engines");
    assert_eq!(
        (
            asked.0,
            &*asked.1.patch,
            &*asked.1.object,
            asked.1.semantics
        ),
        (typed.lint_rev, &*typed.patch, "", Semantics::Kube)
    );
    assert!(
        !typed.nothing_yet(),
        "the example's findings stay meanwhile"
    );
    // Typed on before the answer: the answer about the earlier text is
    // dropped, and the current text is asked about.
    let on = typed.reduce(CheckAction::EditPatch("[]".into()));
    let late = on.reduce(answer_of(&asked));
    assert_eq!(late, on);
    assert!(late.stale());
    assert_eq!(late.wants_check().map(|r| r.0), Some(on.lint_rev));
    let done = late.checked_now();
    assert!(!done.stale());
    assert_eq!(done.wants_check(), None);
    assert_eq!(done.checked().ok().unwrap().report.op_count, 0);
}

#[test]
fn big_texts_are_asked_about_like_small_ones() {
    use crate::engines::INSTANT_BYTES;
    let big = format!(
        "[{}]",
        r#"{"op":"add","path":"/a","value":1},"#.repeat(INSTANT_BYTES / 30)
            + r#"{"op":"remove","path":"/a"}"#
    );
    let typed = CheckState::default().reduce(CheckAction::EditPatch(big.into()));
    assert!(typed.big(), "the view waits for a pause before asking");
    assert!(typed.wants_check().is_some());
    let done = typed.checked_now();
    assert!(!done.stale());
    assert!(done.checked().ok().unwrap().report.op_count > 600);
}

#[test]
fn lint_of_an_earlier_text_is_never_taken_after_a_load() {
    let state = CheckState::default();
    let typed = state.reduce(CheckAction::EditPatch("[]".into()));
    let asked = typed.wants_check().unwrap();
    // A load, then an edit: revisions keep counting past the request's,
    // so its late answer (for "[]") is not taken for this text.
    let loaded = typed
        .reduce(CheckAction::LoadExample("float-test".into()))
        .reduce(CheckAction::EditObject("{}".into()));
    assert!(loaded.lint_rev > typed.lint_rev + 1);
    let late = loaded.reduce(answer_of(&asked));
    assert!(late.stale(), "still waiting for its own lint");
    assert_eq!(late.checked(), loaded.checked());
}

#[test]
fn the_error_text_and_release_leave_lint_and_its_answer_on_the_way_alone() {
    let typed = CheckState::default().reduce(CheckAction::EditPatch(
        r#"[{"op":"remove","path":"/a"}]"#.into(),
    ));
    let asked = typed.wants_check().unwrap();
    // Typing in the error field (and choosing a release) while lint's
    // answer is on its way: no new request, and the answer still serves.
    let explaining = typed
        .reduce(CheckAction::EditError("the server rejected".into()))
        .reduce(CheckAction::SetKubernetes("1.30".parse().unwrap()));
    assert!(explaining.rev > typed.rev, "explain asks again");
    assert_eq!(explaining.wants_check(), Some(asked.clone()));
    let answered = explaining.reduce(answer_of(&asked));
    assert!(!answered.stale());
    assert_eq!(answered.checked().ok().unwrap().report.op_count, 1);
}

#[test]
fn typing_is_told_from_other_changes_and_a_fix_is_not_put_in_over_an_edit() {
    let state = CheckState::default().reduce(CheckAction::ShowFirstFix);
    assert!(!state.typing);
    let typed = state.reduce(CheckAction::EditPatch("[]".into()));
    assert!(typed.typing, "big texts wait for a pause in typing");
    let switched = typed.reduce(CheckAction::SetSemantics(Semantics::Rfc));
    assert!(!switched.typing, "an engine switch is asked about at once");
    // The fix shown is of the text before the edit: not put in until the
    // findings are those of the current text.
    assert!(typed.comparison().is_some());
    let refused = typed.reduce(CheckAction::AdoptFix);
    assert_eq!(refused.patch, typed.patch);
    assert!(refused
        .notice
        .as_ref()
        .unwrap()
        .text
        .starts_with("Your last edit is being checked"));
}

/// `explain`'s Check links (made in the core, by `share::pack`) open in
/// Check with the patch and object they carry.
#[test]
fn explain_check_links_open_in_check() {
    let text =
        "The request is invalid: the server rejected our request due to an error in our request";
    let patch = "kubectl patch vmi testvmi --type=json -p '[{\"op\":\"remove\",\"path\":\"/metadata/labels/a\"}]'";
    let object = "metadata:\n  name: testvmi\n  labels: {}\n";
    let e = crate::explain::explain(&crate::explain::Request {
        patch: Some(patch),
        object: Some(object),
        ..crate::explain::Request::text(text)
    })
    .unwrap();
    let fragment = e.check_link.unwrap();
    let route = Route::parse(&fragment);
    assert_eq!(route.view(), Some(View::Check));
    let link: CheckLink = link::decode(route.packed().unwrap()).unwrap();
    assert_eq!(&*link.patch, patch);
    assert_eq!(&*link.object, object);
    assert_eq!(link.semantics, Semantics::Kube);
    let state = CheckState::from_link(link).checked_here();
    assert!(state.checked().ok().is_some());
}

/// The Check module has no linter: its findings come from the engines.
mod engines {
    use super::*;
    use crate::engines::{Answered, Failure, Unavailable};

    const OBJECT: &str = "metadata:\n  labels:\n    kubevirt.io/nodeName: node02\n";

    fn typed_object(text: &str) -> CheckState {
        let mut state = state_of(FIRST_EXAMPLE).reduce(CheckAction::EditObject(text.into()));
        state.settle();
        state
    }

    fn failed(state: &CheckState, why: &str) -> CheckState {
        let rev = state.wants_check().unwrap().0;
        state.reduce(CheckAction::Checked(Answered {
            rev,
            answer: Err(Failure::Unavailable(Unavailable::NotStarted(why.into()))),
            more: false,
        }))
    }

    #[test]
    fn the_examples_open_without_asking_the_engines() {
        for example in examples() {
            let state = CheckState::from_link(CheckLink::example(example.id).unwrap());
            assert_eq!(state.wants_check(), None, "{}", example.id);
            assert!(!state.stale(), "{}", example.id);
            // What is bundled is what the engines answer, through the wire.
            let question = Check {
                patch: Rc::clone(&state.patch),
                object: Rc::clone(&state.object),
                semantics: state.semantics,
            };
            let said = through_the_wire(state.lint_rev, question);
            assert_eq!(
                said.answer.as_deref(),
                Ok(state.checked()),
                "{}",
                example.id
            );
        }
    }

    #[test]
    fn a_link_waits_for_the_engines_with_nothing_to_show_meanwhile() {
        let link = CheckLink {
            patch: Rc::from(r#"[{"op":"remove","path":"/metadata/labels"}]"#),
            ..CheckLink::example(FIRST_EXAMPLE).unwrap()
        };
        let state = CheckState::from_link(link);
        assert!(state.stale());
        assert!(state.nothing_yet(), "no findings, and no prompt to paste");
        assert_eq!(state.checked().patch, None);
        let done = state.checked_here();
        assert!(!done.nothing_yet());
        assert_eq!(done.checked().ok().unwrap().report.op_count, 1);
    }

    #[test]
    fn a_typed_yaml_object_is_read_by_the_engines() {
        let before = state_of(FIRST_EXAMPLE);
        let state = typed_object(OBJECT);
        // Meanwhile: the findings of before, behind; no error on either editor.
        assert!(state.stale());
        assert_eq!(state.checked(), before.checked());
        assert_eq!((state.patch_error(), state.object_error()), (None, None));
        let answered = state.checked_here();
        assert!(!answered.stale());
        assert_eq!(answered.checked().object, ObjectRead::Read);
        let outcome = answered.checked().ok().unwrap().report.outcome.clone();
        assert!(outcome.is_some(), "checked against the object");
    }

    #[test]
    fn engines_that_cannot_answer_say_so_and_keep_the_texts() {
        let state = typed_object(OBJECT);
        let broken = failed(&state, "the engines did not load");
        assert_eq!(
            broken.failed(),
            Some(&Failure::Unavailable(Unavailable::NotStarted(
                "the engines did not load".into()
            )))
        );
        assert_eq!(broken.wants_check(), None, "not asked again until an edit");
        assert_eq!(&*broken.object, OBJECT);
        assert_eq!(broken.checked(), state.checked(), "the last findings stay");
        // The error text is explain's: lint is not asked again for it.
        let explained = broken.reduce(CheckAction::EditError("x".into()));
        assert_eq!(explained.wants_check(), None);
        assert!(explained.failed().is_some());
        // An edit lint reads asks again; an answer then clears the failure.
        let edited = broken.reduce(CheckAction::EditObject(format!("{OBJECT}# more\n").into()));
        assert_eq!(edited.failed(), None);
        let done = edited.checked_here();
        assert!(!done.stale());
        assert_eq!(done.failed(), None);
        // Shown again (Undo), a failed state asks again.
        let undone = broken
            .reduce(CheckAction::LoadExample("float-test".into()))
            .reduce(CheckAction::Undo);
        assert_eq!(&*undone.object, OBJECT);
        assert_eq!(undone.failed(), None);
        assert!(undone.wants_check().is_some());
    }

    #[test]
    fn a_failure_about_an_earlier_text_changes_nothing() {
        let state = typed_object(OBJECT);
        let rev = state.lint_rev;
        let done = state.checked_here();
        let after = done.reduce(CheckAction::Checked(Answered {
            rev: rev - 1,
            answer: Err(Failure::Unavailable(Unavailable::Stopped)),
            more: false,
        }));
        assert_eq!(after, done);
    }

    #[test]
    fn undo_while_waiting_asks_again() {
        let typed = typed_object(OBJECT);
        let asked = typed.wants_check().unwrap();
        // Clear (undoable), then Undo back to the typed, unchecked object.
        let cleared = typed.reduce(CheckAction::Clear);
        let mut back = cleared.reduce(CheckAction::Undo);
        back.settle();
        assert_eq!(&*back.object, OBJECT);
        let again = back.wants_check().expect("asked for again");
        assert!(again.0 > asked.0, "a new revision");
        assert_eq!(
            (&again.1.patch, &again.1.object),
            (&asked.1.patch, &asked.1.object)
        );
        // The answer to the first asking is not taken for the new revision.
        let late = back.reduce(answer_of(&asked));
        assert!(late.stale());
        let answered = late.checked_here();
        assert_eq!(answered.checked().object, ObjectRead::Read);
    }

    #[test]
    fn a_yaml_error_comes_back_with_its_line() {
        let text = "metadata:\n  labels: [\n";
        let state = typed_object(text).checked_here();
        let error = state.object_error().unwrap();
        assert_eq!(error.line, Some(3), "{error}");
        assert_eq!(
            Some(error),
            crate::input::parse_as(text, crate::input::Format::Yaml, &crate::lint::budget()).err()
        );
    }

    #[test]
    fn the_answer_reads_back_as_sent() {
        // Every field of an answer with findings, fixes, an outcome and a
        // conflict surface crosses the wire unchanged.
        for example in examples() {
            let question = Check {
                patch: Rc::from(example.patch.as_str()),
                object: Rc::from(example.object.as_deref().unwrap_or_default()),
                semantics: example.semantics,
            };
            let said = through_the_wire(3, question.clone());
            assert_eq!(
                said.answer.as_deref(),
                Ok(&question.check()),
                "{}",
                example.id
            );
        }
    }
}
