use std::rc::Rc;

use super::*;
use crate::app::link::{self, Start};
use crate::app::view_state::ViewState;
use crate::engines::race::ReplayView;
use crate::engines::read_yaml::{ReadText, ReadYaml};
use crate::engines::tests::through_the_wire;
use crate::engines::{Answered, Failure, Unavailable};
use crate::sim::timeline::{Event, EventKind};
use crate::strategy::Preset;

/// `state` after the engines answered its texts waiting to be read, as
/// the view hands them over: asked of a real engine, the answer through
/// the protocol's JSON both ways.
pub(super) fn answered(state: &RaceState) -> RaceState {
    let texts = state.unread();
    assert!(!texts.is_empty(), "a text waits to be read");
    let said = through_the_wire(
        state.typed,
        ReadYaml {
            texts: texts.clone(),
        },
    );
    state.reduce(RaceAction::YamlRead { texts, said })
}

/// What the engines read `texts` as (`Ok`) or why they could not, at the
/// revision `state` asks them at.
fn read(
    state: &RaceState,
    answer: Result<Vec<ReadText>, Failure<crate::engines::Never>>,
) -> Answered<ReadYaml> {
    Answered {
        rev: state.typed,
        answer: answer.map(Rc::new),
        more: false,
    }
}

/// The engines' replay of what `state` runs, through the wire, as the
/// view hands it over.
fn raced(state: &RaceState) -> RaceAction {
    let rev = state.wants_race().expect("a replay is asked");
    RaceAction::Raced(through_the_wire(rev, state.race()))
}

/// The engines' exploration of what `state` explores, likewise.
fn explored_answer(state: &RaceState) -> RaceAction {
    let rev = state.wants_explore().expect("an exploration is asked");
    RaceAction::Explored(through_the_wire(rev, state.exploration_asked()))
}

/// The engines failing to replay what `state` runs now.
fn race_failure(state: &RaceState, why: Unavailable) -> RaceAction {
    RaceAction::Raced(Answered {
        rev: state.rev,
        answer: Err(Failure::Unavailable(why)),
        more: false,
    })
}

/// The interleavings of the exploration `state` shows.
pub(super) fn interleavings(state: &RaceState) -> &[Vec<Event>] {
    &state.exploration().unwrap().as_ref().unwrap().interleavings
}

/// `action` (a typed text) and the engines' reading of it.
pub(super) fn typed(state: &RaceState, action: RaceAction) -> RaceState {
    answered(&state.reduce(action))
}

#[test]
fn typed_texts_wait_for_the_engines_and_only_their_own_answer_is_taken() {
    let state = RaceState::default();
    let first = "- set-label: {key: a, value: b}\n";
    let waiting = state.reduce(RaceAction::EditIntents(0, first.into()));
    assert!(waiting.intents[0].reading && waiting.intents[0].error.is_none());
    assert_eq!(
        waiting.scenario, state.scenario,
        "nothing taken before it is read"
    );
    assert!(waiting.edited(), "a text waiting is work");
    assert_eq!(waiting.unread(), vec![Rc::from(first)]);
    // Typed on before the answer came: the answer of the old text is not
    // taken, and the new text still waits.
    let second = "- set-label: {key: c, value: d}\n";
    let typed_on = waiting.reduce(RaceAction::EditIntents(0, second.into()));
    let late = typed_on.reduce(RaceAction::YamlRead {
        texts: vec![Rc::from(first)],
        said: read(&waiting, Ok(vec![ReadText::of(first)])),
    });
    assert_eq!(late, typed_on);
    assert_eq!(late.unread(), vec![Rc::from(second)]);
    // Two editors waiting: one request for both, each takes its own.
    let both = typed_on.reduce(RaceAction::EditWriter(
        1,
        WriterEdit::Overrides("/metadata/labels: per-key\n".into()),
    ));
    assert_eq!(both.unread().len(), 2);
    let read = answered(&both);
    assert!(read.unread().is_empty());
    assert_eq!(read.scenario.writers[0].intents.len(), 1);
    assert_eq!(
        read.scenario.writers[1].set.get("/metadata/labels"),
        Some(&crate::strategy::Strategy::PerKey)
    );
    assert_eq!(read.intents[0].text, second, "the text stays as typed");
}

#[test]
fn a_text_the_engines_could_not_read_says_why_and_is_never_left_waiting() {
    let state = RaceState::default();
    let first = "- set-label: {key: a, value: b}\n";
    let waiting = state.reduce(RaceAction::EditIntents(0, first.into()));
    // The engines could not load: each waiting text says why, and stays.
    let failed = waiting.reduce(RaceAction::YamlRead {
        texts: waiting.unread(),
        said: read(
            &waiting,
            Err(Failure::Unavailable(Unavailable::Earlier(
                "the engine worker did not start".into(),
            ))),
        ),
    });
    assert!(!failed.intents[0].reading);
    assert_eq!(failed.intents[0].text, first);
    assert_eq!(
        failed.intents[0].error.as_ref().unwrap().to_string(),
        "Not read: patchlab's engines, which read YAML, are unavailable (the engine worker did not start)."
    );
    assert_eq!(failed.scenario, state.scenario);
    assert!(failed.edited());
    // An answer without a value for a text asked: said, never left waiting.
    let short = waiting.reduce(RaceAction::YamlRead {
        texts: waiting.unread(),
        said: read(&waiting, Ok(Vec::new())),
    });
    assert!(!short.intents[0].reading);
    assert!(matches!(
        short.intents[0].error,
        Some(IntentsError::Unread(_))
    ));
    // Typing again asks again.
    let again = failed.reduce(RaceAction::EditIntents(0, first.into()));
    assert_eq!(again.unread(), vec![Rc::from(first)]);
    // A blank overrides text needs no reading: none.
    let blank = state.reduce(RaceAction::EditWriter(
        0,
        WriterEdit::Overrides("  ".into()),
    ));
    assert!(blank.unread().is_empty());
}

#[test]
fn the_library_loads_and_the_race_replays() {
    // Every scenario file shipped in www/scenarios/ is in the menu.
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/www/scenarios"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "yaml")
        })
        .count();
    assert_eq!(library().len(), files);
    let state = RaceState::default();
    assert_eq!(state.source, Source::Shipped("migration-race".into()));
    assert_eq!(state.step, 0);
    assert!(state.current().is_none());
    let at = state.reduce(RaceAction::Goto(4));
    let step = at.current().unwrap();
    assert_eq!(step.writer, "virt-controller");
    assert_eq!(
        step.response.as_ref().unwrap().code,
        422,
        "the file's own preset is head"
    );
    let asking = at.reduce(RaceAction::SetPreset(Some(Preset::KubevirtPerKey)));
    // Until the engines answer, the replay before is shown (dimmed).
    assert!(!asking.replayed());
    assert_eq!(asking.current(), at.current());
    assert_eq!(asking.wants_race(), Some(asking.rev));
    assert_eq!(asking.race().preset, Some(Preset::KubevirtPerKey));
    let fixed = asking.replayed_here();
    assert!(fixed.replayed() && fixed.wants_race().is_none());
    assert_eq!(fixed.step, 4, "the step stays");
    assert_eq!(
        fixed.current().unwrap().response.as_ref().unwrap().code,
        200
    );
}

#[test]
fn stepping_and_playing() {
    let state = RaceState::default();
    let len = state.scenario.schedule.len();
    assert_eq!(state.reduce(RaceAction::Prev).step, 0);
    let mut s = state.reduce(RaceAction::Play);
    assert!(s.playing);
    for _ in 0..len + 3 {
        s = s.reduce(RaceAction::Tick);
    }
    assert_eq!(s.step, len);
    assert!(!s.playing, "stops at the end");
    let again = s.reduce(RaceAction::Play);
    assert_eq!(again.step, 0, "play at the end starts over");
    assert_eq!(state.reduce(RaceAction::Goto(99)).step, len);
    assert_eq!(state.reduce(RaceAction::End).step, len);
    assert_eq!(state.reduce(RaceAction::SetSpeed(1)).speed, 100);
}

#[test]
fn editing_the_timeline_and_intents() {
    let state = RaceState::default();
    let swapped = state.reduce(RaceAction::MoveUp(3));
    assert_eq!(
        swapped.scenario.schedule[2],
        Event::Write("virt-controller".into())
    );
    assert_eq!(
        swapped.source,
        Source::Edited,
        "an edited scenario is carried whole in links"
    );
    assert!(swapped.link().scenario.is_some());
    assert!(swapped.label().ends_with("(edited)"));
    let removed = state.reduce(RaceAction::RemoveEvent(0));
    assert_eq!(
        removed.scenario.schedule.len(),
        state.scenario.schedule.len() - 1
    );
    let added = state.reduce(RaceAction::AddEvent(Event::new(
        EventKind::Retry,
        "virt-handler",
    )));
    assert_eq!(
        added.scenario.schedule.len(),
        state.scenario.schedule.len() + 1
    );
    let bad = typed(&state, RaceAction::EditIntents(0, "- paint: {}\n".into()));
    assert!(matches!(bad.intents[0].error, Some(IntentsError::Shape(_))));
    assert_eq!(bad.scenario, state.scenario, "a bad edit changes nothing");
    let broken = typed(
        &state,
        RaceAction::EditIntents(0, "- set-label: [\n".into()),
    );
    assert!(matches!(
        broken.intents[0].error,
        Some(IntentsError::Syntax(_))
    ));
    let good = typed(
        &state,
        RaceAction::EditIntents(0, "- set-label: {key: a, value: b}\n".into()),
    );
    assert!(good.intents[0].error.is_none());
    assert_eq!(good.scenario.writers[0].intents.len(), 1);
    let preset = state.reduce(RaceAction::SetWriterPreset(0, Preset::Naive));
    assert_eq!(preset.scenario.writers[0].preset, Preset::Naive);
}

#[test]
fn compare_and_explore() {
    let state = RaceState::default().reduce(RaceAction::ToggleCompare);
    // A shipped scenario as shipped: its rows come with the page.
    assert!(state.replayed() && state.wants_race().is_none());
    let rows = state.compare_rows().unwrap();
    assert_eq!(rows.len(), Preset::ALL.len());
    let naive = rows.iter().find(|r| r.preset == Preset::Naive).unwrap();
    assert!(!naive.outcomes.as_ref().unwrap().lost_updates.is_empty());
    let asking = state.reduce(RaceAction::ToggleExplore);
    assert!(asking.exploration().is_none(), "the engines explore");
    assert_eq!(
        asking.wants_explore(),
        Some(asking.explore_rev),
        "the explorer asks"
    );
    let explored = asking.replayed_here();
    let exploration = explored.exploration().unwrap().as_ref().unwrap();
    assert!(exploration.interleavings.len() >= 10);
    assert!(explored.wants_explore().is_none(), "answered");
    assert!(explored
        .reduce(RaceAction::ToggleExplore)
        .exploration()
        .is_none());
    assert!(state
        .reduce(RaceAction::ToggleCompare)
        .compare_rows()
        .is_none());
}

#[test]
fn explorer_links_open_what_they_promise() {
    let explored = RaceState::default()
        .reduce(RaceAction::ToggleExplore)
        .replayed_here();
    let exploration = explored.exploration().unwrap().as_ref().unwrap().clone();
    let naive = exploration
        .presets
        .iter()
        .find(|r| r.preset == Preset::Naive)
        .unwrap();
    let index = naive.lost_updates.first.unwrap();
    let step = naive.lost_updates.first_step.unwrap();
    let asked = explored.reduce(RaceAction::OpenInterleaving {
        index,
        preset: Preset::Naive,
        step,
    });
    // The replay before stays on screen, dimmed, until the engines answer.
    assert!(asked.raced.shown().is_some() && !asked.replayed());
    assert!(asked.wants_race().is_some());
    assert!(
        asked.explored_here() && asked.wants_explore().is_none(),
        "the explorer's table is the scenario's: not asked again"
    );
    let opened = asked.replayed_here();
    // The row's preset for every writer, at the step that shows it.
    assert_eq!(opened.preset, Some(Preset::Naive));
    assert_eq!(opened.step, step);
    let current = opened.current().unwrap();
    assert!(
        !current.lost.is_empty(),
        "the lost update happens at that step: {current:?}"
    );
    let replay = opened.replay().unwrap().as_ref().unwrap();
    assert!(!replay.outcomes.lost_updates.is_empty());
    let (story, number, of) = opened.interleaving_story().unwrap();
    assert_eq!((number, of), (index + 1, exploration.interleavings.len()));
    assert!(!story.happenings.is_empty());
    // Not "(edited)": a shipped scenario in one of its interleavings.
    assert!(!opened.edited());
    assert!(
        opened.label().contains(&format!(
            "interleaving {} of {}",
            index + 1,
            exploration.interleavings.len()
        )),
        "{}",
        opened.label()
    );
    assert!(opened.exploration().is_some(), "the explorer's table stays");
    // And the link carries it all.
    let link = opened.link();
    assert_eq!(link.interleaving, Some(index));
    assert!(link.explore && link.scenario.is_none());
    let reopened = RaceState::open(link::decode(&link::encode(&link)).unwrap())
        .unwrap()
        .replayed_here();
    assert_eq!(reopened.current(), opened.current());
    assert_eq!(reopened.label(), opened.label());
}

#[test]
fn links_round_trip_every_panel() {
    let state = RaceState::default()
        .reduce(RaceAction::SetPreset(Some(Preset::Naive)))
        .reduce(RaceAction::Goto(4))
        .reduce(RaceAction::ToggleCompare)
        .reduce(RaceAction::ToggleExplore)
        .reduce(RaceAction::SetEditing(true))
        .replayed_here();
    let link = state.link();
    assert_eq!(link.id.as_deref(), Some("migration-race"));
    assert!(link.compare && link.explore && link.editing);
    let opened = RaceState::start(Start::new(Some(&link::encode(&link)), None)).replayed_here();
    assert_eq!(opened.current(), state.current());
    assert_eq!(opened.compare_rows(), state.compare_rows());
    assert!(opened.compare_rows().is_some());
    assert_eq!(opened.exploration(), state.exploration());
    assert!(opened.exploration().is_some());
    assert!(opened.editing);
    // Links made before these panels existed still open.
    let old = serde_json::json!({"id": "finalizer-race", "preset": "naive", "step": 3});
    let old: RaceLink = link::decode(&link::encode(&old)).unwrap();
    assert_eq!(RaceState::open(old).unwrap().step, 3);
    let bad = RaceLink::shipped("nope", None, 0);
    assert_eq!(
        RaceState::open(bad.clone()).unwrap_err().to_string(),
        "there is no scenario \"nope\""
    );
    // A bad link opened over a race leaves it as it was.
    let edited = state.reduce(RaceAction::MoveDown(0));
    let after = edited.reduce(RaceAction::Open(bad));
    assert_eq!(after.scenario, edited.scenario);
    assert_eq!(after.step, edited.step);
    let notice = after.notice.unwrap();
    assert_eq!(
        notice.text,
        "This link could not be opened: there is no scenario \"nope\". Nothing was changed."
    );
}

#[test]
fn loading_over_an_edited_race_can_be_undone() {
    let shipped = RaceState::default();
    // A shipped scenario as shipped: nothing to lose, no undo.
    let other = library()[1].0;
    let loaded = shipped.reduce(RaceAction::Load(other.to_owned()));
    assert_eq!(loaded.source, Source::Shipped(other.into()));
    assert!(loaded.undo.is_none() && loaded.notice.is_none());
    // An edited schedule is kept for an undo.
    let edited = shipped
        .reduce(RaceAction::MoveDown(0))
        .reduce(RaceAction::Goto(3));
    assert!(edited.edited());
    let loaded = edited.reduce(RaceAction::Load(other.to_owned()));
    let notice = loaded.notice.clone().unwrap();
    assert_eq!(notice.undo.as_deref(), Some("Undo"));
    assert!(
        notice
            .text
            .ends_with("Your edited race is kept: Undo brings it back."),
        "{}",
        notice.text
    );
    let undone = loaded.reduce(RaceAction::Undo);
    assert_eq!(undone.scenario, edited.scenario);
    assert_eq!(undone.step, 3);
    assert_eq!(undone.replay(), edited.replay());
    assert_eq!(
        (undone.replayed(), undone.wants_race().is_some()),
        (edited.replayed(), edited.wants_race().is_some()),
        "Undo brings back the replay as it was"
    );
    assert!(undone.undo.is_none() && undone.notice.is_none());
    // Intents text that did not parse counts as work too.
    let typing = typed(
        &shipped,
        RaceAction::EditIntents(0, "- set-label: [".to_owned()),
    );
    assert!(typing.edited());
    let undone = typing
        .reduce(RaceAction::Load(other.to_owned()))
        .reduce(RaceAction::Undo);
    assert_eq!(undone.intents[0].text, "- set-label: [");
    // An edit after the load keeps the undo (one policy for every view),
    // and Undo then keeps that edit in turn: nothing is lost.
    let later = edited
        .reduce(RaceAction::Load(other.to_owned()))
        .reduce(RaceAction::MoveDown(0));
    assert!(later.edited() && later.undo.is_some());
    let back = later.reduce(RaceAction::Undo);
    assert_eq!(back.scenario, edited.scenario);
    assert!(back
        .notice
        .as_ref()
        .unwrap()
        .text
        .starts_with("Brought back your edited race. Your edited race is kept"));
    assert_eq!(back.reduce(RaceAction::Undo).scenario, later.scenario);
    // A link opened over saved edits keeps them for an undo too.
    let opened = RaceState::start(Start::new(
        Some(&link::encode(&shipped.link())),
        Some(&link::encode(&edited.link())),
    ));
    assert_eq!(opened.reduce(RaceAction::Undo).scenario, edited.scenario);
}

#[test]
fn the_kubernetes_release_runs_the_replay_and_travels_in_the_link() {
    use crate::kube::KubeVersion;
    use crate::sim::timeline::{replay, Scenario};
    let state = RaceState::default();
    assert_eq!(state.cluster(), KubeVersion::NEWEST);
    let v128: KubeVersion = "1.28.0".parse().unwrap();
    let moved = state.reduce(RaceAction::SetKubernetes(v128));
    assert_eq!(moved.cluster(), v128);
    assert!(
        !moved.edited(),
        "choosing a release is not an edit of the scenario"
    );
    let expected = replay(
        &Scenario {
            kubernetes: Some(v128),
            ..moved.scenario.clone()
        },
        moved.preset,
    );
    assert!(!moved.replayed(), "another release: the engines replay it");
    assert!(moved.wants_race().is_some());
    assert_eq!(moved.race().scenario.kubernetes, Some(v128));
    let moved = moved.replayed_here();
    assert_eq!(
        moved.replay().unwrap().as_ref().ok(),
        expected.as_ref().ok().map(ReplayView::of).as_ref(),
        "the replay runs on the release chosen"
    );
    let link = moved.link();
    assert_eq!(link.kubernetes, Some(v128));
    let opened = RaceState::open(link).unwrap().replayed_here();
    assert_eq!(opened.cluster(), v128);
    assert_eq!(opened.replay(), moved.replay());
    let other = moved.reduce(RaceAction::Load("finalizer-race".into()));
    assert_eq!(
        other.cluster(),
        v128,
        "loading another scenario keeps the release, like the preset"
    );
    let back = moved.reduce(RaceAction::SetKubernetes(KubeVersion::NEWEST));
    assert_eq!(
        back.kubernetes, None,
        "the scenario's own release leaves the link short"
    );
}

#[test]
fn a_link_to_an_interleaving_out_of_range_says_which_without_wrapping() {
    // 4294967295 is usize::MAX in the browser (wasm32): shown + 1, it must
    // not wrap to "interleaving 0".
    for (index, shown) in [
        (4_294_967_295usize, "4294967296".to_owned()),
        (
            usize::MAX,
            (u128::try_from(usize::MAX).unwrap() + 1).to_string(),
        ),
    ] {
        let mut link = RaceState::default().link();
        link.interleaving = Some(index);
        let err = RaceState::open(link).unwrap_err();
        assert_eq!(err, OpenError::UnknownInterleaving(index));
        assert_eq!(
            err.to_string(),
            format!("the scenario has no interleaving {shown}")
        );
    }
}

/// States compare by what they are made of: a replay computed again from
/// the same scenario is the same state (no re-render), any input differs.
#[test]
fn states_are_equal_when_made_of_the_same() {
    let state = RaceState::default();
    let again = state.reduce(RaceAction::SetPreset(None));
    assert_eq!(again, state);
    assert_eq!(again.replay(), state.replay());
    assert_ne!(state.reduce(RaceAction::Goto(2)), state);
    assert_ne!(state.reduce(RaceAction::ToggleCompare), state);
    assert_ne!(state.reduce(RaceAction::ToggleExplore), state);
    assert_ne!(
        state.reduce(RaceAction::SetPreset(Some(Preset::Naive))),
        state
    );
    assert_ne!(state.reduce(RaceAction::MoveUp(3)), state);
    assert_ne!(
        state.reduce(RaceAction::EditIntents(0, "- x".into())),
        state
    );
}

/// A state brought back (Undo, a load, a link) asks again for its texts
/// waiting to be read: the view asks when `typed` changes, and a state
/// that replaces another counts on from it.
#[test]
fn a_text_waiting_when_its_race_was_replaced_is_asked_again_when_it_comes_back() {
    let state = RaceState::default();
    let waiting = state.reduce(RaceAction::EditIntents(
        0,
        "- set-label: {key: a, value: b}\n".into(),
    ));
    let other = library()[1].0;
    let loaded = waiting.reduce(RaceAction::Load(other.to_owned()));
    assert!(loaded.unread().is_empty());
    assert_ne!(loaded.typed, waiting.typed);
    // Typed there too, and read: the counter moves on.
    let there = typed(
        &loaded,
        RaceAction::EditIntents(0, "- set-label: {key: c, value: d}\n".into()),
    );
    let back = there.reduce(RaceAction::Undo);
    assert_eq!(back.unread(), waiting.unread(), "the waiting text is back");
    assert!(back.typed > there.typed, "so the view asks for it again");
    let read = answered(&back);
    assert_eq!(read.scenario.writers[0].intents.len(), 1);
}

/// An overrides text typed and not taken yet stays when another setting
/// of the writer changes.
#[test]
fn an_overrides_text_waiting_stays_when_another_setting_changes() {
    let state = RaceState::default();
    let text = "/metadata/labels: per-key\n";
    let waiting = state.reduce(RaceAction::EditWriter(
        0,
        WriterEdit::Overrides(text.into()),
    ));
    let attempts = waiting.reduce(RaceAction::EditWriter(0, WriterEdit::Attempts(5)));
    assert_eq!(attempts.scenario.writers[0].attempts, 5);
    assert!(attempts.overrides[0].reading);
    assert_eq!(attempts.overrides[0].text, text);
    let read = answered(&attempts);
    assert_eq!(
        read.scenario.writers[0].set.get("/metadata/labels"),
        Some(&crate::strategy::Strategy::PerKey)
    );
    assert_eq!(read.scenario.writers[0].attempts, 5, "both kept");
    // A refused one stays too.
    let refused = typed(
        &state,
        RaceAction::EditWriter(0, WriterEdit::Overrides("/a: sideways".into())),
    );
    let forced = refused.reduce(RaceAction::EditWriter(0, WriterEdit::Force(true)));
    assert_eq!(forced.overrides[0].text, "/a: sideways");
    assert!(forced.overrides[0].error.is_some());
}

#[test]
fn every_shipped_scenario_shows_at_once_without_the_engines() {
    for (id, scenario) in library() {
        let state = RaceState::load(id);
        assert!(state.replayed(), "{id}: bundled");
        assert!(state.wants_race().is_none(), "{id}: nothing asked");
        let replay = state.replay().unwrap().as_ref().unwrap();
        assert_eq!(replay.steps.len(), scenario.schedule.len(), "{id}");
        assert!(state.release_differences().is_some(), "{id}");
        // Another preset is the engines' to replay.
        let other = state.reduce(RaceAction::SetPreset(Some(Preset::Naive)));
        assert!(!other.replayed() && other.wants_race().is_some(), "{id}");
        // And back: bundled again, nothing asked.
        let back = other.reduce(RaceAction::SetPreset(None));
        assert!(back.replayed() && back.wants_race().is_none(), "{id}");
    }
}

#[test]
fn a_late_answer_is_dropped_and_a_failure_is_said_and_kept() {
    let state = RaceState::default();
    let first = state.reduce(RaceAction::SetPreset(Some(Preset::Naive)));
    let late = raced(&first);
    let second = first.reduce(RaceAction::SetPreset(Some(Preset::KubevirtPerKey)));
    assert!(second.rev > first.rev);
    // The answer to the first question comes after the second was asked.
    let dropped = second.reduce(late);
    assert_eq!(dropped, second, "not taken: it answers another revision");
    assert!(dropped.wants_race().is_some(), "still asked");
    // A failure: said for this revision, not asked again, the race kept.
    let failed = second.reduce(race_failure(&second, Unavailable::Stopped));
    assert_eq!(
        failed.race_failed(),
        Some(&Failure::Unavailable(Unavailable::Stopped))
    );
    assert!(failed.wants_race().is_none(), "not asked again in a loop");
    assert_eq!(failed.scenario, second.scenario);
    assert_eq!(failed.preset, Some(Preset::KubevirtPerKey));
    // A change asks again.
    let changed = failed.reduce(RaceAction::SetPreset(Some(Preset::Naive)));
    assert!(changed.race_failed().is_none() && changed.wants_race().is_some());
    // The right answer is taken.
    let taken = changed.reduce(raced(&changed));
    assert!(taken.replayed() && taken.race_failed().is_none());
    // The explorer, likewise.
    let exploring = taken.reduce(RaceAction::ToggleExplore);
    let asked = explored_answer(&exploring);
    let moved = exploring.reduce(RaceAction::SetKubernetes("1.30".parse().unwrap()));
    assert!(moved.explore_rev != exploring.explore_rev);
    let stale = moved.reduce(asked);
    assert_eq!(stale, moved, "an exploration of another release is dropped");
    let failed = moved.reduce(RaceAction::Explored(Answered {
        rev: moved.explore_rev,
        answer: Err(Failure::Unavailable(Unavailable::Stopped)),
        more: false,
    }));
    assert_eq!(
        failed.explore_failed(),
        Some(&Failure::Unavailable(Unavailable::Stopped))
    );
    assert!(failed.wants_explore().is_none());
}

/// The reducer is pure (the same state and action, the same state,
/// revisions included), and no revision is given twice: after an Undo, no
/// answer asked before it is taken, and the answers and failures the state
/// had come back with it.
#[test]
fn revisions_are_never_reused_so_undo_never_takes_another_state_s_answer() {
    let state = RaceState::default().reduce(RaceAction::MoveDown(0));
    let state = state.reduce(RaceAction::ToggleExplore);
    let link = RaceLink {
        explore: true,
        ..RaceLink::shipped("finalizer-race", Some(Preset::Naive), 2)
    };
    let load = RaceAction::Load("finalizer-race".into());
    let failure = race_failure(&state, Unavailable::Stopped);
    let open = RaceAction::Open(link);
    for action in [&load, &open, &RaceAction::MoveUp(1), &failure] {
        let next = state.reduce(action.clone());
        assert_eq!(next, state.reduce(action.clone()), "{action:?}");
        assert!(next.last_rev >= state.last_rev, "{action:?}");
    }
    let naive = || RaceState::default().reduce(RaceAction::SetPreset(Some(Preset::Naive)));
    assert_eq!(naive(), naive(), "the same change twice: the same revision");
    let loaded = state.reduce(open);
    assert!(loaded.rev > state.last_rev, "a link is numbered past");
    let undone = loaded.reduce(RaceAction::Undo);
    assert!(undone.rev > loaded.last_rev, "Undo takes no revision back");
    for asked in [&state, &loaded] {
        let late = undone.reduce(raced(asked));
        assert_eq!(late.reduce(explored_answer(asked)), undone);
    }
    let answered = undone.replayed_here();
    assert!(answered.replayed() && answered.explored_here());
    let back = answered.reduce(load).reduce(RaceAction::Undo);
    assert!(back.replayed(), "Undo brings back the replay it had");
    assert_eq!(back.replay(), answered.replay());
    let failed = state
        .reduce(failure)
        .reduce(RaceAction::Open(loaded.link()));
    let back = failed.reduce(RaceAction::Undo);
    assert!(back.race_failed().is_some() && back.wants_race().is_none());
}

#[test]
fn an_edited_race_never_opens_an_interleaving_of_its_exploration_before_the_edit() {
    let explored = RaceState::default()
        .reduce(RaceAction::MoveDown(0))
        .reduce(RaceAction::ToggleExplore)
        .replayed_here();
    assert!(explored.explored_here());
    let shorter = explored.reduce(RaceAction::RemoveEvent(0));
    assert_eq!(
        shorter.scenario.schedule.len(),
        explored.scenario.schedule.len() - 1
    );
    assert!(
        !shorter.explored_here(),
        "the table is of the race before the edit"
    );
    let opened = shorter.reduce(RaceAction::OpenInterleaving {
        index: 0,
        preset: Preset::Naive,
        step: 0,
    });
    assert_eq!(
        opened.scenario.schedule, shorter.scenario.schedule,
        "the removed event does not come back"
    );
    // Once the engines explored the edited race, its rows open.
    let answered = shorter.clone().replayed_here();
    let reopened = answered.reduce(RaceAction::OpenInterleaving {
        index: 0,
        preset: Preset::Naive,
        step: 0,
    });
    assert_eq!(
        reopened.scenario.schedule.len(),
        shorter.scenario.schedule.len()
    );
    assert_eq!(reopened.preset, Some(Preset::Naive));
}
