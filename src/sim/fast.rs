//! The fast path of the simulator: a compact object model for runs of
//! one scenario under many schedules (the mass migration's VMIs).
//!
//! A replay on the general path ([`super::timeline`]) clones, diffs and
//! patches `serde_json` trees at every write. Here:
//!
//! - **objects are interned**: every distinct server state (stored
//!   objects, resourceVersion, field owners) is kept once in a table and
//!   named by a `u32`; an informer cache is the number of the state it read
//!   (a copy-on-write snapshot for free);
//! - **a write is a transition** from (writer, the state it read, the state
//!   on the server) to a response and a new state. The general engine
//!   ([`World`], the real strategy diff and the real apply engine with the
//!   server's semantics) computes each distinct transition once; later
//!   writes in the same situation look it up;
//! - per state, a bit set of which intents hold, so lost updates and
//!   convergence are bit operations.
//!
//! What stays per run is the bookkeeping the general path does around
//! each write (attempts, retries, give-ups, the lost-update watch), done
//! here on small integers with the same rules. Whatever engine the
//! general path uses (semantics, Kubernetes release) holds here too: the
//! transitions *are* the general path's.
//!
//! A run's state is exact, not sampled: the differential property test in
//! `src/sim/fast/tests.rs` checks counts, statuses and final objects
//! against `migrate::migrate_reference` for random seeds, VMI
//! counts, presets, churn and retry budgets.
//!
//! The mass migration runs every VMI on the transitions of VMI 0: VMI `i`
//! differs from VMI 0 only in its name, its pods' names, its new IP
//! address and its migration's uid. The engines compare those strings only
//! with themselves (equal or not, and in one VMI they keep their order),
//! so each decision is the same; the tests' `rename` maps VMI 0's final object to
//! VMI `i`'s, and the differential test checks that against the general
//! path for VMIs across the whole range.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::AddAssign;

use serde_json::Value;

use super::outcome::{ConflictKind, Counts, IntentVerdict, WriterEnd};
use super::server::{key_of, Server};
use super::timeline::{EventKind, Scenario, ScenarioError, World};
use crate::strategy::Options;

/// One event of a VMI's schedule: the writer's index and what it does.
pub(crate) type Slot = (u8, EventKind);

// proptest is a native dev-dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

/// The most intents a machine tracks, over all its writers (one bit each
/// of a `u64`).
const INTENT_BITS: usize = 64;
/// The most server states a machine keeps (each holds its objects).
pub(crate) const MAX_STATES: usize = 2048;
/// The most transitions a machine keeps.
pub(crate) const MAX_TRANSITIONS: usize = 65_536;

/// How much the fast path computed and looked up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastStats {
    /// Distinct server states met.
    pub states: usize,
    /// Distinct write transitions, each computed once by the general engine.
    pub transitions: usize,
    /// Writes answered from the table of transitions.
    pub lookups: u64,
}

impl AddAssign for FastStats {
    fn add_assign(&mut self, other: FastStats) {
        self.states += other.states;
        self.transitions += other.transitions;
        self.lookups += other.lookups;
    }
}

/// One distinct server state.
struct State {
    server: Server,
    /// Bit `j`: intent `j` holds on its writer's target object.
    holds: u64,
}

/// What one write did, as the general engine computed it.
#[derive(Clone, Copy)]
struct Transition {
    /// The writer's counts for this write (writes, ok, 422, 409), without
    /// the verdicts on a failure: those depend on which changes the run
    /// watches ([`Machine::verdicts`]).
    delta: Counts,
    /// For a 422 or 409: the intents (bits) its request, forced, would not
    /// leave holding, those its writer's intent done afresh would not, and
    /// whether the failing test was on a map.
    undoes: Option<(u64, u64, bool)>,
    /// A request was sent (an attempt used).
    sent: bool,
    /// The writer is done (its write succeeded, or it had nothing to send).
    done: bool,
    /// The status of a failed request.
    failed: Option<u16>,
    /// The state on the server after the write.
    server: u32,
}

/// A fast hasher for the table of transitions (keys are packed integers).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// One writer's bookkeeping in a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct WriterTally {
    /// Its counts.
    pub(crate) counts: Counts,
    /// After the run: its intent holds on the final object.
    pub(crate) intent_holds: bool,
    /// After the run: where its writing stood.
    pub(crate) end: WriterEnd,
    attempts: u32,
    done: bool,
    failed: Option<u16>,
    cache: Option<u32>,
}

/// One run's results, reused from run to run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// Per writer, in scenario order.
    pub(crate) writers: Vec<WriterTally>,
    /// Every writer's intent holds at the end.
    pub(crate) intents_hold: bool,
    /// The final server state.
    pub(crate) state: u32,
    /// Effects of successful writes watched for erasure: (writer, intent).
    watched: Vec<(u8, u8)>,
}

impl Tally {
    /// An empty tally for `writers` writers.
    pub(crate) fn new(writers: usize) -> Tally {
        Tally {
            writers: vec![WriterTally::default(); writers],
            ..Tally::default()
        }
    }
}

/// The fast engine for one scenario under one set of writer options.
pub(crate) struct Machine {
    scenario: Scenario,
    options: Vec<Options>,
    /// Per writer: its target's key, and the target's position.
    targets: Vec<String>,
    target_of: Vec<usize>,
    /// Per writer: its intents' bits.
    own: Vec<u64>,
    /// Per writer: the bits of every intent about a field it means to
    /// change (its erasing them is no lost update).
    meant: Vec<u64>,
    states: Vec<State>,
    by_print: HashMap<u64, Vec<u32>>,
    memo: HashMap<u64, Transition, BuildHasherDefault<Mix>>,
    lookups: u64,
}

impl Machine {
    /// A machine for `scenario` (its schedule is ignored), its writers
    /// patching with `options` (one per writer, in order).
    ///
    /// # Errors
    ///
    /// [`ScenarioError`] when the scenario is invalid or too big for the
    /// fast path (more than 64 intents or 255 writers in all).
    pub(crate) fn new(
        mut scenario: Scenario,
        options: Vec<Options>,
    ) -> Result<Machine, ScenarioError> {
        scenario.schedule.clear();
        scenario.validate()?;
        let intents: usize = scenario.writers.iter().map(|w| w.intents.len()).sum();
        if intents > INTENT_BITS || scenario.writers.len() > usize::from(u8::MAX) {
            return Err(ScenarioError::TooMany {
                what: "intents for the fast path".into(),
                count: intents,
                limit: INTENT_BITS,
            });
        }
        let keys: Vec<String> = scenario.objects.iter().map(key_of).collect();
        let targets: Vec<String> = scenario
            .writers
            .iter()
            .map(|w| w.target.clone().unwrap_or_else(|| keys[0].clone()))
            .collect();
        let target_of = targets
            .iter()
            .map(|t| keys.iter().position(|k| k == t).unwrap_or(0))
            .collect();
        let mut own = Vec::new();
        let mut concerns = Vec::new();
        for writer in &scenario.writers {
            let mut bits = 0u64;
            for intent in &writer.intents {
                bits |= 1 << concerns.len();
                concerns.push(intent.concern());
            }
            own.push(bits);
        }
        let meant = scenario
            .writers
            .iter()
            .map(|writer| {
                let mine: Vec<String> = writer.intents.iter().map(|i| i.concern()).collect();
                concerns
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| mine.contains(c))
                    .fold(0u64, |bits, (j, _)| bits | 1 << j)
            })
            .collect();
        let mut machine = Machine {
            options,
            targets,
            target_of,
            own,
            meant,
            states: Vec::new(),
            by_print: HashMap::new(),
            memo: HashMap::default(),
            lookups: 0,
            scenario,
        };
        let world = machine.world();
        let initial = world.server.clone();
        drop(world);
        machine.intern(initial);
        Ok(machine)
    }

    fn world(&self) -> World<'_> {
        World::prepared(
            &self.scenario,
            None,
            std::borrow::Cow::Borrowed(&self.options),
            false,
        )
    }

    /// The number of a server state, adding it when it is new.
    fn intern(&mut self, server: Server) -> u32 {
        let print = fingerprint(&server);
        if let Some(ids) = self.by_print.get(&print) {
            if let Some(&id) = ids
                .iter()
                .find(|&&id| self.states[id as usize].server == server)
            {
                return id;
            }
        }
        let id = self.states.len() as u32;
        let null = Value::Null;
        let mut holds = 0u64;
        let mut j = 0;
        for (w, writer) in self.scenario.writers.iter().enumerate() {
            let object = server.get(&self.targets[w]).unwrap_or(&null);
            for intent in &writer.intents {
                if intent.holds(object) {
                    holds |= 1 << j;
                }
                j += 1;
            }
        }
        self.states.push(State { server, holds });
        self.by_print.entry(print).or_default().push(id);
        id
    }

    /// Writer `w` writes from the state `cache` it read while the server
    /// holds `server`.
    fn transition(&mut self, w: usize, cache: u32, server: u32, retry: bool) -> Transition {
        // A retry may send another request (an applier forces on retry).
        let retry = retry && self.scenario.writers[w].force_on_retry;
        let key =
            (w as u64) << 56 | u64::from(retry) << 55 | u64::from(cache) << 27 | u64::from(server);
        if let Some(t) = self.memo.get(&key) {
            self.lookups += 1;
            return *t;
        }
        let snapshot = self.states[cache as usize]
            .server
            .snapshot(&self.targets[w]);
        let stored = self.states[server as usize].server.clone();
        let mut world = self.world();
        world.seed(stored, w, snapshot);
        world.write_now(w, retry);
        let (attempts, done, failed) = world.writer_state(w);
        let mut delta = world.outcomes.writers[w].counts;
        delta.false_conflicts = 0;
        delta.needless_failures_on_maps = 0;
        delta.true_conflicts = 0;
        delta.needless_failures = 0;
        let undoes = world.yardsticks.take().map(|sticks| {
            let bits = |object: &Option<Value>| object.as_ref().map_or(0, |o| !self.holds_on(w, o));
            (bits(&sticks.forced), bits(&sticks.meant), sticks.on_map)
        });
        let after = std::mem::replace(&mut world.server, Server::new([]));
        drop(world);
        let sent = attempts > 0;
        // A refused write leaves the stored object as it was (the same
        // shared value: `==` sees that at once).
        let unchanged = !sent || after == self.states[server as usize].server;
        let server = if unchanged {
            server
        } else {
            self.intern(after)
        };
        let t = Transition {
            delta,
            undoes,
            sent,
            done,
            failed,
            server,
        };
        self.memo.insert(key, t);
        t
    }

    /// True when the tables are full ([`MAX_STATES`], [`MAX_TRANSITIONS`]):
    /// the caller then runs schedules on the general path, so memory stays
    /// bounded (many writers meet many distinct situations).
    pub(crate) fn full(&self) -> bool {
        self.states.len() >= MAX_STATES || self.memo.len() >= MAX_TRANSITIONS
    }

    /// Runs one schedule (writer index, event kind) from the scenario's
    /// objects into `tally`.
    pub(crate) fn run(&mut self, slots: &[Slot], tally: &mut Tally) {
        for writer in &mut tally.writers {
            *writer = WriterTally::default();
        }
        tally.watched.clear();
        let mut server = 0u32;
        for &(w, kind) in slots {
            let w = usize::from(w);
            match kind {
                EventKind::Read => tally.writers[w].cache = Some(server),
                EventKind::Write => self.write(w, &mut server, tally, false),
                EventKind::Retry => {
                    let state = &mut tally.writers[w];
                    if state.done || state.attempts == 0 {
                        // Nothing to retry.
                    } else if state.attempts >= self.scenario.writers[w].attempts {
                        state.counts.gave_up = 1;
                    } else {
                        state.counts.retries += 1;
                        state.cache = Some(server);
                        self.write(w, &mut server, tally, true);
                    }
                }
            }
        }
        self.finish(server, tally);
    }

    fn write(&mut self, w: usize, server: &mut u32, tally: &mut Tally, retry: bool) {
        let state = &mut tally.writers[w];
        if state.done {
            return;
        }
        if state.attempts >= self.scenario.writers[w].attempts {
            state.counts.gave_up = 1;
            return;
        }
        let Some(cache) = state.cache else {
            return;
        };
        let t = self.transition(w, cache, *server, retry);
        let verdicts = t.undoes.map(|u| self.verdicts(w, cache, *server, u, tally));
        let state = &mut tally.writers[w];
        state.counts += &t.delta;
        if let Some((kind, intent, on_map)) = verdicts {
            state
                .counts
                .count_verdicts(Some(kind), Some(intent), on_map);
        }
        if t.done {
            state.done = true;
        }
        if t.sent {
            state.attempts += 1;
            state.failed = t.failed;
            if t.failed.is_none() {
                self.watch(w, *server, t.server, tally);
            }
        }
        *server = t.server;
    }

    /// The bits of the intents that hold on `object`, taken as writer
    /// `w`'s target (the other writers' of that target are the ones a
    /// verdict looks at).
    fn holds_on(&self, w: usize, object: &Value) -> u64 {
        let target = self.target_of[w];
        let mut holds = 0u64;
        let mut j = 0;
        for (v, writer) in self.scenario.writers.iter().enumerate() {
            for intent in &writer.intents {
                if self.target_of[v] == target && intent.holds(object) {
                    holds |= 1 << j;
                }
                j += 1;
            }
        }
        holds
    }

    /// The verdicts on writer `w`'s failed write, read from `cache` while
    /// the server held `server`, as the general path decides them: the
    /// watched changes of others made since the read (holding now, not in
    /// the read) that the request forced, or the intent done afresh, would
    /// have undone (`undoes`, from the transition).
    fn verdicts(
        &self,
        w: usize,
        cache: u32,
        server: u32,
        (forced, meant, on_map): (u64, u64, bool),
        tally: &Tally,
    ) -> (ConflictKind, IntentVerdict, bool) {
        let now = self.states[server as usize].holds;
        let read = self.states[cache as usize].holds;
        let since = tally
            .watched
            .iter()
            .filter(|&&(v, _)| {
                let v = usize::from(v);
                v != w && self.target_of[v] == self.target_of[w]
            })
            .fold(0u64, |bits, &(_, j)| bits | 1 << j)
            & now
            & !read;
        let kind = if forced & since != 0 {
            ConflictKind::True
        } else {
            ConflictKind::False
        };
        let intent = if meant & since != 0 {
            IntentVerdict::Clash
        } else {
            IntentVerdict::Needless
        };
        (kind, intent, on_map)
    }

    /// After writer `w` wrote successfully from `before` to `after`: the
    /// watched effects of others it erased, and its own to watch.
    fn watch(&self, w: usize, before: u32, after: u32, tally: &mut Tally) {
        let held = self.states[before as usize].holds;
        let holds = self.states[after as usize].holds;
        let target = self.target_of[w];
        let meant = self.meant[w];
        let Tally {
            writers, watched, ..
        } = tally;
        watched.retain(|&(victim, j)| {
            let bit = 1u64 << j;
            let victim = usize::from(victim);
            let held_before = victim != w && self.target_of[victim] == target && held & bit != 0;
            if !held_before || holds & bit != 0 {
                return true;
            }
            if meant & bit == 0 {
                writers[victim].counts.lost_updates += 1;
            }
            false
        });
        let mut mine = self.own[w] & holds;
        while mine != 0 {
            let j = mine.trailing_zeros();
            watched.push((w as u8, j as u8));
            mine &= mine - 1;
        }
    }

    fn finish(&self, server: u32, tally: &mut Tally) {
        let holds = self.states[server as usize].holds;
        let mut all = true;
        for (w, state) in tally.writers.iter_mut().enumerate() {
            let converged = holds & self.own[w] == self.own[w];
            state.intent_holds = converged;
            state.end = WriterEnd::decide(
                state.counts.gave_up > 0,
                state.failed,
                state.attempts < self.scenario.writers[w].attempts,
                state.done,
                state.counts.ok > 0,
            );
            all &= converged;
        }
        tally.intents_hold = all;
        tally.state = server;
    }

    /// The first object of a server state.
    #[cfg(all(test, not(target_arch = "wasm32")))]
    pub(crate) fn object(&self, state: u32) -> Option<&Value> {
        let (_, stored) = self.states.get(state as usize)?.server.objects().next()?;
        Some(&stored.object)
    }

    /// What this machine computed and looked up.
    pub(crate) fn stats(&self) -> FastStats {
        FastStats {
            states: self.states.len(),
            transitions: self.memo.len(),
            lookups: self.lookups,
        }
    }
}

/// A hash of a server state: equal states have equal hashes (two states
/// with one hash are told apart by `==`).
fn fingerprint(server: &Server) -> u64 {
    use std::hash::Hash;
    fn value(v: &Value, h: &mut std::collections::hash_map::DefaultHasher) {
        match v {
            Value::Null => 0u8.hash(h),
            Value::Bool(b) => (1u8, b).hash(h),
            Value::Number(n) => (2u8, n.to_string()).hash(h),
            Value::String(s) => (3u8, s).hash(h),
            Value::Array(items) => {
                (4u8, items.len()).hash(h);
                for item in items {
                    value(item, h);
                }
            }
            Value::Object(members) => {
                (5u8, members.len()).hash(h);
                for (k, v) in members {
                    k.hash(h);
                    value(v, h);
                }
            }
        }
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for (key, stored) in server.objects() {
        key.hash(&mut h);
        value(&stored.object, &mut h);
        stored.managers.hash(&mut h);
    }
    h.finish()
}
