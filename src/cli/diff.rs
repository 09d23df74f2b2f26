//! `patchlab diff`: old + new object -> what a writer sends, per strategy.

use std::fmt::Write as _;
use std::io::Write;

use patchlab::limits::OVERRIDES;
use patchlab::strategy::{
    self, dotted_path_problem, parse_path, Body, Options, Plan, Preset, Strategy,
};

use super::terminal::printable;

use super::{parse_preset, ClusterArgs, Failure, Output, Source};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Json, "The payload (or body) as sent"),
    (Output::Kubectl, "A kubectl command line"),
    (Output::Go, "Go code using KubeVirt's patch builder"),
    (Output::Rust, "Rust code using patchlab's builder"),
    (
        Output::Explain,
        "Each op with its reason, the fields, and the conflict surface",
    ),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old object: a JSON or YAML file, or - for stdin.
    old: Source,
    /// The new object: a JSON or YAML file, or - for stdin.
    new: Source,
    /// Strategy per field kind: kubevirt-main, kubevirt-per-key, naive, optimistic, merge, ssa,
    /// update, or strategic (the strategic merge patch kubectl computes; built-in kinds only).
    #[arg(long, default_value = "kubevirt-per-key", value_parser = parse_preset)]
    preset: Preset,
    /// Override one field's strategy: PATH=STRATEGY (PATH as /json/pointer or dotted.path).
    #[arg(long = "set", value_name = "PATH=STRATEGY", value_parser = parse_override)]
    overrides: Vec<(patchlab::pointer::PointerBuf, Strategy)>,
    /// Output format.
    #[arg(long, default_value = "json", value_parser = Output::choices(FORMATS))]
    format: Output,
    /// The field manager of a server-side-apply configuration (preset ssa).
    #[arg(long, default_value = "patchlab")]
    field_manager: String,
    /// Pin metadata.resourceVersion in a merge patch (preset merge).
    #[arg(long)]
    merge_resource_version: bool,
    /// The server the round-trip check runs on (`--format explain`; a patch the
    /// server would refuse is a note on stderr in every format).
    #[command(flatten)]
    cluster: ClusterArgs,
}

fn parse_override(s: &str) -> Result<(patchlab::pointer::PointerBuf, Strategy), String> {
    let (path, strategy) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("{:?}: expected PATH=STRATEGY", patchlab::text::cut(s, 200)))?;
    if let Some(problem) = dotted_path_problem(path) {
        return Err(problem);
    }
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: patchlab::strategy::UnknownName| e.to_string())?;
    if strategy.is_whole_object() {
        return Err(format!(
            "{strategy} applies to the whole object: use --preset instead"
        ));
    }
    Ok((parse_path(path).map_err(|e| e.to_string())?, strategy))
}

impl Args {
    /// Why the `--set` flags are refused: more than [`OVERRIDES`] paths
    /// (a path set again counts once: the last `--set` of it holds).
    pub fn check_lists(&self) -> Option<String> {
        let paths: std::collections::BTreeSet<_> =
            self.overrides.iter().map(|(path, _)| path).collect();
        (paths.len() > OVERRIDES).then(|| {
            format!(
                "{} --set paths, more than the limit of {OVERRIDES}",
                paths.len()
            )
        })
    }
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    if args.old.is_stdin() && args.new.is_stdin() {
        return Err(Failure::new("OLD and NEW cannot both be read from stdin"));
    }
    let (_, old, _) = args.old.parse()?;
    let (_, new, _) = args.new.parse()?;
    let mut options = Options::preset(args.preset);
    options.kubernetes = args.cluster.cluster().version;
    options.field_manager = args.field_manager;
    options.merge_resource_version = args.merge_resource_version;
    for (path, strategy) in args.overrides {
        options.policy.set_strategy(path, strategy);
    }
    let plan = strategy::diff(&old, &new, &options).map_err(|e| Failure::new(e.to_string()))?;
    if plan.is_empty() {
        eprintln!("patchlab: no changes: old and new are equal under this policy");
        for note in &plan.notes {
            eprintln!("note: {}", printable(note));
        }
        return Ok(());
    }
    let engine = patchlab::apply::Engine::from(args.cluster.cluster());
    let check = strategy::round_trip_on(&old, &new, &plan, &options.policy, engine);
    let verdict = match &check {
        strategy::RoundTrip::Refused(err) => match err.response() {
            Some(status) => format!("the server would refuse it: {status} ({err})"),
            None => check.to_string(),
        },
        _ => check.to_string(),
    };
    // The payload and the exports are data, exact as they are (an export
    // writes what a terminal acts on in its own syntax); explain is for
    // reading.
    let text = match args.format {
        Output::Kubectl => strategy::kubectl(&plan, &new),
        Output::Go => strategy::go_code(&plan).ok_or_else(|| not_json_patch(&plan, "Go"))?,
        Output::Rust => strategy::rust_code(&plan).ok_or_else(|| not_json_patch(&plan, "Rust"))?,
        Output::Explain => format!("{}\nround trip on {engine}: {verdict}\n", explain(&plan)),
        _ => plan.body_text(),
    };
    let text = match args.format {
        Output::Explain => printable(&text).into_owned(),
        _ => text,
    };
    if matches!(check, strategy::RoundTrip::Refused(_)) && args.format != Output::Explain {
        eprintln!("note: on {engine}, {}", printable(&verdict));
    }
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn not_json_patch(plan: &Plan, language: &str) -> Failure {
    Failure::new(format!(
        "{language} export is for JSON patches; preset {} sends {}",
        plan.preset,
        plan.body.content_type()
    ))
}

/// Every op with its reason, then the fields, conflict surface, overwrites
/// and notes.
pub fn explain(plan: &Plan) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "preset {}: {}", plan.preset, plan.preset.summary());
    let body = plan.body_text();
    let _ = writeln!(
        out,
        "sends {} ({} bytes)",
        plan.body.content_type(),
        body.len()
    );
    match &plan.body {
        Body::JsonPatch(ops) => {
            let _ = writeln!(out, "\nops:");
            for (i, planned) in ops.iter().enumerate().take(LISTED) {
                let op = &planned.op;
                let value = op
                    .value
                    .as_ref()
                    .filter(|_| op.op.takes_value())
                    .map(|v| format!(" {}", patchlab::text::elide_value(v, 80)))
                    .unwrap_or_default();
                let _ = writeln!(out, "  {i:>2}  {:<7} {}{value}", op.op.as_str(), op.path);
                let _ = writeln!(out, "      why: {}", planned.reason);
            }
            more(
                &mut out,
                ops.len(),
                LISTED,
                "ops (the payload has them all)",
            );
        }
        Body::MergePatch(_)
        | Body::Update(_)
        | Body::Apply { .. }
        | Body::StrategicMergePatch(_) => {
            let _ = writeln!(out, "\nbody:\n{}", indent(&pretty_body(plan)));
        }
    }
    let _ = writeln!(out, "\nfields:");
    for field in plan.fields.iter().take(LISTED) {
        let _ = writeln!(
            out,
            "  {:<40} {:<12} {:<14} {}",
            field.path.as_str(),
            field.kind.as_str(),
            field.strategy.as_str(),
            field.change.as_str()
        );
    }
    more(&mut out, plan.fields.len(), LISTED, "fields");
    let _ = writeln!(
        out,
        "\nconflict surface (a concurrent change here makes it fail):"
    );
    if plan.conflicts.is_empty() {
        let _ = writeln!(
            out,
            "  none: nothing is tested, so no concurrent change makes it fail"
        );
    }
    for conflict in plan.conflicts.iter().take(LISTED) {
        let path = if conflict.path.is_empty() {
            "(whole object)"
        } else {
            conflict.path.as_str()
        };
        let _ = writeln!(out, "  {path}: {}", conflict.reason);
    }
    more(&mut out, plan.conflicts.len(), LISTED, "conflicts");
    let _ = writeln!(
        out,
        "\noverwrites (concurrent changes it would silently erase):"
    );
    if plan.overwrites.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for overwrite in plan.overwrites.iter().take(LISTED) {
        let _ = writeln!(out, "  {}: {}", overwrite.path, overwrite.reason);
    }
    more(&mut out, plan.overwrites.len(), LISTED, "overwrites");
    if !plan.notes.is_empty() {
        let _ = writeln!(out, "\nnotes:");
        for note in &plan.notes {
            let _ = writeln!(out, "  - {note}");
        }
    }
    out
}

/// Ops, fields, conflicts and overwrites `--format explain` lists one by
/// one; past this, a count (a diff of 16,000 keys explains in a page, not
/// in megabytes).
const LISTED: usize = 200;

/// `  ... and 15800 more ops` when a list was cut.
fn more(out: &mut String, len: usize, shown: usize, what: &str) {
    if len > shown {
        let _ = writeln!(out, "  ... and {} more {what}", len - shown);
    }
}

fn pretty_body(plan: &Plan) -> String {
    match &plan.body {
        Body::Apply { config, .. } => patchlab::input::to_yaml(config),
        Body::MergePatch(body) | Body::Update(body) | Body::StrategicMergePatch(body) => {
            patchlab::input::to_json_pretty(body)
        }
        Body::JsonPatch(_) => plan.body_text(),
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}
