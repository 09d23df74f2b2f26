//! Scenarios (objects, writers, a schedule of events) and their
//! deterministic replay, step by step, with outcomes.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::outcome::{
    ConflictKind, Counts, Erasure, IntentVerdict, Kept, LostUpdate, NotHeld, Outcomes, WriterEnd,
    WriterOutcome,
};
use super::server::{key_of, Request, Response, Server};
use super::writer::WriterSpec;
use crate::input::{self, Budget};
use crate::kube::Evanphx;
use crate::kube::{Cluster, KubeVersion};
use crate::limits::{
    REPLAY_BYTES, SCENARIO_EVENTS, SCENARIO_OBJECTS, SCENARIO_WRITERS, WRITER_INTENTS,
};
use crate::strategy::{self, Body, BodyKind, FieldKind, PlannedOp, Preset};

/// One scheduled event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Event {
    /// The writer's informer cache refreshes: it reads the object.
    Read(String),
    /// The writer sends its write, built from its cache.
    Write(String),
    /// After a failure: re-read, then write again (bounded by the writer's
    /// attempts).
    Retry(String),
}

impl Event {
    /// An event of `kind` for `writer`.
    pub fn new(kind: EventKind, writer: impl Into<String>) -> Event {
        let writer = writer.into();
        match kind {
            EventKind::Read => Event::Read(writer),
            EventKind::Write => Event::Write(writer),
            EventKind::Retry => Event::Retry(writer),
        }
    }

    /// The writer the event belongs to.
    pub fn writer(&self) -> &str {
        match self {
            Event::Read(w) | Event::Write(w) | Event::Retry(w) => w,
        }
    }

    /// What kind of event it is.
    pub fn kind(&self) -> EventKind {
        match self {
            Event::Read(_) => EventKind::Read,
            Event::Write(_) => EventKind::Write,
            Event::Retry(_) => EventKind::Retry,
        }
    }
}

/// The kinds of [`Event`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// The writer's informer cache refreshes.
    Read,
    /// The writer sends its write.
    Write,
    /// Re-read, then write again.
    Retry,
}

impl EventKind {
    /// Every kind, in the order a writer's events usually come.
    pub const ALL: [EventKind; 3] = [EventKind::Read, EventKind::Write, EventKind::Retry];

    /// `read`, `write` or `retry`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Read => "read",
            EventKind::Write => "write",
            EventKind::Retry => "retry",
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for EventKind {
    type Err = crate::strategy::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EventKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| crate::strategy::UnknownName {
                what: "event kind",
                given: s.to_owned(),
                accepted: EventKind::ALL.map(EventKind::as_str).to_vec(),
            })
    }
}

/// A scenario: initial objects, writers, and the order of their events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A title.
    pub name: String,
    /// What it shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The objects on the server at the start.
    pub objects: Vec<Value>,
    /// The field manager that created the objects (owns their fields for
    /// server-side apply); none by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The Kubernetes release the server runs (default: the newest
    /// modelled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<KubeVersion>,
    /// The JSON patch engine, when not the release's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Evanphx>,
    /// The writers.
    pub writers: Vec<WriterSpec>,
    /// The events, in time order.
    pub schedule: Vec<Event>,
    /// What the description says the replays show, as data, by preset
    /// (`own`: each writer's own): checked by tests against the replay's
    /// facts (see `patchlab::claims`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub claims: std::collections::BTreeMap<String, crate::claims::Claims>,
}

/// Why a scenario cannot run (sent by the engines with a replay that
/// cannot run: `crate::app::engine::raced`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioError {
    /// The text does not parse (with its line and column).
    Syntax(input::InputError),
    /// It parses but is not a scenario: a missing or unknown field, a value
    /// of the wrong type (serde's words).
    Shape(String),
    /// No objects to write.
    NoObjects,
    /// More of something than a scenario may hold.
    TooMany {
        /// What: `objects`, `writers`, `events`.
        what: std::borrow::Cow<'static, str>,
        /// How many it has.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// An object without `metadata.name`.
    ObjectWithoutName {
        /// Its position among the objects.
        index: usize,
    },
    /// Two writers with one name.
    DuplicateWriter {
        /// The name.
        name: String,
    },
    /// A writer with more than [`WRITER_INTENTS`] intents.
    TooManyIntents {
        /// The writer.
        writer: String,
    },
    /// A writer targets an object the scenario does not have.
    UnknownTarget {
        /// The writer.
        writer: String,
        /// The `Kind/name` it names.
        target: String,
    },
    /// A writer's per-field strategy names an invalid path.
    BadOverride {
        /// The writer.
        writer: String,
        /// What is wrong with the path.
        error: crate::strategy::PathError,
    },
    /// An intent that sets or removes the whole object.
    WholeObjectIntent {
        /// The writer.
        writer: String,
        /// The intent's position in its list.
        index: usize,
    },
    /// An event names a writer the scenario does not have.
    UnknownWriter {
        /// The event's position in the schedule.
        index: usize,
        /// Its kind.
        kind: EventKind,
        /// The name it gives.
        writer: String,
    },
    /// Too big for the interleaving explorer.
    TooBigToExplore {
        /// Writers in the scenario.
        writers: usize,
        /// Events in its schedule.
        events: usize,
        /// The explorer's bound on writers.
        max_writers: usize,
        /// The explorer's bound on events.
        max_events: usize,
    },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Syntax(error) => write!(f, "{error}"),
            ScenarioError::Shape(message) => write!(f, "scenario: {message}"),
            ScenarioError::NoObjects => f.write_str("a scenario needs at least one object"),
            ScenarioError::TooMany { what, count, limit } => {
                write!(f, "{count} {what}, more than the limit of {limit}")
            }
            ScenarioError::ObjectWithoutName { index } => {
                write!(f, "object {index} needs kind and metadata.name")
            }
            ScenarioError::DuplicateWriter { name } => write!(f, "two writers are named {name:?}"),
            ScenarioError::TooManyIntents { writer } => {
                write!(f, "writer {writer:?} has more than {WRITER_INTENTS} intents")
            }
            ScenarioError::UnknownTarget { writer, target } => write!(
                f,
                "writer {writer:?} targets {target:?}, which is not among the objects"
            ),
            ScenarioError::BadOverride { writer, error } => write!(f, "writer {writer:?}: {error}"),
            ScenarioError::WholeObjectIntent { writer, index } => write!(
                f,
                "writer {writer:?}, intent {index}: an intent sets or removes a field, not the whole object (path \"\")"
            ),
            ScenarioError::UnknownWriter {
                index,
                kind,
                writer,
            } => write!(f, "event {index} ({kind} {writer:?}) names no writer"),
            ScenarioError::TooBigToExplore {
                writers,
                events,
                max_writers,
                max_events,
            } => write!(
                f,
                "the explorer takes at most {max_writers} writers and {max_events} events; this scenario has {writers} and {events}"
            ),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// The length of `value`'s compact JSON text, counted without building it.
fn json_bytes(value: &impl Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

impl Scenario {
    /// Every writer's diff options, `preset` replacing the writers' own
    /// (fixed writers keep theirs), with the schemas of the scenario's
    /// release.
    ///
    /// # Errors
    ///
    /// [`ScenarioError::BadOverride`] for a writer's bad strategy override.
    pub fn writer_options(
        &self,
        preset: Option<Preset>,
    ) -> Result<Vec<strategy::Options>, ScenarioError> {
        let kubernetes = self.cluster().version;
        self.writers
            .iter()
            .map(|w| {
                let mut options =
                    w.options(preset)
                        .map_err(|error| ScenarioError::BadOverride {
                            writer: w.name.clone(),
                            error,
                        })?;
                options.kubernetes = kubernetes;
                Ok(options)
            })
            .collect()
    }

    /// The writers that do not run `preset` as it is when it replaces the
    /// writers' own: `virt-handler keeps its own preset (update)` for a
    /// fixed writer, `migration-controller keeps its overrides
    /// (kubevirt-main + /status/migrationState: add-if-absent)` for one
    /// with per-field overrides.
    pub fn keeping_their_own(&self, preset: Preset) -> Vec<String> {
        self.writers
            .iter()
            .filter_map(|w| {
                let label = w.label(Some(preset));
                if w.fixed && w.preset != preset {
                    Some(format!("{} keeps its own preset ({label})", w.name))
                } else if label != preset.as_str() {
                    Some(format!("{} keeps its overrides ({label})", w.name))
                } else {
                    None
                }
            })
            .collect()
    }

    /// [`Scenario::writer_options`] without the reasons diffs explain
    /// their ops with (the explorer and the mass migration count, they do
    /// not narrate).
    ///
    /// # Errors
    ///
    /// [`ScenarioError::BadOverride`] for a writer's bad strategy override.
    pub fn quiet_writer_options(
        &self,
        preset: Option<Preset>,
    ) -> Result<Vec<strategy::Options>, ScenarioError> {
        let mut options = self.writer_options(preset)?;
        for o in &mut options {
            o.explain = false;
        }
        Ok(options)
    }

    /// Reads a scenario from JSON or YAML text and checks it.
    ///
    /// # Errors
    ///
    /// [`ScenarioError`] with the line and column of a syntax error, the
    /// field at fault, or the rule broken.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let (value, _) = input::parse(text, &Budget::default()).map_err(ScenarioError::Syntax)?;
        let scenario: Scenario =
            serde_json::from_value(value).map_err(|e| ScenarioError::Shape(e.to_string()))?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Checks names, targets and budgets.
    ///
    /// # Errors
    ///
    /// [`ScenarioError`] naming what is wrong.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.objects.is_empty() {
            return Err(ScenarioError::NoObjects);
        }
        for (what, count, limit) in [
            ("objects", self.objects.len(), SCENARIO_OBJECTS),
            ("writers", self.writers.len(), SCENARIO_WRITERS),
            ("events", self.schedule.len(), SCENARIO_EVENTS),
        ] {
            if count > limit {
                return Err(ScenarioError::TooMany {
                    what: what.into(),
                    count,
                    limit,
                });
            }
        }
        // Each step keeps the object it wrote: refuse, before any step,
        // a replay that would keep more than REPLAY_BYTES of them.
        let kept = json_bytes(&self.objects).saturating_mul(self.schedule.len() + 1);
        if kept > REPLAY_BYTES {
            return Err(ScenarioError::TooMany {
                what: "bytes of objects the replay would keep (the objects' JSON once per event)"
                    .into(),
                count: kept,
                limit: REPLAY_BYTES,
            });
        }
        let mut keys = BTreeSet::new();
        keys.extend(self.objects.iter().map(key_of));
        for (index, object) in self.objects.iter().enumerate() {
            if !object.is_object()
                || object
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .is_none()
            {
                return Err(ScenarioError::ObjectWithoutName { index });
            }
        }
        let mut names = BTreeSet::new();
        for writer in &self.writers {
            let name = || writer.name.clone();
            if !names.insert(writer.name.as_str()) {
                return Err(ScenarioError::DuplicateWriter { name: name() });
            }
            if writer.intents.len() > WRITER_INTENTS {
                return Err(ScenarioError::TooManyIntents { writer: name() });
            }
            if let Some(index) = writer.intents.iter().position(|i| i.location().is_root()) {
                return Err(ScenarioError::WholeObjectIntent {
                    writer: name(),
                    index,
                });
            }
            if let Some(target) = &writer.target {
                if !keys.contains(target) {
                    return Err(ScenarioError::UnknownTarget {
                        writer: name(),
                        target: target.clone(),
                    });
                }
            }
            writer
                .options(None)
                .map_err(|error| ScenarioError::BadOverride {
                    writer: name(),
                    error,
                })?;
        }
        for (index, event) in self.schedule.iter().enumerate() {
            if !names.contains(event.writer()) {
                return Err(ScenarioError::UnknownWriter {
                    index,
                    kind: event.kind(),
                    writer: event.writer().to_owned(),
                });
            }
        }
        Ok(())
    }

    /// The release and engine the server runs.
    pub fn cluster(&self) -> Cluster {
        Cluster::from_options(self.kubernetes, self.engine)
    }

    fn target_of(&self, writer: &WriterSpec) -> String {
        writer
            .target
            .clone()
            .unwrap_or_else(|| self.objects.first().map(key_of).unwrap_or_default())
    }
}

/// The request a write sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sent {
    /// Which kind of request.
    pub kind: BodyKind,
    /// The HTTP content type.
    pub content_type: &'static str,
    /// The body as sent.
    pub body: String,
    /// The preset the writer used.
    pub preset: Preset,
    /// What the writer used, named: the preset and its per-field
    /// overrides.
    pub label: String,
    /// For a JSON patch: the ops with their reasons.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<PlannedOp>,
}

/// One replayed event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// Zero-based position in the schedule.
    pub index: usize,
    /// The writer.
    pub writer: String,
    /// The kind of event.
    pub event: EventKind,
    /// What happened, in one line.
    pub summary: String,
    /// The request, when one was sent.
    pub request: Option<Sent>,
    /// The response, when a request was sent.
    pub response: Option<Response>,
    /// For a failed write (422 or 409): false or true conflict, judged on
    /// the request.
    pub conflict: Option<ConflictKind>,
    /// For a true conflict: the changes of other writers the request,
    /// forced, would have undone (the failure kept them).
    pub kept: Vec<Kept>,
    /// For a failed write (422 or 409): needless failure or clashing
    /// intent, judged on the intent.
    pub intent: Option<IntentVerdict>,
    /// For a clashing intent: the changes of other writers the intent,
    /// done afresh, would have undone.
    pub clashes: Vec<Kept>,
    /// Changes of other writers this step erased.
    pub lost: Vec<LostUpdate>,
    /// The written object (`Kind/name`).
    pub target: String,
    /// The object after the step.
    pub object: Value,
}

/// A replayed scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    /// The scenario's name.
    pub scenario: String,
    /// The preset that replaced the writers' own (fixed writers excepted).
    pub preset: Option<Preset>,
    /// The Kubernetes release and JSON patch engine of the server.
    pub cluster: Cluster,
    /// The objects before the first step.
    pub initial: Vec<Value>,
    /// One per event.
    pub steps: Vec<Step>,
    /// Counts and classes.
    pub outcomes: Outcomes,
}

struct WriterState {
    cache: Option<std::rc::Rc<Value>>,
    attempts: u32,
    done: bool,
    /// The status of its last failed write, while it has not succeeded.
    failed: Option<u16>,
}

/// An effect a successful write established, watched for later erasure.
struct Watched {
    writer: usize,
    intent: usize,
    target: String,
}

/// A watched effect a later write undid: whose (writer, intent), which
/// write, and whether it was a lost update (else a deliberate overwrite).
struct Undone {
    writer: usize,
    intent: usize,
    erasure: Erasure,
    lost: bool,
}

/// The world a replay runs in: the server, the writers' caches and what
/// is watched for lost updates; `record` keeps a full step log (the mass
/// migration turns it off and keeps counts only).
pub(crate) struct World<'a> {
    scenario: &'a Scenario,
    preset: Option<Preset>,
    options: std::borrow::Cow<'a, [strategy::Options]>,
    targets: Vec<String>,
    pub(crate) server: Server,
    states: Vec<WriterState>,
    watched: Vec<Watched>,
    /// Every watched effect undone, in order: why an intent no longer
    /// holds at the end.
    undone: Vec<Undone>,
    pub(crate) outcomes: Outcomes,
    record: bool,
    pub(crate) steps: Vec<Step>,
    /// The yardsticks of the last write, when it failed with a 422 or 409.
    pub(crate) yardsticks: Option<Yardsticks>,
}

impl<'a> World<'a> {
    pub(crate) fn new(
        scenario: &'a Scenario,
        preset: Option<Preset>,
        record: bool,
    ) -> Result<World<'a>, ScenarioError> {
        let options = scenario.writer_options(preset)?;
        Ok(World::prepared(
            scenario,
            preset,
            std::borrow::Cow::Owned(options),
            record,
        ))
    }

    /// An engine with the writers' options already built (one per writer,
    /// in order). Without recording, the server keeps field ownership only
    /// when some writer uses server-side apply.
    pub(crate) fn prepared(
        scenario: &'a Scenario,
        preset: Option<Preset>,
        options: std::borrow::Cow<'a, [strategy::Options]>,
        record: bool,
    ) -> World<'a> {
        let applies =
            options.iter().any(|o| o.policy.preset == Preset::Ssa) || scenario.owner.is_some();
        let mut server = Server::new([]).with_cluster(scenario.cluster());
        if !record && !applies {
            server = server.without_ownership();
        }
        for object in &scenario.objects {
            server.create(object.clone(), scenario.owner.as_deref());
        }
        let outcomes = Outcomes {
            writers: scenario
                .writers
                .iter()
                .zip(options.iter())
                .map(|(w, o)| WriterOutcome {
                    name: w.name.clone(),
                    preset: o.policy.preset,
                    label: w.label(preset),
                    counts: Counts::default(),
                    intent_holds: false,
                    end: WriterEnd::NeverWrote,
                    not_held: None,
                })
                .collect(),
            lost_updates: Vec::new(),
            intents_hold: false,
        };
        World {
            scenario,
            preset,
            targets: scenario
                .writers
                .iter()
                .map(|w| scenario.target_of(w))
                .collect(),
            options,
            server,
            states: scenario
                .writers
                .iter()
                .map(|_| WriterState {
                    cache: None,
                    attempts: 0,
                    done: false,
                    failed: None,
                })
                .collect(),
            watched: Vec::new(),
            undone: Vec::new(),
            outcomes,
            record,
            steps: Vec::new(),
            yardsticks: None,
        }
    }

    /// Puts the world in a situation for the fast path ([`super::fast`]):
    /// the server as `server`, writer `w` fresh with `cache` read.
    pub(crate) fn seed(&mut self, server: Server, w: usize, cache: Option<std::rc::Rc<Value>>) {
        self.server = server;
        if let Some(state) = self.states.get_mut(w) {
            *state = WriterState {
                cache,
                attempts: 0,
                done: false,
                failed: None,
            };
        }
    }

    /// Writer `w`'s attempts so far, whether it is done, and the status of
    /// its last failed write.
    pub(crate) fn writer_state(&self, w: usize) -> (u32, bool, Option<u16>) {
        self.states
            .get(w)
            .map_or((0, false, None), |s| (s.attempts, s.done, s.failed))
    }

    fn writer_index(&self, name: &str) -> Option<usize> {
        self.scenario.writers.iter().position(|w| w.name == name)
    }

    /// Writer `w` writes from its cache as it stands, as the first write
    /// or (with `retry`) as a retry after it re-read: the fast path of the
    /// mass migration computes its transitions with this.
    pub(crate) fn write_now(&mut self, w: usize, retry: bool) {
        let mut step = StepDraft::default();
        self.write(w, 0, retry, &mut step);
    }

    /// Runs one event.
    pub(crate) fn step(&mut self, index: usize, event: &Event) {
        self.step_outcome(index, event);
    }

    /// Runs one event and tells what happened in it.
    pub(crate) fn step_outcome(&mut self, index: usize, event: &Event) -> StepOutcome {
        let Some(w) = self.writer_index(event.writer()) else {
            return StepOutcome::default();
        };
        let name = self.scenario.writers[w].name.clone();
        let target = self.targets[w].clone();
        let mut step = StepDraft::default();
        match event {
            Event::Read(_) => self.read(w, &mut step),
            Event::Write(_) => self.write(w, index, false, &mut step),
            Event::Retry(_) => {
                let state = &self.states[w];
                let spec = &self.scenario.writers[w];
                // An applier whose write succeeded and whose later apply
                // failed retries that apply (attempts bound only the writes
                // before a success, as in `prepare`).
                if state.done && state.failed.is_none() {
                    step.summary = format!("{name} has nothing to retry: its write succeeded");
                } else if state.attempts == 0 {
                    step.summary = format!("{name} has nothing to retry: it has not written yet");
                } else if !state.done && state.attempts >= spec.attempts {
                    self.outcomes.writers[w].counts.gave_up = 1;
                    step.summary = format!("{name} gives up: {} attempts used", state.attempts);
                } else {
                    self.outcomes.writers[w].counts.retries += 1;
                    let mut read = StepDraft::default();
                    self.read(w, &mut read);
                    self.write(w, index, true, &mut step);
                    step.summary = format!("{name} re-reads and retries: {}", step.summary);
                }
            }
        }
        let outcome = StepOutcome {
            writer: w,
            code: step.response.as_ref().map(|r| r.code),
            conflict: step.conflict,
            intent: step.intent,
            lost: step.lost.iter().map(|l| l.victim_index).collect(),
            kept: step.kept.iter().map(|k| k.writer_index).collect(),
            ok: step.response.as_ref().is_some_and(Response::is_success),
        };
        if self.record {
            let object = self.server.get(&target).cloned().unwrap_or(Value::Null);
            self.steps.push(Step {
                index,
                writer: name,
                event: event.kind(),
                summary: step.summary,
                request: step.request,
                response: step.response,
                conflict: step.conflict,
                kept: step.kept,
                intent: step.intent,
                clashes: step.clashes,
                lost: step.lost,
                target,
                object,
            });
        }
        outcome
    }

    fn read(&mut self, w: usize, step: &mut StepDraft) {
        let target = &self.targets[w];
        let name = &self.scenario.writers[w].name;
        match self.server.snapshot(target) {
            Some(object) => {
                if self.record {
                    let rv = object
                        .pointer("/metadata/resourceVersion")
                        .and_then(Value::as_str)
                        .unwrap_or("?");
                    step.summary = format!("{name} reads {target} at resourceVersion {rv}");
                }
                self.states[w].cache = Some(object);
            }
            None => {
                step.summary = format!("{name} finds no {target}");
                self.states[w].cache = None;
            }
        }
    }

    /// Writer `w` writes: [`World::prepare`] the request from its cache,
    /// note what the server holds just before, send it, then on a 422 or
    /// 409 measure its [`Yardsticks`] and [`World::classify`] it,
    /// [`World::account`] the answer, and (when recording)
    /// [`World::narrate`] it.
    fn write(&mut self, w: usize, index: usize, retry: bool, step: &mut StepDraft) {
        let Some(prepared) = self.prepare(w, retry, step) else {
            return;
        };
        let before = self.before(w, &prepared.cache);
        let name = &self.scenario.writers[w].name;
        let response = self.server.handle(&prepared.request, name);
        self.yardsticks = None;
        if !response.is_success() && matches!(response.code, 409 | 422) {
            let sticks = self.measure(w, &prepared.request, &response);
            let verdict = self.classify(&before, &sticks);
            step.conflict = Some(verdict.kind);
            step.kept = verdict.kept;
            step.intent = Some(verdict.intent);
            step.clashes = verdict.clashes;
            self.yardsticks = Some(sticks);
        }
        self.account(w, index, &response, &before, step);
        if self.record {
            self.narrate(w, &prepared, &response, step);
        }
        step.response = Some(response);
    }

    /// Builds writer `w`'s request from its cache, or says in `step` why it
    /// sends nothing (done, out of attempts, nothing read, nothing to change,
    /// its write cannot be built).
    fn prepare(&mut self, w: usize, retry: bool, step: &mut StepDraft) -> Option<Prepared> {
        let spec = &self.scenario.writers[w];
        let name = &spec.name;
        let target = &self.targets[w];
        // An applier sends its whole configuration on every write, so it
        // may apply again after a success.
        let applier = self.options[w].policy.preset == Preset::Ssa;
        let state = &self.states[w];
        if state.done && !applier {
            step.summary = format!("{name} has nothing to write: its write succeeded");
            return None;
        }
        if !state.done && state.attempts >= spec.attempts {
            self.outcomes.writers[w].counts.gave_up = 1;
            step.summary = format!("{name} gives up: {} attempts used", state.attempts);
            return None;
        }
        let Some(cache) = state.cache.clone() else {
            step.summary = format!("{name} has not read {target} yet: nothing to base a write on");
            return None;
        };
        let cannot = |err: &dyn fmt::Display| format!("{name} cannot build its write: {err}");
        let desired = match spec.desired(&cache) {
            Ok(desired) => desired,
            Err(err) => {
                step.summary = cannot(&err);
                return None;
            }
        };
        let mut plan = match strategy::diff(&cache, &desired, &self.options[w]) {
            Ok(plan) => plan,
            Err(err) => {
                step.summary = cannot(&err);
                return None;
            }
        };
        if applier {
            // A controller's apply configuration holds every field it
            // manages, not only what changed since its read.
            let config = match spec.apply_configuration(&cache) {
                Ok(config) => config,
                Err(err) => {
                    step.summary = cannot(&err);
                    return None;
                }
            };
            plan.body = Body::Apply {
                config,
                field_manager: name.clone(),
            };
        } else if plan.is_empty() {
            self.states[w].done = true;
            step.summary = format!("{name}'s cache already shows its intent: nothing to send");
            return None;
        }
        let (request, sent) = self.request(w, &plan, retry);
        Some(Prepared {
            request,
            sent,
            plan,
            cache,
        })
    }

    /// The request carrying `plan`'s body, and what it sends (for the
    /// step's record).
    fn request(
        &self,
        w: usize,
        plan: &strategy::Plan,
        retry: bool,
    ) -> (Request, (BodyKind, Vec<PlannedOp>)) {
        let spec = &self.scenario.writers[w];
        let name = &spec.name;
        let key = self.targets[w].clone();
        match &plan.body {
            // Recorded steps send the payload text, as on the wire; the mass
            // migration hands the same ops over without the text round trip.
            Body::JsonPatch(ops) if self.record => (
                Request::JsonPatch {
                    key,
                    payload: plan.body_text(),
                },
                (BodyKind::JsonPatch, ops.clone()),
            ),
            Body::JsonPatch(ops) => (
                Request::Ops {
                    key,
                    ops: ops.iter().map(|p| p.op.clone()).collect(),
                },
                (BodyKind::JsonPatch, Vec::new()),
            ),
            Body::MergePatch(body) => (
                Request::MergePatch {
                    key,
                    body: body.clone(),
                },
                (BodyKind::MergePatch, Vec::new()),
            ),
            Body::StrategicMergePatch(body) => (
                Request::StrategicMergePatch {
                    key,
                    body: body.clone(),
                },
                (BodyKind::StrategicMergePatch, Vec::new()),
            ),
            Body::Apply { config, .. } => (
                Request::Apply {
                    key,
                    config: config.clone(),
                    manager: name.clone(),
                    force: spec.force || (retry && spec.force_on_retry),
                },
                (BodyKind::Apply, Vec::new()),
            ),
            Body::Update(object) => (
                Request::Update {
                    key,
                    object: object.clone(),
                },
                (BodyKind::Update, Vec::new()),
            ),
        }
    }

    /// What the server holds just before writer `w`'s write, as far as
    /// classifying a failure and spotting the changes a success erases
    /// need it: the other writers' changes that hold now, and which of
    /// them `w` has not seen (made after its read).
    fn before(&self, w: usize, cache: &Value) -> Before {
        let target = &self.targets[w];
        let null = Value::Null;
        let stored = self.server.get(target).unwrap_or(&null);
        let held = self
            .watched
            .iter()
            .map(|watched| {
                let intent = &self.scenario.writers[watched.writer].intents[watched.intent];
                let held = watched.target == *target && watched.writer != w && intent.holds(stored);
                Seen {
                    held,
                    since_read: held && !intent.holds(cache),
                }
            })
            .collect();
        Before { held }
    }

    /// The yardsticks of writer `w`'s failed `request` (the server still
    /// holds the object as it stood): the request forced, the intent done
    /// afresh, and whether the failing test was on a map.
    fn measure(&self, w: usize, request: &Request, response: &Response) -> Yardsticks {
        let null = Value::Null;
        let stored = self.server.get(&self.targets[w]).unwrap_or(&null);
        let policy = &self.options[w].policy;
        Yardsticks {
            forced: self.server.forced(request, &self.scenario.writers[w].name),
            meant: self.scenario.writers[w].desired(stored).ok(),
            on_map: response
                .cause
                .as_ref()
                .and_then(|c| c.path.as_deref())
                .is_some_and(|path| on_a_map(policy, path)),
        }
    }

    /// The two verdicts on a failed write (409 or 422), by the definitions
    /// of the vocabulary. On the request: a true conflict when the request
    /// forced ([`Yardsticks::forced`]) would have undone a change another
    /// writer made since this writer's read (those are the changes the
    /// failure kept), a false conflict otherwise. On the intent: a clash
    /// when the intent done afresh ([`Yardsticks::meant`]) would have
    /// undone one, a needless failure otherwise. A yardstick that cannot
    /// be built undoes nothing.
    ///
    /// [`Term::FalseConflict`]: crate::vocabulary::Term::FalseConflict
    fn classify(&self, before: &Before, sticks: &Yardsticks) -> Verdict {
        let undone_by = |object: &Option<Value>| -> Vec<Kept> {
            let Some(object) = object else {
                return Vec::new();
            };
            self.watched
                .iter()
                .zip(&before.held)
                .filter(|(_, seen)| seen.since_read)
                .map(|(watched, _)| {
                    (
                        watched.writer,
                        &self.scenario.writers[watched.writer].intents[watched.intent],
                    )
                })
                .filter(|(_, intent)| !intent.holds(object))
                .map(|(writer, intent)| Kept {
                    writer: self.scenario.writers[writer].name.clone(),
                    writer_index: writer,
                    intent: intent.describe(),
                    path: intent.location().to_string(),
                })
                .collect()
        };
        let kept = undone_by(&sticks.forced);
        let clashes = undone_by(&sticks.meant);
        Verdict {
            kind: if kept.is_empty() {
                ConflictKind::False
            } else {
                ConflictKind::True
            },
            kept,
            intent: if clashes.is_empty() {
                IntentVerdict::Needless
            } else {
                IntentVerdict::Clash
            },
            clashes,
        }
    }

    /// Counts the answer to writer `w`'s write (with the verdicts `step`
    /// carries) and moves its state on; on a success, finds the changes of
    /// others it erased.
    fn account(
        &mut self,
        w: usize,
        index: usize,
        response: &Response,
        before: &Before,
        step: &mut StepDraft,
    ) {
        self.states[w].attempts += 1;
        let counts = &mut self.outcomes.writers[w].counts;
        counts.writes += 1;
        if response.is_success() {
            counts.ok += 1;
            self.states[w].done = true;
            self.states[w].failed = None;
            let target = self.targets[w].clone();
            step.lost = self.watch(w, index, &target, &before.held);
            return;
        }
        self.states[w].failed = Some(response.code);
        match response.code {
            422 => counts.invalid += 1,
            409 => counts.conflict += 1,
            _ => counts.other_errors += 1,
        }
        let on_map = self.yardsticks.as_ref().is_some_and(|s| s.on_map);
        counts.count_verdicts(step.conflict, step.intent, on_map);
    }

    /// The step's words and request, for recorded replays only.
    fn narrate(&self, w: usize, prepared: &Prepared, response: &Response, step: &mut StepDraft) {
        let name = &self.scenario.writers[w].name;
        let (kind, ops) = &prepared.sent;
        let sends = kind.describe(ops.len());
        step.summary = if response.is_success() {
            let result = if response.changed {
                format!(
                    "OK, resourceVersion {}",
                    response.resource_version.as_deref().unwrap_or("?")
                )
            } else {
                "OK, nothing changed (no new resourceVersion)".to_owned()
            };
            format!("{name} sends {sends}: {} {result}", response.code)
        } else {
            // The failing op, for a JSON patch (other bodies fail whole).
            let at = response
                .cause
                .as_ref()
                .filter(|c| c.index.is_some())
                .map_or(String::new(), |cause| {
                    format!(
                        " at op {} ({} {})",
                        cause.index.map_or("-".to_owned(), |i| i.to_string()),
                        cause.op.as_deref().unwrap_or("?"),
                        cause.path.as_deref().unwrap_or("?")
                    )
                });
            let class = match (step.conflict, step.intent) {
                (Some(kind), Some(intent)) => format!(
                    ": {}",
                    super::outcome::verdicts_in_words(kind, &step.kept, intent, &step.clashes)
                ),
                _ => String::new(),
            };
            format!(
                "{name} sends {sends}: {} {}{at}{class}",
                response.code, response.reason
            )
        };
        step.request = Some(Sent {
            kind: *kind,
            content_type: prepared.plan.body.content_type(),
            body: prepared.plan.body_text(),
            preset: self.options[w].policy.preset,
            label: self.outcomes.writers[w].label.clone(),
            ops: ops.clone(),
        });
    }

    /// After writer `w` wrote successfully: which watched effects of other
    /// writers it erased without meaning to, and which of its own to watch.
    fn watch(&mut self, w: usize, index: usize, target: &str, seen: &[Seen]) -> Vec<LostUpdate> {
        let writers = &self.scenario.writers;
        let mine = &writers[w].intents;
        let null = Value::Null;
        let after = self.server.get(target).unwrap_or(&null);
        let mut lost = Vec::new();
        let mut kept = Vec::with_capacity(self.watched.len());
        for (i, watched) in self.watched.drain(..).enumerate() {
            let intent = &writers[watched.writer].intents[watched.intent];
            let seen = seen.get(i).copied().unwrap_or_default();
            if !seen.held || intent.holds(after) {
                kept.push(watched);
                continue;
            }
            // Erased. Lost when the change was made after this writer's
            // read (nobody told it); undoing a change it had read is a
            // deliberate overwrite. Either way it is no longer watched.
            let erasure = Erasure {
                by: writers[w].name.clone(),
                intent: intent.describe(),
                step: index,
            };
            if seen.since_read {
                let victim = writers[watched.writer].name.clone();
                self.outcomes.writers[watched.writer].counts.lost_updates += 1;
                let record = LostUpdate {
                    victim,
                    victim_index: watched.writer,
                    intent: erasure.intent.clone(),
                    path: intent.location().to_string(),
                    erased_by: erasure.by.clone(),
                    step: index,
                };
                self.outcomes.lost_updates.push(record.clone());
                lost.push(record);
            }
            self.undone.push(Undone {
                writer: watched.writer,
                intent: watched.intent,
                erasure,
                lost: seen.since_read,
            });
        }
        self.watched = kept;
        for (i, intent) in mine.iter().enumerate() {
            let watched = |x: &Watched| x.writer == w && x.intent == i && x.target == target;
            if intent.holds(after) && !self.watched.iter().any(watched) {
                self.watched.push(Watched {
                    writer: w,
                    intent: i,
                    target: target.to_owned(),
                });
            }
        }
        lost
    }

    /// Decides each writer's end, whether its intent holds and, when it
    /// does not, why ([`NotHeld::decide`]).
    pub(crate) fn finish(&mut self) {
        let mut all = true;
        for (w, spec) in self.scenario.writers.iter().enumerate() {
            let null = Value::Null;
            let object = self.server.get(&self.targets[w]).unwrap_or(&null);
            let converged = spec.intents.iter().all(|i| i.holds(object));
            let state = &self.states[w];
            let outcome = &mut self.outcomes.writers[w];
            outcome.intent_holds = converged;
            outcome.end = WriterEnd::decide(
                outcome.counts.gave_up > 0,
                state.failed,
                state.attempts < spec.attempts,
                state.done,
                outcome.counts.ok > 0,
            );
            outcome.not_held = (!converged).then(|| {
                // The last write that undid one of its changes still
                // missing now.
                let erased = self
                    .undone
                    .iter()
                    .rev()
                    .find(|u| u.writer == w && !spec.intents[u.intent].holds(object))
                    .map(|u| (u.erasure.clone(), u.lost));
                NotHeld::decide(outcome.end, erased)
            });
            all &= converged;
        }
        self.outcomes.intents_hold = all;
    }
}

/// True when a failing `test` at `path` is on a map field (or a key of
/// one) under `policy`: the false conflicts per-key patches remove.
fn on_a_map(policy: &crate::strategy::Policy, path: &str) -> bool {
    let Ok(path) = crate::pointer::Pointer::parse(path) else {
        return false;
    };
    let is_map = |p: &crate::pointer::Pointer| policy.declared_kind(p) == Some(FieldKind::Map);
    is_map(path) || path.parent().is_some_and(is_map)
}

/// What the mass migration and the explorer need to know of a step.
#[derive(Default)]
pub(crate) struct StepOutcome {
    /// The writer's index.
    pub(crate) writer: usize,
    /// The response's status, when a request was sent.
    pub(crate) code: Option<u16>,
    /// For a failed write: false or true conflict.
    pub(crate) conflict: Option<ConflictKind>,
    /// For a failed write: needless failure or clashing intent.
    pub(crate) intent: Option<IntentVerdict>,
    /// The writers (indices) whose changes this step erased.
    pub(crate) lost: Vec<usize>,
    /// For a true conflict: the writers (indices) whose changes it kept.
    pub(crate) kept: Vec<usize>,
    /// The request succeeded.
    pub(crate) ok: bool,
}

/// A write built from a writer's cache, ready to send.
struct Prepared {
    request: Request,
    /// What was sent, for the step's record: the body kind and its ops.
    sent: (BodyKind, Vec<PlannedOp>),
    plan: strategy::Plan,
    /// The cache it was built from.
    cache: std::rc::Rc<Value>,
}

/// What the server held just before a write.
struct Before {
    /// For each watched change of another writer: whether it held just
    /// before, and whether it was made after this writer's read.
    held: Vec<Seen>,
}

/// A watched change of another writer, as a write finds it.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// It holds on the server just before the write.
    held: bool,
    /// It holds, and the writer's cache does not show it.
    since_read: bool,
}

#[derive(Default)]
struct StepDraft {
    summary: String,
    request: Option<Sent>,
    response: Option<Response>,
    conflict: Option<ConflictKind>,
    kept: Vec<Kept>,
    intent: Option<IntentVerdict>,
    clashes: Vec<Kept>,
    lost: Vec<LostUpdate>,
}

/// The two verdicts on a failed write (422 or 409), each with the changes
/// of others it names.
struct Verdict {
    kind: ConflictKind,
    kept: Vec<Kept>,
    intent: IntentVerdict,
    clashes: Vec<Kept>,
}

/// What a failed write (422 or 409) would have made of the object as it
/// stood: its request forced, and its writer's intent done afresh (`None`
/// where it cannot be built). The fast path classifies with these.
#[derive(Clone, Debug, Default)]
pub(crate) struct Yardsticks {
    /// The request as sent, its preconditions set aside ([`Server::forced`]).
    pub(crate) forced: Option<Value>,
    /// The writer's intents done on the object as it stood.
    pub(crate) meant: Option<Value>,
    /// The failing test was on a map or a key of one.
    pub(crate) on_map: bool,
}

/// Replays `scenario`, with `preset` replacing every writer's own preset
/// except fixed writers'.
///
/// # Errors
///
/// [`ScenarioError`] when a writer's strategy overrides are invalid.
pub fn replay(scenario: &Scenario, preset: Option<Preset>) -> Result<Replay, ScenarioError> {
    scenario.validate()?;
    let mut engine = World::new(scenario, preset, true)?;
    for (index, event) in scenario.schedule.iter().enumerate() {
        engine.step(index, event);
    }
    engine.finish();
    Ok(Replay {
        scenario: scenario.name.clone(),
        preset: engine.preset,
        cluster: scenario.cluster(),
        initial: scenario.objects.clone(),
        steps: std::mem::take(&mut engine.steps),
        outcomes: engine.outcomes,
    })
}
