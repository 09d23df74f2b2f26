//! `patchlab simulate`: replay a scenario and print each step and the outcomes.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::sim::timeline::{replay, Conflict, Replay, Scenario};
use patchlab::strategy::Preset;

use super::{parse_preset, ClusterArgs, Failure, Source};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Steps and outcomes for people.
    Text,
    /// The whole replay as JSON.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario: a YAML or JSON file (see www/scenarios/README.md), or - for stdin.
    scenario: Source,
    /// Replace every writer's preset (except writers marked fixed).
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Preset>,
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
    let result = replay(&scenario, args.preset).map_err(|e| Failure::new(e.to_string()))?;
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&result).unwrap_or_default(),
        Format::Text => render(&result),
    };
    writeln!(out, "{text}")?;
    Ok(())
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The replay for people: each step, its request and response, then the
/// outcomes table.
pub fn render(replay: &Replay) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "scenario: {}", replay.scenario);
    let _ = writeln!(
        out,
        "kube-apiserver: Kubernetes {} with {}",
        replay.cluster.version, replay.cluster.engine
    );
    match replay.preset {
        Some(p) => {
            let _ = writeln!(out, "preset: {p} (fixed writers keep their own)");
        }
        None => {
            let _ = writeln!(out, "preset: each writer's own");
        }
    }
    for step in &replay.steps {
        let _ = writeln!(out, "\n{:>2}. {}", step.index, step.summary);
        if let Some(sent) = &step.request {
            let _ = writeln!(
                out,
                "    request ({}, {}): {}",
                sent.preset,
                sent.content_type,
                one_line(&sent.body)
            );
        }
        if let Some(response) = &step.response {
            if !response.is_success() {
                let _ = writeln!(
                    out,
                    "    response: {} {}: {}",
                    response.code, response.reason, response.message
                );
            }
            for warning in &response.warnings {
                let _ = writeln!(out, "    Warning: {warning}");
            }
            if let Some(cause) = &response.cause {
                let _ = writeln!(
                    out,
                    "    hidden cause (patchlab's explanation; the server discards it): op {} {} {}: {}",
                    cause.index.map_or("-".to_owned(), |i| i.to_string()),
                    cause.op.as_deref().unwrap_or("?"),
                    cause.path.as_deref().unwrap_or("?"),
                    cause.message
                );
            }
        }
        match step.conflict {
            Some(Conflict::False) => {
                let _ = writeln!(out, "    false conflict: nothing this writer meant to change was changed by others since its read");
            }
            Some(Conflict::True) => {
                let _ = writeln!(
                    out,
                    "    true conflict: another writer changed what this writer meant to change"
                );
            }
            None => {}
        }
        for lost in &step.lost {
            let _ = writeln!(
                out,
                "    LOST UPDATE: {}'s \"{}\" ({}) erased",
                lost.victim, lost.intent, lost.path
            );
        }
    }
    let _ = writeln!(out, "\noutcomes:");
    let _ = writeln!(
        out,
        "  {:<26} {:<17} {:>5} {:>3} {:>4} {:>4} {:>7} {:>5} {:>4} {:>4}  converged",
        "writer", "preset", "sent", "ok", "422", "409", "retries", "false", "true", "lost"
    );
    for w in &replay.outcomes.writers {
        let _ = writeln!(
            out,
            "  {:<26} {:<17} {:>5} {:>3} {:>4} {:>4} {:>7} {:>5} {:>4} {:>4}  {}{}",
            w.name,
            w.preset,
            w.attempts,
            w.successes,
            w.status_422,
            w.status_409,
            w.retries,
            w.false_conflicts,
            w.true_conflicts,
            w.lost_updates,
            yes(w.converged),
            if w.gave_up { " (gave up)" } else { "" }
        );
    }
    let _ = writeln!(
        out,
        "  lost updates: {}",
        replay.outcomes.lost_updates.len()
    );
    let _ = write!(out, "  converged: {}", yes(replay.outcomes.converged));
    out
}

fn one_line(body: &str) -> String {
    let flat: String = body.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 300 {
        format!("{}...", flat.chars().take(297).collect::<String>())
    } else {
        flat
    }
}
