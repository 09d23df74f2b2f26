//! The timeline editor: each writer's preset and intents, and the events
//! in order (move, remove, add).

use yew::prelude::*;

use super::state::IntentsText;
use crate::sim::timeline::{Event as TimelineEvent, EventKind};
use crate::sim::writer::WriterSpec;
use crate::strategy::Preset;

#[derive(PartialEq, Properties)]
pub struct TimelineEditorProps {
    pub writers: Vec<WriterSpec>,
    pub intents: Vec<IntentsText>,
    pub schedule: Vec<TimelineEvent>,
    pub open: bool,
    pub ontoggle: Callback<bool>,
    pub onpreset: Callback<(usize, Preset)>,
    pub onintents: Callback<(usize, String)>,
    pub onadd: Callback<TimelineEvent>,
    pub onremove: Callback<usize>,
    pub onup: Callback<usize>,
    pub ondown: Callback<usize>,
}

fn select_value(event: &Event) -> Option<String> {
    event
        .target_dyn_into::<web_sys::HtmlSelectElement>()
        .map(|s| s.value())
}

#[component]
pub fn TimelineEditor(props: &TimelineEditorProps) -> Html {
    let add_writer = use_state(|| 0usize);
    let add_kind = use_state(|| EventKind::Write);
    let ontoggle = {
        let ontoggle = props.ontoggle.clone();
        Callback::from(move |event: Event| {
            if let Some(details) = event.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                ontoggle.emit(details.open());
            }
        })
    };
    let add = {
        let (onadd, writers) = (props.onadd.clone(), props.writers.clone());
        let (add_writer, add_kind) = (add_writer.clone(), add_kind.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(writer) = writers.get(*add_writer) {
                onadd.emit(TimelineEvent::new(*add_kind, writer.name.clone()));
            }
        })
    };
    html! {
        <details class="editing" open={props.open} {ontoggle}>
            <summary>{ "Edit the writers and the timeline" }</summary>
            <div class="editing-grid">
                <section aria-labelledby="writers-title">
                    <h3 id="writers-title">{ "Writers" }</h3>
                    { for props.writers.iter().enumerate().map(|(w, writer)| {
                        let intents = props.intents.get(w).cloned().unwrap_or(IntentsText { text: String::new(), error: None });
                        let onpreset = {
                            let onpreset = props.onpreset.clone();
                            Callback::from(move |event: Event| {
                                if let Some(preset) = select_value(&event).and_then(|v| v.parse::<Preset>().ok()) {
                                    onpreset.emit((w, preset));
                                }
                            })
                        };
                        let oninput = {
                            let onintents = props.onintents.clone();
                            Callback::from(move |event: InputEvent| {
                                if let Some(area) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                                    onintents.emit((w, area.value()));
                                }
                            })
                        };
                        html! {
                            <div class="writer-card">
                                <h4>{ writer.name.clone() }{ if writer.fixed { " (fixed preset)" } else { "" } }</h4>
                                <label class="field">
                                    <span>{ "Own preset" }</span>
                                    <select aria-label={format!("Preset of {}", writer.name)} onchange={onpreset}>
                                        { for Preset::ALL.into_iter().map(|p| html! {
                                            <option value={p.as_str()} selected={writer.preset == p}>{ p.as_str() }</option>
                                        }) }
                                    </select>
                                </label>
                                <label class="intents">
                                    <span>{ "Intents (YAML)" }</span>
                                    <textarea aria-label={format!("Intents of {}", writer.name)} spellcheck="false" rows="5"
                                        value={intents.text} {oninput} />
                                </label>
                                if let Some(error) = intents.error {
                                    <p class="parse-error" role="alert">{ error.to_string() }</p>
                                }
                            </div>
                        }
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
                    <div class="add-event">
                        <select aria-label="Writer of the new event" onchange={{ let a = add_writer.clone(); Callback::from(move |e: Event| if let Some(v) = select_value(&e).and_then(|v| v.parse().ok()) { a.set(v) }) }}>
                            { for props.writers.iter().enumerate().map(|(i, w)| html! { <option value={i.to_string()} selected={*add_writer == i}>{ w.name.clone() }</option> }) }
                        </select>
                        <select aria-label="Kind of the new event" onchange={{ let a = add_kind.clone(); Callback::from(move |e: Event| if let Some(k) = select_value(&e).and_then(|v| v.parse::<EventKind>().ok()) { a.set(k) }) }}>
                            { for EventKind::ALL.into_iter().map(|k| html! { <option value={k.as_str()} selected={*add_kind == k}>{ k.as_str() }</option> }) }
                        </select>
                        <button type="button" onclick={add}>{ "Add event" }</button>
                    </div>
                </section>
            </div>
        </details>
    }
}
