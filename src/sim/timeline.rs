//! Scenarios (objects, writers, a schedule of events) and their
//! deterministic replay, step by step, with outcomes.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::server::{key_of, Request, Response, Server};
use super::writer::WriterSpec;
use crate::apply::Evanphx;
use crate::input::{self, Budget};
use crate::kube::{Cluster, KubeVersion};
use crate::strategy::{self, Body, PlannedOp, Preset};

/// Limits on what one scenario may hold (scenarios also come from links).
pub const MAX_WRITERS: usize = 16;
/// Most events in one schedule.
pub const MAX_EVENTS: usize = 400;
/// Most objects in one scenario.
pub const MAX_OBJECTS: usize = 16;
/// Most intents per writer.
pub const MAX_INTENTS: usize = 64;

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
    /// The writer the event belongs to.
    pub fn writer(&self) -> &str {
        match self {
            Event::Read(w) | Event::Write(w) | Event::Retry(w) => w,
        }
    }

    /// `read`, `write` or `retry`.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Read(_) => "read",
            Event::Write(_) => "write",
            Event::Retry(_) => "retry",
        }
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
}

/// Why a scenario cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError(pub String);

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScenarioError {}

impl Scenario {
    /// Reads a scenario from JSON or YAML text and checks it.
    ///
    /// # Errors
    ///
    /// [`ScenarioError`] with the line and column of a syntax error, the
    /// field at fault, or the rule broken.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let (value, _) =
            input::parse(text, &Budget::default()).map_err(|e| ScenarioError(e.to_string()))?;
        let scenario: Scenario =
            serde_json::from_value(value).map_err(|e| ScenarioError(format!("scenario: {e}")))?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Checks names, targets and budgets.
    ///
    /// # Errors
    ///
    /// [`ScenarioError`] naming what is wrong.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let fail = |m: String| Err(ScenarioError(m));
        if self.objects.is_empty() {
            return fail("a scenario needs at least one object".into());
        }
        if self.objects.len() > MAX_OBJECTS {
            return fail(format!(
                "{} objects, more than the limit of {MAX_OBJECTS}",
                self.objects.len()
            ));
        }
        if self.writers.len() > MAX_WRITERS {
            return fail(format!(
                "{} writers, more than the limit of {MAX_WRITERS}",
                self.writers.len()
            ));
        }
        if self.schedule.len() > MAX_EVENTS {
            return fail(format!(
                "{} events, more than the limit of {MAX_EVENTS}",
                self.schedule.len()
            ));
        }
        let keys: BTreeSet<String> = self.objects.iter().map(key_of).collect();
        for (i, object) in self.objects.iter().enumerate() {
            if !object.is_object()
                || object
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .is_none()
            {
                return fail(format!("object {i} needs kind and metadata.name"));
            }
        }
        let mut names = BTreeSet::new();
        for writer in &self.writers {
            if !names.insert(writer.name.as_str()) {
                return fail(format!("two writers are named {:?}", writer.name));
            }
            if writer.intents.len() > MAX_INTENTS {
                return fail(format!(
                    "writer {:?} has more than {MAX_INTENTS} intents",
                    writer.name
                ));
            }
            if let Some(target) = &writer.target {
                if !keys.contains(target) {
                    return fail(format!(
                        "writer {:?} targets {target:?}, which is not among the objects",
                        writer.name
                    ));
                }
            }
            writer
                .options(None)
                .map_err(|e| ScenarioError(format!("writer {:?}: {e}", writer.name)))?;
        }
        for (i, event) in self.schedule.iter().enumerate() {
            if !names.contains(event.writer()) {
                return fail(format!(
                    "event {i} ({} {:?}) names no writer",
                    event.kind(),
                    event.writer()
                ));
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

/// How a failed write is classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Conflict {
    /// Nothing the writer meant to change was changed by others since its
    /// read: the failure was for nothing.
    False,
    /// Another writer changed a field this writer meant to change.
    True,
}

/// A value a writer set successfully that a later write erased, although
/// that write did not mean to change it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostUpdate {
    /// The writer whose change was lost.
    pub victim: String,
    /// The intent, in words.
    pub intent: String,
    /// The field.
    pub path: String,
    /// The writer whose write erased it.
    pub erased_by: String,
    /// The step that erased it.
    pub step: usize,
}

/// The request a write sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sent {
    /// `json-patch`, `merge-patch`, `apply` or `update`.
    pub kind: &'static str,
    /// The HTTP content type.
    pub content_type: &'static str,
    /// The body as sent.
    pub body: String,
    /// The preset the writer used.
    pub preset: Preset,
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
    /// `read`, `write` or `retry`.
    pub event: &'static str,
    /// What happened, in one line.
    pub summary: String,
    /// The request, when one was sent.
    pub request: Option<Sent>,
    /// The response, when a request was sent.
    pub response: Option<Response>,
    /// For a failed write: false or true conflict.
    pub conflict: Option<Conflict>,
    /// Changes of other writers this step erased.
    pub lost: Vec<LostUpdate>,
    /// The written object (`Kind/name`).
    pub target: String,
    /// The object after the step.
    pub object: Value,
}

/// Per-writer counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WriterOutcome {
    /// The writer.
    pub name: String,
    /// The preset it patched with.
    pub preset: String,
    /// Writes sent.
    pub attempts: u32,
    /// Writes that succeeded.
    pub successes: u32,
    /// 422 answers.
    pub status_422: u32,
    /// 409 answers.
    pub status_409: u32,
    /// Other failures (400, 404, 413, 500).
    pub other_errors: u32,
    /// Retry events that sent a write.
    pub retries: u32,
    /// Failures with nothing of its own changed by others.
    pub false_conflicts: u32,
    /// Failures where another writer changed what it meant to change.
    pub true_conflicts: u32,
    /// Its changes that later writes erased.
    pub lost_updates: u32,
    /// It gave up with attempts exhausted.
    pub gave_up: bool,
    /// Its intent holds in the final object.
    pub converged: bool,
}

/// The outcome of a replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Outcomes {
    /// Per writer, in scenario order.
    pub writers: Vec<WriterOutcome>,
    /// Every lost update.
    pub lost_updates: Vec<LostUpdate>,
    /// Every writer's intent holds at the end.
    pub converged: bool,
}

impl Outcomes {
    /// Writes sent by all writers.
    pub fn requests(&self) -> u32 {
        self.writers.iter().map(|w| w.attempts).sum()
    }
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
}

/// An effect a successful write established, watched for later erasure.
struct Watched {
    writer: usize,
    intent: usize,
    target: String,
}

/// The replay engine; `record` keeps a full step log (the mass migration
/// turns it off and keeps counts only).
pub(crate) struct Engine<'a> {
    scenario: &'a Scenario,
    preset: Option<Preset>,
    options: std::borrow::Cow<'a, [strategy::Options]>,
    targets: Vec<String>,
    pub(crate) server: Server,
    states: Vec<WriterState>,
    watched: Vec<Watched>,
    pub(crate) outcomes: Outcomes,
    record: bool,
    pub(crate) steps: Vec<Step>,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        scenario: &'a Scenario,
        preset: Option<Preset>,
        record: bool,
    ) -> Result<Engine<'a>, ScenarioError> {
        let options = scenario
            .writers
            .iter()
            .map(|w| w.options(preset).map_err(ScenarioError))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Engine::prepared(
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
    ) -> Engine<'a> {
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
                    preset: o.policy.preset.to_string(),
                    ..WriterOutcome::default()
                })
                .collect(),
            lost_updates: Vec::new(),
            converged: false,
        };
        Engine {
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
                })
                .collect(),
            watched: Vec::new(),
            outcomes,
            record,
            steps: Vec::new(),
        }
    }

    fn writer_index(&self, name: &str) -> Option<usize> {
        self.scenario.writers.iter().position(|w| w.name == name)
    }

    /// Runs one event.
    pub(crate) fn step(&mut self, index: usize, event: &Event) {
        self.step_outcome(index, event);
    }

    /// Runs one event; tells the failing test's path of a false conflict.
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
                if state.done {
                    step.summary = format!("{name} has nothing to retry: its write succeeded");
                } else if state.attempts == 0 {
                    step.summary = format!("{name} has nothing to retry: it has not written yet");
                } else if state.attempts >= spec.attempts {
                    self.outcomes.writers[w].gave_up = true;
                    step.summary = format!("{name} gives up: {} attempts used", state.attempts);
                } else {
                    self.outcomes.writers[w].retries += 1;
                    let mut read = StepDraft::default();
                    self.read(w, &mut read);
                    self.write(w, index, true, &mut step);
                    step.summary = format!("{name} re-reads and retries: {}", step.summary);
                }
            }
        }
        let outcome = StepOutcome {
            false_conflict_path: match (step.conflict, &step.response) {
                (Some(Conflict::False), Some(response)) => {
                    response.cause.as_ref().and_then(|c| c.path.clone())
                }
                _ => None,
            },
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

    fn write(&mut self, w: usize, index: usize, retry: bool, step: &mut StepDraft) {
        let spec = &self.scenario.writers[w];
        let name = spec.name.clone();
        let target = self.targets[w].clone();
        // An applier sends its whole configuration on every write, so it
        // may apply again after a success.
        let applier = self.options[w].policy.preset == Preset::Ssa;
        if self.states[w].done && !applier {
            step.summary = format!("{name} has nothing to write: its write succeeded");
            return;
        }
        if !self.states[w].done && self.states[w].attempts >= spec.attempts {
            self.outcomes.writers[w].gave_up = true;
            step.summary = format!("{name} gives up: {} attempts used", self.states[w].attempts);
            return;
        }
        let Some(cache) = self.states[w].cache.clone() else {
            step.summary = format!("{name} has not read {target} yet: nothing to base a write on");
            return;
        };
        let desired = spec.desired(&cache);
        let preset = self.options[w].policy.preset;
        let mut plan = match strategy::diff(&cache, &desired, &self.options[w]) {
            Ok(plan) => plan,
            Err(err) => {
                step.summary = format!("{name} cannot build its write: {err}");
                return;
            }
        };
        if applier {
            // A controller's apply configuration holds every field it
            // manages, not only what changed since its read.
            plan.body = Body::Apply {
                config: spec.apply_configuration(&cache),
                field_manager: name.clone(),
            };
        } else if plan.is_empty() {
            self.states[w].done = true;
            step.summary = format!("{name}'s cache already shows its intent: nothing to send");
            return;
        }
        let record = self.record;
        let (request, sent) = match &plan.body {
            // Recorded steps send the payload text, as on the wire; the mass
            // migration hands the same ops over without the text round trip.
            Body::JsonPatch(ops) if record => (
                Request::JsonPatch {
                    key: target.clone(),
                    payload: plan.body_text(),
                },
                ("json-patch", ops.clone()),
            ),
            Body::JsonPatch(ops) => (
                Request::Ops {
                    key: target.clone(),
                    ops: ops.iter().map(|p| p.op.clone()).collect(),
                },
                ("json-patch", Vec::new()),
            ),
            Body::MergePatch(body) => (
                Request::MergePatch {
                    key: target.clone(),
                    body: body.clone(),
                },
                ("merge-patch", Vec::new()),
            ),
            Body::Apply { config, .. } => (
                Request::Apply {
                    key: target.clone(),
                    config: config.clone(),
                    manager: name.clone(),
                    force: spec.force || (retry && spec.force_on_retry),
                },
                ("apply", Vec::new()),
            ),
            Body::Update(object) => (
                Request::Update {
                    key: target.clone(),
                    object: object.clone(),
                },
                ("update", Vec::new()),
            ),
        };
        // What the server holds just before this write: for classifying a
        // failure and for spotting the changes a success erases.
        let null = Value::Null;
        let before = self.server.get(&target).unwrap_or(&null);
        let changed_since_read = spec
            .intents
            .iter()
            .any(|intent| intent.observe(&cache) != intent.observe(before));
        let held_before: Vec<bool> = self
            .watched
            .iter()
            .map(|watched| {
                watched.target == target
                    && watched.writer != w
                    && self.scenario.writers[watched.writer].intents[watched.intent].holds(before)
            })
            .collect();
        let response = self.server.handle(&request, &name);
        self.states[w].attempts += 1;
        let outcome = &mut self.outcomes.writers[w];
        outcome.attempts += 1;
        if response.is_success() {
            outcome.successes += 1;
            self.states[w].done = true;
            step.lost = self.watch(w, index, &target, &held_before);
            if self.record {
                step.summary = format!(
                    "{name} sends {}: {} {}",
                    describe_request(sent.0, &sent.1),
                    response.code,
                    if response.changed {
                        format!(
                            "OK, resourceVersion {}",
                            response.resource_version.as_deref().unwrap_or("?")
                        )
                    } else {
                        "OK, nothing changed (no new resourceVersion)".to_owned()
                    }
                );
            }
        } else {
            match response.code {
                422 => outcome.status_422 += 1,
                409 => outcome.status_409 += 1,
                _ => outcome.other_errors += 1,
            }
            if matches!(response.code, 409 | 422) {
                let conflict = if changed_since_read {
                    Conflict::True
                } else {
                    Conflict::False
                };
                match conflict {
                    Conflict::True => outcome.true_conflicts += 1,
                    Conflict::False => outcome.false_conflicts += 1,
                }
                step.conflict = Some(conflict);
            }
            if self.record {
                let why = match (&response.cause, step.conflict) {
                    (Some(cause), _) => format!(
                        " at op {} ({} {})",
                        cause.index.map_or("-".to_owned(), |i| i.to_string()),
                        cause.op.as_deref().unwrap_or("?"),
                        cause.path.as_deref().unwrap_or("?")
                    ),
                    _ => String::new(),
                };
                let class = match step.conflict {
                    Some(Conflict::False) => {
                        ": a false conflict, nothing it meant to change was touched"
                    }
                    Some(Conflict::True) => {
                        ": a true conflict, another writer changed what it meant to change"
                    }
                    None => "",
                };
                step.summary = format!(
                    "{name} sends {}: {} {}{why}{class}",
                    describe_request(sent.0, &sent.1),
                    response.code,
                    response.reason
                );
            }
        }
        if self.record {
            step.request = Some(Sent {
                kind: sent.0,
                content_type: plan.body.content_type(),
                body: plan.body_text(),
                preset,
                ops: sent.1,
            });
        }
        step.response = Some(response);
    }

    /// After writer `w` wrote successfully: which watched effects of other
    /// writers it erased without meaning to, and which of its own to watch.
    fn watch(
        &mut self,
        w: usize,
        index: usize,
        target: &str,
        held_before: &[bool],
    ) -> Vec<LostUpdate> {
        let writers = &self.scenario.writers;
        let mine = &writers[w].intents;
        let null = Value::Null;
        let after = self.server.get(target).unwrap_or(&null);
        let mut lost = Vec::new();
        let mut kept = Vec::with_capacity(self.watched.len());
        for (i, watched) in self.watched.drain(..).enumerate() {
            let intent = &writers[watched.writer].intents[watched.intent];
            if !held_before.get(i).copied().unwrap_or(false) || intent.holds(after) {
                kept.push(watched);
                continue;
            }
            // Erased: lost unless this writer meant to change that field.
            let meant = mine.iter().any(|m| m.concern() == intent.concern());
            if !meant {
                let victim = writers[watched.writer].name.clone();
                self.outcomes.writers[watched.writer].lost_updates += 1;
                let record = LostUpdate {
                    victim,
                    intent: intent.describe(),
                    path: intent.location().to_string(),
                    erased_by: writers[w].name.clone(),
                    step: index,
                };
                self.outcomes.lost_updates.push(record.clone());
                lost.push(record);
            }
        }
        self.watched = kept;
        for (i, intent) in mine.iter().enumerate() {
            if intent.holds(after) {
                self.watched.push(Watched {
                    writer: w,
                    intent: i,
                    target: target.to_owned(),
                });
            }
        }
        lost
    }

    pub(crate) fn finish(&mut self) {
        let mut all = true;
        for (w, spec) in self.scenario.writers.iter().enumerate() {
            let object = self
                .server
                .get(&self.targets[w])
                .cloned()
                .unwrap_or(Value::Null);
            let converged = spec.intents.iter().all(|i| i.holds(&object));
            self.outcomes.writers[w].converged = converged;
            all &= converged;
        }
        self.outcomes.converged = all;
    }
}

/// What the mass migration needs to know of a step.
#[derive(Default)]
pub(crate) struct StepOutcome {
    /// For a false conflict: the path of the failing `test`, if any.
    pub(crate) false_conflict_path: Option<String>,
}

#[derive(Default)]
struct StepDraft {
    summary: String,
    request: Option<Sent>,
    response: Option<Response>,
    conflict: Option<Conflict>,
    lost: Vec<LostUpdate>,
}

fn describe_request(kind: &str, ops: &[PlannedOp]) -> String {
    match kind {
        "json-patch" => format!(
            "a JSON patch ({} op{})",
            ops.len(),
            if ops.len() == 1 { "" } else { "s" }
        ),
        "merge-patch" => "a merge patch".to_owned(),
        "apply" => "a server-side apply".to_owned(),
        _ => "an Update".to_owned(),
    }
}

/// Replays `scenario`, with `preset` replacing every writer's own preset
/// except fixed writers'.
///
/// # Errors
///
/// [`ScenarioError`] when a writer's strategy overrides are invalid.
pub fn replay(scenario: &Scenario, preset: Option<Preset>) -> Result<Replay, ScenarioError> {
    scenario.validate()?;
    let mut engine = Engine::new(scenario, preset, true)?;
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
