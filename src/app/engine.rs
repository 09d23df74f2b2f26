//! The engines' protocol: the messages between a page and the Web Worker
//! that runs patchlab's engines (parse, diff, round trip, lint, exports),
//! and the work that answers them. Plain Rust, tested natively; the
//! worker and its client (`src/app/engine_worker.rs`) only move these
//! messages as JSON text, the way Scale's simulator runs
//! ([`crate::sim::scale`]). The page module holds none of the engines:
//! what a first paint needs (the shell, the editors, the layout) is all
//! that blocks the editors, and typing never waits for a diff
//! (docs/performance.md, "First load").
//!
//! The conversation (`id` chosen by the page, echoed in the answer):
//!
//! ```text
//! worker -> page  {"type":"ready"}                      (once: send nothing before)
//! page -> worker  {"type":"build","id":7,"job":{"revs":{...},"old":"...","new":"...","columns":[...],"kubernetes":"1.32"}}
//! worker -> page  {"type":"built","id":7,"answer":{"revs":{...},"old":{"rev":1},"new":{"rev":2,"error":{...}},"results":null}}
//! page -> worker  {"type":"lint","id":8,"body":"[...]"}
//! worker -> page  {"type":"linted","id":8,"report":{...}}  (or "failed" with a message)
//! page -> worker  {"type":"explain","id":9,"request":{"rev":4,"error":"...","patch":"...","object":"","kubernetes":null}}
//! worker -> page  {"type":"explained","id":9,"view":{...}}
//! page -> worker  {"type":"check","id":10,"request":{"rev":5,"patch":"...","object":"","semantics":"kube"}}
//! worker -> page  {"type":"checked","id":10,"checked":{...}}
//! ```
//!
//! The page reads a message's `type`, `id`, `kind` and `message` first
//! ([`wire`]); only the asker of a kind reads its answer's members, so a
//! module holds the readers of the answers it asks for and no others (the
//! Check module asks only for lint and explanations).
//!
//! Each kind of request is a channel: a newer request replaces an older
//! one of its kind still waiting in the worker ([`Inbox`]), and the page
//! drops an answer that is not to the latest request of its kind, so late
//! answers of replaced requests never reach a view. A new engine is a new
//! request kind here: nothing of it reaches the page module.
//!
//! ```
//! use patchlab::app::engine::{BuildJob, ColumnSpec, Engine, FromEngine, Revs, ToEngine};
//! use patchlab::strategy::Preset;
//!
//! let job = BuildJob {
//!     revs: Revs { old: 1, new: 2, columns: 3 },
//!     old: r#"{"metadata":{"labels":{}}}"#.into(),
//!     new: r#"{"metadata":{"labels":{"a":"b"}}}"#.into(),
//!     columns: vec![ColumnSpec::of(Preset::KubevirtMain)],
//!     kubernetes: Default::default(),
//! };
//! let mut engine = Engine::default();
//! let FromEngine::Built { id: 7, answer } = engine.answer(ToEngine::Build { id: 7, job }) else {
//!     panic!("a build answer");
//! };
//! let results = answer.results.clone().expect("both sides parse");
//! // kubevirt-main writes labels as a whole map, guarded by a test of it.
//! assert_eq!(results.columns[0].ops[0].op, "test");
//! assert_eq!(results.columns[0].ops[0].path, "/metadata/labels");
//! ```

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::input::{self, Budget, Format, InputError};
use crate::kube::KubeVersion;
use crate::lint::{self, Report, Rule};
use crate::patch::OpKind;
use crate::pointer::PointerBuf;
use crate::strategy::{
    self, Body, BodyKind, DiffError, FieldKind, Options, Overwrite, Plan, Precondition, Preset,
    RoundTrip, Side, Strategy,
};
use checked::{CheckRequest, Checked};
use explained::{ExplainRequest, ExplainView};
use raced::{ExploreRequest, Explored, RaceRequest, Raced};

/// Why Build's texts cannot be converted or formatted.
pub const CANNOT_CONVERT: &str =
    "Fix the parse error first: only text that parses can be converted or formatted.";

/// Why the engines could not rewrite Build's texts ([`Engine::convert`]):
/// the first side that does not parse, and where. Shown as
/// [`CANNOT_CONVERT`] (the editor of that side shows where).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    /// The side that does not parse.
    pub side: Side,
    /// Why, and where in its text.
    pub error: InputError,
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(CANNOT_CONVERT)
    }
}

/// Why a request asked of the engines did not come back answered (what a
/// view is told: Build's conversions, Check's explanations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailed {
    /// The engines refused the request (a side of a conversion does not
    /// parse: [`ConvertError`], as its words came over the wire).
    Refused(String),
    /// The engines could not answer: they did not load, start, or stopped,
    /// or their answer cannot be read (a worker of another version).
    Unavailable(String),
}

impl std::fmt::Display for EngineFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailed::Refused(why) | EngineFailed::Unavailable(why) => f.write_str(why),
        }
    }
}

/// Characters of an op's value shown in a column.
pub const VALUE_CHARS: usize = 120;

/// A message from the page to the engine worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ToEngine {
    /// Parse two objects and compute every result column (the Build view).
    Build {
        /// The page's number for this request.
        id: u32,
        /// What to compute.
        job: BuildJob,
    },
    /// Lint a patch body (JSON, YAML or a `kubectl patch` line) with the
    /// default options.
    Lint {
        /// The page's number for this request.
        id: u32,
        /// The body.
        body: String,
    },
    /// Rewrite both of Build's texts in a format, pretty (its Convert and
    /// Format actions: the page module carries no YAML reader).
    Convert {
        /// The page's number for this request.
        id: u32,
        /// The format to write.
        format: Format,
        /// The old object's text.
        old: Rc<str>,
        /// The new object's text.
        new: Rc<str>,
    },
    /// Explain Check's pasted error text with its patch, object and
    /// release (the Check module carries no explain engine).
    Explain {
        /// The page's number for this request.
        id: u32,
        /// What to explain.
        request: ExplainRequest,
    },
    /// Read texts as YAML (Race's writer intents and field overrides: the
    /// Race module carries no YAML reader).
    ReadYaml {
        /// The page's number for this request.
        id: u32,
        /// The texts, each read on its own.
        texts: Vec<Rc<str>>,
    },
    /// Lint Check's patch against its object (the Check module carries no
    /// linter).
    Check {
        /// The page's number for this request.
        id: u32,
        /// What to check.
        request: CheckRequest,
    },
    /// Replay Race's timeline (the Race module carries no simulator).
    Race {
        /// The page's number for this request.
        id: u32,
        /// What to replay.
        request: RaceRequest,
    },
    /// Explore every interleaving of Race's timeline.
    Explore {
        /// The page's number for this request.
        id: u32,
        /// What to explore.
        request: ExploreRequest,
    },
}

impl ToEngine {
    /// The request's number.
    pub fn id(&self) -> u32 {
        match self {
            ToEngine::Build { id, .. }
            | ToEngine::Lint { id, .. }
            | ToEngine::Convert { id, .. }
            | ToEngine::Explain { id, .. }
            | ToEngine::ReadYaml { id, .. }
            | ToEngine::Check { id, .. }
            | ToEngine::Race { id, .. }
            | ToEngine::Explore { id, .. } => *id,
        }
    }

    /// Its channel: a newer request of the same kind replaces it.
    pub fn kind(&self) -> RequestKind {
        match self {
            ToEngine::Build { .. } => RequestKind::Build,
            ToEngine::Lint { .. } => RequestKind::Lint,
            ToEngine::Convert { .. } => RequestKind::Convert,
            ToEngine::Explain { .. } => RequestKind::Explain,
            ToEngine::ReadYaml { .. } => RequestKind::ReadYaml,
            ToEngine::Check { .. } => RequestKind::Check,
            ToEngine::Race { .. } => RequestKind::Race,
            ToEngine::Explore { .. } => RequestKind::Explore,
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// [`ToEngine::Build`] as JSON text, written like
    /// [`ToEngine::explain_text`]: the page module then does not carry the
    /// writers of Race's requests (a scenario's, 5 KB gzip).
    pub fn build_text(id: u32, job: &BuildJob) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            Build { id: u32, job: &'a BuildJob },
        }
        serde_json::to_string(&One::Build { id, job }).unwrap_or_default()
    }

    /// [`ToEngine::Convert`] as JSON text, written like
    /// [`ToEngine::explain_text`].
    pub fn convert_text(id: u32, format: Format, old: &Rc<str>, new: &Rc<str>) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            Convert {
                id: u32,
                format: Format,
                old: &'a Rc<str>,
                new: &'a Rc<str>,
            },
        }
        serde_json::to_string(&One::Convert {
            id,
            format,
            old,
            new,
        })
        .unwrap_or_default()
    }

    /// [`ToEngine::Explain`] as JSON text, written by a writer of that
    /// request alone: a module that asks only for explanations (Check)
    /// then does not carry the writer of every request (4 KB of code).
    pub fn explain_text(id: u32, request: &ExplainRequest) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            Explain {
                id: u32,
                request: &'a ExplainRequest,
            },
        }
        serde_json::to_string(&One::Explain { id, request }).unwrap_or_default()
    }

    /// [`ToEngine::ReadYaml`] as JSON text, written like
    /// [`ToEngine::explain_text`] (Race asks for nothing else).
    pub fn read_yaml_text(id: u32, texts: &[Rc<str>]) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            ReadYaml { id: u32, texts: &'a [Rc<str>] },
        }
        serde_json::to_string(&One::ReadYaml { id, texts }).unwrap_or_default()
    }

    /// [`ToEngine::Check`] as JSON text, written like
    /// [`ToEngine::explain_text`].
    pub fn check_text(id: u32, request: &CheckRequest) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            Check { id: u32, request: &'a CheckRequest },
        }
        serde_json::to_string(&One::Check { id, request }).unwrap_or_default()
    }

    /// [`ToEngine::Race`] as JSON text, written like
    /// [`ToEngine::explain_text`].
    pub fn race_text(id: u32, request: &RaceRequest) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            Race { id: u32, request: &'a RaceRequest },
        }
        serde_json::to_string(&One::Race { id, request }).unwrap_or_default()
    }

    /// [`ToEngine::Explore`] as JSON text, written like
    /// [`ToEngine::explain_text`].
    pub fn explore_text(id: u32, request: &ExploreRequest) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        enum One<'a> {
            Explore {
                id: u32,
                request: &'a ExploreRequest,
            },
        }
        serde_json::to_string(&One::Explore { id, request }).unwrap_or_default()
    }

    /// Reads a message.
    ///
    /// # Errors
    ///
    /// [`FromEngine::Failed`] (id 0) saying why the text is not a message.
    pub fn from_json(text: &str) -> Result<ToEngine, FromEngine> {
        serde_json::from_str(text).map_err(|e| FromEngine::Failed {
            id: 0,
            kind: None,
            message: format!("not an engine request: {e}"),
        })
    }
}

/// The kinds of request (one channel each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestKind {
    /// [`ToEngine::Build`].
    Build,
    /// [`ToEngine::Lint`].
    Lint,
    /// [`ToEngine::Convert`].
    Convert,
    /// [`ToEngine::Explain`].
    Explain,
    /// [`ToEngine::ReadYaml`].
    ReadYaml,
    /// [`ToEngine::Check`].
    Check,
    /// [`ToEngine::Race`].
    Race,
    /// [`ToEngine::Explore`].
    Explore,
}

impl RequestKind {
    /// Every kind.
    pub const ALL: [RequestKind; 8] = [
        RequestKind::Build,
        RequestKind::Lint,
        RequestKind::Convert,
        RequestKind::Explain,
        RequestKind::ReadYaml,
        RequestKind::Check,
        RequestKind::Race,
        RequestKind::Explore,
    ];

    /// Its place in [`RequestKind::ALL`] (the page keeps one slot per
    /// kind in arrays: a map's code for five keys is not worth its bytes).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A message from the engine worker to the page.
///
/// Its reading is written out ([`wire`]): serde's derive for an
/// internally tagged enum buffers the whole message (the tag may come
/// last) and so instantiates every answer type twice, once for its
/// buffer; the page module only reads these messages, and the copy cost
/// it about 10 KiB gzip (docs/performance.md). A page reads the header
/// of a message, then the members of the answers it asked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FromEngine {
    /// The worker listens (sent once, first).
    Ready,
    /// The answer to [`ToEngine::Build`].
    Built {
        /// The request's number.
        id: u32,
        /// What was computed.
        answer: Rc<BuildAnswer>,
    },
    /// The answer to [`ToEngine::Lint`]: lint's report as JSON (the
    /// shape `patchlab lint --format json` prints).
    Linted {
        /// The request's number.
        id: u32,
        /// The report.
        report: Value,
    },
    /// The answer to [`ToEngine::Convert`]: both texts, rewritten.
    Converted {
        /// The request's number.
        id: u32,
        /// The old object's text.
        old: String,
        /// The new object's text.
        new: String,
    },
    /// The answer to [`ToEngine::Explain`]: the panel's texts (`None`: the
    /// error text is blank).
    Explained {
        /// The request's number.
        id: u32,
        /// What the panel shows.
        view: Option<Rc<ExplainView>>,
    },
    /// The answer to [`ToEngine::ReadYaml`]: each text's value or why it
    /// is not YAML, in the order asked.
    YamlRead {
        /// The request's number.
        id: u32,
        /// What each text reads as.
        values: Vec<ReadText>,
    },
    /// The answer to [`ToEngine::Check`]: what the view shows.
    Checked {
        /// The request's number.
        id: u32,
        /// What lint made of the texts.
        checked: Rc<Checked>,
    },
    /// The answer to [`ToEngine::Race`]: the replay, as shown.
    Raced {
        /// The request's number.
        id: u32,
        /// What the replay showed.
        raced: Rc<Raced>,
    },
    /// The answer to [`ToEngine::Explore`]: the explorer's table.
    Explored {
        /// The request's number.
        id: u32,
        /// What the exploration found.
        explored: Rc<Explored>,
    },
    /// A request could not be answered.
    Failed {
        /// The request's number (0: unreadable).
        id: u32,
        /// Its kind, when known.
        kind: Option<RequestKind>,
        /// Why.
        message: String,
    },
}

impl FromEngine {
    /// The number of the request answered (0 for `ready`).
    pub fn id(&self) -> u32 {
        match self {
            FromEngine::Ready => 0,
            FromEngine::Built { id, .. }
            | FromEngine::Linted { id, .. }
            | FromEngine::Converted { id, .. }
            | FromEngine::Explained { id, .. }
            | FromEngine::YamlRead { id, .. }
            | FromEngine::Checked { id, .. }
            | FromEngine::Raced { id, .. }
            | FromEngine::Explored { id, .. }
            | FromEngine::Failed { id, .. } => *id,
        }
    }

    /// The kind of request answered.
    pub fn kind(&self) -> Option<RequestKind> {
        match self {
            FromEngine::Ready => None,
            FromEngine::Built { .. } => Some(RequestKind::Build),
            FromEngine::Linted { .. } => Some(RequestKind::Lint),
            FromEngine::Converted { .. } => Some(RequestKind::Convert),
            FromEngine::Explained { .. } => Some(RequestKind::Explain),
            FromEngine::YamlRead { .. } => Some(RequestKind::ReadYaml),
            FromEngine::Checked { .. } => Some(RequestKind::Check),
            FromEngine::Raced { .. } => Some(RequestKind::Race),
            FromEngine::Explored { .. } => Some(RequestKind::Explore),
            FromEngine::Failed { kind, .. } => *kind,
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a message: its header, then its type's members.
    ///
    /// # Errors
    ///
    /// serde_json's error when the text is not a message.
    pub fn from_json(text: &str) -> Result<FromEngine, serde_json::Error> {
        wire::Header::read_checked(text)?.message(text)
    }
}

/// What a text asked of [`ToEngine::ReadYaml`] reads as.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReadText {
    /// Its value.
    Value(Value),
    /// Why it is not YAML, and where.
    Error(ParseError),
}

impl ReadText {
    /// Reads `text` as YAML, within lint's budget.
    pub fn of(text: &str) -> ReadText {
        match input::parse_as(text, Format::Yaml, &crate::lint::budget()) {
            Ok(value) => ReadText::Value(value),
            Err(error) => ReadText::Error(ParseError::from(&error)),
        }
    }

    /// Reads one as serde writes it (`{"value": ...}` or `{"error":
    /// {"message", "line"?, "column"?}}`), by hand: the modules that read
    /// answers (Race) then carry no derived reader (2 KB of code).
    pub fn from_value(value: Value) -> Option<ReadText> {
        let Value::Object(mut one) = value else {
            return None;
        };
        if one.len() != 1 {
            return None;
        }
        if let Some(value) = one.remove("value") {
            return Some(ReadText::Value(value));
        }
        let error = one.remove("error")?;
        let place = |key: &str| match error.get(key) {
            None => Some(None),
            Some(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()).map(Some),
        };
        Some(ReadText::Error(ParseError {
            message: error.get("message")?.as_str()?.to_owned(),
            line: place("line")?,
            column: place("column")?,
        }))
    }
}

/// Requests waiting in the worker: the latest of each kind, in arrival
/// order. A request replaced while it waits is never computed.
#[derive(Debug, Default)]
pub struct Inbox {
    waiting: Vec<ToEngine>,
}

impl Inbox {
    /// Takes in a request, dropping a waiting one of its kind.
    pub fn push(&mut self, request: ToEngine) {
        self.waiting.retain(|r| r.kind() != request.kind());
        self.waiting.push(request);
    }

    /// The oldest waiting request.
    pub fn pop(&mut self) -> Option<ToEngine> {
        (!self.waiting.is_empty()).then(|| self.waiting.remove(0))
    }

    /// True when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }
}

/// The page's side of the channels: numbers requests, and tells the
/// answers to the latest request of each kind from late ones.
#[derive(Debug, Default)]
pub struct Latest {
    next: u32,
    /// The latest number of each kind ([`RequestKind::index`]; 0: none).
    latest: [u32; RequestKind::ALL.len()],
}

impl Latest {
    /// The number of a new request of `kind` (it replaces the earlier ones).
    pub fn issue(&mut self, kind: RequestKind) -> u32 {
        self.next = self.next.wrapping_add(1).max(1);
        self.latest[kind.index()] = self.next;
        self.next
    }

    /// True when `answer` answers the latest request of its kind (or is
    /// no answer: `ready`, an unreadable request).
    pub fn current(&self, answer: &FromEngine) -> bool {
        self.is_latest(answer.kind(), answer.id())
    }

    /// True when request `id` of `kind` is the latest of its kind (or
    /// there is no kind: `ready`, an unreadable request).
    pub fn is_latest(&self, kind: Option<RequestKind>, id: u32) -> bool {
        match kind {
            Some(kind) => self.latest[kind.index()] == id && id != 0,
            None => true,
        }
    }
}

/// The revisions a Build result is computed from (the page's numbers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revs {
    /// The old side's.
    pub old: u64,
    /// The new side's.
    pub new: u64,
    /// The columns'.
    pub columns: u64,
}

/// A result column asked for: a preset and its per-field overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnSpec {
    /// The preset.
    pub preset: Preset,
    /// Strategy overrides by pointer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<PointerBuf, Strategy>,
}

impl ColumnSpec {
    /// A column of `preset` without overrides.
    pub fn of(preset: Preset) -> ColumnSpec {
        ColumnSpec {
            preset,
            overrides: BTreeMap::new(),
        }
    }

    /// The diff options of this column.
    pub fn options(&self) -> Options {
        let mut options = Options::preset(self.preset);
        for (path, strategy) in &self.overrides {
            options.policy.set_strategy(path.clone(), *strategy);
        }
        options
    }
}

/// What the Build view asks: two texts (JSON or YAML) and the columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildJob {
    /// The revisions the texts and columns are at (echoed).
    pub revs: Revs,
    /// The old object's text.
    pub old: Rc<str>,
    /// The new object's text.
    pub new: Rc<str>,
    /// The columns.
    pub columns: Vec<ColumnSpec>,
    /// The release the round trips run on.
    #[serde(default)]
    pub kubernetes: KubeVersion,
}

/// The first answer, computed at build time: the pre-rendered page
/// (`scripts/prerender.mjs`) carries the request its app sent on a fresh
/// visit to Build and the engine worker's answer, as server-rendered pages
/// carry their initial data, so the first result is shown as soon as the
/// page module runs instead of after the engine worker downloads. It
/// answers only the very same request (texts, columns, release, revisions).
///
/// The data block holds two lines: the request's job and the answer, each
/// as the JSON text the page and the worker sent, with `<` written
/// `\u003c` (so no text closes the HTML element). The job is compared as
/// text: the page module needs no reader for it.
pub struct Seed;

impl Seed {
    /// The data block for `job` and its `answer` (what
    /// `scripts/prerender.mjs` writes, from the messages' texts).
    pub fn text(job: &BuildJob, answer: &BuildAnswer) -> String {
        let escape = |text: String| text.replace('<', "\\u003c");
        format!(
            "{}\n{}",
            escape(serde_json::to_string(job).unwrap_or_default()),
            escape(serde_json::to_string(answer).unwrap_or_default())
        )
    }

    /// The answer in `text` (a data block), when `job` is the request it
    /// answers.
    ///
    /// # Errors
    ///
    /// serde_json's error when the answer's line is not an answer; `None`
    /// (not an error) when the request is another.
    pub fn answer_for(
        text: &str,
        job: &BuildJob,
    ) -> Result<Option<Rc<BuildAnswer>>, serde_json::Error> {
        let (asked, answer) = text.trim().split_once('\n').unwrap_or((text, ""));
        let this = serde_json::to_string(job)?.replace('<', "\\u003c");
        if asked != this {
            return Ok(None);
        }
        // Read as the worker's message is (one reader of answers in the
        // page module: a second monomorphised one cost 16 KB gzip).
        wire::built(&format!(r#"{{"answer":{answer}}}"#)).map(Some)
    }
}

/// Why a text did not parse, and where (an [`InputError`] on the wire).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// 1-based line, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl From<&InputError> for ParseError {
    fn from(e: &InputError) -> ParseError {
        ParseError {
            message: e.message.clone(),
            line: e.line,
            column: e.column,
        }
    }
}

impl From<&ParseError> for InputError {
    fn from(e: &ParseError) -> InputError {
        InputError {
            message: e.message.clone(),
            line: e.line,
            column: e.column,
        }
    }
}

/// One side's parse: the revision of the text parsed, and its error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parsed {
    /// The text's revision.
    pub rev: u64,
    /// Why it did not parse (`None`: it parsed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ParseError>,
}

/// What a Build request found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BuildAnswer {
    /// The revisions asked for.
    pub revs: Revs,
    /// The old side's parse.
    pub old: Option<Parsed>,
    /// The new side's parse.
    pub new: Option<Parsed>,
    /// Every result, when both texts parse.
    pub results: Option<Rc<Results>>,
}

/// Everything derived from both objects and the columns, as the views
/// show it (texts written once, by the engine: render only reads).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Per column.
    pub columns: Vec<ColumnResult>,
    /// Every changed path (in any column), with its kind and each column's
    /// strategy: the Fields table.
    pub fields: Vec<FieldRow>,
    /// The presets a column can choose for the new object
    /// ([`Preset::for_object`]: every preset, and `strategic` for a
    /// built-in kind). Decided here, so the schema tables stay in the
    /// worker; empty before the first answer (the view then offers
    /// [`Preset::ALL`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<Preset>,
}

/// One column's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColumnResult {
    /// The preset the column ran.
    pub preset: Preset,
    /// Why there is no plan (the diff's error), if there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What is sent: a JSON patch, a merge patch, an update or an apply.
    pub kind: BodyKind,
    /// Its content type.
    pub content_type: String,
    /// "2 ops · 180 bytes", or the content type and size of a body.
    pub summary: String,
    /// True when nothing needs to be sent.
    pub empty: bool,
    /// The ops sent (JSON patches).
    pub ops: Vec<OpResult>,
    /// Lint's findings about the body as a whole (not one op): all of a
    /// merge or strategic merge patch's, a JSON patch's about its size.
    /// The same as the Check view shows for the same bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingResult>,
    /// The texts of the rules its findings (the body's and the ops') name.
    /// Always sent: an answer without it is from engines of another
    /// version, and is refused as unreadable rather than shown without them.
    pub rules: Vec<RuleText>,
    /// The field manager of an apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_manager: Option<String>,
    /// The round-trip check.
    pub round_trip: RoundTripResult,
    /// Concurrent changes that make the patch fail (its conflict surface).
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes the patch would silently overwrite.
    pub overwrites: Vec<Overwrite>,
    /// Caveats.
    pub notes: Vec<String>,
    /// What is sent and the exports (`None` without a plan).
    pub texts: Option<Rc<Texts>>,
}

/// One op a column sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpResult {
    /// `add`, `remove`, `replace`, `move`, `copy` or `test`.
    pub op: String,
    /// The target (an escaped JSON Pointer).
    pub path: String,
    /// The value, cut to [`VALUE_CHARS`] (ops that take one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Why the strategy sends it.
    pub reason: String,
    /// True when no other column sends the same op.
    #[serde(default)]
    pub unique: bool,
    /// What lint finds on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingResult>,
}

impl OpResult {
    /// The op's kind.
    pub fn kind(&self) -> Option<OpKind> {
        OpKind::parse(&self.op)
    }
}

/// A lint finding on an op, as a column shows it (no fix).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingResult {
    /// Its position in the column's report.
    pub n: usize,
    /// The rule's name.
    pub rule: String,
    /// The path it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
    /// It has a fix.
    #[serde(default)]
    pub has_fix: bool,
}

/// The texts of a rule a column's findings name ([`ColumnResult::rules`]):
/// sent with the answer, once per rule, so the page module does not carry
/// the rule table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleText {
    /// The rule's name.
    pub rule: String,
    /// Why it matters ([`lint::RuleInfo::explanation`]).
    pub explanation: Rc<str>,
    /// What its fix does ([`lint::RuleInfo::fix`]).
    pub fix: Rc<str>,
}

impl RuleText {
    /// The texts of every rule `report` names, in rule order, each once.
    fn of(report: Option<&Report>) -> Vec<RuleText> {
        let mut named = [false; Rule::ALL.len()];
        for finding in report.map_or(&[][..], |report| &report.findings) {
            named[finding.rule as usize] = true;
        }
        Rule::ALL
            .into_iter()
            .filter(|rule| named[*rule as usize])
            .map(|rule| {
                let info = rule.info();
                RuleText {
                    rule: rule.as_str().to_owned(),
                    explanation: Rc::from(info.explanation),
                    fix: Rc::from(info.fix),
                }
            })
            .collect()
    }
}

impl FindingResult {
    /// Finding `f`, the `n`th shown.
    fn of(n: usize, f: &lint::Finding) -> Self {
        FindingResult {
            n,
            rule: f.rule.as_str().to_owned(),
            path: f.path.clone(),
            message: f.message.clone(),
            has_fix: f.fix.is_some(),
        }
    }

    /// The lint finding (without its fix), for the shared diagnostics
    /// component; `None` for a rule this build does not know.
    pub fn finding(&self) -> Option<lint::Finding> {
        let rule: Rule = self.rule.parse().ok()?;
        Some(lint::Finding {
            rule,
            severity: rule.severity(),
            index: None,
            path: self.path.clone(),
            message: self.message.clone(),
            fix: None,
            writers: Vec::new(),
            folded: None,
        })
    }
}

/// The round-trip check, as shown (read by [`wire`], as [`FromEngine`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "is", content = "why", rename_all = "kebab-case")]
pub enum RoundTripResult {
    /// old + patch = new.
    Exact,
    /// The server would refuse the patch (why, in words).
    Refused(String),
    /// It applies, but the result differs (where, in words).
    Differs(String),
    /// A server-side apply: depends on who owns which field.
    NotApplicable,
}

impl From<&RoundTrip> for RoundTripResult {
    fn from(round_trip: &RoundTrip) -> RoundTripResult {
        match round_trip {
            RoundTrip::Exact => RoundTripResult::Exact,
            RoundTrip::NotApplicable => RoundTripResult::NotApplicable,
            RoundTrip::Refused(_) => RoundTripResult::Refused(round_trip.to_string()),
            RoundTrip::Differs { .. } => RoundTripResult::Differs(round_trip.to_string()),
        }
    }
}

/// A column's texts, written once per result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    /// What is sent, byte for byte.
    pub payload: Rc<str>,
    /// The body as shown when it is not a list of ops: pretty JSON (a
    /// merge patch, an update) or YAML (an apply configuration).
    pub body: Option<Rc<str>>,
    /// The `kubectl` command that sends it (naming the new object).
    pub kubectl: Rc<str>,
    /// KubeVirt's patch builder in Go (JSON patches).
    pub go: Option<Rc<str>>,
    /// The same in Rust, with patchlab's builder (JSON patches).
    pub rust: Option<Rc<str>>,
}

impl Texts {
    fn of(plan: &Plan, new: &Value) -> Texts {
        let body = match &plan.body {
            Body::JsonPatch(_) => None,
            Body::MergePatch(body) | Body::Update(body) | Body::StrategicMergePatch(body) => {
                Some(input::to_json_pretty(body))
            }
            Body::Apply { config, .. } => Some(input::to_yaml(config)),
        };
        Texts {
            payload: Rc::from(plan.body_text()),
            body: body.map(Rc::from),
            kubectl: Rc::from(strategy::kubectl(plan, new)),
            go: strategy::go_code(plan).map(Rc::from),
            rust: strategy::rust_code(plan).map(Rc::from),
        }
    }
}

/// A row of the Fields table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldRow {
    /// The field's pointer.
    pub path: PointerBuf,
    /// Its kind.
    #[serde(with = "by_name")]
    pub kind: FieldKind,
    /// How it changed: `added`, `removed` or `modified`.
    pub change: String,
    /// The strategy per column (`None` where the column sends a
    /// whole-object body).
    pub strategies: Vec<Option<Strategy>>,
}

/// A type written as its name ([`std::fmt::Display`] and
/// [`std::str::FromStr`]).
mod by_name {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T: FromStr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let name = String::deserialize(d)?;
        name.parse()
            .map_err(|_| serde::de::Error::custom(format!("unknown name {name:?}")))
    }
}

/// The worker's state: the engines, and the last parse of each side (an
/// edit of one editor does not parse the other again).
#[derive(Default)]
pub struct Engine {
    old: CachedParse,
    new: CachedParse,
}

/// A side's last text and what it parsed to.
type CachedParse = Option<(Rc<str>, Result<Rc<Value>, InputError>)>;

impl Engine {
    /// Answers a request.
    pub fn answer(&mut self, request: ToEngine) -> FromEngine {
        match request {
            ToEngine::Build { id, job } => FromEngine::Built {
                id,
                answer: Rc::new(self.build(&job)),
            },
            ToEngine::Lint { id, body } => match lint::lint(&body, &lint::Options::default()) {
                Ok(report) => FromEngine::Linted {
                    id,
                    report: serde_json::to_value(&report).unwrap_or_default(),
                },
                Err(error) => FromEngine::Failed {
                    id,
                    kind: Some(RequestKind::Lint),
                    message: error.to_string(),
                },
            },
            ToEngine::Convert {
                id,
                format,
                old,
                new,
            } => match self.convert(format, &old, &new) {
                Ok((old, new)) => FromEngine::Converted { id, old, new },
                Err(error) => FromEngine::Failed {
                    id,
                    kind: Some(RequestKind::Convert),
                    message: error.to_string(),
                },
            },
            ToEngine::Explain { id, request } => FromEngine::Explained {
                id,
                view: request.answer(),
            },
            ToEngine::ReadYaml { id, texts } => FromEngine::YamlRead {
                id,
                values: texts.iter().map(|text| ReadText::of(text)).collect(),
            },
            ToEngine::Check { id, request } => FromEngine::Checked {
                id,
                checked: Rc::new(request.answer()),
            },
            ToEngine::Race { id, request } => FromEngine::Raced {
                id,
                raced: Rc::new(request.answer()),
            },
            ToEngine::Explore { id, request } => FromEngine::Explored {
                id,
                explored: Rc::new(request.answer()),
            },
        }
    }

    /// Both texts written in `format` (pretty), or why not: only text that
    /// parses can be rewritten.
    ///
    /// # Errors
    ///
    /// [`ConvertError`]: the first side that does not parse, and where.
    pub fn convert(
        &mut self,
        format: Format,
        old: &Rc<str>,
        new: &Rc<str>,
    ) -> Result<(String, String), ConvertError> {
        let unparsed = |side| move |error| ConvertError { side, error };
        let old = parse_cached(&mut self.old, old).map_err(unparsed(Side::Old))?;
        let new = parse_cached(&mut self.new, new).map_err(unparsed(Side::New))?;
        Ok((input::write(&old, format), input::write(&new, format)))
    }

    /// Parses both sides (the cached parse when a text did not change)
    /// and, when both parse, computes every column.
    pub fn build(&mut self, job: &BuildJob) -> BuildAnswer {
        let old = parse_cached(&mut self.old, &job.old);
        let new = parse_cached(&mut self.new, &job.new);
        let parsed = |rev: u64, result: &Result<Rc<Value>, InputError>| Parsed {
            rev,
            error: result.as_ref().err().map(ParseError::from),
        };
        let results = match (&old, &new) {
            (Ok(old), Ok(new)) => Some(Rc::new(compute(old, new, &job.columns, job.kubernetes))),
            _ => None,
        };
        BuildAnswer {
            revs: job.revs,
            old: Some(parsed(job.revs.old, &old)),
            new: Some(parsed(job.revs.new, &new)),
            results,
        }
    }
}

fn parse_cached(cache: &mut CachedParse, text: &Rc<str>) -> Result<Rc<Value>, InputError> {
    if let Some((cached, result)) = cache.as_ref() {
        if **cached == **text {
            return result.clone();
        }
    }
    let result = input::parse(text, &Budget::default()).map(|(value, _)| Rc::new(value));
    *cache = Some((Rc::clone(text), result.clone()));
    result
}

/// Every column and the Fields table for two parsed objects.
pub fn compute(
    old: &Value,
    new: &Value,
    columns: &[ColumnSpec],
    kubernetes: KubeVersion,
) -> Results {
    let plans: Vec<Result<Plan, DiffError>> = columns
        .iter()
        .map(|column| strategy::diff(old, new, &column.options()))
        .collect();
    let sent: Vec<Vec<String>> = plans
        .iter()
        .map(|plan| match plan {
            Ok(plan) => plan
                .ops()
                .unwrap_or_default()
                .iter()
                .map(|p| p.op.to_json())
                .collect(),
            Err(_) => Vec::new(),
        })
        .collect();
    let fields = field_rows(&plans);
    let columns = plans
        .iter()
        .zip(columns)
        .enumerate()
        .map(|(i, (plan, column))| {
            let unique = |k: usize| {
                sent.len() > 1
                    && sent.iter().enumerate().all(|(j, other)| {
                        j == i || sent[i].get(k).is_none_or(|op| !other.contains(op))
                    })
            };
            column_result(old, new, column, plan, kubernetes, unique)
        })
        .collect();
    Results {
        columns,
        fields,
        presets: Preset::for_object(new),
    }
}

fn column_result(
    old: &Value,
    new: &Value,
    column: &ColumnSpec,
    plan: &Result<Plan, DiffError>,
    kubernetes: KubeVersion,
    unique: impl Fn(usize) -> bool,
) -> ColumnResult {
    let plan = match plan {
        Ok(plan) => plan,
        Err(error) => {
            return ColumnResult {
                preset: column.preset,
                error: Some(error.to_string()),
                kind: BodyKind::JsonPatch,
                content_type: String::new(),
                summary: String::new(),
                empty: true,
                ops: Vec::new(),
                findings: Vec::new(),
                field_manager: None,
                round_trip: RoundTripResult::NotApplicable,
                conflicts: Vec::new(),
                overwrites: Vec::new(),
                notes: Vec::new(),
                texts: None,
                rules: Vec::new(),
            }
        }
    };
    let options = column.options();
    let round_trip = strategy::round_trip_on(old, new, plan, &options.policy, kubernetes);
    let kind = new.get("kind").and_then(Value::as_str);
    let report = lint::lint_plan(plan, kind);
    let texts = Texts::of(plan, new);
    let ops = plan
        .ops()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(k, planned)| op_result(k, planned, unique(k), report.as_ref()))
        .collect();
    let findings = report
        .as_ref()
        .map(|report| {
            report
                .findings
                .iter()
                .enumerate()
                .filter(|(_, f)| f.index.is_none())
                .map(|(n, f)| FindingResult::of(n, f))
                .collect()
        })
        .unwrap_or_default();
    ColumnResult {
        preset: column.preset,
        error: None,
        kind: plan.body.kind(),
        content_type: plan.body.content_type().to_owned(),
        summary: summary(plan, &texts),
        empty: plan.is_empty(),
        ops,
        findings,
        rules: RuleText::of(report.as_ref()),
        field_manager: match &plan.body {
            Body::Apply { field_manager, .. } => Some(field_manager.clone()),
            _ => None,
        },
        round_trip: RoundTripResult::from(&round_trip),
        conflicts: plan.conflicts.clone(),
        overwrites: plan.overwrites.clone(),
        notes: plan.notes.clone(),
        texts: Some(Rc::new(texts)),
    }
}

fn op_result(
    k: usize,
    planned: &strategy::PlannedOp,
    unique: bool,
    report: Option<&Report>,
) -> OpResult {
    let op = &planned.op;
    OpResult {
        op: op.op.as_str().to_owned(),
        path: op.path.clone(),
        value: op
            .value
            .as_ref()
            .filter(|_| op.op.takes_value())
            .map(|v| crate::text::elide_value(v, VALUE_CHARS)),
        reason: planned.reason.to_string(),
        unique,
        findings: report
            .map(|report| {
                report
                    .on_op(k)
                    .enumerate()
                    .map(|(n, f)| FindingResult::of(n, f))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// "2 ops · 180 bytes", or the content type and size of a body.
fn summary(plan: &Plan, texts: &Texts) -> String {
    let bytes = texts.payload.len();
    match &plan.body {
        Body::JsonPatch(ops) => format!(
            "{} op{} · {bytes} bytes",
            ops.len(),
            if ops.len() == 1 { "" } else { "s" },
        ),
        _ => format!("{} · {bytes} bytes", plan.body.content_type()),
    }
}

/// Rows of the Fields table: every changed path (in any column), with its
/// kind and each column's strategy, in path order.
fn field_rows(plans: &[Result<Plan, DiffError>]) -> Vec<FieldRow> {
    let mut rows: BTreeMap<PointerBuf, FieldRow> = BTreeMap::new();
    for (i, plan) in plans.iter().enumerate() {
        let Ok(plan) = plan else {
            continue;
        };
        for field in &plan.fields {
            let row = rows.entry(field.path.clone()).or_insert_with(|| FieldRow {
                path: field.path.clone(),
                kind: field.kind,
                change: field.change.as_str().to_owned(),
                strategies: vec![None; plans.len()],
            });
            if let Some(slot) = row.strategies.get_mut(i) {
                *slot = Some(field.strategy);
            }
        }
    }
    rows.into_values().collect()
}

pub mod checked;
pub mod explained;
pub mod raced;
pub mod wire;

#[cfg(test)]
mod tests;
