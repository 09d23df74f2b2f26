//! The pre-rendered Build view's editors (`scripts/prerender.mjs`): they
//! take input before the app has loaded, and the app adopts what was typed
//! when it mounts in their place ([`adopt`]), with the caret where it was.
//! The pure part ([`edited_link`]) is tested natively.

use std::rc::Rc;

use super::examples::FIRST_EXAMPLE;
use super::link::BuildLink;

/// The id prefix of the pre-rendered copy's elements.
pub const PREFIX: &str = "pre-";
/// The app's editors, by id.
pub const EDITORS: [&str; 2] = ["old-object", "new-object"];

/// The Build link to start from when a visitor typed into the
/// pre-rendered editors (which show the first example): that example
/// with the texts as typed. `None` when neither text changed.
pub fn edited_link(old: Option<String>, new: Option<String>) -> Option<BuildLink> {
    if old.is_none() && new.is_none() {
        return None;
    }
    let mut link = BuildLink::example(FIRST_EXAMPLE, None)?;
    if let Some(old) = old {
        link.old = Rc::from(old);
    }
    if let Some(new) = new {
        link.new = Rc::from(new);
    }
    Some(link)
}

/// Where the caret was in a pre-rendered editor.
#[cfg(target_arch = "wasm32")]
pub struct Caret {
    id: &'static str,
    start: u32,
    end: u32,
    scroll_top: i32,
    /// The editor's text when the app took over (the app's editor shows
    /// it once rendered).
    text: String,
    tries: u32,
}

/// Reads the pre-rendered editors under `root` before the app replaces
/// them: when a text was edited, the Build link with the texts as typed is
/// saved where the Build view reads saved work (so the view opens with
/// them); returns where the caret was, when an editor had the focus.
#[cfg(target_arch = "wasm32")]
pub fn adopt(root: &web_sys::Element) -> Option<Caret> {
    use wasm_bindgen::JsCast;

    use crate::app::link::{json_of, Shareable};

    let editor = |id: &str| {
        root.query_selector(&format!("#{PREFIX}{id}"))
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    };
    // A textarea's default value is the text the page was written with.
    let edited = |id: &str| {
        let area = editor(id)?;
        let value = area.value();
        (area.default_value().ok()? != value).then_some(value)
    };
    // As JSON, which storage also takes and the view reads as it is (a
    // packed state would need the browser to unpack it first, and the
    // mount is under way); the page module then carries no compressor.
    if let Some(link) = edited_link(edited(EDITORS[0]), edited(EDITORS[1])) {
        crate::app::browser::keep(BuildLink::STORAGE_KEY, &json_of(&link));
    }
    let focused = gloo::utils::document().active_element()?;
    let id = EDITORS
        .into_iter()
        .find(|id| focused.id() == format!("{PREFIX}{id}"))?;
    let area = focused.dyn_into::<web_sys::HtmlTextAreaElement>().ok()?;
    Some(Caret {
        id,
        start: area.selection_start().ok().flatten().unwrap_or(0),
        end: area.selection_end().ok().flatten().unwrap_or(0),
        scroll_top: area.scroll_top(),
        text: area.value(),
        tries: 0,
    })
}

#[cfg(target_arch = "wasm32")]
impl Caret {
    /// Puts the caret into the app's editor of the same side, where it
    /// was, once the app has rendered the editor with its text (an empty
    /// one too; tried in later tasks, for up to a second, until it has).
    pub fn restore(self) {
        use wasm_bindgen::JsCast;
        let area = gloo::utils::document()
            .get_element_by_id(self.id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
            .filter(|area| area.value() == self.text);
        let Some(area) = area else {
            if self.tries < 100 {
                let next = Caret {
                    tries: self.tries + 1,
                    ..self
                };
                gloo::timers::callback::Timeout::new(10, move || next.restore()).forget();
            }
            return;
        };
        let _ = area.focus();
        let _ = area.set_selection_range(self.start, self.end);
        area.set_scroll_top(self.scroll_top);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::build::example;

    #[test]
    fn typed_texts_replace_the_first_examples_and_keep_its_columns() {
        assert_eq!(edited_link(None, None), None);
        let first = example(FIRST_EXAMPLE).unwrap();
        let link = edited_link(None, Some("kind: Pod\n".into())).unwrap();
        assert_eq!(*link.old, *first.old, "the side not typed in stays");
        assert_eq!(&*link.new, "kind: Pod\n");
        assert_eq!(link.columns, first.columns);
        assert_eq!(link.example.as_deref(), Some(FIRST_EXAMPLE));
        let both = edited_link(Some("a: 1".into()), Some("a: 2".into())).unwrap();
        assert_eq!((&*both.old, &*both.new), ("a: 1", "a: 2"));
    }
}
