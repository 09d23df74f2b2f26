//! The Check view's state: the pasted patch, the current object (optional),
//! the engine, what lint found, which fix is shown beside the patch, a
//! notice and an undo. A pure reducer, tested natively; the components
//! render it. Lint runs where the engines are ([`Check`]): the
//! view asks at once for small texts, after a pause in typing for big
//! ones; the bundled examples come with their answers.

use std::convert::Infallible;
use std::rc::Rc;

use super::examples::{example, FIRST_EXAMPLE};
use super::link::{empty, CheckLink, FixKey};
use crate::app::notice::Notice;
use crate::app::text_diff::{line_diff, LineTag};
use crate::app::view_state::{self, Undo, ViewState, Words};
use crate::apply::Semantics;
use crate::engines::check::{fix_payload, fix_text};
pub use crate::engines::check::{
    Check, Checked, CheckedFinding, CheckedFix, CheckedPatch, Counts, ListedOp, ObjectRead, OpRow,
    MAX_SHOWN_OPS,
};
use crate::engines::explain::{Explain, PanelAnswer};
use crate::engines::{Answered, Asked, Failure, Never, INSTANT_BYTES};
use crate::input::InputError;
use crate::kube::KubeVersion;
use crate::strategy::BodyKind;

/// A fix beside the patch it rewrites.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The finding it fixes.
    pub finding: CheckedFinding,
    /// What its rule's fix does.
    pub fix_text: Rc<str>,
    /// The patch as sent, one op per line (or the merge patch body),
    /// lines the fix drops marked removed.
    pub original: Vec<(LineTag, String)>,
    /// The fix, one op per line, lines it adds marked added.
    pub fixed: Vec<(LineTag, String)>,
    /// The fixed payload, as KubeVirt's builder writes it.
    pub payload: String,
}

impl Comparison {
    fn new(patch: &CheckedPatch, finding: &CheckedFinding, fix: &CheckedFix) -> Comparison {
        let fixed_ops: Vec<String> = fix.op_texts(&patch.written);
        let payload = fix_payload(&fixed_ops);
        let kept = &fix.kept();
        let (original, fixed) =
            if patch.kind == BodyKind::JsonPatch && kept.iter().any(Option::is_some) {
                // The fix says which ops it keeps: the comparison follows
                // from that in one pass, whatever the patch's length.
                let mut original = Vec::with_capacity(patch.written.len());
                let mut fixed = Vec::with_capacity(fixed_ops.len());
                let mut next = 0;
                for (text, kept) in fixed_ops.into_iter().zip(kept) {
                    match kept {
                        Some(i) => {
                            for dropped in patch.written.get(next..*i).unwrap_or_default() {
                                original.push((LineTag::Removed, dropped.clone()));
                            }
                            next = next.max(i + 1);
                            original.push((LineTag::Same, text.clone()));
                            fixed.push((LineTag::Same, text));
                        }
                        None => fixed.push((LineTag::Added, text)),
                    }
                }
                for dropped in patch.written.get(next..).unwrap_or_default() {
                    original.push((LineTag::Removed, dropped.clone()));
                }
                (original, fixed)
            } else if patch.kind == BodyKind::JsonPatch {
                let diff = line_diff(&patch.written.join("\n"), &fixed_ops.join("\n"));
                let side = |keep: LineTag| -> Vec<(LineTag, String)> {
                    diff.iter()
                        .filter(|(tag, _)| *tag == LineTag::Same || *tag == keep)
                        .cloned()
                        .collect()
                };
                (side(LineTag::Removed), side(LineTag::Added))
            } else {
                let same = |text: &str| -> Vec<(LineTag, String)> {
                    text.lines()
                        .map(|l| (LineTag::Same, l.to_owned()))
                        .collect()
                };
                (
                    same(patch.body.as_deref().unwrap_or_default()),
                    fixed_ops.into_iter().map(|l| (LineTag::Added, l)).collect(),
                )
            };
        Comparison {
            finding: finding.clone(),
            fix_text: patch.rule_texts(finding.rule).1,
            original,
            fixed,
            payload,
        }
    }
}

/// The whole Check view state.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckState {
    /// The pasted text.
    pub patch: Rc<str>,
    /// The current object's text (empty: none).
    pub object: Rc<str>,
    /// The pasted error text (empty: none).
    pub error: Rc<str>,
    /// The release explain replays the patch on (`None`: the newest).
    pub kubernetes: Option<KubeVersion>,
    /// The engine.
    pub semantics: Semantics,
    /// The example loaded last, if any.
    pub example: Option<String>,
    /// The finding whose fix is shown beside the patch.
    pub fix: Option<FixKey>,
    /// Bumped on every change of the view's texts, engine or release
    /// (explain's answers are of one revision).
    pub rev: u64,
    /// Bumped on every change lint reads: the patch, the object, the
    /// engine (lint's answers are of one of these revisions).
    pub lint_rev: u64,
    /// True when the last change lint reads was typing (big texts are
    /// then asked about after a pause; other changes at once).
    pub typing: bool,
    /// What lint found, by revision (current at `lint_rev`). It comes
    /// from the engines ([`CheckState::wants_check`]: the Check module has
    /// no linter), or, for the bundled examples, from what they answered
    /// when the playground was built.
    pub lint: Asked<Check>,
    /// explain's answers, by revision (current at `rev`), from the
    /// engines' module ([`CheckState::wants_explain`]).
    pub explained: Asked<Explain>,
    /// The fix shown beside the patch (derived from `checked` and `fix`,
    /// whenever either changes).
    pub shown: Option<Rc<Comparison>>,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// What the last replacement replaced (the notice's Undo).
    pub undo: Option<Undo<CheckState>>,
}

/// What can happen in the Check view.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckAction {
    /// The patch editor's text changed.
    EditPatch(Rc<str>),
    /// The object editor's text changed.
    EditObject(Rc<str>),
    /// The pasted error text changed.
    EditError(Rc<str>),
    /// The release explain replays on changed.
    SetKubernetes(KubeVersion),
    /// The engine changed.
    SetSemantics(Semantics),
    /// What lint found, from the engines (asked for by
    /// [`CheckState::wants_check`]).
    Checked(Answered<Check>),
    /// explain's answer, from the engines.
    Explained(Answered<Explain>),
    /// Load an example by id (undoable).
    LoadExample(String),
    /// Open a link's state (undoable).
    OpenLink(CheckLink),
    /// Empty both editors (undoable).
    Clear,
    /// Show a finding's fix beside the patch.
    ShowFix(FixKey),
    /// Show the fix of the first finding that has one.
    ShowFirstFix,
    /// Hide the fix.
    HideFix,
    /// Put the fix shown into the patch editor (undoable).
    AdoptFix,
    /// Restore what the last replacement replaced.
    Undo,
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
}

impl Default for CheckState {
    fn default() -> Self {
        CheckState::from_link(CheckLink::example(FIRST_EXAMPLE).unwrap_or(CheckLink {
            patch: empty(),
            object: empty(),
            error: empty(),
            kubernetes: None,
            semantics: Semantics::Kube,
            example: None,
            fix: None,
        }))
    }
}

impl CheckState {
    /// The state of a link, checked when it holds a bundled example's
    /// texts (otherwise the engines are asked).
    pub fn from_link(link: CheckLink) -> CheckState {
        let mut state = CheckState {
            patch: link.patch,
            object: link.object,
            error: link.error,
            kubernetes: link.kubernetes,
            semantics: link.semantics,
            example: link.example,
            fix: link.fix,
            rev: 1,
            lint_rev: 1,
            typing: false,
            lint: Asked::default(),
            explained: Asked::default(),
            shown: None,
            notice: None,
            undo: None,
        };
        state.check();
        state
    }

    /// True when the findings are not those of the current texts.
    pub fn stale(&self) -> bool {
        !self.lint.answers(self.lint_rev)
    }

    /// What lint found last (maybe of earlier texts: see
    /// [`CheckState::stale`]); blank before anything was checked.
    pub fn checked(&self) -> &Checked {
        thread_local! {
            static BLANK: &'static Checked = Box::leak(Box::new(Checked::blank()));
        }
        match self.lint.shown() {
            Some(checked) => checked,
            None => BLANK.with(|blank| *blank),
        }
    }

    /// [`CheckState::checked`], shared.
    pub fn findings(&self) -> Rc<Checked> {
        self.lint
            .shown()
            .cloned()
            .unwrap_or_else(|| Rc::new(Checked::blank()))
    }

    /// Why the engines could not check the current texts (they did not
    /// load, or stopped).
    pub fn failed(&self) -> Option<&Failure<Never>> {
        self.lint.failed_on(self.lint_rev)
    }

    /// True while nothing was checked yet for a patch: a link just opened,
    /// or a first paste, waits for the engines with no findings to show
    /// (and no prompt to paste a patch either).
    pub fn nothing_yet(&self) -> bool {
        self.stale()
            && self.lint.shown().is_none_or(|c| c.patch.is_none())
            && !self.patch.trim().is_empty()
    }

    /// What to ask the engines' lint, at which revision: the current
    /// texts, when the findings are not theirs (and the engines did not
    /// fail on them).
    pub fn wants_check(&self) -> Option<(u64, Check)> {
        self.lint
            .wanted(self.lint_rev)
            .then(|| (self.lint_rev, self.question()))
    }

    fn question(&self) -> Check {
        Check {
            patch: Rc::clone(&self.patch),
            object: Rc::clone(&self.object),
            semantics: self.semantics,
        }
    }

    /// Takes lint's answer about the current texts; an answer about texts
    /// typed over since is dropped.
    fn take_checked(&mut self, said: Answered<Check>) {
        if self.lint.take(self.lint_rev, said) {
            self.compare();
        }
    }

    /// What to ask explain, at which revision: when the error text is not
    /// blank and the answer taken is not that of the current texts.
    pub fn wants_explain(&self) -> Option<(u64, Explain)> {
        self.explaining().then(|| {
            let explain = Explain {
                error: Rc::clone(&self.error),
                patch: Rc::clone(&self.patch),
                object: Rc::clone(&self.object),
                kubernetes: self.kubernetes,
            };
            (self.rev, explain)
        })
    }

    /// True while the error text is not blank and explain's answer is not
    /// that of the current texts.
    pub fn explaining(&self) -> bool {
        !self.error.trim().is_empty() && self.explained.wanted(self.rev)
    }

    /// explain's answer shown (maybe of earlier texts), or why the engines
    /// could not explain the current texts.
    pub fn explanation(&self) -> Option<PanelAnswer> {
        match self.explained.failed_on(self.rev) {
            Some(why) => Some(Err(why.clone())),
            None => self.explained.shown().cloned().map(Ok),
        }
    }

    /// Total bytes in the editors (the error text included).
    pub fn text_bytes(&self) -> usize {
        self.patch.len() + self.object.len() + self.error.len()
    }

    /// True when the texts are too big to check on every keystroke: the
    /// engines are asked after a pause in typing.
    pub fn big(&self) -> bool {
        self.text_bytes() > INSTANT_BYTES
    }

    /// The title and description of what the editors hold: the example's
    /// while they hold it as bundled, "Your patch" otherwise.
    pub fn title(&self) -> (String, Option<String>) {
        let link = self.link();
        match self.example.as_deref().and_then(example) {
            Some(e) if !link.is_work() => (e.title.clone(), Some(e.description.clone())),
            Some(e) => (
                "Your patch".to_owned(),
                Some(format!("Started from the example “{}”.", e.title)),
            ),
            None => ("Your patch".to_owned(), None),
        }
    }

    /// The patch editor's error, if the patch could not be read.
    pub fn patch_error(&self) -> Option<InputError> {
        self.lint.shown()?.patch_error()
    }

    /// The object editor's error, if the object could not be read.
    pub fn object_error(&self) -> Option<InputError> {
        self.lint.shown()?.object_error()
    }

    /// The fix shown beside the patch, if lint still reports its finding.
    pub fn comparison(&self) -> Option<Comparison> {
        self.shown.as_deref().cloned()
    }

    /// The position in the report of the finding whose fix is shown.
    pub fn shown_finding(&self) -> Option<usize> {
        let key = self.fix.as_ref()?;
        self.lint
            .shown()?
            .ok()?
            .report
            .findings
            .iter()
            .position(|f| key.names(f))
    }

    /// Works out the fix shown again (lint's findings or the key changed).
    fn compare(&mut self) {
        self.shown = self.fix.as_ref().and_then(|key| {
            let patch = self.lint.shown()?.ok()?;
            let finding = patch.report.findings.iter().find(|f| key.names(f))?;
            let fix = finding.fix.as_ref()?;
            Some(Rc::new(Comparison::new(patch, finding, fix)))
        });
    }

    fn show_fix(&mut self, fix: Option<FixKey>) {
        self.fix = fix;
        self.compare();
    }

    /// The first finding that has a fix.
    fn first_fix(&self) -> Option<FixKey> {
        let patch = self.lint.shown()?.ok()?;
        patch
            .report
            .findings
            .iter()
            .find(|f| f.fix.is_some())
            .map(FixKey::of)
    }

    /// Takes what is known without the engines when the findings are
    /// behind the texts: nothing to check in blank editors, and the
    /// bundled examples' answers (the engines answer the rest).
    pub fn check(&mut self) {
        if !self.stale() {
            return;
        }
        let question = self.question();
        let known = if question.patch.trim().is_empty() && question.object.trim().is_empty() {
            Some(Checked::blank())
        } else {
            super::examples::answered(&question)
        };
        if let Some(checked) = known {
            self.take_checked(Answered {
                rev: self.lint_rev,
                answer: Ok(Rc::new(checked)),
                more: false,
            });
        }
    }

    /// A change lint reads (`typed`: by typing in an editor).
    fn edited(&mut self, typed: bool) {
        self.rev += 1;
        self.lint_rev += 1;
        self.typing = typed;
    }

    /// A change only explain reads (the error text, the release): lint's
    /// findings, and any answer on its way, stay those of the texts.
    fn edited_for_explain(&mut self) {
        self.rev += 1;
    }

    /// The state of `link` in place of this one (undoable when this is work).
    fn load(&self, link: CheckLink, what: &str) -> CheckState {
        view_state::replace(self, CheckState::from_link(link), what)
    }

    /// The patch editor with the fix shown, the patch before kept for Undo.
    /// Not while the findings are behind the texts: the fix shown is then
    /// of the text before the last edit.
    fn adopt_fix(&self) -> CheckState {
        let Some(comparison) = &self.shown else {
            return self.clone();
        };
        if self.stale() {
            let mut next = self.clone();
            next.notice = Some(Notice::info(
                "Your last edit is being checked: use the fix once its findings show.",
            ));
            return next;
        }
        let checked = self.findings();
        let (Some(fix), Some(patch)) = (comparison.finding.fix.as_ref(), checked.ok()) else {
            return self.clone();
        };
        let fixed = fix_text(&fix.op_texts(&patch.written));
        let link = CheckLink {
            patch: Rc::from(fixed),
            fix: None,
            ..self.link()
        };
        let what = format!(
            "The patch editor now holds the fix for {}",
            comparison.finding.rule
        );
        view_state::replace_keeping(self, CheckState::from_link(link), &what)
    }
}

impl ViewState for CheckState {
    type Link = CheckLink;
    type Action = CheckAction;
    type OpenError = Infallible;
    const WORDS: Words = Words {
        saved: "patch",
        fresh: "this is the first example",
        kept: "What the editors held before is kept",
        back: "Brought back what the editors held",
    };

    fn from_link(link: CheckLink) -> Result<Self, Infallible> {
        Ok(CheckState::from_link(link))
    }

    /// The link of this state.
    fn link(&self) -> CheckLink {
        CheckLink {
            patch: Rc::clone(&self.patch),
            object: Rc::clone(&self.object),
            error: Rc::clone(&self.error),
            kubernetes: self.kubernetes,
            semantics: self.semantics,
            example: self.example.clone(),
            fix: self.fix.clone(),
        }
    }

    fn is_work(&self) -> bool {
        self.link().is_work()
    }

    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
        (&mut self.notice, &mut self.undo)
    }

    /// The next state; a pure function of the state and the action.
    fn reduce(&self, action: CheckAction) -> Self {
        let mut next = self.clone();
        match action {
            CheckAction::EditPatch(text) => {
                next.patch = text;
                next.edited(true);
            }
            CheckAction::EditObject(text) => {
                next.object = text;
                next.edited(true);
            }
            CheckAction::EditError(text) => {
                next.error = text;
                next.edited_for_explain();
            }
            CheckAction::SetKubernetes(release) => {
                let release = (release != KubeVersion::NEWEST).then_some(release);
                if release != next.kubernetes {
                    next.kubernetes = release;
                    next.edited_for_explain();
                }
            }
            CheckAction::SetSemantics(semantics) => {
                if semantics != next.semantics {
                    next.semantics = semantics;
                    next.edited(false);
                    next.check();
                }
            }
            CheckAction::Checked(said) => next.take_checked(said),
            CheckAction::Explained(said) => {
                next.explained.take(next.rev, said);
            }
            CheckAction::LoadExample(id) => match CheckLink::example(&id) {
                Some(link) => {
                    let title = example(&id).map(|e| e.title.as_str()).unwrap_or_default();
                    next = self.load(link, &format!("Loaded the example “{title}”"));
                }
                None => next.notice = Some(Notice::error(format!("There is no example {id:?}."))),
            },
            CheckAction::OpenLink(link) => next = view_state::open(self, link),
            CheckAction::Clear => {
                let blank = CheckLink {
                    patch: empty(),
                    object: empty(),
                    error: empty(),
                    kubernetes: self.kubernetes,
                    semantics: self.semantics,
                    example: None,
                    fix: None,
                };
                next = self.load(blank, "Cleared the editors");
            }
            CheckAction::ShowFix(key) => next.show_fix(Some(key)),
            CheckAction::ShowFirstFix => match next.first_fix() {
                Some(key) => next.show_fix(Some(key)),
                None => {
                    next.notice = Some(Notice::info("No finding here comes with a fix to use."))
                }
            },
            CheckAction::HideFix => next.show_fix(None),
            CheckAction::AdoptFix => next = self.adopt_fix(),
            CheckAction::Undo => next = view_state::undo(self),
            CheckAction::Notify(notice) => next.notice = Some(notice),
            CheckAction::DismissNotice => next.notice = None,
        }
        next
    }

    fn settle(&mut self) {
        self.check();
    }

    /// Revisions keep counting past `previous`'s, so that no lint of an
    /// earlier text is taken for this one's. Shown again (an Undo), a
    /// state asks the engines again: its failure was of another time.
    fn after(mut self, previous: &Self) -> Self {
        let rev = previous.rev + 1;
        let lint_rev = previous.lint_rev + 1;
        // Up to date stays up to date; behind stays behind.
        let (old_lint, old_rev) = (self.lint_rev, self.rev);
        self.lint
            .renumber(|r| if r == old_lint { lint_rev } else { 0 });
        self.explained
            .renumber(|r| if r == old_rev { rev } else { 0 });
        // Its failures were of another time: asked again.
        self.lint.failed = None;
        self.explained.failed = None;
        self.rev = rev;
        self.lint_rev = lint_rev;
        self.typing = false;
        self
    }

    fn open_action(link: CheckLink) -> CheckAction {
        CheckAction::OpenLink(link)
    }

    fn notify_action(notice: Notice) -> CheckAction {
        CheckAction::Notify(notice)
    }
}

#[cfg(test)]
impl CheckState {
    /// Test-only: answers what the view asks lint as the engines would,
    /// the answer sent through the wire as the page reads it.
    pub(crate) fn checked_here(&self) -> CheckState {
        let mut state = self.clone();
        state.check();
        match state.wants_check() {
            Some((rev, question)) => state.reduce(CheckAction::Checked(
                crate::engines::tests::through_the_wire(rev, question),
            )),
            None => state,
        }
    }
}
