//! The timeline editor: each writer's preset, intents, field overrides
//! and settings (what a scenario file can say of a writer), and the events
//! in order (move, remove, add).

use yew::prelude::*;

use super::state::IntentsText;
use super::writer_edit::WriterEdit;
use crate::app::components::{select, Choice, ReformSome, SelectProps};
use crate::sim::timeline::{Event as TimelineEvent, EventKind};
use crate::sim::writer::WriterSpec;
use crate::strategy::Preset;

#[derive(PartialEq, Properties)]
pub struct TimelineEditorProps {
    pub writers: Vec<WriterSpec>,
    pub intents: Vec<IntentsText>,
    /// The field overrides' texts, per writer.
    #[prop_or_default]
    pub overrides: Vec<IntentsText>,
    /// The objects' keys (`Kind/name`), for a writer's target.
    #[prop_or_default]
    pub objects: Vec<String>,
    pub schedule: Vec<TimelineEvent>,
    pub open: bool,
    pub ontoggle: Callback<bool>,
    pub onpreset: Callback<(usize, Preset)>,
    pub onintents: Callback<(usize, String)>,
    /// A writer's other settings changed.
    #[prop_or_default]
    pub onwriter: Callback<(usize, WriterEdit)>,
    pub onadd: Callback<TimelineEvent>,
    pub onremove: Callback<usize>,
    pub onup: Callback<usize>,
    pub ondown: Callback<usize>,
}

/// The timeline editor, folded in a `<details>`.
pub fn timeline_editor(props: &TimelineEditorProps) -> Html {
    let ontoggle = props.ontoggle.reform_some(|event: Event| {
        event
            .target_dyn_into::<web_sys::HtmlDetailsElement>()
            .map(|details| details.open())
    });
    html! {
        <details class="editing" open={props.open} {ontoggle}>
            <summary>{ "Edit the writers and the timeline" }</summary>
            <div class="editing-grid">
                <section aria-labelledby="writers-title">
                    <h3 id="writers-title">{ "Writers" }</h3>
                    { for props.writers.iter().enumerate().map(|(w, writer)| html! {
                        { writer_card(&yew::props!(WriterCardProps {
                            writer: writer.clone(),
                            intents: props.intents.get(w).cloned(),
                            overrides: props.overrides.get(w).cloned(),
                            objects: props.objects.clone(),
                            onpreset: props.onpreset.reform(move |p| (w, p)),
                            onintents: props.onintents.reform(move |t| (w, t)),
                            onwriter: props.onwriter.reform(move |e| (w, e)),
                        })) }
                    }) }
                </section>
                <section aria-labelledby="timeline-title">
                    <h3 id="timeline-title">{ "Timeline" }</h3>
                    <ol class="timeline">
                        { for props.schedule.iter().enumerate().map(|(i, event)| {
                            let n = i + 1;
                            html! {
                                <li>
                                    <span>{ format!("{} {}", event.writer(), event.kind()) }</span>
                                    <button type="button" class="link" aria-label={format!("Move event {n} up")} onclick={props.onup.reform(move |_: MouseEvent| i)}>{ "↑" }</button>
                                    <button type="button" class="link" aria-label={format!("Move event {n} down")} onclick={props.ondown.reform(move |_: MouseEvent| i)}>{ "↓" }</button>
                                    <button type="button" class="link" aria-label={format!("Remove event {n}")} onclick={props.onremove.reform(move |_: MouseEvent| i)}>{ "Remove" }</button>
                                </li>
                            }
                        }) }
                    </ol>
                    <AddEvent writers={props.writers.iter().map(|w| w.name.clone()).collect::<Vec<_>>()} onadd={props.onadd.clone()} />
                </section>
            </div>
        </details>
    }
}

#[derive(PartialEq, Properties)]
struct WriterCardProps {
    writer: WriterSpec,
    intents: Option<IntentsText>,
    overrides: Option<IntentsText>,
    objects: Vec<String>,
    onpreset: Callback<Preset>,
    onintents: Callback<String>,
    onwriter: Callback<WriterEdit>,
}

/// A writer: its own preset, its intents and field overrides (YAML), its
/// settings, with why a change was not taken.
fn writer_card(props: &WriterCardProps) -> Html {
    let writer = &props.writer;
    let intents = props.intents.clone().unwrap_or_default();
    let oninput = props.onintents.reform_some(|event: InputEvent| {
        event
            .target_dyn_into::<web_sys::HtmlTextAreaElement>()
            .map(|area| area.value())
    });
    let overrides = props.overrides.clone().unwrap_or_default();
    let on_overrides = props.onwriter.reform_some(|event: InputEvent| {
        event
            .target_dyn_into::<web_sys::HtmlTextAreaElement>()
            .map(|area| WriterEdit::Overrides(area.value()))
    });
    let checkbox = |make: fn(bool) -> WriterEdit| {
        props.onwriter.reform_some(move |event: Event| {
            event
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .map(|input| make(input.checked()))
        })
    };
    let on_attempts = props.onwriter.reform_some(|event: Event| {
        event
            .target_dyn_into::<web_sys::HtmlInputElement>()
            .and_then(|input| input.value().parse::<u32>().ok())
            .map(WriterEdit::Attempts)
    });
    let targets: Vec<Choice> = props
        .objects
        .iter()
        .map(|k| Choice::plain(k.clone()))
        .collect();
    let name = writer.name.clone();
    let presets: Vec<Choice> = Preset::ALL
        .into_iter()
        .map(|p| Choice::plain(p.as_str()))
        .collect();
    html! {
        <div class="writer-card">
            <h4>{ writer.name.clone() }{ if writer.fixed { " (fixed preset)" } else { "" } }</h4>
            { select(&yew::props!(SelectProps { label: "Own preset", aria_label: format!("Preset of {}", writer.name), choices: presets, selected: writer.preset.as_str(), onchange: props.onpreset.reform_some(|v: String| v.parse::<Preset>().ok()) })) }
            <label class="intents">
                <span>{ "Intents (YAML)" }</span>
                <textarea aria-label={format!("Intents of {}", writer.name)} spellcheck="false" rows="5"
                    aria-busy={intents.reading.to_string()} value={intents.text} {oninput} />
            </label>
            { reading_note(intents.reading) }
            if let Some(error) = intents.error {
                <p class="parse-error" role="alert">{ error.to_string() }</p>
            }
            <label class="intents">
                <span>{ "Field overrides (YAML: path: strategy)" }</span>
                <textarea aria-label={format!("Field overrides of {name}")} spellcheck="false" rows="2"
                    placeholder="/metadata/labels: per-key" aria-busy={overrides.reading.to_string()}
                    value={overrides.text} oninput={on_overrides} />
            </label>
            { reading_note(overrides.reading) }
            if let Some(error) = overrides.error {
                <p class="parse-error" role="alert">{ error.to_string() }</p>
            }
            <div class="writer-settings">
                <label class="field">
                    <span>{ "Attempts" }</span>
                    <input type="number" min="1" max="99" aria-label={format!("Attempts of {name}")}
                        value={writer.attempts.to_string()} onchange={on_attempts} />
                </label>
                <label class="check"><input type="checkbox" checked={writer.fixed} onchange={checkbox(WriterEdit::Fixed)}
                    aria-label={format!("{name} keeps its own preset")} />{ "keeps its preset" }</label>
                <label class="check"><input type="checkbox" checked={writer.force} onchange={checkbox(WriterEdit::Force)}
                    aria-label={format!("{name} applies with force")} />{ "force (SSA)" }</label>
                <label class="check"><input type="checkbox" checked={writer.force_on_retry} onchange={checkbox(WriterEdit::ForceOnRetry)}
                    aria-label={format!("{name} forces on retry")} />{ "force on retry (SSA)" }</label>
                if targets.len() > 1 {
                    { select(&yew::props!(SelectProps { label: "Writes", aria_label: format!("Object {name} writes"), choices: targets, placeholder: "the first object", selected: writer.target.clone().unwrap_or_default(), onchange: props.onwriter.reform(|v: String| WriterEdit::Target((!v.is_empty()).then_some(v))) })) }
                }
            </div>
        </div>
    }
}

/// What an editor's text waiting to be read says (shown after 150 ms, so
/// an answer of engines already loaded does not flicker).
pub const READING: &str = "Reading the YAML… (the first time, this loads patchlab's engines)";

fn reading_note(reading: bool) -> Html {
    if reading {
        html! { <p class="muted reading" role="status">{ READING }</p> }
    } else {
        html! {}
    }
}

#[derive(PartialEq, Properties)]
struct AddEventProps {
    /// The writers' names.
    writers: Vec<String>,
    onadd: Callback<TimelineEvent>,
}

/// A new event at the end: which writer, which kind.
#[component]
fn AddEvent(props: &AddEventProps) -> Html {
    let writer = use_state(|| 0usize);
    let kind = use_state(|| EventKind::Write);
    let add = {
        let (onadd, writers) = (props.onadd.clone(), props.writers.clone());
        let (writer, kind) = (writer.clone(), kind.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(name) = writers.get(*writer) {
                onadd.emit(TimelineEvent::new(*kind, name.clone()));
            }
        })
    };
    let writers: Vec<Choice> = props
        .writers
        .iter()
        .enumerate()
        .map(|(i, name)| Choice::new(i.to_string(), name.clone()))
        .collect();
    let kinds: Vec<Choice> = EventKind::ALL
        .into_iter()
        .map(|k| Choice::plain(k.as_str()))
        .collect();
    let set_writer = writer.setter();
    let set_kind = kind.setter();
    html! {
        <div class="add-event">
            { select(&yew::props!(SelectProps { aria_label: "Writer of the new event", choices: writers, selected: writer.to_string(), onchange: Callback::from(move |v: String| if let Ok(i) = v.parse() { set_writer.set(i) }) })) }
            { select(&yew::props!(SelectProps { aria_label: "Kind of the new event", choices: kinds, selected: kind.as_str(), onchange: Callback::from(move |v: String| if let Ok(k) = v.parse::<EventKind>() { set_kind.set(k) }) })) }
            <button type="button" onclick={add}>{ "Add event" }</button>
        </div>
    }
}
