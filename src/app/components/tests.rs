//! The shared components, rendered natively (see `app::render_test`).

use std::rc::Rc;

use yew::prelude::*;

use super::glossary::TermHelpProps;
use super::*;
use crate::app::notice::Notice;
use crate::app::render_test::{count, element, opening, render, render_view, text};
use crate::kube::KubeVersion;
use crate::lint::{Finding, Rule, Severity};
use crate::strategy::{Overwrite, Precondition};
use crate::vocabulary::Term;

fn copy(last: Option<(&str, bool)>) -> UseCopy {
    UseCopy {
        copy: Callback::noop(),
        last: last.map(|(key, ok)| Copied {
            key: AttrValue::from(key.to_owned()),
            ok,
            text: Rc::from("copied text"),
        }),
        dismiss: Callback::noop(),
    }
}

#[test]
fn notice_bar_announces_by_level_and_offers_undo_and_details() {
    let none = render_view(notice_bar(&yew::props!(NoticeBarProps {
        notice: None,
        ondismiss: Callback::noop(),
    })));
    assert_eq!(none, "", "no notice, nothing at all");

    let kept = Notice::info("Opened the link. Your edited race is kept: Undo brings it back.")
        .with_undo("Undo");
    let html = render_view(notice_bar(&yew::props!(NoticeBarProps {
        notice: Some(kept.clone()),
        ondismiss: Callback::noop(),
        onundo: Some(Callback::noop()),
    })));
    let bar = element(&html, r#"role="status""#).expect("an info notice is a status");
    assert!(
        bar.starts_with("<div") && bar.contains(r#"class="notice notice-info""#),
        "{bar}"
    );
    assert_eq!(
        text(bar),
        "Opened the link. Your edited race is kept: Undo brings it back. Undo Dismiss"
    );
    assert_eq!(
        count(bar, r#"class="primary""#),
        1,
        "Undo is the main action"
    );
    // Without a way to undo, the label alone offers nothing.
    let html = render_view(notice_bar(&yew::props!(NoticeBarProps {
        notice: Some(kept),
        ondismiss: Callback::noop(),
    })));
    assert_eq!(
        text(&html),
        "Opened the link. Your edited race is kept: Undo brings it back. Dismiss"
    );

    let error = Notice::error("This link looks cut off.").with_detail(Some("not base64url"));
    let html = render_view(notice_bar(&yew::props!(NoticeBarProps {
        notice: Some(error),
        ondismiss: Callback::noop(),
    })));
    assert!(
        element(&html, r#"role="alert""#).is_some(),
        "errors interrupt: {html}"
    );
    assert!(html.contains("notice-error"));
    let details = element(&html, r#"class="notice-detail""#).unwrap();
    assert_eq!(text(details), "Details not base64url");
}

#[test]
fn select_labels_its_choices_and_marks_the_one_chosen() {
    let choices = vec![Choice::new("a", "Alpha"), Choice::plain("b")];
    let html = render_view(select(&yew::props!(SelectProps {
        choices: choices.clone(),
        selected: "b",
        onchange: Callback::noop(),
        label: Some(AttrValue::from("Letter")),
        field_class: classes!("kube"),
        title: Some(AttrValue::from("Pick one")),
    })));
    assert_eq!(
        opening(&html, r#"title="Pick one""#),
        Some(r#"<label title="Pick one" class="field kube">"#)
    );
    assert!(html.contains("<span>Letter</span><select>"), "{html}");
    assert_eq!(count(&html, "<option"), 2);
    assert!(
        html.contains(r#"<option value="a">Alpha</option>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<option value="b" selected="selected">b</option>"#),
        "{html}"
    );
    // Unlabelled: an accessible name, and a placeholder chosen by "".
    let html = render_view(select(&yew::props!(SelectProps {
        choices,
        selected: "",
        onchange: Callback::noop(),
        placeholder: Some(AttrValue::from("none of them")),
        aria_label: Some(AttrValue::from("Letter")),
        class: classes!("preset"),
    })));
    assert_eq!(
        opening(&html, r#"aria-label="Letter""#),
        Some(r#"<select aria-label="Letter" class="preset">"#)
    );
    assert!(html.contains(r#"<option value="" selected="selected">none of them</option>"#));
    assert_eq!(count(&html, " selected="), 1);
}

#[test]
fn the_kubernetes_picker_lists_every_release_and_shows_the_one_answering() {
    let html = render_view(kubernetes_select(&yew::props!(KubernetesSelectProps {
        value: KubeVersion::NEWEST,
        onchange: Callback::noop(),
    })));
    let label = opening(&html, "title=").unwrap();
    assert!(label.starts_with(r#"<label title="The kube-apiserver that answers"#));
    assert!(label.ends_with(r#" class="field kube">"#), "{label}");
    assert!(html.contains("<span>Kubernetes</span>"));
    assert_eq!(count(&html, "<option"), KubeVersion::choices().len());
    let chosen = element(&html, " selected=").unwrap();
    assert_eq!(text(chosen), KubeVersion::NEWEST.label());
    // 1.28.1 runs the same engine as 1.28.0: one entry for both.
    let v1281: KubeVersion = "1.28.1".parse().unwrap();
    let html = render_view(kubernetes_select(&yew::props!(KubernetesSelectProps {
        value: v1281,
        onchange: Callback::noop(),
    })));
    assert_eq!(
        text(element(&html, " selected=").unwrap()),
        "1.28.0, 1.28.1 (evanphx/json-patch v5.6.0)"
    );
}

#[test]
fn the_example_menu_offers_a_way_back_to_own_work() {
    let choices = vec![
        ("migration-race", "The migration race".to_owned()),
        ("finalizers", "Finalizers".to_owned()),
    ];
    let html = render_view(example_select(&yew::props!(ExampleSelectProps {
        choices: choices.clone(),
        current: None,
        onchoose: Callback::noop(),
    })));
    assert!(
        html.starts_with(r#"<label class="field"><span>Example</span>"#),
        "{html}"
    );
    assert_eq!(
        text(element(&html, " selected=").unwrap()),
        "Choose an example…"
    );
    let html = render_view(example_select(&yew::props!(ExampleSelectProps {
        choices,
        current: Some("finalizers".to_owned()),
        onchoose: Callback::noop(),
    })));
    assert!(html.contains(r#"<option value="finalizers" selected="selected">Finalizers</option>"#));
    assert_eq!(count(&html, "<option"), 3);
}

#[test]
fn copy_buttons_say_what_the_last_copy_did() {
    let props = |last| {
        yew::props!(CopyButtonProps {
            id: "payload-0",
            label: "Copy payload",
            text: "[]",
            copy: copy(last),
            shortcut: Some(AttrValue::from("1")),
        })
    };
    let idle = render_view(copy_button(&props(None)));
    assert_eq!(text(&idle), "Copy payload 1");
    assert!(idle.contains(r#"<span aria-live="polite">Copy payload</span>"#));
    assert!(idle.contains(r#"<kbd aria-hidden="true" class="shortcut-hint">1</kbd>"#));
    assert_eq!(
        text(&render_view(copy_button(&props(Some(("payload-0", true)))))),
        "Copied 1"
    );
    assert_eq!(
        text(&render_view(copy_button(&props(Some((
            "payload-0",
            false
        )))))),
        "Copy failed 1"
    );
    // Another button's copy leaves this one as it was.
    assert_eq!(
        text(&render_view(copy_button(&props(Some(("kubectl-0", true)))))),
        "Copy payload 1"
    );
}

#[test]
fn undo_shows_only_with_something_to_bring_back_and_share_says_copied() {
    let hidden = render_view(undo_button(&yew::props!(UndoButtonProps {
        shown: false,
        onundo: Callback::noop(),
    })));
    assert_eq!(hidden, "");
    let shown = render_view(undo_button(&yew::props!(UndoButtonProps {
        shown: true,
        onundo: Callback::noop(),
    })));
    assert!(
        shown.starts_with(r#"<button type="button" class="undo">"#),
        "{shown}"
    );
    assert!(shown.contains(r#"<kbd aria-hidden="true" class="shortcut-hint">z</kbd>"#));
    assert_eq!(text(&shown), "Undo z");
    let share = render_view(share_button(&yew::props!(ShareButtonProps {
        copy: copy(Some(("share", true))),
        onshare: Callback::noop(),
        class: classes!("primary"),
    })));
    assert!(
        share.starts_with(r#"<button type="button" class="primary">"#),
        "{share}"
    );
    assert_eq!(text(&share), "Copied l");
}

#[test]
fn term_help_names_its_term_and_defines_it() {
    let html = render::<TermHelp>(yew::props!(TermHelpProps {
        term: Term::FalseConflict,
    }));
    assert!(
        html.contains(r#"aria-label="What is “False conflicts”?""#),
        "{html}"
    );
    assert!(html.contains(&format!(r#"title="{}""#, Term::FalseConflict.definition())));
    assert_eq!(text(&html), "?");
}

#[test]
fn the_glossary_lists_every_term_the_asked_one_first() {
    let html = render_view(glossary_dialog(&yew::props!(GlossaryDialogProps {
        term: Some(Term::LostUpdate),
        onclose: Callback::noop(),
    })));
    assert_eq!(count(&html, "<dt>"), Term::ALL.len());
    let first = html.find("<dt>").unwrap();
    assert!(html[first..].starts_with(&format!("<dt>{}</dt>", Term::LostUpdate.label())));
    assert_eq!(count(&html, "glossary-entry asked"), 1);
    assert!(html.contains(r#"id="term-lost-update""#));
}

#[test]
fn the_conflict_surface_names_each_path_or_says_nothing() {
    let nothing = render_view(conflict_surface(&yew::props!(ConflictSurfaceProps {
        conflicts: Vec::new(),
        overwrites: Vec::new(),
    })));
    assert_eq!(
        text(&nothing),
        "Conflict surface ? Nothing: it tests nothing, so no concurrent change makes it fail. \
         Silent overwrites ? Nothing it writes goes unchecked."
            .replace("Conflict surface", Term::ConflictSurface.label())
            .replace("Silent overwrites", Term::SilentOverwrite.label())
    );
    let html = render_view(conflict_surface(&yew::props!(ConflictSurfaceProps {
        conflicts: vec![
            Precondition {
                path: "/metadata/labels".into(),
                reason: "any label changes".into(),
            },
            Precondition {
                path: String::new(),
                reason: "any change".into(),
            },
        ],
        overwrites: vec![Overwrite {
            path: "/metadata/finalizers".into(),
            reason: "a finalizer added meanwhile is lost".into(),
        }],
    })));
    assert_eq!(count(&html, "<li>"), 3);
    assert!(html.contains("<code>/metadata/labels</code>"));
    assert!(html.contains("<code>(the whole object)</code>"));
    assert!(text(&html).contains("/metadata/finalizers a finalizer added meanwhile is lost"));
}

/// The `n`th finding of a report, as shown, with its rule's texts from
/// the rule table (as the engines send them).
fn diag(n: usize, finding: &Finding) -> Diag {
    let info = finding.rule.info();
    Diag {
        n,
        finding: Finding {
            fix: None,
            ..finding.clone()
        },
        has_fix: finding.fix.is_some(),
        explanation: AttrValue::Static(info.explanation),
        fix_text: AttrValue::Static(info.fix),
    }
}

fn finding(rule: Rule, index: Option<usize>, path: &str, fix: bool) -> Finding {
    Finding {
        rule,
        severity: rule.severity(),
        index,
        path: Some(path.to_owned()),
        message: format!("op {index:?} at `{path}`"),
        fix: fix.then(|| crate::lint::Fix::of(Vec::new())),
        writers: Vec::new(),
        folded: None,
    }
}

#[test]
fn diagnostics_show_severity_rule_and_why_with_a_fix_button_where_there_is_one() {
    let findings = vec![
        diag(
            0,
            &finding(Rule::WholeMapTest, Some(0), "/metadata/labels", true),
        ),
        diag(
            1,
            &finding(Rule::AddWithoutTest, Some(0), "/metadata/labels/a", false),
        ),
    ];
    let html = render_view(diagnostics(&yew::props!(DiagnosticsProps {
        findings: findings.clone(),
        onfix: Some(Callback::noop()),
        shown: Some(0),
        at: Some(AttrValue::from("/metadata/labels")),
    })));
    assert!(html.starts_with(r#"<ul aria-label="Findings" class="diagnostics">"#));
    assert_eq!(count(&html, r#"<li class="diagnostic "#), 2);
    let warning = severity_class(Severity::Warning);
    assert!(
        html.contains(&format!(r#"class="diagnostic {warning}""#)),
        "{html}"
    );
    assert!(html.contains(r#"<code class="rule">whole-map-test</code>"#));
    // The message's backticks are code.
    assert!(html.contains("<code>/metadata/labels</code>"));
    // The op's own path is not repeated; another path is named.
    assert_eq!(count(&html, "finding-path"), 1);
    assert!(
        html.contains(r#"<span class="finding-path">at <code>/metadata/labels/a</code></span>"#)
    );
    assert!(html.contains(r#"<span aria-hidden="true">▲</span> warning"#));
    // One fix button: pressed, since its fix is shown.
    let button = element(&html, r#"id="use-fix-0""#).unwrap();
    assert!(button.contains(r#"aria-pressed="true""#), "{button}");
    assert_eq!(text(button), "Fix shown");
    assert_eq!(
        count(&html, "use-fix"),
        2,
        "the id and the class of one button"
    );
    // Build's columns: compact, and no fix buttons.
    let compact = render_view(diagnostics(&yew::props!(DiagnosticsProps {
        findings,
        compact: true,
    })));
    assert_eq!(count(&compact, "diagnostic compact"), 2);
    assert_eq!(count(&compact, "<details class=\"why\"><summary>"), 2);
    assert_eq!(count(&compact, "use-fix"), 0);
    let empty = render_view(diagnostics(&yew::props!(DiagnosticsProps {
        findings: Vec::new(),
    })));
    assert_eq!(empty, "");
}

#[test]
fn a_refused_copy_offers_the_text_to_copy_by_hand() {
    let fine = render_view(copy_fallback(&yew::props!(CopyFallbackProps {
        copy: copy(Some(("share", true))),
    })));
    assert_eq!(fine, "", "a copy that worked needs no dialog");
    let html = render_view(copy_fallback(&yew::props!(CopyFallbackProps {
        copy: copy(Some(("share", false))),
    })));
    let dialog = opening(&html, "<dialog").unwrap();
    assert!(dialog.contains("aria-labelledby=\"dialog-"), "{dialog}");
    assert!(html.contains(">Copy by hand</h2>"));
    let area = element(&html, r#"aria-label="Text to copy""#).unwrap();
    assert!(area.contains(r#"readonly="readonly""#), "{area}");
    assert_eq!(
        text(area),
        "copied text",
        "a text area's value is its content"
    );
    assert_eq!(
        count(&html, ">Close</button>"),
        2,
        "at the top and at the foot"
    );
}

#[test]
fn the_kubernetes_picker_says_when_the_release_does_not_matter_and_marks_what_differs() {
    use std::rc::Rc;
    let same = render_view(kubernetes_select(&yew::props!(KubernetesSelectProps {
        value: KubeVersion::NEWEST,
        onchange: Callback::noop(),
        differs: Some(Rc::new(Vec::new())),
    })));
    assert!(text(&same).ends_with("Every release gives the same answer here."));
    assert_eq!(count(&same, super::kubernetes::DIFFERS_MARK), 0);
    let old: Vec<KubeVersion> = ["1.25", "1.26"]
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    let differs = render_view(kubernetes_select(&yew::props!(KubernetesSelectProps {
        value: KubeVersion::NEWEST,
        onchange: Callback::noop(),
        differs: Some(Rc::new(old.clone())),
    })));
    assert_eq!(count(&differs, super::kubernetes::DIFFERS_MARK), 2);
    for v in &old {
        assert!(differs.contains(&format!("{}{}", v.label(), super::kubernetes::DIFFERS_MARK)));
    }
    assert!(text(&differs).ends_with("2 releases answer differently from 1.36 (marked)."));
    let one = render_view(kubernetes_select(&yew::props!(KubernetesSelectProps {
        value: KubeVersion::NEWEST,
        onchange: Callback::noop(),
        differs: Some(Rc::new(old[..1].to_vec())),
    })));
    assert!(text(&one).ends_with("1 release answers differently from 1.36 (marked)."));
}
