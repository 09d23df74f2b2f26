//! Guided walkthroughs: short sequences of steps, each with text and a live
//! state that opens in the Build, Race or Scale view. Data lives in
//! `www/learn/`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::build::{example, BuildState, Column};
use super::race::{scenario, RaceLink};
use super::share;
use crate::input::{self, Budget, Format};
use crate::strategy::Preset;

/// Where a step's live state opens.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Open {
    /// A Build example by id.
    #[serde(default)]
    pub build: Option<String>,
    /// Presets of the Build columns, replacing the example's.
    #[serde(default)]
    pub columns: Option<Vec<Preset>>,
    /// A Race scenario by id.
    #[serde(default)]
    pub race: Option<String>,
    /// The preset replacing the Race writers' own.
    #[serde(default)]
    pub preset: Option<Preset>,
    /// The Race step.
    #[serde(default)]
    pub step: Option<usize>,
    /// The Scale view.
    #[serde(default)]
    pub scale: Option<bool>,
}

/// One step of a walkthrough.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Its title.
    pub title: String,
    /// What it explains.
    pub text: String,
    /// The live state.
    pub open: Open,
}

/// A walkthrough.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walkthrough {
    /// Its id (the file name).
    #[serde(skip)]
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// One line on what it teaches.
    pub summary: String,
    /// The steps.
    pub steps: Vec<Step>,
}

const FILES: [(&str, &str); 8] = [
    ("test-op", include_str!("../../www/learn/test-op.yaml")),
    (
        "migration-race",
        include_str!("../../www/learn/migration-race.yaml"),
    ),
    ("per-key", include_str!("../../www/learn/per-key.yaml")),
    (
        "finalizers",
        include_str!("../../www/learn/finalizers.yaml"),
    ),
    (
        "status-fields",
        include_str!("../../www/learn/status-fields.yaml"),
    ),
    ("escaping", include_str!("../../www/learn/escaping.yaml")),
    (
        "server-quirks",
        include_str!("../../www/learn/server-quirks.yaml"),
    ),
    (
        "merge-and-ssa",
        include_str!("../../www/learn/merge-and-ssa.yaml"),
    ),
];

/// Every walkthrough, in order (parsed once).
pub fn walkthroughs() -> &'static [Walkthrough] {
    static ALL: std::sync::OnceLock<Vec<Walkthrough>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|(id, text)| {
                let value = input::parse_as(text, Format::Yaml, &Budget::default()).ok()?;
                let mut walkthrough: Walkthrough = serde_json::from_value(value).ok()?;
                walkthrough.id = id;
                Some(walkthrough)
            })
            .collect()
    })
}

/// A walkthrough by id.
pub fn walkthrough(id: &str) -> Option<&'static Walkthrough> {
    walkthroughs().iter().find(|w| w.id == id)
}

/// Where the Learn view is: a walkthrough and a step, from the route query
/// (`w=<id>&step=<n>`); none selected shows the list.
pub fn position(query: &str) -> Option<(&'static Walkthrough, usize)> {
    let params: BTreeMap<&str, &str> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    let walkthrough = walkthrough(params.get("w")?)?;
    let step = params
        .get("step")
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(0)
        .min(walkthrough.steps.len().saturating_sub(1));
    Some((walkthrough, step))
}

/// The fragment of a walkthrough step.
pub fn href(walkthrough: &Walkthrough, step: usize) -> String {
    format!("#/learn?w={}&step={step}", walkthrough.id)
}

/// The Build state a step opens, if it opens one.
pub fn build_state(open: &Open) -> Option<BuildState> {
    let id = open.build.as_deref()?;
    example(id)?;
    let mut state = BuildState::from_example(id);
    if let Some(presets) = &open.columns {
        let mut link = state.link();
        link.columns = presets
            .iter()
            .map(|preset| Column {
                preset: *preset,
                overrides: BTreeMap::new(),
            })
            .collect();
        state = BuildState::from_link(link);
    }
    Some(state)
}

/// The Race link a step opens, if it opens one.
pub fn race_link(open: &Open) -> Option<RaceLink> {
    let id = open.race.as_deref()?;
    scenario(id)?;
    Some(RaceLink {
        id: Some(id.to_owned()),
        scenario: None,
        preset: open.preset,
        step: open.step.unwrap_or(0),
    })
}

/// The fragment a step's "Open" button goes to.
pub fn open_href(open: &Open) -> Option<String> {
    if let Some(state) = build_state(open) {
        return Some(format!("#/build?s={}", share::encode(&state.link())));
    }
    if let Some(link) = race_link(open) {
        return Some(format!("#/race?s={}", share::encode_value(&link)));
    }
    open.scale.filter(|s| *s).map(|_| "#/scale".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::race::RaceState;

    #[test]
    fn eight_walkthroughs_every_step_opens_a_live_state() {
        let all = walkthroughs();
        assert_eq!(all.len(), 8);
        for walkthrough in all {
            assert!(walkthrough.steps.len() >= 3, "{}", walkthrough.id);
            assert!(
                walkthrough.summary.ends_with('.'),
                "{}: summary cut short: {}",
                walkthrough.id,
                walkthrough.summary
            );
            for (i, step) in walkthrough.steps.iter().enumerate() {
                let href = open_href(&step.open)
                    .unwrap_or_else(|| panic!("{} step {i} opens nothing", walkthrough.id));
                assert!(href.starts_with("#/"), "{href}");
                if let Some(link) = race_link(&step.open) {
                    let state = RaceState::open(link.clone())
                        .unwrap_or_else(|why| panic!("{} step {i}: {why}", walkthrough.id));
                    assert!(
                        link.step <= state.scenario.schedule.len(),
                        "{} step {i}: step out of range",
                        walkthrough.id
                    );
                }
            }
        }
    }

    #[test]
    fn the_race_walkthrough_reaches_the_failing_test() {
        let (walkthrough, step) = position("w=migration-race&step=2").unwrap();
        let open = &walkthrough.steps[step].open;
        let state = RaceState::open(race_link(open).unwrap()).unwrap();
        let current = state.current().unwrap();
        let response = current.response.as_ref().unwrap();
        assert_eq!(response.code, 422);
        assert_eq!(
            response.cause.as_ref().unwrap().path.as_deref(),
            Some("/metadata/labels")
        );
    }

    #[test]
    fn positions_are_clamped_and_unknown_ids_show_the_list() {
        let (w, step) = position("w=escaping&step=99").unwrap();
        assert_eq!(step, w.steps.len() - 1);
        assert!(position("w=nope").is_none());
        assert!(position("").is_none());
        assert_eq!(href(w, 1), "#/learn?w=escaping&step=1");
    }
}
