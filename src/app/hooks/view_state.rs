//! A view's state with everything the link layer does for it: the start
//! from a link or saved state, the address bar and storage kept in step, a
//! link pasted into the open page, notices; and the Share link action.

use yew::prelude::*;

use super::use_link_sync;
use crate::app::browser;
use crate::app::components::UseCopy;
use crate::app::link::{self, LinkError, Shareable, Start, ViewState};
use crate::app::notice::Notice;

/// The view's reducer, started from the route's link payload (or what
/// this browser saved), kept in step with the address bar and storage.
#[hook]
pub fn use_view_state<S>(packed: Option<AttrValue>) -> UseReducerHandle<S>
where
    S: ViewState + Reducible<Action = <S as ViewState>::Action>,
{
    let state = {
        let packed = packed.clone();
        use_reducer(move || {
            let stored = browser::load(S::Link::STORAGE_KEY);
            S::start(Start::new(packed.as_deref(), stored.as_deref()))
        })
    };
    let dispatcher = state.dispatcher();
    let notify = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |notice| dispatcher.dispatch(S::notify(notice)))
    };
    use_link_sync(
        state.link(),
        packed,
        Callback::from(move |opened: Result<S::Link, LinkError>| match opened {
            Ok(link) => dispatcher.dispatch(S::open(link)),
            Err(error) => dispatcher.dispatch(S::notify(Notice::from(&error))),
        }),
        notify,
    );
    state
}

/// Share link: copies the address of `state`'s link, or says why a state
/// too big for a link has none.
#[hook]
pub fn use_share<L: Shareable>(state: L, copy: &UseCopy, notify: Callback<Notice>) -> Callback<()> {
    let copy = copy.copy.clone();
    let latest = use_mut_ref(|| state.clone());
    *latest.borrow_mut() = state;
    use_callback((), move |(), ()| {
        let placed = link::place(&*latest.borrow());
        if placed.too_big_for_a_link {
            notify.emit(Notice::warning(link::too_big_for_a_link(
                placed.stored.len(),
            )));
        } else {
            copy.emit(("share".into(), browser::url_with(&placed.fragment)));
        }
    })
}
