//! Where an unreadable patch stops being readable, for a decode error: the
//! line, the column and the character, as the reader that refused it
//! sees it (kube-apiserver decodes JSON; kubectl reads `-p` as YAML first,
//! sigs.k8s.io/yaml `YAMLToJSON`).

use serde::Serialize;

use super::Explanation;
use crate::input::{self, Format};
use crate::vocabulary::ErrorClass;

/// The character where a patch stops being readable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DecodeAt {
    /// What was read: `the patch given` or `the patch kubectl quotes`.
    pub what: &'static str,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The character there (`None`: the text ends first).
    pub character: Option<char>,
    /// The reader's complaint.
    pub message: String,
}

impl DecodeAt {
    /// In a sentence.
    pub fn sentence(&self) -> String {
        let at = match self.character {
            Some(c) => format!("at the character {c:?}"),
            None => "where the text ends".to_owned(),
        };
        format!(
            "{} cannot be read {at}, line {}, column {}: {}.",
            capital(self.what),
            self.line,
            self.column,
            self.message
        )
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// For a decode error (or a wrong content type): where the patch given,
/// or the one kubectl quotes in `unable to parse "..."`, stops being
/// readable.
pub(super) fn locate(e: &Explanation, patch: Option<&str>, text: &str) -> Option<DecodeAt> {
    let first = e.class.or_else(|| e.candidates.first().map(|c| c.class))?;
    if !matches!(first, ErrorClass::DecodeError | ErrorClass::ContentType) {
        return None;
    }
    let quoted = kubectl_quoted(text);
    let (what, source, format) = match (patch, &quoted) {
        (Some(p), _) if !p.trim_start().starts_with("kubectl") => {
            ("the patch given", p, Format::Json)
        }
        (_, Some(q)) => ("the patch kubectl quotes", q.as_str(), Format::Yaml),
        _ => return None,
    };
    let format = if quoted.is_some() {
        Format::Yaml
    } else {
        format
    };
    let err = match format {
        Format::Json => {
            let err = serde_json::from_str::<serde_json::Value>(source).err()?;
            (err.line(), err.column(), err.to_string())
        }
        Format::Yaml => {
            let err = input::parse_as(source, Format::Yaml, &input::Budget::default()).err()?;
            (err.line?, err.column.unwrap_or(1), err.message)
        }
    };
    let (line, column, message) = err;
    let character = source
        .lines()
        .nth(line.saturating_sub(1))
        .and_then(|l| l.chars().nth(column.saturating_sub(1)));
    Some(DecodeAt {
        what,
        line,
        column,
        character,
        message,
    })
}

/// The text kubectl could not parse: `unable to parse "X": ...` (kubectl
/// `pkg/cmd/patch/patch.go` `RunPatch`, `%q` of the `-p` text).
fn kubectl_quoted(text: &str) -> Option<String> {
    let i = text.find("unable to parse \"")?;
    super::read::go_unquote(&text[i + "unable to parse ".len()..]).map(|(s, _)| s)
}
