//! `patchlab migrate`: mass live migration under each preset.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::sim::migrate::{migrate_on, MigrateOptions, MigrateResult};
use patchlab::strategy::Preset;

use super::{parse_preset, ClusterArgs, Failure};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table for people.
    Text,
    /// `{"vms": N, "seed": S, "presets": [...]}`.
    Json,
}

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
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    cluster: ClusterArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    let options = MigrateOptions {
        vms: args.vms,
        seed: args.seed,
        presets: args.presets,
    };
    let result = migrate_on(&options, args.cluster.cluster()).map_err(Failure::new)?;
    let text = match args.format {
        Format::Json => serde_json::to_string(&result).unwrap_or_default(),
        Format::Text => render(&result),
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
    let _ = writeln!(
        out,
        "{:<17} {:>8} {:>8} {:>7} {:>7} {:>7} {:>9} {:>6} {:>6} {:>8} {:>11}",
        "preset",
        "requests",
        "ok",
        "422",
        "409",
        "false",
        "on maps",
        "true",
        "lost",
        "retries",
        "unconverged"
    );
    for p in &result.presets {
        let _ = writeln!(
            out,
            "{:<17} {:>8} {:>8} {:>7} {:>7} {:>7} {:>9} {:>6} {:>6} {:>8} {:>11}",
            p.preset,
            p.requests,
            p.ok,
            p.status_422,
            p.status_409,
            p.false_conflicts,
            p.false_conflicts_on_maps,
            p.true_conflicts,
            p.lost_updates,
            p.retries,
            p.unconverged_vmis
        );
    }
    out.push_str("\nfalse: failures where nothing the writer meant to change had changed; on maps: of those, a failed test of labels, annotations or activePods; lost: changes erased by writes that did not mean to change them");
    out
}
