//! `patchlab scan` on the corpus in `tests/scan/`: Go snippets in the
//! shapes of public controllers' patch code, with the findings and
//! payloads expected in their comments (see tests/scan/README.md).
//! Prints precision and recall; fails below 0.9 on either.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use patchlab::lint::{AppliesTo, Rule, RULES};
use patchlab::scan::{self, report, scan_source, Selection};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scan")
}

fn corpus() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/scan")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "go"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the corpus has its files");
    files
        .into_iter()
        .map(|p| {
            let name = format!("tests/scan/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// What a file's comments expect: (line, rule) findings and (line, text)
/// payloads.
struct Expected {
    findings: BTreeSet<(usize, String)>,
    payloads: Vec<(usize, String)>,
}

fn expectations(text: &str) -> Expected {
    let lines: Vec<&str> = text.lines().collect();
    let next_code = |from: usize| {
        (from + 1..lines.len())
            .find(|&j| !lines[j].trim_start().starts_with("//"))
            .map(|j| j + 1)
            .unwrap_or(0)
    };
    let mut findings = BTreeSet::new();
    let mut payloads = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let own_line = line.trim_start().starts_with("//");
        if let Some(at) = line.find("// want:") {
            let target = if own_line { next_code(i) } else { i + 1 };
            for rule in line[at + "// want:".len()..].split_whitespace() {
                assert!(
                    rule.parse::<Rule>().is_ok(),
                    "line {}: unknown rule {rule}",
                    i + 1
                );
                findings.insert((target, rule.to_owned()));
            }
        }
        if own_line {
            if let Some(text) = line.trim_start().strip_prefix("// payload: ") {
                payloads.push((next_code(i), text.to_owned()));
            }
        }
    }
    Expected { findings, payloads }
}

#[test]
fn the_corpus_meets_its_expectations_with_precision_and_recall_above_nine_tenths() {
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    let mut problems = Vec::new();
    let mut payload_checks = 0;
    for (name, text) in corpus() {
        let expected = expectations(&text);
        let (findings, payloads) = scan_source(&name, &text).expect("parses");
        let found: BTreeSet<(usize, String)> = findings
            .iter()
            .map(|f| (f.line, f.rule.as_str().to_owned()))
            .collect();
        for hit in found.intersection(&expected.findings) {
            let _ = hit;
            tp += 1;
        }
        for extra in found.difference(&expected.findings) {
            fp += 1;
            problems.push(format!("{name}:{}: unexpected {}", extra.0, extra.1));
        }
        for missing in expected.findings.difference(&found) {
            fn_ += 1;
            problems.push(format!("{name}:{}: missing {}", missing.0, missing.1));
        }
        for (line, text) in &expected.payloads {
            payload_checks += 1;
            let at_line: Vec<&str> = payloads
                .iter()
                .filter(|p| p.line == *line)
                .map(|p| p.text.as_str())
                .collect();
            if !at_line.contains(&text.as_str()) {
                problems.push(format!(
                    "{name}:{line}: payload\n  expected {text}\n  found    {at_line:?}"
                ));
            }
        }
    }
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fn_).max(1) as f64;
    println!(
        "scan corpus: {tp} expected findings reported, {fp} unexpected, {fn_} missed: precision {precision:.3}, recall {recall:.3}; {payload_checks} payloads checked"
    );
    for p in &problems {
        println!("  {p}");
    }
    assert!(tp >= 30, "the corpus expects findings");
    assert!(payload_checks >= 15, "the corpus checks payloads");
    assert!(precision >= 0.9, "precision {precision:.3} below 0.9");
    assert!(recall >= 0.9, "recall {recall:.3} below 0.9");
    let payload_problems: Vec<&String> =
        problems.iter().filter(|p| p.contains("payload")).collect();
    assert!(payload_problems.is_empty(), "{payload_problems:#?}");
}

/// The two Go-only rules fire on their examples in the rule table (the
/// ones docs/lint.md shows) and not on the fixed versions.
#[test]
fn go_rules_fire_on_their_examples_and_not_on_the_fixes() {
    let wrap = |body: &str| {
        format!(
            "package x\n\nimport (\n\t\"k8s.io/apimachinery/pkg/types\"\n\t\"k8s.io/client-go/util/retry\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\t\"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil\"\n\n\t\"kubevirt.io/kubevirt/pkg/apimachinery/patch\"\n)\n\nfunc (r *R) f() error {{\n{body}\n\treturn err\n}}\n"
        )
    };
    let mut checked = 0;
    for info in RULES.iter().filter(|i| i.applies_to == AppliesTo::GoSource) {
        let example = info.rule.example();
        let (findings, _) = scan_source("example.go", &wrap(&example.patch)).unwrap();
        assert!(
            findings.iter().any(|f| f.rule == info.rule),
            "{} does not fire on its example: {findings:#?}",
            info.name
        );
        let (fixed, _) = scan_source("fixed.go", &wrap(&example.fixed)).unwrap();
        assert!(
            !fixed.iter().any(|f| f.rule == info.rule),
            "{} fires on its fixed example: {fixed:#?}",
            info.name
        );
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Each finding carries what a reviewer needs: where, the function, the
/// ops, the payload and a Go rewrite.
#[test]
fn findings_say_where_what_and_how_to_fix() {
    let (name, text) = corpus()
        .into_iter()
        .find(|(n, _)| n.ends_with("kubevirt.go"))
        .unwrap();
    let (findings, _) = scan_source(&name, &text).unwrap();
    let labeller = findings
        .iter()
        .find(|f| f.function == "(*NodeLabeller).patchNode")
        .expect("the node labeller's whole-map test");
    assert_eq!(labeller.rule, Rule::WholeMapTest);
    assert_eq!((labeller.line, labeller.column), (78, 3));
    assert_eq!(
        labeller.ops,
        [
            r#"{"op":"test","path":"/metadata/labels","value":<originalNode.Labels>}"#,
            r#"{"op":"replace","path":"/metadata/labels","value":<node.Labels>}"#
        ]
    );
    assert!(
        labeller.fix.ends_with(
            r#"patch.New(patch.GeneratePerKeyMapPatches("/metadata/labels", originalNode.Labels, node.Labels)...)"#
        ),
        "{}",
        labeller.fix
    );
    let migration = findings
        .iter()
        .find(|f| f.function == "(*MigrationController).patchVMI" && f.rule == Rule::WholeMapTest)
        .unwrap();
    assert!(migration.branches, "its ops come from branches");
    assert!(
        migration.fix.ends_with(
            r#"patchSet.AddOption(patch.GeneratePerKeyMapPatches("/metadata/labels", origVMI.Labels, newVMI.Labels)...)"#
        ),
        "{}",
        migration.fix
    );
    let operator = findings
        .iter()
        .find(|f| f.function == "(*KubeVirtController).syncFinalizers")
        .unwrap();
    assert_eq!(operator.rule, Rule::WholeCollectionWrite);
    assert!(
        operator
            .fix
            .contains(r#""op": "test", "path": "/metadata/finalizers""#),
        "{}",
        operator.fix
    );
}

/// Constants of the package resolve across its files.
#[test]
fn package_constants_resolve_across_files() {
    let consts = "package x\n\nconst (\n\tlabelsPath = \"/metadata/\" + labelsKey\n\tlabelsKey  = \"labels\"\n)\n".to_owned();
    let code = "package x\n\nimport \"kubevirt.io/kubevirt/pkg/apimachinery/patch\"\n\nfunc f(old, new *VMI) ([]byte, error) {\n\treturn patch.New(patch.WithTest(labelsPath, old.Labels), patch.WithReplace(labelsPath, new.Labels)).GeneratePayload()\n}\n".to_owned();
    let report = scan::scan_files(&[("consts.go".into(), consts), ("code.go".into(), code)]);
    assert_eq!(report.files, 2);
    assert_eq!(report.findings.len(), 1, "{:#?}", report.findings);
    assert_eq!(report.findings[0].rule, Rule::WholeMapTest);
    assert_eq!(report.findings[0].file, "code.go");
}

/// A patch helper sends what other functions of the package change on the
/// object it was made from, even when no followed call hands the change
/// back (cluster-api's reconcilers reach `reconcileDelete` through a scope
/// struct); a change a function sends itself (`Update`) is not the
/// helper's.
#[test]
fn a_patch_helper_sends_the_changes_other_functions_leave_unsent() {
    let reconcile = "package x\n\nimport \"sigs.k8s.io/cluster-api/util/patch\"\n\nfunc (r *R) Reconcile(ctx context.Context, req Request) (_ Result, reterr error) {\n\tmachine := &Machine{}\n\tif err := r.Client.Get(ctx, req.NamespacedName, machine); err != nil {\n\t\treturn Result{}, err\n\t}\n\th, err := patch.NewHelper(machine, r.Client)\n\tif err != nil {\n\t\treturn Result{}, err\n\t}\n\tdefer func() {\n\t\treterr = h.Patch(ctx, machine)\n\t}()\n\ts := &scope{machine: machine}\n\treturn r.reconcileDelete(ctx, s)\n}\n".to_owned();
    let delete = |sends: &str| {
        format!("package x\n\nimport \"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil\"\n\nfunc (r *R) reconcileDelete(ctx context.Context, s *scope) (Result, error) {{\n\tmachine := s.machine\n\tcontrollerutil.RemoveFinalizer(machine, MachineFinalizer)\n{sends}\treturn Result{{}}, nil\n}}\n")
    };
    let report = scan::scan_files(&[
        ("reconcile.go".into(), reconcile.clone()),
        ("delete.go".into(), delete("")),
    ]);
    let rules: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.rule, f.file.as_str(), f.line))
        .collect();
    assert_eq!(
        rules,
        [(Rule::MergeFromReplacesList, "reconcile.go", 10)],
        "{:#?}",
        report.findings
    );
    let report = scan::scan_files(&[
        ("reconcile.go".into(), reconcile),
        (
            "delete.go".into(),
            delete("\tif err := r.Client.Update(ctx, machine); err != nil {\n\t\treturn Result{}, err\n\t}\n"),
        ),
    ]);
    assert!(
        !report
            .findings
            .iter()
            .any(|f| f.rule == Rule::MergeFromReplacesList),
        "{:#?}",
        report.findings
    );
}

/// Ops a controller-runtime webhook answers with (`admission.Patched`, or
/// handed on by a function returning `admission.Response`) apply to the
/// object being admitted: no rule about other writers fires on them, and
/// the same ops sent by a controller are still judged.
#[test]
fn a_webhooks_ops_skip_the_concurrency_rules() {
    let text = std::fs::read_to_string(corpus_dir().join("webhook.go")).unwrap();
    let report = scan::scan_files(&[("webhook.go".into(), text)]);
    let rules: Vec<_> = report.findings.iter().map(|f| (f.rule, f.line)).collect();
    assert!(
        !rules.iter().any(|(r, _)| *r == Rule::IndexWithoutTest),
        "{rules:?}"
    );
    assert!(
        rules.iter().any(|(r, _)| *r == Rule::WholeCollectionWrite),
        "{rules:?}"
    );
}

/// The SARIF log has what SARIF 2.1.0 requires and what viewers use:
/// `$schema`, `version`, `runs[].tool.driver.name` and rules, results with
/// `ruleId`, `level`, `message.text` and a physical location with an
/// artifact URI and a region.
#[test]
fn sarif_has_the_required_structure() {
    let report = scan::scan_paths(&[corpus_dir()], &Selection::default(), 2, &|_| {}).unwrap();
    assert!(!report.findings.is_empty());
    let log = report::sarif(&report);
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "patchlab");
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RULES.len());
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), report.findings.len());
    for result in results {
        let id = result["ruleId"].as_str().unwrap();
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().unwrap()));
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let physical = &result["locations"][0]["physicalLocation"];
        let uri = physical["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            uri.starts_with("file:///"),
            "an absolute path is a file URI: {uri}"
        );
        assert!(physical["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(physical["region"]["startColumn"].as_u64().unwrap() >= 1);
        assert!(result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].is_string());
    }
    assert_eq!(report::uri("pkg/a b.go"), "pkg/a%20b.go");
    assert_eq!(report::uri("./pkg/x.go"), "pkg/x.go");
    validate_with_multitool(&log);
}

/// When Microsoft's SARIF validator is installed (`scripts/validate-sarif.sh`
/// installs it from npm into `.tools/`), the log passes it with no error.
fn validate_with_multitool(log: &serde_json::Value) {
    let tool = std::env::var_os("PATCHLAB_SARIF_MULTITOOL")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(".tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")
        });
    if !tool.exists() {
        println!(
            "NOTICE: the SARIF multitool is not installed ({}): only the structure was checked; run scripts/validate-sarif.sh",
            tool.display()
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("patchlab-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scan.sarif");
    std::fs::write(&path, serde_json::to_string_pretty(log).unwrap()).unwrap();
    let out = std::process::Command::new(&tool)
        .arg("validate")
        .arg(&path)
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .output()
        .expect("the multitool runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{text}");
    assert!(
        !text.contains(": error ") && !text.contains(": warning "),
        "the SARIF validator reports problems:\n{text}"
    );
}

/// The command: exit 1 on warnings, 0 on clean code, 2 on a missing path;
/// JSON and SARIF on stdout.
#[test]
fn the_command_exits_like_lint() {
    let bin = env!("CARGO_BIN_EXE_patchlab");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("patchlab runs")
    };
    let hazards = run(&["scan", "tests/scan/kubevirt.go"]);
    assert_eq!(hazards.status.code(), Some(1));
    let text = String::from_utf8_lossy(&hazards.stdout);
    assert!(
        text.contains("warning[whole-map-test]: `test /metadata/labels`"),
        "{text}"
    );
    assert!(
        text.contains("  --> tests/scan/kubevirt.go:78:3 (in (*NodeLabeller).patchNode)"),
        "{text}"
    );
    assert!(
        hazards.stderr.is_empty(),
        "no progress line when stderr is not a terminal"
    );
    let dir = std::env::temp_dir().join(format!("patchlab-scan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("clean.go"),
        "package x\n\nfunc f() int { return 1 }\n",
    )
    .unwrap();
    let clean = run(&["scan", dir.to_str().unwrap()]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
    let missing = run(&["scan", "tests/scan/no-such-dir"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file or directory"));
    let json = run(&[
        "scan",
        "tests/scan",
        "--format",
        "json",
        "--min-severity",
        "note",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(value["findings"].as_array().unwrap().len() >= 30);
    assert!(value["payloads"].as_array().unwrap().len() >= 20);
    let sarif = run(&[
        "scan",
        "tests/scan",
        "--format",
        "sarif",
        "--exclude",
        "**/webhook.go",
    ]);
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        uris.iter()
            .all(|u| u.starts_with("tests/scan/") && !u.ends_with("webhook.go")),
        "{uris:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What comes from the tree reaches a terminal escaped: a file named with
/// an escape sequence, and the Go literals and identifiers shown in the
/// ops, are printed as visible `\u{1b}`; JSON stays exact.
#[test]
fn text_from_the_tree_is_escaped_in_the_text_report() {
    let bin = env!("CARGO_BIN_EXE_patchlab");
    let dir = std::env::temp_dir().join(format!("patchlab-scan-esc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = "red\u{1b}[31m.go";
    std::fs::write(
        dir.join(name),
        "package x\n\nimport \"kubevirt.io/kubevirt/pkg/apimachinery/patch\"\n\nfunc f(old, new *VMI) ([]byte, error) {\n\treturn patch.New(patch.WithTest(\"/metadata/labels\", old.Labels), patch.WithReplace(\"/metadata/labels\", new.Labels), patch.WithAdd(\"/metadata/annotations/a\\x1b]0;t\\x07\", \"v\")).GeneratePayload()\n}\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("patchlab runs")
    };
    let text = run(&["scan", ".", "--min-severity", "note", "--payloads"]);
    assert_eq!(text.status.code(), Some(1));
    let stdout = String::from_utf8(text.stdout).unwrap();
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    assert!(!stdout.contains('\u{7}'), "{stdout}");
    assert!(stdout.contains("red\\u{1b}[31m.go:6"), "{stdout}");
    let json = run(&["scan", ".", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["findings"][0]["file"], format!("./{name}"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every judged site of tests/scan/judged.yaml replayed from its extract
/// (tests/scan/judged/FILE.go, function NAME: Go written for these tests in
/// the shape of the site, never its code): a site the scan finds in the
/// real repository is reported in its extract, with the rule, in that
/// function, at as many lines as the YAML marks there; a site it misses
/// (`scan: missed`) is not reported there, so the YAML says what the
/// scanner does today.
#[test]
fn judged_sites_replay() {
    use std::collections::BTreeMap;
    let path = corpus_dir().join("judged.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let budget = patchlab::input::Budget {
        max_bytes: 16 << 20,
        ..patchlab::input::Budget::default()
    };
    let (value, _) = patchlab::input::parse(&text, &budget).unwrap();
    // file -> (function, rule) -> (sites, missed)
    type Sites = BTreeMap<(String, String), (usize, bool)>;
    let mut wanted: BTreeMap<String, Sites> = BTreeMap::new();
    let mut sites = 0;
    for repo in value["repositories"].as_array().unwrap() {
        for hazard in repo["hazards"].as_array().into_iter().flatten() {
            let extract = hazard["extract"]
                .as_str()
                .unwrap_or_else(|| panic!("{}: a judged site without an extract", hazard["at"]));
            let (file, function) = extract.split_once(':').unwrap();
            let rule = hazard["rule"].as_str().unwrap().to_owned();
            let missed = hazard["scan"].as_str() == Some("missed");
            let entry = wanted
                .entry(file.to_owned())
                .or_default()
                .entry((function.to_owned(), rule))
                .or_insert((0, missed));
            assert_eq!(entry.1, missed, "{extract}: found and missed at once");
            entry.0 += 1;
            sites += 1;
        }
    }
    assert!(sites >= 70, "the judged sites are read ({sites})");
    let mut failures = Vec::new();
    for (file, functions) in &wanted {
        let path = corpus_dir().join("judged").join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = format!("tests/scan/judged/{file}");
        let report = scan::scan_files(&[(name, text)]);
        for ((function, rule), (count, missed)) in functions {
            let lines: BTreeSet<usize> = report
                .findings
                .iter()
                .filter(|f| f.rule.to_string() == *rule)
                .filter(|f| {
                    f.function == *function || f.function.ends_with(&format!(").{function}"))
                })
                .map(|f| f.line)
                .collect();
            let ok = if *missed {
                lines.is_empty()
            } else {
                lines.len() >= *count
            };
            if !ok {
                failures.push(format!(
                    "{file}:{function} {rule}: {} expected, reported at lines {lines:?}",
                    if *missed {
                        "none (missed in the repository)".to_owned()
                    } else {
                        format!("{count} site(s)")
                    }
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
