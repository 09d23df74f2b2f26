//! `patchlab simulate`: replay a scenario and print each step and the outcomes.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::sim::timeline::{replay, Replay, Scenario, WriterEnd};
use patchlab::strategy::Preset;
use patchlab::vocabulary::{Term, REPLAY_COLUMNS};

use super::terminal::{field, printable};
use super::{parse_preset, ClusterArgs, Failure, Output, Source};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Text, "Steps and outcomes for people"),
    (Output::Json, "The whole replay as JSON"),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario: a YAML or JSON file (see www/scenarios/README.md), or - for stdin.
    scenario: Source,
    /// Replace every writer's preset (except writers marked fixed).
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Preset>,
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
    let result = replay(&scenario, args.preset).map_err(|e| Failure::new(e.to_string()))?;
    let text = match args.format {
        Output::Json => serde_json::to_string_pretty(&result).unwrap_or_default(),
        _ => printable(&render(&result)).into_owned(),
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
    let _ = writeln!(out, "scenario: {}", field(&replay.scenario));
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
        render_step(&mut out, step);
    }
    let _ = writeln!(out, "\noutcomes:");
    let _ = write!(out, "  {:<26} {:<17}", "writer", "preset");
    for term in &REPLAY_COLUMNS {
        let _ = write!(out, " {:>w$}", term.short(), w = width(*term));
    }
    let _ = writeln!(out, "  {}", Term::IntentHolds.short());
    for w in &replay.outcomes.writers {
        let _ = write!(out, "  {:<26} {:<17}", field(&w.name), field(&w.label));
        for term in &REPLAY_COLUMNS {
            let _ = write!(
                out,
                " {:>w$}",
                w.counts.get(*term).unwrap_or_default(),
                w = width(*term)
            );
        }
        let _ = writeln!(out, "  {}", yes(w.intent_holds));
    }
    for w in &replay.outcomes.writers {
        match &w.not_held {
            // Why its intent does not hold says where it ended, and more.
            Some(why) => {
                let _ = writeln!(out, "  {}", why.describe(&w.name));
            }
            None if !matches!(w.end, WriterEnd::Succeeded) => {
                let _ = writeln!(out, "  {}", w.end.describe(&w.name));
            }
            None => {}
        }
    }
    let _ = writeln!(
        out,
        "  {}: {}",
        Term::LostUpdate.label().to_lowercase(),
        replay.outcomes.lost_updates.len()
    );
    let _ = writeln!(
        out,
        "  every intent holds: {}",
        yes(replay.outcomes.intents_hold)
    );
    let mut terms = REPLAY_COLUMNS.to_vec();
    terms.push(Term::IntentHolds);
    let _ = write!(out, "\n{}", Term::legend(&terms));
    out
}

/// One step: its summary, request, response, hidden cause, class and
/// lost updates.
fn render_step(out: &mut String, step: &patchlab::sim::timeline::Step) {
    let _ = writeln!(out, "\n{:>2}. {}", step.index, step.summary);
    if let Some(sent) = &step.request {
        let _ = writeln!(
            out,
            "    request ({}, {}): {}",
            field(&sent.label),
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
    if let Some(conflict) = step.conflict {
        let term = conflict.term();
        let _ = writeln!(
            out,
            "    {}: {}",
            term.label().to_lowercase(),
            term.definition()
        );
    }
    for lost in &step.lost {
        let _ = writeln!(
            out,
            "    LOST UPDATE: {}'s \"{}\" ({}) erased",
            lost.victim, lost.intent, lost.path
        );
    }
}

fn width(term: Term) -> usize {
    term.short().len().max(3)
}

fn one_line(body: &str) -> String {
    let flat: String = body.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    patchlab::text::elide(&flat, 300)
}
