//! `patchlab explore`: every interleaving of a small scenario, per preset.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::sim::explore::{explore, Exploration};
use patchlab::sim::timeline::Scenario;

use super::{ClusterArgs, Failure, Source};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table for people.
    Text,
    /// The counts and every interleaving as JSON.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario (at most 3 writers and 8 events), or - for stdin.
    scenario: Source,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    cluster: ClusterArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    let text = args.scenario.read()?;
    let mut scenario = Scenario::parse(&text)
        .map_err(|e| Failure::new(format!("{}: {e}", args.scenario.name())))?;
    args.cluster.override_scenario(&mut scenario);
    let result = explore(&scenario, &[]).map_err(|e| Failure::new(e.to_string()))?;
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&result).unwrap_or_default(),
        Format::Text => render(&result),
    };
    writeln!(out, "{text}")?;
    Ok(())
}

fn render(result: &Exploration) -> String {
    let mut out = String::new();
    let n = result.interleavings.len();
    let _ = writeln!(
        out,
        "{}: {n} interleavings (every order that keeps each writer's own)\n",
        result.scenario
    );
    let _ = writeln!(
        out,
        "{:<17} {:>14} {:>16} {:>14} {:>12}",
        "preset", "422/409", "false conflict", "lost update", "unconverged"
    );
    let share = |k: usize| format!("{k} ({}%)", (k * 100).checked_div(n).unwrap_or(0));
    for row in &result.presets {
        let _ = writeln!(
            out,
            "{:<17} {:>14} {:>16} {:>14} {:>12}",
            row.preset,
            share(row.failed),
            share(row.false_conflicts),
            share(row.lost_updates),
            share(row.unconverged)
        );
    }
    out.push_str("\ncounts are interleavings in which it happens at least once");
    out
}
