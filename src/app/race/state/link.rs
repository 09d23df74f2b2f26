//! The Race link (shared and saved): what it holds, how a state opens
//! from one, and the loads that replace the race (a shipped scenario, an
//! explored interleaving).

use serde::{Deserialize, Serialize};

use super::{RaceState, Source};
use crate::app::link::{LinkError, Shareable};
use crate::app::notice::Notice;
use crate::app::race::scenarios::scenario;
use crate::app::route::View;
use crate::app::view_state::{self, ViewState};
use crate::kube::KubeVersion;
use crate::sim::explore;
use crate::sim::timeline::{Scenario, ScenarioError};
use crate::strategy::Preset;

/// What a Race link holds: a shipped scenario by id (possibly replayed in
/// one of its interleavings), or a whole edited scenario; the preset, the
/// step, and which panels are open.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceLink {
    /// A shipped scenario's id (when not edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The scenario itself (when edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    /// One of the shipped scenario's interleavings, by its index in the
    /// explorer's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interleaving: Option<usize>,
    /// The preset replacing the writers' own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// The Kubernetes release replacing the scenario's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<KubeVersion>,
    /// The step shown.
    #[serde(default)]
    pub step: usize,
    /// Compare mode is on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub compare: bool,
    /// The explorer's table is shown.
    #[serde(default, skip_serializing_if = "is_false")]
    pub explore: bool,
    /// The timeline editor is open.
    #[serde(default, skip_serializing_if = "is_false")]
    pub editing: bool,
}

fn is_false(b: &bool) -> bool {
    !b
}

impl RaceLink {
    /// A shipped scenario at a step, under a preset.
    pub fn shipped(id: &str, preset: Option<Preset>, step: usize) -> RaceLink {
        RaceLink {
            id: Some(id.to_owned()),
            preset,
            step,
            ..RaceLink::default()
        }
    }

    /// The link of `state`.
    pub(super) fn of(state: &RaceState) -> RaceLink {
        let (id, scenario, interleaving) = match &state.source {
            Source::Shipped(id) => (Some(id.clone()), None, None),
            Source::Interleaving { id, index, .. } => (Some(id.clone()), None, Some(*index)),
            Source::Edited => (None, Some(state.scenario.clone()), None),
        };
        RaceLink {
            id,
            scenario,
            interleaving,
            preset: state.preset,
            kubernetes: state.kubernetes,
            step: state.step,
            compare: state.compare,
            explore: state.explore,
            editing: state.editing,
        }
    }
}

impl Shareable for RaceLink {
    const VIEW: View = View::Race;
    const STORAGE_KEY: &'static str = "patchlab.race";

    fn check(&self) -> Result<(), LinkError> {
        if let Some(scenario) = &self.scenario {
            scenario
                .validate()
                .map_err(|e| LinkError::OverBudget(e.to_string()))?;
        }
        Ok(())
    }
}

/// Why a Race link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// It names a scenario this page does not ship.
    UnknownScenario(String),
    /// It names no scenario.
    NoScenario,
    /// It names an interleaving the scenario does not have.
    UnknownInterleaving(usize),
    /// The scenario cannot run.
    Invalid(ScenarioError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::UnknownScenario(id) => write!(f, "there is no scenario {id:?}"),
            OpenError::NoScenario => f.write_str("the link names no scenario"),
            OpenError::UnknownInterleaving(i) => {
                // Shown from 1; a link's index may be usize::MAX (no wrap).
                let shown = u128::try_from(*i).map_or(u128::MAX, |i| i + 1);
                write!(f, "the scenario has no interleaving {shown}")
            }
            OpenError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

/// The scenario a link names, and where it comes from.
fn scenario_of(link: &RaceLink) -> Result<(Scenario, Source), OpenError> {
    if let Some(edited) = &link.scenario {
        edited.validate().map_err(OpenError::Invalid)?;
        return Ok((edited.clone(), Source::Edited));
    }
    let id = link.id.clone().ok_or(OpenError::NoScenario)?;
    let shipped = scenario(&id).ok_or_else(|| OpenError::UnknownScenario(id.clone()))?;
    let Some(index) = link.interleaving else {
        return Ok((shipped.clone(), Source::Shipped(id)));
    };
    let all = explore::interleavings(shipped);
    let of = all.len();
    let schedule = all
        .into_iter()
        .nth(index)
        .ok_or(OpenError::UnknownInterleaving(index))?;
    Ok((
        Scenario {
            schedule,
            ..shipped.clone()
        },
        Source::Interleaving { id, index, of },
    ))
}

impl RaceState {
    /// A state from a link.
    ///
    /// # Errors
    ///
    /// [`OpenError`]: an unknown scenario or interleaving, an invalid one.
    pub fn open(link: RaceLink) -> Result<RaceState, OpenError> {
        let (scenario, source) = scenario_of(&link)?;
        let mut state = RaceState::with(scenario, source, link.preset, link.step);
        if link.kubernetes.is_some() && link.kubernetes != state.scenario.kubernetes {
            state.kubernetes = link.kubernetes;
            state.rerun();
        }
        state.editing = link.editing;
        state.compare = link.compare;
        state.explore = link.explore && state.explorable();
        Ok(state)
    }

    /// A shipped scenario in place of this one; the preset and a release
    /// chosen here stay chosen.
    pub(super) fn load_shipped(&self, id: &str) -> RaceState {
        let mut loaded = RaceState {
            preset: self.preset,
            ..RaceState::load(id)
        };
        loaded.kubernetes = self
            .kubernetes
            .filter(|v| Some(*v) != loaded.scenario.kubernetes);
        loaded.rerun();
        let name = loaded.scenario.name.clone();
        view_state::replace(self, loaded, &format!("Loaded “{name}”"))
    }

    /// Replays one of the explored interleavings at a step, every writer
    /// (but the fixed ones) on `preset`.
    pub(super) fn open_interleaving(&self, index: usize, preset: Preset, step: usize) -> RaceState {
        let (Source::Shipped(id) | Source::Interleaving { id, .. }) = &self.source else {
            return self.reorder(index, preset, step);
        };
        let link = RaceLink {
            interleaving: Some(index),
            explore: true,
            compare: self.compare,
            editing: self.editing,
            kubernetes: self.kubernetes,
            ..RaceLink::shipped(id, Some(preset), step)
        };
        match RaceState::open(link) {
            // The explorer's table (the scenario's) stays, and so does the
            // replay shown, dimmed until the engines replay the interleaving.
            Ok(opened) => RaceState {
                raced: self.raced.clone(),
                explore_rev: self.explore_rev,
                explored: self.explored.clone(),
                ..opened.renumbered(self.last_rev)
            },
            Err(why) => self.clone().with_notice(Notice::error(why.to_string())),
        }
    }

    /// An edited scenario replayed in one of its explored interleavings
    /// (of this scenario: never of an exploration from before an edit).
    fn reorder(&self, index: usize, preset: Preset, step: usize) -> RaceState {
        let mut next = self.clone();
        let explored = self.exploration().filter(|_| self.explored_here());
        let Some(Ok(exploration)) = explored else {
            return next;
        };
        if let Some(schedule) = exploration.interleavings.get(index) {
            next.scenario.schedule = schedule.clone();
            next.preset = Some(preset);
            next.rerun();
            next.step = step.min(next.scenario.schedule.len());
            next.playing = false;
        }
        next
    }
}
