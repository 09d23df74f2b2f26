//! The engines' answers for the shipped scenarios as shipped (their own
//! presets and releases), compiled in (`www/scenarios/raced.json`), so a
//! cold visit to Race shows a shipped race, its compare rows and its
//! release marks without downloading the engines. A test keeps the file
//! equal to what the engines answer through the wire;
//! `PATCHLAB_BLESS=1 cargo test --lib race::answers` rewrites it after a
//! change to a scenario or an engine.

use std::rc::Rc;

use serde_json::Value;

use crate::engines::race::Raced;

/// `[id, answer]` pairs, in menu order.
const COMPILED: &str = include_str!("../../../www/scenarios/raced.json");

thread_local! {
    /// The answers, read once (through a [`Value`], as the Race module
    /// reads every JSON text).
    static ANSWERS: Vec<(String, Rc<Raced>)> = serde_json::from_str::<Value>(COMPILED)
        .ok()
        .and_then(|value| serde_json::from_value::<Vec<(String, Raced)>>(value).ok())
        .map(|answers| answers.into_iter().map(|(id, raced)| (id, Rc::new(raced))).collect())
        .unwrap_or_default();
}

/// The engines' answer for shipped scenario `id` as shipped.
pub fn bundled(id: &str) -> Option<Rc<Raced>> {
    ANSWERS.with(|answers| {
        answers
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, raced)| Rc::clone(raced))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::race::library;
    use crate::engines::race::Race;
    use crate::engines::tests::through_the_wire;

    /// What the engines answer for every shipped scenario as shipped, read
    /// back as the page reads it.
    fn answered() -> Vec<(String, Raced)> {
        library()
            .iter()
            .map(|(id, scenario)| {
                let question = Race {
                    scenario: scenario.clone(),
                    preset: None,
                };
                let said = through_the_wire(0, question);
                let raced = said.answer.unwrap_or_else(|e| panic!("{id}: {e}"));
                ((*id).to_owned(), Raced::clone(&raced))
            })
            .collect()
    }

    #[test]
    fn the_bundled_answers_are_what_the_engines_answer() {
        let answered = answered();
        let text = serde_json::to_string(&answered).unwrap() + "\n";
        if std::env::var_os("PATCHLAB_BLESS").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/scenarios/raced.json");
            std::fs::write(path, &text).unwrap();
            return;
        }
        assert!(
            COMPILED == text,
            "www/scenarios/raced.json is not what the engines answer: \
             PATCHLAB_BLESS=1 cargo test --lib race::answers"
        );
        for (id, raced) in &answered {
            let bundled = bundled(id).unwrap_or_else(|| panic!("{id} is not bundled"));
            assert_eq!(*bundled, *raced, "{id}");
            let replay = raced.replay.as_ref().unwrap();
            let scenario = crate::app::race::scenario(id).unwrap();
            assert_eq!(replay.steps.len(), scenario.schedule.len(), "{id}");
            assert!(
                raced.compare.is_some() && raced.differences.is_some(),
                "{id}"
            );
        }
        assert_eq!(answered.len(), library().len());
    }
}
