//! The Scale view's simulation as a stream: the messages between the
//! page and the Web Worker that runs it, and the run that produces them
//! chunk by chunk. Plain Rust, tested natively; the worker and its client
//! (`src/app/scale_worker.rs`) only move these messages as JSON text.
//!
//! The conversation, for one run (`id` chosen by the page, echoed in every
//! answer so answers to an earlier run can be told apart):
//!
//! ```text
//! worker -> page  {"type":"ready"}                (once, when it listens:
//!                                                  send nothing before)
//! page -> worker  {"type":"start","id":7,"options":{"vms":10000,"seed":1,"churn":2,"retries":2}}
//! worker -> page  {"type":"progress","id":7,"done":1400,"total":70000,"vmis":200,"result":{...},"elapsed_ms":9.5}
//! worker -> page  ... one progress per chunk (about every 25 ms of work)
//! worker -> page  {"type":"done","id":7,"result":{...},"elapsed_ms":160.2}
//! page -> worker  {"type":"cancel","id":7}        (at any time)
//! worker -> page  {"type":"cancelled","id":7}     (if it was still running)
//! ```
//!
//! A `start` while a run is going replaces it (its answers stop). Partial
//! results cover the first `vmis` VMIs under every preset (each VMI is
//! run under all presets before the next), so every preset's counts grow
//! together and can be charted while the run goes on.
//!
//! ```
//! use patchlab::sim::migrate::{migrate, MigrateOptions};
//! use patchlab::sim::scale::{FromWorker, ScaleRun};
//!
//! let options = MigrateOptions { vms: 300, ..MigrateOptions::default() };
//! let mut run = ScaleRun::new(1, &options).unwrap();
//! let mut last = None;
//! while let Some(message) = run.step(500) {
//!     last = Some(message);
//! }
//! let Some(FromWorker::Done { result, .. }) = last else { panic!("done last") };
//! assert_eq!(result, migrate(&options).unwrap());
//! ```

use serde::{Deserialize, Serialize};

use super::migrate::{MigrateError, MigrateOptions, MigrateResult, Migration, WarmTables};

/// A message from the page to the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ToWorker {
    /// Start a run (replacing any run going on).
    Start {
        /// The page's number for this run.
        id: u32,
        /// What to simulate.
        options: MigrateOptions,
    },
    /// Stop the run `id` (nothing happens if another run is going on).
    Cancel {
        /// The run.
        id: u32,
    },
    /// The page is done with this channel: stop any run, forget the warm
    /// tables, stop listening (the worker serves the page on).
    Close,
}

/// A message from the worker to the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FromWorker {
    /// The worker listens (sent once, first): messages posted to a worker
    /// before it listens are lost, so the page waits for this.
    Ready,
    /// Partial counts after a chunk.
    Progress {
        /// The run.
        id: u32,
        /// VMI runs (one VMI under one preset) done so far.
        done: usize,
        /// VMI runs in all (VMIs times presets).
        total: usize,
        /// VMIs done under every preset.
        vmis: usize,
        /// The counts so far.
        result: MigrateResult,
        /// Milliseconds of simulation so far.
        elapsed_ms: f64,
    },
    /// The run is complete.
    Done {
        /// The run.
        id: u32,
        /// The counts.
        result: MigrateResult,
        /// Milliseconds of simulation in all.
        elapsed_ms: f64,
    },
    /// The run was cancelled before it completed.
    Cancelled {
        /// The run.
        id: u32,
    },
    /// The run could not start (an option out of range) or the message
    /// could not be read.
    Failed {
        /// The run (0 when the message had none).
        id: u32,
        /// What is wrong, in words.
        message: String,
    },
}

impl FromWorker {
    /// The run the message is about (0 for [`FromWorker::Ready`]).
    pub fn id(&self) -> u32 {
        match self {
            FromWorker::Ready => 0,
            FromWorker::Progress { id, .. }
            | FromWorker::Done { id, .. }
            | FromWorker::Cancelled { id }
            | FromWorker::Failed { id, .. } => *id,
        }
    }

    /// Reads a message from its JSON text.
    ///
    /// # Errors
    ///
    /// `serde_json`'s error when the text is not such a message.
    pub fn from_json(text: &str) -> Result<FromWorker, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl ToWorker {
    /// Reads a message from its JSON text; a message that is not one is
    /// answered with [`FromWorker::Failed`].
    ///
    /// # Errors
    ///
    /// The answer to send back.
    pub fn from_json(text: &str) -> Result<ToWorker, FromWorker> {
        serde_json::from_str(text).map_err(|e| FromWorker::Failed {
            id: 0,
            message: format!("not a message for the Scale worker: {e}"),
        })
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// One run, advanced chunk by chunk; each chunk gives one message.
pub struct ScaleRun {
    id: u32,
    migration: Migration,
    elapsed_ms: f64,
    finished: bool,
}

impl ScaleRun {
    /// Prepares run `id`.
    ///
    /// # Errors
    ///
    /// [`MigrateError`] when an option is out of range.
    pub fn new(id: u32, options: &MigrateOptions) -> Result<ScaleRun, MigrateError> {
        ScaleRun::warm(id, options, &mut WarmTables::default())
    }

    /// [`ScaleRun::new`], starting from the tables of earlier runs.
    ///
    /// # Errors
    ///
    /// [`MigrateError`] when an option is out of range.
    pub fn warm(
        id: u32,
        options: &MigrateOptions,
        warm: &mut WarmTables,
    ) -> Result<ScaleRun, MigrateError> {
        Ok(ScaleRun {
            id,
            migration: Migration::warm(options, warm)?,
            elapsed_ms: 0.0,
            finished: false,
        })
    }

    /// Ends the run (finished or not), keeping its tables in `warm`.
    pub fn keep(self, warm: &mut WarmTables) {
        self.migration.keep(warm);
    }

    /// The run's number.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Simulates up to `runs` more VMI runs and tells where the run stands:
    /// [`FromWorker::Progress`], then [`FromWorker::Done`] once; `None`
    /// after that. No time is measured (`elapsed_ms` stays 0).
    pub fn step(&mut self, runs: usize) -> Option<FromWorker> {
        self.step_timed(runs, &|| 0.0).map(|(message, _)| message)
    }

    /// [`ScaleRun::step`], timed with `clock` (milliseconds): the message
    /// carries the time simulated so far; also returns this chunk's time.
    pub fn step_timed(
        &mut self,
        runs: usize,
        clock: &dyn Fn() -> f64,
    ) -> Option<(FromWorker, f64)> {
        if self.finished {
            return None;
        }
        let start = clock();
        let complete = self.migration.advance(runs.max(1));
        let spent = (clock() - start).max(0.0);
        self.elapsed_ms += spent;
        self.message(complete).map(|m| (m, spent))
    }

    fn message(&mut self, complete: bool) -> Option<FromWorker> {
        if complete {
            self.finished = true;
            return Some(FromWorker::Done {
                id: self.id,
                result: self.migration.result(),
                elapsed_ms: self.elapsed_ms,
            });
        }
        let (done, total) = self.migration.progress();
        Some(FromWorker::Progress {
            id: self.id,
            done,
            total,
            vmis: self.migration.vmis_done(),
            result: self.migration.result(),
            elapsed_ms: self.elapsed_ms,
        })
    }
}

/// Picks the next chunk's size so a chunk takes about `target_ms`: from
/// the last chunk's size and time, within 64 and 1,000,000 runs.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::migrate::migrate;
    use crate::strategy::Preset;

    #[test]
    fn messages_round_trip_as_json() {
        let start = ToWorker::Start {
            id: 3,
            options: MigrateOptions {
                vms: 10,
                seed: u64::MAX,
                presets: vec![Preset::Naive],
                churn: 2,
                retries: 1,
                ..MigrateOptions::default()
            },
        };
        let text = start.to_json();
        assert_eq!(
            text,
            r#"{"type":"start","id":3,"options":{"vms":10,"seed":18446744073709551615,"presets":["naive"],"churn":2,"retries":1}}"#
        );
        assert_eq!(ToWorker::from_json(&text), Ok(start));
        // Options left out take their defaults.
        assert_eq!(
            ToWorker::from_json(r#"{"type":"start","id":1,"options":{"vms":50}}"#),
            Ok(ToWorker::Start {
                id: 1,
                options: MigrateOptions {
                    vms: 50,
                    ..MigrateOptions::default()
                }
            })
        );
        assert_eq!(
            ToWorker::from_json(r#"{"type":"cancel","id":4}"#),
            Ok(ToWorker::Cancel { id: 4 })
        );
        assert_eq!(
            ToWorker::from_json(r#"{"type":"close"}"#),
            Ok(ToWorker::Close)
        );
        let Err(FromWorker::Failed { id: 0, message }) =
            ToWorker::from_json(r#"{"type":"paint","id":4}"#)
        else {
            panic!("an unknown message is refused");
        };
        assert!(message.contains("unknown variant"), "{message}");
        assert!(ToWorker::from_json(r#"{"type":"start","id":1,"options":{"vmis":5}}"#).is_err());

        assert_eq!(FromWorker::Ready.to_json(), r#"{"type":"ready"}"#);
        let mut run = ScaleRun::new(
            9,
            &MigrateOptions {
                vms: 4,
                ..MigrateOptions::default()
            },
        )
        .unwrap();
        while let Some(message) = run.step(3) {
            let back = FromWorker::from_json(&message.to_json()).unwrap();
            assert_eq!(back, message);
            assert_eq!(back.id(), 9);
        }
    }

    #[test]
    fn a_run_streams_growing_partial_results_then_the_whole() {
        let options = MigrateOptions {
            vms: 120,
            seed: 5,
            churn: 1,
            ..MigrateOptions::default()
        };
        let whole = migrate(&options).unwrap();
        let mut run = ScaleRun::new(2, &options).unwrap();
        let mut messages = Vec::new();
        while let Some(message) = run.step(100) {
            messages.push(message);
        }
        assert_eq!(messages.len(), 120 * 7 / 100 + 1);
        let mut last_writes = 0;
        for message in &messages[..messages.len() - 1] {
            let FromWorker::Progress {
                done,
                total,
                vmis,
                result,
                ..
            } = message
            else {
                panic!("progress before done: {message:?}");
            };
            assert_eq!(*total, 120 * 7);
            assert_eq!(*vmis, done / 7);
            let writes: u64 = result.presets.iter().map(|p| p.total.writes).sum();
            assert!(writes > last_writes);
            last_writes = writes;
            // Every preset has all of the first `vmis` VMIs.
            for p in &result.presets {
                let ok: u64 = p.writers.iter().map(|w| w.counts.ok).sum();
                assert!(ok >= *vmis as u64, "{p:?}");
            }
        }
        assert_eq!(
            messages.last(),
            Some(&FromWorker::Done {
                id: 2,
                result: whole,
                elapsed_ms: 0.0
            })
        );
        assert_eq!(run.step(100), None);
        assert!(ScaleRun::new(
            1,
            &MigrateOptions {
                vms: 0,
                ..MigrateOptions::default()
            }
        )
        .is_err());
    }

    #[test]
    fn chunks_aim_at_the_target_time() {
        assert_eq!(next_chunk(1000, 10.0, 25.0), 2500);
        assert_eq!(next_chunk(1000, 1.0, 25.0), 4000, "at most fourfold");
        assert_eq!(next_chunk(1000, 100.0, 25.0), 250);
        assert_eq!(next_chunk(1000, 0.0, 25.0), 4000, "too fast to tell");
        assert_eq!(next_chunk(10, 100.0, 25.0), 64);
    }
}
