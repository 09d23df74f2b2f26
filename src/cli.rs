//! The native command-line interface. The library works on values; this
//! module reads files, calls it, writes results and picks exit codes.

mod apply;
mod diff;
mod explain;
mod explore;
mod lint;
mod migrate;
mod scan;
mod simulate;
mod terminal;

use std::fmt;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use patchlab::apply::{Engine, Semantics};
use patchlab::input::{self, Budget, Format};
use patchlab::kube::{Cluster, Evanphx, KubeVersion};

/// Understand and produce conflict-narrow Kubernetes JSON Patches.
#[derive(Debug, Parser)]
#[command(name = "patchlab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Apply a JSON Patch to a document, as kube-apiserver or strict RFC 6902 would.
    ///
    /// Prints the patched document as JSON. On failure, exits 1 and prints the
    /// failing op's index, op, path and cause (in kube mode also the HTTP status
    /// the server would answer). With --batch, reads JSON lines
    /// {"doc": ..., "patch": ...} from stdin and writes one result line each.
    Apply(apply::Args),
    /// Compute what a writer sends to turn OLD into NEW, under a preset and per-field strategies.
    ///
    /// Prints the payload (or body) by default; --format explain prints each op with
    /// its reason, the changed fields, the conflict surface and what the patch would
    /// overwrite. Exits 0 with "no changes" on stderr when OLD equals NEW.
    Diff(diff::Args),
    /// Replay a scenario of concurrent writers against a simulated API server.
    ///
    /// Prints each step (request, response, the hidden cause of a 422) and the
    /// outcomes: per writer the writes, 422s, 409s, retries, false and true
    /// conflicts, lost updates, and whether every intent holds at the end.
    Simulate(simulate::Args),
    /// Simulate a mass live migration: N VMIs, each patched by the VMI and migration
    /// controllers while virt-handler calls Update(), under each preset.
    Migrate(migrate::Args),
    /// Replay every interleaving of a small scenario (at most 3 writers, 8 events)
    /// under each preset and count failures, false conflicts, lost updates and
    /// unconverged endings.
    Explore(explore::Args),
    /// Check a patch for hazards: whole-map tests, unescaped keys, tests that never match, ...
    ///
    /// Reads a JSON patch or merge patch (JSON or YAML) or a `kubectl patch` command
    /// line; prints each finding with its rule, severity, op index, path, why and the
    /// rewritten ops. Exits 0 when nothing is at warning or above, 1 when something
    /// is, 2 when the input cannot be read. Rules: docs/lint.md.
    Lint(lint::Args),
    /// Find hazardous patches in a controller's Go source: whole-map tests, unguarded writes, ...
    ///
    /// Parses Go files (tree-sitter), follows how each function builds its JSON
    /// patches, merge bodies and controller-runtime patches, prints each payload's
    /// findings with file, line, function, the ops and a Go rewrite. Skips
    /// _test.go files and vendor/ unless asked. Exits 0 when nothing is at
    /// warning or above, 1 when something is, 2 when a PATH cannot be read.
    /// Rules: docs/lint.md; results on KubeVirt: docs/scan.md.
    Scan(scan::Args),
    /// Explain an error a Kubernetes write got: its cause, whether a retry helps, the fix.
    ///
    /// Reads what you paste: kubectl's message, a controller's log line, a Status JSON,
    /// an audit event, a Python, Java or JavaScript client's exception, evanphx/json-patch's
    /// own text. With --patch (and --object) it replays the patch on the engine of the
    /// release and names the failing op. Exits 0 when explained, 1 when the text is not
    /// recognised, 2 when an input cannot be read. Classes: docs/explain.md.
    Explain(explain::Args),
}

/// A failure the CLI reports: the message and the exit code.
#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
    broken_pipe: bool,
}

impl Failure {
    /// A failure with exit code 1.
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            code: 1,
            message: message.into(),
            broken_pipe: false,
        }
    }

    /// A failure with its own exit code; an empty message prints nothing.
    pub fn with_code(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            ..Failure::new(message)
        }
    }
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure {
            code: 1,
            broken_pipe: err.kind() == io::ErrorKind::BrokenPipe,
            message: format!("I/O error: {err}"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Where an input comes from: a file, or standard input for `-`.
#[derive(Clone, Debug)]
pub struct Source(PathBuf);

impl From<&std::ffi::OsStr> for Source {
    fn from(s: &std::ffi::OsStr) -> Self {
        Source(PathBuf::from(s))
    }
}

impl Source {
    /// Standard input.
    pub fn stdin() -> Source {
        Source(PathBuf::from("-"))
    }

    fn is_stdin(&self) -> bool {
        self.0.as_os_str() == "-"
    }

    fn name(&self) -> String {
        if self.is_stdin() {
            "<stdin>".to_owned()
        } else {
            self.0.display().to_string()
        }
    }

    /// Reads the whole input within the CLI budget.
    pub fn read(&self) -> Result<String, Failure> {
        let limit = Budget::cli().max_bytes;
        let mut bytes = Vec::new();
        let read = if self.is_stdin() {
            io::stdin()
                .lock()
                .take(limit as u64 + 1)
                .read_to_end(&mut bytes)
        } else {
            std::fs::File::open(&self.0)
                .and_then(|file| file.take(limit as u64 + 1).read_to_end(&mut bytes))
        };
        read.map_err(|err| Failure::new(format!("{}: {err}", self.name())))?;
        if bytes.len() > limit {
            return Err(Failure::new(format!(
                "{}: larger than the limit of {limit} bytes",
                self.name()
            )));
        }
        input::utf8(&bytes)
            .map(str::to_owned)
            .map_err(|err| Failure::new(format!("{}: {err}", self.name())))
    }

    /// Reads and parses JSON or YAML.
    pub fn parse(&self) -> Result<(String, serde_json::Value, Format), Failure> {
        let text = self.read()?;
        let (value, format) = input::parse(&text, &Budget::cli())
            .map_err(|err| Failure::new(format!("{}: {err}", self.name())))?;
        Ok((text, value, format))
    }
}

/// What a command prints (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// For people.
    Text,
    /// JSON.
    Json,
    /// SARIF 2.1.0.
    Sarif,
    /// A kubectl command line.
    Kubectl,
    /// Go code.
    Go,
    /// Rust code.
    Rust,
    /// An explanation.
    Explain,
}

impl Output {
    /// A `--format` parser offering a command's formats, each with what
    /// the command prints in it.
    pub fn choices(
        formats: &'static [(Output, &'static str)],
    ) -> impl TypedValueParser<Value = Output> {
        let values = formats.iter().map(|&(format, help)| {
            let value = format.to_possible_value();
            value.expect("no format is skipped").help(help)
        });
        PossibleValuesParser::new(values)
            .map(|name| Output::from_str(&name, false).expect("a format's name reads back"))
    }
}

/// `kube` or `rfc`, for clap.
pub fn parse_semantics(s: &str) -> Result<Semantics, patchlab::apply::UnknownSemantics> {
    s.parse()
}

/// `1.30`, `1.28.1`, ..., for clap: the error lists the accepted values.
pub fn parse_kube_version(s: &str) -> Result<KubeVersion, String> {
    s.parse()
        .map_err(|e: patchlab::kube::UnknownVersion| e.to_string())
}

/// `evanphx-v4.12.0`, ..., for clap: the error lists the accepted values.
pub fn parse_engine(s: &str) -> Result<Evanphx, String> {
    s.parse()
        .map_err(|e: patchlab::kube::UnknownEngine| e.to_string())
}

/// Which kube-apiserver is modelled: `--kube-version` and `--engine`.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct ClusterArgs {
    /// The Kubernetes release of the modelled kube-apiserver (its JSON patch
    /// engine and answers): 1.25 to 1.36, or 1.X.Y (1.28.0 and 1.28.1 ran
    /// evanphx/json-patch v5.6.0). Default: 1.36.
    #[arg(long = "kube-version", value_name = "X.Y", value_parser = parse_kube_version)]
    kube_version: Option<KubeVersion>,
    /// The JSON patch engine, overriding the release's own:
    /// evanphx-v5.6.0, evanphx-v4.12.0 or evanphx-v4.13.0.
    #[arg(long, value_name = "ENGINE", value_parser = parse_engine)]
    engine: Option<Evanphx>,
}

impl ClusterArgs {
    /// The release and engine chosen.
    pub fn cluster(&self) -> Cluster {
        Cluster::from_options(self.kube_version, self.engine)
    }

    /// Overrides what a scenario says of its server, for the flags given.
    pub fn override_scenario(&self, scenario: &mut patchlab::sim::timeline::Scenario) {
        if let Some(version) = self.kube_version {
            scenario.kubernetes = Some(version);
            if self.engine.is_none() {
                scenario.engine = None;
            }
        }
        if let Some(engine) = self.engine {
            scenario.engine = Some(engine);
        }
    }

    /// The engine under `semantics`: the cluster's in kube mode.
    pub fn engine(&self, semantics: Semantics) -> Engine {
        match semantics {
            Semantics::Rfc => Engine::Rfc,
            Semantics::Kube => self.cluster().into(),
        }
    }
}

/// A parser of a whole number from `min` to `max` for clap: its message
/// says the range (`must be a whole number from 1 to 100000`), for `-1`,
/// `1.5`, `ten` or a number out of range alike. The flag takes a leading
/// `-` as a value (`allow_negative_numbers`), so `--vms -1` is refused by
/// the range, not read as an unknown flag.
pub fn whole_number(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text: &str| {
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| format!("must be a whole number from {min} to {max}"))
    }
}

/// A preset name (`kubevirt-main`, ...), for clap.
pub fn parse_preset(
    s: &str,
) -> Result<patchlab::strategy::Preset, patchlab::strategy::UnknownName> {
    s.parse()
}

fn run(cli: Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match cli.command {
        Command::Apply(args) => apply::run(args, out),
        Command::Diff(args) => diff::run(args, out),
        Command::Simulate(args) => simulate::run(args, out),
        Command::Migrate(args) => migrate::run(args, out),
        Command::Explore(args) => explore::run(args, out),
        Command::Lint(args) => lint::run(args, out),
        Command::Scan(args) => scan::run(args, out),
        Command::Explain(args) => explain::run(args, out),
    }
}

impl Cli {
    /// Refuses list options over their budgets before any work starts
    /// (as clap refuses a bad value), counted once repeats are dropped:
    /// more distinct `--preset` names than
    /// [`OPTION_VALUES`](patchlab::limits::OPTION_VALUES), more `--set`
    /// paths than [`OVERRIDES`](patchlab::limits::OVERRIDES).
    fn check_lists(&self) -> Result<(), clap::Error> {
        let refused = match &self.command {
            Command::Migrate(args) => args.check_lists(),
            Command::Diff(args) => args.check_lists(),
            _ => None,
        };
        match refused {
            Some(message) => {
                Err(Cli::command().error(clap::error::ErrorKind::TooManyValues, message))
            }
            None => Ok(()),
        }
    }
}

/// Parses the arguments, runs, and picks the exit code (0 on a broken pipe).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(err) = cli.check_lists() {
        err.exit();
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(Failure::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.broken_pipe => ExitCode::SUCCESS,
        Err(failure) => {
            // Whatever was printed before the failure still goes out.
            let _ = out.flush();
            if !failure.message.is_empty() {
                eprintln!("patchlab: {}", terminal::message(&failure.message));
            }
            ExitCode::from(failure.code)
        }
    }
}
