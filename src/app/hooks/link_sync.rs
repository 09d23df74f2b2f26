//! Keeps a view's state, its link in the address bar and browser storage
//! in step: one hook for every view, so every view packs, budgets, stores
//! and announces the same way.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::app::browser;
use crate::app::link::{self, LinkError, Shareable};
use crate::app::notice::Notice;

/// How long state must stay the same before it is written out.
const SETTLE_MS: u32 = 250;

/// Writes `state` to the address bar and storage when it changes (after it
/// settles), and hands a link pasted into the address bar of the open page
/// to `onopen`. With `keep_address` (the page was opened from a link that
/// could not be opened), the first render writes nothing, so the address
/// bar keeps the link and it can be repaired. Storage refused and states
/// too big for a link are announced once through `onnotice`.
#[hook]
pub fn use_link_sync<L: Shareable>(
    state: L,
    packed: Option<AttrValue>,
    keep_address: bool,
    onopen: Callback<Result<L, LinkError>>,
    onnotice: Callback<Notice>,
) {
    let timer = use_mut_ref(|| None::<Timeout>);
    // The state waiting for its timer: when the view ends first (the user
    // went to another view, or another module takes the page over), it is
    // still stored, so coming back finds it.
    let pending = use_mut_ref(|| None::<L>);
    {
        let pending = pending.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(state) = pending.borrow_mut().take() {
                    let _ = browser::save(L::STORAGE_KEY, &link::place(&state).stored);
                }
            }
        });
    }
    let announced = use_mut_ref(Announced::default);
    // A broken link on arrival stays in the address bar until the state
    // changes.
    let keep_address = use_mut_ref(|| keep_address);

    // A new link pasted into the address bar of an open page.
    {
        let state = state.clone();
        use_effect_with(packed, move |packed| {
            if let Some(packed) = packed {
                if link::encode(&state) != **packed {
                    onopen.emit(link::decode::<L>(packed));
                }
            }
        });
    }

    use_effect_with(state, move |state| {
        if std::mem::take(&mut *keep_address.borrow_mut()) {
            return;
        }
        *pending.borrow_mut() = Some(state.clone());
        // The address as this write was scheduled: a link the user opens
        // in the meantime is not overwritten by the state it replaces.
        let scheduled_over = current_fragment();
        *timer.borrow_mut() = Some(Timeout::new(SETTLE_MS, move || {
            if let Some(state) = pending.borrow_mut().take() {
                write_out(&state, &scheduled_over, &announced, &onnotice);
            }
        }));
    });
}

#[derive(Default)]
struct Announced {
    storage: bool,
    too_big: bool,
}

fn current_fragment() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}

fn write_out<L: Shareable>(
    state: &L,
    scheduled_over: &str,
    announced: &Rc<RefCell<Announced>>,
    onnotice: &Callback<Notice>,
) {
    let placed = link::place(state);
    if link::may_replace_address(L::VIEW, scheduled_over, &current_fragment()) {
        browser::replace_fragment(&placed.fragment);
    }
    let mut announced = announced.borrow_mut();
    if placed.too_big_for_a_link && !std::mem::replace(&mut announced.too_big, true) {
        onnotice.emit(Notice::info(link::too_big_for_a_link(placed.stored.len())));
    }
    if let Err(why) = browser::save(L::STORAGE_KEY, &placed.stored) {
        if !std::mem::replace(&mut announced.storage, true) {
            let notice = if placed.too_big_for_a_link {
                Notice::error(format!(
                    "Your work is not saved in this browser ({why}); it stays in this tab only: keep it open, or save the objects to files."
                ))
            } else {
                Notice::warning(format!(
                    "Your work is not saved in this browser ({why}); it stays in this tab and in the page's link."
                ))
            };
            onnotice.emit(notice);
        }
    }
}
