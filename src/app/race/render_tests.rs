//! The Race view's parts, rendered natively (see `app::render_test`).

use std::rc::Rc;

use yew::prelude::*;

use super::lanes::LanesProps;
use super::player::PlayerProps;
use super::step_card::{step_card, StepCardProps};
use super::tables::{
    compare_table, explorer_table, outcomes_table, CompareProps, ExplorerProps, OutcomesProps,
};
use super::timeline_editor::{timeline_editor, TimelineEditorProps};
use super::*;
use crate::app::render_test::{count, element, opening, render_view, text};
use crate::app::view_state::ViewState;
use crate::strategy::Preset;
use crate::vocabulary::{Term, COMPARE_COLUMNS, REPLAY_COLUMNS};

fn head_at(step: usize) -> RaceState {
    RaceState::default()
        .reduce(RaceAction::SetPreset(Some(Preset::KubevirtMain)))
        .reduce(RaceAction::Goto(step))
        .replayed_here()
}

fn outcomes(state: &RaceState) -> String {
    let replay = state.replay().unwrap().as_ref().unwrap();
    render_view(outcomes_table(&yew::props!(OutcomesProps {
        outcomes: replay.outcomes.clone(),
    })))
}

fn lanes(state: &RaceState) -> String {
    render_view(super::lanes::lanes(&yew::props!(LanesProps {
        raced: Rc::clone(&state.raced.latest.as_ref().unwrap().1),
        step: state.step,
        writers: state
            .scenario
            .writers
            .iter()
            .map(|w| w.name.clone())
            .collect::<Vec<_>>(),
        ongoto: Callback::noop(),
    })))
}

fn card(state: &RaceState) -> String {
    render_view(step_card(&yew::props!(StepCardProps {
        step: state.current().cloned(),
        previous: state.previous_object().cloned(),
    })))
}

/// The `<td>`s of the body row whose header cell reads `row`.
fn cells(table: &str, row: &str) -> Vec<String> {
    let at = table
        .find(&format!(r#"<th scope="row">{row}</th>"#))
        .unwrap_or_else(|| panic!("no row {row}"));
    let end = table[at..].find("</tr>").map_or(table.len(), |e| at + e);
    table[at..end]
        .split("<td")
        .skip(1)
        .map(|cell| text(&format!("<td{cell}")))
        .collect()
}

#[test]
fn the_outcomes_table_has_the_cli_s_columns_gave_up_included() {
    let html = outcomes(&head_at(4));
    let head = element(&html, "<thead>").unwrap();
    let labels: Vec<&str> = REPLAY_COLUMNS.iter().map(|t| t.label()).collect();
    let expected = format!("Writer Preset {} ? Intent holds ?", labels.join(" ? "));
    assert_eq!(text(head), expected);
    assert!(head.contains(r#"aria-label="What is “Gave up”?""#));
    assert_eq!(count(head, r#"<th scope="col">"#), REPLAY_COLUMNS.len() + 3);
    // virt-controller under head: 2 writes, 1 OK, one 422, a retry, a
    // true conflict of its request and a needless failure of its intent;
    // its intent holds in the end.
    let controller = cells(&html, "virt-controller");
    assert_eq!(controller.len(), REPLAY_COLUMNS.len() + 2);
    assert_eq!(controller[0], "kubevirt-main");
    let count_of = |term: Term| {
        let i = REPLAY_COLUMNS.iter().position(|t| *t == term).unwrap();
        controller[i + 1].clone()
    };
    assert_eq!(count_of(Term::Writes), "2");
    assert_eq!(count_of(Term::Invalid), "1");
    assert_eq!(count_of(Term::FalseConflict), "0");
    assert_eq!(count_of(Term::TrueConflict), "1");
    assert_eq!(count_of(Term::NeedlessFailure), "1");
    assert_eq!(count_of(Term::GaveUp), "0");
    assert_eq!(controller.last().unwrap(), "yes");
    assert_eq!(cells(&html, "virt-handler")[0], "update");
    assert!(text(&html).ends_with("Every writer's intent holds at the end."));
    // Naive: virt-handler's changes are lost, in red, and said at the end.
    let naive = RaceState::default()
        .reduce(RaceAction::SetPreset(Some(Preset::Naive)))
        .replayed_here();
    let html = outcomes(&naive);
    let lost = REPLAY_COLUMNS
        .iter()
        .position(|t| *t == Term::LostUpdate)
        .unwrap();
    assert!(count(&html, r#"<td class="bad">"#) >= 1);
    let handler = cells(&html, "virt-handler");
    assert_eq!(handler.last().unwrap(), "no");
    let row = &html[html.find("virt-handler</th>").unwrap()..];
    let lost_cell = row.split("<td").nth(lost + 2).unwrap();
    assert!(lost_cell.starts_with(r#" class="bad">"#), "{lost_cell}");
    assert!(text(&html).ends_with("At the end, the intent of virt-handler does not hold."));
}

#[test]
fn compare_mode_counts_per_preset_and_says_whose() {
    let compared = head_at(0).reduce(RaceAction::ToggleCompare);
    assert!(compared.compare_rows().is_some());
    let html = render_view(compare_table(&yew::props!(CompareProps {
        raced: Rc::clone(&compared.raced.latest.as_ref().unwrap().1),
    })));
    let head = element(&html, "<thead>").unwrap();
    assert_eq!(
        count(head, r#"<th scope="col">"#),
        COMPARE_COLUMNS.len() + 2
    );
    assert_eq!(count(&html, r#"<th scope="row">"#), Preset::ALL.len());
    // The e2e suite reads naive's sixth cell: lost updates, and whose.
    let naive = cells(&html, "naive");
    assert_eq!(naive.len(), COMPARE_COLUMNS.len() + 1);
    assert_eq!(
        COMPARE_COLUMNS.iter().position(|t| *t == Term::LostUpdate),
        Some(5)
    );
    assert_eq!(naive[5], "2 virt-handler 2");
    assert_eq!(naive[COMPARE_COLUMNS.len()], "virt-handler");
    let head_row = cells(&html, "kubevirt-main");
    assert_eq!(head_row[0], "3 virt-controller 2, virt-handler 1");
    assert_eq!(head_row[COMPARE_COLUMNS.len()], "none");
    // The note names the writers that keep their own.
    assert!(html.contains("Every writer uses the row&#x27;s preset, except: virt-handler keeps its own preset (update)") || html.contains("Every writer uses the row's preset, except: virt-handler keeps its own preset (update)"), "{html}");
}

#[test]
fn the_explorer_counts_interleavings_and_opens_the_first_of_each() {
    let explored = head_at(0).reduce(RaceAction::ToggleExplore).replayed_here();
    let html = render_view(explorer_table(&yew::props!(ExplorerProps {
        explored: Rc::clone(&explored.explored.latest.as_ref().unwrap().1),
        onopen: Callback::noop(),
    })));
    assert_eq!(
        text(element(&html, r#"id="explorer-title""#).unwrap()),
        "Every interleaving (20), per preset"
    );
    let head = cells(&html, "kubevirt-main");
    assert_eq!(
        head[0],
        "12 of 20 virt-controller 6, virt-handler 6 open the first (#5)"
    );
    assert_eq!(head[2], "0 of 20");
    assert!(
        html.contains(r#"aria-label="Open the first interleaving with a lost update under naive""#)
    );
}

#[test]
fn lanes_mark_what_happened_and_the_current_step() {
    let html = lanes(&head_at(4));
    assert_eq!(count(&html, r#"class="lane w"#), 2);
    let current = opening(&html, r#"aria-current="step""#).unwrap();
    assert!(current.contains(r#"aria-label="Step 4: virt-controller write 422""#));
    assert!(current.contains(r#"class="ev ev-bad done current""#));
    // Each event sits in its writer's lane; the others leave a gap.
    assert_eq!(count(&html, r#"class="ev-gap""#), 6);
    // What has not happened yet shows no answer.
    let later = opening(&html, r#"aria-label="Step 5: virt-controller retry""#).unwrap();
    assert!(!later.contains(" done"));
    assert_eq!(count(&html, r#"class="ev-code""#), 2);
    let start = lanes(&head_at(0));
    assert_eq!(count(&start, "aria-current"), 0);
    assert_eq!(count(&start, " done"), 0);
}

#[test]
fn the_step_card_shows_the_request_the_answer_and_why() {
    let html = card(&head_at(4));
    assert_eq!(
        text(element(&html, "<h2>").unwrap()),
        "Step 4: virt-controller write"
    );
    let failing = element(&html, r#"class="op op-test failing""#).unwrap();
    assert!(failing.contains(r#"<code class="op-path">/metadata/labels</code>"#));
    assert!(failing.contains(r#"<span class="fail-badge">failed here</span>"#));
    assert_eq!(count(&html, "failing"), 1);
    let response = element(&html, r#"role="status""#).unwrap();
    assert!(response.contains("response-bad"));
    assert!(response.contains("<h3>Response: 422 Invalid</h3>"));
    assert!(
        text(response).contains("the server rejected our request due to an error in our request")
    );
    assert!(
        text(element(&html, r#"class="hidden-cause""#).unwrap()).contains("path /metadata/labels")
    );
    // Two verdicts that disagree, each judged as it says.
    let notes = text(element(&html, r#"class="class-note""#).unwrap());
    assert!(
        notes.starts_with("True conflict (judged on the request): the request, forced"),
        "{notes}"
    );
    assert!(text(element(&html, r#"class="class-note warn""#).unwrap())
        .starts_with("Needless failure (judged on the intent): what it meant, done afresh"));
    assert!(
        html.contains("The object (unchanged)"),
        "a failed write changes nothing"
    );
    // Before the first event: what to do, and the object.
    let html = card(&head_at(0));
    assert!(text(&html).starts_with("Before the first event Step forward"));
    assert!(html.contains("The object (unchanged)"));
    // A write that succeeds: stored, with its resourceVersion.
    let html = card(&head_at(3));
    assert!(text(&html).contains("Response: 200 OK Stored with resourceVersion"));
    assert!(html.contains("The object after this step (changes marked)"));
    assert!(
        count(&html, r#"class="diff-add""#) > 0,
        "the changed line is marked"
    );
}

#[test]
fn the_player_disables_what_cannot_be_done_and_counts_steps() {
    let player = |step: usize, playing: bool| {
        render_view(super::player::player(&yew::props!(PlayerProps {
            step,
            len: 6,
            playing,
            speed: 350,
            send: Callback::noop(),
        })))
    };
    let start = player(0, false);
    assert_eq!(count(&start, "disabled="), 2, "Start and Back");
    assert_eq!(
        text(element(&start, r#"class="step-count""#).unwrap()),
        "step 0 of 6"
    );
    assert!(start.contains(r#"<option value="350" selected="selected">fast</option>"#));
    assert!(opening(&start, r#"aria-label="Timeline position""#)
        .unwrap()
        .contains(r#"max="6""#));
    let end = player(6, true);
    assert_eq!(count(&end, "disabled="), 1, "Forward");
    assert!(text(&end).contains("Pause p"));
    assert!(!text(&end).contains("Play p"));
}

/// The timeline editor of `state` (writing `objects`), open, its callbacks
/// doing nothing.
fn open_editor(state: &RaceState, objects: Vec<String>) -> String {
    render_view(timeline_editor(&yew::props!(TimelineEditorProps {
        writers: state.scenario.writers.clone(),
        intents: state.intents.clone(),
        overrides: state.overrides.clone(),
        objects,
        schedule: state.scenario.schedule.clone(),
        open: true,
        ontoggle: Callback::noop(),
        onpreset: Callback::noop(),
        onintents: Callback::noop(),
        onadd: Callback::noop(),
        onremove: Callback::noop(),
        onup: Callback::noop(),
        ondown: Callback::noop(),
    })))
}

#[test]
fn the_timeline_editor_shows_each_writer_and_why_intents_were_not_taken() {
    let typing = super::tests::typed(
        &RaceState::default(),
        RaceAction::EditIntents(0, "- set-label: [".into()),
    );
    let html = open_editor(&typing, Vec::new());
    assert!(opening(&html, "<details")
        .unwrap()
        .contains(r#"open="open""#));
    assert_eq!(count(&html, r#"class="writer-card""#), 2);
    assert!(html.contains("<h4>virt-handler (fixed preset)</h4>"));
    let preset = element(&html, r#"aria-label="Preset of virt-handler""#).unwrap();
    assert!(preset.contains(r#"<option value="update" selected="selected">"#));
    assert_eq!(
        count(&html, r#"role="alert""#),
        1,
        "the text not taken says why"
    );
    assert_eq!(count(&html, r#"aria-label="Remove event"#), 6);
    assert!(html.contains(r#"aria-label="Move event 6 down""#));
    let add = element(&html, r#"class="add-event""#).unwrap();
    assert!(add.contains(r#"aria-label="Writer of the new event""#));
    assert!(add.contains(r#"<option value="0" selected="selected">virt-controller</option>"#));
}

#[test]
fn the_timeline_editor_shows_each_writers_overrides_and_settings() {
    let state = super::tests::typed(
        &RaceState::default(),
        RaceAction::EditWriter(
            0,
            super::WriterEdit::Overrides("/metadata/labels: per-key\n".into()),
        ),
    );
    let objects = vec!["VirtualMachineInstance/a".into(), "Pod/b".into()];
    let html = open_editor(&state, objects);
    let name = &state.scenario.writers[0].name;
    let overrides = element(&html, &format!(r#"aria-label="Field overrides of {name}""#)).unwrap();
    assert!(
        overrides.contains("/metadata/labels: per-key"),
        "{overrides}"
    );
    let attempts = opening(&html, &format!(r#"aria-label="Attempts of {name}""#)).unwrap();
    assert!(
        attempts.contains(&format!(
            r#"value="{}""#,
            state.scenario.writers[0].attempts
        )),
        "{attempts}"
    );
    for what in [
        "keeps its own preset",
        "applies with force",
        "forces on retry",
    ] {
        assert_eq!(count(&html, what), state.scenario.writers.len(), "{what}");
    }
    // With more than one object, which one each writer writes.
    assert!(html.contains(&format!(r#"aria-label="Object {name} writes""#)));
    assert!(html.contains("the first object"));
}

#[test]
fn a_replayed_interleaving_shows_its_own_story_and_who_is_never_retried() {
    use super::story_card::{story_card, StoryCardProps};
    let explored = RaceState::default()
        .reduce(RaceAction::ToggleExplore)
        .replayed_here();
    let opened = explored.reduce(RaceAction::OpenInterleaving {
        index: 1,
        preset: crate::strategy::Preset::KubevirtMain,
        step: 0,
    });
    assert_eq!(opened.interleaving_story(), None, "not replayed yet");
    let (story, number, of) = opened.replayed_here().interleaving_story().unwrap();
    let lines = story.describe();
    let html = render_view(story_card(&yew::props!(StoryCardProps {
        story,
        number,
        of,
        never_retried: vec!["backup-controller".to_owned()],
    })));
    let read = text(&html);
    assert!(
        read.starts_with(&format!(
            "Interleaving 2 of {of}: what happened in this order"
        )),
        "{read}"
    );
    assert_eq!(count(&html, "<li>"), lines.len());
    for line in &lines {
        assert!(read.contains(line.as_str()), "{line}");
    }
    assert!(read.ends_with(
        "Never retried: backup-controller has no retry in the schedule, so its failed writes stay failed in every order."
    ), "{read}");
}

#[test]
fn a_text_waiting_to_be_read_says_so_and_is_busy() {
    let waiting = RaceState::default()
        .reduce(RaceAction::EditIntents(
            0,
            "- set-label: {key: a, value: b}\n".into(),
        ))
        .reduce(RaceAction::EditWriter(
            1,
            super::WriterEdit::Overrides("/metadata/labels: per-key\n".into()),
        ));
    let html = open_editor(&waiting, Vec::new());
    assert_eq!(
        text(&html).matches(super::timeline_editor::READING).count(),
        2
    );
    let note = element(&html, r#"class="muted reading""#).unwrap();
    assert!(
        opening(note, "<p").unwrap().contains(r#"role="status""#),
        "{note}"
    );
    let name = &waiting.scenario.writers[0].name;
    assert!(
        opening(&html, &format!(r#"aria-label="Intents of {name}""#))
            .unwrap()
            .contains(r#"aria-busy="true""#)
    );
    let other = &waiting.scenario.writers[1].name;
    assert!(
        opening(&html, &format!(r#"aria-label="Intents of {other}""#))
            .unwrap()
            .contains(r#"aria-busy="false""#)
    );
    let read = open_editor(&super::tests::answered(&waiting), Vec::new());
    assert_eq!(
        text(&read).matches(super::timeline_editor::READING).count(),
        0
    );
    assert_eq!(count(&read, r#"aria-busy="true""#), 0);
    assert_eq!(count(&read, r#"role="alert""#), 0, "both read and taken");
}

/// Once the race is edited, its description is said to be the shipped
/// scenario's: the edits may make the replay do something else.
#[test]
fn an_edited_race_says_its_description_is_the_shipped_ones() {
    let state = RaceState::default();
    let shipped = text(&render_view(super::story_card::subject_note(&state)));
    assert!(
        !shipped.is_empty() && !shipped.starts_with("Edited"),
        "{shipped}"
    );
    let edited = state.reduce(RaceAction::MoveUp(3));
    let note = text(&render_view(super::story_card::subject_note(&edited)));
    assert!(
        note.starts_with(
            "Edited: the description of the scenario as shipped; the replay below is of your edits"
        ),
        "{note}"
    );
    assert!(note.ends_with(&state.scenario.description), "{note}");
}

/// Where the two verdicts agree, the card names the intent's verdict too
/// (a clashing intent beside a true conflict), never a bare "agrees".
#[test]
fn agreeing_verdicts_name_the_intents_word() {
    let mut seen = 0;
    for (id, scenario) in super::scenarios::library() {
        for preset in Preset::ALL {
            let state = RaceState::default()
                .reduce(RaceAction::Load((*id).to_owned()))
                .reduce(RaceAction::SetPreset(Some(preset)));
            for step in 1..=scenario.schedule.len() {
                let at = state.reduce(RaceAction::Goto(step)).replayed_here();
                let Some(view) = at.current() else { continue };
                let (Some(kind), Some(intent)) = (view.conflict, view.intent) else {
                    continue;
                };
                if !intent.agrees(kind) {
                    continue;
                }
                let read = text(&card(&at));
                let said = format!(
                    "; judged on its intent too, a {}.",
                    intent.word().to_lowercase()
                );
                assert!(read.contains(&said), "{id} {preset:?} step {step}: {read}");
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "some shipped race has agreeing verdicts");
}
