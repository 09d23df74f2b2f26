//! The rule table's own tests: every rule fires on its example and is
//! silent on the fixed version and on its own fix; the docs match the
//! table; the output formats keep their shape.

use serde_json::{json, Value};

use super::report::{self, Source};
use super::*;

fn options(object: Option<&str>) -> Options {
    Options {
        object: object.map(|text| serde_json::from_str(text).expect("example object")),
        ..Options::default()
    }
}

fn rules(report: &Report) -> Vec<Rule> {
    report.findings.iter().map(|f| f.rule).collect()
}

/// Every rule lint runs (Go examples: `scan`'s tests run them, in
/// tests/scan.rs), with its example and the options to lint it with.
fn examples() -> impl Iterator<Item = (Rule, Example, Options)> {
    Rule::ALL
        .into_iter()
        .filter(|rule| rule.info().applies_to != AppliesTo::GoSource)
        .map(|rule| {
            let example = rule.example();
            let options = options(example.object);
            (rule, example, options)
        })
}

/// The findings at warning or above, but for the bounds on the body.
fn loud(report: &Report) -> Vec<&Finding> {
    let bound = |f: &&Finding| matches!(f.rule, Rule::TooManyOps | Rule::BodyTooLarge);
    let loud = |f: &&Finding| f.severity >= Severity::Warning && !bound(f);
    report.findings.iter().filter(loud).collect()
}

#[test]
fn table_is_in_enum_order() {
    assert_eq!(RULES.len(), Rule::ALL.len());
    for (i, rule) in Rule::ALL.iter().enumerate() {
        assert_eq!(RULES[i].rule, *rule, "row {i}");
        assert_eq!(rule.as_str().parse::<Rule>(), Ok(*rule));
        let name = rule.as_str();
        assert!(
            name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{name} is kebab-case"
        );
        assert!(!RULES[i].explanation.is_empty() && !RULES[i].fix.is_empty());
    }
}

/// Every rule: fires on its example, is silent on the fixed version, and
/// is silent on the fix lint itself proposes.
#[test]
fn each_rule_fires_on_its_example_and_not_on_the_fix() {
    for (rule, example, options) in examples() {
        let report = lint(&example.patch, &options)
            .unwrap_or_else(|e| panic!("{rule}: example unreadable: {e}"));
        let finding = report
            .findings
            .iter()
            .find(|f| f.rule == rule)
            .unwrap_or_else(|| panic!("{rule} does not fire on its example: {:?}", rules(&report)));
        assert_eq!(finding.severity, rule.severity(), "{rule}");
        if let (Some(index), Some(path)) = (finding.index, &finding.path) {
            assert!(
                finding.message.contains(&format!("op {index}"))
                    && finding.message.contains(path.as_str()),
                "{rule}: the message names op {index} and {path}: {}",
                finding.message
            );
        }
        let fixed = lint(&example.fixed, &options)
            .unwrap_or_else(|e| panic!("{rule}: fixed example unreadable: {e}"));
        assert!(
            !rules(&fixed).contains(&rule),
            "{rule} fires on its fixed example: {:?}",
            fixed.findings
        );
        if let Some(fix) = &finding.fix {
            let again = lint_ops(&fix.ops, &options);
            assert!(
                !rules(&again).contains(&rule),
                "{rule} fires on its own fix {}: {:?}",
                fix.payload(),
                again.findings
            );
        }
    }
}

/// The fixes that matter most, op for op.
#[test]
fn fixes_are_the_ops_to_send() {
    let cases: [(Rule, &str); 7] = [
        (
            Rule::WholeMapTest,
            r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#,
        ),
        (
            Rule::WholeListTest,
            r#"[{"op":"test","path":"/metadata/finalizers/0","value":"kubevirt.io/virtualMachineControllerFinalize"},{"op":"remove","path":"/metadata/finalizers/0"}]"#,
        ),
        (
            Rule::UnescapedSlash,
            r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1nodeName","value":"node02"}]"#,
        ),
        (
            Rule::InvalidPointer,
            r#"[{"op":"remove","path":"/metadata/annotations/example.com~0team"}]"#,
        ),
        (
            Rule::TestNeverMatches,
            r#"[{"op":"test","path":"/spec/replicas","value":1},{"op":"replace","path":"/spec/replicas","value":2}]"#,
        ),
        (
            Rule::IndexWithoutTest,
            r#"[{"op":"test","path":"/metadata/finalizers/0","value":"kubevirt.io/virtualMachineControllerFinalize"},{"op":"remove","path":"/metadata/finalizers/0"}]"#,
        ),
        (
            Rule::EngineDependent,
            r#"[{"op":"test","path":"/metadata/finalizers/1","value":"foregroundDeleteVirtualMachine"},{"op":"remove","path":"/metadata/finalizers/1"}]"#,
        ),
    ];
    for (rule, expected) in cases {
        let example = rule.example();
        let report = lint(&example.patch, &options(example.object)).unwrap();
        let finding = report.findings.iter().find(|f| f.rule == rule).unwrap();
        assert_eq!(
            finding.fix.as_ref().map(Fix::payload).as_deref(),
            Some(expected),
            "{rule}"
        );
    }
}

#[test]
fn silent_on_a_clean_per_key_patch() {
    let report = lint(
        r#"[{"op":"test","path":"/metadata/labels/app","value":"web"},{"op":"replace","path":"/metadata/labels/app","value":"db"}]"#,
        &Options::default(),
    )
    .unwrap();
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.conflicts[0].path, "/metadata/labels/app");
}

#[test]
fn the_object_decides_what_applies() {
    let object = json!({"metadata": {"labels": {"a": "1"}}, "status": {"phase": "Running"}});
    let payload = r#"[{"op":"test","path":"/status/phase","value":"Scheduled"},{"op":"replace","path":"/status/phase","value":"Running"}]"#;
    let mut opts = Options {
        object: Some(object.clone()),
        ..Options::default()
    };
    let report = lint(payload, &opts).unwrap();
    let outcome = report.outcome.as_ref().unwrap();
    assert!(!outcome.applies);
    assert_eq!(outcome.index, Some(0));
    assert_eq!(outcome.response.as_ref().map(|r| r.code), Some(422));
    assert_eq!(rules(&report), [Rule::FailsNow]);
    // A replace of a missing member: an add on the server, a failure in RFC mode.
    let payload = r#"[{"op":"replace","path":"/status/reason","value":"x"}]"#;
    let report = lint(payload, &opts).unwrap();
    assert!(report.outcome.as_ref().unwrap().applies);
    assert_eq!(rules(&report), [Rule::EngineDependent]);
    opts.semantics = Semantics::Rfc;
    let report = lint(payload, &opts).unwrap();
    assert!(!report.outcome.as_ref().unwrap().applies);
    assert_eq!(report.outcome.as_ref().unwrap().response, None);
    assert!(rules(&report).contains(&Rule::FailsNow));
    // The same patch without an object: no outcome, no guess.
    let report = lint(payload, &Options::default()).unwrap();
    assert!(report.outcome.is_none() && report.findings.is_empty());
}

#[test]
fn unescaped_keys_found_from_the_object_too() {
    let object = json!({"spec": {"nodeSelector": {"kubernetes.io/hostname": "node01"}}});
    let report = lint(
        r#"[{"op":"replace","path":"/spec/nodeSelector/kubernetes.io/hostname","value":"node02"}]"#,
        &Options {
            object: Some(object),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(
        rules(&report).contains(&Rule::UnescapedSlash),
        "{:?}",
        report.findings
    );
    let finding = &report.findings[0];
    assert_eq!(
        finding.fix.as_ref().unwrap().payload(),
        r#"[{"op":"replace","path":"/spec/nodeSelector/kubernetes.io~1hostname","value":"node02"}]"#
    );
}

#[test]
fn test_after_write_that_repeats_the_value_is_dropped() {
    let report = lint(
        r#"[{"op":"add","path":"/a","value":1},{"op":"test","path":"/a","value":1}]"#,
        &Options::default(),
    )
    .unwrap();
    let finding = report
        .findings
        .iter()
        .find(|f| f.rule == Rule::TestAfterWrite)
        .unwrap();
    assert_eq!(
        finding.fix.as_ref().unwrap().payload(),
        r#"[{"op":"add","path":"/a","value":1}]"#
    );
    assert!(
        finding.message.contains("always passes"),
        "{}",
        finding.message
    );
}

#[test]
fn unreadable_input_is_an_error_with_a_place() {
    type Place = (Option<usize>, Option<usize>);
    let cases: [(&str, &str, Place, Option<usize>); 3] = [
        (
            "[1]",
            "patch: op 0: is not a JSON object",
            (None, None),
            Some(0),
        ),
        ("\"hello\"", "found a string", (None, None), None),
        ("a: [1,\n", "patch: line", (Some(2), Some(1)), None),
    ];
    for (text, message, location, index) in cases {
        let err = lint(text, &Options::default()).unwrap_err();
        assert!(
            err.to_string().starts_with(message) || err.to_string().contains(message),
            "{text}: {err}"
        );
        assert_eq!(err.location(), location, "{text}: {err}");
        assert_eq!(err.index(), index, "{text}");
    }
    // JSON the server cannot decode either is its 400, as a finding.
    let report = lint("[{\"op\":\"add\",\n \"path\": }]", &Options::default()).unwrap();
    assert_eq!(rules(&report), [Rule::UndecodableBody]);
    assert_eq!(
        report.findings[0].message,
        "the server cannot decode this body as application/json-patch+json (line 2, column 10): it answers 400 BadRequest: error decoding patch: invalid character '}' looking for beginning of value; nothing is applied"
    );
    // A malformed op inside a good array is a finding, not an error.
    let report = lint(
        r#"[{"op":"upsert","path":"/a","value":1}]"#,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(rules(&report), [Rule::MalformedOp]);
}

#[test]
fn yaml_is_sent_as_go_encodes_it() {
    // In YAML, 1.0 is a number; the JSON Go writes for it is 1: no finding.
    let report = lint(
        "- op: test\n  path: /spec/replicas\n  value: 1.0\n",
        &Options::default(),
    )
    .unwrap();
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let input = read("- op: test\n  path: /a\n  value: \"<b>\"\n", &budget()).unwrap();
    assert_eq!(
        input.payload,
        r#"[{"op":"test","path":"/a","value":"\u003cb\u003e"}]"#
    );
    assert_eq!(input.origin, Origin::Yaml);
}

#[test]
fn merge_patches_report_lists_and_nulls() {
    let body = r#"{"metadata":{"labels":{"a":null,"b":"2"},"finalizers":["x"]}}"#;
    let report = lint(body, &Options::default()).unwrap();
    assert_eq!(report.kind, BodyKind::MergePatch);
    let found: Vec<(Rule, Option<&str>)> = report
        .findings
        .iter()
        .map(|f| (f.rule, f.path.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (Rule::MergeReplacesList, Some("/metadata/finalizers")),
            (Rule::MergeNullDeletes, Some("/metadata/labels/a")),
        ]
    );
    assert!(
        report.findings.iter().all(|f| f.fix.is_none()),
        "no fix without the object"
    );
    // With the object, the fix is the JSON patch PR #18139 would send.
    let object = json!({"metadata": {"labels": {"a": "1"}, "finalizers": ["x", "y"]}});
    let report = lint(
        body,
        &Options {
            object: Some(object),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(
        report.findings[0].fix.as_ref().unwrap().payload(),
        r#"[{"op":"test","path":"/metadata/finalizers","value":["x","y"]},{"op":"replace","path":"/metadata/finalizers","value":["x"]},{"op":"remove","path":"/metadata/labels/a"},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#
    );
    assert!(report.outcome.as_ref().unwrap().applies);
}

#[test]
fn json_output_has_the_documented_shape() {
    let example = Rule::WholeMapTest.example();
    let report = lint(&example.patch, &Options::default()).unwrap();
    let value = report::json(&report);
    let finding = &value["findings"][0];
    for key in ["rule", "severity", "index", "path", "message", "fix"] {
        assert!(finding.get(key).is_some(), "findings[0].{key}");
    }
    assert_eq!(finding["rule"], "whole-map-test");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["index"], 0);
    assert_eq!(finding["fix"][0]["op"], "add");
    assert_eq!(value["kind"], "json-patch");
    assert_eq!(value["semantics"], "kube");
    assert_eq!(value["opCount"], 2);
    assert_eq!(value["outcome"], Value::Null);
    assert_eq!(value["conflicts"][0]["path"], "/metadata/labels");
}

/// The SARIF 2.1.0 fields a consumer needs (the schema's required ones:
/// `version`, `runs`, `tool.driver.name`, `result.message`), and the
/// values it allows for `level`.
#[test]
fn sarif_has_the_required_shape() {
    let payload = "[\n  {\"op\":\"add\",\"path\":\"/metadata/labels/a/b\",\"value\":\"x\"},\n  {\"op\":\"remove\",\"path\":\"/metadata/finalizers/1\"}\n]";
    let report = lint(payload, &Options::default()).unwrap();
    let log = report::sarif(&report, &Source::new("patch.json", Some(payload)));
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "patchlab");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RULES.len());
    for rule in rules {
        assert!(rule["id"].is_string() && rule["shortDescription"]["text"].is_string());
        assert!(["error", "warning", "note"]
            .contains(&rule["defaultConfiguration"]["level"].as_str().unwrap()));
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), report.findings.len());
    assert!(!results.is_empty());
    for result in results {
        assert!(result["message"]["text"].is_string());
        assert!(["error", "warning", "note", "none"].contains(&result["level"].as_str().unwrap()));
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "patch.json");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 2);
    }
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"],
        json!({"startLine": 2, "startColumn": 3})
    );
}

#[test]
fn op_locations_point_at_each_op() {
    let payload = "[{\"op\":\"remove\",\"path\":\"/a\"},\n  {\"op\":\"remove\",\"path\":\"/é\"}, {\"op\":\"remove\",\"path\":\"/b\"}]";
    assert_eq!(report::op_locations(payload), [(1, 2), (2, 3), (2, 32)]);
    assert!(report::op_locations("{}").is_empty());
}

#[test]
fn text_output_reads_like_a_compiler() {
    let example = Rule::UnescapedSlash.example();
    let report = lint(&example.patch, &Options::default()).unwrap();
    let text = report::text(&report, &Source::new("p.json", Some(&example.patch)));
    assert!(
        text.starts_with(
            "error[unescaped-slash]: op 0 (add /metadata/labels/kubevirt.io/nodeName)"
        ),
        "{text}"
    );
    assert!(
        text.contains("  --> p.json:1:2 (op 0 /metadata/labels/kubevirt.io/nodeName)"),
        "{text}"
    );
    assert!(text.contains("   = fix: "), "{text}");
    assert!(text.trim_end().ends_with("1 error"), "{text}");
}

/// docs/lint.md is generated from the rule table: it cannot drift.
#[test]
fn docs_match_the_rule_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lint.md");
    let expected = report::markdown();
    if std::env::var_os("PATCHLAB_BLESS").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/lint.md differs from the rule table: run PATCHLAB_BLESS=1 cargo test --lib lint::"
    );
    for info in &RULES {
        assert!(
            actual.contains(&format!("\n## {}\n", info.name)),
            "{}",
            info.name
        );
    }
}

/// A fix is the whole patch: on a big patch, the findings of one rule
/// fold into a bounded few (the last one counts the rest and fixes them
/// all at once), and the fixes stay within a budget proportional to the
/// patch.
#[test]
fn fixes_of_a_big_patch_stay_within_budget() {
    let ops: Vec<String> = (0..2000)
        .map(|i| format!(r#"{{"op":"add","path":"/metadata/labels/k{i}","value":"v"}}"#))
        .collect();
    let payload = format!("[{}]", ops.join(","));
    let report = lint(
        &payload,
        &Options {
            object: Some(json!({"metadata": {"labels": {}}})),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(report.findings.len(), SHOWN_PER_RULE + 1);
    assert!(report
        .findings
        .iter()
        .all(|f| f.rule == Rule::AddWithoutTest));
    let folded = report.findings.last().unwrap();
    let group = folded.folded.as_ref().unwrap();
    assert_eq!(group.count, 2000 - SHOWN_PER_RULE);
    assert_eq!(group.indices.len(), 100);
    assert!(report.on_op(104).any(|f| std::ptr::eq(f, folded)));
    // One fix for the folded 1,995: a test before each.
    let fix = folded.fix.as_ref().unwrap();
    assert_eq!(fix.ops.len(), 2000 + 1995);
    let held: usize = report
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .map(|f| f.ops.len())
        .sum();
    assert!(held <= 2000 * FIX_OPS_PER_OP + FIX_OPS_BASE, "{held}");
    assert!(report.outcome.unwrap().applies);
}

/// Every fixed example docs/lint.md shows, and every fix lint proposes for
/// an example, lints clean: nothing at warning or above.
#[test]
fn every_fix_shown_lints_clean() {
    for (rule, example, options) in examples() {
        let fixed = lint(&example.fixed, &options)
            .unwrap_or_else(|e| panic!("{rule}: fixed example unreadable: {e}"));
        let loud_fixed = loud(&fixed);
        assert!(
            loud_fixed.is_empty(),
            "{rule}: the fixed example is not clean: {loud_fixed:#?}"
        );
        let report = lint(&example.patch, &options).unwrap();
        for finding in report.findings.iter().filter(|f| f.rule == rule) {
            if let Some(fix) = &finding.fix {
                let again = lint(&fix.payload(), &options).unwrap();
                let loud_again = loud(&again);
                assert!(
                    loud_again.is_empty(),
                    "{rule}: its fix {} is not clean: {loud_again:#?}",
                    fix.payload()
                );
                assert_ne!(
                    fix.payload(),
                    example.patch.as_ref(),
                    "{rule}: the fix is the input"
                );
            }
        }
    }
}

/// Off a live object, the rules about concurrent writers and the server's
/// request limits do not apply; at build time an index past the first
/// element is a finding of its own, with the build's words.
#[test]
fn where_the_patch_goes_decides_what_is_judged() {
    let patch = r#"[{"op":"remove","path":"/rules/10"},{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx"},{"op":"replace","path":"/metadata/finalizers","value":[]},{"op":"add","path":"/metadata/labels/a","value":"b"}]"#;
    let input = read(patch, &budget()).unwrap();
    let live = lint_input(&input, &Options::default()).unwrap();
    assert!(
        rules(&live).contains(&Rule::WholeCollectionWrite),
        "{:?}",
        rules(&live)
    );
    assert!(live.context.is_none());
    for (context, kept) in [
        (context::Context::Kustomize, vec![Rule::IndexWithoutTest]),
        (
            context::Context::HelmPostRenderer,
            vec![Rule::IndexWithoutTest],
        ),
        (context::Context::WebhookResponse, vec![]),
        (context::Context::RestoreTime, vec![]),
    ] {
        let options = Options {
            context,
            ..Options::default()
        };
        let report = lint_input(&input, &options).unwrap();
        assert_eq!(rules(&report), kept, "{context:?}");
        assert!(report.conflicts.is_empty() && report.overwrites.is_empty());
        if let Some(finding) = report.findings.first() {
            assert_eq!(finding.path.as_deref(), Some("/rules/10"));
            assert!(
                finding
                    .message
                    .contains(&format!("in manifests {} builds from", context.as_str())),
                "{}",
                finding.message
            );
        }
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["context"], context.as_str());
        let text = report::text(&report, &Source::new("p", None));
        assert!(
            text.contains(&format!("where ({}): ", context.as_str())),
            "{text}"
        );
        assert!(!text.contains("conflict surface"), "{text}");
    }
    // What breaks anywhere still does: a malformed op, an invalid pointer.
    let bad = read(
        r#"[{"op":"upsert","path":"/a","value":1},{"op":"add","path":"a","value":1}]"#,
        &budget(),
    )
    .unwrap();
    let options = Options {
        context: context::Context::WebhookResponse,
        ..Options::default()
    };
    let report = lint_input(&bad, &options).unwrap();
    assert!(
        rules(&report).contains(&Rule::MalformedOp),
        "{:?}",
        rules(&report)
    );
}

/// A Pod's containers cannot be reordered or removed once it exists (the
/// API server refuses it), so an index into them names one container for
/// good; a Deployment's pod template can change under you.
#[test]
fn an_index_into_a_pods_containers_is_stable() {
    let patch = r#"[{"op":"replace","path":"/spec/containers/2/image","value":"nop"}]"#;
    let input = read(patch, &budget()).unwrap();
    let lint_as = |kind: &str| {
        let options = Options {
            kind: Some(kind.to_owned()),
            ..Options::default()
        };
        rules(&lint_input(&input, &options).unwrap())
    };
    assert!(!lint_as("Pod").contains(&Rule::IndexWithoutTest));
    let template =
        r#"[{"op":"replace","path":"/spec/template/spec/containers/2/image","value":"nop"}]"#;
    let input = read(template, &budget()).unwrap();
    let options = Options {
        kind: Some("Deployment".to_owned()),
        ..Options::default()
    };
    assert!(rules(&lint_input(&input, &options).unwrap()).contains(&Rule::IndexWithoutTest));
    // Other lists of a Pod still move.
    let conditions = read(
        r#"[{"op":"remove","path":"/status/conditions/1"}]"#,
        &budget(),
    )
    .unwrap();
    let options = Options {
        kind: Some("Pod".to_owned()),
        ..Options::default()
    };
    assert!(rules(&lint_input(&conditions, &options).unwrap()).contains(&Rule::IndexWithoutTest));
}

#[test]
fn a_kustomization_is_read_as_its_patches_where_they_go() {
    let text = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [deployment.yaml]\npatches:\n- target: {kind: Deployment, name: web}\n  patch: |-\n    - op: replace\n      path: /spec/template/spec/containers/1/image\n      value: nginx:latest\n- path: extra.yaml\n- patch: |-\n    apiVersion: v1\n    kind: Node\n    metadata: {name: n}\n    spec:\n      taints: [{key: a, effect: NoSchedule}]\n";
    let report = lint(text, &Options::default()).unwrap();
    assert_eq!(report.context, Some(context::Context::Kustomize));
    assert_eq!(rules(&report), [Rule::IndexWithoutTest, Rule::BodyUnknown]);
    // Each message says which patch; the first patch's op keeps its index.
    assert!(report.findings[0]
        .message
        .starts_with("patches[0] (Deployment web): op 0"));
    assert_eq!(report.findings[0].index, Some(0));
    assert!(report.findings[1]
        .message
        .starts_with("patches[1] is the file extra.yaml"));
    // The Node patch is a strategic merge patch kustomize reads as YAML
    // 1.2: `n` is a name, not a boolean; its taints meet no other writer
    // at build time.
    assert!(!report
        .findings
        .iter()
        .any(|f| f.message.contains("patches[2]")));
    // Flux's Kustomization: the same patches under spec, its JSON 6902
    // patch a list of ops.
    let flux = r#"{"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","spec":{"patches":[{"target":{"kind":"Deployment"},"patch":"- op: remove\n  path: /spec/template/spec/containers/2\n"}]}}"#;
    let report = lint(flux, &Options::default()).unwrap();
    assert_eq!(report.context, Some(context::Context::Kustomize));
    assert_eq!(rules(&report), [Rule::IndexWithoutTest]);
    // An explicit --context wins.
    let options = Options {
        context: context::Context::Live,
        ..Options::default()
    };
    assert_eq!(
        lint(flux, &options).unwrap().context,
        Some(context::Context::Kustomize)
    );
}

#[test]
fn an_admission_review_is_read_as_its_response_patch() {
    use base64::Engine as _;
    let patch = r#"[{"op":"add","path":"/metadata/labels","value":{"injected":"true"}}]"#;
    let encoded = base64::engine::general_purpose::STANDARD.encode(patch);
    let review = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "response": {"uid": "u", "allowed": true, "patchType": "JSONPatch", "patch": encoded}});
    let report = lint(&review.to_string(), &Options::default()).unwrap();
    // The request's own object: adding the whole label map meets no other
    // writer, so nothing to say.
    assert_eq!(report.context, Some(context::Context::WebhookResponse));
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.op_count, 1);
    let live = lint(patch, &Options::default()).unwrap();
    assert_eq!(rules(&live), [Rule::WholeCollectionWrite]);
    // A patch that is not base64 says where.
    let bad = json!({"kind": "AdmissionReview", "response": {"patch": "%%%"}});
    let err = lint(&bad.to_string(), &Options::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("patch: response.patch: not base64"),
        "{err}"
    );
}

#[test]
fn an_empty_collection_added_over_what_is_there_is_a_finding() {
    let options = Options {
        kind: Some("ClusterPolicy".to_owned()),
        ..Options::default()
    };
    let add = r#"[{"op":"add","path":"/spec/devicePlugin/env","value":[]}]"#;
    let report = lint(add, &options).unwrap();
    assert_eq!(rules(&report), [Rule::WholeCollectionWrite]);
    assert!(report.findings[0]
        .message
        .contains("adds an empty list with no test"));
    // The fix: it must still be absent.
    assert_eq!(
        report.findings[0].fix.as_ref().unwrap().payload(),
        r#"[{"op":"test","path":"/spec/devicePlugin/env","value":null},{"op":"add","path":"/spec/devicePlugin/env","value":[]}]"#
    );
    // Guarded, or with an object where it is absent or empty: nothing.
    let guarded = r#"[{"op":"test","path":"/spec/devicePlugin/env","value":null},{"op":"add","path":"/spec/devicePlugin/env","value":[]}]"#;
    // (the test of null is engine-dependent: a note of its own)
    assert_eq!(
        rules(&lint(guarded, &options).unwrap()),
        [Rule::EngineDependent]
    );
    for object in [
        json!({"spec": {"devicePlugin": {}}}),
        json!({"spec": {"devicePlugin": {"env": []}}}),
    ] {
        let with = Options {
            object: Some(object.clone()),
            ..options.clone()
        };
        assert!(lint(add, &with).unwrap().findings.is_empty(), "{object}");
    }
    // An element appended, or a non-empty value: not this rule.
    let append = r#"[{"op":"add","path":"/spec/devicePlugin/env/-","value":{}}]"#;
    assert!(lint(append, &options).unwrap().findings.is_empty());
}
