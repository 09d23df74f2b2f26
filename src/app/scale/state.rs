//! The Scale view's state: what to simulate, and the run.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::app::link::{LinkError, Shareable, Start};
use crate::app::notice::Notice;
use crate::app::route::View;
use crate::sim::migrate::{MigrateError, MigrateOptions, MigrateResult};

/// The most VMIs the view runs.
pub const MAX_VMS: usize = 5000;

/// What a Scale link holds: the inputs, and whether results were shown
/// (then opening the link runs the simulation again: the same inputs give
/// the same numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScaleLink {
    /// VMIs migrating.
    pub vms: usize,
    /// The seed of the interleavings.
    pub seed: u64,
    /// Results were shown.
    #[serde(default)]
    pub ran: bool,
}

impl Default for ScaleLink {
    fn default() -> Self {
        ScaleLink {
            vms: 2000,
            seed: 1,
            ran: false,
        }
    }
}

impl Shareable for ScaleLink {
    const VIEW: View = View::Scale;
    const STORAGE_KEY: &'static str = "patchlab.scale";

    fn check(&self) -> Result<(), LinkError> {
        if self.vms == 0 || self.vms > MAX_VMS {
            return Err(LinkError::OverBudget(format!(
                "{} VMIs (1 to {MAX_VMS})",
                self.vms
            )));
        }
        Ok(())
    }
}

/// A run of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    /// Nothing run yet (or cancelled).
    Idle,
    /// Under way.
    Running {
        /// Which run (later messages of a cancelled run are ignored).
        id: u64,
        /// VMI runs done (over every preset).
        done: usize,
        /// VMI runs in all.
        total: usize,
    },
    /// Finished.
    Done {
        /// The numbers.
        result: Rc<MigrateResult>,
        /// How long it took, in milliseconds.
        ms: f64,
    },
    /// The inputs could not run.
    Failed(MigrateError),
}

/// The Scale view state.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleState {
    /// The inputs.
    pub inputs: ScaleLink,
    /// The run.
    pub run: Run,
    /// The view should start a run (opened from a link with results).
    pub run_requested: bool,
    /// A message for the user.
    pub notice: Option<Notice>,
    last_run: u64,
}

/// What can happen in the Scale view.
#[derive(Clone, Debug, PartialEq)]
pub enum ScaleAction {
    /// Set the number of VMIs (clamped to 1 ..= [`MAX_VMS`]).
    SetVms(usize),
    /// Set the seed.
    SetSeed(u64),
    /// Ask for a run (the view starts it).
    RequestRun,
    /// Open a link: its inputs, and a run when it had results.
    Open(ScaleLink),
    /// A run started.
    Started {
        /// Its id, from [`ScaleState::next_run_id`].
        id: u64,
        /// VMI runs in all.
        total: usize,
    },
    /// A run progressed.
    Progress {
        /// The run.
        id: u64,
        /// VMI runs done.
        done: usize,
    },
    /// A run finished.
    Finished {
        /// The run.
        id: u64,
        /// The numbers.
        result: Rc<MigrateResult>,
        /// How long it took.
        ms: f64,
    },
    /// A run could not start.
    Failed(MigrateError),
    /// Stop the run.
    Cancel,
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
}

impl Default for ScaleState {
    fn default() -> Self {
        ScaleState::with(ScaleLink::default())
    }
}

impl ScaleState {
    fn with(inputs: ScaleLink) -> ScaleState {
        ScaleState {
            run_requested: inputs.ran,
            inputs,
            run: Run::Idle,
            notice: None,
            last_run: 0,
        }
    }

    /// The state a visit starts with.
    pub fn start(start: Start<ScaleLink>) -> ScaleState {
        match start {
            Start::Fresh => ScaleState::default(),
            Start::Saved(link) | Start::Link { link, .. } => ScaleState::with(link),
            Start::BrokenLink { error, saved } => ScaleState {
                notice: Some(Notice::broken_link(&error)),
                ..ScaleState::with(saved.unwrap_or_default())
            },
            Start::BrokenSaved(_) => ScaleState::default(),
        }
    }

    /// The link of this state.
    pub fn link(&self) -> ScaleLink {
        ScaleLink {
            ran: matches!(self.run, Run::Done { .. } | Run::Running { .. }),
            ..self.inputs
        }
    }

    /// What to simulate.
    pub fn options(&self) -> MigrateOptions {
        MigrateOptions {
            vms: self.inputs.vms,
            seed: self.inputs.seed,
            presets: Vec::new(),
            ..MigrateOptions::default()
        }
    }

    /// The id the next run gets.
    pub fn next_run_id(&self) -> u64 {
        self.last_run + 1
    }

    /// True while a run is under way.
    pub fn running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    /// The next state.
    pub fn reduce(&self, action: ScaleAction) -> ScaleState {
        let mut next = self.clone();
        match action {
            ScaleAction::SetVms(vms) => next.inputs.vms = vms.clamp(1, MAX_VMS),
            ScaleAction::SetSeed(seed) => next.inputs.seed = seed,
            ScaleAction::RequestRun => next.run_requested = !next.running(),
            ScaleAction::Open(link) => {
                next.inputs = ScaleLink { ran: false, ..link };
                next.run = Run::Idle;
                next.run_requested = link.ran;
            }
            ScaleAction::Started { id, total } => {
                next.run_requested = false;
                next.last_run = id;
                next.run = Run::Running { id, done: 0, total };
            }
            ScaleAction::Progress { id, done } => {
                if let Run::Running {
                    id: current, total, ..
                } = next.run
                {
                    if current == id {
                        next.run = Run::Running { id, done, total };
                    }
                }
            }
            ScaleAction::Finished { id, result, ms } => {
                if matches!(next.run, Run::Running { id: current, .. } if current == id) {
                    next.run = Run::Done { result, ms };
                }
            }
            ScaleAction::Failed(error) => {
                next.run_requested = false;
                next.run = Run::Failed(error);
            }
            ScaleAction::Cancel => {
                next.run_requested = false;
                next.run = Run::Idle;
            }
            ScaleAction::Notify(notice) => next.notice = Some(notice),
            ScaleAction::DismissNotice => next.notice = None,
        }
        next
    }
}

impl crate::app::link::ViewState for ScaleState {
    type Link = ScaleLink;
    type Action = ScaleAction;

    fn start(start: Start<ScaleLink>) -> Self {
        ScaleState::start(start)
    }

    fn link(&self) -> ScaleLink {
        ScaleState::link(self)
    }

    fn open(link: ScaleLink) -> ScaleAction {
        ScaleAction::Open(link)
    }

    fn notify(notice: Notice) -> ScaleAction {
        ScaleAction::Notify(notice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::link;
    use crate::sim::migrate::migrate;

    #[test]
    fn runs_are_tagged_and_late_messages_ignored() {
        let state = ScaleState::default().reduce(ScaleAction::SetVms(20));
        assert_eq!(state.inputs.vms, 20);
        assert!(!state.run_requested);
        let asked = state.reduce(ScaleAction::RequestRun);
        assert!(asked.run_requested);
        let id = asked.next_run_id();
        let running = asked.reduce(ScaleAction::Started { id, total: 140 });
        assert!(running.running() && !running.run_requested);
        let progressed = running.reduce(ScaleAction::Progress { id, done: 70 });
        assert_eq!(
            progressed.run,
            Run::Running {
                id,
                done: 70,
                total: 140
            }
        );
        let result = Rc::new(migrate(&running.options()).unwrap());
        let cancelled = progressed.reduce(ScaleAction::Cancel);
        let late = cancelled.reduce(ScaleAction::Finished {
            id,
            result: Rc::clone(&result),
            ms: 1.0,
        });
        assert_eq!(late.run, Run::Idle, "a cancelled run's result is dropped");
        let done = progressed.reduce(ScaleAction::Finished {
            id,
            result,
            ms: 1.0,
        });
        assert!(matches!(done.run, Run::Done { .. }));
        assert_eq!(
            ScaleState::default()
                .reduce(ScaleAction::SetVms(0))
                .inputs
                .vms,
            1
        );
        assert_eq!(
            ScaleState::default()
                .reduce(ScaleAction::SetVms(10_000_000))
                .inputs
                .vms,
            MAX_VMS
        );
    }

    #[test]
    fn a_link_with_results_runs_again_on_open() {
        let state = ScaleState::default()
            .reduce(ScaleAction::SetVms(300))
            .reduce(ScaleAction::SetSeed(9));
        assert!(!state.link().ran);
        let id = state.next_run_id();
        let ran = state
            .reduce(ScaleAction::Started { id, total: 2100 })
            .reduce(ScaleAction::Finished {
                id,
                result: Rc::new(migrate(&state.options()).unwrap()),
                ms: 3.0,
            });
        let link = ran.link();
        assert_eq!(
            link,
            ScaleLink {
                vms: 300,
                seed: 9,
                ran: true
            }
        );
        let opened = ScaleState::start(Start::new(Some(&link::encode(&link)), None));
        assert_eq!(opened.inputs, link);
        assert!(opened.run_requested);
        let unrun = ScaleState::start(Start::new(Some(&link::encode(&state.link())), None));
        assert!(!unrun.run_requested);
        let bad = serde_json::json!({"vms": 0, "seed": 1});
        assert!(matches!(
            link::decode::<ScaleLink>(&link::encode(&bad)),
            Err(LinkError::OverBudget(_))
        ));
    }
}
