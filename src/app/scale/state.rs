//! The Scale view's state: what to simulate (the inputs, in the link), and
//! the run streaming in from the engines. Every change of an input starts
//! a new run, at a new revision, which replaces the one going on: the
//! charts follow the sliders.

use std::convert::Infallible;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::app::link::{LinkError, Shareable};
use crate::app::notice::Notice;
use crate::app::route::View;
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::engines::scale::Scale;
use crate::engines::{Answered, Failure, Unavailable};
use crate::limits::{MIGRATE_CHURN, MIGRATE_RETRIES, MIGRATE_VMS};
use crate::sim::migrate::{MigrateOptions, MigrateResult};

/// The VMI counts the slider stops at.
pub const VMI_STEPS: [usize; 13] = [
    10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000,
];

/// What a Scale link holds: the inputs. Opening it runs the simulation:
/// the same inputs give the same numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScaleLink {
    /// VMIs migrating.
    pub vms: usize,
    /// The seed of the interleavings.
    pub seed: u64,
    /// Extra writers per VMI, each changing a label of its own.
    #[serde(default)]
    pub churn: usize,
    /// How often each writer may retry after a failure.
    #[serde(default = "default_retries")]
    pub retries: u32,
    /// Results were shown (links made before the view ran on its own).
    #[serde(default, skip_serializing)]
    pub ran: bool,
}

fn default_retries() -> u32 {
    MigrateOptions::default().retries
}

impl Default for ScaleLink {
    fn default() -> Self {
        ScaleLink {
            vms: 2000,
            seed: 1,
            churn: 0,
            retries: default_retries(),
            ran: false,
        }
    }
}

impl Shareable for ScaleLink {
    const VIEW: View = View::Scale;
    const STORAGE_KEY: &'static str = "patchlab.scale";

    fn check(&self) -> Result<(), LinkError> {
        if self.vms == 0 || self.vms > MIGRATE_VMS {
            return Err(LinkError::OverBudget(format!(
                "{} VMIs (1 to {MIGRATE_VMS})",
                self.vms
            )));
        }
        if self.churn > MIGRATE_CHURN || self.retries > MIGRATE_RETRIES {
            return Err(LinkError::OverBudget(format!(
                "churn {} and retries {} (at most {MIGRATE_CHURN} and {MIGRATE_RETRIES})",
                self.churn, self.retries
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
    /// Under way; the counts so far, when some have come.
    Running {
        /// Its revision (answers to a replaced run are dropped).
        rev: u64,
        /// VMI runs done (over every preset).
        done: usize,
        /// VMI runs in all.
        total: usize,
        /// The counts of the first VMIs, under every preset.
        partial: Option<Rc<MigrateResult>>,
    },
    /// Finished.
    Done {
        /// The numbers.
        result: Rc<MigrateResult>,
        /// How long it took, in milliseconds.
        ms: f64,
    },
    /// Stopped by the user before it finished.
    Stopped {
        /// VMI runs done.
        done: usize,
        /// VMI runs in all.
        total: usize,
        /// The counts so far.
        partial: Option<Rc<MigrateResult>>,
    },
    /// The run could not go on.
    Failed(String),
}

/// A run that took this long is heavy: the view says how long it will
/// take before the numbers come.
pub const HEAVY_MS: f64 = 2_000.0;

/// This browser's measured speed: the last finished run's work and time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Its inputs.
    pub inputs: ScaleLink,
    /// How long it took, in milliseconds.
    pub ms: f64,
}

/// The work of a run, in the measured cost of the simulator
/// ([`crate::sim::migrate::expected_cost`]): only ratios mean anything,
/// so an estimate is the last run's time here scaled by the ratio of the
/// two works.
pub fn work(inputs: &ScaleLink) -> f64 {
    crate::sim::migrate::expected_cost(&MigrateOptions {
        vms: inputs.vms,
        churn: inputs.churn,
        retries: inputs.retries,
        ..MigrateOptions::default()
    })
}

/// The Scale view state.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleState {
    /// The inputs.
    pub inputs: ScaleLink,
    /// The run.
    pub run: Run,
    /// The revision of the latest run asked for.
    pub run_rev: u64,
    /// The last finished run's speed here (for estimates).
    pub measured: Option<Measured>,
    /// The inputs changed to a heavy setting: it waits for Run, the
    /// estimate shown.
    pub held: bool,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// The inputs (and run) a link replaced (the notice's Undo).
    pub undo: Option<Undo<ScaleState>>,
}

/// What can happen in the Scale view.
#[derive(Clone, Debug, PartialEq)]
pub enum ScaleAction {
    /// Set the number of VMIs (clamped to 1 ..= [`MIGRATE_VMS`]).
    SetVms(usize),
    /// Set the seed.
    SetSeed(u64),
    /// Set the churn (clamped to 0 ..= [`MIGRATE_CHURN`]).
    SetChurn(usize),
    /// Set the retry budget (clamped to 0 ..= [`MIGRATE_RETRIES`]).
    SetRetries(u32),
    /// Ask for a run (the view starts it).
    RequestRun,
    /// Open a link: its inputs, and a run (undoable).
    Open(ScaleLink),
    /// Bring back the inputs a link replaced.
    Undo,
    /// The engines' counts of a run so far, or of the whole run, or why
    /// it could not run.
    Answered(Answered<Scale>),
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
            inputs: ScaleLink {
                ran: false,
                ..inputs
            },
            run: Run::Running {
                rev: 1,
                done: 0,
                total: inputs.vms * crate::strategy::Preset::ALL.len(),
                partial: None,
            },
            run_rev: 1,
            measured: None,
            held: false,
            notice: None,
            undo: None,
        }
    }

    /// What to simulate.
    pub fn options(&self) -> MigrateOptions {
        MigrateOptions {
            vms: self.inputs.vms,
            seed: self.inputs.seed,
            churn: self.inputs.churn,
            retries: self.inputs.retries,
            ..MigrateOptions::default()
        }
    }

    /// True while a run is under way.
    pub fn running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    /// The counts to chart: the finished run's, or those so far.
    pub fn shown(&self) -> Option<&Rc<MigrateResult>> {
        match &self.run {
            Run::Done { result, .. } => Some(result),
            Run::Running { partial, .. } | Run::Stopped { partial, .. } => partial.as_ref(),
            _ => None,
        }
    }

    /// How long a run of the current inputs takes here, in milliseconds,
    /// from the last finished run's speed (`None`: nothing measured yet).
    pub fn estimate_ms(&self) -> Option<f64> {
        let measured = self.measured?;
        let done = work(&measured.inputs);
        (done > 0.0 && measured.ms > 0.0).then(|| work(&self.inputs) * measured.ms / done)
    }

    /// True when the current inputs take [`HEAVY_MS`] or more here.
    pub fn heavy(&self) -> bool {
        self.estimate_ms().is_some_and(|ms| ms >= HEAVY_MS)
    }

    /// What the engines are to run, at which revision: the run under way.
    pub fn wants_run(&self) -> Option<(u64, Scale)> {
        match self.run {
            Run::Running { rev, .. } => Some((
                rev,
                Scale {
                    options: self.options(),
                },
            )),
            _ => None,
        }
    }

    /// Starts a run of the current inputs, the counts on screen kept until
    /// new ones come.
    fn start_run(&mut self, after: u64) {
        self.run_rev = after + 1;
        self.held = false;
        self.run = Run::Running {
            rev: self.run_rev,
            done: 0,
            total: self.inputs.vms * crate::strategy::Preset::ALL.len(),
            partial: self.shown().cloned(),
        };
    }

    /// Stops the run under way, keeping what it counted so far.
    fn stop(&mut self) {
        if let Run::Running {
            done,
            total,
            partial,
            ..
        } = &self.run
        {
            self.run = Run::Stopped {
                done: *done,
                total: *total,
                partial: partial.clone(),
            };
        }
    }

    /// Takes the engines' answer about the run under way.
    fn take(&mut self, said: Answered<Scale>) {
        if !matches!(self.run, Run::Running { rev, .. } if rev == said.rev) {
            return;
        }
        self.run = match said.answer {
            Ok(part) if said.more => Run::Running {
                rev: said.rev,
                done: part.done,
                total: part.total,
                partial: Some(Rc::new(part.result.clone())),
            },
            Ok(part) => {
                self.measured = Some(Measured {
                    inputs: self.inputs,
                    ms: part.elapsed_ms,
                });
                Run::Done {
                    result: Rc::new(part.result.clone()),
                    ms: part.elapsed_ms,
                }
            }
            Err(Failure::Unavailable(Unavailable::NotStarted(why))) => Run::Failed(format!(
                "This browser could not start the simulation: it refused to start a Web Worker ({why}). Serve the playground over http(s), not from a file."
            )),
            Err(why) => Run::Failed(why.to_string()),
        };
    }
}

impl ViewState for ScaleState {
    type Link = ScaleLink;
    type Action = ScaleAction;
    type OpenError = Infallible;
    const WORDS: Words = Words {
        saved: "inputs",
        fresh: "these are the default inputs",
        kept: "Your previous inputs are kept",
        back: "Brought back your previous inputs",
    };

    /// Its inputs, run at once (a link holds no numbers: the same inputs
    /// give the same numbers).
    fn from_link(link: ScaleLink) -> Result<Self, Infallible> {
        Ok(ScaleState::with(link))
    }

    /// The link of this state.
    fn link(&self) -> ScaleLink {
        self.inputs
    }

    /// Inputs other than the defaults.
    fn is_work(&self) -> bool {
        self.inputs != ScaleLink::default()
    }

    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
        (&mut self.notice, &mut self.undo)
    }

    /// The next state.
    fn reduce(&self, action: ScaleAction) -> Self {
        let mut next = self.clone();
        // A heavy setting waits for Run; the view says how long it takes.
        let changed = |next: &mut ScaleState| {
            if next.heavy() {
                next.held = true;
                next.stop();
            } else {
                next.start_run(next.run_rev);
            }
        };
        match action {
            ScaleAction::SetVms(vms) => {
                next.inputs.vms = vms.clamp(1, MIGRATE_VMS);
                changed(&mut next);
            }
            ScaleAction::SetSeed(seed) => {
                next.inputs.seed = seed;
                changed(&mut next);
            }
            ScaleAction::SetChurn(churn) => {
                next.inputs.churn = churn.min(MIGRATE_CHURN);
                changed(&mut next);
            }
            ScaleAction::SetRetries(retries) => {
                next.inputs.retries = retries.min(MIGRATE_RETRIES);
                changed(&mut next);
            }
            ScaleAction::RequestRun => next.start_run(self.run_rev),
            ScaleAction::Open(link) => next = view_state::open(self, link),
            ScaleAction::Undo => next = view_state::undo(self),
            ScaleAction::Answered(said) => next.take(said),
            ScaleAction::Cancel => next.stop(),
            ScaleAction::Notify(notice) => next.notice = Some(notice),
            ScaleAction::DismissNotice => next.notice = None,
        }
        next
    }

    /// Inputs without their numbers run again, and the counts on screen
    /// stay until the new ones come (a finished run brought back by Undo
    /// shows its own numbers at once).
    fn after(mut self, previous: &Self) -> Self {
        // The speed measured here stays true of this browser.
        self.measured = self.measured.or(previous.measured);
        self.held = false;
        let after = self.run_rev.max(previous.run_rev);
        self.run_rev = after;
        if !matches!(self.run, Run::Done { .. }) {
            self.run = previous.run.clone();
            self.start_run(after);
        }
        self
    }

    fn open_action(link: ScaleLink) -> ScaleAction {
        ScaleAction::Open(link)
    }

    fn notify_action(notice: Notice) -> ScaleAction {
        ScaleAction::Notify(notice)
    }
}

#[cfg(test)]
impl ScaleAction {
    /// Test-only: the engines' answer about run `rev` of `total` VMI runs:
    /// the counts after `done` (`more`), or the whole run.
    pub(crate) fn part(
        rev: u64,
        (done, total): (usize, usize),
        result: &Rc<MigrateResult>,
        ms: f64,
        more: bool,
    ) -> ScaleAction {
        ScaleAction::Answered(Answered {
            rev,
            answer: Ok(Rc::new(crate::engines::scale::Progress {
                done,
                total,
                vmis: done / crate::strategy::Preset::ALL.len(),
                result: MigrateResult::clone(result),
                elapsed_ms: ms,
            })),
            more,
        })
    }

    /// Test-only: the revision of the run `state` wants (0: none).
    pub(crate) fn rev_of(state: &ScaleState) -> u64 {
        state.wants_run().map(|(rev, _)| rev).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::link::{self, Start};
    use crate::sim::migrate::migrate;

    fn part(rev: u64, done: usize, result: &Rc<MigrateResult>, ms: f64, more: bool) -> ScaleAction {
        ScaleAction::part(rev, (done, 14_000), result, ms, more)
    }

    fn rev_of(state: &ScaleState) -> u64 {
        ScaleAction::rev_of(state)
    }

    #[test]
    fn every_input_asks_for_a_run_and_late_answers_are_ignored() {
        let running = ScaleState::default();
        assert!(running.running(), "a visit runs at once");
        let rev = rev_of(&running);
        let moved = running.reduce(ScaleAction::SetVms(20));
        assert!(rev_of(&moved) > rev, "a slider move asks for a new run");
        assert_eq!(moved.inputs.vms, 20);
        assert_eq!(moved.wants_run().unwrap().1.options, moved.options());
        let partial = Rc::new(
            migrate(&MigrateOptions {
                vms: 3,
                ..moved.options()
            })
            .unwrap(),
        );
        let progressed = running.reduce(part(rev, 21, &partial, 1.0, true));
        assert_eq!(progressed.shown(), Some(&partial), "counts stream in");
        let replaced = progressed.reduce(ScaleAction::RequestRun);
        let next = rev_of(&replaced);
        assert!(next > rev);
        assert_eq!(
            replaced.shown(),
            Some(&partial),
            "the last counts stay while the next run starts"
        );
        let late = replaced.reduce(part(rev, 14_000, &partial, 1.0, false));
        assert_eq!(late, replaced, "an answer to a replaced run is dropped");
        let done = replaced.reduce(part(next, 14_000, &partial, 2.0, false));
        assert!(matches!(done.run, Run::Done { .. }));
        assert_eq!(
            done.wants_run().map(|(r, _)| r),
            None,
            "nothing more to run"
        );
        let failed = replaced.reduce(ScaleAction::Answered(Answered {
            rev: next,
            answer: Err(Failure::Unavailable(Unavailable::NotStarted("no".into()))),
            more: false,
        }));
        assert!(
            matches!(&failed.run, Run::Failed(why) if why.starts_with("This browser could not start the simulation")),
            "{:?}",
            failed.run
        );
        let cancelled = replaced.reduce(ScaleAction::Cancel);
        assert_eq!(
            cancelled.shown(),
            Some(&partial),
            "cancel keeps what was shown"
        );
        assert!(matches!(cancelled.run, Run::Stopped { .. }) && cancelled.wants_run().is_none());
        let answered = cancelled.reduce(part(next, 14_000, &partial, 2.0, false));
        assert_eq!(answered, cancelled, "a stopped run takes no late answer");
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
            MIGRATE_VMS
        );
        let bounded = ScaleState::default()
            .reduce(ScaleAction::SetChurn(99))
            .reduce(ScaleAction::SetRetries(99));
        assert_eq!(
            (bounded.inputs.churn, bounded.inputs.retries),
            (MIGRATE_CHURN, MIGRATE_RETRIES)
        );
        assert_eq!(bounded.options().churn, MIGRATE_CHURN);
    }

    #[test]
    fn links_carry_the_inputs_and_open_running() {
        let state = ScaleState::default()
            .reduce(ScaleAction::SetVms(300))
            .reduce(ScaleAction::SetSeed(9))
            .reduce(ScaleAction::SetChurn(2));
        let link = state.link();
        let packed = link::encode(&link);
        let opened = ScaleState::start(Start::new(Some(&packed), None));
        assert_eq!(opened.inputs, link);
        assert!(opened.running());
        // Links made before churn and retries still open, with the defaults.
        let old = serde_json::json!({"vms": 300, "seed": 9, "ran": true});
        let old: ScaleLink = link::decode(&link::encode(&old)).unwrap();
        assert_eq!((old.churn, old.retries), (0, 2));
        let bad = serde_json::json!({"vms": 0, "seed": 1});
        assert!(matches!(
            link::decode::<ScaleLink>(&link::encode(&bad)),
            Err(LinkError::OverBudget(_))
        ));
    }

    #[test]
    fn saved_inputs_are_never_dropped_in_silence() {
        let mine = ScaleState::default()
            .reduce(ScaleAction::SetVms(300))
            .reduce(ScaleAction::SetChurn(2));
        let link = ScaleLink {
            vms: 50,
            ..ScaleLink::default()
        };
        // A link opened over saved inputs of one's own keeps them for Undo.
        let opened = ScaleState::start(Start::new(
            Some(&link::encode(&link)),
            Some(&link::encode(&mine.link())),
        ));
        assert_eq!(opened.inputs, link);
        let notice = opened.notice.clone().unwrap();
        assert_eq!(
            notice.text,
            "Opened the link. Your previous inputs are kept: Undo brings it back."
        );
        assert_eq!(notice.undo.as_deref(), Some("Undo"));
        let back = opened.reduce(ScaleAction::Undo);
        assert_eq!(back.inputs, mine.inputs);
        assert!(back.running(), "inputs brought back run again");
        assert!(
            rev_of(&back) > rev_of(&opened),
            "at a revision of their own"
        );
        // The defaults are nothing to keep.
        let plain = ScaleState::start(Start::new(
            Some(&link::encode(&link)),
            Some(&link::encode(&ScaleLink::default())),
        ));
        assert!(plain.undo.is_none() && plain.notice.is_none());
        // A link pasted into the open page: the same.
        let pasted = mine.reduce(ScaleAction::Open(link));
        assert_eq!(pasted.inputs, link);
        assert!(pasted.undo.is_some());
        assert_eq!(pasted.reduce(ScaleAction::Undo).inputs, mine.inputs);
        // Saved inputs that cannot be read: said, not dropped in silence.
        let unreadable = ScaleState::start(Start::new(None, Some("1.!!")));
        assert_eq!(unreadable.inputs, ScaleLink::default());
        assert!(unreadable
            .notice
            .unwrap()
            .text
            .starts_with("Your saved inputs could not be read, so these are the default inputs."));
    }

    #[test]
    fn a_finished_run_brought_back_shows_its_numbers_at_once() {
        let result = Rc::new(
            migrate(&MigrateOptions {
                vms: 3,
                ..MigrateOptions::default()
            })
            .unwrap(),
        );
        let mine = ScaleState::default().reduce(ScaleAction::SetVms(300));
        let mine = mine.reduce(part(rev_of(&mine), 2100, &result, 3.0, false));
        let opened = mine.reduce(ScaleAction::Open(ScaleLink::default()));
        assert!(opened.running());
        assert_eq!(
            opened.shown(),
            Some(&result),
            "the counts stay until new ones come"
        );
        let back = opened.reduce(ScaleAction::Undo);
        assert!(!back.running(), "its own numbers, no new run");
        assert!(matches!(back.run, Run::Done { .. }));
    }
}
