//! What Tab does in the code editors, remembered in this browser.

use yew::prelude::*;

use crate::app::browser;
use crate::app::components::TabMode;

const KEY: &str = "patchlab.tab";

/// The editors' Tab mode and a callback that changes it.
#[hook]
pub fn use_tab_mode() -> (TabMode, Callback<TabMode>) {
    let mode = use_state(|| TabMode::parse(&browser::load(KEY).unwrap_or_default()));
    let set = {
        let mode = mode.clone();
        Callback::from(move |next: TabMode| {
            let _ = browser::save(KEY, next.as_str());
            mode.set(next);
        })
    };
    (*mode, set)
}
