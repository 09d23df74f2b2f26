//! `patchlab migrate`: mass live migration under each preset.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::limits::OPTION_VALUES;
use patchlab::sim::migrate::{migrate_on, MigrateOptions, MigrateResult};
use patchlab::strategy::Preset;
use patchlab::vocabulary::{Term, MIGRATION_COLUMNS};

use super::{parse_preset, ClusterArgs, Failure, Output};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Text, "A table for people"),
    (Output::Json, r#"`{"vms": N, "seed": S, "presets": [...]}`"#),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many VMIs migrate at once.
    #[arg(long, default_value_t = 2000)]
    vms: usize,
    /// The seed of the random interleavings; the same seed gives the same numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A preset for the controllers (repeat for several; all by default).
    #[arg(long = "preset", value_parser = parse_preset)]
    presets: Vec<Preset>,
    /// Extra writers per VMI (0 to 8), each setting a label of its own
    /// (`example.com/churn-K`) with the controllers' preset.
    #[arg(long, default_value_t = 0)]
    churn: usize,
    /// How many times each writer may re-read and retry after a failed
    /// write (0 to 8).
    #[arg(long, default_value_t = 2)]
    retries: u32,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = Output::choices(FORMATS))]
    format: Output,
    #[command(flatten)]
    cluster: ClusterArgs,
}

impl Args {
    /// Why the `--preset` flags are refused: more than
    /// [`OPTION_VALUES`] (repeats are dropped, but only that many are read).
    pub fn check_lists(&self) -> Option<String> {
        (self.presets.len() > OPTION_VALUES).then(|| {
            format!(
                "{} --preset flags, more than the limit of {OPTION_VALUES} (there are {} presets)",
                self.presets.len(),
                Preset::ALL.len()
            )
        })
    }
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    let options = MigrateOptions {
        vms: args.vms,
        seed: args.seed,
        presets: args.presets,
        churn: args.churn,
        retries: args.retries,
        ..MigrateOptions::default()
    };
    let result =
        migrate_on(&options, args.cluster.cluster()).map_err(|e| Failure::new(e.to_string()))?;
    let text = match args.format {
        Output::Json => serde_json::to_string(&result).unwrap_or_default(),
        _ => render(&result),
    };
    writeln!(out, "{text}")?;
    Ok(())
}

fn render(result: &MigrateResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} VMIs migrating, seed {}; per VMI: VMI controller and migration controller patch (preset), virt-handler calls Update()\n",
        result.vms, result.seed
    );
    // Other failures (415: a strategic merge patch to a VMI, a custom
    // resource) get a column when there are any.
    let mut columns = MIGRATION_COLUMNS.to_vec();
    if result.presets.iter().any(|p| p.total.other_errors > 0) {
        columns.insert(4, Term::OtherErrors);
    }
    let _ = write!(out, "{:<24}", "preset / writer");
    for term in &columns {
        let _ = write!(out, " {:>8}", term.short());
    }
    let _ = writeln!(out, " {:>9}", Term::IntentNotHeld.short());
    for p in &result.presets {
        let _ = write!(out, "{:<24}", p.preset.as_str());
        for term in &columns {
            let _ = write!(out, " {:>8}", p.total.get(*term).unwrap_or_default());
        }
        let _ = writeln!(out, " {:>9}", p.vmis_intent_not_held);
        for w in &p.writers {
            let _ = write!(out, "  {:<22}", w.name);
            for term in &columns {
                let _ = write!(out, " {:>8}", w.counts.get(*term).unwrap_or_default());
            }
            let _ = writeln!(out, " {:>9}", w.intent_not_held);
        }
    }
    let mut terms = columns;
    terms.push(Term::IntentNotHeld);
    let _ = write!(
        out,
        "\n{}\nA preset's row adds up its writers (not held: VMIs where some writer's intent does not hold).",
        Term::legend(&terms)
    );
    out
}
