//! Mass live migration: N VMIs, each written concurrently by the VMI
//! controller, the migration controller and virt-handler (reference
//! section 6), in a seeded random interleaving, under each preset.

use serde::Serialize;
use serde_json::{json, Value};

use super::outcome::Counts;
use super::rng::SplitMix64;
use super::timeline::{Event, Scenario, ScenarioError, World};
use super::writer::{Intent, WriterSpec};
use crate::pointer::PointerBuf;
use crate::strategy::Preset;

/// The most VMIs one run simulates.
pub const MAX_VMS: usize = 100_000;

/// Counts for one preset: all writers together and each writer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MigrateResult {
    /// VMIs per preset.
    pub vms: usize,
    /// The seed.
    pub seed: u64,
    /// One entry per preset, in the order asked.
    pub presets: Vec<PresetResult>,
}

/// Why a mass migration cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MigrateError {
    /// `vms` is 0 or above [`MAX_VMS`].
    VmCount(usize),
    /// The writers' options could not be built (a bug in the scenario).
    Scenario(ScenarioError),
}

impl std::fmt::Display for MigrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MigrateError::VmCount(n) => {
                write!(
                    f,
                    "the number of VMIs must be between 1 and {MAX_VMS}, not {n}"
                )
            }
            MigrateError::Scenario(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MigrateError {}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigrateOptions {
    /// How many VMIs.
    pub vms: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// The presets to compare (all when empty).
    pub presets: Vec<Preset>,
}

impl Default for MigrateOptions {
    fn default() -> Self {
        MigrateOptions {
            vms: 2000,
            seed: 1,
            presets: Vec::new(),
        }
    }
}

/// The VMI number `i` and its three writers, before migration to node02.
fn vmi_scenario(i: usize) -> Scenario {
    let name = format!("vmi-{i:05}");
    let vmi = json!({
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
    });
    let pointer = |p: &str| PointerBuf::parse(p).unwrap_or_default();
    let writer = |name: &str, preset: Preset, fixed: bool, intents: Vec<Intent>| WriterSpec {
        name: name.to_owned(),
        preset,
        set: Default::default(),
        fixed,
        force: false,
        // Server-side appliers take over on retry: the VMIs have no field
        // owners but before-first-apply, so a first apply that changes an
        // existing field conflicts.
        force_on_retry: !fixed,
        attempts: 3,
        target: None,
        intents,
    };
    Scenario {
        name,
        description: String::new(),
        objects: vec![vmi],
        owner: None,
        kubernetes: None,
        engine: None,
        writers: vec![
            writer(
                "virt-controller",
                Preset::KubevirtPr18139,
                false,
                vec![
                    Intent::SetLabel {
                        key: "kubevirt.io/migrationTargetNodeName".into(),
                        value: "node02".into(),
                    },
                    Intent::Set {
                        path: pointer("/status/interfaces"),
                        value: json!([{"name": "default", "ipAddress": format!("10.244.2.{}", i % 250 + 2)}]),
                    },
                    Intent::SetEntry {
                        map: pointer("/status/activePods"),
                        key: format!("vmi-{i:05}-target"),
                        value: Value::from("node02"),
                    },
                ],
            ),
            writer(
                "migration-controller",
                Preset::KubevirtPr18139,
                false,
                vec![
                    Intent::SetLabel {
                        key: "kubevirt.io/migration-uid".into(),
                        value: format!("mig-{i:05}"),
                    },
                    Intent::Set {
                        path: pointer("/status/migrationState"),
                        value: json!({"sourceNode": "node01", "targetNode": "node02", "migrationUid": format!("mig-{i:05}")}),
                    },
                ],
            ),
            writer(
                "virt-handler",
                Preset::Update,
                true,
                vec![
                    Intent::SetLabel {
                        key: "kubevirt.io/nodeName".into(),
                        value: "node02".into(),
                    },
                    Intent::RemoveLabel {
                        key: "kubevirt.io/outdatedLauncherImage".into(),
                    },
                    Intent::RemoveAnnotation {
                        key: "kubevirt.io/evacuationNodeName".into(),
                    },
                ],
            ),
        ],
        schedule: Vec::new(),
        claims: Default::default(),
    }
}

/// A random interleaving of each writer's events (read, write, then two
/// retries), each writer's own order kept.
fn schedule(rng: &mut SplitMix64, writers: &[&str]) -> Vec<Event> {
    let mut queues: Vec<Vec<Event>> = writers
        .iter()
        .map(|w| {
            vec![
                Event::Retry((*w).to_owned()),
                Event::Retry((*w).to_owned()),
                Event::Write((*w).to_owned()),
                Event::Read((*w).to_owned()),
            ]
        })
        .collect();
    let mut out = Vec::with_capacity(queues.len() * 4);
    loop {
        let open: Vec<usize> = (0..queues.len())
            .filter(|&i| !queues[i].is_empty())
            .collect();
        if open.is_empty() {
            return out;
        }
        let pick = open[rng.below(open.len() as u64) as usize];
        if let Some(event) = queues[pick].pop() {
            out.push(event);
        }
    }
}

/// A mass migration run in slices, so a page can show progress and stay
/// responsive: [`Migration::advance`] simulates a bounded number of VMIs.
pub struct Migration {
    options: MigrateOptions,
    presets: Vec<Preset>,
    scenarios: Vec<Scenario>,
    results: Vec<PresetResult>,
    writer_options: Vec<crate::strategy::Options>,
    preset: usize,
    vmi: usize,
}

impl Migration {
    /// Prepares a run (the VMIs and their seeded schedules).
    ///
    /// # Errors
    ///
    /// A message when `vms` is 0 or above [`MAX_VMS`].
    pub fn new(options: &MigrateOptions) -> Result<Migration, MigrateError> {
        if options.vms == 0 || options.vms > MAX_VMS {
            return Err(MigrateError::VmCount(options.vms));
        }
        let presets = if options.presets.is_empty() {
            Preset::ALL.to_vec()
        } else {
            options.presets.clone()
        };
        // One schedule per VMI, shared by every preset: the presets face the
        // same interleavings.
        let mut rng = SplitMix64::new(options.seed);
        let names = ["virt-controller", "migration-controller", "virt-handler"];
        let scenarios: Vec<Scenario> = (0..options.vms)
            .map(|i| {
                let mut scenario = vmi_scenario(i);
                scenario.schedule = schedule(&mut rng, &names);
                scenario
            })
            .collect();
        let mut migration = Migration {
            options: options.clone(),
            results: presets
                .iter()
                .map(|preset| PresetResult {
                    preset: *preset,
                    total: Counts::default(),
                    vmis_intent_not_held: 0,
                    writers: scenarios[0]
                        .writers
                        .iter()
                        .map(|w| WriterTotals {
                            name: w.name.clone(),
                            preset: if w.fixed { w.preset } else { *preset },
                            counts: Counts::default(),
                            intent_not_held: 0,
                        })
                        .collect(),
                })
                .collect(),
            presets,
            scenarios,
            writer_options: Vec::new(),
            preset: 0,
            vmi: 0,
        };
        migration.prepare()?;
        Ok(migration)
    }

    /// The same run on another cluster: its release and JSON patch engine.
    pub fn on_cluster(mut self, cluster: crate::kube::Cluster) -> Migration {
        for scenario in &mut self.scenarios {
            scenario.kubernetes = Some(cluster.version);
            scenario.engine = Some(cluster.engine);
        }
        self
    }

    /// Every VMI has the same writers: their options are built once per preset.
    fn prepare(&mut self) -> Result<(), MigrateError> {
        let Some(preset) = self.presets.get(self.preset).copied() else {
            return Ok(());
        };
        self.writer_options = self.scenarios[0]
            .writers
            .iter()
            .map(|w| {
                w.options(Some(preset))
                    .map(|mut o| {
                        o.explain = false;
                        o
                    })
                    .map_err(|error| {
                        MigrateError::Scenario(ScenarioError::BadOverride {
                            writer: w.name.clone(),
                            error,
                        })
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(())
    }

    /// Simulates up to `vms` more VMIs; true when the whole run is done.
    pub fn advance(&mut self, vms: usize) -> bool {
        let mut budget = vms;
        while budget > 0 && self.preset < self.presets.len() {
            let preset = self.presets[self.preset];
            let scenario = &self.scenarios[self.vmi];
            run_one(
                scenario,
                preset,
                &self.writer_options,
                &mut self.results[self.preset],
            );
            self.vmi += 1;
            budget -= 1;
            if self.vmi == self.scenarios.len() {
                self.vmi = 0;
                self.preset += 1;
                if self.prepare().is_err() {
                    self.preset = self.presets.len();
                }
            }
        }
        self.preset >= self.presets.len()
    }

    /// VMIs simulated so far and in all (over every preset).
    pub fn progress(&self) -> (usize, usize) {
        let total = self.scenarios.len() * self.presets.len();
        (self.preset * self.scenarios.len() + self.vmi, total)
    }

    /// The counts so far (complete once [`Migration::advance`] returned true).
    pub fn result(&self) -> MigrateResult {
        MigrateResult {
            vms: self.options.vms,
            seed: self.options.seed,
            presets: self.results.clone(),
        }
    }
}

/// Runs the mass migration under each preset. The same seed gives the same
/// numbers, natively and in wasm.
///
/// # Errors
///
/// A message when `vms` is 0 or above [`MAX_VMS`].
pub fn migrate(options: &MigrateOptions) -> Result<MigrateResult, MigrateError> {
    migrate_on(options, crate::kube::Cluster::default())
}

/// [`migrate`] on a cluster of a given release and JSON patch engine.
///
/// # Errors
///
/// [`MigrateError`] when `vms` is 0 or above [`MAX_VMS`].
pub fn migrate_on(
    options: &MigrateOptions,
    cluster: crate::kube::Cluster,
) -> Result<MigrateResult, MigrateError> {
    let mut migration = Migration::new(options)?.on_cluster(cluster);
    while !migration.advance(usize::MAX) {}
    Ok(migration.result())
}

fn run_one(
    scenario: &Scenario,
    preset: Preset,
    options: &[crate::strategy::Options],
    result: &mut PresetResult,
) {
    let mut world = World::prepared(
        scenario,
        Some(preset),
        std::borrow::Cow::Borrowed(options),
        false,
    );
    for (index, event) in scenario.schedule.iter().enumerate() {
        world.step(index, event);
    }
    world.finish();
    let outcomes = &world.outcomes;
    for (totals, writer) in result.writers.iter_mut().zip(&outcomes.writers) {
        totals.counts += &writer.counts;
        result.total += &writer.counts;
        totals.intent_not_held += u64::from(!writer.intent_holds);
    }
    result.vmis_intent_not_held += u64::from(!outcomes.intents_hold);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::timeline::EventKind;

    #[test]
    fn schedules_keep_each_writers_order() {
        let mut rng = SplitMix64::new(42);
        let events = schedule(&mut rng, &["a", "b"]);
        assert_eq!(events.len(), 8);
        for writer in ["a", "b"] {
            let kinds: Vec<EventKind> = events
                .iter()
                .filter(|e| e.writer() == writer)
                .map(Event::kind)
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
    }

    #[test]
    fn per_key_has_no_false_conflicts_on_maps_whole_map_has_many() {
        let options = MigrateOptions {
            vms: 200,
            seed: 7,
            presets: vec![Preset::KubevirtHead, Preset::KubevirtPr18139, Preset::Naive],
        };
        let result = migrate(&options).unwrap();
        let [head, per_key, naive] = &result.presets[..] else {
            panic!("three presets");
        };
        assert!(head.total.false_conflicts_on_maps > 50, "{head:?}");
        assert_eq!(per_key.total.false_conflicts_on_maps, 0, "{per_key:?}");
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
            presets: Vec::new(),
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
            vms: MAX_VMS + 1,
            ..MigrateOptions::default()
        })
        .is_err());
    }
}
