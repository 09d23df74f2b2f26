//! The words patchlab uses for what happens to a write, defined once.
//!
//! Every view of the playground, every CLI output and the JS API name
//! outcomes with these terms and explain them with these definitions, so
//! "false conflict" means the same thing in the Race table, the Scale
//! charts, a walkthrough and `patchlab migrate`.
//!
//! ```
//! use patchlab::vocabulary::Term;
//!
//! assert_eq!(Term::FalseConflict.label(), "False conflicts");
//! assert!(Term::FalseConflict.definition().contains("would have undone no change another writer made"));
//! assert!(Term::NeedlessFailure.definition().starts_with("Judged on the intent"));
//! assert_eq!(Term::parse("lost-update"), Some(Term::LostUpdate));
//! ```

use serde::Serialize;

mod error_class;

pub use error_class::ErrorClass;

/// One term of the vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Term {
    /// Requests sent.
    Writes,
    /// Writes the server accepted.
    Ok,
    /// 422 answers.
    Invalid,
    /// 409 answers.
    Conflict,
    /// Other failures.
    OtherErrors,
    /// Re-read and wrote again.
    Retries,
    /// Failed, though the request, forced, would have undone no change
    /// another writer made since the read (judged on the request).
    FalseConflict,
    /// Needless failures whose failing test was on a map.
    NeedlessFailureOnMap,
    /// Failed, and the request, forced, would have undone another writer's
    /// change: the failure kept it (judged on the request).
    TrueConflict,
    /// Failed, though the writer's intent, done afresh, would have undone
    /// no change another writer made since the read (judged on the intent).
    NeedlessFailure,
    /// Failed, and the writer's intent, done afresh, would have undone
    /// another writer's change (judged on the intent).
    ClashingIntent,
    /// A change erased by a write whose writer had not read it.
    LostUpdate,
    /// Attempts used up.
    GaveUp,
    /// Last write failed, and no retry was scheduled after it.
    NotRetried,
    /// The writer's intent holds at the end.
    IntentHolds,
    /// Some intent does not hold at the end.
    IntentNotHeld,
    /// What makes a patch fail.
    ConflictSurface,
    /// What a patch writes without a guard.
    SilentOverwrite,
}

/// The count columns of a replay's outcomes (per writer), in order: the
/// Race view's outcomes table and `patchlab simulate` show exactly these.
pub const REPLAY_COLUMNS: [Term; 10] = [
    Term::Writes,
    Term::Ok,
    Term::Invalid,
    Term::Conflict,
    Term::Retries,
    Term::FalseConflict,
    Term::TrueConflict,
    Term::LostUpdate,
    Term::GaveUp,
    Term::NeedlessFailure,
];

/// The count columns comparing presets on one scenario, in order: the
/// Race view's "under each preset" table (then who does not hold their
/// intent).
pub const COMPARE_COLUMNS: [Term; 7] = [
    Term::Writes,
    Term::Invalid,
    Term::Conflict,
    Term::FalseConflict,
    Term::TrueConflict,
    Term::LostUpdate,
    Term::NeedlessFailure,
];

/// The count columns of a mass migration (per preset), in order:
/// `patchlab migrate` shows exactly these.
pub const MIGRATION_COLUMNS: [Term; 10] = [
    Term::Writes,
    Term::Ok,
    Term::Invalid,
    Term::Conflict,
    Term::FalseConflict,
    Term::NeedlessFailureOnMap,
    Term::TrueConflict,
    Term::LostUpdate,
    Term::Retries,
    Term::NeedlessFailure,
];

impl Term {
    /// Every term, in the order the glossary lists them.
    pub const ALL: [Term; 18] = [
        Term::Writes,
        Term::Ok,
        Term::Invalid,
        Term::Conflict,
        Term::OtherErrors,
        Term::Retries,
        Term::FalseConflict,
        Term::NeedlessFailureOnMap,
        Term::TrueConflict,
        Term::NeedlessFailure,
        Term::ClashingIntent,
        Term::LostUpdate,
        Term::GaveUp,
        Term::NotRetried,
        Term::IntentHolds,
        Term::IntentNotHeld,
        Term::ConflictSurface,
        Term::SilentOverwrite,
    ];

    /// The stable id, for links (`#/glossary/false-conflict`) and JSON.
    pub fn id(self) -> &'static str {
        match self {
            Term::Writes => "writes",
            Term::Ok => "ok",
            Term::Invalid => "invalid",
            Term::Conflict => "conflict",
            Term::OtherErrors => "other-errors",
            Term::Retries => "retries",
            Term::FalseConflict => "false-conflict",
            Term::NeedlessFailureOnMap => "needless-failure-on-map",
            Term::TrueConflict => "true-conflict",
            Term::NeedlessFailure => "needless-failure",
            Term::ClashingIntent => "clashing-intent",
            Term::LostUpdate => "lost-update",
            Term::GaveUp => "gave-up",
            Term::NotRetried => "not-retried",
            Term::IntentHolds => "intent-holds",
            Term::IntentNotHeld => "intent-not-held",
            Term::ConflictSurface => "conflict-surface",
            Term::SilentOverwrite => "silent-overwrite",
        }
    }

    /// The term by its id.
    pub fn parse(id: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.id() == id)
    }

    /// The name shown where a count is shown (a table header, a chart
    /// title, a CLI column).
    pub fn label(self) -> &'static str {
        match self {
            Term::Writes => "Writes",
            Term::Ok => "OK",
            Term::Invalid => "422 Invalid",
            Term::Conflict => "409 Conflict",
            Term::OtherErrors => "Other errors",
            Term::Retries => "Retries",
            Term::FalseConflict => "False conflicts",
            Term::NeedlessFailureOnMap => "Needless failures on maps",
            Term::TrueConflict => "True conflicts",
            Term::NeedlessFailure => "Needless failures (intent)",
            Term::ClashingIntent => "Clashing intents",
            Term::LostUpdate => "Lost updates",
            Term::GaveUp => "Gave up",
            Term::NotRetried => "Never retried",
            Term::IntentHolds => "Intent holds",
            Term::IntentNotHeld => "Intent does not hold",
            Term::ConflictSurface => "Fails if another writer changed",
            Term::SilentOverwrite => "Silently overwrites",
        }
    }

    /// A short column name for tables in a terminal (`422`, `false`).
    pub fn short(self) -> &'static str {
        match self {
            Term::Writes => "writes",
            Term::Ok => "ok",
            Term::Invalid => "422",
            Term::Conflict => "409",
            Term::OtherErrors => "other",
            Term::Retries => "retries",
            Term::FalseConflict => "false",
            Term::NeedlessFailureOnMap => "on maps",
            Term::TrueConflict => "true",
            Term::NeedlessFailure => "needless",
            Term::ClashingIntent => "clash",
            Term::LostUpdate => "lost",
            Term::GaveUp => "gave up",
            Term::NotRetried => "never retried",
            Term::IntentHolds => "intent holds",
            Term::IntentNotHeld => "not held",
            Term::ConflictSurface => "fails if",
            Term::SilentOverwrite => "overwrites",
        }
    }

    /// A legend for the terms a table used: one `short: definition` line
    /// each.
    pub fn legend(terms: &[Term]) -> String {
        terms
            .iter()
            .map(|t| format!("{}: {}", t.short(), t.definition()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A one-line definition a newcomer understands.
    pub fn definition(self) -> &'static str {
        match self {
            Term::Writes => "Requests a writer sent: JSON patches, merge patches, strategic merge patches, server-side applies and Updates.",
            Term::Ok => "Writes the server accepted (200), including those that changed nothing.",
            Term::Invalid => "The server refused a JSON patch because one of its ops failed (a failed test, a remove of a missing member): the whole patch is dropped. Clients cannot tell it from a validation error, and client-go's RetryOnConflict does not retry it.",
            Term::Conflict => "The write carried a stale resourceVersion (an Update, or a merge patch that pins it), or a server-side apply changed a field another manager owns.",
            Term::OtherErrors => "Any other failure: 400, 404, 413, 415 (a strategic merge patch to a custom resource), 500.",
            Term::Retries => "After a failure, the writer re-read the object, recomputed its write and sent it again.",
            Term::FalseConflict => "Judged on the request: a write failed (422 or 409), and its request as sent, forced onto the object as it stood (its tests, resourceVersion and field ownership set aside), would have undone no change another writer made since this writer's read (an intent of theirs that their own successful write made hold, holding still, not in this read). It failed for nothing.",
            Term::NeedlessFailureOnMap => "A needless failure whose failing test was on a map (labels, annotations, activePods) or a key inside one: the writer meant to change one key, and its test guarded the whole map. What per-key patches remove.",
            Term::TrueConflict => "Judged on the request: a write failed (422 or 409), and its request as sent, forced onto the object as it stood (its tests, resourceVersion and field ownership set aside), would have undone a change another writer made since this writer's read (an intent of theirs that their own successful write made hold, holding still, not in this read). The failure kept that change, even when the writer meant to change something else (a stale Update, a whole-map replace).",
            Term::NeedlessFailure => "Judged on the intent: a write failed (422 or 409), and what its writer meant, done afresh on the object as it stood, would have undone no change another writer made since its read (an intent of theirs that their own successful write made hold, holding still, not in this read). A request built from a fresh read keeps every such change.",
            Term::ClashingIntent => "Judged on the intent: a write failed (422 or 409), and what its writer meant, done afresh on the object as it stood, would have undone a change another writer made since its read (an intent of theirs that their own successful write made hold, holding still, not in this read). The writers want different things: a retry from a fresh read overwrites that change on purpose.",
            Term::LostUpdate => "A successful write erased a change another writer made after this writer's read, and nothing told it. Undoing a change it had read is a deliberate overwrite, not a lost update.",
            Term::GaveUp => "The writer used up its attempts without a successful write.",
            Term::NotRetried => "The writer's last write failed and no retry was scheduled after it: the timeline ends before it writes again (a real controller requeues and writes again later).",
            Term::IntentHolds => "At the end, the object shows everything the writer meant to change.",
            Term::IntentNotHeld => "At the end, the object lacks something a writer meant to change, and patchlab says why: the writer gave up, its last write failed and no retry was scheduled, it never wrote, another writer's write erased its change (a lost update) or overwrote it after reading it, or its own write did not make it.",
            Term::ConflictSurface => "The concurrent changes that make this patch fail: every test guards its path and what lies under it, and a remove needs its member.",
            Term::SilentOverwrite => "What this patch writes without a test first: a concurrent change there is overwritten or erased, and nobody is told.",
        }
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_parse_back() {
        for (i, a) in Term::ALL.iter().enumerate() {
            assert_eq!(Term::parse(a.id()), Some(*a));
            assert!(a.definition().ends_with('.'), "{a:?}");
            for b in &Term::ALL[i + 1..] {
                assert_ne!(a.id(), b.id());
                assert_ne!(a.label(), b.label());
            }
        }
        assert_eq!(Term::parse("nope"), None);
    }
}
