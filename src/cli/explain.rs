//! `patchlab explain`: an error text in, its cause, whether a retry
//! helps and the fix out.

use std::io::Write;

use patchlab::explain::{self, Release, Request};

use super::{Failure, Output, Source};

/// What the command prints in each `--format`.
const FORMATS: &[(Output, &str)] = &[
    (
        Output::Text,
        "The class, the cause, retry, fix, sources and a Check link",
    ),
    (
        Output::Json,
        "The explanation as JSON (the JS API's `explain()` shape)",
    ),
];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The error text itself (quote it), or - (or nothing) to read it from stdin.
    text: Option<String>,
    /// The patch that was sent: a file holding a JSON patch or merge patch (JSON or
    /// YAML) or a `kubectl patch` command line; - for stdin.
    #[arg(long, value_name = "P")]
    patch: Option<Source>,
    /// The object as the server held it (JSON or YAML file; - for stdin): the patch
    /// is replayed on it to name the failing op.
    #[arg(long, value_name = "O")]
    object: Option<Source>,
    /// The cluster's Kubernetes release: any 1.X or 1.X.Y. 1.25 to 1.36 are replayed
    /// on their own engine, older and newer ones on the nearest (the answer says what
    /// differs). Default: 1.36.
    #[arg(long = "kube-version", value_name = "V", value_parser = parse_release)]
    kube_version: Option<Release>,
    /// The content type the patch was sent with: json, merge, strategic, apply or a
    /// media type.
    #[arg(long = "content-type", value_name = "T")]
    content_type: Option<String>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = Output::choices(FORMATS))]
    format: Output,
}

fn parse_release(text: &str) -> Result<Release, String> {
    text.parse()
        .map_err(|e: explain::NotARelease| e.to_string())
}

/// Exit status 2: an input could not be read.
fn unreadable(message: impl Into<String>) -> Failure {
    Failure::with_code(2, message)
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
    let text_from_stdin = args.text.as_deref().is_none_or(|t| t == "-");
    let stdin_users = usize::from(text_from_stdin)
        + usize::from(args.patch.as_ref().is_some_and(Source::is_stdin))
        + usize::from(args.object.as_ref().is_some_and(Source::is_stdin));
    if stdin_users > 1 {
        return Err(unreadable(
            "only one of TEXT, --patch and --object can be read from stdin",
        ));
    }
    let text = match args.text.as_deref() {
        Some(t) if t != "-" => t.to_owned(),
        _ => Source::stdin()
            .read()
            .map_err(|f| unreadable(f.to_string()))?,
    };
    // An optional file that cannot be read is left out, and said so
    // beside the explanation (explain reports the texts it cannot parse
    // the same way).
    let mut missing = Vec::new();
    let mut read = |input: &'static str, source: &Option<Source>| -> Option<String> {
        let source = source.as_ref()?;
        source
            .read()
            .map_err(|f| {
                missing.push(explain::Unread {
                    input,
                    message: f.to_string(),
                    line: None,
                    column: None,
                });
            })
            .ok()
    };
    let patch = read("patch", &args.patch);
    let object = read("object", &args.object);
    let request = Request {
        text: &text,
        patch: patch.as_deref(),
        object: object.as_deref(),
        kube_version: args.kube_version,
        content_type: args.content_type.as_deref(),
    };
    let mut explanation = explain::explain(&request).map_err(|err| unreadable(err.to_string()))?;
    explanation.unread.extend(missing);
    if args.format == Output::Json {
        serde_json::to_writer_pretty(&mut *out, &explanation).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        // The explanation quotes the user's texts (the error, the patch's
        // paths and values): what a terminal acts on is escaped, as in
        // `lint` and `simulate`.
        let text = explain::text(&explanation);
        out.write_all(super::terminal::printable(&text).as_bytes())?;
    }
    if !explanation.recognised {
        return Err(Failure::with_code(1, String::new()));
    }
    Ok(())
}
