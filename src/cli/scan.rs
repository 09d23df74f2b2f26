//! `patchlab scan`: Go source in, the patches it builds and their hazards
//! out, like a compiler's diagnostics (or JSON, or SARIF for CI).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use patchlab::lint::Severity;
use patchlab::scan::{self, report, Progress, Selection};

use super::terminal::printable;
use super::{whole_number, Failure, Output};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (Output::Text, "Compiler-style diagnostics"),
    (
        Output::Json,
        r#"{"files", "bytes", "findings": [...], "payloads": [...], "skipped": [...]}"#,
    ),
    (
        Output::Sarif,
        "SARIF 2.1.0, for CI systems that show findings inline",
    ),
];

/// The least severity shown (`--min-severity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MinSeverity {
    /// Everything, notes included.
    Note,
    /// Warnings and errors (default).
    Warning,
    /// Errors only.
    Error,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Go files or directories (walked recursively).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = Output::choices(FORMATS))]
    format: Output,
    /// Leave out paths matching this glob (repeatable), e.g. '**/zz_generated*.go'.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Also scan _test.go files.
    #[arg(long)]
    include_tests: bool,
    /// Also scan vendor/ directories.
    #[arg(long)]
    include_vendor: bool,
    /// Show findings at this severity or above.
    #[arg(long, value_enum, default_value = "warning")]
    min_severity: MinSeverity,
    /// Text format: also list every payload found, with or without findings.
    #[arg(long)]
    payloads: bool,
    /// Threads, 1 to 64 (default: the machine's cores, at most 64).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole_number(1, 64))]
    threads: Option<u64>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    let selection = Selection {
        include_tests: args.include_tests,
        include_vendor: args.include_vendor,
        exclude: args.exclude.clone(),
    };
    // Within 1 to 64 (clap checked the flag; the walk takes at most 64).
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |n| usize::try_from(n).unwrap_or(64),
    );
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let progress = |p: Progress| {
        if terminal {
            eprint!("\rscanning: {}/{} files", p.done, p.total);
        }
    };
    let result = scan::scan_paths(&args.paths, &selection, threads, &progress);
    if terminal {
        eprint!("\r\x1b[K");
    }
    let mut report = result.map_err(|err| Failure::with_code(2, err.to_string()))?;
    let elapsed = started.elapsed();
    report.keep_at_least(match args.min_severity {
        MinSeverity::Note => Severity::Note,
        MinSeverity::Warning => Severity::Warning,
        MinSeverity::Error => Severity::Error,
    });
    match args.format {
        Output::Json => {
            serde_json::to_writer_pretty(&mut *out, &report::json(&report))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Output::Sarif => {
            serde_json::to_writer_pretty(&mut *out, &report::sarif(&report))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        _ => {
            // Paths, Go literals and identifiers come from the tree: their
            // control characters are written as visible escapes, as `lint`
            // writes its reports.
            let text = report::text(&report, args.payloads);
            let text = printable(text.trim_end_matches('\n'));
            writeln!(out, "{text} in {:.2} s", elapsed.as_secs_f64())?;
        }
    }
    if report.files == 0 && !report.skipped.is_empty() {
        return Err(Failure::with_code(2, "no Go file could be read"));
    }
    if report.has_warnings() {
        return Err(Failure::with_code(1, String::new()));
    }
    Ok(())
}
