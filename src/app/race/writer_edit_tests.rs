//! The Race editor edits what a scenario file can say of a writer: field
//! overrides (`set`), attempts, fixed, force, force-on-retry, target.

use super::tests::typed;
use super::*;
use crate::app::view_state::ViewState;
use crate::strategy::Strategy;

fn first_writer(state: &RaceState) -> &crate::sim::writer::WriterSpec {
    &state.scenario.writers[0]
}

#[test]
fn field_overrides_are_shown_as_yaml_and_taken_when_they_parse() {
    let state = RaceState::default();
    assert_eq!(state.overrides.len(), state.scenario.writers.len());
    let edited = typed(
        &state,
        RaceAction::EditWriter(
            0,
            WriterEdit::Overrides("/metadata/labels: per-key\n".into()),
        ),
    );
    assert_eq!(
        first_writer(&edited).set.get("/metadata/labels"),
        Some(&Strategy::PerKey)
    );
    assert_eq!(edited.source, Source::Edited);
    assert_eq!(edited.overrides[0].error, None);
    // The link carries it (an edited scenario is in the link whole).
    let link = edited.link();
    assert_eq!(
        link.scenario.unwrap().writers[0]
            .set
            .get("/metadata/labels"),
        Some(&Strategy::PerKey)
    );
    // Shown back as the file would say it.
    assert_eq!(
        overrides_text(first_writer(&edited)).trim(),
        "/metadata/labels: per-key"
    );
    // Cleared: none.
    let cleared = edited.reduce(RaceAction::EditWriter(
        0,
        WriterEdit::Overrides(String::new()),
    ));
    assert!(first_writer(&cleared).set.is_empty());
}

#[test]
fn overrides_that_do_not_parse_or_run_are_kept_as_typed_and_said_why() {
    let state = RaceState::default();
    let broken = typed(
        &state,
        RaceAction::EditWriter(0, WriterEdit::Overrides("/metadata/labels: [".into())),
    );
    assert!(matches!(
        broken.overrides[0].error,
        Some(IntentsError::Syntax(_))
    ));
    assert_eq!(broken.overrides[0].text, "/metadata/labels: [");
    assert_eq!(broken.scenario, state.scenario, "nothing taken");
    assert!(broken.edited(), "text not taken is work");
    let unknown = typed(
        &state,
        RaceAction::EditWriter(
            0,
            WriterEdit::Overrides("/metadata/labels: sideways".into()),
        ),
    );
    assert!(matches!(
        unknown.overrides[0].error,
        Some(IntentsError::Shape(_))
    ));
    assert_eq!(unknown.scenario, state.scenario);
}

#[test]
fn attempts_fixed_force_and_target_are_edited_and_replayed() {
    let state = RaceState::default();
    let before = first_writer(&state).clone();
    let once = state.reduce(RaceAction::EditWriter(0, WriterEdit::Attempts(1)));
    assert_eq!(first_writer(&once).attempts, 1);
    assert_eq!(once.source, Source::Edited);
    let zero = state.reduce(RaceAction::EditWriter(0, WriterEdit::Attempts(0)));
    assert_eq!(first_writer(&zero).attempts, 1, "at least one attempt");
    let fixed = state.reduce(RaceAction::EditWriter(0, WriterEdit::Fixed(!before.fixed)));
    assert_eq!(first_writer(&fixed).fixed, !before.fixed);
    let force = state.reduce(RaceAction::EditWriter(0, WriterEdit::Force(true)));
    assert!(first_writer(&force).force);
    let retry = state.reduce(RaceAction::EditWriter(0, WriterEdit::ForceOnRetry(true)));
    assert!(first_writer(&retry).force_on_retry);
    // A target the scenario does not hold is refused, and said so.
    let nowhere = state.reduce(RaceAction::EditWriter(
        0,
        WriterEdit::Target(Some("Pod/nowhere".into())),
    ));
    assert_eq!(first_writer(&nowhere).target, before.target);
    assert!(nowhere.overrides[0].error.is_some());
    // The same value again changes nothing.
    let same = state.reduce(RaceAction::EditWriter(0, WriterEdit::Fixed(before.fixed)));
    assert_eq!(same, state);
    // An unknown writer: nothing.
    assert_eq!(
        state.reduce(RaceAction::EditWriter(99, WriterEdit::Force(true))),
        state
    );
}

#[test]
fn every_shipped_scenarios_overrides_show_and_read_back() {
    for (id, _) in library() {
        let state = RaceState::load(id);
        for (w, writer) in state.scenario.writers.iter().enumerate() {
            let text = &state.overrides[w].text;
            let edit = RaceAction::EditWriter(w, WriterEdit::Overrides(text.clone()));
            let back = if text.trim().is_empty() {
                state.reduce(edit)
            } else {
                typed(&state, edit)
            };
            assert_eq!(
                back.scenario.writers[w].set, writer.set,
                "{id} {}",
                writer.name
            );
            assert_eq!(back.overrides[w].error, None);
        }
    }
}
