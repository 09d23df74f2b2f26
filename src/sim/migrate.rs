//! Mass live migration: N VMIs, each written concurrently by the VMI
//! controller, the migration controller and virt-handler (reference
//! section 6), in a seeded random interleaving, under each preset.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::fast::{FastStats, Machine, Slot, Tally};
use super::outcome::Counts;
use super::rng::SplitMix64;
use super::timeline::{Event, EventKind, Scenario, ScenarioError, World};
use super::writer::{Intent, WriterSpec};
use crate::limits::{MIGRATE_CHURN, MIGRATE_RETRIES, MIGRATE_VMS};
use crate::pointer::PointerBuf;
use crate::strategy::Preset;

/// The names of the three KubeVirt writers of every VMI, in order.
pub const WRITERS: [&str; 3] = ["virt-controller", "migration-controller", "virt-handler"];

/// Counts for one preset: all writers together and each writer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresetResult {
    /// The preset the controllers used (virt-handler always calls Update).
    pub preset: Preset,
    /// Every writer's counts added up.
    pub total: Counts,
    /// VMIs where some writer's intent does not hold at the end
    /// ([`Term::IntentNotHeld`](crate::vocabulary::Term::IntentNotHeld)).
    pub vmis_intent_not_held: u64,
    /// Per writer (the same three on every VMI), in order.
    pub writers: Vec<WriterTotals>,
}

/// One writer's counts over every VMI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriterTotals {
    /// The writer.
    pub name: String,
    /// The preset it used.
    pub preset: Preset,
    /// Its counts.
    #[serde(flatten)]
    pub counts: Counts,
    /// VMIs where its intent does not hold at the end.
    pub intent_not_held: u64,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MigrateResult {
    /// VMIs per preset.
    pub vms: usize,
    /// The seed.
    pub seed: u64,
    /// One entry per preset, in the order asked.
    pub presets: Vec<PresetResult>,
}

/// Why a mass migration cannot run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MigrateError {
    /// `vms` is 0 or above [`MIGRATE_VMS`].
    VmCount(usize),
    /// `churn` is above [`MIGRATE_CHURN`].
    Churn(usize),
    /// `retries` is above [`MIGRATE_RETRIES`].
    Retries(u32),
    /// The writers' options could not be built (a bug in the scenario).
    Scenario(ScenarioError),
}

impl std::fmt::Display for MigrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MigrateError::VmCount(n) => {
                write!(
                    f,
                    "the number of VMIs must be between 1 and {MIGRATE_VMS}, not {n}"
                )
            }
            MigrateError::Churn(n) => write!(
                f,
                "the number of extra writers (churn) must be between 0 and {MIGRATE_CHURN}, not {n}"
            ),
            MigrateError::Retries(n) => write!(
                f,
                "the retry budget must be between 0 and {MIGRATE_RETRIES}, not {n}"
            ),
            MigrateError::Scenario(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MigrateError {}

/// What to run. As JSON (the Scale worker's `start` message), every
/// member is optional and takes its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MigrateOptions {
    /// How many VMIs.
    pub vms: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// The presets to compare (all when empty).
    pub presets: Vec<Preset>,
    /// Churn: how many extra writers (0 to [`MIGRATE_CHURN`], default 0) write
    /// each VMI besides KubeVirt's three. Extra writer `k` (`churn-k`) sets
    /// one label of its own, `example.com/churn-k`, which no other writer
    /// touches, with the run's preset; it reads, writes and retries like the
    /// others. It changes nothing anyone else means to change, so every
    /// failure it causes in others is a false conflict.
    pub churn: usize,
    /// The retry budget: how many times each writer may re-read and write
    /// again after a failed write (0 to [`MIGRATE_RETRIES`], default 2). Each
    /// writer gets that many retry events in the schedule and gives up
    /// after `1 + retries` writes.
    pub retries: u32,
    /// The Kubernetes release the API server runs (default: the newest
    /// modelled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<crate::kube::KubeVersion>,
    /// The JSON patch engine, when not the release's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<crate::kube::Evanphx>,
}

impl Default for MigrateOptions {
    fn default() -> Self {
        MigrateOptions {
            vms: 2000,
            seed: 1,
            presets: Vec::new(),
            churn: 0,
            retries: 2,
            kubernetes: None,
            engine: None,
        }
    }
}

impl MigrateOptions {
    /// Checks the bounds.
    ///
    /// # Errors
    ///
    /// [`MigrateError`] naming the option out of range.
    pub fn validate(&self) -> Result<(), MigrateError> {
        if self.vms == 0 || self.vms > MIGRATE_VMS {
            return Err(MigrateError::VmCount(self.vms));
        }
        if self.churn > MIGRATE_CHURN {
            return Err(MigrateError::Churn(self.churn));
        }
        if self.retries > MIGRATE_RETRIES {
            return Err(MigrateError::Retries(self.retries));
        }
        Ok(())
    }

    /// The presets to run: the ones asked (each once, in the order first
    /// asked), or all.
    pub fn presets(&self) -> Vec<Preset> {
        if self.presets.is_empty() {
            return Preset::ALL.to_vec();
        }
        let mut once = Vec::with_capacity(Preset::ALL.len());
        for preset in &self.presets {
            if !once.contains(preset) {
                once.push(*preset);
            }
        }
        once
    }

    /// Writers per VMI.
    pub fn writers(&self) -> usize {
        WRITERS.len() + self.churn
    }

    /// Simulated events per VMI (each writer reads, writes and has its
    /// retries).
    pub fn events(&self) -> usize {
        self.writers() * (2 + self.retries as usize)
    }
}

/// The VMI counts the cost of a run was measured at ([`COST`]).
const COST_VMS: [f64; 4] = [100.0, 400.0, 1600.0, 6400.0];

/// What a run under every preset costs, measured: CPU seconds of a native
/// debug build (`cargo run --example scale_probe -- VMS CHURN 2`, which
/// reads the CPU time the process used, so other work on the machine does
/// not count), at retry budget 2, per churn (0 to [`MIGRATE_CHURN`]) and
/// per VMI count of [`COST_VMS`]. Churn is what makes runs slow: each extra
/// writer multiplies the distinct situations, the fast path's tables fill,
/// and once they are full every VMI runs on the general path, about a
/// hundred times slower (at churn 8 by 1,600 VMIs). Churn 5 to 8 were
/// measured up to 1,600 VMIs; their 6,400 column goes on at their slope
/// from 400 to 1,600.
const COST: [[f64; 4]; MIGRATE_CHURN + 1] = [
    [0.03, 0.03, 0.04, 0.08],
    [0.09, 0.12, 0.15, 0.20],
    [0.24, 0.42, 0.56, 0.75],
    [0.37, 0.94, 1.61, 2.80],
    [0.53, 1.58, 3.60, 7.05],
    [0.74, 2.23, 6.34, 22.78],
    [0.87, 2.95, 9.07, 33.55],
    [1.10, 3.91, 11.40, 41.36],
    [1.24, 4.31, 14.55, 55.51],
];

/// The expected cost of a run, in the seconds of [`COST`] (a native debug
/// build): interpolated between the measured VMI counts, at the last
/// measured slope beyond them, in proportion below the first; no retry
/// budget costs 0.8 of it (fewer writes per VMI), each retry past 2 adds
/// 1.5 % (a writer rarely uses them: measured at 0, 1, 2 and 8), and fewer
/// presets cost their share. Only ratios mean anything: the Scale view scales it by the speed
/// of the last run it measured.
///
/// ```
/// use patchlab::sim::migrate::{expected_cost, MigrateOptions};
///
/// let light = MigrateOptions::default();
/// let heavy = MigrateOptions { vms: 100_000, churn: 8, ..MigrateOptions::default() };
/// // Hours, where the default takes a fraction of a second.
/// assert!(expected_cost(&heavy) / expected_cost(&light) > 10_000.0);
/// ```
pub fn expected_cost(options: &MigrateOptions) -> f64 {
    let row = &COST[options.churn.min(MIGRATE_CHURN)];
    let vms = options.vms as f64;
    let seconds = if vms <= COST_VMS[0] {
        row[0] * vms / COST_VMS[0]
    } else {
        let last = COST_VMS.len() - 1;
        let k = (1..last).find(|&k| vms <= COST_VMS[k]).unwrap_or(last);
        let slope = (row[k] - row[k - 1]) / (COST_VMS[k] - COST_VMS[k - 1]);
        row[k - 1] + slope * (vms - COST_VMS[k - 1])
    };
    let retries = match options.retries {
        0 => 0.8,
        1 => 1.0,
        r => 1.0 + 0.015 * f64::from(r - 2),
    };
    let presets = options.presets().len() as f64 / Preset::ALL.len() as f64;
    seconds * retries * presets
}

/// The VMI number `i` and its writers (KubeVirt's three, then the churn),
/// before migration to node02, without a schedule.
pub(crate) fn vmi_scenario(i: usize, options: &MigrateOptions) -> Scenario {
    let name = format!("vmi-{i:05}");
    let writer = |(name, preset, fixed, intents): (&str, Preset, bool, Vec<Intent>)| WriterSpec {
        name: name.to_owned(),
        preset,
        set: Default::default(),
        fixed,
        force: false,
        // Server-side appliers take over on retry: the VMIs have no field
        // owners but before-first-apply, so a first apply that changes an
        // existing field conflicts.
        force_on_retry: !fixed,
        attempts: 1 + options.retries,
        target: None,
        intents,
    };
    let churn = (1..=options.churn).map(|k| {
        let intent = Intent::SetLabel {
            key: format!("example.com/churn-{k}"),
            value: format!("{k}"),
        };
        (format!("churn-{k}"), vec![intent])
    });
    let churn: Vec<WriterSpec> = churn
        .map(|(name, intents)| writer((&name, Preset::KubevirtPerKey, false, intents)))
        .collect();
    Scenario {
        objects: vec![vmi_object(&name)],
        name,
        description: String::new(),
        owner: None,
        kubernetes: options.kubernetes,
        engine: options.engine,
        writers: kubevirt_writers(i)
            .into_iter()
            .map(writer)
            .chain(churn)
            .collect(),
        schedule: Vec::new(),
        claims: Default::default(),
    }
}

/// VMI `name` running on node01, before its migration.
fn vmi_object(name: &str) -> Value {
    json!({
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachineInstance",
        "metadata": {
            "name": name, "namespace": "default", "resourceVersion": "1",
            "labels": {"kubevirt.io/nodeName": "node01", "kubevirt.io/outdatedLauncherImage": ""},
            "annotations": {"kubevirt.io/evacuationNodeName": "node01"},
            "finalizers": ["kubevirt.io/virtualMachineControllerFinalize"]
        },
        "status": {
            "phase": "Running",
            "activePods": {format!("{name}-source"): "node01"},
            "interfaces": [{"name": "default", "ipAddress": "10.244.1.7"}]
        }
    })
}

/// KubeVirt's three writers of VMI `i` during its migration: name, preset,
/// fixed (keeps its preset whatever the run's), intents.
fn kubevirt_writers(i: usize) -> [(&'static str, Preset, bool, Vec<Intent>); 3] {
    let pointer = |p: &str| PointerBuf::parse(p).unwrap_or_default();
    let label = |key: &str, value: String| Intent::SetLabel {
        key: key.into(),
        value,
    };
    let virt_controller = vec![
        label("kubevirt.io/migrationTargetNodeName", "node02".into()),
        Intent::Set {
            path: pointer("/status/interfaces"),
            value: json!([{"name": "default", "ipAddress": format!("10.244.2.{}", i % 250 + 2)}]),
        },
        Intent::SetEntry {
            map: pointer("/status/activePods"),
            key: format!("vmi-{i:05}-target"),
            value: Value::from("node02"),
        },
    ];
    let migration_controller = vec![
        label("kubevirt.io/migration-uid", format!("mig-{i:05}")),
        Intent::Set {
            path: pointer("/status/migrationState"),
            value: json!({"sourceNode": "node01", "targetNode": "node02", "migrationUid": format!("mig-{i:05}")}),
        },
    ];
    let virt_handler = vec![
        label("kubevirt.io/nodeName", "node02".into()),
        Intent::RemoveLabel {
            key: "kubevirt.io/outdatedLauncherImage".into(),
        },
        Intent::RemoveAnnotation {
            key: "kubevirt.io/evacuationNodeName".into(),
        },
    ];
    [
        (
            "virt-controller",
            Preset::KubevirtPerKey,
            false,
            virt_controller,
        ),
        (
            "migration-controller",
            Preset::KubevirtPerKey,
            false,
            migration_controller,
        ),
        ("virt-handler", Preset::Update, true, virt_handler),
    ]
}

/// A random interleaving of `writers` writers' events (read, write, then
/// `retries` retries), each writer's own order kept, into `out`.
pub(crate) fn schedule(rng: &mut SplitMix64, writers: usize, retries: u32, out: &mut Vec<Slot>) {
    out.clear();
    let per_writer = 2 + retries as usize;
    let mut next = [0usize; WRITERS.len() + MIGRATE_CHURN];
    let next = &mut next[..writers];
    let mut open = writers;
    while open > 0 {
        // The k-th writer that has events left, as the reference picked it
        // from the list of open queues.
        let mut k = rng.below(open as u64) as usize;
        let Some(w) = (0..writers).find(|&w| {
            if next[w] < per_writer {
                if k == 0 {
                    return true;
                }
                k -= 1;
            }
            false
        }) else {
            return;
        };
        let kind = match next[w] {
            0 => EventKind::Read,
            1 => EventKind::Write,
            _ => EventKind::Retry,
        };
        next[w] += 1;
        if next[w] == per_writer {
            open -= 1;
        }
        out.push((w as u8, kind));
    }
}

/// The schedule as the general engine's events.
fn events(scenario: &Scenario, slots: &[Slot]) -> Vec<Event> {
    slots
        .iter()
        .map(|&(w, kind)| Event::new(kind, scenario.writers[w as usize].name.clone()))
        .collect()
}

/// Each writer's diff options under `preset` (explanations off: bulk runs
/// keep counts only).
fn writer_options(
    scenario: &Scenario,
    preset: Preset,
) -> Result<Vec<crate::strategy::Options>, MigrateError> {
    scenario
        .quiet_writer_options(Some(preset))
        .map_err(MigrateError::Scenario)
}

/// Zero counts for each preset and each writer of `template`.
fn empty_results(
    template: &Scenario,
    presets: &[Preset],
) -> Result<Vec<PresetResult>, MigrateError> {
    presets
        .iter()
        .map(|preset| {
            Ok(PresetResult {
                preset: *preset,
                total: Counts::default(),
                vmis_intent_not_held: 0,
                writers: template
                    .writers
                    .iter()
                    .zip(writer_options(template, *preset)?)
                    .map(|(w, o)| WriterTotals {
                        name: w.name.clone(),
                        preset: o.policy.preset,
                        counts: Counts::default(),
                        intent_not_held: 0,
                    })
                    .collect(),
            })
        })
        .collect()
}

/// A mass migration run in slices, so a page can show progress and stay
/// responsive: [`Migration::advance`] simulates a bounded number of VMIs.
///
/// It runs on the fast path ([`super::fast`]): VMI by VMI, each under every
/// preset in turn, so partial results cover all presets alike.
/// [`migrate_reference`] gives the same numbers on the general path.
pub struct Migration {
    options: MigrateOptions,
    machines: Vec<Machine>,
    /// Per preset, the writers' options (for VMIs run on the general path
    /// once a machine's tables are full).
    writer_options: Vec<Vec<crate::strategy::Options>>,
    results: Vec<PresetResult>,
    rng: SplitMix64,
    slots: Vec<Slot>,
    tally: Tally,
    /// The VMI being simulated and the next preset to run it under.
    vmi: usize,
    preset: usize,
}

impl Migration {
    /// Prepares a run that starts cold (every transition computed anew).
    ///
    /// # Errors
    ///
    /// [`MigrateError`] when an option is out of bounds.
    pub fn new(options: &MigrateOptions) -> Result<Migration, MigrateError> {
        Migration::warm(options, &mut WarmTables::default())
    }

    /// Prepares a run that takes its tables from `warm` where an earlier
    /// run had the same writers (give them back with [`Migration::keep`]).
    ///
    /// # Errors
    ///
    /// [`MigrateError`] when an option is out of bounds.
    pub fn warm(
        options: &MigrateOptions,
        warm: &mut WarmTables,
    ) -> Result<Migration, MigrateError> {
        options.validate()?;
        let presets = options.presets();
        // VMI 0 stands for every VMI: the others differ from it only in
        // names and addresses, which no decision of the engines compares
        // with anything but themselves (see `super::fast`).
        let template = vmi_scenario(0, options);
        let results = empty_results(&template, &presets)?;
        let machines = presets
            .iter()
            .map(|preset| match warm.take(&warm_key(options, *preset)) {
                Some(machine) => Ok(machine),
                None => Machine::new(template.clone(), writer_options(&template, *preset)?)
                    .map_err(MigrateError::Scenario),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let tally = Tally::new(template.writers.len());
        let writer_options = presets
            .iter()
            .map(|preset| writer_options(&template, *preset))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Migration {
            options: options.clone(),
            machines,
            writer_options,
            results,
            rng: SplitMix64::new(options.seed),
            slots: Vec::with_capacity(options.events()),
            tally,
            vmi: 0,
            preset: 0,
        })
    }

    /// Simulates up to `runs` more VMI runs (one VMI under one preset);
    /// true when the whole run is done.
    pub fn advance(&mut self, runs: usize) -> bool {
        let mut budget = runs;
        while budget > 0 && self.vmi < self.options.vms {
            if self.preset == 0 {
                // One schedule per VMI, shared by every preset: the presets
                // face the same interleavings.
                schedule(
                    &mut self.rng,
                    self.options.writers(),
                    self.options.retries,
                    &mut self.slots,
                );
            }
            let machine = &mut self.machines[self.preset];
            if machine.full() {
                let preset = self.results[self.preset].preset;
                let (outcomes, _) = reference_run(
                    &self.options,
                    preset,
                    &self.writer_options[self.preset],
                    self.vmi,
                    &self.slots,
                );
                add_outcomes(&mut self.results[self.preset], &outcomes);
            } else {
                machine.run(&self.slots, &mut self.tally);
                add(&mut self.results[self.preset], &self.tally);
            }
            budget -= 1;
            self.preset += 1;
            if self.preset == self.machines.len() {
                self.preset = 0;
                self.vmi += 1;
            }
        }
        self.vmi >= self.options.vms
    }

    /// VMI runs simulated so far and in all (VMIs times presets).
    pub fn progress(&self) -> (usize, usize) {
        let presets = self.machines.len();
        (self.vmi * presets + self.preset, self.options.vms * presets)
    }

    /// VMIs whose runs under every preset are done.
    pub fn vmis_done(&self) -> usize {
        self.vmi
    }

    /// The counts so far (complete once [`Migration::advance`] returned
    /// true). While running, a preset may count one VMI more than the next.
    pub fn result(&self) -> MigrateResult {
        MigrateResult {
            vms: self.options.vms,
            seed: self.options.seed,
            presets: self.results.clone(),
        }
    }

    /// What the fast path computed with the general engine and what it
    /// looked up, over every preset (counted since its tables were made:
    /// they can be kept from run to run, see [`WarmTables`]).
    pub fn stats(&self) -> FastStats {
        let mut stats = FastStats::default();
        for machine in &self.machines {
            stats += machine.stats();
        }
        stats
    }
}

impl Migration {
    /// Ends the run, keeping its machines' tables in `warm` for the next
    /// run with the same writers.
    pub fn keep(mut self, warm: &mut WarmTables) {
        let presets = self.results.iter().map(|r| r.preset);
        for (preset, machine) in presets.zip(std::mem::take(&mut self.machines)) {
            warm.put(warm_key(&self.options, preset), machine);
        }
    }
}

/// The tables of finished runs, owned by whoever runs one migration after
/// another (the Scale worker): a run whose writers are those of an earlier
/// one (another VMI count or seed, as when a slider of the Scale view
/// moves) starts with their tables of transitions, which depend on
/// neither. At most [`WARM_MACHINES`] machines are kept, the oldest
/// dropped first.
#[derive(Default)]
pub struct WarmTables {
    machines: Vec<((Preset, MigrateOptions), Machine)>,
}

impl WarmTables {
    /// Drops every table kept (the memory is freed; the next run starts
    /// cold).
    pub fn clear(&mut self) {
        self.machines.clear();
    }

    /// How many machines are kept.
    pub fn len(&self) -> usize {
        self.machines.len()
    }

    /// True when none is kept.
    pub fn is_empty(&self) -> bool {
        self.machines.is_empty()
    }

    fn take(&mut self, key: &(Preset, MigrateOptions)) -> Option<Machine> {
        let at = self.machines.iter().position(|(k, _)| k == key)?;
        Some(self.machines.remove(at).1)
    }

    fn put(&mut self, key: (Preset, MigrateOptions), machine: Machine) {
        self.machines.retain(|(k, _)| *k != key);
        self.machines.push((key, machine));
        let excess = self.machines.len().saturating_sub(WARM_MACHINES);
        self.machines.drain(..excess);
    }
}

/// What a machine's tables depend on: the preset and every option but
/// the VMI count and the seed (the writers, their retry budget, and
/// anything later options add).
fn warm_key(options: &MigrateOptions, preset: Preset) -> (Preset, MigrateOptions) {
    (
        preset,
        MigrateOptions {
            vms: 0,
            seed: 0,
            presets: Vec::new(),
            ..options.clone()
        },
    )
}

/// How many machines the warm tables keep (two sets of all presets).
const WARM_MACHINES: usize = 2 * Preset::ALL.len();

/// Adds one VMI's outcomes on the general path to a preset's totals.
fn add_outcomes(result: &mut PresetResult, outcomes: &super::outcome::Outcomes) {
    for (totals, writer) in result.writers.iter_mut().zip(&outcomes.writers) {
        totals.counts += &writer.counts;
        result.total += &writer.counts;
        totals.intent_not_held += u64::from(!writer.intent_holds);
    }
    result.vmis_intent_not_held += u64::from(!outcomes.intents_hold);
}

/// Adds one VMI's tally to a preset's totals.
fn add(result: &mut PresetResult, tally: &Tally) {
    for (totals, writer) in result.writers.iter_mut().zip(&tally.writers) {
        totals.counts += &writer.counts;
        result.total += &writer.counts;
        totals.intent_not_held += u64::from(!writer.intent_holds);
    }
    result.vmis_intent_not_held += u64::from(!tally.intents_hold);
}

/// Runs the mass migration under each preset. The same seed gives the same
/// numbers, natively and in wasm.
///
/// # Errors
///
/// [`MigrateError`] when an option is out of bounds.
pub fn migrate(options: &MigrateOptions) -> Result<MigrateResult, MigrateError> {
    migrate_warm(options, &mut WarmTables::default())
}

/// [`migrate`] with the tables of earlier runs (see [`WarmTables`]), kept
/// for later ones.
///
/// # Errors
///
/// [`MigrateError`] when an option is out of bounds.
pub fn migrate_warm(
    options: &MigrateOptions,
    warm: &mut WarmTables,
) -> Result<MigrateResult, MigrateError> {
    let mut migration = Migration::warm(options, warm)?;
    while !migration.advance(usize::MAX) {}
    let result = migration.result();
    migration.keep(warm);
    Ok(result)
}

/// [`migrate`] on a cluster of a given release and JSON patch engine.
///
/// # Errors
///
/// [`MigrateError`] when an option is out of bounds.
pub fn migrate_on(
    options: &MigrateOptions,
    cluster: crate::kube::Cluster,
) -> Result<MigrateResult, MigrateError> {
    migrate(&MigrateOptions {
        kubernetes: Some(cluster.version),
        engine: Some(cluster.engine),
        ..options.clone()
    })
}

/// The general path: every VMI's own scenario replayed by the timeline
/// engine on `serde_json` values, preset after preset. The reference the
/// fast path ([`migrate`]) is tested against; about 100 times slower.
///
/// # Errors
///
/// [`MigrateError`] when an option is out of bounds.
pub fn migrate_reference(options: &MigrateOptions) -> Result<MigrateResult, MigrateError> {
    options.validate()?;
    let presets = options.presets();
    let template = vmi_scenario(0, options);
    let mut results = empty_results(&template, &presets)?;
    let mut slots = Vec::with_capacity(options.events());
    for (preset, result) in presets.iter().zip(&mut results) {
        let writer_options = writer_options(&template, *preset)?;
        let mut rng = SplitMix64::new(options.seed);
        for i in 0..options.vms {
            schedule(&mut rng, options.writers(), options.retries, &mut slots);
            let (outcomes, _) = reference_run(options, *preset, &writer_options, i, &slots);
            add_outcomes(result, &outcomes);
        }
    }
    Ok(MigrateResult {
        vms: options.vms,
        seed: options.seed,
        presets: results,
    })
}

/// Every VMI of a run as a scenario with its schedule, in order: what
/// [`migrate`] counts, replayable one by one with
/// [`replay`](super::timeline::replay) (and so judged step by step; the
/// verdict tests do).
///
pub fn vmi_scenarios(options: &MigrateOptions) -> impl Iterator<Item = Scenario> + '_ {
    let mut rng = SplitMix64::new(options.seed);
    let mut slots = Vec::with_capacity(options.events());
    (0..options.vms).map(move |i| {
        schedule(&mut rng, options.writers(), options.retries, &mut slots);
        let mut scenario = vmi_scenario(i, options);
        scenario.schedule = events(&scenario, &slots);
        scenario
    })
}

/// VMI `i` replayed by the general engine: its outcomes and final object.
pub(crate) fn reference_run(
    options: &MigrateOptions,
    preset: Preset,
    writer_options: &[crate::strategy::Options],
    i: usize,
    slots: &[Slot],
) -> (super::outcome::Outcomes, Value) {
    let mut scenario = vmi_scenario(i, options);
    scenario.schedule = events(&scenario, slots);
    let mut world = World::prepared(
        &scenario,
        Some(preset),
        std::borrow::Cow::Borrowed(writer_options),
        false,
    );
    for (index, event) in scenario.schedule.iter().enumerate() {
        world.step(index, event);
    }
    world.finish();
    let object = world
        .server
        .objects()
        .next()
        .map(|(_, stored)| (*stored.object).clone())
        .unwrap_or(Value::Null);
    (world.outcomes, object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_keep_each_writers_order() {
        let mut rng = SplitMix64::new(42);
        let mut events = Vec::new();
        schedule(&mut rng, 2, 2, &mut events);
        assert_eq!(events.len(), 8);
        for writer in [0, 1] {
            let kinds: Vec<EventKind> = events
                .iter()
                .filter(|e| e.0 == writer)
                .map(|e| e.1)
                .collect();
            assert_eq!(
                kinds,
                [
                    EventKind::Read,
                    EventKind::Write,
                    EventKind::Retry,
                    EventKind::Retry
                ]
            );
        }
        schedule(&mut rng, 4, 0, &mut events);
        assert_eq!(events.len(), 8, "read and write each, no retries");
        assert!(events.windows(2).any(|w| w[0].0 != w[1].0), "interleaved");
    }

    /// The schedules the reference drew before they were compact: the
    /// same random choices give the same interleavings.
    #[test]
    fn schedules_draw_as_the_list_of_open_queues_did() {
        fn old(rng: &mut SplitMix64, writers: usize) -> Vec<(u8, EventKind)> {
            let mut queues: Vec<Vec<EventKind>> = (0..writers)
                .map(|_| {
                    vec![
                        EventKind::Retry,
                        EventKind::Retry,
                        EventKind::Write,
                        EventKind::Read,
                    ]
                })
                .collect();
            let mut out = Vec::new();
            loop {
                let open: Vec<usize> = (0..queues.len())
                    .filter(|&i| !queues[i].is_empty())
                    .collect();
                if open.is_empty() {
                    return out;
                }
                let pick = open[rng.below(open.len() as u64) as usize];
                if let Some(kind) = queues[pick].pop() {
                    out.push((pick as u8, kind));
                }
            }
        }
        for seed in 0..50 {
            let (mut a, mut b) = (SplitMix64::new(seed), SplitMix64::new(seed));
            let mut slots = Vec::new();
            for writers in [3, 5, 11] {
                schedule(&mut a, writers, 2, &mut slots);
                assert_eq!(slots, old(&mut b, writers), "seed {seed}");
            }
        }
    }

    #[test]
    fn per_key_has_no_needless_failures_on_maps_whole_map_has_many() {
        let options = MigrateOptions {
            vms: 200,
            seed: 7,
            presets: vec![Preset::KubevirtMain, Preset::KubevirtPerKey, Preset::Naive],
            ..MigrateOptions::default()
        };
        let result = migrate(&options).unwrap();
        let [head, per_key, naive] = &result.presets[..] else {
            panic!("three presets");
        };
        assert!(head.total.needless_failures_on_maps > 50, "{head:?}");
        assert_eq!(per_key.total.needless_failures_on_maps, 0, "{per_key:?}");
        assert!(naive.total.lost_updates > 0, "{naive:?}");
        assert_eq!(naive.total.invalid, 0, "{naive:?}");
        assert!(
            per_key.vmis_intent_not_held < head.vmis_intent_not_held
                || head.vmis_intent_not_held == 0,
            "{per_key:?} {head:?}"
        );
        assert_eq!(
            migrate(&options).unwrap(),
            result,
            "same seed, same numbers"
        );
        assert_ne!(
            migrate(&MigrateOptions { seed: 8, ..options }).unwrap(),
            result
        );
    }

    #[test]
    fn sliced_runs_give_the_same_numbers() {
        let options = MigrateOptions {
            vms: 30,
            seed: 5,
            ..MigrateOptions::default()
        };
        let whole = migrate(&options).unwrap();
        let mut sliced = Migration::new(&options).unwrap();
        let mut rounds = 0;
        while !sliced.advance(7) {
            rounds += 1;
            let (done, total) = sliced.progress();
            assert!(done < total);
        }
        assert!(rounds > 20);
        assert_eq!(sliced.result(), whole);
        assert_eq!(sliced.progress(), (30 * 7, 30 * 7));
    }

    #[test]
    fn bounds() {
        assert!(migrate(&MigrateOptions {
            vms: 0,
            ..MigrateOptions::default()
        })
        .is_err());
        assert!(migrate(&MigrateOptions {
            vms: MIGRATE_VMS + 1,
            ..MigrateOptions::default()
        })
        .is_err());
        let err = migrate(&MigrateOptions {
            churn: MIGRATE_CHURN + 1,
            ..MigrateOptions::default()
        })
        .unwrap_err();
        assert_eq!(err, MigrateError::Churn(MIGRATE_CHURN + 1));
        assert!(err.to_string().contains("between 0 and 8"), "{err}");
        let err = migrate(&MigrateOptions {
            retries: MIGRATE_RETRIES + 1,
            ..MigrateOptions::default()
        })
        .unwrap_err();
        assert_eq!(err, MigrateError::Retries(MIGRATE_RETRIES + 1));
        assert!(migrate_reference(&MigrateOptions {
            vms: 0,
            ..MigrateOptions::default()
        })
        .is_err());
    }

    /// Churn: extra writers only ever cause needless failures in others
    /// (they change nothing anyone else means to change), and more of them
    /// cause more under a preset that tests the whole labels map.
    #[test]
    fn churn_adds_writers_whose_failures_they_cause_are_needless() {
        let run = |churn| {
            migrate(&MigrateOptions {
                vms: 100,
                seed: 2,
                presets: vec![Preset::KubevirtMain, Preset::KubevirtPerKey],
                churn,
                ..MigrateOptions::default()
            })
            .unwrap()
        };
        let (none, some) = (run(0), run(4));
        assert_eq!(some.presets[0].writers.len(), 7);
        assert_eq!(some.presets[0].writers[6].name, "churn-4");
        for (a, b) in none.presets.iter().zip(&some.presets) {
            assert!(b.total.writes > a.total.writes, "{b:?}");
        }
        let head = |r: &MigrateResult| r.presets[0].writers[0].counts.needless_failures;
        assert!(
            head(&some) > head(&none),
            "{:?} {:?}",
            some.presets[0],
            none.presets[0]
        );
        // Per-key patches under churn: virt-controller's own failures are
        // never needless ones on a map.
        assert_eq!(
            some.presets[1].writers[0].counts.needless_failures_on_maps,
            0
        );
    }

    /// The retry budget: with none, nobody retries and every failed write
    /// stays failed; with some, retries fix what a re-read can fix (not
    /// the lost updates of a naive patch), never more than the budget.
    #[test]
    fn the_retry_budget_bounds_retries() {
        let run = |retries| {
            migrate(&MigrateOptions {
                vms: 100,
                seed: 4,
                presets: vec![Preset::Naive, Preset::KubevirtMain],
                retries,
                ..MigrateOptions::default()
            })
            .unwrap()
        };
        let none = run(0);
        assert!(none.presets.iter().all(|p| p.total.retries == 0));
        let head = &none.presets[1];
        assert!(head.vmis_intent_not_held > 0, "{head:?}");
        for w in &head.writers {
            // One write each: a failed one leaves the intent not held.
            assert_eq!(w.counts.writes, 100, "{w:?}");
            assert_eq!(
                w.intent_not_held,
                w.counts.invalid + w.counts.conflict,
                "{w:?}"
            );
        }
        for retries in [1, 2, 8] {
            let result = run(retries);
            for p in &result.presets {
                assert!(p.total.retries <= 100 * 3 * u64::from(retries), "{p:?}");
            }
            assert_eq!(result.presets[1].vmis_intent_not_held, 0, "{retries}");
        }
        assert_eq!(
            run(2),
            migrate(&MigrateOptions {
                vms: 100,
                seed: 4,
                presets: vec![Preset::Naive, Preset::KubevirtMain],
                ..MigrateOptions::default()
            })
            .unwrap(),
            "2 is the default"
        );
    }
}
