//! `patchlab lint`: a patch (or a `kubectl patch` command line) in, its
//! hazards out, like a compiler's diagnostics.

use std::io::Write;

use patchlab::apply::Semantics;
use patchlab::lint::{self, report, Options, Origin};

use super::terminal::printable;
use super::{parse_semantics, ClusterArgs, Failure, Output, Source};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Text, "Compiler-style diagnostics"),
    (
        Output::Json,
        r#"{"findings": [{"rule", "severity", "index", "path", "message", "fix"}], ...}"#,
    ),
    (
        Output::Sarif,
        "SARIF 2.1.0, for CI systems that show findings inline",
    ),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The patch: a JSON patch or merge patch (JSON or YAML), or a text holding a
    /// `kubectl patch ... --type=json -p '...'` command line; - for stdin.
    patch: Source,
    /// The current object (JSON or YAML): adds whether the patch applies now, and
    /// fixes that need current values.
    #[arg(long, value_name = "OBJ")]
    object: Option<Source>,
    /// The engine the patch is for: kube (kube-apiserver) or rfc (strict RFC 6902).
    #[arg(long, default_value = "kube", value_parser = parse_semantics)]
    semantics: Semantics,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = Output::choices(FORMATS))]
    format: Output,
    /// The object's kind (Node, Pod, VirtualMachineInstance): decides who else
    /// writes a field. Default: the --object's kind, or the kind the kubectl
    /// command names.
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
    /// How a body (not a kubectl line, whose own --type decides) is sent: json,
    /// merge or strategic. Default: a list is a JSON patch; an object a merge
    /// patch, or a strategic merge patch when it holds directives.
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    patch_type: Option<PatchType>,
    /// Where the patch is applied: live (a request to a live object, the
    /// default), kustomize (kustomize build's patches), helm-post-renderer,
    /// webhook-response (a mutating webhook's patch of the object under
    /// admission) or restore-time (a Velero resource modifier). Off a live
    /// object, the rules about concurrent writers and the server's request
    /// limits do not apply.
    #[arg(long, default_value = "live", value_name = "WHERE", value_parser = parse_context)]
    context: lint::context::Context,
}

fn parse_context(s: &str) -> Result<lint::context::Context, String> {
    s.parse()
        .map_err(|e: lint::context::UnknownContext| e.to_string())
}

/// The patch type a body is sent as (`--type`, kubectl's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PatchType {
    /// A JSON patch (application/json-patch+json).
    Json,
    /// A JSON merge patch (application/merge-patch+json).
    Merge,
    /// A strategic merge patch (application/strategic-merge-patch+json), what
    /// `kubectl patch` sends without --type.
    Strategic,
}

/// Exit status 2: the input could not be read.
fn unreadable(message: impl Into<String>) -> Failure {
    Failure::with_code(2, message)
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    if args.patch.is_stdin() && args.object.as_ref().is_some_and(Source::is_stdin) {
        return Err(unreadable(
            "PATCH and --object cannot both be read from stdin",
        ));
    }
    let text = args.patch.read().map_err(|f| unreadable(f.to_string()))?;
    let object = match &args.object {
        Some(source) => {
            let text = source.read().map_err(|f| unreadable(f.to_string()))?;
            Some(
                lint::read_object(&text, &lint::budget())
                    .map_err(|err| unreadable(format!("{}: {err}", source.name())))?,
            )
        }
        None => None,
    };
    let name = args.patch.name();
    // `kubectl patch --patch-file FILE` in the text: FILE is opened as
    // kubectl opens it, relative to the current directory.
    let files = |path: &str| -> Result<String, String> {
        let limit = lint::budget().max_bytes;
        let meta = std::fs::metadata(path).map_err(|e| format!("open {path}: {e}"))?;
        if meta.len() > limit as u64 {
            return Err(format!(
                "{path} is {} bytes, more than the limit of {limit}",
                meta.len()
            ));
        }
        std::fs::read_to_string(path).map_err(|e| format!("open {path}: {e}"))
    };
    let mut input = lint::read_for_lint(&text, &lint::budget(), Some(&files))
        .map_err(|err| unreadable(format!("{name}: {err}")))?;
    if let Some(patch_type) = args.patch_type {
        let kind = match patch_type {
            PatchType::Json => lint::BodyKind::JsonPatch,
            PatchType::Merge => lint::BodyKind::MergePatch,
            PatchType::Strategic => lint::BodyKind::StrategicMergePatch,
        };
        input
            .set_kind(kind)
            .map_err(|err| unreadable(format!("{name}: --type: {err}")))?;
    }
    let options = Options {
        semantics: args.semantics,
        cluster: args.cluster.cluster(),
        object,
        kind: args.kind,
        context: args.context,
        ..Options::default()
    };
    let report =
        lint::lint_input(&input, &options).map_err(|err| unreadable(format!("{name}: {err}")))?;
    // Lines and columns point into the file only when it holds the payload
    // as sent (not YAML, not a command line).
    let as_written = (input.origin == Origin::Json).then_some(input.payload.as_str());
    let source = report::Source::new(name, as_written);
    match args.format {
        Output::Json => {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Output::Sarif => {
            serde_json::to_writer_pretty(&mut *out, &report::sarif(&report, &source))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        _ => {
            write_origin(out, &input)?;
            out.write_all(printable(&report::text(&report, &source)).as_bytes())?;
        }
    }
    if report.has_warnings() {
        return Err(Failure::with_code(1, String::new()));
    }
    Ok(())
}

/// The line that says where a command's body came from: the kubectl or
/// curl command, and the shell around it.
fn write_origin(out: &mut dyn Write, input: &lint::Input) -> std::io::Result<()> {
    let (kind, bytes) = (input.kind.content_type(), input.payload.len());
    match &input.origin {
        Origin::Kubectl {
            verb,
            target,
            shell,
        } => {
            let target = printable(target);
            writeln!(
                out,
                "kubectl {verb} {target}: {kind} ({bytes} bytes as sent)"
            )?;
            if !shell.is_empty() {
                writeln!(out, "inside shell: {}", shell.join(", "))?;
            }
        }
        Origin::Curl { url } => {
            let url = printable(url);
            writeln!(
                out,
                "curl -X PATCH {url}: {kind} ({bytes} bytes as written)"
            )?;
        }
        Origin::Json | Origin::Yaml => {}
    }
    Ok(())
}
