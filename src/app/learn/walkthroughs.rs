//! The walkthroughs (`www/learn/*.yaml`) and where each step's live state
//! opens.

use serde::Deserialize;

use crate::app::build::BuildLink;
use crate::app::link::Shareable;
use crate::app::race::{scenario, RaceLink};
use crate::app::route::{LearnAt, Route};
use crate::app::scale::ScaleLink;
use crate::claims::Claims;
use crate::strategy::Preset;

/// Where a step's live state opens.
#[derive(Clone, Debug, PartialEq, Deserialize)]
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
    /// The Scale view with these many VMIs, run on open.
    #[serde(default)]
    pub scale: Option<usize>,
    /// What the live card of a Race step shows (default: the response and
    /// why it failed).
    #[serde(default = "Aspect::defaults")]
    pub show: Vec<Aspect>,
}

/// A part of a Race step the live card shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// The ops sent.
    Request,
    /// The status and message.
    Response,
    /// Why the server refused (patchlab's explanation).
    Cause,
    /// The object after the step.
    Object,
    /// Every writer's outcome at the end.
    Outcomes,
}

impl Aspect {
    fn defaults() -> Vec<Aspect> {
        vec![Aspect::Response, Aspect::Cause]
    }
}

impl Open {
    /// The Build link it opens, if it opens Build.
    pub fn build_link(&self) -> Option<BuildLink> {
        BuildLink::example(self.build.as_deref()?, self.columns.as_deref())
    }

    /// The Race link it opens, if it opens Race.
    pub fn race_link(&self) -> Option<RaceLink> {
        let id = self.race.as_deref()?;
        scenario(id)?;
        Some(RaceLink::shipped(id, self.preset, self.step.unwrap_or(0)))
    }

    /// The Scale link it opens, if it opens Scale.
    pub fn scale_link(&self) -> Option<ScaleLink> {
        self.scale.map(|vms| ScaleLink {
            vms,
            ..ScaleLink::default()
        })
    }

    /// The route it opens.
    pub fn route(&self) -> Option<Route> {
        self.build_link()
            .map(|l| l.route())
            .or_else(|| self.race_link().map(|l| l.route()))
            .or_else(|| self.scale_link().map(|l| l.route()))
    }

    /// The button's label: "Open in Build".
    pub fn label(&self) -> &'static str {
        if self.build.is_some() {
            "Open in Build"
        } else if self.race.is_some() {
            "Open in Race"
        } else {
            "Open in Scale"
        }
    }
}

/// One step of a walkthrough.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    /// Its title.
    pub title: String,
    /// What it explains.
    pub text: String,
    /// The live state.
    pub open: Open,
    /// What the text says the live state shows, checked by a test against
    /// the engine ([`super::facts`]).
    #[serde(default)]
    pub claims: Claims,
}

/// A walkthrough.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walkthrough {
    /// Its id (the file name).
    #[serde(skip)]
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// One line on what it teaches.
    pub summary: String,
    /// "What you will learn", in a sentence.
    pub goal: String,
    /// The steps.
    pub steps: Vec<LessonStep>,
}

impl Walkthrough {
    /// The route of step `n` (from 1).
    pub fn route(&self, n: usize) -> Route {
        Route::Learn(Some(LearnAt {
            walkthrough: self.id.to_owned(),
            step: n,
        }))
    }

    /// Step `n` (from 1, clamped to the steps there are).
    pub fn step(&self, n: usize) -> (usize, Option<&LessonStep>) {
        let n = n.clamp(1, self.steps.len().max(1));
        (n, self.steps.get(n - 1))
    }

    /// The walkthrough after this one.
    pub fn next(&self) -> Option<&'static Walkthrough> {
        let all = walkthroughs();
        all.iter()
            .position(|w| w.id == self.id)
            .and_then(|i| all.get(i + 1))
    }
}

const FILES: [(&str, &str); 8] = [
    ("test-op", include_str!("../../../www/learn/test-op.yaml")),
    (
        "migration-race",
        include_str!("../../../www/learn/migration-race.yaml"),
    ),
    ("per-key", include_str!("../../../www/learn/per-key.yaml")),
    (
        "finalizers",
        include_str!("../../../www/learn/finalizers.yaml"),
    ),
    (
        "status-fields",
        include_str!("../../../www/learn/status-fields.yaml"),
    ),
    ("escaping", include_str!("../../../www/learn/escaping.yaml")),
    (
        "server-quirks",
        include_str!("../../../www/learn/server-quirks.yaml"),
    ),
    (
        "merge-and-ssa",
        include_str!("../../../www/learn/merge-and-ssa.yaml"),
    ),
];

/// Every walkthrough, in order (parsed once).
pub fn walkthroughs() -> &'static [Walkthrough] {
    static ALL: std::sync::OnceLock<Vec<Walkthrough>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        crate::app::bundled::read_all(&FILES, |walkthrough: &mut Walkthrough, id| {
            walkthrough.id = id
        })
    })
}

/// A walkthrough by id.
pub fn walkthrough(id: &str) -> Option<&'static Walkthrough> {
    walkthroughs().iter().find(|w| w.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::race::RaceState;

    #[test]
    fn every_walkthrough_parses_and_every_step_opens_a_live_state() {
        let all = walkthroughs();
        assert_eq!(all.len(), FILES.len(), "a walkthrough file does not parse");
        for walkthrough in all {
            assert!(walkthrough.steps.len() >= 3, "{}", walkthrough.id);
            assert!(walkthrough.summary.ends_with('.'), "{}", walkthrough.id);
            for (i, step) in walkthrough.steps.iter().enumerate() {
                let route = step
                    .open
                    .route()
                    .unwrap_or_else(|| panic!("{} step {} opens nothing", walkthrough.id, i + 1));
                assert_eq!(Route::parse(&route.to_fragment()), route);
                if let Some(link) = step.open.race_link() {
                    let state = RaceState::open(link.clone())
                        .unwrap_or_else(|why| panic!("{} step {}: {why}", walkthrough.id, i + 1));
                    assert!(link.step <= state.scenario.schedule.len());
                }
            }
        }
    }

    #[test]
    fn steps_are_counted_from_one_and_clamped() {
        let w = walkthrough("escaping").unwrap();
        assert_eq!(w.step(0).0, 1);
        assert_eq!(w.step(99).0, w.steps.len());
        assert_eq!(w.route(2).to_fragment(), "#/learn/escaping/2");
        assert!(walkthrough("nope").is_none());
    }
}
