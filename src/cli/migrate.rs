//! `patchlab migrate`: mass live migration under each preset.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::limits::{MIGRATE_CHURN, MIGRATE_RETRIES, MIGRATE_VMS, OPTION_VALUES};
use patchlab::sim::migrate::{migrate_on, MigrateOptions, MigrateResult};
use patchlab::strategy::Preset;
use patchlab::vocabulary::{Term, MIGRATION_COLUMNS};

use super::{parse_preset, whole_number, ClusterArgs, Failure, Output};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Text, "A table for people"),
    (Output::Json, r#"`{"vms": N, "seed": S, "presets": [...]}`"#),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many VMIs migrate at once (1 to 100000).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true,
          value_parser = whole_number(1, MIGRATE_VMS as u64))]
    vms: u64,
    /// The seed of the random interleavings; the same seed gives the same numbers.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = whole_number(0, u64::MAX))]
    seed: u64,
    /// A preset for the controllers (repeat for several; all by default;
    /// a repeated one runs once).
    #[arg(long = "preset", value_parser = parse_preset)]
    presets: Vec<Preset>,
    /// Extra writers per VMI (0 to 8), each setting a label of its own
    /// (`example.com/churn-K`) with the controllers' preset.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = whole_number(0, MIGRATE_CHURN as u64))]
    churn: u64,
    /// How many times each writer may re-read and retry after a failed
    /// write (0 to 8).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true,
          value_parser = whole_number(0, u64::from(MIGRATE_RETRIES)))]
    retries: u64,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = Output::choices(FORMATS))]
    format: Output,
    #[command(flatten)]
    cluster: ClusterArgs,
}

impl Args {
    /// The `--preset` flags, repeats dropped (first places kept).
    fn distinct_presets(&self) -> Vec<Preset> {
        let mut presets = Vec::new();
        for preset in &self.presets {
            if !presets.contains(preset) {
                presets.push(*preset);
            }
        }
        presets
    }

    /// Why the `--preset` flags are refused: more than [`OPTION_VALUES`]
    /// distinct ones (counted once repeats are dropped).
    pub fn check_lists(&self) -> Option<String> {
        let distinct = self.distinct_presets().len();
        (distinct > OPTION_VALUES).then(|| {
            format!(
                "{distinct} different --preset flags, more than the limit of {OPTION_VALUES} (there are {} presets)",
                Preset::ALL.len()
            )
        })
    }
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    // Each value is within its flag's range (clap checked it): it fits.
    let whole = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let options = MigrateOptions {
        vms: whole(args.vms),
        seed: args.seed,
        presets: args.distinct_presets(),
        churn: whole(args.churn),
        retries: u32::try_from(args.retries).unwrap_or(u32::MAX),
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
