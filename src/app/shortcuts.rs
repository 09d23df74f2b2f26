//! Keyboard shortcuts: which keys each view answers, and what they do.
//!
//! Every shortcut is a single key with no modifier, active only when focus
//! is not in a text field (like GitHub's and Gmail's). Single keys collide
//! with no browser or system shortcut on Linux, Windows or macOS, where
//! Alt+letter opens browser menus (Alt+F), switches tabs (Alt+1..8) or
//! types characters (Option+S is ß). They can be turned off in the
//! shortcuts dialog (WCAG 2.1.4). Keys inside a code editor are the
//! editor's own ([`EDITOR_KEYS`]).

use super::route::View;

/// What a shortcut does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shortcut {
    /// Show or hide the shortcuts dialog.
    Help,
    /// Switch the colour theme.
    Theme,
    /// Swap the old and new objects.
    Swap,
    /// Pretty-print both editors.
    Format,
    /// Bring back what the last load replaced.
    Undo,
    /// Copy a link to this state.
    Share,
    /// Copy the payload of result column `n` (1 to 6).
    CopyPayload(u8),
    /// One step back.
    Back,
    /// One step forward.
    Forward,
    /// To the start of the timeline.
    First,
    /// To the end of the timeline.
    Last,
    /// Play or pause.
    PlayPause,
    /// Show the fix of the first finding that has one, beside the patch.
    UseFix,
    /// Compare presets on or off.
    Compare,
    /// Explore every interleaving.
    Explore,
    /// Run the simulation.
    Run,
    /// The previous step of a walkthrough.
    PreviousStep,
    /// The next step of a walkthrough.
    NextStep,
}

/// A key press, as the browser reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyPress<'a> {
    /// `KeyboardEvent.key`: `s`, `?`, `ArrowLeft`.
    pub key: &'a str,
    /// Ctrl held.
    pub ctrl: bool,
    /// Alt (Option) held.
    pub alt: bool,
    /// Meta (Cmd, Windows key) held.
    pub meta: bool,
}

/// The keys of a code editor, listed in the dialog of views with editors.
pub const EDITOR_KEYS: [(&str, &str); 4] = [
    (
        "Tab",
        "Indent by two spaces (or move focus on, when Tab moves focus)",
    ),
    (
        "Esc, then Tab",
        "Leave the editor: the next Tab moves focus on",
    ),
    (
        "Ctrl+M",
        "Switch what Tab does: indent, or move focus (also a button above the editor)",
    ),
    (
        "Ctrl+Z, Ctrl+Shift+Z",
        "Undo and redo typing, indenting and formatting",
    ),
];

impl Shortcut {
    /// The key as shown in the dialog and in hints.
    pub fn keys(self) -> &'static str {
        match self {
            Shortcut::Help => "?",
            Shortcut::Theme => "t",
            Shortcut::Swap => "s",
            Shortcut::Format => "f",
            Shortcut::Undo => "z",
            Shortcut::Share => "l",
            Shortcut::CopyPayload(_) => "1 … 6",
            Shortcut::Back => "←",
            Shortcut::Forward => "→",
            Shortcut::First => "Home",
            Shortcut::Last => "End",
            Shortcut::PlayPause => "p",
            Shortcut::UseFix => "f",
            Shortcut::Compare => "c",
            Shortcut::Explore => "e",
            Shortcut::Run => "r",
            Shortcut::PreviousStep => "←",
            Shortcut::NextStep => "→",
        }
    }

    /// What it does, in the dialog.
    pub fn what(self) -> &'static str {
        match self {
            Shortcut::Help => "Show or hide this list",
            Shortcut::Theme => "Switch theme: system, light, dark",
            Shortcut::Swap => "Swap old and new",
            Shortcut::Format => "Format both editors",
            Shortcut::Undo => "Undo the last reset, example or link that replaced your work",
            Shortcut::Share => "Copy a link to what you see",
            Shortcut::CopyPayload(_) => "Copy the payload of column 1 … 6",
            Shortcut::Back => "One step back",
            Shortcut::Forward => "One step forward",
            Shortcut::First => "To the start",
            Shortcut::Last => "To the end",
            Shortcut::PlayPause => "Play or pause",
            Shortcut::UseFix => "Use the fix of the first finding that has one",
            Shortcut::Compare => "Compare presets on or off",
            Shortcut::Explore => "Explore every interleaving",
            Shortcut::Run => "Run the simulation",
            Shortcut::PreviousStep => "Previous step",
            Shortcut::NextStep => "Next step",
        }
    }

    /// The shortcuts of a view (`None`: a page that is no view), in the
    /// dialog's order; the global ones last.
    pub fn for_view(view: Option<View>) -> Vec<Shortcut> {
        let mut list = match view {
            Some(View::Build) => vec![
                Shortcut::Swap,
                Shortcut::Format,
                Shortcut::Undo,
                Shortcut::Share,
                Shortcut::CopyPayload(1),
            ],
            Some(View::Check) => vec![Shortcut::UseFix, Shortcut::Undo, Shortcut::Share],
            Some(View::Race) => vec![
                Shortcut::Back,
                Shortcut::Forward,
                Shortcut::First,
                Shortcut::Last,
                Shortcut::PlayPause,
                Shortcut::Compare,
                Shortcut::Explore,
                Shortcut::Undo,
                Shortcut::Share,
            ],
            Some(View::Scale) => vec![Shortcut::Run, Shortcut::Undo, Shortcut::Share],
            Some(View::Learn) => vec![Shortcut::PreviousStep, Shortcut::NextStep],
            None => Vec::new(),
        };
        list.extend([Shortcut::Help, Shortcut::Theme]);
        list
    }

    /// The shortcut a key press means in a view, if any: a single key
    /// without Ctrl, Alt or Meta.
    pub fn from_key(view: Option<View>, press: KeyPress<'_>) -> Option<Shortcut> {
        if press.ctrl || press.alt || press.meta {
            return None;
        }
        let key = match press.key {
            "ArrowLeft" => "←".to_owned(),
            "ArrowRight" => "→".to_owned(),
            "Home" | "End" => press.key.to_owned(),
            // Caps Lock must not turn `s` into nothing.
            key if key.chars().count() == 1 => key.to_ascii_lowercase(),
            _ => return None,
        };
        let key = key.as_str();
        Shortcut::for_view(view).into_iter().find_map(|s| match s {
            Shortcut::CopyPayload(_) => key
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=6).contains(n))
                .map(Shortcut::CopyPayload),
            s if s.keys() == key => Some(s),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(key: &str) -> KeyPress<'_> {
        KeyPress {
            key,
            ctrl: false,
            alt: false,
            meta: false,
        }
    }

    #[test]
    fn each_view_answers_its_own_keys() {
        let build = Some(View::Build);
        assert_eq!(Shortcut::from_key(build, press("s")), Some(Shortcut::Swap));
        assert_eq!(Shortcut::from_key(build, press("S")), Some(Shortcut::Swap));
        assert_eq!(
            Shortcut::from_key(build, press("2")),
            Some(Shortcut::CopyPayload(2))
        );
        assert_eq!(Shortcut::from_key(build, press("7")), None);
        assert_eq!(Shortcut::from_key(build, press("ArrowLeft")), None);
        assert_eq!(Shortcut::from_key(build, press("?")), Some(Shortcut::Help));
        let race = Some(View::Race);
        assert_eq!(
            Shortcut::from_key(race, press("ArrowRight")),
            Some(Shortcut::Forward)
        );
        assert_eq!(
            Shortcut::from_key(race, press("Home")),
            Some(Shortcut::First)
        );
        assert_eq!(
            Shortcut::from_key(race, press("s")),
            None,
            "no swap in Race"
        );
        assert_eq!(
            Shortcut::from_key(Some(View::Learn), press("ArrowLeft")),
            Some(Shortcut::PreviousStep)
        );
        let check = Some(View::Check);
        assert_eq!(
            Shortcut::from_key(check, press("f")),
            Some(Shortcut::UseFix)
        );
        assert_eq!(Shortcut::from_key(check, press("l")), Some(Shortcut::Share));
        assert_eq!(
            Shortcut::from_key(check, press("s")),
            None,
            "no swap in Check"
        );
        assert_eq!(
            Shortcut::from_key(build, press("f")),
            Some(Shortcut::Format),
            "f formats in Build"
        );
        assert_eq!(Shortcut::from_key(None, press("t")), Some(Shortcut::Theme));
        // With a modifier, the key belongs to the browser or the system.
        for (ctrl, alt, meta) in [
            (true, false, false),
            (false, true, false),
            (false, false, true),
        ] {
            let p = KeyPress {
                key: "s",
                ctrl,
                alt,
                meta,
            };
            assert_eq!(Shortcut::from_key(build, p), None);
        }
        assert_eq!(Shortcut::from_key(build, press("Enter")), None);
    }

    #[test]
    fn every_listed_shortcut_is_reachable_and_keys_are_distinct() {
        for view in View::ALL.map(Some).into_iter().chain([None]) {
            let list = Shortcut::for_view(view);
            for (i, a) in list.iter().enumerate() {
                let key = match a {
                    Shortcut::CopyPayload(_) => "1".to_owned(),
                    Shortcut::Back | Shortcut::PreviousStep => "ArrowLeft".to_owned(),
                    Shortcut::Forward | Shortcut::NextStep => "ArrowRight".to_owned(),
                    other => other.keys().to_owned(),
                };
                let found = Shortcut::from_key(view, press(&key));
                let expected = match a {
                    Shortcut::CopyPayload(_) => Some(Shortcut::CopyPayload(1)),
                    other => Some(*other),
                };
                assert_eq!(found, expected, "{view:?} {a:?}");
                for b in &list[i + 1..] {
                    assert_ne!(a.keys(), b.keys(), "{view:?}");
                }
            }
        }
    }
}
