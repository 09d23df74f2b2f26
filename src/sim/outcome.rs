//! What happened to the writes of a replay: counts per writer, how each
//! failure is classed, which changes were lost, where each writer ended.
//! Every count is one [`Term`] of the vocabulary.

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use crate::strategy::Preset;
use crate::vocabulary::Term;

/// How a failed write (422 or 409) is classed by its request: what the
/// request as sent, forced onto the object as it stood (its tests,
/// resourceVersion and field ownership set aside), would have done to the
/// changes other writers made since this writer's read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConflictKind {
    /// Forced, the request would have undone none of them: it failed for
    /// nothing ([`Term::FalseConflict`]).
    False,
    /// Forced, it would have undone one: the failure kept that change
    /// ([`Term::TrueConflict`]).
    True,
}

impl ConflictKind {
    /// The vocabulary term.
    pub fn term(self) -> Term {
        match self {
            ConflictKind::False => Term::FalseConflict,
            ConflictKind::True => Term::TrueConflict,
        }
    }

    /// `false` or `true`, as in the facts lessons check.
    pub fn as_str(self) -> &'static str {
        match self {
            ConflictKind::False => "false",
            ConflictKind::True => "true",
        }
    }

    /// The verdict's words: `False conflict`.
    pub fn word(self) -> &'static str {
        match self {
            ConflictKind::False => "False conflict",
            ConflictKind::True => "True conflict",
        }
    }
}

/// How a failed write (422 or 409) is classed by its writer's intent: what
/// the writer meant, done afresh on the object as it stood, would have done
/// to the changes other writers made since its read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntentVerdict {
    /// Its intent would have undone none of them
    /// ([`Term::NeedlessFailure`]).
    Needless,
    /// Its intent would have undone one ([`Term::ClashingIntent`]).
    Clash,
}

impl IntentVerdict {
    /// The vocabulary term.
    pub fn term(self) -> Term {
        match self {
            IntentVerdict::Needless => Term::NeedlessFailure,
            IntentVerdict::Clash => Term::ClashingIntent,
        }
    }

    /// `needless` or `clash`, as in the facts lessons check.
    pub fn as_str(self) -> &'static str {
        match self {
            IntentVerdict::Needless => "needless",
            IntentVerdict::Clash => "clash",
        }
    }

    /// The verdict's words: `Needless failure`.
    pub fn word(self) -> &'static str {
        match self {
            IntentVerdict::Needless => "Needless failure",
            IntentVerdict::Clash => "Clashing intent",
        }
    }

    /// True when it says what the request's class says, judged on the
    /// intent: needless with a false conflict, a clash with a true one.
    pub fn agrees(self, kind: ConflictKind) -> bool {
        matches!(
            (self, kind),
            (IntentVerdict::Needless, ConflictKind::False)
                | (IntentVerdict::Clash, ConflictKind::True)
        )
    }
}

/// A change a writer made that a later write erased, although the eraser
/// had read the object before that change and nothing told it
/// ([`Term::LostUpdate`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostUpdate {
    /// The writer whose change was lost.
    pub victim: String,
    /// Its position among the scenario's writers.
    #[serde(skip)]
    pub victim_index: usize,
    /// The intent, in words.
    pub intent: String,
    /// The field.
    pub path: String,
    /// The writer whose write erased it.
    pub erased_by: String,
    /// The step that erased it (zero-based event index).
    pub step: usize,
}

/// A change of another writer that a failed write would have undone: what
/// the failure kept ([`Term::TrueConflict`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// The writer whose change it is.
    pub writer: String,
    /// Its position among the scenario's writers.
    #[serde(skip)]
    pub writer_index: usize,
    /// The change (the intent), in words.
    pub intent: String,
    /// The field.
    pub path: String,
}

/// The counts of a writer, a VMI or a whole run; each field is one term
/// of the vocabulary ([`Counts::get`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// [`Term::Writes`].
    pub writes: u64,
    /// [`Term::Ok`].
    pub ok: u64,
    /// [`Term::Invalid`]: 422 answers.
    pub invalid: u64,
    /// [`Term::Conflict`]: 409 answers.
    pub conflict: u64,
    /// [`Term::OtherErrors`].
    pub other_errors: u64,
    /// [`Term::Retries`].
    pub retries: u64,
    /// [`Term::FalseConflict`].
    pub false_conflicts: u64,
    /// [`Term::NeedlessFailureOnMap`] (also counted in
    /// `needless_failures`).
    #[serde(default, alias = "false_conflicts_on_maps")]
    pub needless_failures_on_maps: u64,
    /// [`Term::TrueConflict`].
    pub true_conflicts: u64,
    /// [`Term::NeedlessFailure`]: failed writes (422 or 409) whose intent
    /// clashed with no other writer's change; the others among the false
    /// and true conflicts are [`Term::ClashingIntent`].
    #[serde(default)]
    pub needless_failures: u64,
    /// [`Term::LostUpdate`]: changes of this writer that others erased.
    pub lost_updates: u64,
    /// [`Term::GaveUp`].
    pub gave_up: u64,
}

impl Counts {
    /// The count a term names, for the terms that are counts.
    pub fn get(&self, term: Term) -> Option<u64> {
        Some(match term {
            Term::Writes => self.writes,
            Term::Ok => self.ok,
            Term::Invalid => self.invalid,
            Term::Conflict => self.conflict,
            Term::OtherErrors => self.other_errors,
            Term::Retries => self.retries,
            Term::FalseConflict => self.false_conflicts,
            Term::NeedlessFailureOnMap => self.needless_failures_on_maps,
            Term::TrueConflict => self.true_conflicts,
            Term::NeedlessFailure => self.needless_failures,
            Term::ClashingIntent => {
                (self.false_conflicts + self.true_conflicts).saturating_sub(self.needless_failures)
            }
            Term::LostUpdate => self.lost_updates,
            Term::GaveUp => self.gave_up,
            _ => return None,
        })
    }
}

impl Counts {
    /// Counts the verdicts on one failed write (422 or 409): its class on
    /// the request (and whether a false one failed on a map), its class on
    /// the intent.
    pub fn count_verdicts(
        &mut self,
        conflict: Option<ConflictKind>,
        intent: Option<IntentVerdict>,
        on_map: bool,
    ) {
        match conflict {
            Some(ConflictKind::True) => self.true_conflicts += 1,
            Some(ConflictKind::False) => self.false_conflicts += 1,
            None => {}
        }
        if intent == Some(IntentVerdict::Needless) {
            self.needless_failures += 1;
            self.needless_failures_on_maps += u64::from(on_map);
        }
    }
}

impl AddAssign<&Counts> for Counts {
    fn add_assign(&mut self, other: &Counts) {
        self.writes += other.writes;
        self.ok += other.ok;
        self.invalid += other.invalid;
        self.conflict += other.conflict;
        self.other_errors += other.other_errors;
        self.retries += other.retries;
        self.false_conflicts += other.false_conflicts;
        self.needless_failures_on_maps += other.needless_failures_on_maps;
        self.true_conflicts += other.true_conflicts;
        self.needless_failures += other.needless_failures;
        self.lost_updates += other.lost_updates;
        self.gave_up += other.gave_up;
    }
}

/// One writer's outcome in a replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriterOutcome {
    /// The writer.
    pub name: String,
    /// The preset it patched with.
    pub preset: Preset,
    /// What it patched with, named: the preset and its own per-field
    /// overrides ([`crate::strategy::label`]).
    #[serde(default)]
    pub label: String,
    /// What happened to its writes.
    #[serde(flatten)]
    pub counts: Counts,
    /// [`Term::IntentHolds`]: the final object shows its intent.
    pub intent_holds: bool,
    /// Where its writing stood when the timeline ended.
    pub end: WriterEnd,
    /// [`Term::IntentNotHeld`]: why its intent does not hold at the end
    /// (`None` when it holds).
    pub not_held: Option<NotHeld>,
}

/// Why a writer's intent does not hold at the end
/// ([`Term::IntentNotHeld`]), decided once by [`NotHeld::decide`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum NotHeld {
    /// It used up its attempts ([`Term::GaveUp`]).
    GaveUp,
    /// Its last write failed and no retry was scheduled after it
    /// ([`Term::NotRetried`]).
    NotRetried {
        /// The status of its last write.
        code: u16,
    },
    /// It never sent a write.
    NeverWrote,
    /// Another writer's write erased its change without having read it
    /// ([`Term::LostUpdate`]).
    Lost(Erasure),
    /// Another writer, having read its change, overwrote it on purpose.
    Overwritten(Erasure),
    /// Its cache already showed its intent, so it sent nothing; the object
    /// no longer shows it.
    NothingSent,
    /// Its write succeeded without making all of its intent hold (a
    /// server-side apply cannot remove a field another manager owns).
    Unmet,
}

/// Which write undid a writer's change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Erasure {
    /// The writer whose write undid it.
    pub by: String,
    /// The change (the intent), in words.
    pub intent: String,
    /// The step of that write (zero-based event index).
    pub step: usize,
}

impl NotHeld {
    /// The one rule: a writer whose own last write did not land is so
    /// because it gave up, was never retried or never wrote; otherwise the
    /// last write that undid one of its changes still missing at the end
    /// (`erased`: that write, and whether it was a lost update) says who;
    /// otherwise it sent nothing, or its own write did not do it all.
    pub fn decide(end: WriterEnd, erased: Option<(Erasure, bool)>) -> NotHeld {
        match (end, erased) {
            (WriterEnd::GaveUp, _) => NotHeld::GaveUp,
            (WriterEnd::NotRetried { code }, _) => NotHeld::NotRetried { code },
            (WriterEnd::NeverWrote, _) => NotHeld::NeverWrote,
            (_, Some((erasure, true))) => NotHeld::Lost(erasure),
            (_, Some((erasure, false))) => NotHeld::Overwritten(erasure),
            (WriterEnd::NothingToDo, None) => NotHeld::NothingSent,
            (WriterEnd::Succeeded, None) => NotHeld::Unmet,
        }
    }

    /// The stable id (`not-retried`, `lost`, ...), as in the JSON.
    pub fn id(&self) -> &'static str {
        match self {
            NotHeld::GaveUp => "gave-up",
            NotHeld::NotRetried { .. } => "not-retried",
            NotHeld::NeverWrote => "never-wrote",
            NotHeld::Lost(_) => "lost",
            NotHeld::Overwritten(_) => "overwritten",
            NotHeld::NothingSent => "nothing-sent",
            NotHeld::Unmet => "unmet",
        }
    }

    /// The vocabulary term naming the reason, where one does.
    pub fn term(&self) -> Option<Term> {
        match self {
            NotHeld::GaveUp => Some(Term::GaveUp),
            NotHeld::NotRetried { .. } => Some(Term::NotRetried),
            NotHeld::Lost(_) => Some(Term::LostUpdate),
            _ => None,
        }
    }

    /// Why its intent does not hold, in words, after "its intent does not
    /// hold: ".
    pub fn reason(&self) -> String {
        match self {
            NotHeld::GaveUp => "it gave up: its attempts were used up".to_owned(),
            NotHeld::NotRetried { code } => format!(
                "its last write got {code} and no retry was scheduled after it: it was never retried"
            ),
            NotHeld::NeverWrote => "it never sent a write".to_owned(),
            NotHeld::Lost(e) => format!(
                "{}'s write erased its change ({}) without having read it: a lost update",
                e.by, e.intent
            ),
            NotHeld::Overwritten(e) => format!(
                "{}'s write overwrote its change ({}) after reading it: a deliberate overwrite",
                e.by, e.intent
            ),
            NotHeld::NothingSent => {
                "its cache already showed its intent, so it sent nothing, and the object no longer shows it"
                    .to_owned()
            }
            NotHeld::Unmet => {
                "its write succeeded without making all of its intent hold".to_owned()
            }
        }
    }

    /// In words, for the writer named `name`: `backup-controller's intent
    /// does not hold: its last write got 422 and ...`.
    pub fn describe(&self, name: &str) -> String {
        format!("{name}'s intent does not hold: {}", self.reason())
    }
}

/// Where a writer's writing stands when the timeline ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum WriterEnd {
    /// Its last write succeeded.
    Succeeded,
    /// Its cache already showed its intent: it had nothing to send.
    NothingToDo,
    /// It used up its attempts ([`Term::GaveUp`]).
    GaveUp,
    /// Its last write failed and no retry was scheduled after it: the
    /// timeline ends before it writes again ([`Term::NotRetried`]).
    NotRetried {
        /// The status of its last write.
        code: u16,
    },
    /// It never sent a write.
    #[default]
    NeverWrote,
}

impl WriterEnd {
    /// The one rule deciding where a writer stands at the end, from what
    /// the replay counted: it gave up (a retry budget ran out, or its last
    /// write failed with no attempts left before any write of its own
    /// succeeded), its last write failed with no retry scheduled, it
    /// succeeded, its cache showed nothing to do, or it never wrote. Both
    /// the general replay and the fast path call this.
    ///
    /// Attempts bound the writes before a success only: a server-side
    /// applier that succeeded applies again at its next write whatever its
    /// count, so when such a write fails it was not retried (it did not
    /// give up: it had a successful write).
    pub fn decide(
        gave_up: bool,
        failed: Option<u16>,
        attempts_left: bool,
        done: bool,
        wrote_ok: bool,
    ) -> WriterEnd {
        match failed {
            _ if gave_up => WriterEnd::GaveUp,
            Some(_) if !attempts_left && !done => WriterEnd::GaveUp,
            Some(code) => WriterEnd::NotRetried { code },
            None if done && wrote_ok => WriterEnd::Succeeded,
            None if done => WriterEnd::NothingToDo,
            None => WriterEnd::NeverWrote,
        }
    }

    /// In words, for the writer named `name`.
    pub fn describe(self, name: &str) -> String {
        match self {
            WriterEnd::Succeeded => format!("{name}'s last write succeeded"),
            WriterEnd::NothingToDo => format!("{name} had nothing to send"),
            WriterEnd::GaveUp => format!("{name} gave up: its attempts were used up"),
            WriterEnd::NotRetried { code } => {
                format!("{name}'s last write got {code} and no retry was scheduled after it")
            }
            WriterEnd::NeverWrote => format!("{name} never sent a write"),
        }
    }
}

/// The outcome of a replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcomes {
    /// Per writer, in scenario order.
    pub writers: Vec<WriterOutcome>,
    /// Every lost update.
    pub lost_updates: Vec<LostUpdate>,
    /// [`Term::IntentHolds`] for every writer.
    pub intents_hold: bool,
}

impl Outcomes {
    /// The counts of all writers together.
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for writer in &self.writers {
            total += &writer.counts;
        }
        total
    }

    /// The writers whose intent does not hold at the end.
    pub fn intent_not_held(&self) -> impl Iterator<Item = &WriterOutcome> {
        self.writers.iter().filter(|w| !w.intent_holds)
    }

    /// The writers whose intent does not hold because their last write
    /// failed and was never retried.
    pub fn never_retried(&self) -> impl Iterator<Item = &WriterOutcome> {
        self.writers
            .iter()
            .filter(|w| matches!(w.not_held, Some(NotHeld::NotRetried { .. })))
    }

    /// Writes sent by all writers.
    pub fn requests(&self) -> u64 {
        self.total().writes
    }
}

/// The changes named, in words, grouped by writer in order:
/// `team-red's change (label a = b)`, `virt-handler's changes (label x =
/// y, remove label z) and ...`.
fn changes_in_words(changes: &[Kept]) -> String {
    let mut writers: Vec<(&str, Vec<&str>)> = Vec::new();
    for k in changes {
        match writers.iter_mut().find(|(w, _)| *w == k.writer) {
            Some((_, intents)) => intents.push(&k.intent),
            None => writers.push((&k.writer, vec![&k.intent])),
        }
    }
    writers
        .iter()
        .map(|(w, intents)| {
            let noun = if intents.len() == 1 {
                "change"
            } else {
                "changes"
            };
            format!("{w}'s {noun} ({})", intents.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Why a failed write is a false or a true conflict, judged on its
/// request: `the request, forced onto the object as it stood, would have
/// undone ...`.
pub fn request_reason(kind: ConflictKind, kept: &[Kept]) -> String {
    match kind {
        ConflictKind::False => "the request, forced onto the object as it stood, would have undone no change another writer made since its read".to_owned(),
        ConflictKind::True => format!(
            "the request, forced onto the object as it stood, would have undone {}, so the failure kept {}",
            changes_in_words(kept),
            if kept.len() == 1 { "it" } else { "them" }
        ),
    }
}

/// Why a failed write is a needless failure or a clashing intent, judged
/// on its intent: `what it meant, done afresh ...`.
pub fn intent_reason(intent: IntentVerdict, clashes: &[Kept]) -> String {
    match intent {
        IntentVerdict::Needless => "what it meant, done afresh on the object as it stood, undoes no change another writer made since its read".to_owned(),
        IntentVerdict::Clash => format!(
            "what it meant, done afresh on the object as it stood, would undo {}",
            changes_in_words(clashes)
        ),
    }
}

/// The verdicts on a failed write (422 or 409) in words, as its step says
/// them after its status: the class of the request, and the class of the
/// intent where the two disagree (a stale Update whose writer meant to
/// change something else is a true conflict and a needless failure).
pub fn verdicts_in_words(
    kind: ConflictKind,
    kept: &[Kept],
    intent: IntentVerdict,
    clashes: &[Kept],
) -> String {
    let request = format!(
        "a {}: {}",
        kind.word().to_lowercase(),
        request_reason(kind, kept)
    );
    if intent.agrees(kind) {
        return request;
    }
    format!(
        "{request}; judged on its intent, a {}: {}",
        intent.word().to_lowercase(),
        intent_reason(intent, clashes)
    )
}
