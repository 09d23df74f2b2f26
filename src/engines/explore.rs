//! Race's explorer: every interleaving of a timeline under every preset,
//! without the per-interleaving stories, which no view shows (an
//! interleaving opened is replayed).

use serde::{Deserialize, Serialize};

use super::{Caches, Never, Question};
use crate::sim::explore::{self, Exploration};
use crate::sim::timeline::{Scenario, ScenarioError};

/// Explore every interleaving of a scenario (as it runs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explore {
    /// The scenario, with the release it runs on.
    pub scenario: Scenario,
}

/// The answer to an [`Explore`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explored {
    /// Every interleaving per preset, or why not.
    pub exploration: Result<Exploration, ScenarioError>,
}

impl Question for Explore {
    const NAME: &'static str = "explore";
    const READ_THROUGH_VALUE: bool = true;
    type Rev = u64;
    type Answer = Explored;
    type Refusal = Never;

    fn answer(self, _: &mut Caches) -> Result<Explored, Never> {
        let exploration = explore::explore(&self.scenario, &[]).map(|mut exploration| {
            for row in &mut exploration.presets {
                row.stories.clear();
            }
            exploration
        });
        Ok(Explored { exploration })
    }
}
