//! Every size and count limit in one place: what kube-apiserver refuses
//! (its limits, with their sources), and patchlab's own budgets for what
//! users hand it (objects, scenarios, simulations), so that no input can
//! cost more than these.
//!
//! The interleaving explorer's own bounds live beside it
//! ([`crate::sim::explore::EXPLORE_WRITERS`]): they bound a factorial,
//! not an input.

// ---------------------------------------------------------------- the server

/// kube-apiserver's default request body limit (`MaxRequestBodyBytes`,
/// 3 MiB): a larger body is answered 413.
pub const MAX_BODY_BYTES: usize = 3 * 1024 * 1024;

/// kube-apiserver refuses a JSON patch with more operations than this
/// (413, `maxJSONPatchOperations` in the PATCH handler).
pub const MAX_OPS: usize = 10_000;

/// kube-apiserver caps the bytes `copy` ops may add to a document
/// (evanphx's `AccumulatedCopySizeLimit`, set from `MaxRequestBodyBytes`).
pub const COPY_LIMIT: usize = 3 * 1024 * 1024;

// ------------------------------------------------------------ patchlab's own

/// The largest object, patch or scenario text read (bytes). kube-apiserver
/// refuses request bodies above 3 MiB and etcd objects above 1.5 MiB;
/// 4 MiB covers any real object.
pub const OBJECT_BYTES: usize = 4 * 1024 * 1024;

/// The largest file the command-line tools read (bytes).
pub const CLI_BYTES: usize = 64 * 1024 * 1024;

/// Deepest nesting of objects and arrays read (serde_json's own limit;
/// real objects stay far below it).
pub const DEPTH: usize = 128;

/// Most nodes one YAML document may produce, aliases expanded (alias bombs
/// stop here).
pub const YAML_NODES: usize = 2_000_000;

/// Go's `maxNestingDepth` in `encoding/json`: the strict decode of a body
/// refuses deeper nesting.
pub const GO_NESTING: usize = 10_000;

/// Most lines of a schema table text (`schema::Table::parse`; the
/// compiled-in tables hold about 1,200 each).
pub const SCHEMA_TABLE_LINES: usize = 200_000;

/// Deepest nesting of a CustomResourceDefinition's schema read (real CRDs
/// stay below 30).
pub const CRD_DEPTH: usize = 64;

/// Most schema nodes of a CustomResourceDefinition read (KubeVirt's
/// largest CRD holds about 10,000).
pub const CRD_NODES: usize = 200_000;

/// Most writers in one scenario (scenarios also come from links).
pub const SCENARIO_WRITERS: usize = 16;

/// Most events in one scenario's schedule.
pub const SCENARIO_EVENTS: usize = 400;

/// Most objects in one scenario.
pub const SCENARIO_OBJECTS: usize = 16;

/// The most bytes of objects one replay keeps: each step keeps the object
/// it wrote, so a scenario's objects (their JSON) times its events. A
/// 3 MB object written 400 times would otherwise take gigabytes.
pub const REPLAY_BYTES: usize = 32 * 1024 * 1024;

/// Most intents per writer.
pub const WRITER_INTENTS: usize = 64;

/// The most VMIs one mass-migration run simulates.
pub const MIGRATE_VMS: usize = 100_000;

/// The most extra writers per VMI in a mass-migration run.
pub const MIGRATE_CHURN: usize = 8;

/// The largest retry budget of a mass-migration run.
pub const MIGRATE_RETRIES: u32 = 8;

/// The largest error text `explain` reads (bytes): a 12 MB kubectl line
/// (a request body logged whole) fits.
pub const EXPLAIN_TEXT_BYTES: usize = 16 * 1024 * 1024;

/// The most JSON values `explain` parses out of one text (a JSON log has
/// one per line).
pub const EXPLAIN_JSON_VALUES: usize = 10_000;

/// The most strings `explain` keeps from one text to match against.
pub const EXPLAIN_STRINGS: usize = 2_000;

/// The most nodes `explain` walks in one JSON value looking for a Status.
pub const EXPLAIN_NODES: usize = 100_000;

/// Findings of one lint rule listed one by one; past this many, the rest
/// are folded into one finding with their count and one fix.
pub const LINT_SHOWN_PER_RULE: usize = 5;

/// The ops all the fixes of one lint report may hold together: this many
/// times the patch's op count, plus [`LINT_FIX_OPS_BASE`].
pub const LINT_FIX_OPS_PER_OP: usize = 8;

/// See [`LINT_FIX_OPS_PER_OP`].
pub const LINT_FIX_OPS_BASE: usize = 4096;

/// Paths with more tokens than this are left out of lint's path index (no
/// object nests that deep).
pub const LINT_PATH_TOKENS: usize = 512;

/// The longest member path the walks over a merge or strategic merge body
/// go into (bytes): lint's rules and the overwrites a body is said to make.
/// A member below is left out of them (the engines still apply it), so
/// each member costs at most this much however long the keys above it
/// are. Real paths are far shorter (a label key is at most 317 bytes).
pub const MEMBER_PATH_BYTES: usize = 4096;

/// The most words lint's shell reader splits a command text into.
pub const SHELL_WORDS: usize = 100_000;

/// The most notes one strategy plan lists (one per field at most; past
/// this, a count).
pub const PLAN_NOTES: usize = 100;

/// The longest link fragment the playground opens (bytes).
pub const LINK_FRAGMENT: usize = 512 * 1024;

// ------------------------------------------------------------ option lists

/// The most values one list option takes (`--preset` flags, `presets: [...]`).
/// Duplicates are dropped first; more values than this is an error before
/// any work starts (20,000 `--preset` flags once ran 20,000 simulations).
pub const OPTION_VALUES: usize = 64;

/// The most per-path strategy overrides of one diff (`--set`, `overrides`).
pub const OVERRIDES: usize = 1_000;

/// The longest text of one option value (a preset or engine name, a field
/// manager, an override's path): far above any real one.
pub const OPTION_TEXT: usize = 4 * 1024;
