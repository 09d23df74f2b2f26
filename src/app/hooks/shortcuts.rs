//! The keyboard shortcuts of a view: one non-passive listener (so
//! `preventDefault` works), the view's own keys ([`Shortcut::from_key`]),
//! nothing while typing in a field or while a dialog is open, nothing at
//! all when the user turned single-key shortcuts off.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::browser;
use crate::app::route::View;
use crate::app::shortcuts::{KeyPress, Shortcut};

/// Whether single-key shortcuts are on (provided by the page frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShortcutSettings {
    /// On.
    pub enabled: bool,
}

/// Calls `onshortcut` with the shortcuts of `view` the user presses.
#[hook]
pub fn use_shortcuts(view: Option<View>, onshortcut: Callback<Shortcut>) {
    let settings = use_context::<ShortcutSettings>().unwrap_or(ShortcutSettings { enabled: true });
    // The listener lives as long as the view; it calls the latest callback.
    let latest = use_mut_ref(|| onshortcut.clone());
    *latest.borrow_mut() = onshortcut;
    let enabled = use_mut_ref(|| settings.enabled);
    *enabled.borrow_mut() = settings.enabled;
    use_effect_with(view, move |view| {
        let view = *view;
        let listener = EventListener::new_with_options(
            &gloo::utils::document(),
            "keydown",
            EventListenerOptions::enable_prevent_default(),
            move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if browser::typing() || browser::dialog_open() {
                    return;
                }
                // Turned off, single keys do nothing but `?`, which says how
                // to turn them on again.
                if !*enabled.borrow() && event.key() != "?" {
                    return;
                }
                let key = event.key();
                let press = KeyPress {
                    key: &key,
                    ctrl: event.ctrl_key(),
                    alt: event.alt_key(),
                    meta: event.meta_key(),
                };
                if let Some(shortcut) = Shortcut::from_key(view, press) {
                    event.prevent_default();
                    latest.borrow().emit(shortcut);
                }
            },
        );
        move || drop(listener)
    });
}
