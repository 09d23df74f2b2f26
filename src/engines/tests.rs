use std::rc::Rc;

use serde_json::Value;

use super::build::{Build, Built, Column, ColumnResult, Revs, RoundTripResult};
use super::check::{fix_payload, Check, ObjectRead};
use super::convert::{Convert, CANNOT_CONVERT};
use super::explain::{explain_error, Explain, ExplainView};
use super::race::{kept_bytes, Race, ReplayView, OTHER_RUNS_BYTES};
use super::read_yaml::{ReadText, ReadYaml};
use super::scale::{next_chunk, Scale, ScaleRun};
use super::wire::{self, Asking, Header, Latest, Seed};
use super::worker::Worker;
use super::*;
use crate::input::{self, Budget, Format};
use crate::kube::KubeVersion;
use crate::lint::{self, Rule};
use crate::sim::migrate::{migrate, MigrateOptions, WarmTables};
use crate::strategy::{self, BodyKind, Options, Preset};

/// `question` asked at `rev` as the page asks it, answered by a worker as
/// the engines' worker answers it (every part, the last kept), and read as
/// the page reads it.
pub(crate) fn through_the_wire<Q: Question>(rev: Q::Rev, question: Q) -> Answered<Q> {
    Worker::new(TABLE).answer_through_the_wire(rev, question)
}

/// A reply read as the client reads it.
fn read_reply<Q: Question>(reply: &str) -> Answered<Q> {
    let header = Header::read(reply).unwrap();
    assert_eq!(header.answered.as_deref(), Some(Q::NAME), "{reply:.300}");
    let (rev, said) = wire::read::<Q>(reply).unwrap();
    Answered {
        rev,
        answer: said.map(Rc::new).map_err(Failure::Refused),
        more: header.more,
    }
}

fn answer<Q: Question>(question: Q) -> Q::Answer
where
    Q::Refusal: std::fmt::Debug,
{
    Worker::new(TABLE).answer_now(question).unwrap()
}

fn build(old: &str, new: &str, presets: &[Preset]) -> Build {
    Build {
        old: old.into(),
        new: new.into(),
        columns: presets.iter().copied().map(Column::of).collect(),
        kubernetes: KubeVersion::default(),
    }
}

const REVS: Revs = Revs {
    old: 1,
    new: 2,
    columns: 3,
};

const OLD: &str = "metadata:\n  name: vmi\n  labels: {a: '1'}\nstatus:\n  phase: Running\n";
const NEW: &str =
    "metadata:\n  name: vmi\n  labels: {a: '1', b: '2'}\nstatus:\n  phase: Succeeded\n";

#[test]
fn messages_read_back_and_what_cannot_be_read_is_said() {
    let question = build(OLD, NEW, &[Preset::KubevirtMain]);
    let text = Asking::new(&REVS, &question, Some(3)).text();
    assert!(text.starts_with(r#"{"ask":"build","rev":{"#), "{text:.80}");
    assert!(text.ends_with(r#","seq":3}"#), "{text:.80}");
    let said = through_the_wire(REVS, question.clone());
    assert_eq!(said.rev, REVS);
    assert!(!said.more);
    assert_eq!(*said.answer.unwrap(), answer(question));
    assert_eq!(wire::Notice::Ready(true).text(), r#"{"ready":true}"#);
    assert!(Header::read(r#"{"ready":true}"#).unwrap().ready);
    // What the worker cannot read: said, and nothing waits.
    let mut worker = Worker::new(TABLE);
    for (text, why) in [
        ("[", "not an engine question"),
        (
            r#"{"ask":"paint","seq":1}"#,
            r#"no question is named "paint""#,
        ),
    ] {
        let reply = worker.take(text).expect("a reply at once");
        let header = Header::read(&reply).unwrap();
        assert!(header.misread.unwrap().contains(why), "{reply}");
    }
    // A question of a known name that does not read: said when started.
    assert_eq!(worker.take(r#"{"ask":"build","rev":1,"seq":2}"#), None);
    let reply = worker.work(&|| 0.0).unwrap();
    assert!(Header::read(&reply).unwrap().misread.is_some(), "{reply}");
    assert!(!worker.busy());
    // The page refuses what is no message of the engines.
    for bad in ["{}", "[]", r#"{"answered":7}"#, "x"] {
        assert!(Header::read(bad).is_err(), "{bad}");
    }
    // A reply that holds neither an answer nor a refusal does not read.
    assert!(
        wire::read::<Build>(r#"{"answered":"build","rev":{"old":1,"new":2,"columns":3}}"#).is_err()
    );
}

#[test]
fn a_build_answer_is_what_the_engines_compute() {
    let presets = [Preset::KubevirtMain, Preset::KubevirtPerKey, Preset::Merge];
    let answer = answer(build(OLD, NEW, &presets));
    assert_eq!((answer.old.as_ref(), answer.new.as_ref()), (None, None));
    let results = answer.results.unwrap();
    let budget = Budget::default();
    let (old, new) = (
        input::parse(OLD, &budget).unwrap().0,
        input::parse(NEW, &budget).unwrap().0,
    );
    for (column, preset) in results.columns.iter().zip(presets) {
        let options = Column::of(preset).options();
        let plan = strategy::diff(&old, &new, &options).unwrap();
        assert_eq!(column.preset, preset);
        assert_eq!(column.kind, plan.body.kind());
        assert_eq!(&*column.texts.as_ref().unwrap().payload, plan.body_text());
        let round_trip =
            strategy::round_trip_on(&old, &new, &plan, &options.policy, KubeVersion::default());
        assert_eq!(column.round_trip, RoundTripResult::from(&round_trip));
        let sent: Vec<(String, String)> = plan
            .ops()
            .unwrap_or_default()
            .iter()
            .map(|p| (p.op.op.as_str().to_owned(), p.op.path.clone()))
            .collect();
        let shown: Vec<(String, String)> = column
            .ops
            .iter()
            .map(|o| (o.op.clone(), o.path.clone()))
            .collect();
        assert_eq!(shown, sent);
        // Lint on the column is Check's lint on the bytes the column sends.
        let checked = lint::lint(
            &plan.body_text(),
            &lint::Options {
                kind: new.get("kind").and_then(|k| k.as_str()).map(str::to_owned),
                ..lint::Options::default()
            },
        )
        .unwrap();
        for (k, op) in column.ops.iter().enumerate() {
            let expected: Vec<&str> = checked.on_op(k).map(|f| f.rule.as_str()).collect();
            let found: Vec<&str> = op.findings.iter().map(|f| f.rule.as_str()).collect();
            assert_eq!(found, expected);
        }
        let whole: Vec<(&str, &str)> = checked
            .findings
            .iter()
            .filter(|f| f.index.is_none())
            .map(|f| (f.rule.as_str(), f.message.as_str()))
            .collect();
        let shown: Vec<(&str, &str)> = column
            .findings
            .iter()
            .map(|f| (f.rule.as_str(), f.message.as_str()))
            .collect();
        assert_eq!(shown, whole, "{preset}");
    }
    // The head tests and writes the whole map: those ops are its own; the
    // phase is replaced the same way by the head and per-key, so that op
    // is not (the merge column sends a body, no ops).
    for column in &results.columns[..2] {
        assert!(!column.ops.is_empty());
        for op in &column.ops {
            assert_eq!(op.unique, op.path.starts_with("/metadata/labels"), "{op:?}");
        }
    }
    // The Fields table: each changed path once, a strategy per column.
    let paths: Vec<String> = results.fields.iter().map(|f| f.path.to_string()).collect();
    assert_eq!(paths, ["/metadata/labels", "/status/phase"]);
    assert_eq!(results.fields[0].change, "modified");
}

#[test]
fn ops_sent_by_two_columns_are_not_unique() {
    let presets = [Preset::KubevirtPerKey, Preset::KubevirtPerKey];
    let results = answer(build(OLD, NEW, &presets)).results.unwrap();
    assert!(results
        .columns
        .iter()
        .all(|c| !c.ops.is_empty() && c.ops.iter().all(|o| !o.unique)));
    let one = answer(build(OLD, NEW, &presets[..1])).results.unwrap();
    assert!(
        one.columns[0].ops.iter().all(|o| !o.unique),
        "one column: nothing to compare"
    );
}

#[test]
fn parse_errors_name_the_side_and_place_and_block_the_results() {
    let mut worker = Worker::new(TABLE);
    let built = worker
        .answer_now(build(OLD, "{\"metadata\": ]}", &[Preset::Merge]))
        .unwrap();
    assert_eq!(built.old, None);
    let error = built.new.clone().unwrap();
    assert_eq!((error.line, error.column), (Some(1), Some(14)));
    assert!(built.results.is_none());
    // The cached parse of an unchanged text is the same as a fresh one.
    let again = worker
        .answer_now(build(OLD, NEW, &[Preset::Merge]))
        .unwrap();
    let fresh = answer(build(OLD, NEW, &[Preset::Merge]));
    assert_eq!(again, fresh);
}

#[test]
fn a_diff_error_is_the_column_s_error() {
    // A list where the old object has a map: a JSON patch diff of a
    // non-object root does not work.
    let built = answer(build("[1]", "{}", &[Preset::KubevirtMain]));
    let column = &built.results.unwrap().columns[0];
    assert!(column.error.is_some());
    assert!(column.texts.is_none() && column.ops.is_empty());
}

#[test]
fn explain_answers_what_check_s_panel_shows_and_the_message_reads_back() {
    let error =
        "The request is invalid: the server rejected our request due to an error in our request";
    let patch = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}}]"#;
    let object = r#"{"metadata":{"labels":{"a":"2"}}}"#;
    let question = Explain {
        error: error.into(),
        patch: patch.into(),
        object: object.into(),
        kubernetes: Some("1.30".parse().unwrap()),
    };
    let said = through_the_wire(4, question.clone());
    assert_eq!(said.rev, 4);
    let view = said.answer.unwrap();
    let expected = explain_error(error, patch, object, question.kubernetes).unwrap();
    assert_eq!(view.as_ref(), &Some(ExplainView::of(&expected)));
    assert_eq!(
        view.as_ref()
            .as_ref()
            .unwrap()
            .class
            .as_ref()
            .map(|c| c.1.as_str()),
        Some("test-failed"),
        "replayed on the object: decided"
    );
    // A blank error text: no view, said with null (not a missing answer).
    let blank = Explain {
        error: " \n".into(),
        ..question
    };
    let text = Asking::new(&5, &blank, Some(2)).text();
    let mut worker = Worker::new(TABLE);
    worker.take(&text);
    let reply = worker.work(&|| 0.0).unwrap();
    assert!(reply.contains(r#""answer":null"#), "{reply}");
    assert_eq!(*read_reply::<Explain>(&reply).answer.unwrap(), None);
}

#[test]
fn check_answers_what_check_s_view_shows_and_the_message_reads_back() {
    let question = Check {
        patch: r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"replace","path":"/metadata/labels","value":{"a":"1","b":"2"}}]"#.into(),
        object: "metadata:\n  labels: {a: '2'}\n".into(),
        semantics: crate::apply::Semantics::Kube,
    };
    let said = through_the_wire(5, question.clone());
    let checked = said.answer.unwrap();
    assert_eq!(*checked, question.check(), "the same through the wire");
    assert_eq!(
        checked.object,
        ObjectRead::Read,
        "YAML, read by the engines"
    );
    let patch = checked.ok().expect("the patch reads");
    let rules: Vec<Rule> = patch.report.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::FailsNow, Rule::WholeMapTest], "worst first");
    let finding = &patch.report.findings[1];
    let (explanation, fix) = patch.rule_texts(finding.rule);
    assert_eq!(*explanation, *Rule::WholeMapTest.info().explanation);
    assert_eq!(*fix, *Rule::WholeMapTest.info().fix);
    let fix = finding.fix.as_ref().unwrap();
    assert_eq!(
        fix_payload(&fix.op_texts(&patch.written)),
        r#"[{"op":"add","path":"/metadata/labels/b","value":"2"}]"#
    );
    let outcome = patch
        .report
        .outcome
        .as_ref()
        .expect("checked on the object");
    assert!(!outcome.applies, "a is 2, not 1");
    assert_eq!(outcome.index, Some(0));
    assert_eq!(outcome.response.as_ref().map(|r| r.code), Some(422));
    // Blank texts: nothing to check, said with null.
    let blank = Check {
        patch: " \n".into(),
        object: "".into(),
        ..question
    };
    let said = through_the_wire(6, blank);
    assert_eq!(said.answer.unwrap().patch, None);
}

#[test]
fn check_s_fixes_keep_the_ops_they_keep_by_reference_and_read_as_lint_wrote_them() {
    let adds: Vec<String> = (0..50)
        .map(|i| format!(r#"{{"op": "add", "path": "/metadata/labels/k{i}", "value": "v"}}"#))
        .collect();
    let patches = [
        format!("[{}]", adds.join(",\n")),
        r#"[{"op": "test", "path": "/spec/replicas", "value": 1.0}, {"op": "replace", "path": "/spec/replicas", "value": 2}]"#.to_owned(),
        r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"replace","path":"/metadata/labels","value":{"a":"1","b":"2"}}]"#.to_owned(),
        r#"{"metadata": {"finalizers": ["a"]}}"#.to_owned(),
        "kubectl patch vmi a --type=json -p '[{\"op\":\"remove\",\"path\":\"/metadata/finalizers/0\"}]'".to_owned(),
    ];
    let object =
        r#"{"metadata": {"labels": {"a": "1"}, "finalizers": ["a"]}, "spec": {"replicas": 1}}"#;
    let mut by_reference = 0;
    for text in &patches {
        let report = lint::lint(
            text,
            &lint::Options {
                object: serde_json::from_str(object).ok(),
                ..lint::Options::default()
            },
        )
        .unwrap();
        let checked = Check {
            patch: text.as_str().into(),
            object: object.into(),
            semantics: crate::apply::Semantics::Kube,
        }
        .check();
        let patch = checked.ok().unwrap();
        assert_eq!(patch.report.findings.len(), report.findings.len(), "{text}");
        for (sent, found) in patch.report.findings.iter().zip(&report.findings) {
            let (Some(sent), Some(fix)) = (&sent.fix, &found.fix) else {
                assert_eq!(sent.fix.is_some(), found.fix.is_some(), "{text}");
                continue;
            };
            let texts = sent.op_texts(&patch.written);
            assert_eq!(texts, fix.op_texts(), "{text}");
            assert_eq!(fix_payload(&texts), fix.payload(), "{text}");
            assert_eq!(sent.kept(), fix.kept(), "{text}");
            by_reference += sent.kept().iter().flatten().count();
        }
    }
    assert!(
        by_reference > 50,
        "kept ops go by reference: {by_reference}"
    );
}

#[test]
fn a_newer_question_replaces_one_of_its_name_waiting_or_running() {
    let mut worker = Worker::new(TABLE);
    let ask = |rev: u64, q: &dyn Fn(&u64) -> String| q(&rev);
    let explain = |rev: &u64| {
        let q = Explain {
            error: "x".into(),
            patch: "".into(),
            object: "".into(),
            kubernetes: None,
        };
        Asking::new(rev, &q, Some(*rev as u32)).text()
    };
    let yaml = |rev: &usize| {
        Asking::new(
            rev,
            &ReadYaml {
                texts: vec!["a: 1".into()],
            },
            Some(*rev as u32),
        )
        .text()
    };
    worker.take(&ask(1, &explain));
    worker.take(&yaml(&2));
    worker.take(&ask(3, &explain));
    worker.take(&ask(4, &explain));
    let order: Vec<u32> = std::iter::from_fn(|| worker.work(&|| 0.0))
        .map(|reply| Header::read(&reply).unwrap().seq.unwrap())
        .collect();
    assert_eq!(order, [2, 4], "the oldest first, each name's latest only");
    // A run in parts is replaced by the next of its name, and cancelled.
    let scale = |rev: u64, vms: usize| {
        let q = Scale {
            options: MigrateOptions {
                vms,
                ..MigrateOptions::default()
            },
        };
        Asking::new(&rev, &q, Some(rev as u32)).text()
    };
    worker.take(&scale(5, 3000));
    let first = worker.work(&|| 0.0).unwrap();
    assert!(
        Header::read(&first).unwrap().more,
        "a first part: {first:.200}"
    );
    worker.take(&scale(6, 50));
    let seqs: Vec<u32> = std::iter::from_fn(|| worker.work(&|| 0.0))
        .map(|reply| Header::read(&reply).unwrap().seq.unwrap())
        .collect();
    assert!(!seqs.is_empty() && seqs.iter().all(|&s| s == 6), "{seqs:?}");
    worker.take(&scale(7, 3000));
    assert!(worker.work(&|| 0.0).is_some());
    worker.take(r#"{"cancel":"scale"}"#);
    assert!(
        !worker.busy() && worker.work(&|| 0.0).is_none(),
        "cancelled"
    );
    assert!(
        worker.caches().holds::<WarmTables>(),
        "a cancel keeps the tables"
    );
    worker.take(r#"{"forget":"scale"}"#);
    assert!(!worker.caches().holds::<WarmTables>(), "forget frees them");
}

#[test]
fn late_answers_of_replaced_questions_are_dropped() {
    let mut latest = Latest::default();
    let first = latest.issue(build::Build::NAME);
    let explain = latest.issue(explain::Explain::NAME);
    let second = latest.issue(build::Build::NAME);
    assert!(!latest.is_latest("build", first), "replaced");
    assert!(latest.is_latest("build", second));
    assert!(latest.is_latest("explain", explain));
    assert!(
        !latest.is_latest("explain", second),
        "a number of another name"
    );
    latest.forget("build");
    assert!(!latest.is_latest("build", second), "forgotten");
}

#[test]
fn a_view_takes_the_answer_to_the_revision_it_wants_and_nothing_else() {
    let question = build(OLD, NEW, &[Preset::Merge]);
    let said = through_the_wire(REVS, question);
    let mut asked: Asked<Build> = Asked::default();
    assert!(asked.wanted(REVS));
    let later = Revs { new: 9, ..REVS };
    assert!(
        !asked.take(later, said.clone()),
        "an answer to another revision"
    );
    assert!(asked.wanted(later) && asked.shown().is_none());
    assert!(asked.take(REVS, said.clone()));
    assert!(asked.answers(REVS) && !asked.wanted(REVS));
    // A failure keeps the answer shown, and is of its revision only.
    let failed = Answered::<Build> {
        rev: later,
        answer: Err(Failure::Unavailable(Unavailable::Stopped)),
        more: false,
    };
    assert!(asked.take(later, failed));
    assert!(asked.shown().is_some() && !asked.wanted(later));
    assert_eq!(
        asked.failed_on(later),
        Some(&Failure::Unavailable(Unavailable::Stopped))
    );
    assert!(asked.failed_on(REVS).is_none());
    // Renumbered (Undo), the failure is forgotten: asked again.
    asked.renumber(|r| Revs {
        old: r.old + 10,
        ..r
    });
    assert!(asked.wanted(later) && asked.answers(Revs { old: 11, ..REVS }));
}

const POD_OLD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: one\n  - name: b\n    image: two\n";
const POD_NEW: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: one\n  - name: b\n    image: three\n";

#[test]
fn a_built_in_kind_takes_the_strategic_preset_a_custom_resource_does_not() {
    // A Pod: every preset, then strategic; the column is kubectl's
    // two-way strategic merge patch, as the core computes it.
    let presets = [Preset::KubevirtMain, Preset::Strategic];
    let results = answer(build(POD_OLD, POD_NEW, &presets)).results.unwrap();
    assert_eq!(results.presets, Preset::EVERY.to_vec());
    let column = &results.columns[1];
    assert_eq!(column.error, None);
    assert_eq!(column.kind, BodyKind::StrategicMergePatch);
    assert_eq!(
        column.content_type,
        "application/strategic-merge-patch+json"
    );
    let budget = Budget::default();
    let (old, new) = (
        input::parse(POD_OLD, &budget).unwrap().0,
        input::parse(POD_NEW, &budget).unwrap().0,
    );
    let plan = strategy::diff(&old, &new, &Options::preset(Preset::Strategic)).unwrap();
    let texts = column.texts.as_ref().unwrap();
    assert_eq!(&*texts.payload, plan.body_text());
    assert!(
        texts.payload.contains(r#""image":"three""#),
        "{}",
        texts.payload
    );
    assert!(texts.body.is_some(), "shown whole, like a merge body");
    // A VMI (a custom resource; OLD and NEW name no kind at all): no
    // strategic preset offered, and a column that asks for it anyway
    // shows the body a client would send and the server's refusal.
    let vmi = answer(build(OLD, NEW, &[Preset::Strategic]))
        .results
        .unwrap();
    assert_eq!(vmi.presets, Preset::ALL.to_vec());
    let column = &vmi.columns[0];
    assert!(
        matches!(column.round_trip, RoundTripResult::Refused(_)),
        "{:?}",
        column.round_trip
    );
    assert!(
        column.notes.iter().any(|n| n.contains("custom resource")),
        "{:?}",
        column.notes
    );
}

#[test]
fn a_seed_answers_only_the_question_it_was_computed_for() {
    // A `<` in a text: written escaped, still the same question.
    let asked = build(
        &OLD.replace("'1'", "'<b>'"),
        NEW,
        &[Preset::KubevirtMain, Preset::KubevirtPerKey],
    );
    let built = answer(asked.clone());
    // What scripts/prerender.mjs writes, from the texts of the messages:
    // each without its number, `<` escaped.
    let question = Asking::new(&REVS, &asked, Some(1)).text();
    let mut worker = Worker::new(TABLE);
    worker.take(&question);
    let reply = worker.work(&|| 0.0).unwrap();
    let unnumbered = |text: &str| text.replace(r#","seq":1}"#, "}").replace('<', "\\u003c");
    let text = format!("{}\n{}", unnumbered(&question), unnumbered(&reply));
    assert_eq!(text, Seed::text(&REVS, &asked, &built));
    assert!(!text.contains('<'));
    assert_eq!(
        Seed::answer_for(&text, &REVS, &asked).unwrap(),
        Some(Rc::new(built))
    );
    // Another text, other columns, another release or other revisions:
    // not this answer.
    let mut other = asked.clone();
    other.new = "{}".into();
    assert_eq!(Seed::answer_for(&text, &REVS, &other).unwrap(), None);
    let mut other = asked.clone();
    other.columns.pop();
    assert_eq!(Seed::answer_for(&text, &REVS, &other).unwrap(), None);
    assert_eq!(
        Seed::answer_for(&text, &Revs { new: 7, ..REVS }, &asked).unwrap(),
        None
    );
    let mut other = asked.clone();
    other.kubernetes = KubeVersion::new(KubeVersion::OLDEST_MINOR, None).unwrap();
    assert_ne!(other.kubernetes, asked.kubernetes);
    assert_eq!(Seed::answer_for(&text, &REVS, &other).unwrap(), None);
    // The right question with a broken answer: an error, not a guess.
    let (line, _) = text.split_once('\n').unwrap();
    assert!(Seed::answer_for(&format!("{line}\n{{"), &REVS, &asked).is_err());
}

#[test]
fn a_merge_column_shows_the_findings_check_shows_for_its_body() {
    // The merge patch of a finalizer added sends the whole list: Check
    // flags that body, so the merge column does too.
    let old = "metadata:\n  name: vmi\n  finalizers: [a]\n";
    let new = "metadata:\n  name: vmi\n  finalizers: [a, b]\n";
    let results = answer(build(old, new, &[Preset::Merge, Preset::Naive]))
        .results
        .unwrap();
    let rules = |column: &ColumnResult| -> Vec<String> {
        column.findings.iter().map(|f| f.rule.clone()).collect()
    };
    assert_eq!(results.columns[0].kind, BodyKind::MergePatch);
    assert_eq!(rules(&results.columns[0]), ["merge-replaces-list"]);
    let checked = lint::lint(
        &results.columns[0].texts.as_ref().unwrap().payload,
        &lint::Options::default(),
    )
    .unwrap();
    assert_eq!(
        checked.findings[0].message,
        results.columns[0].findings[0].message
    );
    // Naive replaces the list blind: a finding on the op, none on the body.
    let naive = &results.columns[1];
    assert!(naive.findings.is_empty());
    assert!(
        naive.ops.iter().any(|op| !op.findings.is_empty()),
        "{:?}",
        naive.ops
    );
}

/// A conversion says which side does not parse, and where, as a refusal
/// typed through the wire; both sides rewritten otherwise.
#[test]
fn a_conversion_names_the_side_that_does_not_parse() {
    let (old, new): (Rc<str>, Rc<str>) = (OLD.into(), "a: [1\nb: 2\n".into());
    let convert = |new: &Rc<str>| Convert {
        format: Format::Json,
        old: Rc::clone(&old),
        new: Rc::clone(new),
    };
    let said = through_the_wire(5, convert(&new));
    let Err(Failure::Refused(error)) = said.answer else {
        panic!("refused: {said:?}")
    };
    assert_eq!(error.side, crate::strategy::Side::New);
    assert!(error.error.line.is_some(), "{:?}", error.error);
    assert_eq!(error.to_string(), CANNOT_CONVERT);
    let (json, _) = answer(convert(&old));
    assert!(json.starts_with("{\n  \"metadata\""), "{json}");
}

/// Each rule a column's findings name comes with its texts, once, in rule
/// order; an answer whose column lacks them (engines of another version)
/// does not read.
#[test]
fn a_column_sends_the_texts_of_the_rules_its_findings_name_once() {
    // A label added and a finalizer appended: kubevirt-main tests the whole
    // label map and the whole finalizer list, naive sends both blind.
    let old = "metadata:\n  name: vmi\n  labels: {a: '1'}\n  finalizers: [x]\n";
    let new = "metadata:\n  name: vmi\n  labels: {a: '1', b: '2'}\n  finalizers: [x, y]\n";
    let question = build(old, new, &[Preset::KubevirtMain, Preset::Naive]);
    let built: Built = answer(question.clone());
    for column in &built.results.as_ref().unwrap().columns {
        let named: std::collections::BTreeSet<&str> = column
            .findings
            .iter()
            .chain(column.ops.iter().flat_map(|op| &op.findings))
            .map(|f| f.rule.as_str())
            .collect();
        assert!(!named.is_empty(), "{:?} has findings", column.preset);
        let sent: Vec<&str> = column.rules.iter().map(|r| r.rule.as_str()).collect();
        let mut in_order: Vec<Rule> = named.iter().map(|n| n.parse().unwrap()).collect();
        in_order.sort_by_key(|rule| *rule as usize);
        assert_eq!(
            sent,
            in_order.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "each named rule once, in rule order"
        );
        for text in &column.rules {
            let info = text.rule.parse::<Rule>().unwrap().info();
            assert_eq!(&*text.explanation, info.explanation);
            assert_eq!(&*text.fix, info.fix);
        }
    }
    // The same answer without a column's rule texts is refused.
    let reply = wire::Reply::<Build>::new(&REVS, Ok(&built), false, Some(1)).text();
    let mut value: Value = serde_json::from_str(&reply).unwrap();
    value["answer"]["results"]["columns"][0]
        .as_object_mut()
        .unwrap()
        .remove("rules");
    let error = wire::read::<Build>(&value.to_string()).unwrap_err();
    assert!(error.to_string().contains("rules"), "{error}");
}

#[test]
fn read_yaml_reads_each_text_and_the_messages_read_back() {
    let texts: Vec<Rc<str>> = vec![
        Rc::from("- set-label: {key: a, value: b}\n"),
        Rc::from("/metadata/labels: ["),
        Rc::from(""),
        Rc::from("n: 0.1\nbig: 12345678901234567890\n"),
    ];
    let question = ReadYaml { texts };
    let said = through_the_wire(3, question.clone());
    let values = said.answer.unwrap();
    assert_eq!(
        values[0],
        ReadText::Value(serde_json::json!([{"set-label": {"key": "a", "value": "b"}}]))
    );
    let ReadText::Error(error) = &values[1] else {
        panic!("not YAML: {:?}", values[1])
    };
    assert!(
        error.line.is_some() && error.column.is_some(),
        "where: {error:?}"
    );
    assert!(matches!(&values[2], ReadText::Error(e) if e.message == "input is empty"));
    // Numbers come back as the engines read them: through JSON, exactly.
    assert_eq!(*values, answer(question));
}

/// The shipped scenario `migration-race`, read from its file.
fn migration_race() -> crate::sim::timeline::Scenario {
    crate::sim::timeline::Scenario::parse(include_str!("../../www/scenarios/migration-race.yaml"))
        .unwrap()
}

#[test]
fn race_answers_what_race_s_view_shows_and_the_message_reads_back() {
    use crate::sim::timeline::replay;
    let scenario = migration_race();
    let question = Race {
        scenario: scenario.clone(),
        preset: Some(Preset::Naive),
    };
    let said = through_the_wire(21, question.clone());
    assert_eq!(said.rev, 21);
    let raced = said.answer.unwrap();
    let expected = replay(&scenario, Some(Preset::Naive)).unwrap();
    assert_eq!(raced.replay, Ok(ReplayView::of(&expected)));
    assert!(kept_bytes(&scenario) <= OTHER_RUNS_BYTES);
    let rows = raced
        .compare
        .as_ref()
        .expect("within the budget: every preset");
    for row in rows {
        let own = replay(&scenario, Some(row.preset)).unwrap().outcomes;
        let shown = row.outcomes.as_ref().unwrap();
        assert_eq!(shown.writers, own.writers, "{}", row.preset);
        assert_eq!(shown.lost_updates.len(), own.lost_updates.len());
    }
    assert!(raced.differences.is_some());
    assert_eq!(
        raced.story,
        Some(crate::sim::story::Story::of_replay(&expected))
    );
    // Through the wire as the page reads it: every step, every value, a
    // `null` value kept apart from an absent one.
    assert_eq!(*raced, question.replay());
    // A scenario that cannot run: why, typed as the simulator says it.
    let broken = Race {
        scenario: crate::sim::timeline::Scenario {
            objects: Vec::new(),
            ..scenario
        },
        ..question
    };
    let raced = through_the_wire(22, broken).answer.unwrap();
    assert_eq!(
        raced.replay,
        Err(crate::sim::timeline::ScenarioError::NoObjects)
    );
    assert!(raced.compare.is_none() && raced.story.is_none());
}

#[test]
fn explore_answers_the_explorer_s_table_without_stories() {
    let scenario = migration_race();
    let said = through_the_wire(
        8,
        explore::Explore {
            scenario: scenario.clone(),
        },
    );
    let mut expected = crate::sim::explore::explore(&scenario, &[]).unwrap();
    for row in &mut expected.presets {
        row.stories.clear();
    }
    assert_eq!(said.answer.unwrap().exploration, Ok(expected));
}

#[test]
fn a_null_value_and_an_absent_one_stay_apart_on_the_wire() {
    use super::race::{CauseView, SentOp};
    let cause = CauseView {
        index: Some(0),
        op: Some("test".into()),
        path: Some("/a".into()),
        message: "m".into(),
        expected: Some(Value::Null),
        actual: None,
    };
    let text = serde_json::to_string(&cause).unwrap();
    assert_eq!(serde_json::from_str::<CauseView>(&text).unwrap(), cause);
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::from_value::<CauseView>(value).unwrap(), cause);
    let op = SentOp {
        op: "add".into(),
        path: "/a".into(),
        value: Some(Value::Null),
    };
    let value = serde_json::to_value(&op).unwrap();
    assert_eq!(serde_json::from_value::<SentOp>(value).unwrap(), op);
}

#[test]
fn a_scale_run_comes_in_growing_parts_then_the_whole_run() {
    let options = MigrateOptions {
        vms: 120,
        seed: 5,
        churn: 1,
        ..MigrateOptions::default()
    };
    let whole = migrate(&options).unwrap();
    let mut run = ScaleRun::start(&options, &mut WarmTables::default()).unwrap();
    let parts: Vec<_> = std::iter::from_fn(|| run.step(100)).collect();
    assert_eq!(parts.len(), 120 * 7 / 100 + 1);
    let mut last_writes = 0;
    for part in &parts[..parts.len() - 1] {
        assert_eq!(part.total, 120 * 7);
        assert_eq!(part.vmis, part.done / 7);
        let writes: u64 = part.result.presets.iter().map(|p| p.total.writes).sum();
        assert!(writes > last_writes);
        last_writes = writes;
        // Every preset has all of the first `vmis` VMIs.
        for p in &part.result.presets {
            let ok: u64 = p.writers.iter().map(|w| w.counts.ok).sum();
            assert!(ok >= part.vmis as u64, "{p:?}");
        }
    }
    assert_eq!(parts.last().map(|p| &p.result), Some(&whole));
    assert_eq!(run.step(100), None);
    // Through the worker: parts with `more`, then the whole, then nothing.
    let mut worker = Worker::new(TABLE);
    let question = Scale { options };
    worker.take(&Asking::new(&9, &question, Some(4)).text());
    let replies: Vec<String> = std::iter::from_fn(|| worker.work(&|| 0.0)).collect();
    let (last, parts) = replies.split_last().unwrap();
    assert!(parts.iter().all(|r| read_reply::<Scale>(r).more));
    let last = read_reply::<Scale>(last);
    assert!(!last.more && last.rev == 9);
    assert_eq!(last.answer.unwrap().result, whole);
    assert!(
        worker.caches().holds::<WarmTables>(),
        "the tables kept warm"
    );
    // Out of bounds: refused, typed.
    let said = through_the_wire(
        10,
        Scale {
            options: MigrateOptions {
                vms: 0,
                ..MigrateOptions::default()
            },
        },
    );
    assert_eq!(
        said.answer,
        Err(Failure::Refused(
            crate::sim::migrate::MigrateError::VmCount(0)
        ))
    );
}

#[test]
fn chunks_aim_at_the_target_time() {
    assert_eq!(next_chunk(1000, 10.0, 25.0), 2500);
    assert_eq!(next_chunk(1000, 1.0, 25.0), 4000, "at most fourfold");
    assert_eq!(next_chunk(1000, 100.0, 25.0), 250);
    assert_eq!(next_chunk(1000, 0.0, 25.0), 4000, "too fast to tell");
    assert_eq!(next_chunk(10, 100.0, 25.0), 64);
}

#[test]
fn questions_answered_in_page_are_answered_whole_or_not_at_all() {
    let mut worker = Worker::new(TABLE);
    let question = build(OLD, NEW, &[Preset::Merge]);
    let reply = worker.answer_text(&Asking::new(&REVS, &question, Some(1)).text());
    assert_eq!(
        *read_reply::<Build>(&reply).answer.unwrap(),
        answer(question)
    );
    let scale = Scale {
        options: MigrateOptions::default(),
    };
    let reply = worker.answer_text(&Asking::new(&1, &scale, Some(2)).text());
    assert!(Header::read(&reply).unwrap().misread.is_some(), "{reply}");
    assert!(!worker.busy());
}
