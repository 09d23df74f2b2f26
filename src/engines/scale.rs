//! Scale's question: a mass migration simulated in parts, so the view can
//! chart partial counts while it runs and a slider move replaces the run
//! at the next part. Each VMI is run under every preset before the next,
//! so every preset's counts grow together.
//!
//! ```
//! use patchlab::engines::scale::{Scale, ScaleRun};
//! use patchlab::sim::migrate::{migrate, MigrateOptions, WarmTables};
//!
//! let options = MigrateOptions { vms: 300, ..MigrateOptions::default() };
//! let mut run = ScaleRun::start(&options, &mut WarmTables::default()).unwrap();
//! let mut last = None;
//! while let Some(part) = run.step(500) {
//!     last = Some(part);
//! }
//! assert_eq!(last.unwrap().result, migrate(&options).unwrap());
//! ```

use serde::{Deserialize, Serialize};

use super::{Caches, Parts, Question, Start, PART_MS};
use crate::sim::migrate::{MigrateError, MigrateOptions, MigrateResult, Migration, WarmTables};

/// Simulate a mass migration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scale {
    /// What to simulate.
    pub options: MigrateOptions,
}

/// The counts of a run so far (the last part: the whole run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// VMI runs (one VMI under one preset) done so far.
    pub done: usize,
    /// VMI runs in all (VMIs times presets).
    pub total: usize,
    /// VMIs done under every preset.
    pub vmis: usize,
    /// The counts so far.
    pub result: MigrateResult,
    /// Milliseconds of simulation so far.
    pub elapsed_ms: f64,
}

impl Question for Scale {
    const NAME: &'static str = "scale";
    const IN_PARTS: bool = true;
    /// The view's number of the run.
    type Rev = u64;
    type Answer = Progress;
    type Refusal = MigrateError;

    /// The whole run at once (natively; the worker answers in parts).
    fn answer(self, caches: &mut Caches) -> Result<Progress, MigrateError> {
        let mut run = ScaleRun::start(&self.options, caches.get::<WarmTables>())?;
        let mut last = None;
        while let Some(part) = run.step(usize::MAX) {
            last = Some(part);
        }
        run.keep(caches.get::<WarmTables>());
        last.ok_or(MigrateError::VmCount(0))
    }

    fn start(self, caches: &mut Caches) -> Start<Scale> {
        match ScaleRun::start(&self.options, caches.get::<WarmTables>()) {
            Ok(run) => Start::Parts(Box::new(run)),
            Err(why) => Start::Whole(Err(why)),
        }
    }

    /// The warm tables go with the view.
    fn forget(caches: &mut Caches) {
        caches.free::<WarmTables>();
    }
}

/// A run going on: the migration, the time spent, and the size of the
/// next chunk.
pub struct ScaleRun {
    migration: Migration,
    elapsed_ms: f64,
    chunk: usize,
    finished: bool,
}

impl ScaleRun {
    /// Starts a run with the tables of earlier runs (a slider move re-runs
    /// with the same writers, which starts warm).
    ///
    /// # Errors
    ///
    /// [`MigrateError`] when the options are out of bounds.
    pub fn start(
        options: &MigrateOptions,
        warm: &mut WarmTables,
    ) -> Result<ScaleRun, MigrateError> {
        Ok(ScaleRun {
            migration: Migration::warm(options, warm)?,
            elapsed_ms: 0.0,
            chunk: 256,
            finished: false,
        })
    }

    /// Gives its tables back for the next run.
    pub fn keep(self, warm: &mut WarmTables) {
        self.migration.keep(warm);
    }

    /// Runs up to `runs` VMI runs and says how far it got; `None` once
    /// the whole run was given.
    pub fn step(&mut self, runs: usize) -> Option<Progress> {
        (!self.finished).then(|| self.advance(runs, &|| 0.0).0)
    }

    /// Runs up to `runs` VMI runs: how far it got, and the milliseconds
    /// spent by `clock`.
    fn advance(&mut self, runs: usize, clock: &dyn Fn() -> f64) -> (Progress, f64) {
        let start = clock();
        self.finished = self.finished || self.migration.advance(runs.max(1));
        let spent = (clock() - start).max(0.0);
        self.elapsed_ms += spent;
        let (done, total) = self.migration.progress();
        let part = Progress {
            done,
            total,
            vmis: self.migration.vmis_done(),
            result: self.migration.result(),
            elapsed_ms: self.elapsed_ms,
        };
        (part, spent)
    }
}

impl Parts<Scale> for ScaleRun {
    fn next(&mut self, _: &mut Caches, clock: &dyn Fn() -> f64) -> (Progress, bool) {
        let (part, spent) = self.advance(self.chunk, clock);
        self.chunk = next_chunk(self.chunk, spent, PART_MS);
        (part, self.finished)
    }

    fn end(self: Box<Self>, caches: &mut Caches) {
        self.keep(caches.get::<WarmTables>());
    }
}

/// The size of the next chunk: about `target_ms` of work at the rate of
/// the last one (`last_runs` VMI runs in `last_ms`).
pub fn next_chunk(last_runs: usize, last_ms: f64, target_ms: f64) -> usize {
    let rate = if last_ms > 0.1 {
        last_runs as f64 / last_ms
    } else {
        last_runs as f64 * 4.0 / target_ms.max(1.0)
    };
    // Grow at most fourfold per chunk (a fast first chunk is no promise).
    let next = (rate * target_ms).min(last_runs as f64 * 4.0);
    (next as usize).clamp(64, 1_000_000)
}
