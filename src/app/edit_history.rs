//! An editor's own undo history. The browser's cannot serve: Chrome ends a
//! typing group at every change of the page, and the highlighted copy of
//! the text changes on every keystroke, so Ctrl+Z would undo one
//! character at a time; and a text set from code (a format, an example)
//! clears the browser's history altogether.
//!
//! Typing is grouped like in code editors: a pause, a new line, or a
//! change of place starts a new step; everything else (a paste, an indent,
//! a format, a replacement) is a step of its own.

use std::rc::Rc;

/// A point in an editor's history: a text and where the caret was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditPoint {
    /// The text.
    pub text: Rc<str>,
    /// The selection, in UTF-16 units (as the browser counts).
    pub selection: (u32, u32),
}

/// What kind of change is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A few characters typed or deleted in one place.
    Typing,
    /// Anything else: a paste, an indent, a format, a replacement.
    Other,
}

/// How long a pause in typing starts a new undo step, in milliseconds.
pub const PAUSE_MS: f64 = 1000.0;
/// The most steps kept.
pub const MAX_STEPS: usize = 200;
/// The most bytes of text kept (older steps are dropped first).
pub const MAX_BYTES: usize = 32 * 1024 * 1024;

/// Undo and redo stacks.
#[derive(Clone, Debug, Default)]
pub struct EditHistory {
    undo: Vec<EditPoint>,
    redo: Vec<EditPoint>,
    /// When the open typing group last grew, and where its caret was.
    typing: Option<(f64, u32)>,
}

impl EditHistory {
    /// Records `before` (the state a change starts from) unless the change
    /// continues the open typing group. `at` is the UTF-16 offset the
    /// change happens at; `now` a clock in milliseconds.
    pub fn record(&mut self, before: EditPoint, change: Change, at: u32, now: f64, newline: bool) {
        let continues = match (change, self.typing) {
            (Change::Typing, Some((last, caret))) => {
                now - last < PAUSE_MS && !newline && at.abs_diff(caret) <= 1
            }
            _ => false,
        };
        if !continues {
            self.undo.push(before);
            self.trim();
        }
        self.redo.clear();
        self.typing = match change {
            Change::Typing => Some((now, at)),
            Change::Other => None,
        };
    }

    /// Moves the caret of the open typing group (typing went on at `at`).
    pub fn moved_to(&mut self, at: u32) {
        if let Some((time, _)) = self.typing {
            self.typing = Some((time, at));
        }
    }

    /// The state to go back to, given the current one.
    pub fn undo(&mut self, current: EditPoint) -> Option<EditPoint> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        self.typing = None;
        Some(previous)
    }

    /// The state to go forward to again.
    pub fn redo(&mut self, current: EditPoint) -> Option<EditPoint> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        self.typing = None;
        Some(next)
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    fn trim(&mut self) {
        let mut bytes: usize = self.undo.iter().map(|s| s.text.len()).sum();
        while self.undo.len() > MAX_STEPS || (bytes > MAX_BYTES && self.undo.len() > 1) {
            bytes -= self.undo.remove(0).text.len();
        }
    }
}

/// Where two texts first differ, in UTF-16 units (the browser's unit).
pub fn first_difference(a: &str, b: &str) -> u32 {
    let mut units = 0u32;
    for (x, y) in a.chars().zip(b.chars()) {
        if x != y {
            break;
        }
        units += x.len_utf16() as u32;
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(text: &str) -> EditPoint {
        EditPoint {
            text: Rc::from(text),
            selection: (text.len() as u32, text.len() as u32),
        }
    }

    /// Types `text` after `start`, one character every 100 ms.
    fn type_into(history: &mut EditHistory, start: &str, text: &str, t0: f64) -> String {
        let mut current = start.to_owned();
        for (i, c) in text.chars().enumerate() {
            let at = current.encode_utf16().count() as u32;
            history.record(
                snap(&current),
                Change::Typing,
                at,
                t0 + 100.0 * i as f64,
                c == '\n',
            );
            current.push(c);
        }
        current
    }

    #[test]
    fn typing_is_one_step_until_a_pause_or_a_new_line() {
        let mut h = EditHistory::default();
        let a = type_into(&mut h, "", "abc", 0.0);
        let b = type_into(&mut h, &a, "de", 5_000.0);
        let c = type_into(&mut h, &b, "\nf", 5_300.0);
        assert_eq!(c, "abcde\nf");
        let back = h.undo(snap(&c)).unwrap();
        assert_eq!(&*back.text, "abcde", "the new line began a step");
        let back = h.undo(back).unwrap();
        assert_eq!(&*back.text, "abc", "the pause began a step");
        let back = h.undo(back).unwrap();
        assert_eq!(&*back.text, "");
        assert!(h.undo(back.clone()).is_none());
        let again = h.redo(back).unwrap();
        assert_eq!(&*again.text, "abc");
    }

    #[test]
    fn other_changes_are_steps_and_a_change_drops_the_redo() {
        let mut h = EditHistory::default();
        let typed = type_into(&mut h, "x", "yz", 0.0);
        h.record(snap(&typed), Change::Other, 0, 150.0, false);
        let formatted = "{\n  \"x\": 1\n}";
        let back = h.undo(snap(formatted)).unwrap();
        assert_eq!(&*back.text, "xyz", "the format undone alone");
        h.record(back.clone(), Change::Typing, 3, 200.0, false);
        assert!(
            h.redo(snap("xyzw")).is_none(),
            "a new change drops what could be redone"
        );
    }

    #[test]
    fn typing_elsewhere_begins_a_step() {
        let mut h = EditHistory::default();
        h.record(snap("abc"), Change::Typing, 3, 0.0, false);
        h.record(snap("abcd"), Change::Typing, 0, 50.0, false);
        assert_eq!(&*h.undo(snap("xabcd")).unwrap().text, "abcd");
    }

    #[test]
    fn history_is_bounded() {
        let mut h = EditHistory::default();
        for i in 0..(MAX_STEPS + 50) {
            h.record(snap(&i.to_string()), Change::Other, 0, i as f64, false);
        }
        let mut n = 0;
        let mut current = snap("end");
        while let Some(previous) = h.undo(current.clone()) {
            current = previous;
            n += 1;
        }
        assert_eq!(n, MAX_STEPS);
        assert_eq!(&*current.text, "50", "the oldest steps went first");
        assert_eq!(first_difference("a😀b", "a😀c"), 3);
    }
}
