use super::*;
use crate::app::link::{self, Start};
use crate::app::view_state::ViewState;
use crate::engines::convert::CANNOT_CONVERT;
use crate::engines::tests::through_the_wire;
use crate::engines::{Answered, Failure, Unavailable};
use crate::input::Format;
use crate::pointer::PointerBuf;
use crate::strategy::{BodyKind, Preset, Strategy};
use std::rc::Rc;

/// Test-only: the results brought up to date at once, as a step of a
/// chain (the reducer settles small texts; a job does big ones).
pub(super) trait Recomputed {
    fn recomputed(&self) -> BuildState;
    /// A pending conversion carried out at once (the engines answer it in
    /// the browser).
    fn converted(&self) -> BuildState;
}

impl Recomputed for BuildState {
    fn recomputed(&self) -> BuildState {
        recomputed(self)
    }

    fn converted(&self) -> BuildState {
        let mut state = self.clone();
        state.convert_now();
        state
    }
}

/// The default state (the first example), computed.
pub(super) fn computed_default() -> BuildState {
    BuildState::default().recomputed()
}

/// A column's ops as JSON (from what is sent).
fn ops(state: &BuildState, column: usize) -> Vec<String> {
    let result = &state.results.columns[column];
    assert_eq!(result.error, None);
    let payload = &result.texts.as_ref().unwrap().payload;
    let sent: Vec<serde_json::Value> = serde_json::from_str(payload).unwrap();
    assert_eq!(sent.len(), result.ops.len());
    sent.iter().map(|op| op.to_string()).collect()
}

/// `state` with its results brought up to date at once.
/// The engines' answer to what `state` asks now (through the wire), to be
/// handed to a later state.
fn answer_to(state: &BuildState) -> BuildAction {
    let revs = state.wants().expect("a question");
    BuildAction::Computed(through_the_wire(revs, state.question()))
}

fn recomputed(state: &BuildState) -> BuildState {
    let mut state = state.clone();
    state.recompute();
    state
}

fn labels() -> PointerBuf {
    PointerBuf::parse("/metadata/labels").unwrap()
}

#[test]
fn every_example_loads_and_round_trips() {
    let all = examples();
    assert_eq!(all.len(), 9);
    for example in all.iter() {
        let state = BuildState::computed(BuildLink::example(example.id, None).unwrap());
        assert!(!state.stale(), "{}", example.id);
        assert!(!state.blocked(), "{}", example.id);
        assert_eq!(state.results.columns.len(), example.columns.len());
        for result in state.results.columns.iter() {
            assert!(result.error.is_none() && !result.empty, "{}", example.id);
        }
        assert_eq!(state.title().0, example.title);
    }
}

#[test]
fn first_visit_shows_the_race_head_versus_per_key() {
    let state = computed_default();
    assert_eq!(state.example.as_deref(), Some("migration-race"));
    assert_eq!(
        state.columns.iter().map(|c| c.preset).collect::<Vec<_>>(),
        [Preset::KubevirtMain, Preset::KubevirtPerKey]
    );
    let head = ops(&state, 0);
    assert!(head[0].starts_with(r#"{"op":"test","path":"/metadata/labels","value":{"#));
    assert_eq!(
        ops(&state, 1),
        [
            r#"{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}"#
        ]
    );
    assert_eq!(state.results.columns[0].round_trip, RoundTripResult::Exact);
    assert_eq!(state.results.columns[1].round_trip, RoundTripResult::Exact);
    assert_eq!(
        state.results.columns[1]
            .ops
            .iter()
            .map(|o| o.unique)
            .collect::<Vec<_>>(),
        [true]
    );
    let fields = state.results.fields.clone();
    assert_eq!(fields.len(), 1);
    assert_eq!(fields[0].path, labels());
    assert_eq!(
        fields[0].strategies,
        [Some(Strategy::WholeMap), Some(Strategy::PerKey)]
    );
}

#[test]
fn editing_marks_stale_until_recomputed_and_keeps_the_last_good_result() {
    let state = computed_default();
    let edited = state.reduce(BuildAction::EditNew("{\"metadata\": ]}".into()));
    assert!(edited.stale() && edited.busy());
    assert_eq!(edited.results, state.results, "nothing recomputed yet");
    let broken = edited.recomputed();
    assert!(broken.stale() && broken.blocked() && !broken.busy());
    let err = broken.new.current_error().unwrap();
    assert_eq!((err.line, err.column), (Some(1), Some(14)));
    assert_eq!(broken.results, state.results, "the last good result stays");
    assert!(
        broken.wants().is_none(),
        "nothing to do until the text changes"
    );
    let fixed = broken
        .reduce(BuildAction::EditNew(state.old.text.clone()))
        .recomputed();
    assert!(!fixed.stale());
    assert!(fixed
        .results
        .columns
        .iter()
        .all(|r| r.error.is_none() && r.empty));
}

#[test]
fn convert_format_and_swap() {
    let state = computed_default();
    // Converting is asked of the engines (the page module has no YAML
    // reader): nothing changes until they answer.
    let asked = state.reduce(BuildAction::SetFormat(Format::Json));
    let conversion = asked.converting.unwrap();
    assert_eq!(
        (conversion.format, conversion.revs),
        (Format::Json, (state.old.rev, state.new.rev))
    );
    let said = |answer: Result<(&str, &str), Failure<_>>| {
        BuildAction::Converted(Answered {
            rev: conversion.rev,
            answer: answer.map(|(o, n)| Rc::new((o.to_owned(), n.to_owned()))),
            more: false,
        })
    };
    assert_eq!(
        (&asked.old.text, asked.format),
        (&state.old.text, Format::Yaml)
    );
    let json = asked.converted();
    assert_eq!(json.converting, None);
    assert_eq!(json.format, Format::Json);
    assert!(json.old.text.trim_start().starts_with('{'));
    assert_eq!(json.results, state.results, "same objects, same results");
    assert!(!json.stale(), "converting needs no recomputation");
    let back = json
        .reduce(BuildAction::SetFormat(Format::Yaml))
        .converted();
    assert_eq!(back.results, state.results);
    assert_eq!(back.format, Format::Yaml);
    assert!(
        back.old.text.starts_with("apiVersion: "),
        "{}",
        back.old.text
    );
    // An answer for texts edited since is dropped, and so is one for a
    // conversion that another replaced.
    let edited = asked
        .reduce(BuildAction::EditNew("a: 1\n".into()))
        .reduce(said(Ok(("{}", "{}"))));
    assert_eq!(
        (&*edited.new.text, edited.format, edited.converting),
        ("a: 1\n", Format::Yaml, None)
    );
    // Engines that could not answer: said so, nothing lost.
    let failed = asked.reduce(said(Err(Failure::Unavailable(Unavailable::NotStarted(
        "refused".into(),
    )))));
    assert_eq!(failed.old.text, state.old.text);
    assert_eq!(
        failed.notice.as_ref().unwrap().text,
        "The objects cannot be converted: the engine worker could not start (refused). Your objects are kept."
    );
    // Format while a conversion waits formats in the format asked for
    // (asked again: a conversion of its own).
    let again = asked.reduce(BuildAction::FormatText).converting.unwrap();
    assert_eq!(
        (again.format, again.revs),
        (conversion.format, conversion.revs)
    );
    assert!(again.rev > conversion.rev);
    let replaced = asked.reduce(BuildAction::SetFormat(Format::Yaml));
    let late = replaced.reduce(said(Ok(("{}", "{}"))));
    assert_eq!(late.converting, replaced.converting);
    assert_eq!(late.old.text, state.old.text);
    // A state put in place of another waits for no conversion: neither the
    // example loaded over a waiting one, nor what Undo brings back.
    let waiting = state
        .reduce(BuildAction::EditNew("a: 1\n".into()))
        .reduce(BuildAction::SetFormat(Format::Json));
    assert!(waiting.converting.is_some());
    let loaded = waiting.reduce(BuildAction::LoadExample("finalizers".into()));
    assert_eq!(loaded.converting, None);
    let undone = loaded.reduce(BuildAction::Undo);
    assert_eq!(&*undone.new.text, "a: 1\n");
    assert_eq!(undone.converting, None);
    let swapped = state.reduce(BuildAction::Swap).recomputed();
    assert_eq!(swapped.old.text, state.new.text);
    assert!(ops(&swapped, 1)[0].contains(r#""op":"remove""#));
    // A parse error blocks conversion with a notice, and keeps the text:
    // found by the engines, or known already (then nothing is asked).
    let edited = state.reduce(BuildAction::EditOld("{".into()));
    let known = edited
        .recomputed()
        .reduce(BuildAction::SetFormat(Format::Json));
    assert_eq!(known.converting, None);
    for broken in [
        edited
            .reduce(BuildAction::SetFormat(Format::Json))
            .converted(),
        known,
    ] {
        assert_eq!(&*broken.old.text, "{");
        let notice = broken.notice.as_ref().unwrap();
        assert_eq!(notice.level, crate::app::notice::Level::Error);
        assert_eq!(notice.text, CANNOT_CONVERT);
    }
}

#[test]
fn nothing_is_replaced_without_an_undo() {
    let state = computed_default().reduce(BuildAction::EditNew("metadata: {}\n".into()));
    assert!(state.edited());
    assert_eq!(state.title().0, "Your objects");
    let reset = state.reduce(BuildAction::Reset);
    assert_ne!(&*reset.new.text, "metadata: {}\n");
    let notice = reset.notice.as_ref().unwrap();
    assert_eq!(notice.undo.as_deref(), Some("Undo"));
    assert!(
        notice.text.starts_with("Reset to the example."),
        "{}",
        notice.text
    );
    // Dismissing the notice keeps the undo (the toolbar still offers it).
    let dismissed = reset.reduce(BuildAction::DismissNotice);
    assert!(dismissed.notice.is_none() && dismissed.undo.is_some());
    let undone = dismissed.reduce(BuildAction::Undo);
    assert_eq!(&*undone.new.text, "metadata: {}\n");
    // What undo replaced (an untouched example) needs no undo itself.
    assert!(undone.undo.is_none());
    let loaded = state.reduce(BuildAction::LoadExample("finalizers".into()));
    assert_eq!(loaded.example.as_deref(), Some("finalizers"));
    assert!(loaded.notice.as_ref().unwrap().text.contains("Finalizer"));
    assert_eq!(
        &*loaded.reduce(BuildAction::Undo).new.text,
        "metadata: {}\n"
    );
    // Undo twice is back where it was: nothing is ever lost.
    let edited_again = loaded.reduce(BuildAction::EditOld("a: 1\n".into()));
    let back = edited_again.reduce(BuildAction::Undo);
    assert_eq!(&*back.new.text, "metadata: {}\n");
    assert_eq!(&*back.reduce(BuildAction::Undo).old.text, "a: 1\n");
    // Loading over an untouched example needs no undo.
    let clean = computed_default().reduce(BuildAction::LoadExample("finalizers".into()));
    assert!(clean.undo.is_none() && clean.notice.is_none());
    let unknown = state.reduce(BuildAction::LoadExample("nope".into()));
    assert_eq!(unknown.new.text, state.new.text);
    assert!(unknown.notice.is_some());
}

#[test]
fn the_title_follows_the_objects() {
    let state = computed_default();
    let (title, description) = state.title();
    assert_eq!(title, example(FIRST_EXAMPLE).unwrap().title);
    assert!(description.is_some());
    let edited = state.reduce(BuildAction::EditOld("kind: Pod\n".into()));
    let (title, description) = edited.title();
    assert_eq!(title, "Your objects");
    assert!(description.unwrap().starts_with("Started from the example"));
    let own = BuildState::computed(BuildLink {
        example: None,
        ..state.link()
    });
    assert_eq!(own.title(), ("Your objects".to_owned(), None));
}

#[test]
fn columns_and_overrides() {
    let state = computed_default();
    let three = state.reduce(BuildAction::AddColumn);
    assert!(three.stale(), "column changes recompute like edits");
    let three = three.recomputed();
    assert_eq!(three.columns.len(), 3);
    assert_eq!(
        three.columns[2].preset,
        Preset::Naive,
        "the next preset not shown"
    );
    assert_eq!(three.results.columns.len(), 3);
    let two = three.reduce(BuildAction::RemoveColumn(0)).recomputed();
    assert_eq!(two.columns[0].preset, Preset::KubevirtPerKey);
    let one = two
        .reduce(BuildAction::RemoveColumn(0))
        .reduce(BuildAction::RemoveColumn(0));
    assert_eq!(one.columns.len(), 1, "one column always stays");
    let mut full = state.clone();
    for _ in 0..10 {
        full = full.reduce(BuildAction::AddColumn);
    }
    assert_eq!(full.columns.len(), MAX_COLUMNS);
    let overridden = state
        .reduce(BuildAction::SetOverride(
            1,
            labels(),
            Some(Strategy::WholeMap),
        ))
        .recomputed();
    assert_eq!(ops(&overridden, 1), ops(&state, 0));
    assert_eq!(
        overridden.results.fields[0].strategies,
        [Some(Strategy::WholeMap), Some(Strategy::WholeMap)]
    );
    let cleared = overridden
        .reduce(BuildAction::SetOverride(1, labels(), None))
        .recomputed();
    assert_eq!(cleared.results, state.results);
    let preset = state
        .reduce(BuildAction::SetPreset(0, Preset::Merge))
        .recomputed();
    assert_eq!(preset.results.columns[0].kind, BodyKind::MergePatch);
}

#[test]
fn links_round_trip_through_the_state() {
    let state = computed_default()
        .reduce(BuildAction::SetOverride(
            0,
            labels(),
            Some(Strategy::AddOnly),
        ))
        .reduce(BuildAction::SetOverride(1, labels(), Some(Strategy::Blind)))
        .reduce(BuildAction::AddColumn)
        .recomputed();
    let link = state.link();
    let packed = link::encode(&link);
    let opened = BuildState::start(Start::new(Some(&packed), None));
    assert_eq!(opened.link(), link);
    assert_eq!(opened.recomputed().results, state.results);
    // The old string form of overrides still reads.
    let json = serde_json::json!({"old": "a: 1", "new": "a: 2", "format": "yaml",
        "columns": [{"preset": "naive", "overrides": {"/metadata/labels": "blind"}}]});
    let old: BuildLink = link::decode(&link::encode(&json)).unwrap();
    assert_eq!(old.columns[0].overrides[&labels()], Strategy::Blind);
    // An invalid override path is not this page's link.
    let bad = serde_json::json!({"old": "", "new": "", "format": "yaml",
        "columns": [{"preset": "naive", "overrides": {"nope": "blind"}}]});
    assert!(matches!(
        link::decode::<BuildLink>(&link::encode(&bad)),
        Err(link::LinkError::NotPatchlab(_))
    ));
    let many = serde_json::json!({"old": "", "new": "", "format": "yaml",
        "columns": vec![serde_json::json!({"preset": "naive"}); 7]});
    assert!(matches!(
        link::decode::<BuildLink>(&link::encode(&many)),
        Err(link::LinkError::OverBudget(_))
    ));
}

#[test]
fn a_link_over_saved_work_keeps_the_work_for_undo() {
    let saved = computed_default()
        .reduce(BuildAction::EditNew("metadata: {name: mine}\n".into()))
        .link();
    let shared = BuildLink::example("finalizers", None).unwrap();
    let state = BuildState::start(Start::new(
        Some(&link::encode(&shared)),
        Some(&link::encode(&saved)),
    ));
    assert_eq!(state.example.as_deref(), Some("finalizers"));
    assert_eq!(state.notice.as_ref().unwrap().undo.as_deref(), Some("Undo"));
    let undone = state.reduce(BuildAction::Undo);
    assert_eq!(undone.link(), saved);
    // Saved work that is an untouched example is not kept.
    let plain = BuildState::start(Start::new(
        Some(&link::encode(&shared)),
        Some(&link::encode(&computed_default().link())),
    ));
    assert!(plain.undo.is_none() && plain.notice.is_none());
    // A broken link opens the saved work and says what is wrong.
    let broken = BuildState::start(Start::new(Some("1.!!"), Some(&link::encode(&saved))));
    assert_eq!(broken.link(), saved);
    assert!(broken
        .notice
        .as_ref()
        .unwrap()
        .text
        .contains("link is still in the address bar"));
}

#[test]
fn a_link_shows_its_own_objects_not_the_first_example() {
    let finalizers = BuildState::computed(BuildLink::example("finalizers", None).unwrap());
    let opened = BuildState::computed(finalizers.link());
    assert_eq!(opened.results, finalizers.results);
    assert_ne!(opened.results, computed_default().results);
}

#[test]
fn a_job_finished_after_an_edit_does_not_overwrite_the_edit() {
    let state = computed_default();
    let edited = state.reduce(BuildAction::EditNew(
        state.new.text.replace("node02", "node03").into(),
    ));
    let job = answer_to(&edited);
    // The user types again before the job's result arrives.
    let again = edited.reduce(BuildAction::EditNew(
        state.new.text.replace("node02", "node04").into(),
    ));
    let late = again.reduce(job);
    assert!(late.stale(), "the late result is for an older text");
    assert_eq!(late.results, state.results);
    let current = late.recomputed();
    assert!(ops(&current, 1)[0].contains("node04"));
    // A column change during a job: the parse is kept, the results not.
    let job = answer_to(&edited);
    let columns = edited.reduce(BuildAction::AddColumn);
    let late = columns.reduce(job);
    assert!(late.stale() && !late.new.dirty());
    assert_eq!(late.recomputed().results.columns.len(), 3);
}

#[test]
fn round_trip_reports_the_per_key_exception() {
    let state = computed_default()
        .reduce(BuildAction::EditOld(
            "metadata:\n  labels: {a: '1'}\n".into(),
        ))
        .reduce(BuildAction::EditNew("metadata: {}\n".into()))
        .recomputed();
    assert_eq!(state.results.columns[0].round_trip, RoundTripResult::Exact);
    match &state.results.columns[1].round_trip {
        RoundTripResult::Differs(why) => assert!(why.contains("/metadata/labels"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn objects_at_the_input_budget_fit_in_storage() {
    // Two objects at the input budget, with little repetition.
    let object = |seed: u64| -> String {
        let mut x = seed;
        let mut text = String::from("data:\n");
        while text.len() < crate::limits::OBJECT_BYTES - 64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(&format!("  k{:016x}: \"{:016x}\"\n", x, x >> 7));
        }
        text
    };
    let link = BuildLink {
        old: object(1).into(),
        new: object(2).into(),
        format: Format::Yaml,
        columns: vec![Column::default()],
        example: None,
        kubernetes: None,
    };
    let placed = link::place(&link);
    assert!(placed.too_big_for_a_link);
    assert!(placed.stored.len() < link::MAX_STORED);
    assert_eq!(
        link::decode_stored::<BuildLink>(&placed.stored).unwrap(),
        link
    );
}

#[test]
fn the_kubernetes_release_is_in_the_link_and_runs_the_round_trips() {
    use crate::kube::KubeVersion;
    let state = computed_default();
    assert_eq!(state.kubernetes, None, "the newest release by default");
    let v128: KubeVersion = "1.28.0".parse().unwrap();
    let moved = state.reduce(BuildAction::SetKubernetes(v128));
    assert!(moved.stale(), "a release change recomputes the round trips");
    let mut moved = moved;
    moved.recompute();
    assert_eq!(moved.link().kubernetes, Some(v128));
    let parse = |text: &str| {
        crate::input::parse(text, &crate::input::Budget::default())
            .unwrap()
            .0
    };
    let (old, new) = (parse(&moved.old.text), parse(&moved.new.text));
    for (column, result) in moved.columns.iter().zip(moved.results.columns.iter()) {
        let options = column.options();
        let plan = crate::strategy::diff(&old, &new, &options).unwrap();
        assert_eq!(
            result.round_trip,
            RoundTripResult::from(&crate::strategy::round_trip_on(
                &old,
                &new,
                &plan,
                &options.policy,
                v128
            ))
        );
    }
    let packed = link::encode(&moved.link());
    let opened = BuildState::start(Start::new(Some(&packed), None));
    assert_eq!(opened.kubernetes, Some(v128), "a link carries the release");
    let back = moved.reduce(BuildAction::SetKubernetes(KubeVersion::NEWEST));
    assert_eq!(back.kubernetes, None, "the default leaves the link short");
    assert!(!link::encode(&back.link()).is_empty());
    let same = back.reduce(BuildAction::SetKubernetes(KubeVersion::NEWEST));
    assert_eq!(
        same.revs(),
        back.revs(),
        "choosing the release shown changes nothing"
    );
}

#[test]
fn columns_carry_the_findings_of_the_ops_they_send() {
    use crate::lint::{Rule, Severity};
    let build = computed_default();
    let findings = |column: usize| -> Vec<(Rule, usize)> {
        build.results.columns[column]
            .ops
            .iter()
            .enumerate()
            .flat_map(|(k, op)| {
                op.findings
                    .iter()
                    .map(move |f| (f.rule.parse().unwrap(), k))
            })
            .collect()
    };
    // kubevirt-main tests the whole label map; PR #18139 adds one key.
    assert_eq!(findings(0), [(Rule::WholeMapTest, 0)]);
    assert_eq!(findings(1), [(Rule::AddWithoutTest, 0)]);
    let head = &build.results.columns[0].ops;
    assert!(head[0]
        .findings
        .iter()
        .all(|f| f.finding().unwrap().severity == Severity::Warning));
    assert!(head[1].findings.is_empty());
    // A body that is not a JSON patch has no ops to mark.
    let merge = build
        .reduce(BuildAction::SetPreset(1, Preset::Merge))
        .recomputed();
    assert!(merge.results.columns[1].ops.is_empty());
    assert!(merge.results.columns[1]
        .texts
        .as_ref()
        .unwrap()
        .body
        .is_some());
}

#[test]
fn the_engine_is_asked_only_while_results_lag_behind() {
    let state = computed_default();
    assert!(state.wants().is_none(), "up to date");
    // The reducer never computes: an edit leaves the results behind, and
    // the question names the revisions and texts the engines answer for.
    let typed = state.reduce(BuildAction::EditNew(
        state.new.text.replace("node02", "node05").into(),
    ));
    assert!(typed.stale());
    assert_eq!(typed.wants(), Some(typed.revs()));
    let question = typed.question();
    assert_eq!(&*question.new, &*typed.new.text);
    assert_eq!(question.columns.len(), typed.columns.len());
    let answered = typed.reduce(answer_to(&typed));
    assert!(!answered.stale());
    assert!(ops(&answered, 1)[0].contains("node05"));
    assert_eq!(answered, typed.recomputed());
    // A column change asks again, with the same texts.
    let added = answered.reduce(BuildAction::AddColumn);
    assert!(added.wants().is_some());
    assert_eq!(added.question().columns.len(), 3);
    // The engines failing says so and keeps the objects.
    let failed = typed.reduce(BuildAction::Computed(Answered {
        rev: typed.revs(),
        answer: Err(Failure::Unavailable(Unavailable::Stopped)),
        more: false,
    }));
    assert!(failed.notice.is_some());
    assert_eq!(failed.new.text, typed.new.text);
}

#[test]
fn a_job_for_earlier_objects_is_never_taken_after_a_load_or_an_undo() {
    let state = computed_default();
    let edited = state.reduce(BuildAction::EditNew(
        state.new.text.replace("node02", "node06").into(),
    ));
    let job = answer_to(&edited);
    // The user loads an example, then types once, as before the load: the
    // revisions do not start over, so they never come back to the job's.
    let loaded = edited.reduce(BuildAction::LoadExample("finalizers".into()));
    let loaded = loaded.reduce(BuildAction::EditNew(loaded.new.text.clone()));
    assert!(loaded.revs().old > edited.revs().columns);
    let late = loaded.reduce(job);
    assert!(late.stale(), "the late result is not for these objects");
    assert!(!ops(&late.recomputed(), 0)
        .iter()
        .any(|op| op.contains("node06")));
    // What Undo brings back keeps its results, renumbered past the state
    // it replaces.
    let back = loaded.recomputed().reduce(BuildAction::Undo);
    assert!(back.revs().old > loaded.revs().columns);
    assert_eq!(&*back.new.text, &*edited.new.text);
}
