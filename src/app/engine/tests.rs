use super::*;

fn job(old: &str, new: &str, presets: &[Preset], revs: (u64, u64, u64)) -> BuildJob {
    BuildJob {
        revs: Revs {
            old: revs.0,
            new: revs.1,
            columns: revs.2,
        },
        old: old.into(),
        new: new.into(),
        columns: presets.iter().copied().map(ColumnSpec::of).collect(),
        kubernetes: KubeVersion::default(),
    }
}

const OLD: &str = "metadata:\n  name: vmi\n  labels: {a: '1'}\nstatus:\n  phase: Running\n";
const NEW: &str =
    "metadata:\n  name: vmi\n  labels: {a: '1', b: '2'}\nstatus:\n  phase: Succeeded\n";

#[test]
fn messages_round_trip_as_json() {
    let request = ToEngine::Build {
        id: 3,
        job: job(OLD, NEW, &[Preset::KubevirtMain], (1, 2, 3)),
    };
    assert_eq!(ToEngine::from_json(&request.to_json()).unwrap(), request);
    let lint = ToEngine::Lint {
        id: 4,
        body: "[]".into(),
    };
    assert_eq!(ToEngine::from_json(&lint.to_json()).unwrap(), lint);
    let answer = Engine::default().answer(request);
    assert_eq!(FromEngine::from_json(&answer.to_json()).unwrap(), answer);
    assert_eq!(FromEngine::Ready.to_json(), r#"{"type":"ready"}"#);
    let Err(FromEngine::Failed { id: 0, message, .. }) = ToEngine::from_json(r#"{"type":"x"}"#)
    else {
        panic!("unreadable requests fail")
    };
    assert!(message.contains("not an engine request"), "{message}");
}

#[test]
fn a_build_answer_is_what_the_engines_compute() {
    let presets = [Preset::KubevirtMain, Preset::KubevirtPerKey, Preset::Merge];
    let mut engine = Engine::default();
    let answer = engine.build(&job(OLD, NEW, &presets, (1, 2, 3)));
    assert_eq!(
        answer.old,
        Some(Parsed {
            rev: 1,
            error: None
        })
    );
    assert_eq!(
        answer.new,
        Some(Parsed {
            rev: 2,
            error: None
        })
    );
    let results = answer.results.unwrap();
    let budget = Budget::default();
    let (old, new) = (
        input::parse(OLD, &budget).unwrap().0,
        input::parse(NEW, &budget).unwrap().0,
    );
    for (column, preset) in results.columns.iter().zip(presets) {
        let options = ColumnSpec::of(preset).options();
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
            assert_eq!(
                op.findings
                    .iter()
                    .map(|f| f.rule.as_str())
                    .collect::<Vec<_>>(),
                expected
            );
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
    // The Fields table: each changed path once, a strategy per column
    // (none for the merge column's whole body).
    let paths: Vec<String> = results.fields.iter().map(|f| f.path.to_string()).collect();
    assert_eq!(paths, ["/metadata/labels", "/status/phase"]);
    assert_eq!(results.fields[0].change, "modified");
}

#[test]
fn ops_sent_by_two_columns_are_not_unique() {
    let presets = [Preset::KubevirtPerKey, Preset::KubevirtPerKey];
    let results = Engine::default()
        .build(&job(OLD, NEW, &presets, (1, 2, 3)))
        .results
        .unwrap();
    assert!(results
        .columns
        .iter()
        .all(|c| !c.ops.is_empty() && c.ops.iter().all(|o| !o.unique)));
    let one = Engine::default()
        .build(&job(OLD, NEW, &presets[..1], (1, 2, 3)))
        .results
        .unwrap();
    assert!(
        one.columns[0].ops.iter().all(|o| !o.unique),
        "one column: nothing to compare"
    );
}

#[test]
fn parse_errors_name_the_side_and_place_and_block_the_results() {
    let mut engine = Engine::default();
    let answer = engine.build(&job(OLD, "{\"metadata\": ]}", &[Preset::Merge], (4, 5, 6)));
    assert_eq!(answer.old.as_ref().unwrap().error, None);
    let error = answer.new.as_ref().unwrap().error.clone().unwrap();
    assert_eq!((error.line, error.column), (Some(1), Some(14)));
    assert_eq!(answer.new.as_ref().unwrap().rev, 5);
    assert!(answer.results.is_none());
    // The cached parse of an unchanged text is the same as a fresh one.
    let again = engine.build(&job(OLD, NEW, &[Preset::Merge], (4, 7, 6)));
    let fresh = Engine::default().build(&job(OLD, NEW, &[Preset::Merge], (4, 7, 6)));
    assert_eq!(again, fresh);
}

#[test]
fn a_diff_error_is_the_column_s_error() {
    // A list where the old object has a map: the merge diff still works,
    // a JSON patch diff of a non-object root does not.
    let answer = Engine::default().build(&job("[1]", "{}", &[Preset::KubevirtMain], (1, 2, 3)));
    let column = &answer.results.unwrap().columns[0];
    assert!(column.error.is_some());
    assert!(column.texts.is_none() && column.ops.is_empty());
}

#[test]
fn lint_answers_the_report_lint_writes() {
    let body = r#"[{"op":"add","path":"/metadata/labels/a","value":"b"}]"#;
    let FromEngine::Linted { id: 9, report } = Engine::default().answer(ToEngine::Lint {
        id: 9,
        body: body.into(),
    }) else {
        panic!("a lint answer")
    };
    let expected = lint::lint(body, &lint::Options::default()).unwrap();
    assert_eq!(report, serde_json::to_value(&expected).unwrap());
    let FromEngine::Failed {
        id: 10,
        kind,
        message,
    } = Engine::default().answer(ToEngine::Lint {
        id: 10,
        body: "[".into(),
    })
    else {
        panic!("bad input fails")
    };
    assert_eq!(kind, Some(RequestKind::Lint));
    assert!(!message.is_empty());
}

#[test]
fn explain_answers_what_check_s_panel_shows_and_the_message_reads_back() {
    use super::explained::{explain_error, ExplainRequest, ExplainView};
    let error =
        "The request is invalid: the server rejected our request due to an error in our request";
    let patch = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}}]"#;
    let object = r#"{"metadata":{"labels":{"a":"2"}}}"#;
    let request = ExplainRequest {
        rev: 4,
        error: error.into(),
        patch: patch.into(),
        object: object.into(),
        kubernetes: Some("1.30".parse().unwrap()),
    };
    let asked = ToEngine::Explain {
        id: 11,
        request: request.clone(),
    };
    assert_eq!(ToEngine::from_json(&asked.to_json()).unwrap(), asked);
    assert_eq!(
        ToEngine::explain_text(11, &request),
        asked.to_json(),
        "the Check module's writer of this request writes the same text"
    );
    assert_eq!(asked.kind(), RequestKind::Explain);
    let answer = Engine::default().answer(asked);
    let FromEngine::Explained { id: 11, view } = &answer else {
        panic!("an explain answer: {answer:?}")
    };
    let expected = explain_error(error, patch, object, request.kubernetes).unwrap();
    assert_eq!(view.as_deref(), Some(&ExplainView::of(&expected)));
    assert_eq!(
        view.as_ref().unwrap().class.as_ref().map(|c| c.1.as_str()),
        Some("test-failed"),
        "replayed on the object: decided"
    );
    assert_eq!(FromEngine::from_json(&answer.to_json()).unwrap(), answer);
    // A blank error text: no view, and the message says so with null.
    let blank = Engine::default().answer(ToEngine::Explain {
        id: 12,
        request: ExplainRequest {
            error: " \n".into(),
            ..request
        },
    });
    assert_eq!(blank, FromEngine::Explained { id: 12, view: None });
    assert!(blank.to_json().contains(r#""view":null"#));
}

#[test]
fn check_answers_what_check_s_view_shows_and_the_message_reads_back() {
    use super::checked::{CheckRequest, ObjectRead};
    use crate::lint::Rule;
    let request = CheckRequest {
        rev: 5,
        patch: r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"replace","path":"/metadata/labels","value":{"a":"1","b":"2"}}]"#.into(),
        object: "metadata:\n  labels: {a: '2'}\n".into(),
        semantics: crate::apply::Semantics::Kube,
    };
    let asked = ToEngine::Check {
        id: 13,
        request: request.clone(),
    };
    assert_eq!(ToEngine::from_json(&asked.to_json()).unwrap(), asked);
    assert_eq!(
        ToEngine::check_text(13, &request),
        asked.to_json(),
        "the Check module's writer of this request writes the same text"
    );
    assert_eq!(asked.kind(), RequestKind::Check);
    let answer = Engine::default().answer(asked);
    let FromEngine::Checked { id: 13, checked } = &answer else {
        panic!("a check answer: {answer:?}")
    };
    assert_eq!(**checked, request.answer());
    assert_eq!(checked.rev, 5);
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
        super::checked::fix_payload(&fix.op_texts(&patch.written)),
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
    assert_eq!(FromEngine::from_json(&answer.to_json()).unwrap(), answer);
    // Blank texts: nothing to check, said with null.
    let blank = Engine::default().answer(ToEngine::Check {
        id: 14,
        request: CheckRequest {
            patch: " \n".into(),
            object: "".into(),
            ..request
        },
    });
    assert!(blank.to_json().contains(r#""patch":null"#), "{blank:?}");
    assert_eq!(FromEngine::from_json(&blank.to_json()).unwrap(), blank);
}

#[test]
fn check_s_fixes_keep_the_ops_they_keep_by_reference_and_read_as_lint_wrote_them() {
    use super::checked::{fix_payload, CheckRequest};
    use crate::lint::{self, Options};
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
            &Options {
                object: serde_json::from_str(object).ok(),
                ..Options::default()
            },
        )
        .unwrap();
        let checked = CheckRequest {
            rev: 1,
            patch: text.as_str().into(),
            object: object.into(),
            semantics: crate::apply::Semantics::Kube,
        }
        .answer();
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
fn a_waiting_request_is_replaced_by_a_newer_one_of_its_kind() {
    let build = |id| ToEngine::Build {
        id,
        job: job(OLD, NEW, &[Preset::Merge], (1, 2, 3)),
    };
    let lint = |id| ToEngine::Lint {
        id,
        body: "[]".into(),
    };
    let mut inbox = Inbox::default();
    inbox.push(build(1));
    inbox.push(lint(2));
    inbox.push(build(3));
    inbox.push(build(4));
    assert_eq!(inbox.pop().map(|r| r.id()), Some(2));
    assert_eq!(inbox.pop().map(|r| r.id()), Some(4));
    assert!(inbox.pop().is_none() && inbox.is_empty());
}

#[test]
fn late_answers_of_replaced_requests_are_dropped() {
    let mut latest = Latest::default();
    let first = latest.issue(RequestKind::Build);
    let lint = latest.issue(RequestKind::Lint);
    let second = latest.issue(RequestKind::Build);
    let built = |id| FromEngine::Built {
        id,
        answer: Rc::new(BuildAnswer::default()),
    };
    assert!(!latest.current(&built(first)), "replaced");
    assert!(latest.current(&built(second)));
    assert!(latest.current(&FromEngine::Failed {
        id: lint,
        kind: Some(RequestKind::Lint),
        message: String::new()
    }));
    assert!(
        !latest.current(&FromEngine::Linted {
            id: second,
            report: Value::Null
        }),
        "an id of another kind"
    );
    assert!(latest.current(&FromEngine::Ready));
}

const POD_OLD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: one\n  - name: b\n    image: two\n";
const POD_NEW: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: one\n  - name: b\n    image: three\n";

#[test]
fn a_built_in_kind_takes_the_strategic_preset_a_custom_resource_does_not() {
    // A Pod: every preset, then strategic; the column is kubectl's
    // two-way strategic merge patch, as the core computes it.
    let presets = [Preset::KubevirtMain, Preset::Strategic];
    let results = Engine::default()
        .build(&job(POD_OLD, POD_NEW, &presets, (1, 2, 3)))
        .results
        .unwrap();
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
    let vmi = Engine::default()
        .build(&job(OLD, NEW, &[Preset::Strategic], (1, 2, 3)))
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
fn a_seed_answers_only_the_request_it_was_computed_for() {
    // A `<` in a text: written escaped, still the same request.
    let asked = job(
        &OLD.replace("'1'", "'<b>'"),
        NEW,
        &[Preset::KubevirtMain, Preset::KubevirtPerKey],
        (1, 2, 3),
    );
    let FromEngine::Built { answer, .. } = Engine::default().answer(ToEngine::Build {
        id: 1,
        job: asked.clone(),
    }) else {
        panic!("a build answer")
    };
    // What scripts/prerender.mjs writes, from the texts of the messages.
    let request = ToEngine::Build {
        id: 1,
        job: asked.clone(),
    }
    .to_json();
    let built = FromEngine::Built {
        id: 1,
        answer: Rc::clone(&answer),
    }
    .to_json();
    let slice = |text: &str, key: &str| {
        let at = text.find(key).unwrap() + key.len();
        text[at..text.len() - 1].replace('<', "\\u003c")
    };
    let text = format!(
        "{}\n{}",
        slice(&request, r#""job":"#),
        slice(&built, r#""answer":"#)
    );
    assert_eq!(text, Seed::text(&asked, &answer));
    assert!(!text.contains('<'));
    assert_eq!(Seed::answer_for(&text, &asked).unwrap(), Some(answer));
    // Another text, other columns, another release or other revisions:
    // not this answer.
    let mut other = asked.clone();
    other.new = "{}".into();
    assert_eq!(Seed::answer_for(&text, &other).unwrap(), None);
    let mut other = asked.clone();
    other.columns.pop();
    assert_eq!(Seed::answer_for(&text, &other).unwrap(), None);
    let mut other = asked.clone();
    other.revs.new = 7;
    assert_eq!(Seed::answer_for(&text, &other).unwrap(), None);
    let mut other = asked.clone();
    other.kubernetes = KubeVersion::new(KubeVersion::OLDEST_MINOR, None).unwrap();
    assert_ne!(other.kubernetes, asked.kubernetes);
    assert_eq!(Seed::answer_for(&text, &other).unwrap(), None);
    // The right request with a broken answer: an error, not a guess.
    let (job_line, _) = text.split_once('\n').unwrap();
    assert!(Seed::answer_for(&format!("{job_line}\n{{"), &asked).is_err());
}

#[test]
fn a_merge_column_shows_the_findings_check_shows_for_its_body() {
    // The merge patch of a finalizer added sends the whole list: Check
    // flags that body, so the merge column does too (issue #24, item 4).
    let old = "metadata:\n  name: vmi\n  finalizers: [a]\n";
    let new = "metadata:\n  name: vmi\n  finalizers: [a, b]\n";
    let mut engine = Engine::default();
    let answer = engine.build(&job(old, new, &[Preset::Merge, Preset::Naive], (1, 2, 3)));
    let results = answer.results.unwrap();
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

/// A conversion says which side does not parse, and where; both sides
/// rewritten otherwise, as a Convert request answers.
#[test]
fn a_conversion_names_the_side_that_does_not_parse() {
    let mut engine = Engine::default();
    let (old, new): (Rc<str>, Rc<str>) = (OLD.into(), "a: [1\nb: 2\n".into());
    let error = engine.convert(Format::Json, &old, &new).unwrap_err();
    assert_eq!(error.side, crate::strategy::Side::New);
    assert!(error.error.line.is_some(), "{:?}", error.error);
    assert_eq!(error.to_string(), CANNOT_CONVERT);
    let (json, _) = engine.convert(Format::Json, &old, &old).unwrap();
    assert!(json.starts_with("{\n  \"metadata\""), "{json}");
    let answer = engine.answer(ToEngine::Convert {
        id: 5,
        format: Format::Json,
        old: Rc::clone(&old),
        new,
    });
    assert_eq!(
        answer,
        FromEngine::Failed {
            id: 5,
            kind: Some(RequestKind::Convert),
            message: CANNOT_CONVERT.into()
        }
    );
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
    let mut engine = Engine::default();
    let request = ToEngine::Build {
        id: 9,
        job: job(old, new, &[Preset::KubevirtMain, Preset::Naive], (1, 2, 3)),
    };
    let answer = engine.answer(request);
    let FromEngine::Built { answer: built, .. } = &answer else {
        panic!("{answer:?}")
    };
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
    let mut value: Value = serde_json::from_str(&answer.to_json()).unwrap();
    value["answer"]["results"]["columns"][0]
        .as_object_mut()
        .unwrap()
        .remove("rules");
    let error = FromEngine::from_json(&value.to_string()).unwrap_err();
    assert!(error.to_string().contains("rules"), "{error}");
}

#[test]
fn read_yaml_reads_each_text_and_the_messages_read_back() {
    use super::ReadText;
    let texts: Vec<Rc<str>> = vec![
        Rc::from("- set-label: {key: a, value: b}\n"),
        Rc::from("/metadata/labels: ["),
        Rc::from(""),
        Rc::from("n: 0.1\nbig: 12345678901234567890\n"),
    ];
    let asked = ToEngine::ReadYaml {
        id: 3,
        texts: texts.clone(),
    };
    assert_eq!(
        ToEngine::read_yaml_text(3, &texts),
        asked.to_json(),
        "the Race module's writer of this request writes the same text"
    );
    assert_eq!(ToEngine::from_json(&asked.to_json()).unwrap(), asked);
    assert_eq!(asked.kind(), RequestKind::ReadYaml);
    let answer = Engine::default().answer(asked);
    let FromEngine::YamlRead { id: 3, values } = &answer else {
        panic!("a yaml-read answer: {answer:?}")
    };
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
    let back = FromEngine::from_json(&answer.to_json()).unwrap();
    assert_eq!(back, answer);
    assert_eq!(super::wire::yaml_read(&answer.to_json()).unwrap(), *values);
    assert!(super::wire::yaml_read(r#"{"type":"yaml-read","id":3}"#).is_err());
}

#[test]
fn a_read_text_reads_back_by_hand_as_serde_writes_it() {
    use super::ReadText;
    for text in [
        "a: 1\nb: [x, 0.5]\n",
        "a: [",
        "",
        "- 1\n- {c: null}\n",
        "\tx: 1",
    ] {
        let read = ReadText::of(text);
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(
            ReadText::from_value(written.clone()),
            Some(read.clone()),
            "{written}"
        );
        assert_eq!(serde_json::from_value::<ReadText>(written).unwrap(), read);
    }
    for bad in [
        serde_json::json!({}),
        serde_json::json!({"error": {"line": 1}}),
        serde_json::json!({"error": {"message": "m", "line": -1}}),
        serde_json::json!({"value": 1, "error": {"message": "m"}}),
        serde_json::json!([1]),
    ] {
        assert_eq!(ReadText::from_value(bad.clone()), None, "{bad}");
    }
}

#[test]
fn race_answers_what_race_s_view_shows_and_the_message_reads_back() {
    use super::raced::{kept_bytes, RaceRequest, ReplayView, OTHER_RUNS_BYTES};
    use crate::sim::timeline::replay;
    let scenario = migration_race();
    let request = RaceRequest {
        rev: 21,
        scenario: scenario.clone(),
        preset: Some(Preset::Naive),
    };
    let asked = ToEngine::Race {
        id: 14,
        request: request.clone(),
    };
    assert_eq!(ToEngine::from_json(&asked.to_json()).unwrap(), asked);
    assert_eq!(
        ToEngine::race_text(14, &request),
        asked.to_json(),
        "the Race module's writer of this request writes the same text"
    );
    assert_eq!(asked.kind(), RequestKind::Race);
    let answer = Engine::default().answer(asked);
    let FromEngine::Raced { id: 14, raced } = &answer else {
        panic!("a race answer: {answer:?}")
    };
    assert_eq!(raced.rev, 21);
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
    assert_eq!(FromEngine::from_json(&answer.to_json()).unwrap(), answer);
    // A scenario that cannot run: why, and nothing else.
    let broken = Engine::default().answer(ToEngine::Race {
        id: 15,
        request: RaceRequest {
            scenario: crate::sim::timeline::Scenario {
                objects: Vec::new(),
                ..scenario
            },
            ..request
        },
    });
    let FromEngine::Raced { raced, .. } = &broken else {
        panic!("a race answer: {broken:?}")
    };
    // Why, typed as the simulator says it, through the wire.
    assert_eq!(
        raced.replay,
        Err(crate::sim::timeline::ScenarioError::NoObjects)
    );
    assert!(raced.compare.is_none() && raced.story.is_none());
    assert_eq!(FromEngine::from_json(&broken.to_json()).unwrap(), broken);
}

#[test]
fn explore_answers_the_explorer_s_table_without_stories() {
    use super::raced::ExploreRequest;
    let scenario = migration_race();
    let request = ExploreRequest {
        rev: 8,
        scenario: scenario.clone(),
    };
    let asked = ToEngine::Explore {
        id: 16,
        request: request.clone(),
    };
    assert_eq!(ToEngine::from_json(&asked.to_json()).unwrap(), asked);
    assert_eq!(ToEngine::explore_text(16, &request), asked.to_json());
    assert_eq!(asked.kind(), RequestKind::Explore);
    let answer = Engine::default().answer(asked);
    let FromEngine::Explored { id: 16, explored } = &answer else {
        panic!("an explore answer: {answer:?}")
    };
    assert_eq!(explored.rev, 8);
    let mut expected = crate::sim::explore::explore(&scenario, &[]).unwrap();
    for row in &mut expected.presets {
        row.stories.clear();
    }
    assert_eq!(explored.exploration, Ok(expected));
    assert_eq!(FromEngine::from_json(&answer.to_json()).unwrap(), answer);
}

#[test]
fn a_null_value_and_an_absent_one_stay_apart_on_the_wire() {
    use super::raced::{CauseView, SentOp};
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

/// The shipped scenario `migration-race`, read from its file.
fn migration_race() -> crate::sim::timeline::Scenario {
    crate::sim::timeline::Scenario::parse(include_str!(
        "../../../www/scenarios/migration-race.yaml"
    ))
    .unwrap()
}

#[test]
fn the_page_s_writers_write_what_the_engines_read() {
    let job = BuildJob {
        revs: Revs {
            old: 1,
            new: 2,
            columns: 3,
        },
        old: r#"{"a":1}"#.into(),
        new: "a: 2\n".into(),
        columns: vec![ColumnSpec::of(Preset::KubevirtMain)],
        kubernetes: Default::default(),
    };
    let build = ToEngine::Build {
        id: 4,
        job: job.clone(),
    };
    assert_eq!(ToEngine::build_text(4, &job), build.to_json());
    let (old, new): (Rc<str>, Rc<str>) = ("{}".into(), "b: 1\n".into());
    let convert = ToEngine::Convert {
        id: 5,
        format: Format::Yaml,
        old: old.clone(),
        new: new.clone(),
    };
    assert_eq!(
        ToEngine::convert_text(5, Format::Yaml, &old, &new),
        convert.to_json()
    );
    assert_eq!(ToEngine::from_json(&convert.to_json()).unwrap(), convert);
}
