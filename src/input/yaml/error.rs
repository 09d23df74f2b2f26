//! Why a YAML text cannot be read, where, and the words kubectl prints
//! for it: yaml.v2's problem texts, with its line numbering.

/// A position: characters from the start, 0-based line and column
/// (yaml.v2's `yaml_mark_t`; columns and the index count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    pub index: usize,
    pub line: usize,
    pub column: usize,
}

/// Who refused the text, which decides how Go writes the error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// yaml.v2's reader (`readerc.go`): `yaml: PROBLEM`, no line.
    Reader,
    /// yaml.v2's scanner (`scannerc.go`): `yaml: line N: PROBLEM`, the
    /// 1-based line of the problem (none on the first line).
    Scanner,
    /// yaml.v2's parser (`parserc.go`): `yaml: line N: PROBLEM` with N
    /// the problem's 0-based line (so one less than where it is).
    Parser,
    /// yaml.v2's decoder (`decode.go`, `failf`): `yaml: PROBLEM`.
    Decode,
    /// sigs.k8s.io/yaml's conversion to JSON, or Go's `encoding/json`:
    /// the problem as it is.
    Convert,
    /// patchlab's own budgets (size, depth, nodes): kubectl has none of
    /// them.
    Budget,
}

/// A refusal: its stage, yaml.v2's problem text, where it is, and where
/// the construct it belongs to starts (yaml.v2's `context_mark`: the
/// start of the file when yaml.v2 sets none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Error {
    pub stage: Stage,
    pub problem: String,
    pub mark: Mark,
    pub context: Mark,
    /// False for an error about the whole text (`input is empty`).
    pub located: bool,
}

impl Error {
    pub fn new(stage: Stage, problem: impl Into<String>, mark: Mark) -> Error {
        Error {
            stage,
            problem: problem.into(),
            mark,
            context: Mark::default(),
            located: true,
        }
    }

    /// An error about the whole text, at no line.
    pub fn unlocated(stage: Stage, problem: impl Into<String>) -> Error {
        Error {
            located: false,
            ..Error::new(stage, problem, Mark::default())
        }
    }

    pub fn with_context(mut self, context: Mark) -> Error {
        self.context = context;
        self
    }

    /// The error as Go prints it (`yaml: line 2: found unknown escape
    /// character`): yaml.v2's `parser.fail` for the reader, scanner and
    /// parser, `failf` for the decoder.
    pub fn go_text(&self) -> String {
        match self.stage {
            Stage::Reader | Stage::Decode => format!("yaml: {}", self.problem),
            Stage::Convert | Stage::Budget => self.problem.clone(),
            Stage::Scanner | Stage::Parser => {
                let line = if self.mark.line != 0 {
                    self.mark.line + usize::from(self.stage == Stage::Scanner)
                } else {
                    self.context.line
                };
                match line {
                    0 => format!("yaml: {}", self.problem),
                    line => format!("yaml: line {line}: {}", self.problem),
                }
            }
        }
    }
}
