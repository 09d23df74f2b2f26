//! The timeline editor's changes: writers' presets, intents and other
//! settings; events added, removed and moved. A typed text waits for the
//! engines to read it ([`RaceState::unread`]), then is taken or refused.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::{IntentsError, IntentsText, RaceAction, RaceState, Source};
use crate::app::notice::Notice;
use crate::app::race::writer_edit::{
    answers, intents_of, overrides_of, overrides_text, WriterEdit,
};
use crate::engines::read_yaml::ReadText;
use crate::engines::{Failure, Never};
use crate::sim::writer::{Intent, WriterSpec};
use crate::strategy::{Preset, Strategy};

impl RaceState {
    /// Sets writer `w`'s own preset.
    pub(super) fn set_writer_preset(&mut self, w: usize, preset: Preset) {
        if let Some(writer) = self.scenario.writers.get_mut(w) {
            writer.preset = preset;
            self.edit();
        }
    }

    /// True when loading something else would lose work: the scenario was
    /// edited here, or an intents editor holds text that was not taken.
    pub fn edited(&self) -> bool {
        let untaken = |i: &IntentsText| i.error.is_some() || i.reading;
        self.source == Source::Edited || self.intents.iter().chain(&self.overrides).any(untaken)
    }

    /// The editors' texts waiting to be read as YAML (intents, then field
    /// overrides): the view asks the engines, and hands their answer back
    /// as [`RaceAction::YamlRead`].
    pub fn unread(&self) -> Vec<Rc<str>> {
        self.intents
            .iter()
            .chain(&self.overrides)
            .filter(|i| i.reading)
            .map(|i| Rc::from(i.text.as_str()))
            .collect()
    }

    /// A scenario edited: it runs anew, and is explored anew.
    fn edit(&mut self) {
        self.source = Source::Edited;
        self.rerun();
        self.reexplore();
    }

    /// An event added, removed or moved (out of range: nothing changes).
    pub(super) fn edit_schedule(&mut self, action: RaceAction) {
        let schedule = &mut self.scenario.schedule;
        let len = schedule.len();
        match action {
            RaceAction::AddEvent(event) => schedule.push(event),
            RaceAction::RemoveEvent(i) if i < len => drop(schedule.remove(i)),
            RaceAction::MoveUp(i) if i > 0 && i < len => schedule.swap(i - 1, i),
            RaceAction::MoveDown(i) if i + 1 < len => schedule.swap(i, i + 1),
            _ => return,
        }
        self.edit();
    }

    /// A writer's intents edited: kept as typed until the engines have
    /// read them ([`RaceState::unread`]).
    pub(super) fn edit_intents(&mut self, w: usize, text: String) {
        if let Some(slot) = self.intents.get_mut(w) {
            *slot = IntentsText::reading(text);
            self.typed += 1;
        }
    }

    /// Takes what `texts` read as into the editors still waiting with one
    /// of them (an editor typed in since waits for its new text).
    pub(super) fn take_read(
        &mut self,
        texts: &[Rc<str>],
        answer: &Result<Rc<Vec<ReadText>>, Failure<Never>>,
    ) {
        let answered = answers(texts, answer);
        let find = |slot: &IntentsText| {
            slot.reading
                .then(|| answered.iter().find(|(t, _)| **t == *slot.text))
                .flatten()
                .map(|(_, read)| (slot.text.clone(), read.clone()))
        };
        for w in 0..self.intents.len() {
            if let Some((text, read)) = find(&self.intents[w]) {
                self.take_intents(w, text, read.and_then(intents_of));
            }
        }
        for w in 0..self.overrides.len() {
            if let Some((text, read)) = find(&self.overrides[w]) {
                self.take_overrides(w, text, read.and_then(overrides_of));
            }
        }
    }

    /// A writer's intents read: taken when they are intents, kept as typed
    /// (with why) when they are not.
    fn take_intents(&mut self, w: usize, text: String, read: Result<Vec<Intent>, IntentsError>) {
        match read {
            Ok(intents) => {
                self.intents[w] = IntentsText::taken(text);
                if let Some(writer) = self.scenario.writers.get_mut(w) {
                    writer.intents = intents;
                }
                self.edit();
            }
            Err(error) => self.intents[w] = IntentsText::refused(text, error),
        }
    }

    /// Applies `edit` to writer `w`: taken when the scenario still runs,
    /// otherwise kept out with the reason (the overrides text as typed,
    /// which waits to be read first unless it is blank). (see
    /// [`WriterEdit`])
    pub(super) fn edit_writer(&mut self, w: usize, edit: WriterEdit) {
        let Some(before) = self.scenario.writers.get(w).cloned() else {
            return;
        };
        let mut writer = before.clone();
        let mut typed = None;
        match edit {
            WriterEdit::Overrides(text) if text.trim().is_empty() => {
                writer.set.clear();
                typed = Some(text);
            }
            WriterEdit::Overrides(text) => {
                self.overrides[w] = IntentsText::reading(text);
                self.typed += 1;
                return;
            }
            WriterEdit::Attempts(n) => writer.attempts = n.max(1),
            WriterEdit::Fixed(on) => writer.fixed = on,
            WriterEdit::Force(on) => writer.force = on,
            WriterEdit::ForceOnRetry(on) => writer.force_on_retry = on,
            WriterEdit::Target(target) => writer.target = target,
        }
        self.change_writer(w, before, writer, typed);
    }

    /// A writer's field overrides read: taken like any edit when they are
    /// overrides, kept as typed (with why) when they are not.
    fn take_overrides(
        &mut self,
        w: usize,
        text: String,
        read: Result<BTreeMap<String, Strategy>, IntentsError>,
    ) {
        match (read, self.scenario.writers.get(w).cloned()) {
            (Ok(set), Some(before)) => {
                let writer = WriterSpec {
                    set,
                    ..before.clone()
                };
                self.change_writer(w, before, writer, Some(text));
            }
            (Err(error), Some(_)) => self.overrides[w] = IntentsText::refused(text, error),
            (_, None) => {}
        }
    }

    /// Writer `w` becomes `writer` when the scenario still runs with it
    /// (`typed`: the overrides text as typed, when that was the change).
    fn change_writer(
        &mut self,
        w: usize,
        before: WriterSpec,
        writer: WriterSpec,
        typed: Option<String>,
    ) {
        if writer == before {
            if let Some(text) = typed {
                self.overrides[w] = IntentsText::taken(text);
            }
            return;
        }
        // Another setting changed: an overrides text typed and not taken
        // (waiting to be read, or refused) stays as typed.
        let slot = &self.overrides[w];
        let untaken = typed.is_none() && (slot.reading || slot.error.is_some());
        self.scenario.writers[w] = writer;
        let refused = self.scenario.validate().err();
        let taken = refused.is_none();
        if !taken {
            self.scenario.writers[w] = before;
        }
        let text = typed.unwrap_or_else(|| overrides_text(&self.scenario.writers[w]));
        match refused.map(|e| IntentsError::Shape(e.to_string())) {
            None if untaken => {}
            None => self.overrides[w] = IntentsText::taken(text),
            Some(error) if untaken => {
                let name = &self.scenario.writers[w].name;
                self.notice = Some(Notice::warning(format!("{name} was not changed: {error}")));
            }
            Some(error) => self.overrides[w] = IntentsText::refused(text, error),
        }
        if taken {
            self.edit();
        }
    }
}
