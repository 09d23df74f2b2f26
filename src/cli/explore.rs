//! `patchlab explore`: every interleaving of a small scenario, per preset.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::sim::explore::{explore, Exploration};
use patchlab::sim::timeline::Scenario;
use patchlab::vocabulary::Term;

use super::terminal::{field, printable};
use super::{ClusterArgs, Failure, Output, Source};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Text, "A table for people"),
    (Output::Json, "The counts and every interleaving as JSON"),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario (at most 3 writers and 8 events), or - for stdin.
    scenario: Source,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = Output::choices(FORMATS))]
    format: Output,
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
        Output::Json => serde_json::to_string_pretty(&result).unwrap_or_default(),
        _ => printable(&render(&scenario, &result)).into_owned(),
    };
    writeln!(out, "{text}")?;
    Ok(())
}

fn render(scenario: &Scenario, result: &Exploration) -> String {
    let mut out = String::new();
    let n = result.interleavings.len();
    let _ = writeln!(
        out,
        "{}: {n} interleavings (every order that keeps each writer's own)",
        field(&result.scenario)
    );
    if !result.without_retry.is_empty() {
        let (whose, writes) = match result.without_retry.len() {
            1 => ("its", "write stays"),
            _ => ("their", "writes stay"),
        };
        let _ = writeln!(
            out,
            "no retry is scheduled for {}: in every order, {whose} failed {writes} failed",
            result.without_retry.join(", ")
        );
    }
    for row in &result.presets {
        let keeping = scenario.keeping_their_own(row.preset);
        let _ = writeln!(
            out,
            "\n{} ({}):",
            row.preset,
            if keeping.is_empty() {
                "every writer uses it".to_owned()
            } else {
                format!("every writer uses it, except: {}", keeping.join("; "))
            }
        );
        for (label, cell) in [
            ("a 422 or 409", &row.failed),
            ("a false conflict", &row.false_conflicts),
            ("a needless failure (intent)", &row.needless_failures),
            ("a lost update", &row.lost_updates),
            ("a write never retried", &row.never_retried),
            ("intent not held, other reason", &row.intent_not_held),
        ] {
            let whose = cell.whose();
            let first = match (cell.first, cell.first_step) {
                (Some(i), Some(step)) => format!("; first: interleaving {} at step {step}", i + 1),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {label:<29} {:>3} of {n}{}{first}",
                cell.count,
                if whose.is_empty() {
                    String::new()
                } else {
                    format!(" ({whose})")
                },
            );
        }
    }
    let _ = write!(
        out,
        "\ncounts are interleavings in which it happens at least once; in brackets, to whom; a writer never retried is not counted again under \"intent not held\"\n{}",
        Term::legend(&[
            Term::FalseConflict,
            Term::NeedlessFailure,
            Term::LostUpdate,
            Term::NotRetried,
            Term::IntentNotHeld
        ])
    );
    out
}
