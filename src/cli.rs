//! The native command-line interface. The library works on values; this
//! module reads files, calls it, and maps errors to exit codes.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Understand and produce conflict-narrow Kubernetes JSON Patches.
#[derive(Debug, Parser)]
#[command(name = "patchlab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the version and the engines this build contains.
    Version,
}

/// An error the CLI reports: a message and the exit code to use.
#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure {
            code: 2,
            message: format!("I/O error: {err}"),
        }
    }
}

fn run(cli: Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match cli.command {
        Command::Version => {
            writeln!(out, "patchlab {}", patchlab::VERSION)?;
            Ok(())
        }
    }
}

/// Parses the arguments, runs, and picks the exit code (0 on a broken pipe).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(Failure::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.message.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("patchlab: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}
