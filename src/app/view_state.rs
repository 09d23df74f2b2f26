//! What every view's state has in common, written once: how a visit starts
//! (nothing saved, saved work, a link, a broken link, broken saved work),
//! how a load over the user's work keeps that work one Undo away, and what
//! Undo does. Each view says only what is its own: its words, what counts
//! as work, how its state opens from a link.
//!
//! The policy, for every view:
//! - saved work is never dropped in silence: it opens, or a notice says why
//!   not (and a link that cannot open leaves the saved work in place);
//! - a link, an example or a reset replacing work keeps that work, and the
//!   notice's Undo (and the view's `z`) brings it back;
//! - Undo brings the kept work back; what Undo replaces is kept in turn
//!   when it is work, so two Undos are back where they started.

use std::fmt;
use std::rc::Rc;

use super::link::{Shareable, Start};
use super::notice::Notice;

/// A view's words in the notices of [`ViewState`]'s policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// What the view saves, after "Your saved": `work`, `patch`, `race`.
    pub saved: &'static str,
    /// What a visit without saved work shows, as a clause after "so":
    /// `this is the first example`.
    pub fresh: &'static str,
    /// The sentence saying replaced work is kept, before ": Undo brings it
    /// back.": `What the editors held before is kept`.
    pub kept: &'static str,
    /// What Undo did, when it kept what it replaced: `Brought back your
    /// previous objects`.
    pub back: &'static str,
}

/// What Undo brings back: the state a load replaced, without its own
/// notice and undo (so kept states never chain).
#[derive(Clone, Debug, PartialEq)]
pub struct Undo<S>(Rc<S>);

impl<S> Undo<S> {
    /// The state kept.
    pub fn state(&self) -> &S {
        &self.0
    }
}

/// A view's state as the scaffolding sees it. One implementation per view;
/// [`begin`], [`replace`], [`open`] and [`undo`] do the rest, and the
/// hook `use_view` adapts it to Yew. A visit with nothing saved starts
/// from `Default`.
pub trait ViewState: Clone + Default + PartialEq + Sized + 'static {
    /// What its links hold.
    type Link: Shareable;
    /// Its actions.
    type Action: 'static;
    /// Why a link that decodes cannot be opened (a Race link naming a
    /// scenario this page does not ship); [`std::convert::Infallible`]
    /// for views whose links always open.
    type OpenError: fmt::Display;
    /// Its words in notices.
    const WORDS: Words;

    /// The state a link holds.
    ///
    /// # Errors
    ///
    /// [`ViewState::OpenError`] when the link's state cannot be opened.
    fn from_link(link: Self::Link) -> Result<Self, Self::OpenError>;
    /// Its link.
    fn link(&self) -> Self::Link;
    /// True when replacing it loses work: anything but what the view
    /// ships, as shipped.
    fn is_work(&self) -> bool;
    /// The scaffolding's own parts of the state: the message shown above
    /// the view, and what Undo brings back.
    fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>);
    /// The next state; a pure function of the state and the action.
    fn reduce(&self, action: Self::Action) -> Self;
    /// Brings derived data up to date where that is quick (small texts),
    /// so an edit costs one render; the rest waits for the engines.
    /// Called after every action.
    fn settle(&mut self) {}
    /// `self`, shown in place of `previous`: carries over what must keep
    /// counting across states (Build's and Check's revisions).
    fn after(self, _previous: &Self) -> Self {
        self
    }
    /// The action that opens a link pasted into the address bar.
    fn open_action(link: Self::Link) -> Self::Action;
    /// The action that shows a notice.
    fn notify_action(notice: Notice) -> Self::Action;

    /// The state a visit starts with (see [`begin`]).
    fn start(start: Start<Self::Link>) -> Self {
        begin(start).state
    }

    /// `self` with a message.
    fn with_notice(mut self, notice: Notice) -> Self {
        *self.parts().0 = Some(notice);
        self
    }
}

/// How a visit begins.
#[derive(Clone, Debug, PartialEq)]
pub struct Begun<S> {
    /// The state.
    pub state: S,
    /// The page was opened from a link that could not be opened: the
    /// address bar keeps it (so it can be repaired) until the state changes.
    pub keep_address: bool,
}

/// The state a visit starts with, by the one policy of every view.
pub fn begin<S: ViewState>(start: Start<S::Link>) -> Begun<S> {
    let words = S::WORDS;
    let saved_or_fresh = |saved: Option<S::Link>| {
        saved
            .and_then(|s| S::from_link(s).ok())
            .unwrap_or_else(S::default)
    };
    let (state, keep_address) = match start {
        Start::Fresh => (S::default(), false),
        Start::Saved(link) => match S::from_link(link) {
            Ok(state) => (state, false),
            Err(why) => (
                S::default().with_notice(Notice::warning(format!(
                    "Your saved {} could not be opened ({why}), so {}.",
                    words.saved, words.fresh
                ))),
                false,
            ),
        },
        Start::Link { link, saved } => match S::from_link(link) {
            Ok(state) => {
                let saved = saved.and_then(|s| S::from_link(s).ok());
                let state = match saved.filter(ViewState::is_work) {
                    Some(saved) => keep(saved, state, "Opened the link"),
                    None => state,
                };
                (state, false)
            }
            Err(why) => (
                saved_or_fresh(saved).with_notice(Notice::error(format!(
                    "This link could not be opened: {why}. Nothing was changed, and the link is still in the address bar."
                ))),
                true,
            ),
        },
        Start::BrokenLink { error, saved } => {
            (saved_or_fresh(saved).with_notice(Notice::from(&error)), true)
        }
        Start::BrokenSaved(error) => (
            S::default().with_notice(
                Notice::warning(format!(
                    "Your saved {} could not be read, so {}.",
                    words.saved, words.fresh
                ))
                .with_detail(Some(&error.to_string())),
            ),
            false,
        ),
    };
    Begun {
        state,
        keep_address,
    }
}

/// `next` in place of `current` (a load, a reset, a link), keeping
/// `current` for Undo when it is work and differs; `what` says what
/// happened ("Loaded the example “Finalizers”").
pub fn replace<S: ViewState>(current: &S, next: S, what: &str) -> S {
    let next = next.after(current);
    if loses(current, &next) {
        keep(current.clone(), next, what)
    } else {
        next
    }
}

/// True when showing `next` in place of `current` loses work: `current`
/// is work, and `next` is something else (another link, or what the view
/// ships where `current` held more than its link says, like text typed
/// but not taken).
fn loses<S: ViewState>(current: &S, next: &S) -> bool {
    current.is_work() && (!next.is_work() || current.link() != next.link())
}

/// Like [`replace`], but keeps `current` even when it is not work: the
/// user asked for something that rewrites what they see (Check's "Put it
/// in the editor").
pub fn replace_keeping<S: ViewState>(current: &S, next: S, what: &str) -> S {
    let next = next.after(current);
    keep(current.clone(), next, what)
}

/// The state of `link` in place of `current` (a link pasted into the
/// address bar of the open page), or `current` with why it cannot open.
/// The link `current` already holds changes nothing (its undo stays).
pub fn open<S: ViewState>(current: &S, link: S::Link) -> S {
    if current.link() == link {
        return current.clone();
    }
    match S::from_link(link) {
        Ok(next) => replace(current, next, "Opened the link"),
        Err(why) => current.clone().with_notice(Notice::error(format!(
            "This link could not be opened: {why}. Nothing was changed."
        ))),
    }
}

/// What Undo does: the kept state back, and what it replaces kept in turn
/// when it is work.
pub fn undo<S: ViewState>(current: &S) -> S {
    let mut current = current.clone();
    let Some(kept) = current.parts().1.take() else {
        return current;
    };
    let restored = kept.state().clone().after(&current);
    if loses(&current, &restored) {
        keep(current, restored, S::WORDS.back)
    } else {
        restored
    }
}

/// `next`, with `kept` as what Undo brings back, saying so.
fn keep<S: ViewState>(mut kept: S, mut next: S, what: &str) -> S {
    let (notice, undo) = kept.parts();
    (*notice, *undo) = (None, None);
    *next.parts().1 = Some(Undo(Rc::new(kept)));
    next.with_notice(
        Notice::info(format!("{what}. {}: Undo brings it back.", S::WORDS.kept)).with_undo("Undo"),
    )
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::app::link::{self, LinkError};
    use crate::app::route::View;

    /// A view of one text; `bad` cannot be opened; `"ours"` is what it
    /// ships; the revision counts every state shown.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Text {
        text: String,
    }

    impl Shareable for Text {
        const VIEW: View = View::Race;
        const STORAGE_KEY: &'static str = "patchlab.text";
    }

    #[derive(Clone, Debug, PartialEq)]
    struct TextState {
        text: String,
        rev: u64,
        notice: Option<Notice>,
        undo: Option<Undo<TextState>>,
    }

    impl Default for TextState {
        fn default() -> Self {
            TextState {
                text: "ours".into(),
                rev: 1,
                notice: None,
                undo: None,
            }
        }
    }

    impl ViewState for TextState {
        type Link = Text;
        type Action = String;
        type OpenError = String;
        const WORDS: Words = Words {
            saved: "text",
            fresh: "this is ours",
            kept: "Your text is kept",
            back: "Brought back your text",
        };
        fn from_link(link: Text) -> Result<Self, String> {
            if link.text == "bad" {
                return Err("it is bad".into());
            }
            Ok(TextState {
                text: link.text,
                ..TextState::default()
            })
        }
        fn link(&self) -> Text {
            Text {
                text: self.text.clone(),
            }
        }
        fn is_work(&self) -> bool {
            self.text != "ours"
        }
        fn parts(&mut self) -> (&mut Option<Notice>, &mut Option<Undo<Self>>) {
            (&mut self.notice, &mut self.undo)
        }
        fn reduce(&self, text: String) -> Self {
            TextState {
                text,
                ..self.clone()
            }
        }
        fn after(self, previous: &Self) -> Self {
            TextState {
                rev: previous.rev + 1,
                ..self
            }
        }
        fn open_action(link: Text) -> String {
            link.text
        }
        fn notify_action(notice: Notice) -> String {
            notice.text
        }
    }

    fn packed(text: &str) -> String {
        link::encode(&Text { text: text.into() })
    }

    fn start(packed: Option<&str>, stored: Option<&str>) -> Begun<TextState> {
        begin(Start::new(packed, stored))
    }

    #[test]
    fn a_visit_starts_from_the_link_else_the_saved_work_else_fresh() {
        assert_eq!(start(None, None).state, TextState::default());
        assert_eq!(start(None, Some(&packed("mine"))).state.text, "mine");
        let opened = start(Some(&packed("linked")), None);
        assert_eq!(opened.state.text, "linked");
        assert!(opened.state.notice.is_none() && !opened.keep_address);
    }

    #[test]
    fn a_link_over_saved_work_keeps_the_work_one_undo_away() {
        let opened = start(Some(&packed("linked")), Some(&packed("mine"))).state;
        assert_eq!(opened.text, "linked");
        let notice = opened.notice.clone().unwrap();
        assert_eq!(
            notice.text,
            "Opened the link. Your text is kept: Undo brings it back."
        );
        assert_eq!(notice.undo.as_deref(), Some("Undo"));
        let back = undo(&opened);
        assert_eq!(back.text, "mine");
        // What Undo replaced (the link's text) is work too: kept in turn.
        assert_eq!(undo(&back).text, "linked");
        // Saved work that is what the view ships is nothing to keep.
        let over_ours = start(Some(&packed("linked")), Some(&packed("ours"))).state;
        assert!(over_ours.undo.is_none() && over_ours.notice.is_none());
    }

    #[test]
    fn broken_links_and_saved_work_are_said_and_keep_what_there_is() {
        let broken = start(Some("1.!!"), Some(&packed("mine")));
        assert_eq!(broken.state.text, "mine", "the saved work stays");
        assert!(broken.keep_address);
        assert!(broken
            .state
            .notice
            .unwrap()
            .text
            .contains("link is still in the address bar"));
        // A link that decodes but cannot open is a broken link too.
        let refused = start(Some(&packed("bad")), Some(&packed("mine")));
        assert_eq!(refused.state.text, "mine");
        assert!(refused.keep_address);
        assert_eq!(
            refused.state.notice.unwrap().text,
            "This link could not be opened: it is bad. Nothing was changed, and the link is still in the address bar."
        );
        let unreadable = start(None, Some("1.!!")).state;
        assert_eq!(unreadable.text, "ours");
        let notice = unreadable.notice.unwrap();
        assert_eq!(
            notice.text,
            "Your saved text could not be read, so this is ours."
        );
        assert_eq!(
            notice.detail.as_deref(),
            Some(LinkError::Damaged(String::new()).to_string().as_str())
        );
        let unopenable = start(None, Some(&packed("bad"))).state;
        assert_eq!(
            unopenable.notice.unwrap().text,
            "Your saved text could not be opened (it is bad), so this is ours."
        );
    }

    #[test]
    fn loads_keep_work_and_undo_never_loses_any() {
        let ours = TextState::default();
        // Nothing to lose: no undo, no notice.
        let loaded = replace(
            &ours,
            TextState::from_link(packed_text("x")).unwrap(),
            "Loaded x",
        );
        assert!(loaded.undo.is_none() && loaded.notice.is_none());
        assert_eq!(loaded.rev, ours.rev + 1, "states shown keep counting");
        // Work is kept, and said.
        let work = ours.reduce("mine".into());
        let loaded = replace(&work, TextState::default(), "Reset");
        assert_eq!(
            loaded.notice.as_ref().unwrap().text,
            "Reset. Your text is kept: Undo brings it back."
        );
        // The same state again is nothing to keep.
        assert!(replace(&work, work.clone(), "Again").undo.is_none());
        // An edit after the load keeps the undo; Undo then keeps the edit.
        let edited = loaded.reduce("more".into());
        let back = undo(&edited);
        assert_eq!(back.text, "mine");
        assert_eq!(
            back.notice.as_ref().unwrap().text,
            "Brought back your text. Your text is kept: Undo brings it back."
        );
        assert_eq!(undo(&back).text, "more");
        // Undo over what the view ships: no undo left.
        let back = undo(&loaded);
        assert_eq!(back.text, "mine");
        assert!(back.undo.is_none() && back.notice.is_none());
        assert_eq!(undo(&back), back, "nothing to undo: nothing changes");
        // Kept states never chain.
        assert!(edited.undo.as_ref().unwrap().state().undo.is_none());
        // Forced: kept even when it is not work.
        assert!(replace_keeping(&ours, work.clone(), "Fixed").undo.is_some());
        // A link that cannot open changes nothing but the notice.
        let refused = open(&work, packed_text("bad"));
        assert_eq!(refused.text, "mine");
        assert_eq!(
            refused.notice.unwrap().text,
            "This link could not be opened: it is bad. Nothing was changed."
        );
        assert_eq!(open(&work, packed_text("x")).text, "x");
        // The link already shown: nothing changes, the undo stays.
        assert_eq!(open(&edited, edited.link()), edited);
    }

    fn packed_text(text: &str) -> Text {
        Text { text: text.into() }
    }
}
