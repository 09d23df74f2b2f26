//! A replayed interleaving's own story: what happened in this order (the
//! failed writes and how each is classed, the lost updates, where each
//! writer ended), in place of the scenario's description, which tells the
//! scenario's own schedule.

use yew::prelude::*;

use crate::sim::story::Story;

#[derive(PartialEq, Properties)]
pub struct StoryCardProps {
    /// The story of the replay on screen.
    pub story: Story,
    /// The interleaving's number, from 1.
    pub number: usize,
    /// How many interleavings there are.
    pub of: usize,
    /// The writers the schedule never lets retry.
    #[prop_or_default]
    pub never_retried: Vec<String>,
}

/// The story of a replayed interleaving.
pub fn story_card(props: &StoryCardProps) -> Html {
    let lines = props.story.describe();
    html! {
        <section class="story-card" aria-labelledby="story-title">
            <h2 id="story-title">{ format!("Interleaving {} of {}: what happened in this order", props.number, props.of) }</h2>
            <p class="muted">{ "Told from this replay, not from the scenario's description (which tells the scenario's own order)." }</p>
            <ol class="story">
                { for lines.iter().map(|line| html! { <li>{ line.clone() }</li> }) }
            </ol>
            { never_retried(&props.never_retried, "") }
        </section>
    }
}

/// "Never retried: X has no retry in the schedule ..." (nothing when none),
/// `more` said after it.
pub fn never_retried(names: &[String], more: &str) -> Html {
    let who = match names {
        [] => return html! {},
        [one] => format!("{one} has"),
        many => format!("{} have", many.join(" and ")),
    };
    let whose = if names.len() == 1 { "its" } else { "their" };
    html! {
        <p class="never-retried">
            <strong>{ "Never retried: " }</strong>
            { format!("{who} no retry in the schedule, so {whose} failed writes stay failed in every order.{more}") }
        </p>
    }
}

/// The scenario's description, said to be the shipped scenario's once it
/// is edited (an edited race may no longer do what it tells).
pub(super) fn subject_note(state: &super::state::RaceState) -> Html {
    if state.scenario.description.is_empty() {
        return Html::default();
    }
    let edited = state.source == super::state::Source::Edited;
    html! {
        <p class="subject-note">
            if edited {
                <strong>{ "Edited: " }</strong>
                { "the description of the scenario as shipped; the replay below is of your edits, and may no longer do what it says. " }
            }
            { state.scenario.description.clone() }
        </p>
    }
}
