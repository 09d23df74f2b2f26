//! Keeps a view's state, its link in the address bar and browser storage
//! in step: one hook for every view, so every view packs, budgets, stores
//! and announces the same way.
//!
//! The browser packs (`CompressionStream`: no view module carries a
//! compressor), so a write finishes a few milliseconds after its timer;
//! each write is numbered, and one overtaken by a later write (or by the
//! view ending) writes nothing.

use std::cell::{Cell, RefCell};
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
    // The number of the latest write begun: a write still packing when a
    // later one begins, or when the view ends, writes nothing.
    let writes = use_memo((), |()| Cell::new(0u64));
    // The latest state not written out yet (waiting for its timer, or
    // being packed): when the view ends first (the user went to another
    // view, or another module takes the page over), it is stored at once,
    // as JSON (storage reads that too; held in memory when storage refuses
    // it), so coming back finds it.
    let pending = use_mut_ref(|| None::<L>);
    {
        let (pending, writes) = (pending.clone(), writes.clone());
        use_effect_with((), move |_| {
            move || {
                writes.set(writes.get() + 1);
                if let Some(state) = pending.borrow_mut().take() {
                    browser::keep(L::STORAGE_KEY, &link::json_of(&state));
                }
            }
        });
    }
    // The address this hook wrote last: a write begun before it landed may
    // replace it (it is not a link the user opened).
    let written = use_mut_ref(String::new);
    let announced = use_mut_ref(Announced::default);
    // A broken link on arrival stays in the address bar until the state
    // changes.
    let keep_address = use_mut_ref(|| keep_address);

    // A new link pasted into the address bar of an open page (unless it
    // holds the state shown).
    {
        let state = state.clone();
        use_effect_with(packed, move |packed| {
            if let Some(packed) = packed {
                match link::decode::<L>(packed) {
                    Ok(opened) if opened == state => {}
                    opened => onopen.emit(opened),
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
            let Some(state) = pending.borrow().clone() else {
                return;
            };
            writes.set(writes.get() + 1);
            let write = writes.get();
            wasm_bindgen_futures::spawn_local(async move {
                let placed = link::place_async(&state).await;
                if writes.get() != write {
                    return;
                }
                let now = current_fragment();
                let scheduled_over = if now == *written.borrow() {
                    now
                } else {
                    scheduled_over
                };
                if let Some(fragment) =
                    write_out(&state, placed, &scheduled_over, &announced, &onnotice)
                {
                    *written.borrow_mut() = fragment;
                }
                let mut pending = pending.borrow_mut();
                if pending.as_ref() == Some(&state) {
                    *pending = None;
                }
            });
        }));
    });
}

#[derive(Default)]
struct Announced {
    storage: bool,
    too_big: bool,
}

thread_local! {
    /// Whether the page said that this browser cannot pack links (once
    /// for the page, not once per view).
    static TOLD_CANNOT_PACK: Cell<bool> = const { Cell::new(false) };
}

fn current_fragment() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}

/// Writes `state`, packed as `placed`, to the address bar (when it still
/// shows the view; without the state when it does not fit in a link) and
/// storage; a browser that could not pack it stores its JSON, leaves the
/// view's bare route in the address bar (not the link it was opened with,
/// which would bring that back), and says once that it makes no link.
/// Returns the fragment written to the address bar, if any.
fn write_out<L: Shareable>(
    state: &L,
    placed: Result<link::Placement, link::CannotPack>,
    scheduled_over: &str,
    announced: &Rc<RefCell<Announced>>,
    onnotice: &Callback<Notice>,
) -> Option<String> {
    let mut announced = announced.borrow_mut();
    let (fragment, stored, in_link) = match placed {
        Ok(placed) => {
            if placed.too_big_for_a_link && !std::mem::replace(&mut announced.too_big, true) {
                onnotice.emit(Notice::info(link::too_big_for_a_link(placed.stored.len())));
            }
            (placed.fragment, placed.stored, !placed.too_big_for_a_link)
        }
        Err(why) => {
            if !TOLD_CANNOT_PACK.with(|told| told.replace(true)) {
                onnotice.emit(Notice::warning(why.to_string()));
            }
            (link::bare_fragment(L::VIEW), link::json_of(state), false)
        }
    };
    let written =
        link::may_replace_address(L::VIEW, scheduled_over, &current_fragment()).then(|| {
            browser::replace_fragment(&fragment);
            fragment
        });
    if let Err(why) = browser::save(L::STORAGE_KEY, &stored) {
        if !std::mem::replace(&mut announced.storage, true) {
            let notice = if !in_link {
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
    written
}
